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
fn bigger_tables_play_whole_games_with_a_client_per_seat() {
    for rules in [
        "party-twelve players=6 target=50",
        "cross-dominoes players=4 set=9 target=50",
    ] {
        let opts = Options {
            tables: 2,
            length: Length::Games(1),
            rules: rules.to_string(),
            think: Duration::ZERO,
            timeout: Duration::from_secs(20),
            server_threads: 1,
            client_threads: 1,
            ..Options::default()
        };
        let r = fiveup_loadtest::run(&opts).expect("the run completes");
        assert_eq!(r.errors, 0, "{rules}: errors: {:?}", r.error_kinds);
        assert_eq!(r.games, 2, "{rules}");
        assert!(r.moves.count > 0, "{rules}");
        // A game only ends when every seat played its turns and sent its seeds (a missing
        // seed would hold each deal for the server's whole seed wait, longer than the timeout).
    }
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
    let bad_rules = Options {
        rules: "party-twelve players=9".to_string(),
        ..Options::default()
    };
    let e = fiveup_loadtest::run(&bad_rules).unwrap_err();
    assert!(e.contains("players must be 2 to 8"), "{e}");
}

#[test]
fn the_correspondence_mode_opens_and_moves_in_every_stored_game() {
    let opts = fiveup_loadtest::corr::CorrOptions {
        games: 30,
        clients: 4,
        setup_concurrency: 4,
        server_threads: 1,
        client_threads: 1,
        timeout: Duration::from_secs(20),
    };
    let r = fiveup_loadtest::corr::run_corr(&opts).expect("the run completes");
    assert_eq!(r.errors, 0, "errors: {:?}", r.error_kinds);
    // Every game opened once by the person to move, and one move stored in each.
    assert_eq!(r.open.count, 30);
    assert_eq!(r.moves.count, 30);
    assert!(r.open.p50_ms > 0.0 && r.open.p50_ms <= r.open.p99_ms);
    assert!(r.moves.p50_ms > 0.0 && r.moves.p99_ms <= r.moves.max_ms);
    if cfg!(target_os = "linux") {
        assert!(r.memory_kib.iter().all(Option::is_some));
    }
    // Bad settings are refused.
    let none = fiveup_loadtest::corr::CorrOptions {
        games: 0,
        ..fiveup_loadtest::corr::CorrOptions::default()
    };
    assert!(fiveup_loadtest::corr::run_corr(&none).is_err());
}
