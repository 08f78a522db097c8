//! One table's game as a pure state machine over its stored changes.
//!
//! A [`TableCore`] moves only through [`Stored`] changes, the same ones that are written to the
//! database: applying the stored list of a table again rebuilds it exactly (that is how tables
//! come back after a restart). Each change raises the version by one and yields
//! [`CoreEvent`]s; what a viewer may see of the table and of each event is decided in
//! [`crate::table::project`] only. Randomness (the server seeds) comes in from outside, inside the
//! `Commit` change.

use std::collections::HashMap;

use fiveup_engine::notation::Recorder;
use fiveup_engine::{Action, HandStart, Phase, Seat, Seed, State, Tile};
use fiveup_protocol::{
    ErrorCode, HandOutcome, HandProof, Occupant, SeatInfo, TableStatus, UserRef, DEAL_SCHEME,
};
use serde::{Deserialize, Serialize};

use crate::table::config::{SeatSetup, TableConfig, STRIKES_FORFEIT};
use crate::table::fairness;
use crate::table::outcome;

/// A stored change of a table. The table's version is the number of changes applied.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "t")]
pub enum Stored {
    /// A person sat down.
    Sit {
        /// The seat.
        seat: u8,
        /// Who.
        user: UserRef,
    },
    /// A person left before the game started.
    Leave {
        /// The seat.
        seat: u8,
    },
    /// Every seat is taken: the game starts.
    Start,
    /// The server's seed for a hand (secret until the hand is over).
    Commit {
        /// The hand.
        hand: u16,
        /// 64 hex digits.
        server_seed: String,
    },
    /// A seat's seed for a hand.
    Seed {
        /// The hand.
        hand: u16,
        /// The seat.
        seat: u8,
        /// 64 hex digits.
        seed: String,
        /// The client's command id.
        cmd: String,
    },
    /// The hand is dealt from the seeds in.
    Deal {
        /// The hand.
        hand: u16,
    },
    /// A seat acted.
    Act {
        /// The seat.
        seat: u8,
        /// The action.
        action: Action,
        /// The client's command id (none for computer players).
        cmd: Option<String>,
    },
    /// A computer player took a person's seat over (`on`) or handed it back. Never at a
    /// tournament table, where no computer plays a person's seat (one stored there before
    /// that rule is kept in the record but plays nothing: see [`TableCore::computer_plays`]).
    Takeover {
        /// The seat.
        seat: u8,
        /// Taken over or handed back.
        on: bool,
    },
    /// A person resigned (or left) during the game: a computer player plays their seat to the
    /// end, and their side's win will not count as theirs. Never at a tournament table:
    /// leaving one is a [`Stored::Forfeit`].
    Resign {
        /// The seat.
        seat: u8,
    },
    /// A correspondence player's time ran out on their move: in a two-seat game the other
    /// player wins at once; with more seats a computer player plays the seat from then on and
    /// its player alone is scored as having lost.
    Timeout {
        /// The seat.
        seat: u8,
    },
    /// A tournament player did not come to the table in time (`TourTable::no_show_ms`):
    /// they lose the game at once, the scores as they stood, and nobody plays their seat (see
    /// [`Stored::Forfeit`] for who wins). Several no-shows of one check are stored one after
    /// another: the first ends the game, the others are recorded with it.
    NoShow {
        /// The seat.
        seat: u8,
    },
    /// A person's turn clock ran out (`TourTable::turn_ms`): a strike, and their clock starts
    /// again (nobody moves for them). In a game of two sides the [`STRIKES_FORFEIT`]th loses
    /// the game at once, the scores as they stood; with more sides it is followed by a
    /// [`Stored::Forfeit`]. (Tables stored before that rule have an `act` with no command id,
    /// the computer's move for them, after a strike: it applies as any move.)
    Strike {
        /// The seat.
        seat: u8,
    },
    /// A person at a tournament table is out of the game: they left it during the game, or
    /// their third strike came in a game of more than two sides. Nobody plays their seat: the
    /// game ends at once, the scores as they stood. With two sides the other side wins; with
    /// more, the side with the highest score among those with nobody out (the lower number on
    /// a tie).
    Forfeit {
        /// The seat.
        seat: u8,
    },
    /// The match clock ran out during this hand (`TourTable::match_ms`).
    ClockOut {
        /// The hand in play.
        hand: u16,
    },
    /// After the match clock: the scores differ at the end of the hand, or after a score in a
    /// later hand: the higher wins now.
    ClockEnd,
    /// A rematch table was created.
    Rematch {
        /// The new table.
        table: String,
        /// Who asked.
        seat: u8,
        /// The command id.
        cmd: String,
    },
}

/// What a change did, with everything any viewer could be shown; [`crate::table::project`] cuts it
/// down per viewer.
#[derive(Clone, PartialEq, Debug)]
pub enum CoreEvent {
    /// A seat changed: the seat as it is after the change.
    Seat(SeatInfo),
    /// The game started.
    Started,
    /// A commitment was published.
    Commit {
        /// The hand.
        hand: u16,
        /// Hex.
        commitment: String,
    },
    /// A seed arrived.
    SeedIn {
        /// The hand.
        hand: u16,
        /// The seat.
        seat: u8,
    },
    /// A hand was dealt.
    Dealt {
        /// The hand.
        hand: u16,
        /// The leader.
        leader: u8,
    },
    /// An action.
    Action {
        /// Who.
        seat: u8,
        /// What.
        action: Action,
        /// Points.
        points: u16,
        /// Count after.
        count: u16,
        /// The drawn tile (secret to the drawer).
        drawn: Option<Tile>,
    },
    /// A hand ended (or the game ended in its middle).
    HandOver {
        /// The result.
        outcome: Box<HandOutcome>,
        /// The revealed proof.
        proof: Box<HandProof>,
    },
    /// The game ended.
    GameOver {
        /// The winning side.
        winner: u8,
        /// Scores.
        scores: Vec<i32>,
    },
    /// A rematch table.
    Rematch {
        /// Its id.
        table: String,
    },
}

/// A refused change: an error code and a message; the table is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Refusal {
    /// The code.
    pub code: ErrorCode,
    /// For people.
    pub message: String,
}

impl Refusal {
    /// A refusal.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }
}

/// A seat now.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SeatState {
    /// Who sits.
    pub occupant: Occupant,
    /// A computer player plays for the person.
    pub taken_over: bool,
    /// A computer player has played for the person during this game.
    pub by_computer: bool,
    /// The person resigned: the computer player keeps the seat to the end.
    pub resigned: bool,
}

/// The seeds of one hand, known to the server.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HandSeeds {
    /// The hand.
    pub hand: u16,
    /// The server seed.
    pub server_seed: [u8; 32],
    /// Its commitment, hex.
    pub commitment: String,
    /// Each seat's seed.
    pub client: Vec<Option<[u8; 32]>>,
    /// The deal seed, once dealt.
    pub deal_seed: Option<Seed>,
}

impl HandSeeds {
    /// The proof as shown before the hand is over.
    #[must_use]
    pub fn sealed(&self) -> HandProof {
        HandProof {
            hand: self.hand,
            scheme: DEAL_SCHEME.to_string(),
            commitment: self.commitment.clone(),
            contributed: self
                .client
                .iter()
                .enumerate()
                .filter(|(_, s)| s.is_some())
                .map(|(i, _)| i as u8)
                .collect(),
            server_seed: None,
            client_seeds: None,
            deal_seed: None,
        }
    }

    /// The proof with every seed revealed.
    #[must_use]
    pub fn revealed(&self) -> HandProof {
        let mut p = self.sealed();
        p.server_seed = Some(fairness::to_hex(&self.server_seed));
        p.client_seeds = Some(
            self.client
                .iter()
                .map(|s| s.map(|b| fairness::to_hex(&b)))
                .collect(),
        );
        p.deal_seed = self.deal_seed.map(|s| s.to_hex());
        p
    }
}

/// What an accepted command was, to answer a resend with the same id.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AcceptedCmd {
    /// The version it made.
    pub version: u64,
    /// What it was (for `duplicate_id`).
    pub what: String,
}

/// A table's whole game state.
#[derive(Clone, Debug)]
pub struct TableCore {
    /// Fixed settings.
    pub cfg: TableConfig,
    /// The number of changes applied.
    pub version: u64,
    /// The seats.
    pub seats: Vec<SeatState>,
    /// Which seats have a client connected (kept by the table task; not stored).
    pub connected: Vec<bool>,
    /// Where the table stands.
    pub status: TableStatus,
    /// The game, from the first deal.
    pub state: Option<State>,
    /// The record being written.
    pub recorder: Option<Recorder>,
    /// The seeds of the hand committed and not yet dealt.
    pub pending: Option<HandSeeds>,
    /// The seeds of the hand being played.
    pub current: Option<HandSeeds>,
    /// Every finished hand's seeds.
    pub finished: Vec<HandSeeds>,
    /// The last finished hand's result, shown until the next deal.
    pub last_hand: Option<HandOutcome>,
    /// Accepted command ids, per seat.
    pub accepted: HashMap<(u8, String), AcceptedCmd>,
    /// The rematch table.
    pub rematch: Option<String>,
    /// The winning side of a two-seat correspondence game decided by a timeout.
    pub forfeit: Option<u8>,
    /// Each seat's turn-clock strikes.
    pub strikes: Vec<u8>,
    /// The hand the match clock ran out in.
    pub clock_out: Option<u16>,
    /// The seats stored as no-shows.
    pub no_shows: Vec<u8>,
}

impl TableCore {
    /// Whether the person at `seat` made a move of their own (not a computer player for them).
    #[must_use]
    pub fn acted(&self, seat: u8) -> bool {
        self.accepted
            .iter()
            .any(|((s, _), a)| *s == seat && a.what.starts_with("act "))
    }
}

impl TableCore {
    /// A new table, before any change.
    #[must_use]
    pub fn new(cfg: TableConfig) -> TableCore {
        let seats = cfg
            .seats
            .iter()
            .map(|s| SeatState {
                occupant: match s {
                    SeatSetup::Open => Occupant::Open,
                    SeatSetup::Invite { .. } | SeatSetup::Reserved { .. } => Occupant::Invite,
                    SeatSetup::Bot { level } => Occupant::Bot {
                        level: level.clone(),
                    },
                },
                taken_over: false,
                by_computer: false,
                resigned: false,
            })
            .collect::<Vec<_>>();
        let n = seats.len();
        TableCore {
            cfg,
            version: 0,
            seats,
            connected: vec![false; n],
            status: TableStatus::Waiting,
            state: None,
            recorder: None,
            pending: None,
            current: None,
            finished: Vec::new(),
            last_hand: None,
            accepted: HashMap::new(),
            rematch: None,
            forfeit: None,
            strikes: vec![0; n],
            clock_out: None,
            no_shows: Vec::new(),
        }
    }

    /// The number of seats.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.cfg.rules.players
    }

    /// The seat of a user, if they sit here.
    #[must_use]
    pub fn seat_of(&self, user_id: i64) -> Option<u8> {
        self.seats
            .iter()
            .position(|s| matches!(&s.occupant, Occupant::Human { user } if user.id == user_id))
            .map(|i| i as u8)
    }

    /// How many sides have a registered person (a bot account included) sitting on them.
    #[must_use]
    pub fn registered_sides(&self) -> usize {
        let mut sides = Vec::new();
        for (i, s) in self.seats.iter().enumerate() {
            if let Occupant::Human { user } = &s.occupant {
                let side = self.cfg.rules.side_of(Seat(i as u8));
                if user.registered && !sides.contains(&side) {
                    sides.push(side);
                }
            }
        }
        sides.len()
    }

    /// Whether the game's result counts, so that no computer help is given at the table:
    /// every tournament table and duplicate board, every correspondence game, and a rated game
    /// (registered people on two sides or more, at a table whose creator did not allow
    /// hints). A table with hints allowed is casual and never rated.
    #[must_use]
    pub fn counts(&self) -> bool {
        self.cfg.tournament.is_some()
            || self.cfg.correspondence.is_some()
            || (!self.cfg.hints && self.registered_sides() >= 2)
    }

    /// Whether a seat is played by the computer now (a computer seat, or a person's seat taken
    /// over). At a tournament table no computer ever plays a person's seat, whatever was
    /// stored (a takeover or a resignation of a table stored before that rule).
    #[must_use]
    pub fn computer_plays(&self, seat: u8) -> bool {
        let s = &self.seats[seat as usize];
        match s.occupant {
            Occupant::Bot { .. } => true,
            Occupant::Human { .. } => s.taken_over && self.cfg.tournament.is_none(),
            _ => false,
        }
    }

    /// Whether a person of this side is out of the game (resigned, or lost a tournament game
    /// at once).
    fn side_out(&self, side: u8) -> bool {
        self.seats.iter().enumerate().any(|(i, s)| {
            s.resigned
                && matches!(s.occupant, Occupant::Human { .. })
                && self.cfg.rules.side_of(Seat(i as u8)).0 == side
        })
    }

    /// A person at a tournament table is out of the game: nobody plays their seat, and the
    /// game ends at once, the scores as they stood. The winner: the other side of two; of
    /// more, the highest score among the sides with nobody out (the lower number on a tie);
    /// if every side has someone out, the winner already decided stands (or the next side).
    /// A game already ended this way gets a new winner only if its winner is out now.
    fn lose_at_once(&mut self, seat: u8) -> Vec<CoreEvent> {
        self.seats[seat as usize].resigned = true;
        let scores = self.scores();
        let sides = self.cfg.rules.sides();
        let side = self.cfg.rules.side_of(Seat(seat)).0;
        let best = (0..sides)
            .filter(|&x| !self.side_out(x))
            .max_by(|&a, &b| scores[a as usize].cmp(&scores[b as usize]).then(b.cmp(&a)));
        let winner = best
            .or(self.forfeit)
            .unwrap_or_else(|| (side + 1) % sides.max(1));
        let mut events = vec![CoreEvent::Seat(self.seat_info(seat))];
        if self.status != TableStatus::Finished || self.forfeit != Some(winner) {
            self.status = TableStatus::Finished;
            self.forfeit = Some(winner);
            events.push(CoreEvent::GameOver {
                winner,
                scores: self.scores(),
            });
        }
        events
    }

    /// The computer player's level for a seat it plays.
    #[must_use]
    pub fn bot_level(&self, seat: u8) -> String {
        match &self.seats[seat as usize].occupant {
            Occupant::Bot { level } => level.clone(),
            _ => "club".to_string(),
        }
    }

    /// A seat as listed.
    #[must_use]
    pub fn seat_info(&self, seat: u8) -> SeatInfo {
        let s = &self.seats[seat as usize];
        SeatInfo {
            seat,
            occupant: s.occupant.clone(),
            connected: matches!(s.occupant, Occupant::Human { .. })
                && self.connected[seat as usize],
            taken_over: s.taken_over,
            by_computer: s.by_computer,
            resigned: s.resigned,
        }
    }

    /// Scores per side (zeros before the first deal).
    #[must_use]
    pub fn scores(&self) -> Vec<i32> {
        let sides = self.cfg.rules.sides() as usize;
        match &self.state {
            Some(s) => s.scores().0[..sides].to_vec(),
            None => vec![0; sides],
        }
    }

    /// The hand number being played or dealt (0 before the first commitment).
    #[must_use]
    pub fn hand_no(&self) -> u16 {
        match (&self.pending, &self.state) {
            (Some(p), _) => p.hand,
            (None, Some(s)) => s.start().hand_no,
            (None, None) => 0,
        }
    }

    /// The seats' names for the record (a computer player is named by its seat, as the browser
    /// client names it: see [`BOT_NAMES`]; a tournament entrant's computer player by its
    /// entrant, `club 3 (computer)`).
    fn names(&self) -> Vec<String> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| match &s.occupant {
                Occupant::Human { user } => user.name.clone(),
                Occupant::Bot { .. } => self
                    .cfg
                    .tournament
                    .as_ref()
                    .and_then(|t| t.names.get(i))
                    .filter(|n| !n.is_empty())
                    .map_or_else(|| bot_name(i), |n| format!("{n} (computer)")),
                _ => format!("S{i}"),
            })
            .collect()
    }

    fn check_seat(&self, seat: u8) -> Result<(), Refusal> {
        if seat >= self.players() {
            return Err(Refusal::new(
                ErrorCode::BadRequest,
                format!(
                    "there is no seat {seat} at a {}-player table",
                    self.players()
                ),
            ));
        }
        Ok(())
    }

    /// Apply a change. On error nothing changed.
    pub fn apply(&mut self, change: &Stored) -> Result<Vec<CoreEvent>, Refusal> {
        let events = self.apply_inner(change)?;
        self.version += 1;
        match change {
            Stored::Seed {
                seat, cmd, hand, ..
            } => {
                self.accepted.insert(
                    (*seat, cmd.clone()),
                    AcceptedCmd {
                        version: self.version,
                        what: format!("seed {hand}"),
                    },
                );
            }
            Stored::Act {
                seat,
                action,
                cmd: Some(cmd),
            } => {
                self.accepted.insert(
                    (*seat, cmd.clone()),
                    AcceptedCmd {
                        version: self.version,
                        what: format!("act {action}"),
                    },
                );
            }
            Stored::Rematch { seat, cmd, .. } => {
                self.accepted.insert(
                    (*seat, cmd.clone()),
                    AcceptedCmd {
                        version: self.version,
                        what: "rematch".to_string(),
                    },
                );
            }
            _ => {}
        }
        Ok(events)
    }

    #[allow(clippy::too_many_lines)]
    fn apply_inner(&mut self, change: &Stored) -> Result<Vec<CoreEvent>, Refusal> {
        match change {
            Stored::Sit { seat, user } => {
                self.check_seat(*seat)?;
                if self.status != TableStatus::Waiting {
                    return Err(Refusal::new(
                        ErrorCode::AlreadyStarted,
                        "the game has started",
                    ));
                }
                if self.seat_of(user.id).is_some() {
                    return Err(Refusal::new(
                        ErrorCode::AlreadySeated,
                        "you already sit at this table",
                    ));
                }
                let s = &mut self.seats[*seat as usize];
                if !matches!(s.occupant, Occupant::Open | Occupant::Invite) {
                    return Err(Refusal::new(
                        ErrorCode::SeatTaken,
                        format!("seat {seat} is taken"),
                    ));
                }
                s.occupant = Occupant::Human { user: user.clone() };
                Ok(vec![CoreEvent::Seat(self.seat_info(*seat))])
            }
            Stored::Leave { seat } => {
                self.check_seat(*seat)?;
                if self.status != TableStatus::Waiting {
                    return Err(Refusal::new(
                        ErrorCode::AlreadyStarted,
                        "the game has started: seats are kept until it ends",
                    ));
                }
                if !matches!(self.seats[*seat as usize].occupant, Occupant::Human { .. }) {
                    return Err(Refusal::new(ErrorCode::NotSeated, "nobody sits there"));
                }
                self.seats[*seat as usize].occupant = match &self.cfg.seats[*seat as usize] {
                    SeatSetup::Invite { .. } | SeatSetup::Reserved { .. } => Occupant::Invite,
                    _ => Occupant::Open,
                };
                Ok(vec![CoreEvent::Seat(self.seat_info(*seat))])
            }
            Stored::Start => {
                if self.status != TableStatus::Waiting || !self.all_seated() {
                    return Err(Refusal::new(
                        ErrorCode::NotStarted,
                        "the table cannot start yet",
                    ));
                }
                self.status = TableStatus::Dealing;
                Ok(vec![CoreEvent::Started])
            }
            Stored::Commit { hand, server_seed } => {
                if self.status != TableStatus::Dealing || self.pending.is_some() {
                    return Err(Refusal::new(ErrorCode::NotStarted, "no deal is due"));
                }
                let want = self.state.as_ref().map_or(1, |s| s.start().hand_no + 1);
                if *hand != want {
                    return Err(Refusal::new(
                        ErrorCode::BadRequest,
                        format!("the next hand is {want}, not {hand}"),
                    ));
                }
                let server_seed = fairness::parse_seed_hex(server_seed)
                    .map_err(|e| Refusal::new(ErrorCode::BadSeed, e))?;
                let commitment = fairness::to_hex(&fairness::commitment(&server_seed));
                self.pending = Some(HandSeeds {
                    hand: *hand,
                    server_seed,
                    commitment: commitment.clone(),
                    client: vec![None; self.players() as usize],
                    deal_seed: None,
                });
                Ok(vec![CoreEvent::Commit {
                    hand: *hand,
                    commitment,
                }])
            }
            Stored::Seed {
                hand, seat, seed, ..
            } => {
                self.check_seat(*seat)?;
                let bytes = fairness::parse_seed_hex(seed)
                    .map_err(|e| Refusal::new(ErrorCode::BadSeed, e))?;
                let Some(p) = self.pending.as_mut() else {
                    return Err(Refusal::new(
                        ErrorCode::BadSeed,
                        "no hand is waiting for seeds now",
                    ));
                };
                if p.hand != *hand {
                    return Err(Refusal::new(
                        ErrorCode::BadSeed,
                        format!("seeds are taken for hand {} now, not {hand}", p.hand),
                    ));
                }
                if !matches!(self.seats[*seat as usize].occupant, Occupant::Human { .. }) {
                    return Err(Refusal::new(
                        ErrorCode::NotSeated,
                        "only players send seeds",
                    ));
                }
                if p.client[*seat as usize].is_some() {
                    return Err(Refusal::new(
                        ErrorCode::BadSeed,
                        format!("seat {seat} already sent its seed for hand {hand}"),
                    ));
                }
                p.client[*seat as usize] = Some(bytes);
                Ok(vec![CoreEvent::SeedIn {
                    hand: *hand,
                    seat: *seat,
                }])
            }
            Stored::Deal { hand } => {
                let Some(p) = self.pending.as_ref() else {
                    return Err(Refusal::new(ErrorCode::NotStarted, "nothing to deal"));
                };
                if p.hand != *hand {
                    return Err(Refusal::new(
                        ErrorCode::BadRequest,
                        format!("hand {} is pending, not {hand}", p.hand),
                    ));
                }
                let rules = self.cfg.rules;
                let seed = fairness::deal_seed(&p.server_seed, &p.client);
                let setup = |e: fiveup_engine::SetupError| {
                    Refusal::new(ErrorCode::Internal, format!("cannot deal: {e}"))
                };
                match self.state.as_mut() {
                    None => {
                        let start = HandStart::first();
                        let deal = fairness::deal(&seed, 1, &rules, start.highest_double);
                        let state = State::with_start(rules, deal, start).map_err(setup)?;
                        let rec = Recorder::new(&state, Some(self.names()), None)
                            .map_err(|e| Refusal::new(ErrorCode::Internal, e.to_string()))?;
                        self.state = Some(state);
                        self.recorder = Some(rec);
                    }
                    Some(state) => {
                        let start = state.next_hand_start().ok_or_else(|| {
                            Refusal::new(ErrorCode::NotStarted, "the hand is not over")
                        })?;
                        let deal =
                            fairness::deal(&seed, start.hand_no, &rules, start.highest_double);
                        state.next_hand(deal).map_err(setup)?;
                        if let Some(r) = self.recorder.as_mut() {
                            r.start_hand(state);
                        }
                    }
                }
                let mut p = self.pending.take().expect("checked above");
                p.deal_seed = Some(seed);
                self.current = Some(p);
                self.status = TableStatus::Playing;
                self.last_hand = None;
                let leader = self.state.as_ref().map_or(0, |s| s.leader().0);
                Ok(vec![CoreEvent::Dealt {
                    hand: *hand,
                    leader,
                }])
            }
            Stored::Act { seat, action, .. } => {
                self.check_seat(*seat)?;
                if self.status == TableStatus::Finished {
                    return Err(Refusal::new(ErrorCode::GameOver, "the game is over"));
                }
                let Some(state) = self.state.as_mut() else {
                    return Err(Refusal::new(
                        ErrorCode::NotStarted,
                        "no hand is being played",
                    ));
                };
                if self.status != TableStatus::Playing
                    || !matches!(state.phase(), Phase::Play | Phase::Claim)
                {
                    return Err(Refusal::new(
                        ErrorCode::NotStarted,
                        "no hand is being played now",
                    ));
                }
                if state.to_move() != Seat(*seat) {
                    return Err(Refusal::new(
                        ErrorCode::NotYourTurn,
                        format!("it is seat {}'s turn", state.to_move().0),
                    ));
                }
                let out = state
                    .apply(*action)
                    .map_err(|e| Refusal::new(ErrorCode::IllegalAction, e.to_string()))?;
                let count = state.layout().count();
                if let Some(r) = self.recorder.as_mut() {
                    r.action(*action, &out);
                    if out.hand_over {
                        r.finish_hand(state);
                    }
                }
                let mut events = vec![CoreEvent::Action {
                    seat: *seat,
                    action: *action,
                    points: out.points,
                    count,
                    drawn: out.drawn,
                }];
                if out.hand_over || out.game_over {
                    let state = self.state.as_ref().expect("present");
                    let names = self.names();
                    let o = outcome::hand_outcome(state, &names);
                    let cur = self.current.take().expect("a hand in play has its seeds");
                    let proof = cur.revealed();
                    self.finished.push(cur);
                    self.last_hand = Some(o.clone());
                    events.push(CoreEvent::HandOver {
                        outcome: Box::new(o),
                        proof: Box::new(proof),
                    });
                    if let Some(w) = state.winner() {
                        self.status = TableStatus::Finished;
                        events.push(CoreEvent::GameOver {
                            winner: w.0,
                            scores: self.scores(),
                        });
                    } else {
                        self.status = TableStatus::Dealing;
                    }
                }
                Ok(events)
            }
            Stored::Takeover { seat, on } => {
                self.check_seat(*seat)?;
                let s = &mut self.seats[*seat as usize];
                if !matches!(s.occupant, Occupant::Human { .. })
                    || s.taken_over == *on
                    || (s.resigned && !*on)
                {
                    return Err(Refusal::new(ErrorCode::BadRequest, "no such takeover"));
                }
                s.taken_over = *on;
                if *on {
                    s.by_computer = true;
                }
                Ok(vec![CoreEvent::Seat(self.seat_info(*seat))])
            }
            Stored::Resign { seat } => {
                self.check_seat(*seat)?;
                if !matches!(self.status, TableStatus::Dealing | TableStatus::Playing) {
                    return Err(Refusal::new(
                        ErrorCode::NotStarted,
                        "only a game in progress can be resigned",
                    ));
                }
                let s = &mut self.seats[*seat as usize];
                if !matches!(s.occupant, Occupant::Human { .. }) {
                    return Err(Refusal::new(ErrorCode::NotSeated, "nobody sits there"));
                }
                if s.resigned {
                    return Err(Refusal::new(ErrorCode::BadRequest, "you already resigned"));
                }
                s.taken_over = true;
                s.by_computer = true;
                s.resigned = true;
                Ok(vec![CoreEvent::Seat(self.seat_info(*seat))])
            }
            Stored::Timeout { seat } => {
                self.check_seat(*seat)?;
                if self.cfg.tournament.is_some() {
                    return Err(Refusal::new(
                        ErrorCode::BadRequest,
                        "a tournament table has no move timeout",
                    ));
                }
                if self.status != TableStatus::Playing || self.to_move() != Some(*seat) {
                    return Err(Refusal::new(
                        ErrorCode::NotYourTurn,
                        "only the seat to move can time out",
                    ));
                }
                let s = &mut self.seats[*seat as usize];
                if !matches!(s.occupant, Occupant::Human { .. }) || s.taken_over {
                    return Err(Refusal::new(ErrorCode::NotSeated, "nobody plays that seat"));
                }
                s.taken_over = true;
                s.by_computer = true;
                s.resigned = true;
                let mut events = vec![CoreEvent::Seat(self.seat_info(*seat))];
                if self.players() == 2 {
                    let winner = 1 - *seat;
                    self.status = TableStatus::Finished;
                    self.forfeit = Some(winner);
                    events.push(CoreEvent::GameOver {
                        winner,
                        scores: self.scores(),
                    });
                }
                Ok(events)
            }
            Stored::NoShow { seat } => {
                self.check_seat(*seat)?;
                // A game ends at its first no-show; the others of the same check follow it.
                if self.status == TableStatus::Finished && self.no_shows.is_empty() {
                    return Err(Refusal::new(ErrorCode::GameOver, "the game is over"));
                }
                if self.no_show_ms().is_none() {
                    return Err(Refusal::new(
                        ErrorCode::BadRequest,
                        "no-shows are for tournament tables",
                    ));
                }
                if self.state.is_none() {
                    return Err(Refusal::new(ErrorCode::NotStarted, "no hand is dealt yet"));
                }
                if !matches!(self.seats[*seat as usize].occupant, Occupant::Human { .. })
                    || self.acted(*seat)
                    || self.no_shows.contains(seat)
                {
                    return Err(Refusal::new(
                        ErrorCode::BadRequest,
                        "that seat's player is not a no-show",
                    ));
                }
                self.no_shows.push(*seat);
                Ok(self.lose_at_once(*seat))
            }
            Stored::Strike { seat } => {
                self.check_seat(*seat)?;
                if self.turn_ms().is_none() {
                    return Err(Refusal::new(
                        ErrorCode::BadRequest,
                        "this table has no turn clock",
                    ));
                }
                if self.to_move() != Some(*seat)
                    || self.computer_plays(*seat)
                    || !matches!(self.seats[*seat as usize].occupant, Occupant::Human { .. })
                {
                    return Err(Refusal::new(
                        ErrorCode::NotYourTurn,
                        "only a person to move gets a strike",
                    ));
                }
                self.strikes[*seat as usize] += 1;
                // With more sides, the third strike is followed by a `forfeit`.
                if self.strikes[*seat as usize] >= STRIKES_FORFEIT && self.cfg.rules.sides() == 2 {
                    return Ok(self.lose_at_once(*seat));
                }
                Ok(Vec::new())
            }
            Stored::Forfeit { seat } => {
                self.check_seat(*seat)?;
                if self.cfg.tournament.is_none() {
                    return Err(Refusal::new(
                        ErrorCode::BadRequest,
                        "a forfeit is for tournament tables",
                    ));
                }
                if !matches!(self.status, TableStatus::Dealing | TableStatus::Playing) {
                    return Err(Refusal::new(
                        ErrorCode::NotStarted,
                        "only a game in progress can be lost",
                    ));
                }
                if self.state.is_none() {
                    return Err(Refusal::new(ErrorCode::NotStarted, "no hand is dealt yet"));
                }
                let s = &self.seats[*seat as usize];
                if !matches!(s.occupant, Occupant::Human { .. }) || s.resigned {
                    return Err(Refusal::new(
                        ErrorCode::NotSeated,
                        "nobody plays that seat now",
                    ));
                }
                Ok(self.lose_at_once(*seat))
            }
            Stored::ClockOut { hand } => {
                if self.match_ms().is_none() || self.clock_out.is_some() {
                    return Err(Refusal::new(
                        ErrorCode::BadRequest,
                        "no match clock to run out",
                    ));
                }
                if self.status == TableStatus::Finished {
                    return Err(Refusal::new(ErrorCode::GameOver, "the game is over"));
                }
                self.clock_out = Some(*hand);
                Ok(Vec::new())
            }
            Stored::ClockEnd => {
                let Some(winner) = self.clock_winner() else {
                    return Err(Refusal::new(
                        ErrorCode::BadRequest,
                        "the match clock decides nothing now",
                    ));
                };
                self.status = TableStatus::Finished;
                self.pending = None;
                self.forfeit = Some(winner);
                Ok(vec![CoreEvent::GameOver {
                    winner,
                    scores: self.scores(),
                }])
            }
            Stored::Rematch { table, .. } => {
                if self.status != TableStatus::Finished {
                    return Err(Refusal::new(ErrorCode::NotStarted, "the game is not over"));
                }
                if self.rematch.is_some() {
                    return Err(Refusal::new(ErrorCode::BadRequest, "a rematch exists"));
                }
                self.rematch = Some(table.clone());
                Ok(vec![CoreEvent::Rematch {
                    table: table.clone(),
                }])
            }
        }
    }

    /// Whether every seat is taken.
    #[must_use]
    pub fn all_seated(&self) -> bool {
        self.seats
            .iter()
            .all(|s| !matches!(s.occupant, Occupant::Open | Occupant::Invite))
    }

    /// Whether every person playing their own seat has sent a seed for the pending hand.
    #[must_use]
    pub fn seeds_complete(&self) -> bool {
        let Some(p) = &self.pending else {
            return false;
        };
        if self.board_seed().is_some() {
            // A duplicate board takes no client seeds: its deal is fixed.
            return true;
        }
        self.seats.iter().enumerate().all(|(i, s)| {
            !matches!(s.occupant, Occupant::Human { .. }) || s.taken_over || p.client[i].is_some()
        })
    }

    /// A duplicate board's fixed server seed, if this table plays one.
    #[must_use]
    pub fn board_seed(&self) -> Option<&str> {
        self.cfg
            .tournament
            .as_ref()
            .and_then(|t| t.board.as_deref())
    }

    /// A tournament table's no-show time, if it has one.
    #[must_use]
    pub fn no_show_ms(&self) -> Option<u64> {
        self.cfg.tournament.as_ref().and_then(|t| t.no_show_ms)
    }

    /// A tournament table's turn clock: its own, or the no-show time where the event set none
    /// (so that every tournament table has one, `TourTable::turn_ms`).
    #[must_use]
    pub fn turn_ms(&self) -> Option<u64> {
        self.cfg
            .tournament
            .as_ref()
            .and_then(|t| t.turn_ms.or(t.no_show_ms))
    }

    /// A tournament table's match clock, if it has one.
    #[must_use]
    pub fn match_ms(&self) -> Option<u64> {
        self.cfg.tournament.as_ref().and_then(|t| t.match_ms)
    }

    /// The side the match clock gives the game to now: once it has run out, at the end of
    /// the hand it ran out in or after any later score, if the two sides' scores differ.
    #[must_use]
    pub fn clock_winner(&self) -> Option<u8> {
        let hand = self.clock_out?;
        if self.status == TableStatus::Finished || self.state.is_none() {
            return None;
        }
        let s = self.scores();
        if s.len() != 2 || s[0] == s[1] {
            return None;
        }
        let hand_over = self.status == TableStatus::Dealing;
        let later = self
            .state
            .as_ref()
            .is_some_and(|st| st.start().hand_no > hand);
        (hand_over || later).then_some(u8::from(s[1] > s[0]))
    }

    /// The first person at a tournament table who has made no move of their own while the
    /// game goes on: a no-show once their no-show time is up (the table's task keeps the
    /// times: the no-show time after the later of the opening and the game's wait for them).
    #[must_use]
    pub fn no_show_seat(&self) -> Option<u8> {
        self.no_show_ms()?;
        if self.status == TableStatus::Finished {
            return None;
        }
        (0..self.players()).find(|&s| {
            matches!(self.seats[s as usize].occupant, Occupant::Human { .. }) && !self.acted(s)
        })
    }

    /// The seat to move, while a hand is being played.
    #[must_use]
    pub fn to_move(&self) -> Option<u8> {
        match (&self.state, self.status) {
            (Some(s), TableStatus::Playing) if matches!(s.phase(), Phase::Play | Phase::Claim) => {
                Some(s.to_move().0)
            }
            _ => None,
        }
    }

    /// The finished record, with the deal proofs as tags.
    #[must_use]
    pub fn record(&self, date: &str) -> Option<fiveup_engine::notation::Record> {
        let state = self.state.as_ref()?;
        let mut rec = self.recorder.clone()?;
        let _ = rec.tag("Site", "fiveup");
        let _ = rec.tag("Table", &self.cfg.id);
        let _ = rec.tag("Date", date);
        let _ = rec.tag("DealScheme", DEAL_SCHEME);
        if let Some(t) = &self.cfg.tournament {
            if let Some(e) = &t.event {
                let _ = rec.tag("Tournament", e);
            }
            if t.board.is_some() {
                let _ = rec.tag("DuplicateBoard", "yes");
            }
        }
        for h in &self.finished {
            let _ = rec.tag(&format!("Hand{}Commit", h.hand), &h.commitment);
            let _ = rec.tag(
                &format!("Hand{}ServerSeed", h.hand),
                &fairness::to_hex(&h.server_seed),
            );
            let seeds = h
                .client
                .iter()
                .map(|s| s.map_or_else(|| "-".to_string(), |b| fairness::to_hex(&b)))
                .collect::<Vec<_>>()
                .join(",");
            let _ = rec.tag(&format!("Hand{}ClientSeeds", h.hand), &seeds);
        }
        Some(rec.finish(state))
    }
}

/// Computer players' names, one per seat (up to eight seats), so that several computer players
/// at one table can be told apart; the browser client (`web/js/format.js`) uses the same list.
pub const BOT_NAMES: [&str; 8] = [
    "Ada", "Blaise", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances",
];

/// The name of a computer player in seat `seat`: "Grace (computer)".
#[must_use]
pub fn bot_name(seat: usize) -> String {
    format!("{} (computer)", BOT_NAMES[seat % BOT_NAMES.len()])
}

#[cfg(test)]
#[path = "state_tests.rs"]
mod tests;
