//! Housekeeping every minute: expired sessions are deleted, guests nobody can use any more (no
//! session, no game, older than [`crate::Config::guest_expiry`]) are deleted, and waiting
//! tables nobody changed or followed for [`crate::Config::waiting_expiry`] are closed.

use std::sync::Arc;
use std::time::Duration;

use crate::store::db;
use crate::table::actor;
use crate::App;

/// How often the janitor runs.
const EVERY: Duration = Duration::from_secs(60);

/// Start the janitor; it stops with the server.
pub fn start(app: &Arc<App>) {
    let app = app.clone();
    tokio::spawn(async move {
        let mut stop = app.shutdown.clone();
        loop {
            tokio::select! {
                () = tokio::time::sleep(EVERY) => {}
                _ = stop.wait_for(|s| *s) => return,
            }
            if let Err(e) = sweep(&app).await {
                crate::log(&format!("housekeeping failed: {e}"));
            }
        }
    });
}

/// One round of housekeeping; returns (sessions, guests) deleted.
pub async fn sweep(app: &Arc<App>) -> Result<(u64, u64), String> {
    let now = crate::now();
    let sessions = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
        .bind(now)
        .execute(&app.db.pool)
        .await
        .map_err(db::db_err)?
        .rows_affected();
    let before = now - i64::try_from(app.cfg.guest_expiry.as_secs()).unwrap_or(i64::MAX);
    let guests = sqlx::query(
        "DELETE FROM users WHERE registered = 0 AND created_at < $1 \
         AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = users.id) \
         AND NOT EXISTS (SELECT 1 FROM game_players g WHERE g.user_id = users.id)",
    )
    .bind(before)
    .execute(&app.db.pool)
    .await
    .map_err(db::db_err)?
    .rows_affected();
    actor::expire_waiting(app, app.cfg.waiting_expiry).await;
    Ok((sessions, guests))
}
