//! The tournament requests' answers: an unknown event is 404 `no_such_tournament`; a number out
//! of range and a field nothing reads are refused by name; an event that is over answers every
//! request alike (`game_over`); the computer players listed are those accepted; computer
//! entrants carry their measured ratings; and the creator cancels an event that has not
//! started, everyone entered being told.

mod common;

use std::time::{Duration, Instant};

use common::{config, connect, get, guest, post, registered};
use fiveup_protocol::ServerMsg;
use serde_json::{json, Value};

fn swiss(extra: Value) -> Value {
    let mut v = json!({
        "name": "Requests",
        "format": {"kind": "swiss", "rounds": 3},
        "rules": "five-up target=50",
        "start_at": fiveup_server::now() + 3600,
    });
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournament_requests_are_answered_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("requests.db").display().to_string();
    let mut cfg = config(&db);
    cfg.tournament_tick = Duration::from_millis(50);
    let server = fiveup_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "creator").await;

    // An unknown event: 404 no_such_tournament on every route.
    let r = get(addr, "/api/tournaments/nosuchevent", None).await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert!(r.body.contains("no_such_tournament"), "{}", r.body);
    for (path, body) in [
        ("join", json!({})),
        ("withdraw", json!({})),
        ("bots", json!({"level": "club", "count": 1})),
        ("cancel", json!({})),
    ] {
        let r = post(
            addr,
            &format!("/api/tournaments/nosuch/{path}"),
            Some(&td),
            &body,
        )
        .await;
        assert_eq!(r.status, 404, "{path}: {}", r.body);
    }

    // Numbers out of their range, and a misspelt setting, are refused by name.
    for (extra, says) in [
        (
            json!({"max_entrants": -1}),
            "max_entrants -1 is out of range: it is 2 to 10,000",
        ),
        (
            json!({"max_entrants": 5_000_000_000u64}),
            "max_entrants 5000000000 is out of range",
        ),
        (
            json!({"best_of": 2.5}),
            "best_of 2.5 is out of range: it is 1 to 99",
        ),
        (
            json!({"format": {"kind": "swiss", "rounds": -3}}),
            "rounds -3 is out of range",
        ),
        (json!({"turn_ms": -100}), "turn_ms -100 is out of range"),
        (json!({"max_entrant": 8}), "unknown field max_entrant"),
        (
            json!({"format": {"kind": "swiss", "rounds": 3, "round": 4}}),
            "unknown field format.round",
        ),
    ] {
        let r = post(addr, "/api/tournaments", Some(&td), &swiss(extra.clone())).await;
        assert_eq!(r.status, 400, "{extra}: {}", r.body);
        assert!(r.body.contains(says), "{extra}: {}", r.body);
        assert!(!r.body.contains("expected"), "serde's words: {}", r.body);
    }
    // A setting given as null is as if not given.
    let r = post(
        addr,
        "/api/tournaments",
        Some(&td),
        &swiss(json!({"max_entrants": null})),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);

    // The computer players an error lists are those accepted (expert among them).
    let r = post(
        addr,
        "/api/tournaments",
        Some(&td),
        &json!({"name": "Dup", "format": {"kind": "duplicate", "boards": 2}, "rules": "five-up target=50", "start_at": fiveup_server::now() + 3600, "opponents": "wizard"}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("expert") && r.body.contains("master"),
        "{}",
        r.body
    );

    let id = post(addr, "/api/tournaments", Some(&td), &swiss(json!({})))
        .await
        .json::<Value>()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/bots"),
        Some(&td),
        &json!({"level": "wizard", "count": 1}),
    )
    .await;
    assert!(
        r.body.contains("expert") && r.body.contains("casual"),
        "{}",
        r.body
    );
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/bots"),
        Some(&td),
        &json!({"level": "club", "count": -2}),
    )
    .await;
    assert!(
        r.body
            .contains("count -2 is out of range: it is 1 to 1,000"),
        "{}",
        r.body
    );

    // Computer entrants carry their measured ratings (docs/strength.md), as offline.
    for level in ["club", "strong", "master", "casual"] {
        let r = post(
            addr,
            &format!("/api/tournaments/{id}/bots"),
            Some(&td),
            &json!({"level": level, "count": 1}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let e: Value = get(addr, &format!("/api/tournaments/{id}"), None)
        .await
        .json();
    let rating = |name: &str| {
        e["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| &x["entrant"])
            .find(|x| x["name"].as_str().is_some_and(|n| n.starts_with(name)))
            .map(|x| x["rating"].as_i64().unwrap())
    };
    assert_eq!(rating("club"), Some(1314), "{e}");
    assert_eq!(rating("strong"), Some(1402), "{e}");
    assert_eq!(rating("master"), Some(1444), "{e}");
    assert_eq!(rating("casual"), Some(1198), "{e}");

    // Two people enter; only the creator cancels; both are told wherever they are.
    let ann = registered(addr, "annentrant").await;
    let (guest_cookie, _) = guest(addr, "bobguest").await;
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/join"),
        Some(&ann),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let mut ws = connect(addr, Some(&ann)).await;
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/cancel"),
        Some(&guest_cookie),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/cancel"),
        Some(&td),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut told = false;
    let mut seen = 0;
    while !told && Instant::now() < deadline {
        while seen < ws.raw.len() {
            let m: ServerMsg = serde_json::from_str(&ws.raw[seen]).unwrap();
            seen += 1;
            told |= matches!(m, ServerMsg::TournamentCancelled { ref tournament, .. } if *tournament == id);
        }
        if !told {
            let _ = tokio::time::timeout(Duration::from_millis(200), ws.recv()).await;
        }
    }
    assert!(told, "the entrant was told: {:?}", ws.raw);
    let e: Value = get(addr, &format!("/api/tournaments/{id}"), None)
        .await
        .json();
    assert_eq!(e["cancelled"], true, "{e}");
    assert_eq!(e["status"], "finished", "{e}");

    // Over: join, withdraw, computer entrants and cancel all answer game_over alike.
    for (path, body) in [
        ("join", json!({})),
        ("withdraw", json!({})),
        ("bots", json!({"level": "club", "count": 1})),
        ("cancel", json!({})),
    ] {
        let r = post(
            addr,
            &format!("/api/tournaments/{id}/{path}"),
            Some(&td),
            &body,
        )
        .await;
        assert_eq!(r.status, 409, "{path}: {}", r.body);
        assert!(
            r.body.contains("game_over") && r.body.contains("cancelled"),
            "{path}: {}",
            r.body
        );
    }
    // The director lets it be: it never starts.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let e: Value = get(addr, &format!("/api/tournaments/{id}"), None)
        .await
        .json();
    assert_eq!(e["status"], "finished", "{e}");
    server.shutdown().await;
}

/// A tournament game's record names each computer seat by its entrant (`club 1 (computer)`),
/// not by the seat's usual computer name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_name_computer_entrants() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("names.db").display().to_string();
    let mut cfg = config(&db);
    cfg.tournament_tick = Duration::from_millis(50);
    let server = fiveup_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "namer").await;
    let r = post(
        addr,
        "/api/tournaments",
        Some(&td),
        &json!({"name": "Names", "format": {"kind": "swiss", "rounds": 1},
                "rules": "five-up target=50", "start_when": 2}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json::<Value>()["id"].as_str().unwrap().to_string();
    for level in ["club", "casual"] {
        let r = post(
            addr,
            &format!("/api/tournaments/{id}/bots"),
            Some(&td),
            &json!({"level": level, "count": 1}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    let e = loop {
        let e: Value = get(addr, &format!("/api/tournaments/{id}"), None)
            .await
            .json();
        if e["status"] == "finished" {
            break e;
        }
        assert!(Instant::now() < deadline, "the event did not finish: {e}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let names: Vec<String> = e["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["entrant"]["name"].as_str().unwrap().to_string())
        .collect();
    let table = e["games"][0]["games"][0]["table"]
        .as_str()
        .unwrap()
        .to_string();
    let record = get(addr, &format!("/api/games/{table}/record.txt"), None).await;
    assert_eq!(record.status, 200, "{}", record.body);
    for n in &names {
        assert!(
            record.body.contains(&format!("{n} (computer)")),
            "{n}: {}",
            record.body
        );
    }
    assert!(!record.body.contains("Ada (computer)"), "{}", record.body);
    server.shutdown().await;
}
