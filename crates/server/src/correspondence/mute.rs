//! Muting another player: their chat lines are hidden from the person who muted them, at
//! every table (live and correspondence); nothing else changes (their moves count, games with
//! them go on). Stored per account in `mutes`; the table task reads a person's list when they
//! open a table and leaves the lines of the muted out of what it sends them.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use fiveup_protocol::ErrorCode;
use serde::{Deserialize, Serialize};

use super::api::{body, need_user};
use crate::store::db;
use crate::{ApiError, App};

type ApiResult<T> = Result<T, ApiError>;

/// The most people one person may mute.
pub const MAX_MUTED: i64 = 500;

/// The routes, merged into the server's router.
pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/mutes", get(list).post(mute).delete(unmute))
}

/// `POST /api/mutes`, `DELETE /api/mutes`: the person to mute or unmute.
#[derive(Serialize, Deserialize, Debug)]
pub struct MuteRequest {
    /// Their user id.
    pub user: i64,
}

/// One muted person.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Muted {
    /// Their user id.
    pub user: i64,
    /// Their name.
    pub name: String,
}

/// The mute concern at the table runtime: a muted person's chat lines are not sent to the
/// person who muted them.
#[derive(Debug)]
pub struct Mutes;

impl crate::table::hooks::Concern for Mutes {
    fn name(&self) -> &'static str {
        "mute"
    }

    fn chat_hidden<'a>(
        &'a self,
        app: &'a App,
        user: i64,
    ) -> futures_util::future::BoxFuture<'a, Vec<i64>> {
        Box::pin(muted_by(app, user))
    }
}

/// The ids of the people `user` muted (none if they cannot be read: chat is then shown).
pub async fn muted_by(app: &App, user: i64) -> Vec<i64> {
    match sqlx::query("SELECT muted_id FROM mutes WHERE user_id = $1")
        .bind(user)
        .fetch_all(&app.db.pool)
        .await
    {
        Ok(rows) => rows
            .iter()
            .filter_map(|r| db::int(r, "muted_id").ok())
            .collect(),
        Err(e) => {
            crate::log(&format!("cannot read the mutes of {user}: {e}"));
            Vec::new()
        }
    }
}

async fn list(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<Vec<Muted>>> {
    let me = need_user(&app, &headers).await?;
    let rows = sqlx::query(
        "SELECT u.id AS id, u.name AS name FROM mutes m JOIN users u ON u.id = m.muted_id \
         WHERE m.user_id = $1 ORDER BY m.created_at, u.id",
    )
    .bind(me.id)
    .fetch_all(&app.db.pool)
    .await
    .map_err(|e| ApiError::internal(db::db_err(e)))?;
    let mut out = Vec::new();
    for r in &rows {
        out.push(Muted {
            user: db::int(r, "id").map_err(ApiError::internal)?,
            name: db::text(r, "name").map_err(ApiError::internal)?,
        });
    }
    Ok(Json(out))
}

async fn mute(State(app): State<Arc<App>>, headers: HeaderMap, b: Bytes) -> ApiResult<Response> {
    let me = need_user(&app, &headers).await?;
    let req: MuteRequest = body(&b)?;
    if req.user == me.id {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "you cannot mute yourself",
        ));
    }
    let known = sqlx::query("SELECT id FROM users WHERE id = $1")
        .bind(req.user)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(|e| ApiError::internal(db::db_err(e)))?;
    if known.is_none() {
        return Err(ApiError::new(
            ErrorCode::NoSuchUser,
            format!("no user {}", req.user),
        ));
    }
    // Counted and inserted with the person's row locked, so that requests at once cannot
    // all pass the count.
    let mut tx = db::lock_user(&app.db.pool, me.id)
        .await
        .map_err(|e| ApiError::internal(db::db_err(e)))?;
    let n = sqlx::query("SELECT COUNT(*) AS n FROM mutes WHERE user_id = $1")
        .bind(me.id)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| ApiError::internal(db::db_err(e)))?;
    if db::int(&n, "n").map_err(ApiError::internal)? >= MAX_MUTED {
        return Err(ApiError::new(
            ErrorCode::QuotaExceeded,
            format!("you have muted {MAX_MUTED} people, the most allowed: unmute someone first"),
        ));
    }
    sqlx::query(
        "INSERT INTO mutes (user_id, muted_id, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (user_id, muted_id) DO NOTHING",
    )
    .bind(me.id)
    .bind(req.user)
    .bind(crate::now())
    .execute(&mut *tx)
    .await
    .map_err(|e| ApiError::internal(db::db_err(e)))?;
    tx.commit()
        .await
        .map_err(|e| ApiError::internal(db::db_err(e)))?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn unmute(State(app): State<Arc<App>>, headers: HeaderMap, b: Bytes) -> ApiResult<Response> {
    let me = need_user(&app, &headers).await?;
    let req: MuteRequest = body(&b)?;
    let r = sqlx::query("DELETE FROM mutes WHERE user_id = $1 AND muted_id = $2")
        .bind(me.id)
        .bind(req.user)
        .execute(&app.db.pool)
        .await
        .map_err(|e| ApiError::internal(db::db_err(e)))?;
    if r.rows_affected() == 0 {
        return Err(ApiError::new(
            ErrorCode::NoSuchUser,
            format!("you have not muted user {}", req.user),
        ));
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}
