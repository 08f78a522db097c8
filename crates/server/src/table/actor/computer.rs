//! Computer players and the table's automatic steps: the start, commitments and deals, the
//! computer's moves (on the task for quick levels, on the blocking pool within the pause for
//! searching ones), and the timers (seed wait, takeovers, tournament clocks).

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
                        let action = choose(&mut bot, &view);
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
        // A tournament table's no-show check, at its time from the opening.
        if let (false, Some(ms), Some(_)) = (
            self.no_show_timer,
            self.core.no_show_ms(),
            self.core.no_show_seat(),
        ) {
            self.no_show_timer = true;
            let due = self.core.cfg.created_at * 1000 + i64::try_from(ms).unwrap_or(i64::MAX);
            let wait = u64::try_from(due - self.app.cfg.clock.now_ms()).unwrap_or(0);
            let tx = self.tx.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(wait)).await;
                let _ = tx.send(TableCmd::NoShowCheck).await;
            });
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
        // The turn clock of the person to move.
        if let (Some(ms), Some(seat)) = (self.core.turn_ms(), self.core.to_move()) {
            let version = self.core.version;
            let person = matches!(
                self.core.seats[seat as usize].occupant,
                Occupant::Human { .. }
            );
            if person && !self.core.computer_plays(seat) && self.turn_timer != Some(version) {
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
            let quick = QUICK.contains(&self.core.bot_level(seat).as_str());
            let pool = self.app.compute.clone();
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
                    let action = match thinking_cap(delay) {
                        Some(_) => {
                            let left = due_std.saturating_duration_since(Instant::now());
                            let cap = thinking_cap(left).unwrap_or(Duration::ZERO);
                            choose_within(&mut bot, &view, cap.max(Duration::from_millis(1)))
                        }
                        None => choose(&mut bot, &view),
                    };
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
        } else if !self.core.connected[seat as usize] && self.core.cfg.correspondence.is_none() {
            // At correspondence tables the move's clock decides instead (the correspondence
            // concern).
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
