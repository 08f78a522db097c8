//! Fair play and moderation: the concern that keeps results trustworthy.
//!
//! * **Reports** ([`reports`]): a person reports another (computer help, rating manipulation,
//!   abuse in chat, an offensive name), with a game or a chat line and a few words; automatic
//!   flags (computer-assisted play found by [`fairplay`], rating farms found by [`farms`])
//!   and appeals enter the same queue.
//! * **Moderators** are granted on the server's machine only (`fiveup admin grant-moderator`):
//!   no web route makes one. Their routes ([`api`]) show the queue with its evidence and take
//!   the actions of [`actions`] (warn, mute, mark as computer-assisted, mark as a rating farm,
//!   ban, force a name change), each reversible and each written to the moderation log.
//! * **Refunds** ([`refund`]): marking an account as computer-assisted gives its victims back
//!   the rating points they lost to it, by replaying their ratings without those results.
//!
//! At the table runtime the concern is [`Moderation`]: a finished rated game is queued for the
//! fair-play analysis and checked for farming, and a muted person's chat lines reach only
//! themselves. The table's code knows none of this (see `table::hooks`).

pub mod actions;
pub mod api;
pub mod fairplay;
pub mod farms;
pub mod refund;
pub mod reports;

use std::sync::Arc;

use axum::http::HeaderMap;
use fiveup_protocol::{ErrorCode, UserRef};
use futures_util::future::BoxFuture;

use crate::store::db;
use crate::table::hooks::{Concern, TableEvent};
use crate::table::TableCore;
use crate::{ApiError, App};

/// The reporter of automatic flags (no account has id 0).
pub const SYSTEM: i64 = 0;

/// Why a person is reported.
pub const REASONS: [(&str, &str); 4] = [
    ("computer-help", "computer help"),
    ("rating-manipulation", "rating manipulation"),
    ("chat-abuse", "abuse in chat"),
    ("offensive-name", "an offensive name"),
];

/// Free text a person or a moderator writes (a report, an appeal, a reason): invisible
/// characters removed (as from chat lines) and trimmed. `None` when it is longer than `max`
/// characters or holds a control character other than a line break.
#[must_use]
pub fn clean_text(s: &str, max: usize) -> Option<String> {
    let t = s
        .chars()
        .filter(|c| !crate::table::actor::invisible(*c))
        .collect::<String>()
        .trim()
        .to_string();
    let fits = t.chars().count() <= max && !t.chars().any(|c| c.is_control() && c != '\n');
    fits.then_some(t)
}

/// The routes of reports, notices and appeals (every person) and of moderators.
pub fn routes() -> axum::Router<Arc<App>> {
    reports::routes().merge(api::routes())
}

/// The moderation concern at the table runtime.
#[derive(Debug)]
pub struct Moderation;

impl Concern for Moderation {
    fn name(&self) -> &'static str {
        "moderation"
    }

    fn on_event<'a>(
        &'a self,
        app: &'a Arc<App>,
        core: &'a TableCore,
        event: TableEvent,
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            if event != TableEvent::GameOver {
                return Ok(());
            }
            // Only a game that moved a rating is analysed or looked at for farming (the
            // games concern, before this one, wrote its rating changes).
            let rated = sqlx::query("SELECT user_id FROM rating_changes WHERE game_id = $1")
                .bind(core.cfg.id.as_str())
                .fetch_all(&app.db.pool)
                .await
                .map_err(db::db_err)?;
            if rated.is_empty() {
                return Ok(());
            }
            fairplay::enqueue(app, &core.cfg.id).await?;
            farms::check_game(app, &core.cfg.id).await
        })
    }

    fn chat_only_to_sender<'a>(&'a self, app: &'a App, user: i64) -> BoxFuture<'a, bool> {
        Box::pin(async move { muted(app, user).await })
    }
}

/// Whether a moderator muted `user` (their chat lines then reach only themselves). A database
/// failure counts as not muted: chat is never lost for it.
pub async fn muted(app: &App, user: i64) -> bool {
    match sqlx::query("SELECT mod_muted FROM users WHERE id = $1")
        .bind(user)
        .fetch_optional(&app.db.pool)
        .await
    {
        Ok(Some(r)) => db::int(&r, "mod_muted").unwrap_or(0) != 0,
        Ok(None) => false,
        Err(e) => {
            crate::log(&format!("cannot read whether {user} is muted: {e}"));
            false
        }
    }
}

/// The marks on an account, in words, as its profile shows them.
pub async fn marks_of(app: &App, user: i64) -> Result<Vec<String>, String> {
    let Some(r) = sqlx::query("SELECT mod_assisted, mod_farm, mod_banned FROM users WHERE id = $1")
        .bind(user)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(db::db_err)?
    else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    if db::int(&r, "mod_assisted")? != 0 {
        out.push("computer-assisted play".to_string());
    }
    if db::int(&r, "mod_farm")? != 0 {
        out.push("rating manipulation".to_string());
    }
    if db::int(&r, "mod_banned")? != 0 {
        out.push("closed by a moderator".to_string());
    }
    Ok(out)
}

/// The person of a request, who must be a moderator: a bot token is refused (401: bots do not
/// moderate), as is a request without a session (401); a person who is not a moderator is
/// refused with 403.
pub async fn need_moderator(app: &App, headers: &HeaderMap) -> Result<UserRef, ApiError> {
    if crate::bots::bearer(headers).is_some() {
        return Err(ApiError::new(
            ErrorCode::NotLoggedIn,
            "bot tokens cannot use the moderation routes: log in as a moderator",
        ));
    }
    let user = crate::accounts::user_of(&app.db, headers)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotLoggedIn, "log in as a moderator first"))?;
    if !is_moderator(app, user.id).await? {
        return Err(ApiError::new(
            ErrorCode::Forbidden,
            "only moderators may do this",
        ));
    }
    Ok(user)
}

/// Whether `user` is a moderator.
pub async fn is_moderator(app: &App, user: i64) -> Result<bool, ApiError> {
    let r = sqlx::query("SELECT moderator FROM users WHERE id = $1")
        .bind(user)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(|e| ApiError::internal(db::db_err(e)))?;
    Ok(r.is_some_and(|r| db::int(&r, "moderator").unwrap_or(0) != 0))
}

/// Remember that `user` was seen from `address` (at a login, a registration or a guest's
/// start): the moderators' evidence of accounts played from one address.
pub async fn seen_from(app: &App, user: i64, address: std::net::IpAddr) {
    let now = crate::now();
    let r = sqlx::query(
        "INSERT INTO user_addresses (user_id, address, first_seen, last_seen) \
         VALUES ($1, $2, $3, $3) ON CONFLICT (user_id, address) DO UPDATE SET last_seen = $3",
    )
    .bind(user)
    .bind(address.to_string())
    .bind(now)
    .execute(&app.db.pool)
    .await;
    if let Err(e) = r {
        crate::log(&format!("cannot note the address of {user}: {e}"));
    }
}

/// Grant (or revoke) the moderator role: run by the operator on the server's machine
/// (`fiveup admin grant-moderator NAME --database URL`), never through the web. Returns the
/// account's id and name.
pub async fn set_moderator(db: &db::Db, name: &str, on: bool) -> Result<(i64, String), String> {
    let row = sqlx::query(
        "SELECT id, name, registered, bot_owner FROM users \
         WHERE name_key = $1 OR (registered = 1 AND name = $2)",
    )
    .bind(name.to_lowercase())
    .bind(name)
    .fetch_optional(&db.pool)
    .await
    .map_err(db::db_err)?
    .ok_or_else(|| format!("no registered account named {name:?}"))?;
    let id = db::int(&row, "id")?;
    if db::int(&row, "registered")? == 0 {
        return Err(format!(
            "{name:?} is a guest: only registered accounts moderate"
        ));
    }
    let owner: Option<i64> = sqlx::Row::try_get(&row, "bot_owner").map_err(db::db_err)?;
    if owner.is_some() {
        return Err(format!("{name:?} is a bot account: bots do not moderate"));
    }
    sqlx::query("UPDATE users SET moderator = $1 WHERE id = $2")
        .bind(i64::from(on))
        .bind(id)
        .execute(&db.pool)
        .await
        .map_err(db::db_err)?;
    Ok((id, db::text(&row, "name")?))
}

/// The moderators: (id, name), by name.
pub async fn moderators(db: &db::Db) -> Result<Vec<(i64, String)>, String> {
    let rows = sqlx::query("SELECT id, name FROM users WHERE moderator = 1 ORDER BY name, id")
        .fetch_all(&db.pool)
        .await
        .map_err(db::db_err)?;
    rows.iter()
        .map(|r| Ok((db::int(r, "id")?, db::text(r, "name")?)))
        .collect()
}
