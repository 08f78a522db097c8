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
fn six_computers_play_a_whole_party_twelve_game_unattended() {
    // JSON: the text notation reads seat tags S0 to S3 only (an engine defect, reported).
    let path = temp("party.json");
    let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["play", "--plain", "--seed", "5"])
        .args(["--seats", "club,club,club,club,club,club"])
        .args(["--rules", "party-twelve players=6"])
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
    // Six seats with six distinct names, two-digit pips, and a finished game that replays to
    // the same score.
    for name in [
        "South",
        "Southwest",
        "Northwest",
        "North",
        "Northeast",
        "Southeast",
    ] {
        assert!(text.contains(&format!("{name} ")), "{name}: {text}");
    }
    assert!(text.contains("12-"), "double-twelve tiles: {text}");
    let scores = final_scores(&text);
    assert_eq!(scores.len(), 6, "six individual scores");
    assert_eq!(scores, replayed_scores(&path));
    let record =
        Record::from_json(&std::fs::read_to_string(&path).expect("saved")).expect("a record");
    assert_eq!(record.rules.set, 12);
    assert_eq!(record.rules.players, 6);
}

#[test]
fn bad_flags_get_clear_errors() {
    for (args, expect) in [
        (vec!["--seats", "human,human"], "at most one seat"),
        (vec!["--players", "9"], "2 to 8"),
        (vec!["--set", "7"], "set"),
        (
            vec!["--players", "5", "--option", "partnerships=true"],
            "partnerships=false",
        ),
        (
            vec!["--rules", "cross-dominoes spinner=none"],
            "spinner=first",
        ),
        (vec!["--seats", "club"], "players"),
        (
            vec!["--players", "3", "--seats", "club,club"],
            "--seats names 2",
        ),
        (vec!["--level", "grandmaster"], "unknown player"),
        (
            vec!["--seats", "human,club", "--rules", "five-up players=3"],
            "the rules say players=3 but --seats names 2 seats",
        ),
        (
            vec!["--rules", "five-up target=150", "--target", "300"],
            "option target is given twice (target=150, then target=300)",
        ),
        (
            vec!["--rules", "party-twelve players=2"],
            "party-twelve is a game for 5 to 8 players, not 2",
        ),
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

#[test]
fn an_unwritable_save_path_is_refused_before_the_game() {
    for mode in [&["--plain"][..], &[][..]] {
        let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
            .arg("play")
            .args(mode)
            .args(["--save", "/nonexistent/dir/x.txt", "--seed", "1"])
            .stdin(Stdio::null())
            .output()
            .expect("the fiveup binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{mode:?} accepted the path");
        assert!(
            err.contains("cannot save the record to /nonexistent/dir/x.txt"),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "no game was played");
    }
    // A directory is not a file name either.
    let dir = temp("");
    let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args([
            "play",
            "--plain",
            "--save",
            dir.to_str().expect("utf-8 path"),
        ])
        .stdin(Stdio::null())
        .output()
        .expect("the fiveup binary runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a directory"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_in_plain_mode_saves_the_record() {
    let path = temp("interrupted.txt");
    let _ = std::fs::remove_file(&path);
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
    let mut plays = 0;
    let mut transcript = String::new();
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).expect("output") == 0 {
            panic!("the game ended early:\n{transcript}");
        }
        transcript.push_str(&line);
        if let Some(legal) = line.strip_prefix("Legal: ") {
            if plays == 2 {
                break;
            }
            plays += 1;
            let pick = legal.split_whitespace().next().expect("an action");
            let cmd = match pick {
                "D" => "draw",
                "P" => "pass",
                t => t,
            };
            writeln!(input, "{cmd}").expect("input");
            input.flush().expect("flush");
        }
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    // The program must end by itself within a few seconds; never hang the test run.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("Ctrl-C did not end the game:\n{transcript}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut output, &mut rest).expect("output");
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut rest)
        .expect("errors");
    assert_eq!(status.code(), Some(130), "{transcript}{rest}");
    assert!(rest.contains("Interrupted: record saved"), "{rest}");
    let text = std::fs::read_to_string(&path).expect("the record was saved");
    let record = Record::parse(&text).expect("a text record");
    assert!(record.replay().is_ok());
    assert_eq!(record.seats, vec!["You".to_string(), "North".to_string()]);
    assert!(
        !record.hands[0].moves.is_empty(),
        "the actions so far are kept"
    );
}

#[test]
fn replay_names_seats_as_the_game_does_and_lines_up_its_columns() {
    let path = temp("named.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["play", "--plain", "--seats", "club,greedy", "--seed", "3"])
        .args(["--save", path.to_str().expect("utf-8 path")])
        .stdin(Stdio::null())
        .output()
        .expect("the fiveup binary runs");
    assert!(out.status.success());
    let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["replay", path.to_str().expect("utf-8 path")])
        .output()
        .expect("the fiveup binary runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("S0") && !text.contains("side 1"), "{text}");
    assert!(
        text.contains("players: South: club, North: greedy"),
        "{text}"
    );
    let last = text
        .lines()
        .find(|l| l.starts_with("Game over: "))
        .expect("the result");
    assert!(last.contains("final score South "), "{last}");
    // Every action line has its count column in the same place.
    let at: Vec<usize> = text
        .lines()
        .filter(|l| l.contains("  count "))
        .map(|l| l.find("  count ").expect("a count"))
        .collect();
    assert!(at.len() > 20);
    assert!(at.iter().all(|&c| c == at[0]), "{text}");
}

#[test]
fn every_level_is_played_as_named_in_plain_mode() {
    for level in [
        "beginner", "casual", "club", "strong", "master", "random", "greedy", "pimc", "expert",
        "oracle",
    ] {
        let path = temp(&format!("level-{level}.txt"));
        let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
            .args(["play", "--plain", "--players", "4", "--level", level])
            .args(["--rules", "cross", "--seed", "7"])
            .args(["--save", path.to_str().expect("utf-8 path")])
            .stdin(Stdio::null())
            .output()
            .expect("the fiveup binary runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let players = format!("You: human, West: {level}, North: {level}, East: {level}");
        assert!(text.contains(&players), "{level}:\n{text}");
        let record =
            Record::parse(&std::fs::read_to_string(&path).expect("saved")).expect("a record");
        assert_eq!(
            record.tags.get("Players"),
            Some(&players),
            "{level}: the record names it"
        );
    }
}

#[test]
fn ctrl_c_in_plain_mode_without_save_says_nothing_was_saved() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["play", "--plain", "--seed", "17", "--level", "greedy"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fiveup binary runs");
    let _input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let mut transcript = String::new();
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).expect("output") == 0 {
            panic!("the game ended early:\n{transcript}");
        }
        transcript.push_str(&line);
        if line.starts_with("Legal: ") {
            break;
        }
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("Ctrl-C did not end the game:\n{transcript}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut rest)
        .expect("errors");
    assert_eq!(status.code(), Some(130), "{transcript}{rest}");
    assert!(
        rest.contains("Interrupted: the game was not saved (--save FILE keeps the record)."),
        "{rest}"
    );
}

#[test]
fn replays_speak_of_you_in_good_english() {
    use fiveup_engine::{HandEnd, Phase, Seat};
    use fiveup_tui::game::{Game, SeatKind, Setup};
    // A game where You go out in the first hand: your first legal action each turn.
    let game = (1..200)
        .find_map(|seed| {
            let mut setup = Setup::new(seed);
            setup.seats = vec![SeatKind::Human, SeatKind::Computer("random".into())];
            let mut g = Game::new(setup).expect("a game");
            while g.phase() == Phase::Play || g.phase() == Phase::Claim {
                if g.computer_to_act() {
                    g.computer_step().expect("a move");
                } else {
                    let a = g.view().legal_actions()[0];
                    g.act(a).expect("legal");
                }
            }
            let out = matches!(
                g.result().map(|r| r.end),
                Some(HandEnd::Domino { seat: Seat(0) })
            );
            out.then_some(g)
        })
        .expect("a seed where you go out");
    let mut game = game;
    let path = temp("you.txt");
    game.save(&path).expect("saved");
    let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["replay", path.to_str().expect("utf-8 path")])
        .output()
        .expect("the fiveup binary runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("You go out;"), "{text}");
    assert!(!text.contains("You goes"), "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args([
            "play",
            "--plain",
            "--replay",
            path.to_str().expect("utf-8 path"),
        ])
        .output()
        .expect("the fiveup binary runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("  You hold "), "{text}");
    assert!(!text.contains("You holds"), "{text}");
    assert!(!text.contains(" 1 pips"), "{text}");
}

#[test]
fn next_after_the_game_is_over_says_the_game_is_over() {
    // Computers play the game out; then `next` is typed.
    let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["play", "--plain", "--seats", "human,random", "--seed", "5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fiveup binary runs");
    let mut child = out;
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let mut transcript = String::new();
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).expect("output") == 0 {
            break;
        }
        transcript.push_str(&line);
        if line.starts_with("Final score: ") {
            writeln!(input, "next").expect("input");
            writeln!(input, "quit").expect("input");
            input.flush().expect("flush");
        } else if line.starts_with("Hand over. Type next") {
            writeln!(input, "next").expect("input");
            input.flush().expect("flush");
        } else if let Some(legal) = line.strip_prefix("Legal: ") {
            let pick = legal.split_whitespace().next().expect("an action");
            let cmd = match pick {
                "D" => "draw".to_string(),
                "P" => "pass".to_string(),
                t => t.to_string(),
            };
            writeln!(input, "{cmd}").expect("input");
            input.flush().expect("flush");
        }
    }
    let _ = child.wait();
    assert!(
        transcript.contains("Cannot: the game is over: there is no next hand."),
        "{transcript}"
    );
    assert!(!transcript.contains("the hand is not over"), "{transcript}");
}

#[test]
fn review_verdicts_do_not_depend_on_the_threads() {
    let path = temp("reviewed.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["play", "--plain", "--seats", "random,greedy", "--seed", "4"])
        .args(["--rules", "five-up target=100"])
        .args(["--save", path.to_str().expect("utf-8 path")])
        .stdin(Stdio::null())
        .output()
        .expect("the fiveup binary runs");
    assert!(out.status.success());
    let review = |threads: u32| {
        let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
            .args(["review", path.to_str().expect("utf-8 path")])
            .args(["--settings", &format!("samples=40,threads={threads}")])
            .args(["--seed", "1", "--json"])
            .output()
            .expect("the fiveup binary runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let one = review(1);
    assert!(one.contains("\"best_value\""), "{one}");
    for threads in [2, 3] {
        // The settings echoed in the output name the threads; the verdicts must not differ.
        let other = review(threads).replace(&format!("threads={threads}"), "threads=1");
        assert_eq!(other, one, "{threads} threads");
    }
}
