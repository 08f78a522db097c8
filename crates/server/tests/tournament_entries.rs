//! Entries arriving together: many people joining one event at the same moment each get an
//! entrant number of their own, one person joining twice at once enters once, and the entrant
//! limit holds.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::{config, databases, get, guest, post, registered};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn entries_arriving_together_are_each_numbered_once_and_limited() {
    let dir = tempfile::tempdir().unwrap();
    for (kind, db) in databases(dir.path(), "entries").await {
        let mut cfg = config(&db);
        cfg.tournament_tick = Duration::from_millis(50);
        let server = fiveup_server::start(cfg).await.unwrap();
        let addr = server.local_addr();
        let td = registered(addr, "director").await;
        // An arena that would start at 41 entrants but accepts 40: it stays upcoming.
        let r = post(
            addr,
            "/api/tournaments",
            Some(&td),
            &json!({
                "name": "Rush",
                "format": {"kind": "arena", "duration_ms": 600_000},
                "rules": "all-fives target=50",
                "start_at": fiveup_server::now() + 3600,
                "max_entrants": 40,
            }),
        )
        .await;
        assert_eq!(r.status, 201, "{kind}: {}", r.body);
        let id = r.json::<Value>()["id"].as_str().unwrap().to_string();
        let mut cookies = Vec::new();
        for i in 0..48 {
            cookies.push(guest(addr, &format!("rush{i}")).await.0);
        }
        // Everyone at once; the first person also sends a second entry at the same moment.
        let mut tasks = Vec::new();
        for (i, c) in cookies.iter().enumerate() {
            let copies = if i == 0 { 2 } else { 1 };
            for _ in 0..copies {
                let (c, path) = (c.clone(), format!("/api/tournaments/{id}/join"));
                tasks.push(tokio::spawn(async move {
                    (i, post(addr, &path, Some(&c), &json!({})).await)
                }));
            }
        }
        let mut numbers = BTreeSet::new();
        let mut entered = BTreeSet::new();
        let mut refused = Vec::new();
        for t in tasks {
            let (i, r) = t.await.unwrap();
            if r.status == 200 {
                let n = r.json::<Value>()["entrant"].as_u64().unwrap();
                assert!(numbers.insert(n), "{kind}: entrant number {n} given twice");
                assert!(entered.insert(i), "{kind}: person {i} entered twice");
            } else {
                refused.push((i, r.status, r.body));
            }
        }
        assert_eq!(entered.len(), 40, "{kind}: refused {refused:?}");
        assert_eq!(numbers, (1..=40).collect(), "{kind}");
        // Eight people and the second copy were refused, each with a reason, none as a
        // failure of the server.
        assert_eq!(refused.len(), 9, "{kind}: {refused:?}");
        for (_, status, body) in &refused {
            assert!(*status == 400 || *status == 409, "{kind}: {status} {body}");
            assert!(
                body.contains("full") || body.contains("already"),
                "{kind}: {body}"
            );
        }
        let e = get(addr, &format!("/api/tournaments/{id}"), None).await;
        let e: Value = e.json();
        assert_eq!(e["entrants"].as_array().unwrap().len(), 40, "{kind}");
        assert_eq!(e["status"], "upcoming");
        server.shutdown().await;
    }
}
