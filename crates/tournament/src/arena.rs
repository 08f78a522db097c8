//! Arena: a fixed duration in which a player who becomes free is paired at once with another
//! free player near their current rank.
//!
//! Time is an argument (milliseconds from the event's start); nothing here reads a clock. A
//! match won scores 2, drawn 1, lost 0 (Five Up games always have a winner, so a drawn match
//! happens only in a best of an even number of games, or when the caller records drawn games).
//! With streaks on (lichess's rule), a player who has won their last two matches is on a
//! streak: each further win scores 4 and a draw 2, until a match that is not a win ends it.
//!
//! Pairing ([`pair_waiting`]) takes who is waiting now, ranked by current points, and finds a
//! least-cost perfect matching where a pair costs the square of the distance between the two
//! ranks (so pairs stay near in rank across the whole waiting list), plus a penalty larger
//! than all of those for meeting one's last opponent (so that is done only
//! when nobody else is free). With an odd count the lowest-ranked waiting player who can wait
//! waits for the next free player. Players may leave (they are then not paired; a match in
//! progress still needs its result) and come back. No match starts at or after the end.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::matching::min_cost_perfect_matching;
use crate::{
    assign_ranks, check_entrants, Entrant, EntrantId, MatchResult, MatchRule, Outcome, Record,
    StandingRow, TieBreak, TournamentError,
};

/// The settings of an arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaSettings {
    /// How long pairing goes on, in milliseconds.
    pub duration_ms: u64,
    /// Whether lichess's streak rule applies (after two wins in a row, wins score double).
    pub streaks: bool,
    /// How each match is decided.
    pub rule: MatchRule,
}

/// One arena match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaMatch {
    /// Side A (the higher-ranked when paired).
    pub a: EntrantId,
    /// Side B.
    pub b: EntrantId,
    /// When it was paired.
    pub started_ms: u64,
    /// Its result, once in.
    pub result: Option<MatchResult>,
    /// When the result came in.
    pub finished_ms: Option<u64>,
}

/// One operation on an arena.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArenaOp {
    /// An entrant joins (or comes back) and waits to be paired.
    Join(EntrantId),
    /// An entrant leaves: not paired until they join again.
    Leave(EntrantId),
    /// Pair everyone waiting at this time.
    Pair(u64),
    /// A match's result at this time.
    Record {
        /// The match's index.
        game: usize,
        /// The result from side A's view.
        result: MatchResult,
        /// When.
        at_ms: u64,
    },
}

/// A waiting player as the pairing sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiting {
    /// The player.
    pub id: EntrantId,
    /// Current rank, from 1 (equal points may share it).
    pub rank: u32,
    /// Their last opponent, if any.
    pub last_opponent: Option<EntrantId>,
}

/// An arena event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arena {
    settings: ArenaSettings,
    entrants: Vec<Entrant>,
    present: BTreeSet<EntrantId>,
    matches: Vec<ArenaMatch>,
    log: Vec<ArenaOp>,
}

/// Pair the waiting players: least total squared rank distance, avoiding each player's last opponent
/// whenever someone else is free. Returns the pairs (the better-ranked first) in rank order;
/// with an odd count one player is left waiting, the lowest-ranked one the matching can spare.
///
/// Up to [`crate::swiss::WHOLE_GRAPH_LIMIT`] waiting players are matched as one graph; more
/// (the start of a big arena) are matched in rank order in blocks of
/// [`crate::swiss::BLOCK`], the player a block leaves over joining the next.
#[must_use]
pub fn pair_waiting(waiting: &[Waiting]) -> Vec<(EntrantId, EntrantId)> {
    let mut w: Vec<Waiting> = waiting.to_vec();
    w.sort_by_key(|p| (p.rank, p.id));
    if w.len() <= crate::swiss::WHOLE_GRAPH_LIMIT {
        return pair_block(&w);
    }
    let mut out = Vec::new();
    let mut carried: Vec<Waiting> = Vec::new();
    for chunk in w.chunks(crate::swiss::BLOCK) {
        let mut block = std::mem::take(&mut carried);
        block.extend_from_slice(chunk);
        let pairs = pair_block(&block);
        let paired: BTreeSet<EntrantId> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        carried = block
            .into_iter()
            .filter(|p| !paired.contains(&p.id))
            .collect();
        out.extend(pairs);
    }
    out
}

/// Pair players sorted by rank as one graph.
fn pair_block(w: &[Waiting]) -> Vec<(EntrantId, EntrantId)> {
    let k = w.len();
    if k < 2 {
        return Vec::new();
    }
    let n = k + k % 2;
    let kk = k as i128;
    // Terms: meeting the last opponent (outweighs everything else), then for the one left
    // waiting how high they rank, then the squared rank distance (at most k^2 a pair).
    let m_wait = kk * kk * kk + 1;
    let m_last = kk * m_wait + kk * kk * kk + 1;
    let cost = |i: usize, j: usize| -> i128 {
        if j == k {
            return (kk - 1 - i as i128) * m_wait;
        }
        let repeat = w[i].last_opponent == Some(w[j].id) || w[j].last_opponent == Some(w[i].id);
        let d = i128::from(w[i].rank.abs_diff(w[j].rank));
        i128::from(repeat) * m_last + d * d
    };
    let mates = min_cost_perfect_matching(n, cost);
    (0..k)
        .filter(|&i| mates[i] > i && mates[i] < k)
        .map(|i| (w[i].id, w[mates[i]].id))
        .collect()
}

impl Arena {
    /// An arena for these entrants; nobody is present until they join.
    pub fn new(settings: ArenaSettings, entrants: Vec<Entrant>) -> Result<Arena, TournamentError> {
        settings.rule.validate()?;
        check_entrants(&entrants)?;
        if settings.duration_ms == 0 {
            return Err(TournamentError::Settings(
                "an arena lasts longer than zero".into(),
            ));
        }
        Ok(Arena {
            settings,
            entrants,
            present: BTreeSet::new(),
            matches: Vec::new(),
            log: Vec::new(),
        })
    }

    /// Rebuild an event from its settings, entrants and operation log.
    pub fn replay(
        settings: ArenaSettings,
        entrants: Vec<Entrant>,
        ops: &[ArenaOp],
    ) -> Result<Arena, TournamentError> {
        let mut a = Arena::new(settings, entrants)?;
        for op in ops {
            a.apply(op.clone())?;
        }
        Ok(a)
    }

    /// Apply one operation; a refused one changes nothing.
    pub fn apply(&mut self, op: ArenaOp) -> Result<(), TournamentError> {
        match &op {
            ArenaOp::Join(id) => {
                self.check_id(*id)?;
                if !self.present.insert(*id) {
                    return Err(TournamentError::State(format!("{id} is already in")));
                }
            }
            ArenaOp::Leave(id) => {
                self.check_id(*id)?;
                if !self.present.remove(id) {
                    return Err(TournamentError::State(format!("{id} is not in")));
                }
            }
            ArenaOp::Pair(now) => {
                if *now >= self.settings.duration_ms {
                    return Err(TournamentError::State(
                        "the arena is over: no more pairings".into(),
                    ));
                }
                if self.matches.last().is_some_and(|m| m.started_ms > *now) {
                    return Err(TournamentError::State("time cannot go back".into()));
                }
                let pairs = pair_waiting(&self.waiting());
                self.matches
                    .extend(pairs.into_iter().map(|(a, b)| ArenaMatch {
                        a,
                        b,
                        started_ms: *now,
                        result: None,
                        finished_ms: None,
                    }));
            }
            ArenaOp::Record {
                game,
                result,
                at_ms,
            } => {
                let m = self
                    .matches
                    .get(*game)
                    .ok_or_else(|| TournamentError::State(format!("there is no match {game}")))?;
                if m.result.is_some() {
                    return Err(TournamentError::State(format!(
                        "match {game} already has its result"
                    )));
                }
                if *at_ms < m.started_ms {
                    return Err(TournamentError::State(
                        "a match cannot end before it started".into(),
                    ));
                }
                self.settings.rule.check(result)?;
                let m = &mut self.matches[*game];
                m.result = Some(*result);
                m.finished_ms = Some(*at_ms);
            }
        }
        self.log.push(op);
        Ok(())
    }

    /// A player joins, or comes back.
    pub fn join(&mut self, id: EntrantId) -> Result<(), TournamentError> {
        self.apply(ArenaOp::Join(id))
    }

    /// A player leaves.
    pub fn leave(&mut self, id: EntrantId) -> Result<(), TournamentError> {
        self.apply(ArenaOp::Leave(id))
    }

    /// Pair everyone waiting at `now_ms`; returns the indices of the new matches.
    pub fn pair(&mut self, now_ms: u64) -> Result<std::ops::Range<usize>, TournamentError> {
        let before = self.matches.len();
        self.apply(ArenaOp::Pair(now_ms))?;
        Ok(before..self.matches.len())
    }

    /// Record match `game`'s result at `at_ms`.
    pub fn record(
        &mut self,
        game: usize,
        result: MatchResult,
        at_ms: u64,
    ) -> Result<(), TournamentError> {
        self.apply(ArenaOp::Record {
            game,
            result,
            at_ms,
        })
    }

    fn check_id(&self, id: EntrantId) -> Result<(), TournamentError> {
        if self.entrants.iter().any(|e| e.id == id) {
            Ok(())
        } else {
            Err(TournamentError::UnknownEntrant(id))
        }
    }

    /// The matches so far.
    #[must_use]
    pub fn matches(&self) -> &[ArenaMatch] {
        &self.matches
    }

    /// The operations applied so far.
    #[must_use]
    pub fn log(&self) -> &[ArenaOp] {
        &self.log
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> ArenaSettings {
        self.settings
    }

    /// Present players not in a match, with their rank and last opponent.
    #[must_use]
    pub fn waiting(&self) -> Vec<Waiting> {
        let busy: BTreeSet<EntrantId> = self
            .matches
            .iter()
            .filter(|m| m.result.is_none())
            .flat_map(|m| [m.a, m.b])
            .collect();
        let ranks: BTreeMap<EntrantId, u32> = self
            .standings()
            .into_iter()
            .map(|r| (r.entrant, r.rank))
            .collect();
        let mut last: BTreeMap<EntrantId, EntrantId> = BTreeMap::new();
        for m in &self.matches {
            last.insert(m.a, m.b);
            last.insert(m.b, m.a);
        }
        self.present
            .iter()
            .filter(|id| !busy.contains(id))
            .map(|&id| Waiting {
                id,
                rank: ranks[&id],
                last_opponent: last.get(&id).copied(),
            })
            .collect()
    }

    /// Points, streak flag and record for each entrant (by index), in match order.
    fn scores(&self) -> Vec<(u32, bool, Record)> {
        let index: BTreeMap<EntrantId, usize> = self
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id, i))
            .collect();
        let mut s = vec![(0u32, 0u32, Record::default()); self.entrants.len()];
        // Results in the order they came in (ties by match index).
        let mut done: Vec<&ArenaMatch> =
            self.matches.iter().filter(|m| m.result.is_some()).collect();
        done.sort_by_key(|m| m.finished_ms);
        for m in done {
            let Some(r) = m.result else { continue };
            for (id, r) in [(m.a, r), (m.b, r.swapped())] {
                let e = &mut s[index[&id]];
                let on_streak = self.settings.streaks && e.1 >= 2;
                let factor = if on_streak { 2 } else { 1 };
                match r.outcome() {
                    Outcome::A => {
                        e.0 += 2 * factor;
                        e.1 += 1;
                    }
                    Outcome::Draw => {
                        e.0 += factor;
                        e.1 = 0;
                    }
                    Outcome::B => e.1 = 0,
                }
                e.2.add(&r);
            }
        }
        s.into_iter()
            .map(|(p, run, rec)| (p, self.settings.streaks && run >= 2, rec))
            .collect()
    }

    /// The standings: points, then point difference, then matches won.
    #[must_use]
    pub fn standings(&self) -> Vec<StandingRow> {
        let s = self.scores();
        let key = |i: usize| (s[i].0, s[i].2.point_difference(), s[i].2.won);
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
                        name: "points +/-".into(),
                        value: s[i].2.point_difference() as f64,
                    },
                    TieBreak {
                        name: "on streak".into(),
                        value: f64::from(u8::from(s[i].1)),
                    },
                ],
                record: s[i].2,
                out: !self.present.contains(&self.entrants[i].id),
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

    fn arena(streaks: bool) -> Arena {
        let entrants: Vec<Entrant> = (0..4)
            .map(|i| Entrant::single(EntrantId(i), format!("p{i}"), 1000))
            .collect();
        Arena::new(
            ArenaSettings {
                duration_ms: 60_000,
                streaks,
                rule: MatchRule::single(),
            },
            entrants,
        )
        .unwrap()
    }

    #[test]
    fn the_last_opponent_is_avoided_when_someone_else_is_free() {
        let w = |id, rank, last: Option<u32>| Waiting {
            id: EntrantId(id),
            rank,
            last_opponent: last.map(EntrantId),
        };
        // 0 and 1 are nearest but just met; 2 and 3 are free too.
        let got = pair_waiting(&[
            w(0, 1, Some(1)),
            w(1, 2, Some(0)),
            w(2, 3, None),
            w(3, 4, None),
        ]);
        assert_eq!(
            got,
            vec![(EntrantId(0), EntrantId(2)), (EntrantId(1), EntrantId(3))]
        );
        // Only the two of them free: they meet again.
        let got = pair_waiting(&[w(0, 1, Some(1)), w(1, 2, Some(0))]);
        assert_eq!(got, vec![(EntrantId(0), EntrantId(1))]);
    }

    #[test]
    fn big_waiting_lists_are_paired_in_blocks() {
        let n = 2_501u32;
        let waiting: Vec<Waiting> = (0..n)
            .map(|i| Waiting {
                id: EntrantId(i),
                rank: i / 3 + 1,
                last_opponent: Some(EntrantId(i ^ 1)),
            })
            .collect();
        let pairs = pair_waiting(&waiting);
        assert_eq!(pairs.len() as u32, n / 2);
        let mut seen = BTreeSet::new();
        for &(a, b) in &pairs {
            assert!(seen.insert(a) && seen.insert(b));
            assert_ne!(a.0 ^ 1, b.0, "{a} met their last opponent again");
        }
    }

    #[test]
    fn streaks_double_wins_after_two_in_a_row() {
        for streaks in [false, true] {
            let mut a = arena(streaks);
            for i in 0..4 {
                a.join(EntrantId(i)).unwrap();
            }
            // Player 0 wins three matches in a row.
            for t in 0..3u64 {
                let new = a.pair(t * 1000).unwrap();
                for g in new {
                    let m = a.matches()[g];
                    let a_won = m.a == EntrantId(0) || m.b != EntrantId(0);
                    a.record(g, MatchResult::game(a_won, [10, 5]), t * 1000 + 500)
                        .unwrap();
                }
            }
            let row = a
                .standings()
                .into_iter()
                .find(|r| r.entrant == EntrantId(0))
                .unwrap();
            assert_eq!(row.record.won, 3);
            assert_eq!(row.points, if streaks { 8.0 } else { 6.0 });
        }
    }

    #[test]
    fn leavers_are_not_paired_and_time_ends_pairing() {
        let mut a = arena(false);
        for i in 0..4 {
            a.join(EntrantId(i)).unwrap();
        }
        a.leave(EntrantId(3)).unwrap();
        let new = a.pair(0).unwrap();
        assert_eq!(new.len(), 1);
        assert!(a
            .matches()
            .iter()
            .all(|m| m.a != EntrantId(3) && m.b != EntrantId(3)));
        assert!(a.pair(60_000).is_err());
        let again = Arena::replay(a.settings(), a.entrants.clone(), a.log()).unwrap();
        assert_eq!(again, a);
    }
}
