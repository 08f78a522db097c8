//! The server under test, started in this process through the server crate's library API: on
//! a free loopback port, with a fresh SQLite file in a temporary folder, on a Tokio runtime of
//! its own (so its threads' CPU time can be told apart from the players').

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Thread name of the in-process server's runtime.
pub const SERVER_THREAD: &str = "fiveup-server";

/// A running in-process server; dropping it without [`InProcess::stop`] abandons it.
#[derive(Debug)]
pub struct InProcess {
    rt: tokio::runtime::Runtime,
    server: fiveup_server::Server,
    dir: tempfile::TempDir,
    /// `http://127.0.0.1:port`.
    pub url: String,
}

impl InProcess {
    /// Start a server with `threads` worker threads. It keeps the server's durability (every
    /// accepted action committed to SQLite, in WAL mode with `synchronous=FULL`, before its
    /// acknowledgement); it lifts the request-rate limits, since every player of the load test
    /// comes from this one machine, and sets the computer players' pause to zero.
    pub fn start(threads: usize) -> Result<InProcess, String> {
        InProcess::start_with(threads, |_| {})
    }

    /// [`InProcess::start`] with more settings changed by `change`.
    pub fn start_with(
        threads: usize,
        change: impl FnOnce(&mut fiveup_server::Config),
    ) -> Result<InProcess, String> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads.max(1))
            .thread_name(SERVER_THREAD)
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the server runtime: {e}"))?;
        let dir = tempfile::Builder::new()
            .prefix("fiveup-loadtest-")
            .tempdir()
            .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
        let mut cfg = fiveup_server::Config::new();
        cfg.bind = SocketAddr::from(([127, 0, 0, 1], 0));
        cfg.database = dir.path().join("loadtest.db").display().to_string();
        cfg.bot_delay = Duration::ZERO;
        cfg.ws_rate = (0.0, 0.0);
        cfg.http_rate = (0.0, 0.0);
        cfg.user_rate = (0.0, 0.0);
        cfg.guest_rate = (0.0, 0.0);
        cfg.max_open_tables_per_addr = usize::MAX;
        cfg.max_bot_tables_per_addr = usize::MAX;
        change(&mut cfg);
        let server = rt.block_on(fiveup_server::start(cfg))?;
        let url = format!("http://{}", server.local_addr());
        Ok(InProcess {
            rt,
            server,
            dir,
            url,
        })
    }

    /// The database file.
    #[must_use]
    pub fn database(&self) -> PathBuf {
        self.dir.path().join("loadtest.db")
    }

    /// Make the registered account `name` a moderator, as `fiveup admin grant-moderator`
    /// does on the server's machine. Call it from outside any runtime.
    pub fn grant_moderator(&self, name: &str) -> Result<i64, String> {
        let app = self.server.app.clone();
        self.rt
            .block_on(fiveup_server::moderation::set_moderator(
                &app.db, name, true,
            ))
            .map(|(id, _)| id)
    }

    /// The temporary folder holding the database.
    #[must_use]
    pub fn folder(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// Shut the server down gracefully and remove its folder.
    pub fn stop(self) {
        let InProcess {
            rt, server, dir, ..
        } = self;
        rt.block_on(server.shutdown());
        rt.shutdown_timeout(Duration::from_secs(5));
        drop(dir);
    }
}
