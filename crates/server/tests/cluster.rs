//! Several instances on one PostgreSQL database (in this process, on loopback ports): table
//! leases (two instances racing for the same tables: exactly one runs each), fencing (a
//! stale owner stores nothing), the shared lobby, relayed clients, stored chat; and the
//! operator's endpoints (`/healthz`, `/metrics`) on the single-instance default too.

mod common;

use std::time::Duration;

use common::*;
use fiveup_protocol::{ClientMsg, JoinRequest, Lobby, ServerMsg, TableInfo, UserRef};
use fiveup_server::table::actor::{self, Found, TableCmd};
use serde_json::json;

async fn create(addr: std::net::SocketAddr, cookie: &str, body: serde_json::Value) -> TableInfo {
    let a = post(addr, "/api/tables", Some(cookie), &body).await;
    assert_eq!(a.status, 201, "{}", a.body);
    a.json()
}

/// The PostgreSQL URL, or a note that these tests were skipped.
fn postgres() -> Option<String> {
    match std::env::var("FIVEUP_TEST_POSTGRES_URL") {
        Ok(u) if !u.is_empty() => Some(u),
        _ => {
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "note: cluster: skipped, it needs PostgreSQL (set FIVEUP_TEST_POSTGRES_URL)"
            );
            None
        }
    }
}

fn instance(db: &str, name: &str, lease: Duration) -> fiveup_server::Config {
    let mut c = config(db);
    c.instance = Some(name.to_string());
    c.lease = lease;
    c.drain_wait = Duration::ZERO;
    c
}

/// Wait until `f` holds, for at most `secs` seconds.
async fn eventually<F: std::future::Future<Output = bool>>(secs: u64, mut f: impl FnMut() -> F) {
    let end = tokio::time::Instant::now() + Duration::from_secs(secs);
    while !f().await {
        assert!(tokio::time::Instant::now() < end, "not within {secs} s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_racing_for_the_same_tables_exactly_one_runs_each() {
    let Some(url) = postgres() else { return };
    let db = pg_schema(&url).await;
    // Tables made by an instance that then stops (giving up its leases).
    let a = fiveup_server::start(instance(&db, "a", Duration::from_secs(5)))
        .await
        .unwrap();
    let (ann, _) = guest(a.local_addr(), "Ann").await;
    let mut ids = Vec::new();
    for _ in 0..12 {
        let t = create(
            a.local_addr(),
            &ann,
            json!({"rules": "five-up", "seats": [{"kind": "me"}, {"kind": "bot", "level": "random"}]}),
        )
        .await;
        ids.push(t.id);
    }
    a.shutdown().await;
    // Two instances start together and both ask for every table at once.
    let (b, c) = tokio::join!(
        fiveup_server::start(instance(&db, "b", Duration::from_secs(5))),
        fiveup_server::start(instance(&db, "c", Duration::from_secs(5)))
    );
    let (b, c) = (b.unwrap(), c.unwrap());
    for id in &ids {
        let (x, y) = tokio::join!(actor::find(&b.app, id), actor::find(&c.app, id));
        let (x, y) = (x.unwrap(), y.unwrap());
        match (&x, &y) {
            (Found::Local(_), Found::Remote { owner, .. }) => assert_eq!(owner, "b"),
            (Found::Remote { owner, .. }, Found::Local(_)) => assert_eq!(owner, "c"),
            _ => panic!("table {id}: {x:?} and {y:?}"),
        }
        let here_b = b.app.hub.handle(id).is_some();
        let here_c = c.app.hub.handle(id).is_some();
        assert!(
            here_b != here_c,
            "table {id} runs on b: {here_b}, on c: {here_c}"
        );
    }
    assert_eq!(b.app.hub.loaded() + c.app.hub.loaded(), ids.len());
    let m = get(b.local_addr(), "/metrics", None).await;
    assert!(
        m.body.contains("fiveup_lease_acquisitions_total"),
        "{}",
        m.body
    );
    b.shutdown().await;
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_owner_stores_nothing_once_another_instance_took_the_table() {
    let Some(url) = postgres() else { return };
    let db = pg_schema(&url).await;
    // Long leases: the stale owner's renewal does not notice in time; its write must fail.
    let b = fiveup_server::start(instance(&db, "b", Duration::from_secs(60)))
        .await
        .unwrap();
    let (ann, ann_id) = guest(b.local_addr(), "Ann").await;
    let t = create(
        b.local_addr(),
        &ann,
        json!({"rules": "five-up", "seats": [{"kind": "me"}, {"kind": "open"}]}),
    )
    .await;
    let stale = b.app.hub.handle(&t.id).expect("b runs the table");
    // b's lease runs out (as if b had been cut off); c takes the table.
    let c = fiveup_server::start(instance(&db, "c", Duration::from_secs(60)))
        .await
        .unwrap();
    sqlx::query("UPDATE table_leases SET expires_at = 0 WHERE table_id = $1")
        .bind(t.id.as_str())
        .execute(&c.app.db.pool)
        .await
        .unwrap();
    let found = actor::find(&c.app, &t.id).await.unwrap();
    assert!(matches!(found, Found::Local(_)), "{found:?}");
    let before: i64 = count(&c, &t.id).await;
    // b still has the table in memory and tries to seat someone: refused, nothing stored.
    let (bob, bob_id) = guest(b.local_addr(), "Bob").await;
    let _ = bob;
    let (reply, rx) = tokio::sync::oneshot::channel();
    let sent = stale
        .tx
        .send(TableCmd::Join {
            user: UserRef {
                id: bob_id,
                name: "Bob".into(),
                registered: false,
                bot: false,
            },
            req: JoinRequest::default(),
            reply,
        })
        .await;
    assert!(sent.is_ok(), "b's task is still running");
    let r = rx.await.expect("an answer");
    let e = r.expect_err("a stale owner seated someone");
    assert_eq!(e.code, fiveup_protocol::ErrorCode::ShuttingDown, "{e:?}");
    assert_eq!(
        count(&c, &t.id).await,
        before,
        "the stale owner stored a change"
    );
    // b gave the table up; through b, the table is handed on to c.
    eventually(5, || async { b.app.hub.handle(&t.id).is_none() }).await;
    let mut cl = connect(b.local_addr(), Some(&ann)).await;
    let v = cl.open(&t.id, None).await;
    assert_eq!(v.you, Some(0));
    let _ = ann_id;
    b.shutdown().await;
    c.shutdown().await;
}

async fn count(s: &fiveup_server::Server, id: &str) -> i64 {
    use sqlx::Row;
    sqlx::query("SELECT COUNT(*) AS n FROM table_events WHERE table_id = $1")
        .bind(id)
        .fetch_one(&s.app.db.pool)
        .await
        .unwrap()
        .try_get::<i64, _>("n")
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_and_chat_are_shared_and_a_game_is_played_through_another_instance() {
    let Some(url) = postgres() else { return };
    let db = pg_schema(&url).await;
    let a = fiveup_server::start(instance(&db, "a", Duration::from_secs(3)))
        .await
        .unwrap();
    let b = fiveup_server::start(instance(&db, "b", Duration::from_secs(3)))
        .await
        .unwrap();
    let (ann, _) = guest(a.local_addr(), "Ann").await;
    // A session made on one instance works on the other.
    let me = get(b.local_addr(), "/api/me", Some(&ann)).await;
    assert_eq!(me.status, 200, "{}", me.body);
    let t = create(
        a.local_addr(),
        &ann,
        json!({"rules": "five-up target=61", "seats": [{"kind": "me"}, {"kind": "open"}]}),
    )
    .await;
    // b lists it, and so does a websocket following b's lobby.
    eventually(5, || async {
        let l: Lobby = get(b.local_addr(), "/api/lobby", None).await.json();
        l.tables.iter().any(|x| x.id == t.id)
    })
    .await;
    // Bob joins through b (handed on to a) and both play through b.
    let (bob, _) = guest(b.local_addr(), "Bob").await;
    let j = post(
        b.local_addr(),
        &format!("/api/tables/{}/join", t.id),
        Some(&bob),
        &json!({}),
    )
    .await;
    assert_eq!(j.status, 200, "{}", j.body);
    let mut x = connect(b.local_addr(), Some(&ann)).await;
    let mut y = connect(b.local_addr(), Some(&bob)).await;
    x.open(&t.id, None).await;
    y.open(&t.id, None).await;
    x.send(&ClientMsg::Chat {
        text: "good luck".into(),
    })
    .await;
    y.until(|m| matches!(m, ServerMsg::Chat { line } if line.text == "good luck"))
        .await;
    let m = get(b.local_addr(), "/metrics", None).await;
    assert!(
        m.body
            .contains("fiveup_relayed_connections{instance=\"b\"} 2"),
        "{}",
        m.body
    );
    let mut cs = vec![x, y];
    play_out(&mut cs, 10_000).await;
    // The lobby drops the finished table everywhere.
    for s in [&a, &b] {
        eventually(5, || async {
            let l: Lobby = get(s.local_addr(), "/api/lobby", None).await.json();
            !l.tables.iter().any(|x| x.id == t.id)
        })
        .await;
    }
    let g = get(a.local_addr(), &format!("/api/games/{}", t.id), None).await;
    assert_eq!(g.status, 200, "{}", g.body);
    // Chat survives a restart of both instances.
    a.shutdown().await;
    b.shutdown().await;
    let c = fiveup_server::start(instance(&db, "c", Duration::from_secs(3)))
        .await
        .unwrap();
    let mut w = connect(c.local_addr(), None).await;
    w.send(&ClientMsg::Open {
        table: t.id.clone(),
        since: None,
    })
    .await;
    match w.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await {
        ServerMsg::Snapshot { chat, .. } => {
            assert!(chat.iter().any(|l| l.text == "good luck"), "{chat:?}");
        }
        _ => unreachable!(),
    }
    c.shutdown().await;
}

/// The count of `fiveup_computer_decision_seconds` for `level` in a `/metrics` answer.
fn decisions_of(metrics: &str, level: &str) -> u64 {
    metrics
        .lines()
        .find(|l| {
            l.starts_with("fiveup_computer_decision_seconds_count")
                && l.contains(&format!("level=\"{level}\""))
        })
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// A table of four computer players (two `master`, two `strong`) plays to its end with nobody
/// at it, and `/metrics` counts each decision's thinking time under its level: every action
/// of the game is one decision of one of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_players_thinking_time_is_a_metric() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("timed.db").to_string_lossy().into_owned();
    let s = fiveup_server::start(config(&db)).await.unwrap();
    let addr = s.local_addr();
    let (ann, _) = guest(addr, "Ann").await;
    let bot = |level: &str| json!({"kind": "bot", "level": level});
    let t = create(
        addr,
        &ann,
        json!({"rules": "five-up players=4 target=50", "seats": [bot("master"), bot("strong"), bot("master"), bot("strong")]}),
    )
    .await;
    let mut c = connect(addr, Some(&ann)).await;
    c.open(&t.id, None).await;
    let end = std::time::Instant::now() + Duration::from_secs(120);
    while !c.over() {
        assert!(std::time::Instant::now() < end, "the game did not end");
        c.recv().await;
    }
    let record = get(addr, &format!("/api/games/{}/record.txt", t.id), None).await;
    assert_eq!(record.status, 200, "{}", record.body);
    let rec = fiveup_engine::notation::Record::parse(&record.body).expect("a record");
    let actions: usize = rec.hands.iter().map(|h| h.moves.len()).sum();
    let m = get(addr, "/metrics", None).await.body;
    let (master, strong) = (decisions_of(&m, "master"), decisions_of(&m, "strong"));
    assert!(master > 0 && strong > 0, "{m}");
    assert_eq!(master + strong, actions as u64, "{m}");
    assert_eq!(decisions_of(&m, "other"), 0, "{m}");
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_metrics_and_stored_chat_on_a_single_instance() {
    let dir = tempfile::tempdir().unwrap();
    for (backend, db) in databases(dir.path(), "single").await {
        let s = fiveup_server::start(config(&db)).await.unwrap();
        let addr = s.local_addr();
        let h = get(addr, "/healthz", None).await;
        assert_eq!((h.status, h.body.as_str()), (200, "ready\n"), "{backend}");
        let (ann, _) = guest(addr, "Ann").await;
        let t = create(
            addr,
            &ann,
            json!({"rules": "five-up", "seats": [{"kind": "me"}, {"kind": "bot", "level": "random"}]}),
        )
        .await;
        let mut c = connect(addr, Some(&ann)).await;
        c.open(&t.id, None).await;
        c.send(&ClientMsg::Chat {
            text: "kept".into(),
        })
        .await;
        c.until(|m| matches!(m, ServerMsg::Chat { .. })).await;
        let mut cs = vec![c];
        let acts = play_until(&mut cs, 10_000, |cs| {
            cs[0]
                .events
                .iter()
                .filter(|(_, e)| matches!(e, fiveup_protocol::EventView::Action { .. }))
                .count()
                >= 6
        })
        .await;
        assert!(acts > 0);
        let m = get(addr, "/metrics", None).await;
        assert_eq!(m.status, 200);
        for name in [
            "fiveup_tables_owned{instance=\"single\"} 1",
            "fiveup_connections{instance=\"single\"} 1",
            "fiveup_commit_seconds_bucket",
            "fiveup_lease_acquisitions_total{how=\"takeover\",instance=\"single\"} 0",
        ] {
            assert!(m.body.contains(name), "{backend}: no {name} in\n{}", m.body);
        }
        let moves: f64 = m
            .body
            .lines()
            .find(|l| l.starts_with("fiveup_moves_total"))
            .and_then(|l| l.rsplit(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(moves >= 6.0, "{backend}: {moves} moves counted");
        drop(cs);
        s.shutdown().await;
        // Chat survives the restart.
        let s = fiveup_server::start(config(&db)).await.unwrap();
        let mut w = connect(s.local_addr(), None).await;
        w.send(&ClientMsg::Open {
            table: t.id.clone(),
            since: None,
        })
        .await;
        match w.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await {
            ServerMsg::Snapshot { chat, .. } => {
                assert!(chat.iter().any(|l| l.text == "kept"), "{backend}: {chat:?}");
            }
            _ => unreachable!(),
        }
        s.shutdown().await;
        eprintln!("single instance on {backend}: ok");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_or_a_second_instance_of_one_name_refuses_to_start() {
    let Some(url) = postgres() else { return };
    let db = pg_schema(&url).await;
    let mut refused = Vec::new();
    let mut started = Vec::new();
    let mut attempt = |what: &str, r: Result<fiveup_server::Server, String>| match r {
        Ok(s) => {
            started.push(what.to_string());
            Some(s)
        }
        Err(e) => {
            refused.push(format!("{what}: {e}"));
            None
        }
    };
    // A server without --instance, then another one, then an instance beside it.
    let one = attempt("single", fiveup_server::start(config(&db)).await).unwrap();
    let two = attempt("second single", fiveup_server::start(config(&db)).await);
    let inst = attempt(
        "instance a beside a single",
        fiveup_server::start(instance(&db, "a", Duration::from_secs(3))).await,
    );
    one.shutdown().await;
    // Instances: two of one name.
    let a = attempt(
        "instance a",
        fiveup_server::start(instance(&db, "a", Duration::from_secs(3))).await,
    )
    .unwrap();
    let a2 = attempt(
        "second instance a",
        fiveup_server::start(instance(&db, "a", Duration::from_secs(3))).await,
    );
    let b = attempt(
        "instance b",
        fiveup_server::start(instance(&db, "b", Duration::from_secs(3))).await,
    )
    .unwrap();
    let single = attempt(
        "single beside instances",
        fiveup_server::start(config(&db)).await,
    );
    let h = get(a.local_addr(), "/healthz", None).await;
    assert_eq!(h.status, 200);
    a.shutdown().await;
    // Stopped, its name is free again.
    let again = attempt(
        "instance a again",
        fiveup_server::start(instance(&db, "a", Duration::from_secs(3))).await,
    )
    .unwrap();
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "attack: servers on one database: started {started:?}; refused {} of 4 conflicting \
         starts:\n  {}",
        refused.len(),
        refused.join("\n  ")
    );
    assert!(two.is_none() && inst.is_none() && a2.is_none() && single.is_none());
    assert_eq!(refused.len(), 4);
    assert!(refused[0].contains("another fiveup server is using this database"));
    assert!(refused[1].contains("without --instance is using this database"));
    assert!(refused[2].contains("instance \"a\" is already running"));
    assert!(refused[3].contains("another fiveup server is using this database"));
    b.shutdown().await;
    again.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relay_queues_no_more_for_a_client_than_the_owner_does() {
    let Some(url) = postgres() else { return };
    let db = pg_schema(&url).await;
    let queue = 16 << 10;
    let mut cfg_a = instance(&db, "a", Duration::from_secs(5));
    cfg_a.ws_queue_bytes = queue;
    cfg_a.bot_delay = Duration::from_millis(5);
    let mut cfg_b = instance(&db, "b", Duration::from_secs(5));
    cfg_b.ws_queue_bytes = queue;
    let a = fiveup_server::start(cfg_a).await.unwrap();
    let b = fiveup_server::start(cfg_b).await.unwrap();
    let (ann, _) = guest(a.local_addr(), "Ann").await;
    // Computer players playing fast, on a.
    let t = create(
        a.local_addr(),
        &ann,
        json!({"rules": "five-up target=250", "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "greedy"}]}),
    )
    .await;
    // b relays the table for a client that reads nothing.
    let mut remote = fiveup_server::web::relay::open(
        &b.app,
        &a.local_addr().to_string(),
        None,
        None,
        &t.id,
        None,
    )
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (mut messages, mut bytes, mut largest) = (0, 0, 0);
    let ended = loop {
        match remote.rx.try_recv() {
            Ok((_, text)) => {
                messages += 1;
                bytes += text.len();
                largest = largest.max(text.len());
            }
            Err(e) => break e == tokio::sync::mpsc::error::TryRecvError::Disconnected,
        }
    };
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "attack: a relay for a client that reads nothing, 2 s of a game of computer players: {messages} \
         messages, {bytes} bytes queued (the owner's bound {queue}; largest message {largest}); \
         relay ended: {ended}"
    );
    assert!(bytes <= queue, "{bytes} bytes queued");
    a.shutdown().await;
    b.shutdown().await;
}
