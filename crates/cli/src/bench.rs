//! `fiveup bench`: random playouts of full hands, default-rules two-player hands unless
//! `--rules` names other rules (a bigger set, more players).

use std::time::Instant;

use fiveup_engine::{random_hand, random_hand_in_place, FastRng, Rules};

/// Options of `fiveup bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Hands to play in all (split evenly between threads).
    #[arg(long, default_value_t = 4_000_000)]
    hands: u64,
    /// Threads (each plays its share on its own state and generator).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the playout generators (thread i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
    /// Rules of the hands played, as for `selfplay` (default: the default game, two players):
    /// `"set=12 players=8"`, `cross`.
    #[arg(long, default_value = "five-up")]
    rules: String,
}

/// What one thread did: hands played and a checksum of the results, so the work is not
/// optimised away and runs can be compared.
fn worker(rules: Rules, hands: u64, seed: u64) -> Result<(u64, i64), String> {
    let mut rng = FastRng::new(seed);
    let mut state = random_hand(rules, &mut rng).map_err(|e| e.to_string())?;
    let mut checksum = 0i64;
    for _ in 0..hands {
        random_hand_in_place(&mut state, &mut rng);
        checksum = checksum.wrapping_add(i64::from(state.scores().0[0] - state.scores().0[1]));
    }
    Ok((hands, checksum))
}

/// Run the benchmark.
pub fn run(a: &Args) -> Result<(), String> {
    if a.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    if a.hands == 0 {
        return Err("--hands must be at least 1".into());
    }
    let rules = Rules::parse(&a.rules).map_err(|e| e.to_string())?;
    let per = a.hands / a.threads as u64;
    let extra = a.hands % a.threads as u64;
    let start = Instant::now();
    let results: Vec<Result<(u64, i64), String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..a.threads)
            .map(|i| {
                let n = per + u64::from((i as u64) < extra);
                let seed = a.seed.wrapping_add(i as u64);
                s.spawn(move || worker(rules, n, seed))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a bench thread panicked".into()))
            })
            .collect()
    });
    let seconds = start.elapsed().as_secs_f64();
    let mut hands = 0;
    let mut checksum = 0i64;
    for r in results {
        let (h, c) = r?;
        hands += h;
        checksum = checksum.wrapping_add(c);
    }
    let rate = hands as f64 / seconds;
    if a.json {
        let v = serde_json::json!({
            "hands": hands,
            "seconds": seconds,
            "hands_per_sec": rate,
            "threads": a.threads,
            "seed": a.seed,
            "rules": if a.rules == "five-up" {
                "five-up, 2 players".to_string()
            } else {
                rules.to_options_string()
            },
            "checksum": checksum,
        });
        crate::outln!("{v}");
    } else {
        let what = if a.rules == "five-up" {
            "two-player hands".to_string()
        } else {
            format!("hands of {}", a.rules)
        };
        crate::outln!(
            "{hands} random {what} in {seconds:.3} s on {} thread(s): {:.0} hands/s",
            a.threads,
            rate
        );
    }
    Ok(())
}
