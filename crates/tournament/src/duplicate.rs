//! Duplicate: every entrant plays the same boards (deals) against the computer, and each
//! board's score is compared with the rest of the field's on the same board.
//!
//! The score of an entrant on a board is an input number (the CLI uses the entrant's points
//! minus the computer's on that deal). Scoring:
//!
//! - **Matchpoints** (the default): on each board an entrant gets 2 for every other entrant
//!   who played it and scored less, 1 for every one who scored the same, normalised to a
//!   percentage of the most possible (`2 * (players on the board - 1)`); a board played by one
//!   entrant alone gives 50%. The standings rank by the mean percentage over the boards the
//!   entrant played, then by total matchpoints.
//! - **Point difference** (`DuplicateScoring::Difference`): on each board, the entrant's score
//!   minus the mean score of everyone who played it; the standings rank by the sum over the
//!   boards.
//!
//! An entrant who did not come to a board (`Board::absent`, a no-show) gets the board's bottom:
//! no matchpoints (0%), the lowest difference anyone who played it had (0 when nobody did),
//! the board counted as played and lost; the others' scores on the board are the same as if
//! the absent entrant had not been dealt it.

use serde::{Deserialize, Serialize};

use crate::{
    assign_ranks, check_entrants, Entrant, EntrantId, Record, StandingRow, TieBreak,
    TournamentError,
};

/// How boards are scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DuplicateScoring {
    /// Matchpoints, as a percentage.
    Matchpoints,
    /// Score minus the board's average.
    Difference,
}

/// One board: the scores of the entrants who played it, and those who did not come to it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// Entrant and score, each entrant at most once.
    pub scores: Vec<(EntrantId, i64)>,
    /// Entrants dealt the board who did not come to play it (no-shows), each at most once and
    /// none of them in `scores`: each gets the board's bottom (see the module's
    /// documentation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<EntrantId>,
}

/// One entrant's result on one board.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardScore {
    /// The entrant.
    pub entrant: EntrantId,
    /// The raw score.
    pub score: i64,
    /// Matchpoints: 2 a lower score, 1 an equal one.
    pub matchpoints: u32,
    /// Matchpoints as a percentage of the most possible.
    pub percent: f64,
    /// Score minus the board's average.
    pub difference: f64,
    /// The entrant did not come to the board (a no-show): no score of their own (`score` is
    /// 0), no matchpoints, the lowest difference on the board.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub absent: bool,
}

/// Score one board: the entrants who played it, in the order given, then the absent ones.
#[must_use]
pub fn score_board(board: &Board) -> Vec<BoardScore> {
    let n = board.scores.len();
    let total: i64 = board.scores.iter().map(|(_, s)| s).sum();
    let mut out: Vec<BoardScore> = board
        .scores
        .iter()
        .map(|&(entrant, score)| {
            let mp: u32 = board
                .scores
                .iter()
                .filter(|(e, _)| *e != entrant)
                .map(|(_, s)| match score.cmp(s) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                })
                .sum();
            let top = 2 * (n as u32).saturating_sub(1);
            BoardScore {
                entrant,
                score,
                matchpoints: mp,
                percent: if top == 0 {
                    50.0
                } else {
                    100.0 * f64::from(mp) / f64::from(top)
                },
                difference: score as f64 - total as f64 / n as f64,
                absent: false,
            }
        })
        .collect();
    let lowest = out
        .iter()
        .map(|s| s.difference)
        .min_by(f64::total_cmp)
        .unwrap_or(0.0);
    out.extend(board.absent.iter().map(|&entrant| BoardScore {
        entrant,
        score: 0,
        matchpoints: 0,
        percent: 0.0,
        difference: lowest,
        absent: true,
    }));
    out
}

/// Check boards against the field: known entrants, each at most once a board (played or
/// absent).
pub fn check_boards(entrants: &[Entrant], boards: &[Board]) -> Result<(), TournamentError> {
    check_entrants(entrants)?;
    for (b, board) in boards.iter().enumerate() {
        let mut seen = std::collections::BTreeSet::new();
        for e in board.scores.iter().map(|(e, _)| e).chain(&board.absent) {
            if !entrants.iter().any(|x| x.id == *e) {
                return Err(TournamentError::UnknownEntrant(*e));
            }
            if !seen.insert(*e) {
                return Err(TournamentError::Result(format!(
                    "board {b} has two scores for entrant {}",
                    e.0
                )));
            }
        }
    }
    Ok(())
}

/// The standings over all boards. The record counts boards: a board is won when its
/// percentage is above 50, drawn at 50, lost below; points for are the summed raw scores.
pub fn standings(
    entrants: &[Entrant],
    boards: &[Board],
    scoring: DuplicateScoring,
) -> Result<Vec<StandingRow>, TournamentError> {
    check_boards(entrants, boards)?;
    let n = entrants.len();
    let pos = |id: EntrantId| entrants.iter().position(|e| e.id == id).unwrap_or(0);
    let mut mp = vec![0u64; n];
    let mut pct = vec![0.0f64; n];
    let mut diff = vec![0.0f64; n];
    let mut rec = vec![Record::default(); n];
    for board in boards {
        for s in score_board(board) {
            let i = pos(s.entrant);
            mp[i] += u64::from(s.matchpoints);
            pct[i] += s.percent;
            diff[i] += s.difference;
            let r = &mut rec[i];
            r.played += 1;
            // An absent entrant scored nothing of their own.
            r.points_for += s.score;
            if s.percent > 50.0 {
                r.won += 1;
            } else if s.percent < 50.0 {
                r.lost += 1;
            } else {
                r.drawn += 1;
            }
        }
    }
    let mean = |i: usize| {
        if rec[i].played == 0 {
            0.0
        } else {
            pct[i] / f64::from(rec[i].played)
        }
    };
    // Keys rounded to a millionth, so that values equal in exact arithmetic compare equal
    // whatever the rounding of the sums that made them.
    let fix = |x: f64| (x * 1e6).round() as i64;
    // The ranking key is every figure shown, in the order shown: entrants who differ on a
    // shown tie-break never share a rank.
    let key = |i: usize| -> (i64, i64, i64) {
        match scoring {
            DuplicateScoring::Matchpoints => (fix(mean(i)), mp[i] as i64, fix(diff[i])),
            DuplicateScoring::Difference => (fix(diff[i]), fix(mean(i)), 0),
        }
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        key(b)
            .cmp(&key(a))
            .then(entrants[b].rating.cmp(&entrants[a].rating))
            .then(entrants[a].id.cmp(&entrants[b].id))
    });
    // Reported to a millionth too: the same results give the same figures whatever order
    // they came in (a sum of fractions in floating point depends on its order).
    let shown = |x: f64| fix(x) as f64 / 1e6;
    let mut rows: Vec<StandingRow> = order
        .iter()
        .map(|&i| {
            let (points, tiebreaks) = match scoring {
                DuplicateScoring::Matchpoints => (
                    shown(mean(i)),
                    vec![
                        TieBreak {
                            name: "matchpoints".into(),
                            value: mp[i] as f64,
                        },
                        TieBreak {
                            name: "points +/- avg".into(),
                            value: shown(diff[i]),
                        },
                    ],
                ),
                DuplicateScoring::Difference => (
                    shown(diff[i]),
                    vec![TieBreak {
                        name: "percent".into(),
                        value: shown(mean(i)),
                    }],
                ),
            };
            StandingRow {
                rank: 0,
                entrant: entrants[i].id,
                name: entrants[i].name.clone(),
                points,
                tiebreaks,
                record: rec[i],
                out: false,
            }
        })
        .collect();
    let keys: Vec<(i64, i64, i64)> = order.iter().map(|&i| key(i)).collect();
    assign_ranks(&mut rows, &keys);
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked by hand: on board 1, A 30, B 10, C 10: A beats two (4 of 4 = 100%), B and C tie
    /// each other and lose to A (1 of 4 = 25% each). On board 2, A 0, B 20, C 5: B 100%, C 50%,
    /// A 0%. Means: A 50%, B 62.5%, C 37.5%. Differences from the average: board 1 average
    /// 50/3, A +13.33, B and C -6.67; board 2 average 25/3, A -8.33, B +11.67, C -3.33; sums
    /// A +5, B +5, C -10.
    #[test]
    fn the_order_of_boards_and_of_scores_changes_no_figure() {
        // Fields of 19 make percentages like 14/36, whose sums round differently in
        // different orders.
        let entrants: Vec<Entrant> = (0..19)
            .map(|i| Entrant::single(EntrantId(i), format!("e{i}"), 1000))
            .collect();
        let boards: Vec<Board> = (0..8i64)
            .map(|b| Board {
                scores: (0..19u32)
                    .map(|i| (EntrantId(i), (i64::from(i) * 7 + b * 13) % 23 - 11))
                    .collect(),
                ..Board::default()
            })
            .collect();
        let mut shuffled = boards.clone();
        shuffled.reverse();
        for b in &mut shuffled {
            b.scores.rotate_left(5);
        }
        for scoring in [DuplicateScoring::Matchpoints, DuplicateScoring::Difference] {
            assert_eq!(
                standings(&entrants, &boards, scoring).unwrap(),
                standings(&entrants, &shuffled, scoring).unwrap()
            );
        }
    }

    /// Entrants equal on percentage and matchpoints but not on the points tie-break shown
    /// beside them are ranked by it. Board 1: B 40, A 20, D 20, C 0 (average 20); board 2:
    /// C 60, A 20, D 20, B 10 (average 27.5). Everyone has 50% and 6 matchpoints; the
    /// differences are C +12.5, B +2.5, A and D -7.5: C, B, then A and D sharing third place.
    #[test]
    fn every_tie_break_shown_ranks() {
        let entrants: Vec<Entrant> = ["A", "B", "C", "D"]
            .iter()
            .enumerate()
            .map(|(i, n)| Entrant::single(EntrantId(i as u32), *n, 1000))
            .collect();
        let e = EntrantId;
        let boards = vec![
            Board {
                scores: vec![(e(0), 20), (e(1), 40), (e(2), 0), (e(3), 20)],
                ..Board::default()
            },
            Board {
                scores: vec![(e(0), 20), (e(1), 10), (e(2), 60), (e(3), 20)],
                ..Board::default()
            },
        ];
        let rows = standings(&entrants, &boards, DuplicateScoring::Matchpoints).unwrap();
        for w in rows.windows(2) {
            let same = w[0].points == w[1].points && w[0].tiebreaks == w[1].tiebreaks;
            assert_eq!(w[0].rank == w[1].rank, same, "{rows:#?}");
        }
        let got: Vec<(&str, u32)> = rows.iter().map(|r| (r.name.as_str(), r.rank)).collect();
        assert_eq!(
            got,
            vec![("C", 1), ("B", 2), ("A", 3), ("D", 3)],
            "{rows:#?}"
        );
    }

    #[test]
    fn matchpoints_and_differences_worked_example() {
        let entrants: Vec<Entrant> = ["A", "B", "C"]
            .iter()
            .enumerate()
            .map(|(i, n)| Entrant::single(EntrantId(i as u32), *n, 1000))
            .collect();
        let e = EntrantId;
        let boards = vec![
            Board {
                scores: vec![(e(0), 30), (e(1), 10), (e(2), 10)],
                ..Board::default()
            },
            Board {
                scores: vec![(e(0), 0), (e(1), 20), (e(2), 5)],
                ..Board::default()
            },
        ];
        let rows = standings(&entrants, &boards, DuplicateScoring::Matchpoints).unwrap();
        let got: Vec<(&str, u32, f64)> = rows
            .iter()
            .map(|r| (r.name.as_str(), r.rank, r.points))
            .collect();
        assert_eq!(got, vec![("B", 1, 62.5), ("A", 2, 50.0), ("C", 3, 37.5)]);
        let rows = standings(&entrants, &boards, DuplicateScoring::Difference).unwrap();
        let got: Vec<(&str, u32, f64)> = rows
            .iter()
            .map(|r| (r.name.as_str(), r.rank, (r.points * 100.0).round() / 100.0))
            .collect();
        // A and B tie on +5; B ranks first on the percentage tie-break.
        assert_eq!(got, vec![("B", 1, 5.0), ("A", 2, 5.0), ("C", 3, -10.0)]);
        let bad = vec![Board {
            scores: vec![(e(0), 1), (e(0), 2)],
            ..Board::default()
        }];
        assert!(standings(&entrants, &bad, DuplicateScoring::Matchpoints).is_err());
        let bad = vec![Board {
            scores: vec![(e(0), 1)],
            absent: vec![e(0)],
        }];
        assert!(standings(&entrants, &bad, DuplicateScoring::Matchpoints).is_err());
    }

    /// Worked by hand: on board 1, A 10 and B 30 play and C does not come: A 0% and B 100%,
    /// as without C, and C 0%, 0 matchpoints and the lowest difference (A's, -10). On board 2,
    /// A 20, B 0, C absent again: A 100%, B 0%, C 0% and -10. A and B have 50% and a
    /// difference of 0; C is last on either scoring, two boards played and lost, nothing
    /// scored. A board dealt to nobody but an absent entrant gives them 0% and 0.
    #[test]
    fn an_absent_entrant_scores_the_bottom_and_changes_nobody_else() {
        let entrants: Vec<Entrant> = ["A", "B", "C"]
            .iter()
            .enumerate()
            .map(|(i, n)| Entrant::single(EntrantId(i as u32), *n, 1000))
            .collect();
        let e = EntrantId;
        let boards = vec![
            Board {
                scores: vec![(e(0), 10), (e(1), 30)],
                absent: vec![e(2)],
            },
            Board {
                scores: vec![(e(0), 20), (e(1), 0)],
                absent: vec![e(2)],
            },
        ];
        let scored = score_board(&boards[0]);
        let without = score_board(&Board {
            scores: boards[0].scores.clone(),
            ..Board::default()
        });
        assert_eq!(&scored[..2], &without[..]);
        let c = scored[2];
        assert!(c.absent);
        assert_eq!((c.entrant, c.matchpoints, c.percent), (e(2), 0, 0.0));
        assert_eq!(c.difference, -10.0);
        let alone = score_board(&Board {
            scores: Vec::new(),
            absent: vec![e(2)],
        });
        assert_eq!((alone[0].percent, alone[0].difference), (0.0, 0.0));
        for (scoring, want) in [
            (DuplicateScoring::Matchpoints, [50.0, 50.0, 0.0]),
            (DuplicateScoring::Difference, [0.0, 0.0, -20.0]),
        ] {
            let rows = standings(&entrants, &boards, scoring).unwrap();
            let got: Vec<f64> = rows.iter().map(|r| r.points).collect();
            assert_eq!(got, want, "{rows:#?}");
            let last = rows.last().unwrap();
            assert_eq!(last.name, "C", "{rows:#?}");
            assert_eq!(
                (last.record.played, last.record.lost, last.record.points_for),
                (2, 2, 0)
            );
            assert!(rows[..2].iter().all(|r| r.rank < last.rank), "{rows:#?}");
        }
    }
}
