//! The load generator against an in-process server: a few tables for a few seconds, playing
//! as fast as the server answers. Every move must be acknowledged without any error.

use std::time::Duration;

use fiveup_loadtest::{Length, Options};

#[test]
fn five_tables_play_without_errors_and_every_move_is_timed() {
    let opts = Options {
        tables: 5,
        length: Length::Duration(Duration::from_secs(3)),
        think: Duration::ZERO,
        timeout: Duration::from_secs(10),
        ramp: 5,
        server_threads: 1,
        client_threads: 1,
        ..Options::default()
    };
    let r = fiveup_loadtest::run(&opts).expect("the run completes");
    assert_eq!(r.errors, 0, "errors: {:?}", r.error_kinds);
    assert_eq!(r.tables_up, 5);
    assert!(
        r.moves.count > 50,
        "only {} moves were timed",
        r.moves.count
    );
    assert!(
        r.seeds.count >= 10,
        "only {} seeds were timed",
        r.seeds.count
    );
    assert!(r.moves.p50_ms > 0.0 && r.moves.p50_ms <= r.moves.p99_ms);
    assert!(r.moves.p99_ms <= r.moves.max_ms);
    assert!(r.moves_per_sec > 0.0);
    assert!(r.measured_secs >= 3.0);
    if cfg!(target_os = "linux") {
        assert!(r.memory.before_kib.is_some() && r.memory.per_table_kib.is_some());
        assert!(r.cpu.server_secs.is_some());
    }
}

#[test]
fn whole_games_are_played_to_their_end() {
    let opts = Options {
        tables: 2,
        length: Length::Games(1),
        rules: "five-up target=50".to_string(),
        think: Duration::ZERO,
        timeout: Duration::from_secs(10),
        server_threads: 1,
        client_threads: 1,
        ..Options::default()
    };
    let r = fiveup_loadtest::run(&opts).expect("the run completes");
    assert_eq!(r.errors, 0, "errors: {:?}", r.error_kinds);
    assert_eq!(r.games, 2);
    assert!(r.moves.count > 0);
}

#[test]
fn bad_settings_are_refused() {
    let zero = Options {
        tables: 0,
        ..Options::default()
    };
    assert!(fiveup_loadtest::run(&zero).is_err());
    let no_games = Options {
        length: Length::Games(0),
        ..Options::default()
    };
    assert!(fiveup_loadtest::run(&no_games).is_err());
    let bad_url = Options {
        server: Some("ftp://example".to_string()),
        ..Options::default()
    };
    assert!(fiveup_loadtest::run(&bad_url).is_err());
}
