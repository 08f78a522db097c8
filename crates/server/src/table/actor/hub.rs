//! The hub: every table loaded on this instance and the lobby; finding a table (here,
//! loaded from storage, or on the instance that holds its lease), loading it from its stored
//! changes, and creating one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use fiveup_protocol::{ErrorCode, Occupant, ServerMsg, TableInfo, TableStatus, UserRef};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::*;
use crate::store::db::WriteOp;
use crate::table::cluster::Lease;
use crate::table::{Refusal, Stored, TableConfig, TableCore};
use crate::App;

/// A handle on a table task.
#[derive(Clone, Debug)]
pub struct TableHandle {
    /// Its channel.
    pub tx: mpsc::Sender<TableCmd>,
}

/// Every loaded table, and the lobby.
#[derive(Debug)]
pub struct Hub {
    pub(super) tables: Mutex<HashMap<String, TableHandle>>,
    /// One lock per table id being loaded, so that loading one table (or looking up an unknown
    /// id) never waits for another.
    loading: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    lobby: Mutex<LobbyList>,
    /// Each person's unfinished tables (the ones they created): id -> has computer players.
    open: Mutex<HashMap<i64, HashMap<String, bool>>>,
    /// The unfinished tables created from each client address since this server started, and
    /// the address of each (locked after `open`).
    by_addr: Mutex<ByAddr>,
    /// The tables made, or being made, by create requests with a client request id:
    /// (user, id) -> table.
    pub(super) requests: Mutex<HashMap<(i64, String), Request>>,
    /// Lobby messages, serialised.
    pub lobby_tx: broadcast::Sender<Arc<str>>,
}

/// Unfinished tables per client address: address -> (table -> has computer players), and
/// table -> address.
#[derive(Debug, Default)]
pub(super) struct ByAddr {
    tables: HashMap<std::net::IpAddr, HashMap<String, bool>>,
    addr_of: HashMap<String, std::net::IpAddr>,
}

impl ByAddr {
    pub(super) fn remove(&mut self, table: &str) {
        if let Some(ip) = self.addr_of.remove(table) {
            if let Some(m) = self.tables.get_mut(&ip) {
                m.remove(table);
                if m.is_empty() {
                    self.tables.remove(&ip);
                }
            }
        }
    }
}

/// A create request with a client request id.
#[derive(Debug)]
pub(super) enum Request {
    /// Its table is being made; the sender is dropped when the first request ends.
    Making {
        table: String,
        done: watch::Receiver<()>,
    },
    /// Its table is made (and in the hub).
    Made(String),
}

impl Request {
    pub(super) fn table(&self) -> &str {
        match self {
            Request::Making { table, .. } | Request::Made(table) => table,
        }
    }
}

/// What [`Hub::reserve`] found.
#[derive(Debug)]
pub enum Reservation {
    /// A new table: a place is taken in the quotas. Drop the guard when the request ends
    /// (made or not): repeats waiting for it then answer.
    New(Option<Making>),
    /// A repeat of a request whose table is made: its id.
    Made(String),
    /// A repeat of a request whose table is being made: changes (or closes) when it ends.
    Making(watch::Receiver<()>),
}

/// The first of concurrent create requests with one request id, while its table is made.
#[derive(Debug)]
pub struct Making {
    app: Arc<App>,
    key: (i64, String),
    table: String,
    _done: watch::Sender<()>,
}

impl Drop for Making {
    fn drop(&mut self) {
        // Made: the entry is `Made` now. Not made (refused, or the request was dropped): the
        // repeats are free to try again.
        let mut requests = self.app.hub.requests.lock().expect("requests lock");
        if matches!(requests.get(&self.key), Some(Request::Making { table, .. }) if *table == self.table)
        {
            requests.remove(&self.key);
        }
    }
}

/// The listed tables, and the same sorted newest first (made again only after a change).
#[derive(Debug, Default)]
pub(super) struct LobbyList {
    tables: HashMap<String, TableInfo>,
    sorted: Option<Arc<Vec<TableInfo>>>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            tables: Mutex::new(HashMap::new()),
            loading: Mutex::new(HashMap::new()),
            lobby: Mutex::new(LobbyList::default()),
            open: Mutex::new(HashMap::new()),
            by_addr: Mutex::new(ByAddr::default()),
            requests: Mutex::new(HashMap::new()),
            lobby_tx: broadcast::channel(4096).0,
        }
    }
}

impl Hub {
    /// The listed tables, newest first: at most `limit` from `offset` on, and how many are
    /// listed in all.
    #[must_use]
    pub fn lobby(&self, offset: usize, limit: usize) -> (Vec<TableInfo>, usize) {
        let sorted = {
            let mut l = self.lobby.lock().expect("lobby lock");
            if l.sorted.is_none() {
                let mut v: Vec<TableInfo> = l.tables.values().cloned().collect();
                v.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
                l.sorted = Some(Arc::new(v));
            }
            l.sorted.clone().expect("sorted just now")
        };
        let page = sorted.iter().skip(offset).take(limit).cloned().collect();
        (page, sorted.len())
    }

    /// A table's lobby entry changed; returns whether the lobby changed.
    pub(super) fn lobby_update(&self, info: TableInfo) -> bool {
        self.track(&info);
        let listed = !info.unlisted && info.status != TableStatus::Finished;
        let mut l = self.lobby.lock().expect("lobby lock");
        let msg = if listed {
            if l.tables.get(&info.id) == Some(&info) {
                return false;
            }
            l.tables.insert(info.id.clone(), info.clone());
            ServerMsg::LobbyTable { table: info }
        } else if l.tables.remove(&info.id).is_some() {
            ServerMsg::LobbyGone { id: info.id }
        } else {
            return false;
        };
        l.sorted = None;
        drop(l);
        let _ = self.lobby_tx.send(crate::to_json(&msg));
        true
    }

    /// A lobby change of a table another instance runs (an older version than the one listed
    /// is ignored).
    pub fn lobby_remote(&self, info: TableInfo) {
        {
            let l = self.lobby.lock().expect("lobby lock");
            if l.tables
                .get(&info.id)
                .is_some_and(|t| t.version > info.version)
            {
                return;
            }
        }
        self.lobby_update(info);
    }

    /// A table another instance ran is gone from the lobby.
    pub fn lobby_gone(&self, id: &str) {
        let info = self
            .lobby
            .lock()
            .expect("lobby lock")
            .tables
            .get(id)
            .cloned();
        if let Some(info) = info {
            self.forget(info);
        }
    }

    /// A loaded table's handle.
    #[must_use]
    pub fn handle(&self, id: &str) -> Option<TableHandle> {
        self.tables.lock().expect("tables lock").get(id).cloned()
    }

    /// Keep the count of each creator's unfinished tables.
    pub(super) fn track(&self, info: &TableInfo) {
        let Some(creator) = info.creator.as_ref().map(|c| c.id) else {
            return;
        };
        let mut open = self.open.lock().expect("open lock");
        if info.status == TableStatus::Finished {
            if let Some(m) = open.get_mut(&creator) {
                m.remove(&info.id);
                if m.is_empty() {
                    open.remove(&creator);
                }
            }
            self.by_addr.lock().expect("addr lock").remove(&info.id);
            self.requests
                .lock()
                .expect("requests lock")
                .retain(|_, r| r.table() != info.id);
        } else {
            let bots = info
                .seats
                .iter()
                .any(|s| matches!(s.occupant, Occupant::Bot { .. }));
            open.entry(creator)
                .or_default()
                .insert(info.id.clone(), bots);
        }
    }

    /// A table gone for good (expired): out of the lobby and the quotas.
    pub(super) fn forget(&self, info: TableInfo) -> Option<TableInfo> {
        let mut info = info;
        info.status = TableStatus::Finished;
        self.lobby_update(info.clone()).then_some(info)
    }

    /// Take a place in `user`'s quotas for a new table (with computer players: `bots`).
    pub fn reserve(
        &self,
        app: &Arc<App>,
        user: i64,
        ip: Option<std::net::IpAddr>,
        table: &str,
        bots: bool,
        request: Option<&str>,
    ) -> Result<Reservation, Refusal> {
        let cfg = &app.cfg;
        let mut open = self.open.lock().expect("open lock");
        // A repeat is answered with the first request's table, made or being made, whatever
        // the quotas: the request id is taken before the table is made, under the same locks.
        let mut requests = self.requests.lock().expect("requests lock");
        if let Some(r) = request {
            match requests.get(&(user, r.to_string())) {
                Some(Request::Made(t)) => return Ok(Reservation::Made(t.clone())),
                Some(Request::Making { done, .. }) => {
                    return Ok(Reservation::Making(done.clone()));
                }
                None => {}
            }
        }
        let mine = open.entry(user).or_default();
        if mine.len() >= cfg.max_open_tables {
            return Err(Refusal::new(
                ErrorCode::QuotaExceeded,
                format!(
                    "you have {} unfinished tables, the most one person may have: finish or \
                     leave one first",
                    mine.len()
                ),
            ));
        }
        if bots && mine.values().filter(|b| **b).count() >= cfg.max_bot_tables {
            return Err(Refusal::new(
                ErrorCode::QuotaExceeded,
                format!(
                    "you have {} unfinished tables with computer players, the most one person \
                     may have",
                    cfg.max_bot_tables
                ),
            ));
        }
        // The same per client address (all the people made from it together).
        let mut by_addr = self.by_addr.lock().expect("addr lock");
        if let Some(ip) = ip {
            let here = by_addr.tables.get(&ip);
            let n = here.map_or(0, HashMap::len);
            if n >= cfg.max_open_tables_per_addr {
                return Err(Refusal::new(
                    ErrorCode::QuotaExceeded,
                    format!(
                        "{n} unfinished tables were created from your address, the most one \
                         address may have: finish or leave one first"
                    ),
                ));
            }
            let with_bots = here.map_or(0, |m| m.values().filter(|b| **b).count());
            if bots && with_bots >= cfg.max_bot_tables_per_addr {
                return Err(Refusal::new(
                    ErrorCode::QuotaExceeded,
                    format!(
                        "{with_bots} unfinished tables with computer players were created from \
                         your address, the most one address may have"
                    ),
                ));
            }
            by_addr
                .tables
                .entry(ip)
                .or_default()
                .insert(table.to_string(), bots);
            by_addr.addr_of.insert(table.to_string(), ip);
        }
        mine.insert(table.to_string(), bots);
        let making = request.map(|r| {
            let (tx, rx) = watch::channel(());
            let key = (user, r.to_string());
            requests.insert(
                key.clone(),
                Request::Making {
                    table: table.to_string(),
                    done: rx,
                },
            );
            Making {
                app: app.clone(),
                key,
                table: table.to_string(),
                _done: tx,
            }
        });
        Ok(Reservation::New(making))
    }

    /// Give back a place taken by [`Hub::reserve`] for a table that was not made.
    pub fn release(&self, user: i64, table: &str) {
        let mut open = self.open.lock().expect("open lock");
        if let Some(m) = open.get_mut(&user) {
            m.remove(table);
        }
        self.by_addr.lock().expect("addr lock").remove(table);
        self.requests
            .lock()
            .expect("requests lock")
            .retain(|_, r| r.table() != table);
    }

    /// The table a create request with this client request id made, if any.
    #[must_use]
    pub fn created_for(&self, user: i64, request: &str) -> Option<String> {
        match self
            .requests
            .lock()
            .expect("requests lock")
            .get(&(user, request.to_string()))
        {
            Some(Request::Made(t)) => Some(t.clone()),
            _ => None,
        }
    }

    /// The number of loaded tables.
    #[must_use]
    pub fn loaded(&self) -> usize {
        self.tables.lock().expect("tables lock").len()
    }

    /// Every loaded table's handle.
    #[must_use]
    pub fn handles(&self) -> Vec<TableHandle> {
        self.tables
            .lock()
            .expect("tables lock")
            .values()
            .cloned()
            .collect()
    }
}

/// Where a table runs.
#[derive(Clone, Debug)]
pub enum Found {
    /// Here.
    Local(TableHandle),
    /// On another instance (which holds its lease).
    Remote {
        /// That instance's name.
        owner: String,
        /// Where it is reached, if known.
        addr: Option<String>,
    },
}

/// Ask every loaded table to close if it is waiting and nobody changed or followed it for
/// `idle` (the housekeeping's round).
pub async fn expire_waiting(app: &App, idle: Duration) {
    for h in app.hub.handles() {
        let _ = h.tx.send(TableCmd::Expire { idle }).await;
    }
}

/// Find a table running here, loading it from the database if it is not in memory (and, with
/// several instances, if no other instance holds its lease).
pub async fn table(app: &Arc<App>, id: &str) -> Result<TableHandle, Refusal> {
    match find(app, id).await? {
        Found::Local(h) => Ok(h),
        Found::Remote { owner, .. } => Err(Refusal::new(
            ErrorCode::ShuttingDown,
            format!("table {id} runs on instance {owner}; try again"),
        )),
    }
}

/// Find a table: here (loaded now if need be, taking its lease), or the instance running it.
pub async fn find(app: &Arc<App>, id: &str) -> Result<Found, Refusal> {
    if let Some(h) = app.hub.tables.lock().expect("tables lock").get(id) {
        return Ok(Found::Local(h.clone()));
    }
    if !valid_table_id(id) {
        return Err(no_table(id));
    }
    let lock = app
        .hub
        .loading
        .lock()
        .expect("loading lock")
        .entry(id.to_string())
        .or_default()
        .clone();
    let result = {
        let _guard = lock.lock().await;
        let loaded = app.hub.tables.lock().expect("tables lock").get(id).cloned();
        match (loaded, app.cluster.as_ref()) {
            (Some(h), _) => Ok(Found::Local(h)),
            (None, None) => load(app, id)
                .await
                .map(|core| Found::Local(spawn(app, core))),
            (None, Some(c)) => match c.acquire(app, id).await {
                Err(e) => Err(Refusal::new(ErrorCode::Internal, e)),
                Ok(Lease::NoTable) => Err(no_table(id)),
                Ok(Lease::Elsewhere { owner, addr }) => Ok(Found::Remote { owner, addr }),
                Ok(Lease::Mine(_)) => match load(app, id).await {
                    Ok(core) => Ok(Found::Local(spawn(app, core))),
                    Err(e) => {
                        c.release(&app.db, id).await;
                        Err(e)
                    }
                },
            },
        }
    };
    let mut loading = app.hub.loading.lock().expect("loading lock");
    // The last one out removes the lock (the map holds one reference, we hold another).
    if loading.get(id).is_some_and(|l| Arc::strong_count(l) <= 2) {
        loading.remove(id);
    }
    result
}

pub(super) fn valid_table_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

pub(super) fn no_table(id: &str) -> Refusal {
    Refusal::new(ErrorCode::NoSuchTable, format!("no table {id:?}"))
}

/// Rebuild a table from its stored changes.
pub async fn load(app: &Arc<App>, id: &str) -> Result<TableCore, Refusal> {
    if !valid_table_id(id) {
        return Err(no_table(id));
    }
    let internal = |e: String| Refusal::new(ErrorCode::Internal, e);
    let row = sqlx::query("SELECT config FROM game_tables WHERE id = $1")
        .bind(id)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(|e| internal(e.to_string()))?
        .ok_or_else(|| no_table(id))?;
    let cfg: TableConfig =
        serde_json::from_str(&crate::store::db::text(&row, "config").map_err(internal)?)
            .map_err(|e| internal(format!("table {id}: bad config: {e}")))?;
    let rows = sqlx::query("SELECT seq, body FROM table_events WHERE table_id = $1 ORDER BY seq")
        .bind(id)
        .fetch_all(&app.db.pool)
        .await
        .map_err(|e| internal(e.to_string()))?;
    let mut core = TableCore::new(cfg);
    for r in rows {
        let seq = crate::store::db::int(&r, "seq").map_err(internal)?;
        let body = crate::store::db::text(&r, "body").map_err(internal)?;
        let change: Stored = serde_json::from_str(&body)
            .map_err(|e| internal(format!("table {id} change {seq}: {e}")))?;
        core.apply(&change).map_err(|e| {
            internal(format!(
                "table {id} change {seq} does not apply: {}",
                e.message
            ))
        })?;
        if core.version != seq as u64 {
            return Err(internal(format!("table {id}: change {seq} out of order")));
        }
    }
    Ok(core)
}

/// Create a table: write it with its first changes (people sitting down), then start its task.
pub async fn create(
    app: &Arc<App>,
    cfg: TableConfig,
    sits: Vec<(u8, UserRef)>,
) -> Result<TableInfo, Refusal> {
    let mut core = TableCore::new(cfg.clone());
    let mut ops = vec![WriteOp::NewTable {
        id: cfg.id.clone(),
        created_at: cfg.created_at,
        config: serde_json::to_string(&cfg).expect("config serialises"),
        status: status_name(TableStatus::Waiting).to_string(),
    }];
    for (seat, user) in sits {
        let ch = Stored::Sit { seat, user };
        core.apply(&ch)?;
        ops.push(WriteOp::Event {
            table: cfg.id.clone(),
            seq: core.version,
            body: serde_json::to_string(&ch).expect("change serialises"),
        });
    }
    if let Some(c) = &app.cluster {
        c.claim_new(&app.db, &cfg.id)
            .await
            .map_err(|e| Refusal::new(ErrorCode::Internal, e))?;
        app.metrics.leases.with_label_values(&["new"]).inc();
    }
    if let Err(e) = app.writer.write(ops).await {
        if let Some(c) = &app.cluster {
            c.forget(&cfg.id);
        }
        return Err(Refusal::new(ErrorCode::Internal, e));
    }
    let creator = cfg.creator.as_ref().map(|u| u.id);
    let h = spawn(app, core);
    // The task starts the game at once if every seat is taken; the answer is the table then.
    let (reply, wait) = oneshot::channel();
    let closing = || Refusal::new(ErrorCode::ShuttingDown, "the table is closing");
    h.tx.send(TableCmd::Info {
        user: creator,
        reply,
    })
    .await
    .map_err(|_| closing())?;
    wait.await.map_err(|_| closing())
}

/// The stored name of a status.
#[must_use]
pub const fn status_name(s: TableStatus) -> &'static str {
    match s {
        TableStatus::Waiting => "waiting",
        TableStatus::Dealing => "dealing",
        TableStatus::Playing => "playing",
        TableStatus::Finished => "finished",
    }
}
