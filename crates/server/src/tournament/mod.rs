//! Tournaments online: events stored in the database and run by the server.
//!
//! - [`event`]: an event as a value (settings, entrants, the log of operations), rebuilt from
//!   storage by applying its log again;
//! - [`settings`]: an event's settings, checked and described;
//! - [`director`]: the task that runs each event on the instance holding its lease: starts it,
//!   pairs, opens the tables, reads the results, ends it; every operation stored before it is
//!   announced;
//! - [`boards`]: the one rule of a duplicate board's visibility;
//! - [`api`]: the HTTP endpoints (list, create, join, withdraw, computer entrants, one event).
//!
//! Standings go out over the websocket to the connections following an event, and a player
//! whose table is ready is told on every connection of theirs (`docs/protocol.md`).

use std::sync::Arc;

use tokio::sync::{broadcast, Notify};

pub mod api;
pub mod boards;
pub mod director;
pub mod event;
pub mod settings;

/// Tries at storing a disqualification when a director stores an operation of the same event
/// at once.
const DISQUALIFY_ATTEMPTS: usize = 12;

/// Disqualify (`on`) or reinstate every entry of `user` in the events they entered: the
/// moderation concern calls it when it marks (or unmarks) an account for computer-assisted
/// play. Each event stores an [`event::Op::Disqualify`] and tells its followers the new
/// standings. Returns the events changed.
pub async fn disqualify(app: &crate::App, user: i64, on: bool) -> Result<Vec<String>, String> {
    use crate::store::db;
    let rows = sqlx::query(
        "SELECT tournament_id, entrant FROM tournament_entrants WHERE user_id = $1 \
         ORDER BY tournament_id",
    )
    .bind(user)
    .fetch_all(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    let mut changed = Vec::new();
    for r in &rows {
        let id = db::text(r, "tournament_id")?;
        let entrant = fiveup_tournament::EntrantId(db::int(r, "entrant")? as u32);
        for attempt in 0..=DISQUALIFY_ATTEMPTS {
            let Some(mut event) = director::load(app, &id).await? else {
                break;
            };
            if event.disqualified.contains(&entrant) == on {
                break;
            }
            let op = event::Op::Disqualify { entrant, on };
            event.apply(op.clone())?;
            let stored = sqlx::query(
                "INSERT INTO tournament_ops (tournament_id, seq, body) VALUES ($1, $2, $3)",
            )
            .bind(id.as_str())
            .bind(event.ops.len() as i64)
            .bind(serde_json::to_string(&op).expect("operations serialise"))
            .execute(&app.db.pool)
            .await;
            match stored {
                Ok(_) => {
                    let n = director::entrants(app, &id)
                        .await?
                        .iter()
                        .filter(|e| !e.withdrawn)
                        .count();
                    app.tournaments.announce(&event, n as u32);
                    app.tournaments.wake.notify_waiters();
                    changed.push(id.clone());
                    break;
                }
                Err(e) if attempt == DISQUALIFY_ATTEMPTS => {
                    return Err(format!("event {id}: {}", db::db_err(e)));
                }
                Err(_) => {}
            }
        }
    }
    Ok(changed)
}

/// A message for websockets.
#[derive(Clone, Debug)]
pub enum Note {
    /// An event changed: for the connections following it.
    Event {
        /// The event.
        id: Arc<str>,
        /// The `tournament` message.
        text: Arc<str>,
    },
    /// A table is ready: for every connection of these people.
    Table {
        /// Who.
        users: Arc<[i64]>,
        /// The `tournament_table` message.
        text: Arc<str>,
    },
}

/// What the directors and the websockets share.
#[derive(Debug)]
pub struct Tournaments {
    /// Messages for websockets.
    pub notes: broadcast::Sender<Note>,
    /// Rung when an entry or an event changed: the directors look at once.
    pub wake: Notify,
    /// Held while an entry is checked and stored, so that entries arriving together on this
    /// instance wait here rather than for the database's lock; the transaction that stores
    /// an entry locks the event's row, so that entries through other instances are numbered
    /// after it and checked against it too (one person entering twice, the entrant limit).
    pub entries: tokio::sync::Mutex<()>,
    /// Reads of the list and of events per client address (`Config::tournament_read_rate`).
    pub reads: crate::limiter::KeyedLimiter,
    /// The answers for big events, each kept until its event changes (`api::one`).
    pub answers: std::sync::Mutex<std::collections::HashMap<String, api::Cached>>,
}

impl Tournaments {
    /// With the limits of `cfg`.
    #[must_use]
    pub fn new(cfg: &crate::Config) -> Tournaments {
        Tournaments {
            notes: broadcast::channel(4096).0,
            wake: Notify::new(),
            entries: tokio::sync::Mutex::new(()),
            reads: crate::limiter::KeyedLimiter::new(
                cfg.tournament_read_rate.0,
                cfg.tournament_read_rate.1,
            ),
            answers: std::sync::Mutex::default(),
        }
    }
}

impl Tournaments {
    /// Push an event's standings to its followers.
    pub fn announce(&self, event: &event::Event, entrants: u32) {
        let text = crate::to_json(&fiveup_protocol::ServerMsg::Tournament {
            event: event.summary(entrants),
        });
        let _ = self.notes.send(Note::Event {
            id: Arc::from(event.id.as_str()),
            text,
        });
    }
}

/// The tournament concern at the table runtime: when a game ends its result is stored (the
/// games concern, registered before this one), and the directors read it now rather than at
/// their next look.
#[derive(Debug)]
pub struct Results;

impl crate::table::hooks::Concern for Results {
    fn name(&self) -> &'static str {
        "tournament"
    }

    fn on_event<'a>(
        &'a self,
        app: &'a Arc<crate::App>,
        core: &'a crate::table::TableCore,
        event: crate::table::hooks::TableEvent,
    ) -> futures_util::future::BoxFuture<'a, Result<(), String>> {
        // Only the server opens tables without a creator (a tournament's games).
        if event == crate::table::hooks::TableEvent::GameOver && core.cfg.creator.is_none() {
            app.tournaments.wake.notify_waiters();
        }
        Box::pin(async { Ok(()) })
    }
}
