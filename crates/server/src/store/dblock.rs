//! Who may use a PostgreSQL database: one server without `--instance`, or any number of
//! instances with different names, never both. At start a server takes PostgreSQL advisory
//! locks on a connection of its own, held while it runs (PostgreSQL frees them when that
//! connection ends, so a killed server leaves nothing behind), keyed by the database schema:
//!
//! * the database lock: exclusive for a server without `--instance`, shared by instances;
//! * an instance's name lock: exclusive, one per name.
//!
//! A server that cannot take its locks refuses to start and says why. The connection is
//! checked every few seconds; lost, it is made again and the locks taken again, and while they
//! cannot be `/healthz` answers 503 (`database lock lost`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use sqlx::{Connection, Row};

/// How often the lock connection is checked.
const CHECK: Duration = Duration::from_secs(2);

/// How long a refused lock is tried again at start.
const RETRY: Duration = Duration::from_secs(2);

/// The database lock: a server without `--instance` (exclusive) or instances (shared).
const DATABASE_LOCK: &str = "5550, hashtext(current_schema())";

/// An instance's name lock.
const NAME_LOCK: &str = "hashtext('fiveup instance ' || current_schema()), hashtext($1)";

/// The locks of a running server.
#[derive(Debug)]
pub struct DbLock {
    url: String,
    instance: Option<String>,
    conn: tokio::sync::Mutex<Option<sqlx::PgConnection>>,
    /// The locks were lost and could not be taken again.
    pub lost: AtomicBool,
}

/// Take the locks for a server on the database at `url` (`instance`: its name, if one of
/// several). `None` for SQLite (one file, one process).
pub async fn take(url: &str, instance: Option<&str>) -> Result<Option<Arc<DbLock>>, String> {
    if crate::store::db::is_sqlite(url) {
        return Ok(None);
    }
    // A server restarted at once after a crash may find its old connection not yet ended by
    // PostgreSQL: a refusal is tried again for a little while.
    let end = tokio::time::Instant::now() + RETRY;
    let conn = loop {
        match lock(url, instance).await {
            Ok(c) => break c,
            Err(e) if tokio::time::Instant::now() >= end => return Err(e),
            Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
        }
    };
    let l = Arc::new(DbLock {
        url: url.to_string(),
        instance: instance.map(str::to_string),
        conn: tokio::sync::Mutex::new(Some(conn)),
        lost: AtomicBool::new(false),
    });
    tokio::spawn(keep(Arc::downgrade(&l)));
    Ok(Some(l))
}

async fn lock(url: &str, instance: Option<&str>) -> Result<sqlx::PgConnection, String> {
    let mut conn = sqlx::PgConnection::connect(url)
        .await
        .map_err(|e| format!("cannot open the database {url}: {e}"))?;
    let db_err = |e: sqlx::Error| format!("cannot take the database lock: {e}");
    let got = |r: sqlx::postgres::PgRow| r.try_get::<bool, _>(0).unwrap_or(false);
    match instance {
        None => {
            let ok = sqlx::query(&format!("SELECT pg_try_advisory_lock({DATABASE_LOCK})"))
                .fetch_one(&mut conn)
                .await
                .map(got)
                .map_err(db_err)?;
            if !ok {
                return Err(
                    "another fiveup server is using this database: a server without \
                     --instance must be the only one on its database (two would run the same \
                     tables and fork them). Stop the other server, or run every server with \
                     --instance NAME"
                        .to_string(),
                );
            }
        }
        Some(name) => {
            let ok = sqlx::query(&format!(
                "SELECT pg_try_advisory_lock_shared({DATABASE_LOCK})"
            ))
            .fetch_one(&mut conn)
            .await
            .map(got)
            .map_err(db_err)?;
            if !ok {
                return Err(
                    "a fiveup server without --instance is using this database: stop \
                     it before starting instances (or restart it with --instance NAME)"
                        .to_string(),
                );
            }
            let ok = sqlx::query(&format!("SELECT pg_try_advisory_lock({NAME_LOCK})"))
                .bind(name)
                .fetch_one(&mut conn)
                .await
                .map(got)
                .map_err(db_err)?;
            if !ok {
                return Err(format!(
                    "instance {name:?} is already running on this database (two instances of \
                     one name would pass their tables back and forth): stop it first, or give \
                     this server another --instance name"
                ));
            }
        }
    }
    Ok(conn)
}

/// Check the lock connection until the server stops (or never started: the locks go with
/// the last reference); make it again when lost.
async fn keep(l: std::sync::Weak<DbLock>) {
    loop {
        tokio::time::sleep(CHECK).await;
        let Some(l) = l.upgrade() else {
            return;
        };
        let mut guard = l.conn.lock().await;
        let Some(conn) = guard.as_mut() else {
            return; // released
        };
        let alive = tokio::time::timeout(CHECK, conn.ping())
            .await
            .is_ok_and(|r| r.is_ok());
        if alive {
            continue;
        }
        match lock(&l.url, l.instance.as_deref()).await {
            Ok(c) => {
                *guard = Some(c);
                if l.lost.swap(false, Ordering::Relaxed) {
                    crate::log("the database lock is taken again");
                }
            }
            Err(e) => {
                if !l.lost.swap(true, Ordering::Relaxed) {
                    crate::log(&format!("the database lock was lost: {e}"));
                }
            }
        }
    }
}

impl DbLock {
    /// Give the locks up (the server stops).
    pub async fn release(&self) {
        if let Some(mut c) = self.conn.lock().await.take() {
            let _ = sqlx::query("SELECT pg_advisory_unlock_all()")
                .execute(&mut c)
                .await;
            let _ = c.close().await;
        }
    }
}
