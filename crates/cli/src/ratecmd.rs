//! `fiveup rate`: a round robin of duplicate matches, rated on the Elo scale.

use fiveup_bots::duel::{run_match, MatchConfig, MatchMode};
use fiveup_bots::rating::{fit, PairResult, Rating};
use fiveup_bots::LEVELS;

use crate::selfplay::match_rules_for_table;

/// Options of `fiveup rate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The players, weakest expected first; the first is the anchor, rated 1000. Default: the
    /// levels people choose from (beginner, casual, club, strong, master).
    #[arg(value_name = "BOT")]
    pub players: Vec<String>,
    /// Players at the table, 2 to 8: shorthand for `players=N` in the rules (default: what the
    /// rules say, else the preset's smallest table).
    #[arg(long)]
    pub seats: Option<u8>,
    /// Four or six players in two partnerships.
    #[arg(long)]
    pub partners: bool,
    /// Rules preset, optionally followed by options.
    #[arg(long, default_value = "five-up")]
    pub rules: String,
    /// One more option, `key=value` (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Deals per pair; each deal is one game of the round robin, won by the player whose side
    /// scored more over the deal's seatings.
    #[arg(long, default_value_t = 300)]
    pub deals: u64,
    /// Seed of every match (as `fiveup match --seed`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads per match (the results do not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Run `fiveup rate`.
pub fn run(a: &Args) -> Result<(), String> {
    let players: Vec<String> = if a.players.is_empty() {
        LEVELS.iter().map(|(l, _)| (*l).to_string()).collect()
    } else {
        a.players.clone()
    };
    if players.len() < 2 {
        return Err("name at least two players".into());
    }
    if a.deals == 0 {
        return Err("--deals must be at least 1".into());
    }
    if a.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let rules = match_rules_for_table(&a.rules, a.seats, "--seats", a.partners, &a.options)?;
    // Every spec is checked before any match is played.
    for p in &players {
        fiveup_bots::make_bot(p, 0).map_err(|e| format!("{p}: {e}"))?;
    }
    let mut pairs = Vec::new();
    crate::outln!(
        "round robin: {} deals a pair, rules {}, seed {}",
        a.deals,
        rules.to_options_string(),
        a.seed
    );
    crate::outln!("| A | B | A - B per hand (95% CI) | deals won A / B / drawn |");
    crate::outln!("| --- | --- | --- | --- |");
    for i in 0..players.len() {
        for j in i + 1..players.len() {
            let r = run_match(&MatchConfig {
                a: players[i].clone(),
                b: players[j].clone(),
                rules,
                deals: a.deals,
                seed: a.seed,
                threads: a.threads,
                mode: MatchMode::Hands,
            })
            .map_err(|e| e.to_string())?;
            crate::outln!(
                "| `{}` | `{}` | {:+.2} ({:+.2} .. {:+.2}) | {} / {} / {} |",
                players[i],
                players[j],
                r.mean_diff,
                r.ci95_low(),
                r.ci95_high(),
                r.deals_won[0],
                r.deals_won[1],
                r.deals_won[2]
            );
            pairs.push(PairResult {
                i,
                j,
                wins: r.deals_won[0],
                losses: r.deals_won[1],
                draws: r.deals_won[2],
            });
        }
    }
    let ratings = fit_ratings(players.len(), &pairs)?;
    crate::outln!("");
    print_ratings(&players, &ratings);
    Ok(())
}

/// The ratings of a round robin (see [`fit`]), or an error when the results do not connect
/// every player.
pub fn fit_ratings(players: usize, pairs: &[PairResult]) -> Result<Vec<Rating>, String> {
    fit(players, pairs).ok_or_else(|| "the results do not connect every player".into())
}

/// The rating list: each player's Elo with its 95% interval (the first is the anchor).
pub fn print_ratings(players: &[String], ratings: &[Rating]) {
    crate::outln!("| player | Elo (95% CI) |");
    crate::outln!("| --- | --- |");
    for (p, r) in players.iter().zip(ratings) {
        if r.ci95 > 0.0 {
            crate::outln!(
                "| `{p}` | {:.0} ({:.0} .. {:.0}) |",
                r.elo,
                r.elo - r.ci95,
                r.elo + r.ci95
            );
        } else {
            crate::outln!("| `{p}` | {:.0} (anchor) |", r.elo);
        }
    }
}
