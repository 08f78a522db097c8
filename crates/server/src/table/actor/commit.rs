//! Commits: a change applied, stored through the group-commit writer with what the concerns
//! store beside it, then broadcast to each audience (one projection per audience); the lobby
//! is told of changes.

use std::sync::Arc;

use fiveup_protocol::{ErrorCode, ServerMsg, TableStatus};

use super::*;
use crate::store::db::WriteOp;
use crate::table::project::{event_view, table_info, table_view, Viewer};
use crate::table::{CoreEvent, Refusal, Stored};

impl Actor {
    pub(super) fn publish_lobby(&self) {
        let mut info = table_info(&self.core, Viewer::ANONYMOUS);
        // A deserted waiting table is out of the lobby, as an unlisted one is.
        info.unlisted |= self.deserted && self.core.status == TableStatus::Waiting;
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
    pub(super) async fn commit(&mut self, changes: Vec<Stored>) -> Result<u64, Refusal> {
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
        // What the concerns store with the changes (a correspondence move's start, ...).
        ops.extend(self.app.hooks.stored_with(&self.app, &self.core, &changes));
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
    pub(super) async fn reload(&mut self) {
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

    pub(super) async fn finalize(&mut self) {
        if self.core.status == TableStatus::Finished && !self.finalized {
            self.finalized = true;
            if let Err(e) = self.app.hooks.game_over(&self.app, &self.core).await {
                crate::log(&format!(
                    "table {}: storing the game failed: {e}",
                    self.core.cfg.id
                ));
                self.finalized = false;
            }
        }
    }

    pub(super) fn broadcast(&mut self, events: Vec<(u64, CoreEvent)>) -> u64 {
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
}
