//! Swiss: a fixed number of rounds, each paired within score groups by a minimum-cost perfect
//! matching, colour-free.
//!
//! Scores are kept in half-points: a match won scores 1 (2 halves), drawn ½, lost 0; a bye
//! scores ½ (half a match win). Pairing is [`pair_swiss`]; standings rank by score, then
//! Buchholz, then Sonneborn-Berger, then point difference.
//!
//! Late entry is open until half the rounds have started (while `2 * started < rounds`): the
//! entrant is given a ½-point bye for each round already started. Such byes do not count as
//! the pairing bye, which each player receives at most once. A withdrawn player is not paired
//! again; a match already paired still needs its result.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::matching::min_cost_perfect_matching;
use crate::{
    assign_ranks, check_entrants, halves, result_halves, tally, Entrant, EntrantId, MatchResult,
    MatchRule, Pairing, Round, StandingRow, TieBreak, TournamentError,
};

/// Fields of at most this many players are paired as one graph; bigger fields are cut into
/// blocks of about [`BLOCK`] players along score groups (see [`pair_swiss`]).
pub const WHOLE_GRAPH_LIMIT: usize = 1000;

/// The size of a pairing block in a field over [`WHOLE_GRAPH_LIMIT`].
pub const BLOCK: usize = 200;

/// A block smaller than this is merged into the one above it.
const MIN_BLOCK: usize = 24;

/// The settings of a Swiss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissSettings {
    /// Rounds, 1 to 1000.
    pub rounds: u32,
    /// How each match is decided.
    pub rule: MatchRule,
}

/// One operation on a Swiss. The log of operations applied, with the settings and the first
/// entrants, rebuilds the event ([`Swiss::replay`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SwissOp {
    /// An entrant joins (late, if rounds have started).
    Enter(Entrant),
    /// An entrant withdraws: not paired again.
    Withdraw(EntrantId),
    /// The next round is paired.
    PairRound,
    /// A match's result, from side A's view.
    Record {
        /// Round index, from 0.
        round: usize,
        /// Table index in the round, from 0.
        table: usize,
        /// The result.
        result: MatchResult,
    },
}

/// A Swiss event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Swiss {
    settings: SwissSettings,
    entrants: Vec<Entrant>,
    /// Rounds each entrant missed by entering late.
    missed: Vec<u32>,
    withdrawn: Vec<bool>,
    rounds: Vec<Round>,
    /// Operations applied since [`Swiss::new`].
    log: Vec<SwissOp>,
}

/// One player as the pairing sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPlayer {
    /// The player.
    pub id: EntrantId,
    /// Score in half-points.
    pub score: u32,
    /// Rating: orders players of equal score.
    pub rating: i32,
    /// How many pairing byes the player has had.
    pub byes: u32,
    /// Everyone the player has met, once for each meeting.
    pub opponents: Vec<EntrantId>,
}

impl Swiss {
    /// A Swiss with these settings and first entrants (more may enter late).
    pub fn new(settings: SwissSettings, entrants: Vec<Entrant>) -> Result<Swiss, TournamentError> {
        if !(1..=1000).contains(&settings.rounds) {
            return Err(TournamentError::Settings(format!(
                "{} rounds: a Swiss has 1 to 1000",
                settings.rounds
            )));
        }
        settings.rule.validate()?;
        check_entrants(&entrants)?;
        let n = entrants.len();
        Ok(Swiss {
            settings,
            entrants,
            missed: vec![0; n],
            withdrawn: vec![false; n],
            rounds: Vec::new(),
            log: Vec::new(),
        })
    }

    /// Rebuild an event from its settings, first entrants and operation log.
    pub fn replay(
        settings: SwissSettings,
        entrants: Vec<Entrant>,
        ops: &[SwissOp],
    ) -> Result<Swiss, TournamentError> {
        let mut s = Swiss::new(settings, entrants)?;
        for op in ops {
            s.apply(op.clone())?;
        }
        Ok(s)
    }

    /// Apply one operation; a refused one changes nothing.
    pub fn apply(&mut self, op: SwissOp) -> Result<(), TournamentError> {
        match &op {
            SwissOp::Enter(e) => self.enter_inner(e.clone())?,
            SwissOp::Withdraw(id) => self.withdraw_inner(*id)?,
            SwissOp::PairRound => self.pair_inner()?,
            SwissOp::Record {
                round,
                table,
                result,
            } => self.record_inner(*round, *table, *result)?,
        }
        self.log.push(op);
        Ok(())
    }

    /// Enter a player; after round 1 has started, a late entry with a ½-point bye for each
    /// round started (open while fewer than half the rounds have started).
    pub fn enter(&mut self, entrant: Entrant) -> Result<(), TournamentError> {
        self.apply(SwissOp::Enter(entrant))
    }

    /// Withdraw a player: they are not paired again.
    pub fn withdraw(&mut self, id: EntrantId) -> Result<(), TournamentError> {
        self.apply(SwissOp::Withdraw(id))
    }

    /// Pair the next round (the previous one must be complete) and return it.
    pub fn pair_next_round(&mut self) -> Result<&Round, TournamentError> {
        self.apply(SwissOp::PairRound)?;
        Ok(&self.rounds[self.rounds.len() - 1])
    }

    /// Record the result of table `table` of round `round` (from side A's view).
    pub fn record(
        &mut self,
        round: usize,
        table: usize,
        result: MatchResult,
    ) -> Result<(), TournamentError> {
        self.apply(SwissOp::Record {
            round,
            table,
            result,
        })
    }

    fn enter_inner(&mut self, e: Entrant) -> Result<(), TournamentError> {
        let started = self.rounds.len() as u32;
        if 2 * started >= self.settings.rounds && started > 0 {
            return Err(TournamentError::State(format!(
                "late entry closed: {started} of {} rounds have started (entry is open until \
                 half have)",
                self.settings.rounds
            )));
        }
        let mut all = self.entrants.clone();
        all.push(e);
        check_entrants(&all)?;
        self.entrants = all;
        self.missed.push(started);
        self.withdrawn.push(false);
        Ok(())
    }

    fn withdraw_inner(&mut self, id: EntrantId) -> Result<(), TournamentError> {
        let i = self.position(id)?;
        if self.withdrawn[i] {
            return Err(TournamentError::State(format!(
                "{} has already withdrawn",
                self.entrants[i].name
            )));
        }
        self.withdrawn[i] = true;
        Ok(())
    }

    fn pair_inner(&mut self) -> Result<(), TournamentError> {
        if self.rounds.len() as u32 >= self.settings.rounds {
            return Err(TournamentError::State(format!(
                "all {} rounds have been paired",
                self.settings.rounds
            )));
        }
        if let Some(open) = self.rounds.iter().position(|r| !r.is_complete()) {
            return Err(TournamentError::State(format!(
                "round {} still has matches without a result",
                open + 1
            )));
        }
        let players = self.pairing_players();
        if players.len() < 2 {
            return Err(TournamentError::State(
                "fewer than two players are left to pair".into(),
            ));
        }
        self.rounds.push(Round::new(pair_swiss(&players)));
        Ok(())
    }

    fn record_inner(
        &mut self,
        round: usize,
        table: usize,
        result: MatchResult,
    ) -> Result<(), TournamentError> {
        let rule = self.settings.rule;
        let r = self
            .rounds
            .get_mut(round)
            .ok_or_else(|| TournamentError::State(format!("round {round} has not been paired")))?;
        r.record(table, rule, result)
    }

    fn position(&self, id: EntrantId) -> Result<usize, TournamentError> {
        self.entrants
            .iter()
            .position(|e| e.id == id)
            .ok_or(TournamentError::UnknownEntrant(id))
    }

    fn index(&self) -> BTreeMap<EntrantId, usize> {
        self.entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id, i))
            .collect()
    }

    /// The players still in, as the pairing sees them.
    #[must_use]
    pub fn pairing_players(&self) -> Vec<SwissPlayer> {
        let t = tally(
            self.entrants.len(),
            &self.index(),
            &self.rounds,
            &self.missed,
        );
        self.entrants
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.withdrawn[*i])
            .map(|(i, e)| SwissPlayer {
                id: e.id,
                score: t[i].score,
                rating: e.rating,
                byes: t[i].byes,
                opponents: t[i]
                    .games
                    .iter()
                    .map(|(o, _)| self.entrants[*o].id)
                    .collect(),
            })
            .collect()
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> SwissSettings {
        self.settings
    }

    /// The entrants, in order of entry.
    #[must_use]
    pub fn entrants(&self) -> &[Entrant] {
        &self.entrants
    }

    /// The rounds paired so far.
    #[must_use]
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// The operations applied so far.
    #[must_use]
    pub fn log(&self) -> &[SwissOp] {
        &self.log
    }

    /// Whether every round is paired and complete.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.rounds.len() as u32 == self.settings.rounds
            && self.rounds.iter().all(Round::is_complete)
    }

    /// The standings: score, then Buchholz (the sum of the opponents' scores), then
    /// Sonneborn-Berger (the opponents' scores weighted by the result against each: all of a
    /// beaten opponent's score, half of a drawn one's), then point difference. Byes and missed
    /// rounds add to the score but bring no opponent to the tie-breaks.
    #[must_use]
    pub fn standings(&self) -> Vec<StandingRow> {
        let t = tally(
            self.entrants.len(),
            &self.index(),
            &self.rounds,
            &self.missed,
        );
        paired_standings(&self.entrants, &t, &self.withdrawn, true)
    }
}

/// Standings of a paired event from its tally: score, then (with `buchholz`) Buchholz, then
/// Sonneborn-Berger, then point difference; equal on all of them share a rank, listed by
/// rating then id.
pub(crate) fn paired_standings(
    entrants: &[Entrant],
    t: &[crate::Tally],
    out: &[bool],
    buchholz: bool,
) -> Vec<StandingRow> {
    // Buchholz in half-points; Sonneborn-Berger in quarter-points (an opponent's half-points
    // times this entrant's half-points against them).
    let keys: Vec<(u32, u64, u64, i64)> = t
        .iter()
        .map(|me| {
            let bh: u64 = me.games.iter().map(|(o, _)| u64::from(t[*o].score)).sum();
            let sb: u64 = me
                .games
                .iter()
                .map(|(o, r)| u64::from(t[*o].score) * u64::from(result_halves(r)))
                .sum();
            (
                me.score,
                if buchholz { bh } else { 0 },
                sb,
                me.record.point_difference(),
            )
        })
        .collect();
    let mut order: Vec<usize> = (0..entrants.len()).collect();
    order.sort_by(|&a, &b| {
        keys[b]
            .cmp(&keys[a])
            .then(entrants[b].rating.cmp(&entrants[a].rating))
            .then(entrants[a].id.cmp(&entrants[b].id))
    });
    let mut rows: Vec<StandingRow> = order
        .iter()
        .map(|&i| {
            let (score, bh, sb, pd) = keys[i];
            let mut tiebreaks = Vec::new();
            if buchholz {
                tiebreaks.push(TieBreak {
                    name: "Buchholz".into(),
                    value: bh as f64 / 2.0,
                });
            }
            tiebreaks.push(TieBreak {
                name: "Sonneborn-Berger".into(),
                value: sb as f64 / 4.0,
            });
            tiebreaks.push(TieBreak {
                name: "points +/-".into(),
                value: pd as f64,
            });
            StandingRow {
                rank: 0,
                entrant: entrants[i].id,
                name: entrants[i].name.clone(),
                points: halves(score),
                tiebreaks,
                record: t[i].record,
                out: out[i],
            }
        })
        .collect();
    let sorted_keys: Vec<_> = order.iter().map(|&i| keys[i]).collect();
    assign_ranks(&mut rows, &sorted_keys);
    rows
}

/// Pair one Swiss round. Players are ranked by score, then rating, then id. The pairing is a
/// least-cost perfect matching (a dummy vertex takes the odd player: the bye), where the cost
/// of a pairing is, in strict order of importance (each term outweighs any sum of the later
/// ones):
///
/// 1. the byes the bye's receiver has had already: the bye goes to a player who has had the
///    fewest (a second bye never while someone has had none, a third never while someone has
///    had one);
/// 2. the repeats of earlier pairings, by how often each pair has met: a pair that met once
///    costs 1 and a pair that met `r` times `w (r - 1)^2 + 1` (with `w` as in term 4), so no
///    pair meets a third time while a pairing (equal on term 1) with only second meetings
///    exists, and the more often a pair has met the more its next meeting costs;
/// 3. for the bye, how far above the bottom of the ranking its receiver stands (the bye goes
///    to the lowest-ranked player among those who have had the fewest);
/// 4. how many score groups apart the two players are: nothing in the same group, 1 for
///    adjacent groups, and `w (d - 1)^2 + 1` for `d` groups apart, `w` being more than the
///    number of pairs: so pairs stay in their score groups, no pair is more than one group
///    apart while a pairing (equal on terms 1 to 3) without such a pair exists, and a longer
///    float costs more the longer it is;
/// 5. within a score group, how far the two players' places differ from half the group's size
///    (the top half meets the bottom half: 1 v 5, 2 v 6, ... in a group of eight); across
///    groups, how far the higher player is from the bottom of their group plus how far the
///    lower one is from the top of theirs.
///
/// Fields of up to [`WHOLE_GRAPH_LIMIT`] players are one graph, so the pairing is the exact
/// optimum of those terms. Bigger fields are cut, in ranking order and at score-group
/// boundaries where possible, into blocks of about [`BLOCK`] players, paired top block first;
/// a block with an odd count sends its lowest-ranked player it can (term 3 with a floater in
/// place of the bye) down to the next block, and only the last block can give the bye.
/// Repeats are then avoided within each block.
///
/// Returns the pairings, top table first, the higher-ranked player as side A; a bye last.
#[must_use]
pub fn pair_swiss(players: &[SwissPlayer]) -> Vec<Pairing> {
    pair_swiss_with(players, WHOLE_GRAPH_LIMIT)
}

/// [`pair_swiss`] with another whole-graph limit: fields up to `whole_graph_limit` players are
/// paired as one graph, bigger ones in blocks (for measuring what the blocks save).
#[must_use]
pub fn pair_swiss_with(players: &[SwissPlayer], whole_graph_limit: usize) -> Vec<Pairing> {
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (&players[a], &players[b]);
        pb.score
            .cmp(&pa.score)
            .then(pb.rating.cmp(&pa.rating))
            .then(pa.id.cmp(&pb.id))
    });
    // How often each pair has met (each meeting is listed by both players).
    let mut met: HashMap<(EntrantId, EntrantId), u32> = HashMap::new();
    for p in players {
        for &o in &p.opponents {
            if p.id < o {
                *met.entry(key(p.id, o)).or_insert(0) += 1;
            }
        }
    }
    let mut pairs: Vec<(usize, Option<usize>)> = Vec::new();
    if order.len() <= whole_graph_limit {
        pair_block(players, &met, &order, true, &mut pairs);
    } else {
        let blocks = blocks(players, &order);
        let mut carried: Option<usize> = None;
        let last = blocks.len() - 1;
        for (bi, block) in blocks.into_iter().enumerate() {
            let mut members: Vec<usize> = carried.take().into_iter().collect();
            members.extend(block);
            carried = pair_block(players, &met, &members, bi == last, &mut pairs);
        }
    }
    // Top table first: order by the higher-ranked player's place; the bye last.
    let place: BTreeMap<usize, usize> = order.iter().enumerate().map(|(r, &i)| (i, r)).collect();
    pairs.sort_by_key(|&(a, b)| (b.is_none(), place[&a]));
    pairs
        .into_iter()
        .map(|(a, b)| Pairing {
            a: players[a].id,
            b: b.map(|b| players[b].id),
        })
        .collect()
}

fn key(a: EntrantId, b: EntrantId) -> (EntrantId, EntrantId) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// Cut a big field (in ranking order) into pairing blocks.
fn blocks(players: &[SwissPlayer], order: &[usize]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut cur: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        // The score group starting at i.
        let s = players[order[i]].score;
        let end = order[i..]
            .iter()
            .position(|&p| players[p].score != s)
            .map_or(order.len(), |k| i + k);
        if !cur.is_empty() && cur.len() + (end - i) > BLOCK && cur.len() >= MIN_BLOCK {
            out.push(std::mem::take(&mut cur));
        }
        for &p in &order[i..end] {
            cur.push(p);
            // A group too big for one block is split, keeping the rest of it big enough.
            if cur.len() >= BLOCK && end - i > MIN_BLOCK {
                out.push(std::mem::take(&mut cur));
            }
        }
        i = end;
    }
    if !cur.is_empty() {
        match out.last_mut() {
            Some(prev) if cur.len() < MIN_BLOCK => prev.extend(cur),
            _ => out.push(cur),
        }
    }
    out
}

/// Pair `members` (in ranking order) by least cost; push the pairs and return the player left
/// over (an odd block that is not the last), or push the bye.
fn pair_block(
    players: &[SwissPlayer],
    met: &HashMap<(EntrantId, EntrantId), u32>,
    members: &[usize],
    last: bool,
    out: &mut Vec<(usize, Option<usize>)>,
) -> Option<usize> {
    let k = members.len();
    if k == 0 {
        return None;
    }
    let n = k + k % 2;
    let dummy = (k % 2 == 1).then_some(k);
    // Each member's score group (counted from the top of the block), place within it and
    // the group's size, for terms 4 and 5.
    let mut group = vec![0i128; k];
    let mut group_place = vec![0usize; k];
    let mut group_size = vec![0usize; k];
    let mut start = 0;
    let mut g = 0;
    while start < k {
        let s = players[members[start]].score;
        let end = (start..k)
            .find(|&j| players[members[j]].score != s)
            .unwrap_or(k);
        for j in start..end {
            group[j] = g;
            group_place[j] = j - start;
            group_size[j] = end - start;
        }
        g += 1;
        start = end;
    }
    let groups = g;
    // Term 4 for a pair `d` score groups apart: 0 in the same group, 1 for adjacent groups, and
    // `w (d - 1)^2 + 1` further apart, where `w` exceeds the number of pairs, so one pair
    // further apart than adjacent groups costs more than every adjacent float together.
    let kk = k as i128;
    let pairs = kk / 2 + 1;
    let w = pairs + 1;
    let float = |d: i128| if d <= 1 { d } else { w * (d - 1) * (d - 1) + 1 };
    // Term 2 for a pair that met `r` times, on the same scale.
    let repeat = float;
    let most_met = members
        .iter()
        .enumerate()
        .flat_map(|(a, &i)| members[a + 1..].iter().map(move |&j| (i, j)))
        .map(|(i, j)| met.get(&key(players[i].id, players[j].id)).copied())
        .max()
        .flatten()
        .unwrap_or(0);
    // Each multiplier exceeds the largest total the later terms can reach.
    let t5 = pairs * 2 * kk;
    let m_diff = t5 + 1;
    let t4 = pairs * float(groups - 1) * m_diff + t5;
    let m_bye = t4 + 1;
    let t3 = kk * m_bye + t4;
    let m_rep = t3 + 1;
    let t2 = pairs * repeat(i128::from(most_met)) * m_rep + t3;
    let m_second = t2 + 1;
    let cost = |i: usize, j: usize| -> i128 {
        if Some(j) == dummy {
            let p = &players[members[i]];
            let byes = if last { i128::from(p.byes) } else { 0 };
            return byes * m_second + (kk - 1 - i as i128) * m_bye;
        }
        let (pi, pj) = (&players[members[i]], &players[members[j]]);
        let met = met.get(&key(pi.id, pj.id)).copied().unwrap_or(0);
        let rep = repeat(i128::from(met));
        let fold = if pi.score == pj.score {
            let half = group_size[i] / 2;
            (group_place[j].abs_diff(group_place[i])).abs_diff(half) as i128
        } else {
            // i ranks above j (members are in ranking order and i < j).
            (group_size[i] - 1 - group_place[i] + group_place[j]) as i128
        };
        rep * m_rep + float(group[j] - group[i]) * m_diff + fold
    };
    let mates = min_cost_perfect_matching(n, cost);
    let mut left = None;
    for i in 0..k {
        let m = mates[i];
        if Some(m) == dummy {
            if last {
                out.push((members[i], None));
            } else {
                left = Some(members[i]);
            }
        } else if i < m {
            out.push((members[i], Some(members[m])));
        }
    }
    left
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(n: u32) -> Vec<Entrant> {
        (0..n)
            .map(|i| Entrant::single(EntrantId(i), format!("p{i}"), 2000 - i as i32))
            .collect()
    }

    fn win(a: bool) -> MatchResult {
        MatchResult::game(a, if a { [100, 50] } else { [50, 100] })
    }

    #[test]
    fn round_one_folds_the_field() {
        let mut s = Swiss::new(
            SwissSettings {
                rounds: 3,
                rule: MatchRule::single(),
            },
            field(8),
        )
        .unwrap();
        let r = s.pair_next_round().unwrap();
        let got: Vec<(u32, u32)> = r.pairings.iter().map(|p| (p.a.0, p.b.unwrap().0)).collect();
        assert_eq!(got, vec![(0, 4), (1, 5), (2, 6), (3, 7)]);
    }

    #[test]
    fn the_bye_goes_to_the_lowest_ranked_once() {
        let mut s = Swiss::new(
            SwissSettings {
                rounds: 3,
                rule: MatchRule::single(),
            },
            field(5),
        )
        .unwrap();
        let r = s.pair_next_round().unwrap().clone();
        assert_eq!(r.pairings.last().unwrap().b, None);
        let first_bye = r.pairings.last().unwrap().a;
        assert_eq!(first_bye, EntrantId(4));
        for t in 0..2 {
            s.record(0, t, win(true)).unwrap();
        }
        let r = s.pair_next_round().unwrap().clone();
        let bye = r.pairings.last().unwrap();
        assert_eq!(bye.b, None);
        assert_ne!(bye.a, first_bye);
    }

    #[test]
    fn refused_operations_change_nothing() {
        let mut s = Swiss::new(
            SwissSettings {
                rounds: 2,
                rule: MatchRule::single(),
            },
            field(4),
        )
        .unwrap();
        s.pair_next_round().unwrap();
        let before = s.clone();
        assert!(s.pair_next_round().is_err());
        assert!(s.record(0, 9, win(true)).is_err());
        assert!(s.record(0, 0, MatchResult::new([2, 0], 0, [0, 0])).is_err());
        assert!(s.withdraw(EntrantId(99)).is_err());
        assert_eq!(s, before);
        s.record(0, 0, win(true)).unwrap();
        assert!(s.record(0, 0, win(false)).is_err());
    }

    #[test]
    fn late_entry_until_half_the_rounds_have_started() {
        let mut s = Swiss::new(
            SwissSettings {
                rounds: 5,
                rule: MatchRule::single(),
            },
            field(4),
        )
        .unwrap();
        for round in 0..3 {
            s.pair_next_round().unwrap();
            let late = Entrant::single(EntrantId(100 + round), format!("late{round}"), 1000);
            if round < 2 {
                // Rounds 1 and 2 started of 5: still open.
                s.enter(late).unwrap();
            } else {
                assert!(s.enter(late).is_err());
            }
            let r = s.rounds()[round as usize].clone();
            for (t, p) in r.pairings.iter().enumerate() {
                if p.b.is_some() {
                    s.record(round as usize, t, win(true)).unwrap();
                }
            }
        }
        let rows = s.standings();
        let late = |id: u32| rows.iter().find(|r| r.entrant == EntrantId(id)).unwrap();
        // Entered after one and two rounds had started: that many half-point byes at least.
        assert!(late(100).record.byes >= 1);
        assert!(late(101).record.byes >= 2);
        assert!(rows.iter().all(|r| r.entrant != EntrantId(102)));
        let rebuilt = Swiss::replay(s.settings(), field(4), s.log()).unwrap();
        assert_eq!(rebuilt, s);
    }

    #[test]
    fn withdrawn_players_are_not_paired() {
        let mut s = Swiss::new(
            SwissSettings {
                rounds: 3,
                rule: MatchRule::single(),
            },
            field(6),
        )
        .unwrap();
        s.pair_next_round().unwrap();
        for t in 0..3 {
            s.record(0, t, win(true)).unwrap();
        }
        s.withdraw(EntrantId(2)).unwrap();
        let r = s.pair_next_round().unwrap();
        assert!(r.pairings.iter().all(|p| !p.involves(EntrantId(2))));
        assert_eq!(r.pairings.iter().filter(|p| p.b.is_none()).count(), 1);
    }

    /// Tie-breaks on a worked example, computed by hand.
    ///
    /// Four players, two rounds, one game a match:
    /// - round 1: A beats B 100-60, C and D draw (a drawn game, 70-70);
    /// - round 2: A draws C (80-80), D beats B 90-40.
    ///
    /// Scores: A 1 + ½ = 1.5, B 0, C ½ + ½ = 1, D ½ + 1 = 1.5.
    /// Buchholz (opponents' scores): A = B 0 + C 1 = 1; D = C 1 + B 0 = 1; C = D 1.5 + A 1.5 = 3;
    /// B = A 1.5 + D 1.5 = 3.
    /// Sonneborn-Berger (beaten opponents' scores plus half the drawn ones'):
    /// A = B 0 + ½·C 1 = 0.5; D = ½·C 1 + B 0 = 0.5; C = ½·1.5 + ½·1.5 = 1.5; B = 0.
    /// Point difference: A = +40 + 0 = +40; D = 0 + 50 = +50; C = 0; B = -40 - 50 = -90.
    /// So A and D tie on score, Buchholz and Sonneborn-Berger, and D ranks first on point
    /// difference: D, A, C, B.
    #[test]
    fn tie_breaks_worked_example() {
        let names = ["A", "B", "C", "D"];
        let entrants: Vec<Entrant> = names
            .iter()
            .enumerate()
            .map(|(i, n)| Entrant::single(EntrantId(i as u32), *n, 1500))
            .collect();
        let index: BTreeMap<EntrantId, usize> = (0..4).map(|i| (EntrantId(i as u32), i)).collect();
        let p = |a: u32, b: u32| Pairing {
            a: EntrantId(a),
            b: Some(EntrantId(b)),
        };
        let r1 = Round {
            pairings: vec![p(0, 1), p(2, 3)],
            results: vec![
                Some(MatchResult::new([1, 0], 0, [100, 60])),
                Some(MatchResult::new([0, 0], 1, [70, 70])),
            ],
        };
        let r2 = Round {
            pairings: vec![p(0, 2), p(3, 1)],
            results: vec![
                Some(MatchResult::new([0, 0], 1, [80, 80])),
                Some(MatchResult::new([1, 0], 0, [90, 40])),
            ],
        };
        let t = tally(4, &index, &[r1, r2], &[0; 4]);
        let rows = paired_standings(&entrants, &t, &[false; 4], true);
        let got: Vec<(&str, u32, f64, f64, f64, f64)> = rows
            .iter()
            .map(|r| {
                (
                    r.name.as_str(),
                    r.rank,
                    r.points,
                    r.tiebreaks[0].value,
                    r.tiebreaks[1].value,
                    r.tiebreaks[2].value,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("D", 1, 1.5, 1.0, 0.5, 50.0),
                ("A", 2, 1.5, 1.0, 0.5, 40.0),
                ("C", 3, 1.0, 3.0, 1.5, 0.0),
                ("B", 4, 0.0, 3.0, 0.0, -90.0),
            ]
        );
    }
}
