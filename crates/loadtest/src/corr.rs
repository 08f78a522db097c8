//! The correspondence mode of the load generator (`fiveup loadtest --correspondence N`): many
//! stored correspondence games, then clients that each open one game (the person to move, over
//! a websocket of their own) and make one move, as people coming back to their games from a
//! notification do. It reports how long opening a game takes (`open` sent to `snapshot`
//! received: an idle correspondence table is loaded from storage then) and a move's round trip
//! (`act` to `ack`, the move stored), with p50 and p99, the process's memory before the games,
//! once they are stored, and at the end, and the errors.
//!
//! The games are made through the real API (`POST /api/tables` with a time per move of a week,
//! `POST /api/tables/{id}/join`) by a pool of guests; the in-process server waits 50 ms for the
//! deal's seeds (nobody is connected) and allows every guest as many open games as needed.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt as _, StreamExt as _};
use serde::Serialize;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;

use crate::http::{self, Target};
use crate::inproc::InProcess;
use crate::stats::{summarize, Summary};
use crate::wire::{choose, Incoming, Kind};

/// The settings of a correspondence run.
#[derive(Clone, Debug)]
pub struct CorrOptions {
    /// Stored correspondence games (two people each).
    pub games: usize,
    /// Clients opening games and moving at once.
    pub clients: usize,
    /// Requests in flight while the games are made.
    pub setup_concurrency: usize,
    /// Worker threads of the in-process server's runtime.
    pub server_threads: usize,
    /// Worker threads of the clients' runtime.
    pub client_threads: usize,
    /// How long a client waits for an answer before it counts an error.
    pub timeout: Duration,
}

impl Default for CorrOptions {
    fn default() -> CorrOptions {
        CorrOptions {
            games: 1000,
            clients: 16,
            setup_concurrency: 16,
            server_threads: fiveup_server::default_workers(true),
            client_threads: 2,
            timeout: Duration::from_secs(30),
        }
    }
}

/// What a correspondence run measured.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct CorrReport {
    /// Stored games.
    pub games: usize,
    /// Concurrent clients.
    pub clients: usize,
    /// Seconds to make the games (created, joined, dealt).
    pub setup_secs: f64,
    /// Seconds of the measured phase (every game opened once and moved in).
    pub measured_secs: f64,
    /// Opening a game: `open` sent to `snapshot` received.
    pub open: Summary,
    /// A move: `act` sent to `ack` received.
    pub moves: Summary,
    /// Resident memory of the process (server and clients), KiB: before the games, once they
    /// are stored, at the end.
    pub memory_kib: [Option<u64>; 3],
    /// Errors of every kind.
    pub errors: u64,
    /// Errors by kind.
    pub error_kinds: BTreeMap<String, u64>,
}

impl std::fmt::Display for CorrReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mib = |k: Option<u64>| {
            k.map_or("unknown".to_string(), |k| {
                format!("{:.1} MiB", k as f64 / 1024.0)
            })
        };
        writeln!(
            f,
            "{} stored correspondence games, {} clients; setup {:.1} s, measured {:.1} s",
            self.games, self.clients, self.setup_secs, self.measured_secs
        )?;
        writeln!(
            f,
            "open a game: {} (p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms)",
            self.open.count, self.open.p50_ms, self.open.p99_ms, self.open.max_ms
        )?;
        writeln!(
            f,
            "move: {} (p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms)",
            self.moves.count, self.moves.p50_ms, self.moves.p99_ms, self.moves.max_ms
        )?;
        writeln!(
            f,
            "memory: {} before, {} with the games stored, {} at the end",
            mib(self.memory_kib[0]),
            mib(self.memory_kib[1]),
            mib(self.memory_kib[2])
        )?;
        write!(f, "errors: {}", self.errors)?;
        for (k, n) in &self.error_kinds {
            write!(f, "\n  {k}: {n}")?;
        }
        Ok(())
    }
}

/// Errors by kind.
#[derive(Default)]
struct Errors(Mutex<BTreeMap<String, u64>>);

impl Errors {
    fn add(&self, kind: &str) {
        *self
            .0
            .lock()
            .expect("not poisoned")
            .entry(kind.to_string())
            .or_default() += 1;
    }
}

async fn get(target: &Target, path: &str, cookie: &str) -> Result<http::Response, String> {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let mut s = http::connect(target.addr, None)
        .await
        .map_err(|e| format!("GET {path}: {e}"))?;
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nCookie: {cookie}\r\n\r\n",
        target.host
    );
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| format!("GET {path}: {e}"))?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)
        .await
        .map_err(|e| format!("GET {path}: {e}"))?;
    http::parse_response(&raw)
}

/// Make one game between two people; its table id.
async fn make_game(target: &Target, creator: &str, joiner: &str) -> Result<String, String> {
    let body = serde_json::json!({"rules": "five-up players=2",
        "seats": [{"kind": "me"}, {"kind": "open"}],
        "correspondence": {"per_move_hours": 168}});
    let r = http::post(
        target,
        None,
        "/api/tables",
        Some(creator),
        &body.to_string(),
    )
    .await?;
    if r.status != 201 {
        return Err(format!(
            "POST /api/tables answered {}: {}",
            r.status, r.body
        ));
    }
    let id = serde_json::from_str::<serde_json::Value>(&r.body).map_err(|e| e.to_string())?["id"]
        .as_str()
        .ok_or("a table with no id")?
        .to_string();
    let r = http::post(
        target,
        None,
        &format!("/api/tables/{id}/join"),
        Some(joiner),
        "{}",
    )
    .await?;
    if r.status != 200 {
        return Err(format!("join answered {}: {}", r.status, r.body));
    }
    Ok(id)
}

/// The games waiting for each person's move: (table, cookie of the person to move).
async fn movers(target: &Target, people: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for p in people {
        let r = get(target, "/api/correspondence/games", p).await?;
        if r.status != 200 {
            return Err(format!("My games answered {}: {}", r.status, r.body));
        }
        let v: serde_json::Value = serde_json::from_str(&r.body).map_err(|e| e.to_string())?;
        for g in v["games"].as_array().into_iter().flatten() {
            if g["your_turn"] == true {
                out.push((
                    g["table"].as_str().unwrap_or_default().to_string(),
                    p.clone(),
                ));
            }
        }
    }
    Ok(out)
}

/// The next message of the server.
async fn next(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>,
    timeout: Duration,
) -> Result<Incoming, String> {
    loop {
        let m = tokio::time::timeout(timeout, ws.next())
            .await
            .map_err(|_| "timeout".to_string())?
            .ok_or("connection closed")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(t) = m {
            return serde_json::from_str(&t).map_err(|e| e.to_string());
        }
    }
}

/// Open one game as the person to move and make one move: (open, move) in microseconds.
async fn open_and_move(
    target: &Target,
    table: &str,
    cookie: &str,
    timeout: Duration,
) -> Result<(u32, u32), String> {
    let stream = http::connect(target.addr, None)
        .await
        .map_err(|e| format!("websocket connect: {e}"))?;
    let mut req = target
        .ws_url()
        .into_client_request()
        .map_err(|e| e.to_string())?;
    req.headers_mut().insert(
        "Cookie",
        HeaderValue::from_str(cookie).map_err(|e| e.to_string())?,
    );
    let (mut ws, _) = tokio_tungstenite::client_async(req, stream)
        .await
        .map_err(|e| format!("websocket upgrade: {e}"))?;
    let send = |v: serde_json::Value| Message::text(v.to_string());
    let t0 = Instant::now();
    ws.send(send(serde_json::json!({"type": "open", "table": table})))
        .await
        .map_err(|e| e.to_string())?;
    let view = loop {
        let m = next(&mut ws, timeout).await?;
        match m.kind {
            Kind::Snapshot => break (m.view.ok_or("a snapshot with no view")?, m.version),
            Kind::Error => return Err(format!("open: {}", m.message.unwrap_or_default())),
            _ => {}
        }
    };
    let open_us = u32::try_from(t0.elapsed().as_micros()).unwrap_or(u32::MAX);
    let (view, version) = view;
    if !view.my_turn() {
        return Err("not this person's move".to_string());
    }
    let action = choose(&view.legal).ok_or("no legal action")?;
    let t1 = Instant::now();
    ws.send(send(serde_json::json!({"type": "act", "id": "m1",
        "version": version.unwrap_or(0), "action": action})))
        .await
        .map_err(|e| e.to_string())?;
    loop {
        let m = next(&mut ws, timeout).await?;
        match m.kind {
            Kind::Ack if m.id.as_deref() == Some("m1") => break,
            Kind::Error => return Err(format!("move: {}", m.message.unwrap_or_default())),
            _ => {}
        }
    }
    let move_us = u32::try_from(t1.elapsed().as_micros()).unwrap_or(u32::MAX);
    let _ = ws.close(None).await;
    Ok((open_us, move_us))
}

/// Run the correspondence mode against a server started in this process.
pub fn run_corr(o: &CorrOptions) -> Result<CorrReport, String> {
    if o.games == 0 || o.clients == 0 {
        return Err("the correspondence mode needs at least one game and one client".into());
    }
    let before = crate::procinfo::rss_kib(None);
    let server = InProcess::start_with(o.server_threads, |cfg| {
        cfg.seed_wait = Duration::from_millis(50);
        cfg.correspondence.open_games = i64::MAX / 2;
    })?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(o.client_threads.max(1))
        .thread_name(crate::CLIENT_THREAD)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let url = server.url.clone();
    let r = rt.block_on(async move {
        let target = Target::parse(&url).await?;
        let errors = Arc::new(Errors::default());
        // People: ten games each on average.
        let n_people = (o.games / 5).max(2);
        let mut people = Vec::with_capacity(n_people);
        for i in 0..n_people {
            people.push(crate::table::guest(&target, None, &format!("corr{i}")).await?);
        }
        let people = Arc::new(people);
        let setup = Instant::now();
        let next = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for _ in 0..o.setup_concurrency.max(1) {
            let (target, people, next, errors) =
                (target.clone(), people.clone(), next.clone(), errors.clone());
            let games = o.games;
            tasks.push(tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        return;
                    }
                    let a = &people[i % people.len()];
                    let b = &people[(i + 1) % people.len()];
                    if let Err(e) = make_game(&target, a, b).await {
                        errors.add(&format!("setup: {e}"));
                    }
                }
            }));
        }
        for t in tasks {
            t.await.map_err(|e| e.to_string())?;
        }
        // Every game dealt and waiting for a person.
        let mut waiting = Vec::new();
        let until = Instant::now() + Duration::from_secs(600);
        while Instant::now() < until {
            waiting = movers(&target, &people).await?;
            if waiting.len() >= o.games {
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let setup_secs = setup.elapsed().as_secs_f64();
        if waiting.len() < o.games {
            errors.add("games not dealt in 10 minutes");
        }
        let stored = crate::procinfo::rss_kib(None);
        let waiting = Arc::new(waiting);
        let samples = Arc::new(Mutex::new((Vec::new(), Vec::new())));
        let next = Arc::new(AtomicUsize::new(0));
        let measured = Instant::now();
        let mut tasks = Vec::new();
        for _ in 0..o.clients {
            let (target, waiting, next, errors, samples) = (
                target.clone(),
                waiting.clone(),
                next.clone(),
                errors.clone(),
                samples.clone(),
            );
            let timeout = o.timeout;
            tasks.push(tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((table, cookie)) = waiting.get(i) else {
                        return;
                    };
                    match open_and_move(&target, table, cookie, timeout).await {
                        Ok((open, mv)) => {
                            let mut s = samples.lock().expect("not poisoned");
                            s.0.push(open);
                            s.1.push(mv);
                        }
                        Err(e) => errors.add(&e),
                    }
                }
            }));
        }
        for t in tasks {
            t.await.map_err(|e| e.to_string())?;
        }
        let measured_secs = measured.elapsed().as_secs_f64();
        let (mut open, mut moves) = std::mem::take(&mut *samples.lock().expect("not poisoned"));
        let error_kinds = errors.0.lock().expect("not poisoned").clone();
        Ok::<CorrReport, String>(CorrReport {
            games: o.games,
            clients: o.clients,
            setup_secs,
            measured_secs,
            open: summarize(&mut open),
            moves: summarize(&mut moves),
            memory_kib: [before, stored, crate::procinfo::rss_kib(None)],
            errors: error_kinds.values().sum(),
            error_kinds,
        })
    });
    rt.shutdown_timeout(Duration::from_secs(5));
    server.stop();
    r
}
