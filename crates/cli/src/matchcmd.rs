//! `fiveup match`: a duplicate match between two computer players.

use std::io::{IsTerminal as _, Write as _};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fiveup_bots::duel::{MatchConfig, MatchMode, MatchReport};
use fiveup_outside::Conduct;

use crate::selfplay::match_rules_from;

/// Options of `fiveup match`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Player A: a spec such as `greedy` or `random`, or an outside engine,
    /// `"engine:python3 examples/engines/greedy.py"` (docs/engine-protocol.md).
    #[arg(long, value_name = "BOT")]
    pub a: String,
    /// Player B.
    #[arg(long, value_name = "BOT")]
    pub b: String,
    /// Players at the table, 2 to 8: shorthand for `players=N` in the rules (default: what the
    /// rules say, else the preset's smallest table). Without --partners A sits alone against B
    /// in every other seat, once in each seat.
    #[arg(long)]
    pub players: Option<u8>,
    /// Four or six players in two partnerships: A holds the even seats and B the odd, then the
    /// other way round.
    #[arg(long)]
    pub partners: bool,
    /// Rules preset, optionally followed by options: `cross`, `"five-up target=150"`.
    #[arg(long, default_value = "five-up")]
    pub rules: String,
    /// One more option, `key=value` (repeatable), e.g. `--option sprouts=at-once`.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Deals to play; each is played once per seating.
    #[arg(long, default_value_t = 1000)]
    pub deals: u64,
    /// Seed: deal d is dealt from the seed whose first 8 bytes are this number and next 8 bytes
    /// are d (little-endian), as in selfplay; the players' seeds derive from it too.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (the results do not depend on it; decision times may).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Print one JSON object instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// Play whole games to the target instead of single hands.
    #[arg(long)]
    pub games: bool,
    /// In --games mode, stop with an error when a game has not ended after this many hands.
    #[arg(long, default_value_t = 1000)]
    pub max_hands: u32,
    /// How outside engines are run.
    #[command(flatten)]
    pub engine: crate::enginecmd::EngineArgs,
}

/// The progress line on standard error, redrawn at most ten times a second.
struct Progress {
    start: Instant,
    last: Mutex<Option<Instant>>,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            start: Instant::now(),
            last: Mutex::new(None),
        }
    }

    fn update(&self, done: u64, total: u64) {
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        let now = Instant::now();
        if done < total && last.is_some_and(|t| now - t < Duration::from_millis(100)) {
            return;
        }
        *last = Some(now);
        let secs = (now - self.start).as_secs_f64();
        let rate = done as f64 / secs.max(1e-9);
        let eta = (total - done) as f64 / rate.max(1e-9);
        const WIDTH: u64 = 30;
        let filled = (done * WIDTH / total) as usize;
        let bar = format!(
            "{}{}",
            "#".repeat(filled),
            "-".repeat(WIDTH as usize - filled)
        );
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r[{bar}] {done}/{total} deals  {rate:.1}/s  ETA {}\x1b[K",
            clock(eta)
        );
        let _ = err.flush();
    }

    fn clear(&self) {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K");
        let _ = err.flush();
    }
}

/// Seconds as `1h02m03s`, `2m03s` or `3s`.
fn clock(secs: f64) -> String {
    let s = secs.round().min(1e9) as u64;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, s) => format!("{h}h{m:02}m{s:02}s"),
    }
}

/// Run `fiveup match`.
pub fn run(a: &Args) -> Result<(), String> {
    if a.deals == 0 {
        return Err("--deals must be at least 1".into());
    }
    if a.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let rules = match_rules_from(&a.rules, a.players, a.partners, &a.options)?;
    // Engines are started once here to read their ids: a bad command fails before any deal.
    let (roster, keys) = crate::enginecmd::roster(&a.engine, &[a.a.clone(), a.b.clone()])?;
    let cfg = MatchConfig {
        a: keys[0].clone(),
        b: keys[1].clone(),
        rules,
        deals: a.deals,
        seed: a.seed,
        threads: a.threads,
        mode: if a.games {
            MatchMode::Games {
                max_hands: a.max_hands,
            }
        } else {
            MatchMode::Hands
        },
    };
    let (report, conduct) = if std::io::stderr().is_terminal() {
        let progress = Progress::new();
        let r = crate::enginecmd::play(&roster, &cfg, &|done, total| {
            progress.update(done, total);
        });
        progress.clear();
        r
    } else {
        crate::enginecmd::play(&roster, &cfg, &|_, _| {})
    }?;
    if a.json {
        crate::outln!("{}", json(&cfg, &report, &conduct));
    } else {
        summary(&cfg, &report, &conduct);
    }
    Ok(())
}

/// The report as one JSON object.
fn json(cfg: &MatchConfig, r: &MatchReport, conduct: &[Option<Conduct>; 2]) -> serde_json::Value {
    let mut v = serde_json::json!({
        "a": r.a.name,
        "b": r.b.name,
        "players": cfg.rules.players,
        "partners": cfg.rules.partnerships,
        "rules": cfg.rules.to_options_string(),
        "mode": if r.games.is_some() { "games" } else { "hands" },
        "seed": cfg.seed,
        "threads": cfg.threads,
        "deals": r.deals,
        "seatings": r.seatings,
        "hands": r.hands,
        "mean_a": r.a.mean,
        "mean_b": r.b.mean,
        "mean_diff": r.mean_diff,
        "sd_diff": r.sd_diff,
        "ci95": r.ci95,
        "ci95_low": r.ci95_low(),
        "ci95_high": r.ci95_high(),
        "deals_won_a": r.deals_won[0],
        "deals_won_b": r.deals_won[1],
        "deals_drawn": r.deals_won[2],
        "hands_won_a": r.a.hands_won,
        "hands_won_b": r.b.hands_won,
        "hands_shared": r.hands_shared,
        "hands_no_winner": r.hands_no_winner,
        "decisions_a": r.a.decisions,
        "decisions_b": r.b.decisions,
        "decision_ms_median_a": r.time_a.median_ms,
        "decision_ms_p99_a": r.time_a.p99_ms,
        "decision_ms_median_b": r.time_b.median_ms,
        "decision_ms_p99_b": r.time_b.p99_ms,
        "engine_a": conduct[0],
        "engine_b": conduct[1],
    });
    if let (Some(g), Some(o)) = (&r.games, v.as_object_mut()) {
        o.insert("games".into(), g.games.into());
        o.insert("wins_a".into(), g.wins_a.into());
        o.insert("wins_b".into(), g.wins_b.into());
        o.insert("win_rate_a".into(), g.win_rate_a.into());
        o.insert(
            "win_rate_ci95".into(),
            serde_json::json!([g.win_rate_ci95.0, g.win_rate_ci95.1]),
        );
    }
    v
}

/// A number with its sign, or `n/a` when undefined (one deal).
fn signed(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.2}")
    } else {
        "n/a".into()
    }
}

/// The report as a readable summary.
fn summary(cfg: &MatchConfig, r: &MatchReport, conduct: &[Option<Conduct>; 2]) {
    let unit = if r.games.is_some() { "game" } else { "hand" };
    crate::outln!(
        "{} (A) vs {} (B): {} deals x {} seatings, {} hands",
        r.a.name,
        r.b.name,
        r.deals,
        r.seatings,
        r.hands
    );
    crate::outln!(
        "rules: {}; seed {}; {} threads",
        cfg.rules.to_options_string(),
        cfg.seed,
        cfg.threads
    );
    crate::outln!(
        "mean points per {unit}: A {:.2}, B {:.2}",
        r.a.mean,
        r.b.mean
    );
    crate::outln!(
        "A - B per deal: mean {}, sd {}, 95% CI {} .. {} (+/- {})",
        signed(r.mean_diff),
        if r.sd_diff.is_finite() {
            format!("{:.2}", r.sd_diff)
        } else {
            "n/a".into()
        },
        signed(r.ci95_low()),
        signed(r.ci95_high()),
        if r.ci95.is_finite() {
            format!("{:.2}", r.ci95)
        } else {
            "n/a".into()
        }
    );
    crate::outln!(
        "hands won: A {}, B {}, shared {}, no winner {}",
        r.a.hands_won,
        r.b.hands_won,
        r.hands_shared,
        r.hands_no_winner
    );
    if let Some(g) = &r.games {
        crate::outln!(
            "games won: A {} of {} ({:.1}%, 95% CI {:.1}% .. {:.1}%), B {}",
            g.wins_a,
            g.games,
            100.0 * g.win_rate_a,
            100.0 * g.win_rate_ci95.0,
            100.0 * g.win_rate_ci95.1,
            g.wins_b
        );
    }
    for (who, side, t) in [("A", &r.a, &r.time_a), ("B", &r.b, &r.time_b)] {
        crate::outln!(
            "decisions {who}: {}, median {:.4} ms, p99 {:.4} ms",
            side.decisions,
            t.median_ms,
            t.p99_ms
        );
    }
    for (who, c) in ["A", "B"].iter().zip(conduct) {
        if let Some(c) = c {
            crate::outln!("engine {who}: {}", c.summary());
            for (k, s) in c.strikes.iter().enumerate() {
                crate::outln!("  strike {}: {}: {}", k + 1, s.kind.name(), s.detail);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::clock;

    #[test]
    fn clock_reads_naturally() {
        assert_eq!(clock(4.4), "4s");
        assert_eq!(clock(125.0), "2m05s");
        assert_eq!(clock(3725.0), "1h02m05s");
    }
}
