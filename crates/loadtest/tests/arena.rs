//! The arena mode against an in-process server: a small arena for a few seconds, with games
//! short enough that entrants are paired again. Every entrant joins, every entrant is called
//! in the first wave, and every move is acknowledged without any error.

use std::time::Duration;

use fiveup_loadtest::Options;

#[test]
fn a_small_arena_calls_every_entrant_and_pairs_them_again() {
    let opts = Options {
        rules: "all-fives target=50".to_string(),
        think: Duration::ZERO,
        timeout: Duration::from_secs(20),
        ramp: 8,
        server_threads: 1,
        client_threads: 1,
        ..Options::default()
    };
    let r =
        fiveup_loadtest::arena::run(&opts, 8, Duration::from_secs(10)).expect("the run completes");
    assert_eq!(r.errors, 0, "errors: {:?}", r.error_kinds);
    assert_eq!(r.joined, 8);
    assert!(r.clean());
    let wave = r
        .first_wave_ms
        .expect("every entrant is called in the first wave");
    assert!(wave >= 0.0);
    assert_eq!(r.first_wave_called, 8);
    assert!(r.moves.count > 0 && r.moves.p50_ms <= r.moves.p99_ms);
    assert!(r.seeds.count >= 8, "only {} seeds", r.seeds.count);
    // Games to 50 take a few seconds at most: some entrants finish one and are called again.
    assert!(
        r.entrant_games > 0,
        "no game finished in {:.1} s",
        r.measured_secs
    );
    assert!(r.calls > 8, "nobody was paired a second time");
    assert!(r.repairing.count > 0 && r.repairing.p50_ms <= r.repairing.max_ms);
}

#[test]
fn bad_arena_settings_are_refused() {
    let o = Options::default();
    let e = fiveup_loadtest::arena::run(&o, 1, Duration::from_secs(1)).unwrap_err();
    assert!(e.contains("at least 2"), "{e}");
    let e = fiveup_loadtest::arena::run(&o, 10_001, Duration::from_secs(1)).unwrap_err();
    assert!(e.contains("10,000"), "{e}");
    let four = Options {
        rules: "five-up players=4 partners=yes".to_string(),
        ..Options::default()
    };
    let e = fiveup_loadtest::arena::run(&four, 4, Duration::from_secs(1)).unwrap_err();
    assert!(e.contains("two players"), "{e}");
}
