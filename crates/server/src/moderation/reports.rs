//! What every person does: report someone, read what moderators did to their own account, and
//! appeal it once.
//!
//! * `POST /api/reports`: `{user, reason, game?, chat?: {table, at, text}, text?}`. A
//!   registered person reports another account. At most [`REPORTS_PER_DAY`] a day, and one
//!   open report per reporter and person (a second is refused until a moderator has closed the
//!   first). A game must be one the reported person played; a chat line must be one of theirs
//!   still kept at that table (its text is copied into the report as evidence).
//! * `GET /api/me/moderation`: whether the person is a moderator, whether they must choose a
//!   new name, and the actions taken on their account, each with whether it was seen, undone
//!   and appealed.
//! * `POST /api/me/moderation/{action}/seen`, `POST /api/me/moderation/{action}/appeal`
//!   (`{text}`): one appeal per action, which enters the moderators' queue.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use fiveup_protocol::ErrorCode;
use serde::{Deserialize, Serialize};
use sqlx::Row as _;

use super::actions::Kind;
use crate::store::db;
use crate::{ApiError, App};

type ApiResult<T> = Result<T, ApiError>;

/// Reports one person may file in a day.
pub const REPORTS_PER_DAY: i64 = 10;
/// The longest text of a report or an appeal.
pub const MAX_TEXT: usize = 1000;

/// The routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/reports", post(report))
        .route("/api/me/moderation", get(mine))
        .route("/api/me/moderation/{id}/seen", post(seen))
        .route("/api/me/moderation/{id}/appeal", post(appeal))
        .route("/api/appeals/ban", post(ban_appeal))
}

/// `POST /api/appeals/ban`: a banned person cannot log in, so they appeal with their name and
/// password (limited as logins are).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BanAppeal {
    /// The user name.
    pub username: String,
    /// The password.
    pub password: String,
    /// What they say.
    pub text: String,
}

async fn ban_appeal(State(app): State<Arc<App>>, b: Bytes) -> ApiResult<Response> {
    let req: BanAppeal = body(&b)?;
    let head: String = req.username.chars().take(32).collect();
    if !app
        .login_limiter
        .allow(crate::accounts::name_skeleton(&head))
    {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many attempts for this account; wait a minute",
        ));
    }
    let text = check_text(&req.text)?;
    if text.is_empty() {
        return Err(bad("write what you want the moderators to know"));
    }
    let user =
        crate::accounts::banned_account(&app.db, &app.hashes, &req.username, &req.password).await?;
    let ban = sqlx::query(
        "SELECT id FROM mod_actions WHERE target_id = $1 AND action = 'ban' \
         AND undone_at IS NULL ORDER BY id DESC LIMIT 1",
    )
    .bind(user)
    .fetch_optional(&app.db.pool)
    .await
    .map_err(|e| internal(db::db_err(e)))?
    .ok_or_else(|| internal("a banned account without its ban in the log"))?;
    let id = db::int(&ban, "id").map_err(internal)?;
    insert_appeal(&app, user, id, "ban", text).await
}

/// Store the one appeal of `user` against action `id`.
async fn insert_appeal(
    app: &App,
    user: i64,
    id: i64,
    action: &str,
    text: String,
) -> ApiResult<Response> {
    let inserted = sqlx::query(
        "INSERT INTO reports (kind, reporter_id, target_id, reason, body, action_id, created_at) \
         VALUES ('appeal', $1, $1, $2, $3, $4, $5)",
    )
    .bind(user)
    .bind(action)
    .bind(text)
    .bind(id)
    .bind(crate::now())
    .execute(&app.db.pool)
    .await;
    match inserted {
        Ok(_) => Ok(StatusCode::CREATED.into_response()),
        Err(e) if e.to_string().to_lowercase().contains("unique") => Err(ApiError::new(
            ErrorCode::AlreadyReported,
            "you have appealed this action already: one appeal per action",
        )),
        Err(e) => Err(internal(db::db_err(e))),
    }
}

/// A reported chat line.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ChatRef {
    /// The table.
    pub table: String,
    /// When it was said (seconds since the epoch, as the line carries it).
    pub at: i64,
    /// Its text.
    pub text: String,
}

/// `POST /api/reports`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    /// Who is reported.
    pub user: i64,
    /// One of [`super::REASONS`].
    pub reason: String,
    /// A game (or table) of theirs.
    #[serde(default)]
    pub game: Option<String>,
    /// A chat line of theirs.
    #[serde(default)]
    pub chat: Option<ChatRef>,
    /// A few words.
    #[serde(default)]
    pub text: Option<String>,
}

fn bad(m: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::BadRequest, m)
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(e.to_string())
}

fn body<T: serde::de::DeserializeOwned>(b: &Bytes) -> ApiResult<T> {
    serde_json::from_slice(b).map_err(|e| ApiError::new(ErrorCode::BadJson, e.to_string()))
}

async fn need_person(app: &App, headers: &HeaderMap) -> ApiResult<fiveup_protocol::UserRef> {
    crate::accounts::user_of(&app.db, headers)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotLoggedIn, "log in or play as a guest first"))
}

/// Free text: trimmed, invisible characters removed, at most [`MAX_TEXT`] characters.
fn check_text(s: &str) -> ApiResult<String> {
    super::clean_text(s, MAX_TEXT).ok_or_else(|| {
        bad(format!(
            "the text has at most {MAX_TEXT} characters and no control characters"
        ))
    })
}

async fn report(State(app): State<Arc<App>>, headers: HeaderMap, b: Bytes) -> ApiResult<Response> {
    let me = need_person(&app, &headers).await?;
    if !me.registered {
        return Err(ApiError::new(
            ErrorCode::NotLoggedIn,
            "register or log in to report a player (guests cannot report)",
        ));
    }
    let req: ReportRequest = body(&b)?;
    if !super::REASONS.iter().any(|(k, _)| *k == req.reason) {
        return Err(bad(format!(
            "the reason is one of {}",
            super::REASONS.map(|(k, _)| k).join(", ")
        )));
    }
    if req.user == me.id {
        return Err(bad("you cannot report yourself"));
    }
    let target = sqlx::query("SELECT name FROM users WHERE id = $1")
        .bind(req.user)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(|e| internal(db::db_err(e)))?
        .ok_or_else(|| ApiError::new(ErrorCode::NoSuchUser, format!("no user {}", req.user)))?;
    let target_name = db::text(&target, "name").map_err(internal)?;
    let text = check_text(req.text.as_deref().unwrap_or(""))?;
    if let Some(g) = &req.game {
        if g.len() > 64 {
            return Err(ApiError::new(ErrorCode::NoSuchGame, "no such game"));
        }
        let played =
            sqlx::query("SELECT game_id FROM game_players WHERE game_id = $1 AND user_id = $2")
                .bind(g.as_str())
                .bind(req.user)
                .fetch_optional(&app.db.pool)
                .await
                .map_err(|e| internal(db::db_err(e)))?;
        let sits = sqlx::query("SELECT config FROM game_tables WHERE id = $1")
            .bind(g.as_str())
            .fetch_optional(&app.db.pool)
            .await
            .map_err(|e| internal(db::db_err(e)))?
            .and_then(|r| db::text(&r, "config").ok())
            .is_some_and(|c| c.contains(&format!("\"id\":{}", req.user)));
        if played.is_none() && !sits {
            return Err(ApiError::new(
                ErrorCode::NoSuchGame,
                format!("{target_name} did not play game {g}"),
            ));
        }
    }
    let chat = match &req.chat {
        None => None,
        Some(c) => {
            if c.table.len() > 64 {
                return Err(ApiError::new(ErrorCode::NoSuchTable, "no such table"));
            }
            let rows = sqlx::query("SELECT line FROM table_chat WHERE table_id = $1")
                .bind(c.table.as_str())
                .fetch_all(&app.db.pool)
                .await
                .map_err(|e| internal(db::db_err(e)))?;
            let found = rows.iter().any(|r| {
                db::text(r, "line")
                    .ok()
                    .and_then(|t| serde_json::from_str::<fiveup_protocol::ChatLine>(&t).ok())
                    .is_some_and(|l| l.from.id == req.user && l.at == c.at && l.text == c.text)
            });
            if !found {
                return Err(bad(format!(
                    "no such chat line of {target_name} at table {} (only the last lines of a \
                     table are kept)",
                    c.table
                )));
            }
            Some(serde_json::to_string(c).expect("chat serialises"))
        }
    };
    let now = crate::now();
    let mut tx = db::lock_user(&app.db.pool, me.id)
        .await
        .map_err(|e| internal(db::db_err(e)))?;
    let n = sqlx::query(
        "SELECT COUNT(*) AS n FROM reports WHERE reporter_id = $1 AND kind = 'report' \
         AND created_at > $2",
    )
    .bind(me.id)
    .bind(now - 86_400)
    .fetch_one(&mut *tx)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    if db::int(&n, "n").map_err(internal)? >= REPORTS_PER_DAY {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            format!(
                "you have made {REPORTS_PER_DAY} reports today, the most allowed: try tomorrow"
            ),
        ));
    }
    let open = sqlx::query(
        "SELECT id FROM reports WHERE kind = 'report' AND reporter_id = $1 AND target_id = $2 \
         AND closed_at IS NULL",
    )
    .bind(me.id)
    .bind(req.user)
    .fetch_optional(&mut *tx)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    if open.is_some() {
        return Err(ApiError::new(
            ErrorCode::AlreadyReported,
            format!(
                "you have an open report about {target_name} already: a moderator will look at \
                 it"
            ),
        ));
    }
    let row = sqlx::query(
        "INSERT INTO reports (kind, reporter_id, target_id, reason, game_id, chat, body, \
         created_at) VALUES ('report', $1, $2, $3, $4, $5, $6, $7) RETURNING id",
    )
    .bind(me.id)
    .bind(req.user)
    .bind(req.reason.as_str())
    .bind(req.game.as_deref())
    .bind(chat)
    .bind(text)
    .bind(now)
    .fetch_one(&mut *tx)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    tx.commit().await.map_err(|e| internal(db::db_err(e)))?;
    let id = db::int(&row, "id").map_err(internal)?;
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({ "report": id, "user": req.user, "name": target_name })),
    )
        .into_response())
}

/// One action taken on the person's account, as they see it.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The action's id (in the moderation log).
    pub id: i64,
    /// `warn`, `mute`, `mark-assisted`, `mark-farm`, `ban` or `rename`.
    pub action: String,
    /// What it means, in words.
    pub words: String,
    /// The moderator's reason.
    pub reason: String,
    /// When (seconds since the epoch).
    pub at: i64,
    /// Whether it was undone (and when).
    pub undone_at: Option<i64>,
    /// Whether the person has seen it.
    pub seen: bool,
    /// Their appeal, if they wrote one.
    pub appeal: Option<String>,
    /// Whether the appeal was answered (closed).
    pub appeal_closed: bool,
}

/// `GET /api/me/moderation`.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq, Eq)]
pub struct MyModeration {
    /// Whether the person is a moderator.
    pub moderator: bool,
    /// Whether they must choose a new name (after a forced change).
    pub must_rename: bool,
    /// What was done to their account, newest first.
    pub notices: Vec<Notice>,
}

async fn mine(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<MyModeration>> {
    let me = need_person(&app, &headers).await?;
    let u = sqlx::query("SELECT moderator, must_rename FROM users WHERE id = $1")
        .bind(me.id)
        .fetch_one(&app.db.pool)
        .await
        .map_err(|e| internal(db::db_err(e)))?;
    let rows = sqlx::query(
        "SELECT a.id AS id, a.action AS action, a.reason AS reason, a.created_at AS at, \
         a.undone_at AS undone_at, a.seen_at AS seen_at, r.body AS appeal, \
         r.closed_at AS appeal_closed FROM mod_actions a \
         LEFT JOIN reports r ON r.kind = 'appeal' AND r.action_id = a.id \
         WHERE a.target_id = $1 AND a.action <> 'undo' AND a.action <> 'dismiss' \
         ORDER BY a.id DESC LIMIT 50",
    )
    .bind(me.id)
    .fetch_all(&app.db.pool)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    let mut notices = Vec::new();
    for r in &rows {
        let action = db::text(r, "action").map_err(internal)?;
        let words = Kind::parse(&action).map_or("", Kind::words).to_string();
        notices.push(Notice {
            id: db::int(r, "id").map_err(internal)?,
            words,
            action,
            reason: db::text(r, "reason").map_err(internal)?,
            at: db::int(r, "at").map_err(internal)?,
            undone_at: r.try_get("undone_at").map_err(internal)?,
            seen: r
                .try_get::<Option<i64>, _>("seen_at")
                .map_err(internal)?
                .is_some(),
            appeal: r.try_get("appeal").map_err(internal)?,
            appeal_closed: r
                .try_get::<Option<i64>, _>("appeal_closed")
                .map_err(internal)?
                .is_some(),
        });
    }
    Ok(Json(MyModeration {
        moderator: db::int(&u, "moderator").map_err(internal)? != 0,
        must_rename: db::int(&u, "must_rename").map_err(internal)? != 0,
        notices,
    }))
}

fn action_id(s: &str) -> ApiResult<i64> {
    s.parse()
        .map_err(|_| bad(format!("no action {s:?} on your account")))
}

async fn seen(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let me = need_person(&app, &headers).await?;
    let id = action_id(&id)?;
    let r = sqlx::query(
        "UPDATE mod_actions SET seen_at = $1 WHERE id = $2 AND target_id = $3 AND seen_at IS NULL",
    )
    .bind(crate::now())
    .bind(id)
    .bind(me.id)
    .execute(&app.db.pool)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    let _ = r;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `POST /api/me/moderation/{action}/appeal`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppealRequest {
    /// What the person says.
    pub text: String,
}

async fn appeal(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    b: Bytes,
) -> ApiResult<Response> {
    let me = need_person(&app, &headers).await?;
    let id = action_id(&id)?;
    let req: AppealRequest = body(&b)?;
    let text = check_text(&req.text)?;
    if text.is_empty() {
        return Err(bad("write what you want the moderators to know"));
    }
    let a = sqlx::query(
        "SELECT action, undone_at FROM mod_actions WHERE id = $1 AND target_id = $2 \
         AND action <> 'undo' AND action <> 'dismiss'",
    )
    .bind(id)
    .bind(me.id)
    .fetch_optional(&app.db.pool)
    .await
    .map_err(|e| internal(db::db_err(e)))?
    .ok_or_else(|| bad(format!("no action {id} on your account")))?;
    if a.try_get::<Option<i64>, _>("undone_at")
        .map_err(internal)?
        .is_some()
    {
        return Err(bad(
            "this action was undone already: there is nothing to appeal",
        ));
    }
    let action = db::text(&a, "action").map_err(internal)?;
    insert_appeal(&app, me.id, id, &action, text).await
}
