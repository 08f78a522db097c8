//! The `fiveup` binary end to end: self-play writes records, replay checks them, bench reports.

use std::path::PathBuf;
use std::process::{Command, Output};

fn fiveup(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(args)
        .output()
        .expect("the fiveup binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fiveup-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn selfplay_records_replay_cleanly_in_text_and_json() {
    for (players, extra, file) in [
        ("2", vec![], "two.txt"),
        ("3", vec!["--rules", "fives-and-threes"], "three.json"),
        ("4", vec!["--rules", "cross"], "four.txt"),
        (
            "4",
            vec!["--individual", "--option", "manual=true"],
            "manual.txt",
        ),
    ] {
        let path = temp(file);
        let p = path.to_str().expect("utf-8 path");
        let mut args = vec![
            "selfplay",
            "--games",
            "3",
            "--seed",
            "9",
            "--players",
            players,
        ];
        args.extend(extra.iter().copied());
        args.extend(["--record", p, "--quiet"]);
        let o = fiveup(&args);
        assert!(o.status.success(), "selfplay failed: {}", stderr(&o));
        assert!(stdout(&o).contains("3 games"), "{}", stdout(&o));
        let o = fiveup(&["replay", p]);
        assert!(
            o.status.success(),
            "replay of {file} failed: {}",
            stderr(&o)
        );
        let out = stdout(&o);
        assert!(out.contains("3 records checked"), "{out}");
        assert_eq!(out.matches("\nGame over: ").count(), 3, "{out}");
        let o = fiveup(&["replay", p, "--json"]);
        assert!(o.status.success());
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("JSON output");
        assert_eq!(v.as_array().map(Vec::len), Some(3));
        // Every list of the hands' results is as long as the table: one entry a seat or a
        // side, never padded.
        let seats: usize = players.parse().expect("a count");
        let sides = if file == "four.txt" { 2 } else { seats };
        for game in v.as_array().expect("games") {
            for hand in game["hands"].as_array().expect("hands") {
                let r = &hand["result"];
                if r.is_null() {
                    continue;
                }
                for (key, n) in [
                    ("hands", seats),
                    ("pips", seats),
                    ("side_pips", sides),
                    ("awards", sides),
                    ("scored", sides),
                ] {
                    assert_eq!(
                        r[key].as_array().map(Vec::len),
                        Some(n),
                        "{file} {key}: {r}"
                    );
                }
            }
        }
    }
}

#[test]
fn one_hand_is_one_hand() {
    let o = fiveup(&["selfplay", "--rules", "five-up hands=1 target=1000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(", 1 hand\n"), "{}", stdout(&o));
    let o = fiveup(&[
        "selfplay",
        "--max-hands",
        "1",
        "--rules",
        "five-up target=1000",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("the game had not ended after 1 hand ("),
        "{}",
        stderr(&o)
    );
}

#[test]
fn selfplay_is_reproducible_from_its_seed() {
    let a = temp("a.txt");
    let b = temp("b.txt");
    for p in [&a, &b] {
        let o = fiveup(&[
            "selfplay",
            "--games",
            "2",
            "--seed",
            "5",
            "--record",
            p.to_str().unwrap(),
        ]);
        assert!(o.status.success());
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn replay_rejects_an_inconsistent_record_naming_the_action() {
    let path = temp("tamper.txt");
    let p = path.to_str().unwrap();
    assert!(
        fiveup(&["selfplay", "--games", "1", "--seed", "4", "--record", p])
            .status
            .success()
    );
    let text = std::fs::read_to_string(&path).unwrap();
    // Raise the first scored points annotation by 5.
    let (at, token) = text
        .match_indices('+')
        .find_map(|(i, _)| {
            let digits: String = text[i + 1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            (!digits.is_empty()).then_some((i, digits))
        })
        .expect("a game scores some points");
    let bumped = (token.parse::<u32>().unwrap() + 5).to_string();
    let tampered = format!(
        "{}+{}{}",
        &text[..at],
        bumped,
        &text[at + 1 + token.len()..]
    );
    std::fs::write(&path, tampered).unwrap();
    let o = fiveup(&["replay", p]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains(&format!("the record says {bumped}")), "{err}");
    assert!(err.contains("hand 1, action"), "{err}");
}

#[test]
fn bad_input_gets_a_clear_error() {
    let o = fiveup(&["selfplay", "--players", "9"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("players must be 2 to 8, not 9"),
        "{}",
        stderr(&o)
    );
    let o = fiveup(&["selfplay", "--rules", "sideways"]);
    assert!(
        stderr(&o).contains("unknown rules preset"),
        "{}",
        stderr(&o)
    );
    let o = fiveup(&["selfplay", "--option", "spinner"]);
    assert!(stderr(&o).contains("key=value"), "{}", stderr(&o));
    let o = fiveup(&["selfplay", "--players", "3", "--partners"]);
    assert!(
        stderr(&o).contains("partnerships need 4 or 6 players"),
        "{}",
        stderr(&o)
    );
    let o = fiveup(&["replay", "/nonexistent/record.txt"]);
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
    let path = temp("garbage.txt");
    std::fs::write(&path, "this is not a record\n").unwrap();
    let o = fiveup(&["replay", path.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("line 1"), "{}", stderr(&o));
    let o = fiveup(&["bench", "--threads", "0"]);
    assert!(stderr(&o).contains("--threads must be at least 1"));
    // A commit window over 100 ms, or no threads for connections, is refused before the
    // database is touched.
    let db = temp("window.db");
    for (flag, value, message) in [
        (
            "--commit-window-us",
            "100001",
            "--commit-window-us must be from 0 to 100000",
        ),
        ("--workers", "0", "--workers must be at least 1"),
        (
            "--push-contact",
            "admin@example.com",
            "give a mailto: or https: URL",
        ),
        ("--fairplay-flag-z", "0.5", "a z-score from 1 to 10"),
        ("--fairplay-flag-z", "NaN", "a z-score from 1 to 10"),
        (
            "--fairplay-band-deviations",
            "3.5",
            "from 0 to 3 rating deviations",
        ),
    ] {
        let o = fiveup(&[
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--database",
            db.to_str().unwrap(),
            flag,
            value,
        ]);
        assert!(!o.status.success());
        assert!(stderr(&o).contains(message), "{}", stderr(&o));
        assert!(!db.exists(), "the database was created");
    }
}

#[test]
fn bench_json_has_the_documented_fields() {
    let o = fiveup(&["bench", "--hands", "20000", "--threads", "2", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    assert_eq!(v["hands"], 20000);
    assert_eq!(v["threads"], 2);
    assert!(v["seconds"].as_f64().unwrap() > 0.0);
    assert!(v["hands_per_sec"].as_f64().unwrap() > 0.0);
}

#[test]
fn match_json_has_the_documented_fields() {
    let o = fiveup(&[
        "match",
        "--a",
        "greedy",
        "--b",
        "random",
        "--deals",
        "40",
        "--threads",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    for key in [
        "deals",
        "mean_a",
        "mean_b",
        "mean_diff",
        "ci95",
        "ci95_low",
        "ci95_high",
        "hands_won_a",
        "hands_won_b",
        "decision_ms_median_a",
        "decision_ms_p99_a",
        "decision_ms_median_b",
        "decision_ms_p99_b",
        "decisions_a",
        "decisions_b",
        "a",
        "b",
        "players",
        "partners",
        "rules",
        "seed",
        "threads",
    ] {
        assert!(!v[key].is_null(), "missing {key} in {v}");
    }
    assert_eq!(v["deals"], 40);
    assert_eq!(v["hands"], 80);
    let deal_results: Vec<u64> = ["deals_won_a", "deals_won_b", "deals_drawn"]
        .iter()
        .map(|k| v[*k].as_u64().expect(k))
        .collect();
    assert_eq!(deal_results.iter().sum::<u64>(), 40);
    assert_eq!(
        (v["a"].as_str(), v["b"].as_str()),
        (Some("greedy"), Some("random"))
    );
    assert_eq!(
        (v["players"].as_u64(), v["partners"].as_bool()),
        (Some(2), Some(false))
    );
    assert!(v["games"].is_null(), "hands mode has no game fields");
    let (lo, hi) = (
        v["ci95_low"].as_f64().unwrap(),
        v["ci95_high"].as_f64().unwrap(),
    );
    assert!(lo < v["mean_diff"].as_f64().unwrap() && v["mean_diff"].as_f64().unwrap() < hi);

    // Whole games in partnerships: the same fields, and the game results.
    let o = fiveup(&[
        "match",
        "--a",
        "random",
        "--b",
        "greedy",
        "--players",
        "4",
        "--partners",
        "--games",
        "--deals",
        "3",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let g: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    assert_eq!(g["partners"], true);
    assert_eq!(g["games"], 6);
    assert_eq!(
        g["wins_a"].as_u64().unwrap() + g["wins_b"].as_u64().unwrap(),
        6
    );
    let ci = g["win_rate_ci95"].as_array().expect("[low, high]");
    assert!(ci[0].as_f64().unwrap() <= g["win_rate_a"].as_f64().unwrap());
    assert!(g["win_rate_a"].as_f64().unwrap() <= ci[1].as_f64().unwrap());
}

#[test]
fn match_text_summary_and_bad_input() {
    let o = fiveup(&[
        "match",
        "--a",
        "greedy",
        "--b",
        "greedy",
        "--deals",
        "5",
        "--players",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("5 deals x 3 seatings, 15 hands"), "{out}");
    assert!(out.contains("mean +0.00"), "{out}");
    for (args, message) in [
        (
            vec!["--a", "grandmaster", "--b", "greedy"],
            "unknown player",
        ),
        (
            vec!["--a", "greedy", "--b", "random:depth=2"],
            "takes no settings",
        ),
        (
            vec!["--a", "greedy", "--b", "random", "--rules", "sideways"],
            "unknown rules preset",
        ),
        (
            vec!["--a", "greedy", "--b", "random", "--deals", "0"],
            "--deals must be at least 1",
        ),
        (
            vec!["--a", "greedy", "--b", "random", "--threads", "0"],
            "--threads must be at least 1",
        ),
        (
            // Alone, --partners plays four seats; with a table it cannot split, an error.
            vec![
                "--a",
                "greedy",
                "--b",
                "random",
                "--partners",
                "--players",
                "3",
            ],
            "--partners needs --players 4 or 6",
        ),
        (
            vec![
                "--a",
                "greedy",
                "--b",
                "random",
                "--games",
                "--max-hands",
                "1",
            ],
            "had not ended after 1 hands",
        ),
    ] {
        let mut all = vec!["match"];
        all.extend(args.iter().copied());
        if !args.contains(&"--deals") {
            all.extend(["--deals", "2"]);
        }
        let o = fiveup(&all);
        assert!(!o.status.success(), "{all:?} succeeded");
        assert!(stderr(&o).contains(message), "{all:?}: {}", stderr(&o));
    }
}

#[test]
fn review_reports_every_decision_with_a_choice() {
    let path = temp("review.txt");
    let p = path.to_str().unwrap();
    let o = fiveup(&[
        "selfplay",
        "--games",
        "1",
        "--seed",
        "6",
        "--rules",
        "five-up target=50",
        "--record",
        p,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = fiveup(&["review", p, "--settings", "samples=10,threads=1", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("JSON");
    let moves = v.as_array().expect("an array");
    assert!(!moves.is_empty());
    for m in moves {
        assert!(m["loss"].as_f64().unwrap() >= 0.0);
        assert!(m["options"].as_u64().unwrap() >= 2);
    }
    let o = fiveup(&["review", p, "--settings", "depth=3"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("unknown setting"), "{}", stderr(&o));
}

#[test]
fn rate_plays_a_round_robin_and_rates_it() {
    let o = fiveup(&["rate", "beginner", "casual", "club", "--deals", "30"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // Three pairs, then a rating per player, the first as the anchor.
    assert_eq!(out.matches("| `beginner` | `").count(), 2, "{out}");
    assert!(out.contains("| `beginner` | 1000 (anchor) |"), "{out}");
    let elo = |name: &str| -> f64 {
        let line = out
            .lines()
            .find(|l| {
                l.starts_with(&format!("| `{name}` | "))
                    && l.contains(" (")
                    && l.matches('|').count() == 3
            })
            .unwrap_or_else(|| panic!("no rating for {name} in {out}"));
        line.split('|')
            .nth(2)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(
        elo("casual") > elo("beginner") && elo("club") > elo("casual"),
        "{out}"
    );
    // Bad input changes nothing and says what is wrong.
    let o = fiveup(&["rate", "club"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("at least two players"),
        "{}",
        stderr(&o)
    );
    let o = fiveup(&["rate", "club", "grandmaster", "--deals", "5"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("grandmaster"), "{}", stderr(&o));
}

/// Every command that takes `--rules` plays the table its rules string names; `--players` is
/// shorthand for the same option, and the two giving different numbers is an error.
#[test]
fn every_command_plays_the_players_its_rules_string_names() {
    // selfplay: its summary names the rules played.
    for (rules, n) in [
        ("five-up players=3", 3),
        ("party-twelve", 5),
        ("party-twelve players=8", 8),
        ("cross players=6", 6),
    ] {
        let o = fiveup(&["selfplay", "--games", "2", "--quiet", "--rules", rules]);
        assert!(o.status.success(), "{rules}: {}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!("players={n} ")),
            "{rules}: {}",
            stdout(&o)
        );
    }
    // --players agrees with the rules, or stands in for them.
    let o = fiveup(&[
        "selfplay",
        "--quiet",
        "--players",
        "3",
        "--rules",
        "muggins",
    ]);
    assert!(stdout(&o).contains("players=3 "), "{}", stdout(&o));
    let o = fiveup(&[
        "selfplay",
        "--quiet",
        "--players",
        "3",
        "--rules",
        "muggins players=3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The error names the flag that gave the other number.
    for (cmd, flag) in [
        (&["selfplay", "--players", "2"][..], "--players is 2"),
        (
            &["match", "--a", "greedy", "--b", "random", "--players", "2"][..],
            "--players is 2",
        ),
        (
            &["rate", "random", "greedy", "--seats", "2"][..],
            "--seats is 2",
        ),
        (
            &["play", "--plain", "--seats", "human,club"][..],
            "--seats names 2 seats",
        ),
    ] {
        let mut args = cmd.to_vec();
        args.extend(["--rules", "five-up players=3"]);
        let o = fiveup(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(
            stderr(&o).contains(&format!("the rules say players=3 but {flag}")),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    // An option given twice with two values, and a table the preset is not for, are refused.
    for (rules, want) in [
        (
            "five-up target=150 target=300",
            "option target is given twice (target=150, then target=300)",
        ),
        (
            "party-twelve players=2",
            "party-twelve is a game for 5 to 8 players, not 2",
        ),
    ] {
        let o = fiveup(&["selfplay", "--quiet", "--rules", rules]);
        assert!(!o.status.success(), "{rules}: {}", stdout(&o));
        assert!(stderr(&o).contains(want), "{rules}: {}", stderr(&o));
    }
    // match and rate: the JSON and the summary name the table played.
    let o = fiveup(&[
        "match",
        "--a",
        "greedy",
        "--b",
        "random",
        "--deals",
        "3",
        "--rules",
        "five-up players=3",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    assert_eq!(v["players"], 3, "{v}");
    let o = fiveup(&[
        "rate",
        "random",
        "greedy",
        "--deals",
        "3",
        "--rules",
        "muggins players=4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("players=4 "), "{}", stdout(&o));
    // bench: the rules it reports.
    let o = fiveup(&[
        "bench",
        "--hands",
        "200",
        "--threads",
        "1",
        "--rules",
        "party-twelve players=7",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("players=7 "), "{}", stdout(&o));
    // play: the saved record names the table.
    let path = temp("three.txt");
    let o = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["play", "--plain", "--seed", "4", "--level", "greedy"])
        .args(["--seats", "greedy,greedy,greedy"])
        .args(["--rules", "muggins players=3 target=50"])
        .args(["--save", path.to_str().expect("utf-8 path")])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the fiveup binary runs");
    assert!(o.status.success(), "{}", stderr(&o));
    let record = std::fs::read_to_string(&path).expect("the record");
    assert!(record.contains("players=3 "), "{record}");
}

#[test]
fn option_mixes_that_never_end_are_refused_before_play() {
    for (cmd, mix) in [
        ("selfplay", "five-up exact-target=true target=52"),
        ("selfplay", "draw award=subtract-own"),
        ("match", "five-up exact-target=true target=61"),
    ] {
        let mut args = vec![cmd, "--rules", mix];
        if cmd == "match" {
            args.extend(["--a", "greedy", "--b", "random"]);
        }
        let o = fiveup(&args);
        assert!(!o.status.success(), "{mix}");
        assert!(
            stderr(&o).contains("can never end"),
            "{mix}: {}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty(), "{mix}: nothing is played");
    }
    // A mix whose scores may fall ends by its hand limit (50 hands unless one is given).
    let o = fiveup(&[
        "selfplay",
        "--games",
        "3",
        "--rules",
        "block players=4 award=subtract-own play-scoring=fives",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for line in stdout(&o).lines().filter(|l| l.starts_with("game ")) {
        let hands: u32 = line
            .rsplit(", ")
            .next()
            .and_then(|h| h.strip_suffix(" hands"))
            .and_then(|h| h.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(hands <= 50, "{line}");
    }
}

#[test]
fn selfplay_refuses_an_unwritable_record_before_the_first_game() {
    let o = fiveup(&[
        "selfplay",
        "--games",
        "1000000",
        "--record",
        "/nonexistent-dir/games.txt",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot write /nonexistent-dir/games.txt"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty(), "no game was played: {}", stdout(&o));
}

/// The party game lasts several hands (its target was below one hand's award before).
#[test]
fn a_party_game_lasts_several_hands() {
    for n in ["5", "6", "8"] {
        let rules = format!("party-twelve players={n}");
        let o = fiveup(&[
            "match", "--a", "club", "--b", "club", "--games", "--deals", "8", "--rules", &rules,
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("JSON");
        let per_game = v["hands"].as_f64().unwrap() / v["games"].as_f64().unwrap();
        println!("party-twelve, {n} players: {per_game:.2} hands a game");
        assert!(per_game >= 3.0, "{n} players: {per_game} hands a game");
    }
}

/// `fiveup tournament` with short games between the quick players.
fn tournament(format: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "tournament",
        "--format",
        format,
        "--rules",
        "five-up target=50",
        "--seed",
        "5",
    ];
    args.extend_from_slice(extra);
    fiveup(&args)
}

/// The standings of a `--json` run.
fn standings_of(o: &Output) -> Vec<serde_json::Value> {
    assert!(o.status.success(), "tournament failed: {}", stderr(o));
    let v: serde_json::Value = serde_json::from_str(stdout(o).trim()).expect("JSON output");
    v["standings"].as_array().cloned().expect("standings")
}

#[test]
fn tournament_swiss_is_deterministic_and_scores_every_match() {
    let args = [
        "--entrants",
        "random,greedy,random,greedy,random",
        "--rounds",
        "3",
    ];
    let a = tournament("swiss", &args);
    let b = tournament("swiss", &args);
    assert!(a.status.success(), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&b), "same seed, same event");
    let text = stdout(&a);
    assert!(text.starts_with("Swiss, 3 rounds, 5 entrants"), "{text}");
    assert_eq!(text.matches(" bye").count(), 3, "one bye a round: {text}");
    assert!(
        text.contains("Buchholz") && text.contains("Sonneborn-Berger"),
        "{text}"
    );
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let rows = standings_of(&tournament("swiss", &json_args));
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0]["rank"], 1);
    // Two matches a round score 1 each, the bye half a point: 3 rounds make 7.5.
    let total: f64 = rows
        .iter()
        .map(|r| r["points"].as_f64().unwrap_or(0.0))
        .sum();
    assert!((total - 7.5).abs() < 1e-9, "{rows:?}");
}

#[test]
fn tournament_knockouts_print_their_brackets() {
    let o = tournament(
        "knockout",
        &["--entrants", "greedy,random,random,random,random,random"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // Six entrants in a bracket of eight: seeds 1 and 2 (greedy is seed 1) have byes.
    assert!(text.contains("(1) greedy through (bye)"), "{text}");
    assert!(text.contains("Champion: "), "{text}");
    let rows = standings_of(&tournament(
        "knockout",
        &[
            "--entrants",
            "greedy,random,random,random,random,random",
            "--json",
        ],
    ));
    assert_eq!(rows.len(), 6);
    let played: u64 = rows
        .iter()
        .map(|r| r["record"]["played"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(played, 2 * 5, "five matches, two entrants each");

    let o = tournament(
        "double",
        &[
            "--entrants",
            "random,greedy,random,greedy",
            "--best-of",
            "3",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("Losers' round 1") && text.contains("Grand final"),
        "{text}"
    );
    let rows = standings_of(&tournament(
        "double",
        &[
            "--entrants",
            "random,greedy,random,greedy",
            "--best-of",
            "3",
            "--json",
        ],
    ));
    let lost: u64 = rows
        .iter()
        .map(|r| r["record"]["lost"].as_u64().unwrap_or(0))
        .sum();
    // Every entrant but the champion loses twice; the champion at most once.
    assert!(lost == 6 || lost == 7, "{rows:?}");
}

#[test]
fn tournament_round_robin_arena_duplicate_and_cutthroat_run() {
    let rows = standings_of(&tournament(
        "roundrobin",
        &[
            "--entrants",
            "random,greedy,club,random",
            "--twice",
            "--json",
        ],
    ));
    // A double round robin of four: each plays the three others twice.
    assert!(rows.iter().all(|r| r["record"]["played"] == 6), "{rows:?}");

    let o = tournament("arena", &["--field", "4", "--minutes", "30", "--streaks"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("Arena, 30 minutes, streaks"),
        "{}",
        stdout(&o)
    );
    let rows = standings_of(&tournament(
        "arena",
        &[
            "--entrants",
            "random,greedy,random",
            "--minutes",
            "20",
            "--json",
        ],
    ));
    assert_eq!(rows.len(), 3);

    let o = tournament(
        "duplicate",
        &["--entrants", "random,greedy,club", "--boards", "3"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches("\nBoard ").count(), 3, "{}", stdout(&o));
    let rows = standings_of(&tournament(
        "duplicate",
        &[
            "--entrants",
            "random,greedy,club",
            "--boards",
            "3",
            "--json",
        ],
    ));
    // Matchpoint percentages average 50 over the field (each is reported to a millionth, so
    // the mean of the reported figures is 50 within that).
    let mean: f64 = rows
        .iter()
        .map(|r| r["points"].as_f64().unwrap_or(0.0))
        .sum::<f64>()
        / 3.0;
    assert!((mean - 50.0).abs() <= 1e-6, "{rows:?}");

    let o = tournament(
        "cutthroat",
        &["--field", "7", "--seats", "3-4", "--rounds", "2"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(
        text.matches("  table ").count(),
        4,
        "two tables a round: {text}"
    );

    let o = tournament("swiss", &["--field", "4", "--partners", "--rounds", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("beginner+beginner"), "{}", stdout(&o));
}

#[test]
fn tournament_bad_input_gets_a_clear_error() {
    for (args, says) in [
        (vec!["--entrants", "random,oracle"], "cannot enter"),
        (vec!["--entrants", "random"], "at least two entrants"),
        (
            vec!["--entrants", "random,greedy", "--best-of", "0"],
            "best of 0",
        ),
        (vec![], "--entrants LIST or --field N"),
        (vec!["--entrants", "random+greedy,club"], "--partners"),
    ] {
        let o = tournament("swiss", &args);
        assert!(!o.status.success(), "{args:?} should fail");
        assert!(stdout(&o).is_empty(), "nothing printed for {args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    let o = tournament("cutthroat", &["--field", "5", "--seats", "3-4"]);
    assert!(stderr(&o).contains("cannot be seated"), "{}", stderr(&o));
    let o = tournament("cutthroat", &["--field", "6", "--seats", "three"]);
    assert!(stderr(&o).contains("MIN-MAX"), "{}", stderr(&o));
    let o = tournament("cutthroat", &["--field", "6", "--partners"]);
    assert!(
        stderr(&o).contains("--partners does not apply to --format cutthroat"),
        "{}",
        stderr(&o)
    );
    // An option of another format is refused, not ignored.
    for (format, args) in [
        ("knockout", ["--rounds", "3"]),
        ("swiss", ["--minutes", "5"]),
        ("duplicate", ["--best-of", "3"]),
        ("arena", ["--seats", "3-4"]),
    ] {
        let mut all = vec!["--field", "4"];
        all.extend(args);
        let o = tournament(format, &all);
        assert!(
            !o.status.success() && stdout(&o).is_empty(),
            "{format} {args:?}"
        );
        assert!(stderr(&o).contains("does not apply"), "{}", stderr(&o));
    }
    // An even best-of could leave a knockout match level: refused, as the server refuses it.
    for format in ["knockout", "double"] {
        let o = tournament(format, &["--field", "4", "--best-of", "2"]);
        assert!(!o.status.success() && stdout(&o).is_empty(), "{format}");
        assert!(stderr(&o).contains("odd number of games"), "{}", stderr(&o));
    }
    let o = tournament("duplicate", &["--field", "3", "--house", "nobody"]);
    assert!(
        !o.status.success() && stderr(&o).contains("--house"),
        "{}",
        stderr(&o)
    );
}

/// `fiveup rules` lists every preset with its rules in full and every option, as text and as
/// JSON; with a spec it writes that spec out, which the rules read back; a bad spec is an error.
#[test]
fn rules_lists_the_presets_and_options() {
    let o = fiveup(&["rules"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for p in fiveup_engine::Preset::ALL {
        assert!(text.contains(p.name()), "{p}");
    }
    assert!(text.contains("manual") && text.contains("muggins-call"));
    let o = fiveup(&["rules", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let presets = v["presets"].as_array().unwrap();
    assert_eq!(presets.len(), fiveup_engine::Preset::ALL.len());
    for p in presets {
        let rules = fiveup_engine::Rules::parse(p["options"].as_str().unwrap()).unwrap();
        assert_eq!(rules.players, p["players"][0].as_u64().unwrap() as u8);
    }
    assert!(v["options"].as_array().unwrap().len() >= 25);
    let o = fiveup(&["rules", "party-twelve players=6", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["fields"]["players"], 6);
    assert_eq!(v["fields"]["manual_scoring"], true);
    let o = fiveup(&["rules", "five-up players=9"]);
    assert!(!o.status.success());
}
