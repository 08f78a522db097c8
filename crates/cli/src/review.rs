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
    let names = fiveup_tui::game::display_names(&record.seats, record.rules.players);
    if let Err(e) = record.replay() {
        return Err(fiveup_tui::game::replay_error_text(&e, &names));
    }
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
                    "seat_name": names[m.seat.idx()],
                    "chosen_stderr": m.chosen_stderr, "best_stderr": m.best_stderr,
                    "within_noise": m.within_noise(), "counted_loss": m.counted_loss(),
                })
            })
            .collect();
        crate::outln!("{}", serde_json::Value::Array(v));
        return Ok(());
    }
    crate::outln!(
        "Each decision with a choice, judged from the deciding seat's view by {} (values are \
         points; when a side is near the target they are game outcomes, a won game counting {}). \
         A difference within {} standard errors is within the noise of the sampled worlds and \
         is not counted as a loss.",
        cfg_name(&cfg),
        fiveup_bots::WIN_VALUE,
        fiveup_bots::review::NOISE_FACTOR
    );
    let n = record.rules.players as usize;
    let mut lost = vec![0.0; n];
    let mut count = vec![0usize; n];
    let name_w = names.iter().map(|n| n.chars().count()).max().unwrap_or(4);
    for m in &moves {
        crate::outln!(
            "hand {:>2} #{:<3} {:<name_w$} {:<9} ({} options) {}",
            m.hand,
            m.index,
            names[m.seat.idx()],
            m.chosen.to_string(),
            m.options,
            m.verdict()
        );
        lost[m.seat.idx()] += m.counted_loss();
        count[m.seat.idx()] += 1;
    }
    for s in 0..n {
        crate::outln!(
            "{:<name_w$}: {} decisions, {:.1} points lost in all, {:.2} per decision",
            names[s],
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
