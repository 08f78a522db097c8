//! Bot accounts: computer programs that play on the server through the bot API, as lichess's
//! bot accounts do. A registered person creates bots (their names checked like user names);
//! each bot signs in with bot tokens (`Authorization: Bearer fub_...`), shown once and stored
//! only as their SHA-256, revocable at once (open websockets close). A bot has no password and
//! never a session: it cannot use the web pages, chat, or change an account. Bots are marked
//! as computers everywhere (`UserRef::bot`) and rated in their own pool, unless a person opts
//! into rated games against bots (a per-person setting). See `docs/bots.md`.
//!
//! [`api`] holds the routes: the owner's (create, list, revoke, challenge, the setting), the
//! public list of bots, and the bot's own (`/api/bot/...`: account, seats, join, websocket).

use axum::http::{header, HeaderMap};
use fiveup_protocol::{ErrorCode, UserRef};
use serde::{Deserialize, Serialize};

use crate::limiter::KeyedLimiter;
use crate::store::db::{self, Db};
use crate::table::fairness::{random_bytes, to_hex};
use crate::{accounts, ApiError, App};

pub mod api;

/// The prefix of every bot token (a session token is 64 hex digits without it, so the two
/// are never confused).
pub const TOKEN_PREFIX: &str = "fub_";

/// The most bots one person may own.
pub const MAX_BOTS: i64 = 5;

/// The most live (unrevoked) tokens one bot may have.
pub const MAX_TOKENS: i64 = 5;

/// The bot accounts' shared state: the rate limits per token.
#[derive(Debug)]
pub struct Bots {
    /// Bot API requests per token (HTTP requests and websocket opens).
    pub requests: KeyedLimiter<i64>,
    /// Actions and seeds per token (all its games together).
    pub moves: KeyedLimiter<i64>,
}

impl Bots {
    /// The limits as configured.
    #[must_use]
    pub fn new(cfg: &crate::Config) -> Bots {
        Bots {
            requests: KeyedLimiter::new(cfg.bot_rate.0, cfg.bot_rate.1),
            moves: KeyedLimiter::new(cfg.bot_move_rate.0, cfg.bot_move_rate.1),
        }
    }
}

/// A person's challenge to a bot: one of the invitation seats of a table they created.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Challenge {
    /// The table.
    pub table: String,
    /// The seat kept for the bot.
    pub seat: u8,
    /// The seat's invitation token (the bot joins with it).
    pub invite: String,
    /// Who challenges.
    pub from: UserRef,
    /// When (seconds since the epoch).
    pub at: i64,
}

/// A signed-in bot: its account and the token used.
#[derive(Clone, Debug)]
pub struct BotAuth {
    /// The bot.
    pub user: UserRef,
    /// The token's row id (rate limits are kept per token).
    pub token_id: i64,
    /// The token's SHA-256 (hex), as revocations name it.
    pub token_hash: String,
}

/// The bearer token of a request, if it is a bot token.
#[must_use]
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let token = token.trim();
    (token.starts_with(TOKEN_PREFIX) && token.len() == TOKEN_PREFIX.len() + 64)
        .then(|| token.to_string())
}

fn ie(e: sqlx::Error) -> ApiError {
    ApiError::internal(db::db_err(e))
}

/// The bot of a request's bearer token, within the token's request rate.
pub async fn authenticate(app: &App, headers: &HeaderMap) -> Result<BotAuth, ApiError> {
    let Some(token) = bearer(headers) else {
        return Err(ApiError::new(
            ErrorCode::NotLoggedIn,
            "the bot API needs a bot token: Authorization: Bearer fub_...",
        ));
    };
    let hash = accounts::token_hash(&token);
    let row = sqlx::query(
        "SELECT t.id AS token_id, u.id, u.name, o.mod_banned AS banned FROM bot_tokens t \
         JOIN users u ON u.id = t.bot_id JOIN users o ON o.id = u.bot_owner \
         WHERE t.token_hash = $1 AND t.revoked_at IS NULL",
    )
    .bind(hash.as_str())
    .fetch_optional(&app.db.pool)
    .await
    .map_err(ie)?;
    let Some(row) = row else {
        return Err(ApiError::new(
            ErrorCode::NotLoggedIn,
            "this bot token is unknown or revoked",
        ));
    };
    if db::int(&row, "banned").map_err(ApiError::internal)? != 0 {
        return Err(ApiError::new(
            ErrorCode::Banned,
            "the owner of this bot was banned by a moderator: its tokens do not work",
        ));
    }
    let token_id = db::int(&row, "token_id").map_err(ApiError::internal)?;
    if !app.bots.requests.allow(token_id) {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many requests with this bot token; slow down",
        ));
    }
    let _ = sqlx::query("UPDATE bot_tokens SET last_used = $1 WHERE id = $2")
        .bind(crate::now())
        .bind(token_id)
        .execute(&app.db.pool)
        .await;
    Ok(BotAuth {
        user: UserRef {
            id: db::int(&row, "id").map_err(ApiError::internal)?,
            name: db::text(&row, "name").map_err(ApiError::internal)?,
            registered: true,
            bot: true,
        },
        token_id,
        token_hash: hash,
    })
}

/// Whether a bot's websocket may send a message of this type now: `None` if so, else why not.
/// Bots open tables, act, send seeds and ping; they do not chat, ask for hints or rematches,
/// or follow the lobby (they list seats over HTTP). Actions and seeds count against the
/// token's move rate.
#[must_use]
pub fn refuse_message(app: &App, token_id: i64, kind: &str) -> Option<ApiError> {
    match kind {
        "open" | "ping" => None,
        "act" | "seed" => (!app.bots.moves.allow(token_id)).then(|| {
            ApiError::new(
                ErrorCode::RateLimited,
                "too many moves with this bot token; this one was dropped",
            )
        }),
        _ => Some(ApiError::new(
            ErrorCode::BadRequest,
            format!("a bot may not send {kind:?}: bots open tables, act, send seeds and ping"),
        )),
    }
}

/// A new bot token: `fub_` and 64 hex digits.
fn new_token() -> String {
    format!("{TOKEN_PREFIX}{}", to_hex(&random_bytes()))
}

/// Store a new token for a bot; returns (token id, token).
pub async fn add_token(db: &Db, bot_id: i64) -> Result<(i64, String), ApiError> {
    // Counted and inserted with the bot's row locked, so that requests at once cannot all
    // pass the count.
    let mut tx = db::lock_user(&db.pool, bot_id).await.map_err(ie)?;
    let live = sqlx::query(
        "SELECT COUNT(*) AS n FROM bot_tokens WHERE bot_id = $1 AND revoked_at IS NULL",
    )
    .bind(bot_id)
    .fetch_one(&mut *tx)
    .await
    .map_err(ie)?;
    if db::int(&live, "n").map_err(ApiError::internal)? >= MAX_TOKENS {
        return Err(ApiError::new(
            ErrorCode::QuotaExceeded,
            format!("a bot has at most {MAX_TOKENS} live tokens: revoke one first"),
        ));
    }
    let token = new_token();
    let row = sqlx::query(
        "INSERT INTO bot_tokens (bot_id, token_hash, created_at) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(bot_id)
    .bind(accounts::token_hash(&token))
    .bind(crate::now())
    .fetch_one(&mut *tx)
    .await
    .map_err(ie)?;
    tx.commit().await.map_err(ie)?;
    Ok((db::int(&row, "id").map_err(ApiError::internal)?, token))
}

/// Create a bot for `owner` (a registered person), named as a user name is (the look-alike
/// rules included: a bot's name may not collide with any account's).
pub async fn create(db: &Db, owner: &UserRef, name: &str) -> Result<UserRef, ApiError> {
    if !owner.registered || owner.bot {
        return Err(ApiError::new(
            ErrorCode::NotLoggedIn,
            "only a registered person may create bots: register first",
        ));
    }
    let name = accounts::check_username(name)?;
    // Counted and inserted with the owner's row locked, so that requests at once cannot all
    // pass the count.
    let mut tx = db::lock_user(&db.pool, owner.id).await.map_err(ie)?;
    let count = sqlx::query("SELECT COUNT(*) AS n FROM users WHERE bot_owner = $1")
        .bind(owner.id)
        .fetch_one(&mut *tx)
        .await
        .map_err(ie)?;
    if db::int(&count, "n").map_err(ApiError::internal)? >= MAX_BOTS {
        return Err(ApiError::new(
            ErrorCode::QuotaExceeded,
            format!("one person may own at most {MAX_BOTS} bots"),
        ));
    }
    let key = name.to_lowercase();
    let (skel, skel2) = accounts::name_keys(&name);
    let taken = sqlx::query(
        "SELECT id FROM users WHERE name_key = $1 OR name_skel = $2 OR name_skel = $3 \
         OR name_skel2 = $2 OR name_skel2 = $3",
    )
    .bind(key.as_str())
    .bind(skel.as_str())
    .bind(skel2.as_str())
    .fetch_optional(&mut *tx)
    .await
    .map_err(ie)?;
    let taken_err = || {
        ApiError::new(
            ErrorCode::NameTaken,
            format!("the name {name:?} is taken, or too like a name that is"),
        )
    };
    if taken.is_some() {
        return Err(taken_err());
    }
    let res = sqlx::query(
        "INSERT INTO users (name, name_key, registered, created_at, name_skel, name_skel2, \
         bot_owner) VALUES ($1, $2, 1, $3, $4, $5, $6) RETURNING id",
    )
    .bind(name.as_str())
    .bind(key.as_str())
    .bind(crate::now())
    .bind(skel.as_str())
    .bind(skel2.as_str())
    .bind(owner.id)
    .fetch_one(&mut *tx)
    .await;
    let res = match res {
        Ok(row) => tx.commit().await.map(|()| row),
        Err(e) => Err(e),
    };
    match res {
        Ok(row) => Ok(UserRef {
            id: db::int(&row, "id").map_err(ApiError::internal)?,
            name,
            registered: true,
            bot: true,
        }),
        Err(e) if e.to_string().to_lowercase().contains("unique") => Err(taken_err()),
        Err(e) => Err(ie(e)),
    }
}

/// Revoke a token of one of `owner`'s bots; returns its hash (to close its websockets).
pub async fn revoke(db: &Db, owner: &UserRef, token_id: i64) -> Result<String, ApiError> {
    let row = sqlx::query(
        "SELECT t.token_hash, t.revoked_at FROM bot_tokens t JOIN users u ON u.id = t.bot_id \
         WHERE t.id = $1 AND u.bot_owner = $2",
    )
    .bind(token_id)
    .bind(owner.id)
    .fetch_optional(&db.pool)
    .await
    .map_err(ie)?;
    let Some(row) = row else {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!("you have no bot token {token_id}"),
        ));
    };
    sqlx::query("UPDATE bot_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
        .bind(crate::now())
        .bind(token_id)
        .execute(&db.pool)
        .await
        .map_err(ie)?;
    db::text(&row, "token_hash").map_err(ApiError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bot_tokens_are_bearers() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), None);
        let t = new_token();
        h.insert(
            header::AUTHORIZATION,
            format!("Bearer {t}").parse().unwrap(),
        );
        assert_eq!(bearer(&h), Some(t.clone()));
        h.insert(header::AUTHORIZATION, format!("Basic {t}").parse().unwrap());
        assert_eq!(bearer(&h), None);
        // A session token (64 hex digits) is not a bot token.
        h.insert(
            header::AUTHORIZATION,
            format!("Bearer {}", &t[TOKEN_PREFIX.len()..])
                .parse()
                .unwrap(),
        );
        assert_eq!(bearer(&h), None);
    }
}
