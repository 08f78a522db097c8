//! # fiveup-server
//!
//! The game server behind `fiveup serve`: online Five Up tables over HTTP and websockets, with
//! accounts, a lobby, computer players, chat, hints, stored game records, statistics, Glicko-2
//! ratings, and verifiable deals. See `docs/server.md` and `docs/protocol.md`.
//!
//! The code is arranged by concern, one folder each (`docs/architecture.md` has the map):
//! - [`table`]: the table runtime: one table's game as a pure state machine over its stored
//!   changes, the one projection to what each viewer may see, the task that runs each table,
//!   hand outcomes and verifiable deals;
//! - [`web`]: the web layer: the accept loop, the HTTP API, the websocket, the embedded browser
//!   client, rate limits, and the relay to the instance that runs a table;
//! - [`store`]: storage and leases: the database layer and its group-commit writer, the
//!   database locks, table leases and the bus between instances, the housekeeping;
//! - [`accounts`]: guests, registration, login, sessions, names;
//! - [`games`]: finished games and ratings: records, statistics, Glicko-2, replays, reviews;
//! - [`bots`]: bot accounts: their tokens, the bot API and the engines page's data;
//! - [`tournament`]: tournaments run online: events, their directors, their endpoints;
//! - [`config`] and [`metrics`]: the settings and what an operator watches.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use fiveup_protocol::{ErrorBody, ErrorCode};
use serde::Serialize;
use tokio::sync::watch;

pub mod accounts;
pub mod bots;
pub mod clock;
pub mod config;
pub mod correspondence;
pub mod games;
pub mod janitor;
pub mod limiter;
pub mod metrics;
pub mod moderation;
pub mod store;
pub mod table;
pub mod tournament;
pub mod web;

pub use config::{Config, SecureCookies, BOT_LEVELS, BOT_PLAYERS};
use store::{db, dblock};
use table::actor;
use table::cluster;
use web::listen;

/// Everything the handlers and table tasks share.
#[derive(Debug)]
pub struct App {
    /// Settings.
    pub cfg: Config,
    /// The database.
    pub db: db::Db,
    /// The group-commit writer.
    pub writer: db::Writer,
    /// The tables.
    pub hub: actor::Hub,
    /// Turns true when the server stops.
    pub shutdown: watch::Receiver<bool>,
    /// HTTP rate limits per client address.
    pub http_limiter: limiter::KeyedLimiter,
    /// Login attempts per account name.
    pub login_limiter: limiter::KeyedLimiter<String>,
    /// State-changing requests per user.
    pub user_limiter: limiter::KeyedLimiter<i64>,
    /// Chat lines per user.
    pub chat_limiter: limiter::KeyedLimiter<i64>,
    /// Guests made per client address.
    pub guest_limiter: limiter::KeyedLimiter,
    /// The password-hashing threads.
    pub hashes: accounts::HashPool,
    /// Open connections per address.
    pub conns: Arc<listen::ConnCounter>,
    /// Open websockets per client address named by a trusted proxy (whose own connections
    /// have no per-address cap).
    pub forwarded_conns: Arc<listen::ConnCounter>,
    /// Session tokens (their SHA-256, hex) ended: websockets opened with them close.
    pub revoked: tokio::sync::broadcast::Sender<Arc<str>>,
    /// Reviews computed at once.
    pub review_slots: tokio::sync::Semaphore,
    /// Connection ids.
    pub next_conn: std::sync::atomic::AtomicU64,
    /// What `/metrics` reports.
    pub metrics: metrics::Metrics,
    /// True once a graceful stop began: `/healthz` answers 503 so the proxy sends no one here.
    pub draining: std::sync::atomic::AtomicBool,
    /// The shared-database mode (leases, shared lobby), when this is one of several instances.
    pub cluster: Option<cluster::Cluster>,
    /// The database locks (PostgreSQL): one server per database, one instance per name.
    pub db_lock: Option<Arc<dblock::DbLock>>,
    /// Bot accounts: rate limits per bot token, open challenges.
    pub bots: bots::Bots,
    /// Tournaments: the notes for websockets and the directors' wake-up.
    pub tournaments: tournament::Tournaments,
    /// Correspondence play: the Web Push key and client.
    pub corr: correspondence::Corr,
    /// The concerns that hear what happens at tables (registered in [`start`]).
    pub hooks: table::hooks::Hooks,
    /// The computer players' searches, owners served in turn.
    pub compute: Arc<table::compute::FairPool>,
    /// Wakes the fair-play analysis when a rated game is queued.
    pub fairplay_wake: tokio::sync::Notify,
}

/// The concerns built on the table runtime, in the order they hear of each table event: a
/// finished game is stored (games) before a tournament reads it; correspondence keeps its
/// clocks; mutes hide chat lines; moderation queues rated games for the fair-play analysis
/// (after games, which wrote their rating changes) and keeps a muted person's chat to
/// themselves. A new concern is added here.
#[must_use]
pub fn table_hooks() -> table::hooks::Hooks {
    table::hooks::Hooks::new(vec![
        Arc::new(games::Records),
        Arc::new(tournament::Results),
        Arc::new(correspondence::Clocks),
        Arc::new(correspondence::mute::Mutes),
        Arc::new(moderation::Moderation),
    ])
}

/// An HTTP error: a code and a message, answered as an [`ErrorBody`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The code.
    pub code: ErrorCode,
    /// For people.
    pub message: String,
}

impl ApiError {
    /// An error.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
        }
    }

    /// A server fault.
    pub fn internal(message: impl Into<String>) -> ApiError {
        let message = message.into();
        log(&format!("internal error: {message}"));
        ApiError::new(ErrorCode::Internal, message)
    }
}

impl From<table::Refusal> for ApiError {
    fn from(r: table::Refusal) -> ApiError {
        ApiError::new(r.code, r.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.code.http_status())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (
            status,
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            serde_json::to_string(&ErrorBody {
                error: self.code,
                message: self.message,
            })
            .expect("error bodies serialise"),
        )
            .into_response()
    }
}

/// The server's async threads by default, on SQLite (`sqlite`, see [`db::is_sqlite`]) or
/// PostgreSQL. On SQLite, one fewer than the cores, at least one: the SQLite writer has a thread
/// of its own and is busy under load, and with every core running async work as well each move
/// woke threads across cores (on two cores, one async thread used a fifth less CPU a move for
/// the same load: docs/benchmarks.md). On PostgreSQL, whose writes are async, every core.
#[must_use]
pub fn default_workers(sqlite: bool) -> usize {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    if sqlite {
        cores.saturating_sub(1).max(1)
    } else {
        cores
    }
}

/// Serialise a message once, to share between receivers.
#[must_use]
pub fn to_json<T: Serialize>(v: &T) -> Arc<str> {
    Arc::from(serde_json::to_string(v).expect("protocol messages serialise"))
}

/// Seconds since the Unix epoch.
#[must_use]
pub fn now() -> i64 {
    clock::system_now()
}

/// A new random id: 12 lowercase letters and digits.
#[must_use]
pub fn new_id() -> String {
    const A: &[u8; 36] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    table::fairness::random_bytes()[..12]
        .iter()
        .map(|b| A[(*b as usize) % 36] as char)
        .collect()
}

/// Whether an instance name is acceptable: 1 to 64 ASCII letters, digits, `-` or `_`.
#[must_use]
pub fn valid_instance_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A line on standard error.
pub fn log(msg: &str) {
    eprintln!("fiveup serve: {msg}");
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
    /// The shared state (for tests and tools).
    pub app: Arc<App>,
}

impl Server {
    /// The address it listens on.
    #[must_use]
    pub const fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stop: refuse new connections, tell clients, finish the writes in flight, close the
    /// database. Every acknowledged change is already stored; tables resume on the next start
    /// (with several instances, another instance takes them at once: each table's lease is
    /// given up as its task stops).
    pub async fn shutdown(self) {
        self.app
            .draining
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let _ = self.stop.send(true);
        let handles = self.app.hub.handles();
        for h in &handles {
            let _ = h.tx.send(actor::TableCmd::Stop).await;
        }
        // Each task ends once its last write is stored (and its lease given up).
        for h in handles {
            let _ = tokio::time::timeout(Duration::from_secs(10), h.tx.closed()).await;
        }
        let _ = self.task.await;
        self.app.db.close().await;
        if let Some(l) = &self.app.db_lock {
            l.release().await;
        }
    }
}

/// The listening socket, with a long accept queue: under a flood of connections a short one
/// (the usual 1,024) fills while the accept loop catches up, and a real client's connection is
/// then dropped and retried by its kernel a second later. The kernel caps the length at its
/// `somaxconn`.
fn listen_socket(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = socket2::Socket::new(
        socket2::Domain::for_address(addr),
        socket2::Type::STREAM,
        Some(socket2::Protocol::TCP),
    )?;
    socket.set_reuse_address(true)?;
    socket.set_nonblocking(true)?;
    socket.bind(&addr.into())?;
    socket.listen(8192)?;
    tokio::net::TcpListener::from_std(socket.into())
}

/// Connect the database (migrating it), load every unfinished table, and start listening.
pub async fn start(cfg: Config) -> Result<Server, String> {
    let cluster = match &cfg.instance {
        None => None,
        Some(name) => {
            if !valid_instance_name(name) {
                return Err(format!(
                    "bad instance name {name:?}: 1 to 64 letters, digits, '-' or '_'"
                ));
            }
            if db::normalize_url(&cfg.database).starts_with("sqlite:") {
                return Err(
                    "--instance needs a PostgreSQL database shared by the instances".to_string(),
                );
            }
            if cfg.lease < Duration::from_secs(1) {
                return Err("the lease lasts at least a second".to_string());
            }
            Some(cluster::Cluster::new(name, &cfg.database, cfg.lease))
        }
    };
    let db = db::Db::connect(&cfg.database).await?;
    let db_lock = dblock::take(&db::normalize_url(&cfg.database), cfg.instance.as_deref()).await?;
    accounts::backfill_skeletons(&db).await?;
    let corr = correspondence::Corr::new(&db, &cfg.correspondence).await?;
    let metrics = metrics::Metrics::new(cfg.instance.as_deref().unwrap_or("single"));
    let writer = db::Writer::start(
        db.clone(),
        metrics.commit_seconds.clone(),
        cluster.as_ref().map(|c| c.fence.clone()),
        cfg.commit_window,
    )
    .await?;
    let (stop, shutdown) = watch::channel(false);
    let listener =
        listen_socket(cfg.bind).map_err(|e| format!("cannot listen on {}: {e}", cfg.bind))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let http_limiter = limiter::KeyedLimiter::new(cfg.http_rate.0, cfg.http_rate.1);
    // Keep some descriptors for the database, the log and the runtime.
    let max_conns = match listen::raise_file_limit() {
        Some((before, files)) => {
            let max = listen::max_conns(files);
            log(&format!(
                "open files: limit {files}{}; at most {max} connections, {} descriptors kept \
                 for the database and the server's own work",
                if before < files {
                    format!(" (raised from {before})")
                } else {
                    String::new()
                },
                listen::FILE_RESERVE
            ));
            if let Some(w) = listen::file_limit_warning(files, max, cfg.max_conns_per_addr) {
                log(&w);
            }
            max
        }
        None => {
            log("open files: limit unknown; at most 896 connections");
            listen::max_conns(1024)
        }
    };
    let conns = listen::ConnCounter::new(cfg.max_conns_per_addr, max_conns);
    let cfg_compute_slots = cfg.compute_slots;
    let tournaments = tournament::Tournaments::new(&cfg);
    let app = Arc::new(App {
        login_limiter: limiter::KeyedLimiter::new(cfg.login_rate.0, cfg.login_rate.1),
        user_limiter: limiter::KeyedLimiter::new(cfg.user_rate.0, cfg.user_rate.1),
        chat_limiter: limiter::KeyedLimiter::new(cfg.chat_rate.0, cfg.chat_rate.1),
        guest_limiter: limiter::KeyedLimiter::new(cfg.guest_rate.0, cfg.guest_rate.1),
        hashes: accounts::HashPool::new(cfg.hash_slots, cfg.hash_queue),
        bots: bots::Bots::new(&cfg),
        conns: conns.clone(),
        forwarded_conns: listen::ConnCounter::new(cfg.max_conns_per_addr, usize::MAX),
        revoked: tokio::sync::broadcast::channel(1024).0,
        cfg,
        db: db.clone(),
        writer,
        hub: actor::Hub::default(),
        shutdown: shutdown.clone(),
        http_limiter,
        review_slots: tokio::sync::Semaphore::new(1),
        next_conn: std::sync::atomic::AtomicU64::new(1),
        metrics,
        draining: std::sync::atomic::AtomicBool::new(false),
        cluster,
        db_lock,
        tournaments,
        corr,
        hooks: table_hooks(),
        compute: table::compute::FairPool::new(cfg_compute_slots),
        fairplay_wake: tokio::sync::Notify::new(),
    });
    if let Some(c) = &app.cluster {
        let advertise = app
            .cfg
            .advertise
            .clone()
            .unwrap_or_else(|| addr.to_string());
        advertise.clone_into(&mut c.addr.lock().expect("addr lock"));
        // The tables nobody runs are taken by the orphan scan, started here.
        cluster::start(&app).await?;
    }
    // Bring back every table that was not finished (with several instances, the orphan scan
    // does this).
    let rows = if app.cluster.is_some() {
        Vec::new()
    } else {
        // Correspondence games in play are loaded when needed (their timers are rows); those
        // still waiting for players are loaded for the lobby.
        sqlx::query(
            "SELECT id FROM game_tables WHERE status <> 'finished' \
             AND (status = 'waiting' OR config NOT LIKE '%\"correspondence\"%')",
        )
        .fetch_all(&db.pool)
        .await
        .map_err(db::db_err)?
    };
    for r in rows {
        let id = db::text(&r, "id")?;
        match actor::load(&app, &id).await {
            Ok(core) => {
                actor::spawn(&app, core);
            }
            Err(e) => log(&format!("table {id} could not be restored: {}", e.message)),
        }
    }
    let router = web::api::router(app.clone());
    let stop_rx = shutdown.clone();
    let trusted = Arc::new(app.cfg.trusted_proxies.clone());
    let header_timeout = app.cfg.header_timeout;
    janitor::start(&app);
    tournament::director::start(&app);
    correspondence::start(&app);
    moderation::fairplay::start(&app);
    let task = tokio::spawn(async move {
        listen::serve(listener, router, conns, trusted, header_timeout, stop_rx).await;
    });
    Ok(Server {
        addr,
        stop,
        task,
        app,
    })
}

/// Run until SIGTERM or Ctrl-C, then shut down gracefully.
pub async fn run(cfg: Config) -> Result<(), String> {
    let server = start(cfg).await?;
    match &server.app.cluster {
        None => log(&format!(
            "listening on http://{} ({} tables restored)",
            server.local_addr(),
            server.app.hub.loaded()
        )),
        Some(c) => log(&format!(
            "listening on http://{} (instance {}, {} tables taken so far)",
            server.local_addr(),
            c.name,
            server.app.hub.loaded()
        )),
    }
    wait_for_signal().await;
    log("stopping");
    if server.app.cluster.is_some() {
        // `/healthz` says "draining" first, so that the proxy sends nobody new here; then the
        // tables are handed over.
        server
            .app
            .draining
            .store(true, std::sync::atomic::Ordering::Relaxed);
        tokio::time::sleep(server.app.cfg.drain_wait).await;
    }
    server.shutdown().await;
    log("stopped");
    Ok(())
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = signal(SignalKind::terminate()).expect("SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn hints_search_as_the_strongest_level_within_their_budget() {
        let c = super::Config::new();
        // `master` is the strongest level, and hints search as it does.
        assert_eq!(fiveup_bots::LEVELS.last().map(|l| l.0), Some("master"));
        assert_eq!(c.hint_config, fiveup_bots::search_config("master").unwrap());
        assert_eq!(c.hint_config.threads, 1);
        // A hint is answered before the next one may be asked.
        assert!(c.hint_budget <= c.hint_interval);
    }
}
