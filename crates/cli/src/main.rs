//! `fiveup`: Five Up dominoes from the command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod selfplay;

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
    /// Random playouts of default-rules two-player hands, to measure the engine's speed.
    Bench(bench::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Selfplay(a) => selfplay::run(&a),
        Command::Bench(a) => bench::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fiveup: {e}");
            ExitCode::FAILURE
        }
    }
}
