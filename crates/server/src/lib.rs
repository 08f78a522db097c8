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
use axum::serve::ListenerExt as _;
use fiveup_bots::ExpertConfig;
use fiveup_protocol::{ErrorBody, ErrorCode};
use serde::Serialize;
use tokio::sync::watch;

pub mod accounts;
pub mod actor;
pub mod assets;
pub mod db;
pub mod fairness;
pub mod games;
pub mod glicko;
pub mod http;
pub mod limiter;
pub mod outcome;
pub mod project;
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
    /// The expert's settings for hints.
    pub hint_config: ExpertConfig,
    /// The least time between two hints on one connection.
    pub hint_interval: Duration,
    /// The expert's settings for reviews.
    pub review_config: ExpertConfig,
    /// The expert's settings when an `expert` sits at a table.
    pub expert_spec: String,
    /// Origins allowed to open websockets besides the server's own.
    pub allow_origins: Vec<String>,
    /// The `Secure` cookie attribute.
    pub secure_cookies: SecureCookies,
    /// Websocket messages per second per connection (average), and the burst.
    pub ws_rate: (f64, f64),
    /// HTTP POST requests per second per client address, and the burst (`0`: no limit).
    pub http_rate: (f64, f64),
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
            hint_config: expert(100),
            hint_interval: Duration::from_millis(500),
            review_config: expert(60),
            expert_spec: "expert:samples=100,threads=1".to_string(),
            allow_origins: Vec::new(),
            secure_cookies: SecureCookies::Auto,
            ws_rate: (20.0, 40.0),
            http_rate: (50.0, 500.0),
        }
    }

    /// The player spec for a seat level.
    #[must_use]
    pub fn bot_spec(&self, level: &str) -> String {
        if level == "expert" {
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

/// The computer players a seat may hold, weakest first.
pub const BOT_LEVELS: [&str; 4] = ["random", "greedy", "club", "expert"];

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
    /// Reviews computed at once.
    pub review_slots: tokio::sync::Semaphore,
    /// Connection ids.
    pub next_conn: std::sync::atomic::AtomicU64,
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
    /// database. Every acknowledged change is already stored; tables resume on the next start.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        for h in self.app.hub.handles() {
            let _ = h.tx.send(actor::TableCmd::Stop).await;
        }
        let _ = self.task.await;
    }
}

/// Connect the database (migrating it), load every unfinished table, and start listening.
pub async fn start(cfg: Config) -> Result<Server, String> {
    let db = db::Db::connect(&cfg.database).await?;
    let (writer, writer_task) = db::Writer::start(db.clone());
    let (stop, shutdown) = watch::channel(false);
    let listener = tokio::net::TcpListener::bind(cfg.bind)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", cfg.bind))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let http_limiter = limiter::KeyedLimiter::new(cfg.http_rate.0, cfg.http_rate.1);
    let app = Arc::new(App {
        cfg,
        db: db.clone(),
        writer,
        hub: actor::Hub::default(),
        shutdown: shutdown.clone(),
        http_limiter,
        review_slots: tokio::sync::Semaphore::new(1),
        next_conn: std::sync::atomic::AtomicU64::new(1),
    });
    // Bring back every table that was not finished.
    let rows = sqlx::query("SELECT id FROM game_tables WHERE status <> 'finished'")
        .fetch_all(&db.pool)
        .await
        .map_err(db::db_err)?;
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
    let mut stop_rx = shutdown.clone();
    let task = tokio::spawn(async move {
        // Small messages (an `ack` right after an `event`) must not wait for the client's
        // delayed TCP acknowledgement (Nagle's algorithm): up to 40 ms on Linux.
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        let serve = axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            let _ = stop_rx.wait_for(|s| *s).await;
        });
        if let Err(e) = serve.await {
            log(&format!("server error: {e}"));
        }
        drop(writer_task);
        db.close().await;
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
    log(&format!(
        "listening on http://{} ({} tables restored)",
        server.local_addr(),
        server.app.hub.loaded()
    ));
    wait_for_signal().await;
    log("stopping");
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
