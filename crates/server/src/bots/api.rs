//! The bot routes: the owner's (`/api/bots/...`, with the person's session), the public list
//! of bots, and the bot's own (`/api/bot/...`, with a bot token). See `docs/bots.md`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use fiveup_protocol::{ErrorCode, JoinRequest, Occupant, TableInfo, TableStatus, UserRef};
use serde::{Deserialize, Serialize};

use super::{authenticate, BotAuth, Challenge};
use crate::store::db;
use crate::table::actor::TableCmd;
use crate::web::api;
use crate::web::listen::ConnGuard;
use crate::{accounts, ApiError, App};

type ApiResult<T> = Result<T, ApiError>;

/// The bot routes, merged into the server's router.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/engines", get(crate::web::assets::index))
        .route("/api/bots", get(list).post(create))
        .route("/api/bots/mine", get(mine))
        .route("/api/bots/settings", get(settings).post(set_settings))
        .route("/api/bots/tokens/{tid}/revoke", post(revoke))
        .route("/api/bots/{id}/tokens", post(new_token))
        .route("/api/bots/{id}/challenge", post(challenge))
        .route("/api/bot/account", get(account))
        .route("/api/bot/seats", get(seats))
        .route("/api/bot/tables/{id}/join", post(join))
        .route("/api/bot/tables/{id}/leave", post(leave))
        .route("/api/bot/ws", get(ws))
}

fn ie(e: sqlx::Error) -> ApiError {
    ApiError::internal(db::db_err(e))
}

fn body<T: serde::de::DeserializeOwned>(b: &Bytes) -> ApiResult<T> {
    serde_json::from_slice(b)
        .map_err(|e| ApiError::new(ErrorCode::BadJson, format!("bad request body: {e}")))
}

/// A person's session (never a bot: bots have none).
async fn person(app: &App, headers: &HeaderMap) -> ApiResult<UserRef> {
    match accounts::user_of(&app.db, headers).await? {
        Some(u) => Ok(u),
        None => Err(ApiError::new(
            ErrorCode::NotLoggedIn,
            "log in first (bot tokens cannot manage bots)",
        )),
    }
}

fn limit(app: &App, user: &UserRef) -> ApiResult<()> {
    if app.user_limiter.allow(user.id) {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many requests; wait a moment",
        ))
    }
}

/// A bot as the engines page lists it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BotEntry {
    /// The bot.
    pub user: UserRef,
    /// Its owner.
    pub owner: UserRef,
    /// Its Glicko-2 rating (in the bots' pool).
    pub rating: f64,
    /// The rating's deviation.
    pub deviation: f64,
    /// Finished games.
    pub games: i64,
    /// Games won.
    pub wins: i64,
    /// Its latest finished games, newest first.
    pub recent: Vec<RecentGame>,
}

/// A finished game of a bot.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RecentGame {
    /// The game's id (its replay is `/game/{id}`).
    pub id: String,
    /// When it finished.
    pub finished_at: i64,
    /// The rules.
    pub options: String,
    /// Whether the bot's side won.
    pub won: bool,
    /// The names at the table, by seat.
    pub names: Vec<String>,
}

/// `GET /api/bots`: every bot, best rated first, with its latest games.
async fn list(State(app): State<Arc<App>>) -> ApiResult<Json<Vec<BotEntry>>> {
    let rows = sqlx::query(
        "SELECT b.id, b.name, b.rating, b.deviation, b.games, b.wins, o.id AS owner_id, \
         o.name AS owner_name FROM users b JOIN users o ON o.id = b.bot_owner \
         ORDER BY b.rating DESC, b.id ASC LIMIT 200",
    )
    .fetch_all(&app.db.pool)
    .await
    .map_err(ie)?;
    let mut out = Vec::new();
    for r in rows {
        let e = |x: String| ApiError::internal(x);
        let id = db::int(&r, "id").map_err(e)?;
        let games = sqlx::query(
            "SELECT g.id, g.finished_at, g.options, g.names, p.won FROM game_players p \
             JOIN games g ON g.id = p.game_id WHERE p.user_id = $1 \
             ORDER BY g.finished_at DESC, g.id ASC LIMIT 10",
        )
        .bind(id)
        .fetch_all(&app.db.pool)
        .await
        .map_err(ie)?;
        let mut recent = Vec::new();
        for g in games {
            recent.push(RecentGame {
                id: db::text(&g, "id").map_err(e)?,
                finished_at: db::int(&g, "finished_at").map_err(e)?,
                options: db::text(&g, "options").map_err(e)?,
                won: db::int(&g, "won").map_err(e)? != 0,
                names: serde_json::from_str(&db::text(&g, "names").map_err(e)?).unwrap_or_default(),
            });
        }
        out.push(BotEntry {
            user: UserRef {
                id,
                name: db::text(&r, "name").map_err(e)?,
                registered: true,
                bot: true,
            },
            owner: UserRef {
                id: db::int(&r, "owner_id").map_err(e)?,
                name: db::text(&r, "owner_name").map_err(e)?,
                registered: true,
                bot: false,
            },
            rating: db::float(&r, "rating").map_err(e)?,
            deviation: db::float(&r, "deviation").map_err(e)?,
            games: db::int(&r, "games").map_err(e)?,
            wins: db::int(&r, "wins").map_err(e)?,
            recent,
        });
    }
    Ok(Json(out))
}

#[derive(Deserialize)]
struct CreateBot {
    name: String,
}

/// A new token, shown once.
#[derive(Serialize)]
struct NewToken {
    bot: UserRef,
    token_id: i64,
    token: String,
}

/// `POST /api/bots` `{"name": ...}`: a new bot and its first token.
async fn create(State(app): State<Arc<App>>, headers: HeaderMap, b: Bytes) -> ApiResult<Response> {
    let owner = person(&app, &headers).await?;
    limit(&app, &owner)?;
    let req: CreateBot = body(&b)?;
    let bot = super::create(&app.db, &owner, &req.name).await?;
    let (token_id, token) = super::add_token(&app.db, bot.id).await?;
    Ok((
        StatusCode::CREATED,
        Json(NewToken {
            bot,
            token_id,
            token,
        }),
    )
        .into_response())
}

/// One token as its owner sees it (never the token itself).
#[derive(Serialize)]
struct TokenEntry {
    id: i64,
    created_at: i64,
    last_used: Option<i64>,
    revoked_at: Option<i64>,
}

#[derive(Serialize)]
struct MyBot {
    bot: UserRef,
    rating: f64,
    games: i64,
    tokens: Vec<TokenEntry>,
}

/// `GET /api/bots/mine`: the person's bots and their tokens.
async fn mine(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<Vec<MyBot>>> {
    let owner = person(&app, &headers).await?;
    let e = |x: String| ApiError::internal(x);
    let rows =
        sqlx::query("SELECT id, name, rating, games FROM users WHERE bot_owner = $1 ORDER BY id")
            .bind(owner.id)
            .fetch_all(&app.db.pool)
            .await
            .map_err(ie)?;
    let mut out = Vec::new();
    for r in rows {
        let id = db::int(&r, "id").map_err(e)?;
        let toks = sqlx::query(
            "SELECT id, created_at, last_used, revoked_at FROM bot_tokens WHERE bot_id = $1 \
             ORDER BY id",
        )
        .bind(id)
        .fetch_all(&app.db.pool)
        .await
        .map_err(ie)?;
        let opt =
            |t: &sqlx::any::AnyRow, c: &str| sqlx::Row::try_get::<Option<i64>, _>(t, c).map_err(ie);
        let mut tokens = Vec::new();
        for t in toks {
            tokens.push(TokenEntry {
                id: db::int(&t, "id").map_err(e)?,
                created_at: db::int(&t, "created_at").map_err(e)?,
                last_used: opt(&t, "last_used")?,
                revoked_at: opt(&t, "revoked_at")?,
            });
        }
        out.push(MyBot {
            bot: UserRef {
                id,
                name: db::text(&r, "name").map_err(e)?,
                registered: true,
                bot: true,
            },
            rating: db::float(&r, "rating").map_err(e)?,
            games: db::int(&r, "games").map_err(e)?,
            tokens,
        });
    }
    Ok(Json(out))
}

/// The person's bot `id`, or an error.
/// The bot `id` (anyone's) and its owner's id.
async fn find_bot(app: &App, id: &str) -> ApiResult<(UserRef, i64)> {
    let bad = || ApiError::new(ErrorCode::NoSuchUser, format!("no bot {id:?}"));
    let id: i64 = id.parse().map_err(|_| bad())?;
    let row = sqlx::query(
        "SELECT id, name, bot_owner FROM users WHERE id = $1 AND bot_owner IS NOT NULL",
    )
    .bind(id)
    .fetch_optional(&app.db.pool)
    .await
    .map_err(ie)?
    .ok_or_else(bad)?;
    let e = |x: String| ApiError::internal(x);
    Ok((
        UserRef {
            id,
            name: db::text(&row, "name").map_err(e)?,
            registered: true,
            bot: true,
        },
        db::int(&row, "bot_owner").map_err(e)?,
    ))
}

/// `POST /api/bots/{id}/tokens`: another token for one of the person's bots.
async fn new_token(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let owner = person(&app, &headers).await?;
    limit(&app, &owner)?;
    let (bot, owner_id) = find_bot(&app, &id).await?;
    if owner_id != owner.id {
        return Err(ApiError::new(
            ErrorCode::NoSuchUser,
            format!("you own no bot {id:?}"),
        ));
    }
    let (token_id, token) = super::add_token(&app.db, bot.id).await?;
    Ok((
        StatusCode::CREATED,
        Json(NewToken {
            bot,
            token_id,
            token,
        }),
    )
        .into_response())
}

/// `POST /api/bots/tokens/{tid}/revoke`: refused at once, its websockets closed.
async fn revoke(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(tid): Path<String>,
) -> ApiResult<Response> {
    let owner = person(&app, &headers).await?;
    limit(&app, &owner)?;
    let tid: i64 = tid
        .parse()
        .map_err(|_| ApiError::new(ErrorCode::BadRequest, format!("no bot token {tid:?}")))?;
    let hash = super::revoke(&app.db, &owner, tid).await?;
    if let Some(c) = &app.cluster {
        c.revoked(&app.db, &hash).await;
    }
    let _ = app.revoked.send(Arc::from(hash));
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The per-person setting.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct BotSettings {
    /// Whether this person's games against bots are rated (for both sides).
    pub rated: bool,
}

async fn settings(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<BotSettings>> {
    let me = person(&app, &headers).await?;
    let row = sqlx::query("SELECT bot_rated FROM users WHERE id = $1")
        .bind(me.id)
        .fetch_one(&app.db.pool)
        .await
        .map_err(ie)?;
    Ok(Json(BotSettings {
        rated: db::int(&row, "bot_rated").map_err(ApiError::internal)? != 0,
    }))
}

/// `POST /api/bots/settings` `{"rated": true}`: a registered person's choice.
async fn set_settings(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    b: Bytes,
) -> ApiResult<Json<BotSettings>> {
    let me = person(&app, &headers).await?;
    limit(&app, &me)?;
    let s: BotSettings = body(&b)?;
    if !me.registered {
        return Err(ApiError::new(
            ErrorCode::NotLoggedIn,
            "guests' games are never rated: register first",
        ));
    }
    sqlx::query("UPDATE users SET bot_rated = $1 WHERE id = $2")
        .bind(i64::from(s.rated))
        .bind(me.id)
        .execute(&app.db.pool)
        .await
        .map_err(ie)?;
    Ok(Json(s))
}

#[derive(Deserialize)]
struct ChallengeRequest {
    table: String,
}

/// `POST /api/bots/{id}/challenge` `{"table": ...}`: offer one of the invitation seats of a
/// table the person created to a bot (anyone's). The bot sees it in its seats and may accept.
async fn challenge(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    b: Bytes,
) -> ApiResult<Json<Challenge>> {
    let me = person(&app, &headers).await?;
    limit(&app, &me)?;
    let req: ChallengeRequest = body(&b)?;
    let (bot, _) = find_bot(&app, &id).await?;
    let t = api::info(&app, &req.table, Some(me.id)).await?;
    if t.creator.as_ref().map(|c| c.id) != Some(me.id) {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "challenge with a table you created",
        ));
    }
    if t.status != TableStatus::Waiting {
        return Err(ApiError::new(
            ErrorCode::AlreadyStarted,
            "the game has started",
        ));
    }
    let rows = sqlx::query("SELECT invite FROM bot_challenges WHERE bot_id = $1")
        .bind(bot.id)
        .fetch_all(&app.db.pool)
        .await
        .map_err(ie)?;
    let taken: Vec<String> = rows
        .iter()
        .filter_map(|r| db::text(r, "invite").ok())
        .collect();
    let Some(inv) = t.invites.iter().find(|i| {
        !taken.contains(&i.token)
            && matches!(
                t.seats.get(i.seat as usize).map(|s| &s.occupant),
                Some(Occupant::Invite)
            )
    }) else {
        return Err(ApiError::new(
            ErrorCode::BadInvite,
            "the table has no free invitation seat: create it with an \"invite\" seat",
        ));
    };
    let c = Challenge {
        table: t.id.clone(),
        seat: inv.seat,
        invite: inv.token.clone(),
        from: me,
        at: crate::now(),
    };
    sqlx::query(
        "INSERT INTO bot_challenges (bot_id, invite, table_id, seat, options, from_id, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(bot.id)
    .bind(c.invite.as_str())
    .bind(c.table.as_str())
    .bind(i64::from(c.seat))
    .bind(t.options.as_str())
    .bind(c.from.id)
    .bind(c.at)
    .execute(&app.db.pool)
    .await
    .map_err(ie)?;
    Ok(Json(c))
}

#[derive(Serialize)]
struct Account {
    user: UserRef,
    owner: UserRef,
}

/// `GET /api/bot/account`: the bot and its owner.
async fn account(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<Account>> {
    let me = authenticate(&app, &headers).await?;
    let row = sqlx::query(
        "SELECT o.id, o.name FROM users b JOIN users o ON o.id = b.bot_owner WHERE b.id = $1",
    )
    .bind(me.user.id)
    .fetch_one(&app.db.pool)
    .await
    .map_err(ie)?;
    let e = |x: String| ApiError::internal(x);
    Ok(Json(Account {
        user: me.user,
        owner: UserRef {
            id: db::int(&row, "id").map_err(e)?,
            name: db::text(&row, "name").map_err(e)?,
            registered: true,
            bot: false,
        },
    }))
}

/// A seat a bot may take.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Offer {
    /// The table.
    pub table: String,
    /// The seat.
    pub seat: u8,
    /// The rules as an options string.
    pub options: String,
    /// Whether the game would be rated for the bot (every other seated account is a bot, or
    /// a registered person who opted into rated games against bots; and there is one).
    pub rated: bool,
    /// For a challenge: who challenges, and the invitation to join with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<UserRef>,
    /// The invitation token (challenges only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// The seats open to bots.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Seats {
    /// Challenges to this bot, oldest first.
    pub challenges: Vec<Offer>,
    /// Open seats of listed tables waiting for players, newest table first.
    pub open: Vec<Offer>,
}

async fn rated_for_bot(app: &App, t: &TableInfo) -> ApiResult<bool> {
    let mut any = false;
    for s in &t.seats {
        match &s.occupant {
            Occupant::Human { user } if user.bot => any = true,
            Occupant::Human { user } if user.registered => {
                let mut conn = app.db.pool.acquire().await.map_err(ie)?;
                let opted = crate::games::pool::opted_in(&mut conn, &[user.id])
                    .await
                    .map_err(ApiError::internal)?;
                if !opted.contains(&user.id) {
                    return Ok(false);
                }
                any = true;
            }
            Occupant::Human { .. } => return Ok(false),
            _ => {}
        }
    }
    Ok(any)
}

/// `GET /api/bot/seats`: challenges and open seats.
async fn seats(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<Seats>> {
    let me = authenticate(&app, &headers).await?;
    let rows = sqlx::query(
        "SELECT c.invite, c.table_id, c.seat, c.options, c.created_at, u.id, u.name, u.registered \
         FROM bot_challenges c JOIN users u ON u.id = c.from_id WHERE c.bot_id = $1 \
         ORDER BY c.created_at, c.invite",
    )
    .bind(me.user.id)
    .fetch_all(&app.db.pool)
    .await
    .map_err(ie)?;
    let mut challenges = Vec::new();
    let mut stale = Vec::new();
    for r in rows {
        let e = |x: String| ApiError::internal(x);
        let c = Challenge {
            table: db::text(&r, "table_id").map_err(e)?,
            seat: u8::try_from(db::int(&r, "seat").map_err(e)?).unwrap_or(u8::MAX),
            invite: db::text(&r, "invite").map_err(e)?,
            from: UserRef {
                id: db::int(&r, "id").map_err(e)?,
                name: db::text(&r, "name").map_err(e)?,
                registered: db::int(&r, "registered").map_err(e)? != 0,
                bot: false,
            },
            at: db::int(&r, "created_at").map_err(e)?,
        };
        match api::info(&app, &c.table, None).await {
            Ok(t)
                if t.status == TableStatus::Waiting
                    && matches!(
                        t.seats.get(c.seat as usize).map(|s| &s.occupant),
                        Some(Occupant::Invite)
                    ) =>
            {
                challenges.push(Offer {
                    table: t.id.clone(),
                    seat: c.seat,
                    options: t.options.clone(),
                    rated: rated_for_bot(&app, &t).await?,
                    from: Some(c.from.clone()),
                    invite: Some(c.invite.clone()),
                });
            }
            // Run by another instance (or changing hands): offered as stored; the join
            // finds the table.
            Err(err) if err.code == ErrorCode::ShuttingDown => challenges.push(Offer {
                table: c.table.clone(),
                seat: c.seat,
                options: db::text(&r, "options").map_err(e)?,
                rated: false,
                from: Some(c.from.clone()),
                invite: Some(c.invite.clone()),
            }),
            _ => stale.push(c.invite.clone()),
        }
    }
    for inv in stale {
        forget_challenge(&app, me.user.id, &inv).await?;
    }
    let (tables, _) = app.hub.lobby(0, app.cfg.lobby_limit);
    let mut open = Vec::new();
    for t in tables {
        if t.status != TableStatus::Waiting
            || t.seats
                .iter()
                .any(|s| matches!(&s.occupant, Occupant::Human { user } if user.id == me.user.id))
        {
            continue;
        }
        if let Some(s) = t
            .seats
            .iter()
            .find(|s| matches!(s.occupant, Occupant::Open))
        {
            open.push(Offer {
                table: t.id.clone(),
                seat: s.seat,
                options: t.options.clone(),
                rated: rated_for_bot(&app, &t).await?,
                from: None,
                invite: None,
            });
        }
    }
    Ok(Json(Seats { challenges, open }))
}

/// `POST /api/bot/tables/{id}/join` (a `JoinRequest`: a seat, or a challenge's invitation).
async fn join(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    b: Bytes,
) -> ApiResult<Json<TableInfo>> {
    let me = authenticate(&app, &headers).await?;
    let req: JoinRequest = if b.is_empty() {
        JoinRequest::default()
    } else {
        body(&b)?
    };
    let t = api::ask(&app, &id, |reply| TableCmd::Join {
        user: me.user.clone(),
        req: req.clone(),
        reply,
    })
    .await?;
    if let Some(inv) = &req.invite {
        forget_challenge(&app, me.user.id, inv).await?;
    }
    Ok(Json(t))
}

/// Drop a challenge (taken, or its seat no longer free).
async fn forget_challenge(app: &App, bot: i64, invite: &str) -> ApiResult<()> {
    sqlx::query("DELETE FROM bot_challenges WHERE bot_id = $1 AND invite = $2")
        .bind(bot)
        .bind(invite)
        .execute(&app.db.pool)
        .await
        .map_err(ie)?;
    Ok(())
}

/// `POST /api/bot/tables/{id}/leave`: leave a table before its game starts.
async fn leave(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<TableInfo>> {
    let me: BotAuth = authenticate(&app, &headers).await?;
    Ok(Json(
        api::ask(&app, &id, |reply| TableCmd::Leave {
            user: me.user.clone(),
            reply,
        })
        .await?,
    ))
}

/// `GET /api/bot/ws`: the bot's websocket (the person's protocol, as the bot's seat sees it).
async fn ws(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    guard: Option<axum::Extension<Arc<ConnGuard>>>,
    peer: Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
    headers: HeaderMap,
) -> Response {
    // Behind a trusted proxy, counted per client as `/ws` is.
    let admitted = match crate::web::ws::admit(&app, peer, &headers) {
        Ok(a) => a,
        Err(refused) => return refused.into_response(),
    };
    let me = match authenticate(&app, &headers).await {
        Ok(m) => m,
        Err(e) => return e.into_response(),
    };
    crate::web::ws::accept_bot(
        ws,
        app,
        me.user,
        (me.token_hash, me.token_id),
        &headers,
        guard.map(|g| g.0),
        admitted,
    )
}
