//! `fiveup`: Five Up dominoes from the command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod admin;
mod backup;
mod bench;
mod connect;
mod enginecmd;
mod loadtest;
mod matchcmd;
mod play;
mod ratecmd;
mod replay;
mod review;
mod rulescmd;
mod selfplay;
mod serve;
mod tournament;
mod verify;

/// Five Up dominoes: exact rules, computer players, and tools.
#[derive(Debug, Parser)]
#[command(name = "fiveup", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play games between random players and optionally write their records.
    Selfplay(selfplay::Args),
    /// Check a game record (text or JSON) and show it action by action.
    Replay(replay::Args),
    /// Analyse every decision of a recorded game: what each choice lost against the best.
    Review(review::Args),
    /// Random playouts of default-rules two-player hands, to measure the engine's speed.
    Bench(bench::Args),
    /// A duplicate match between two computer players: every deal played from both sides.
    Match(matchcmd::Args),
    /// A round robin of duplicate matches between players (by default the levels people
    /// choose from), rated on the Elo scale with 95% intervals.
    Rate(ratecmd::Args),
    /// Play Five Up in the terminal against the computer (full screen, or --plain lines), or
    /// step through a saved record with --replay.
    Play(play::Args),
    /// Run the online game server (HTTP and websockets; SQLite or PostgreSQL).
    Serve(serve::Args),
    /// Re-derive every deal of a game record from its revealed seeds and check it.
    Verify(verify::Args),
    /// Back up the server's SQLite database while it runs (SQLite's online backup).
    Backup(backup::Args),
    /// The operator's commands on the server's database: grant or revoke the moderator role.
    Admin(admin::Args),
    /// Many concurrent tables of client players against the game server, timing every move.
    Loadtest(loadtest::Args),
    /// Serve a built-in player as an outside engine: the fiveup-engine/1 protocol on standard
    /// input and output (docs/engine-protocol.md).
    Engine(enginecmd::Args),
    /// A round robin of duplicate matches between outside engines and built-in players, rated
    /// on the Elo scale with 95% intervals, with each engine's strikes and forfeits.
    Arena(enginecmd::ArenaArgs),
    /// An event of computer players, offline: Swiss, knockout, double elimination, arena,
    /// round robin, duplicate or cut-throat tables, with standings.
    Tournament(tournament::Args),
    /// Put a local outside engine online as a bot account: accept the challenges and open
    /// seats its options allow and play them through the engine (docs/bots.md).
    Connect(connect::Args),
    /// The rules presets and options every command reads (with --json); or one rules spec
    /// written out in full.
    Rules(rulescmd::Args),
}

/// Write to standard output. A closed pipe (`fiveup replay f | head`) ends the program quietly
/// with success, as a filter should; any other error is reported.
pub fn emit(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("fiveup: cannot write output: {e}");
        std::process::exit(1);
    }
}

/// `println!` through [`emit`].
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => {{
        let mut s = format!($($t)*);
        s.push('\n');
        $crate::emit(&s);
    }};
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Selfplay(a) => selfplay::run(&a),
        Command::Replay(a) => replay::run(&a),
        Command::Review(a) => review::run(&a),
        Command::Bench(a) => bench::run(&a),
        Command::Match(a) => matchcmd::run(&a),
        Command::Rate(a) => ratecmd::run(&a),
        Command::Play(a) => play::run(&a),
        Command::Serve(a) => serve::run(&a),
        Command::Verify(a) => verify::run(&a),
        Command::Backup(a) => backup::run(&a),
        Command::Admin(a) => admin::run(&a),
        Command::Loadtest(a) => loadtest::run(&a),
        Command::Engine(a) => enginecmd::run(&a),
        Command::Arena(a) => enginecmd::run_arena(&a),
        Command::Tournament(a) => tournament::run(&a),
        Command::Connect(a) => connect::run(&a),
        Command::Rules(a) => rulescmd::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fiveup: {e}");
            ExitCode::FAILURE
        }
    }
}
