//! Outside engines end to end: the example Python engine and `fiveup engine LEVEL` play whole
//! games of every preset through `fiveup match`; a served built-in player plays exactly as the
//! player itself; strikes and forfeits reach the reports; `fiveup arena` rates engines.
//!
//! These tests run Python engines and fail (never skip) when `python3` is missing.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

use fiveup_engine::Preset;

const FIVEUP: &str = env!("CARGO_BIN_EXE_fiveup");
const GREEDY_PY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/engines/greedy.py"
);
const MISBEHAVE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../outside/tests/engines/misbehave.py"
);

/// The time for a move in the tests that expect no strike: far more than any answer takes, so
/// that a busy machine cannot turn a slow answer into a strike.
const SLOW_MACHINE_MS: &str = "30000";

fn need_python() {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "these tests run engines written in Python: install python3 and put it on the PATH"
    );
}

fn fiveup(args: &[&str]) -> Output {
    Command::new(FIVEUP)
        .args(args)
        .output()
        .expect("the fiveup binary runs")
}

fn json_of(o: &Output) -> serde_json::Value {
    assert!(
        o.status.success(),
        "fiveup failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// The engine `key` (`engine_a`, `engine_b`) made every decision, with no strike.
fn clean(v: &serde_json::Value, key: &str, what: &str) {
    let c = &v[key];
    assert_eq!(
        c["strikes"].as_array().map(Vec::len),
        Some(0),
        "{what}: {c}"
    );
    assert_eq!(c["forfeited"], false, "{what}: {c}");
    assert_eq!(c["fallback_decisions"], 0, "{what}: {c}");
    assert!(c["engine_decisions"].as_u64() > Some(0), "{what}: {c}");
}

#[test]
fn the_python_engine_and_served_levels_play_whole_games_of_every_preset() {
    need_python();
    let python = format!("engine:python3 {GREEDY_PY}");
    let served = format!("engine:{FIVEUP} engine club");
    for preset in Preset::ALL {
        let (lo, _) = preset.players();
        let players = lo.to_string();
        let v = json_of(&fiveup(&[
            "match",
            "--rules",
            preset.name(),
            "--players",
            &players,
            "--a",
            &python,
            "--b",
            &served,
            "--deals",
            "1",
            "--games",
            "--option",
            "target=61",
            "--engine-move-ms",
            SLOW_MACHINE_MS,
            "--json",
        ]));
        let what = preset.name();
        clean(&v, "engine_a", what);
        clean(&v, "engine_b", what);
        assert_eq!(v["games"], u64::from(lo), "{what}: {v}");
        assert_eq!(
            v["wins_a"].as_u64().unwrap_or(0) + v["wins_b"].as_u64().unwrap_or(0),
            u64::from(lo),
            "{what}: every game has a winner"
        );
    }
    // Three players, and partners.
    for extra in [
        &["--players", "3"][..],
        &["--players", "4", "--partners"][..],
    ] {
        let mut args = vec![
            "match",
            "--a",
            &python,
            "--b",
            &served,
            "--deals",
            "2",
            "--engine-move-ms",
            SLOW_MACHINE_MS,
        ];
        args.extend_from_slice(extra);
        args.push("--json");
        let v = json_of(&fiveup(&args));
        clean(&v, "engine_a", "table");
        clean(&v, "engine_b", "table");
    }
}

#[test]
fn a_served_player_plays_exactly_as_the_player_itself() {
    // Deterministic players: the served one rebuilds each position from the request alone,
    // so equal play gives a difference of exactly zero in every seat of every preset.
    for level in ["greedy", "club"] {
        let served = format!("engine:{FIVEUP} engine {level}");
        for preset in Preset::ALL {
            let (lo, _) = preset.players();
            let players = lo.to_string();
            let v = json_of(&fiveup(&[
                "match",
                "--rules",
                preset.name(),
                "--players",
                &players,
                "--a",
                &served,
                "--b",
                level,
                "--deals",
                "2",
                "--engine-move-ms",
                SLOW_MACHINE_MS,
                "--json",
            ]));
            let what = format!("{level} in {}", preset.name());
            clean(&v, "engine_a", &what);
            assert_eq!(v["mean_diff"], 0.0, "{what}: {v}");
            assert_eq!(v["sd_diff"], 0.0, "{what}: {v}");
            assert_eq!(v["engine_b"], serde_json::Value::Null, "{what}");
        }
    }
}

#[test]
fn strikes_and_forfeits_reach_the_text_and_json_reports() {
    need_python();
    let bad = format!("engine:python3 {MISBEHAVE} illegal 1");
    let o = fiveup(&["match", "--a", "greedy", "--b", &bad, "--deals", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("engine B: 3 strikes (illegal, illegal, illegal), forfeited"),
        "{text}"
    );
    assert!(text.contains("strike 1: illegal: index 999"), "{text}");
    let v = json_of(&fiveup(&[
        "match", "--a", "greedy", "--b", &bad, "--deals", "2", "--json",
    ]));
    assert_eq!(v["engine_b"]["forfeited"], true, "{v}");
    assert_eq!(v["engine_b"]["strikes"][0]["kind"], "illegal", "{v}");
    assert_eq!(v["engine_a"], serde_json::Value::Null);
    assert_eq!(v["hands"], 4, "the match is played to its end: {v}");
}

#[test]
fn bad_engines_and_settings_are_refused_before_any_deal() {
    let o = fiveup(&[
        "match",
        "--a",
        "engine:/nonexistent/engine",
        "--b",
        "greedy",
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot start"), "{err}");
    let served = format!("engine:{FIVEUP} engine greedy");
    for (args, wanted) in [
        (
            vec!["--engine-option", "depth=3"],
            "no engine announces that option",
        ),
        (vec!["--engine-option", "seed=x"], "whole number"),
        (vec!["--engine-option", "seed"], "NAME=VALUE"),
        (vec!["--engine-move-ms", "0"], "at least 1"),
        (vec!["--engine-fallback", "oracle"], "sees every hand"),
        (vec!["--engine-fallback", "grandmaster"], "unknown player"),
    ] {
        let mut all = vec!["match", "--a", &served, "--b", "greedy", "--deals", "1"];
        all.extend(args);
        let o = fiveup(&all);
        assert!(!o.status.success(), "{all:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(wanted), "{all:?}: {err}");
    }
    let o = fiveup(&["engine", "oracle"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("sees every hand"));
}

#[test]
fn fiveup_engine_answers_the_handshake_and_ignores_garbage() {
    let mut child = Command::new(FIVEUP)
        .args(["engine", "casual"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("fiveup engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(
        stdin,
        r#"{{"type":"hello","protocol":"fiveup-engine/1","program":"test"}}"#
    )
    .expect("write");
    writeln!(stdin, "not json").expect("write");
    writeln!(stdin, r#"{{"type":"set_option","name":"seed","value":5}}"#).expect("write");
    writeln!(stdin, r#"{{"type":"quit"}}"#).expect("write");
    drop(stdin);
    let out = child.wait_with_output().expect("it exits");
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["type"], "id");
    assert_eq!(lines[0]["name"], "fiveup casual");
    assert_eq!(lines[0]["options"][0]["name"], "seed");
    assert_eq!(lines[1]["type"], "info");
}

#[test]
fn the_arena_rates_engines_and_levels_with_intervals() {
    need_python();
    let python = format!("engine:python3 {GREEDY_PY}");
    let o = fiveup(&[
        "arena",
        "random",
        &python,
        "greedy",
        "--deals",
        "6",
        "--engine-move-ms",
        SLOW_MACHINE_MS,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("| `random` | 1000 (anchor) |"), "{text}");
    assert!(text.contains(&format!("| `{python}` |")), "{text}");
    assert!(text.contains("0 strikes"), "{text}");
    let v = json_of(&fiveup(&[
        "arena", "random", &python, "--deals", "4", "--json",
    ]));
    assert_eq!(v["ratings"].as_array().map(Vec::len), Some(2), "{v}");
    assert_eq!(v["matches"].as_array().map(Vec::len), Some(1), "{v}");
    assert!(v["ratings"][1]["ci95"].as_f64() > Some(0.0), "{v}");
    let bad = format!("engine:python3 {MISBEHAVE} illegal 0");
    let v = json_of(&fiveup(&[
        "arena", "random", &bad, "--deals", "3", "--json",
    ]));
    // A forfeited match is lost on every deal, in its row as in the ratings.
    assert_eq!(v["matches"][0]["conduct_b"]["forfeited"], true, "{v}");
    assert_eq!(v["matches"][0]["deals_won_a"], 3, "{v}");
    assert_eq!(v["matches"][0]["deals_won_b"], 0, "{v}");
    assert_eq!(
        v["matches"][0]["forfeited"],
        serde_json::json!([false, true]),
        "{v}"
    );
    assert!(v["ratings"][1]["elo"].as_f64() < Some(1000.0), "{v}");
    let o = fiveup(&["arena", "random", &bad, "--deals", "3"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("| 3 / 0 / 0 (forfeited; as played"), "{text}");
}

/// The arena names a level as given (`casual (greedy)`), takes `--players` as `fiveup match`
/// does (`--seats` still works), and a match with `--partners` alone plays four seats.
#[test]
fn the_arena_and_match_read_the_table_alike() {
    let v = json_of(&fiveup(&[
        "arena",
        "casual",
        "random",
        "--deals",
        "2",
        "--players",
        "3",
        "--json",
    ]));
    assert_eq!(v["ratings"][0]["name"], "casual (greedy)", "{v}");
    assert!(v["rules"].as_str().unwrap().contains("players=3"), "{v}");
    let v = json_of(&fiveup(&[
        "arena", "casual", "random", "--deals", "2", "--seats", "3", "--json",
    ]));
    assert!(v["rules"].as_str().unwrap().contains("players=3"), "{v}");
    let v = json_of(&fiveup(&[
        "match",
        "--a",
        "greedy",
        "--b",
        "random",
        "--partners",
        "--deals",
        "2",
        "--json",
    ]));
    assert_eq!(v["players"], 4, "{v}");
    assert_eq!(v["partners"], true, "{v}");
    let o = fiveup(&[
        "match",
        "--a",
        "greedy",
        "--b",
        "random",
        "--partners",
        "--players",
        "3",
    ]);
    assert!(!o.status.success());
}

/// A request's open ends are the table view's: the same arms, pips and counts at every point of
/// random hands of every preset.
#[test]
fn requests_show_the_open_ends_the_table_view_shows() {
    use fiveup_engine::{FastRng, LayoutTree, Phase, Rules, Seed, State};
    let mut rng = FastRng::new(3);
    let mut compared = 0;
    for preset in Preset::ALL {
        for players in [2u8, 4] {
            let rules = Rules::preset(preset, players);
            if rules.validate().is_err() {
                continue;
            }
            for n in 0..6 {
                let mut s = State::from_seed(rules, &Seed::from_u64(n)).unwrap();
                while matches!(s.phase(), Phase::Play | Phase::Claim) {
                    let tree = LayoutTree::from_history(&rules, s.log());
                    let ours: Vec<_> = fiveup_outside::encode::open_ends(s.layout(), &tree)
                        .iter()
                        .map(|e| (e.arm, e.pip, e.counts))
                        .collect();
                    let table: Vec<_> = fiveup_server::table::project::open_ends(s.layout(), &tree)
                        .iter()
                        .map(|e| (e.arm, e.pip, e.counts))
                        .collect();
                    assert_eq!(ours, table, "{preset}");
                    compared += 1;
                    let l = s.legal_actions();
                    s.apply(l[rng.below(l.len() as u32) as usize]).unwrap();
                }
            }
        }
    }
    assert!(compared > 1000);
}

/// `shown` means one thing in both protocols: for a double drawn for the lead
/// (`no-double=draw-until-double`), the engine protocol's `shown` and the table protocol's
/// `shown_tile` are both that double.
#[test]
fn a_double_drawn_for_the_lead_is_shown_alike_in_both_protocols() {
    use fiveup_engine::{Entry, LeadKind, Rules, Seat};
    use fiveup_outside::{Encoder, ToEngine};
    use fiveup_protocol::UserRef;
    use fiveup_server::table::fairness;
    use fiveup_server::table::project::{table_view, Viewer};
    use fiveup_server::table::{SeatSetup, Stored, TableConfig, TableCore};
    let rules = Rules::parse("five-up no-double=draw-until-double hand=3").unwrap();
    for k in 0..=255u8 {
        let mut core = TableCore::new(TableConfig {
            id: "t".into(),
            rules,
            seats: vec![SeatSetup::Open, SeatSetup::Open],
            creator: None,
            unlisted: true,
            created_at: 0,
            request: None,
            correspondence: None,
            tournament: None,
            hints: false,
        });
        for seat in 0..2u8 {
            let user = UserRef {
                id: i64::from(seat) + 1,
                name: format!("p{seat}"),
                registered: true,
                bot: false,
            };
            core.apply(&Stored::Sit { seat, user }).unwrap();
        }
        core.apply(&Stored::Start).unwrap();
        core.apply(&Stored::Commit {
            hand: 1,
            server_seed: fairness::to_hex(&[k; 32]),
        })
        .unwrap();
        core.apply(&Stored::Deal { hand: 1 }).unwrap();
        let state = core.state.clone().unwrap();
        if state.lead_kind() != LeadKind::DrawUntilDouble {
            continue;
        }
        let drawn = state.log().iter().rev().find_map(|e| match *e {
            Entry::LeadDraw { tile, .. } => tile,
            _ => None,
        });
        assert!(drawn.is_some_and(|t| t.is_double()));
        for seat in 0..2u8 {
            let view = table_view(
                &core,
                Viewer {
                    seat: Some(seat),
                    user: None,
                },
            );
            assert_eq!(view.shown_tile, drawn, "the table protocol");
            let msgs = Encoder::new().catch_up(&state.view(Seat(seat)));
            let Some(ToEngine::Hand { shown, .. }) = msgs.get(1) else {
                panic!("{msgs:?}")
            };
            assert_eq!(*shown, drawn, "the engine protocol");
        }
        return;
    }
    panic!("no deal without a double among 256");
}
