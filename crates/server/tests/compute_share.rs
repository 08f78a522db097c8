//! Attack: one free account tries to take the server's computer players for itself through
//! tournaments (an event of hundreds of strong computer entrants, event after event), and a
//! legitimate player's table must still get its computer's answers in turn. Prints its
//! figures.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{config, connect, post, registered};
use fiveup_protocol::{ClientMsg, ServerMsg, TableInfo};
use serde_json::{json, Value};

async fn new_event(addr: SocketAddr, cookie: &str, name: &str) -> (u16, String) {
    let r = post(
        addr,
        "/api/tournaments",
        Some(cookie),
        &json!({"name": name, "format": {"kind": "swiss", "rounds": 1},
                "rules": "all-fives target=500", "best_of": 1, "start_when": 64,
                "start_at": fiveup_server::now() + 3600}),
    )
    .await;
    let id = if r.status == 201 {
        r.json::<Value>()["id"].as_str().unwrap().to_string()
    } else {
        r.body
    };
    (r.status, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournaments_cannot_take_more_than_an_accounts_share_of_the_computer_players() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("share.db").display().to_string();
    let mut cfg = config(&db);
    cfg.tournament_tick = Duration::from_millis(50);
    // The defaults of the limits this test is about.
    let defaults = fiveup_server::Config::new();
    cfg.max_open_events = defaults.max_open_events;
    cfg.max_events_per_day = defaults.max_events_per_day;
    cfg.max_bot_entrants = defaults.max_bot_entrants;
    cfg.max_bot_entrants_per_account = defaults.max_bot_entrants_per_account;
    // A strong computer player that searches for some milliseconds a move, and one slot for
    // the searches, so that the order in which they are served shows.
    cfg.expert_spec = "expert:samples=60,threads=1".to_string();
    cfg.compute_slots = 1;
    let server = fiveup_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let app = server.app.clone();
    let mallory = registered(addr, "mallory").await;
    let ann = registered(addr, "ann").await;

    // Events: a handful open at once, then refused, whatever their names.
    let mut made = Vec::new();
    let mut refused = None;
    for i in 0..(defaults.max_open_events + 3) {
        let (status, id) = new_event(addr, &mallory, &format!("Flood {i}")).await;
        if status == 201 {
            made.push(id);
        } else {
            refused = Some((i, status, id));
            break;
        }
    }
    let (at, status, body) = refused.expect("a sixth open event is refused");
    println!(
        "events: {} open allowed, number {} refused ({status})",
        made.len(),
        at + 1
    );
    assert_eq!(made.len() as i64, defaults.max_open_events);
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("not yet finished"), "{body}");

    // Computer entrants: 600 master players in one event are refused; the cap is taken.
    let r = post(
        addr,
        &format!("/api/tournaments/{}/bots", made[0]),
        Some(&mallory),
        &json!({"level": "master", "count": 600}),
    )
    .await;
    assert_eq!(r.status, 429, "{}", r.body);
    let mut entrants = 0;
    for id in &made {
        let r = post(
            addr,
            &format!("/api/tournaments/{id}/bots"),
            Some(&mallory),
            &json!({"level": "master", "count": defaults.max_bot_entrants}),
        )
        .await;
        if r.status == 200 {
            entrants += defaults.max_bot_entrants;
        } else {
            assert_eq!(r.status, 429, "{}", r.body);
            assert!(r.body.contains("at most"), "{}", r.body);
        }
    }
    println!(
        "computer entrants accepted for one account: {entrants} (600 asked in one event: refused)"
    );
    assert_eq!(entrants, defaults.max_bot_entrants_per_account);

    // The events start once full: every pairing is a table of two master players thinking
    // without a pause, 64 tables at once, all of them on Mallory's share.
    let start = Instant::now();
    loop {
        let (waiting, running) = app.compute.load();
        if waiting >= 10 {
            println!("Mallory's searches waiting: {waiting}, running {running}");
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let e: Value = common::get(addr, &format!("/api/tournaments/{}", made[0]), None)
                .await
                .json();
            panic!(
                "the flood did not start: {waiting} waiting, {running} running; event {} with \
                 {} tables",
                e["status"],
                e["games"].as_array().map_or(0, Vec::len)
            );
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // Ann plays a master at a table of her own, meanwhile: each of her computer's answers
    // waits for at most the search in progress and one of Mallory's, however many are queued.
    let r = post(
        addr,
        "/api/tables",
        Some(&ann),
        &json!({"rules": "five-up target=500", "seats": [{"kind":"me"},{"kind":"bot","level":"master"}]}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let t: TableInfo = r.json();
    let mut a = connect(addr, Some(&ann)).await;
    a.open(&t.id, None).await;
    let mut answers = Vec::new();
    let mut queued_behind = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while answers.len() < 12 && Instant::now() < deadline && !a.over() {
        let Some(mut m) = a.due() else {
            a.recv().await;
            continue;
        };
        let id = a.id();
        match &mut m {
            ClientMsg::Seed { id: i, .. } | ClientMsg::Act { id: i, .. } => *i = id,
            _ => {}
        }
        let acting = matches!(m, ClientMsg::Act { .. });
        a.send(&m).await;
        // Our move (or seed) is stored; then the computer's turn may come.
        let sent = Instant::now();
        let waiting_then = app.compute.load().0;
        loop {
            let msg = a.recv().await;
            if let ServerMsg::Event { view, .. } = &msg {
                if view.to_move == view.you
                    || view.table.status != fiveup_protocol::TableStatus::Playing
                {
                    break;
                }
            }
        }
        if acting {
            answers.push(sent.elapsed());
            queued_behind.push(waiting_then);
        }
    }
    answers.sort();
    let median = answers[answers.len() / 2];
    let worst = *answers.last().unwrap();
    println!(
        "Ann's computer answered {} times: median {median:?}, worst {worst:?}, with {} to {} of \
         Mallory's searches queued",
        answers.len(),
        queued_behind.iter().min().unwrap(),
        queued_behind.iter().max().unwrap()
    );
    assert!(answers.len() >= 3, "too few answers to judge");
    // In turn: Ann's answer never waited for Mallory's queue, which stayed long. A median
    // answer within a second, where the queue alone is tens of searches.
    assert!(*queued_behind.iter().max().unwrap() >= 10);
    assert!(median < Duration::from_secs(1), "median {median:?}");
    server.shutdown().await;
}
