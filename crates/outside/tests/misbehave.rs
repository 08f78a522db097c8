//! Engines that misbehave: each kind of failure is a strike and a fallback move, the third
//! strike forfeits the match, and the match is always played to its end.
//!
//! These tests run Python engines and fail (never skip) when `python3` is missing.

use std::time::{Duration, Instant};

use fiveup_bots::duel::{run_match_using, MatchConfig, MatchMode};
use fiveup_engine::Rules;
use fiveup_outside::{EngineConfig, FaultKind, Roster, STRIKES};

const MISBEHAVE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/misbehave.py");

/// Fail clearly when python3 cannot run.
fn need_python() {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "these tests run engines written in Python: install python3 and put it on the PATH"
    );
}

/// Play a 2-player match of `deals` hands between the misbehaving engine in `mode` (answering
/// its first `good` requests of each game) and greedy; return the roster and the report.
fn play(mode: &str, good: u32, move_ms: u64, deals: u64) -> (Roster, fiveup_bots::MatchReport) {
    play_with(mode, good, move_ms, None, deals)
}

/// [`play`], with a bank of `game_ms` for each game.
fn play_with(
    mode: &str,
    good: u32,
    move_ms: u64,
    game_ms: Option<u64>,
    deals: u64,
) -> (Roster, fiveup_bots::MatchReport) {
    need_python();
    let mut roster = Roster::new(EngineConfig {
        move_time: Duration::from_millis(move_ms),
        game_time: game_ms.map(Duration::from_millis),
        ..EngineConfig::default()
    });
    let key = roster
        .add(&format!("engine:python3 {MISBEHAVE} {mode} {good}"))
        .expect("the engine starts and says hello");
    let cfg = MatchConfig {
        a: key,
        b: "greedy".into(),
        rules: Rules::default(),
        deals,
        seed: 3,
        threads: 1,
        mode: MatchMode::Hands,
    };
    let report = run_match_using(&cfg, &|s, seed| roster.make(s, seed), &|_, _| {})
        .expect("a misbehaving engine never stops the match");
    (roster, report)
}

/// The engine's faults were all of `kind`, it forfeited after exactly three strikes, the
/// fallback made every decision it did not, and the match was played in full.
fn forfeited_by(mode: &str, good: u32, move_ms: u64, deals: u64, kind: FaultKind) {
    let (roster, r) = play(mode, good, move_ms, deals);
    let c = roster
        .host("engine#1")
        .expect("the engine's host")
        .conduct();
    assert_eq!(c.strikes.len(), STRIKES, "{mode}: {c:?}");
    assert!(
        c.strikes.iter().all(|s| s.kind == kind),
        "{mode}: expected only {kind:?} strikes: {c:?}"
    );
    assert!(c.forfeited, "{mode}: {c:?}");
    assert!(c.fallback_decisions >= STRIKES as u64, "{mode}: {c:?}");
    assert_eq!(
        c.engine_decisions + c.fallback_decisions,
        r.a.decisions,
        "{mode}: every decision is the engine's or the fallback's"
    );
    assert_eq!(r.hands, deals * 2, "{mode}: the match is played to its end");
}

#[test]
fn an_engine_past_its_clock_is_struck_and_forfeits() {
    let start = Instant::now();
    forfeited_by("sleep", 1, 200, 2, FaultKind::Timeout);
    // Three timeouts of 200 ms (plus the allowance) and the starts; never the hour it sleeps.
    assert!(start.elapsed() < Duration::from_secs(60));
}

#[test]
fn illegal_answers_are_struck_and_forfeit() {
    forfeited_by("illegal", 1, 5000, 2, FaultKind::Illegal);
}

#[test]
fn garbage_lines_are_struck_and_forfeit() {
    forfeited_by("garbage", 1, 5000, 2, FaultKind::Garbage);
}

#[test]
fn an_engine_that_exits_mid_game_is_struck_once_per_game_and_forfeits() {
    // One strike per game (the fallback plays the rest of it): three games to forfeit.
    let (roster, r) = play("exit", 2, 5000, 3);
    let c = roster.host("engine#1").expect("host").conduct();
    assert!(c.forfeited, "{c:?}");
    assert!(
        c.strikes.iter().all(|s| s.kind == FaultKind::Exited),
        "{c:?}"
    );
    assert_eq!(c.strikes.len(), STRIKES, "{c:?}");
    assert!(c.processes >= STRIKES as u64, "{c:?}");
    assert_eq!(r.hands, 6);
}

#[test]
fn a_flood_of_output_is_struck_and_forfeits() {
    forfeited_by("flood", 1, 5000, 2, FaultKind::Garbage);
}

#[test]
fn an_endless_line_is_struck_once_per_game_and_forfeits() {
    // The engine is killed at the limit; the fallback plays the rest of the game.
    forfeited_by("longline", 1, 5000, 3, FaultKind::TooLong);
}

#[test]
fn an_engine_that_never_says_hello_is_refused_before_the_match() {
    need_python();
    let mut roster = Roster::new(EngineConfig {
        handshake: Duration::from_millis(500),
        ..EngineConfig::default()
    });
    let e = roster
        .add(&format!("engine:python3 {MISBEHAVE} silent"))
        .unwrap_err();
    assert!(e.contains("no id within 500 ms"), "{e}");
    let e = roster.add("engine:/nonexistent/engine").unwrap_err();
    assert!(e.contains("cannot start"), "{e}");
    let e = roster.add("engine:").unwrap_err();
    assert!(e.contains("command"), "{e}");
}

#[test]
fn a_well_behaved_engine_has_no_strikes() {
    let (roster, r) = play("sleep", 1000, 5000, 2);
    let c = roster.host("engine#1").expect("host").conduct();
    assert!(c.strikes.is_empty() && !c.forfeited, "{c:?}");
    assert_eq!(c.fallback_decisions, 0);
    assert_eq!(c.engine_decisions, r.a.decisions);
}

#[test]
fn an_answer_with_an_id_never_sent_is_garbage_at_once() {
    let start = Instant::now();
    forfeited_by("wrongid", 1, 20_000, 2, FaultKind::Garbage);
    // Struck at once, never after waiting out the 20 s clock.
    assert!(start.elapsed() < Duration::from_secs(20));
    let (roster, _) = play("wrongid", 1, 20_000, 2);
    let c = roster.host("engine#1").expect("host").conduct();
    assert!(
        c.strikes[0].detail.contains("which was never sent"),
        "{c:?}"
    );
}

#[test]
fn blank_lines_and_a_malformed_eval_cost_nothing() {
    let (roster, r) = play("blank", 0, 5000, 2);
    let c = roster.host("engine#1").expect("host").conduct();
    assert!(c.strikes.is_empty() && !c.forfeited, "{c:?}");
    assert_eq!(c.fallback_decisions, 0);
    assert_eq!(c.engine_decisions, r.a.decisions);
}

#[test]
fn a_spent_bank_hands_the_moves_to_the_fallback_without_strikes() {
    // 60 ms a move from a bank of 150 ms: the third or fourth move spends it.
    let (roster, r) = play_with("slow", 60, 5000, Some(150), 2);
    let c = roster.host("engine#1").expect("host").conduct();
    assert!(c.strikes.is_empty(), "{c:?}");
    assert!(c.out_of_time > 0, "{c:?}");
    assert_eq!(c.out_of_time, c.fallback_decisions, "{c:?}");
    assert_eq!(c.engine_decisions + c.fallback_decisions, r.a.decisions);
    assert!(
        c.summary().contains("once its bank was spent"),
        "{}",
        c.summary()
    );
}
