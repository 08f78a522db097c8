//! # fiveup-tournament
//!
//! Tournament formats as pure data and functions: entrants, rounds, pairings, results and
//! standings for knockouts (single and double elimination), Swiss, arena, round robin
//! (single and double), duplicate and cut-throat tables. Nothing here does I/O, reads a clock
//! or draws random numbers: a time is an argument, and an event is a value that changes only
//! through operations, each checked (a refused operation changes nothing). Every type is
//! serde-serialisable, and every event can be rebuilt from its settings, its entrants and the
//! log of operations applied to it (`replay`), so a server that stores those rebuilds exactly
//! the same event.
//!
//! The formats, as implemented, are described in `docs/tournaments.md`.
//!
//! ```
//! use fiveup_tournament::{swiss::{Swiss, SwissSettings}, Entrant, EntrantId, MatchResult, MatchRule};
//!
//! let entrants: Vec<Entrant> = (0..4)
//!     .map(|i| Entrant::single(EntrantId(i), format!("p{i}"), 1500 - 10 * i as i32))
//!     .collect();
//! let mut swiss = Swiss::new(SwissSettings { rounds: 2, rule: MatchRule::single() }, entrants).unwrap();
//! let round = swiss.pair_next_round().unwrap().clone();
//! for (table, p) in round.pairings.iter().enumerate() {
//!     if p.b.is_some() {
//!         swiss.record(0, table, MatchResult::new([1, 0], 0, [250, 120])).unwrap();
//!     }
//! }
//! let table = swiss.standings();
//! assert_eq!(table.len(), 4);
//! assert_eq!(table[0].points, 1.0);
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

pub mod arena;
pub mod cutthroat;
pub mod duplicate;
pub mod knockout;
pub mod matching;
pub mod roundrobin;
pub mod swiss;

/// An entrant's number in its event. Ids are chosen by the caller and must be unique.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EntrantId(pub u32);

impl fmt::Display for EntrantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// One entrant: a single player, or a partnership entered as one team whose partners never
/// change (the team is the entrant; its partners are named for display only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The entrant's id, unique in its event.
    pub id: EntrantId,
    /// The name shown in standings (a team's name).
    pub name: String,
    /// The rating that seeds knockouts and orders equal scores when pairing.
    pub rating: i32,
    /// A team's partners, two or three; empty for a single player.
    #[serde(default)]
    pub partners: Vec<String>,
}

impl Entrant {
    /// A single player.
    #[must_use]
    pub fn single(id: EntrantId, name: impl Into<String>, rating: i32) -> Entrant {
        Entrant {
            id,
            name: name.into(),
            rating,
            partners: Vec::new(),
        }
    }

    /// A partnership entered as one team.
    #[must_use]
    pub fn team(
        id: EntrantId,
        name: impl Into<String>,
        rating: i32,
        partners: Vec<String>,
    ) -> Entrant {
        Entrant {
            id,
            name: name.into(),
            rating,
            partners,
        }
    }

    /// Whether the entrant is a partnership.
    #[must_use]
    pub fn is_team(&self) -> bool {
        !self.partners.is_empty()
    }
}

/// Why an operation was refused. A refused operation changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TournamentError {
    /// The settings are out of range; the text says which and why.
    Settings(String),
    /// The entrants are not acceptable (duplicate ids, empty names, mixed singles and teams,
    /// too few for the format).
    Entrants(String),
    /// No entrant has this id.
    UnknownEntrant(EntrantId),
    /// The operation does not fit the event's state (a round still open, a match already
    /// decided, the event over); the text says what.
    State(String),
    /// The result is not one the match rule allows, or does not fit the match.
    Result(String),
}

impl fmt::Display for TournamentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TournamentError::Settings(s) => write!(f, "bad settings: {s}"),
            TournamentError::Entrants(s) => write!(f, "bad entrants: {s}"),
            TournamentError::UnknownEntrant(id) => write!(f, "no entrant has id {}", id.0),
            TournamentError::State(s) => f.write_str(s),
            TournamentError::Result(s) => write!(f, "bad result: {s}"),
        }
    }
}

impl std::error::Error for TournamentError {}

/// How a match is decided: one game, or best of `best_of` games, in which the first to win
/// `ceil(best_of / 2)` games wins the match. If every game is played and nobody reached that
/// (only possible when games can be drawn, or with an even `best_of`), the side with more game
/// wins takes the match, and equal game wins draw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRule {
    /// Games at most, 1 to 99.
    pub best_of: u32,
}

impl MatchRule {
    /// One game decides.
    #[must_use]
    pub const fn single() -> MatchRule {
        MatchRule { best_of: 1 }
    }

    /// Best of `n` games.
    #[must_use]
    pub const fn best_of(n: u32) -> MatchRule {
        MatchRule { best_of: n }
    }

    /// Game wins that take the match: `ceil(best_of / 2)`.
    #[must_use]
    pub const fn wins_needed(self) -> u32 {
        self.best_of.div_ceil(2)
    }

    /// Check the rule's range.
    pub fn validate(self) -> Result<(), TournamentError> {
        if (1..=99).contains(&self.best_of) {
            Ok(())
        } else {
            Err(TournamentError::Settings(format!(
                "best of {} games: it must be 1 to 99",
                self.best_of
            )))
        }
    }

    /// Whether a match standing at these game wins and drawn games is over.
    #[must_use]
    pub fn is_over(self, wins: [u32; 2], drawn: u32) -> bool {
        wins[0] >= self.wins_needed()
            || wins[1] >= self.wins_needed()
            || wins[0] + wins[1] + drawn >= self.best_of
    }

    /// Check that a result is a finished match under this rule: nobody past the wins needed,
    /// no more games than allowed, and the match over after its last game.
    pub fn check(self, r: &MatchResult) -> Result<(), TournamentError> {
        let need = self.wins_needed();
        let played = r.games[0] + r.games[1] + r.drawn;
        if played > self.best_of {
            return Err(TournamentError::Result(format!(
                "{played} games in a best of {}",
                self.best_of
            )));
        }
        if r.games[0] > need || r.games[1] > need {
            return Err(TournamentError::Result(format!(
                "game wins {}-{}: the match ends at {need}",
                r.games[0], r.games[1]
            )));
        }
        if r.games[0] == need && r.games[1] == need {
            return Err(TournamentError::Result(format!(
                "both sides reached {need} game wins"
            )));
        }
        if !self.is_over(r.games, r.drawn) {
            return Err(TournamentError::Result(format!(
                "game wins {}-{} with {} drawn do not finish a best of {}",
                r.games[0], r.games[1], r.drawn, self.best_of
            )));
        }
        Ok(())
    }
}

/// The result of a match between side A (index 0) and side B (index 1): game wins, drawn
/// games and the game points each side scored over the match, so that standings can use point
/// difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// Games won by A and by B.
    pub games: [u32; 2],
    /// Games drawn.
    pub drawn: u32,
    /// Game points scored by A and by B, summed over the match's games.
    pub points: [i64; 2],
}

/// Who took a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Side A won.
    A,
    /// Side B won.
    B,
    /// A drawn match (equal game wins).
    Draw,
}

impl MatchResult {
    /// A result from game wins, drawn games and points.
    #[must_use]
    pub const fn new(games: [u32; 2], drawn: u32, points: [i64; 2]) -> MatchResult {
        MatchResult {
            games,
            drawn,
            points,
        }
    }

    /// One game won by A (`a_won`) or by B, with its points.
    #[must_use]
    pub const fn game(a_won: bool, points: [i64; 2]) -> MatchResult {
        MatchResult {
            games: if a_won { [1, 0] } else { [0, 1] },
            drawn: 0,
            points,
        }
    }

    /// Who took the match.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        match self.games[0].cmp(&self.games[1]) {
            std::cmp::Ordering::Greater => Outcome::A,
            std::cmp::Ordering::Less => Outcome::B,
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// The same result seen from the other side.
    #[must_use]
    pub fn swapped(&self) -> MatchResult {
        MatchResult {
            games: [self.games[1], self.games[0]],
            drawn: self.drawn,
            points: [self.points[1], self.points[0]],
        }
    }
}

/// A pairing of one round: `a` against `b`, or `a` alone with a bye when `b` is `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// Side A.
    pub a: EntrantId,
    /// Side B, or `None` for a bye.
    pub b: Option<EntrantId>,
}

impl Pairing {
    /// Whether `id` plays in this pairing.
    #[must_use]
    pub fn involves(&self, id: EntrantId) -> bool {
        self.a == id || self.b == Some(id)
    }
}

/// One round of a paired event (Swiss, round robin): its pairings, table by table, and the
/// result of each (`None` until recorded; always `None` for a bye).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The pairings, top table first; a bye (if any) last.
    pub pairings: Vec<Pairing>,
    /// The results, one per pairing.
    pub results: Vec<Option<MatchResult>>,
}

impl Round {
    /// A round of these pairings with no results yet.
    #[must_use]
    pub fn new(pairings: Vec<Pairing>) -> Round {
        let results = vec![None; pairings.len()];
        Round { pairings, results }
    }

    /// Whether every match of the round has its result (byes need none).
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.pairings
            .iter()
            .zip(&self.results)
            .all(|(p, r)| p.b.is_none() || r.is_some())
    }

    /// Record the result of table `table` (side A's view), checked against `rule`.
    pub(crate) fn record(
        &mut self,
        table: usize,
        rule: MatchRule,
        result: MatchResult,
    ) -> Result<(), TournamentError> {
        let p = self
            .pairings
            .get(table)
            .ok_or_else(|| TournamentError::State(format!("the round has no table {table}")))?;
        if p.b.is_none() {
            return Err(TournamentError::State(format!(
                "table {table} is a bye: it has no result"
            )));
        }
        if self.results[table].is_some() {
            return Err(TournamentError::State(format!(
                "table {table} already has its result"
            )));
        }
        rule.check(&result)?;
        self.results[table] = Some(result);
        Ok(())
    }
}

/// What the rounds so far give one entrant.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    /// Score in half-points: 2 a match won, 1 a match drawn or a bye.
    pub score: u32,
    /// Each match played: the opponent's index and the result from this entrant's side.
    pub games: Vec<(usize, MatchResult)>,
    /// Pairing byes received (not counting rounds missed by a late entry).
    pub byes: u32,
    /// Matches, games and points.
    pub record: Record,
}

/// Tally `rounds` for the entrants (`index` maps an id to its place in the result); each
/// entrant's `missed[i]` rounds (a late entry's) score a half-point bye each.
pub(crate) fn tally(
    count: usize,
    index: &BTreeMap<EntrantId, usize>,
    rounds: &[Round],
    missed: &[u32],
) -> Vec<Tally> {
    let mut t = vec![Tally::default(); count];
    for (i, m) in missed.iter().enumerate() {
        t[i].score += m;
        t[i].record.byes += m;
    }
    for round in rounds {
        for (p, r) in round.pairings.iter().zip(&round.results) {
            let a = index[&p.a];
            match (p.b, r) {
                (None, _) => {
                    t[a].score += 1;
                    t[a].byes += 1;
                    t[a].record.byes += 1;
                }
                (Some(b), Some(r)) => {
                    let b = index[&b];
                    let (sa, sb) = match r.outcome() {
                        Outcome::A => (2, 0),
                        Outcome::B => (0, 2),
                        Outcome::Draw => (1, 1),
                    };
                    t[a].score += sa;
                    t[b].score += sb;
                    t[a].games.push((b, *r));
                    t[b].games.push((a, r.swapped()));
                    t[a].record.add(r);
                    t[b].record.add(&r.swapped());
                }
                (Some(_), None) => {}
            }
        }
    }
    t
}

/// Half-points a result gives its side A: 2 for a win, 1 for a draw.
pub(crate) fn result_halves(r: &MatchResult) -> u32 {
    match r.outcome() {
        Outcome::A => 2,
        Outcome::Draw => 1,
        Outcome::B => 0,
    }
}

/// An entrant's record over an event: matches, games and points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Matches played (byes not counted).
    pub played: u32,
    /// Matches won.
    pub won: u32,
    /// Matches drawn.
    pub drawn: u32,
    /// Matches lost.
    pub lost: u32,
    /// Byes received (including rounds missed by a late entry).
    pub byes: u32,
    /// Games won.
    pub games_won: u32,
    /// Games lost.
    pub games_lost: u32,
    /// Game points scored.
    pub points_for: i64,
    /// Game points conceded.
    pub points_against: i64,
}

impl Record {
    /// Count a match from this entrant's side (`r.games[0]` and `r.points[0]` are its own).
    pub fn add(&mut self, r: &MatchResult) {
        self.played += 1;
        match r.outcome() {
            Outcome::A => self.won += 1,
            Outcome::B => self.lost += 1,
            Outcome::Draw => self.drawn += 1,
        }
        self.games_won += r.games[0];
        self.games_lost += r.games[1];
        self.points_for += r.points[0];
        self.points_against += r.points[1];
    }

    /// Points scored minus points conceded.
    #[must_use]
    pub fn point_difference(&self) -> i64 {
        self.points_for - self.points_against
    }
}

/// One tie-break's value, named for display.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TieBreak {
    /// The tie-break's name (`Buchholz`, `Sonneborn-Berger`, `points +/-`, ...).
    pub name: String,
    /// Its value.
    pub value: f64,
}

/// One row of a standings table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandingRow {
    /// Rank, from 1; entrants equal on the score and every tie-break share a rank.
    pub rank: u32,
    /// The entrant.
    pub entrant: EntrantId,
    /// The entrant's name.
    pub name: String,
    /// The score that ranks entrants first (its unit depends on the format).
    pub points: f64,
    /// The tie-breaks, in the order they are applied.
    pub tiebreaks: Vec<TieBreak>,
    /// Matches, games and points.
    pub record: Record,
    /// Whether the entrant has withdrawn or been eliminated.
    pub out: bool,
}

/// Check a field of entrants: unique ids, non-empty names, all singles or all teams of the
/// same size (two or three partners).
pub fn check_entrants(entrants: &[Entrant]) -> Result<(), TournamentError> {
    let mut seen = BTreeMap::new();
    for e in entrants {
        if seen.insert(e.id, ()).is_some() {
            return Err(TournamentError::Entrants(format!(
                "id {} is used twice",
                e.id.0
            )));
        }
        if e.name.trim().is_empty() {
            return Err(TournamentError::Entrants(format!(
                "entrant {} has an empty name",
                e.id.0
            )));
        }
        if !matches!(e.partners.len(), 0 | 2 | 3) {
            return Err(TournamentError::Entrants(format!(
                "team {} has {} partners: a partnership has two or three",
                e.name,
                e.partners.len()
            )));
        }
    }
    if let Some(first) = entrants.first() {
        if let Some(odd) = entrants
            .iter()
            .find(|e| e.partners.len() != first.partners.len())
        {
            return Err(TournamentError::Entrants(format!(
                "{} and {} differ: every entrant must be a single player, or every one a team \
                 of the same size",
                first.name, odd.name
            )));
        }
    }
    Ok(())
}

/// Rank rows already sorted best first: a row equal to the one before on `key` shares its
/// rank, else its rank is its position (1, 2, 2, 4).
pub(crate) fn assign_ranks<K: PartialEq>(rows: &mut [StandingRow], keys: &[K]) {
    let mut rank = 1;
    for i in 0..rows.len() {
        if i > 0 && keys[i] != keys[i - 1] {
            rank = i as u32 + 1;
        }
        rows[i].rank = rank;
    }
}

/// The entrants sorted by seed: rating, highest first, then id.
pub(crate) fn seed_order(entrants: &[Entrant]) -> Vec<EntrantId> {
    let mut v: Vec<&Entrant> = entrants.iter().collect();
    v.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.id.cmp(&b.id)));
    v.into_iter().map(|e| e.id).collect()
}

/// Half-points as points (`3` is `1.5`).
pub(crate) fn halves(h: u32) -> f64 {
    f64::from(h) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_rule_checks_results() {
        let bo3 = MatchRule::best_of(3);
        assert_eq!(bo3.wins_needed(), 2);
        assert!(bo3.check(&MatchResult::new([2, 1], 0, [0, 0])).is_ok());
        assert!(bo3.check(&MatchResult::new([2, 0], 0, [0, 0])).is_ok());
        assert!(bo3.check(&MatchResult::new([1, 1], 0, [0, 0])).is_err());
        assert!(bo3.check(&MatchResult::new([3, 0], 0, [0, 0])).is_err());
        assert!(bo3.check(&MatchResult::new([1, 1], 1, [0, 0])).is_ok());
        let bo2 = MatchRule::best_of(2);
        assert_eq!(bo2.wins_needed(), 1);
        assert!(bo2.check(&MatchResult::new([0, 0], 2, [0, 0])).is_ok());
        assert_eq!(MatchResult::new([0, 0], 2, [0, 0]).outcome(), Outcome::Draw);
        assert!(MatchRule::best_of(0).validate().is_err());
        assert!(MatchRule::single()
            .check(&MatchResult::new([0, 1], 0, [80, 250]))
            .is_ok());
    }

    #[test]
    fn entrants_are_checked() {
        let a = Entrant::single(EntrantId(1), "a", 1000);
        let b = Entrant::single(EntrantId(1), "b", 1000);
        assert!(check_entrants(&[a.clone(), b]).is_err());
        let t = Entrant::team(EntrantId(2), "t", 1000, vec!["x".into(), "y".into()]);
        assert!(check_entrants(&[a.clone(), t]).is_err());
        let empty = Entrant::single(EntrantId(3), " ", 1000);
        assert!(check_entrants(&[a, empty]).is_err());
    }
}
