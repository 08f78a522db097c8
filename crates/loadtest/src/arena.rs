//! The arena mode of the load test: one arena tournament with many entrants, each a guest
//! with its own websocket, as a crowd would play an online arena.
//!
//! A registered director account creates the arena (it starts once every entrant has joined),
//! every entrant joins through the HTTP API, and from then on each entrant waits for the
//! server's `tournament_table` message, opens that table, plays the game from the legal
//! actions the server sends (as the table mode's players do), and on its end waits to be
//! paired again. The run measures:
//!
//! - the first pairing wave: from the last entry (which starts the arena) until every entrant
//!   has been called to a table (with an even field, every one is paired in the first wave);
//! - the wait to be paired again: from a game's end, as the entrant sees it, to its next call;
//! - every move and seed from send to acknowledgement, as the table mode does;
//! - errors of any kind, memory and CPU time.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{watch, Semaphore};
use tokio_tungstenite::tungstenite::Message;

use futures_util::StreamExt;

use crate::http;
use crate::stats::{self, Summary};
use crate::table::{self, Player, Rng, Sample, Shared, Step, TableResult};
use crate::wire::{Incoming, Kind};
use crate::{client_cpu, inproc, procinfo, Options};

/// What one entrant did.
#[derive(Clone, Debug, Default)]
struct EntrantResult {
    table: TableResult,
    /// When each call to a table came, in milliseconds from the start of the run.
    calls_ms: Vec<u32>,
    /// Waits from the end of a game to the next call, in microseconds.
    repair_us: Vec<u32>,
}

/// The report of an arena run.
#[derive(Clone, Debug, Serialize)]
pub struct ArenaReport {
    /// Entrants asked for.
    pub entrants: usize,
    /// Entrants that joined.
    pub joined: usize,
    /// Where the server ran.
    pub server: String,
    /// The rules of every game.
    pub rules: String,
    /// The players' mean pause before each action.
    pub think_ms: u64,
    /// Seconds from the start of the run until every entrant had joined.
    pub entry_secs: f64,
    /// Milliseconds from the last entry to the moment every entrant had been called to a
    /// table (`None` when some never were).
    pub first_wave_ms: Option<f64>,
    /// Entrants called to a table in the first wave.
    pub first_wave_called: usize,
    /// Seconds measured from the last entry.
    pub measured_secs: f64,
    /// Moves, send to acknowledgement, after the last entry.
    pub moves: Summary,
    /// Moves a second over the measured time.
    pub moves_per_sec: f64,
    /// Seeds, send to acknowledgement.
    pub seeds: Summary,
    /// The wait from a game's end to the entrant's next call.
    pub repairing: Summary,
    /// Calls to a table in all.
    pub calls: u64,
    /// Games played to their end (counted once per entrant: two per two-player game).
    pub entrant_games: u64,
    /// Errors of any kind.
    pub errors: u64,
    /// The errors by text.
    pub error_kinds: BTreeMap<String, u64>,
    /// Resident memory in KiB (the whole process when the server runs in it): before, once
    /// every entrant had joined, at the end.
    pub memory_kib: [Option<u64>; 3],
    /// CPU seconds of the server (`None` when not known).
    pub server_cpu_secs: Option<f64>,
    /// CPU seconds of the players.
    pub players_cpu_secs: f64,
}

impl ArenaReport {
    /// Whether every entrant joined and was called in the first wave, and nothing failed.
    #[must_use]
    pub fn clean(&self) -> bool {
        self.errors == 0 && self.joined == self.entrants && self.first_wave_ms.is_some()
    }
}

fn kib(v: Option<u64>) -> String {
    v.map_or_else(
        || "?".to_string(),
        |k| format!("{:.1} MiB", k as f64 / 1024.0),
    )
}

impl fmt::Display for ArenaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "arena of {} entrants ({} joined), server {}, rules {:?}, think {} ms",
            self.entrants, self.joined, self.server, self.rules, self.think_ms
        )?;
        writeln!(f, "entries: {:.1} s", self.entry_secs)?;
        match self.first_wave_ms {
            Some(ms) => writeln!(
                f,
                "first pairing wave: every entrant called {ms:.0} ms after the last entry"
            )?,
            None => writeln!(
                f,
                "first pairing wave: only {} of {} entrants called",
                self.first_wave_called, self.joined
            )?,
        }
        let s = |x: &Summary| {
            format!(
                "{} samples, p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                x.count, x.p50_ms, x.p90_ms, x.p99_ms, x.max_ms
            )
        };
        writeln!(
            f,
            "moves over {:.1} s: {:.1}/s; {}",
            self.measured_secs,
            self.moves_per_sec,
            s(&self.moves)
        )?;
        writeln!(f, "seeds: {}", s(&self.seeds))?;
        writeln!(f, "paired again after a game: {}", s(&self.repairing))?;
        writeln!(
            f,
            "calls to a table: {}; games finished (per entrant): {}",
            self.calls, self.entrant_games
        )?;
        writeln!(
            f,
            "memory: {} before, {} once all had joined, {} at the end",
            kib(self.memory_kib[0]),
            kib(self.memory_kib[1]),
            kib(self.memory_kib[2])
        )?;
        writeln!(
            f,
            "cpu: server {}, players {:.1} s",
            self.server_cpu_secs
                .map_or_else(|| "?".to_string(), |s| format!("{s:.1} s")),
            self.players_cpu_secs
        )?;
        write!(f, "errors: {}", self.errors)?;
        for (k, n) in &self.error_kinds {
            write!(f, "\n  {n} x {k}")?;
        }
        Ok(())
    }
}

/// Run an arena of `entrants` players for the options' duration (counted from the last entry).
/// Blocks; makes its own runtimes.
pub fn run(opts: &Options, entrants: usize, measure: Duration) -> Result<ArenaReport, String> {
    if entrants < 2 {
        return Err("an arena needs at least 2 entrants".to_string());
    }
    if entrants > 10_000 {
        return Err("an arena takes at most 10,000 entrants".to_string());
    }
    if opts.ramp == 0 {
        return Err("--ramp must be at least 1".to_string());
    }
    let rules = fiveup_engine::Rules::parse(&opts.rules)
        .map_err(|e| format!("--rules {:?}: {e}", opts.rules))?;
    if rules.players != 2 {
        return Err(format!(
            "--rules {:?}: an arena game is two players",
            opts.rules
        ));
    }
    let per_entrant = if opts.server.is_some() { 1 } else { 2 };
    crate::ensure_open_files(entrants as u64 * per_entrant + 256)?;
    let server = match &opts.server {
        Some(_) => None,
        None => Some(inproc::InProcess::start(opts.server_threads)?),
    };
    let url = server.as_ref().map_or_else(
        || opts.server.clone().unwrap_or_default(),
        |s| s.url.clone(),
    );
    let rt = crate::client_runtime(opts.client_threads)?;
    let result = rt.block_on(drive(opts, &url, server.is_some(), entrants, measure));
    rt.shutdown_timeout(Duration::from_secs(5));
    if let Some(s) = server {
        s.stop();
    }
    result
}

async fn post_ok(sh: &Shared, cookie: &str, path: &str, body: &str) -> Result<String, String> {
    let r = http::post(&sh.target, None, path, Some(cookie), body).await?;
    if !(200..300).contains(&r.status) {
        return Err(format!("POST {path} answered {}: {}", r.status, r.body));
    }
    Ok(r.body)
}

/// Register the director and create the arena; its id.
async fn create_arena(
    sh: &Shared,
    entrants: usize,
    length: Duration,
    seed: u64,
) -> Result<String, String> {
    let guest = table::guest(&sh.target, None, "arena director").await?;
    let name = format!("arena{:08x}", seed as u32 ^ std::process::id());
    let body = serde_json::json!({"username": name, "password": "a long load test password"});
    let r = http::post(
        &sh.target,
        None,
        "/api/register",
        Some(&guest),
        &body.to_string(),
    )
    .await?;
    if r.status != 200 {
        return Err(format!(
            "POST /api/register answered {}: {}",
            r.status, r.body
        ));
    }
    let cookie = r.cookie.unwrap_or(guest);
    let settings = serde_json::json!({
        "name": "Load arena",
        "format": {"kind": "arena", "duration_ms": u64::try_from(length.as_millis()).unwrap_or(u64::MAX).min(86_400_000)},
        "rules": sh.rules,
        "start_when": entrants,
        "max_entrants": entrants,
    });
    let body = post_ok(sh, &cookie, "/api/tournaments", &settings.to_string()).await?;
    let v: serde_json::Value =
        serde_json::from_str(&body).map_err(|e| format!("POST /api/tournaments: {e}"))?;
    v["id"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("POST /api/tournaments: no id in {body}"))
}

/// One entrant: join, then play every table it is called to until told to stop.
async fn entrant(
    sh: Arc<Shared>,
    event: Arc<String>,
    index: usize,
    seed: u64,
    mut stop: watch::Receiver<bool>,
    joined: tokio::sync::oneshot::Sender<bool>,
) -> EntrantResult {
    let mut out = EntrantResult::default();
    let mut rng = Rng::new(seed ^ (index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let src = sh.spread.then(|| table::spread_addr(index));
    let setup = async {
        let mut p = Player::new(&sh, src, &format!("arena{index}")).await?;
        table::wait_welcome(&mut p, sh.timeout).await?;
        let path = format!("/api/tournaments/{event}/join");
        let r = http::post(&sh.target, p.src, &path, Some(&p.cookie), "{}").await?;
        if r.status != 200 {
            return Err(format!("POST {path} answered {}: {}", r.status, r.body));
        }
        Ok::<_, String>(p)
    };
    let mut p = match setup.await {
        Ok(p) => {
            let _ = joined.send(true);
            p
        }
        Err(e) => {
            let _ = joined.send(false);
            out.table.errors.push(e);
            return out;
        }
    };
    if let Err(e) = play(&sh, &mut p, &mut rng, &mut stop, &mut out).await {
        out.table.errors.push(e);
    }
    let _ = p.ws.close(None).await;
    out
}

async fn play(
    sh: &Shared,
    p: &mut Player,
    rng: &mut Rng,
    stop: &mut watch::Receiver<bool>,
    out: &mut EntrantResult,
) -> Result<(), String> {
    let far = Instant::now() + Duration::from_secs(86_400 * 365);
    let mut stopping = *stop.borrow();
    // When the entrant was last free: since its entry, then since each game's end.
    let mut free_since: Option<Instant> = None;
    let mut in_game = false;
    let mut last_message = Instant::now();
    loop {
        if stopping && p.pending.is_empty() {
            return Ok(());
        }
        if in_game && p.finished && p.pending.is_empty() {
            in_game = false;
            out.table.games += 1;
            free_since = Some(Instant::now());
        }
        let due = p.due.map_or(far, |d| d.0);
        // While free, the wait for a call is not a timeout: the arena pairs when it can.
        let idle = if in_game {
            last_message + sh.timeout
        } else {
            far
        };
        tokio::select! {
            m = p.ws.next() => {
                last_message = Instant::now();
                if let Some(Ok(Message::Text(t))) = &m {
                    let inc: Incoming = serde_json::from_str(t)
                        .map_err(|e| format!("unreadable message: {e}"))?;
                    if inc.kind == Kind::TournamentTable {
                        let Some(id) = inc.table else {
                            return Err("a tournament_table without a table".into());
                        };
                        let now = Instant::now();
                        out.calls_ms.push(table::ms_since(sh.epoch, now));
                        if let Some(t) = free_since.take() {
                            out.repair_us.push(table::micros(now.duration_since(t)));
                        }
                        if !stopping {
                            p.open(&id).await?;
                            in_game = true;
                        }
                        continue;
                    }
                }
                if let Step::Closed(why) =
                    table::on_message(p, m, sh, rng, stopping, &mut out.table).await?
                {
                    return Err(why);
                }
            }
            () = tokio::time::sleep_until(due.into()) => {
                if let Some((_, action, version)) = p.due.take() {
                    if version == p.version {
                        p.act(action, version).await?;
                    }
                }
            }
            r = stop.changed(), if !stopping => {
                if r.is_err() || *stop.borrow() {
                    stopping = true;
                    p.due = None;
                }
            }
            () = tokio::time::sleep_until(idle.into()) => {
                return Err(format!(
                    "timeout: no message for {:?} at a table ({} commands unanswered)",
                    sh.timeout,
                    p.pending.len()
                ));
            }
        }
    }
}

#[allow(clippy::too_many_lines)]
async fn drive(
    opts: &Options,
    url: &str,
    in_process: bool,
    entrants: usize,
    measure: Duration,
) -> Result<ArenaReport, String> {
    let target = http::Target::parse(url).await?;
    let spread = opts.spread && target.addr.ip().is_loopback() && target.addr.is_ipv4();
    let epoch = Instant::now();
    let sh = Arc::new(Shared {
        target,
        rules: opts.rules.clone(),
        players: 2,
        think: opts.think,
        timeout: opts.timeout.max(opts.think * 3),
        games: None,
        spread,
        epoch,
    });
    let pid = if in_process { None } else { opts.server_pid };
    let rss = || {
        if in_process || pid.is_some() {
            procinfo::rss_kib(pid)
        } else {
            None
        }
    };
    let rss_before = rss();
    let cpu_total_before = procinfo::cpu_secs(None);
    let cpu_server_before = pid.and_then(|p| procinfo::cpu_secs(Some(p)));
    let cpu_client_before = client_cpu();

    // The arena lasts well past the measurement, so it is still pairing when the run stops.
    let event = Arc::new(
        create_arena(
            &sh,
            entrants,
            measure * 2 + Duration::from_secs(60),
            opts.seed,
        )
        .await?,
    );
    let (stop_tx, stop_rx) = watch::channel(false);
    let gate = Arc::new(Semaphore::new(opts.ramp));
    let (joined_tx, mut joined_rx) = tokio::sync::mpsc::unbounded_channel::<bool>();
    let mut handles = Vec::with_capacity(entrants);
    for i in 0..entrants {
        let permit = gate
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| e.to_string())?;
        let (tx, rx) = tokio::sync::oneshot::channel();
        handles.push(tokio::spawn(entrant(
            sh.clone(),
            event.clone(),
            i,
            opts.seed,
            stop_rx.clone(),
            tx,
        )));
        let joined_tx = joined_tx.clone();
        tokio::spawn(async move {
            let ok = rx.await.unwrap_or(false);
            drop(permit);
            let _ = joined_tx.send(ok);
        });
    }
    drop(joined_tx);
    let mut joined = 0;
    while let Some(ok) = joined_rx.recv().await {
        joined += usize::from(ok);
    }
    let last_entry = Instant::now();
    let rss_joined = rss();
    if joined == entrants {
        tokio::time::sleep(measure).await;
    }
    let _ = stop_tx.send(true);
    let stop_at = Instant::now();
    let mut results = Vec::with_capacity(handles.len());
    for h in handles {
        results.push(
            h.await
                .map_err(|e| format!("an entrant's task failed: {e}"))?,
        );
    }
    let rss_end = rss();
    let from_ms = table::ms_since(epoch, last_entry);
    let to_ms = table::ms_since(epoch, stop_at);

    let first_calls: Vec<u32> = results
        .iter()
        .filter_map(|r| r.calls_ms.first().copied())
        .collect();
    let first_wave_called = first_calls.len();
    let first_wave_ms = (first_wave_called == joined && joined == entrants)
        .then(|| first_calls.iter().copied().max().unwrap_or(from_ms))
        .map(|last| f64::from(last.saturating_sub(from_ms)));
    let window = |s: &Sample| s.at_ms >= from_ms && s.at_ms <= to_ms;
    let mut moves: Vec<u32> = results
        .iter()
        .flat_map(|r| r.table.moves.iter().filter(|s| window(s)).map(|s| s.rtt_us))
        .collect();
    let mut seeds: Vec<u32> = results
        .iter()
        .flat_map(|r| r.table.seeds.iter().map(|s| s.rtt_us))
        .collect();
    let mut repair: Vec<u32> = results
        .iter()
        .flat_map(|r| r.repair_us.iter().copied())
        .collect();
    let mut error_kinds = BTreeMap::new();
    for e in results.iter().flat_map(|r| r.table.errors.iter()) {
        *error_kinds.entry(e.clone()).or_insert(0) += 1;
    }
    let measured_secs = stop_at.duration_since(last_entry).as_secs_f64();
    let moves = stats::summarize(&mut moves);
    let players_cpu_secs = client_cpu() - cpu_client_before;
    let server_cpu_secs = crate::server_cpu(
        in_process,
        pid,
        cpu_total_before,
        cpu_server_before,
        players_cpu_secs,
    );
    Ok(ArenaReport {
        entrants,
        joined,
        server: if in_process {
            "in-process".to_string()
        } else {
            url.to_string()
        },
        rules: opts.rules.clone(),
        think_ms: u64::try_from(opts.think.as_millis()).unwrap_or(u64::MAX),
        entry_secs: last_entry.duration_since(epoch).as_secs_f64(),
        first_wave_ms,
        first_wave_called,
        measured_secs,
        moves_per_sec: if measured_secs > 0.0 {
            moves.count as f64 / measured_secs
        } else {
            0.0
        },
        moves,
        seeds: stats::summarize(&mut seeds),
        repairing: stats::summarize(&mut repair),
        calls: results.iter().map(|r| r.calls_ms.len() as u64).sum(),
        entrant_games: results.iter().map(|r| u64::from(r.table.games)).sum(),
        errors: error_kinds.values().sum(),
        error_kinds,
        memory_kib: [rss_before, rss_joined, rss_end],
        server_cpu_secs,
        players_cpu_secs,
    })
}
