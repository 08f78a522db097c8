//! The HTTP routes of correspondence play: the push key, push subscriptions, and "My games".

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use fiveup_protocol::{CreateTableRequest, ErrorCode, UserRef};
use serde::{Deserialize, Serialize};

use super::{clock, push, CorrSettings};
use crate::store::db;
use crate::{accounts, ApiError, App};

type ApiResult<T> = Result<T, ApiError>;

/// The routes, merged into the server's router.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/push/key", get(key))
        .route(
            "/api/push/subscriptions",
            post(subscribe).delete(unsubscribe),
        )
        .route("/api/correspondence/games", get(games))
        .route("/api/correspondence/tables/{id}/clock", get(table_clock))
        .route("/games", get(crate::web::assets::index))
        .route("/api/correspondence/leaderboard", get(leaderboard))
        .merge(super::mute::routes())
}

pub(crate) async fn need_user(app: &App, headers: &HeaderMap) -> ApiResult<UserRef> {
    accounts::user_of(&app.db, headers)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotLoggedIn, "log in or play as a guest first"))
}

pub(crate) fn body<T: serde::de::DeserializeOwned>(b: &Bytes) -> ApiResult<T> {
    serde_json::from_slice(b).map_err(|e| ApiError::new(ErrorCode::BadJson, e.to_string()))
}

/// The correspondence settings of a table being created (none for a live table), checked,
/// within the creator's allowance of open correspondence games.
pub async fn settings_for(
    app: &App,
    user: &UserRef,
    req: &CreateTableRequest,
) -> ApiResult<Option<CorrSettings>> {
    let Some(spec) = &req.correspondence else {
        return Ok(None);
    };
    let cs = super::settings_from_spec(spec).map_err(|e| ApiError::new(ErrorCode::BadRules, e))?;
    let (open, allowed) = super::open_games_allowed(app, user.id)
        .await
        .map_err(ApiError::internal)?;
    if open >= allowed {
        return Err(too_many_games(open));
    }
    Ok(Some(cs))
}

fn too_many_games(open: i64) -> ApiError {
    ApiError::new(
        ErrorCode::QuotaExceeded,
        format!(
            "you have {open} correspondence games open, the most allowed now (each game \
             finished allows one more)"
        ),
    )
}

/// Take the creator's place at a correspondence table about to be made: their player row is
/// stored before the table, in the transaction that counts their open games with their row
/// locked, so that creates at once cannot all pass the count ([`settings_for`] only refuses
/// early). The table keeps the row in step once made; [`release_game`] if it is not.
pub async fn hold_game(app: &App, user: i64, table: &str, seat: u8) -> ApiResult<()> {
    let ie = |e| ApiError::internal(db::db_err(e));
    let mut tx = db::lock_user(&app.db.pool, user).await.map_err(ie)?;
    let r = sqlx::query(
        "SELECT CAST(COALESCE(SUM(CASE WHEN finished = 0 THEN 1 ELSE 0 END), 0) AS BIGINT) \
         AS open, CAST(COALESCE(SUM(finished), 0) AS BIGINT) AS done FROM corr_players \
         WHERE user_id = $1",
    )
    .bind(user)
    .fetch_one(&mut *tx)
    .await
    .map_err(ie)?;
    let open = db::int(&r, "open").map_err(ApiError::internal)?;
    let done = db::int(&r, "done").map_err(ApiError::internal)?;
    if open >= app.cfg.correspondence.open_games + done {
        return Err(too_many_games(open));
    }
    sqlx::query(
        "INSERT INTO corr_players (table_id, seat, user_id, finished) VALUES ($1, $2, $3, 0)",
    )
    .bind(table)
    .bind(i64::from(seat))
    .bind(user)
    .execute(&mut *tx)
    .await
    .map_err(ie)?;
    tx.commit().await.map_err(ie)
}

/// Give back a place taken by [`hold_game`] for a table that was not made.
pub async fn release_game(app: &App, table: &str) {
    let _ = sqlx::query("DELETE FROM corr_players WHERE table_id = $1")
        .bind(table)
        .execute(&app.db.pool)
        .await;
}

/// The server's VAPID public key.
#[derive(Serialize, Deserialize, Debug)]
pub struct PushKey {
    /// Uncompressed P-256 point, base64url: `applicationServerKey`.
    pub public_key: String,
}

async fn key(State(app): State<Arc<App>>) -> Json<PushKey> {
    Json(PushKey {
        public_key: app.corr.vapid.public.clone(),
    })
}

/// A subscription and the kinds of message it takes.
#[derive(Serialize, Deserialize, Debug)]
pub struct SubscribeRequest {
    /// `PushSubscription.toJSON()`.
    pub subscription: push::Subscription,
    /// Some of [`push::KINDS`].
    pub kinds: Vec<String>,
}

/// Store (or renew) a subscription for the person logged in. The page sends it on every
/// visit: one not renewed for 30 days is deleted. A person has at most
/// [`push::MAX_SUBSCRIPTIONS`]; an endpoint another person registered stays theirs (refused,
/// nothing changed). Both are checked in the insert's transaction.
async fn subscribe(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    b: Bytes,
) -> ApiResult<Response> {
    let user = need_user(&app, &headers).await?;
    let req: SubscribeRequest = body(&b)?;
    push::check(&req.subscription, app.cfg.correspondence.push_loopback)
        .map_err(|e| ApiError::new(ErrorCode::BadRequest, e))?;
    if let Some(k) = req
        .kinds
        .iter()
        .find(|k| !push::KINDS.contains(&k.as_str()))
    {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!("unknown kind {k:?}: kinds are {}", push::KINDS.join(", ")),
        ));
    }
    let mut kinds: Vec<&str> = push::KINDS
        .iter()
        .copied()
        .filter(|k| req.kinds.iter().any(|r| r == k))
        .collect();
    kinds.dedup();
    let now = app.cfg.clock.now();
    let s = &req.subscription;
    let internal = |e: sqlx::Error| ApiError::internal(db::db_err(e));
    let mut tx = app.db.pool.begin().await.map_err(internal)?;
    // One person's subscribes one at a time (on SQLite the insert's write lock does it).
    if app.db.backend == db::Backend::Postgres {
        sqlx::query("SELECT id FROM users WHERE id = $1 FOR UPDATE")
            .bind(user.id)
            .execute(&mut *tx)
            .await
            .map_err(internal)?;
    }
    let stored = sqlx::query(
        "INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, kinds, renewed_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (endpoint) DO UPDATE SET \
         p256dh = $3, auth = $4, kinds = $5, renewed_at = $6 \
         WHERE push_subscriptions.user_id = $1",
    )
    .bind(user.id)
    .bind(s.endpoint.as_str())
    .bind(s.keys.p256dh.as_str())
    .bind(s.keys.auth.as_str())
    .bind(kinds.join(","))
    .bind(now)
    .execute(&mut *tx)
    .await
    .map_err(internal)?;
    if stored.rows_affected() != 1 {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "this push endpoint is registered by another person: it stays theirs until they \
             turn notifications off on it",
        ));
    }
    let n = sqlx::query("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = $1")
        .bind(user.id)
        .fetch_one(&mut *tx)
        .await
        .map_err(internal)?;
    if db::int(&n, "n").map_err(ApiError::internal)? > push::MAX_SUBSCRIPTIONS {
        return Err(ApiError::new(
            ErrorCode::QuotaExceeded,
            format!(
                "notifications are on for {} devices of yours, the most allowed: turn them \
                 off on one first",
                push::MAX_SUBSCRIPTIONS
            ),
        ));
    }
    tx.commit().await.map_err(internal)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Which subscription to delete.
#[derive(Serialize, Deserialize, Debug)]
pub struct UnsubscribeRequest {
    /// Its endpoint.
    pub endpoint: String,
}

async fn unsubscribe(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    b: Bytes,
) -> ApiResult<Response> {
    let user = need_user(&app, &headers).await?;
    let req: UnsubscribeRequest = body(&b)?;
    sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1 AND user_id = $2")
        .bind(req.endpoint.as_str())
        .bind(user.id)
        .execute(&app.db.pool)
        .await
        .map_err(|e| ApiError::internal(db::db_err(e)))?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// One of a person's correspondence games.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct MyGame {
    /// The table.
    pub table: String,
    /// Whether it is this person's move.
    pub your_turn: bool,
    /// When the move being waited for is due (seconds since the epoch), if one is.
    pub due_at: Option<i64>,
    /// Seconds left on that move's clock.
    pub seconds_left: Option<i64>,
    /// Whether the game is over.
    pub finished: bool,
    /// The game's clock (its time per move), for the "My games" page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correspondence: Option<fiveup_protocol::CorrespondenceSpec>,
}

/// A person's correspondence games, their own moves first (soonest due first).
#[derive(Serialize, Deserialize, Debug)]
pub struct MyGames {
    /// The games.
    pub games: Vec<MyGame>,
    /// How many wait for this person's move (the header's badge).
    pub your_turn: usize,
    /// Correspondence moves this person let time out.
    pub timeouts: i64,
}

async fn games(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<MyGames>> {
    let user = need_user(&app, &headers).await?;
    let now = app.cfg.clock.now();
    let internal = |e: sqlx::Error| ApiError::internal(db::db_err(e));
    let rows = sqlx::query(
        "SELECT p.table_id AS table_id, p.finished AS finished, t.user_id AS mover, \
         t.due_at AS due_at, g.config AS config FROM corr_players p LEFT JOIN corr_timers t \
         ON t.table_id = p.table_id AND t.kind = 'deadline' AND t.fired_at IS NULL \
         LEFT JOIN game_tables g ON g.id = p.table_id WHERE p.user_id = $1",
    )
    .bind(user.id)
    .fetch_all(&app.db.pool)
    .await
    .map_err(internal)?;
    let mut games: Vec<MyGame> = Vec::new();
    for r in &rows {
        let table = db::text(r, "table_id").map_err(ApiError::internal)?;
        let mover = db::int(r, "mover").ok();
        let due_at = db::int(r, "due_at").ok();
        games.push(MyGame {
            your_turn: mover == Some(user.id),
            seconds_left: due_at.map(|d| (d - now).max(0)),
            due_at,
            finished: db::int(r, "finished").map_err(ApiError::internal)? != 0,
            correspondence: db::text(r, "config")
                .ok()
                .and_then(|c| super::spec_from_config(&c)),
            table,
        });
    }
    games.sort_by_key(|g| (!g.your_turn, g.finished, g.due_at.unwrap_or(i64::MAX)));
    games.dedup_by(|a, b| a.table == b.table);
    let timeouts = sqlx::query("SELECT COUNT(*) AS n FROM corr_timeouts WHERE user_id = $1")
        .bind(user.id)
        .fetch_one(&app.db.pool)
        .await
        .map_err(internal)?;
    Ok(Json(MyGames {
        your_turn: games.iter().filter(|g| g.your_turn).count(),
        timeouts: db::int(&timeouts, "n").map_err(ApiError::internal)?,
        games,
    }))
}

/// The clock of the move a correspondence table waits for (the table page shows the time left
/// and the deadline). Every field is `null` when no move waits: a live table, a table not
/// started or finished, or a move whose deadline is not written yet (a moment after the change
/// that began it: `version` older than the table's says the same).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct TableClock {
    /// The table's version that began the move.
    pub version: Option<i64>,
    /// The seat to move.
    pub seat: Option<i64>,
    /// When the move is due (seconds since the epoch; a vacation day taken moves it).
    pub due_at: Option<i64>,
    /// Seconds left on the move's clock, by the server's clock.
    pub seconds_left: Option<i64>,
}

async fn table_clock(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> ApiResult<Json<TableClock>> {
    let now = app.cfg.clock.now();
    let r = sqlx::query(
        "SELECT version, seat, due_at FROM corr_timers WHERE table_id = $1 \
         AND kind = 'deadline' AND fired_at IS NULL ORDER BY version DESC LIMIT 1",
    )
    .bind(id.as_str())
    .fetch_optional(&app.db.pool)
    .await
    .map_err(|e| ApiError::internal(db::db_err(e)))?;
    let Some(r) = r else {
        return Ok(Json(TableClock {
            version: None,
            seat: None,
            due_at: None,
            seconds_left: None,
        }));
    };
    let due = db::int(&r, "due_at").map_err(ApiError::internal)?;
    Ok(Json(TableClock {
        version: Some(db::int(&r, "version").map_err(ApiError::internal)?),
        seat: Some(db::int(&r, "seat").map_err(ApiError::internal)?),
        due_at: Some(due),
        seconds_left: Some((due - now).max(0)),
    }))
}

/// A registered person's correspondence rating.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct CorrRating {
    /// The person.
    pub user: i64,
    /// Their name.
    pub name: String,
    /// Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

/// The correspondence leaderboard: registered people with a correspondence rating (one rated
/// correspondence game or more), best first, at most 100.
async fn leaderboard(State(app): State<Arc<App>>) -> ApiResult<Json<Vec<CorrRating>>> {
    let rows = sqlx::query(
        "SELECT id, name, corr_rating, corr_deviation FROM users \
         WHERE registered = 1 AND bot_owner IS NULL AND corr_deviation < 350 \
         AND mod_assisted = 0 AND mod_banned = 0 \
         ORDER BY corr_rating DESC, id LIMIT 100",
    )
    .fetch_all(&app.db.pool)
    .await
    .map_err(|e| ApiError::internal(db::db_err(e)))?;
    let mut out = Vec::new();
    for r in &rows {
        out.push(CorrRating {
            user: db::int(r, "id").map_err(ApiError::internal)?,
            name: db::text(r, "name").map_err(ApiError::internal)?,
            rating: db::float(r, "corr_rating").map_err(ApiError::internal)?,
            deviation: db::float(r, "corr_deviation").map_err(ApiError::internal)?,
        });
    }
    Ok(Json(out))
}

/// The hours per move offered, for clients.
#[must_use]
pub fn per_move_hours() -> Vec<i64> {
    clock::PER_MOVE.iter().map(|s| s / clock::HOUR).collect()
}
