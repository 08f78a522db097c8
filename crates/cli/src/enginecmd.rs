//! Outside engines on the command line: `fiveup engine LEVEL` (a built-in player speaking the
//! engine protocol), the engine settings of `fiveup match` and `fiveup arena`, and the arena.

use std::time::Duration;

use fiveup_bots::duel::{run_match_using, MatchConfig, MatchMode, MatchReport};
use fiveup_bots::rating::PairResult;
use fiveup_outside::{Conduct, EngineConfig, Roster, Served};

use crate::selfplay::match_rules_for_table;

/// Options of `fiveup engine`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The player to serve: a level (beginner, casual, club, strong, master) or a player spec
    /// (random, greedy, club, neural, pimc, expert, with settings: `pimc:samples=100`).
    #[arg(value_name = "LEVEL")]
    pub level: String,
    /// The seed of the player's choices (an engine option too: `seed`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Run `fiveup engine`: answer the protocol on standard input and output.
pub fn run(a: &Args) -> Result<(), String> {
    let mut served = Served::new(&a.level, a.seed)?;
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    served
        .run(stdin, stdout)
        .map_err(|e| format!("engine input or output failed: {e}"))
}

/// How outside engines (`engine:COMMAND` players) are run.
#[derive(Debug, Clone, clap::Args)]
pub struct EngineArgs {
    /// Milliseconds an outside engine has for each move.
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    pub engine_move_ms: u64,
    /// Milliseconds an outside engine has in all for each game (no bank by default).
    #[arg(long, value_name = "MS")]
    pub engine_game_ms: Option<u64>,
    /// The built-in player that makes an engine's move when it fails to.
    #[arg(long, value_name = "BOT", default_value = "greedy")]
    pub engine_fallback: String,
    /// An engine option, `name=value` (repeatable), set in every engine that announces it.
    #[arg(long = "engine-option", value_name = "NAME=VALUE")]
    pub engine_options: Vec<String>,
    /// Show the engines' standard error (discarded by default).
    #[arg(long)]
    pub engine_log: bool,
}

impl EngineArgs {
    /// The engine configuration, or why the arguments are refused.
    pub fn config(&self) -> Result<EngineConfig, String> {
        if self.engine_move_ms == 0 {
            return Err("--engine-move-ms must be at least 1".into());
        }
        if self.engine_game_ms == Some(0) {
            return Err("--engine-game-ms must be at least 1".into());
        }
        let options = self
            .engine_options
            .iter()
            .map(|o| {
                o.split_once('=')
                    .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                    .filter(|(n, _)| !n.is_empty())
                    .ok_or_else(|| format!("--engine-option wants NAME=VALUE, not {o:?}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(EngineConfig {
            move_time: Duration::from_millis(self.engine_move_ms),
            game_time: self.engine_game_ms.map(Duration::from_millis),
            fallback: self.engine_fallback.clone(),
            options,
            stderr: self.engine_log,
            ..EngineConfig::default()
        })
    }
}

/// A roster holding `specs` (engines started and checked), with the keys the match runner
/// takes in their place.
pub fn roster(engine: &EngineArgs, specs: &[String]) -> Result<(Roster, Vec<String>), String> {
    let mut roster = Roster::new(engine.config()?);
    let keys = specs
        .iter()
        .map(|s| roster.add(s))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(o) = roster.unused_options().first() {
        return Err(format!(
            "--engine-option {o}: no engine announces that option"
        ));
    }
    Ok((roster, keys))
}

/// Play a match whose players may be engines: `cfg.a` and `cfg.b` are keys of `roster`.
/// Returns the report and each player's conduct (`None` for a built-in player).
pub fn play(
    roster: &Roster,
    cfg: &MatchConfig,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<(MatchReport, [Option<Conduct>; 2]), String> {
    let report = run_match_using(cfg, &|spec, seed| roster.make(spec, seed), progress)
        .map_err(|e| e.to_string())?;
    let conduct = [&cfg.a, &cfg.b].map(|k| roster.host(k).map(|h| h.conduct()));
    Ok((report, conduct))
}

/// Options of `fiveup arena`.
#[derive(Debug, clap::Args)]
pub struct ArenaArgs {
    /// The players: outside engines (`"engine:python3 examples/engines/greedy.py"`) and
    /// built-in levels or specs; the first is the anchor, rated 1000.
    #[arg(value_name = "PLAYER", required = true)]
    pub players: Vec<String>,
    /// Players at the table, 2 to 8, as `fiveup match --players` (default: what the rules say,
    /// else the preset's smallest; four with --partners). `--seats` is another name for it.
    #[arg(long = "players", alias = "seats", value_name = "PLAYERS")]
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
    /// Deals per pair; each deal is one game of the round robin.
    #[arg(long, default_value_t = 100)]
    pub deals: u64,
    /// Seed of every match (as `fiveup match --seed`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads per match.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// How the engines are run.
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// The round-robin result of one match: each deal is a game, and a forfeited match is lost on
/// every deal (drawn on every deal when both players forfeited).
#[must_use]
pub fn pair_result(i: usize, j: usize, r: &MatchReport, forfeits: [bool; 2]) -> PairResult {
    let [wins, losses, draws] = match forfeits {
        [false, false] => r.deals_won,
        [true, false] => [0, r.deals, 0],
        [false, true] => [r.deals, 0, 0],
        [true, true] => [0, 0, r.deals],
    };
    PairResult {
        i,
        j,
        wins,
        losses,
        draws,
    }
}

/// Run `fiveup arena`.
pub fn run_arena(a: &ArenaArgs) -> Result<(), String> {
    if a.players.len() < 2 {
        return Err("name at least two players".into());
    }
    if a.deals == 0 {
        return Err("--deals must be at least 1".into());
    }
    if a.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let rules = match_rules_for_table(&a.rules, a.seats, "--seats", a.partners, &a.options)?;
    // Every player is checked (every engine started once) before any match is played.
    let (_, _) = roster(&a.engine, &a.players)?;
    let mut pairs = Vec::new();
    let mut matches = Vec::new();
    let mut names = vec![String::new(); a.players.len()];
    if !a.json {
        crate::outln!(
            "arena: {} deals a pair, rules {}, seed {}",
            a.deals,
            rules.to_options_string(),
            a.seed
        );
        crate::outln!("| A | B | A - B per hand (95% CI) | deals won A / B / drawn | conduct |");
        crate::outln!("| --- | --- | --- | --- | --- |");
    }
    for i in 0..a.players.len() {
        for j in i + 1..a.players.len() {
            // A fresh roster per match: strikes and forfeits count per match.
            let (roster, keys) = roster(&a.engine, &[a.players[i].clone(), a.players[j].clone()])?;
            let cfg = MatchConfig {
                a: keys[0].clone(),
                b: keys[1].clone(),
                rules,
                deals: a.deals,
                seed: a.seed,
                threads: a.threads,
                mode: MatchMode::Hands,
            };
            let (r, conduct) = play(&roster, &cfg, &|_, _| {})?;
            names[i] = player_name(&a.players[i], &r.a.name);
            names[j] = player_name(&a.players[j], &r.b.name);
            let forfeits = [0, 1].map(|k| conduct[k].as_ref().is_some_and(|c| c.forfeited));
            let notes = conduct_note(&conduct);
            // The deals as they count: a forfeited match is lost on every deal.
            let counted = pair_result(i, j, &r, forfeits);
            let as_played = if forfeits.contains(&true) {
                format!(
                    " (forfeited; as played {} / {} / {})",
                    r.deals_won[0], r.deals_won[1], r.deals_won[2]
                )
            } else {
                String::new()
            };
            if !a.json {
                crate::outln!(
                    "| `{}` | `{}` | {:+.2} ({:+.2} .. {:+.2}) | {} / {} / {}{} | {} |",
                    a.players[i],
                    a.players[j],
                    r.mean_diff,
                    r.ci95_low(),
                    r.ci95_high(),
                    counted.wins,
                    counted.losses,
                    counted.draws,
                    as_played,
                    notes
                );
            }
            matches.push(serde_json::json!({
                "a": a.players[i],
                "b": a.players[j],
                "mean_diff": r.mean_diff,
                "ci95": r.ci95,
                "deals_won_a": counted.wins,
                "deals_won_b": counted.losses,
                "deals_drawn": counted.draws,
                "deals_as_played": r.deals_won,
                "forfeited": forfeits,
                "conduct_a": conduct[0],
                "conduct_b": conduct[1],
            }));
            pairs.push(counted);
        }
    }
    let ratings = crate::ratecmd::fit_ratings(a.players.len(), &pairs)?;
    if a.json {
        let list: Vec<_> = a
            .players
            .iter()
            .zip(&names)
            .zip(&ratings)
            .map(|((p, n), r)| {
                serde_json::json!({
                    "player": p,
                    "name": n,
                    "elo": r.elo,
                    "ci95": if r.ci95 > 0.0 { Some(r.ci95) } else { None },
                })
            })
            .collect();
        crate::outln!(
            "{}",
            serde_json::json!({
                "rules": rules.to_options_string(),
                "deals": a.deals,
                "seed": a.seed,
                "matches": matches,
                "ratings": list,
            })
        );
    } else {
        crate::outln!("");
        crate::ratecmd::print_ratings(&a.players, &ratings);
    }
    Ok(())
}

/// A player's name in the ratings: a level is named as given, with the player it plays
/// (`casual (greedy)`); any other player by its own name.
fn player_name(spec: &str, name: &str) -> String {
    match fiveup_bots::level_spec(spec.trim()) {
        Some(_) if spec.trim() != name => format!("{} ({name})", spec.trim()),
        _ => name.to_string(),
    }
}

/// The conduct column: each engine's strikes and forfeit, `-` when both are built-in.
fn conduct_note(conduct: &[Option<Conduct>; 2]) -> String {
    let parts: Vec<String> = ["A", "B"]
        .iter()
        .zip(conduct)
        .filter_map(|(who, c)| c.as_ref().map(|c| format!("{who}: {}", c.summary())))
        .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join("; ")
    }
}
