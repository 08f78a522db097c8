//! Tournaments in `fiveup serve` processes: killed with SIGKILL mid-round and restarted, the
//! event carries on with nothing lost or played twice; two instances on one PostgreSQL
//! database, exactly one directs the event and the other takes over when it dies.

#[path = "../../server/tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{databases, free_port, get, pg_schema, post, registered, Proc};
use serde_json::{json, Value};
use sqlx::Connection;

const EVENT_WAIT: Duration = Duration::from_secs(300);

/// Start `fiveup serve`, with `more` options; returns the process and its address.
fn serve(db: &str, port: u16, more: &[&str]) -> (Proc, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args([
            "serve",
            "--bind",
            &format!("127.0.0.1:{port}"),
            "--database",
            db,
            "--http-rate",
            "0",
            "--user-rate",
            "0",
            "--ws-rate",
            "1000",
            "--guest-rate-per-min",
            "0",
        ])
        .args(more)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fiveup serve starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server says where it listens")
            .unwrap();
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.split(' ').next().unwrap().parse().unwrap();
        }
    };
    // The server's notes on its tournaments show with a failing test's output.
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            if line.contains("tournament") {
                eprintln!("{port}: {line}");
            }
        }
    });
    (Proc(child), addr)
}

/// A Swiss of 16 computer entrants, 4 rounds, created and filled (it starts at once).
async fn swiss_of_16(addr: SocketAddr) -> String {
    let td = registered(addr, "director").await;
    let r = post(
        addr,
        "/api/tournaments",
        Some(&td),
        &json!({
            "name": "Survivor",
            "format": {"kind": "swiss", "rounds": 4},
            "rules": "all-fives target=100",
            "start_when": 16,
        }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json::<Value>()["id"].as_str().unwrap().to_string();
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/bots"),
        Some(&td),
        &json!({"level": "random", "count": 16}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    id
}

async fn event(addr: SocketAddr, id: &str) -> Value {
    let r = get(addr, &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Wait until `f` holds of the event.
async fn wait_for(addr: SocketAddr, id: &str, what: &str, f: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let e = event(addr, id).await;
        if f(&e) {
            return e;
        }
        assert!(start.elapsed() < EVENT_WAIT, "{what}: not in time");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Round 2 paired and some of its games still being played.
fn mid_round_2(e: &Value) -> bool {
    e["rounds"].as_array().is_some_and(|r| r.len() == 2)
        && e["games"].as_array().unwrap().iter().any(|m| {
            m["round"] == 1
                && m["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|g| g["result"].is_null())
        })
}

/// The finished event played every match once: 4 rounds of 8 matches, one table each, each
/// table's stored result its game record's, and no other table in the database.
async fn check_played_once(addr: SocketAddr, db: &str, e: &Value) {
    assert_eq!(e["status"], "finished");
    assert_eq!(e["rounds"].as_array().unwrap().len(), 4);
    let matches = e["games"].as_array().unwrap();
    assert_eq!(matches.len(), 32);
    let mut tables = std::collections::BTreeSet::new();
    for m in matches {
        let games = m["games"].as_array().unwrap();
        assert_eq!(games.len(), 1, "{m}");
        let table = games[0]["table"].as_str().unwrap();
        assert!(tables.insert(table.to_string()));
        let replay: fiveup_protocol::Replay =
            get(addr, &format!("/api/games/{table}"), None).await.json();
        assert_eq!(
            games[0]["result"][0].as_bool().unwrap(),
            replay.winner == Some(0)
        );
        assert_eq!(
            games[0]["result"][1][0].as_i64().unwrap(),
            i64::from(replay.scores[0])
        );
    }
    // No game was opened twice: the database holds exactly these tables, all finished.
    let n = count(db, "SELECT COUNT(*) AS n FROM game_tables").await;
    assert_eq!(n, 32);
    let n = count(
        db,
        "SELECT COUNT(*) AS n FROM game_tables WHERE status = 'finished'",
    )
    .await;
    assert_eq!(n, 32);
}

async fn count(db: &str, q: &str) -> i64 {
    use sqlx::Row;
    if db.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(db).await.unwrap();
        sqlx::query(q)
            .fetch_one(&mut c)
            .await
            .unwrap()
            .get::<i64, _>("n")
    } else {
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite:{db}"))
            .await
            .unwrap();
        sqlx::query(q)
            .fetch_one(&mut c)
            .await
            .unwrap()
            .get::<i64, _>("n")
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_carries_on_its_tournament() {
    let dir = tempfile::tempdir().unwrap();
    for (backend, db) in databases(dir.path(), "tour-kill").await {
        let port = free_port();
        // Computer players pause 20 ms a move, so that a round takes a while.
        let (mut child, addr) = serve(&db, port, &["--bot-delay-ms", "20"]);
        let id = swiss_of_16(addr).await;
        let before = wait_for(addr, &id, "round 2 under way", mid_round_2).await;
        child.0.kill().unwrap();
        child.0.wait().unwrap();
        let (_child, addr) = serve(&db, port, &["--bot-delay-ms", "0"]);
        let e = wait_for(addr, &id, "finished after the restart", |e| {
            e["status"] == "finished"
        })
        .await;
        // Everything stored before the kill stands: the same pairings, the same tables.
        for (r, round) in before["rounds"].as_array().unwrap().iter().enumerate() {
            assert_eq!(round["pairings"], e["rounds"][r]["pairings"], "round {r}");
        }
        for m in before["games"].as_array().unwrap() {
            let again = e["games"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["round"] == m["round"] && x["match"] == m["match"])
                .unwrap();
            assert_eq!(m["games"][0]["table"], again["games"][0]["table"]);
            if !m["games"][0]["result"].is_null() {
                assert_eq!(m["games"][0]["result"], again["games"][0]["result"]);
            }
        }
        check_played_once(addr, &db, &e).await;
        eprintln!("tournament kill -9 on {backend}: ok");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_one_director_and_a_takeover() {
    let Ok(url) = std::env::var("FIVEUP_TEST_POSTGRES_URL") else {
        eprintln!("note: two instances need PostgreSQL: set FIVEUP_TEST_POSTGRES_URL");
        return;
    };
    if url.is_empty() {
        return;
    }
    let db = pg_schema(&url).await;
    let instance = |name: &'static str, db: &str| {
        serve(
            db,
            free_port(),
            &[
                "--instance",
                name,
                "--lease-secs",
                "2",
                "--drain-secs",
                "1",
                "--bot-delay-ms",
                "20",
            ],
        )
    };
    let (mut a, addr_a) = instance("a", &db);
    let (_b, addr_b) = instance("b", &db);
    let id = swiss_of_16(addr_a).await;
    wait_for(addr_b, &id, "round 2 under way", mid_round_2).await;
    // One director: the event's lease names one instance, and it is the one writing.
    let director = |db: String, id: String| async move {
        use sqlx::Row;
        let mut c = sqlx::PgConnection::connect(&db).await.unwrap();
        sqlx::query("SELECT director FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_one(&mut c)
            .await
            .unwrap()
            .get::<String, _>("director")
    };
    let first = director(db.clone(), id.clone()).await;
    assert!(first == "a" || first == "b", "{first}");
    eprintln!("instance {first} directs; it is killed");
    // Kill the director (if it is b, start over with roles swapped: a is the survivor then).
    let survivor = if first == "a" {
        a.0.kill().unwrap();
        a.0.wait().unwrap();
        addr_b
    } else {
        drop(_b);
        addr_a
    };
    let e = wait_for(survivor, &id, "finished after the takeover", |e| {
        e["status"] == "finished"
    })
    .await;
    let last = director(db.clone(), id.clone()).await;
    assert_ne!(last, first, "the survivor directed the end");
    check_played_once(survivor, &db, &e).await;
}
