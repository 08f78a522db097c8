//! Several instances on one PostgreSQL database (`--instance NAME`): who runs each table.
//!
//! * **Table leases.** A table runs on the instance holding its row in `table_leases`: the
//!   owner's name, a fencing token raised each time the table changes hands, and an expiry by
//!   the database's clock. The owner renews its leases every third of the lease time; a lease
//!   not renewed runs out, and any instance may then take the table (a *takeover*), reloading
//!   it from its stored changes. Every write of the group-commit writer reads the lease rows of
//!   its tables `FOR SHARE` in its own transaction and is refused unless they still carry this
//!   instance's token ([`crate::store::db::Fence`]): a stale owner can store nothing once another has
//!   the table, and the table's version in the primary key of `table_events` backs this up.
//! * **The bus.** Lobby changes and ended sessions go to every instance by `NOTIFY` on the
//!   shared database, received with sqlx's `PgListener`; the lobby is also kept in
//!   `lobby_tables`, which an instance starting (or whose listener reconnected) reads whole.
//! * **Orphans.** Every second each instance looks for unfinished tables without a live lease
//!   (their owner died or stopped) and takes them; clients of those tables reconnect (or their
//!   instance's relay follows the table) to the new owner.
//!
//! An instance that does not own a table hands the table's clients on: it relays their
//! websocket and their table requests to the owner (the web layer's relay).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use fiveup_protocol::TableInfo;
use serde::{Deserialize, Serialize};
use sqlx::Row;
use tokio::sync::mpsc;

use crate::store::db::{self, Fence};
use crate::App;

/// The database's clock in milliseconds since the epoch (one clock for every instance).
const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// How often orphaned tables are looked for.
const ORPHAN_SCAN: Duration = Duration::from_secs(1);

/// The lobby channel and the ended-sessions channel.
const LOBBY_CHANNEL: &str = "fiveup_lobby";
const REVOKED_CHANNEL: &str = "fiveup_revoked";

/// A notification payload must stay under PostgreSQL's 8,000 bytes.
const MAX_PAYLOAD: usize = 7_000;

/// This instance's part in a cluster.
#[derive(Debug)]
pub struct Cluster {
    /// The instance's name (unique among the instances).
    pub name: String,
    /// Where the others reach it (`host:port`).
    pub addr: Mutex<String>,
    /// The database URL (for the listener's own connection).
    url: String,
    /// How long a lease lasts.
    pub lease: Duration,
    /// The leases held: table -> fencing token (shared with the writer).
    pub fence: Fence,
    /// Lobby changes of the tables run here, to publish.
    lobby_out: mpsc::UnboundedSender<TableInfo>,
    lobby_rx: Mutex<Option<mpsc::UnboundedReceiver<TableInfo>>>,
    /// When the leases were last renewed (ms, database clock); 0 before the first renewal.
    renewed_at: AtomicI64,
    /// Whether the last renewal reached the database.
    pub healthy: AtomicBool,
}

/// How a lease was had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lease {
    /// Held now, with this token.
    Mine(i64),
    /// Another live instance holds it; it is reached at `addr` (if known).
    Elsewhere {
        /// The holder.
        owner: String,
        /// Its address.
        addr: Option<String>,
    },
    /// There is no such table.
    NoTable,
}

#[derive(Serialize, Deserialize)]
struct LobbyNote {
    from: String,
    id: String,
    #[serde(default)]
    info: Option<TableInfo>,
}

#[derive(Serialize, Deserialize)]
struct RevokedNote {
    from: String,
    hash: String,
}

impl Cluster {
    /// A cluster member named `name` on the database at `url`.
    #[must_use]
    pub fn new(name: &str, url: &str, lease: Duration) -> Cluster {
        let (tx, rx) = mpsc::unbounded_channel();
        Cluster {
            name: name.to_string(),
            addr: Mutex::new(String::new()),
            url: url.to_string(),
            lease,
            fence: Fence::default(),
            lobby_out: tx,
            lobby_rx: Mutex::new(Some(rx)),
            renewed_at: AtomicI64::new(0),
            healthy: AtomicBool::new(true),
        }
    }

    fn lease_ms(&self) -> i64 {
        i64::try_from(self.lease.as_millis()).unwrap_or(i64::MAX)
    }

    /// Publish a lobby change of a table run here.
    pub fn publish(&self, info: TableInfo) {
        let _ = self.lobby_out.send(info);
    }

    /// Whether this instance holds the table's lease (as far as it knows).
    #[must_use]
    pub fn holds(&self, table: &str) -> bool {
        self.fence.lock().expect("fence lock").contains_key(table)
    }

    /// Take a new table's lease (the table is being created here).
    pub async fn claim_new(&self, db: &db::Db, table: &str) -> Result<(), String> {
        sqlx::query(&format!(
            "INSERT INTO table_leases (table_id, owner, token, expires_at) \
             VALUES ($1, $2, 1, {NOW_MS} + $3)"
        ))
        .bind(table)
        .bind(self.name.as_str())
        .bind(self.lease_ms())
        .execute(&db.pool)
        .await
        .map_err(db::db_err)?;
        self.fence
            .lock()
            .expect("fence lock")
            .insert(table.to_string(), 1);
        Ok(())
    }

    /// Try to take a table's lease: free, expired, or this instance's own (held before a
    /// restart under the same name).
    pub async fn acquire(&self, app: &App, table: &str) -> Result<Lease, String> {
        let before = sqlx::query(&format!(
            "SELECT owner, expires_at < {NOW_MS} AS expired FROM table_leases WHERE table_id = $1"
        ))
        .bind(table)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(db::db_err)?;
        let row = sqlx::query(&format!(
            "INSERT INTO table_leases (table_id, owner, token, expires_at) \
             SELECT $1, $2, 1, {NOW_MS} + $3 WHERE EXISTS (SELECT 1 FROM game_tables WHERE id = $1) \
             ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, \
             token = table_leases.token + 1, expires_at = EXCLUDED.expires_at \
             WHERE table_leases.expires_at < {NOW_MS} OR table_leases.owner = EXCLUDED.owner \
             RETURNING token"
        ))
        .bind(table)
        .bind(self.name.as_str())
        .bind(self.lease_ms())
        .fetch_optional(&app.db.pool)
        .await
        .map_err(db::db_err)?;
        if let Some(row) = row {
            let token = db::int(&row, "token")?;
            self.fence
                .lock()
                .expect("fence lock")
                .insert(table.to_string(), token);
            let how = match before {
                None => "free",
                Some(r) => {
                    let owner = db::text(&r, "owner")?;
                    let expired: bool = r.try_get("expired").unwrap_or(false);
                    if owner.is_empty() || owner == self.name || !expired {
                        "free"
                    } else {
                        crate::log(&format!("table {table}: taken over from {owner}"));
                        "takeover"
                    }
                }
            };
            app.metrics.leases.with_label_values(&[how]).inc();
            return Ok(Lease::Mine(token));
        }
        let row = sqlx::query(
            "SELECT l.owner, i.addr FROM table_leases l LEFT JOIN instances i ON i.name = l.owner \
             WHERE l.table_id = $1",
        )
        .bind(table)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(db::db_err)?;
        Ok(match row {
            None => Lease::NoTable,
            Some(r) => Lease::Elsewhere {
                owner: db::text(&r, "owner")?,
                addr: r.try_get::<Option<String>, _>("addr").ok().flatten(),
            },
        })
    }

    /// Give a table's lease up (its task has stopped and everything is stored): another
    /// instance may take it at once.
    pub async fn release(&self, db: &db::Db, table: &str) {
        let token = self.fence.lock().expect("fence lock").remove(table);
        let Some(token) = token else { return };
        let r = sqlx::query(
            "UPDATE table_leases SET owner = '', expires_at = 0 \
             WHERE table_id = $1 AND owner = $2 AND token = $3",
        )
        .bind(table)
        .bind(self.name.as_str())
        .bind(token)
        .execute(&db.pool)
        .await;
        if let Err(e) = r {
            crate::log(&format!("table {table}: cannot release its lease: {e}"));
        }
    }

    /// Forget a lease without touching the database (it was lost to another instance).
    pub fn forget(&self, table: &str) {
        self.fence.lock().expect("fence lock").remove(table);
    }

    /// Tell every instance that a session ended (its websockets close everywhere).
    pub async fn revoked(&self, db: &db::Db, hash: &str) {
        let note = serde_json::to_string(&RevokedNote {
            from: self.name.clone(),
            hash: hash.to_string(),
        })
        .expect("note serialises");
        let _ = sqlx::query("SELECT pg_notify($1, $2)")
            .bind(REVOKED_CHANNEL)
            .bind(note)
            .execute(&db.pool)
            .await;
    }

    /// Whether the leases were renewed recently enough to be trusted.
    #[must_use]
    pub fn fresh(&self) -> bool {
        self.healthy.load(Ordering::Relaxed)
    }
}

/// Register the instance, read the shared lobby, and start the background tasks: lease
/// renewal, the orphan scan, the lobby publisher and the listener.
pub async fn start(app: &Arc<App>) -> Result<(), String> {
    let Some(c) = app.cluster.as_ref() else {
        return Ok(());
    };
    heartbeat(app).await?;
    seed_lobby(app).await?;
    let rx = c.lobby_rx.lock().expect("lobby lock").take();
    if let Some(rx) = rx {
        tokio::spawn(publisher(app.clone(), rx));
    }
    let mut listener = sqlx::postgres::PgListener::connect(&c.url)
        .await
        .map_err(|e| format!("cannot listen on the database: {e}"))?;
    listener
        .listen_all([LOBBY_CHANNEL, REVOKED_CHANNEL])
        .await
        .map_err(|e| format!("cannot listen on the database: {e}"))?;
    tokio::spawn(listen(app.clone(), listener));
    tokio::spawn(renewer(app.clone()));
    // Restarted under its name (after a crash), the instance takes its tables back at once
    // instead of waiting for their leases to run out.
    let mine = sqlx::query(
        "SELECT l.table_id FROM table_leases l JOIN game_tables g ON g.id = l.table_id \
         WHERE l.owner = $1 AND g.status <> 'finished'",
    )
    .bind(c.name.as_str())
    .fetch_all(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    for r in mine {
        let id = db::text(&r, "table_id")?;
        if let Err(e) = super::actor::find(app, &id).await {
            crate::log(&format!("table {id}: cannot take it back: {}", e.message));
        }
    }
    tokio::spawn(orphans(app.clone()));
    Ok(())
}

async fn heartbeat(app: &App) -> Result<(), String> {
    let Some(c) = app.cluster.as_ref() else {
        return Ok(());
    };
    let addr = c.addr.lock().expect("addr lock").clone();
    sqlx::query(&format!(
        "INSERT INTO instances (name, addr, seen_at) VALUES ($1, $2, {NOW_MS}) \
         ON CONFLICT (name) DO UPDATE SET addr = EXCLUDED.addr, seen_at = EXCLUDED.seen_at"
    ))
    .bind(c.name.as_str())
    .bind(addr)
    .execute(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    Ok(())
}

/// Renew this instance's leases every third of the lease time. A table whose lease another
/// instance holds now is stopped here at once; if the database cannot be reached for a whole
/// lease time, every table stops (another instance may take them) and `/healthz` says so.
async fn renewer(app: Arc<App>) {
    let c = app.cluster.as_ref().expect("cluster");
    let every = c.lease / 3;
    let mut stop = app.shutdown.clone();
    let mut last_ok = tokio::time::Instant::now();
    loop {
        tokio::select! {
            () = tokio::time::sleep(every) => {}
            _ = stop.wait_for(|s| *s) => return,
        }
        let held: HashMap<String, i64> = c.fence.lock().expect("fence lock").clone();
        let r = sqlx::query(&format!(
            "UPDATE table_leases SET expires_at = {NOW_MS} + $2 WHERE owner = $1 \
             RETURNING table_id, token, expires_at"
        ))
        .bind(c.name.as_str())
        .bind(c.lease_ms())
        .fetch_all(&app.db.pool)
        .await;
        match r {
            Ok(rows) => {
                let _ = heartbeat(&app).await;
                last_ok = tokio::time::Instant::now();
                c.healthy.store(true, Ordering::Relaxed);
                let mut renewed = HashMap::new();
                for row in rows {
                    if let (Ok(t), Ok(k)) = (db::text(&row, "table_id"), db::int(&row, "token")) {
                        renewed.insert(t, k);
                    }
                    if let Ok(e) = db::int(&row, "expires_at") {
                        c.renewed_at.store(e, Ordering::Relaxed);
                    }
                }
                for (table, token) in held {
                    if renewed.get(&table) != Some(&token) {
                        lost(&app, &table).await;
                    }
                }
            }
            Err(e) => {
                crate::log(&format!("cannot renew the table leases: {e}"));
                if last_ok.elapsed() >= c.lease {
                    c.healthy.store(false, Ordering::Relaxed);
                    for table in held.keys() {
                        lost(&app, table).await;
                    }
                }
            }
        }
    }
}

/// A lease lost: stop the table's task here (its clients follow it to the new owner).
async fn lost(app: &Arc<App>, table: &str) {
    let c = app.cluster.as_ref().expect("cluster");
    if !c.holds(table) {
        return;
    }
    crate::log(&format!("table {table}: lease lost, stopping it here"));
    c.forget(table);
    app.metrics.leases_lost.inc();
    if let Some(h) = app.hub.handle(table) {
        let _ = h.tx.send(super::actor::TableCmd::Stop).await;
    }
}

/// Take the unfinished tables nobody holds a live lease on.
async fn orphans(app: Arc<App>) {
    let mut stop = app.shutdown.clone();
    loop {
        if app.draining.load(Ordering::Relaxed) {
            return;
        }
        let rows = sqlx::query(&format!(
            "SELECT g.id FROM game_tables g LEFT JOIN table_leases l ON l.table_id = g.id \
             WHERE g.status <> 'finished' AND (l.table_id IS NULL OR l.expires_at < {NOW_MS}) \
             LIMIT 500"
        ))
        .fetch_all(&app.db.pool)
        .await;
        if let Ok(rows) = rows {
            for r in rows {
                if app.draining.load(Ordering::Relaxed) {
                    return;
                }
                let Ok(id) = db::text(&r, "id") else { continue };
                if let Err(e) = super::actor::find(&app, &id).await {
                    crate::log(&format!("table {id}: cannot take it over: {}", e.message));
                }
            }
        }
        tokio::select! {
            () = tokio::time::sleep(ORPHAN_SCAN) => {}
            _ = stop.wait_for(|s| *s) => return,
        }
    }
}

/// Read the whole shared lobby.
async fn seed_lobby(app: &App) -> Result<(), String> {
    let rows = sqlx::query("SELECT info FROM lobby_tables")
        .fetch_all(&app.db.pool)
        .await
        .map_err(db::db_err)?;
    for r in rows {
        if let Ok(info) = serde_json::from_str::<TableInfo>(&db::text(&r, "info")?) {
            app.hub.lobby_remote(info);
        }
    }
    Ok(())
}

/// Store and announce the lobby changes of the tables run here, in order, several at a time.
async fn publisher(app: Arc<App>, mut rx: mpsc::UnboundedReceiver<TableInfo>) {
    let c = app.cluster.as_ref().expect("cluster");
    while let Some(first) = rx.recv().await {
        // The latest change of each table is enough.
        let mut latest: Vec<TableInfo> = vec![first];
        while let Ok(more) = rx.try_recv() {
            if let Some(i) = latest.iter().position(|t| t.id == more.id) {
                latest[i] = more;
            } else {
                latest.push(more);
            }
            if latest.len() >= 256 {
                break;
            }
        }
        for _attempt in 0..3 {
            match publish_batch(&app.db, &c.name, &latest).await {
                Ok(()) => break,
                Err(e) => {
                    crate::log(&format!("cannot publish lobby changes: {e}"));
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }
}

async fn publish_batch(db: &db::Db, me: &str, infos: &[TableInfo]) -> Result<(), String> {
    let mut tx = db.pool.begin().await.map_err(db::db_err)?;
    for info in infos {
        let gone = info.status == fiveup_protocol::TableStatus::Finished;
        let text = serde_json::to_string(info).expect("info serialises");
        if gone {
            sqlx::query("DELETE FROM lobby_tables WHERE id = $1")
                .bind(info.id.as_str())
                .execute(&mut *tx)
                .await
                .map_err(db::db_err)?;
        } else {
            sqlx::query(
                "INSERT INTO lobby_tables (id, version, info) VALUES ($1, $2, $3) \
                 ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, info = EXCLUDED.info",
            )
            .bind(info.id.as_str())
            .bind(i64::try_from(info.version).unwrap_or(i64::MAX))
            .bind(text.as_str())
            .execute(&mut *tx)
            .await
            .map_err(db::db_err)?;
        }
        let mut note = LobbyNote {
            from: me.to_string(),
            id: info.id.clone(),
            info: Some(info.clone()),
        };
        let mut payload = serde_json::to_string(&note).expect("note serialises");
        if payload.len() > MAX_PAYLOAD {
            // Too long for a notification: the others read it from `lobby_tables`.
            note.info = None;
            payload = serde_json::to_string(&note).expect("note serialises");
        }
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(LOBBY_CHANNEL)
            .bind(payload)
            .execute(&mut *tx)
            .await
            .map_err(db::db_err)?;
    }
    tx.commit().await.map_err(db::db_err)
}

/// Receive the other instances' lobby changes and ended sessions.
async fn listen(app: Arc<App>, mut listener: sqlx::postgres::PgListener) {
    let c = app.cluster.as_ref().expect("cluster");
    let mut stop = app.shutdown.clone();
    loop {
        let n = tokio::select! {
            n = listener.try_recv() => n,
            _ = stop.wait_for(|s| *s) => return,
        };
        match n {
            Ok(Some(n)) => {
                if n.channel() == LOBBY_CHANNEL {
                    let Ok(note) = serde_json::from_str::<LobbyNote>(n.payload()) else {
                        continue;
                    };
                    if note.from == c.name {
                        continue;
                    }
                    match note.info {
                        Some(info) => app.hub.lobby_remote(info),
                        None => {
                            let row = sqlx::query("SELECT info FROM lobby_tables WHERE id = $1")
                                .bind(note.id.as_str())
                                .fetch_optional(&app.db.pool)
                                .await;
                            if let Ok(Some(r)) = row {
                                if let Ok(Ok(info)) = db::text(&r, "info")
                                    .map(|t| serde_json::from_str::<TableInfo>(&t))
                                {
                                    app.hub.lobby_remote(info);
                                }
                            } else if let Ok(None) = row {
                                app.hub.lobby_gone(&note.id);
                            }
                        }
                    }
                } else if n.channel() == REVOKED_CHANNEL {
                    if let Ok(note) = serde_json::from_str::<RevokedNote>(n.payload()) {
                        if note.from != c.name {
                            let _ = app.revoked.send(Arc::from(note.hash.as_str()));
                        }
                    }
                }
            }
            // The connection was lost and is made again: notifications may have been missed,
            // so the lobby is read whole again.
            Ok(None) => {
                let _ = seed_lobby(&app).await;
            }
            Err(e) => {
                crate::log(&format!("database listener: {e}"));
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}
