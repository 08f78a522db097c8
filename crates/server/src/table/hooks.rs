//! What the table runtime tells the concerns built on it, and what it asks them.
//!
//! The runtime imports none of the concerns (games and ratings, tournaments, correspondence,
//! moderation, ...). Each concern implements [`Concern`] and is registered once, at start, in
//! `lib.rs` ([`Hooks::new`]); a table task then publishes what happened ([`TableEvent`]) to
//! every registered concern in order, and asks them what to store with its changes and whose
//! chat lines a person does not want. A new concern plugs in by implementing the trait and
//! adding itself to the list: the table's code does not change.

use std::fmt::Debug;
use std::sync::Arc;

use futures_util::future::BoxFuture;

use crate::store::db::WriteOp;
use crate::table::{Stored, TableCore};
use crate::App;

/// What happened at a table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TableEvent {
    /// The table's task started (loaded from storage or created) or its table changed, and
    /// every change is stored. Told after each command the task handled; a concern keeps its
    /// own rows in step with the table (idempotently: the same state may be told twice).
    Changed,
    /// The game is over and its changes are stored. Told before anyone hears of it; told again
    /// later if a concern failed, so every concern must be idempotent here.
    GameOver,
}

/// A concern built on the table runtime. Every method has a default that does nothing.
pub trait Concern: Send + Sync + Debug {
    /// The concern's name, for the log.
    fn name(&self) -> &'static str;

    /// Rows to store with a table's changes, in the same transaction (so that a change stored
    /// is never without them). Called with the table after the changes were applied.
    fn stored_with(&self, _app: &App, _core: &TableCore, _changes: &[Stored]) -> Vec<WriteOp> {
        Vec::new()
    }

    /// What happened at a table. An error is logged; at [`TableEvent::GameOver`] it also has
    /// the game told again later.
    fn on_event<'a>(
        &'a self,
        _app: &'a Arc<App>,
        _core: &'a TableCore,
        _event: TableEvent,
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async { Ok(()) })
    }

    /// The people whose chat lines `user` is not sent.
    fn chat_hidden<'a>(&'a self, _app: &'a App, _user: i64) -> BoxFuture<'a, Vec<i64>> {
        Box::pin(async { Vec::new() })
    }

    /// Whether `user`'s chat lines reach only themselves (a moderator muted them).
    fn chat_only_to_sender<'a>(&'a self, _app: &'a App, _user: i64) -> BoxFuture<'a, bool> {
        Box::pin(async { false })
    }
}

/// The registered concerns, in the order they hear of each event.
#[derive(Clone, Debug, Default)]
pub struct Hooks {
    concerns: Vec<Arc<dyn Concern>>,
}

impl Hooks {
    /// The concerns to tell, in order.
    #[must_use]
    pub fn new(concerns: Vec<Arc<dyn Concern>>) -> Hooks {
        Hooks { concerns }
    }

    /// The names of the registered concerns, in order.
    #[must_use]
    pub fn names(&self) -> Vec<&'static str> {
        self.concerns.iter().map(|c| c.name()).collect()
    }

    /// Every concern's rows to store with these changes.
    #[must_use]
    pub fn stored_with(&self, app: &App, core: &TableCore, changes: &[Stored]) -> Vec<WriteOp> {
        self.concerns
            .iter()
            .flat_map(|c| c.stored_with(app, core, changes))
            .collect()
    }

    /// Tell every concern that the table changed (errors are logged).
    pub async fn changed(&self, app: &Arc<App>, core: &TableCore) {
        for c in &self.concerns {
            if let Err(e) = c.on_event(app, core, TableEvent::Changed).await {
                crate::log(&format!("table {}: {}: {e}", core.cfg.id, c.name()));
            }
        }
    }

    /// Tell every concern that the game is over, in order; the first failure stops it (the
    /// table tells them all again later).
    pub async fn game_over(&self, app: &Arc<App>, core: &TableCore) -> Result<(), String> {
        for c in &self.concerns {
            c.on_event(app, core, TableEvent::GameOver)
                .await
                .map_err(|e| format!("{}: {e}", c.name()))?;
        }
        Ok(())
    }

    /// Whether any concern keeps `user`'s chat lines to themselves.
    pub async fn chat_only_to_sender(&self, app: &App, user: i64) -> bool {
        for c in &self.concerns {
            if c.chat_only_to_sender(app, user).await {
                return true;
            }
        }
        false
    }

    /// Everyone whose chat lines `user` is not sent, by any concern.
    pub async fn chat_hidden(&self, app: &App, user: i64) -> Vec<i64> {
        let mut out = Vec::new();
        for c in &self.concerns {
            for id in c.chat_hidden(app, user).await {
                if !out.contains(&id) {
                    out.push(id);
                }
            }
        }
        out
    }
}
