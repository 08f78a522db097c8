//! What a moderator does to an account, and its undoing. Every action and every undoing is a
//! row of the moderation log (`mod_actions`: who, when, what, why, and what it changed).
//!
//! | action | effect | undone |
//! |---|---|---|
//! | `warn` | the person sees a notice | the notice is withdrawn |
//! | `mute` | their chat lines reach only themselves, at every table | chat reaches others again |
//! | `mark-assisted` | left out of leaderboards; their games from now on rate nobody; their entries in tournaments are disqualified (standings recomputed); their victims' ratings refunded | all of it taken back |
//! | `mark-farm` | their ratings reset to a new player's | the ratings restored |
//! | `ban` | every session ends and every websocket closes, on every instance; login refused | login allowed again |
//! | `rename` | their name becomes `PlayerN` until they choose another | the old name back, if still free |

use std::sync::Arc;

use fiveup_protocol::{ErrorCode, Rating};
use serde::{Deserialize, Serialize};

use super::refund::{self, Refunded};
use crate::games::glicko;
use crate::store::db;
use crate::{ApiError, App};

/// The actions, as the routes name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A notice.
    Warn,
    /// Chat shown only to themselves.
    Mute,
    /// Computer-assisted play.
    MarkAssisted,
    /// Rating manipulation.
    MarkFarm,
    /// Closed: sessions ended, login refused.
    Ban,
    /// A forced name change.
    Rename,
}

impl Kind {
    /// Every action.
    pub const ALL: [Kind; 6] = [
        Kind::Warn,
        Kind::Mute,
        Kind::MarkAssisted,
        Kind::MarkFarm,
        Kind::Ban,
        Kind::Rename,
    ];

    /// Its name in the routes and the log.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Warn => "warn",
            Kind::Mute => "mute",
            Kind::MarkAssisted => "mark-assisted",
            Kind::MarkFarm => "mark-farm",
            Kind::Ban => "ban",
            Kind::Rename => "rename",
        }
    }

    /// The action named `s`.
    #[must_use]
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }

    /// The users column that says the action is in effect (for those that last).
    const fn column(self) -> Option<&'static str> {
        match self {
            Kind::Warn => None,
            Kind::Mute => Some("mod_muted"),
            Kind::MarkAssisted => Some("mod_assisted"),
            Kind::MarkFarm => Some("mod_farm"),
            Kind::Ban => Some("mod_banned"),
            Kind::Rename => Some("must_rename"),
        }
    }

    /// What the person is told, in words.
    #[must_use]
    pub const fn words(self) -> &'static str {
        match self {
            Kind::Warn => "a warning",
            Kind::Mute => "your chat is shown only to you",
            Kind::MarkAssisted => {
                "your account is marked for computer-assisted play: it is left out of \
                 leaderboards, your games are not rated, your tournament places are removed"
            }
            Kind::MarkFarm => {
                "your account is marked for rating manipulation: your ratings were reset"
            }
            Kind::Ban => "your account is closed",
            Kind::Rename => "your name was found offensive: choose another",
        }
    }
}

/// What an action changed, kept in the log so that it can be undone.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Detail {
    /// Refunds given to victims (`mark-assisted`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refunds: Vec<Refunded>,
    /// Tournaments whose entries were disqualified (`mark-assisted`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tournaments: Vec<String>,
    /// Ratings before a reset (`mark-farm`): live, then correspondence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<[Rating; 2]>,
    /// The name before a forced change (`rename`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_name: Option<String>,
    /// Sessions ended (`ban`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessions: Option<u32>,
}

/// The longest reason a moderator writes.
pub const MAX_REASON: usize = 500;

fn bad(m: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::BadRequest, m)
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(e.to_string())
}

/// A reason: 1 to 500 characters, no control characters.
pub fn check_reason(s: &str) -> Result<String, ApiError> {
    super::clean_text(s, MAX_REASON)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            bad(format!(
                "a reason has 1 to {MAX_REASON} characters and no control characters"
            ))
        })
}

/// Apply `kind` to `target`, by `moderator`, for `reason`, closing `report` if given. Returns
/// the log row's id and what was changed.
pub async fn apply(
    app: &Arc<App>,
    moderator: i64,
    target: i64,
    kind: Kind,
    reason: &str,
    report: Option<i64>,
) -> Result<(i64, Detail), ApiError> {
    let reason = check_reason(reason)?;
    if moderator == target {
        return Err(bad("a moderator does not act on their own account"));
    }
    let now = crate::now();
    let mut tx = db::lock_user(&app.db.pool, target)
        .await
        .map_err(|e| internal(db::db_err(e)))?;
    let row = sqlx::query(
        "SELECT name, registered, moderator, mod_muted, mod_assisted, mod_farm, mod_banned, \
         must_rename, rating, deviation, volatility, corr_rating, corr_deviation, \
         corr_volatility FROM users WHERE id = $1",
    )
    .bind(target)
    .fetch_optional(&mut *tx)
    .await
    .map_err(|e| internal(db::db_err(e)))?
    .ok_or_else(|| ApiError::new(ErrorCode::NoSuchUser, format!("no user {target}")))?;
    if db::int(&row, "moderator").map_err(internal)? != 0 && kind != Kind::Warn {
        return Err(bad(
            "this account is a moderator: the operator revokes the role first",
        ));
    }
    if let Some(col) = kind.column() {
        if db::int(&row, col).map_err(internal)? != 0 {
            return Err(bad(format!(
                "{} is in effect already for this account",
                kind.name()
            )));
        }
        sqlx::query(&format!("UPDATE users SET {col} = 1 WHERE id = $1"))
            .bind(target)
            .execute(&mut *tx)
            .await
            .map_err(|e| internal(db::db_err(e)))?;
    }
    let mut detail = Detail::default();
    let mut ended: Vec<String> = Vec::new();
    match kind {
        Kind::Warn | Kind::Mute => {}
        Kind::MarkAssisted => {
            detail.refunds = refund::refund_victims(&mut tx, target, app.cfg.clock.now_ms() / 1000)
                .await
                .map_err(internal)?;
        }
        Kind::MarkFarm => {
            let f = |c: &str| db::float(&row, c).map_err(internal);
            detail.ratings = Some([
                Rating {
                    rating: f("rating")?,
                    deviation: f("deviation")?,
                    volatility: f("volatility")?,
                },
                Rating {
                    rating: f("corr_rating")?,
                    deviation: f("corr_deviation")?,
                    volatility: f("corr_volatility")?,
                },
            ]);
            let i = glicko::initial();
            sqlx::query(
                "UPDATE users SET rating = $1, deviation = $2, volatility = $3, \
                 corr_rating = $1, corr_deviation = $2, corr_volatility = $3 WHERE id = $4",
            )
            .bind(i.rating)
            .bind(i.deviation)
            .bind(i.volatility)
            .bind(target)
            .execute(&mut *tx)
            .await
            .map_err(|e| internal(db::db_err(e)))?;
        }
        Kind::Ban => {
            let rows = sqlx::query("SELECT token_hash FROM sessions WHERE user_id = $1")
                .bind(target)
                .fetch_all(&mut *tx)
                .await
                .map_err(|e| internal(db::db_err(e)))?;
            for r in &rows {
                ended.push(db::text(r, "token_hash").map_err(internal)?);
            }
            // The tokens of the bots they own stop working too (refused while the owner is
            // banned), and their connections close.
            let bots = sqlx::query(
                "SELECT t.token_hash AS token_hash FROM bot_tokens t JOIN users u \
                 ON u.id = t.bot_id WHERE u.bot_owner = $1 AND t.revoked_at IS NULL",
            )
            .bind(target)
            .fetch_all(&mut *tx)
            .await
            .map_err(|e| internal(db::db_err(e)))?;
            for r in &bots {
                ended.push(db::text(r, "token_hash").map_err(internal)?);
            }
            sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                .bind(target)
                .execute(&mut *tx)
                .await
                .map_err(|e| internal(db::db_err(e)))?;
            detail.sessions = Some(rows.len() as u32);
        }
        Kind::Rename => {
            let old = db::text(&row, "name").map_err(internal)?;
            let new = format!("Player{target}");
            let (skel, skel2) = crate::accounts::name_keys(&new);
            sqlx::query(
                "UPDATE users SET name = $1, shown_skel = $2, shown_skel2 = $3 WHERE id = $4",
            )
            .bind(new.as_str())
            .bind(skel)
            .bind(skel2)
            .bind(target)
            .execute(&mut *tx)
            .await
            .map_err(|e| internal(db::db_err(e)))?;
            detail.old_name = Some(old);
        }
    }
    let id = log_action(
        &mut tx,
        moderator,
        target,
        kind.name(),
        &reason,
        report,
        &detail,
        None,
        now,
    )
    .await?;
    if let Some(report) = report {
        close_report(&mut tx, report, moderator, now).await?;
    }
    tx.commit().await.map_err(|e| internal(db::db_err(e)))?;
    // After the commit: what reaches beyond the database.
    match kind {
        Kind::Ban => {
            end_connections(app, &ended).await;
            leave_waiting_tables(app, target, &row).await;
        }
        Kind::MarkAssisted => {
            let events = crate::tournament::disqualify(app, target, true)
                .await
                .map_err(internal)?;
            if !events.is_empty() {
                detail.tournaments = events;
                sqlx::query("UPDATE mod_actions SET detail = $1 WHERE id = $2")
                    .bind(serde_json::to_string(&detail).expect("detail serialises"))
                    .bind(id)
                    .execute(&app.db.pool)
                    .await
                    .map_err(|e| internal(db::db_err(e)))?;
            }
        }
        _ => {}
    }
    Ok((id, detail))
}

/// Close every websocket of these sessions and bot tokens, here and on every other instance.
async fn end_connections(app: &Arc<App>, hashes: &[String]) {
    for h in hashes {
        let _ = app.revoked.send(Arc::from(format!("{h}{BANNED}").as_str()));
        if let Some(c) = &app.cluster {
            c.revoked(&app.db, &format!("{h}{BANNED}")).await;
        }
    }
}

/// A banned person leaves every table they made that still waits for players, and the table
/// closes (unless someone is following it: then it stays open for them, and the housekeeping
/// closes it once nobody does): no lobby listing waits on an account that cannot come. Games
/// under way go on by their own rules (an away player's clock).
async fn leave_waiting_tables(app: &Arc<App>, target: i64, row: &sqlx::any::AnyRow) {
    // The creator is in the stored configuration (`"creator":{"id":N,...}`).
    let Ok(rows) =
        sqlx::query("SELECT id FROM game_tables WHERE status = 'waiting' AND config LIKE $1")
            .bind(format!("%\"creator\":{{\"id\":{target},%"))
            .fetch_all(&app.db.pool)
            .await
    else {
        return;
    };
    let user = fiveup_protocol::UserRef {
        id: target,
        name: db::text(row, "name").unwrap_or_default(),
        registered: db::int(row, "registered").unwrap_or(0) != 0,
        bot: false,
    };
    for r in &rows {
        let Ok(id) = db::text(r, "id") else {
            continue;
        };
        let user = user.clone();
        let left = crate::web::api::ask(app, &id, move |reply| {
            crate::table::actor::TableCmd::Leave {
                user: user.clone(),
                reply,
            }
        })
        .await;
        if let Err(e) = left {
            crate::log(&format!("ban of {target}: table {id}: {}", e.message));
            continue;
        }
        // Closed at once unless someone follows it (then it stays open for them to take, and
        // the housekeeping closes it once nobody does).
        if let Ok(h) = crate::table::actor::table(app, &id).await {
            let sent =
                h.tx.send(crate::table::actor::TableCmd::Expire {
                    idle: std::time::Duration::ZERO,
                })
                .await;
            // The ban's answer waits (briefly) for the table to be gone from the lobby.
            if sent.is_ok() {
                let _ =
                    tokio::time::timeout(std::time::Duration::from_secs(2), h.tx.closed()).await;
            }
        }
    }
}

/// Appended to an ended session's hash when the session ended by a ban: the websocket says so.
pub const BANNED: &str = "!banned";

/// Write one row of the moderation log.
#[allow(clippy::too_many_arguments)]
async fn log_action(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    moderator: i64,
    target: i64,
    action: &str,
    reason: &str,
    report: Option<i64>,
    detail: &Detail,
    undoes: Option<i64>,
    now: i64,
) -> Result<i64, ApiError> {
    let r = sqlx::query(
        "INSERT INTO mod_actions (moderator_id, target_id, action, reason, report_id, detail, \
         created_at, undoes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(moderator)
    .bind(target)
    .bind(action)
    .bind(reason)
    .bind(report)
    .bind(serde_json::to_string(detail).expect("detail serialises"))
    .bind(now)
    .bind(undoes)
    .fetch_one(&mut **tx)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    db::int(&r, "id").map_err(internal)
}

/// Close a report (acted on or dismissed).
pub async fn close_report(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    report: i64,
    moderator: i64,
    now: i64,
) -> Result<(), ApiError> {
    let r = sqlx::query(
        "UPDATE reports SET closed_by = $1, closed_at = $2 WHERE id = $3 AND closed_at IS NULL",
    )
    .bind(moderator)
    .bind(now)
    .bind(report)
    .execute(&mut **tx)
    .await
    .map_err(|e| internal(db::db_err(e)))?;
    if r.rows_affected() == 0 {
        return Err(bad(format!("report {report} is not open")));
    }
    Ok(())
}

/// Dismiss a report without acting: logged as `dismiss`.
pub async fn dismiss(
    app: &App,
    moderator: i64,
    report: i64,
    reason: &str,
) -> Result<i64, ApiError> {
    let reason = check_reason(reason)?;
    let now = crate::now();
    let mut tx = app
        .db
        .pool
        .begin()
        .await
        .map_err(|e| internal(db::db_err(e)))?;
    let target = sqlx::query("SELECT target_id FROM reports WHERE id = $1")
        .bind(report)
        .fetch_optional(&mut *tx)
        .await
        .map_err(|e| internal(db::db_err(e)))?
        .ok_or_else(|| bad(format!("no report {report}")))?;
    let target = db::int(&target, "target_id").map_err(internal)?;
    close_report(&mut tx, report, moderator, now).await?;
    let id = log_action(
        &mut tx,
        moderator,
        target,
        "dismiss",
        &reason,
        Some(report),
        &Detail::default(),
        None,
        now,
    )
    .await?;
    tx.commit().await.map_err(|e| internal(db::db_err(e)))?;
    Ok(id)
}

/// Undo action `action` (by `moderator`, for `reason`): its effect is taken back and the log
/// gets an `undo` row; the action's row says when it was undone.
pub async fn undo(
    app: &Arc<App>,
    moderator: i64,
    action: i64,
    reason: &str,
) -> Result<i64, ApiError> {
    let reason = check_reason(reason)?;
    let now = crate::now();
    let row =
        sqlx::query("SELECT target_id, action, detail, undone_at FROM mod_actions WHERE id = $1")
            .bind(action)
            .fetch_optional(&app.db.pool)
            .await
            .map_err(|e| internal(db::db_err(e)))?
            .ok_or_else(|| bad(format!("no action {action} in the log")))?;
    let target = db::int(&row, "target_id").map_err(internal)?;
    let name = db::text(&row, "action").map_err(internal)?;
    let Some(kind) = Kind::parse(&name) else {
        return Err(bad(format!("a {name} cannot be undone")));
    };
    let undone: Option<i64> = row
        .try_get("undone_at")
        .map_err(|e| internal(e.to_string()))?;
    if undone.is_some() {
        return Err(bad(format!("action {action} was undone already")));
    }
    let detail: Detail =
        serde_json::from_str(&db::text(&row, "detail").map_err(internal)?).map_err(internal)?;
    let mut tx = db::lock_user(&app.db.pool, target)
        .await
        .map_err(|e| internal(db::db_err(e)))?;
    if let Some(col) = kind.column() {
        sqlx::query(&format!("UPDATE users SET {col} = 0 WHERE id = $1"))
            .bind(target)
            .execute(&mut *tx)
            .await
            .map_err(|e| internal(db::db_err(e)))?;
    }
    match kind {
        Kind::Warn | Kind::Mute | Kind::Ban => {}
        Kind::MarkAssisted => {
            refund::take_back(&mut tx, &detail.refunds)
                .await
                .map_err(internal)?;
        }
        Kind::MarkFarm => {
            if let Some([live, corr]) = detail.ratings {
                sqlx::query(
                    "UPDATE users SET rating = $1, deviation = $2, volatility = $3, \
                     corr_rating = $4, corr_deviation = $5, corr_volatility = $6 WHERE id = $7",
                )
                .bind(live.rating)
                .bind(live.deviation)
                .bind(live.volatility)
                .bind(corr.rating)
                .bind(corr.deviation)
                .bind(corr.volatility)
                .bind(target)
                .execute(&mut *tx)
                .await
                .map_err(|e| internal(db::db_err(e)))?;
            }
        }
        Kind::Rename => {
            if let Some(old) = &detail.old_name {
                let current = sqlx::query("SELECT name FROM users WHERE id = $1")
                    .bind(target)
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(|e| internal(db::db_err(e)))?;
                // Only while they still carry the name they were given (a name they chose
                // since stays), and only if nobody took the old one meanwhile.
                let given = format!("Player{target}");
                let taken = sqlx::query("SELECT id FROM users WHERE name = $1 AND id <> $2")
                    .bind(old.as_str())
                    .bind(target)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(|e| internal(db::db_err(e)))?;
                if db::text(&current, "name").map_err(internal)? == given && taken.is_none() {
                    let (skel, skel2) = crate::accounts::name_keys(old);
                    sqlx::query(
                        "UPDATE users SET name = $1, shown_skel = $2, shown_skel2 = $3 \
                         WHERE id = $4",
                    )
                    .bind(old.as_str())
                    .bind(skel)
                    .bind(skel2)
                    .bind(target)
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| internal(db::db_err(e)))?;
                }
            }
        }
    }
    sqlx::query("UPDATE mod_actions SET undone_at = $1 WHERE id = $2")
        .bind(now)
        .bind(action)
        .execute(&mut *tx)
        .await
        .map_err(|e| internal(db::db_err(e)))?;
    let id = log_action(
        &mut tx,
        moderator,
        target,
        "undo",
        &reason,
        None,
        &Detail::default(),
        Some(action),
        now,
    )
    .await?;
    tx.commit().await.map_err(|e| internal(db::db_err(e)))?;
    if kind == Kind::MarkAssisted && !detail.tournaments.is_empty() {
        crate::tournament::disqualify(app, target, false)
            .await
            .map_err(internal)?;
    }
    Ok(id)
}

use sqlx::Row as _;
