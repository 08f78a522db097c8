//! The one rule for a duplicate board: **hidden until you have played it or the event has
//! ended.** Every table of a board is dealt the same deal, so anything that shows one table of
//! a board (its table over the websocket, its seeds and proofs, its game, record and review,
//! its score in a profile or in the table's listing) gives that deal away to an entrant still
//! to play it. Every route asks [`visible`] (or [`hidden_among`] for a list), so the rule is
//! written once.

use std::collections::BTreeSet;

use crate::store::db;
use crate::table::{TableConfig, TourTable};
use crate::App;

/// The event and board a table belongs to, if it is a duplicate board's table.
async fn board_of(app: &App, table: &str) -> Result<Option<String>, String> {
    let Some(row) = sqlx::query("SELECT config FROM game_tables WHERE id = $1")
        .bind(table)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(db::db_err)?
    else {
        return Ok(None);
    };
    let config = db::text(&row, "config")?;
    Ok(event_of_config(&config))
}

/// The event of a stored table configuration, if the table is a duplicate board's.
fn event_of_config(config: &str) -> Option<String> {
    let cfg: TableConfig = serde_json::from_str(config).ok()?;
    match cfg.tournament {
        Some(TourTable {
            board: Some(_),
            event: Some(event),
            ..
        }) => Some(event),
        _ => None,
    }
}

/// Whether `viewer` (a user id, or `None` for someone not logged in) may see the table or
/// game `table`: any table that is not a duplicate board's; a board's once its event has
/// ended; otherwise only for an entrant who played at that table or has finished the same
/// board at a table of their own.
pub async fn visible(app: &App, table: &str, viewer: Option<i64>) -> Result<bool, String> {
    match board_of(app, table).await? {
        None => Ok(true),
        Some(event) => visible_on_board(app, &event, table, viewer).await,
    }
}

async fn visible_on_board(
    app: &App,
    event: &str,
    table: &str,
    viewer: Option<i64>,
) -> Result<bool, String> {
    let status = sqlx::query("SELECT status FROM tournaments WHERE id = $1")
        .bind(event)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(db::db_err)?
        .map(|r| db::text(&r, "status"))
        .transpose()?;
    if status.as_deref() == Some("finished") {
        return Ok(true);
    }
    let Some(user) = viewer else {
        return Ok(false);
    };
    let Some(ev) = super::director::load(app, event).await? else {
        return Ok(false);
    };
    let mine: BTreeSet<usize> = super::director::entrants(app, event)
        .await?
        .iter()
        .filter(|r| r.members.iter().any(|m| m.user_id() == Some(user)))
        .map(|r| r.entrant.id.0 as usize)
        .collect();
    // A board's games are kept by (board, entrant).
    let Some(&(board, entrant)) = ev
        .games
        .iter()
        .find(|(_, gs)| gs.iter().any(|g| g.table == table))
        .map(|(k, _)| k)
    else {
        return Ok(false);
    };
    if mine.contains(&entrant) {
        return Ok(true);
    }
    let scores = ev.board_scores();
    Ok(scores
        .get(board)
        .is_some_and(|b| b.scores.iter().any(|(e, _)| mine.contains(&(e.0 as usize)))))
}

/// Which of these tables or games `viewer` may not see (the rule of [`visible`]), read with
/// one query for the whole list.
pub async fn hidden_among(
    app: &App,
    tables: &[String],
    viewer: Option<i64>,
) -> Result<BTreeSet<String>, String> {
    let mut out = BTreeSet::new();
    if tables.is_empty() {
        return Ok(out);
    }
    // One query for the list: only boards' tables are then looked at closely.
    let marks: Vec<String> = (1..=tables.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT id, config FROM game_tables WHERE id IN ({}) AND config LIKE '%\"board\"%'",
        marks.join(", ")
    );
    let mut q = sqlx::query(&sql);
    for t in tables {
        q = q.bind(t.as_str());
    }
    let mut boards = Vec::new();
    for r in q.fetch_all(&app.db.pool).await.map_err(db::db_err)? {
        if let Some(event) = event_of_config(&db::text(&r, "config")?) {
            boards.push((db::text(&r, "id")?, event));
        }
    }
    for (t, event) in boards {
        if !visible_on_board(app, &event, &t, viewer).await? {
            out.insert(t);
        }
    }
    Ok(out)
}
