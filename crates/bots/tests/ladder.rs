//! The ladder's order on small duplicate matches, by the levels people choose from:
//! beginner (random) < casual (greedy) < club < strong (pimc), master (the expert) above club,
//! and the oracle above pimc. Only the order is asserted (each stronger player's mean
//! difference is above zero); the figures themselves are measured on 3,000-deal matches in
//! `docs/strength.md`. Each match is sized so that the expected margin is several standard
//! errors (the per-deal difference's standard deviation is about 17 points in two-player hands
//! and 20 in partnerships), and matches are deterministic given their seed, so the test cannot
//! flake; a regression in a player fails it. Master against strong is not asserted: their
//! measured difference (`docs/strength.md`) is too small for a match of test size. One more
//! test asserts that thinking pays: the expert's 400 worlds beat its 25 with the whole 95%
//! interval above zero.

use fiveup_bots::{run_match, MatchConfig, MatchMode};
use fiveup_engine::{Preset, Rules};

fn diff(a: &str, b: &str, rules: Rules, deals: u64) -> f64 {
    result(a, b, rules, deals).mean_diff
}

fn result(a: &str, b: &str, rules: Rules, deals: u64) -> fiveup_bots::MatchReport {
    let r = run_match(&MatchConfig {
        a: a.into(),
        b: b.into(),
        rules,
        deals,
        seed: 2026,
        threads: 2,
        mode: MatchMode::Hands,
    })
    .expect("the match runs");
    assert_eq!(r.deals, deals);
    r
}

#[test]
fn two_player_ladder_is_in_order() {
    let r = Rules::default();
    assert!(diff("casual", "beginner", r, 300) > 0.0);
    assert!(diff("club", "casual", r, 300) > 0.0);
    assert!(diff("strong", "club", r, 200) > 0.0);
    assert!(diff("master", "club", r, 60) > 0.0);
    assert!(
        diff(
            "oracle:samples=120,threads=1",
            "pimc:samples=120,threads=1",
            r,
            200
        ) > 0.0
    );
}

#[test]
fn partnership_ladder_is_in_order() {
    let r = Rules::preset(Preset::FiveUp, 4);
    assert!(r.partnerships);
    assert!(diff("casual", "beginner", r, 200) > 0.0);
    assert!(diff("club", "casual", r, 200) > 0.0);
    assert!(diff("strong", "club", r, 200) > 0.0);
    assert!(diff("master", "club", r, 60) > 0.0);
}

/// More thinking is stronger, outside the noise: the expert's 400 worlds against 25, each
/// world weighted by inference alike, over 300 duplicate deals. Measured: +3.33 a hand (95%
/// interval +1.69 .. +4.96); on the other deals of seed 4, +3.13 (+1.38 .. +4.88). The curve
/// by time budget is in `docs/strength.md`.
#[test]
fn more_worlds_beat_fewer_outside_the_noise() {
    let r = result(
        "expert:threads=1",
        "expert:threads=1,samples=25",
        Rules::default(),
        300,
    );
    assert!(
        r.ci95_low() > 0.0,
        "{:+.2} .. {:+.2}",
        r.ci95_low(),
        r.ci95_high()
    );
}
