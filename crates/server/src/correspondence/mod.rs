//! Correspondence play: tables with a time per move counted in hours and days, played a move
//! at a time over many games at once, with Web Push notifications (see
//! `docs/correspondence.md`).
//!
//! - [`clock`]: deadlines (weekends skipped at "no weekends" tables), reminders and vacation
//!   days as pure functions of an injected [`Clock`];
//! - [`push`]: the VAPID key, subscriptions, and sending encrypted messages;
//! - [`delivery`]: sending the queued messages, concurrently, apart from the timers;
//! - [`api`]: the HTTP routes (push key and subscriptions, "My games");
//! - [`mute`]: muting another player's chat.
//!
//! Timers are rows (`corr_timers`), one per table version and kind: the move's deadline, the
//! reminders 24 hours and 1 hour before it, the "your turn" notice and the "game over"
//! notices. A row is written when the table reaches that version (by the table's task, see
//! [`on_change`]) and fired once by the scheduler ([`start`]) when due: a notice is claimed by
//! a conditional `UPDATE ... WHERE fired_at IS NULL` in the same transaction that queues its
//! message in `push_outbox`, so it fires once across restarts and instances; a deadline is
//! handed to the task running the table (the instance holding its lease), which times the
//! seat out only if the table still stands at that version, and is marked fired after that
//! change is stored. A process killed between the two sends the deadline again on its next
//! start, and the table, having moved on, ignores it.

pub mod api;
pub mod clock;
pub mod delivery;
pub mod mute;
pub mod push;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use fiveup_protocol::{Occupant, TableStatus};
use sqlx::Row as _;

pub use clock::Clock;

use crate::store::db;
use crate::table::actor::{self, Found, TableCmd};
use crate::table::{SeatSetup, Stored, TableConfig, TableCore};
use crate::App;

pub use crate::table::{corr_spec_of as spec_of, spec_from_config, CorrSettings};

/// A correspondence table's settings from a creation request, checked.
pub fn settings_from_spec(
    spec: &fiveup_protocol::CorrespondenceSpec,
) -> Result<CorrSettings, String> {
    let per_move = i64::from(spec.per_move_hours) * clock::HOUR;
    if !clock::PER_MOVE.contains(&per_move) {
        return Err(format!(
            "per_move_hours {} is not offered: 6, 24, 48, 72, 120 or 168",
            spec.per_move_hours
        ));
    }
    Ok(CorrSettings {
        per_move,
        no_weekends: spec.no_weekends,
        vacation: spec.vacation,
    })
}

/// Server-wide settings of correspondence play.
#[derive(Clone, Debug)]
pub struct Settings {
    /// How often the scheduler looks for due timers and messages to send.
    pub tick: Duration,
    /// Vacation days each person has per calendar year.
    pub vacation_days: u32,
    /// The operator's contact named in VAPID tokens (`mailto:` or `https:`).
    pub contact: String,
    /// Open correspondence games a person may have with no game finished; each finished
    /// correspondence game allows one more.
    pub open_games: i64,
    /// How long a push service may take to answer (connecting takes at most
    /// [`push::CONNECT_TIMEOUT`] of it).
    pub push_timeout: Duration,
    /// Tests only (no flag or configuration file sets it): push endpoints may also be `http://`
    /// or `https://` to a loopback address, as the tests' push receivers are. Otherwise only
    /// `https://` to public addresses is accepted and connected to (see [`push::check`]).
    pub push_loopback: bool,
    /// "Your turn" notices per game: at most one per this many seconds.
    pub turn_interval: i64,
    /// Tests only (no flag or configuration file sets it): end the process at this point, as
    /// a SIGKILL there would, so that a test can check what the next start recovers.
    pub crash_at: Option<CrashAt>,
}

/// Where a test has the process end (see [`Settings::crash_at`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CrashAt {
    /// After a move is stored and before its timers are written.
    MoveStored,
    /// After a timeout is stored by the table and before the scheduler marks its deadline
    /// fired.
    TimeoutStored,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            tick: Duration::from_secs(5),
            vacation_days: 14,
            contact: "mailto:admin@localhost".to_string(),
            open_games: 20,
            push_timeout: Duration::from_secs(10),
            push_loopback: false,
            turn_interval: clock::HOUR,
            crash_at: None,
        }
    }
}

/// What the server holds for correspondence play.
#[derive(Debug)]
pub struct Corr {
    /// The VAPID key.
    pub vapid: push::Vapid,
    /// The client for push services.
    pub client: push::PushClient,
    /// Messages sent to push services and accepted (for `/metrics` and tests).
    pub delivered: std::sync::atomic::AtomicU64,
    /// The deliveries under way and their limits.
    pub deliveries: delivery::Deliveries,
}

impl Corr {
    /// The VAPID key (made and stored on the first start) and the push client.
    pub async fn new(db: &db::Db, settings: &Settings) -> Result<Corr, String> {
        Ok(Corr {
            vapid: push::Vapid::load_or_make(db).await?,
            client: push::client(settings.push_loopback),
            delivered: std::sync::atomic::AtomicU64::new(0),
            deliveries: delivery::Deliveries::default(),
        })
    }
}

fn settings(app: &App) -> &Settings {
    &app.cfg.correspondence
}

/// The correspondence concern at the table runtime: a move's start and a timeout's count are
/// stored with the table's change, and after each change the table's players and timers are
/// kept in step with it.
#[derive(Debug)]
pub struct Clocks;

impl crate::table::hooks::Concern for Clocks {
    fn name(&self) -> &'static str {
        "correspondence"
    }

    fn stored_with(&self, app: &App, core: &TableCore, changes: &[Stored]) -> Vec<db::WriteOp> {
        stored_with(app, core, changes)
    }

    fn on_event<'a>(
        &'a self,
        app: &'a Arc<App>,
        core: &'a TableCore,
        event: crate::table::hooks::TableEvent,
    ) -> futures_util::future::BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            if event == crate::table::hooks::TableEvent::Changed {
                on_change(app, core).await;
            }
            Ok(())
        })
    }
}

/// After every change of a table (called by its task): at a correspondence table, keep its
/// players and timers in step with it. Timer rows are keyed by the table's version, so doing
/// this again (after a restart) writes nothing new.
pub async fn on_change(app: &Arc<App>, core: &TableCore) {
    let Some(cs) = core.cfg.correspondence else {
        return;
    };
    if settings(app).crash_at == Some(CrashAt::MoveStored) && moved_since_timers(app, core).await {
        std::process::abort();
    }
    if let Err(e) = sync(app, core, cs).await {
        crate::log(&format!(
            "table {}: correspondence timers: {e}",
            core.cfg.id
        ));
    }
}

/// What a correspondence table stores with each of its changes, in the same transaction: when
/// the move that the change begins started (so that a restart resumes that move's clock), and
/// each timeout counted against its person (so that a timeout stored is a timeout counted).
pub fn stored_with(app: &App, core: &TableCore, changes: &[Stored]) -> Vec<db::WriteOp> {
    if core.cfg.correspondence.is_none() {
        return Vec::new();
    }
    let at = app.cfg.clock.now();
    let mut ops = vec![db::WriteOp::TurnStart {
        table: core.cfg.id.clone(),
        version: core.version,
        at,
    }];
    for ch in changes {
        if let Stored::Timeout { seat } = ch {
            if let Some(Occupant::Human { user }) =
                core.seats.get(*seat as usize).map(|s| &s.occupant)
            {
                ops.push(db::WriteOp::Timeout {
                    table: core.cfg.id.clone(),
                    user: user.id,
                    at,
                });
            }
        }
    }
    ops
}

/// When the move that began at `version` started, as stored with the change.
async fn turn_started(app: &App, table: &str, version: i64) -> Result<Option<i64>, String> {
    let r = sqlx::query("SELECT started_at FROM corr_turns WHERE table_id = $1 AND version = $2")
        .bind(table)
        .bind(version)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(db::db_err)?;
    r.map(|r| db::int(&r, "started_at")).transpose()
}

/// Whether the table has moved on from the version of its waiting deadline (a test's crash
/// point: a move stored, its timers not yet written).
async fn moved_since_timers(app: &App, core: &TableCore) -> bool {
    core.status == TableStatus::Playing
        && sqlx::query(
            "SELECT id FROM corr_timers WHERE table_id = $1 AND kind = 'deadline' \
             AND fired_at IS NULL AND version < $2",
        )
        .bind(core.cfg.id.as_str())
        .bind(core.version as i64)
        .fetch_optional(&app.db.pool)
        .await
        .ok()
        .flatten()
        .is_some()
}

async fn sync(app: &Arc<App>, core: &TableCore, cs: CorrSettings) -> Result<(), String> {
    let id = core.cfg.id.as_str();
    let version = core.version as i64;
    let now = app.cfg.clock.now();
    let pool = &app.db.pool;
    if core.status != TableStatus::Playing {
        // The players (they change before the start only).
        let mut tx = pool.begin().await.map_err(db::db_err)?;
        sqlx::query("DELETE FROM corr_players WHERE table_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(db::db_err)?;
        for (seat, s) in core.seats.iter().enumerate() {
            if let Occupant::Human { user } = &s.occupant {
                sqlx::query(
                    "INSERT INTO corr_players (table_id, seat, user_id, finished) \
                     VALUES ($1, $2, $3, $4)",
                )
                .bind(id)
                .bind(seat as i64)
                .bind(user.id)
                .bind(i64::from(core.status == TableStatus::Finished))
                .execute(&mut *tx)
                .await
                .map_err(db::db_err)?;
            }
        }
        tx.commit().await.map_err(db::db_err)?;
    }
    // Timers of earlier versions that did not fire are moot now, as are the start times of
    // earlier moves.
    sqlx::query(
        "DELETE FROM corr_timers WHERE table_id = $1 AND version < $2 AND fired_at IS NULL \
         AND kind <> 'over'",
    )
    .bind(id)
    .bind(version)
    .execute(pool)
    .await
    .map_err(db::db_err)?;
    sqlx::query("DELETE FROM corr_turns WHERE table_id = $1 AND version < $2")
        .bind(id)
        .bind(version)
        .execute(pool)
        .await
        .map_err(db::db_err)?;
    if core.status == TableStatus::Finished {
        // No move waits any more.
        sqlx::query("DELETE FROM corr_turns WHERE table_id = $1")
            .bind(id)
            .execute(pool)
            .await
            .map_err(db::db_err)?;
        for (seat, s) in core.seats.iter().enumerate() {
            if let Occupant::Human { user } = &s.occupant {
                insert_timer(app, id, version, &format!("over{seat}"), seat, user.id, now).await?;
            }
        }
        return Ok(());
    }
    let Some(seat) = core.to_move() else {
        return Ok(());
    };
    if core.computer_plays(seat) {
        return Ok(());
    }
    let Occupant::Human { user } = &core.seats[seat as usize].occupant else {
        return Ok(());
    };
    // The move's clock runs from the change that made it this person's move, as stored with
    // that change: timers first written after a restart do not start it again.
    let started = turn_started(app, id, version).await?.unwrap_or(now);
    let due = clock::deadline(started, cs.per_move, cs.no_weekends);
    let fresh = insert_timer(app, id, version, "deadline", seat as usize, user.id, due).await?;
    if !fresh {
        // Set before (this version was reached before a restart): keep its times.
        return Ok(());
    }
    for (kind, at) in clock::reminders(started, due, cs.per_move, cs.no_weekends) {
        insert_timer(app, id, version, kind, seat as usize, user.id, at).await?;
    }
    // "Your turn": at most one per game per interval (held back, not dropped).
    let last = sqlx::query(
        "SELECT MAX(fired_at) AS last FROM corr_timers WHERE table_id = $1 AND user_id = $2 \
         AND kind = 'turn' AND fired_at IS NOT NULL",
    )
    .bind(id)
    .bind(user.id)
    .fetch_one(pool)
    .await
    .map_err(db::db_err)?;
    let last: Option<i64> = last.try_get("last").ok().flatten();
    let at = last.map_or(now, |l| now.max(l + settings(app).turn_interval));
    // A turn notice still waiting for this person at this table covers this one.
    let waiting = sqlx::query(
        "SELECT id FROM corr_timers WHERE table_id = $1 AND user_id = $2 AND kind = 'turn' \
         AND fired_at IS NULL",
    )
    .bind(id)
    .bind(user.id)
    .fetch_optional(pool)
    .await
    .map_err(db::db_err)?;
    if waiting.is_none() {
        insert_timer(app, id, version, "turn", seat as usize, user.id, at).await?;
    }
    Ok(())
}

/// Write a timer row unless one exists for this table, version and kind; whether it was new.
async fn insert_timer(
    app: &App,
    table: &str,
    version: i64,
    kind: &str,
    seat: usize,
    user: i64,
    due: i64,
) -> Result<bool, String> {
    let r = sqlx::query(
        "INSERT INTO corr_timers (table_id, version, kind, seat, user_id, due_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (table_id, version, kind) DO NOTHING",
    )
    .bind(table)
    .bind(version)
    .bind(kind)
    .bind(seat as i64)
    .bind(user)
    .bind(due)
    .execute(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    Ok(r.rows_affected() == 1)
}

/// Start the scheduler: every tick it fires the due timers; the queued messages are sent by a
/// task of their own ([`delivery::start`]), so that no push service, however slow, holds up a
/// deadline.
pub fn start(app: &Arc<App>) {
    delivery::start(app);
    let app = app.clone();
    tokio::spawn(async move {
        repair(&app).await;
        let mut shutdown = app.shutdown.clone();
        let mut last_sweep: Option<i64> = None;
        loop {
            tokio::select! {
                () = tokio::time::sleep(settings(&app).tick) => {}
                _ = shutdown.changed() => return,
            }
            if *shutdown.borrow() {
                return;
            }
            // Work cut short by the server's shutdown (its database closing) is not an error:
            // it is all stored, and the next start carries on.
            if let Err(e) = fire_due(&app).await {
                if !*shutdown.borrow() {
                    crate::log(&format!("correspondence timers: {e}"));
                }
            }
            let now = app.cfg.clock.now();
            if last_sweep.is_none_or(|l| now - l >= clock::HOUR) {
                last_sweep = Some(now);
                let _ = sqlx::query("DELETE FROM push_subscriptions WHERE renewed_at < $1")
                    .bind(now - 30 * clock::DAY)
                    .execute(&app.db.pool)
                    .await;
            }
        }
    });
}

/// Correspondence games in play with no timer waiting at the table's version (the process
/// stopped between a change and its timers, during a deal's seed wait, or with a computer
/// player to move; timers of the version before may still wait): loaded once, so that their
/// task carries on and sets the timers (from the move's stored start, see [`stored_with`]).
async fn repair(app: &Arc<App>) {
    let rows = sqlx::query(
        "SELECT g.id AS id FROM game_tables g WHERE g.status IN ('playing', 'dealing') \
         AND g.config LIKE '%\"correspondence\"%' \
         AND NOT EXISTS (SELECT 1 FROM corr_timers t WHERE t.table_id = g.id \
         AND t.fired_at IS NULL AND t.version = \
         (SELECT MAX(e.seq) FROM table_events e WHERE e.table_id = g.id))",
    )
    .fetch_all(&app.db.pool)
    .await;
    for r in rows.unwrap_or_default() {
        if let Ok(id) = db::text(&r, "id") {
            if let Ok(Found::Local(h)) = actor::find(app, &id).await {
                let (reply, wait) = tokio::sync::oneshot::channel();
                let _ = h.tx.send(TableCmd::Info { user: None, reply }).await;
                let _ = wait.await;
            }
        }
    }
}

struct Due {
    id: i64,
    table: String,
    version: i64,
    kind: String,
    seat: i64,
    user: i64,
    due: i64,
}

/// Fire every due timer.
pub async fn fire_due(app: &Arc<App>) -> Result<(), String> {
    let now = app.cfg.clock.now();
    let rows = sqlx::query(
        "SELECT id, table_id, version, kind, seat, user_id, due_at FROM corr_timers \
         WHERE fired_at IS NULL AND due_at <= $1 ORDER BY due_at, id LIMIT 1000",
    )
    .bind(now)
    .fetch_all(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    let mut due = Vec::new();
    for r in &rows {
        due.push(Due {
            id: db::int(r, "id")?,
            table: db::text(r, "table_id")?,
            version: db::int(r, "version")?,
            kind: db::text(r, "kind")?,
            seat: db::int(r, "seat")?,
            user: db::int(r, "user_id")?,
            due: db::int(r, "due_at")?,
        });
    }
    // "Your turn" notices due together for one person go out as one message.
    // A timer that fails (its table cannot be loaded, say) is logged and tried again at the
    // next tick; the others go on.
    let mut turns: BTreeMap<i64, Vec<Due>> = BTreeMap::new();
    for d in due {
        let r = match d.kind.as_str() {
            "deadline" => deadline(app, &d, now).await,
            "turn" => {
                turns.entry(d.user).or_default().push(d);
                continue;
            }
            _ => notice(app, vec![d], now).await,
        };
        if let Err(e) = r {
            crate::log(&format!("a correspondence timer: {e}"));
        }
    }
    for (_, ds) in turns {
        if let Err(e) = notice(app, ds, now).await {
            crate::log(&format!("a correspondence notice: {e}"));
        }
    }
    Ok(())
}

/// A table's stored settings.
async fn table_config(app: &App, table: &str) -> Result<TableConfig, String> {
    let row = sqlx::query("SELECT config FROM game_tables WHERE id = $1")
        .bind(table)
        .fetch_one(&app.db.pool)
        .await
        .map_err(db::db_err)?;
    serde_json::from_str(&db::text(&row, "config")?).map_err(|e| e.to_string())
}

/// A move's time is up: a vacation day if one may be used, else a timeout.
async fn deadline(app: &Arc<App>, d: &Due, now: i64) -> Result<(), String> {
    let cfg = table_config(app, &d.table).await?;
    let Some(cs) = cfg.correspondence else {
        return Ok(());
    };
    let year = clock::year(d.due);
    let used = sqlx::query("SELECT days FROM corr_vacation WHERE user_id = $1 AND year = $2")
        .bind(d.user)
        .bind(year)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(db::db_err)?
        .map(|r| db::int(&r, "days"))
        .transpose()?
        .unwrap_or(0);
    let allowance = settings(app).vacation_days;
    let used = u32::try_from(used).unwrap_or(u32::MAX);
    if let clock::AtDeadline::Vacation { due } =
        clock::at_deadline(d.due, cs.vacation, used, allowance, cs.no_weekends)
    {
        // One transaction: the day is counted exactly when the deadline moves.
        let mut tx = app.db.pool.begin().await.map_err(db::db_err)?;
        let moved = sqlx::query(
            "UPDATE corr_timers SET due_at = $1 WHERE id = $2 AND fired_at IS NULL AND due_at = $3",
        )
        .bind(due)
        .bind(d.id)
        .bind(d.due)
        .execute(&mut *tx)
        .await
        .map_err(db::db_err)?;
        if moved.rows_affected() == 1 {
            sqlx::query(
                "INSERT INTO corr_vacation (user_id, year, days) VALUES ($1, $2, 1) \
                 ON CONFLICT (user_id, year) DO UPDATE SET days = corr_vacation.days + 1",
            )
            .bind(d.user)
            .bind(year)
            .execute(&mut *tx)
            .await
            .map_err(db::db_err)?;
        }
        tx.commit().await.map_err(db::db_err)?;
        return Ok(());
    }
    // The table's own task times the seat out (with several instances, the one holding its
    // lease; a table run elsewhere is that instance's to time out).
    let h = match actor::find(app, &d.table).await {
        Ok(Found::Local(h)) => h,
        Ok(Found::Remote { .. }) => return Ok(()),
        Err(e) => return Err(e.message),
    };
    let (reply, wait) = tokio::sync::oneshot::channel();
    let cmd = TableCmd::MoveTimeout {
        version: u64::try_from(d.version).unwrap_or(0),
        seat: u8::try_from(d.seat).unwrap_or(u8::MAX),
        reply,
    };
    if h.tx.send(cmd).await.is_err() {
        return Ok(());
    }
    // `None`: not stored, tried again at the next tick. After a timeout the table's task has
    // already deleted the row with the other timers of that version.
    let Some(timed_out) = wait.await.ok().flatten() else {
        return Ok(());
    };
    if timed_out && settings(app).crash_at == Some(CrashAt::TimeoutStored) {
        std::process::abort();
    }
    // The timeout was counted against the player by the change that stored it (once per
    // game, see [`stored_with`]); a process that stops before this line has lost nothing.
    sqlx::query("UPDATE corr_timers SET fired_at = $1 WHERE id = $2 AND fired_at IS NULL")
        .bind(now)
        .bind(d.id)
        .execute(&app.db.pool)
        .await
        .map_err(db::db_err)?;
    Ok(())
}

/// The names a notice may show for a table: the other people and computer players.
async fn opponents(app: &App, table: &str, user: i64) -> Result<Vec<String>, String> {
    let rows = sqlx::query(
        "SELECT u.name AS name FROM corr_players p JOIN users u ON u.id = p.user_id \
         WHERE p.table_id = $1 AND p.user_id <> $2 ORDER BY p.seat",
    )
    .bind(table)
    .bind(user)
    .fetch_all(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    let mut names: Vec<String> = rows
        .iter()
        .filter_map(|r| db::text(r, "name").ok())
        .collect();
    if let Ok(cfg) = table_config(app, table).await {
        for s in &cfg.seats {
            if let SeatSetup::Bot { level } = s {
                names.push(format!("computer ({level})"));
            }
        }
    }
    Ok(names)
}

/// The message of one or more notices for one person (several only for "your turn").
async fn payload(app: &App, ds: &[Due], now: i64) -> Result<(push::Payload, &'static str), String> {
    let d = &ds[0];
    let tables: Vec<String> = ds.iter().map(|d| d.table.clone()).collect();
    if ds.len() > 1 {
        return Ok((
            push::Payload {
                kind: "turn".into(),
                title: "Your turn".into(),
                body: format!("It is your turn in {} games.", ds.len()),
                url: "/games".into(),
                tables,
                tag: "turn".into(),
            },
            "turn",
        ));
    }
    let with = opponents(app, &d.table, d.user).await?.join(", ");
    let url = format!("/table/{}", d.table);
    let tag = format!("table-{}", d.table);
    let kind = d.kind.as_str();
    let (class, title, body) = if kind == "turn" {
        (
            "turn",
            "Your turn".to_string(),
            format!("Your move against {with}."),
        )
    } else if kind.starts_with("remind") {
        let left = (d.due_deadline(app).await.unwrap_or(now) - now).max(0);
        let hours = (left + clock::HOUR / 2) / clock::HOUR;
        (
            "reminder",
            "Your move is due soon".to_string(),
            format!("About {hours} hours left for your move against {with}."),
        )
    } else {
        (
            "over",
            "Game over".to_string(),
            format!("Your game against {with} is over."),
        )
    };
    Ok((
        push::Payload {
            kind: class.into(),
            title,
            body,
            url,
            tables,
            tag,
        },
        class,
    ))
}

impl Due {
    /// The deadline of the move this reminder is about.
    async fn due_deadline(&self, app: &App) -> Option<i64> {
        let r = sqlx::query(
            "SELECT due_at FROM corr_timers WHERE table_id = $1 AND version = $2 \
             AND kind = 'deadline'",
        )
        .bind(self.table.as_str())
        .bind(self.version)
        .fetch_optional(&app.db.pool)
        .await
        .ok()??;
        db::int(&r, "due_at").ok()
    }
}

/// Fire notices for one person: claim every row, queue one message, in one transaction.
async fn notice(app: &App, ds: Vec<Due>, now: i64) -> Result<(), String> {
    let (payload, class) = payload(app, &ds, now).await?;
    let mut tx = app.db.pool.begin().await.map_err(db::db_err)?;
    let mut claimed = Vec::new();
    for d in &ds {
        let r =
            sqlx::query("UPDATE corr_timers SET fired_at = $1 WHERE id = $2 AND fired_at IS NULL")
                .bind(now)
                .bind(d.id)
                .execute(&mut *tx)
                .await
                .map_err(db::db_err)?;
        if r.rows_affected() == 1 {
            claimed.push(d.id);
        }
    }
    if claimed.len() != ds.len() {
        // Another instance fired some of them: leave them all to it.
        tx.rollback().await.map_err(db::db_err)?;
        return Ok(());
    }
    let key = claimed
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    sqlx::query(
        "INSERT INTO push_outbox (user_id, kind, topic, payload, created_at) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(ds[0].user)
    .bind(class)
    .bind(push::topic(&format!("timers {key}")))
    .bind(serde_json::to_string(&payload).expect("payloads serialise"))
    .bind(now)
    .execute(&mut *tx)
    .await
    .map_err(db::db_err)?;
    tx.commit().await.map_err(db::db_err)?;
    app.corr.deliveries.wake();
    Ok(())
}

/// How many correspondence games a person may have open: the base allowance and one more per
/// finished correspondence game.
pub async fn open_games_allowed(app: &App, user: i64) -> Result<(i64, i64), String> {
    let r = sqlx::query(
        "SELECT CAST(COALESCE(SUM(CASE WHEN finished = 0 THEN 1 ELSE 0 END), 0) AS BIGINT) \
         AS open, CAST(COALESCE(SUM(finished), 0) AS BIGINT) AS done FROM corr_players \
         WHERE user_id = $1",
    )
    .bind(user)
    .fetch_one(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    let open = db::int(&r, "open")?;
    let done = db::int(&r, "done")?;
    Ok((open, settings(app).open_games + done))
}
