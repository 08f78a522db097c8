//! The moderators' routes. Every one refuses a bot token (401), a request without a session
//! (401) and a person who is not a moderator (403): see [`super::need_moderator`].
//!
//! * `GET /api/moderation/queue`: the open reports, automatic flags and appeals, strongest and
//!   newest first.
//! * `GET /api/moderation/users/{id}`: the evidence about one account: its marks, its
//!   fair-play figures against its band, its analysed and recent games, the reports about it
//!   (with the chat lines reported), the accounts seen from the same addresses, and what was
//!   done to it.
//! * `POST /api/moderation/act` `{user, action, reason, report?}`, `POST
//!   /api/moderation/undo` `{action, reason}`, `POST /api/moderation/dismiss` `{report,
//!   reason}`.
//! * `GET /api/moderation/log?before=ID`: the moderation log, newest first, 100 at a time.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use fiveup_protocol::ErrorCode;
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row as _;

use super::actions::{self, Kind};
use super::need_moderator;
use crate::store::db;
use crate::{ApiError, App};

type ApiResult<T> = Result<T, ApiError>;

/// The routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/moderation", get(crate::web::assets::index))
        .route("/moderation/{*rest}", get(crate::web::assets::index))
        .route("/api/moderation/queue", get(queue))
        .route("/api/moderation/users/{id}", get(evidence))
        .route("/api/moderation/act", post(act))
        .route("/api/moderation/undo", post(undo))
        .route("/api/moderation/dismiss", post(dismiss))
        .route("/api/moderation/log", get(log))
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(e.to_string())
}

fn body<T: serde::de::DeserializeOwned>(b: &Bytes) -> ApiResult<T> {
    serde_json::from_slice(b).map_err(|e| ApiError::new(ErrorCode::BadJson, e.to_string()))
}

fn limit(app: &App, user: i64) -> ApiResult<()> {
    if app.user_limiter.allow(user) {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many requests; wait a moment",
        ))
    }
}

fn opt_int(r: &sqlx::any::AnyRow, c: &str) -> ApiResult<Option<i64>> {
    r.try_get::<Option<i64>, _>(c).map_err(internal)
}

fn opt_text(r: &sqlx::any::AnyRow, c: &str) -> ApiResult<Option<String>> {
    r.try_get::<Option<String>, _>(c).map_err(internal)
}

fn person(id: i64, name: Option<String>) -> Value {
    if id == super::SYSTEM {
        json!({ "id": 0, "name": "the server" })
    } else {
        json!({ "id": id, "name": name.unwrap_or_else(|| format!("user {id}")) })
    }
}

fn report_json(r: &sqlx::any::AnyRow) -> ApiResult<Value> {
    let chat = opt_text(r, "chat")?.and_then(|c| serde_json::from_str::<Value>(&c).ok());
    Ok(json!({
        "id": db::int(r, "id").map_err(internal)?,
        "kind": db::text(r, "kind").map_err(internal)?,
        "reason": db::text(r, "reason").map_err(internal)?,
        "reporter": person(db::int(r, "reporter_id").map_err(internal)?, opt_text(r, "reporter_name")?),
        "target": person(db::int(r, "target_id").map_err(internal)?, opt_text(r, "target_name")?),
        "game": opt_text(r, "game_id")?,
        "chat": chat,
        "text": db::text(r, "body").map_err(internal)?,
        "action": opt_int(r, "action_id")?,
        "strength": db::float(r, "strength").map_err(internal)?,
        "at": db::int(r, "created_at").map_err(internal)?,
        "closed_at": opt_int(r, "closed_at")?,
    }))
}

const REPORT_COLUMNS: &str = "r.id AS id, r.kind AS kind, r.reason AS reason, \
     r.reporter_id AS reporter_id, a.name AS reporter_name, r.target_id AS target_id, \
     t.name AS target_name, r.game_id AS game_id, r.chat AS chat, r.body AS body, \
     r.action_id AS action_id, r.strength AS strength, r.created_at AS created_at, \
     r.closed_at AS closed_at FROM reports r LEFT JOIN users a ON a.id = r.reporter_id \
     JOIN users t ON t.id = r.target_id";

async fn queue(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<Value>> {
    need_moderator(&app, &headers).await?;
    let rows = sqlx::query(&format!(
        "SELECT {REPORT_COLUMNS} WHERE r.closed_at IS NULL \
         ORDER BY r.strength DESC, r.created_at DESC, r.id DESC LIMIT 200"
    ))
    .fetch_all(&app.db.pool)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    let mut items = Vec::new();
    for r in &rows {
        let mut item = report_json(r)?;
        let target = db::int(r, "target_id").map_err(internal)?;
        item["marks"] = json!(super::marks_of(&app, target).await.map_err(internal)?);
        if let Some(a) = opt_int(r, "action_id")? {
            let row = sqlx::query("SELECT action, reason FROM mod_actions WHERE id = $1")
                .bind(a)
                .fetch_optional(&app.db.pool)
                .await
                .map_err(|e| internal(db::db_err(e)))?;
            if let Some(row) = row {
                item["appealed"] = json!({
                    "id": a,
                    "action": db::text(&row, "action").map_err(internal)?,
                    "reason": db::text(&row, "reason").map_err(internal)?,
                });
            }
        }
        items.push(item);
    }
    Ok(Json(json!({ "items": items })))
}

async fn evidence(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    need_moderator(&app, &headers).await?;
    let id: i64 = id
        .parse()
        .map_err(|_| ApiError::new(ErrorCode::NoSuchUser, format!("no user {id:?}")))?;
    let u = sqlx::query(
        "SELECT name, registered, created_at, moderator, mod_muted, must_rename, rating, \
         deviation, corr_rating, corr_deviation FROM users WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&app.db.pool)
    .await
    .map_err(|e| internal(db::db_err(e)))?
    .ok_or_else(|| ApiError::new(ErrorCode::NoSuchUser, format!("no user {id}")))?;
    let f = |c: &str| db::float(&u, c).map_err(internal);
    let i = |c: &str| db::int(&u, c).map_err(internal);
    let mut marks = super::marks_of(&app, id).await.map_err(internal)?;
    if i("mod_muted")? != 0 {
        marks.push("muted".into());
    }
    if i("must_rename")? != 0 {
        marks.push("must choose a new name".into());
    }
    // One read of the analysed games for both the figure and the list, so that a game the
    // worker stores meanwhile cannot show in one and not the other.
    let analysed = super::fairplay::analysed_of(&app, id)
        .await
        .map_err(internal)?;
    let fairplay = super::fairplay::judged(&analysed, app.cfg.fairplay_judging).map(|s| {
        json!({
            "games": s.games,
            "decisions": s.decisions,
            "agreement": s.agreement,
            "loss_per_decision": s.loss_per_decision,
            "band": s.band,
            "band_agreement": s.band_agreement,
            "z": s.z,
            "flagged": s.flagged,
        })
    });
    let analysed_out: Vec<Value> = analysed
        .iter()
        .map(|a| {
            json!({
                "game": a.game,
                "at": a.at,
                "decisions": a.figures.decisions,
                "agreed": a.figures.agreed,
                "loss": a.figures.loss,
                "rating": a.rating,
                "deviation": a.deviation,
            })
        })
        .collect();
    let games = sqlx::query(
        "SELECT g.id AS id, g.finished_at AS at, g.names AS names, \
         (SELECT COUNT(*) FROM rating_changes c WHERE c.game_id = g.id AND c.user_id = $1) \
         AS rated FROM game_players p JOIN games g ON g.id = p.game_id WHERE p.user_id = $1 \
         ORDER BY g.finished_at DESC LIMIT 30",
    )
    .bind(id)
    .fetch_all(&app.db.pool)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    let mut games_out = Vec::new();
    for r in &games {
        games_out.push(json!({
            "game": db::text(r, "id").map_err(internal)?,
            "at": db::int(r, "at").map_err(internal)?,
            "players": serde_json::from_str::<Value>(&db::text(r, "names").map_err(internal)?)
                .unwrap_or(Value::Null),
            "rated": db::int(r, "rated").map_err(internal)? > 0,
        }));
    }
    let reports = sqlx::query(&format!(
        "SELECT {REPORT_COLUMNS} WHERE r.target_id = $1 ORDER BY r.id DESC LIMIT 50"
    ))
    .bind(id)
    .fetch_all(&app.db.pool)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    let reports_out = reports
        .iter()
        .map(report_json)
        .collect::<ApiResult<Vec<_>>>()?;
    let same = sqlx::query(
        "SELECT y.user_id AS id, u.name AS name, COUNT(*) AS shared FROM user_addresses x \
         JOIN user_addresses y ON y.address = x.address AND y.user_id <> x.user_id \
         JOIN users u ON u.id = y.user_id WHERE x.user_id = $1 \
         GROUP BY y.user_id, u.name ORDER BY shared DESC, y.user_id LIMIT 50",
    )
    .bind(id)
    .fetch_all(&app.db.pool)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    let mut same_out = Vec::new();
    for r in &same {
        same_out.push(json!({
            "id": db::int(r, "id").map_err(internal)?,
            "name": db::text(r, "name").map_err(internal)?,
            "addresses": db::int(r, "shared").map_err(internal)?,
        }));
    }
    let actions = log_rows(&app, Some(id), None).await?;
    Ok(Json(json!({
        "user": {
            "id": id,
            "name": db::text(&u, "name").map_err(internal)?,
            "registered": i("registered")? != 0,
            "created_at": i("created_at")?,
            "moderator": i("moderator")? != 0,
        },
        "marks": marks,
        "rating": { "rating": f("rating")?, "deviation": f("deviation")? },
        "corr_rating": { "rating": f("corr_rating")?, "deviation": f("corr_deviation")? },
        "fairplay": fairplay,
        "analysed": analysed_out,
        "games": games_out,
        "reports": reports_out,
        "same_address": same_out,
        "actions": actions,
    })))
}

async fn log_rows(app: &App, target: Option<i64>, before: Option<i64>) -> ApiResult<Vec<Value>> {
    let rows = sqlx::query(
        "SELECT a.id AS id, a.moderator_id AS moderator_id, m.name AS moderator_name, \
         a.target_id AS target_id, t.name AS target_name, a.action AS action, \
         a.reason AS reason, a.report_id AS report_id, a.detail AS detail, \
         a.created_at AS created_at, a.undoes AS undoes, a.undone_at AS undone_at \
         FROM mod_actions a LEFT JOIN users m ON m.id = a.moderator_id \
         LEFT JOIN users t ON t.id = a.target_id \
         WHERE ($1 < 0 OR a.target_id = $1) AND ($2 < 0 OR a.id < $2) \
         ORDER BY a.id DESC LIMIT 100",
    )
    .bind(target.unwrap_or(-1))
    .bind(before.unwrap_or(-1))
    .fetch_all(&app.db.pool)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    let mut out = Vec::new();
    for r in &rows {
        out.push(json!({
            "id": db::int(r, "id").map_err(internal)?,
            "moderator": person(db::int(r, "moderator_id").map_err(internal)?, opt_text(r, "moderator_name")?),
            "target": person(db::int(r, "target_id").map_err(internal)?, opt_text(r, "target_name")?),
            "action": db::text(r, "action").map_err(internal)?,
            "reason": db::text(r, "reason").map_err(internal)?,
            "report": opt_int(r, "report_id")?,
            "detail": serde_json::from_str::<Value>(&db::text(r, "detail").map_err(internal)?)
                .unwrap_or(Value::Null),
            "at": db::int(r, "created_at").map_err(internal)?,
            "undoes": opt_int(r, "undoes")?,
            "undone_at": opt_int(r, "undone_at")?,
        }));
    }
    Ok(out)
}

#[derive(Deserialize)]
struct LogQuery {
    before: Option<i64>,
}

async fn log(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(q): Query<LogQuery>,
) -> ApiResult<Json<Value>> {
    need_moderator(&app, &headers).await?;
    Ok(Json(
        json!({ "entries": log_rows(&app, None, q.before).await? }),
    ))
}

/// `POST /api/moderation/act`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActRequest {
    user: i64,
    action: String,
    reason: String,
    #[serde(default)]
    report: Option<i64>,
}

async fn act(State(app): State<Arc<App>>, headers: HeaderMap, b: Bytes) -> ApiResult<Json<Value>> {
    let me = need_moderator(&app, &headers).await?;
    limit(&app, me.id)?;
    let req: ActRequest = body(&b)?;
    let kind = Kind::parse(&req.action).ok_or_else(|| {
        ApiError::new(
            ErrorCode::BadRequest,
            format!(
                "the action is one of {}",
                Kind::ALL.map(Kind::name).join(", ")
            ),
        )
    })?;
    let (id, detail) = actions::apply(&app, me.id, req.user, kind, &req.reason, req.report).await?;
    Ok(Json(json!({ "id": id, "detail": detail })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoRequest {
    action: i64,
    reason: String,
}

async fn undo(State(app): State<Arc<App>>, headers: HeaderMap, b: Bytes) -> ApiResult<Json<Value>> {
    let me = need_moderator(&app, &headers).await?;
    limit(&app, me.id)?;
    let req: UndoRequest = body(&b)?;
    let id = actions::undo(&app, me.id, req.action, &req.reason).await?;
    Ok(Json(json!({ "id": id })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DismissRequest {
    report: i64,
    reason: String,
}

async fn dismiss(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    b: Bytes,
) -> ApiResult<Json<Value>> {
    let me = need_moderator(&app, &headers).await?;
    limit(&app, me.id)?;
    let req: DismissRequest = body(&b)?;
    let id = actions::dismiss(&app, me.id, req.report, &req.reason).await?;
    Ok(Json(json!({ "id": id })))
}
