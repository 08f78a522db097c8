//! `fiveup connect`: a bot account's bridge, running `fiveup engine greedy` as its outside
//! engine, plays a rated challenge against a person (through a server restart in the middle of
//! the game: the bridge reconnects and the game finishes) and an open seat against a server
//! computer player, then stops (`--max-games 2`).

#[path = "../../server/tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{
    challenge_bot, config, connect, free_port, get, make_bot, play_out, play_until, post,
    session_of, tls_proxy, Client, Proc,
};
use fiveup_protocol::EventView;
use serde_json::{json, Value};

async fn register(addr: SocketAddr, name: &str) -> String {
    let r = post(
        addr,
        "/api/register",
        None,
        &json!({"username": name, "password": "correct horse"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    session_of(&r)
}

fn actions(c: &Client) -> usize {
    c.events
        .iter()
        .filter(|(_, e)| matches!(e, EventView::Action { .. }))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_plays_rated_bot_games_through_a_server_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("connect.db").display().to_string();
    let port = free_port();
    let mut cfg = config(&db);
    cfg.bind = format!("127.0.0.1:{port}").parse().unwrap();
    let server = fiveup_server::start(cfg.clone()).await.unwrap();
    let addr = server.local_addr();

    let ann = register(addr, "annconnect").await;
    let s = post(
        addr,
        "/api/bots/settings",
        Some(&ann),
        &json!({"rated": true}),
    )
    .await;
    assert_eq!(s.status, 200, "{}", s.body);
    let (token, bot_id) = make_bot(addr, &ann, "greedybot").await;
    // A challenge from Ann, and an open seat at a table of a server computer player.
    let rated_table = challenge_bot(addr, &ann, bot_id).await;
    let t: Value = post(
        addr,
        "/api/tables",
        Some(&ann),
        &json!({"rules": "five-up target=50", "seats": [{"kind": "bot", "level": "greedy"}, {"kind": "open"}]}),
    )
    .await
    .json();
    let computer_table = t["id"].as_str().unwrap().to_string();

    let bin = env!("CARGO_BIN_EXE_fiveup");
    let mut child = Command::new(bin)
        .args([
            "connect",
            "--server",
            &format!("http://{addr}"),
            "--games",
            "1",
            "--open",
            "--max-games",
            "2",
            "--poll",
            "0.2",
            "--rules",
            "five-up target=50",
            "--",
            bin,
            "engine",
            "greedy",
        ])
        .env("FIVEUP_BOT_TOKEN", &token)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fiveup connect starts");
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let err = child.stderr.take().unwrap();
    let l2 = log.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            l2.lock().unwrap().push(line);
        }
    });
    let mut bridge = Proc(child);

    // Ann plays until both sides have moved a few times; then the server restarts.
    let mut a = connect(addr, Some(&ann)).await;
    a.open(&rated_table, None).await;
    let mut clients = [a];
    play_until(&mut clients, 2000, |cs| actions(&cs[0]) >= 6).await;
    let [a] = clients;
    let since = a.view.as_ref().unwrap().table.version;
    drop(a);
    server.shutdown().await;
    let server = fiveup_server::start(cfg).await.unwrap();
    assert_eq!(server.local_addr(), addr);
    let mut a = connect(addr, Some(&ann)).await;
    a.open(&rated_table, Some(since)).await;
    let mut clients = [a];
    play_out(&mut clients, 2000).await;

    // The bridge then takes the open seat, plays the computer player and stops.
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = bridge.0.try_wait().unwrap() {
            break s;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "the bridge did not finish: {:#?}",
            log.lock().unwrap()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let log = log.lock().unwrap().join("\n");
    assert!(status.success(), "{log}");
    assert!(log.contains("reconnect"), "{log}");
    assert!(
        log.contains(&format!("table {rated_table}: game over")),
        "{log}"
    );
    assert!(
        log.contains(&format!("table {computer_table}: game over")),
        "{log}"
    );
    // The engine made the moves (its fallback only where it failed one).
    assert!(!log.contains("playing the first legal action"), "{log}");
    assert!(
        log.contains(" engine decisions") && !log.contains(" 0 engine decisions"),
        "{log}"
    );

    // Both games are stored; the first was rated for the bot and for Ann.
    let bots: Value = get(addr, "/api/bots", None).await.json();
    let entry = &bots[0];
    assert_eq!(entry["user"]["id"], json!(bot_id));
    assert_eq!(entry["games"], json!(2));
    assert_ne!(entry["rating"], json!(1500.0));
    let ids: Vec<&str> = entry["recent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&rated_table.as_str()) && ids.contains(&computer_table.as_str()));
    let me: Value = get(addr, "/api/me", Some(&ann)).await.json();
    let prof: Value = get(addr, &format!("/api/users/{}", me["user"]["id"]), None)
        .await
        .json();
    assert_ne!(prof["rating"]["rating"], json!(1500.0), "{prof}");
    server.shutdown().await;
}

/// Bad input is refused with a clear error before anything starts; a revoked token stops the
/// bridge with an error.
fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_options_and_a_revoked_token_are_refused() {
    let bin = env!("CARGO_BIN_EXE_fiveup");
    let run = |args: &[&str], token: &str| {
        let out = Command::new(bin)
            .arg("connect")
            .args(args)
            .env("FIVEUP_BOT_TOKEN", token)
            .output()
            .expect("fiveup connect runs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let good = format!("fub_{}", "0".repeat(64));
    let engine = [bin, "engine", "greedy"];
    let with = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["--server", "http://127.0.0.1:1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v.push("--".into());
        v.extend(engine.iter().map(|s| s.to_string()));
        v
    };
    let (ok, err) = run(&args(&with(&[])), "not-a-token");
    assert!(!ok && err.contains("fub_ and 64 hex digits"), "{err}");
    let (ok, err) = run(&args(&with(&["--rules", "five-up players=9"])), &good);
    assert!(!ok && err.contains("--rules"), "{err}");
    let (ok, err) = run(&args(&with(&["--games", "0"])), &good);
    assert!(!ok && err.contains("--games"), "{err}");
    let (ok, err) = run(&["--server", "http://127.0.0.1:1"], &good);
    assert!(!ok && err.contains("COMMAND"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("revoked.db").display().to_string();
    let server = fiveup_server::start(config(&db)).await.unwrap();
    let addr = server.local_addr();
    let ann = register(addr, "annrevokes").await;
    let made: Value = post(
        addr,
        "/api/bots",
        Some(&ann),
        &json!({"name": "revokedbot"}),
    )
    .await
    .json();
    let token = made["token"].as_str().unwrap().to_string();
    let tid = made["token_id"].as_i64().unwrap();
    let r = post(
        addr,
        &format!("/api/bots/tokens/{tid}/revoke"),
        Some(&ann),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 204);
    let server_url = format!("http://{addr}");
    let (ok, err) = tokio::task::spawn_blocking(move || {
        let out = Command::new(bin)
            .args([
                "connect",
                "--server",
                &server_url,
                "--",
                bin,
                "engine",
                "greedy",
            ])
            .env("FIVEUP_BOT_TOKEN", &token)
            .output()
            .expect("fiveup connect runs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    })
    .await
    .unwrap();
    assert!(!ok && err.contains("refused the bot token"), "{err}");
    server.shutdown().await;
}

/// The bridge reaches a server behind a TLS proxy (`https://`, the deployment's HAProxy
/// configuration): it refuses a certificate it cannot check, and with `--ca` trusting the
/// proxy's own certificate it plays a whole game over HTTPS and a secure websocket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_plays_through_a_tls_proxy() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tls.db").display().to_string();
    let mut cfg = config(&db);
    cfg.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    let server = fiveup_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let Some(proxy) = tls_proxy(dir.path(), addr) else {
        return;
    };
    let ann = register(addr, "anntls").await;
    let (token, _) = make_bot(addr, &ann, "tlsbot").await;
    let t: Value = post(
        addr,
        "/api/tables",
        Some(&ann),
        &json!({"rules": "five-up target=50", "seats": [{"kind": "bot", "level": "greedy"}, {"kind": "open"}]}),
    )
    .await
    .json();
    let table = t["id"].as_str().unwrap().to_string();
    let bin = env!("CARGO_BIN_EXE_fiveup");
    let url = format!("https://127.0.0.1:{}", proxy.https);
    let run = move |extra: &[&str]| {
        Command::new(bin)
            .args(["connect", "--server", &url])
            .args(extra)
            .args([
                "--open",
                "--max-games",
                "1",
                "--poll",
                "0.2",
                "--give-up",
                "60",
                "--",
                bin,
                "engine",
                "greedy",
            ])
            .env("FIVEUP_BOT_TOKEN", &token)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .unwrap()
    };
    // A certificate of the proxy's own making is not trusted without --ca.
    let out = run(&[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("TLS"), "{err}");
    // With it, the bridge takes the open seat and plays the game to its end.
    let pem = proxy.pem.display().to_string();
    let out = tokio::task::spawn_blocking(move || run(&["--ca", &pem]))
        .await
        .unwrap();
    drop(proxy);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(&format!("table {table}: game over")), "{err}");
    let record = get(addr, &format!("/api/games/{table}/record.txt"), None).await;
    assert_eq!(record.status, 200);
    server.shutdown().await;
}

/// The messages a local game sends the engine `command` in `seat`, on the deals and with the
/// other seats' actions of the stored game `record` (and its deal proofs): the flow of a local
/// match (a decision at each of the seat's turns, `hand_over` after each hand), with the
/// engine's own decisions checked against the record.
fn local_stream(record: &str, seat: u8, command: &str) -> Vec<String> {
    use fiveup_bots::Player as _;
    use fiveup_engine::{notation::Record, HandStart, Seat, State};
    use fiveup_outside::messages::DealProof;
    use fiveup_outside::{EngineConfig, EngineHost, EnginePlayer};
    let record = Record::parse(record).unwrap();
    let config = EngineConfig {
        record: true,
        ..EngineConfig::default()
    };
    let host = EngineHost::start(command, &config).unwrap();
    let mut player = EnginePlayer::new(host, 1).unwrap();
    for (h, p) in fiveup_server::games::proofs_of(&record) {
        player.commit(h, p.commitment.clone());
        player.reveal(
            h,
            DealProof {
                scheme: p.scheme,
                commitment: p.commitment,
                server_seed: p.server_seed.unwrap(),
                client_seeds: p.client_seeds.unwrap(),
                deal_seed: p.deal_seed.unwrap(),
            },
        );
    }
    let seat = Seat(seat);
    let rules = record.rules;
    let mut state: Option<State> = None;
    for hand in &record.hands {
        let mut s = match state.take() {
            None => State::with_start(rules, hand.deal, HandStart::first()).unwrap(),
            Some(mut s) => {
                s.next_hand(hand.deal).unwrap();
                s
            }
        };
        for m in &hand.moves {
            if s.to_move() == seat {
                assert_eq!(player.choose(&s.view(seat)), m.action, "the same decision");
            }
            s.apply(m.action).unwrap();
        }
        player.hand_over(&s.view(seat));
        state = Some(s);
    }
    player.take_sent()
}

/// A line without its timing fields (the request's clock), parsed.
fn untimed(line: &str) -> Value {
    let mut v: Value = serde_json::from_str(line).unwrap();
    if let Some(o) = v.as_object_mut() {
        o.remove("clock");
    }
    v
}

/// The same engine, played through `fiveup connect` and locally on the same deals (the stored
/// game's), is sent the same messages but for the clocks: every event, every hand's end with
/// its result and the deal's proof, the earlier hands in each request, and each hand's deal
/// commitment. Two games: three seats, and two seats under manual scoring (claims and Muggins).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_sends_the_engine_what_a_local_game_sends() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("stream.db").display().to_string();
    let server = fiveup_server::start(config(&db)).await.unwrap();
    let addr = server.local_addr();
    let ann = register(addr, "annstream").await;
    let (token, _) = make_bot(addr, &ann, "streambot").await;
    let engine = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../outside/tests/engines/maxpoints.py"
    );
    let bin = env!("CARGO_BIN_EXE_fiveup");
    let mut most_hands = 0;
    for (rules, seats, bot_seat) in [
        (
            "five-up players=3 target=100",
            json!([{"kind": "bot", "level": "greedy"}, {"kind": "open"}, {"kind": "bot", "level": "casual"}]),
            1u8,
        ),
        (
            "five-up manual=true target=100",
            json!([{"kind": "open"}, {"kind": "bot", "level": "greedy"}]),
            0u8,
        ),
    ] {
        let t: Value = post(
            addr,
            "/api/tables",
            Some(&ann),
            &json!({"rules": rules, "seats": seats}),
        )
        .await
        .json();
        let table = t["id"].as_str().unwrap().to_string();
        let log = dir.path().join(format!("{table}.log"));
        let log_arg = log.display().to_string();
        let token = token.clone();
        let out = tokio::task::spawn_blocking(move || {
            Command::new(bin)
                .args(["connect", "--server", &format!("http://{addr}")])
                .args(["--open", "--max-games", "1", "--poll", "0.2", "--"])
                .args(["python3", engine, &log_arg])
                .env("FIVEUP_BOT_TOKEN", &token)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .output()
                .unwrap()
        })
        .await
        .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(err.contains(&format!("table {table}: game over")), "{err}");
        assert!(!err.contains("does not replay"), "{err}");

        let online: Vec<String> = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .filter(|l| !l.contains(r#""type":"hello""#) && !l.contains(r#""type":"quit""#))
            .map(str::to_string)
            .collect();
        let record = get(addr, &format!("/api/games/{table}/record.txt"), None).await;
        assert_eq!(record.status, 200);
        let command = format!("python3 {engine}");
        let local =
            tokio::task::spawn_blocking(move || local_stream(&record.body, bot_seat, &command))
                .await
                .unwrap();
        let kinds = |ls: &[String], k: &str| {
            ls.iter()
                .filter(|l| l.contains(&format!(r#""type":"{k}""#)))
                .count()
        };
        let hands = kinds(&online, "hand");
        // A game can end in its first hand (a big domino to 100 with three players): that
        // game still compares, and the test needs one game of two hands or more, below.
        assert!(hands >= 1, "{rules}: no hand");
        most_hands = most_hands.max(hands);
        assert_eq!(kinds(&online, "hand_over"), hands, "{rules}");
        for (i, (a, b)) in online.iter().zip(&local).enumerate() {
            assert_eq!(untimed(a), untimed(b), "{rules}: message {i}");
        }
        assert_eq!(online.len(), local.len(), "{rules}");
        // Online, every hand carries its commitment and every end its proof, which opens it.
        for l in &online {
            let v: Value = serde_json::from_str(l).unwrap();
            match v["type"].as_str() {
                Some("hand") => assert!(v["commitment"].is_string(), "{l}"),
                Some("hand_over") => {
                    let p = &v["proof"];
                    assert!(
                        p["deal_seed"].is_string() && p["server_seed"].is_string(),
                        "{l}"
                    );
                }
                Some("request") if v["position"]["start"]["hand_no"].as_u64() > Some(1) => {
                    assert!(!v["position"]["earlier_hands"]
                        .as_array()
                        .unwrap()
                        .is_empty());
                }
                _ => {}
            }
        }
    }
    // The earlier hands in a request and a hand's end before the next were compared.
    assert!(most_hands >= 2, "no game of two hands or more");
    server.shutdown().await;
}

/// A server that is down when the bridge starts is tried again with a growing wait (within
/// `--give-up`): once it is up the bridge plays; with a short `--give-up` it gives up saying so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_waits_for_a_server_that_is_not_up_yet() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("late.db").display().to_string();
    let port = free_port();
    let mut cfg = config(&db);
    cfg.bind = format!("127.0.0.1:{port}").parse().unwrap();
    let server = fiveup_server::start(cfg.clone()).await.unwrap();
    let addr = server.local_addr();
    let ann = register(addr, "annlate").await;
    let (token, _) = make_bot(addr, &ann, "latebot").await;
    server.shutdown().await;

    let bin = env!("CARGO_BIN_EXE_fiveup");
    let url = format!("http://{addr}");
    // Nobody listens: a short --give-up ends with why.
    let out = Command::new(bin)
        .args(["connect", "--server", &url, "--give-up", "1", "--"])
        .args([bin, "engine", "greedy"])
        .env("FIVEUP_BOT_TOKEN", &token)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("trying again") && err.contains("gave up after 1 s"),
        "{err}"
    );

    let child = Command::new(bin)
        .args(["connect", "--server", &url, "--give-up", "120"])
        .args(["--open", "--max-games", "1", "--poll", "0.2", "--"])
        .args([bin, "engine", "greedy"])
        .env("FIVEUP_BOT_TOKEN", &token)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut bridge = Proc(child);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let server = fiveup_server::start(cfg).await.unwrap();
    let t: Value = post(
        addr,
        "/api/tables",
        Some(&ann),
        &json!({"rules": "five-up target=50", "seats": [{"kind": "bot", "level": "greedy"}, {"kind": "open"}]}),
    )
    .await
    .json();
    let table = t["id"].as_str().unwrap().to_string();
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = bridge.0.try_wait().unwrap() {
            break s;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "the bridge did not finish"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut bridge.0.stderr.take().unwrap(), &mut err).unwrap();
    assert!(status.success(), "{err}");
    assert!(err.contains("trying again"), "{err}");
    assert!(err.contains(&format!("table {table}: game over")), "{err}");
    server.shutdown().await;
}
