//! Chat at a table: the lines kept, what is removed from them, who may read them, and how a
//! line is checked, limited, stored and sent.

use std::collections::VecDeque;
use std::time::Instant;

use fiveup_protocol::{ChatLine, ErrorCode, ServerMsg, UserRef, MAX_CHAT_CHARS};
use serde::{Deserialize, Serialize};

use super::*;
use crate::table::project::Viewer;
use crate::table::Refusal;
use crate::App;

/// Chat lines kept per table (in memory and in the database): the last 50, each of at most
/// [`MAX_CHAT_CHARS`] characters.
pub(super) const CHAT_KEEP: usize = 50;

/// A chat line as kept: the line, and whether only spectators may read it (a spectator's
/// line while a hand of a rated game is played).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Said {
    #[serde(flatten)]
    pub(super) line: ChatLine,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    spectators_only: bool,
    /// Only its writer reads it (a moderator muted them): to everyone else it was never said.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    only_sender: bool,
}

impl Said {
    /// Whether `viewer` reads it: a spectators-only line is for viewers without a seat, a
    /// muted person's line for themselves.
    pub(super) fn for_viewer(&self, viewer: Viewer) -> bool {
        (!self.spectators_only || viewer.seat.is_none())
            && (!self.only_sender || viewer.user == Some(self.line.from.id))
    }
}

/// Characters removed from chat lines: bidirectional controls (embeddings, overrides,
/// isolates, marks) and zero-width ones. Tournament names refuse them.
pub fn invisible(c: char) -> bool {
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

/// The last chat lines of a table, oldest first.
pub(super) async fn load_chat(app: &App, id: &str) -> VecDeque<Said> {
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
impl Actor {
    /// A chat line from a connection: checked, limited, stored, then sent to those who may
    /// read it. Returns false when the line was refused (the sender was told why).
    pub(super) async fn chat(
        &mut self,
        conn: u64,
        user: Option<UserRef>,
        viewer: Viewer,
        text: String,
    ) -> bool {
        let Some(user) = user else {
            self.error_to(
                conn,
                None,
                &Refusal::new(ErrorCode::NotLoggedIn, "log in to chat"),
            );
            return false;
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
            return false;
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
            return false;
        }
        let only_sender = self.app.hooks.chat_only_to_sender(&self.app, user.id).await;
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
            only_sender,
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
            return false;
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
        let msg = crate::to_json(&ServerMsg::Chat {
            line: said.line.clone(),
        });
        let v = self.core.version;
        self.subs.retain(|s| {
            !said.for_viewer(s.viewer) || s.muted.contains(&from) || s.tx.push(v, msg.clone())
        });
        true
    }
}
