//! `fiveup-train`: train the learned players' networks by self-play (see the crate's notes and
//! docs/strength.md).

use std::path::PathBuf;

use clap::Parser;
use fiveup_train::{run, TrainConfig, CHUNK};

/// Train the action-value network and the critic by self-play (Deep Monte-Carlo). The run is
/// deterministic for its seed and resumable: run the same command again to carry on.
#[derive(Parser, Debug)]
#[command(name = "fiveup-train", version)]
struct Args {
    /// Where the run keeps its checkpoint, learning curve (curve.csv) and final weights.
    #[arg(long, default_value = "target/train")]
    out: PathBuf,
    /// Hands to play in all.
    #[arg(long, default_value_t = 100_000)]
    hands: u64,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start afresh even if the folder holds a checkpoint.
    #[arg(long)]
    fresh: bool,
    /// Hands between measurements (held-out loss and a match against pimc).
    #[arg(long, default_value_t = 10_000)]
    eval_every: u64,
    /// Deals of each measurement's match against pimc (0: none).
    #[arg(long, default_value_t = 100)]
    eval_deals: u64,
    /// Pimc's worlds per decision in that match.
    #[arg(long, default_value_t = 100)]
    eval_samples: u32,
    /// Units of the first hidden layer.
    #[arg(long, default_value_t = 256)]
    h1: usize,
    /// Units of the second hidden layer.
    #[arg(long, default_value_t = 64)]
    h2: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 1e-3)]
    lr: f64,
    /// The chance of a random action in the network's own choices.
    #[arg(long, default_value_t = 0.05)]
    epsilon: f64,
    /// The chance that a seat is played by club instead of the network.
    #[arg(long, default_value_t = 0.5)]
    league: f64,
}

fn main() {
    let a = Args::parse();
    let cfg = TrainConfig {
        hands: a.hands,
        seed: a.seed,
        h1: a.h1,
        h2: a.h2,
        batch: a.batch,
        lr: a.lr,
        epsilon: a.epsilon,
        league: a.league,
        eval_every: a.eval_every,
        eval_deals: a.eval_deals,
        eval_samples: a.eval_samples,
        heldout_hands: TrainConfig::default().heldout_hands,
    };
    if a.hands % CHUNK != 0 {
        eprintln!("fiveup-train: --hands must be a multiple of {CHUNK}");
        std::process::exit(2);
    }
    let bar = indicatif::ProgressBar::new(a.hands);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} hands, {per_sec}, eta {eta} {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let progress = |done: u64, _total: u64, msg: &str| {
        bar.set_position(done);
        bar.set_message(msg.to_string());
    };
    match run(cfg, &a.out, !a.fresh, &progress) {
        Ok(curve) => {
            bar.finish();
            for p in curve {
                eprintln!(
                    "{} hands: held-out mse q {:.1} v {:.1}; against pimc {}",
                    p.hands,
                    p.heldout_q,
                    p.heldout_v,
                    p.vs_pimc
                        .map_or("-".into(), |(m, c)| format!("{m:+.2} ± {c:.2}"))
                );
            }
            eprintln!("weights: {}", a.out.join("weights.safetensors").display());
        }
        Err(e) => {
            bar.abandon();
            eprintln!("fiveup-train: {e}");
            std::process::exit(1);
        }
    }
}
