//! Rating farms: two accounts (often one person's) playing each other to move a rating.
//!
//! The games concern already counts rated games between the same two accounts at most
//! [`crate::games::pool::RATED_PER_PAIR_PER_DAY`] times a day. Here, after each rated game,
//! its pairs are looked at and flagged for the moderators when:
//! * **lopsided and repeated**: at least [`LOPSIDED_GAMES`] rated games between the two in
//!   [`LOOK_BACK_DAYS`] days, one side winning at least [`LOPSIDED_SHARE`] of them (the
//!   winner is flagged, the loser named in the evidence);
//! * **one address, only each other**: the two were seen from the same address and at least
//!   [`ONLY_EACH_OTHER_SHARE`] of either one's rated games in the period (at least
//!   [`LOPSIDED_GAMES`]) were against the other (both are flagged).

use std::collections::BTreeMap;

use super::refund::StoredResult;
use crate::store::db;
use crate::App;

/// Days looked back.
pub const LOOK_BACK_DAYS: i64 = 7;
/// Rated games between a pair before a pattern counts.
pub const LOPSIDED_GAMES: usize = 6;
/// The share of those one side must win.
pub const LOPSIDED_SHARE: f64 = 0.85;
/// The share of an account's rated games against one other account from its address.
pub const ONLY_EACH_OTHER_SHARE: f64 = 0.9;

/// Put (or refresh) an automatic flag (`kind`: `flag-assist` or `flag-farm`) on `user`,
/// reported by the server itself, with `strength` for the queue's order and `body` as
/// evidence.
pub async fn flag(
    app: &App,
    user: i64,
    kind: &str,
    reason: &str,
    strength: f64,
    body: &str,
) -> Result<(), String> {
    let open = sqlx::query(
        "SELECT id FROM reports WHERE kind = $1 AND reporter_id = $2 AND target_id = $3 \
         AND closed_at IS NULL",
    )
    .bind(kind)
    .bind(super::SYSTEM)
    .bind(user)
    .fetch_optional(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    if let Some(r) = open {
        sqlx::query("UPDATE reports SET strength = $1, body = $2 WHERE id = $3")
            .bind(strength)
            .bind(body)
            .bind(db::int(&r, "id")?)
            .execute(&app.db.pool)
            .await
            .map_err(db::db_err)?;
        return Ok(());
    }
    let r = sqlx::query(
        "INSERT INTO reports (kind, reporter_id, target_id, reason, body, strength, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(kind)
    .bind(super::SYSTEM)
    .bind(user)
    .bind(reason)
    .bind(body)
    .bind(strength)
    .bind(crate::now())
    .execute(&app.db.pool)
    .await;
    match r {
        Ok(_) => Ok(()),
        // Another instance flagged the account at the same moment.
        Err(e) if e.to_string().to_lowercase().contains("unique") => Ok(()),
        Err(e) => Err(db::db_err(e)),
    }
}

/// One account's rated games of the period: per opponent, (games, wins, losses).
async fn record_against(
    app: &App,
    user: i64,
    since: i64,
) -> Result<(usize, BTreeMap<i64, (usize, usize, usize)>), String> {
    let rows = sqlx::query("SELECT results FROM rating_changes WHERE user_id = $1 AND at >= $2")
        .bind(user)
        .bind(since)
        .fetch_all(&app.db.pool)
        .await
        .map_err(db::db_err)?;
    let mut per: BTreeMap<i64, (usize, usize, usize)> = BTreeMap::new();
    for r in &rows {
        let results: Vec<StoredResult> = serde_json::from_str(&db::text(r, "results")?)
            .map_err(|e| format!("stored results: {e}"))?;
        for x in results {
            let e = per.entry(x.opponent).or_default();
            e.0 += 1;
            if x.score > 0.75 {
                e.1 += 1;
            } else if x.score < 0.25 {
                e.2 += 1;
            }
        }
    }
    Ok((rows.len(), per))
}

/// Look at the pairs of a rated game that just ended.
pub async fn check_game(app: &App, game: &str) -> Result<(), String> {
    let rows = sqlx::query("SELECT user_id, results FROM rating_changes WHERE game_id = $1")
        .bind(game)
        .fetch_all(&app.db.pool)
        .await
        .map_err(db::db_err)?;
    let since = app.cfg.clock.now_ms() / 1000 - LOOK_BACK_DAYS * 86_400;
    for r in &rows {
        let user = db::int(r, "user_id")?;
        let results: Vec<StoredResult> = serde_json::from_str(&db::text(r, "results")?)
            .map_err(|e| format!("stored results: {e}"))?;
        let (total, per) = record_against(app, user, since).await?;
        for x in &results {
            let Some(&(games, wins, losses)) = per.get(&x.opponent) else {
                continue;
            };
            let name = name_of(app, x.opponent).await?;
            if games >= LOPSIDED_GAMES && wins as f64 >= LOPSIDED_SHARE * games as f64 {
                let body = format!(
                    "won {wins} of {games} rated games against {name} (id {}) in \
                     {LOOK_BACK_DAYS} days ({losses} lost)",
                    x.opponent
                );
                flag(
                    app,
                    user,
                    "flag-farm",
                    "rating-manipulation",
                    wins as f64,
                    &body,
                )
                .await?;
            }
            if total >= LOPSIDED_GAMES
                && games as f64 >= ONLY_EACH_OTHER_SHARE * total as f64
                && same_address(app, user, x.opponent).await?
            {
                let body = format!(
                    "{games} of their {total} rated games in {LOOK_BACK_DAYS} days were against \
                     {name} (id {}), seen from the same address",
                    x.opponent
                );
                flag(
                    app,
                    user,
                    "flag-farm",
                    "rating-manipulation",
                    games as f64,
                    &body,
                )
                .await?;
            }
        }
    }
    Ok(())
}

async fn name_of(app: &App, user: i64) -> Result<String, String> {
    let r = sqlx::query("SELECT name FROM users WHERE id = $1")
        .bind(user)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(db::db_err)?;
    Ok(r.and_then(|r| db::text(&r, "name").ok())
        .unwrap_or_else(|| format!("user {user}")))
}

/// Whether two accounts were seen from one address.
pub async fn same_address(app: &App, a: i64, b: i64) -> Result<bool, String> {
    let r = sqlx::query(
        "SELECT x.address FROM user_addresses x JOIN user_addresses y ON x.address = y.address \
         WHERE x.user_id = $1 AND y.user_id = $2 LIMIT 1",
    )
    .bind(a)
    .bind(b)
    .fetch_optional(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    Ok(r.is_some())
}
