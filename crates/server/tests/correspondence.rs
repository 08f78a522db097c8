//! Correspondence play end to end: a real server whose clock the test moves, and a local push
//! receiver on loopback that decrypts every message (RFC 8291, aes128gcm) as a browser would.

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine as _;
use common::*;
use fiveup_protocol::{TableInfo, TableStatus};
use fiveup_server::correspondence::api::MyGames;
use fiveup_server::correspondence::clock::{Clock, DAY, HOUR};
use fiveup_server::correspondence::push::Payload;
use fiveup_server::correspondence::CrashAt;
use serde_json::json;
use web_push_native::p256;
use web_push_native::p256::elliptic_curve::sec1::ToEncodedPoint as _;

/// Monday 2026-11-23 09:00 UTC.
const MONDAY_9: i64 = 1_795_392_000 + 9 * HOUR;

/// One message as the push receiver got it.
#[derive(Clone, Debug)]
struct Got {
    device: String,
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

/// A push service on loopback: every message posted to `/p/{device}` is kept; devices named
/// in `gone` are answered 410.
#[derive(Clone)]
struct Receiver {
    addr: SocketAddr,
    got: Arc<Mutex<Vec<Got>>>,
    gone: Arc<Mutex<Vec<String>>>,
}

async fn receiver() -> Receiver {
    use axum::extract::{Path, State};
    let r = Receiver {
        addr: "127.0.0.1:0".parse().unwrap(),
        got: Arc::default(),
        gone: Arc::default(),
    };
    let state = r.clone();
    let app = axum::Router::new()
        .route(
            "/p/{device}",
            axum::routing::post(
                |State(s): State<Receiver>,
                 Path(device): Path<String>,
                 headers: axum::http::HeaderMap,
                 body: axum::body::Bytes| async move {
                    if s.gone.lock().unwrap().contains(&device) {
                        return axum::http::StatusCode::GONE;
                    }
                    s.got.lock().unwrap().push(Got {
                        device,
                        headers: headers
                            .iter()
                            .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string()))
                            .collect(),
                        body: body.to_vec(),
                    });
                    axum::http::StatusCode::CREATED
                },
            ),
        )
        .with_state(state);
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(l, app).await.unwrap();
    });
    Receiver { addr, ..r }
}

/// A browser's push subscription: its key pair and secret.
struct Device {
    name: String,
    secret: p256::SecretKey,
    auth: [u8; 16],
}

impl Device {
    fn new(name: &str) -> Device {
        let secret = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
        let mut auth = [0u8; 16];
        getrandom::fill(&mut auth).unwrap();
        Device {
            name: name.to_string(),
            secret,
            auth,
        }
    }

    fn subscription(&self, r: &Receiver) -> serde_json::Value {
        json!({
            "endpoint": format!("http://{}/p/{}", r.addr, self.name),
            "keys": {
                "p256dh": B64.encode(self.secret.public_key().to_encoded_point(false).as_bytes()),
                "auth": B64.encode(self.auth),
            }
        })
    }

    /// Decrypt a message as the browser does, and read it.
    fn read(&self, g: &Got) -> Payload {
        assert_eq!(
            g.headers.get("content-encoding").map(String::as_str),
            Some("aes128gcm")
        );
        assert!(g
            .headers
            .get("authorization")
            .unwrap()
            .starts_with("vapid t="));
        let plain = web_push_native::decrypt(
            g.body.clone(),
            &self.secret,
            &web_push_native::Auth::clone_from_slice(&self.auth),
        )
        .expect("the message decrypts with the subscription's keys");
        let text = String::from_utf8(plain).unwrap();
        no_tile_in(&text);
        serde_json::from_str(&text).unwrap()
    }
}

/// A payload names tables and people only: no tile, in any notation.
fn no_tile_in(text: &str) {
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["body", "kind", "tables", "tag", "title", "url"],
        "{text}"
    );
    for s in [&v["title"], &v["body"]] {
        let s = s.as_str().unwrap();
        assert!(
            !s.chars()
                .zip(s.chars().skip(1).zip(s.chars().skip(2)))
                .any(|(a, (b, c))| {
                    a.is_ascii_digit() && matches!(b, '-' | '|' | ':' | '/') && c.is_ascii_digit()
                }),
            "a tile in {s:?}"
        );
    }
}

async fn start(db: &str, clock: &Clock, vacation_days: u32) -> fiveup_server::Server {
    let mut cfg = config(db);
    cfg.seed_wait = Duration::from_millis(30);
    cfg.clock = clock.clone();
    cfg.correspondence.tick = Duration::from_millis(20);
    cfg.correspondence.vacation_days = vacation_days;
    // The push receivers are on loopback.
    cfg.correspondence.push_loopback = true;
    fiveup_server::start(cfg).await.unwrap()
}

async fn subscribe(addr: SocketAddr, cookie: &str, r: &Receiver, d: &Device) {
    let a = post(
        addr,
        "/api/push/subscriptions",
        Some(cookie),
        &json!({"subscription": d.subscription(r), "kinds": ["turn", "reminder", "over"]}),
    )
    .await;
    assert_eq!(a.status, 204, "{}", a.body);
}

async fn create(addr: SocketAddr, cookie: &str, body: serde_json::Value) -> TableInfo {
    let a = post(addr, "/api/tables", Some(cookie), &body).await;
    assert_eq!(a.status, 201, "{}", a.body);
    a.json()
}

async fn join(addr: SocketAddr, cookie: &str, table: &str) {
    let a = post(
        addr,
        &format!("/api/tables/{table}/join"),
        Some(cookie),
        &json!({}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
}

async fn my_games(addr: SocketAddr, cookie: &str) -> MyGames {
    let a = get(addr, "/api/correspondence/games", Some(cookie)).await;
    assert_eq!(a.status, 200, "{}", a.body);
    a.json()
}

/// Wait (at most 20 s, however busy the machine) until `f` holds.
async fn until<F: std::future::Future<Output = bool>>(what: &str, mut f: impl FnMut() -> F) {
    for _ in 0..2000 {
        if f().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("timed out waiting for {what}");
}

/// The messages a device got, read.
fn read_all(r: &Receiver, d: &Device) -> Vec<Payload> {
    let got = r.got.lock().unwrap().clone();
    got.iter()
        .filter(|g| g.device == d.name)
        .map(|g| d.read(g))
        .collect()
}

fn kinds(ps: &[Payload]) -> Vec<&str> {
    ps.iter().map(|p| p.kind.as_str()).collect()
}

/// Let the scheduler run a few ticks with the clock standing still.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(200)).await;
}

async fn table_status(addr: SocketAddr, table: &str) -> TableStatus {
    get(addr, &format!("/api/tables/{table}"), None)
        .await
        .json::<TableInfo>()
        .status
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_seat_game_notices_reminders_and_timeout_each_once() {
    let dir = tempfile::tempdir().unwrap();
    for (backend, db) in databases(dir.path(), "two").await {
        let clock = Clock::manual(MONDAY_9);
        let server = start(&db, &clock, 0).await;
        let addr = server.local_addr();
        let rx = receiver().await;
        let (ann, ann_id) = guest(addr, "Ann").await;
        let (bob, bob_id) = guest(addr, "Bob").await;
        let (da, db_) = (Device::new("ann"), Device::new("bob"));
        subscribe(addr, &ann, &rx, &da).await;
        subscribe(addr, &bob, &rx, &db_).await;
        // Bad settings are refused with a clear error.
        let bad = post(
            addr,
            "/api/tables",
            Some(&ann),
            &json!({"rules": "five-up players=2", "seats": [{"kind": "me"}, {"kind": "open"}],
                    "correspondence": {"per_move_hours": 5}}),
        )
        .await;
        assert_eq!(bad.status, 400, "{backend}: {}", bad.body);
        assert!(bad.body.contains("not offered"));
        let t = create(
            addr,
            &ann,
            json!({"rules": "five-up players=2", "seats": [{"kind": "me"}, {"kind": "open"}],
                   "correspondence": {"per_move_hours": 48}}),
        )
        .await;
        join(addr, &bob, &t.id).await;
        // The game is dealt (nobody sends seeds: the seed wait ends) and one of them is to move.
        until("a your-turn notice", || async {
            rx.got.lock().unwrap().len() == 1
        })
        .await;
        let (mover, mover_dev, mover_id, other, other_dev, other_id) =
            if my_games(addr, &ann).await.your_turn == 1 {
                (&ann, &da, ann_id, &bob, &db_, bob_id)
            } else {
                (&bob, &db_, bob_id, &ann, &da, ann_id)
            };
        let games = my_games(addr, mover).await;
        assert_eq!(games.games.len(), 1, "{backend}");
        assert_eq!(games.games[0].seconds_left, Some(2 * DAY), "{backend}");
        assert_eq!(my_games(addr, other).await.your_turn, 0);
        let turn = read_all(&rx, mover_dev);
        assert_eq!(kinds(&turn), ["turn"], "{backend}");
        assert_eq!(turn[0].url, format!("/table/{}", t.id));
        let other_name = if mover_id == ann_id { "Bob" } else { "Ann" };
        assert!(turn[0].body.contains(other_name), "{}", turn[0].body);
        // The topic header is set, a valid RFC 8030 topic.
        let g = rx.got.lock().unwrap()[0].clone();
        assert!(g.headers["topic"].len() <= 32);
        // Nothing before 24 hours before the deadline.
        clock.advance(DAY - 1);
        settle().await;
        assert_eq!(rx.got.lock().unwrap().len(), 1, "{backend}");
        clock.advance(1);
        until("the 24-hour reminder", || async {
            rx.got.lock().unwrap().len() == 2
        })
        .await;
        clock.advance(22 * HOUR);
        settle().await;
        assert_eq!(
            rx.got.lock().unwrap().len(),
            2,
            "{backend}: nothing between reminders"
        );
        clock.advance(HOUR);
        until("the 1-hour reminder", || async {
            rx.got.lock().unwrap().len() == 3
        })
        .await;
        let ps = read_all(&rx, mover_dev);
        assert_eq!(kinds(&ps), ["turn", "reminder", "reminder"], "{backend}");
        assert!(ps[2].body.contains("About 1 hours"), "{}", ps[2].body);
        assert_eq!(table_status(addr, &t.id).await, TableStatus::Playing);
        // The deadline: the player on time wins at once.
        clock.advance(HOUR - 1);
        settle().await;
        assert_eq!(
            table_status(addr, &t.id).await,
            TableStatus::Playing,
            "{backend}"
        );
        clock.advance(1);
        until("the timeout", || async {
            table_status(addr, &t.id).await == TableStatus::Finished
        })
        .await;
        until("both game-over notices", || async {
            rx.got.lock().unwrap().len() == 5
        })
        .await;
        assert_eq!(kinds(&read_all(&rx, other_dev)), ["over"]);
        assert_eq!(
            kinds(&read_all(&rx, mover_dev)),
            ["turn", "reminder", "reminder", "over"]
        );
        // The game is stored with the player on time as the winner.
        let row = sqlx::query("SELECT won FROM game_players WHERE game_id = $1 AND user_id = $2")
            .bind(t.id.as_str())
            .bind(other_id)
            .fetch_one(&server.app.db.pool)
            .await
            .unwrap();
        assert_eq!(
            fiveup_server::store::db::int(&row, "won").unwrap(),
            1,
            "{backend}"
        );
        let games = my_games(addr, mover).await;
        assert_eq!(games.timeouts, 1, "{backend}: the timeout is counted");
        assert!(games.games[0].finished);
        assert_eq!(my_games(addr, other).await.timeouts, 0);
        // Days later nothing more comes: every timer fired once.
        clock.advance(3 * DAY);
        settle().await;
        assert_eq!(rx.got.lock().unwrap().len(), 5, "{backend}");
        server.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cut_throat_timeouts_hand_seats_to_the_computer_and_score_a_loss() {
    let dir = tempfile::tempdir().unwrap();
    let db = databases(dir.path(), "three").await.remove(0).1;
    let clock = Clock::manual(MONDAY_9);
    let server = start(&db, &clock, 0).await;
    let addr = server.local_addr();
    let (ann, ann_id) = guest(addr, "Ann").await;
    let (bob, bob_id) = guest(addr, "Bob").await;
    let t = create(
        addr,
        &ann,
        json!({"rules": "five-up players=3 target=50",
               "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "level": "club"}],
               "correspondence": {"per_move_hours": 6}}),
    )
    .await;
    join(addr, &bob, &t.id).await;
    until("a person to move", || async {
        my_games(addr, &ann).await.your_turn + my_games(addr, &bob).await.your_turn == 1
    })
    .await;
    // No computer takes a seat over while the clock runs (no one is connected).
    clock.advance(6 * HOUR - 1);
    settle().await;
    assert_eq!(table_status(addr, &t.id).await, TableStatus::Playing);
    // Each person's time runs out in turn; the game goes on with the computer for them.
    for _ in 0..2 {
        clock.advance(6 * HOUR);
        settle().await;
    }
    until("the game to end", || async {
        table_status(addr, &t.id).await == TableStatus::Finished
    })
    .await;
    for id in [ann_id, bob_id] {
        let row = sqlx::query("SELECT won FROM game_players WHERE game_id = $1 AND user_id = $2")
            .bind(t.id.as_str())
            .bind(id)
            .fetch_one(&server.app.db.pool)
            .await
            .unwrap();
        assert_eq!(
            fiveup_server::store::db::int(&row, "won").unwrap(),
            0,
            "a timeout loses"
        );
    }
    assert_eq!(my_games(addr, &ann).await.timeouts, 1);
    assert_eq!(my_games(addr, &bob).await.timeouts, 1);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn weekends_are_skipped_and_vacation_days_used_only_when_needed() {
    let dir = tempfile::tempdir().unwrap();
    let db = databases(dir.path(), "vacation").await.remove(0).1;
    // Friday 12:00: a day per move without weekends is due on Monday at 12:00.
    let friday_noon = MONDAY_9 - 3 * DAY + 3 * HOUR;
    let clock = Clock::manual(friday_noon);
    let server = start(&db, &clock, 1).await;
    let addr = server.local_addr();
    let (ann, _) = guest(addr, "Ann").await;
    let (bob, _) = guest(addr, "Bob").await;
    let t = create(
        addr,
        &ann,
        json!({"rules": "five-up players=2", "seats": [{"kind": "me"}, {"kind": "open"}],
               "correspondence": {"per_move_hours": 24, "no_weekends": true, "vacation": true}}),
    )
    .await;
    join(addr, &bob, &t.id).await;
    let mover = {
        let mut m = None;
        for _ in 0..2000 {
            if my_games(addr, &ann).await.your_turn == 1 {
                m = Some(ann.clone());
            } else if my_games(addr, &bob).await.your_turn == 1 {
                m = Some(bob.clone());
            }
            if m.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        m.expect("a person to move")
    };
    let g = my_games(addr, &mover).await;
    assert_eq!(
        g.games[0].due_at,
        Some(friday_noon + 3 * DAY),
        "the weekend is skipped"
    );
    let vacation = || async {
        sqlx::query("SELECT CAST(COALESCE(SUM(days), 0) AS BIGINT) AS d FROM corr_vacation")
            .fetch_one(&server.app.db.pool)
            .await
            .map(|r| fiveup_server::store::db::int(&r, "d").unwrap())
            .unwrap()
    };
    // Sunday evening: still the mover's move, no vacation day used.
    clock.set(friday_noon + 2 * DAY + 10 * HOUR);
    settle().await;
    assert_eq!(vacation().await, 0);
    // Monday 12:00: the move would time out, so the one vacation day is used: due Tuesday.
    clock.set(friday_noon + 3 * DAY);
    until("a vacation day", || async { vacation().await == 1 }).await;
    assert_eq!(table_status(addr, &t.id).await, TableStatus::Playing);
    assert_eq!(
        my_games(addr, &mover).await.games[0].due_at,
        Some(friday_noon + 4 * DAY)
    );
    // Tuesday 12:00: no day left, the move times out.
    clock.set(friday_noon + 4 * DAY);
    until("the timeout", || async {
        table_status(addr, &t.id).await == TableStatus::Finished
    })
    .await;
    assert_eq!(vacation().await, 1);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gone_subscription_is_deleted_and_bad_ones_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = databases(dir.path(), "gone").await.remove(0).1;
    let clock = Clock::manual(MONDAY_9);
    let server = start(&db, &clock, 0).await;
    let addr = server.local_addr();
    let rx = receiver().await;
    let (ann, _) = guest(addr, "Ann").await;
    let (bob, _) = guest(addr, "Bob").await;
    // The server's key is a P-256 point.
    let key: serde_json::Value = get(addr, "/api/push/key", None).await.json();
    let k = B64.decode(key["public_key"].as_str().unwrap()).unwrap();
    assert!(p256::PublicKey::from_sec1_bytes(&k).is_ok());
    // Bad subscriptions are refused and change nothing.
    let d = Device::new("x");
    let mut s = d.subscription(&rx);
    s["keys"]["auth"] = json!("AAAA");
    let a = post(
        addr,
        "/api/push/subscriptions",
        Some(&ann),
        &json!({"subscription": s, "kinds": ["turn"]}),
    )
    .await;
    assert_eq!(a.status, 400, "{}", a.body);
    let a = post(
        addr,
        "/api/push/subscriptions",
        Some(&ann),
        &json!({"subscription": d.subscription(&rx), "kinds": ["tiles"]}),
    )
    .await;
    assert_eq!(a.status, 400, "{}", a.body);
    let s = json!({"endpoint": "http://push.example.com/p/x", "keys": d.subscription(&rx)["keys"]});
    let a = post(
        addr,
        "/api/push/subscriptions",
        Some(&ann),
        &json!({"subscription": s, "kinds": ["turn"]}),
    )
    .await;
    assert_eq!(a.status, 400, "{}", a.body);
    let count = || async {
        sqlx::query("SELECT COUNT(*) AS n FROM push_subscriptions")
            .fetch_one(&server.app.db.pool)
            .await
            .map(|r| fiveup_server::store::db::int(&r, "n").unwrap())
            .unwrap()
    };
    assert_eq!(count().await, 0);
    // Both subscribe; Ann's browser dropped its subscription (the service answers 410).
    let (da, db_) = (Device::new("ann"), Device::new("bob"));
    rx.gone.lock().unwrap().push("ann".into());
    subscribe(addr, &ann, &rx, &da).await;
    subscribe(addr, &bob, &rx, &db_).await;
    assert_eq!(count().await, 2);
    let t = create(
        addr,
        &ann,
        json!({"rules": "five-up players=2", "seats": [{"kind": "me"}, {"kind": "open"}],
               "correspondence": {"per_move_hours": 6}}),
    )
    .await;
    join(addr, &bob, &t.id).await;
    until("a person to move", || async {
        my_games(addr, &ann).await.your_turn + my_games(addr, &bob).await.your_turn == 1
    })
    .await;
    // Whoever moves first, by the deadline both were sent something: Ann's went to a 410.
    clock.advance(6 * HOUR);
    until("the game to end", || async {
        table_status(addr, &t.id).await == TableStatus::Finished
    })
    .await;
    until("Ann's subscription to go", || async { count().await == 1 }).await;
    until("Bob's game-over notice", || async {
        read_all(&rx, &db_).iter().any(|p| p.kind == "over")
    })
    .await;
    assert!(read_all(&rx, &da).is_empty());
    // A subscription not renewed for 30 days expires.
    clock.advance(31 * DAY);
    // The sweep runs hourly on the server's clock: the first tick after the jump may be
    // within the hour of the last sweep, so move on once more.
    settle().await;
    clock.advance(2 * HOUR);
    until("the stale subscription to expire", || async {
        count().await == 0
    })
    .await;
    server.shutdown().await;
}

/// Not a test: the server process of [`reminders_and_timeouts_fire_once_across_kill_9`] (does
/// nothing in a normal run). Its clock is the number in the file `FIVEUP_CORR_CLOCK`, read
/// every 10 ms.
#[test]
fn corr_server_process() {
    let Ok(db) = std::env::var("FIVEUP_CORR_DB") else {
        return;
    };
    let clock_file = std::env::var("FIVEUP_CORR_CLOCK").unwrap();
    let read = move || -> i64 {
        std::fs::read_to_string(&clock_file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let clock = Clock::manual(read());
        let c = clock.clone();
        tokio::spawn(async move {
            loop {
                let t = read();
                if t > 0 {
                    c.set(t);
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        });
        let mut cfg = config(&db);
        cfg.seed_wait = Duration::from_millis(30);
        cfg.clock = clock.clone();
        cfg.correspondence.tick = Duration::from_millis(20);
        cfg.correspondence.vacation_days = 0;
        cfg.correspondence.push_loopback = true;
        cfg.correspondence.crash_at = match std::env::var("FIVEUP_CORR_CRASH").as_deref() {
            Ok("move") => Some(CrashAt::MoveStored),
            Ok("timeout") => Some(CrashAt::TimeoutStored),
            _ => None,
        };
        let server = fiveup_server::start(cfg).await.unwrap();
        let file = std::env::var("FIVEUP_CORR_ADDR").unwrap();
        std::fs::write(format!("{file}.tmp"), server.local_addr().to_string()).unwrap();
        std::fs::rename(format!("{file}.tmp"), file).unwrap();
        // Until killed.
        std::future::pending::<()>().await;
    });
}

/// A server process on `db` whose clock is the file `clock`; its address.
async fn spawn_server(
    dir: &std::path::Path,
    db: &str,
    clock: &std::path::Path,
) -> (Proc, SocketAddr) {
    spawn_crashing(dir, db, clock, "").await
}

/// As [`spawn_server`], ending itself at the crash point `crash` (`move`, `timeout`; empty:
/// none).
async fn spawn_crashing(
    dir: &std::path::Path,
    db: &str,
    clock: &std::path::Path,
    crash: &str,
) -> (Proc, SocketAddr) {
    let addr_file = dir.join("addr");
    let _ = std::fs::remove_file(&addr_file);
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "corr_server_process",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("FIVEUP_CORR_DB", db)
        .env("FIVEUP_CORR_CLOCK", clock)
        .env("FIVEUP_CORR_ADDR", &addr_file)
        .env("FIVEUP_CORR_CRASH", crash)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let p = Proc(child);
    for _ in 0..3000 {
        if let Ok(a) = std::fs::read_to_string(&addr_file) {
            return (p, a.parse().unwrap());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the server process did not start");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_and_timeouts_fire_once_across_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("kill.db").display().to_string();
    let clock = dir.path().join("clock");
    let set = |t: i64| set_clock(&clock, t);
    set(MONDAY_9);
    let rx = receiver().await;
    let (mut server, addr) = spawn_server(dir.path(), &db, &clock).await;
    let (ann, _) = guest(addr, "Ann").await;
    let (bob, _) = guest(addr, "Bob").await;
    let (da, db_) = (Device::new("ann"), Device::new("bob"));
    subscribe(addr, &ann, &rx, &da).await;
    subscribe(addr, &bob, &rx, &db_).await;
    let t = create(
        addr,
        &ann,
        json!({"rules": "five-up players=2", "seats": [{"kind": "me"}, {"kind": "open"}],
               "correspondence": {"per_move_hours": 48}}),
    )
    .await;
    join(addr, &bob, &t.id).await;
    until("a your-turn notice", || async {
        rx.got.lock().unwrap().len() == 1
    })
    .await;
    let count = || rx.got.lock().unwrap().len();
    // The 24-hour reminder goes out; the server is killed right after.
    set(MONDAY_9 + DAY);
    until("the 24-hour reminder", || async { count() == 2 }).await;
    // Killed once its sending is recorded: a kill between a push service's answer and that
    // record sends the message again after a minute (at least once, with the same topic).
    until("the reminder's sending recorded", || async {
        outbox(&db) == 0
    })
    .await;
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    // Restarted: nothing is sent again.
    let (s, addr) = spawn_server(dir.path(), &db, &clock).await;
    server = s;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(count(), 2, "nothing fires twice after a restart");
    assert_eq!(outbox(&db), 0, "nothing waits to be sent");
    // Killed while the 1-hour reminder and the deadline fall due, and started again: each
    // fires once.
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    set(MONDAY_9 + 2 * DAY);
    let (s, addr2) = spawn_server(dir.path(), &db, &clock).await;
    server = s;
    let _ = addr;
    until("the reminder and both game-over notices", || async {
        count() == 5
    })
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(count(), 5);
    let mut ks: Vec<String> = [&da, &db_]
        .iter()
        .flat_map(|d| read_all(&rx, d))
        .map(|p| p.kind)
        .collect();
    ks.sort();
    assert_eq!(ks, ["over", "over", "reminder", "reminder", "turn"]);
    assert_eq!(table_status(addr2, &t.id).await, TableStatus::Finished);
    drop(server);
}

/// Set the clock file read by [`corr_server_process`], in one step (written beside it and
/// renamed, so that the process never reads it half written).
fn set_clock(clock: &std::path::Path, t: i64) {
    let tmp = clock.with_extension("tmp");
    std::fs::write(&tmp, t.to_string()).unwrap();
    std::fs::rename(&tmp, clock).unwrap();
}

/// How many messages wait in the outbox of the SQLite database `db` (sent or not).
fn outbox(db: &str) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.busy_timeout(Duration::from_secs(5)).unwrap();
    conn.query_row("SELECT COUNT(*) FROM push_outbox", [], |r| r.get(0))
        .unwrap()
}

/// Wait (at most 20 s) for a server process to end by itself.
async fn exited(p: &mut Proc) {
    for _ in 0..2000 {
        if p.0.try_wait().unwrap().is_some() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the server process did not end at its crash point");
}

/// The person to move at a two-seat game and their seconds left, from "My games".
async fn to_move(addr: SocketAddr, people: [&str; 2]) -> Option<(usize, i64)> {
    for (i, p) in people.iter().enumerate() {
        let g = my_games(addr, p).await;
        if let Some(g) = g.games.iter().find(|g| g.your_turn) {
            return Some((i, g.seconds_left?));
        }
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_between_a_move_and_its_timers_keeps_the_moves_clock() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("move.db").display().to_string();
    let clock = dir.path().join("clock");
    let set = |t: i64| set_clock(&clock, t);
    set(MONDAY_9);
    let (mut server, addr) = spawn_crashing(dir.path(), &db, &clock, "move").await;
    let (ann, _) = guest(addr, "Ann").await;
    let (bob, _) = guest(addr, "Bob").await;
    let t = create(
        addr,
        &ann,
        json!({"rules": "five-up players=2", "seats": [{"kind": "me"}, {"kind": "open"}],
               "correspondence": {"per_move_hours": 48}}),
    )
    .await;
    join(addr, &bob, &t.id).await;
    until("a person to move", || async {
        to_move(addr, [&ann, &bob])
            .await
            .is_some_and(|(_, left)| left == 2 * DAY)
    })
    .await;
    // Five hours after the deal the player to move moves; the process ends right after that
    // move is stored, before its timers are written.
    set(MONDAY_9 + 5 * HOUR);
    until("the clock to stand at five hours", || async {
        to_move(addr, [&ann, &bob])
            .await
            .is_some_and(|(_, left)| left == 2 * DAY - 5 * HOUR)
    })
    .await;
    let (mover, _) = to_move(addr, [&ann, &bob]).await.unwrap();
    let mut c = connect(addr, Some([&ann, &bob][mover])).await;
    c.open(&t.id, None).await;
    let mut m = c.due().expect("a move to make");
    if let fiveup_protocol::ClientMsg::Act { id, .. } = &mut m {
        *id = "m1".into();
    }
    c.send(&m).await;
    exited(&mut server).await;
    // Ten hours later the server starts again: the next move's clock started at the move,
    // fifteen hours after the deal, not at the restart.
    set(MONDAY_9 + 15 * HOUR);
    let (_server, addr) = spawn_server(dir.path(), &db, &clock).await;
    let mut seen = None;
    for _ in 0..200 {
        seen = to_move(addr, [&ann, &bob]).await;
        if seen.map(|(_, left)| left) == Some(2 * DAY - 10 * HOUR) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        seen.map(|(_, left)| left),
        Some(2 * DAY - 10 * HOUR),
        "the move's clock runs from the move: {seen:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_right_after_a_timeout_is_stored_still_counts_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("timeout.db").display().to_string();
    let clock = dir.path().join("clock");
    let set = |t: i64| set_clock(&clock, t);
    set(MONDAY_9);
    let (mut server, addr) = spawn_crashing(dir.path(), &db, &clock, "timeout").await;
    let (ann, _) = guest(addr, "Ann").await;
    let (bob, _) = guest(addr, "Bob").await;
    let t = create(
        addr,
        &ann,
        json!({"rules": "five-up players=2", "seats": [{"kind": "me"}, {"kind": "open"}],
               "correspondence": {"per_move_hours": 6}}),
    )
    .await;
    join(addr, &bob, &t.id).await;
    until("a person to move", || async {
        to_move(addr, [&ann, &bob]).await.is_some()
    })
    .await;
    let (mover, _) = to_move(addr, [&ann, &bob]).await.unwrap();
    // The move times out; the process ends once the table has stored the timeout.
    set(MONDAY_9 + 6 * HOUR);
    exited(&mut server).await;
    let (server, addr) = spawn_server(dir.path(), &db, &clock).await;
    assert_eq!(table_status(addr, &t.id).await, TableStatus::Finished);
    let people = [&ann, &bob];
    settle().await;
    assert_eq!(
        my_games(addr, people[mover]).await.timeouts,
        1,
        "the stored timeout is counted"
    );
    assert_eq!(my_games(addr, people[1 - mover]).await.timeouts, 0);
    // And only once, whatever starts next.
    drop(server);
    let (_server, addr) = spawn_server(dir.path(), &db, &clock).await;
    settle().await;
    assert_eq!(my_games(addr, people[mover]).await.timeouts, 1);
}

/// Resident memory of this process, in MiB.
fn rss_mib() -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|k| k.parse::<f64>().ok())
        .map_or(0.0, |k| k / 1024.0)
}

/// A measurement, not a check (`cargo test --release -p fiveup-server --test correspondence
/// -- --ignored idle_games --nocapture`): `FIVEUP_CORR_GAMES` (100,000 by default) stored
/// correspondence games in play, copies of one real game at its first move; the server's
/// memory after start and after opening games, and the time to open one (the first snapshot
/// over the websocket, loading it from storage).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run it by name"]
async fn idle_games_cost_no_memory() {
    let n: i64 = std::env::var("FIVEUP_CORR_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("many.db").display().to_string();
    let clock = Clock::manual(MONDAY_9);
    let server = start(&db, &clock, 0).await;
    let addr = server.local_addr();
    let (ann, _) = guest(addr, "Ann").await;
    let (bob, _) = guest(addr, "Bob").await;
    let t = create(
        addr,
        &ann,
        json!({"rules": "five-up players=2", "seats": [{"kind": "me"}, {"kind": "open"}],
               "correspondence": {"per_move_hours": 72}}),
    )
    .await;
    join(addr, &bob, &t.id).await;
    until("a person to move", || async {
        my_games(addr, &ann).await.your_turn + my_games(addr, &bob).await.your_turn == 1
    })
    .await;
    server.shutdown().await;
    // Copies of the game, ids `c0` ... `c{n-1}`, each with its events, players and timers.
    let started = std::time::Instant::now();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(&format!(
        "BEGIN;
         WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < {n})
         INSERT INTO game_tables (id, created_at, config, status)
           SELECT 'c' || i, created_at, replace(config, '{id}', 'c' || i), status
           FROM game_tables, k WHERE id = '{id}';
         WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < {n})
         INSERT INTO table_events (table_id, seq, body)
           SELECT 'c' || i, seq, body FROM table_events, k WHERE table_id = '{id}';
         WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < {n})
         INSERT INTO corr_players (table_id, seat, user_id, finished)
           SELECT 'c' || i, seat, user_id, finished FROM corr_players, k WHERE table_id = '{id}';
         WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < {n})
         INSERT INTO corr_timers (table_id, version, kind, seat, user_id, due_at, fired_at)
           SELECT 'c' || i, version, kind, seat, user_id, due_at, fired_at
           FROM corr_timers, k WHERE table_id = '{id}' AND kind <> 'turn';
         COMMIT;",
        id = t.id
    ))
    .unwrap();
    drop(conn);
    let size = std::fs::metadata(&db).unwrap().len() as f64 / 1e6;
    eprintln!(
        "corr: {n} games stored in {:.1} s, database {size:.0} MB",
        started.elapsed().as_secs_f64()
    );
    let before = rss_mib();
    let server = start(&db, &clock, 0).await;
    let addr = server.local_addr();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after_start = rss_mib();
    eprintln!(
        "corr: process {before:.1} MiB before start, {after_start:.1} MiB after start; tables in memory: {}",
        server.app.hub.loaded()
    );
    assert!(server.app.hub.loaded() <= 1);
    // Open games one after another, as their players would: each is loaded, shown, and leaves
    // memory when its viewer goes.
    let mut times = Vec::new();
    for i in 0..200 {
        let id = format!("c{}", (i * 7919) % n);
        let t0 = std::time::Instant::now();
        let mut c = connect(addr, Some(&ann)).await;
        c.open(&id, None).await;
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
        drop(c);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    times.sort_by(f64::total_cmp);
    eprintln!(
        "corr: open one game (connect, load, snapshot): median {:.2} ms, p95 {:.2} ms, max {:.2} ms; \
         after 200 opened: {:.1} MiB, tables in memory: {}",
        times[100],
        times[190],
        times[199],
        rss_mib(),
        server.app.hub.loaded()
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn your_turn_at_most_hourly_per_game_and_batched_across_games() {
    let dir = tempfile::tempdir().unwrap();
    let db = databases(dir.path(), "hourly").await.remove(0).1;
    let clock = Clock::manual(MONDAY_9);
    let server = start(&db, &clock, 0).await;
    let addr = server.local_addr();
    let rx = receiver().await;
    let (ann, _) = guest(addr, "Ann").await;
    let da = Device::new("ann");
    subscribe(addr, &ann, &rx, &da).await;
    // Against a computer player, which answers at once: Ann's turn comes back at every move.
    let vs_bot = json!({"rules": "five-up players=2 target=250",
                        "seats": [{"kind": "me"}, {"kind": "bot", "level": "random"}],
                        "correspondence": {"per_move_hours": 24}});
    let t = create(addr, &ann, vs_bot.clone()).await;
    until("Ann's first turn notice", || async {
        rx.got.lock().unwrap().len() == 1
    })
    .await;
    let mut c = connect(addr, Some(&ann)).await;
    c.open(&t.id, None).await;
    let actions = |cs: &[Client]| {
        cs[0]
            .events
            .iter()
            .filter(|(_, e)| matches!(e, fiveup_protocol::EventView::Action { seat: 0, .. }))
            .count()
    };
    play_until(std::slice::from_mut(&mut c), 100, |cs| actions(cs) >= 4).await;
    drop(c);
    settle().await;
    assert_eq!(
        rx.got.lock().unwrap().len(),
        1,
        "no second notice within the hour"
    );
    // A second game against the computer starts; an hour after the first notice both games'
    // notices are due together and go out as one message.
    clock.advance(HOUR - 5 * 60);
    let t2 = create(addr, &ann, vs_bot).await;
    until("the second game's notice", || async {
        rx.got.lock().unwrap().len() == 2
    })
    .await;
    let mut c = connect(addr, Some(&ann)).await;
    c.open(&t2.id, None).await;
    play_until(std::slice::from_mut(&mut c), 100, |cs| actions(cs) >= 2).await;
    drop(c);
    settle().await;
    assert_eq!(rx.got.lock().unwrap().len(), 2);
    clock.advance(HOUR);
    until("the batched notice", || async {
        rx.got.lock().unwrap().len() == 3
    })
    .await;
    settle().await;
    let ps = read_all(&rx, &da);
    assert_eq!(kinds(&ps), ["turn", "turn", "turn"]);
    assert_eq!(ps[2].url, "/games", "{:?}", ps[2]);
    let mut tables = ps[2].tables.clone();
    tables.sort();
    let mut want = vec![t.id.clone(), t2.id.clone()];
    want.sort();
    assert_eq!(tables, want);
    assert!(ps[2].body.contains("2 games"));
    server.shutdown().await;
}

async fn register(addr: SocketAddr, nick: &str) -> (String, i64) {
    let (g, id) = guest(addr, nick).await;
    let name = format!("{}{}", nick.to_lowercase(), &fiveup_server::new_id()[..6]);
    let r = post(
        addr,
        "/api/register",
        Some(&g),
        &json!({"username": name, "password": "correct horse battery"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    (session_of(&r), id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn correspondence_games_have_a_rating_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    for (backend, db) in databases(dir.path(), "rating").await {
        let clock = Clock::manual(MONDAY_9);
        let server = start(&db, &clock, 0).await;
        let addr = server.local_addr();
        let (ann, ann_id) = register(addr, "Ann").await;
        let (bob, bob_id) = register(addr, "Bob").await;
        let t = create(
            addr,
            &ann,
            json!({"rules": "five-up players=2 target=250", "seats": [{"kind": "me"}, {"kind": "open"}],
                   "correspondence": {"per_move_hours": 6}}),
        )
        .await;
        join(addr, &bob, &t.id).await;
        // Both play a move or more, then one of them stops.
        let mut cs = [
            connect(addr, Some(&ann)).await,
            connect(addr, Some(&bob)).await,
        ];
        for c in &mut cs {
            c.open(&t.id, None).await;
        }
        let moved = |cs: &[Client], seat: u8| {
            cs[0].events.iter().any(|(_, e)| {
                matches!(e, fiveup_protocol::EventView::Action { seat: s, .. } if *s == seat)
            })
        };
        play_until(&mut cs, 200, |cs| moved(cs, 0) && moved(cs, 1)).await;
        drop(cs);
        settle().await;
        clock.advance(6 * HOUR);
        until("the timeout", || async {
            table_status(addr, &t.id).await == TableStatus::Finished
        })
        .await;
        let ratings = |id: i64| {
            let pool = server.app.db.pool.clone();
            async move {
                let r = sqlx::query("SELECT rating, corr_rating FROM users WHERE id = $1")
                    .bind(id)
                    .fetch_one(&pool)
                    .await
                    .unwrap();
                (
                    fiveup_server::store::db::float(&r, "rating").unwrap(),
                    fiveup_server::store::db::float(&r, "corr_rating").unwrap(),
                )
            }
        };
        let (a, b) = (ratings(ann_id).await, ratings(bob_id).await);
        // The live rating is untouched; the correspondence rating moved, one up, one down.
        assert_eq!((a.0, b.0), (1500.0, 1500.0), "{backend}");
        assert!(
            (a.1 - 1500.0) * (b.1 - 1500.0) < 0.0,
            "{backend}: {a:?} {b:?}"
        );
        let board: Vec<fiveup_server::correspondence::api::CorrRating> =
            get(addr, "/api/correspondence/leaderboard", None)
                .await
                .json();
        assert_eq!(board.len(), 2, "{backend}");
        assert!(board[0].rating > board[1].rating);
        // Profiles show it beside the live rating, histories filter by kind, and the replay
        // says it was a correspondence game, with its time per move.
        let profile = |kind: &'static str| async move {
            get(addr, &format!("/api/users/{ann_id}{kind}"), None).await
        };
        let all: fiveup_protocol::Profile = profile("").await.json();
        assert_eq!(all.rating.as_ref().unwrap().rating, 1500.0);
        assert_eq!(all.corr_rating.as_ref().unwrap().rating, a.1, "{backend}");
        assert_eq!(all.history.len(), 1);
        let spec = all.history[0]
            .correspondence
            .clone()
            .expect("a correspondence game");
        assert_eq!(spec.per_move_hours, 6);
        let corr: fiveup_protocol::Profile = profile("?kind=correspondence").await.json();
        assert_eq!(corr.history.len(), 1, "{backend}");
        let live: fiveup_protocol::Profile = profile("?kind=live").await.json();
        assert!(live.history.is_empty(), "{backend}");
        let bad = profile("?kind=blitz").await;
        assert_eq!(bad.status, 400, "{}", bad.body);
        assert!(
            bad.body.contains("live, correspondence or all"),
            "{}",
            bad.body
        );
        let replay: fiveup_protocol::Replay = get(addr, &format!("/api/games/{}", t.id), None)
            .await
            .json();
        assert_eq!(replay.correspondence.map(|c| c.per_move_hours), Some(6));
        server.shutdown().await;
    }
}

/// The chat lines a client has seen, as (writer, text).
fn chat_seen(c: &Client) -> Vec<(String, String)> {
    c.raw
        .iter()
        .filter_map(|t| serde_json::from_str::<fiveup_protocol::ServerMsg>(t).ok())
        .flat_map(|m| match m {
            fiveup_protocol::ServerMsg::Chat { line } => vec![(line.from.name, line.text)],
            fiveup_protocol::ServerMsg::Snapshot { chat, .. } => {
                chat.into_iter().map(|l| (l.from.name, l.text)).collect()
            }
            _ => Vec::new(),
        })
        .collect()
}

async fn say(c: &mut Client, text: &str) {
    c.send(&fiveup_protocol::ClientMsg::Chat {
        text: text.to_string(),
    })
    .await;
    // Lines reach every reader in the order said: one's own line back means the lines said
    // before it have been sent (or held back).
    c.until(|m| matches!(m, fiveup_protocol::ServerMsg::Chat { line } if line.text == text))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_muted_players_chat_is_hidden_from_the_muter_and_their_games_go_on() {
    let dir = tempfile::tempdir().unwrap();
    for (backend, db) in databases(dir.path(), "mute").await {
        let clock = Clock::manual(MONDAY_9);
        let server = start(&db, &clock, 0).await;
        let addr = server.local_addr();
        let (ann, ann_id) = guest(addr, "Ann").await;
        let (bob, bob_id) = guest(addr, "Bob").await;
        let (cat, _) = guest(addr, "Cat").await;
        let mutes = |cookie: &str| {
            let cookie = cookie.to_string();
            async move { get(addr, "/api/mutes", Some(&cookie)).await }
        };
        // Bad requests get clear errors and change nothing.
        let none = post(addr, "/api/mutes", None, &json!({"user": bob_id})).await;
        assert_eq!(none.status, 401, "{}", none.body);
        let me = post(addr, "/api/mutes", Some(&ann), &json!({"user": ann_id})).await;
        assert_eq!(me.status, 400, "{}", me.body);
        assert!(me.body.contains("cannot mute yourself"), "{}", me.body);
        let nobody = post(
            addr,
            "/api/mutes",
            Some(&ann),
            &json!({"user": 987_654_321}),
        )
        .await;
        assert_eq!(nobody.status, 404, "{}", nobody.body);
        let junk = post(addr, "/api/mutes", Some(&ann), &json!({"who": "Bob"})).await;
        assert_eq!(junk.status, 400, "{}", junk.body);
        let not_muted = http(
            addr,
            "DELETE",
            "/api/mutes",
            Some(&ann),
            Some(&json!({"user": bob_id}).to_string()),
            &[],
        )
        .await;
        assert_eq!(not_muted.status, 404, "{}", not_muted.body);
        assert_eq!(mutes(&ann).await.body, "[]");
        // Ann mutes Bob.
        let ok = post(addr, "/api/mutes", Some(&ann), &json!({"user": bob_id})).await;
        assert_eq!(ok.status, 204, "{backend}: {}", ok.body);
        let list: Vec<fiveup_server::correspondence::mute::Muted> = mutes(&ann).await.json();
        assert_eq!(list.len(), 1);
        assert_eq!((list[0].user, list[0].name.as_str()), (bob_id, "Bob"));
        // At a live table and at a correspondence table: Bob's lines do not reach Ann, they
        // reach the others; the game goes on, Bob's moves count.
        for corr in [false, true] {
            let mut req =
                json!({"rules": "five-up players=2", "seats": [{"kind": "me"}, {"kind": "open"}]});
            if corr {
                req["correspondence"] = json!({"per_move_hours": 24});
            }
            let t = create(addr, &ann, req).await;
            join(addr, &bob, &t.id).await;
            let mut cs = [
                connect(addr, Some(&ann)).await,
                connect(addr, Some(&bob)).await,
            ];
            for c in &mut cs {
                c.open(&t.id, None).await;
            }
            let mut watcher = connect(addr, Some(&cat)).await;
            watcher.open(&t.id, None).await;
            say(&mut cs[1], "from bob").await;
            say(&mut cs[0], "from ann").await;
            say(&mut watcher, "from cat").await;
            for c in &mut cs {
                c.until(|m| matches!(m, fiveup_protocol::ServerMsg::Chat { line } if line.text == "from cat"))
                    .await;
            }
            let seen = chat_seen(&cs[0]);
            assert!(
                !seen.iter().any(|(who, _)| who == "Bob"),
                "{backend} {corr}: {seen:?}"
            );
            assert!(seen.iter().any(|(_, t)| t == "from cat"));
            let bob_seen = chat_seen(&cs[1]);
            assert!(
                bob_seen.iter().any(|(_, t)| t == "from ann"),
                "{bob_seen:?}"
            );
            assert!(chat_seen(&watcher).iter().any(|(_, t)| t == "from bob"));
            // Both move: the game is not ended by the mute.
            let moved = |cs: &[Client], seat: u8| {
                cs[0].events.iter().any(|(_, e)| {
                    matches!(e, fiveup_protocol::EventView::Action { seat: s, .. } if *s == seat)
                })
            };
            play_until(&mut cs, 200, |cs| moved(cs, 0) && moved(cs, 1)).await;
            assert_ne!(table_status(addr, &t.id).await, TableStatus::Finished);
            // Opened again, the table's stored chat leaves Bob out for Ann too.
            let mut again = connect(addr, Some(&ann)).await;
            again.open(&t.id, None).await;
            let seen = chat_seen(&again);
            assert!(seen.iter().any(|(_, t)| t == "from ann"), "{seen:?}");
            assert!(!seen.iter().any(|(who, _)| who == "Bob"), "{seen:?}");
            if corr {
                // Unmuted (from the profile's list): Bob's lines are shown again.
                let un = http(
                    addr,
                    "DELETE",
                    "/api/mutes",
                    Some(&ann),
                    Some(&json!({"user": bob_id}).to_string()),
                    &[],
                )
                .await;
                assert_eq!(un.status, 204, "{}", un.body);
                assert_eq!(mutes(&ann).await.body, "[]");
                let mut third = connect(addr, Some(&ann)).await;
                third.open(&t.id, None).await;
                assert!(chat_seen(&third).iter().any(|(_, t)| t == "from bob"));
            }
        }
        server.shutdown().await;
    }
}

// ---------------------------------------------------------------------------------------------
// Attacks on push delivery (the review's findings): each prints a line `attack: ...` with its
// figure, as the attack suite (`tests/attack.rs`) does.

fn report(attack: &str, figure: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "attack: {attack}: {figure}");
}

/// How long the attack tests wait for what they measure before they call it "not within".
const BOUND: Duration = Duration::from_secs(30);

/// Wait (at most [`BOUND`]) until `f` holds; how long it took, `None` if it never did.
async fn timed<F: std::future::Future<Output = bool>>(
    mut f: impl FnMut() -> F,
) -> Option<Duration> {
    let t = std::time::Instant::now();
    while t.elapsed() < BOUND {
        if f().await {
            return Some(t.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    None
}

fn shown(d: Option<Duration>) -> String {
    d.map_or_else(
        || format!("not within {} s", BOUND.as_secs()),
        |d| format!("{:.2} s", d.as_secs_f64()),
    )
}

/// A push service that never answers: it accepts connections on `ip` (at most 64) and holds
/// them without reading or writing (a TLS handshake waits forever), until the test ends. The
/// connections it accepted.
async fn silent_host(ip: &str) -> (SocketAddr, Arc<std::sync::atomic::AtomicUsize>) {
    let l = tokio::net::TcpListener::bind(format!("{ip}:0"))
        .await
        .unwrap();
    let addr = l.local_addr().unwrap();
    let n = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = n.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while held.len() < 64 {
            let Ok((s, _)) = l.accept().await else { break };
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            held.push(s);
        }
        std::future::pending::<()>().await;
    });
    (addr, n)
}

/// Subscribe `d` with the endpoint `endpoint` for every kind; the answer.
async fn subscribe_at(addr: SocketAddr, cookie: &str, endpoint: &str, d: &Device) -> Answer {
    let mut s = d.subscription(&rx_nowhere());
    s["endpoint"] = json!(endpoint);
    post(
        addr,
        "/api/push/subscriptions",
        Some(cookie),
        &json!({"subscription": s, "kinds": ["turn", "reminder", "over"]}),
    )
    .await
}

/// A two-seat correspondence game of 6 hours a move against the computer: the person's turn
/// comes at once or after the computer's first move.
async fn game_against_the_computer(addr: SocketAddr, cookie: &str) -> TableInfo {
    create(
        addr,
        cookie,
        json!({"rules": "five-up players=2",
               "seats": [{"kind": "me"}, {"kind": "bot", "level": "random"}],
               "correspondence": {"per_move_hours": 6}}),
    )
    .await
}

async fn subscription_count(server: &fiveup_server::Server, user: i64) -> i64 {
    sqlx::query("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = $1")
        .bind(user)
        .fetch_one(&server.app.db.pool)
        .await
        .map(|r| fiveup_server::store::db::int(&r, "n").unwrap())
        .unwrap()
}

/// The review's finding: with 8 subscriptions at a host that never answers, another player's
/// "your turn" came after 244 s and a deadline was not claimed for 84 s, deliveries going one
/// at a time, 10 s each, in the loop that fires the deadlines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guests_silent_push_endpoints_delay_no_one_elses_notice_or_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let db = databases(dir.path(), "silent").await.remove(0).1;
    let clock = Clock::manual(MONDAY_9);
    // The push timeout as in production: 10 s.
    let server = start(&db, &clock, 0).await;
    let addr = server.local_addr();
    let rx = receiver().await;
    let (silent, accepted) = silent_host("127.0.0.2").await;
    let (mal, _) = guest(addr, "Mal").await;
    for i in 0..8 {
        let d = Device::new(&format!("mal{i}"));
        let a = subscribe_at(addr, &mal, &format!("https://{silent}/p/mal{i}"), &d).await;
        assert_eq!(a.status, 204, "{}", a.body);
    }
    game_against_the_computer(addr, &mal).await;
    until("Mal's turn", || async {
        my_games(addr, &mal).await.your_turn == 1
    })
    .await;
    until("a message sent to the silent host", || async {
        accepted.load(std::sync::atomic::Ordering::SeqCst) > 0
    })
    .await;
    // Meanwhile Ann and Bob start a game: the mover's "your turn".
    let (ann, _) = guest(addr, "Ann").await;
    let (bob, _) = guest(addr, "Bob").await;
    subscribe(addr, &ann, &rx, &Device::new("ann")).await;
    subscribe(addr, &bob, &rx, &Device::new("bob")).await;
    let t = create(
        addr,
        &ann,
        json!({"rules": "five-up players=2", "seats": [{"kind": "me"}, {"kind": "open"}],
               "correspondence": {"per_move_hours": 6}}),
    )
    .await;
    join(addr, &bob, &t.id).await;
    let turn = timed(|| async { !rx.got.lock().unwrap().is_empty() }).await;
    let held = accepted.load(std::sync::atomic::Ordering::SeqCst);
    // Their deadline, while Mal's next message is being sent.
    until("a person to move", || async {
        my_games(addr, &ann).await.your_turn + my_games(addr, &bob).await.your_turn == 1
    })
    .await;
    game_against_the_computer(addr, &mal).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    clock.advance(6 * HOUR);
    let deadline =
        timed(|| async { table_status(addr, &t.id).await == TableStatus::Finished }).await;
    report(
        "8 subscriptions at a push service that never answers",
        &format!(
            "another player's \"your turn\" in {}, their deadline claimed in {}; the silent \
             host had accepted {held} connections by then",
            shown(turn),
            shown(deadline)
        ),
    );
    assert!(turn.is_some_and(|d| d < Duration::from_secs(5)), "{turn:?}");
    assert!(
        deadline.is_some_and(|d| d < Duration::from_secs(5)),
        "{deadline:?}"
    );
    // Deliveries to one host are bounded.
    assert!(held <= 4, "{held}");
    server.shutdown().await;
}

/// A subscription whose push service refuses connections: tried, backed off, tried again, and
/// deleted once it has failed for a day; the person's working device gets each message once,
/// retries included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_push_endpoint_backs_off_and_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let db = databases(dir.path(), "failing").await.remove(0).1;
    let clock = Clock::manual(MONDAY_9);
    let server = start(&db, &clock, 0).await;
    let addr = server.local_addr();
    let rx = receiver().await;
    // A port nobody listens on: connections are refused at once.
    let dead = {
        let l = std::net::TcpListener::bind("127.0.0.3:0").unwrap();
        l.local_addr().unwrap()
    };
    let (ann, ann_id) = guest(addr, "Ann").await;
    let good = Device::new("ann");
    subscribe(addr, &ann, &rx, &good).await;
    let a = subscribe_at(
        addr,
        &ann,
        &format!("http://{dead}/p/dead"),
        &Device::new("dead"),
    )
    .await;
    assert_eq!(a.status, 204, "{}", a.body);
    let state = || async {
        sqlx::query(
            "SELECT failures, retry_at FROM push_subscriptions WHERE user_id = $1 \
             AND endpoint LIKE '%dead'",
        )
        .bind(ann_id)
        .fetch_optional(&server.app.db.pool)
        .await
        .unwrap()
        .map(|r| {
            (
                fiveup_server::store::db::int(&r, "failures").unwrap(),
                fiveup_server::store::db::int(&r, "retry_at").unwrap(),
            )
        })
    };
    game_against_the_computer(addr, &ann).await;
    until("the turn notice", || async {
        read_all(&rx, &good).len() == 1
    })
    .await;
    until("a first failure", || async {
        state().await.is_some_and(|s| s.0 == 1)
    })
    .await;
    let t0 = clock.now();
    assert_eq!(state().await, Some((1, t0 + 60)));
    // A minute later the message is tried again, at the failing subscription only.
    clock.advance(61);
    until("a second failure", || async {
        state().await.is_some_and(|s| s.0 == 2)
    })
    .await;
    assert_eq!(state().await, Some((2, t0 + 61 + 120)));
    // Another minute: the message is taken again, the subscription still backing off.
    clock.advance(61);
    settle().await;
    assert_eq!(state().await.map(|s| s.0), Some(2));
    assert_eq!(
        read_all(&rx, &good).len(),
        1,
        "the working device is not sent it again"
    );
    // A day on (the game times out meanwhile): failing for a day, it is deleted.
    clock.advance(DAY);
    until("the failing subscription deleted", || async {
        state().await.is_none()
    })
    .await;
    until("the outbox empty", || async {
        sqlx::query("SELECT COUNT(*) AS n FROM push_outbox")
            .fetch_one(&server.app.db.pool)
            .await
            .map(|r| fiveup_server::store::db::int(&r, "n").unwrap())
            .unwrap()
            == 0
    })
    .await;
    assert_eq!(subscription_count(&server, ann_id).await, 1);
    let kinds_got = kinds(&read_all(&rx, &good)).join(",");
    report(
        "a push endpoint refusing connections",
        &format!(
            "tried at +0 and +61 s, skipped at +122 s (backing off 120 s), deleted a day on; the \
             working device got {kinds_got}"
        ),
    );
    server.shutdown().await;
}

/// The review's finding: `http://127.0.0.1:ANY/any`, `localhost`, `[::1]` and `https://` to
/// private, link-local and metadata addresses were accepted, and the server posted to
/// `http://127.0.0.1:18273/admin/shutdown?confirm=yes`. Here with the production setting (no
/// loopback receiver allowed).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_endpoints_reach_public_addresses_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = databases(dir.path(), "ssrf").await.remove(0).1;
    // An internal service on loopback that records what it is asked.
    let asked: Arc<Mutex<Vec<String>>> = Arc::default();
    let internal = {
        let asked = asked.clone();
        let app = axum::Router::new().fallback(move |req: axum::extract::Request| {
            let asked = asked.clone();
            async move {
                asked
                    .lock()
                    .unwrap()
                    .push(format!("{} {}", req.method(), req.uri()));
                "done"
            }
        });
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let a = l.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
        a
    };
    let p = internal.port();
    let clock = Clock::manual(MONDAY_9);
    let mut cfg = config(&db);
    cfg.seed_wait = Duration::from_millis(30);
    cfg.clock = clock.clone();
    cfg.correspondence.tick = Duration::from_millis(20);
    let server = fiveup_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let (mal, mal_id) = guest(addr, "Mal").await;
    let endpoints = [
        format!("http://127.0.0.1:{p}/admin/shutdown?confirm=yes"),
        format!("https://127.0.0.1:{p}/admin/shutdown?confirm=yes"),
        format!("http://localhost:{p}/admin"),
        format!("https://localhost:{p}/admin"),
        format!("https://[::1]:{p}/admin"),
        format!("https://[::ffff:127.0.0.1]:{p}/admin"),
        format!("https://0.0.0.0:{p}/admin"),
        "https://10.0.0.1/x".to_string(),
        "https://172.16.0.1/x".to_string(),
        "https://192.168.1.1/x".to_string(),
        "https://100.64.0.1/x".to_string(),
        "https://169.254.169.254/latest/meta-data/".to_string(),
        "https://metadata/computeMetadata/v1/".to_string(),
        "https://[fd00::1]/x".to_string(),
        "https://[fe80::1]/x".to_string(),
    ];
    let mut accepted = Vec::new();
    for (i, e) in endpoints.iter().enumerate() {
        let a = subscribe_at(addr, &mal, e, &Device::new(&format!("d{i}"))).await;
        if a.status == 204 {
            accepted.push(e.clone());
        } else {
            assert_eq!(a.status, 400, "{e}: {}", a.body);
        }
    }
    // Endpoints stored before these checks, or whose name led to a public address when they
    // were registered and to loopback now (DNS rebinding): checked when connecting.
    sqlx::query("DELETE FROM push_subscriptions")
        .execute(&server.app.db.pool)
        .await
        .unwrap();
    let d = Device::new("stored");
    let keys = d.subscription(&rx_nowhere())["keys"].clone();
    for e in [
        format!("https://localhost:{p}/admin/shutdown?confirm=yes"),
        format!("http://127.0.0.1:{p}/admin/shutdown?confirm=yes"),
    ] {
        sqlx::query(
            "INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, kinds, renewed_at) \
             VALUES ($1, $2, $3, $4, 'turn,reminder,over', $5)",
        )
        .bind(mal_id)
        .bind(e)
        .bind(keys["p256dh"].as_str().unwrap())
        .bind(keys["auth"].as_str().unwrap())
        .bind(clock.now())
        .execute(&server.app.db.pool)
        .await
        .unwrap();
    }
    game_against_the_computer(addr, &mal).await;
    until("Mal's turn", || async {
        my_games(addr, &mal).await.your_turn == 1
    })
    .await;
    let dropped = timed(|| async { subscription_count(&server, mal_id).await == 0 }).await;
    settle().await;
    let asked = asked.lock().unwrap().clone();
    report(
        "push endpoints at loopback, private, link-local and metadata addresses",
        &format!(
            "{} of {} registered; stored ones (a name now leading to loopback, a plain http \
             loopback URL) {}; requests received by the internal service: {} {asked:?}",
            accepted.len(),
            endpoints.len(),
            dropped.map_or("kept".to_string(), |d| format!(
                "deleted in {:.2} s",
                d.as_secs_f64()
            )),
            asked.len()
        ),
    );
    assert!(accepted.is_empty(), "{accepted:?}");
    assert!(asked.is_empty(), "{asked:?}");
    assert!(dropped.is_some());
    server.shutdown().await;
}

/// A receiver address for building a subscription's keys (nothing is sent to it).
fn rx_nowhere() -> Receiver {
    Receiver {
        addr: "127.0.0.1:1".parse().unwrap(),
        got: Arc::default(),
        gone: Arc::default(),
    }
}

/// The review's finding: registering an endpoint another person registered moved it to the
/// new person (their messages stopped reaching its owner).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endpoint_registered_by_another_person_stays_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let db = databases(dir.path(), "taken").await.remove(0).1;
    let clock = Clock::manual(MONDAY_9);
    let server = start(&db, &clock, 0).await;
    let addr = server.local_addr();
    let rx = receiver().await;
    let (ann, ann_id) = guest(addr, "Ann").await;
    let (mal, _) = guest(addr, "Mal").await;
    let d = Device::new("ann");
    subscribe(addr, &ann, &rx, &d).await;
    let endpoint = d.subscription(&rx)["endpoint"]
        .as_str()
        .unwrap()
        .to_string();
    let a = subscribe_at(addr, &mal, &endpoint, &Device::new("mal")).await;
    let owner = sqlx::query("SELECT user_id, p256dh FROM push_subscriptions WHERE endpoint = $1")
        .bind(endpoint.as_str())
        .fetch_one(&server.app.db.pool)
        .await
        .unwrap();
    let owner_id = fiveup_server::store::db::int(&owner, "user_id").unwrap();
    report(
        "registering another person's push endpoint",
        &format!(
            "answered {}, the endpoint {}",
            a.status,
            if owner_id == ann_id {
                "kept by its owner"
            } else {
                "moved to the new person"
            }
        ),
    );
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(a.body.contains("another person"), "{}", a.body);
    assert_eq!(owner_id, ann_id);
    assert_eq!(
        fiveup_server::store::db::text(&owner, "p256dh").unwrap(),
        d.subscription(&rx)["keys"]["p256dh"].as_str().unwrap()
    );
    // Ann still gets her notices, readable with her keys; her own renewal is taken.
    subscribe(addr, &ann, &rx, &d).await;
    game_against_the_computer(addr, &ann).await;
    until("Ann's turn notice", || async {
        !rx.got.lock().unwrap().is_empty()
    })
    .await;
    assert_eq!(kinds(&read_all(&rx, &d)), ["turn"]);
    server.shutdown().await;
}

/// Subscriptions per person are capped, also when asked for all at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_has_at_most_ten_subscriptions_even_asked_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for (backend, db) in databases(dir.path(), "cap").await {
        let clock = Clock::manual(MONDAY_9);
        let server = start(&db, &clock, 0).await;
        let addr = server.local_addr();
        let (mal, mal_id) = guest(addr, "Mal").await;
        let devices: Vec<Device> = (0..20).map(|i| Device::new(&format!("d{i}"))).collect();
        let answers =
            futures_util::future::join_all(
                devices.iter().enumerate().map(|(i, d)| {
                    let mal = mal.clone();
                    async move {
                        subscribe_at(addr, &mal, &format!("http://127.0.0.1:9/p/d{i}"), d).await
                    }
                }),
            )
            .await;
        let stored = subscription_count(&server, mal_id).await;
        report(
            &format!("20 push subscriptions by one person at once ({backend})"),
            &format!(
                "{stored} stored, {} refused",
                answers.iter().filter(|a| a.status != 204).count()
            ),
        );
        assert_eq!(stored, 10, "{backend}");
        for a in &answers {
            assert!(
                a.status == 204 || (a.status == 429 && a.body.contains("quota_exceeded")),
                "{backend}: {} {}",
                a.status,
                a.body
            );
        }
        // A device already subscribed renews at the cap.
        let (i, _) = answers
            .iter()
            .enumerate()
            .find(|(_, a)| a.status == 204)
            .unwrap();
        let a = subscribe_at(
            addr,
            &mal,
            &format!("http://127.0.0.1:9/p/d{i}"),
            &devices[i],
        )
        .await;
        assert_eq!(a.status, 204, "{backend}: {}", a.body);
        assert_eq!(subscription_count(&server, mal_id).await, 10);
        server.shutdown().await;
    }
}
