//! # fiveup-loadtest
//!
//! The load generator behind `fiveup loadtest`: it drives many concurrent tables of
//! `fiveup serve` through its real HTTP API and real websockets, every seat held by a client
//! that plays from the legal actions the server sends (the highest-scoring play, else draw or
//! pass). Every move is a real round trip: the generator times each command from the moment it
//! is sent to its `ack`, which the server sends only once the action is stored durably.
//!
//! By default the server runs in this process ([`inproc`]), on a free loopback port with a
//! fresh SQLite file; `--server` points the generator at a running server instead.
//!
//! - [`http`]: a small HTTP/1.1 client for the JSON API;
//! - [`wire`]: the few fields of the server's messages the players read, and their choice;
//! - [`table`]: one table's players, one per seat;
//! - [`arena`]: the arena mode, one arena tournament of many entrants;
//! - [`corr`]: the correspondence mode (many stored games, clients opening one and moving);
//! - [`stats`], [`procinfo`]: latency summaries, memory and CPU time.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{oneshot, watch, Semaphore};

pub mod arena;
pub mod corr;
pub mod fairplay;
pub mod http;
pub mod inproc;
pub mod judging;
pub mod procinfo;
pub mod seatview;
pub mod stats;
pub mod table;
pub mod wire;

use stats::Summary;
use table::{Sample, Shared, TableResult};

/// Thread name of the players' runtime.
pub const CLIENT_THREAD: &str = "loadtest-client";

/// The players' runtime: `threads` workers (at least one) named [`CLIENT_THREAD`], so that
/// their processor time can be told from the server's.
pub(crate) fn client_runtime(threads: usize) -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads.max(1))
        .thread_name(CLIENT_THREAD)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the players' runtime: {e}"))
}

/// How long the run lasts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Length {
    /// Measure this long once every table is up, then stop (games in progress are left).
    Duration(Duration),
    /// Each table plays this many games to their end.
    Games(u32),
}

/// The settings of a run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Concurrent tables (one player per seat: two for the default rules).
    pub tables: usize,
    /// How long the run lasts.
    pub length: Length,
    /// A running server (`http://host:port`); `None`: start one in this process.
    pub server: Option<String>,
    /// The process id of that server, to report its memory and CPU time.
    pub server_pid: Option<u32>,
    /// Rules of each table (an options string).
    pub rules: String,
    /// The players' mean pause before each action (zero: none).
    pub think: Duration,
    /// How long a player waits for any message before its table counts a timeout.
    pub timeout: Duration,
    /// Tables being set up at once during the ramp-up.
    pub ramp: usize,
    /// Seed of the players' pauses and deal seeds.
    pub seed: u64,
    /// Worker threads of the in-process server's runtime.
    pub server_threads: usize,
    /// Worker threads of the players' runtime.
    pub client_threads: usize,
    /// Spread the players over loopback addresses (only with a loopback server).
    pub spread: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            tables: 100,
            length: Length::Duration(Duration::from_secs(30)),
            server: None,
            server_pid: None,
            rules: "five-up".to_string(),
            think: Duration::from_millis(500),
            timeout: Duration::from_secs(30),
            ramp: 16,
            seed: 1,
            // The in-process server runs on SQLite.
            server_threads: fiveup_server::default_workers(true),
            client_threads: 2,
            spread: true,
        }
    }
}

/// Memory, in KiB of resident memory.
#[derive(Clone, Copy, PartialEq, Debug, Default, Serialize)]
pub struct Memory {
    /// What was measured: `"process"` (the in-process server and the players together) or
    /// `"server"` (the server's own process).
    pub scope: &'static str,
    /// Before the first table.
    pub before_kib: Option<u64>,
    /// Once every table was up.
    pub tables_up_kib: Option<u64>,
    /// At the end of the run.
    pub end_kib: Option<u64>,
    /// `(tables_up - before) / tables`.
    pub per_table_kib: Option<f64>,
}

/// CPU time in seconds over the whole run (ramp-up included).
#[derive(Clone, Copy, PartialEq, Debug, Default, Serialize)]
pub struct Cpu {
    /// The server.
    pub server_secs: Option<f64>,
    /// The players (the generator).
    pub players_secs: Option<f64>,
    /// Server CPU microseconds per move.
    pub server_us_per_move: Option<f64>,
}

/// What a run measured.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct Report {
    /// Concurrent tables.
    pub tables: usize,
    /// Tables that came up (created, both seats filled).
    pub tables_up: usize,
    /// The server: `"in-process"` or its URL.
    pub server: String,
    /// The rules.
    pub rules: String,
    /// The players' mean pause, in milliseconds.
    pub think_ms: u64,
    /// Seconds from the first table to the last table up.
    pub ramp_secs: f64,
    /// Seconds of the measured window (from every table up to the end).
    pub measured_secs: f64,
    /// Move round trips (`act` to `ack`) sent in the measured window.
    pub moves: Summary,
    /// Moves acknowledged per second in the window.
    pub moves_per_sec: f64,
    /// Moves during the ramp-up (not in `moves`).
    pub ramp_moves: u64,
    /// Seed round trips (`seed` to `ack`) in the window.
    pub seeds: Summary,
    /// Games played to their end (whole run).
    pub games: u64,
    /// Errors of every kind (whole run).
    pub errors: u64,
    /// Errors by kind, with counts (whole run).
    pub error_kinds: BTreeMap<String, u64>,
    /// Memory.
    pub memory: Memory,
    /// CPU time.
    pub cpu: Cpu,
    /// The open-file limit the run had.
    pub nofile_limit: Option<u64>,
    /// The machine's load averages (1, 5, 15 minutes) at the start and at the end: other work
    /// on the machine shows here.
    pub load_average: [Option<[f64; 3]>; 2],
    /// How busy the database's disk was just before the run: 50 writes of 4 KiB in place, each
    /// followed by an fsync (milliseconds). Only for an in-process server.
    pub fsync: Option<Summary>,
}

impl Report {
    /// Whether the run met the target: no errors, p50 under 5 ms, p99 under 50 ms
    /// (and at least one move measured).
    #[must_use]
    pub fn meets_target(&self) -> bool {
        self.errors == 0
            && self.moves.count > 0
            && self.moves.p50_ms < 5.0
            && self.moves.p99_ms < 50.0
            && self.tables_up == self.tables
    }
}

fn opt<T: fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "unknown".to_string(), |v| v.to_string())
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = &self.moves;
        writeln!(
            f,
            "{} tables ({} up) against {}, rules {:?}, think {} ms",
            self.tables, self.tables_up, self.server, self.rules, self.think_ms
        )?;
        writeln!(
            f,
            "ramp-up {:.1} s ({} moves), measured {:.1} s",
            self.ramp_secs, self.ramp_moves, self.measured_secs
        )?;
        writeln!(
            f,
            "moves: {} ({:.0}/s), round trip p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, \
             p99.9 {:.2} ms, max {:.2} ms, mean {:.2} ms",
            m.count,
            self.moves_per_sec,
            m.p50_ms,
            m.p90_ms,
            m.p99_ms,
            m.p999_ms,
            m.max_ms,
            m.mean_ms
        )?;
        writeln!(
            f,
            "seeds: {}, round trip p50 {:.2} ms, p99 {:.2} ms",
            self.seeds.count, self.seeds.p50_ms, self.seeds.p99_ms
        )?;
        writeln!(f, "games finished: {}", self.games)?;
        if let Some(s) = &self.fsync {
            writeln!(
                f,
                "disk before the run: a 4 KiB write and fsync takes p50 {:.2} ms, p99 {:.2} ms",
                s.p50_ms, s.p99_ms
            )?;
        }
        let la = |v: Option<[f64; 3]>| v.map_or("unknown".to_string(), |a| format!("{:.2}", a[0]));
        writeln!(
            f,
            "machine load average: {} at the start, {} at the end",
            la(self.load_average[0]),
            la(self.load_average[1])
        )?;
        writeln!(f, "errors: {}", self.errors)?;
        for (k, n) in &self.error_kinds {
            writeln!(f, "  {n} x {k}")?;
        }
        let mem = &self.memory;
        writeln!(
            f,
            "memory ({}): {} KiB before, {} KiB with every table up, {} KiB at the end; {} KiB \
             per table",
            mem.scope,
            opt(mem.before_kib),
            opt(mem.tables_up_kib),
            opt(mem.end_kib),
            opt(mem.per_table_kib.map(|v| format!("{v:.1}")))
        )?;
        writeln!(
            f,
            "cpu: server {} s, players {} s, server {} us per move",
            opt(self.cpu.server_secs.map(|v| format!("{v:.1}"))),
            opt(self.cpu.players_secs.map(|v| format!("{v:.1}"))),
            opt(self.cpu.server_us_per_move.map(|v| format!("{v:.0}")))
        )?;
        write!(
            f,
            "target (1,000 tables: p50 < 5 ms, p99 < 50 ms, no errors): {}",
            if self.tables < 1000 {
                "not applicable (fewer than 1,000 tables)"
            } else if self.meets_target() {
                "met"
            } else {
                "NOT met"
            }
        )
    }
}

/// Make sure the process may open enough files: the players' sockets, and with an in-process
/// server its side of each connection too. The soft limit is raised up to the hard limit if
/// needed; returns the limit in force.
pub fn ensure_open_files(needed: u64) -> Result<Option<u64>, String> {
    #[cfg(unix)]
    {
        let (soft, hard) = rlimit::Resource::NOFILE
            .get()
            .map_err(|e| format!("cannot read the open-file limit: {e}"))?;
        if soft >= needed {
            return Ok(Some(soft));
        }
        let got = rlimit::increase_nofile_limit(needed)
            .map_err(|e| format!("cannot raise the open-file limit: {e}"))?;
        if got < needed {
            return Err(format!(
                "the run needs about {needed} open files but the limit is {got} (hard limit \
                 {hard}); raise it (ulimit -n) or run fewer tables"
            ));
        }
        Ok(Some(got))
    }
    #[cfg(not(unix))]
    {
        let _ = needed;
        Ok(None)
    }
}

fn in_window(samples: &[Sample], from_ms: u32, to_ms: u32) -> Vec<u32> {
    samples
        .iter()
        .filter(|s| s.at_ms >= from_ms && s.at_ms < to_ms)
        .map(|s| s.rtt_us)
        .collect()
}

/// CPU seconds the server used since `total_before` (this whole process, when the server runs
/// in it, less the players' `players_secs`) or since `server_before` (the process `pid`).
pub(crate) fn server_cpu(
    in_process: bool,
    pid: Option<u32>,
    total_before: Option<f64>,
    server_before: Option<f64>,
    players_secs: f64,
) -> Option<f64> {
    if in_process {
        procinfo::cpu_secs(None)
            .zip(total_before)
            .map(|(a, b)| a - b - players_secs)
    } else {
        pid.and_then(|p| procinfo::cpu_secs(Some(p)))
            .zip(server_before)
            .map(|(a, b)| a - b)
    }
}

/// CPU seconds of the players' threads so far.
pub(crate) fn client_cpu() -> f64 {
    procinfo::thread_cpu_by_name()
        .iter()
        .filter(|(k, _)| k.starts_with(CLIENT_THREAD))
        .map(|(_, v)| v)
        .sum()
}

/// Run the load test: start the server if none is given, bring the tables up, play, and
/// report. Blocks; makes its own runtimes.
pub fn run(opts: &Options) -> Result<Report, String> {
    if opts.tables == 0 {
        return Err("--tables must be at least 1".to_string());
    }
    if opts.ramp == 0 {
        return Err("--ramp must be at least 1".to_string());
    }
    if let Length::Games(0) = opts.length {
        return Err("--games-per-table must be at least 1".to_string());
    }
    // The rules are checked here, as the server would, so a bad string fails before any
    // table is made; their player count is the number of clients per table.
    let rules = fiveup_engine::Rules::parse(&opts.rules)
        .map_err(|e| format!("--rules {:?}: {e}", opts.rules))?;
    let seats = u64::from(rules.players);
    let load_start = procinfo::load_average();
    let per_table = if opts.server.is_some() {
        seats
    } else {
        2 * seats
    };
    let nofile = ensure_open_files(opts.tables as u64 * per_table + 256)?;
    let server = match &opts.server {
        Some(_) => None,
        None => Some(inproc::InProcess::start(opts.server_threads)?),
    };
    let fsync = match &server {
        Some(s) => {
            let mut t = procinfo::fsync_probe(s.folder(), 50)
                .map_err(|e| format!("cannot write to the database's folder: {e}"))?;
            Some(stats::summarize(&mut t))
        }
        None => None,
    };
    let url = server.as_ref().map_or_else(
        || opts.server.clone().unwrap_or_default(),
        |s| s.url.clone(),
    );
    let rt = client_runtime(opts.client_threads)?;
    let result = rt.block_on(drive(opts, &url, server.is_some()));
    rt.shutdown_timeout(Duration::from_secs(5));
    if let Some(s) = server {
        s.stop();
    }
    let mut report = result?;
    report.nofile_limit = nofile;
    report.fsync = fsync;
    report.load_average = [load_start, procinfo::load_average()];
    Ok(report)
}

#[allow(clippy::too_many_lines)]
async fn drive(opts: &Options, url: &str, in_process: bool) -> Result<Report, String> {
    let target = http::Target::parse(url).await?;
    let spread = opts.spread && target.addr.ip().is_loopback() && target.addr.is_ipv4();
    let epoch = Instant::now();
    let sh = Arc::new(Shared {
        target,
        rules: opts.rules.clone(),
        players: fiveup_engine::Rules::parse(&opts.rules).map_or(2, |r| usize::from(r.players)),
        think: opts.think,
        timeout: opts.timeout.max(opts.think * 3),
        games: match opts.length {
            Length::Games(g) => Some(g),
            Length::Duration(_) => None,
        },
        spread,
        epoch,
    });
    let pid = if in_process { None } else { opts.server_pid };
    let measure_server = in_process || pid.is_some();
    let rss = || {
        if measure_server {
            procinfo::rss_kib(pid)
        } else {
            None
        }
    };
    let rss_before = rss();
    let cpu_total_before = procinfo::cpu_secs(None);
    let cpu_server_before = pid.and_then(|p| procinfo::cpu_secs(Some(p)));
    let cpu_client_before = client_cpu();

    let (stop_tx, stop_rx) = watch::channel(false);
    let gate = Arc::new(Semaphore::new(opts.ramp));
    let (up_tx, mut up_rx) = tokio::sync::mpsc::unbounded_channel::<bool>();
    let mut handles = Vec::with_capacity(opts.tables);
    for i in 0..opts.tables {
        let permit = gate
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| e.to_string())?;
        let (ready_tx, ready_rx) = oneshot::channel();
        handles.push(tokio::spawn(table::run_table(
            sh.clone(),
            i,
            opts.seed,
            stop_rx.clone(),
            ready_tx,
        )));
        let up_tx = up_tx.clone();
        tokio::spawn(async move {
            let ok = ready_rx.await.is_ok();
            drop(permit);
            let _ = up_tx.send(ok);
        });
    }
    drop(up_tx);
    let mut tables_up = 0;
    while let Some(ok) = up_rx.recv().await {
        tables_up += usize::from(ok);
    }
    let ramp_end = Instant::now();
    let rss_up = rss();

    if let (Length::Duration(d), true) = (opts.length, tables_up > 0) {
        tokio::time::sleep(d).await;
        let _ = stop_tx.send(true);
    }
    let stop_at = Instant::now();
    let mut results: Vec<TableResult> = Vec::with_capacity(handles.len());
    for h in handles {
        results.push(h.await.map_err(|e| format!("a table task failed: {e}"))?);
    }
    let end = Instant::now();
    let rss_end = rss();
    let window_end = match opts.length {
        Length::Duration(_) => stop_at,
        Length::Games(_) => end,
    };
    let from_ms = u32::try_from(ramp_end.duration_since(epoch).as_millis()).unwrap_or(u32::MAX);
    let to_ms = u32::try_from(window_end.duration_since(epoch).as_millis()).unwrap_or(u32::MAX);
    let measured_secs = window_end.duration_since(ramp_end).as_secs_f64();

    let all_moves: Vec<Sample> = results
        .iter()
        .flat_map(|r| r.moves.iter().copied())
        .collect();
    let all_seeds: Vec<Sample> = results
        .iter()
        .flat_map(|r| r.seeds.iter().copied())
        .collect();
    let mut moves = in_window(&all_moves, from_ms, to_ms);
    let mut seeds = in_window(&all_seeds, from_ms, to_ms);
    let ramp_moves = all_moves.iter().filter(|s| s.at_ms < from_ms).count() as u64;
    let moves_summary = stats::summarize(&mut moves);
    let mut error_kinds = BTreeMap::new();
    for e in results.iter().flat_map(|r| r.errors.iter()) {
        *error_kinds.entry(e.clone()).or_insert(0) += 1;
    }
    let errors = error_kinds.values().sum();

    let players_secs = client_cpu() - cpu_client_before;
    let server_secs = server_cpu(
        in_process,
        pid,
        cpu_total_before,
        cpu_server_before,
        players_secs,
    );
    let total_moves = all_moves.len() as f64;
    Ok(Report {
        tables: opts.tables,
        tables_up,
        server: if in_process {
            "in-process".to_string()
        } else {
            url.to_string()
        },
        rules: opts.rules.clone(),
        think_ms: u64::try_from(opts.think.as_millis()).unwrap_or(u64::MAX),
        ramp_secs: ramp_end.duration_since(epoch).as_secs_f64(),
        measured_secs,
        moves_per_sec: if measured_secs > 0.0 {
            moves_summary.count as f64 / measured_secs
        } else {
            0.0
        },
        moves: moves_summary,
        ramp_moves,
        seeds: stats::summarize(&mut seeds),
        games: results.iter().map(|r| u64::from(r.games)).sum(),
        errors,
        error_kinds,
        memory: Memory {
            scope: if in_process { "process" } else { "server" },
            before_kib: rss_before,
            tables_up_kib: rss_up,
            end_kib: rss_end,
            per_table_kib: rss_before
                .zip(rss_up)
                .map(|(b, u)| (u as f64 - b as f64) / opts.tables as f64),
        },
        cpu: Cpu {
            server_secs,
            players_secs: Some(players_secs),
            server_us_per_move: server_secs
                .filter(|_| total_moves > 0.0)
                .map(|s| s * 1e6 / total_moves),
        },
        nofile_limit: None,
        load_average: [None, None],
        fsync: None,
    })
}
