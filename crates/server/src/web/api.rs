//! The HTTP API (see `docs/protocol.md` for every endpoint).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use fiveup_engine::{Preset, Rules};
use fiveup_protocol::{
    CreateTableRequest, Credentials, ErrorCode, GuestRequest, JoinRequest, Lobby, Me, OptionInfo,
    PresetInfo, RulesCheck, RulesSpec, SeatConfig, ServerConfig, SetHands, TableInfo, UserRef,
    VerifyRequest, MAX_FRAME_BYTES, PROTOCOL_VERSION,
};
use serde::de::DeserializeOwned;
use tokio::sync::oneshot;

use crate::table::actor::{self, TableCmd};
use crate::table::{SeatSetup, TableConfig};
use crate::web::assets;
use crate::web::listen::client_ip;
use crate::{accounts, games, ApiError, App, SecureCookies, BOT_LEVELS, BOT_PLAYERS};

/// The largest HTTP body read, in bytes (records for `verify` included).
const MAX_BODY: usize = 1 << 20;

/// Every route.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .merge(crate::tournament::api::routes())
        .route("/", get(assets::index))
        .route("/table/{*rest}", get(assets::index))
        .route("/game/{*rest}", get(assets::index))
        .route("/user/{*rest}", get(assets::index))
        .route("/how-to-play", get(assets::index))
        .route("/leaderboard", get(assets::index))
        .route("/tournaments", get(assets::index))
        .route("/tournaments/{*rest}", get(assets::index))
        .route("/favicon.ico", get(assets::favicon))
        .route("/manifest.webmanifest", get(assets::manifest))
        .route("/sw.js", get(assets::service_worker))
        .route("/static/{*path}", get(assets::file))
        .route("/api/config", get(config))
        .route("/api/guest", post(guest))
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/me", get(me))
        .route("/api/me/name", post(display_name))
        .route("/api/session", get(session))
        .route("/api/lobby", get(lobby))
        .route("/api/rules", get(check_rules))
        .route("/api/tables", post(create_table))
        .route("/api/tables/{id}", get(table_info))
        .route("/api/tables/{id}/join", post(join))
        .route("/api/tables/{id}/leave", post(leave))
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/record.txt", get(record_txt))
        .route("/api/games/{id}/review", get(review))
        .route("/api/users/{id}", get(profile))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/verify", post(verify))
        .merge(crate::correspondence::api::routes())
        .route("/ws", get(crate::web::ws::upgrade))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .merge(crate::bots::api::routes())
        .merge(crate::moderation::routes())
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(app.clone(), guard))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        // Answers are gzipped for clients that accept it (a replay's JSON shrinks about tenfold);
        // the websocket upgrade and small answers are left alone.
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(app)
}

/// An unknown path: under `/api/` a JSON error; anywhere else the client's page with status
/// 404, which shows a page saying so in words.
async fn not_found(uri: axum::http::Uri, headers: HeaderMap) -> Response {
    if uri.path().starts_with("/api/") || uri.path() == "/ws" {
        return ApiError::new(ErrorCode::BadRequest, "no such endpoint").into_response();
    }
    let mut page = assets::index(headers).await;
    if page.status() == StatusCode::OK || page.status() == StatusCode::NOT_MODIFIED {
        *page.status_mut() = StatusCode::NOT_FOUND;
    }
    page
}

/// Every state-changing request (every `POST`): from an allowed origin, as
/// `application/json` (a cross-site form can send neither; a cross-site `fetch` with JSON
/// needs a CORS preflight, which the server never grants), and within the client address's
/// rate limit.
async fn guard(
    State(app): State<Arc<App>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if req.method() == axum::http::Method::POST {
        let headers = req.headers();
        if !crate::web::ws::origin_allowed(headers, &app.cfg.allow_origins) {
            return ApiError::new(
                ErrorCode::BadOrigin,
                "requests that change something are only accepted from this server's own pages",
            )
            .into_response();
        }
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return ApiError::new(
                ErrorCode::BadContentType,
                "send requests that change something as Content-Type: application/json",
            )
            .into_response();
        }
        let peer = req
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        if let Some(peer) = peer {
            let ip = client_ip(peer, headers, &app.cfg.trusted_proxies);
            if !app.http_limiter.allow(ip) {
                return rate_limited().into_response();
            }
        }
    }
    if app.cluster.is_some() {
        let peer = req
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| client_ip(c.0.ip(), req.headers(), &app.cfg.trusted_proxies));
        return match crate::web::relay::forward_if_elsewhere(&app, req, peer).await {
            Ok(r) => r,
            Err(req) => next.run(req).await,
        };
    }
    next.run(req).await
}

/// `GET /healthz`: 200 `ready` when this instance takes clients, 503 with the reason when
/// not (stopping, the database unreachable, or its table leases not renewed): what the proxy's
/// health check asks.
async fn healthz(State(app): State<Arc<App>>) -> Response {
    let not_ready = |why: &str| {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CONTENT_TYPE, "text/plain")],
            format!("not ready: {why}\n"),
        )
            .into_response()
    };
    if app.draining.load(std::sync::atomic::Ordering::Relaxed) {
        return not_ready("draining");
    }
    if app.cluster.as_ref().is_some_and(|c| !c.fresh()) {
        return not_ready("table leases not renewed");
    }
    if app
        .db_lock
        .as_ref()
        .is_some_and(|l| l.lost.load(std::sync::atomic::Ordering::Relaxed))
    {
        return not_ready("database lock lost");
    }
    let ping = sqlx::query("SELECT 1").execute(&app.db.pool);
    match tokio::time::timeout(std::time::Duration::from_secs(2), ping).await {
        Ok(Ok(_)) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/plain")],
            "ready\n",
        )
            .into_response(),
        _ => not_ready("database unreachable"),
    }
}

/// `GET /metrics`: Prometheus's text format.
async fn metrics(State(app): State<Arc<App>>) -> Response {
    app.metrics
        .tables_owned
        .set(i64::try_from(app.hub.loaded()).unwrap_or(i64::MAX));
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        app.metrics.render(),
    )
        .into_response()
}

fn rate_limited() -> ApiError {
    ApiError::new(ErrorCode::RateLimited, "too many requests; wait a moment")
}

/// The per-user limit on state-changing requests.
fn limit_user(app: &App, user: &UserRef) -> ApiResult<()> {
    if app.user_limiter.allow(user.id) {
        Ok(())
    } else {
        Err(rate_limited())
    }
}

type ApiResult<T> = Result<T, ApiError>;

fn body<T: DeserializeOwned>(b: &Bytes) -> ApiResult<T> {
    serde_json::from_slice(b).map_err(|e| ApiError::new(ErrorCode::BadJson, e.to_string()))
}

async fn need_user(app: &App, headers: &HeaderMap) -> ApiResult<UserRef> {
    accounts::user_of(&app.db, headers)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotLoggedIn, "log in or play as a guest first"))
}

fn secure(app: &App, headers: &HeaderMap) -> bool {
    app.cfg.secure_cookies == SecureCookies::Always || accounts::over_tls(headers)
}

fn with_session(app: &App, headers: &HeaderMap, token: &str, user: UserRef) -> Response {
    let mut r = Json(Me { user }).into_response();
    if let Ok(v) = HeaderValue::from_str(&accounts::cookie(Some(token), secure(app, headers))) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

async fn config(State(app): State<Arc<App>>) -> Json<ServerConfig> {
    let presets = Preset::ALL
        .iter()
        .map(|p| {
            let (lo, hi) = p.players();
            PresetInfo {
                name: p.name().to_string(),
                rules: (2..=8).map(|n| Rules::preset(*p, n)).collect(),
                set: p.set(),
                players: [lo, hi],
                hands: [6, 9, 12]
                    .into_iter()
                    .map(|set| SetHands {
                        set,
                        hand_size: (2..=8)
                            .map(|n| Rules::preset_with_set(*p, n, set).hand_size)
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect();
    let opt = |key: &str, field: &str, values: &[&str]| OptionInfo {
        key: key.to_string(),
        field: field.to_string(),
        values: values.iter().map(ToString::to_string).collect(),
    };
    let options = vec![
        opt("set", "set", &["6", "9", "12"]),
        opt("players", "players", &["2", "3", "4", "5", "6", "7", "8"]),
        opt("partnerships", "partnerships", &["false", "true"]),
        opt("hand", "hand_size", &["3..=45"]),
        opt("target", "target", &["50..=1000", "61"]),
        opt("spinner", "spinner", &["first", "none", "all"]),
        opt("sprouts", "sprouts", &["after-both-sides", "at-once"]),
        opt(
            "no-double",
            "no_double",
            &["redeal", "heaviest-tile", "draw-until-double", "each-draws"],
        ),
        opt(
            "first-lead",
            "first_lead",
            &["highest-double", "highest-double-any", "lot", "top-double"],
        ),
        opt("cross-first", "cross_first", &["false", "true"]),
        opt(
            "next-lead",
            "next_lead",
            &["winner", "rotate", "first-lead"],
        ),
        opt("drawing", "drawing", &["true", "false"]),
        opt("voluntary-draw", "voluntary_draw", &["false", "true"]),
        opt("draw-one", "draw_one", &["false", "true"]),
        opt("boneyard-keep", "boneyard_keep", &["0", "1", "2"]),
        opt(
            "play-scoring",
            "play_scoring",
            &["fives", "fives-and-threes", "none"],
        ),
        opt(
            "award",
            "award",
            &["opponents", "difference", "subtract-own"],
        ),
        opt(
            "doubles-one-half",
            "doubles_count_one_half",
            &["false", "true"],
        ),
        opt("game-end", "game_end", &["immediate", "finish-hand"]),
        opt("exact-target", "exact_target", &["false", "true"]),
        opt("cribbage", "cribbage_scale", &["false", "true"]),
        opt("manual", "manual_scoring", &["false", "true"]),
        opt("muggins-call", "muggins_call", &["next", "any"]),
        opt("blocked-tie", "blocked_tie", &["share", "nobody"]),
        opt("hands", "hand_limit", &["0..=1000"]),
    ];
    Json(ServerConfig {
        protocol: PROTOCOL_VERSION,
        server: env!("CARGO_PKG_VERSION").to_string(),
        presets,
        options,
        bot_levels: BOT_LEVELS.iter().map(ToString::to_string).collect(),
        max_frame_bytes: MAX_FRAME_BYTES,
        takeover_secs: app.cfg.takeover.map_or(0, |d| d.as_secs().max(1)),
        seed_wait_secs: app.cfg.seed_wait.as_secs(),
    })
}

async fn guest(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    b: Bytes,
) -> ApiResult<Response> {
    let req: GuestRequest = body(&b)?;
    let name = accounts::check_nickname(&req.nickname)?;
    // New guests per address: otherwise a person could make guests to get round every
    // per-person limit.
    if !app
        .guest_limiter
        .allow(client_ip(peer.ip(), &headers, &app.cfg.trusted_proxies))
    {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many guests made from your address; wait a few minutes, or log in",
        ));
    }
    let user = accounts::create_guest(&app.db, &name).await?;
    crate::moderation::seen_from(
        &app,
        user.id,
        client_ip(peer.ip(), &headers, &app.cfg.trusted_proxies),
    )
    .await;
    end_old_session(&app, &headers).await?;
    let token = accounts::new_session(&app.db, &user).await?;
    Ok(with_session(&app, &headers, &token, user))
}

/// End the session a request came with (a new one replaces it), and close the websockets
/// opened with it.
async fn end_old_session(app: &App, headers: &HeaderMap) -> ApiResult<()> {
    if let Some(t) = accounts::token_of(headers) {
        accounts::end_session(&app.db, &t).await?;
        let hash = accounts::token_hash(&t);
        if let Some(c) = &app.cluster {
            c.revoked(&app.db, &hash).await;
        }
        let _ = app.revoked.send(Arc::from(hash));
    }
    Ok(())
}

async fn register(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    b: Bytes,
) -> ApiResult<Response> {
    let req: Credentials = body(&b)?;
    let name = accounts::check_username(&req.username)?;
    accounts::check_password(&req.password, &name)?;
    let display = match req.display_name.as_deref().map(str::trim) {
        Some(d) if !d.is_empty() => Some(accounts::check_display_name(d)?),
        _ => None,
    };
    let current = accounts::user_of(&app.db, &headers).await?;
    let hash = accounts::hash_password(&app.hashes, req.password).await?;
    let user =
        accounts::register(&app.db, current.as_ref(), &name, &hash, display.as_deref()).await?;
    crate::moderation::seen_from(
        &app,
        user.id,
        client_ip(peer.ip(), &headers, &app.cfg.trusted_proxies),
    )
    .await;
    // The guest's token is not carried over: a new session for the account.
    end_old_session(&app, &headers).await?;
    let token = accounts::new_session(&app.db, &user).await?;
    Ok(with_session(&app, &headers, &token, user))
}

async fn login(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    b: Bytes,
) -> ApiResult<Response> {
    let req: Credentials = body(&b)?;
    // Guesses at one account are limited wherever they come from.
    // (No user name is longer than 24 characters: a longer one is keyed by its start.)
    let head: String = req.username.chars().take(32).collect();
    let key = accounts::name_skeleton(&head);
    if !app.login_limiter.allow(key) {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many login attempts for this account; wait a minute",
        ));
    }
    let user = accounts::login(&app.db, &app.hashes, &req.username, &req.password).await?;
    crate::moderation::seen_from(
        &app,
        user.id,
        client_ip(peer.ip(), &headers, &app.cfg.trusted_proxies),
    )
    .await;
    end_old_session(&app, &headers).await?;
    let token = accounts::new_session(&app.db, &user).await?;
    Ok(with_session(&app, &headers, &token, user))
}

async fn logout(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Response> {
    end_old_session(&app, &headers).await?;
    let mut r = StatusCode::NO_CONTENT.into_response();
    if let Ok(v) = HeaderValue::from_str(&accounts::cookie(None, secure(&app, &headers))) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(r)
}

/// `GET /api/session`: who is logged in, `{"user": null}` when nobody is (unlike `/api/me`,
/// never an error, so a page checking at load logs nothing for a visitor).
async fn session(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Response> {
    let user = accounts::user_of(&app.db, &headers).await?;
    Ok(Json(serde_json::json!({ "user": user })).into_response())
}

/// `POST /api/me/name`: a registered player's display name, the name shown at tables (the
/// login name stays). Tables already joined keep the name they were joined under.
async fn display_name(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    b: Bytes,
) -> ApiResult<Json<Me>> {
    let user = need_user(&app, &headers).await?;
    let req: fiveup_protocol::DisplayName = body(&b)?;
    let name = accounts::check_display_name(&req.display_name)?;
    Ok(Json(Me {
        user: accounts::set_display_name(&app.db, &user, &name).await?,
    }))
}

async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<Me>> {
    Ok(Json(Me {
        user: need_user(&app, &headers).await?,
    }))
}

/// `GET /api/lobby?offset=N&limit=N`.
#[derive(serde::Deserialize)]
struct LobbyQuery {
    #[serde(default)]
    offset: usize,
    limit: Option<usize>,
}

async fn lobby(
    State(app): State<Arc<App>>,
    axum::extract::Query(q): axum::extract::Query<LobbyQuery>,
) -> Json<Lobby> {
    let limit = q
        .limit
        .unwrap_or(app.cfg.lobby_limit)
        .min(app.cfg.lobby_limit);
    let (tables, total) = app.hub.lobby(q.offset, limit);
    Json(Lobby { tables, total })
}

fn rules_of(spec: &RulesSpec) -> ApiResult<Rules> {
    let rules = match spec {
        RulesSpec::Options(s) => {
            Rules::parse(s).map_err(|e| ApiError::new(ErrorCode::BadRules, e.to_string()))?
        }
        RulesSpec::Rules(r) => *r,
    };
    rules
        .validate()
        .map_err(|e| ApiError::new(ErrorCode::BadRules, e.to_string()))?;
    Ok(rules)
}

/// `GET /api/rules?spec=...`.
#[derive(serde::Deserialize)]
struct RulesQuery {
    spec: String,
}

/// Read and check a rules string exactly as a new table's would be: the rules it makes, or
/// the engine's reason for refusing it (for the new-table form, before anything is created).
async fn check_rules(
    axum::extract::Query(q): axum::extract::Query<RulesQuery>,
) -> Json<RulesCheck> {
    let checked = if q.spec.len() > 1000 {
        Err(ApiError::new(
            ErrorCode::BadRules,
            "a rules string has at most 1000 characters",
        ))
    } else {
        rules_of(&RulesSpec::Options(q.spec))
    };
    Json(match checked {
        Ok(rules) => RulesCheck {
            rules: Some(rules),
            options: Some(rules.to_options_string()),
            error: None,
        },
        Err(e) => RulesCheck {
            rules: None,
            options: None,
            error: Some(e.message),
        },
    })
}

type Reply = oneshot::Sender<Result<TableInfo, crate::table::Refusal>>;

/// Ask a table's task; a finished table's task may just have left memory, so a closed task
/// is loaded again once.
pub(crate) async fn ask(
    app: &Arc<App>,
    id: &str,
    make: impl Fn(Reply) -> TableCmd,
) -> ApiResult<TableInfo> {
    for _ in 0..2 {
        let h = actor::table(app, id).await?;
        let (tx, rx) = oneshot::channel();
        if h.tx.send(make(tx)).await.is_err() {
            continue;
        }
        if let Ok(r) = rx.await {
            return r.map_err(ApiError::from);
        }
    }
    Err(ApiError::new(
        ErrorCode::ShuttingDown,
        "the table is closing",
    ))
}

/// A table's public description, as `user` sees it (the same retry as [`ask`]).
pub(crate) async fn info(app: &Arc<App>, id: &str, user: Option<i64>) -> ApiResult<TableInfo> {
    for _ in 0..2 {
        let h = actor::table(app, id).await?;
        let (reply, rx) = oneshot::channel();
        if h.tx.send(TableCmd::Info { user, reply }).await.is_err() {
            continue;
        }
        if let Ok(t) = rx.await {
            return Ok(t);
        }
    }
    Err(ApiError::new(
        ErrorCode::ShuttingDown,
        "the table is closing",
    ))
}

async fn create_table(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    b: Bytes,
) -> ApiResult<Response> {
    let user = need_user(&app, &headers).await?;
    limit_user(&app, &user)?;
    let req: CreateTableRequest = body(&b)?;
    if let Some(r) = &req.request_id {
        if r.is_empty() || r.chars().count() > 64 {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                "a request id has 1 to 64 characters",
            ));
        }
        // A repeat of a request whose table is made: that table.
        if let Some(id) = app.hub.created_for(user.id, r) {
            let t = info(&app, &id, Some(user.id)).await?;
            return Ok((StatusCode::CREATED, Json(t)).into_response());
        }
    }
    let rules = rules_of(&req.rules)?;
    if req.seats.len() != rules.players as usize {
        return Err(ApiError::new(
            ErrorCode::BadRules,
            format!(
                "{} seats given for {} players: give one entry per seat",
                req.seats.len(),
                rules.players
            ),
        ));
    }
    let mut seats = Vec::new();
    let mut sits = Vec::new();
    for (i, s) in req.seats.iter().enumerate() {
        seats.push(match s {
            SeatConfig::Me => {
                if !sits.is_empty() {
                    return Err(ApiError::new(
                        ErrorCode::BadRules,
                        "at most one seat can be \"me\"",
                    ));
                }
                sits.push((i as u8, user.clone()));
                SeatSetup::Open
            }
            SeatConfig::Open => SeatSetup::Open,
            SeatConfig::Invite => SeatSetup::Invite {
                token: crate::table::fairness::to_hex(
                    &crate::table::fairness::random_bytes()[..12],
                ),
            },
            SeatConfig::Bot { level } => {
                if !BOT_LEVELS.contains(&level.as_str()) && !BOT_PLAYERS.contains(&level.as_str()) {
                    return Err(ApiError::new(
                        ErrorCode::BadRules,
                        format!(
                            "unknown computer player {level:?}; levels are {}",
                            BOT_LEVELS.join(", ")
                        ),
                    ));
                }
                SeatSetup::Bot {
                    level: level.clone(),
                }
            }
        });
    }
    let cfg = TableConfig {
        id: crate::new_id(),
        rules,
        seats,
        creator: Some(user.clone()),
        unlisted: req.unlisted,
        created_at: crate::now(),
        request: req.request_id.clone(),
        correspondence: crate::correspondence::api::settings_for(&app, &user, &req).await?,
        tournament: None,
        hints: req.hints,
    };
    if cfg.hints && cfg.correspondence.is_some() {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "hints cannot be allowed at a correspondence table: correspondence games always count",
        ));
    }
    let bots = cfg.seats.iter().any(|s| matches!(s, SeatSetup::Bot { .. }));
    // Within the person's quotas; the place is taken before the table is made, so that
    // concurrent requests cannot all pass.
    // A repeat of a request whose table is being made waits for it.
    let making = match app.hub.reserve(
        &app,
        user.id,
        Some(client_ip(peer.ip(), &headers, &app.cfg.trusted_proxies)),
        &cfg.id,
        bots,
        req.request_id.as_deref(),
    )? {
        actor::Reservation::New(making) => making,
        actor::Reservation::Made(id) => {
            let t = info(&app, &id, Some(user.id)).await?;
            return Ok((StatusCode::CREATED, Json(t)).into_response());
        }
        actor::Reservation::Making(mut done) => {
            let _ = done.changed().await;
            let r = req.request_id.as_deref().unwrap_or_default();
            let Some(id) = app.hub.created_for(user.id, r) else {
                return Err(ApiError::new(
                    ErrorCode::ShuttingDown,
                    "the first request with this request id made no table: send it again",
                ));
            };
            let t = info(&app, &id, Some(user.id)).await?;
            return Ok((StatusCode::CREATED, Json(t)).into_response());
        }
    };
    // The creator's place at a correspondence table counts against their open games at once.
    let held = match (&cfg.correspondence, sits.first()) {
        (Some(_), Some((seat, _))) => {
            let held = crate::correspondence::api::hold_game(&app, user.id, &cfg.id, *seat).await;
            if let Err(e) = held {
                app.hub.release(user.id, &cfg.id);
                return Err(e);
            }
            true
        }
        _ => false,
    };
    let made = actor::create(&app, cfg.clone(), sits).await;
    if made.is_err() {
        app.hub.release(user.id, &cfg.id);
        if held {
            crate::correspondence::api::release_game(&app, &cfg.id).await;
        }
    }
    drop(making);
    Ok((StatusCode::CREATED, Json(made?)).into_response())
}

async fn table_info(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<TableInfo>> {
    let user = accounts::user_of(&app.db, &headers).await?.map(|u| u.id);
    // A duplicate board's table (its scores) waits until one has played it.
    if !crate::tournament::boards::visible(&app, &id, user)
        .await
        .map_err(ApiError::internal)?
    {
        return Err(ApiError::new(
            ErrorCode::NoSuchTable,
            crate::tournament::api::BOARD_HIDDEN,
        ));
    }
    Ok(Json(info(&app, &id, user).await?))
}

async fn join(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    b: Bytes,
) -> ApiResult<Json<TableInfo>> {
    let user = need_user(&app, &headers).await?;
    limit_user(&app, &user)?;
    let req: JoinRequest = if b.is_empty() {
        JoinRequest::default()
    } else {
        body(&b)?
    };
    Ok(Json(
        ask(&app, &id, |reply| TableCmd::Join {
            user: user.clone(),
            req: req.clone(),
            reply,
        })
        .await?,
    ))
}

async fn leave(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<TableInfo>> {
    let user = need_user(&app, &headers).await?;
    limit_user(&app, &user)?;
    Ok(Json(
        ask(&app, &id, |reply| TableCmd::Leave {
            user: user.clone(),
            reply,
        })
        .await?,
    ))
}

async fn game(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<fiveup_protocol::Replay>> {
    crate::tournament::api::check_board_visible(&app, &id, &headers).await?;
    Ok(Json(games::replay(&app.db, &id).await?))
}

async fn record_txt(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    crate::tournament::api::check_board_visible(&app, &id, &headers).await?;
    let text = games::record_text(&app.db, &id).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn review(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<fiveup_protocol::Review>> {
    crate::tournament::api::check_board_visible(&app, &id, &headers).await?;
    Ok(Json(games::review(&app, &id).await?))
}

async fn profile(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    axum::extract::Query(q): axum::extract::Query<std::collections::HashMap<String, String>>,
) -> ApiResult<Json<fiveup_protocol::Profile>> {
    let kind = games::HistoryKind::parse(q.get("kind").map(String::as_str))?;
    let id: i64 = id
        .parse()
        .map_err(|_| ApiError::new(ErrorCode::NoSuchUser, format!("no user {id:?}")))?;
    let mut p = games::profile(&app.db, id, kind).await?;
    // A duplicate board's game and score wait until the viewer has played it.
    let viewer = accounts::user_of(&app.db, &headers).await?.map(|u| u.id);
    let games: Vec<String> = p.history.iter().map(|h| h.game.clone()).collect();
    let hidden = crate::tournament::boards::hidden_among(&app, &games, viewer)
        .await
        .map_err(ApiError::internal)?;
    p.history.retain(|h| !hidden.contains(&h.game));
    p.marks = crate::moderation::marks_of(&app, id)
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(p))
}

async fn leaderboard(State(app): State<Arc<App>>) -> ApiResult<Json<games::Leaderboard>> {
    Ok(Json(games::leaderboard(&app.db).await?))
}

async fn verify(b: Bytes) -> ApiResult<Json<fiveup_protocol::VerifyReport>> {
    let req: VerifyRequest = body(&b)?;
    let report = tokio::task::spawn_blocking(move || games::verify(&req.record))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(Json(report))
}
