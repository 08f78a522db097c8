//! The director: one task per running event, on the instance that holds the event's lease.
//!
//! Every step is stored before it is announced: the director decides an operation, inserts it
//! into `tournament_ops` under the next sequence number (the primary key refuses a second
//! writer), applies it to the event in memory, and only then opens the table, tells the
//! players or pushes the standings. A table is opened after its `open` operation is stored; on
//! a restart, a stored `open` whose table is missing is opened then (the table id is in the
//! operation, so it is opened once). Results are read from the finished tables' records in
//! `games`, so nothing is lost while no director runs.
//!
//! The lease: `tournaments.director` names the instance that directs the event until
//! `director_until` (milliseconds since the epoch); an instance takes an event whose lease has
//! run out (or is its own) with one conditional `UPDATE`, renews it every tick, and stops
//! directing as soon as a renewal fails. A single server is the instance `single`, so after a
//! kill -9 the restarted server takes its events back at once.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use fiveup_engine::Rules;
use fiveup_protocol::ServerMsg;
use fiveup_tournament::cutthroat::CutThroatOp;
use fiveup_tournament::swiss::SwissOp;
use fiveup_tournament::{arena, EntrantId};
use futures_util::StreamExt;

use super::event::{EntrantRow, Event, Fmt, Format, Live, MatchState, Member, Op, Settings};
use super::Note;
use crate::store::db;
use crate::table::actor;
use crate::table::{fairness, SeatSetup, TableConfig, TourTable};
use crate::App;

/// This instance's name for event leases.
fn me(app: &App) -> String {
    app.cfg
        .instance
        .clone()
        .unwrap_or_else(|| "single".to_string())
}

/// Start the scan that takes every event nobody directs.
pub fn start(app: &Arc<App>) {
    let app = app.clone();
    tokio::spawn(async move {
        let running: Arc<std::sync::Mutex<HashSet<String>>> = Arc::default();
        let mut shutdown = app.shutdown.clone();
        loop {
            if *shutdown.borrow() {
                return;
            }
            match claimable(&app).await {
                Ok(ids) => {
                    for id in ids {
                        if running.lock().expect("running lock").insert(id.clone()) {
                            let app = app.clone();
                            let running = running.clone();
                            tokio::spawn(async move {
                                if let Err(e) = direct(&app, &id).await {
                                    // Work cut short by the shutdown is stored and resumed
                                    // at the next start: not an error.
                                    if !*app.shutdown.borrow() {
                                        crate::log(&format!("tournament {id}: {e}"));
                                    }
                                }
                                running.lock().expect("running lock").remove(&id);
                            });
                        }
                    }
                }
                Err(e) if !*shutdown.borrow() => crate::log(&format!("tournaments: {e}")),
                Err(_) => return,
            }
            tokio::select! {
                () = tokio::time::sleep(app.cfg.tournament_tick) => {}
                () = app.tournaments.wake.notified() => {}
                _ = shutdown.changed() => {}
            }
        }
    });
}

/// Events not finished whose lease is free or this instance's.
async fn claimable(app: &App) -> Result<Vec<String>, String> {
    let rows = sqlx::query(
        "SELECT id FROM tournaments WHERE status <> 'finished' \
         AND (director = $1 OR director_until < $2)",
    )
    .bind(me(app))
    .bind(app.cfg.clock.now_ms())
    .fetch_all(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    rows.iter().map(|r| db::text(r, "id")).collect()
}

/// Take or renew the lease of an event; false if another instance holds it.
async fn lease(app: &App, id: &str) -> Result<bool, String> {
    let until = app.cfg.clock.now_ms() + app.cfg.lease.as_millis() as i64;
    let r = sqlx::query(
        "UPDATE tournaments SET director = $1, director_until = $2 \
         WHERE id = $3 AND (director = $1 OR director_until < $4)",
    )
    .bind(me(app))
    .bind(until)
    .bind(id)
    .bind(app.cfg.clock.now_ms())
    .execute(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    Ok(r.rows_affected() == 1)
}

/// An event's settings and stored operations, applied.
pub async fn load(app: &App, id: &str) -> Result<Option<Event>, String> {
    let Some(row) = sqlx::query("SELECT settings FROM tournaments WHERE id = $1")
        .bind(id)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(db::db_err)?
    else {
        return Ok(None);
    };
    let settings: Settings = serde_json::from_str(&db::text(&row, "settings")?)
        .map_err(|e| format!("bad settings: {e}"))?;
    let mut event = Event::new(id.to_string(), settings);
    let rows =
        sqlx::query("SELECT seq, body FROM tournament_ops WHERE tournament_id = $1 ORDER BY seq")
            .bind(id)
            .fetch_all(&app.db.pool)
            .await
            .map_err(db::db_err)?;
    for r in rows {
        let seq = db::int(&r, "seq")?;
        let op: Op = serde_json::from_str(&db::text(&r, "body")?)
            .map_err(|e| format!("operation {seq}: {e}"))?;
        if seq != event.ops.len() as i64 + 1 {
            return Err(format!("operation {seq} is out of order"));
        }
        event
            .apply(op)
            .map_err(|e| format!("operation {seq} does not apply: {e}"))?;
    }
    Ok(Some(event))
}

/// The registered entrants of an event, by number.
pub async fn entrants(app: &App, id: &str) -> Result<Vec<EntrantRow>, String> {
    let rows = sqlx::query(
        "SELECT entrant, body, withdrawn FROM tournament_entrants WHERE tournament_id = $1 \
         ORDER BY entrant",
    )
    .bind(id)
    .fetch_all(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    rows.iter()
        .map(|r| {
            let mut e: EntrantRow = serde_json::from_str(&db::text(r, "body")?)
                .map_err(|e| format!("bad entrant: {e}"))?;
            e.entrant.id = EntrantId(db::int(r, "entrant")? as u32);
            e.withdrawn = db::int(r, "withdrawn")? != 0;
            Ok(e)
        })
        .collect()
}

/// Direct one event until it is over or the lease is lost.
async fn direct(app: &Arc<App>, id: &str) -> Result<(), String> {
    if !lease(app, id).await? {
        return Ok(());
    }
    let Some(mut event) = load(app, id).await? else {
        return Ok(());
    };
    repair(app, &mut event).await?;
    let mut shutdown = app.shutdown.clone();
    loop {
        if event.finished {
            finish_row(app, &event).await?;
            return Ok(());
        }
        match step(app, &mut event).await {
            Ok(()) => {}
            Err(e) => {
                if *app.shutdown.borrow() {
                    return Ok(());
                }
                crate::log(&format!("tournament {id}: {e}"));
                // Start again from storage.
                match load(app, id).await? {
                    Some(e) => event = e,
                    None => return Ok(()),
                }
                if let Err(e) = repair(app, &mut event).await {
                    crate::log(&format!("tournament {id}: {e}"));
                }
            }
        }
        tokio::select! {
            () = tokio::time::sleep(app.cfg.tournament_tick) => {}
            () = app.tournaments.wake.notified() => {}
            _ = shutdown.changed() => {}
        }
        if *shutdown.borrow() {
            return Ok(());
        }
        if !lease(app, id).await? {
            return Ok(());
        }
    }
}

/// Open the tables whose `open` is stored but which were never written (the director stopped
/// in between): at the stored id, or, if that id cannot be taken, at a new one (`reopen`).
/// A table that exists is never opened again, so no game is played twice.
async fn repair(app: &Arc<App>, event: &mut Event) -> Result<(), String> {
    let members = member_map(&entrants(app, &event.id).await?);
    // The no-shows stored are counted and withdrawn (again: both are idempotent).
    for &(key, game, user, at_ms) in &event.no_shows {
        let table = event
            .games
            .get(&key)
            .and_then(|g| g.get(game as usize))
            .map(|g| g.table.clone())
            .unwrap_or_default();
        mark_no_show(app, &event.id, &table, user, at_ms).await?;
    }
    let mut missing = Vec::new();
    for (key, games) in &event.games {
        for (n, g) in games.iter().enumerate() {
            if g.result.is_none() {
                let exists = sqlx::query("SELECT id FROM game_tables WHERE id = $1")
                    .bind(g.table.as_str())
                    .fetch_optional(&app.db.pool)
                    .await
                    .map_err(db::db_err)?
                    .is_some();
                if !exists {
                    missing.push((*key, n as u32, g.table.clone()));
                }
            }
        }
    }
    for (key, game, table) in missing {
        let Some(l) = event.live().into_iter().find(|l| l.key == key) else {
            continue;
        };
        if open_table(app, event, &members, l, &table).await.is_err() {
            let table = crate::new_id();
            commit(
                app,
                event,
                Op::Reopen {
                    key,
                    game,
                    table: table.clone(),
                },
            )
            .await?;
            open_table(app, event, &members, l, &table).await?;
        }
    }
    Ok(())
}

fn member_map(rows: &[EntrantRow]) -> BTreeMap<EntrantId, Vec<Member>> {
    rows.iter()
        .map(|r| (r.entrant.id, r.members.clone()))
        .collect()
}

/// Store an operation, then apply it. A refused or unstorable operation changes nothing.
async fn commit(app: &App, event: &mut Event, op: Op) -> Result<(), String> {
    let mut check = event.clone();
    check.apply(op.clone())?;
    let seq = event.ops.len() as i64 + 1;
    sqlx::query("INSERT INTO tournament_ops (tournament_id, seq, body) VALUES ($1, $2, $3)")
        .bind(event.id.as_str())
        .bind(seq)
        .bind(serde_json::to_string(&op).expect("operations serialise"))
        .execute(&app.db.pool)
        .await
        .map_err(|e| format!("operation {seq} not stored: {}", db::db_err(e)))?;
    *event = check;
    Ok(())
}

/// Store several operations in one transaction, then apply them: all or none.
async fn commit_all(app: &App, event: &mut Event, ops: Vec<Op>) -> Result<(), String> {
    if ops.is_empty() {
        return Ok(());
    }
    let mut check = event.clone();
    for op in &ops {
        check.apply(op.clone())?;
    }
    let first = event.ops.len() as i64 + 1;
    let mut tx = app.db.pool.begin().await.map_err(db::db_err)?;
    for (i, op) in ops.iter().enumerate() {
        let seq = first + i as i64;
        sqlx::query("INSERT INTO tournament_ops (tournament_id, seq, body) VALUES ($1, $2, $3)")
            .bind(event.id.as_str())
            .bind(seq)
            .bind(serde_json::to_string(op).expect("operations serialise"))
            .execute(&mut *tx)
            .await
            .map_err(|e| format!("operation {seq} not stored: {}", db::db_err(e)))?;
    }
    tx.commit()
        .await
        .map_err(|e| format!("operations from {first} not stored: {}", db::db_err(e)))?;
    *event = check;
    Ok(())
}

/// Tables opened at once when a wave of matches starts.
const OPEN_AT_ONCE: usize = 16;

/// Give these matches their next game's table: every `open` stored first (in one
/// transaction), then the tables opened, several at a time. A table that fails to open is
/// opened by `repair` when the director starts again from storage.
async fn open_all(
    app: &Arc<App>,
    event: &mut Event,
    members: &BTreeMap<EntrantId, Vec<Member>>,
    opens: Vec<(Live, u32)>,
) -> Result<(), String> {
    if opens.is_empty() {
        return Ok(());
    }
    let tables: Vec<(Live, String)> = opens.iter().map(|(l, _)| (*l, crate::new_id())).collect();
    let ops = opens
        .iter()
        .zip(&tables)
        .map(|((l, game), (_, table))| Op::Open {
            key: l.key,
            game: *game,
            table: table.clone(),
        })
        .collect();
    commit_all(app, event, ops).await?;
    let event: &Event = event;
    let results: Vec<Result<(), String>> = futures_util::stream::iter(tables)
        .map(|(l, table)| async move { open_table(app, event, members, l, &table).await })
        .buffer_unordered(OPEN_AT_ONCE)
        .collect()
        .await;
    results.into_iter().collect()
}

/// One round of the director's work.
async fn step(app: &Arc<App>, event: &mut Event) -> Result<(), String> {
    // Before the start its creator may cancel the event (`api::cancel` stores the operation).
    if event.fmt.is_none() {
        if let Some(stored) = load(app, &event.id).await? {
            if stored.ops.len() > event.ops.len() {
                *event = stored;
            }
        }
        if event.finished {
            return Ok(());
        }
    }
    let before = event.ops.len();
    let rows = entrants(app, &event.id).await?;
    let now = app.cfg.clock.now_ms();
    if event.fmt.is_none() && event.boards.is_empty() {
        if let Some((boards, _)) = event.settings.format.duplicate() {
            // The boards are drawn first, so that their commitments are shown before the
            // start; the seeds stay in the log until the event is over.
            let seeds = (0..boards)
                .map(|_| fairness::to_hex(&fairness::random_bytes()))
                .collect();
            commit(app, event, Op::Boards { seeds }).await?;
        }
    }
    if event.fmt.is_none() {
        let daylong = matches!(event.settings.format, Format::Daylong { .. });
        let field: Vec<_> = rows
            .iter()
            .filter(|r| !r.withdrawn)
            .map(|r| r.entrant.clone())
            .collect();
        let s = &event.settings;
        let due = s.start_at.is_some_and(|t| t * 1000 <= now)
            || s.start_when.is_some_and(|n| field.len() >= n as usize)
            || (daylong && s.start_at.is_none() && s.start_when.is_none());
        if due {
            // A daylong opens whoever has joined: entrants come and play when they like.
            let start = Op::Start {
                at_ms: now,
                entrants: field.clone(),
            };
            // Fewer than two, or a field the format cannot take (a cut-throat field its
            // tables cannot seat): cancelled.
            if (field.len() < 2 && !daylong) || event.clone().apply(start).is_err() {
                commit(app, event, Op::Cancel).await?;
            } else {
                commit(
                    app,
                    event,
                    Op::Start {
                        at_ms: now,
                        entrants: field,
                    },
                )
                .await?;
                set_status(app, &event.id, "running").await?;
            }
        }
    }
    if event.fmt.is_some() && !event.finished {
        entries_and_withdrawals(app, event, &rows).await?;
        let members = member_map(&rows);
        let no_shows = event.no_shows.len();
        results(app, event).await?;
        // A person who did not come is withdrawn before anything is paired again: a no-show
        // whose game completes a round is not given the next round's table.
        if event.no_shows.len() > no_shows {
            let rows = entrants(app, &event.id).await?;
            entries_and_withdrawals(app, event, &rows).await?;
        }
        // Decided matches are recorded; the others get their next game's table.
        let mut opens = Vec::new();
        for l in event.live() {
            match event.match_state(l.key) {
                MatchState::Playing => {}
                MatchState::Over(result) => {
                    if let Some(op) = event.record_op(l.key, result, now) {
                        commit(app, event, op).await?;
                    }
                }
                MatchState::Open(game) => opens.push((l, game)),
            }
        }
        open_all(app, event, &members, opens).await?;
        advance(app, event, now).await?;
        // New pairings get their tables at once.
        if event.ops.len() > before && !event.finished {
            let opens: Vec<(Live, u32)> = event
                .live()
                .into_iter()
                .filter_map(|l| match event.match_state(l.key) {
                    MatchState::Open(game) => Some((l, game)),
                    _ => None,
                })
                .collect();
            open_all(app, event, &members, opens).await?;
        }
    }
    if event.finished {
        finish_row(app, event).await?;
    }
    if event.ops.len() > before || event.fmt.is_none() {
        let entrants = rows.iter().filter(|r| !r.withdrawn).count() as u32;
        app.tournaments.announce(event, entrants);
    }
    Ok(())
}

/// Late entries into a Swiss, and withdrawals (Swiss and arena), from the entrant rows.
async fn entries_and_withdrawals(
    app: &App,
    event: &mut Event,
    rows: &[EntrantRow],
) -> Result<(), String> {
    for r in rows {
        let in_field = event.field().iter().any(|e| e.id == r.entrant.id);
        match event.fmt.as_ref() {
            Some(Fmt::Swiss { swiss }) => {
                if !in_field && !r.withdrawn {
                    let op = Op::Swiss {
                        swiss: SwissOp::Enter(r.entrant.clone()),
                    };
                    if event.clone().apply(op.clone()).is_ok() {
                        commit(app, event, op).await?;
                    }
                } else if in_field && r.withdrawn {
                    let out = swiss
                        .standings()
                        .iter()
                        .any(|s| s.entrant == r.entrant.id && s.out);
                    if !out {
                        commit(
                            app,
                            event,
                            Op::Swiss {
                                swiss: SwissOp::Withdraw(r.entrant.id),
                            },
                        )
                        .await?;
                    }
                }
            }
            Some(Fmt::Duplicate { out, .. }) => {
                let op = if !in_field
                    && !r.withdrawn
                    && late_entry_open(event, app.cfg.clock.now_ms())
                {
                    Op::Enter {
                        entrant: r.entrant.clone(),
                    }
                } else if in_field && r.withdrawn && !out.contains(&r.entrant.id) {
                    Op::Withdraw {
                        entrant: r.entrant.id,
                    }
                } else {
                    continue;
                };
                if event.clone().apply(op.clone()).is_ok() {
                    commit(app, event, op).await?;
                }
            }
            // A cut-throat entrant who leaves is not seated again (refused, and nothing
            // stored, once out).
            Some(Fmt::CutThroat { .. }) if in_field && r.withdrawn => {
                let op = Op::CutThroat {
                    cut_throat: CutThroatOp::Withdraw(r.entrant.id),
                };
                if event.clone().apply(op.clone()).is_ok() {
                    commit(app, event, op).await?;
                }
            }
            // Leaving is refused (and nothing stored) once the entrant has left.
            Some(Fmt::Arena { .. }) if in_field && r.withdrawn => {
                let op = Op::Arena {
                    arena: arena::ArenaOp::Leave(r.entrant.id),
                };
                if event.clone().apply(op.clone()).is_ok() {
                    commit(app, event, op).await?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Read the results of the finished tables.
async fn results(app: &App, event: &mut Event) -> Result<(), String> {
    let open: Vec<(super::event::Key, u32, String)> = event
        .games
        .iter()
        .flat_map(|(k, gs)| {
            gs.iter()
                .enumerate()
                .filter(|(_, g)| g.result.is_none())
                .map(move |(n, g)| (*k, n as u32, g.table.clone()))
        })
        .collect();
    for (key, game, table) in open {
        let row = sqlx::query("SELECT winner, scores, seats FROM games WHERE id = $1")
            .bind(table.as_str())
            .fetch_optional(&app.db.pool)
            .await
            .map_err(db::db_err)?;
        let Some(row) = row else { continue };
        // A person who did not come is stored first (the game's result follows), then
        // withdrawn and counted.
        let absent = sqlx::query(
            "SELECT p.user_id FROM table_events e JOIN game_players p \
             ON p.game_id = e.table_id \
             WHERE e.table_id = $1 AND e.body LIKE '%\"t\":\"no_show\"%' \
             AND e.body LIKE '%\"seat\":' || CAST(p.seat AS TEXT) || '}%'",
        )
        .bind(table.as_str())
        .fetch_all(&app.db.pool)
        .await
        .map_err(db::db_err)?;
        for a in absent {
            let user = db::int(&a, "user_id")?;
            let stored = event
                .no_shows
                .iter()
                .any(|n| (n.0, n.1, n.2) == (key, game, user));
            if !stored {
                let at_ms = app.cfg.clock.now_ms();
                commit(
                    app,
                    event,
                    Op::NoShow {
                        key,
                        game,
                        user,
                        at_ms,
                    },
                )
                .await?;
                mark_no_show(app, &event.id, &table, user, at_ms).await?;
            }
        }
        let winner = db::int(&row, "winner")?;
        let mut scores: Vec<i64> = serde_json::from_str(&db::text(&row, "scores")?)
            .map_err(|e| format!("table {table}: bad scores: {e}"))?;
        if matches!(event.fmt, Some(Fmt::CutThroat { .. })) {
            let seats: Vec<fiveup_protocol::SeatInfo> =
                serde_json::from_str(&db::text(&row, "seats")?)
                    .map_err(|e| format!("table {table}: bad seats: {e}"))?;
            below_the_rest(&mut scores, &seats);
        }
        let points = [
            scores.first().copied().unwrap_or(0),
            scores.get(1).copied().unwrap_or(0),
        ];
        commit(
            app,
            event,
            Op::Game {
                key,
                game,
                a_won: winner == 0,
                points,
                // A cut-throat table's points are every seat's.
                scores: if matches!(event.fmt, Some(Fmt::CutThroat { .. })) {
                    scores
                } else {
                    Vec::new()
                },
            },
        )
        .await?;
    }
    Ok(())
}

/// A cut-throat table's points with each person who lost the game at once (a no-show, a
/// third strike, leaving: their seat `resigned`) placed below everyone else at the table: a
/// point under the lowest of the others, or their own if lower. The scores as they stood
/// would let a person who stopped playing while ahead keep their lead.
fn below_the_rest(scores: &mut [i64], seats: &[fiveup_protocol::SeatInfo]) {
    let out = |i: usize| {
        seats.get(i).is_some_and(|s| {
            s.resigned && matches!(s.occupant, fiveup_protocol::Occupant::Human { .. })
        })
    };
    let Some(lowest) = (0..scores.len())
        .filter(|&i| !out(i))
        .map(|i| scores[i])
        .min()
    else {
        return;
    };
    for (i, s) in scores.iter_mut().enumerate() {
        if out(i) {
            *s = (*s).min(lowest - 1);
        }
    }
}

/// Count a no-show against the person and withdraw them from the event (both idempotent:
/// repeated after a restart from the stored `no_show`).
async fn mark_no_show(
    app: &App,
    event: &str,
    table: &str,
    user: i64,
    at_ms: i64,
) -> Result<(), String> {
    sqlx::query(
        "INSERT INTO tournament_no_shows (tournament_id, table_id, user_id, at_ms) \
         VALUES ($1, $2, $3, $4) ON CONFLICT (table_id, user_id) DO NOTHING",
    )
    .bind(event)
    .bind(table)
    .bind(user)
    .bind(at_ms)
    .execute(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    sqlx::query(
        "UPDATE tournament_entrants SET withdrawn = 1 \
         WHERE tournament_id = $1 AND user_id = $2 AND withdrawn = 0",
    )
    .bind(event)
    .bind(user)
    .execute(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    app.tournaments.wake.notify_waiters();
    Ok(())
}

/// How long after a no-show a second one bars the person.
pub const NO_SHOW_WINDOW_MS: i64 = 7 * 86_400_000;
/// How long a repeat no-show bars the person from joining events.
pub const NO_SHOW_BAN_MS: i64 = 86_400_000;

/// Until when a person is barred from joining events (ms since the epoch): a day from a
/// second no-show within a week of the one before. No-shows are counted by event: missing
/// several games of one event is one no-show (the first).
pub async fn barred_until(app: &App, user: i64, now: i64) -> Result<Option<i64>, String> {
    let rows = sqlx::query(
        "SELECT MIN(at_ms) AS at_ms FROM tournament_no_shows WHERE user_id = $1 AND at_ms > $2 \
         GROUP BY tournament_id ORDER BY MIN(at_ms)",
    )
    .bind(user)
    .bind(now - NO_SHOW_WINDOW_MS - NO_SHOW_BAN_MS)
    .fetch_all(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    let times: Vec<i64> = rows
        .iter()
        .map(|r| db::int(r, "at_ms"))
        .collect::<Result<_, _>>()?;
    Ok(times
        .windows(2)
        .filter(|w| w[1] - w[0] <= NO_SHOW_WINDOW_MS)
        .map(|w| w[1] + NO_SHOW_BAN_MS)
        .filter(|&until| now < until)
        .max())
}

/// Pair the next round, pair the free arena players, or end the event.
async fn advance(app: &App, event: &mut Event, now: i64) -> Result<(), String> {
    let op = match event.fmt.as_ref() {
        None => None,
        Some(Fmt::Swiss { swiss }) => {
            let complete = swiss.rounds().last().is_none_or(|r| r.is_complete());
            if !complete {
                None
            } else if (swiss.rounds().len() as u32) < swiss.settings().rounds {
                Some(Op::Swiss {
                    swiss: SwissOp::PairRound,
                })
            } else {
                Some(Op::Finish { at_ms: now })
            }
        }
        Some(Fmt::Knockout { knockout }) => knockout.champion().map(|_| Op::Finish { at_ms: now }),
        Some(Fmt::RoundRobin { rr, .. }) => rr.is_finished().then_some(Op::Finish { at_ms: now }),
        Some(Fmt::CutThroat { ct, .. }) => {
            let complete = ct
                .rounds()
                .last()
                .is_none_or(|r| r.iter().all(|t| t.points.is_some()));
            if !complete {
                None
            } else if (ct.rounds().len() as u32) < ct.settings().rounds {
                Some(Op::CutThroat {
                    cut_throat: CutThroatOp::PairRound,
                })
            } else {
                Some(Op::Finish { at_ms: now })
            }
        }
        Some(Fmt::Duplicate { closed, .. }) => {
            let closes = event.closes_ms();
            if closes.is_some_and(|c| now >= c) && !closed {
                Some(Op::Close { at_ms: now })
            } else if event.live().is_empty() && (closes.is_none() || *closed) {
                Some(Op::Finish { at_ms: now })
            } else {
                None
            }
        }
        Some(Fmt::Arena { arena: a }) => {
            let t = event.elapsed(now);
            if t >= a.settings().duration_ms {
                event.live().is_empty().then_some(Op::Finish { at_ms: now })
            } else if !arena::pair_waiting(&a.waiting()).is_empty() {
                let last = a.matches().last().map_or(0, |m| m.started_ms);
                Some(Op::Arena {
                    arena: arena::ArenaOp::Pair(t.max(last)),
                })
            } else {
                None
            }
        }
    };
    if let Some(op) = op {
        commit(app, event, op).await?;
    }
    Ok(())
}

async fn set_status(app: &App, id: &str, status: &str) -> Result<(), String> {
    sqlx::query("UPDATE tournaments SET status = $1 WHERE id = $2")
        .bind(status)
        .bind(id)
        .execute(&app.db.pool)
        .await
        .map_err(db::db_err)?;
    Ok(())
}

async fn finish_row(app: &App, event: &Event) -> Result<(), String> {
    set_status(app, &event.id, "finished").await
}

/// Open the table of a live match's next game: side A at the even seats, side B at the odd
/// ones; people are seated at once, computer players are seat setups. The people seated are
/// told at once wherever they are.
async fn open_table(
    app: &Arc<App>,
    event: &Event,
    members: &BTreeMap<EntrantId, Vec<Member>>,
    live: Live,
    table: &str,
) -> Result<(), String> {
    // A cut-throat table seats its entrants in order, each for themselves.
    if let Some(Fmt::CutThroat { ct, .. }) = &event.fmt {
        let seated = ct
            .rounds()
            .get(live.key.0)
            .and_then(|r| r.get(live.key.1))
            .map(|t| t.seats.clone())
            .ok_or_else(|| format!("no cut-throat table {:?}", live.key))?;
        let rules = event.settings.rules_for(seated.len() as u8)?;
        let names = seated.iter().map(|id| entrant_name(event, *id)).collect();
        let cfg_tour = tour_table(event, None, names);
        let mut seats = Vec::new();
        let mut sits = Vec::new();
        for (seat, id) in seated.iter().enumerate() {
            match members.get(id).and_then(|m| m.first()).cloned() {
                Some(Member::User { user }) => {
                    sits.push((seat as u8, user));
                    seats.push(SeatSetup::Open);
                }
                Some(Member::Bot { level }) => seats.push(SeatSetup::Bot { level }),
                None => seats.push(SeatSetup::Bot {
                    level: "club".to_string(),
                }),
            }
        }
        return create_table(app, event, table, rules, seats, sits, cfg_tour).await;
    }
    let mut rules = Rules::parse(&event.settings.rules).map_err(|e| e.to_string())?;
    // A duplicate board is one hand (a tie for the higher score plays the board's next hand,
    // the same at every table), at the other seats the event's computer players.
    let board = match event.fmt {
        Some(Fmt::Duplicate { .. }) => {
            let seed = event
                .boards
                .get(live.key.0)
                .ok_or_else(|| format!("no board {}", live.key.0 + 1))?;
            rules.hand_limit = 1;
            Some(fairness::to_hex(seed))
        }
        _ => None,
    };
    let others = Member::Bot {
        level: if board.is_some() {
            event.settings.opponents().to_string()
        } else {
            "club".to_string()
        },
    };
    let sides = [
        members.get(&live.a).cloned().unwrap_or_default(),
        members.get(&live.b).cloned().unwrap_or_default(),
    ];
    let mut seats = Vec::new();
    let mut sits = Vec::new();
    // A computer seat of an entrant's side is recorded by the entrant's name; the event's
    // own computer players at a board's other seats keep the usual names.
    let mut names = Vec::new();
    for seat in 0..rules.players {
        let side = &sides[usize::from(seat % 2)];
        let entrant = [live.a, live.b][usize::from(seat % 2)];
        names.push(if side.get(usize::from(seat / 2)).is_some() {
            entrant_name(event, entrant)
        } else {
            String::new()
        });
        let member = side
            .get(usize::from(seat / 2))
            .cloned()
            .unwrap_or_else(|| others.clone());
        match member {
            Member::User { user } => {
                sits.push((seat, user));
                seats.push(SeatSetup::Open);
            }
            Member::Bot { level } => seats.push(SeatSetup::Bot { level }),
        }
    }
    let tour = tour_table(event, board, names);
    create_table(app, event, table, rules, seats, sits, tour).await
}

/// An entrant's name in the event (empty if it has none).
fn entrant_name(event: &Event, id: EntrantId) -> String {
    event
        .field()
        .iter()
        .find(|e| e.id == id)
        .map(|e| e.name.clone())
        .unwrap_or_default()
}

/// The tournament settings of an event's table; `names` names each seat's entrant, for the
/// record's computer players.
fn tour_table(event: &Event, board: Option<String>, names: Vec<String>) -> TourTable {
    TourTable {
        board,
        event: Some(event.id.clone()),
        no_show_ms: Some(event.settings.no_show_ms()),
        turn_ms: event.settings.turn_ms,
        match_ms: event.settings.match_clock_ms,
        owner: None,
        names,
    }
}

/// The account that created an event (whose share of the computer players' CPU its tables
/// take).
async fn creator_of(app: &App, event: &str) -> Result<Option<i64>, String> {
    sqlx::query("SELECT creator FROM tournaments WHERE id = $1")
        .bind(event)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(db::db_err)?
        .map(|r| db::int(&r, "creator"))
        .transpose()
}

/// Create a tournament table and tell the people seated at it.
async fn create_table(
    app: &Arc<App>,
    event: &Event,
    table: &str,
    rules: Rules,
    seats: Vec<SeatSetup>,
    sits: Vec<(u8, fiveup_protocol::UserRef)>,
    mut tour: TourTable,
) -> Result<(), String> {
    tour.owner = creator_of(app, &event.id).await?;
    let cfg = TableConfig {
        id: table.to_string(),
        rules,
        seats,
        creator: None,
        unlisted: true,
        created_at: app.cfg.clock.now(),
        request: None,
        hints: false,
        // Tournament games are played live.
        correspondence: None,
        tournament: Some(tour),
    };
    let users: Vec<i64> = sits.iter().map(|(_, u)| u.id).collect();
    actor::create(app, cfg, sits)
        .await
        .map_err(|e| format!("table {table} not opened: {}", e.message))?;
    if !users.is_empty() {
        let text = crate::to_json(&ServerMsg::TournamentTable {
            tournament: event.id.clone(),
            name: event.settings.name.clone(),
            table: table.to_string(),
        });
        let _ = app.tournaments.notes.send(Note::Table {
            users: users.into(),
            text,
        });
    }
    Ok(())
}

/// Whether the event's format takes late entries at `now_ms`.
#[must_use]
pub fn late_entry_open(event: &Event, now_ms: i64) -> bool {
    match (&event.fmt, event.settings.format) {
        (None, _) => !event.finished,
        (Some(Fmt::Swiss { swiss }), Format::Swiss { rounds }) => {
            !event.finished && 2 * (swiss.rounds().len() as u32) < rounds
        }
        // A daylong takes entries until it closes.
        (Some(Fmt::Duplicate { closed, .. }), Format::Daylong { .. }) => {
            !event.finished && !closed && event.closes_ms().is_some_and(|c| now_ms < c)
        }
        _ => false,
    }
}
