//! Computer players and the table's automatic steps: the start, commitments and deals, the
//! computer's moves (on the task for quick levels, on the blocking pool within the pause for
//! searching ones), and the timers (seed wait, takeovers, tournament clocks). A tournament
//! table has no takeover: its clocks (no-shows, the turn clock, the match clock) decide
//! instead, and no computer plays a person's seat there.

use std::time::{Duration, Instant};

use fiveup_bots::{make_bot, Bot};
use fiveup_engine::{Action, Seat};
use fiveup_protocol::{Occupant, TableStatus};

use super::*;
use crate::table::Stored;

/// Computer players quick enough to run on the table's task (microseconds a decision); the
/// others run on the blocking pool.
pub(super) const QUICK: [&str; 5] = ["beginner", "casual", "club", "random", "greedy"];

/// A seat player's choice from its view.
pub(super) fn choose(bot: &mut Bot, view: &fiveup_engine::View) -> Action {
    match bot {
        Bot::Seat(p) => p.choose(view),
        // Only seat players are offered as levels; an oracle never sits.
        Bot::Omniscient(_) => view.legal_actions()[0],
    }
}

/// [`choose`] within a time limit (see `Player::choose_within`).
pub(super) fn choose_within(bot: &mut Bot, view: &fiveup_engine::View, cap: Duration) -> Action {
    match bot {
        Bot::Seat(p) => p.choose_within(view, cap),
        Bot::Omniscient(_) => view.legal_actions()[0],
    }
}

/// How long a computer player may think within its pause before answering: three quarters of
/// the pause, leaving the rest for the world in progress to finish and the answer to be
/// stored, so that every answer comes when the pause ends. No pause, no limit: the player
/// answers when its search is done.
pub(super) fn thinking_cap(pause: Duration) -> Option<Duration> {
    (!pause.is_zero()).then(|| pause * 3 / 4)
}

impl Actor {
    /// The computer player of a seat, made on first use.
    pub(super) fn take_bot(&mut self, seat: u8) -> Option<Box<Bot>> {
        if let Some(b) = self.bots.remove(&seat) {
            return Some(b);
        }
        let spec = self.app.cfg.bot_spec(&self.core.bot_level(seat));
        let seed = u64::from_le_bytes(
            crate::table::fairness::random_bytes()[..8]
                .try_into()
                .expect("8 bytes"),
        );
        match make_bot(&spec, seed) {
            Ok(b) => Some(Box::new(b)),
            Err(e) => {
                crate::log(&format!("bad computer player {spec}: {e}"));
                None
            }
        }
    }

    /// Take the automatic steps the table is due (start, commitments, deals), then set the
    /// timers for computer players, the seed wait and takeovers.
    pub(super) async fn after_change(&mut self) {
        loop {
            // The match clock's decision comes before anything else.
            if self.core.clock_winner().is_some() {
                if self.commit(vec![Stored::ClockEnd]).await.is_err() {
                    break;
                }
                continue;
            }
            // Quick computer players with no pause play at once, here.
            if self.app.cfg.bot_delay.is_zero() && self.bot_pending.is_none() {
                if let Some(seat) = self.core.to_move() {
                    let level = self.core.bot_level(seat);
                    if self.core.computer_plays(seat) && QUICK.contains(&level.as_str()) {
                        let Some(mut bot) = self.take_bot(seat) else {
                            break;
                        };
                        let view = self
                            .core
                            .state
                            .as_ref()
                            .expect("a hand in play")
                            .view(Seat(seat));
                        let started = Instant::now();
                        let action = choose(&mut bot, &view);
                        self.app
                            .metrics
                            .computer_decision(&level, started.elapsed().as_secs_f64());
                        self.bots.insert(seat, bot);
                        let act = Stored::Act {
                            seat,
                            action,
                            cmd: None,
                        };
                        if self.commit(vec![act]).await.is_err() {
                            break;
                        }
                        continue;
                    }
                }
            }
            let change = if self.core.status == TableStatus::Waiting && self.core.all_seated() {
                Some(Stored::Start)
            } else if self.core.status == TableStatus::Dealing && self.core.pending.is_none() {
                let hand = self
                    .core
                    .state
                    .as_ref()
                    .map_or(1, |s| s.start().hand_no + 1);
                // A duplicate board's seed is fixed; any other hand's is fresh.
                let server_seed = self.core.board_seed().map_or_else(
                    || crate::table::fairness::to_hex(&crate::table::fairness::random_bytes()),
                    str::to_string,
                );
                Some(Stored::Commit { hand, server_seed })
            } else if self.core.status == TableStatus::Dealing && self.core.seeds_complete() {
                Some(Stored::Deal {
                    hand: self.core.pending.as_ref().map_or(0, |p| p.hand),
                })
            } else {
                None
            };
            let Some(change) = change else { break };
            if self.commit(vec![change]).await.is_err() {
                break;
            }
        }
        self.finalize().await;
        self.app.hooks.changed(&self.app, &self.core).await;
        // A tournament table's no-show check, at the earliest no-show time to come.
        self.track_waits();
        if let Some(due) = self.next_no_show() {
            if self.no_show_due.is_none_or(|d| d > due) {
                self.no_show_due = Some(due);
                let wait = u64::try_from(due - self.app.cfg.clock.now_ms()).unwrap_or(0);
                let tx = self.tx.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(wait)).await;
                    let _ = tx.send(TableCmd::NoShowCheck { due }).await;
                });
            }
        }
        // The match clock, from the opening.
        if let (false, Some(ms), false) = (
            self.match_timer,
            self.core.match_ms(),
            self.core.status == TableStatus::Finished,
        ) {
            self.match_timer = true;
            let due = self.core.cfg.created_at * 1000 + i64::try_from(ms).unwrap_or(i64::MAX);
            let wait = u64::try_from(due - self.app.cfg.clock.now_ms()).unwrap_or(0);
            let tx = self.tx.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(wait)).await;
                let _ = tx.send(TableCmd::ClockOut).await;
            });
        }
        // The turn clock of the person to move, once they have made a move of their own (until
        // then the no-show rule is theirs).
        if let (Some(ms), Some(seat)) = (self.core.turn_ms(), self.core.to_move()) {
            let version = self.core.version;
            let person = matches!(
                self.core.seats[seat as usize].occupant,
                Occupant::Human { .. }
            );
            if person
                && !self.core.computer_plays(seat)
                && self.core.acted(seat)
                && self.turn_timer != Some(version)
            {
                self.turn_timer = Some(version);
                let tx = self.tx.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    let _ = tx.send(TableCmd::TurnOut { version, seat }).await;
                });
            }
        }
        // The seed wait.
        if let Some(p) = &self.core.pending {
            if self.seed_timer != Some(p.hand) {
                self.seed_timer = Some(p.hand);
                let hand = p.hand;
                let tx = self.tx.clone();
                let wait = self.app.cfg.seed_wait;
                tokio::spawn(async move {
                    tokio::time::sleep(wait).await;
                    let _ = tx.send(TableCmd::SeedTimeout { hand }).await;
                });
            }
        }
        let Some(seat) = self.core.to_move() else {
            return;
        };
        let version = self.core.version;
        if self.core.computer_plays(seat) {
            if self.bot_pending == Some(version) {
                return;
            }
            let Some(bot) = self.take_bot(seat) else {
                return;
            };
            self.bot_pending = Some(version);
            let view = self
                .core
                .state
                .as_ref()
                .expect("a hand in play")
                .view(Seat(seat));
            let tx = self.tx.clone();
            let delay = self.app.cfg.bot_delay;
            let level = self.core.bot_level(seat);
            let quick = QUICK.contains(&level.as_str());
            let pool = self.app.compute.clone();
            let app = self.app.clone();
            let owner = self.core.cfg.owner();
            tokio::spawn(async move {
                // The player thinks first and the answer waits out the rest of the pause, so
                // that how long it takes does not tell the others what it holds (a forced
                // move is found in microseconds, a searched one in milliseconds).
                // A searching player's deadline falls inside the pause, so that the pause hides
                // the thinking whatever the level, set or build: it thinks for three quarters
                // of what is left of the pause when its turn on the CPU comes.
                let due = tokio::time::Instant::now() + delay;
                let due_std = due.into_std();
                let think = move || {
                    let mut bot = bot;
                    let started = Instant::now();
                    let action = match thinking_cap(delay) {
                        Some(_) => {
                            let left = due_std.saturating_duration_since(Instant::now());
                            let cap = thinking_cap(left).unwrap_or(Duration::ZERO);
                            choose_within(&mut bot, &view, cap.max(Duration::from_millis(1)))
                        }
                        None => choose(&mut bot, &view),
                    };
                    app.metrics
                        .computer_decision(&level, started.elapsed().as_secs_f64());
                    (bot, action)
                };
                // Searching players take their owner's turn on the CPU (`table::compute`); the
                // quick ones answer in microseconds and need no turn.
                let res = if quick {
                    tokio::task::spawn_blocking(think).await.ok()
                } else {
                    pool.run(owner, think).await.ok()
                };
                tokio::time::sleep_until(due).await;
                if let Some((bot, action)) = res {
                    let _ = tx
                        .send(TableCmd::BotMove {
                            version,
                            seat,
                            action,
                            bot,
                        })
                        .await;
                }
            });
        } else if !self.core.connected[seat as usize]
            && self.core.cfg.correspondence.is_none()
            && self.core.cfg.tournament.is_none()
        {
            // At correspondence tables the move's clock decides instead (the correspondence
            // concern); at tournament tables the no-show time and the turn clock do.
            let Some(after) = self.app.cfg.takeover else {
                return;
            };
            if self.takeover_pending == Some(version) {
                return;
            }
            self.takeover_pending = Some(version);
            let tx = self.tx.clone();
            tokio::spawn(async move {
                tokio::time::sleep(after).await;
                let _ = tx.send(TableCmd::TakeoverCheck { version, seat }).await;
            });
        }
    }
}

impl Actor {
    /// Keep, for each person who has made no move of their own, since when the game has
    /// waited for them: their turn, or (at a table that takes seeds) their seed of the hand
    /// committed. Their seed coming is an answer: the wait starts again at their turn.
    fn track_waits(&mut self) {
        if self.core.no_show_ms().is_none() {
            return;
        }
        let now = self.app.cfg.clock.now_ms();
        let opened = self.core.cfg.created_at * 1000;
        let seeds = self.core.board_seed().is_none();
        for seat in 0..self.core.players() {
            let i = seat as usize;
            if !matches!(self.core.seats[i].occupant, Occupant::Human { .. })
                || self.core.acted(seat)
                || self.core.status == TableStatus::Finished
            {
                continue;
            }
            let turn = self.core.to_move() == Some(seat);
            let seed_in = match &self.core.pending {
                Some(p) if seeds => Some(p.client[i].is_some()),
                _ => None,
            };
            if seed_in == Some(true) && !turn {
                self.wait_from[i] = None;
            } else if (turn || seed_in == Some(false)) && self.wait_from[i].is_none() {
                self.wait_from[i] = Some(if self.restored { opened } else { now });
            }
        }
        self.restored = false;
    }

    /// When a person's no-show time ends (ms since the epoch): the no-show time after the
    /// later of the table's opening second and the start of the game's wait for them; none
    /// while the game is not waiting for them, or once they have made a move of their own.
    fn no_show_at(&self, seat: u8) -> Option<i64> {
        let ms = i64::try_from(self.core.no_show_ms()?).unwrap_or(i64::MAX);
        let i = seat as usize;
        if self.core.status == TableStatus::Finished
            || !matches!(self.core.seats[i].occupant, Occupant::Human { .. })
            || self.core.acted(seat)
            || self.core.no_shows.contains(&seat)
        {
            return None;
        }
        let from = self.wait_from[i]?.max(self.core.cfg.created_at * 1000);
        Some(from.saturating_add(ms))
    }

    /// The earliest no-show time to come at this table.
    fn next_no_show(&self) -> Option<i64> {
        (0..self.core.players())
            .filter_map(|s| self.no_show_at(s))
            .min()
    }

    /// The people whose no-show time has ended by `due`.
    pub(super) fn no_shows_by(&self, due: i64) -> Vec<u8> {
        (0..self.core.players())
            .filter(|&s| self.no_show_at(s).is_some_and(|t| t <= due))
            .collect()
    }

    /// At a tournament table, a person who is out of the game (a no-show, a forfeit) loses it
    /// with a record: a hand still waiting for seeds is dealt first without the missing
    /// ones. These are the changes to store, `out` last.
    pub(super) fn dealt_then(&self, out: Vec<Stored>) -> Vec<Stored> {
        let mut changes = Vec::new();
        if self.core.state.is_none() {
            if let Some(p) = &self.core.pending {
                changes.push(Stored::Deal { hand: p.hand });
            }
        }
        changes.extend(out);
        changes
    }
}
