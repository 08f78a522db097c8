//! An event's settings: its format, scoring, clocks and limits, and how they are checked
//! and described. Part of the event value ([`super::event`]), which re-exports them.

use fiveup_engine::Rules;
use fiveup_tournament::duplicate::DuplicateScoring;
use fiveup_tournament::MatchRule;
use serde::{Deserialize, Serialize};

/// The format of an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Format {
    /// A Swiss of this many rounds (late entry until half of them have started).
    Swiss {
        /// Rounds, 1 to 50.
        rounds: u32,
    },
    /// A knockout, single or double elimination.
    Knockout {
        /// Double elimination (a second loss puts an entrant out).
        #[serde(default)]
        double: bool,
    },
    /// An arena: players are paired as soon as they are free, until the time is up.
    Arena {
        /// How long it lasts, in milliseconds (1 second to 24 hours).
        duration_ms: u64,
    },
    /// A round robin on Berger tables: everyone meets everyone once (twice if `double`),
    /// round by round.
    RoundRobin {
        /// Play the table twice, sides swapped the second time.
        #[serde(default)]
        double: bool,
    },
    /// Cut-throat: rounds at tables of `min_seats` to `max_seats` players, each for
    /// themselves, grouped by score with the fewest repeat meetings.
    CutThroat {
        /// Rounds, 1 to 50.
        rounds: u32,
        /// Fewest seats at a table, 3 to 8.
        min_seats: u8,
        /// Most seats at a table, `min_seats` to 8.
        max_seats: u8,
    },
    /// Duplicate: every entrant plays the same boards (deals), one after another, against
    /// computer players (`Settings::opponents`), scored against the field on each board.
    Duplicate {
        /// Boards, 1 to 64.
        boards: u32,
        /// How boards are scored.
        #[serde(default)]
        scoring: Scoring,
    },
    /// A daylong: a duplicate event open for a period, in which each entrant joins whenever
    /// they like and plays the boards one after another.
    Daylong {
        /// Boards, 1 to 64.
        boards: u32,
        /// How boards are scored.
        #[serde(default)]
        scoring: Scoring,
        /// How long entries stay open and boards are dealt, in milliseconds (1 second to 7
        /// days); boards in play at the close are finished.
        duration_ms: u64,
    },
}

impl Format {
    /// A duplicate or daylong event's boards and scoring.
    #[must_use]
    pub const fn duplicate(self) -> Option<(u32, Scoring)> {
        match self {
            Format::Duplicate { boards, scoring }
            | Format::Daylong {
                boards, scoring, ..
            } => Some((boards, scoring)),
            _ => None,
        }
    }
}

/// How duplicate boards are scored (`docs/tournaments.md`, "Duplicate").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// Matchpoints against everyone else who played the board, as a percentage.
    #[default]
    Matchpoints,
    /// The score minus the board's average.
    Difference,
}

impl From<Scoring> for DuplicateScoring {
    fn from(s: Scoring) -> DuplicateScoring {
        match s {
            Scoring::Matchpoints => DuplicateScoring::Matchpoints,
            Scoring::Difference => DuplicateScoring::Difference,
        }
    }
}

/// An event's settings, fixed when it is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The name, 1 to 64 characters.
    pub name: String,
    /// The format.
    pub format: Format,
    /// The rules of every game: a preset and `key=value` options, as `Rules::parse` reads
    /// them. Two players, or four in two partnerships (then every entrant is a team of two).
    pub rules: String,
    /// Games a match takes at most (best of N, 1 to 99; odd in a knockout).
    #[serde(default = "one")]
    pub best_of: u32,
    /// Start at this time (seconds since the epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_at: Option<i64>,
    /// Start as soon as this many have joined (2 or more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_when: Option<u32>,
    /// The most entrants accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_entrants: Option<u32>,
    /// The lowest rating accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<i32>,
    /// The highest rating accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rating: Option<i32>,
    /// Duplicate and daylong: the computer players at the other seats of every board (a
    /// level or a named player; `expert` when not given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponents: Option<String>,
    /// A person who has made no move of their own once their table has waited this long for
    /// them (from its opening at the earliest) loses that game and is withdrawn (1 second to
    /// an hour; 2 minutes when not given). No computer plays a person's seat in a tournament.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_show_ms: Option<u64>,
    /// The match clock: a game's time from its table's opening (1 second to 4 hours); when it
    /// runs out the hand in play is finished and the higher score wins, a tie going to the
    /// next score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_clock_ms: Option<u64>,
    /// The turn clock (100 ms to 10 minutes; the no-show time when not given), for a person
    /// who has made a move of their own: one who has not moved this long after their turn
    /// came gets a strike and their clock starts again (nobody moves for them); the third
    /// strike loses the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_ms: Option<u64>,
}

/// The computer players a tournament accepts, in words: the levels, and the players they
/// stand for.
#[must_use]
pub fn computer_players() -> String {
    format!(
        "levels are {}, and the players {} may be named too",
        crate::BOT_LEVELS.join(", "),
        crate::BOT_PLAYERS.join(", ")
    )
}

/// The no-show time when an event gives none: two minutes.
pub const NO_SHOW_MS: u64 = 120_000;

const fn one() -> u32 {
    1
}

impl Settings {
    /// Check the settings; the error says what is wrong.
    pub fn check(&self, now: i64) -> Result<Rules, String> {
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > 64 {
            return Err("a tournament's name has 1 to 64 characters".into());
        }
        // As chat lines: no bidirectional controls (a right-to-left override turns the name
        // and what follows it around) nor zero-width characters.
        if name
            .chars()
            .any(|c| c.is_control() || crate::table::actor::invisible(c))
        {
            return Err(
                "a tournament's name has no control, bidirectional or zero-width characters".into(),
            );
        }
        if let Format::CutThroat {
            rounds,
            min_seats,
            max_seats,
        } = self.format
        {
            if !(1..=50).contains(&rounds) {
                return Err(format!("{rounds} rounds: a cut-throat event has 1 to 50"));
            }
            if !(3..=8).contains(&min_seats) || !(min_seats..=8).contains(&max_seats) {
                return Err(format!(
                    "tables of {min_seats} to {max_seats}: cut-throat tables seat 3 to 8, the \
                     fewest no more than the most"
                ));
            }
            if self.best_of != 1 {
                return Err(format!(
                    "best of {}: a cut-throat table plays one game",
                    self.best_of
                ));
            }
            for n in min_seats..=max_seats {
                self.rules_for(n)
                    .map_err(|e| format!("rules for tables of {n}: {e}"))?;
            }
        }
        let rules = Rules::parse(&self.rules).map_err(|e| format!("rules: {e}"))?;
        let two_sides = rules.players == 2 || (rules.players == 4 && rules.partnerships);
        if !two_sides && !matches!(self.format, Format::CutThroat { .. }) {
            return Err(format!(
                "rules for {} players{}: a tournament game is two players, or four in two \
                 partnerships",
                rules.players,
                if rules.partnerships {
                    " in partnerships"
                } else {
                    ""
                }
            ));
        }
        MatchRule::best_of(self.best_of)
            .validate()
            .map_err(|e| e.to_string())?;
        match self.format {
            Format::Swiss { rounds } if !(1..=50).contains(&rounds) => {
                return Err(format!("{rounds} rounds: a Swiss has 1 to 50"));
            }
            Format::Knockout { .. } if self.best_of % 2 == 0 => {
                return Err(format!(
                    "best of {}: a knockout match needs a winner, so an odd number of games",
                    self.best_of
                ));
            }
            Format::Arena { duration_ms } if !(1_000..=86_400_000).contains(&duration_ms) => {
                return Err(format!(
                    "an arena of {duration_ms} ms: it lasts 1 second to 24 hours"
                ));
            }
            Format::Daylong { duration_ms, .. }
                if !(1_000..=604_800_000).contains(&duration_ms) =>
            {
                return Err(format!(
                    "a daylong of {duration_ms} ms: it is open 1 second to 7 days"
                ));
            }
            _ => {}
        }
        if let Some((boards, _)) = self.format.duplicate() {
            if !(1..=64).contains(&boards) {
                return Err(format!("{boards} boards: a duplicate event has 1 to 64"));
            }
            if self.best_of != 1 {
                return Err(format!(
                    "best of {}: each duplicate board is one game",
                    self.best_of
                ));
            }
            let level = self.opponents();
            if !crate::BOT_LEVELS.contains(&level) && !crate::BOT_PLAYERS.contains(&level) {
                return Err(format!(
                    "opponents {level:?}: not a computer player; {}",
                    computer_players()
                ));
            }
        } else if self.opponents.is_some() {
            return Err("opponents are for duplicate and daylong events".into());
        }
        if let Some(ms) = self.no_show_ms {
            if !(1_000..=3_600_000).contains(&ms) {
                return Err(format!(
                    "a no-show time of {ms} ms: 1 second (1000) to an hour (3600000)"
                ));
            }
        }
        if let Some(ms) = self.match_clock_ms {
            if !(1_000..=14_400_000).contains(&ms) {
                return Err(format!(
                    "a match clock of {ms} ms: 1 second (1000) to 4 hours (14400000)"
                ));
            }
        }
        if let Some(ms) = self.turn_ms {
            if !(100..=600_000).contains(&ms) {
                return Err(format!(
                    "a turn clock of {ms} ms: 100 ms to 10 minutes (600000)"
                ));
            }
        }
        let daylong = matches!(self.format, Format::Daylong { .. });
        if self.start_at.is_none() && self.start_when.is_none() && !daylong {
            return Err("give a start time (start_at) or a number of entrants (start_when)".into());
        }
        if let Some(t) = self.start_at {
            if t < now - 60 || t > now + 366 * 86_400 {
                return Err("the start time is in the past or more than a year away".into());
            }
        }
        if let Some(n) = self.start_when {
            if !(2..=10_000).contains(&n) {
                return Err(format!("start when {n} have joined: 2 to 10,000"));
            }
        }
        if let Some(m) = self.max_entrants {
            if !(2..=10_000).contains(&m) {
                return Err(format!("at most {m} entrants: 2 to 10,000"));
            }
            if self.start_when.is_some_and(|n| n > m) {
                return Err("it would start with more entrants than it accepts".into());
            }
        }
        if let (Some(lo), Some(hi)) = (self.min_rating, self.max_rating) {
            if lo > hi {
                return Err("the lowest rating accepted is above the highest".into());
            }
        }
        Ok(rules)
    }

    /// The match rule.
    #[must_use]
    pub const fn rule(&self) -> MatchRule {
        MatchRule::best_of(self.best_of)
    }

    /// The rules of a table of `players` in a cut-throat event (`players=N
    /// partnerships=false` added to the event's rules: each for themselves); the event's own
    /// rules otherwise.
    pub fn rules_for(&self, players: u8) -> Result<Rules, String> {
        if matches!(self.format, Format::CutThroat { .. }) {
            Rules::parse(&format!(
                "{} players={players} partnerships=false",
                self.rules
            ))
            .map_err(|e| e.to_string())
        } else {
            Rules::parse(&self.rules).map_err(|e| e.to_string())
        }
    }

    /// How long a person has to come to their table.
    #[must_use]
    pub fn no_show_ms(&self) -> u64 {
        self.no_show_ms.unwrap_or(NO_SHOW_MS)
    }

    /// The computer players at the other seats of a duplicate board.
    #[must_use]
    pub fn opponents(&self) -> &str {
        self.opponents.as_deref().unwrap_or("expert")
    }

    /// Whether an entrant is a team of two.
    #[must_use]
    pub fn teams(&self) -> bool {
        Rules::parse(&self.rules).is_ok_and(|r| r.partnerships)
    }

    /// Whether guests may enter: arenas yes; Swiss events and knockouts are rated and for
    /// registered players.
    #[must_use]
    pub const fn guests_welcome(&self) -> bool {
        matches!(self.format, Format::Arena { .. } | Format::Daylong { .. })
    }
}
