//! Round robin: every entrant meets every other exactly once (twice in a double round robin),
//! on Berger tables.
//!
//! Entrants are numbered 1 to `n` by seed (rating, highest first). With an odd field a dummy
//! number `n + 1` is added, and meeting it is a bye. With `m = n - 1` (the field made even),
//! round `r` (from 1) pairs `i` and `j` (both below `n`) when `i + j ≡ r + 1 (mod m)`, and
//! player `n` meets the `i` with `2i ≡ r + 1 (mod m)`: the Berger tables. Round 1 of four is
//! 1-4, 2-3; round 2 is 4-3, 1-2; round 3 is 2-4, 3-1. The double round robin plays the
//! whole table twice, the second time with the sides swapped. Scoring is the Swiss's (a win 1,
//! a draw ½, a bye ½); standings rank by score, then Sonneborn-Berger, then point
//! difference (Buchholz is the same for everyone in a complete round robin).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::swiss::paired_standings;
use crate::{
    check_entrants, seed_order, tally, Entrant, EntrantId, MatchResult, MatchRule, Pairing, Round,
    StandingRow, TournamentError,
};

/// The settings of a round robin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobinSettings {
    /// Play the table twice.
    pub double: bool,
    /// How each match is decided.
    pub rule: MatchRule,
}

/// One result of a round robin (its only operation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobinOp {
    /// Round index, from 0.
    pub round: usize,
    /// Table index, from 0.
    pub table: usize,
    /// The result from side A's view.
    pub result: MatchResult,
}

/// A round robin event: its whole schedule is fixed at the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundRobin {
    settings: RoundRobinSettings,
    entrants: Vec<Entrant>,
    rounds: Vec<Round>,
    log: Vec<RoundRobinOp>,
}

/// The Berger tables for `n` players numbered 1 to `n`: each round's pairs, a bye shown as a
/// meeting with `n + 1` when `n` is odd.
#[must_use]
pub fn berger_tables(n: u32) -> Vec<Vec<(u32, u32)>> {
    let even = n + n % 2;
    if even < 2 {
        return Vec::new();
    }
    let m = even - 1;
    (1..=m)
        .map(|r| {
            let target = (r + 1) % m;
            // i's partner j is the number in 1..=m with i + j = target (mod m); the one i
            // that is its own partner meets the last player instead.
            let partner = |i: u32| match (target + m - i % m) % m {
                0 => m,
                j => j,
            };
            let mut pairs = Vec::with_capacity(even as usize / 2);
            if let Some(i) = (1..=m).find(|&i| partner(i) == i) {
                // Alternate which side the last player takes, as the printed tables do.
                pairs.push(if r % 2 == 1 { (i, even) } else { (even, i) });
            }
            pairs.extend((1..=m).filter(|&i| i < partner(i)).map(|i| (i, partner(i))));
            pairs
        })
        .collect()
}

impl RoundRobin {
    /// A round robin of these entrants, its schedule made at once.
    pub fn new(
        settings: RoundRobinSettings,
        entrants: Vec<Entrant>,
    ) -> Result<RoundRobin, TournamentError> {
        settings.rule.validate()?;
        check_entrants(&entrants)?;
        if entrants.len() < 2 {
            return Err(TournamentError::Entrants(
                "a round robin needs at least two entrants".into(),
            ));
        }
        if entrants.len() > 1000 {
            return Err(TournamentError::Entrants(
                "a round robin takes at most 1,000 entrants".into(),
            ));
        }
        let seeds = seed_order(&entrants);
        let n = seeds.len() as u32;
        let id = |k: u32| seeds.get(k as usize - 1).copied();
        let single: Vec<Round> = berger_tables(n)
            .into_iter()
            .map(|pairs| {
                let mut ps: Vec<Pairing> = Vec::new();
                let mut bye = None;
                for (a, b) in pairs {
                    match (id(a), id(b)) {
                        (Some(a), Some(b)) => ps.push(Pairing { a, b: Some(b) }),
                        (Some(a), None) | (None, Some(a)) => bye = Some(a),
                        (None, None) => {}
                    }
                }
                ps.extend(bye.map(|a| Pairing { a, b: None }));
                Round::new(ps)
            })
            .collect();
        let mut rounds = single.clone();
        if settings.double {
            rounds.extend(single.into_iter().map(|r| {
                Round::new(
                    r.pairings
                        .into_iter()
                        .map(|p| match p.b {
                            Some(b) => Pairing { a: b, b: Some(p.a) },
                            None => p,
                        })
                        .collect(),
                )
            }));
        }
        Ok(RoundRobin {
            settings,
            entrants,
            rounds,
            log: Vec::new(),
        })
    }

    /// Rebuild an event from its settings, entrants and results log.
    pub fn replay(
        settings: RoundRobinSettings,
        entrants: Vec<Entrant>,
        ops: &[RoundRobinOp],
    ) -> Result<RoundRobin, TournamentError> {
        let mut rr = RoundRobin::new(settings, entrants)?;
        for op in ops {
            rr.record(op.round, op.table, op.result)?;
        }
        Ok(rr)
    }

    /// Record a result (from side A's view). Rounds may be played in any order.
    pub fn record(
        &mut self,
        round: usize,
        table: usize,
        result: MatchResult,
    ) -> Result<(), TournamentError> {
        let rule = self.settings.rule;
        self.rounds
            .get_mut(round)
            .ok_or_else(|| TournamentError::State(format!("there is no round {round}")))?
            .record(table, rule, result)?;
        self.log.push(RoundRobinOp {
            round,
            table,
            result,
        });
        Ok(())
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> RoundRobinSettings {
        self.settings
    }

    /// The schedule, with the results so far.
    #[must_use]
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// The results recorded, in order.
    #[must_use]
    pub fn log(&self) -> &[RoundRobinOp] {
        &self.log
    }

    /// Whether every match has its result.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.rounds.iter().all(Round::is_complete)
    }

    /// The standings: score, then Sonneborn-Berger, then point difference.
    #[must_use]
    pub fn standings(&self) -> Vec<StandingRow> {
        let index: BTreeMap<EntrantId, usize> = self
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id, i))
            .collect();
        let n = self.entrants.len();
        let t = tally(n, &index, &self.rounds, &vec![0; n]);
        paired_standings(&self.entrants, &t, &vec![false; n], false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn berger_tables_of_four_and_six() {
        assert_eq!(
            berger_tables(4),
            vec![
                vec![(1, 4), (2, 3)],
                vec![(4, 3), (1, 2)],
                vec![(2, 4), (1, 3)],
            ]
        );
        // Six players, round 1: 1-6, 2-5, 3-4 (the first row of the printed table).
        let six = berger_tables(6);
        assert_eq!(six.len(), 5);
        let mut r1 = six[0].clone();
        r1.sort_unstable();
        assert_eq!(r1, vec![(1, 6), (2, 5), (3, 4)]);
    }

    #[test]
    fn odd_fields_get_a_bye_each_round_and_double_swaps_sides() {
        let entrants: Vec<Entrant> = (0..5)
            .map(|i| Entrant::single(EntrantId(i), format!("p{i}"), 1000))
            .collect();
        let rr = RoundRobin::new(
            RoundRobinSettings {
                double: true,
                rule: MatchRule::single(),
            },
            entrants,
        )
        .unwrap();
        assert_eq!(rr.rounds().len(), 10);
        for r in rr.rounds() {
            assert_eq!(r.pairings.iter().filter(|p| p.b.is_none()).count(), 1);
        }
        assert_eq!(
            rr.rounds()[0].pairings[0].a,
            rr.rounds()[5].pairings[0].b.unwrap()
        );
    }
}
