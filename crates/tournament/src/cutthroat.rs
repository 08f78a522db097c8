//! Cut-throat tables: rounds in which entrants sit at tables of 3 to 8, each for themselves.
//!
//! **Table sizes.** The fewest tables whose sizes, as even as possible (they differ by at
//! most one, bigger tables first), all lie within the seat limits ([`table_sizes`]).
//!
//! **Grouping** ([`group_tables`], a heuristic). Players are ranked by score, then rating,
//! then id, and seated in that order, table after table, so tables are score groups. Then,
//! repeatedly, the first swap of two players at different tables that lowers the cost is made,
//! until none does (at most 64 passes). The cost is, first, the number of pairs at the same
//! table who have met before (each earlier meeting counted), then the sum over tables of the
//! spread of scores (highest minus lowest) at the table. So repeat meetings go first, and are
//! traded only for the smallest loss of score grouping the swaps can find.
//!
//! **Scoring.** At each table, an entrant gets 2 for every player at the table they outscored
//! and 1 for every one they tied. Standings rank by those points, then by the summed
//! difference between the entrant's game points and their table's average, then by total
//! game points. A withdrawn entrant is not seated again.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{
    assign_ranks, check_entrants, Entrant, EntrantId, Record, StandingRow, TieBreak,
    TournamentError,
};

/// The settings of a cut-throat event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutThroatSettings {
    /// Fewest seats at a table, at least 3.
    pub min_seats: u8,
    /// Most seats at a table, at most 8.
    pub max_seats: u8,
    /// Rounds, 1 to 1000.
    pub rounds: u32,
}

/// One table of a round: who sits there, in seat order, and their game points once played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// The players, seat 0 first.
    pub seats: Vec<EntrantId>,
    /// Game points, one per seat, once recorded.
    pub points: Option<Vec<i64>>,
}

/// One operation on a cut-throat event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CutThroatOp {
    /// Seat the next round.
    PairRound,
    /// A table's game points, one per seat.
    Record {
        /// Round index, from 0.
        round: usize,
        /// Table index, from 0.
        table: usize,
        /// Points by seat.
        points: Vec<i64>,
    },
    /// An entrant withdraws.
    Withdraw(EntrantId),
}

/// A player as the grouping sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutPlayer {
    /// The player.
    pub id: EntrantId,
    /// Current score.
    pub score: u32,
    /// Rating, to order equal scores.
    pub rating: i32,
}

/// A cut-throat event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CutThroat {
    settings: CutThroatSettings,
    entrants: Vec<Entrant>,
    withdrawn: Vec<bool>,
    rounds: Vec<Vec<Table>>,
    log: Vec<CutThroatOp>,
}

/// The table sizes for `n` players within `[min, max]` seats: the fewest tables, sizes as even
/// as possible, bigger first.
pub fn table_sizes(n: usize, min: usize, max: usize) -> Result<Vec<usize>, TournamentError> {
    if !(3..=8).contains(&min) || !(min..=8).contains(&max) {
        return Err(TournamentError::Settings(format!(
            "tables of {min} to {max} seats: seats must be 3 to 8, the least first"
        )));
    }
    let first = n.div_ceil(max).max(1);
    for t in first..=n / min {
        let (base, rem) = (n / t, n % t);
        if base >= min && base + usize::from(rem > 0) <= max {
            return Ok((0..t).map(|i| base + usize::from(i < rem)).collect());
        }
    }
    Err(TournamentError::Entrants(format!(
        "{n} players cannot be seated at tables of {min} to {max}"
    )))
}

fn pair_key(a: EntrantId, b: EntrantId) -> (EntrantId, EntrantId) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// Seat players at tables of the given sizes (see the module documentation); `met` counts
/// earlier meetings by pair (the lower id first).
#[must_use]
pub fn group_tables(
    players: &[CutPlayer],
    met: &BTreeMap<(EntrantId, EntrantId), u32>,
    sizes: &[usize],
) -> Vec<Vec<EntrantId>> {
    let mut order: Vec<CutPlayer> = players.to_vec();
    order.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(b.rating.cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });
    let mut tables: Vec<Vec<CutPlayer>> = Vec::new();
    let mut it = order.into_iter();
    for &s in sizes {
        tables.push(it.by_ref().take(s).collect());
    }
    let table_cost = |t: &[CutPlayer]| -> (u64, u64) {
        let mut rep = 0u64;
        for i in 0..t.len() {
            for j in i + 1..t.len() {
                rep += u64::from(met.get(&pair_key(t[i].id, t[j].id)).copied().unwrap_or(0));
            }
        }
        let hi = t.iter().map(|p| p.score).max().unwrap_or(0);
        let lo = t.iter().map(|p| p.score).min().unwrap_or(0);
        (rep, u64::from(hi - lo))
    };
    let add = |a: (u64, u64), b: (u64, u64)| (a.0 + b.0, a.1 + b.1);
    for _ in 0..64 {
        let mut improved = false;
        for ta in 0..tables.len() {
            for tb in ta + 1..tables.len() {
                for i in 0..tables[ta].len() {
                    for j in 0..tables[tb].len() {
                        let before = add(table_cost(&tables[ta]), table_cost(&tables[tb]));
                        let (x, y) = (tables[ta][i], tables[tb][j]);
                        tables[ta][i] = y;
                        tables[tb][j] = x;
                        let after = add(table_cost(&tables[ta]), table_cost(&tables[tb]));
                        if after < before {
                            improved = true;
                        } else {
                            tables[ta][i] = x;
                            tables[tb][j] = y;
                        }
                    }
                }
            }
        }
        if !improved {
            break;
        }
    }
    tables
        .into_iter()
        .map(|mut t| {
            t.sort_by(|a, b| {
                b.score
                    .cmp(&a.score)
                    .then(b.rating.cmp(&a.rating))
                    .then(a.id.cmp(&b.id))
            });
            t.into_iter().map(|p| p.id).collect()
        })
        .collect()
}

/// Points each seat of a table gets: 2 per player outscored, 1 per tie.
#[must_use]
pub fn table_points(points: &[i64]) -> Vec<u32> {
    points
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            points
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, &q)| match p.cmp(&q) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                })
                .sum()
        })
        .collect()
}

impl CutThroat {
    /// A cut-throat event; the field must fit the seat limits.
    pub fn new(
        settings: CutThroatSettings,
        entrants: Vec<Entrant>,
    ) -> Result<CutThroat, TournamentError> {
        check_entrants(&entrants)?;
        if !(1..=1000).contains(&settings.rounds) {
            return Err(TournamentError::Settings(format!(
                "{} rounds: 1 to 1000",
                settings.rounds
            )));
        }
        table_sizes(
            entrants.len(),
            usize::from(settings.min_seats),
            usize::from(settings.max_seats),
        )?;
        let n = entrants.len();
        Ok(CutThroat {
            settings,
            entrants,
            withdrawn: vec![false; n],
            rounds: Vec::new(),
            log: Vec::new(),
        })
    }

    /// Rebuild an event from its settings, entrants and operation log.
    pub fn replay(
        settings: CutThroatSettings,
        entrants: Vec<Entrant>,
        ops: &[CutThroatOp],
    ) -> Result<CutThroat, TournamentError> {
        let mut c = CutThroat::new(settings, entrants)?;
        for op in ops {
            c.apply(op.clone())?;
        }
        Ok(c)
    }

    /// Apply one operation; a refused one changes nothing.
    pub fn apply(&mut self, op: CutThroatOp) -> Result<(), TournamentError> {
        match &op {
            CutThroatOp::PairRound => {
                if self.rounds.len() as u32 >= self.settings.rounds {
                    return Err(TournamentError::State(format!(
                        "all {} rounds have been seated",
                        self.settings.rounds
                    )));
                }
                if self.rounds.iter().flatten().any(|t| t.points.is_none()) {
                    return Err(TournamentError::State(
                        "a table of the last round has no result yet".into(),
                    ));
                }
                let scores = self.scores();
                let players: Vec<CutPlayer> = self
                    .entrants
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !self.withdrawn[*i])
                    .map(|(i, e)| CutPlayer {
                        id: e.id,
                        score: scores[i].0,
                        rating: e.rating,
                    })
                    .collect();
                let sizes = table_sizes(
                    players.len(),
                    usize::from(self.settings.min_seats),
                    usize::from(self.settings.max_seats),
                )?;
                let mut met = BTreeMap::new();
                for t in self.rounds.iter().flatten() {
                    for i in 0..t.seats.len() {
                        for j in i + 1..t.seats.len() {
                            *met.entry(pair_key(t.seats[i], t.seats[j])).or_insert(0) += 1;
                        }
                    }
                }
                let tables = group_tables(&players, &met, &sizes);
                self.rounds.push(
                    tables
                        .into_iter()
                        .map(|seats| Table {
                            seats,
                            points: None,
                        })
                        .collect(),
                );
            }
            CutThroatOp::Record {
                round,
                table,
                points,
            } => {
                let t = self
                    .rounds
                    .get_mut(*round)
                    .and_then(|r| r.get_mut(*table))
                    .ok_or_else(|| {
                        TournamentError::State(format!(
                            "there is no table {table} in round {round}"
                        ))
                    })?;
                if t.points.is_some() {
                    return Err(TournamentError::State(format!(
                        "table {table} of round {round} already has its result"
                    )));
                }
                if points.len() != t.seats.len() {
                    return Err(TournamentError::Result(format!(
                        "{} scores for a table of {}",
                        points.len(),
                        t.seats.len()
                    )));
                }
                t.points = Some(points.clone());
            }
            CutThroatOp::Withdraw(id) => {
                let i = self
                    .entrants
                    .iter()
                    .position(|e| e.id == *id)
                    .ok_or(TournamentError::UnknownEntrant(*id))?;
                if self.withdrawn[i] {
                    return Err(TournamentError::State(format!(
                        "{id} has already withdrawn"
                    )));
                }
                let left = self.withdrawn.iter().filter(|w| !**w).count() - 1;
                table_sizes(
                    left,
                    usize::from(self.settings.min_seats),
                    usize::from(self.settings.max_seats),
                )?;
                self.withdrawn[i] = true;
            }
        }
        self.log.push(op);
        Ok(())
    }

    /// Seat the next round and return its tables.
    pub fn pair_next_round(&mut self) -> Result<&[Table], TournamentError> {
        self.apply(CutThroatOp::PairRound)?;
        Ok(&self.rounds[self.rounds.len() - 1])
    }

    /// Record a table's game points, one per seat.
    pub fn record(
        &mut self,
        round: usize,
        table: usize,
        points: Vec<i64>,
    ) -> Result<(), TournamentError> {
        self.apply(CutThroatOp::Record {
            round,
            table,
            points,
        })
    }

    /// The rounds seated so far.
    #[must_use]
    pub fn rounds(&self) -> &[Vec<Table>] {
        &self.rounds
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> CutThroatSettings {
        self.settings
    }

    /// The operations applied so far.
    #[must_use]
    pub fn log(&self) -> &[CutThroatOp] {
        &self.log
    }

    /// Points, summed difference from the table average (in millionths), record; by index.
    fn scores(&self) -> Vec<(u32, i64, Record)> {
        let mut s = vec![(0u32, 0i64, Record::default()); self.entrants.len()];
        let pos = |id: EntrantId| self.entrants.iter().position(|e| e.id == id).unwrap_or(0);
        for t in self.rounds.iter().flatten() {
            let Some(points) = &t.points else { continue };
            let tp = table_points(points);
            let total: i64 = points.iter().sum();
            let n = points.len() as i64;
            let top = points.iter().copied().max().unwrap_or(0);
            let tops = points.iter().filter(|&&p| p == top).count();
            for (k, &id) in t.seats.iter().enumerate() {
                let e = &mut s[pos(id)];
                e.0 += tp[k];
                e.1 += (points[k] * n - total) * 1_000_000 / n;
                let r = &mut e.2;
                r.played += 1;
                r.points_for += points[k];
                r.points_against += (total - points[k]) / (n - 1).max(1);
                if points[k] == top && tops == 1 {
                    r.won += 1;
                } else if points[k] == top {
                    r.drawn += 1;
                } else {
                    r.lost += 1;
                }
            }
        }
        s
    }

    /// The standings: table points, then difference from the table averages, then game
    /// points scored.
    #[must_use]
    pub fn standings(&self) -> Vec<StandingRow> {
        let s = self.scores();
        let key = |i: usize| (s[i].0, s[i].1, s[i].2.points_for);
        let mut order: Vec<usize> = (0..self.entrants.len()).collect();
        order.sort_by(|&a, &b| {
            key(b)
                .cmp(&key(a))
                .then(self.entrants[b].rating.cmp(&self.entrants[a].rating))
                .then(self.entrants[a].id.cmp(&self.entrants[b].id))
        });
        let mut rows: Vec<StandingRow> = order
            .iter()
            .map(|&i| StandingRow {
                rank: 0,
                entrant: self.entrants[i].id,
                name: self.entrants[i].name.clone(),
                points: f64::from(s[i].0),
                tiebreaks: vec![
                    TieBreak {
                        name: "points +/- avg".into(),
                        value: s[i].1 as f64 / 1e6,
                    },
                    TieBreak {
                        name: "points".into(),
                        value: s[i].2.points_for as f64,
                    },
                ],
                record: s[i].2,
                out: self.withdrawn[i],
            })
            .collect();
        let keys: Vec<_> = order.iter().map(|&i| key(i)).collect();
        assign_ranks(&mut rows, &keys);
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes_are_even_within_limits() {
        assert_eq!(table_sizes(10, 3, 4).unwrap(), vec![4, 3, 3]);
        assert_eq!(table_sizes(8, 3, 8).unwrap(), vec![8]);
        assert_eq!(table_sizes(9, 3, 4).unwrap(), vec![3, 3, 3]);
        assert_eq!(table_sizes(17, 4, 6).unwrap(), vec![6, 6, 5]);
        assert!(table_sizes(5, 3, 4).is_err());
        assert!(table_sizes(2, 3, 4).is_err());
        assert!(table_sizes(7, 4, 5).is_err());
        assert!(table_sizes(9, 2, 4).is_err());
    }

    #[test]
    fn table_points_count_players_outscored() {
        assert_eq!(table_points(&[30, 10, 10, 0]), vec![6, 3, 3, 0]);
    }

    #[test]
    fn grouping_avoids_repeat_meetings() {
        let players: Vec<CutPlayer> = (0..6)
            .map(|i| CutPlayer {
                id: EntrantId(i),
                score: 0,
                rating: 1000 - i as i32,
            })
            .collect();
        // 0, 1 and 2 sat together last time: they are split now.
        let mut met = BTreeMap::new();
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            met.insert((EntrantId(a), EntrantId(b)), 1);
        }
        let tables = group_tables(&players, &met, &[3, 3]);
        for t in &tables {
            let old = t.iter().filter(|id| id.0 < 3).count();
            assert!(old <= 2, "{tables:?}");
        }
    }
}
