//! `fiveup loadtest`: many concurrent tables of client players against the game server.

use std::time::Duration;

use fiveup_loadtest::{Length, Options};

/// Options of `fiveup loadtest`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Concurrent tables (one player per seat of the rules, every player a websocket client).
    #[arg(long, default_value_t = 100)]
    tables: usize,
    /// Seconds to measure once every table is up (the default is 30).
    #[arg(long, conflicts_with = "games_per_table")]
    duration: Option<u64>,
    /// Instead of a duration: games each table plays to their end.
    #[arg(long)]
    games_per_table: Option<u32>,
    /// A running server (`http://127.0.0.1:8080`). Without it a server is started in this
    /// process on a free loopback port, with a fresh SQLite file in a temporary folder.
    #[arg(long)]
    server: Option<String>,
    /// The process id of the `--server`, to report its memory and CPU time.
    #[arg(long, requires = "server")]
    server_pid: Option<u32>,
    /// Rules of every table, as an options string (`"party-twelve players=6"`: six clients
    /// per table).
    #[arg(long, default_value = "five-up")]
    rules: String,
    /// Mean milliseconds a player waits before each action (each wait is drawn from half to
    /// one and a half times it); 0 plays as fast as the server answers.
    #[arg(long, default_value_t = 500)]
    think_ms: u64,
    /// Seconds a player waits for any message before its table counts a timeout (at least 300
    /// in the fair-play mode).
    #[arg(long, default_value_t = 30)]
    timeout: u64,
    /// Tables set up at once while ramping up.
    #[arg(long, default_value_t = 16)]
    ramp: usize,
    /// Seed of the players' waits and deal seeds.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads of the in-process server (default: as `fiveup serve` on SQLite, one fewer
    /// than the cores, at least one).
    #[arg(long, default_value_t = fiveup_server::default_workers(true))]
    server_threads: usize,
    /// Worker threads of the players.
    #[arg(long, default_value_t = 2)]
    client_threads: usize,
    /// Connect every player from 127.0.0.1 instead of spreading them over 127.1.x.y.
    #[arg(long)]
    no_spread: bool,
    /// Instead of tables: one arena tournament of this many entrants (guests, two-player
    /// rules), each called to table after table by the arena; `--duration` counts from the
    /// last entry.
    #[arg(long, conflicts_with_all = ["games_per_table", "correspondence"])]
    arena: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The correspondence mode: store this many correspondence games (in a server started in
    /// this process), then clients open each game as the person to move and make one move;
    /// reports opening a game and a move (p50, p99), memory and errors.
    #[arg(long, conflicts_with_all = ["server", "duration", "games_per_table"])]
    correspondence: Option<usize>,
    /// Clients opening games at once in the correspondence mode.
    #[arg(long, default_value_t = 16, requires = "correspondence")]
    corr_clients: usize,
    /// The fair-play mode: simulated honest and computer-assisted people register accounts on
    /// a server started in this process and play rated games, and the run reports what the
    /// server's fair-play analysis flagged (docs/benchmarks.md, "Finding computer-assisted
    /// play"). `--tables` is the number of games played at once.
    #[arg(long, conflicts_with_all = ["server", "duration", "games_per_table", "arena", "correspondence"])]
    fairplay: bool,
    /// Honest `casual`, `club` and `strong` accounts (the fair-play mode).
    #[arg(long, value_delimiter = ',', default_values_t = [480, 480, 40], requires = "fairplay")]
    honest: Vec<usize>,
    /// Games each honest account plays (the fair-play mode).
    #[arg(long, default_value_t = 20, requires = "fairplay")]
    honest_games: u32,
    /// Assisted accounts per share copied (the fair-play mode).
    #[arg(long, default_value_t = 50, requires = "fairplay")]
    assisted: usize,
    /// The shares of their decisions assisted accounts copy from the master level, in percent.
    #[arg(long, value_delimiter = ',', default_values_t = [30, 60, 100], requires = "fairplay")]
    copy: Vec<u32>,
    /// The games each assisted account plays (the first flag is noted; it plays on).
    #[arg(long, default_value_t = 30, requires = "fairplay")]
    assisted_games: u32,
    /// The accounts' mean slip rate (each account's drawn from 0 to twice it), in percent.
    #[arg(long, default_value_t = 5.0, requires = "fairplay")]
    slip: f64,
    /// Moves chosen at once, each on a thread of its own (the fair-play mode).
    #[arg(long, default_value_t = 2, requires = "fairplay")]
    choosers: usize,
    /// Write every account's figures as JSON lines to this file (the fair-play mode).
    #[arg(long, requires = "fairplay")]
    dump: Option<std::path::PathBuf>,
    /// Play nothing: replay the server's judging and other settings over the figures a
    /// fair-play run wrote with `--dump` (the fair-play mode).
    #[arg(long, requires = "fairplay")]
    replay: Option<std::path::PathBuf>,
}

/// Print a mode's report: as one JSON object with `json`, else as text.
fn print_report<R: serde::Serialize + std::fmt::Display>(
    report: &R,
    json: bool,
) -> Result<(), String> {
    if json {
        let text = serde_json::to_string(report).map_err(|e| e.to_string())?;
        crate::outln!("{text}");
    } else {
        crate::outln!("{report}");
    }
    Ok(())
}

/// Run the load test and print its report; fails when the run had any error.
pub fn run(a: &Args) -> Result<(), String> {
    if a.fairplay {
        return fairplay(a);
    }
    if let Some(games) = a.correspondence {
        let report = fiveup_loadtest::corr::run_corr(&fiveup_loadtest::corr::CorrOptions {
            games,
            clients: a.corr_clients,
            server_threads: a.server_threads,
            client_threads: a.client_threads,
            timeout: Duration::from_secs(a.timeout.max(1)),
            ..Default::default()
        })?;
        print_report(&report, a.json)?;
        if report.errors > 0 {
            return Err(format!("the run had {} errors", report.errors));
        }
        return Ok(());
    }
    let length = match (a.duration, a.games_per_table) {
        (_, Some(g)) => Length::Games(g),
        (Some(0), None) => return Err("--duration must be at least 1 second".to_string()),
        (d, None) => Length::Duration(Duration::from_secs(d.unwrap_or(30))),
    };
    if a.timeout == 0 {
        return Err("--timeout must be at least 1 second".to_string());
    }
    let opts = Options {
        tables: a.tables,
        length,
        server: a.server.clone(),
        server_pid: a.server_pid,
        rules: a.rules.clone(),
        think: Duration::from_millis(a.think_ms),
        timeout: Duration::from_secs(a.timeout),
        ramp: a.ramp,
        seed: a.seed,
        server_threads: a.server_threads,
        client_threads: a.client_threads,
        spread: !a.no_spread,
    };
    if let Some(entrants) = a.arena {
        let measure = Duration::from_secs(a.duration.unwrap_or(30));
        let report = fiveup_loadtest::arena::run(&opts, entrants, measure)?;
        print_report(&report, a.json)?;
        if !report.clean() {
            return Err(format!(
                "the arena run had {} errors, {} of {} entrants joined{}",
                report.errors,
                report.joined,
                report.entrants,
                if report.first_wave_ms.is_none() {
                    ", and not every entrant was called in the first wave"
                } else {
                    ""
                }
            ));
        }
        return Ok(());
    }
    let report = fiveup_loadtest::run(&opts)?;
    print_report(&report, a.json)?;
    if report.errors > 0 {
        return Err(format!("the run had {} errors", report.errors));
    }
    Ok(())
}

/// The fair-play mode.
fn fairplay(a: &Args) -> Result<(), String> {
    if let Some(path) = &a.replay {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let accounts = fiveup_loadtest::judging::read_dump(&text)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if accounts.is_empty() {
            return Err(format!("{}: no accounts", path.display()));
        }
        let grid = fiveup_loadtest::judging::grid(
            &accounts,
            &fiveup_loadtest::judging::BAND_DEVIATIONS,
            &fiveup_loadtest::judging::FLAG_ZS,
        );
        return print_report(&grid, a.json);
    }
    let honest: [usize; 3] = a
        .honest
        .clone()
        .try_into()
        .map_err(|_| "--honest takes three counts: casual,club,strong".to_string())?;
    let opts = fiveup_loadtest::fairplay::FairplayOptions {
        honest,
        honest_games: a.honest_games,
        assisted: a.assisted,
        copy: a.copy.iter().map(|&c| f64::from(c) / 100.0).collect(),
        assisted_games: a.assisted_games,
        slip: a.slip / 100.0,
        seed: a.seed,
        tables: a.tables,
        choosers: a.choosers,
        server_threads: a.server_threads,
        client_threads: a.client_threads,
        // A player may wait long for a searching opponent's move while many are chosen.
        timeout: Duration::from_secs(a.timeout.max(300)),
        ..Default::default()
    };
    let report = fiveup_loadtest::fairplay::run(&opts)?;
    if let Some(path) = &a.dump {
        let mut out = String::new();
        for acc in &report.accounts {
            out += &serde_json::to_string(acc).map_err(|e| e.to_string())?;
            out.push('\n');
        }
        std::fs::write(path, out).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if a.json {
        let text = serde_json::to_string(&report.rows).map_err(|e| e.to_string())?;
        crate::outln!("{text}");
    } else {
        crate::outln!("{report}");
    }
    if !report.clean() {
        return Err(format!("{} games failed", report.errors));
    }
    Ok(())
}
