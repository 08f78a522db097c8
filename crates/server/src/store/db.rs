//! The database: one async layer over SQLite and PostgreSQL (sqlx's `Any` driver, queries
//! written once with `$1`-style parameters, which both accept), the migrations, and the
//! group-commit writer that makes every accepted change durable before it is acknowledged.

use std::time::Duration;

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};
use tokio::sync::{mpsc, oneshot};

/// The migrations, in order: (version, SQLite text, PostgreSQL text).
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        1,
        include_str!("../../migrations/sqlite/0001_init.sql"),
        include_str!("../../migrations/postgres/0001_init.sql"),
    ),
    (
        2,
        include_str!("../../migrations/sqlite/0002_hardening.sql"),
        include_str!("../../migrations/postgres/0002_hardening.sql"),
    ),
    (
        3,
        include_str!("../../migrations/sqlite/0003_cluster.sql"),
        include_str!("../../migrations/postgres/0003_cluster.sql"),
    ),
    (
        4,
        include_str!("../../migrations/sqlite/0004_names.sql"),
        include_str!("../../migrations/postgres/0004_names.sql"),
    ),
    (
        5,
        include_str!("../../migrations/sqlite/0005_tournaments.sql"),
        include_str!("../../migrations/postgres/0005_tournaments.sql"),
    ),
    (
        6,
        include_str!("../../migrations/sqlite/0006_bots.sql"),
        include_str!("../../migrations/postgres/0006_bots.sql"),
    ),
    (
        7,
        include_str!("../../migrations/sqlite/0007_correspondence.sql"),
        include_str!("../../migrations/postgres/0007_correspondence.sql"),
    ),
    (
        8,
        include_str!("../../migrations/sqlite/0008_display_names.sql"),
        include_str!("../../migrations/postgres/0008_display_names.sql"),
    ),
    (
        9,
        include_str!("../../migrations/sqlite/0009_no_shows.sql"),
        include_str!("../../migrations/postgres/0009_no_shows.sql"),
    ),
    (
        10,
        include_str!("../../migrations/sqlite/0010_corr_turns_mutes.sql"),
        include_str!("../../migrations/postgres/0010_corr_turns_mutes.sql"),
    ),
    (
        11,
        include_str!("../../migrations/sqlite/0011_push_delivery.sql"),
        include_str!("../../migrations/postgres/0011_push_delivery.sql"),
    ),
    (
        12,
        include_str!("../../migrations/sqlite/0012_moderation.sql"),
        include_str!("../../migrations/postgres/0012_moderation.sql"),
    ),
];

/// Which database.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Backend {
    /// An SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// A connection pool with its backend.
#[derive(Clone, Debug)]
pub struct Db {
    /// The pool.
    pub pool: AnyPool,
    /// The backend.
    pub backend: Backend,
}

/// A database error as text.
pub type DbResult<T> = Result<T, String>;

fn err(e: sqlx::Error) -> String {
    e.to_string()
}

/// Turn a `--database` value into a sqlx URL: a `postgres://` or `sqlite:` URL as is, anything
/// else is an SQLite file path (created if missing).
#[must_use]
pub fn normalize_url(s: &str) -> String {
    if s.starts_with("postgres://") || s.starts_with("postgresql://") || s.starts_with("sqlite:") {
        s.to_string()
    } else {
        format!("sqlite://{s}?mode=rwc")
    }
}

/// Whether a `--database` value names an SQLite database (a file path or an `sqlite:` URL).
#[must_use]
pub fn is_sqlite(database: &str) -> bool {
    normalize_url(database).starts_with("sqlite:")
}

impl Db {
    /// Connect and migrate.
    pub async fn connect(url: &str) -> DbResult<Db> {
        sqlx::any::install_default_drivers();
        let backend = if is_sqlite(url) {
            Backend::Sqlite
        } else {
            Backend::Postgres
        };
        let url = normalize_url(url);
        let mut opts = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 8 } else { 16 })
            .acquire_timeout(Duration::from_secs(30));
        if backend == Backend::Sqlite {
            opts = opts.after_connect(|conn, _meta| {
                Box::pin(async move {
                    conn.execute("PRAGMA journal_mode=WAL").await?;
                    conn.execute("PRAGMA synchronous=FULL").await?;
                    conn.execute("PRAGMA busy_timeout=10000").await?;
                    // Checkpoints run in the background (`checkpointer`), not inside the
                    // commit that happens to fill the log: that commit and every write waiting
                    // behind it would stall for tens of milliseconds.
                    conn.execute("PRAGMA wal_autocheckpoint=0").await?;
                    Ok(())
                })
            });
        }
        let pool = opts
            .connect(&url)
            .await
            .map_err(|e| format!("cannot open the database {url}: {e}"))?;
        let db = Db { pool, backend };
        db.migrate().await?;
        Ok(db)
    }

    async fn migrate(&self) -> DbResult<()> {
        // Several instances may start at once on one PostgreSQL database: they migrate one at
        // a time, under an advisory lock held by this connection.
        let mut conn = self.pool.acquire().await.map_err(err)?;
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_advisory_lock(5550001)")
                .execute(&mut *conn)
                .await
                .map_err(err)?;
        }
        let r = self.migrate_on(&mut conn).await;
        if self.backend == Backend::Postgres {
            let _ = sqlx::query("SELECT pg_advisory_unlock(5550001)")
                .execute(&mut *conn)
                .await;
        }
        r
    }

    async fn migrate_on(&self, conn: &mut sqlx::pool::PoolConnection<sqlx::Any>) -> DbResult<()> {
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations \
                 (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)",
        )
        .await
        .map_err(err)?;
        for &(version, lite, pg) in MIGRATIONS {
            let done: Option<AnyRow> =
                sqlx::query("SELECT version FROM schema_migrations WHERE version = $1")
                    .bind(version)
                    .fetch_optional(&mut **conn)
                    .await
                    .map_err(err)?;
            if done.is_some() {
                continue;
            }
            let text = if self.backend == Backend::Sqlite {
                lite
            } else {
                pg
            };
            let mut tx = sqlx::Connection::begin(&mut **conn).await.map_err(err)?;
            for stmt in text.split(';') {
                let body: String = stmt
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("--"))
                    .collect::<Vec<_>>()
                    .join("\n");
                if body.trim().is_empty() {
                    continue;
                }
                sqlx::query(&body)
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| format!("migration {version}: {e}"))?;
            }
            sqlx::query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)")
                .bind(version)
                .bind(crate::now())
                .execute(&mut *tx)
                .await
                .map_err(err)?;
            tx.commit().await.map_err(err)?;
        }
        Ok(())
    }

    /// Close the pool (SQLite checkpoints its log).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// One write of the group-commit writer.
#[derive(Clone, Debug)]
pub enum WriteOp {
    /// A new table.
    NewTable {
        /// Its id.
        id: String,
        /// Creation time.
        created_at: i64,
        /// Its `TableConfig` as JSON.
        config: String,
        /// Its status.
        status: String,
    },
    /// A stored change of a table.
    Event {
        /// The table.
        table: String,
        /// The version the change made.
        seq: u64,
        /// The change as JSON.
        body: String,
    },
    /// A table's status changed.
    Status {
        /// The table.
        table: String,
        /// The new status.
        status: String,
    },
    /// When a correspondence table's move began, stored with the change that began it (a
    /// restart resumes that move's clock instead of starting it again).
    TurnStart {
        /// The table.
        table: String,
        /// The version the change made.
        version: u64,
        /// The time (seconds since the epoch, the correspondence clock's).
        at: i64,
    },
    /// A correspondence timeout counted against a person, stored with the timeout itself.
    Timeout {
        /// The table.
        table: String,
        /// The person whose time ran out.
        user: i64,
        /// The time.
        at: i64,
    },
}

/// Sends writes to the group-commit writer.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<WriteReqBox>,
}

/// A request in the writer's queue.
#[derive(Debug)]
pub struct WriteReqBox(WriteReqInner);

#[derive(Debug)]
struct WriteReqInner {
    ops: Vec<WriteOp>,
    done: oneshot::Sender<DbResult<()>>,
}

impl WriteOp {
    fn table(&self) -> &str {
        match self {
            WriteOp::NewTable { id, .. } => id,
            WriteOp::Event { table, .. }
            | WriteOp::Status { table, .. }
            | WriteOp::TurnStart { table, .. }
            | WriteOp::Timeout { table, .. } => table,
        }
    }
}

/// The error of a write refused because this instance no longer holds the table's lease.
pub const LEASE_LOST: &str = "lease lost: another instance runs this table now";

/// The fencing tokens of the table leases this instance holds (table id -> token), when it is
/// one of several instances: a write for a table whose lease row no longer carries the token
/// is refused, inside the transaction that would store it.
pub type Fence = std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, i64>>>;

/// The most requests committed in one transaction.
const BATCH: usize = 1024;

impl Writer {
    /// Start the writer; each commit's time goes to `latency`; with a `fence`, writes are
    /// checked against the table leases (see [`Fence`]; only with PostgreSQL, which the
    /// instances of a cluster share).
    ///
    /// With SQLite the writer is an OS thread of its own that calls SQLite directly and, when
    /// busy, waits up to `window` to gather more writes into a commit (see `sqlite_writer`);
    /// with PostgreSQL it is a task on the runtime using the pool.
    pub async fn start(
        db: Db,
        latency: prometheus::Histogram,
        fence: Option<Fence>,
        window: Duration,
    ) -> DbResult<Writer> {
        let (tx, rx) = mpsc::channel::<WriteReqBox>(8192);
        if db.backend == Backend::Sqlite {
            if fence.is_some() {
                return Err("table leases need a PostgreSQL database".to_string());
            }
            let path = sqlite_file(&db).await?;
            let conn = open_sqlite_writer(&path)?;
            tokio::spawn(checkpointer(db.clone()));
            std::thread::Builder::new()
                .name("sqlite-writer".to_string())
                .spawn(move || sqlite_writer(&conn, rx, &latency, window))
                .map_err(|e| format!("cannot start the database writer: {e}"))?;
        } else {
            tokio::spawn(writer_loop(db, rx, latency, fence));
        }
        Ok(Writer { tx })
    }

    /// Write these operations durably (one transaction, possibly shared with other tables'
    /// writes); returns once committed.
    pub async fn write(&self, ops: Vec<WriteOp>) -> DbResult<()> {
        let (done, wait) = oneshot::channel();
        self.tx
            .send(WriteReqBox(WriteReqInner { ops, done }))
            .await
            .map_err(|_| "the database writer has stopped".to_string())?;
        wait.await
            .map_err(|_| "the database writer has stopped".to_string())?
    }
}

async fn apply_ops(tx: &mut sqlx::Transaction<'_, sqlx::Any>, ops: &[WriteOp]) -> DbResult<()> {
    for op in ops {
        match op {
            WriteOp::NewTable {
                id,
                created_at,
                config,
                status,
            } => {
                sqlx::query(
                    "INSERT INTO game_tables (id, created_at, config, status) \
                     VALUES ($1, $2, $3, $4)",
                )
                .bind(id.as_str())
                .bind(*created_at)
                .bind(config.as_str())
                .bind(status.as_str())
                .execute(&mut **tx)
                .await
                .map_err(err)?;
            }
            WriteOp::Event { table, seq, body } => {
                sqlx::query("INSERT INTO table_events (table_id, seq, body) VALUES ($1, $2, $3)")
                    .bind(table.as_str())
                    .bind(*seq as i64)
                    .bind(body.as_str())
                    .execute(&mut **tx)
                    .await
                    .map_err(err)?;
            }
            WriteOp::Status { table, status } => {
                sqlx::query("UPDATE game_tables SET status = $1 WHERE id = $2")
                    .bind(status.as_str())
                    .bind(table.as_str())
                    .execute(&mut **tx)
                    .await
                    .map_err(err)?;
            }
            WriteOp::TurnStart { table, version, at } => {
                sqlx::query(TURN_START_SQL)
                    .bind(table.as_str())
                    .bind(*version as i64)
                    .bind(*at)
                    .execute(&mut **tx)
                    .await
                    .map_err(err)?;
            }
            WriteOp::Timeout { table, user, at } => {
                sqlx::query(TIMEOUT_SQL)
                    .bind(table.as_str())
                    .bind(*user)
                    .bind(*at)
                    .execute(&mut **tx)
                    .await
                    .map_err(err)?;
            }
        }
    }
    Ok(())
}

/// Stores a [`WriteOp::TurnStart`] (parameters in order, as both drivers take them).
const TURN_START_SQL: &str = "INSERT INTO corr_turns (table_id, version, started_at) \
     VALUES ($1, $2, $3) ON CONFLICT (table_id, version) DO NOTHING";

/// Stores a [`WriteOp::Timeout`]: once per person and game.
const TIMEOUT_SQL: &str = "INSERT INTO corr_timeouts (table_id, user_id, at) \
     VALUES ($1, $2, $3) ON CONFLICT (table_id, user_id) DO NOTHING";

/// Table changes inserted by one statement.
const ROWS_PER_INSERT: usize = 200;

/// The tables of `batch` whose lease this instance no longer holds. The lease rows are read
/// `FOR SHARE` inside the transaction `tx`: a takeover (which updates the row) waits until this
/// transaction ends, so nothing is stored for a table once another instance has taken it.
async fn fenced_out(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    batch: &[WriteReqInner],
    fence: &Fence,
) -> DbResult<std::collections::HashSet<String>> {
    let mut ids: Vec<&str> = batch
        .iter()
        .flat_map(|r| r.ops.iter().map(WriteOp::table))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let held: std::collections::HashMap<String, i64> = {
        let f = fence.lock().expect("fence lock");
        ids.iter()
            .filter_map(|id| f.get(*id).map(|t| ((*id).to_string(), *t)))
            .collect()
    };
    let mut stored = std::collections::HashMap::new();
    for chunk in ids.chunks(500) {
        let list: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT table_id, token FROM table_leases WHERE table_id IN ({}) FOR SHARE",
            list.join(",")
        );
        let mut q = sqlx::query(&sql);
        for id in chunk {
            q = q.bind(*id);
        }
        for row in q.fetch_all(&mut **tx).await.map_err(err)? {
            stored.insert(text(&row, "table_id")?, int(&row, "token")?);
        }
    }
    Ok(ids
        .into_iter()
        .filter(|id| !held.contains_key(*id) || stored.get(*id) != held.get(*id))
        .map(str::to_string)
        .collect())
}

async fn commit_batch(db: &Db, batch: &[WriteReqInner], fence: Option<&Fence>) -> DbResult<()> {
    let mut tx = db.pool.begin().await.map_err(err)?;
    if let Some(fence) = fence {
        if !fenced_out(&mut tx, batch, fence).await?.is_empty() {
            return Err(LEASE_LOST.to_string());
        }
    }
    // New tables first, then every change in a few multi-row inserts, then status updates.
    let mut events: Vec<(&str, u64, &str)> = Vec::new();
    let mut others: Vec<WriteOp> = Vec::new();
    for r in batch {
        for op in &r.ops {
            match op {
                WriteOp::NewTable { .. } => apply_ops(&mut tx, std::slice::from_ref(op)).await?,
                WriteOp::Event { table, seq, body } => events.push((table, *seq, body)),
                WriteOp::Status { .. } | WriteOp::TurnStart { .. } | WriteOp::Timeout { .. } => {
                    others.push(op.clone());
                }
            }
        }
    }
    for chunk in events.chunks(ROWS_PER_INSERT) {
        let mut sql = String::from("INSERT INTO table_events (table_id, seq, body) VALUES ");
        for i in 0..chunk.len() {
            if i > 0 {
                sql.push(',');
            }
            sql.push_str(&format!("(${}, ${}, ${})", 3 * i + 1, 3 * i + 2, 3 * i + 3));
        }
        let mut q = sqlx::query(&sql);
        for (table, seq, body) in chunk {
            q = q.bind(*table).bind(*seq as i64).bind(*body);
        }
        q.execute(&mut *tx).await.map_err(err)?;
    }
    apply_ops(&mut tx, &others).await?;
    tx.commit().await.map_err(err)
}

/// How often the SQLite log is copied back into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// Copy the SQLite write-ahead log into the database file now and then, on a connection of
/// its own: a passive checkpoint never blocks the writer, which keeps appending to the log
/// meanwhile (and starts it over once everything in it is copied). Ends when the pool closes.
async fn checkpointer(db: Db) {
    loop {
        tokio::time::sleep(CHECKPOINT_EVERY).await;
        if db.pool.is_closed() {
            return;
        }
        if let Err(e) = db.pool.execute("PRAGMA wal_checkpoint(PASSIVE)").await {
            if db.pool.is_closed() {
                return;
            }
            crate::log(&format!("checkpoint failed: {e}"));
        }
    }
}

/// Take the requests already waiting, up to a batch.
fn fill_batch(rx: &mut mpsc::Receiver<WriteReqBox>, batch: &mut Vec<WriteReqInner>) {
    while batch.len() < BATCH {
        match rx.try_recv() {
            Ok(WriteReqBox(r)) => batch.push(r),
            Err(_) => break,
        }
    }
}

async fn writer_loop(
    db: Db,
    mut rx: mpsc::Receiver<WriteReqBox>,
    latency: prometheus::Histogram,
    fence: Option<Fence>,
) {
    let mut batch: Vec<WriteReqInner> = Vec::with_capacity(BATCH);
    while let Some(WriteReqBox(first)) = rx.recv().await {
        batch.push(first);
        fill_batch(&mut rx, &mut batch);
        let timer = latency.start_timer();
        let res = commit_batch(&db, &batch, fence.as_ref()).await;
        timer.observe_duration();
        match res {
            Ok(()) => {
                for r in batch.drain(..) {
                    let _ = r.done.send(Ok(()));
                }
            }
            Err(_) => {
                // One bad request must not fail the others: commit each on its own.
                for r in batch.drain(..) {
                    let res = commit_batch(&db, std::slice::from_ref(&r), fence.as_ref()).await;
                    let _ = r.done.send(res);
                }
            }
        }
    }
}

/// The file of the SQLite database `db` (its main database, as SQLite itself names it).
async fn sqlite_file(db: &Db) -> DbResult<String> {
    let rows = sqlx::query("PRAGMA database_list")
        .fetch_all(&db.pool)
        .await
        .map_err(err)?;
    for row in rows {
        if text(&row, "name")? == "main" {
            let file = text(&row, "file")?;
            if file.is_empty() {
                return Err("the SQLite database must be a file (not in memory)".to_string());
            }
            return Ok(file);
        }
    }
    Err("the SQLite database has no main file".to_string())
}

/// The writer's own connection, with the settings of the pool's (write-ahead log, a sync of
/// the log at every commit, checkpoints left to the `checkpointer`).
fn open_sqlite_writer(path: &str) -> DbResult<rusqlite::Connection> {
    let conn = rusqlite::Connection::open_with_flags(
        path,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("cannot open the database {path} for writing: {e}"))?;
    let mode: String = conn
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .map_err(|e| e.to_string())?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(format!(
            "the database {path} refuses the write-ahead log ({mode})"
        ));
    }
    conn.execute_batch(
        "PRAGMA synchronous=FULL; PRAGMA busy_timeout=10000; PRAGMA wal_autocheckpoint=0;",
    )
    .map_err(|e| e.to_string())?;
    conn.set_prepared_statement_cache_capacity(16);
    Ok(conn)
}

/// Store `batch` in one SQLite transaction (`BEGIN IMMEDIATE`: the write lock is taken at
/// once, waiting up to the busy timeout for the pool's occasional writers).
fn sqlite_commit(conn: &rusqlite::Connection, batch: &[WriteReqInner]) -> DbResult<()> {
    let run = || -> rusqlite::Result<()> {
        // Cached like the inserts: parsing `BEGIN` and `COMMIT` anew showed in the profile.
        conn.prepare_cached("BEGIN IMMEDIATE")?.execute([])?;
        let mut new_table = conn.prepare_cached(
            "INSERT INTO game_tables (id, created_at, config, status) VALUES (?1, ?2, ?3, ?4)",
        )?;
        let mut event = conn
            .prepare_cached("INSERT INTO table_events (table_id, seq, body) VALUES (?1, ?2, ?3)")?;
        let mut status = conn.prepare_cached("UPDATE game_tables SET status = ?1 WHERE id = ?2")?;
        let mut turn_start = conn.prepare_cached(TURN_START_SQL)?;
        let mut timeout = conn.prepare_cached(TIMEOUT_SQL)?;
        // In the order given: a table is created before its first change.
        for r in batch {
            for op in &r.ops {
                match op {
                    WriteOp::NewTable {
                        id,
                        created_at,
                        config,
                        status,
                    } => {
                        new_table.execute(rusqlite::params![id, created_at, config, status])?;
                    }
                    WriteOp::Event { table, seq, body } => {
                        let seq = i64::try_from(*seq).map_err(|_| {
                            rusqlite::Error::ToSqlConversionFailure("version too large".into())
                        })?;
                        event.execute(rusqlite::params![table, seq, body])?;
                    }
                    WriteOp::Status { table, status: st } => {
                        status.execute(rusqlite::params![st, table])?;
                    }
                    WriteOp::TurnStart { table, version, at } => {
                        let version = i64::try_from(*version).map_err(|_| {
                            rusqlite::Error::ToSqlConversionFailure("version too large".into())
                        })?;
                        turn_start.execute(rusqlite::params![table, version, at])?;
                    }
                    WriteOp::Timeout { table, user, at } => {
                        timeout.execute(rusqlite::params![table, user, at])?;
                    }
                }
            }
        }
        conn.prepare_cached("COMMIT")?.execute([]).map(|_| ())
    };
    match run() {
        Ok(()) => Ok(()),
        Err(e) => {
            if !conn.is_autocommit() {
                let _ = conn.execute_batch("ROLLBACK");
            }
            Err(e.to_string())
        }
    }
}

/// The default commit window (see `sqlite_writer`).
pub const COMMIT_WINDOW: Duration = Duration::from_millis(2);

/// Above this mean number of requests per commit (in hundredths), the writer is busy: writes
/// arrive while others are committed, and waiting the commit window gathers more of them.
const BUSY_X100: u64 = 125;

/// The SQLite writer thread: takes every request queued (up to [`BATCH`]), stores them in one
/// transaction, and only then answers each; a request is acknowledged once its transaction is
/// committed (and, with `synchronous=FULL`, synced to disk). Ends when every [`Writer`] is gone.
///
/// Each commit syncs the log once, whatever it holds: that sync is most of a commit's cost. So
/// when the writer is busy (more than [`BUSY_X100`]/100 requests per commit on average), it
/// waits `window` after the first request of a batch for others to join it. A lone writer (one
/// table, a test playing move after move) never waits.
fn sqlite_writer(
    conn: &rusqlite::Connection,
    mut rx: mpsc::Receiver<WriteReqBox>,
    latency: &prometheus::Histogram,
    window: Duration,
) {
    let mut batch: Vec<WriteReqInner> = Vec::with_capacity(BATCH);
    // The mean number of requests per commit, in hundredths (a moving average).
    let mut mean_x100: u64 = 100;
    while let Some(WriteReqBox(first)) = rx.blocking_recv() {
        batch.push(first);
        if !window.is_zero() && mean_x100 > BUSY_X100 {
            std::thread::sleep(window);
        }
        fill_batch(&mut rx, &mut batch);
        let n = batch.len() as u64;
        mean_x100 = (mean_x100 * 7 + n * 100) / 8;
        let timer = latency.start_timer();
        let res = sqlite_commit(conn, &batch);
        timer.observe_duration();
        match res {
            Ok(()) => {
                for r in batch.drain(..) {
                    let _ = r.done.send(Ok(()));
                }
            }
            Err(_) => {
                // One bad request must not fail the others: commit each on its own.
                for r in batch.drain(..) {
                    let res = sqlite_commit(conn, std::slice::from_ref(&r));
                    let _ = r.done.send(res);
                }
            }
        }
    }
}

/// A row's text column.
pub fn text(row: &AnyRow, col: &str) -> DbResult<String> {
    row.try_get::<String, _>(col).map_err(err)
}

/// A row's integer column.
pub fn int(row: &AnyRow, col: &str) -> DbResult<i64> {
    row.try_get::<i64, _>(col).map_err(err)
}

/// A row's float column.
pub fn float(row: &AnyRow, col: &str) -> DbResult<f64> {
    row.try_get::<f64, _>(col).map_err(err)
}

/// Begin a transaction holding a person's row locked (a write lock on SQLite, a row lock on
/// PostgreSQL): a quota counted in it and the insert it allows happen as one, so that
/// requests at once (on any instance) wait for each other instead of all passing the count.
pub async fn lock_user(
    pool: &AnyPool,
    user: i64,
) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query("UPDATE users SET id = id WHERE id = $1")
        .bind(user)
        .execute(&mut *tx)
        .await?;
    Ok(tx)
}

/// Map a sqlx error to text.
pub fn db_err(e: sqlx::Error) -> String {
    err(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_values_name_their_backend() {
        assert!(is_sqlite("fiveup.db"));
        assert!(is_sqlite("/var/lib/fiveup/games.db"));
        assert!(is_sqlite("sqlite://x.db?mode=rwc"));
        assert!(!is_sqlite("postgres://u@localhost/fiveup"));
        assert!(!is_sqlite("postgresql://u@localhost/fiveup"));
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        assert_eq!(crate::default_workers(false), cores);
        assert_eq!(crate::default_workers(true), (cores - 1).max(1));
    }

    fn event(table: &str, seq: u64) -> WriteOp {
        WriteOp::Event {
            table: table.to_string(),
            seq,
            body: format!("{{\"n\":{seq}}}"),
        }
    }

    /// The SQLite writer stores every acknowledged write, shares commits between concurrent
    /// writers, and fails a bad request alone.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite_writer_batches_and_isolates_a_bad_write() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(dir.path().join("w.db").to_str().unwrap())
            .await
            .unwrap();
        let latency =
            prometheus::Histogram::with_opts(prometheus::HistogramOpts::new("c", "c")).unwrap();
        let writer = Writer::start(db.clone(), latency.clone(), None, COMMIT_WINDOW)
            .await
            .unwrap();
        writer
            .write(vec![WriteOp::NewTable {
                id: "t".to_string(),
                created_at: 1,
                config: "{}".to_string(),
                status: "waiting".to_string(),
            }])
            .await
            .unwrap();
        let n: u64 = 300;
        let tasks: Vec<_> = (1..=n)
            .map(|seq| {
                let w = writer.clone();
                tokio::spawn(async move { w.write(vec![event("t", seq)]).await })
            })
            .collect();
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        // Fewer commits than writes: concurrent writes shared transactions.
        let commits = latency.get_sample_count();
        assert!(commits < n, "{commits} commits for {n} writes");
        // A write repeating a stored version fails; the others of its batch are stored.
        let bad = writer.clone();
        let (a, b, c) = tokio::join!(
            writer.write(vec![event("t", n + 1)]),
            bad.write(vec![event("t", 5)]),
            writer.write(vec![
                event("t", n + 2),
                WriteOp::Status {
                    table: "t".to_string(),
                    status: "playing".to_string(),
                },
            ]),
        );
        a.unwrap();
        assert!(b.is_err(), "a repeated version was stored");
        c.unwrap();
        let count: i64 = sqlx::query("SELECT COUNT(*) AS n FROM table_events WHERE table_id = 't'")
            .fetch_one(&db.pool)
            .await
            .map(|r| int(&r, "n").unwrap())
            .unwrap();
        assert_eq!(count, i64::try_from(n).unwrap() + 2);
        let status: String = sqlx::query("SELECT status FROM game_tables WHERE id = 't'")
            .fetch_one(&db.pool)
            .await
            .map(|r| text(&r, "status").unwrap())
            .unwrap();
        assert_eq!(status, "playing");
        let body: String =
            sqlx::query("SELECT body FROM table_events WHERE table_id = 't' AND seq = 5")
                .fetch_one(&db.pool)
                .await
                .map(|r| text(&r, "body").unwrap())
                .unwrap();
        assert_eq!(body, "{\"n\":5}");
        db.close().await;
    }
}
