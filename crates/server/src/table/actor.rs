//! The table tasks and the hub that finds them.
//!
//! Each table is one tokio task owning its [`TableCore`]; every command reaches it through its
//! channel, so a table changes one command at a time. A change is applied, written through the
//! group-commit writer, and only then acknowledged and broadcast (each subscriber gets its own
//! projection). Computer players, the seed wait and seat takeovers run as timers that send
//! commands back into the same channel.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fiveup_bots::{make_bot, Bot};
use fiveup_engine::{Action, Seat};
use fiveup_protocol::{
    ChatLine, ErrorCode, JoinRequest, Occupant, ServerMsg, TableInfo, TableStatus, UserRef,
    VersionedEvent, MAX_CHAT_CHARS,
};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::store::db::WriteOp;
use crate::store::leases::Lease;
use crate::table::project::{event_view, table_info, table_view, Viewer};
use crate::table::{CoreEvent, Refusal, SeatSetup, Stored, TableConfig, TableCore};
use crate::{games, App};

/// What goes to one subscriber: the table version it reflects and the serialised message.
pub type Out = (u64, Arc<str>);

/// Recent events kept for resyncs.
const RING: usize = 256;
/// Chat lines kept per table (in memory and in the database): the last 50, each of at most
/// [`MAX_CHAT_CHARS`] characters.
const CHAT_KEEP: usize = 50;

/// A chat line as kept: the line, and whether only spectators may read it (a spectator's
/// line while a hand of a rated game is played).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Said {
    #[serde(flatten)]
    line: ChatLine,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    spectators_only: bool,
}

impl Said {
    /// Whether a viewer in `seat` (`None`: a spectator) reads it.
    fn for_seat(&self, seat: Option<u8>) -> bool {
        !self.spectators_only || seat.is_none()
    }
}
/// Refused command ids remembered per seat.
const REFUSED_KEEP: usize = 64;
/// A subscriber's queue in messages; one that falls this far behind (or further behind than
/// its bytes allow, see [`Outbox`]) is dropped and resyncs.
pub const SUB_QUEUE: usize = 512;

/// Where one subscriber's messages go: a queue bounded in messages and in bytes. The bytes are
/// counted when a message is queued and given back by the connection once it is written, so
/// a client that does not read holds at most `limit` bytes of queued messages (messages are
/// shared between subscribers, so this is an upper bound).
#[derive(Clone, Debug)]
pub struct Outbox {
    tx: mpsc::Sender<Out>,
    bytes: Arc<AtomicUsize>,
    limit: usize,
}

impl Outbox {
    /// A new outbox of at most `limit` bytes; the receiver, and the byte count the reader
    /// gives back with [`Outbox::written`].
    #[must_use]
    pub fn new(limit: usize) -> (Outbox, mpsc::Receiver<Out>, Arc<AtomicUsize>) {
        let (tx, rx) = mpsc::channel(SUB_QUEUE);
        let bytes = Arc::new(AtomicUsize::new(0));
        (
            Outbox {
                tx,
                bytes: bytes.clone(),
                limit,
            },
            rx,
            bytes,
        )
    }

    /// Queue a message; false if the subscriber is too far behind (it is then dropped).
    pub fn push(&self, version: u64, text: Arc<str>) -> bool {
        let n = text.len();
        if self.bytes.load(Ordering::Relaxed) + n > self.limit {
            return false;
        }
        self.bytes.fetch_add(n, Ordering::Relaxed);
        if self.tx.try_send((version, text)).is_ok() {
            true
        } else {
            self.bytes.fetch_sub(n, Ordering::Relaxed);
            false
        }
    }

    /// The reader wrote a message of `n` bytes.
    pub fn written(bytes: &AtomicUsize, n: usize) {
        let _ = bytes.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
            Some(b.saturating_sub(n))
        });
    }
}

/// A command for a table task.
#[derive(Debug)]
pub enum TableCmd {
    /// Follow the table.
    Subscribe {
        /// The connection.
        conn: u64,
        /// Its user.
        user: Option<UserRef>,
        /// The last version it saw.
        since: Option<u64>,
        /// Where its messages go.
        tx: Outbox,
    },
    /// Stop following.
    Unsubscribe {
        /// The connection.
        conn: u64,
    },
    /// A client's command (act, seed, hint, chat, rematch).
    Client {
        /// The connection.
        conn: u64,
        /// Its user.
        user: Option<UserRef>,
        /// The message.
        msg: ClientCommand,
    },
    /// Sit down.
    Join {
        /// Who.
        user: UserRef,
        /// Where.
        req: JoinRequest,
        /// The answer.
        reply: oneshot::Sender<Result<TableInfo, Refusal>>,
    },
    /// Leave before the start.
    Leave {
        /// Who.
        user: UserRef,
        /// The answer.
        reply: oneshot::Sender<Result<TableInfo, Refusal>>,
    },
    /// The table as listed.
    Info {
        /// Who asks.
        user: Option<i64>,
        /// The answer.
        reply: oneshot::Sender<TableInfo>,
    },
    /// A computer player's choice.
    BotMove {
        /// The version it was chosen at.
        version: u64,
        /// The seat.
        seat: u8,
        /// The choice.
        action: Action,
        /// The player, handed back.
        bot: Box<Bot>,
    },
    /// The seed wait of a hand is over.
    SeedTimeout {
        /// The hand.
        hand: u16,
    },
    /// A disconnected player's turn waited long enough.
    TakeoverCheck {
        /// The version it was set at.
        version: u64,
        /// The seat.
        seat: u8,
    },
    /// A hint finished.
    HintDone {
        /// The user who asked.
        user: i64,
    },
    /// Close the table if it is waiting and nobody changed or followed it for `idle`.
    Expire {
        /// How long.
        idle: Duration,
    },
    /// Seat a person who accepted a rematch at their reserved seat (sent to the new table).
    AcceptRematch {
        /// Who.
        user: UserRef,
        /// The answer: the table's version.
        reply: oneshot::Sender<Result<u64, Refusal>>,
    },
    /// A correspondence move's time ran out (sent by `crate::correspondence`): the seat times
    /// out if the table still stands at `version`. The answer: `Some(true)` if it timed out
    /// now, `Some(false)` if the table had moved on, `None` if the change could not be stored.
    MoveTimeout {
        /// The version the deadline was set at.
        version: u64,
        /// The seat.
        seat: u8,
        /// The answer.
        reply: oneshot::Sender<Option<bool>>,
    },
    /// A tournament table's no-show time is up: a person who has not played yet loses.
    NoShowCheck,
    /// A person's turn clock ran out, if the table still stands at `version`.
    TurnOut {
        /// The version it was set at.
        version: u64,
        /// The seat.
        seat: u8,
    },
    /// The match clock ran out.
    ClockOut,
    /// Stop the task (the server is shutting down; everything is stored already).
    Stop,
    /// A test hook: the table's core, cloned.
    Inspect {
        /// The answer.
        reply: oneshot::Sender<Box<TableCore>>,
    },
}

/// The table commands a client sends over the websocket.
#[derive(Debug, Clone)]
pub enum ClientCommand {
    /// Act.
    Act {
        /// Command id.
        id: String,
        /// Expected version.
        version: u64,
        /// The action.
        action: Action,
    },
    /// A seed.
    Seed {
        /// Command id.
        id: String,
        /// Hand.
        hand: u16,
        /// Hex.
        seed: String,
    },
    /// A hint.
    Hint {
        /// Request id.
        id: String,
    },
    /// Chat.
    Chat {
        /// Text.
        text: String,
    },
    /// Rematch.
    Rematch {
        /// Command id.
        id: String,
    },
}

/// A handle on a table task.
#[derive(Clone, Debug)]
pub struct TableHandle {
    /// Its channel.
    pub tx: mpsc::Sender<TableCmd>,
}

/// Every loaded table, and the lobby.
#[derive(Debug)]
pub struct Hub {
    tables: Mutex<HashMap<String, TableHandle>>,
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
    requests: Mutex<HashMap<(i64, String), Request>>,
    /// Lobby messages, serialised.
    pub lobby_tx: broadcast::Sender<Arc<str>>,
}

/// Unfinished tables per client address: address -> (table -> has computer players), and
/// table -> address.
#[derive(Debug, Default)]
struct ByAddr {
    tables: HashMap<std::net::IpAddr, HashMap<String, bool>>,
    addr_of: HashMap<String, std::net::IpAddr>,
}

impl ByAddr {
    fn remove(&mut self, table: &str) {
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
enum Request {
    /// Its table is being made; the sender is dropped when the first request ends.
    Making {
        table: String,
        done: watch::Receiver<()>,
    },
    /// Its table is made (and in the hub).
    Made(String),
}

impl Request {
    fn table(&self) -> &str {
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
struct LobbyList {
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
    fn lobby_update(&self, info: TableInfo) -> bool {
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
    fn track(&self, info: &TableInfo) {
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
    fn forget(&self, info: TableInfo) -> Option<TableInfo> {
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

fn valid_table_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn no_table(id: &str) -> Refusal {
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

/// The last chat lines of a table, oldest first.
async fn load_chat(app: &App, id: &str) -> VecDeque<Said> {
    let rows =
        sqlx::query("SELECT line FROM table_chat WHERE table_id = $1 ORDER BY id DESC LIMIT $2")
            .bind(id)
            .bind(CHAT_KEEP as i64)
            .fetch_all(&app.db.pool)
            .await;
    let mut chat: VecDeque<Said> = match rows {
        Ok(rows) => rows
            .iter()
            .filter_map(|r| crate::store::db::text(r, "line").ok())
            .filter_map(|t| serde_json::from_str(&t).ok())
            .collect(),
        Err(e) => {
            crate::log(&format!("table {id}: cannot read its chat: {e}"));
            VecDeque::new()
        }
    };
    chat.make_contiguous().reverse();
    chat
}

/// Start the task of a table.
pub fn spawn(app: &Arc<App>, core: TableCore) -> TableHandle {
    let (tx, rx) = mpsc::channel(1024);
    let handle = TableHandle { tx: tx.clone() };
    app.hub
        .tables
        .lock()
        .expect("tables lock")
        .insert(core.cfg.id.clone(), handle.clone());
    if let (Some(r), Some(c)) = (&core.cfg.request, &core.cfg.creator) {
        if core.status != TableStatus::Finished {
            app.hub
                .requests
                .lock()
                .expect("requests lock")
                .insert((c.id, r.clone()), Request::Made(core.cfg.id.clone()));
        }
    }
    let actor = Actor {
        app: app.clone(),
        core,
        tx,
        subs: Vec::new(),
        ring: VecDeque::new(),
        chat: VecDeque::new(),
        chat_bucket: crate::web::limiter::Bucket::new(
            app.cfg.table_chat_rate.0,
            app.cfg.table_chat_rate.1,
        ),
        refused: HashMap::new(),
        bots: HashMap::new(),
        bot_pending: None,
        takeover_pending: None,
        seed_timer: None,
        no_show_timer: false,
        turn_timer: None,
        match_timer: false,
        hints: HashMap::new(),
        finalized: false,
        active: Instant::now(),
        lost: false,
    };
    tokio::spawn(actor.run(rx));
    handle
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

/// Computer players quick enough to run on the table's task (microseconds a decision); the
/// others run on the blocking pool.
const QUICK: [&str; 5] = ["beginner", "casual", "club", "random", "greedy"];

/// Characters removed from chat lines: bidirectional controls (embeddings, overrides,
/// isolates, marks) and zero-width ones. Tournament names refuse them.
pub(crate) fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2069}'
            | '\u{061C}'
            | '\u{FEFF}'
            | '\u{180E}'
    )
}

/// A seat player's choice from its view.
fn choose(bot: &mut Bot, view: &fiveup_engine::View) -> Action {
    match bot {
        Bot::Seat(p) => p.choose(view),
        // Only seat players are offered as levels; an oracle never sits.
        Bot::Omniscient(_) => view.legal_actions()[0],
    }
}

/// [`choose`] within a time limit (see `Player::choose_within`).
fn choose_within(bot: &mut Bot, view: &fiveup_engine::View, cap: Duration) -> Action {
    match bot {
        Bot::Seat(p) => p.choose_within(view, cap),
        Bot::Omniscient(_) => view.legal_actions()[0],
    }
}

/// How long a computer player may think within its pause before answering: three quarters of
/// the pause, leaving the rest for the world in progress to finish and the answer to be
/// stored, so that every answer comes when the pause ends. No pause, no limit: the player
/// answers when its search is done.
fn thinking_cap(pause: Duration) -> Option<Duration> {
    (!pause.is_zero()).then(|| pause * 3 / 4)
}

/// Subscribers who see exactly the same messages: the same seat (or none), and whether they
/// created the table (the creator's view lists the invitations).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Audience {
    seat: Option<u8>,
    your_seat: Option<u8>,
    creator: bool,
}

impl Audience {
    fn of(core: &TableCore, viewer: Viewer) -> Audience {
        Audience {
            seat: viewer.seat,
            your_seat: viewer.user.and_then(|u| core.seat_of(u)),
            creator: viewer.user.is_some()
                && core.cfg.creator.as_ref().map(|c| c.id) == viewer.user,
        }
    }
}

struct Sub {
    conn: u64,
    viewer: Viewer,
    tx: Outbox,
    /// The people this viewer muted: their chat lines are not sent here.
    muted: Vec<i64>,
}

struct Actor {
    app: Arc<App>,
    core: TableCore,
    tx: mpsc::Sender<TableCmd>,
    subs: Vec<Sub>,
    ring: VecDeque<(u64, CoreEvent)>,
    chat: VecDeque<Said>,
    /// Chat lines at this table (all people together).
    chat_bucket: crate::web::limiter::Bucket,
    refused: HashMap<u8, VecDeque<(String, String, ErrorCode, String)>>,
    bots: HashMap<u8, Box<Bot>>,
    bot_pending: Option<u64>,
    takeover_pending: Option<u64>,
    seed_timer: Option<u16>,
    /// The no-show check of a tournament table is set.
    no_show_timer: bool,
    /// The version the turn clock is set at.
    turn_timer: Option<u64>,
    /// The match clock is set.
    match_timer: bool,
    /// When each user's last hint finished (far in the future while one is computed): one
    /// at a time per person, however many connections they open.
    hints: HashMap<i64, Instant>,
    finalized: bool,
    /// The last change or subscription (for the expiry of abandoned waiting tables).
    active: Instant,
    /// Another instance holds the table's lease now: the task stops.
    lost: bool,
}

impl Actor {
    async fn run(mut self, mut rx: mpsc::Receiver<TableCmd>) {
        self.chat = load_chat(&self.app, &self.core.cfg.id).await;
        self.after_change().await;
        self.publish_lobby();
        while let Some(cmd) = rx.recv().await {
            if matches!(cmd, TableCmd::Stop) || self.lost {
                break;
            }
            if let TableCmd::Expire { idle } = cmd {
                if self.expire(idle).await {
                    break;
                }
                continue;
            }
            if !matches!(cmd, TableCmd::Info { .. } | TableCmd::HintDone { .. }) {
                self.active = Instant::now();
            }
            self.handle(cmd).await;
            if self.lost {
                break;
            }
            if (self.core.status == TableStatus::Finished && self.finalized
                || self.idle_correspondence())
                && self.subs.is_empty()
            {
                // A finished table nobody follows leaves memory; it is loaded again from the
                // database if anyone asks for it.
                let mut tables = self.app.hub.tables.lock().expect("tables lock");
                if tables
                    .get(&self.core.cfg.id)
                    .is_some_and(|h| h.tx.same_channel(&self.tx))
                {
                    tables.remove(&self.core.cfg.id);
                }
                break;
            }
        }
        {
            let mut tables = self.app.hub.tables.lock().expect("tables lock");
            if tables
                .get(&self.core.cfg.id)
                .is_some_and(|h| h.tx.same_channel(&self.tx))
            {
                tables.remove(&self.core.cfg.id);
            }
        }
        // Everything is stored: another instance may take the table at once.
        if let Some(c) = &self.app.cluster {
            c.release(&self.app.db, &self.core.cfg.id).await;
        }
    }

    /// An idle correspondence table: a person's move, nobody following, no timer of its own
    /// running. It leaves memory and is loaded again from storage on the next request (its
    /// deadlines are rows that `crate::correspondence` fires).
    fn idle_correspondence(&self) -> bool {
        self.core.cfg.correspondence.is_some()
            && self.core.status == TableStatus::Playing
            && self.bot_pending.is_none()
            && self.core.pending.is_none()
            && self
                .core
                .to_move()
                .is_some_and(|s| !self.core.computer_plays(s))
    }

    /// Close an abandoned waiting table: deleted (no game was played), out of the lobby and
    /// of its creator's quota. Returns whether the table is gone.
    async fn expire(&mut self, idle: Duration) -> bool {
        if self.core.status != TableStatus::Waiting
            || !self.subs.is_empty()
            || self.active.elapsed() < idle
        {
            return false;
        }
        let id = self.core.cfg.id.clone();
        let mut tx = match self.app.db.pool.begin().await {
            Ok(tx) => tx,
            Err(e) => {
                crate::log(&format!("table {id}: cannot expire: {e}"));
                return false;
            }
        };
        let ok = sqlx::query("DELETE FROM table_events WHERE table_id = $1")
            .bind(id.as_str())
            .execute(&mut *tx)
            .await
            .is_ok()
            && sqlx::query("DELETE FROM table_chat WHERE table_id = $1")
                .bind(id.as_str())
                .execute(&mut *tx)
                .await
                .is_ok()
            && sqlx::query("DELETE FROM table_leases WHERE table_id = $1")
                .bind(id.as_str())
                .execute(&mut *tx)
                .await
                .is_ok()
            && sqlx::query("DELETE FROM game_tables WHERE id = $1 AND status = 'waiting'")
                .bind(id.as_str())
                .execute(&mut *tx)
                .await
                .is_ok()
            && tx.commit().await.is_ok();
        if !ok {
            crate::log(&format!("table {id}: cannot expire"));
            return false;
        }
        {
            let mut tables = self.app.hub.tables.lock().expect("tables lock");
            if tables.get(&id).is_some_and(|h| h.tx.same_channel(&self.tx)) {
                tables.remove(&id);
            }
        }
        let gone = self
            .app
            .hub
            .forget(table_info(&self.core, Viewer::ANONYMOUS));
        if let (Some(c), Some(info)) = (&self.app.cluster, gone) {
            c.publish(info);
        }
        true
    }

    /// Whether a hand of a rated game is being played: registered people on two sides or more.
    fn rated_hand_in_play(&self) -> bool {
        if self.core.status != TableStatus::Playing {
            return false;
        }
        let mut sides = Vec::new();
        for (i, s) in self.core.seats.iter().enumerate() {
            if let Occupant::Human { user } = &s.occupant {
                let side = self.core.cfg.rules.side_of(Seat(i as u8));
                if user.registered && !sides.contains(&side) {
                    sides.push(side);
                }
            }
        }
        sides.len() >= 2
    }

    fn viewer_of(&self, user: Option<&UserRef>) -> Viewer {
        let uid = user.map(|u| u.id);
        Viewer {
            seat: uid.and_then(|u| self.core.seat_of(u)),
            user: uid,
        }
    }

    fn send_to(&mut self, conn: u64, msg: &ServerMsg) {
        let text = crate::to_json(msg);
        let v = self.core.version;
        if let Some(s) = self.subs.iter().find(|s| s.conn == conn) {
            let _ = s.tx.push(v, text);
        }
    }

    fn error_to(&mut self, conn: u64, id: Option<String>, r: &Refusal) {
        let version = matches!(r.code, ErrorCode::StaleVersion).then_some(self.core.version);
        self.send_to(
            conn,
            &ServerMsg::Error {
                id,
                code: r.code,
                message: r.message.clone(),
                version,
            },
        );
    }

    fn publish_lobby(&self) {
        let info = table_info(&self.core, Viewer::ANONYMOUS);
        let changed = self.app.hub.lobby_update(info.clone());
        if let Some(c) = &self.app.cluster {
            // Every change goes out, unlisted tables included (the others count them in their
            // creators' quotas).
            if changed || info.unlisted || info.status == TableStatus::Finished {
                c.publish(info);
            }
        }
    }

    /// Apply changes, write them, and broadcast their events. On failure nothing changed.
    async fn commit(&mut self, changes: Vec<Stored>) -> Result<u64, Refusal> {
        let status = self.core.status;
        let mut events = Vec::new();
        let mut ops = Vec::new();
        for (i, ch) in changes.iter().enumerate() {
            match self.core.apply(ch) {
                Ok(evs) => {
                    ops.push(WriteOp::Event {
                        table: self.core.cfg.id.clone(),
                        seq: self.core.version,
                        body: serde_json::to_string(ch).expect("change serialises"),
                    });
                    events.extend(evs.into_iter().map(|e| (self.core.version, e)));
                }
                Err(r) => {
                    // A refused change leaves the table as it was; earlier changes of the same
                    // commit are undone by reloading the stored table.
                    if i > 0 {
                        self.reload().await;
                    }
                    return Err(r);
                }
            }
        }
        if self.core.status != status {
            ops.push(WriteOp::Status {
                table: self.core.cfg.id.clone(),
                status: status_name(self.core.status).to_string(),
            });
        }
        ops.extend(crate::correspondence::stored_with(
            &self.app, &self.core, &changes,
        ));
        if let Err(e) = self.app.writer.write(ops).await {
            if e == crate::store::db::LEASE_LOST {
                // Another instance runs the table now: this task stops, its clients follow
                // the table there.
                self.lost = true;
                if let Some(c) = &self.app.cluster {
                    c.forget(&self.core.cfg.id);
                }
                self.app.metrics.leases_lost.inc();
                crate::log(&format!(
                    "table {}: lease lost, stopping it here",
                    self.core.cfg.id
                ));
                return Err(Refusal::new(
                    ErrorCode::ShuttingDown,
                    "the table moved to another instance; send the command again",
                ));
            }
            self.reload().await;
            return Err(Refusal::new(
                ErrorCode::Internal,
                format!("the change could not be stored: {e}"),
            ));
        }
        let moves = changes
            .iter()
            .filter(|c| matches!(c, Stored::Act { .. }))
            .count();
        self.app.metrics.moves.inc_by(moves as u64);
        // The game's record is stored before anyone hears that the game is over.
        self.finalize().await;
        Ok(self.broadcast(events))
    }

    /// Rebuild the table from the database: after a failed write, the stored table is the
    /// truth (no copy is kept per change).
    async fn reload(&mut self) {
        match load(&self.app, &self.core.cfg.id).await {
            Ok(mut core) => {
                core.connected.clone_from(&self.core.connected);
                self.core = core;
            }
            Err(e) => crate::log(&format!(
                "table {}: cannot reload after a failed write: {}",
                self.core.cfg.id, e.message
            )),
        }
    }

    async fn finalize(&mut self) {
        if self.core.status == TableStatus::Finished && !self.finalized {
            self.finalized = true;
            if let Err(e) = games::finalize(&self.app, &self.core).await {
                crate::log(&format!(
                    "table {}: storing the game failed: {e}",
                    self.core.cfg.id
                ));
                self.finalized = false;
            }
        }
    }

    fn broadcast(&mut self, events: Vec<(u64, CoreEvent)>) -> u64 {
        let mut lobby = false;
        for (v, e) in events {
            lobby |= !matches!(
                e,
                CoreEvent::Action { .. } | CoreEvent::SeedIn { .. } | CoreEvent::Commit { .. }
            );
            // One serialised message per audience (each seat, the creator, other spectators),
            // shared by every subscriber in it.
            let core = &self.core;
            let mut made: Vec<(Audience, Arc<str>)> = Vec::new();
            self.subs.retain(|s| {
                let key = Audience::of(core, s.viewer);
                let text = if let Some((_, t)) = made.iter().find(|(k, _)| *k == key) {
                    t.clone()
                } else {
                    let msg = ServerMsg::Event {
                        version: v,
                        event: event_view(&e, s.viewer),
                        view: Box::new(table_view(core, s.viewer)),
                    };
                    let t = crate::to_json(&msg);
                    made.push((key, t.clone()));
                    t
                };
                s.tx.push(v, text)
            });
            self.ring.push_back((v, e));
            if self.ring.len() > RING {
                self.ring.pop_front();
            }
        }
        if lobby {
            self.publish_lobby();
        }
        self.refresh_presence();
        self.core.version
    }

    /// Recompute which seats are connected and tell everyone about changes.
    fn refresh_presence(&mut self) {
        let n = self.core.players() as usize;
        let mut now = vec![false; n];
        for s in &self.subs {
            if let Some(seat) = s.viewer.seat {
                now[seat as usize] = true;
            }
        }
        for (seat, &connected) in now.iter().enumerate() {
            if connected != self.core.connected[seat] {
                self.core.connected[seat] = connected;
                if matches!(self.core.seats[seat].occupant, Occupant::Human { .. }) {
                    let msg = crate::to_json(&ServerMsg::Presence {
                        seat: seat as u8,
                        connected,
                    });
                    let v = self.core.version;
                    self.subs.retain(|s| s.tx.push(v, msg.clone()));
                }
            }
        }
    }

    async fn handle(&mut self, cmd: TableCmd) {
        match cmd {
            TableCmd::Subscribe {
                conn,
                user,
                since,
                tx,
            } => {
                self.subs.retain(|s| s.conn != conn);
                let viewer = self.viewer_of(user.as_ref());
                let muted = match &user {
                    Some(u) => crate::correspondence::mute::muted_by(&self.app, u.id).await,
                    None => Vec::new(),
                };
                let (missed, complete) = self.missed(since, viewer);
                let msg = ServerMsg::Snapshot {
                    version: self.core.version,
                    view: Box::new(table_view(&self.core, viewer)),
                    missed,
                    complete,
                    chat: self
                        .chat
                        .iter()
                        .filter(|c| c.for_seat(viewer.seat) && !muted.contains(&c.line.from.id))
                        .map(|c| c.line.clone())
                        .collect(),
                };
                if tx.push(self.core.version, crate::to_json(&msg)) {
                    self.subs.push(Sub {
                        conn,
                        viewer,
                        tx,
                        muted,
                    });
                }
                self.refresh_presence();
                if let Some(seat) = viewer.seat {
                    let s = &self.core.seats[seat as usize];
                    if s.taken_over && !s.resigned {
                        let _ = self
                            .commit(vec![Stored::Takeover { seat, on: false }])
                            .await;
                        self.bots.remove(&seat);
                    }
                }
                self.after_change().await;
            }
            TableCmd::Unsubscribe { conn } => {
                self.subs.retain(|s| s.conn != conn);
                self.refresh_presence();
                self.after_change().await;
            }
            TableCmd::Client { conn, user, msg } => self.client(conn, user, msg).await,
            TableCmd::Join { user, req, reply } => {
                let r = self.join(&user, &req).await;
                let _ = reply.send(r.map(|()| table_info(&self.core, self.viewer_of(Some(&user)))));
                self.after_change().await;
            }
            TableCmd::Leave { user, reply } => {
                let r = match self.core.seat_of(user.id) {
                    None => Err(Refusal::new(ErrorCode::NotSeated, "you do not sit here")),
                    // Before the start the seat is freed; during the game, leaving resigns: a
                    // computer player plays the seat to the end.
                    Some(seat) if self.core.status == TableStatus::Waiting => {
                        self.commit(vec![Stored::Leave { seat }]).await.map(|_| ())
                    }
                    Some(seat) => self.commit(vec![Stored::Resign { seat }]).await.map(|_| ()),
                };
                self.resubscribe_viewers();
                let _ = reply.send(r.map(|()| table_info(&self.core, self.viewer_of(Some(&user)))));
            }
            TableCmd::Info { user, reply } => {
                self.after_change().await;
                let _ = reply.send(table_info(
                    &self.core,
                    Viewer {
                        seat: user.and_then(|u| self.core.seat_of(u)),
                        user,
                    },
                ));
            }
            TableCmd::BotMove {
                version,
                seat,
                action,
                bot,
            } => {
                self.bots.insert(seat, bot);
                if self.bot_pending == Some(version) {
                    self.bot_pending = None;
                }
                if version == self.core.version
                    && self.core.to_move() == Some(seat)
                    && self.core.computer_plays(seat)
                {
                    let _ = self
                        .commit(vec![Stored::Act {
                            seat,
                            action,
                            cmd: None,
                        }])
                        .await;
                }
                self.after_change().await;
            }
            TableCmd::SeedTimeout { hand } => {
                if self.seed_timer == Some(hand) {
                    self.seed_timer = None;
                }
                if self.core.pending.as_ref().is_some_and(|p| p.hand == hand) {
                    let _ = self.commit(vec![Stored::Deal { hand }]).await;
                }
                self.after_change().await;
            }
            TableCmd::TakeoverCheck { version, seat } => {
                if self.takeover_pending == Some(version) {
                    self.takeover_pending = None;
                }
                if version == self.core.version
                    && self.core.to_move() == Some(seat)
                    && !self.core.computer_plays(seat)
                    && !self.core.connected[seat as usize]
                {
                    let _ = self.commit(vec![Stored::Takeover { seat, on: true }]).await;
                }
                self.after_change().await;
            }
            TableCmd::HintDone { user } => {
                if let Some(t) = self.hints.get_mut(&user) {
                    *t = Instant::now();
                }
            }
            TableCmd::NoShowCheck => {
                if let Some(seat) = self.core.no_show_seat() {
                    // A hand waiting for the absent person's seed is dealt without it first,
                    // so that the game lost has its record.
                    let mut changes = Vec::new();
                    if self.core.state.is_none() {
                        if let Some(p) = &self.core.pending {
                            changes.push(Stored::Deal { hand: p.hand });
                        }
                    }
                    changes.push(Stored::NoShow { seat });
                    let _ = self.commit(changes).await;
                }
                self.after_change().await;
            }
            TableCmd::TurnOut { version, seat } => {
                if self.turn_timer == Some(version) {
                    self.turn_timer = None;
                }
                if version == self.core.version
                    && self.core.to_move() == Some(seat)
                    && !self.core.computer_plays(seat)
                {
                    let mut changes = vec![Stored::Strike { seat }];
                    // The computer's move for them, unless this strike loses the game.
                    if self.core.strikes[seat as usize] + 1 < crate::table::STRIKES_FORFEIT {
                        if let Some(mut bot) = self.take_bot(seat) {
                            let view = self
                                .core
                                .state
                                .as_ref()
                                .expect("a hand in play")
                                .view(Seat(seat));
                            let action = choose(&mut bot, &view);
                            changes.push(Stored::Act {
                                seat,
                                action,
                                cmd: None,
                            });
                        }
                    }
                    let _ = self.commit(changes).await;
                }
                self.after_change().await;
            }
            TableCmd::ClockOut => {
                if self.core.clock_out.is_none() && self.core.status != TableStatus::Finished {
                    let hand = self.core.hand_no();
                    let _ = self.commit(vec![Stored::ClockOut { hand }]).await;
                }
                self.after_change().await;
            }
            TableCmd::Stop | TableCmd::Expire { .. } => {}
            TableCmd::AcceptRematch { user, reply } => {
                let r = self.accept_rematch(&user).await;
                let _ = reply.send(r);
                self.after_change().await;
            }
            TableCmd::Inspect { reply } => {
                let _ = reply.send(Box::new(self.core.clone()));
            }
            TableCmd::MoveTimeout {
                version,
                seat,
                reply,
            } => {
                let done = if version == self.core.version
                    && self.core.to_move() == Some(seat)
                    && !self.core.computer_plays(seat)
                {
                    let r = self.commit(vec![Stored::Timeout { seat }]).await;
                    self.bots.remove(&seat);
                    match r {
                        Ok(_) => Some(true),
                        Err(e) if e.code == ErrorCode::Internal => None,
                        Err(_) => Some(false),
                    }
                } else {
                    Some(false)
                };
                self.after_change().await;
                let _ = reply.send(done);
            }
        }
    }

    /// After a seat change a subscriber's seat may have changed: recompute viewers.
    fn resubscribe_viewers(&mut self) {
        for i in 0..self.subs.len() {
            let user = self.subs[i].viewer.user;
            self.subs[i].viewer.seat = user.and_then(|u| self.core.seat_of(u));
        }
        self.refresh_presence();
    }

    fn missed(&self, since: Option<u64>, viewer: Viewer) -> (Vec<VersionedEvent>, bool) {
        let Some(since) = since else {
            return (Vec::new(), false);
        };
        if since >= self.core.version {
            return (Vec::new(), since == self.core.version);
        }
        let oldest = self.ring.front().map_or(u64::MAX, |(v, _)| *v);
        if oldest > since + 1 {
            return (Vec::new(), false);
        }
        let list = self
            .ring
            .iter()
            .filter(|(v, _)| *v > since)
            .map(|(v, e)| VersionedEvent {
                version: *v,
                event: event_view(e, viewer),
            })
            .collect();
        (list, true)
    }

    async fn join(&mut self, user: &UserRef, req: &JoinRequest) -> Result<(), Refusal> {
        if self.core.seat_of(user.id).is_some() {
            return Err(Refusal::new(
                ErrorCode::AlreadySeated,
                "you already sit at this table",
            ));
        }
        if self.core.status != TableStatus::Waiting {
            return Err(Refusal::new(
                ErrorCode::AlreadyStarted,
                "the game has started",
            ));
        }
        let invite_seat = match &req.invite {
            None => None,
            Some(tok) => Some(
                self.core
                    .cfg
                    .seats
                    .iter()
                    .position(|s| matches!(s, SeatSetup::Invite { token } if token == tok))
                    .filter(|&i| matches!(self.core.seats[i].occupant, Occupant::Invite))
                    .ok_or_else(|| {
                        Refusal::new(ErrorCode::BadInvite, "this invitation is unknown or used")
                    })? as u8,
            ),
        };
        let seat = match (req.seat, invite_seat) {
            (Some(s), Some(i)) if s != i => {
                return Err(Refusal::new(
                    ErrorCode::BadInvite,
                    format!("this invitation is for seat {i}"),
                ))
            }
            (_, Some(i)) => i,
            (Some(s), None) => {
                if s >= self.core.players() {
                    return Err(Refusal::new(
                        ErrorCode::BadRequest,
                        format!("there is no seat {s}"),
                    ));
                }
                let kept_for_me =
                    matches!(
                        self.core.cfg.seats[s as usize],
                        SeatSetup::Reserved { user: u } if u == user.id
                    ) && matches!(self.core.seats[s as usize].occupant, Occupant::Invite);
                if !kept_for_me && !matches!(self.core.seats[s as usize].occupant, Occupant::Open) {
                    return Err(Refusal::new(
                        ErrorCode::SeatTaken,
                        format!("seat {s} is not free"),
                    ));
                }
                s
            }
            (None, None) => self
                .core
                .seats
                .iter()
                .position(|s| matches!(s.occupant, Occupant::Open))
                .ok_or_else(|| Refusal::new(ErrorCode::SeatTaken, "no seat is free"))?
                as u8,
        };
        self.commit(vec![Stored::Sit {
            seat,
            user: user.clone(),
        }])
        .await?;
        self.resubscribe_viewers();
        Ok(())
    }

    fn check_dup(&self, seat: u8, id: &str, what: &str) -> Option<Result<u64, Refusal>> {
        if let Some(a) = self.core.accepted.get(&(seat, id.to_string())) {
            if a.what == what {
                return Some(Ok(a.version));
            }
            return Some(Err(Refusal::new(
                ErrorCode::DuplicateId,
                format!("the command id {id:?} was used for another command"),
            )));
        }
        if let Some(list) = self.refused.get(&seat) {
            if let Some((_, w, code, msg)) = list.iter().find(|(i, ..)| i == id) {
                if w == what {
                    return Some(Err(Refusal::new(*code, msg.clone())));
                }
                return Some(Err(Refusal::new(
                    ErrorCode::DuplicateId,
                    format!("the command id {id:?} was used for another command"),
                )));
            }
        }
        None
    }

    fn remember_refusal(&mut self, seat: u8, id: &str, what: &str, r: &Refusal) {
        if matches!(r.code, ErrorCode::Internal | ErrorCode::DuplicateId) {
            return;
        }
        let list = self.refused.entry(seat).or_default();
        list.push_back((id.to_string(), what.to_string(), r.code, r.message.clone()));
        if list.len() > REFUSED_KEEP {
            list.pop_front();
        }
    }

    fn valid_id(id: &str) -> Result<(), Refusal> {
        if id.is_empty() || id.chars().count() > 64 {
            return Err(Refusal::new(
                ErrorCode::BadRequest,
                "a command id has 1 to 64 characters",
            ));
        }
        Ok(())
    }

    async fn client(&mut self, conn: u64, user: Option<UserRef>, msg: ClientCommand) {
        let viewer = self.viewer_of(user.as_ref());
        match msg {
            ClientCommand::Act {
                id,
                version,
                action,
            } => {
                let what = format!("act {action}");
                let r = self
                    .seated_command(viewer, &id, &what, |me| {
                        if version != me.core.version {
                            return Err(Refusal::new(
                                ErrorCode::StaleVersion,
                                format!(
                                    "the table is at version {}, not {version}",
                                    me.core.version
                                ),
                            ));
                        }
                        Ok(Stored::Act {
                            seat: viewer.seat.unwrap_or(0),
                            action,
                            cmd: Some(id.clone()),
                        })
                    })
                    .await;
                self.answer(conn, id, r);
            }
            ClientCommand::Seed { id, hand, seed } => {
                let what = format!("seed {hand}");
                let r = self
                    .seated_command(viewer, &id, &what, |_| {
                        Ok(Stored::Seed {
                            hand,
                            seat: viewer.seat.unwrap_or(0),
                            seed: seed.to_ascii_lowercase(),
                            cmd: id.clone(),
                        })
                    })
                    .await;
                self.answer(conn, id, r);
            }
            ClientCommand::Rematch { id } => {
                let r = self.rematch(viewer, user.as_ref(), &id).await;
                self.answer(conn, id, r);
            }
            ClientCommand::Hint { id } => {
                let r = self.hint(conn, viewer, &id);
                if let Err(r) = r {
                    self.error_to(conn, Some(id), &r);
                }
            }
            ClientCommand::Chat { text } => {
                let Some(user) = user else {
                    self.error_to(
                        conn,
                        None,
                        &Refusal::new(ErrorCode::NotLoggedIn, "log in to chat"),
                    );
                    return;
                };
                // Bidirectional overrides and isolates and zero-width characters could make a
                // line read differently from what it says (or hide in it): they are removed.
                let text: String = text.chars().filter(|c| !invisible(*c)).collect();
                let text = text.trim().to_string();
                let n = text.chars().count();
                if n == 0 || n > MAX_CHAT_CHARS || text.chars().any(char::is_control) {
                    self.error_to(
                        conn,
                        None,
                        &Refusal::new(
                            ErrorCode::BadRequest,
                            format!(
                                "a chat line has 1 to {MAX_CHAT_CHARS} characters and no \
                                 control characters"
                            ),
                        ),
                    );
                    return;
                }
                // Limits: per person (all tables together), then per table.
                if !self.app.chat_limiter.allow(user.id) || !self.chat_bucket.take(Instant::now()) {
                    self.error_to(
                        conn,
                        None,
                        &Refusal::new(
                            ErrorCode::RateLimited,
                            "too many chat lines (yours, or this table's): wait a moment",
                        ),
                    );
                    return;
                }
                let said = Said {
                    line: ChatLine {
                        from: user,
                        seat: viewer.seat,
                        text,
                        at: crate::now(),
                    },
                    // Spectators may not talk to the players of a rated game during a hand
                    // (they could tell what they see): they talk among themselves.
                    spectators_only: viewer.seat.is_none() && self.rated_hand_in_play(),
                };
                // Chat is stored, so that it survives restarts and a change of instance; only
                // the last lines are kept.
                let stored = sqlx::query("INSERT INTO table_chat (table_id, line) VALUES ($1, $2)")
                    .bind(self.core.cfg.id.as_str())
                    .bind(serde_json::to_string(&said).expect("chat serialises"))
                    .execute(&self.app.db.pool)
                    .await;
                if let Err(e) = stored {
                    self.error_to(
                        conn,
                        None,
                        &Refusal::new(
                            ErrorCode::Internal,
                            format!("the chat line could not be stored: {e}"),
                        ),
                    );
                    return;
                }
                let trimmed = sqlx::query(
                    "DELETE FROM table_chat WHERE table_id = $1 AND id < (SELECT MIN(id) FROM \
                     (SELECT id FROM table_chat WHERE table_id = $2 ORDER BY id DESC LIMIT $3) k)",
                )
                .bind(self.core.cfg.id.as_str())
                .bind(self.core.cfg.id.as_str())
                .bind(CHAT_KEEP as i64)
                .execute(&self.app.db.pool)
                .await;
                if let Err(e) = trimmed {
                    crate::log(&format!(
                        "table {}: cannot trim its chat: {e}",
                        self.core.cfg.id
                    ));
                }
                self.chat.push_back(said.clone());
                if self.chat.len() > CHAT_KEEP {
                    self.chat.pop_front();
                }
                let from = said.line.from.id;
                let line = said.line;
                let msg = crate::to_json(&ServerMsg::Chat { line });
                let v = self.core.version;
                let only = said.spectators_only;
                self.subs.retain(|s| {
                    (only && s.viewer.seat.is_some())
                        || s.muted.contains(&from)
                        || s.tx.push(v, msg.clone())
                });
            }
        }
        self.after_change().await;
    }

    fn answer(&mut self, conn: u64, id: String, r: Result<u64, Refusal>) {
        match r {
            Ok(version) => self.send_to(conn, &ServerMsg::Ack { id, version }),
            Err(e) => self.error_to(conn, Some(id), &e),
        }
    }

    /// A command that needs a seat, with command-id handling: a resend gets the first answer.
    async fn seated_command(
        &mut self,
        viewer: Viewer,
        id: &str,
        what: &str,
        make: impl FnOnce(&Actor) -> Result<Stored, Refusal>,
    ) -> Result<u64, Refusal> {
        Self::valid_id(id)?;
        let Some(seat) = viewer.seat else {
            return Err(Refusal::new(
                ErrorCode::NotSeated,
                "you do not sit at this table",
            ));
        };
        if let Some(prev) = self.check_dup(seat, id, what) {
            return prev;
        }
        let change = make(self);
        let r = match change {
            Ok(ch) => {
                let rematch = match &ch {
                    Stored::Rematch { table, seat, .. } => Some((table.clone(), *seat)),
                    _ => None,
                };
                if let Some((new_id, asker)) = rematch {
                    self.create_rematch(&new_id, asker).await?;
                }
                self.commit(vec![ch]).await
            }
            Err(e) => Err(e),
        };
        if let Err(e) = &r {
            self.remember_refusal(seat, id, what, e);
        }
        r
    }

    /// `rematch`: the first to ask creates the new table, sitting there alone, with each other
    /// person's seat kept for them; the others accept by asking too, which seats them. The
    /// game starts when everyone has.
    async fn rematch(
        &mut self,
        viewer: Viewer,
        user: Option<&UserRef>,
        id: &str,
    ) -> Result<u64, Refusal> {
        Self::valid_id(id)?;
        let (Some(seat), Some(user)) = (viewer.seat, user) else {
            return Err(Refusal::new(
                ErrorCode::NotSeated,
                "you do not sit at this table",
            ));
        };
        if let Some(prev) = self.check_dup(seat, id, "rematch") {
            return prev;
        }
        if let Some(new_id) = self.core.rematch.clone() {
            // Accept: a seat at the new table.
            let h = table(&self.app, &new_id).await?;
            let (reply, rx) = oneshot::channel();
            let closing = || Refusal::new(ErrorCode::ShuttingDown, "the table is closing");
            h.tx.send(TableCmd::AcceptRematch {
                user: user.clone(),
                reply,
            })
            .await
            .map_err(|_| closing())?;
            rx.await.map_err(|_| closing())??;
            return Ok(self.core.version);
        }
        let new_id = crate::new_id();
        self.seated_command(viewer, id, "rematch", |me| {
            if me.core.status != TableStatus::Finished {
                return Err(Refusal::new(ErrorCode::NotStarted, "the game is not over"));
            }
            Ok(Stored::Rematch {
                table: new_id.clone(),
                seat,
                cmd: id.to_string(),
            })
        })
        .await
    }

    /// A person of the game before takes the seat kept for them.
    async fn accept_rematch(&mut self, user: &UserRef) -> Result<u64, Refusal> {
        if self.core.seat_of(user.id).is_some() {
            return Ok(self.core.version);
        }
        let kept = self
            .core
            .cfg
            .seats
            .iter()
            .position(|s| matches!(s, SeatSetup::Reserved { user: u } if *u == user.id));
        let Some(seat) = kept else {
            return Err(Refusal::new(
                ErrorCode::NotSeated,
                "no seat is kept for you at the new table",
            ));
        };
        self.join(
            user,
            &JoinRequest {
                seat: Some(seat as u8),
                invite: None,
            },
        )
        .await?;
        Ok(self.core.version)
    }

    async fn create_rematch(&mut self, new_id: &str, asker: u8) -> Result<(), Refusal> {
        let mut seats = Vec::new();
        let mut sits = Vec::new();
        for (i, s) in self.core.seats.iter().enumerate() {
            match &s.occupant {
                Occupant::Human { user } if i == asker as usize => {
                    seats.push(SeatSetup::Open);
                    sits.push((i as u8, user.clone()));
                }
                // Nobody is seated without saying so: the seat waits for them.
                Occupant::Human { user } => seats.push(SeatSetup::Reserved { user: user.id }),
                Occupant::Bot { level } => seats.push(SeatSetup::Bot {
                    level: level.clone(),
                }),
                _ => seats.push(SeatSetup::Open),
            }
        }
        let cfg = TableConfig {
            id: new_id.to_string(),
            rules: self.core.cfg.rules,
            seats,
            creator: self.core.cfg.creator.clone(),
            unlisted: self.core.cfg.unlisted,
            created_at: crate::now(),
            request: None,
            correspondence: self.core.cfg.correspondence,
            // A rematch is an ordinary table.
            tournament: None,
        };
        create(&self.app, cfg, sits).await.map(|_| ())
    }

    fn hint(&mut self, conn: u64, viewer: Viewer, id: &str) -> Result<(), Refusal> {
        let Some(seat) = viewer.seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "you do not sit here"));
        };
        if self.core.to_move() != Some(seat) || self.core.computer_plays(seat) {
            return Err(Refusal::new(
                ErrorCode::HintUnavailable,
                "hints are given on your turn",
            ));
        }
        let who = viewer.user.unwrap_or(-1);
        if let Some(last) = self.hints.get(&who) {
            if last.elapsed() < self.app.cfg.hint_interval {
                return Err(Refusal::new(
                    ErrorCode::HintUnavailable,
                    "a hint is being computed, or was given a moment ago",
                ));
            }
        }
        // Mark busy until done: an instant far enough in the future.
        self.hints
            .insert(who, Instant::now() + Duration::from_secs(3600));
        let view = self
            .core
            .state
            .as_ref()
            .expect("a hand is in play")
            .view(Seat(seat));
        let cfg = self.app.cfg.hint_config;
        let budget = self.app.cfg.hint_budget;
        let version = self.core.version;
        let tx = self
            .subs
            .iter()
            .find(|s| s.conn == conn)
            .map(|s| s.tx.clone());
        let me = self.tx.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            let evals = tokio::task::spawn_blocking(move || {
                fiveup_bots::analyze_within(&view, &cfg, version, budget)
            })
            .await
            .unwrap_or_default();
            let msg = ServerMsg::Hint {
                id,
                version,
                evals: evals
                    .iter()
                    .map(|e| fiveup_protocol::HintEval {
                        action: e.action,
                        mean: e.mean,
                        stderr: e.stderr,
                        samples: e.samples,
                    })
                    .collect(),
            };
            if let Some(tx) = tx {
                let _ = tx.push(version, crate::to_json(&msg));
            }
            let _ = me.send(TableCmd::HintDone { user: who }).await;
        });
        Ok(())
    }

    /// The computer player of a seat, made on first use.
    fn take_bot(&mut self, seat: u8) -> Option<Box<Bot>> {
        if let Some(b) = self.bots.remove(&seat) {
            return Some(b);
        }
        let spec = self.app.cfg.bot_spec(&self.core.bot_level(seat));
        let seed = u64::from_le_bytes(
            crate::table::fairness::random_bytes()[..8]
                .try_into()
                .expect("8 bytes"),
        );
        match make_bot(&spec, seed) {
            Ok(b) => Some(Box::new(b)),
            Err(e) => {
                crate::log(&format!("bad computer player {spec}: {e}"));
                None
            }
        }
    }

    /// Take the automatic steps the table is due (start, commitments, deals), then set the
    /// timers for computer players, the seed wait and takeovers.
    async fn after_change(&mut self) {
        loop {
            // The match clock's decision comes before anything else.
            if self.core.clock_winner().is_some() {
                if self.commit(vec![Stored::ClockEnd]).await.is_err() {
                    break;
                }
                continue;
            }
            // Quick computer players with no pause play at once, here.
            if self.app.cfg.bot_delay.is_zero() && self.bot_pending.is_none() {
                if let Some(seat) = self.core.to_move() {
                    let level = self.core.bot_level(seat);
                    if self.core.computer_plays(seat) && QUICK.contains(&level.as_str()) {
                        let Some(mut bot) = self.take_bot(seat) else {
                            break;
                        };
                        let view = self
                            .core
                            .state
                            .as_ref()
                            .expect("a hand in play")
                            .view(Seat(seat));
                        let action = choose(&mut bot, &view);
                        self.bots.insert(seat, bot);
                        let act = Stored::Act {
                            seat,
                            action,
                            cmd: None,
                        };
                        if self.commit(vec![act]).await.is_err() {
                            break;
                        }
                        continue;
                    }
                }
            }
            let change = if self.core.status == TableStatus::Waiting && self.core.all_seated() {
                Some(Stored::Start)
            } else if self.core.status == TableStatus::Dealing && self.core.pending.is_none() {
                let hand = self
                    .core
                    .state
                    .as_ref()
                    .map_or(1, |s| s.start().hand_no + 1);
                // A duplicate board's seed is fixed; any other hand's is fresh.
                let server_seed = self.core.board_seed().map_or_else(
                    || crate::table::fairness::to_hex(&crate::table::fairness::random_bytes()),
                    str::to_string,
                );
                Some(Stored::Commit { hand, server_seed })
            } else if self.core.status == TableStatus::Dealing && self.core.seeds_complete() {
                Some(Stored::Deal {
                    hand: self.core.pending.as_ref().map_or(0, |p| p.hand),
                })
            } else {
                None
            };
            let Some(change) = change else { break };
            if self.commit(vec![change]).await.is_err() {
                break;
            }
        }
        self.finalize().await;
        crate::correspondence::on_change(&self.app, &self.core).await;
        // A tournament table's no-show check, at its time from the opening.
        if let (false, Some(ms), Some(_)) = (
            self.no_show_timer,
            self.core.no_show_ms(),
            self.core.no_show_seat(),
        ) {
            self.no_show_timer = true;
            let due = self.core.cfg.created_at * 1000 + i64::try_from(ms).unwrap_or(i64::MAX);
            let wait = u64::try_from(due - crate::tournament::director::now_ms()).unwrap_or(0);
            let tx = self.tx.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(wait)).await;
                let _ = tx.send(TableCmd::NoShowCheck).await;
            });
        }
        // The match clock, from the opening.
        if let (false, Some(ms), false) = (
            self.match_timer,
            self.core.match_ms(),
            self.core.status == TableStatus::Finished,
        ) {
            self.match_timer = true;
            let due = self.core.cfg.created_at * 1000 + i64::try_from(ms).unwrap_or(i64::MAX);
            let wait = u64::try_from(due - crate::tournament::director::now_ms()).unwrap_or(0);
            let tx = self.tx.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(wait)).await;
                let _ = tx.send(TableCmd::ClockOut).await;
            });
        }
        // The turn clock of the person to move.
        if let (Some(ms), Some(seat)) = (self.core.turn_ms(), self.core.to_move()) {
            let version = self.core.version;
            let person = matches!(
                self.core.seats[seat as usize].occupant,
                Occupant::Human { .. }
            );
            if person && !self.core.computer_plays(seat) && self.turn_timer != Some(version) {
                self.turn_timer = Some(version);
                let tx = self.tx.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    let _ = tx.send(TableCmd::TurnOut { version, seat }).await;
                });
            }
        }
        // The seed wait.
        if let Some(p) = &self.core.pending {
            if self.seed_timer != Some(p.hand) {
                self.seed_timer = Some(p.hand);
                let hand = p.hand;
                let tx = self.tx.clone();
                let wait = self.app.cfg.seed_wait;
                tokio::spawn(async move {
                    tokio::time::sleep(wait).await;
                    let _ = tx.send(TableCmd::SeedTimeout { hand }).await;
                });
            }
        }
        let Some(seat) = self.core.to_move() else {
            return;
        };
        let version = self.core.version;
        if self.core.computer_plays(seat) {
            if self.bot_pending == Some(version) {
                return;
            }
            let Some(bot) = self.take_bot(seat) else {
                return;
            };
            self.bot_pending = Some(version);
            let view = self
                .core
                .state
                .as_ref()
                .expect("a hand in play")
                .view(Seat(seat));
            let tx = self.tx.clone();
            let delay = self.app.cfg.bot_delay;
            tokio::spawn(async move {
                // The player thinks first and the answer waits out the rest of the pause, so
                // that how long it takes does not tell the others what it holds (a forced
                // move is found in microseconds, a searched one in milliseconds).
                // A searching player's deadline falls inside the pause, so that the pause hides
                // the thinking whatever the level, set or build.
                let due = tokio::time::Instant::now() + delay;
                let cap = thinking_cap(delay);
                let res = tokio::task::spawn_blocking(move || {
                    let mut bot = bot;
                    let action = match cap {
                        Some(cap) => choose_within(&mut bot, &view, cap),
                        None => choose(&mut bot, &view),
                    };
                    (bot, action)
                })
                .await;
                tokio::time::sleep_until(due).await;
                if let Ok((bot, action)) = res {
                    let _ = tx
                        .send(TableCmd::BotMove {
                            version,
                            seat,
                            action,
                            bot,
                        })
                        .await;
                }
            });
        } else if !self.core.connected[seat as usize] && self.core.cfg.correspondence.is_none() {
            // At correspondence tables the move's clock decides instead (crate::correspondence).
            let Some(after) = self.app.cfg.takeover else {
                return;
            };
            if self.takeover_pending == Some(version) {
                return;
            }
            self.takeover_pending = Some(version);
            let tx = self.tx.clone();
            tokio::spawn(async move {
                tokio::time::sleep(after).await;
                let _ = tx.send(TableCmd::TakeoverCheck { version, seat }).await;
            });
        }
    }
}
