//! A duplicate board is hidden until you have played it or the event has ended, on every
//! route that can show it: the websocket's `open` (the table, its seeds and proofs), the
//! table's listing, the game, its record and review, and profile histories. An attack test:
//! it tries each route as someone who has not played the board and prints what came back.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{config, connect, get, next_call, post, registered};
use fiveup_protocol::{ClientMsg, ErrorCode, ServerMsg};
use serde_json::{json, Value};

async fn user_id(addr: SocketAddr, cookie: &str) -> i64 {
    let me: Value = get(addr, "/api/me", Some(cookie)).await.json();
    me["user"]["id"].as_i64().unwrap()
}

/// Every route tried as `who` (a session, or none): which of them showed the board's table.
async fn routes_showing(
    addr: SocketAddr,
    table: &str,
    owner: i64,
    who: Option<&str>,
) -> Vec<&'static str> {
    let mut shown = Vec::new();
    // The websocket: following the table gives its snapshot (seeds, proofs, the last hand).
    let mut c = connect(addr, who).await;
    c.send(&ClientMsg::Open {
        table: table.to_string(),
        since: None,
    })
    .await;
    match c
        .until(|m| matches!(m, ServerMsg::Snapshot { .. } | ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::Snapshot { view, .. } => {
            assert!(!view.proofs.is_empty(), "a finished board shows its seeds");
            shown.push("websocket open");
        }
        ServerMsg::Error { code, message, .. } => {
            assert_eq!(code, ErrorCode::NoSuchTable, "{message}");
            assert!(message.contains("hidden"), "{message}");
        }
        _ => unreachable!(),
    }
    for (route, path) in [
        ("table listing", format!("/api/tables/{table}")),
        ("game", format!("/api/games/{table}")),
        ("record", format!("/api/games/{table}/record.txt")),
        ("review", format!("/api/games/{table}/review")),
    ] {
        let r = get(addr, &path, who).await;
        if r.status == 200 {
            shown.push(route);
        } else {
            assert_eq!(r.status, 404, "{route}: {}", r.body);
            assert!(r.body.contains("hidden"), "{route}: {}", r.body);
        }
    }
    let p: Value = get(addr, &format!("/api/users/{owner}"), who).await.json();
    if p["history"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h["game"] == table)
    {
        shown.push("profile history");
    }
    shown
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_is_hidden_on_every_route_until_played_or_the_event_ends() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("boards.db").display().to_string();
    let mut cfg = config(&db);
    cfg.tournament_tick = Duration::from_millis(50);
    let server = fiveup_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "director").await;
    let ann = registered(addr, "ann").await;
    let bob = registered(addr, "bob").await;
    let ann_id = user_id(addr, &ann).await;
    let r = post(
        addr,
        "/api/tournaments",
        Some(&td),
        &json!({"name": "Boards", "format": {"kind": "daylong", "boards": 1, "scoring": "difference", "duration_ms": 25000},
                "rules": "all-fives target=50", "opponents": "greedy"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json::<Value>()["id"].as_str().unwrap().to_string();
    let join = |cookie: String| {
        let id = id.clone();
        async move {
            let start = Instant::now();
            loop {
                let r = post(
                    addr,
                    &format!("/api/tournaments/{id}/join"),
                    Some(&cookie),
                    &json!({}),
                )
                .await;
                if r.status == 200 {
                    return;
                }
                assert!(start.elapsed() < common::WAIT, "{}", r.body);
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    };
    // Ann plays the board to its end.
    let mut a = connect(addr, Some(&ann)).await;
    join(ann.clone()).await;
    let mut cursor = 0;
    let table = next_call(&mut a, &mut cursor, Duration::from_secs(30))
        .await
        .expect("called to a table in time");
    a.open(&table, None).await;
    common::play_out(std::slice::from_mut(&mut a), 4000).await;
    // The game is stored before anyone hears it is over: every route shows it to Ann.
    let shown = routes_showing(addr, &table, ann_id, Some(&ann)).await;
    assert_eq!(shown.len(), 6, "Ann sees her own board: {shown:?}");
    // Bob has not played the board, and a visitor is not logged in: nothing shows it.
    let before_bob = routes_showing(addr, &table, ann_id, Some(&bob)).await;
    let before_anon = routes_showing(addr, &table, ann_id, None).await;
    println!(
        "routes showing a board before one has played it: {} of 6 for an entrant, {} of 6 \
         anonymously",
        before_bob.len(),
        before_anon.len()
    );
    assert!(before_bob.is_empty(), "{before_bob:?}");
    assert!(before_anon.is_empty(), "{before_anon:?}");
    // Bob plays the same board: then Ann's table is his to see too, while a visitor still
    // sees nothing until the event ends.
    let mut b = connect(addr, Some(&bob)).await;
    join(bob.clone()).await;
    let mut cursor = 0;
    let his = next_call(&mut b, &mut cursor, Duration::from_secs(30))
        .await
        .expect("called to a table in time");
    assert_ne!(his, table);
    b.open(&his, None).await;
    common::play_out(std::slice::from_mut(&mut b), 4000).await;
    let start = Instant::now();
    loop {
        let shown = routes_showing(addr, &table, ann_id, Some(&bob)).await;
        if shown.len() == 6 {
            break;
        }
        assert!(start.elapsed() < common::WAIT, "after playing: {shown:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let e: Value = get(addr, &format!("/api/tournaments/{id}"), None)
        .await
        .json();
    if e["status"] != "finished" {
        assert!(routes_showing(addr, &table, ann_id, None).await.is_empty());
    }
    // Once the event has ended, the board is everyone's.
    let start = Instant::now();
    loop {
        let e: Value = get(addr, &format!("/api/tournaments/{id}"), None)
            .await
            .json();
        if e["status"] == "finished" {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "the event did not end"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let after = routes_showing(addr, &table, ann_id, None).await;
    assert_eq!(after.len(), 6, "after the end: {after:?}");
    server.shutdown().await;
}
