//! Hints: one search at a time per person, on the blocking pool, answered to the asking
//! connection only.

use std::time::{Duration, Instant};

use fiveup_engine::Seat;
use fiveup_protocol::{ErrorCode, ServerMsg};

use super::*;
use crate::table::project::Viewer;
use crate::table::Refusal;

impl Actor {
    pub(super) fn hint(&mut self, conn: u64, viewer: Viewer, id: &str) -> Result<(), Refusal> {
        let Some(seat) = viewer.seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "you do not sit here"));
        };
        if self.core.counts() {
            return Err(Refusal::new(
                ErrorCode::HintUnavailable,
                counts_why(&self.core),
            ));
        }
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
}

/// Why no computer help is given at a table whose result counts.
pub(super) fn counts_why(core: &TableCore) -> String {
    let what = if core.cfg.tournament.is_some() {
        "this is a tournament game"
    } else if core.cfg.correspondence.is_some() {
        "this correspondence game counts for ratings"
    } else {
        "this game is rated"
    };
    format!("computer help is off: {what}, so its result counts")
}
