//! The table tasks and the hub that finds them.
//!
//! Each table is one tokio task owning its [`TableCore`]; every command reaches it through its
//! channel, so a table changes one command at a time. A change is applied, written through the
//! group-commit writer, and only then acknowledged and broadcast (each subscriber gets its own
//! projection). Computer players, the seed wait, seat takeovers and a tournament table's
//! clocks run as timers that send commands back into the same channel. At a tournament table
//! no computer ever plays a person's seat: a person who does not come loses as a no-show, one
//! who stops moving loses on the turn clock (`docs/tournaments.md`, "No-shows and clocks").
//! What happens at a table reaches the concerns built on the runtime through
//! [`crate::table::hooks`]; the task calls none of them by name.
//!
//! The task's code is split by what it does:
//! - this file: the task's state, its messages ([`TableCmd`], [`ClientCommand`]), the
//!   subscribers' queues ([`Outbox`]), starting a task and its loop;
//! - [`hub`]: every loaded table and the lobby; finding, loading and creating tables;
//! - `commands`: each command the task handles, and a client's table commands;
//! - `seats`: sitting down, presence, rematches;
//! - `computer`: computer players, the automatic steps and the timers;
//! - `hints`: hints;
//! - `chat`: chat lines;
//! - `commit`: applying, storing and broadcasting changes.

mod chat;
mod commands;
mod commit;
mod computer;
mod hints;
pub mod hub;
mod seats;

pub use hub::*;

pub use chat::invisible;
use chat::{load_chat, Said};

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fiveup_bots::Bot;
use fiveup_engine::Action;
use fiveup_protocol::{ErrorCode, JoinRequest, ServerMsg, TableInfo, TableStatus, UserRef};
use tokio::sync::{mpsc, oneshot, watch};

use crate::table::project::{table_info, Viewer};
use crate::table::{CoreEvent, Refusal, TableCore};
use crate::App;

/// What goes to one subscriber: the table version it reflects and the serialised message.
pub type Out = (u64, Arc<str>);

/// Recent events kept for resyncs.
const RING: usize = 256;

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
    /// A correspondence move's time ran out (sent by the correspondence concern): the seat times
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
    /// A tournament table's no-show time may be up (the timer set for `due`, ms since the
    /// epoch): every person who has made no move of their own and whose no-show time ends by
    /// then loses as a no-show.
    NoShowCheck {
        /// The time the check was set for.
        due: i64,
    },
    /// A person's turn clock ran out, if the table still stands at `version`: a strike.
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
    let core_players = core.players() as usize;
    // A table loaded with its game under way (after a restart, or taken from another
    // instance): when the game began waiting for each person is not stored.
    let core_restored = core.status != TableStatus::Waiting;
    let actor = Actor {
        app: app.clone(),
        core,
        tx,
        subs: Vec::new(),
        ring: VecDeque::new(),
        chat: VecDeque::new(),
        chat_bucket: crate::limiter::Bucket::new(
            app.cfg.table_chat_rate.0,
            app.cfg.table_chat_rate.1,
        ),
        refused: HashMap::new(),
        bots: HashMap::new(),
        bot_pending: None,
        takeover_pending: None,
        seed_timer: None,
        no_show_due: None,
        wait_from: vec![None; core_players],
        restored: core_restored,
        turn_timer: None,
        match_timer: false,
        hints: HashMap::new(),
        finalized: false,
        active: Instant::now(),
        lost: false,
        deserted: false,
    };
    tokio::spawn(actor.run(rx));
    handle
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
    chat_bucket: crate::limiter::Bucket,
    refused: HashMap<u8, VecDeque<(String, String, ErrorCode, String)>>,
    bots: HashMap<u8, Box<Bot>>,
    bot_pending: Option<u64>,
    takeover_pending: Option<u64>,
    seed_timer: Option<u16>,
    /// The time the next no-show check of a tournament table is set for.
    no_show_due: Option<i64>,
    /// Per seat: since when (ms since the epoch) the game has waited for this person who has
    /// made no move of their own yet (their turn, or their seed of the hand), for the no-show
    /// rule; cleared when their seed comes.
    wait_from: Vec<Option<i64>>,
    /// The table was loaded with its game under way and the waits are not known yet: they are
    /// counted from the table's opening.
    restored: bool,
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
    /// The creator left the waiting table and nobody sits there (a quick match's creator who
    /// took the computer instead): it leaves the lobby, and expires as abandoned.
    deserted: bool,
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
    /// deadlines are rows that the correspondence concern fires).
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
}
