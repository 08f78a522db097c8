//! `fiveup play --plain` end to end: a whole game typed on standard input, and a whole game of
//! computers, each checked against its saved record replayed by the engine.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use fiveup_engine::notation::Record;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fiveup-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// `Final score: You 120, North 250. Winner: North.` -> [120, 250]
fn final_scores(out: &str) -> Vec<i32> {
    let line = out
        .lines()
        .find(|l| l.starts_with("Final score: "))
        .unwrap_or_else(|| panic!("no final score in:\n{out}"));
    let body = line["Final score: ".len()..]
        .split(". Winner")
        .next()
        .expect("scores");
    body.split(", ")
        .map(|s| {
            s.rsplit(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("bad score in {line:?}"))
        })
        .collect()
}

fn replayed_scores(path: &PathBuf) -> Vec<i32> {
    let text = std::fs::read_to_string(path).expect("the record was saved");
    let record = if text.trim_start().starts_with('{') {
        Record::from_json(&text).expect("a JSON record")
    } else {
        Record::parse(&text).expect("a text record")
    };
    let game = record.replay().expect("the record replays");
    assert!(game.winner.is_some(), "the saved game is finished");
    game.scores
}

#[test]
fn a_whole_game_typed_on_standard_input_matches_its_record() {
    let path = temp("typed.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["play", "--plain", "--seed", "17", "--level", "greedy"])
        .args(["--save", path.to_str().expect("utf-8 path")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fiveup binary runs");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let mut transcript = String::new();
    let mut asked = false;
    let mut moves = 0;
    // Prompts still to come for lines already sent (every line read prompts again).
    let mut pending = 0usize;
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).expect("output") == 0 {
            break;
        }
        transcript.push_str(&line);
        let reply = if let Some(legal) = line.strip_prefix("Legal: ") {
            if pending > 0 {
                pending -= 1;
                continue;
            }
            moves += 1;
            if asked {
                // A play if there is one (in record notation, as typed), else draw or pass.
                let tokens: Vec<&str> = legal.split_whitespace().collect();
                let play = tokens.iter().find(|t| t.contains('-')).copied();
                let pick = play.unwrap_or(tokens[0]);
                match pick {
                    "D" => "draw".to_string(),
                    "P" => "pass".to_string(),
                    t => t.to_string(),
                }
            } else {
                asked = true;
                "help\nhand\nends\ncount\nscores\ntiles\nboard\nplay 9-9\npass\nnonsense"
                    .to_string()
            }
        } else if line.starts_with("Hand over. Type next") {
            "next".to_string()
        } else if line.starts_with("Game over. Type again") {
            "quit".to_string()
        } else {
            continue;
        };
        pending = reply.lines().count() - 1;
        writeln!(input, "{reply}").expect("input");
        input.flush().expect("flush");
    }
    drop(input);
    let status = child.wait().expect("exit");
    assert!(status.success(), "{transcript}");
    assert!(moves > 10, "{transcript}");
    for expected in [
        "Commands:",
        "Your hand:",
        "Open ends:",
        "The count is",
        "Scores: You",
        "Tiles: You",
        "Not allowed",
        "Unknown command \"nonsense\"",
        "Game over:",
    ] {
        assert!(
            transcript.contains(expected),
            "missing {expected:?} in:\n{transcript}"
        );
    }
    assert!(transcript.contains("not a tile: \"9-9\""), "{transcript}");
    assert_eq!(
        final_scores(&transcript),
        replayed_scores(&path),
        "{transcript}"
    );
}

#[test]
fn computers_play_a_whole_game_unattended_and_the_record_agrees() {
    let path = temp("unattended.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["play", "--plain", "--seats", "club,expert", "--seed", "3"])
        .args(["--save", path.to_str().expect("utf-8 path")])
        .stdin(Stdio::null())
        .output()
        .expect("the fiveup binary runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(" led "), "the log is printed: {text}");
    assert_eq!(final_scores(&text), replayed_scores(&path));
    // The plain replay of the saved record ends with the same score.
    let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args([
            "play",
            "--plain",
            "--replay",
            path.to_str().expect("utf-8 path"),
        ])
        .output()
        .expect("the fiveup binary runs");
    let replay = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{replay}");
    assert_eq!(final_scores(&replay), replayed_scores(&path));
}

#[test]
fn bad_flags_get_clear_errors() {
    for (args, expect) in [
        (vec!["--seats", "human,human"], "at most one seat"),
        (vec!["--players", "5"], "2, 3 or 4"),
        (vec!["--seats", "club"], "players"),
        (
            vec!["--players", "3", "--seats", "club,club"],
            "--seats names 2",
        ),
        (vec!["--level", "grandmaster"], "unknown player"),
        (vec!["--rules", "nonsense"], "preset"),
        (vec!["--option", "spinner"], "key=value"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
            .arg("play")
            .arg("--plain")
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("the fiveup binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} was accepted");
        assert!(err.contains(expect), "{args:?}: {err}");
    }
}
