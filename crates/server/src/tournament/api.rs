//! The tournament endpoints (`docs/protocol.md`, "Tournaments").

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use fiveup_protocol::{ErrorCode, UserRef};
use fiveup_tournament::duplicate;
use fiveup_tournament::{Entrant, EntrantId};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::director::{self, late_entry_open};
use super::event::{bot_rating, EntrantRow, Fmt, Member, Settings};
use crate::store::db;
use crate::table::fairness;
use crate::{accounts, ApiError, App, BOT_LEVELS, BOT_PLAYERS};

type ApiResult<T> = Result<T, ApiError>;

/// The routes, merged into the server's router.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/tournaments", get(list).post(create))
        .route("/api/tournaments/{id}", get(one))
        .route("/api/tournaments/{id}/join", post(join))
        .route("/api/tournaments/{id}/withdraw", post(withdraw))
        .route("/api/tournaments/{id}/bots", post(bots))
        .route("/api/tournaments/{id}/cancel", post(cancel))
}

fn bad(msg: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::BadRequest, msg)
}

fn internal(e: String) -> ApiError {
    ApiError::internal(e)
}

/// The whole numbers of the tournament requests: each field's name, the range of its type,
/// and its range in words (the settings' own check says more of a number within its type).
const NUMBERS: [(&str, i128, i128, &str); 14] = [
    ("best_of", 0, u32::MAX as i128, "1 to 99"),
    (
        "start_at",
        i64::MIN as i128,
        i64::MAX as i128,
        "seconds since the epoch, from now to a year away",
    ),
    ("start_when", 0, u32::MAX as i128, "2 to 10,000"),
    ("max_entrants", 0, u32::MAX as i128, "2 to 10,000"),
    ("min_rating", i32::MIN as i128, i32::MAX as i128, "a rating"),
    ("max_rating", i32::MIN as i128, i32::MAX as i128, "a rating"),
    (
        "no_show_ms",
        0,
        u64::MAX as i128,
        "1000 (a second) to 3600000 (an hour)",
    ),
    (
        "match_clock_ms",
        0,
        u64::MAX as i128,
        "1000 (a second) to 14400000 (4 hours)",
    ),
    ("turn_ms", 0, u64::MAX as i128, "100 to 600000 (10 minutes)"),
    ("rounds", 0, u32::MAX as i128, "1 to 50"),
    (
        "duration_ms",
        0,
        u64::MAX as i128,
        "1000 (a second) to 86400000 (a day) for an arena, to 604800000 (7 days) for a daylong",
    ),
    ("boards", 0, u32::MAX as i128, "1 to 64"),
    ("min_seats", 0, u8::MAX as i128, "3 to 8"),
    ("count", 0, u32::MAX as i128, "1 to 1,000"),
];

/// Every whole number of a request within its field's type: a number out of it (or not whole)
/// is refused with the field's range, never with the JSON reader's words.
fn check_numbers(v: &serde_json::Value) -> ApiResult<()> {
    let Some(obj) = v.as_object() else {
        return Ok(());
    };
    for (k, x) in obj {
        if x.is_object() {
            check_numbers(x)?;
            continue;
        }
        let Some(n) = x.as_number() else { continue };
        let key = if k == "max_seats" {
            "min_seats"
        } else {
            k.as_str()
        };
        let Some(&(_, lo, hi, words)) = NUMBERS.iter().find(|(name, ..)| *name == key) else {
            continue;
        };
        let whole = n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from));
        if !whole.is_some_and(|w| (lo..=hi).contains(&w)) {
            return Err(bad(format!("{k} {n} is out of range: it is {words}")));
        }
    }
    Ok(())
}

/// The fields of `given` that `read` (the same request as read) does not have: fields that
/// nothing reads (a misspelt setting), named. A field given as `null` may be absent.
fn unknown_fields(given: &serde_json::Value, read: &serde_json::Value, at: &str) -> Vec<String> {
    let (Some(g), Some(r)) = (given.as_object(), read.as_object()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, v) in g {
        match r.get(k) {
            None if !v.is_null() => out.push(format!("{at}{k}")),
            Some(rv) => out.extend(unknown_fields(v, rv, &format!("{at}{k}."))),
            None => {}
        }
    }
    out
}

/// A tournament request's body: not JSON, or a field of the wrong kind, is `bad_json`; a
/// whole number out of its field's range, and a field that nothing reads, are `bad_request`
/// saying which.
fn read_body<T: serde::de::DeserializeOwned + Serialize>(b: &[u8]) -> ApiResult<T> {
    let v: serde_json::Value =
        serde_json::from_slice(b).map_err(|e| ApiError::new(ErrorCode::BadJson, e.to_string()))?;
    check_numbers(&v)?;
    let t: T = serde_json::from_value(v.clone())
        .map_err(|e| ApiError::new(ErrorCode::BadJson, e.to_string()))?;
    let read = serde_json::to_value(&t).map_err(|e| internal(e.to_string()))?;
    let unknown = unknown_fields(&v, &read, "");
    if !unknown.is_empty() {
        return Err(bad(format!(
            "unknown field{} {}: nothing reads {} (misspelt?)",
            if unknown.len() == 1 { "" } else { "s" },
            unknown.join(", "),
            if unknown.len() == 1 { "it" } else { "them" }
        )));
    }
    Ok(t)
}

async fn need_user(app: &App, headers: &HeaderMap) -> ApiResult<UserRef> {
    accounts::user_of(&app.db, headers)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotLoggedIn, "log in or play as a guest first"))
}

fn limit(app: &App, user: &UserRef) -> ApiResult<()> {
    if app.user_limiter.allow(user.id) {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many requests; try again shortly",
        ))
    }
}

/// One event in a list.
#[derive(Serialize)]
struct Listed {
    id: String,
    name: String,
    status: String,
    created_at: i64,
    settings: Settings,
    entrants: i64,
}

#[derive(Deserialize)]
struct ListQuery {
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    offset: Option<i64>,
    #[serde(default)]
    limit: Option<i64>,
}

/// The most events one page of a list shows.
const LIST_PAGE: i64 = 100;

type Peer = Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>;

/// A read of the list or of an event, within the client address's rate.
fn read_limit(app: &App, peer: &Peer, headers: &HeaderMap) -> ApiResult<()> {
    let Some(p) = peer else { return Ok(()) };
    let ip = crate::web::listen::client_ip((p.0).0.ip(), headers, &app.cfg.trusted_proxies);
    if app.tournaments.reads.allow(ip) {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many tournament reads from your address; try again shortly",
        ))
    }
}

/// `GET /api/tournaments?status=upcoming|running|finished&offset=N&limit=N`: each status
/// asked for (all three by default), newest first, at most `events_listed_per_creator` events
/// of one creator (their newest), a page of at most 100 from `offset`; `totals` gives how
/// many each list has in all.
async fn list(
    State(app): State<Arc<App>>,
    peer: Peer,
    headers: HeaderMap,
    Query(q): Query<ListQuery>,
) -> ApiResult<Response> {
    read_limit(&app, &peer, &headers)?;
    let statuses: Vec<&str> = match q.status.as_deref() {
        None | Some("") => vec!["upcoming", "running", "finished"],
        Some(s @ ("upcoming" | "running" | "finished")) => vec![s],
        Some(s) => {
            return Err(bad(format!(
                "status {s:?}: it is upcoming, running or finished"
            )))
        }
    };
    let offset = q.offset.unwrap_or(0).max(0);
    let page = q.limit.unwrap_or(LIST_PAGE).clamp(1, LIST_PAGE);
    let per_creator = app.cfg.events_listed_per_creator.max(1);
    // Each creator's events numbered from their newest.
    let shown = "SELECT id, ROW_NUMBER() OVER (PARTITION BY creator ORDER BY created_at DESC, \
                 id DESC) AS k FROM tournaments WHERE status = $1";
    let mut out = serde_json::Map::new();
    let mut totals = serde_json::Map::new();
    for s in statuses {
        let rows = sqlx::query(&format!(
            "SELECT t.id, t.name, t.status, t.created_at, t.settings, \
             (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id \
              AND e.withdrawn = 0) AS n \
             FROM ({shown}) r JOIN tournaments t ON t.id = r.id WHERE r.k <= $2 \
             ORDER BY t.created_at DESC, t.id DESC LIMIT $3 OFFSET $4"
        ))
        .bind(s)
        .bind(per_creator)
        .bind(page)
        .bind(offset)
        .fetch_all(&app.db.pool)
        .await
        .map_err(|e| internal(db::db_err(e)))?;
        let total = sqlx::query(&format!(
            "SELECT COUNT(*) AS n FROM ({shown}) r WHERE r.k <= $2"
        ))
        .bind(s)
        .bind(per_creator)
        .fetch_one(&app.db.pool)
        .await
        .map_err(|e| internal(db::db_err(e)))?;
        let mut list = Vec::new();
        for r in rows {
            list.push(Listed {
                id: db::text(&r, "id").map_err(internal)?,
                name: db::text(&r, "name").map_err(internal)?,
                status: db::text(&r, "status").map_err(internal)?,
                created_at: db::int(&r, "created_at").map_err(internal)?,
                settings: serde_json::from_str(&db::text(&r, "settings").map_err(internal)?)
                    .map_err(|e| internal(e.to_string()))?,
                entrants: db::int(&r, "n").map_err(internal)?,
            });
        }
        out.insert(
            s.to_string(),
            serde_json::to_value(list).expect("lists serialise"),
        );
        totals.insert(
            s.to_string(),
            json!(db::int(&total, "n").map_err(internal)?),
        );
    }
    out.insert("totals".to_string(), serde_json::Value::Object(totals));
    Ok(Json(serde_json::Value::Object(out)).into_response())
}

/// `POST /api/tournaments`: a registered player creates an event.
async fn create(State(app): State<Arc<App>>, headers: HeaderMap, b: Bytes) -> ApiResult<Response> {
    let user = need_user(&app, &headers).await?;
    if !user.registered {
        return Err(ApiError::new(
            ErrorCode::NotLoggedIn,
            "register to create tournaments",
        ));
    }
    limit(&app, &user)?;
    let settings: Settings = read_body(&b)?;
    settings
        .check(crate::now())
        .map_err(|e| ApiError::new(ErrorCode::BadRules, e))?;
    let id = crate::new_id();
    let now = crate::now();
    // The person's quotas are checked in the transaction that inserts, after locking their
    // row, so that requests at once (on any instance) cannot all pass.
    let mut tx = app
        .db
        .pool
        .begin()
        .await
        .map_err(|e| internal(db::db_err(e)))?;
    sqlx::query("UPDATE users SET id = id WHERE id = $1")
        .bind(user.id)
        .execute(&mut *tx)
        .await
        .map_err(|e| internal(db::db_err(e)))?;
    let counts = sqlx::query(
        "SELECT (SELECT COUNT(*) FROM tournaments WHERE creator = $1 AND status <> 'finished') \
         AS open, (SELECT COUNT(*) FROM tournaments WHERE creator = $1 AND created_at > $2) \
         AS today",
    )
    .bind(user.id)
    .bind(now - 86_400)
    .fetch_one(&mut *tx)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    let open = db::int(&counts, "open").map_err(internal)?;
    let today = db::int(&counts, "today").map_err(internal)?;
    if open >= app.cfg.max_open_events {
        return Err(ApiError::new(
            ErrorCode::QuotaExceeded,
            format!(
                "you have {open} tournaments not yet finished, the most a person may have: \
                 wait for one to end"
            ),
        ));
    }
    if today >= app.cfg.max_events_per_day {
        return Err(ApiError::new(
            ErrorCode::QuotaExceeded,
            format!(
                "you created {today} tournaments in the last 24 hours, the most a person may: \
                 try again later"
            ),
        ));
    }
    sqlx::query(
        "INSERT INTO tournaments (id, created_at, creator, name, settings, status) \
         VALUES ($1, $2, $3, $4, $5, 'upcoming')",
    )
    .bind(id.as_str())
    .bind(now)
    .bind(user.id)
    .bind(settings.name.trim())
    .bind(serde_json::to_string(&settings).expect("settings serialise"))
    .execute(&mut *tx)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    tx.commit().await.map_err(|e| internal(db::db_err(e)))?;
    app.tournaments.wake.notify_waiters();
    Ok((StatusCode::CREATED, Json(json!({ "id": id }))).into_response())
}

fn no_such(id: &str) -> ApiError {
    let shown: String = id.chars().take(64).collect();
    ApiError::new(
        ErrorCode::NoSuchTournament,
        format!("no tournament {shown:?}"),
    )
}

async fn event_of(app: &App, id: &str) -> ApiResult<(super::event::Event, i64)> {
    if id.len() > 64 {
        return Err(no_such(id));
    }
    let creator = sqlx::query("SELECT creator FROM tournaments WHERE id = $1")
        .bind(id)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(|e| internal(db::db_err(e)))?
        .ok_or_else(|| no_such(id))?;
    let creator = db::int(&creator, "creator").map_err(internal)?;
    let event = director::load(app, id)
        .await
        .map_err(internal)?
        .ok_or_else(|| no_such(id))?;
    Ok((event, creator))
}

/// An answer of [`one`] kept for a big event, until the event changes.
#[derive(Debug)]
pub struct Cached {
    /// What the event was when it was built (see [`version`]).
    version: String,
    /// When a daylong closes: the answer's `late_entry` changes then.
    closes_ms: Option<i64>,
    built_ms: i64,
    /// Whether boards were hidden (a duplicate event running): the answer is then the one for
    /// a viewer who has played none.
    hiding: bool,
    at: std::time::Instant,
    body: Bytes,
}

/// Answers smaller than this are built for every read.
const CACHE_FROM_BYTES: usize = 16 * 1024;
/// Big events' answers kept at most.
const CACHED_EVENTS: usize = 32;
/// The longest an answer is kept even if nothing seems to change.
const CACHE_SECS: u64 = 10;

/// What changes an event's answer: its status, its operations, its entries and withdrawals.
async fn version(app: &App, id: &str) -> ApiResult<Option<String>> {
    let r = sqlx::query(
        "SELECT t.status, \
         (SELECT COUNT(*) FROM tournament_ops o WHERE o.tournament_id = t.id) AS ops, \
         (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id) AS n, \
         (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id \
          AND e.withdrawn = 0) AS active \
         FROM tournaments t WHERE t.id = $1",
    )
    .bind(id)
    .fetch_optional(&app.db.pool)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    r.map(|r| -> Result<String, String> {
        Ok(format!(
            "{}/{}/{}/{}",
            db::text(&r, "status")?,
            db::int(&r, "ops")?,
            db::int(&r, "n")?,
            db::int(&r, "active")?
        ))
    })
    .transpose()
    .map_err(internal)
}

/// `GET /api/tournaments/{id}`: everything about one event. A big event's answer is kept
/// until the event changes (its answer for someone who has played no hidden board).
async fn one(
    State(app): State<Arc<App>>,
    peer: Peer,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    read_limit(&app, &peer, &headers)?;
    if id.len() > 64 {
        return Err(no_such(&id));
    }
    let Some(version) = version(&app, &id).await? else {
        return Err(no_such(&id));
    };
    let now = app.cfg.clock.now_ms();
    let kept = {
        let answers = app.tournaments.answers.lock().expect("answers lock");
        answers.get(&id).and_then(|c| {
            let fresh = c.version == version
                && c.at.elapsed() < std::time::Duration::from_secs(CACHE_SECS)
                && !c.closes_ms.is_some_and(|t| c.built_ms < t && t <= now);
            fresh.then(|| (c.hiding, c.body.clone()))
        })
    };
    if let Some((hiding, body)) = kept {
        // While boards are hidden, someone who has entered sees their own: built for them.
        let entered = hiding && {
            let viewer = accounts::user_of(&app.db, &headers).await?.map(|u| u.id);
            match viewer {
                Some(v) => sqlx::query(
                    "SELECT entrant FROM tournament_entrants WHERE tournament_id = $1 \
                     AND user_id = $2",
                )
                .bind(id.as_str())
                .bind(v)
                .fetch_optional(&app.db.pool)
                .await
                .map_err(|e| internal(db::db_err(e)))?
                .is_some(),
                None => false,
            }
        };
        if !entered {
            return Ok(json_bytes(body));
        }
    }
    let (v, hiding, mine, closes_ms) = build(&app, &headers, &id).await?;
    let body = Bytes::from(serde_json::to_vec(&v).expect("answers serialise"));
    if body.len() >= CACHE_FROM_BYTES && mine.is_empty() {
        let mut answers = app.tournaments.answers.lock().expect("answers lock");
        if answers.len() >= CACHED_EVENTS && !answers.contains_key(&id) {
            let oldest = answers
                .iter()
                .min_by_key(|(_, c)| c.at)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                answers.remove(&k);
            }
        }
        answers.insert(
            id.clone(),
            Cached {
                version,
                closes_ms,
                built_ms: now,
                hiding,
                at: std::time::Instant::now(),
                body: body.clone(),
            },
        );
    }
    Ok(json_bytes(body))
}

fn json_bytes(body: Bytes) -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// The answer of [`one`]; whether boards were hidden, the viewer's entrants (when they were),
/// and when a daylong closes.
async fn build(
    app: &App,
    headers: &HeaderMap,
    id: &str,
) -> ApiResult<(serde_json::Value, bool, Vec<usize>, Option<i64>)> {
    let (event, creator) = event_of(app, id).await?;
    let entrants = director::entrants(app, id).await.map_err(internal)?;
    // While a duplicate event runs, a board's results and games are shown only to those who
    // have played it (a game's record shows its deal).
    let hiding = event.settings.format.duplicate().is_some() && !event.finished;
    let viewer = if hiding {
        accounts::user_of(&app.db, headers).await?.map(|u| u.id)
    } else {
        None
    };
    let mine: Vec<usize> = entrants
        .iter()
        .filter(|r| viewer.is_some() && r.members.iter().any(|m| m.user_id() == viewer))
        .map(|r| r.entrant.id.0 as usize)
        .collect();
    let games: Vec<serde_json::Value> = event
        .games
        .iter()
        .filter(|(k, _)| !hiding || mine.contains(&k.1))
        .map(|(k, g)| json!({ "round": k.0, "match": k.1, "games": g }))
        .collect();
    let mut v = json!({
        "id": event.id,
        "name": event.settings.name,
        "status": event.status(),
        "cancelled": event.cancelled,
        "creator": creator,
        "settings": event.settings,
        "started_ms": event.start_ms,
        "entrants": entrants,
        "standings": event.standings(),
        "late_entry": late_entry_open(&event, app.cfg.clock.now_ms()),
        "games": games,
    });
    match &event.fmt {
        Some(Fmt::Swiss { swiss }) => v["rounds"] = json!(swiss.rounds()),
        Some(Fmt::Knockout { knockout }) => v["bracket"] = json!(knockout.bracket()),
        Some(Fmt::Arena { arena }) => v["matches"] = json!(arena.matches()),
        Some(Fmt::RoundRobin { rr, .. }) => v["rounds"] = json!(rr.rounds()),
        Some(Fmt::CutThroat { ct, .. }) => {
            let rounds: Vec<Vec<serde_json::Value>> = ct
                .rounds()
                .iter()
                .enumerate()
                .map(|(r, tables)| {
                    tables
                        .iter()
                        .enumerate()
                        .map(|(t, tab)| {
                            let table = event
                                .games
                                .get(&(r, t))
                                .and_then(|g| g.last())
                                .map(|g| g.table.clone());
                            json!({
                                "table": table,
                                "entrants": tab.seats.iter().map(|e| e.0).collect::<Vec<_>>(),
                                "scores": tab.points,
                            })
                        })
                        .collect()
                })
                .collect();
            v["tables"] = json!(rounds);
        }
        Some(Fmt::Duplicate { .. }) | None => {}
    }
    if event.settings.format.duplicate().is_some() {
        v["boards"] = boards_json(&event, hiding.then_some(mine.as_slice()));
        if let Some(c) = event.closes_ms() {
            v["closes_ms"] = json!(c);
        }
    }
    Ok((v, hiding, mine, event.closes_ms()))
}

/// A duplicate event's boards: each one's commitment (from the start), its seed (once the
/// event is over), the average score and every result with its matchpoints and difference
/// (a no-show's with `"no_show": true` and no score).
///
/// With `shown_to` (the viewer's entrants, while the event runs), a board the viewer has not
/// finished shows neither results nor average (`"hidden": true`).
fn boards_json(event: &super::event::Event, shown_to: Option<&[usize]>) -> serde_json::Value {
    let scores = event.board_scores();
    let rows: Vec<serde_json::Value> = event
        .boards
        .iter()
        .enumerate()
        .map(|(b, seed)| {
            let mut board = scores.get(b).cloned().unwrap_or_default();
            let hidden = shown_to.is_some_and(|mine| {
                !board
                    .scores
                    .iter()
                    .any(|(e, _)| mine.contains(&(e.0 as usize)))
            });
            if hidden {
                board.scores.clear();
                board.absent.clear();
            }
            let n = board.scores.len();
            let average = (n > 0)
                .then(|| board.scores.iter().map(|(_, s)| *s as f64).sum::<f64>() / n as f64);
            let results: Vec<serde_json::Value> = duplicate::score_board(&board)
                .iter()
                .map(|r| {
                    let table = event
                        .games
                        .get(&(b, r.entrant.0 as usize))
                        .and_then(|g| g.last())
                        .map(|g| g.table.clone());
                    // A no-show has no score of its own: the board's bottom.
                    json!({
                        "entrant": r.entrant.0,
                        "score": (!r.absent).then_some(r.score),
                        "no_show": r.absent,
                        "matchpoints": r.matchpoints,
                        "percent": r.percent,
                        "diff": r.difference,
                        "table": table,
                    })
                })
                .collect();
            json!({
                "board": b + 1,
                "commit": fairness::to_hex(&fairness::commitment(seed)),
                "seed": event.finished.then(|| fairness::to_hex(seed)),
                "average": average,
                "results": results,
                "hidden": hidden,
            })
        })
        .collect();
    json!(rows)
}

#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    /// In a partnership event: the computer player who partners you.
    #[serde(default)]
    partner: Option<String>,
}

fn check_level(level: &str) -> ApiResult<()> {
    if BOT_LEVELS.contains(&level) || BOT_PLAYERS.contains(&level) {
        Ok(())
    } else {
        Err(bad(format!(
            "unknown computer player {level:?}; {}",
            super::settings::computer_players()
        )))
    }
}

/// Add an entrant (the next number), within the event's limit.
async fn enter(
    app: &App,
    event: &super::event::Event,
    user_id: i64,
    row: EntrantRow,
    numbered: bool,
) -> ApiResult<u32> {
    let added = enter_many(app, event, user_id, vec![row], numbered, None).await?;
    Ok(added.first().copied().unwrap_or_default())
}

/// Computer entrants' rows have no person (`user_id` 0).
const BOT_ENTRANT: i64 = 0;

/// Add entrants (the next numbers) in one transaction that reads the field once, within the
/// event's limit; with `quota` (the event's creator adding computer entrants), within the
/// computer entrants allowed in the event and in all of the creator's unfinished events
/// (`max_bot_entrants`, `max_bot_entrants_per_account`), counted with the creator's row
/// locked. The event's row is locked too, so that entries at once (on any instance) are
/// numbered one after another and checked against each other.
async fn enter_many(
    app: &App,
    event: &super::event::Event,
    user_id: i64,
    rows: Vec<EntrantRow>,
    numbered: bool,
    quota: Option<i64>,
) -> ApiResult<Vec<u32>> {
    let ie = |e| internal(db::db_err(e));
    let _one_at_a_time = app.tournaments.entries.lock().await;
    let mut tx = match quota {
        Some(creator) => db::lock_user(&app.db.pool, creator).await.map_err(ie)?,
        None => app.db.pool.begin().await.map_err(ie)?,
    };
    sqlx::query("UPDATE tournaments SET id = id WHERE id = $1")
        .bind(event.id.as_str())
        .execute(&mut *tx)
        .await
        .map_err(ie)?;
    let field = sqlx::query(
        "SELECT COALESCE(MAX(entrant), 0) AS top, \
         CAST(COALESCE(SUM(CASE WHEN withdrawn = 0 THEN 1 ELSE 0 END), 0) AS BIGINT) AS active, \
         CAST(COALESCE(SUM(CASE WHEN withdrawn = 0 AND user_id = $2 THEN 1 ELSE 0 END), 0) \
         AS BIGINT) AS bots, \
         CAST(COALESCE(SUM(CASE WHEN withdrawn = 0 AND user_id = $3 THEN 1 ELSE 0 END), 0) \
         AS BIGINT) AS mine \
         FROM tournament_entrants WHERE tournament_id = $1",
    )
    .bind(event.id.as_str())
    .bind(BOT_ENTRANT)
    .bind(user_id)
    .fetch_one(&mut *tx)
    .await
    .map_err(ie)?;
    let top = db::int(&field, "top").map_err(internal)?;
    let active = db::int(&field, "active").map_err(internal)?;
    let here = db::int(&field, "bots").map_err(internal)?;
    if user_id != BOT_ENTRANT && db::int(&field, "mine").map_err(internal)? > 0 {
        return Err(ApiError::new(
            ErrorCode::AlreadySeated,
            "you are in this tournament already",
        ));
    }
    let count = rows.len() as i64;
    if let Some(m) = event.settings.max_entrants {
        if active + count > i64::from(m) {
            return Err(bad(if active >= i64::from(m) {
                "the tournament is full".to_string()
            } else {
                format!("the tournament has room for {} more", i64::from(m) - active)
            }));
        }
    }
    if let Some(creator) = quota {
        if here + count > app.cfg.max_bot_entrants {
            return Err(ApiError::new(
                ErrorCode::QuotaExceeded,
                format!(
                    "a tournament has at most {} computer entrants ({here} now)",
                    app.cfg.max_bot_entrants
                ),
            ));
        }
        let all = sqlx::query(
            "SELECT COUNT(*) AS n FROM tournament_entrants e JOIN tournaments t \
             ON t.id = e.tournament_id WHERE t.creator = $1 AND t.status <> 'finished' \
             AND e.user_id = $2 AND e.withdrawn = 0",
        )
        .bind(creator)
        .bind(BOT_ENTRANT)
        .fetch_one(&mut *tx)
        .await
        .map_err(ie)?;
        let all = db::int(&all, "n").map_err(internal)?;
        if all + count > app.cfg.max_bot_entrants_per_account {
            return Err(ApiError::new(
                ErrorCode::QuotaExceeded,
                format!(
                    "your unfinished tournaments have {all} computer entrants; a person may have \
                     at most {} at once",
                    app.cfg.max_bot_entrants_per_account
                ),
            ));
        }
    }
    // Inserted a hundred to a statement.
    let mut added = Vec::with_capacity(rows.len());
    let mut next = top;
    for chunk in rows.chunks(100) {
        let mut sql = String::from(
            "INSERT INTO tournament_entrants (tournament_id, entrant, user_id, body, withdrawn) \
             VALUES ",
        );
        let mut bodies = Vec::with_capacity(chunk.len());
        for (k, row) in chunk.iter().enumerate() {
            next += 1;
            let mut row = row.clone();
            row.entrant.id = EntrantId(next as u32);
            if numbered {
                row.entrant.name = format!("{} {next}", row.entrant.name);
            }
            if k > 0 {
                sql.push_str(", ");
            }
            let b = 3 * k;
            sql.push_str(&format!("($1, ${}, ${}, ${}, 0)", b + 2, b + 3, b + 4));
            bodies.push((
                next,
                serde_json::to_string(&row).expect("entrants serialise"),
            ));
            added.push(next as u32);
        }
        let mut q = sqlx::query(&sql).bind(event.id.as_str());
        for (n, body) in bodies {
            q = q.bind(n).bind(user_id).bind(body);
        }
        q.execute(&mut *tx).await.map_err(ie)?;
    }
    tx.commit().await.map_err(ie)?;
    app.tournaments.wake.notify_waiters();
    Ok(added)
}

/// The answer to a request an event that is over refuses (the same for every request).
fn over(event: &super::event::Event) -> ApiError {
    ApiError::new(
        ErrorCode::GameOver,
        if event.cancelled {
            "the tournament was cancelled"
        } else {
            "the tournament is over"
        },
    )
}

fn entries_open(event: &super::event::Event, now_ms: i64) -> ApiResult<()> {
    if event.finished {
        Err(over(event))
    } else if late_entry_open(event, now_ms) {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::AlreadyStarted,
            "the tournament has started: entries are closed",
        ))
    }
}

/// `POST /api/tournaments/{id}/join`.
async fn join(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    b: Bytes,
) -> ApiResult<Response> {
    let user = need_user(&app, &headers).await?;
    limit(&app, &user)?;
    let body: JoinBody = if b.is_empty() {
        JoinBody::default()
    } else {
        read_body(&b)?
    };
    let (event, _) = event_of(&app, &id).await?;
    entries_open(&event, app.cfg.clock.now_ms())?;
    let now = app.cfg.clock.now_ms();
    if let Some(until) = director::barred_until(&app, user.id, now)
        .await
        .map_err(internal)?
    {
        let minutes = (until - now + 59_999) / 60_000;
        return Err(bad(format!(
            "you missed your games in two tournaments within a week: you may join tournaments \
             again in {minutes} minutes"
        )));
    }
    if !user.registered && !event.settings.guests_welcome() {
        return Err(ApiError::new(
            ErrorCode::NotLoggedIn,
            "this tournament is rated: register to join",
        ));
    }
    let row = sqlx::query("SELECT rating FROM users WHERE id = $1")
        .bind(user.id)
        .fetch_one(&app.db.pool)
        .await
        .map_err(|e| internal(db::db_err(e)))?;
    let rating = db::float(&row, "rating").map_err(internal)?.round() as i32;
    if event.settings.min_rating.is_some_and(|m| rating < m)
        || event.settings.max_rating.is_some_and(|m| rating > m)
    {
        return Err(bad(format!(
            "your rating {rating} is outside this tournament's range"
        )));
    }
    let mut members = vec![Member::User { user: user.clone() }];
    let entrant = if event.settings.teams() {
        let level = body.partner.unwrap_or_else(|| "club".to_string());
        check_level(&level)?;
        members.push(Member::Bot {
            level: level.clone(),
        });
        Entrant::team(
            EntrantId(0),
            format!("{} & {level}", user.name),
            rating,
            vec![user.name.clone(), level],
        )
    } else {
        if body.partner.is_some() {
            return Err(bad("a partner is for partnership tournaments"));
        }
        Entrant::single(EntrantId(0), user.name.clone(), rating)
    };
    let n = enter(
        &app,
        &event,
        user.id,
        EntrantRow {
            entrant,
            members,
            withdrawn: false,
        },
        false,
    )
    .await?;
    Ok(Json(json!({ "entrant": n })).into_response())
}

/// `POST /api/tournaments/{id}/withdraw`.
async fn withdraw(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let user = need_user(&app, &headers).await?;
    limit(&app, &user)?;
    let (event, _) = event_of(&app, &id).await?;
    if event.finished {
        return Err(over(&event));
    }
    if matches!(event.fmt, Some(Fmt::Knockout { .. })) {
        return Err(ApiError::new(
            ErrorCode::AlreadyStarted,
            "a knockout's bracket is fixed once it starts: play or lose your next match",
        ));
    }
    if matches!(event.fmt, Some(Fmt::RoundRobin { .. })) {
        return Err(ApiError::new(
            ErrorCode::AlreadyStarted,
            "a round robin's schedule is fixed once it starts: play or lose your games",
        ));
    }
    let r = sqlx::query(
        "UPDATE tournament_entrants SET withdrawn = 1 \
         WHERE tournament_id = $1 AND user_id = $2 AND withdrawn = 0",
    )
    .bind(id.as_str())
    .bind(user.id)
    .execute(&app.db.pool)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    if r.rows_affected() == 0 {
        return Err(ApiError::new(
            ErrorCode::NotSeated,
            "you are not in this tournament",
        ));
    }
    app.tournaments.wake.notify_waiters();
    Ok(Json(json!({ "withdrawn": true })).into_response())
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct BotsBody {
    level: String,
    count: u32,
}

/// `POST /api/tournaments/{id}/bots`: the creator adds computer entrants (for tests and
/// daylongs), before the start or during late entry.
async fn bots(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    b: Bytes,
) -> ApiResult<Response> {
    let user = need_user(&app, &headers).await?;
    limit(&app, &user)?;
    let body: BotsBody = read_body(&b)?;
    let (event, creator) = event_of(&app, &id).await?;
    if creator != user.id {
        return Err(bad("only the tournament's creator adds computer entrants"));
    }
    check_level(&body.level)?;
    if !(1..=1000).contains(&body.count) {
        return Err(bad("add 1 to 1,000 computer entrants at a time"));
    }
    entries_open(&event, app.cfg.clock.now_ms())?;
    let teams = event.settings.teams();
    let rating = bot_rating(&body.level);
    let mut rows = Vec::new();
    for _ in 0..body.count {
        let (members, entrant) = if teams {
            (
                vec![
                    Member::Bot {
                        level: body.level.clone(),
                    },
                    Member::Bot {
                        level: body.level.clone(),
                    },
                ],
                Entrant::team(
                    EntrantId(0),
                    format!("{} pair", body.level),
                    rating,
                    vec![body.level.clone(), body.level.clone()],
                ),
            )
        } else {
            (
                vec![Member::Bot {
                    level: body.level.clone(),
                }],
                Entrant::single(EntrantId(0), body.level.clone(), rating),
            )
        };
        rows.push(EntrantRow {
            entrant,
            members,
            withdrawn: false,
        });
    }
    // Names are numbered so that standings tell computer entrants apart; all in one
    // transaction, within the quotas.
    let added = enter_many(&app, &event, BOT_ENTRANT, rows, true, Some(user.id)).await?;
    Ok(Json(json!({ "entrants": added })).into_response())
}

/// Tries at storing the cancel operation when a director stores one of the event's at once.
const CANCEL_ATTEMPTS: u64 = 12;

/// `POST /api/tournaments/{id}/cancel`: the creator cancels an event that has not started.
/// Everyone entered is told on every connection of theirs (`tournament_cancelled`), and the
/// event's followers get its summary, `finished` and cancelled.
async fn cancel(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let user = need_user(&app, &headers).await?;
    limit(&app, &user)?;
    for _ in 0..CANCEL_ATTEMPTS {
        let (mut event, creator) = event_of(&app, &id).await?;
        if creator != user.id {
            return Err(bad("only the tournament's creator cancels it"));
        }
        if event.finished {
            return Err(over(&event));
        }
        if event.fmt.is_some() {
            return Err(ApiError::new(
                ErrorCode::AlreadyStarted,
                "the tournament has started: it can no longer be cancelled",
            ));
        }
        let op = super::event::Op::Cancel;
        event.apply(op.clone()).map_err(bad)?;
        // The operation takes the next number of the event's log; a director that stored
        // one first (the start) takes it, and the event is looked at again.
        let stored = sqlx::query(
            "INSERT INTO tournament_ops (tournament_id, seq, body) VALUES ($1, $2, $3)",
        )
        .bind(id.as_str())
        .bind(event.ops.len() as i64)
        .bind(serde_json::to_string(&op).expect("operations serialise"))
        .execute(&app.db.pool)
        .await;
        if stored.is_err() {
            continue;
        }
        sqlx::query("UPDATE tournaments SET status = 'finished' WHERE id = $1")
            .bind(id.as_str())
            .execute(&app.db.pool)
            .await
            .map_err(|e| internal(db::db_err(e)))?;
        let rows = director::entrants(&app, &id).await.map_err(internal)?;
        let users: Vec<i64> = rows
            .iter()
            .filter(|r| !r.withdrawn)
            .flat_map(|r| r.members.iter().filter_map(Member::user_id))
            .collect();
        if !users.is_empty() {
            let text = crate::to_json(&fiveup_protocol::ServerMsg::TournamentCancelled {
                tournament: id.clone(),
                name: event.settings.name.clone(),
            });
            let _ = app.tournaments.notes.send(super::Note::Table {
                users: users.into(),
                text,
            });
        }
        app.tournaments.announce(&event, users_len(&rows));
        app.tournaments.wake.notify_waiters();
        return Ok(Json(json!({ "cancelled": true })).into_response());
    }
    Err(internal("the event kept changing".into()))
}

fn users_len(rows: &[EntrantRow]) -> u32 {
    rows.iter().filter(|r| !r.withdrawn).count() as u32
}

pub async fn summary(app: &App, id: &str) -> ApiResult<Arc<str>> {
    let (event, _) = event_of(app, id).await?;
    let n = director::entrants(app, id)
        .await
        .map_err(internal)?
        .iter()
        .filter(|r| !r.withdrawn)
        .count() as u32;
    Ok(crate::to_json(&fiveup_protocol::ServerMsg::Tournament {
        event: event.summary(n),
    }))
}

/// What a duplicate board's table or game answers to someone who may not see it yet.
pub const BOARD_HIDDEN: &str =
    "this duplicate board is hidden until you have played it or the tournament has ended: \
     every entrant plays the same deal";

/// A duplicate board's game is hidden until its tournament ends, except from those who played
/// it ([`super::boards::visible`]): its record shows the deal every other entrant is still to
/// play. Any other game passes.
pub async fn check_board_visible(app: &App, game: &str, headers: &HeaderMap) -> ApiResult<()> {
    let viewer = accounts::user_of(&app.db, headers).await?.map(|u| u.id);
    if super::boards::visible(app, game, viewer)
        .await
        .map_err(internal)?
    {
        return Ok(());
    }
    Err(ApiError::new(ErrorCode::NoSuchGame, BOARD_HIDDEN))
}
