//! # fiveup-server
//!
//! The game server behind `fiveup serve`: online Five Up tables over HTTP and websockets, with
//! accounts, a lobby, computer players, chat, hints, stored game records, statistics, Glicko-2
//! ratings, and verifiable deals. See `docs/server.md` and `docs/protocol.md`.
//!
//! The pieces:
//! - [`table`]: one table's game as a pure state machine over its stored changes;
//! - [`project`]: the one projection from (table, viewer) to what the viewer may see;
//! - [`actor`]: one task per table, and the hub that finds them;
//! - [`db`]: SQLite and PostgreSQL through one layer, the migrations, the group-commit writer;
//! - [`http`] and [`ws`]: the HTTP API and the websocket;
//! - [`accounts`], [`games`], [`glicko`], [`fairness`], [`assets`].

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use fiveup_bots::ExpertConfig;
use fiveup_protocol::{ErrorBody, ErrorCode};
use serde::Serialize;
use tokio::sync::watch;

pub mod accounts;
pub mod actor;
pub mod assets;
pub mod cluster;
pub mod db;
pub mod dblock;
pub mod fairness;
pub mod games;
pub mod glicko;
pub mod http;
pub mod janitor;
pub mod limiter;
pub mod listen;
pub mod metrics;
pub mod outcome;
pub mod project;
pub mod relay;
pub mod table;
pub mod ws;

/// Whether cookies get the `Secure` attribute.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SecureCookies {
    /// When the request came over TLS, as a proxy's `X-Forwarded-Proto`/`Forwarded` says.
    Auto,
    /// Always.
    Always,
}

/// The server's settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub bind: SocketAddr,
    /// A `postgres://` URL, an `sqlite:` URL, or an SQLite file path.
    pub database: String,
    /// The pause before a computer player acts.
    pub bot_delay: Duration,
    /// How long a disconnected player's turn waits before a computer player takes over
    /// (`None`: never).
    pub takeover: Option<Duration>,
    /// How long a deal waits for the players' seeds.
    pub seed_wait: Duration,
    /// The search behind hints: by default the strongest level's (`master`), so a hint values
    /// every play as that level would.
    pub hint_config: ExpertConfig,
    /// The most time a hint's search may take: past it the search stops after the world in
    /// progress and the hint rests on the worlds searched so far.
    pub hint_budget: Duration,
    /// The least time between two hints on one connection.
    pub hint_interval: Duration,
    /// The expert's settings for reviews.
    pub review_config: ExpertConfig,
    /// The expert's settings when a `master` sits at a table.
    pub expert_spec: String,
    /// Origins allowed to open websockets besides the server's own.
    pub allow_origins: Vec<String>,
    /// The `Secure` cookie attribute.
    pub secure_cookies: SecureCookies,
    /// Websocket messages per second per connection (average), and the burst.
    pub ws_rate: (f64, f64),
    /// HTTP POST requests per second per client address, and the burst (`0`: no limit).
    pub http_rate: (f64, f64),
    /// How long a connection may take to send a request head, and may stay idle between
    /// requests.
    pub header_timeout: Duration,
    /// Open connections (websockets included) per client address; `0`: no cap.
    pub max_conns_per_addr: usize,
    /// Proxies whose `X-Forwarded-For` names the client (and which have no connection cap).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Password hashes (Argon2id, 19 MiB each) computed at once (threads of their own); the
    /// others wait their turn.
    pub hash_slots: usize,
    /// How many password hashes may wait for a thread before more are refused
    /// (`rate_limited`).
    pub hash_queue: usize,
    /// Login attempts per second per account name, and the burst.
    pub login_rate: (f64, f64),
    /// State-changing requests per second per user (joins, leaves, tables, logouts), and the
    /// burst (`0`: no limit).
    pub user_rate: (f64, f64),
    /// Chat lines per second per user (all tables together), and the burst (`0`: no limit).
    pub chat_rate: (f64, f64),
    /// Chat lines per second per table (all people together), and the burst (`0`: no limit).
    pub table_chat_rate: (f64, f64),
    /// Guests made per second per client address, and the burst (`0`: no limit).
    pub guest_rate: (f64, f64),
    /// Unfinished tables one person may have created at once.
    pub max_open_tables: usize,
    /// Unfinished tables created from one client address at once (all its people together).
    pub max_open_tables_per_addr: usize,
    /// Unfinished tables with computer players created from one client address at once.
    pub max_bot_tables_per_addr: usize,
    /// Unfinished tables with computer players one person may have created at once.
    pub max_bot_tables: usize,
    /// A waiting table nobody changed or followed for this long is closed.
    pub waiting_expiry: Duration,
    /// The most tables a lobby answer lists.
    pub lobby_limit: usize,
    /// The bytes of messages a websocket may have waiting to be sent; a client that lets more
    /// pile up is disconnected.
    pub ws_queue_bytes: usize,
    /// How often the server pings an idle websocket; one that does not answer within the
    /// same time is closed.
    pub ws_ping: Duration,
    /// How long one websocket write may take before the connection is closed.
    pub ws_write_timeout: Duration,
    /// Guests unused for this long (no session, no game, no seat) are deleted.
    pub guest_expiry: Duration,
    /// This instance's name. With a PostgreSQL database it makes the server one of several
    /// sharing it: tables are owned through leases, the lobby is shared (see `cluster`).
    pub instance: Option<String>,
    /// Where the other instances reach this one (default: the address it listens on).
    pub advertise: Option<String>,
    /// How long a table lease lasts without renewal (renewed every third of it).
    pub lease: Duration,
    /// On SIGTERM, how long `/healthz` says "draining" before the tables are handed over, so
    /// that the proxy stops sending new clients first.
    pub drain_wait: Duration,
    /// How long the SQLite writer, once busy, waits for more writes before a commit, so that
    /// one sync of the log serves more moves (see [`db::Writer::start`]); zero: never waits.
    pub commit_window: Duration,
}

impl Config {
    /// Defaults: 127.0.0.1:8080 and `fiveup.db` in the working directory.
    #[must_use]
    pub fn new() -> Config {
        let expert = |samples| ExpertConfig {
            samples,
            threads: 1,
            ..ExpertConfig::default()
        };
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: "fiveup.db".to_string(),
            bot_delay: Duration::from_millis(700),
            takeover: Some(Duration::from_secs(60)),
            seed_wait: Duration::from_secs(30),
            hint_config: fiveup_bots::search_config("master").unwrap_or_else(|_| expert(400)),
            hint_budget: Duration::from_millis(250),
            hint_interval: Duration::from_millis(500),
            review_config: expert(60),
            expert_spec: fiveup_bots::level_spec("master")
                .unwrap_or("expert:threads=1")
                .to_string(),
            allow_origins: Vec::new(),
            secure_cookies: SecureCookies::Auto,
            ws_rate: (20.0, 40.0),
            http_rate: (50.0, 500.0),
            header_timeout: Duration::from_secs(10),
            max_conns_per_addr: 64,
            trusted_proxies: Vec::new(),
            hash_slots: std::thread::available_parallelism().map_or(2, std::num::NonZero::get),
            hash_queue: 64,
            login_rate: (0.2, 10.0),
            user_rate: (5.0, 50.0),
            chat_rate: (1.0, 5.0),
            guest_rate: (1.0 / 60.0, 20.0),
            max_open_tables_per_addr: 30,
            max_bot_tables_per_addr: 9,
            table_chat_rate: (4.0, 20.0),
            max_open_tables: 10,
            max_bot_tables: 3,
            waiting_expiry: Duration::from_secs(3600),
            lobby_limit: 100,
            ws_queue_bytes: 1 << 20,
            ws_ping: Duration::from_secs(30),
            ws_write_timeout: Duration::from_secs(10),
            guest_expiry: Duration::from_secs(30 * 24 * 3600),
            instance: None,
            advertise: None,
            lease: Duration::from_secs(5),
            drain_wait: Duration::from_secs(2),
            commit_window: db::COMMIT_WINDOW,
        }
    }

    /// The player spec for a seat level.
    #[must_use]
    pub fn bot_spec(&self, level: &str) -> String {
        if level == "master" || level == "expert" {
            self.expert_spec.clone()
        } else {
            level.to_string()
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::new()
    }
}

/// The computer players a seat may hold, weakest first: the levels of
/// [`fiveup_bots::LEVELS`].
pub const BOT_LEVELS: [&str; 5] = ["beginner", "casual", "club", "strong", "master"];

/// Players a seat may also name directly, as before the levels (not offered in the lists).
pub const BOT_PLAYERS: [&str; 5] = ["random", "greedy", "club", "pimc", "expert"];

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
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A new random id: 12 lowercase letters and digits.
#[must_use]
pub fn new_id() -> String {
    const A: &[u8; 36] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    fairness::random_bytes()[..12]
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
            max
        }
        None => {
            log("open files: limit unknown; at most 896 connections");
            listen::max_conns(1024)
        }
    };
    let conns = listen::ConnCounter::new(cfg.max_conns_per_addr, max_conns);
    let app = Arc::new(App {
        login_limiter: limiter::KeyedLimiter::new(cfg.login_rate.0, cfg.login_rate.1),
        user_limiter: limiter::KeyedLimiter::new(cfg.user_rate.0, cfg.user_rate.1),
        chat_limiter: limiter::KeyedLimiter::new(cfg.chat_rate.0, cfg.chat_rate.1),
        guest_limiter: limiter::KeyedLimiter::new(cfg.guest_rate.0, cfg.guest_rate.1),
        hashes: accounts::HashPool::new(cfg.hash_slots, cfg.hash_queue),
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
        sqlx::query("SELECT id FROM game_tables WHERE status <> 'finished'")
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
    let router = http::router(app.clone());
    let stop_rx = shutdown.clone();
    let trusted = Arc::new(app.cfg.trusted_proxies.clone());
    let header_timeout = app.cfg.header_timeout;
    janitor::start(&app);
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
