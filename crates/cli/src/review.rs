//! `fiveup review`: every decision of a recorded game, with what it lost against the best.

use fiveup_bots::review::review;
use fiveup_bots::ExpertConfig;

/// Options of `fiveup review`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The record file (text or JSON; the first game if it holds several).
    pub file: std::path::PathBuf,
    /// The analysing search's settings, as for `expert:` (e.g. `samples=1000,threads=2`).
    #[arg(long, default_value = "")]
    pub settings: String,
    /// Seed of the analysis.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON array instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Run `fiveup review`.
pub fn run(a: &Args) -> Result<(), String> {
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| format!("cannot read {}: {e}", a.file.display()))?;
    let records = crate::replay::read_records(&text)?;
    let record = records.first().ok_or("the file holds no record")?;
    let cfg = ExpertConfig::parse(&a.settings).map_err(|e| e.to_string())?;
    let moves = review(record, &cfg, a.seed).map_err(|e| e.to_string())?;
    if a.json {
        let v: Vec<serde_json::Value> = moves
            .iter()
            .map(|m| {
                serde_json::json!({
                    "hand": m.hand, "index": m.index, "seat": m.seat,
                    "chosen": m.chosen, "best": m.best,
                    "chosen_value": m.chosen_value, "best_value": m.best_value,
                    "loss": m.loss, "options": m.options,
                })
            })
            .collect();
        crate::outln!("{}", serde_json::Value::Array(v));
        return Ok(());
    }
    crate::outln!(
        "Each decision with a choice, judged from the deciding seat's view by {} (values are \
         points; when a side is near the target they are game outcomes, a won game counting {}).",
        cfg_name(&cfg),
        fiveup_bots::WIN_VALUE
    );
    let n = record.rules.players as usize;
    let mut lost = vec![0.0; n];
    let mut count = vec![0usize; n];
    for m in &moves {
        let verdict = if m.loss < 0.05 {
            "best".to_string()
        } else {
            format!("loses {:.1}; best {}", m.loss, m.best)
        };
        crate::outln!(
            "hand {:>2} #{:<3} {:<4} {:<9} ({} options) {verdict}",
            m.hand,
            m.index,
            m.seat.to_string(),
            m.chosen.to_string(),
            m.options
        );
        lost[m.seat.idx()] += m.loss;
        count[m.seat.idx()] += 1;
    }
    for s in 0..n {
        crate::outln!(
            "S{s}: {} decisions, {:.1} points lost in all, {:.2} per decision",
            count[s],
            lost[s],
            if count[s] > 0 {
                lost[s] / count[s] as f64
            } else {
                0.0
            }
        );
    }
    Ok(())
}

fn cfg_name(cfg: &ExpertConfig) -> String {
    match cfg.time {
        Some(t) => format!("the expert's search ({} ms a decision)", t.as_millis()),
        None => format!(
            "the expert's search ({} sampled worlds a decision)",
            cfg.samples
        ),
    }
}
