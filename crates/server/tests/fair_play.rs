//! Fair play through a real server: no computer help at any table whose result counts (a
//! rated game, a tournament's table, a duplicate board, a correspondence game), and hints
//! where the table says so (a casual table with hints allowed, which is never rated; a table
//! with one person and computers).

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{config, connect, databases, get, guest, next_call, post, registered, Client};
use fiveup_protocol::{ClientMsg, ErrorCode, ServerMsg, TableInfo};
use serde_json::{json, Value};

async fn create(addr: SocketAddr, cookie: &str, body: Value) -> TableInfo {
    let r = post(addr, "/api/tables", Some(cookie), &body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()
}

async fn join(addr: SocketAddr, cookie: &str, table: &str) {
    let r = post(
        addr,
        &format!("/api/tables/{table}/join"),
        Some(cookie),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// Play (seeds and first legal actions) until one of the clients is to move with two plays or
/// more to weigh; returns its index.
async fn until_a_choice(clients: &mut [Client]) -> usize {
    common::play_until(clients, 4000, |cs| {
        cs.iter()
            .any(|c| c.view.as_ref().is_some_and(|v| v.legal.len() >= 2))
    })
    .await;
    clients
        .iter()
        .position(|c| c.view.as_ref().is_some_and(|v| v.legal.len() >= 2))
        .expect("someone has a choice")
}

/// Ask for a hint and return the answer: the evaluations, or the refusal's code and message.
async fn ask_hint(c: &mut Client) -> Result<usize, (ErrorCode, String)> {
    let id = c.id();
    c.send(&ClientMsg::Hint { id: id.clone() }).await;
    match c
        .until(|m| matches!(m, ServerMsg::Hint { .. } | ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::Hint { id: i, evals, .. } => {
            assert_eq!(i, id);
            Ok(evals.len())
        }
        ServerMsg::Error {
            id: i,
            code,
            message,
            ..
        } => {
            assert_eq!(i.as_deref(), Some(id.as_str()));
            Err((code, message))
        }
        _ => unreachable!(),
    }
}

fn refused_because_it_counts(r: Result<usize, (ErrorCode, String)>, what: &str) {
    match r {
        Err((ErrorCode::HintUnavailable, m)) => {
            assert!(m.contains("computer help is off"), "{what}: {m}");
            assert!(m.contains(what), "{what}: {m}");
        }
        other => panic!("{what}: a hint was not refused: {other:?}"),
    }
}

async fn rating_of(addr: SocketAddr, cookie: &str) -> (f64, Value) {
    let me: Value = get(addr, "/api/me", Some(cookie)).await.json();
    let id = me["user"]["id"].as_i64().unwrap();
    let p: Value = get(addr, &format!("/api/users/{id}"), None).await.json();
    (p["rating"]["rating"].as_f64().unwrap(), p)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_gives_no_hint_and_a_casual_one_with_hints_allowed_is_never_rated() {
    let dir = tempfile::tempdir().unwrap();
    for (kind, db) in databases(dir.path(), "fairplay").await {
        let server = fiveup_server::start(config(&db)).await.unwrap();
        let addr = server.local_addr();
        let ann = registered(addr, "ann").await;
        let bob = registered(addr, "bob").await;

        // Rated: two registered people. The table says the game counts; a hint is refused
        // with the reason, on the mover's turn.
        let t = create(
            addr,
            &ann,
            json!({"rules": "five-up target=50", "seats": [{"kind":"me"},{"kind":"open"}]}),
        )
        .await;
        assert!(!t.hints_allowed, "{kind}");
        join(addr, &bob, &t.id).await;
        let info: TableInfo = get(addr, &format!("/api/tables/{}", t.id), None)
            .await
            .json();
        assert!(info.counts, "{kind}: a rated game counts");
        let mut cs = vec![
            connect(addr, Some(&ann)).await,
            connect(addr, Some(&bob)).await,
        ];
        for c in &mut cs {
            c.open(&t.id, None).await;
        }
        let mover = until_a_choice(&mut cs).await;
        refused_because_it_counts(ask_hint(&mut cs[mover]).await, "rated");
        // The refusal changed nothing: the game plays on to its end.
        common::play_out(&mut cs, 4000).await;
        let (rated_after, _) = rating_of(addr, &ann).await;
        assert!(
            (rated_after - 1500.0).abs() > 0.01,
            "{kind}: the rated game moved Ann's rating"
        );

        // Casual: the creator allows hints. Everyone sees it before joining (the lobby's
        // listing and the table's answer), hints are given, and the game rates nobody.
        let (ann_before, _) = rating_of(addr, &ann).await;
        let (bob_before, _) = rating_of(addr, &bob).await;
        let t = create(
            addr,
            &ann,
            json!({"rules": "five-up target=50", "seats": [{"kind":"me"},{"kind":"open"}], "hints": true}),
        )
        .await;
        assert!(t.hints_allowed && !t.counts, "{kind}");
        let lobby: Value = get(addr, "/api/lobby", Some(&bob)).await.json();
        let listed = lobby["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == t.id.as_str())
            .expect("listed");
        assert_eq!(listed["hints_allowed"], true, "{kind}");
        join(addr, &bob, &t.id).await;
        let mut cs = vec![
            connect(addr, Some(&ann)).await,
            connect(addr, Some(&bob)).await,
        ];
        for c in &mut cs {
            let v = c.open(&t.id, None).await;
            assert!(v.table.hints_allowed && !v.table.counts, "{kind}");
        }
        let mover = until_a_choice(&mut cs).await;
        let legal = cs[mover].view.as_ref().unwrap().legal.len();
        assert_eq!(ask_hint(&mut cs[mover]).await, Ok(legal), "{kind}");
        common::play_out(&mut cs, 4000).await;
        // The game is stored; neither rating moved.
        let start = Instant::now();
        loop {
            let (_, p) = rating_of(addr, &ann).await;
            if p["stats"]["games"].as_i64() == Some(2) {
                break;
            }
            assert!(
                start.elapsed() < common::WAIT,
                "{kind}: the game was not stored"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(rating_of(addr, &ann).await.0, ann_before, "{kind}");
        assert_eq!(rating_of(addr, &bob).await.0, bob_before, "{kind}");

        // Hints cannot be allowed at a correspondence table, and nothing is made.
        let r = post(
            addr,
            "/api/tables",
            Some(&ann),
            &json!({"rules": "five-up", "seats": [{"kind":"me"},{"kind":"open"}], "hints": true,
                    "correspondence": {"per_move_hours": 24}}),
        )
        .await;
        assert_eq!(r.status, 400, "{kind}: {}", r.body);
        assert!(r.body.contains("correspondence"), "{}", r.body);

        // One person and the computer: hints as ever. A guest against a registered person is
        // not rated either, so hints are given there too.
        let t = create(
            addr,
            &ann,
            json!({"rules": "five-up target=50", "seats": [{"kind":"me"},{"kind":"bot","level":"club"}]}),
        )
        .await;
        assert!(!t.counts, "{kind}");
        let mut cs = vec![connect(addr, Some(&ann)).await];
        cs[0].open(&t.id, None).await;
        until_a_choice(&mut cs).await;
        let legal = cs[0].view.as_ref().unwrap().legal.len();
        assert_eq!(ask_hint(&mut cs[0]).await, Ok(legal), "{kind}");
        let (visitor, _) = guest(addr, "visitor").await;
        let t = create(
            addr,
            &ann,
            json!({"rules": "five-up target=50", "seats": [{"kind":"me"},{"kind":"open"}]}),
        )
        .await;
        join(addr, &visitor, &t.id).await;
        let mut cs = vec![
            connect(addr, Some(&ann)).await,
            connect(addr, Some(&visitor)).await,
        ];
        for c in &mut cs {
            let v = c.open(&t.id, None).await;
            assert!(!v.table.counts, "{kind}: a guest's game is not rated");
        }
        let mover = until_a_choice(&mut cs).await;
        let legal = cs[mover].view.as_ref().unwrap().legal.len();
        assert_eq!(ask_hint(&mut cs[mover]).await, Ok(legal), "{kind}");
        server.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_game_gives_no_hint_and_no_review_until_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("corr.db").display().to_string();
    let server = fiveup_server::start(config(&db)).await.unwrap();
    let addr = server.local_addr();
    let ann = registered(addr, "ann").await;
    let bob = registered(addr, "bob").await;
    let t = create(
        addr,
        &ann,
        json!({"rules": "five-up target=50", "seats": [{"kind":"me"},{"kind":"open"}],
               "correspondence": {"per_move_hours": 24}}),
    )
    .await;
    assert!(t.counts, "a correspondence game counts from its creation");
    join(addr, &bob, &t.id).await;
    let mut cs = vec![
        connect(addr, Some(&ann)).await,
        connect(addr, Some(&bob)).await,
    ];
    for c in &mut cs {
        c.open(&t.id, None).await;
    }
    let mover = until_a_choice(&mut cs).await;
    refused_because_it_counts(ask_hint(&mut cs[mover]).await, "correspondence");
    // Its review is refused while it is played, to the players and to anyone else.
    for who in [Some(ann.as_str()), Some(bob.as_str()), None] {
        let r = get(addr, &format!("/api/games/{}/review", t.id), who).await;
        assert_eq!(r.status, 404, "{}", r.body);
    }
    common::play_out(&mut cs, 4000).await;
    let start = Instant::now();
    loop {
        let r = get(addr, &format!("/api/games/{}/review", t.id), Some(&ann)).await;
        if r.status == 200 {
            break;
        }
        assert!(
            start.elapsed() < common::WAIT,
            "no review after the end: {}",
            r.body
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournament_tables_and_duplicate_boards_give_no_hint() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tour.db").display().to_string();
    let mut cfg = config(&db);
    cfg.tournament_tick = Duration::from_millis(50);
    let server = fiveup_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "director").await;

    // A Swiss of one round: a person against a computer entrant.
    let ann = registered(addr, "ann").await;
    let r = post(
        addr,
        "/api/tournaments",
        Some(&td),
        &json!({"name": "Fair", "format": {"kind": "swiss", "rounds": 1}, "rules": "all-fives target=50",
                "best_of": 1, "start_when": 2, "start_at": fiveup_server::now() + 3600}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json::<Value>()["id"].as_str().unwrap().to_string();
    let mut a = connect(addr, Some(&ann)).await;
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/join"),
        Some(&ann),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/bots"),
        Some(&td),
        &json!({"level": "random", "count": 1}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let table = next_call(&mut a, &mut 0, Duration::from_secs(30))
        .await
        .expect("called to a table in time");
    let v = a.open(&table, None).await;
    assert!(v.table.counts, "a tournament table counts");
    let mut cs = vec![a];
    until_a_choice(&mut cs).await;
    refused_because_it_counts(ask_hint(&mut cs[0]).await, "tournament");

    // A daylong's board, played by a guest.
    let r = post(
        addr,
        "/api/tournaments",
        Some(&td),
        &json!({"name": "Boards", "format": {"kind": "daylong", "boards": 1, "scoring": "difference", "duration_ms": 60000},
                "rules": "all-fives target=50", "opponents": "greedy"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json::<Value>()["id"].as_str().unwrap().to_string();
    let (visitor, _) = guest(addr, "visitor").await;
    let mut w = connect(addr, Some(&visitor)).await;
    let start = Instant::now();
    loop {
        let r = post(
            addr,
            &format!("/api/tournaments/{id}/join"),
            Some(&visitor),
            &json!({}),
        )
        .await;
        if r.status == 200 {
            break;
        }
        assert!(start.elapsed() < common::WAIT, "{}", r.body);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let board = next_call(&mut w, &mut 0, Duration::from_secs(30))
        .await
        .expect("called to a table in time");
    let v = w.open(&board, None).await;
    assert!(v.table.counts, "a duplicate board counts");
    let mut cs = vec![w];
    until_a_choice(&mut cs).await;
    refused_because_it_counts(ask_hint(&mut cs[0]).await, "tournament");
    server.shutdown().await;
}
