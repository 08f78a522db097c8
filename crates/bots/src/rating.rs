//! Elo ratings from a round robin of duplicate matches, with 95% intervals.
//!
//! Each deal of a duplicate match is one game between the two players: won by the player whose
//! side scored more over the deal's seatings, drawn when both scored the same. The ratings are
//! the maximum-likelihood fit of the Elo model, the chance that `i` wins against `j` being
//! `1 / (1 + 10^((r_j - r_i) / 400))`, a draw counting half a win to each (Bradley-Terry on
//! the Elo scale). Every pair also gets one virtual draw, so that a pair in which one player
//! won every deal still has a finite gap. The first player is the anchor, at
//! [`ANCHOR`]; the others' standard errors come from the inverse of the likelihood's
//! curvature with the anchor fixed, so an interval says how well a player is placed against
//! the anchor.

/// The anchor's rating.
pub const ANCHOR: f64 = 1000.0;

/// One pair's results: `wins` of `i` over `j`, `losses`, `draws` (deals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairResult {
    /// The first player's index.
    pub i: usize,
    /// The second player's index.
    pub j: usize,
    /// Deals `i` won.
    pub wins: u64,
    /// Deals `j` won.
    pub losses: u64,
    /// Deals drawn.
    pub draws: u64,
}

/// One player's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub elo: f64,
    /// Half-width of its 95% interval (0 for the anchor).
    pub ci95: f64,
}

/// The natural log of 10 over 400: the Elo scale's slope.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// Ratings of `players` players from the pairs' results (player 0 is the anchor). `None` when
/// some player is not connected to the anchor by any result.
#[must_use]
pub fn fit(players: usize, pairs: &[PairResult]) -> Option<Vec<Rating>> {
    if players == 0 {
        return Some(Vec::new());
    }
    // Games and points (wins plus half the draws, plus the virtual draw) of i against j.
    let mut games = vec![vec![0.0; players]; players];
    let mut score = vec![vec![0.0; players]; players];
    for p in pairs {
        if p.i == p.j || p.i >= players || p.j >= players {
            continue;
        }
        let n = (p.wins + p.losses + p.draws) as f64 + 1.0;
        let si = p.wins as f64 + 0.5 * p.draws as f64 + 0.5;
        games[p.i][p.j] += n;
        games[p.j][p.i] += n;
        score[p.i][p.j] += si;
        score[p.j][p.i] += n - si;
    }
    let k = players - 1;
    let mut r = vec![0.0; players];
    let mut cov = vec![vec![0.0; k]; k];
    for _ in 0..100 {
        let mut g = vec![0.0; k];
        let mut h = vec![vec![0.0; k]; k];
        for a in 1..players {
            for b in 0..players {
                if a == b || games[a][b] == 0.0 {
                    continue;
                }
                let p = 1.0 / (1.0 + (C * (r[b] - r[a])).exp());
                g[a - 1] += C * (score[a][b] - games[a][b] * p);
                let w = C * C * games[a][b] * p * (1.0 - p);
                h[a - 1][a - 1] += w;
                if b > 0 {
                    h[a - 1][b - 1] -= w;
                }
            }
        }
        cov = invert(&h)?;
        let mut step = 0.0f64;
        for a in 0..k {
            let d: f64 = (0..k).map(|b| cov[a][b] * g[b]).sum();
            r[a + 1] += d;
            step = step.max(d.abs());
        }
        if step < 1e-9 {
            break;
        }
    }
    Some(
        (0..players)
            .map(|a| Rating {
                elo: ANCHOR + r[a],
                ci95: if a == 0 {
                    0.0
                } else {
                    1.96 * cov[a - 1][a - 1].max(0.0).sqrt()
                },
            })
            .collect(),
    )
}

/// The inverse of a symmetric positive-definite matrix by Gauss-Jordan elimination; `None`
/// when it is singular (a player without results).
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut a: Vec<Vec<f64>> = m.to_vec();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..n {
        let piv = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[piv][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, piv);
        inv.swap(col, piv);
        let d = a[col][col];
        for j in 0..n {
            a[col][j] /= d;
            inv[col][j] /= d;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for j in 0..n {
                        a[row][j] -= f * a[col][j];
                        inv[row][j] -= f * inv[col][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_win_rate_gives_its_elo_gap() {
        // 76 wins in 100 (with the virtual draw: 76.5 of 101) is a gap of
        // 400 * log10(76.5 / 24.5).
        let r = fit(
            2,
            &[PairResult {
                i: 0,
                j: 1,
                wins: 24,
                losses: 76,
                draws: 0,
            }],
        )
        .unwrap();
        let want = 400.0 * (76.5f64 / 24.5).log10();
        assert!((r[1].elo - ANCHOR - want).abs() < 1e-6, "{r:?}");
        assert_eq!(r[0].elo, ANCHOR);
        assert!(r[1].ci95 > 0.0);
    }

    #[test]
    fn ratings_follow_a_chain_and_a_clean_sweep_stays_finite() {
        let pairs = [
            PairResult {
                i: 0,
                j: 1,
                wins: 20,
                losses: 80,
                draws: 0,
            },
            PairResult {
                i: 1,
                j: 2,
                wins: 30,
                losses: 70,
                draws: 0,
            },
            PairResult {
                i: 0,
                j: 2,
                wins: 0,
                losses: 100,
                draws: 0,
            },
        ];
        let r = fit(3, &pairs).unwrap();
        assert!(r[0].elo < r[1].elo && r[1].elo < r[2].elo, "{r:?}");
        assert!(r[2].elo.is_finite());
    }

    #[test]
    fn an_unconnected_player_has_no_rating() {
        let pairs = [PairResult {
            i: 0,
            j: 1,
            wins: 5,
            losses: 5,
            draws: 0,
        }];
        assert!(fit(3, &pairs).is_none());
    }
}
