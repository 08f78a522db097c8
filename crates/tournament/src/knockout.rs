//! Knockouts: single and double elimination.
//!
//! **Seeding.** Entrants are seeded by rating, highest first (equal ratings by id): seed 1 is
//! the highest rated. The bracket has `P` first-round places, the smallest power of two at
//! least the field; the places beyond the field are byes. Seeds are placed in the standard
//! bracket order, built by doubling: `[1, 2]`, then each seed `s` followed by `2k + 1 - s` for
//! the new size `2k`: `[1, 4, 2, 3]`, `[1, 8, 4, 5, 2, 7, 3, 6]`, ... so the first round is
//! 1 v P, P/2 v P/2+1, 2 v P-1, ... The missing seeds are the highest numbers, so the byes go
//! to the top seeds (seed `s` has a bye exactly when `P + 1 - s` exceeds the field), and
//! seeds 1 and 2 sit in different halves: they can meet only in the final.
//!
//! **Double elimination.** Losers of the winners' bracket drop into the losers' bracket:
//! its first round pairs the first-round losers, then rounds alternate between taking the
//! losers of the next winners' round (in reversed order every other time, to put off
//! rematches) and halving the field. The winners' champion meets the losers' champion in the
//! grand final; if the losers' champion wins it, a **bracket reset** is played (both then
//! have one loss), so that every entrant but the winner leaves after exactly two losses.
//!
//! A place whose entrant can never come (a bye, or the loser of a bye) is empty; a match with
//! one empty place is a walkover, and is not counted as played.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::{
    assign_ranks, check_entrants, seed_order, Entrant, EntrantId, MatchResult, MatchRule, Outcome,
    Record, StandingRow, TieBreak, TournamentError,
};

/// Single or double elimination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Elimination {
    /// One loss and out.
    Single,
    /// Two losses and out, with a losers' bracket, a grand final and a bracket reset.
    Double,
}

/// The settings of a knockout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutSettings {
    /// Single or double elimination.
    pub elimination: Elimination,
    /// How each match is decided (a knockout match must have a winner).
    pub rule: MatchRule,
}

/// Which part of the bracket a match is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum BracketSide {
    /// The winners' bracket (the only one in single elimination).
    Winners,
    /// The losers' bracket.
    Losers,
    /// The grand final: winners' champion (place 0) v losers' champion (place 1).
    GrandFinal,
    /// The bracket reset, played only if the losers' champion wins the grand final.
    Reset,
}

/// Where a place of a match is filled from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    /// The entrant of this seed (from 1); a seed past the field is a bye.
    Seed(u32),
    /// The winner of match `id`.
    Winner(usize),
    /// The loser of match `id`.
    Loser(usize),
}

/// One match of the bracket's structure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BracketMatch {
    /// The match's id: its index in the bracket. A match's sources have smaller ids.
    pub id: usize,
    /// The part of the bracket.
    pub side: BracketSide,
    /// Round within its side, from 1.
    pub round: u32,
    /// Position within its round, from 0 (top to bottom).
    pub index: u32,
    /// Where its two places are filled from.
    pub sources: [Source; 2],
    /// Where its winner goes: match id and place.
    pub winner_to: Option<(usize, usize)>,
    /// Where its loser goes (double elimination): match id and place.
    pub loser_to: Option<(usize, usize)>,
}

/// What a place of a match holds now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Slot {
    /// This entrant.
    Entrant(EntrantId),
    /// Nobody will come: a bye.
    Empty,
    /// Not known yet: its source match has not been decided.
    Waiting,
}

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MatchStatus {
    /// A place is still waiting for its entrant.
    Waiting,
    /// Both entrants are known: the match is to be played.
    Ready,
    /// Played: the result is in.
    Played,
    /// One entrant and one empty place: the entrant goes through unplayed.
    Walkover,
    /// Not played: both places empty, or a bracket reset not needed.
    Void,
}

/// A match of the bracket with its current state, for drawing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchView {
    /// The structure.
    #[serde(flatten)]
    pub r#match: BracketMatch,
    /// Who holds each place.
    pub slots: [Slot; 2],
    /// Where the match stands.
    pub status: MatchStatus,
    /// The result, from place 0's view.
    pub result: Option<MatchResult>,
    /// Who went through (for a walkover too).
    pub winner: Slot,
    /// Who lost.
    pub loser: Slot,
}

/// One operation on a knockout (the only one: a result).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutOp {
    /// The match.
    pub match_id: usize,
    /// Its result from place 0's view.
    pub result: MatchResult,
}

/// A knockout event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Knockout {
    settings: KnockoutSettings,
    entrants: Vec<Entrant>,
    /// Entrant ids by seed: `seeds[0]` is seed 1.
    seeds: Vec<EntrantId>,
    matches: Vec<BracketMatch>,
    results: Vec<Option<MatchResult>>,
    log: Vec<KnockoutOp>,
}

/// The standard bracket order of seeds for `size` places (a power of two).
#[must_use]
pub fn bracket_order(size: u32) -> Vec<u32> {
    let mut order = vec![1u32];
    while (order.len() as u32) < size {
        let k = 2 * order.len() as u32;
        order = order.iter().flat_map(|&s| [s, k + 1 - s]).collect();
    }
    order
}

impl Knockout {
    /// A knockout of these entrants, seeded by rating.
    pub fn new(
        settings: KnockoutSettings,
        entrants: Vec<Entrant>,
    ) -> Result<Knockout, TournamentError> {
        settings.rule.validate()?;
        if settings.rule.best_of.is_multiple_of(2) {
            return Err(TournamentError::Settings(format!(
                "best of {}: a knockout match needs a winner, so an odd number of games",
                settings.rule.best_of
            )));
        }
        check_entrants(&entrants)?;
        if entrants.len() < 2 {
            return Err(TournamentError::Entrants(
                "a knockout needs at least two entrants".into(),
            ));
        }
        if entrants.len() > 1 << 16 {
            return Err(TournamentError::Entrants(
                "a knockout takes at most 65,536 entrants".into(),
            ));
        }
        let seeds = seed_order(&entrants);
        let matches = build(seeds.len() as u32, settings.elimination);
        let results = vec![None; matches.len()];
        Ok(Knockout {
            settings,
            entrants,
            seeds,
            matches,
            results,
            log: Vec::new(),
        })
    }

    /// Rebuild an event from its settings, entrants and results log.
    pub fn replay(
        settings: KnockoutSettings,
        entrants: Vec<Entrant>,
        ops: &[KnockoutOp],
    ) -> Result<Knockout, TournamentError> {
        let mut k = Knockout::new(settings, entrants)?;
        for op in ops {
            k.record(op.match_id, op.result)?;
        }
        Ok(k)
    }

    /// Record the result of a ready match (from place 0's view); it must have a winner.
    pub fn record(&mut self, match_id: usize, result: MatchResult) -> Result<(), TournamentError> {
        let view = self.bracket().into_iter().nth(match_id).ok_or_else(|| {
            TournamentError::State(format!("the bracket has no match {match_id}"))
        })?;
        if view.status != MatchStatus::Ready {
            return Err(TournamentError::State(format!(
                "match {match_id} is not ready to be played ({:?})",
                view.status
            )));
        }
        self.settings.rule.check(&result)?;
        if result.outcome() == Outcome::Draw {
            return Err(TournamentError::Result(
                "a knockout match needs a winner".into(),
            ));
        }
        self.results[match_id] = Some(result);
        self.log.push(KnockoutOp { match_id, result });
        Ok(())
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> KnockoutSettings {
        self.settings
    }

    /// The entrants.
    #[must_use]
    pub fn entrants(&self) -> &[Entrant] {
        &self.entrants
    }

    /// Entrant ids by seed (`seeds()[0]` is seed 1).
    #[must_use]
    pub fn seeds(&self) -> &[EntrantId] {
        &self.seeds
    }

    /// The bracket's structure.
    #[must_use]
    pub fn structure(&self) -> &[BracketMatch] {
        &self.matches
    }

    /// The results recorded so far, in order.
    #[must_use]
    pub fn log(&self) -> &[KnockoutOp] {
        &self.log
    }

    /// Every match with who holds its places, its status and result: the bracket to draw.
    #[must_use]
    pub fn bracket(&self) -> Vec<MatchView> {
        let mut out: Vec<MatchView> = Vec::with_capacity(self.matches.len());
        for m in &self.matches {
            let slot = |s: Source, out: &[MatchView]| match s {
                Source::Seed(n) => self
                    .seeds
                    .get(n as usize - 1)
                    .map_or(Slot::Empty, |&id| Slot::Entrant(id)),
                Source::Winner(i) => out[i].winner,
                Source::Loser(i) => out[i].loser,
            };
            let slots = [slot(m.sources[0], &out), slot(m.sources[1], &out)];
            let result = self.results[m.id];
            let (status, winner, loser) = if m.side == BracketSide::Reset {
                // The reset is built right after its grand final.
                let gf = &out[m.id - 1];
                match gf.status {
                    MatchStatus::Played if gf.result.map(|r| r.outcome()) == Some(Outcome::A) => {
                        (MatchStatus::Void, gf.winner, gf.loser)
                    }
                    MatchStatus::Played => decide(slots, result),
                    _ => (MatchStatus::Waiting, Slot::Waiting, Slot::Waiting),
                }
            } else {
                decide(slots, result)
            };
            out.push(MatchView {
                r#match: m.clone(),
                slots,
                status,
                result,
                winner,
                loser,
            });
        }
        out
    }

    /// The matches ready to be played: id and the two entrants (place 0 first).
    #[must_use]
    pub fn ready(&self) -> Vec<(usize, EntrantId, EntrantId)> {
        self.bracket()
            .into_iter()
            .filter(|v| v.status == MatchStatus::Ready)
            .filter_map(|v| match v.slots {
                [Slot::Entrant(a), Slot::Entrant(b)] => Some((v.r#match.id, a, b)),
                _ => None,
            })
            .collect()
    }

    /// The champion, once decided.
    #[must_use]
    pub fn champion(&self) -> Option<EntrantId> {
        let b = self.bracket();
        match b.last()?.winner {
            Slot::Entrant(id) => Some(id),
            _ => None,
        }
    }

    /// The standings: the champion first, then by how far each got (the later the round of
    /// the elimination, the better; entrants still in above all eliminated), equal stages
    /// sharing a rank, listed by seed. Points are matches won; the seed is shown as a
    /// tie-break column for reference.
    #[must_use]
    pub fn standings(&self) -> Vec<StandingRow> {
        let b = self.bracket();
        let champion = self.champion();
        let n = self.seeds.len();
        let mut records = vec![Record::default(); n];
        let mut losses = vec![0u32; n];
        let mut eliminated: Vec<Option<u32>> = vec![None; n];
        let seed_of = |id: EntrantId| self.seeds.iter().position(|&s| s == id).unwrap_or(0);
        let lives = match self.settings.elimination {
            Elimination::Single => 1,
            Elimination::Double => 2,
        };
        for v in &b {
            if let (MatchStatus::Played, Some(r), [Slot::Entrant(a), Slot::Entrant(bb)]) =
                (v.status, v.result, v.slots)
            {
                let (ia, ib) = (seed_of(a), seed_of(bb));
                records[ia].add(&r);
                records[ib].add(&r.swapped());
                let loser = if r.outcome() == Outcome::A { ib } else { ia };
                losses[loser] += 1;
                if losses[loser] >= lives {
                    eliminated[loser] = Some(stage(&v.r#match));
                }
            }
        }
        // Higher is better: the champion, then entrants still in, then by elimination stage.
        let key = |i: usize| -> u32 {
            if Some(self.seeds[i]) == champion {
                u32::MAX
            } else {
                eliminated[i].map_or(u32::MAX - 1, |s| s)
            }
        };
        let order: Vec<usize> = {
            let mut o: Vec<usize> = (0..n).collect();
            o.sort_by(|&a, &b| key(b).cmp(&key(a)).then(a.cmp(&b)));
            o
        };
        let mut rows: Vec<StandingRow> = order
            .iter()
            .map(|&i| {
                let id = self.seeds[i];
                StandingRow {
                    rank: 0,
                    entrant: id,
                    name: self.name(id).to_string(),
                    points: f64::from(records[i].won),
                    tiebreaks: vec![TieBreak {
                        name: "seed".into(),
                        value: (i + 1) as f64,
                    }],
                    record: records[i],
                    out: eliminated[i].is_some(),
                }
            })
            .collect();
        let keys: Vec<u32> = order.iter().map(|&i| key(i)).collect();
        assign_ranks(&mut rows, &keys);
        rows
    }

    fn name(&self, id: EntrantId) -> &str {
        self.entrants
            .iter()
            .find(|e| e.id == id)
            .map_or("?", |e| e.name.as_str())
    }

    /// The bracket as text: each part and round, each match with its seeds, names, result and
    /// who went through.
    #[must_use]
    pub fn to_text(&self) -> String {
        let b = self.bracket();
        let seed = |id: EntrantId| {
            self.seeds
                .iter()
                .position(|&s| s == id)
                .map_or(0, |p| p + 1)
        };
        let show = |s: Slot| match s {
            Slot::Entrant(id) => format!("({}) {}", seed(id), self.name(id)),
            Slot::Empty => "bye".to_string(),
            Slot::Waiting => "...".to_string(),
        };
        let mut out = String::new();
        let mut heading = None;
        for v in &b {
            let m = &v.r#match;
            let h = (m.side, m.round);
            if heading != Some(h) {
                heading = Some(h);
                let title = match m.side {
                    BracketSide::Winners if self.settings.elimination == Elimination::Single => {
                        format!("Round {}", m.round)
                    }
                    BracketSide::Winners => format!("Winners' round {}", m.round),
                    BracketSide::Losers => format!("Losers' round {}", m.round),
                    BracketSide::GrandFinal => "Grand final".to_string(),
                    BracketSide::Reset => "Bracket reset".to_string(),
                };
                let _ = writeln!(out, "{title}");
            }
            let line = match v.status {
                MatchStatus::Played => {
                    let r = v.result.unwrap_or(MatchResult::new([0, 0], 0, [0, 0]));
                    format!(
                        "{} {}-{} {}  -> {}",
                        show(v.slots[0]),
                        r.games[0],
                        r.games[1],
                        show(v.slots[1]),
                        show(v.winner)
                    )
                }
                MatchStatus::Walkover => format!("{} through (bye)", show(v.winner)),
                MatchStatus::Void if m.side == BracketSide::Reset => {
                    "not needed: the winners' champion took the grand final".to_string()
                }
                MatchStatus::Void => "empty".to_string(),
                MatchStatus::Ready | MatchStatus::Waiting => {
                    format!("{} v {}", show(v.slots[0]), show(v.slots[1]))
                }
            };
            let _ = writeln!(out, "  m{:<3} {line}", m.id);
        }
        if let Some(c) = self.champion() {
            let _ = writeln!(out, "Champion: {}", show(Slot::Entrant(c)));
        }
        out
    }
}

/// The order in which eliminations happen, for ranking: a later stage is better.
fn stage(m: &BracketMatch) -> u32 {
    match m.side {
        BracketSide::Winners | BracketSide::Losers => m.round,
        BracketSide::GrandFinal => 1 << 20,
        BracketSide::Reset => (1 << 20) + 1,
    }
}

/// A match's status, winner and loser from its places and result.
fn decide(slots: [Slot; 2], result: Option<MatchResult>) -> (MatchStatus, Slot, Slot) {
    match slots {
        [Slot::Entrant(_), Slot::Entrant(_)] => match result {
            Some(r) => {
                let a_won = r.outcome() == Outcome::A;
                let (w, l) = if a_won { (0, 1) } else { (1, 0) };
                (MatchStatus::Played, slots[w], slots[l])
            }
            None => (MatchStatus::Ready, Slot::Waiting, Slot::Waiting),
        },
        [Slot::Entrant(_), Slot::Empty] => (MatchStatus::Walkover, slots[0], Slot::Empty),
        [Slot::Empty, Slot::Entrant(_)] => (MatchStatus::Walkover, slots[1], Slot::Empty),
        [Slot::Empty, Slot::Empty] => (MatchStatus::Void, Slot::Empty, Slot::Empty),
        _ => (MatchStatus::Waiting, Slot::Waiting, Slot::Waiting),
    }
}

/// The bracket's structure for `n` entrants.
fn build(n: u32, elimination: Elimination) -> Vec<BracketMatch> {
    let size = n.next_power_of_two().max(2);
    let k = size.trailing_zeros();
    let mut ms: Vec<BracketMatch> = Vec::new();
    let push = |ms: &mut Vec<BracketMatch>, side, round, index, sources: [Source; 2]| {
        let id = ms.len();
        for (place, s) in sources.iter().enumerate() {
            match *s {
                Source::Winner(i) => ms[i].winner_to = Some((id, place)),
                Source::Loser(i) => ms[i].loser_to = Some((id, place)),
                Source::Seed(_) => {}
            }
        }
        ms.push(BracketMatch {
            id,
            side,
            round,
            index,
            sources,
            winner_to: None,
            loser_to: None,
        });
        id
    };
    // The winners' bracket, round by round.
    let order = bracket_order(size);
    let mut wb: Vec<Vec<usize>> = Vec::new();
    let first: Vec<usize> = order
        .chunks(2)
        .enumerate()
        .map(|(i, p)| {
            push(
                &mut ms,
                BracketSide::Winners,
                1,
                i as u32,
                [Source::Seed(p[0]), Source::Seed(p[1])],
            )
        })
        .collect();
    wb.push(first);
    for r in 2..=k {
        let prev = wb[wb.len() - 1].clone();
        let round: Vec<usize> = prev
            .chunks(2)
            .enumerate()
            .map(|(i, p)| {
                push(
                    &mut ms,
                    BracketSide::Winners,
                    r,
                    i as u32,
                    [Source::Winner(p[0]), Source::Winner(p[1])],
                )
            })
            .collect();
        wb.push(round);
    }
    if elimination == Elimination::Single {
        return ms;
    }
    let wb_final = wb[wb.len() - 1][0];
    let lb_final = if k == 1 {
        // Two entrants: the loser of the only match is the losers' champion.
        None
    } else {
        let mut lb_round = 1;
        let mut lb: Vec<usize> = wb[0]
            .chunks(2)
            .enumerate()
            .map(|(i, p)| {
                push(
                    &mut ms,
                    BracketSide::Losers,
                    lb_round,
                    i as u32,
                    [Source::Loser(p[0]), Source::Loser(p[1])],
                )
            })
            .collect();
        for j in 2..=k as usize {
            lb_round += 1;
            let drops = &wb[j - 1];
            let reversed = j % 2 == 0;
            lb = lb
                .clone()
                .into_iter()
                .enumerate()
                .map(|(i, w)| {
                    let d = if reversed {
                        drops[drops.len() - 1 - i]
                    } else {
                        drops[i]
                    };
                    push(
                        &mut ms,
                        BracketSide::Losers,
                        lb_round,
                        i as u32,
                        [Source::Winner(w), Source::Loser(d)],
                    )
                })
                .collect();
            if j < k as usize {
                lb_round += 1;
                lb = lb
                    .clone()
                    .chunks(2)
                    .enumerate()
                    .map(|(i, p)| {
                        push(
                            &mut ms,
                            BracketSide::Losers,
                            lb_round,
                            i as u32,
                            [Source::Winner(p[0]), Source::Winner(p[1])],
                        )
                    })
                    .collect();
            }
        }
        Some(lb[0])
    };
    let gf = push(
        &mut ms,
        BracketSide::GrandFinal,
        1,
        0,
        [
            Source::Winner(wb_final),
            lb_final.map_or(Source::Loser(wb_final), Source::Winner),
        ],
    );
    push(
        &mut ms,
        BracketSide::Reset,
        1,
        0,
        [Source::Winner(gf), Source::Loser(gf)],
    );
    ms
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(n: u32) -> Vec<Entrant> {
        (0..n)
            .map(|i| Entrant::single(EntrantId(i), format!("p{i}"), 2000 - i as i32))
            .collect()
    }

    #[test]
    fn bracket_order_is_standard() {
        assert_eq!(bracket_order(2), vec![1, 2]);
        assert_eq!(bracket_order(4), vec![1, 4, 2, 3]);
        assert_eq!(bracket_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
    }

    #[test]
    fn top_seeds_get_the_byes() {
        let k = Knockout::new(
            KnockoutSettings {
                elimination: Elimination::Single,
                rule: MatchRule::single(),
            },
            field(6),
        )
        .unwrap();
        let b = k.bracket();
        let walkovers: Vec<Slot> = b
            .iter()
            .filter(|v| v.status == MatchStatus::Walkover)
            .map(|v| v.winner)
            .collect();
        assert_eq!(
            walkovers,
            vec![Slot::Entrant(EntrantId(0)), Slot::Entrant(EntrantId(1))]
        );
        let text = k.to_text();
        assert!(text.contains("(1) p0 through (bye)"), "{text}");
    }

    #[test]
    fn a_grand_final_won_from_the_losers_side_is_reset() {
        let mut k = Knockout::new(
            KnockoutSettings {
                elimination: Elimination::Double,
                rule: MatchRule::single(),
            },
            field(2),
        )
        .unwrap();
        // m0: seed 1 beats seed 2; m1 (grand final): seed 2 wins; m2: reset.
        k.record(0, MatchResult::game(true, [10, 0])).unwrap();
        k.record(1, MatchResult::game(false, [0, 10])).unwrap();
        assert_eq!(k.champion(), None);
        assert_eq!(k.ready().len(), 1);
        k.record(2, MatchResult::game(true, [10, 0])).unwrap();
        assert!(k.champion().is_some());
        assert!(k.record(2, MatchResult::game(true, [10, 0])).is_err());
        let again = Knockout::replay(k.settings(), field(2), k.log()).unwrap();
        assert_eq!(again, k);
    }

    #[test]
    fn a_knockout_match_needs_a_winner() {
        // An even best-of could end level: refused, as the server refuses it.
        for elimination in [Elimination::Single, Elimination::Double] {
            let e = Knockout::new(
                KnockoutSettings {
                    elimination,
                    rule: MatchRule::best_of(2),
                },
                field(4),
            )
            .unwrap_err();
            assert!(e.to_string().contains("odd number of games"), "{e}");
        }
        // A drawn game leaves a best of 3 level after 1-1: no result without a winner.
        let mut k = Knockout::new(
            KnockoutSettings {
                elimination: Elimination::Single,
                rule: MatchRule::best_of(3),
            },
            field(2),
        )
        .unwrap();
        assert!(k.record(0, MatchResult::new([1, 1], 1, [5, 5])).is_err());
        assert!(k.log().is_empty());
    }
}
