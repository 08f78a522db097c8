//! `fiveup replay`: check a game record and show it action by action.

use std::fmt::Write as _;

use fiveup_engine::notation::{Record, ReplayedGame};
use fiveup_engine::{Action, HandEnd, LeadKind};

/// Options of `fiveup replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The record file: text notation (one or more games) or JSON (a record or an array).
    pub file: std::path::PathBuf,
    /// Print the replay as JSON (one object per game) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Split a text file holding several records at each `[Format` header.
fn split_text(text: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("[Format ") && !current.trim().is_empty() {
            games.push(std::mem::take(&mut current));
        }
        current.push_str(line);
        current.push('\n');
    }
    if !current.trim().is_empty() {
        games.push(current);
    }
    games
}

/// Read every record in `text` (text notation or JSON).
pub fn read_records(text: &str) -> Result<Vec<Record>, String> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        return Record::from_json(text)
            .map(|r| vec![r])
            .map_err(|e| format!("record: {e}"));
    }
    if trimmed.starts_with('[') && !trimmed.starts_with("[Format") {
        let values: Vec<serde_json::Value> =
            serde_json::from_str(text).map_err(|e| format!("JSON: {e}"))?;
        return values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                Record::from_json(&v.to_string()).map_err(|e| format!("record {}: {e}", i + 1))
            })
            .collect();
    }
    let games = split_text(text);
    if games.is_empty() {
        return Err("the file holds no record".into());
    }
    games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            g.parse::<Record>().map_err(|e| {
                if games.len() > 1 {
                    format!("game {}: {e}", i + 1)
                } else {
                    e.to_string()
                }
            })
        })
        .collect()
}

fn lead_text(kind: LeadKind) -> &'static str {
    match kind {
        LeadKind::HighestDouble => "highest double",
        LeadKind::HeaviestTile => "heaviest tile, no double dealt",
        LeadKind::DrawUntilDouble => "drew until a double appeared",
        LeadKind::Free => "any tile",
        LeadKind::Lot => "chosen by lot, any tile",
    }
}

/// Scores as `South 135, North 270`.
fn scores_words(names: &[String], rules: &fiveup_engine::Rules, scores: &[i32]) -> String {
    (0..rules.sides())
        .map(|s| {
            format!(
                "{} {}",
                side_name(names, rules, fiveup_engine::Side(s)),
                scores.get(usize::from(s)).copied().unwrap_or(0)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A side's name: its players' names joined with `&`.
fn side_name(names: &[String], rules: &fiveup_engine::Rules, side: fiveup_engine::Side) -> String {
    (0..rules.players)
        .map(fiveup_engine::Seat)
        .filter(|&p| rules.side_of(p) == side)
        .map(|p| names[p.idx()].clone())
        .collect::<Vec<_>>()
        .join(" & ")
}

/// The replay as text.
fn describe(record: &Record, game: &ReplayedGame) -> String {
    let mut out = String::new();
    let rules = record.rules;
    let names = fiveup_tui::game::display_names(&record.seats, rules.players);
    let name = |s: fiveup_engine::Seat| names[s.idx()].clone();
    let _ = writeln!(out, "rules: {}", rules.to_options_string());
    if let Some(seed) = &record.seed {
        let _ = writeln!(out, "seed: {seed} (every deal checked against it)");
    }
    for (k, v) in &record.tags {
        let _ = writeln!(out, "{}: {v}", k.to_lowercase());
    }
    // Column widths from what is to be shown, so that the columns line up.
    let mut rows: Vec<(usize, [String; 6])> = Vec::new();
    for (h, hand) in game.hands.iter().enumerate() {
        for (i, step) in hand.steps.iter().enumerate() {
            let what = match step.action {
                Action::Draw => format!(
                    "draws {}",
                    step.drawn.map_or_else(String::new, |t| t.to_string())
                ),
                Action::Pass => "passes".to_string(),
                Action::Claim(n) => format!("claims {n}"),
                Action::Muggins => "calls Muggins".to_string(),
                a @ Action::Play { .. } => format!("plays {a}"),
            };
            let ends: Vec<String> = step
                .open_ends
                .iter()
                .map(|(arm, pip)| format!("{arm}:{pip}"))
                .collect();
            let points = if step.points > 0 {
                format!("+{}", step.points)
            } else {
                String::new()
            };
            rows.push((
                h,
                [
                    format!("{}.", i + 1),
                    name(step.seat),
                    what,
                    points,
                    step.count.to_string(),
                    ends.join(" "),
                ],
            ));
        }
    }
    let width = |k: usize| {
        rows.iter()
            .map(|r| r.1[k].chars().count())
            .max()
            .unwrap_or(0)
    };
    let w: Vec<usize> = (0..6).map(width).collect();
    let mut next = 0;
    for (h, hand) in game.hands.iter().enumerate() {
        let _ = writeln!(
            out,
            "\nhand {} - {} {} ({})",
            h + 1,
            name(hand.leader),
            if name(hand.leader) == "You" {
                "lead"
            } else {
                "leads"
            },
            lead_text(hand.lead_kind)
        );
        for (seat, tile) in &hand.lead_draws {
            let _ = writeln!(out, "  {} draws {tile} looking for a double", name(*seat));
        }
        for step in &hand.steps {
            let r = &rows[next].1;
            next += 1;
            let line = format!(
                "  {:>w0$} {:<w1$}  {:<w2$} {:>w3$}  count {:>w4$}  ends {:<w5$}  scores {}",
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                scores_words(&names, &rules, &step.scores),
                w0 = w[0],
                w1 = w[1],
                w2 = w[2],
                w3 = w[3],
                w4 = w[4],
                w5 = w[5],
            );
            let _ = writeln!(out, "{}", line.trim_end());
        }
        match &hand.result {
            Some(r) => {
                let how = match r.end {
                    HandEnd::Domino { seat } => {
                        fiveup_tui::game::agree(&name(seat), "goes out", "go out")
                    }
                    HandEnd::Blocked => "blocked".to_string(),
                };
                let n = rules.sides() as usize;
                let pips: Vec<String> = (0..n)
                    .map(|s| {
                        format!(
                            "{} {}",
                            side_name(&names, &rules, fiveup_engine::Side(s as u8)),
                            r.side_pips.0[s]
                        )
                    })
                    .collect();
                let awards: Vec<String> = (0..n)
                    .map(|s| {
                        format!(
                            "{} {:+}",
                            side_name(&names, &rules, fiveup_engine::Side(s as u8)),
                            r.awards.0[s]
                        )
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "  {how}; pips left: {}; awards: {}; scores: {}",
                    pips.join(", "),
                    awards.join(", "),
                    scores_words(&names, &rules, &hand.scores)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "  the hand stopped; scores: {}",
                    scores_words(&names, &rules, &hand.scores)
                );
            }
        }
    }
    match game.winner {
        Some(w) => {
            let _ = writeln!(
                out,
                "\nGame over: {} {}; final score {}.",
                side_name(&names, &rules, w),
                if side_name(&names, &rules, w).contains('&') {
                    "win"
                } else {
                    "wins"
                },
                scores_words(&names, &rules, &game.scores)
            );
        }
        None => {
            let _ = writeln!(
                out,
                "\nThe game is not finished; score so far {}.",
                scores_words(&names, &rules, &game.scores)
            );
        }
    }
    out
}

/// A hand's result in JSON with its lists as long as the table: one entry a seat (`hands`,
/// `pips`) or a side (`side_pips`, `awards`, `scored`). The engine's own JSON keeps at least
/// four entries, for records written when a table had at most four seats.
fn result_json(
    r: Option<&fiveup_engine::HandResult>,
    rules: &fiveup_engine::Rules,
) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        let (seats, sides) = (usize::from(rules.players), usize::from(rules.sides()));
        for (key, n) in [
            ("hands", seats),
            ("pips", seats),
            ("side_pips", sides),
            ("awards", sides),
            ("scored", sides),
        ] {
            if let Some(serde_json::Value::Array(a)) = o.get_mut(key) {
                a.truncate(n);
            }
        }
    }
    v
}

/// Run `fiveup replay`.
pub fn run(a: &Args) -> Result<(), String> {
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| format!("cannot read {}: {e}", a.file.display()))?;
    let records = read_records(&text)?;
    let many = records.len() > 1;
    let mut json_out = Vec::new();
    for (i, record) in records.iter().enumerate() {
        let game = record.replay().map_err(|e| {
            let names = fiveup_tui::game::display_names(&record.seats, record.rules.players);
            let e = fiveup_tui::game::replay_error_text(&e, &names);
            if many {
                format!("game {}: {e}", i + 1)
            } else {
                e
            }
        })?;
        if a.json {
            json_out.push(serde_json::json!({
                "rules": record.rules.to_options_string(),
                "seats": record.seats,
                "hands": game.hands.iter().map(|h| serde_json::json!({
                    "leader": h.leader,
                    "lead_kind": h.lead_kind,
                    "steps": h.steps.iter().map(|s| serde_json::json!({
                        "seat": s.seat,
                        "action": s.action,
                        "points": s.points,
                        "drawn": s.drawn,
                        "count": s.count,
                        "open_ends": s.open_ends.iter().map(|(a, p)| serde_json::json!([a, p])).collect::<Vec<_>>(),
                        "scores": s.scores,
                    })).collect::<Vec<_>>(),
                    "result": result_json(h.result.as_ref(), &record.rules),
                    "scores": h.scores,
                })).collect::<Vec<_>>(),
                "winner": game.winner,
                "scores": game.scores,
            }));
        } else {
            if many {
                crate::outln!("=== game {}", i + 1);
            }
            crate::emit(&describe(record, &game));
        }
    }
    if a.json {
        let v = if many {
            serde_json::Value::Array(json_out)
        } else {
            json_out.pop().unwrap_or(serde_json::Value::Null)
        };
        crate::outln!("{v}");
    } else if many {
        crate::outln!(
            "\n{} records checked: every action and score is consistent",
            records.len()
        );
    } else {
        crate::outln!("record checked: every action and score is consistent");
    }
    Ok(())
}
