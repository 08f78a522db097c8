//! Helpers shared by the integration tests: tiles and deals written by hand, scripted actions,
//! and the chi-square machinery used by the statistical tests.

#![allow(dead_code)]

use fiveup_engine::{Action, BySide, Deal, HandStart, Outcome, Rules, Seat, State, Tile, TileSet};

/// A tile from its text, such as `6-4`.
pub fn t(s: &str) -> Tile {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// Tiles from space-separated text.
pub fn tiles(s: &str) -> Vec<Tile> {
    s.split_whitespace().map(t).collect()
}

/// A set of tiles from space-separated text.
pub fn set(s: &str) -> TileSet {
    tiles(s).into_iter().collect()
}

/// A deal with every hand given in full and the boneyard given as a prefix of its draw order;
/// the tiles not named anywhere follow the prefix in index order (`0-0`, `1-0`, `1-1`, ...).
pub fn deal(rules: &Rules, hands: &[&str], boneyard_prefix: &str) -> Deal {
    let hands: Vec<Vec<Tile>> = hands.iter().map(|h| tiles(h)).collect();
    let mut boneyard = tiles(boneyard_prefix);
    let named: TileSet = hands.iter().flatten().chain(&boneyard).copied().collect();
    boneyard.extend(rules.tiles().minus(named).iter());
    Deal::from_hands(rules, &hands, &boneyard).unwrap_or_else(|e| panic!("bad test deal: {e}"))
}

/// The start of a later hand led freely by `seat`, scores at zero.
pub fn free_lead(seat: u8) -> HandStart {
    HandStart {
        hand_no: 2,
        scores: BySide::default(),
        highest_double: false,
        free_leader: Seat(seat),
    }
}

/// A hand state from hand-described hands and boneyard prefix.
pub fn state(rules: Rules, hands: &[&str], boneyard_prefix: &str, start: HandStart) -> State {
    let d = deal(&rules, hands, boneyard_prefix);
    State::with_start(rules, d, start).unwrap_or_else(|e| panic!("bad test setup: {e}"))
}

/// An action from its notation token (`6-4`, `5-0@W`, `D`, `P`, `C10`, `M`).
pub fn act(s: &str) -> Action {
    s.parse()
        .unwrap_or_else(|e| panic!("bad action {s:?}: {e}"))
}

/// Apply an action that must be legal.
pub fn go(s: &mut State, a: &str) -> Outcome {
    let action = act(a);
    s.apply(action)
        .unwrap_or_else(|e| panic!("{a} refused: {e}\n{s:?}"))
}

/// Apply a list of actions that must all be legal.
pub fn script(s: &mut State, actions: &str) {
    for a in actions.split_whitespace() {
        go(s, a);
    }
}

/// The legal actions as notation tokens, sorted, for readable comparisons.
pub fn legal(s: &State) -> Vec<String> {
    let mut v: Vec<String> = s.legal_actions().iter().map(ToString::to_string).collect();
    v.sort();
    v
}

/// Sorted notation tokens.
pub fn sorted(tokens: &str) -> Vec<String> {
    let mut v: Vec<String> = tokens.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

/// Upper tail probability of the standard normal distribution, `P(Z > z)`, by Simpson's rule
/// on the density from `z` to `z + 12` (the tail beyond that is far below 1e-30).
pub fn normal_upper_tail(z: f64) -> f64 {
    let n = 20_000;
    let h = 12.0 / f64::from(n);
    let pdf = |x: f64| (-x * x / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let mut s = pdf(z) + pdf(z + 12.0);
    for i in 1..n {
        let w = if i % 2 == 1 { 4.0 } else { 2.0 };
        s += w * pdf(z + f64::from(i) * h);
    }
    s * h / 3.0
}

/// The standard normal quantile with upper tail `p`, by bisection.
pub fn normal_upper_quantile(p: f64) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 10.0_f64);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if normal_upper_tail(mid) > p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The chi-square critical value with `df` degrees of freedom and upper tail `p`, by the
/// Wilson-Hilferty approximation: `df * (1 - 2/(9 df) + z sqrt(2/(9 df)))^3`.
pub fn chi_square_critical(df: u32, p: f64) -> f64 {
    let k = f64::from(df);
    let z = normal_upper_quantile(p);
    let a = 2.0 / (9.0 * k);
    k * (1.0 - a + z * a.sqrt()).powi(3)
}

/// Pearson's chi-square statistic of observed counts against equal expected counts.
pub fn chi_square_uniform(observed: &[u64]) -> f64 {
    let n: u64 = observed.iter().sum();
    let e = n as f64 / observed.len() as f64;
    observed
        .iter()
        .map(|&o| {
            let d = o as f64 - e;
            d * d / e
        })
        .sum()
}
