//! Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012), as a pure
//! function of a rating and one rating period's results.

use fiveup_protocol::Rating;

/// The system constant τ: how much volatility may change.
pub const TAU: f64 = 0.5;
/// The scale between the Glicko and Glicko-2 scales.
const SCALE: f64 = 173.7178;
/// Convergence tolerance of the volatility iteration.
const EPSILON: f64 = 0.000_001;

/// A new player's rating.
#[must_use]
pub const fn initial() -> Rating {
    Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    }
}

/// The rating after one period with these results: each opponent's rating (before the period)
/// and the score against them (1 win, 0.5 draw, 0 loss). With no results only the deviation
/// grows.
#[must_use]
pub fn update(player: Rating, results: &[(Rating, f64)]) -> Rating {
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if results.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Rating {
            rating: player.rating,
            deviation: (phi_star * SCALE).min(350.0),
            volatility: sigma,
        };
    }
    let g = |phi_j: f64| 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
    let mut v_inv = 0.0;
    let mut delta_sum = 0.0;
    for (opp, score) in results {
        let mu_j = (opp.rating - 1500.0) / SCALE;
        let phi_j = opp.deviation / SCALE;
        let gj = g(phi_j);
        let e = 1.0 / (1.0 + (-gj * (mu - mu_j)).exp());
        v_inv += gj * gj * e * (1.0 - e);
        delta_sum += gj * (score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * delta_sum;
    // The new volatility, by the Illinois algorithm (step 5 of the paper).
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let mut fa = f(big_a);
    let mut fb = f(big_b);
    let mut guard = 0;
    while (big_b - big_a).abs() > EPSILON && guard < 1000 {
        guard += 1;
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    let sigma_new = (big_a / 2.0).exp();
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * delta_sum;
    Rating {
        rating: mu_new * SCALE + 1500.0,
        deviation: phi_new * SCALE,
        volatility: sigma_new,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of Glickman's paper: 1500 (RD 200, σ 0.06) beats 1400 (RD 30), loses
    /// to 1550 (RD 100) and to 1700 (RD 300): 1464.06, RD 151.52, σ 0.05999.
    #[test]
    fn glickmans_example() {
        let p = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let o = |r, d| Rating {
            rating: r,
            deviation: d,
            volatility: 0.06,
        };
        let n = update(
            p,
            &[
                (o(1400.0, 30.0), 1.0),
                (o(1550.0, 100.0), 0.0),
                (o(1700.0, 300.0), 0.0),
            ],
        );
        assert!((n.rating - 1464.06).abs() < 0.01, "{n:?}");
        assert!((n.deviation - 151.52).abs() < 0.01, "{n:?}");
        assert!((n.volatility - 0.05999).abs() < 0.00001, "{n:?}");
    }

    #[test]
    fn an_idle_period_only_widens_the_deviation() {
        let p = Rating {
            rating: 1600.0,
            deviation: 100.0,
            volatility: 0.06,
        };
        let n = update(p, &[]);
        assert!((n.rating - p.rating).abs() < f64::EPSILON);
        assert!(n.deviation > p.deviation);
    }

    #[test]
    fn winning_raises_and_losing_lowers() {
        let a = initial();
        assert!(update(a, &[(initial(), 1.0)]).rating > 1500.0);
        assert!(update(a, &[(initial(), 0.0)]).rating < 1500.0);
    }
}
