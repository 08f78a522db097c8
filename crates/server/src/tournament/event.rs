//! One event as a value: its settings, its entrants and the log of operations applied to it.
//! Nothing here touches the database or the clock: the director decides the operations, stores
//! each one, then applies it here; loading an event applies its stored log again and gets
//! exactly the same event.

use std::collections::{BTreeMap, BTreeSet};

use fiveup_protocol::{TournamentStanding, TournamentSummary, UserRef};
use fiveup_tournament::arena::{Arena, ArenaOp, ArenaSettings};
use fiveup_tournament::cutthroat::{CutThroat, CutThroatOp, CutThroatSettings};
use fiveup_tournament::duplicate::{self, Board, DuplicateScoring};
use fiveup_tournament::knockout::{Elimination, Knockout, KnockoutOp, KnockoutSettings};
use fiveup_tournament::roundrobin::{RoundRobin, RoundRobinOp, RoundRobinSettings};
use fiveup_tournament::swiss::{Swiss, SwissOp, SwissSettings};
use fiveup_tournament::{Entrant, EntrantId, MatchResult, StandingRow};
use serde::{Deserialize, Serialize};

pub use super::settings::{Format, Scoring, Settings, NO_SHOW_MS};

/// Someone who plays for an entrant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Member {
    /// A person.
    User {
        /// Who.
        user: UserRef,
    },
    /// A computer player.
    Bot {
        /// Its level.
        level: String,
    },
}

impl Member {
    /// The person's id, if a person.
    #[must_use]
    pub const fn user_id(&self) -> Option<i64> {
        match self {
            Member::User { user } => Some(user.id),
            Member::Bot { .. } => None,
        }
    }
}

/// A registered entrant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntrantRow {
    /// The entrant (its id is its number in the event).
    pub entrant: Entrant,
    /// Who plays: one member, or two for a team.
    pub members: Vec<Member>,
    /// Withdrawn.
    #[serde(default)]
    pub withdrawn: bool,
}

/// Which match: (round, index) in a Swiss, (0, match id) in a knockout, (0, match number) in
/// an arena, (board from 0, entrant) in a duplicate event.
pub type Key = (usize, usize);

/// One stored operation of an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "op")]
pub enum Op {
    /// The event starts with these entrants (milliseconds since the epoch).
    Start {
        /// When.
        at_ms: i64,
        /// The field.
        entrants: Vec<Entrant>,
    },
    /// It could not start: fewer than two entrants.
    Cancel,
    /// A duplicate event's boards: each one's server seed (64 hex digits), drawn before the
    /// start and kept secret until the event is over (their commitments are shown at once).
    Boards {
        /// One seed a board.
        seeds: Vec<String>,
    },
    /// A late entrant joins a running duplicate event.
    Enter {
        /// The entrant.
        entrant: Entrant,
    },
    /// An entrant leaves a running duplicate event: no more boards are dealt to them.
    Withdraw {
        /// The entrant.
        entrant: EntrantId,
    },
    /// A daylong closes: no more entries, no more boards dealt (those in play are finished).
    Close {
        /// When.
        at_ms: i64,
    },
    /// A Swiss operation.
    Swiss {
        /// The operation.
        swiss: SwissOp,
    },
    /// A knockout result.
    Knockout {
        /// The operation.
        knockout: KnockoutOp,
    },
    /// An arena operation.
    Arena {
        /// The operation.
        arena: ArenaOp,
    },
    /// A round robin's result.
    RoundRobin {
        /// The operation.
        round_robin: RoundRobinOp,
    },
    /// A cut-throat operation (a round seated, a table's points, a withdrawal).
    CutThroat {
        /// The operation.
        cut_throat: CutThroatOp,
    },
    /// A table was opened for game `game` (from 0) of a match.
    Open {
        /// The match.
        key: Key,
        /// The game of the match.
        game: u32,
        /// The table.
        table: String,
    },
    /// The table of an open game was never created (its instance died between storing the
    /// `open` and writing the table, and the table's id cannot be taken again): the game is
    /// played at this table instead.
    Reopen {
        /// The match.
        key: Key,
        /// The game of the match.
        game: u32,
        /// The new table.
        table: String,
    },
    /// A game's result, read from the finished table's record.
    Game {
        /// The match.
        key: Key,
        /// The game of the match.
        game: u32,
        /// Whether side A won.
        a_won: bool,
        /// Both sides' scores.
        points: [i64; 2],
        /// Every side's score (a cut-throat table's, seat by seat).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        scores: Vec<i64>,
    },
    /// A person did not come to the table of a game in time: the game is lost (its result
    /// follows as a `game`), and the person is withdrawn and counted for the ban on repeat
    /// no-shows.
    NoShow {
        /// The match.
        key: Key,
        /// The game of the match.
        game: u32,
        /// Who.
        user: i64,
        /// When (ms since the epoch).
        at_ms: i64,
    },
    /// The event is over.
    Finish {
        /// When.
        at_ms: i64,
    },
    /// A moderator marked the account of an entrant for computer-assisted play: the entrant
    /// leaves the standings and the others move up (a duplicate event's matchpoints are
    /// computed again without them). Applies even to a finished event; `on: false` (the mark
    /// undone) puts them back.
    Disqualify {
        /// The entrant.
        entrant: EntrantId,
        /// Out (true) or back (false).
        on: bool,
    },
}

/// The format's state, once started.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Fmt {
    /// A Swiss.
    Swiss {
        /// Its state.
        swiss: Swiss,
    },
    /// A knockout.
    Knockout {
        /// Its state.
        knockout: Knockout,
    },
    /// An arena.
    Arena {
        /// Its state.
        arena: Arena,
    },
    /// A round robin.
    RoundRobin {
        /// Its state.
        rr: RoundRobin,
        /// Its entrants.
        field: Vec<Entrant>,
    },
    /// A cut-throat event.
    CutThroat {
        /// Its state.
        ct: CutThroat,
        /// Its entrants.
        field: Vec<Entrant>,
    },
    /// A duplicate event or a daylong (its games are the boards, keyed (board, entrant)).
    Duplicate {
        /// The field, late entrants last.
        field: Vec<Entrant>,
        /// Those who left.
        out: BTreeSet<EntrantId>,
        /// A daylong that has closed.
        closed: bool,
    },
}

/// One game of a match: its table and, once over, its result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Game {
    /// The table.
    pub table: String,
    /// Whether side A won, and both sides' scores.
    pub result: Option<(bool, [i64; 2])>,
    /// Every side's score once over (a cut-throat table's, seat by seat).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<i64>,
}

/// A live match: its key and its two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Live {
    /// The match.
    pub key: Key,
    /// Side A.
    pub a: EntrantId,
    /// Side B.
    pub b: EntrantId,
}

/// An event.
#[derive(Clone, Debug)]
pub struct Event {
    /// Its id.
    pub id: String,
    /// Its settings.
    pub settings: Settings,
    /// The format's state once started.
    pub fmt: Option<Fmt>,
    /// When it started (ms since the epoch).
    pub start_ms: Option<i64>,
    /// Over (or cancelled).
    pub finished: bool,
    /// Cancelled for want of entrants.
    pub cancelled: bool,
    /// The games of each match.
    pub games: BTreeMap<Key, Vec<Game>>,
    /// Operations applied.
    pub ops: Vec<Op>,
    /// An arena's entrants (its state does not list them).
    arena_field: Vec<Entrant>,
    /// A duplicate event's board seeds.
    pub boards: Vec<[u8; 32]>,
    /// The no-shows: (match, game, person, when).
    pub no_shows: Vec<(Key, u32, i64, i64)>,
    /// Entrants disqualified by a moderator's mark: left out of the standings.
    pub disqualified: std::collections::BTreeSet<EntrantId>,
}

impl Event {
    /// A new event, not started.
    #[must_use]
    pub const fn new(id: String, settings: Settings) -> Event {
        Event {
            id,
            settings,
            fmt: None,
            start_ms: None,
            finished: false,
            cancelled: false,
            games: BTreeMap::new(),
            ops: Vec::new(),
            arena_field: Vec::new(),
            boards: Vec::new(),
            no_shows: Vec::new(),
            disqualified: std::collections::BTreeSet::new(),
        }
    }

    /// Apply one operation; a refused one changes nothing.
    pub fn apply(&mut self, op: Op) -> Result<(), String> {
        // A disqualification comes from moderation, whenever it finds out: finished or not.
        if let Op::Disqualify { entrant, on } = &op {
            if *on {
                self.disqualified.insert(*entrant);
            } else {
                self.disqualified.remove(entrant);
            }
            self.ops.push(op);
            return Ok(());
        }
        if self.finished {
            return Err("the event is over".into());
        }
        let started = |e: &Event| {
            if e.fmt.is_some() {
                Ok(())
            } else {
                Err("the event has not started".to_string())
            }
        };
        match &op {
            Op::Start { at_ms, entrants } => {
                if self.fmt.is_some() {
                    return Err("the event has started already".into());
                }
                let rule = self.settings.rule();
                let err = |e: fiveup_tournament::TournamentError| e.to_string();
                let fmt = match self.settings.format {
                    Format::Swiss { rounds } => Fmt::Swiss {
                        swiss: Swiss::new(SwissSettings { rounds, rule }, entrants.clone())
                            .map_err(err)?,
                    },
                    Format::Knockout { double } => Fmt::Knockout {
                        knockout: Knockout::new(
                            KnockoutSettings {
                                elimination: if double {
                                    Elimination::Double
                                } else {
                                    Elimination::Single
                                },
                                rule,
                            },
                            entrants.clone(),
                        )
                        .map_err(err)?,
                    },
                    Format::Arena { duration_ms } => {
                        let mut arena = Arena::new(
                            ArenaSettings {
                                duration_ms,
                                streaks: true,
                                rule,
                            },
                            entrants.clone(),
                        )
                        .map_err(err)?;
                        for e in entrants {
                            arena.join(e.id).map_err(err)?;
                        }
                        self.arena_field.clone_from(entrants);
                        Fmt::Arena { arena }
                    }
                    Format::RoundRobin { double } => Fmt::RoundRobin {
                        rr: RoundRobin::new(RoundRobinSettings { double, rule }, entrants.clone())
                            .map_err(err)?,
                        field: entrants.clone(),
                    },
                    Format::CutThroat {
                        rounds,
                        min_seats,
                        max_seats,
                    } => Fmt::CutThroat {
                        ct: CutThroat::new(
                            CutThroatSettings {
                                min_seats,
                                max_seats,
                                rounds,
                            },
                            entrants.clone(),
                        )
                        .map_err(err)?,
                        field: entrants.clone(),
                    },
                    Format::Duplicate { boards, .. } | Format::Daylong { boards, .. } => {
                        if self.boards.len() != boards as usize {
                            return Err("the boards are not drawn".into());
                        }
                        fiveup_tournament::check_entrants(entrants).map_err(err)?;
                        Fmt::Duplicate {
                            field: entrants.clone(),
                            out: BTreeSet::new(),
                            closed: false,
                        }
                    }
                };
                self.fmt = Some(fmt);
                self.start_ms = Some(*at_ms);
            }
            Op::Cancel => {
                if self.fmt.is_some() {
                    return Err("the event has started".into());
                }
                self.finished = true;
                self.cancelled = true;
            }
            Op::RoundRobin { round_robin: o } => match &mut self.fmt {
                Some(Fmt::RoundRobin { rr, .. }) => rr
                    .record(o.round, o.table, o.result)
                    .map_err(|e| e.to_string())?,
                _ => return Err("not a running round robin".into()),
            },
            Op::CutThroat { cut_throat: o } => match &mut self.fmt {
                Some(Fmt::CutThroat { ct, .. }) => {
                    ct.apply(o.clone()).map_err(|e| e.to_string())?
                }
                _ => return Err("not a running cut-throat event".into()),
            },
            Op::Boards { seeds } => {
                let Some((boards, _)) = self.settings.format.duplicate() else {
                    return Err("boards are for duplicate events".into());
                };
                if self.fmt.is_some() || !self.boards.is_empty() {
                    return Err("the boards are drawn already".into());
                }
                if seeds.len() != boards as usize {
                    return Err(format!("{} seeds for {boards} boards", seeds.len()));
                }
                self.boards = seeds
                    .iter()
                    .map(|s| crate::table::fairness::parse_seed_hex(s))
                    .collect::<Result<_, _>>()?;
            }
            Op::Enter { entrant } => match &mut self.fmt {
                Some(Fmt::Duplicate { field, closed, .. }) => {
                    if *closed {
                        return Err("the daylong has closed".into());
                    }
                    let mut with = field.clone();
                    with.push(entrant.clone());
                    fiveup_tournament::check_entrants(&with).map_err(|e| e.to_string())?;
                    *field = with;
                }
                _ => return Err("not a running duplicate event".into()),
            },
            Op::Withdraw { entrant } => match &mut self.fmt {
                Some(Fmt::Duplicate { field, out, .. }) => {
                    if !field.iter().any(|e| e.id == *entrant) {
                        return Err(format!("entrant {} is not in the event", entrant.0));
                    }
                    if !out.insert(*entrant) {
                        return Err(format!("entrant {} has left already", entrant.0));
                    }
                }
                _ => return Err("not a running duplicate event".into()),
            },
            Op::Close { .. } => match &mut self.fmt {
                Some(Fmt::Duplicate { closed, .. })
                    if matches!(self.settings.format, Format::Daylong { .. }) =>
                {
                    if *closed {
                        return Err("the daylong has closed already".into());
                    }
                    *closed = true;
                }
                _ => return Err("not a running daylong".into()),
            },
            Op::Swiss { swiss: s } => match &mut self.fmt {
                Some(Fmt::Swiss { swiss }) => swiss.apply(s.clone()).map_err(|e| e.to_string())?,
                _ => return Err("not a running Swiss".into()),
            },
            Op::Knockout { knockout: k } => match &mut self.fmt {
                Some(Fmt::Knockout { knockout }) => knockout
                    .record(k.match_id, k.result)
                    .map_err(|e| e.to_string())?,
                _ => return Err("not a running knockout".into()),
            },
            Op::Arena { arena: a } => match &mut self.fmt {
                Some(Fmt::Arena { arena }) => arena.apply(a.clone()).map_err(|e| e.to_string())?,
                _ => return Err("not a running arena".into()),
            },
            Op::Open { key, game, table } => {
                started(self)?;
                let games = self.games.entry(*key).or_default();
                if games.len() != *game as usize || games.last().is_some_and(|g| g.result.is_none())
                {
                    return Err(format!("game {game} of match {key:?} is not due"));
                }
                games.push(Game {
                    table: table.clone(),
                    result: None,
                    scores: Vec::new(),
                });
            }
            Op::Reopen { key, game, table } => {
                started(self)?;
                let g = self
                    .games
                    .get_mut(key)
                    .and_then(|g| g.get_mut(*game as usize))
                    .ok_or_else(|| format!("match {key:?} has no game {game}"))?;
                if g.result.is_some() {
                    return Err(format!("game {game} of match {key:?} has its result"));
                }
                g.table.clone_from(table);
            }
            Op::Game {
                key,
                game,
                a_won,
                points,
                scores,
            } => {
                started(self)?;
                let g = self
                    .games
                    .get_mut(key)
                    .and_then(|g| g.get_mut(*game as usize))
                    .ok_or_else(|| format!("match {key:?} has no game {game}"))?;
                if g.result.is_some() {
                    return Err(format!("game {game} of match {key:?} has its result"));
                }
                g.result = Some((*a_won, *points));
                g.scores.clone_from(scores);
            }
            Op::NoShow {
                key,
                game,
                user,
                at_ms,
            } => {
                started(self)?;
                let g = self
                    .games
                    .get(key)
                    .and_then(|g| g.get(*game as usize))
                    .ok_or_else(|| format!("match {key:?} has no game {game}"))?;
                if g.result.is_some() {
                    return Err(format!("game {game} of match {key:?} has its result"));
                }
                if self
                    .no_shows
                    .iter()
                    .any(|n| (n.0, n.1, n.2) == (*key, *game, *user))
                {
                    return Err(format!("the no-show of game {game} of {key:?} is stored"));
                }
                self.no_shows.push((*key, *game, *user, *at_ms));
            }
            Op::Finish { .. } => {
                started(self)?;
                self.finished = true;
            }
            Op::Disqualify { .. } => unreachable!("applied above"),
        }
        self.ops.push(op);
        Ok(())
    }

    /// The matches paired and not yet decided.
    #[must_use]
    pub fn live(&self) -> Vec<Live> {
        match &self.fmt {
            None => Vec::new(),
            Some(Fmt::Swiss { swiss }) => {
                let Some(round) = swiss.rounds().last() else {
                    return Vec::new();
                };
                let r = swiss.rounds().len() - 1;
                round
                    .pairings
                    .iter()
                    .zip(&round.results)
                    .enumerate()
                    .filter_map(|(t, (p, res))| match (p.b, res) {
                        (Some(b), None) => Some(Live {
                            key: (r, t),
                            a: p.a,
                            b,
                        }),
                        _ => None,
                    })
                    .collect()
            }
            Some(Fmt::Knockout { knockout }) => knockout
                .ready()
                .into_iter()
                .map(|(m, a, b)| Live { key: (0, m), a, b })
                .collect(),
            Some(Fmt::Arena { arena }) => arena
                .matches()
                .iter()
                .enumerate()
                .filter(|(_, m)| m.result.is_none())
                .map(|(i, m)| Live {
                    key: (0, i),
                    a: m.a,
                    b: m.b,
                })
                .collect(),
            Some(Fmt::RoundRobin { rr, .. }) => {
                // Round by round: the first round not complete.
                let Some(r) = rr.rounds().iter().position(|r| !r.is_complete()) else {
                    return Vec::new();
                };
                let round = &rr.rounds()[r];
                round
                    .pairings
                    .iter()
                    .zip(&round.results)
                    .enumerate()
                    .filter_map(|(t, (p, res))| match (p.b, res) {
                        (Some(b), None) => Some(Live {
                            key: (r, t),
                            a: p.a,
                            b,
                        }),
                        _ => None,
                    })
                    .collect()
            }
            Some(Fmt::CutThroat { ct, .. }) => {
                let Some(round) = ct.rounds().last() else {
                    return Vec::new();
                };
                let r = ct.rounds().len() - 1;
                round
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.points.is_none())
                    .map(|(i, t)| Live {
                        key: (r, i),
                        a: t.seats[0],
                        b: t.seats[1],
                    })
                    .collect()
            }
            Some(Fmt::Duplicate { field, out, closed }) => {
                let boards = self.boards.len();
                field
                    .iter()
                    .filter_map(|e| {
                        // The entrant's board in play, or the next one to deal.
                        let started = (0..boards)
                            .take_while(|&b| self.games.contains_key(&(b, e.id.0 as usize)))
                            .count();
                        let in_play = started > 0
                            && self.games[&(started - 1, e.id.0 as usize)]
                                .iter()
                                .any(|g| g.result.is_none());
                        let board = if in_play {
                            started - 1
                        } else if started < boards && !closed && !out.contains(&e.id) {
                            started
                        } else {
                            return None;
                        };
                        Some(Live {
                            key: (board, e.id.0 as usize),
                            a: e.id,
                            b: EntrantId(0),
                        })
                    })
                    .collect()
            }
        }
    }

    /// A duplicate event's boards as the crate scores them: each entrant's score on each
    /// board played (their side's points minus the computer's), and the entrants who did not
    /// come to a board dealt to them (a stored no-show), who get the board's bottom.
    #[must_use]
    pub fn board_scores(&self) -> Vec<Board> {
        (0..self.boards.len())
            .map(|b| {
                let mut board = Board::default();
                for e in self.field() {
                    let key = (b, e.id.0 as usize);
                    let Some(games) = self.games.get(&key) else {
                        continue;
                    };
                    let Some(g) = games.last() else { continue };
                    let Some((_, p)) = g.result else { continue };
                    let game = games.len() as u32 - 1;
                    if self.no_shows.iter().any(|n| (n.0, n.1) == (key, game)) {
                        board.absent.push(e.id);
                    } else {
                        board.scores.push((e.id, p[0] - p[1]));
                    }
                }
                board
            })
            .collect()
    }

    /// When a daylong closes (ms since the epoch), once started.
    #[must_use]
    pub fn closes_ms(&self) -> Option<i64> {
        match self.settings.format {
            Format::Daylong { duration_ms, .. } => {
                Some(self.start_ms? + i64::try_from(duration_ms).unwrap_or(i64::MAX))
            }
            _ => None,
        }
    }

    /// The state of a live match's games: the match result when the match is over, or the
    /// number of the game to open next (None while a game is in play).
    #[must_use]
    pub fn match_state(&self, key: Key) -> MatchState {
        let rule = self.settings.rule();
        let games = self.games.get(&key).map_or(&[][..], Vec::as_slice);
        let mut wins = [0u32; 2];
        let mut points = [0i64; 2];
        for g in games {
            match g.result {
                None => return MatchState::Playing,
                Some((a_won, p)) => {
                    wins[usize::from(!a_won)] += 1;
                    points[0] += p[0];
                    points[1] += p[1];
                }
            }
        }
        if rule.is_over(wins, 0) {
            MatchState::Over(MatchResult::new(wins, 0, points))
        } else {
            MatchState::Open(games.len() as u32)
        }
    }

    /// The operation that records a finished match in the format.
    #[must_use]
    pub fn record_op(&self, key: Key, result: MatchResult, now_ms: i64) -> Option<Op> {
        match &self.fmt {
            None => None,
            Some(Fmt::Swiss { .. }) => Some(Op::Swiss {
                swiss: SwissOp::Record {
                    round: key.0,
                    table: key.1,
                    result,
                },
            }),
            Some(Fmt::Knockout { .. }) => Some(Op::Knockout {
                knockout: KnockoutOp {
                    match_id: key.1,
                    result,
                },
            }),
            // A board's result is its game's: nothing more to record.
            Some(Fmt::Duplicate { .. }) => None,
            Some(Fmt::RoundRobin { .. }) => Some(Op::RoundRobin {
                round_robin: RoundRobinOp {
                    round: key.0,
                    table: key.1,
                    result,
                },
            }),
            // A cut-throat table's points, seat by seat, from its one game.
            Some(Fmt::CutThroat { .. }) => Some(Op::CutThroat {
                cut_throat: CutThroatOp::Record {
                    round: key.0,
                    table: key.1,
                    points: self.games.get(&key)?.last()?.scores.clone(),
                },
            }),
            Some(Fmt::Arena { arena }) => {
                let started = arena.matches().get(key.1)?.started_ms;
                Some(Op::Arena {
                    arena: ArenaOp::Record {
                        game: key.1,
                        result,
                        at_ms: self.elapsed(now_ms).max(started),
                    },
                })
            }
        }
    }

    /// Milliseconds since the start.
    #[must_use]
    pub fn elapsed(&self, now_ms: i64) -> u64 {
        self.start_ms
            .map_or(0, |s| u64::try_from(now_ms - s).unwrap_or(0))
    }

    /// Rounds paired (a Swiss), matches decided (a knockout), matches started (an arena).
    #[must_use]
    pub fn round(&self) -> u32 {
        match &self.fmt {
            None => 0,
            Some(Fmt::Swiss { swiss }) => swiss.rounds().len() as u32,
            Some(Fmt::Knockout { knockout }) => knockout
                .bracket()
                .iter()
                .filter(|m| m.result.is_some())
                .count() as u32,
            Some(Fmt::Arena { arena }) => arena.matches().len() as u32,
            Some(Fmt::RoundRobin { rr, .. }) => {
                rr.rounds()
                    .iter()
                    .position(|r| !r.is_complete())
                    .unwrap_or(rr.rounds().len()) as u32
            }
            Some(Fmt::CutThroat { ct, .. }) => ct.rounds().len() as u32,
            Some(Fmt::Duplicate { .. }) => self
                .board_scores()
                .iter()
                .filter(|b| !b.scores.is_empty())
                .count() as u32,
        }
    }

    /// The entrants of the format (once started).
    #[must_use]
    pub fn field(&self) -> &[Entrant] {
        match &self.fmt {
            None => &[],
            Some(Fmt::Swiss { swiss }) => swiss.entrants(),
            Some(Fmt::Knockout { knockout }) => knockout.entrants(),
            Some(Fmt::Arena { .. }) => &self.arena_field,
            Some(Fmt::Duplicate { field, .. }) => field,
            Some(Fmt::RoundRobin { field, .. } | Fmt::CutThroat { field, .. }) => field,
        }
    }

    /// The standings (once started).
    #[must_use]
    pub fn standings(&self) -> Vec<StandingRow> {
        let rows = self.standings_of_all();
        if self.disqualified.is_empty() {
            return rows;
        }
        // The disqualified leave; everyone below moves up by as many places as there were
        // disqualified entrants above them (ties stay ties).
        let out: Vec<u32> = rows
            .iter()
            .filter(|r| self.disqualified.contains(&r.entrant))
            .map(|r| r.rank)
            .collect();
        rows.into_iter()
            .filter(|r| !self.disqualified.contains(&r.entrant))
            .map(|mut r| {
                r.rank -= out.iter().filter(|&&o| o < r.rank).count() as u32;
                r
            })
            .collect()
    }

    /// The standings with every entrant, a duplicate event's computed without the
    /// disqualified.
    fn standings_of_all(&self) -> Vec<StandingRow> {
        match &self.fmt {
            None => Vec::new(),
            Some(Fmt::Swiss { swiss }) => swiss.standings(),
            Some(Fmt::Knockout { knockout }) => knockout.standings(),
            Some(Fmt::Arena { arena }) => arena.standings(),
            Some(Fmt::RoundRobin { rr, .. }) => rr.standings(),
            Some(Fmt::CutThroat { ct, .. }) => ct.standings(),
            Some(Fmt::Duplicate { field, out, .. }) => {
                let scoring = self
                    .settings
                    .format
                    .duplicate()
                    .map_or(DuplicateScoring::Matchpoints, |(_, s)| s.into());
                let field: Vec<Entrant> = field
                    .iter()
                    .filter(|e| !self.disqualified.contains(&e.id))
                    .cloned()
                    .collect();
                let boards: Vec<Board> = self
                    .board_scores()
                    .into_iter()
                    .map(|mut b| {
                        b.scores.retain(|(e, _)| !self.disqualified.contains(e));
                        b
                    })
                    .collect();
                let mut rows = duplicate::standings(&field, &boards, scoring).unwrap_or_default();
                for r in &mut rows {
                    r.out = out.contains(&r.entrant);
                }
                rows
            }
        }
    }

    /// `upcoming`, `running` or `finished`.
    #[must_use]
    pub const fn status(&self) -> &'static str {
        if self.finished {
            "finished"
        } else if self.fmt.is_some() {
            "running"
        } else {
            "upcoming"
        }
    }

    /// What the websocket pushes.
    #[must_use]
    pub fn summary(&self, entrants: u32) -> TournamentSummary {
        TournamentSummary {
            id: self.id.clone(),
            name: self.settings.name.clone(),
            status: self.status().to_string(),
            round: self.round(),
            entrants: if self.fmt.is_some() {
                self.field().len() as u32
            } else {
                entrants
            },
            standings: self
                .standings()
                .into_iter()
                .map(|r| TournamentStanding {
                    rank: r.rank,
                    entrant: r.entrant.0,
                    name: r.name,
                    points: r.points,
                    played: r.record.played,
                    won: r.record.won,
                    drawn: r.record.drawn,
                    lost: r.record.lost,
                    out: r.out,
                })
                .collect(),
        }
    }
}

/// Where a live match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchState {
    /// A game is being played.
    Playing,
    /// This game is to be opened next.
    Open(u32),
    /// Decided.
    Over(MatchResult),
}

/// The rating a computer entrant is seeded with, by level: its measured rating
/// ([`fiveup_bots::measured_rating`], as `fiveup tournament` seeds it), 1000 for a level with
/// none.
#[must_use]
pub fn bot_rating(level: &str) -> i32 {
    fiveup_bots::measured_rating(level).unwrap_or(1000)
}

#[cfg(test)]
#[path = "event_tests.rs"]
mod tests;
