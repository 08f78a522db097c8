//! `fiveup selfplay`: whole games between random players.

use std::fmt::Write as _;

use fiveup_engine::notation::{Record, Recorder};
use fiveup_engine::{FastRng, Phase, Rules, Seed, State};

/// Options of `fiveup selfplay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 1)]
    pub games: u64,
    /// Seed: game g is dealt from the seed whose first 8 bytes are this number and next 8 bytes
    /// are g (little-endian), and its players choose with a generator seeded from both.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players, 2 to 8: shorthand for `players=N` in the rules (default: what the rules say,
    /// else the preset's smallest table).
    #[arg(long)]
    pub players: Option<u8>,
    /// Four or six players in two partnerships (the default for four and six players).
    #[arg(long, conflicts_with = "individual")]
    pub partners: bool,
    /// Four or six players each for themselves.
    #[arg(long)]
    pub individual: bool,
    /// Rules preset, optionally followed by options: `cross`, `"five-up target=150"`.
    #[arg(long, default_value = "five-up")]
    pub rules: String,
    /// One more option, `key=value` (repeatable), e.g. `--option sprouts=at-once`.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Stop a game that has not ended after this many hands (some option mixes never end).
    #[arg(long, default_value_t = 1000)]
    pub max_hands: u32,
    /// Print only the summary, not a line per game.
    #[arg(long)]
    pub quiet: bool,
    /// Write every game's record to this file: text notation, or JSON when the name ends in
    /// `.json` (an object for one game, an array for several).
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
}

/// The words of a rules string and its `--option`s.
fn rule_words(rules: &str, options: &[String]) -> Result<String, String> {
    let mut words = rules.to_string();
    for o in options {
        if !o.contains('=') {
            return Err(format!("--option takes key=value, got {o:?}"));
        }
        words.push(' ');
        words.push_str(o);
    }
    Ok(words)
}

/// The value the rules words give `key` (the last one given), if any.
pub fn named_option<'a>(words: &'a str, key: &str) -> Option<&'a str> {
    words
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter_map(|w| w.split_once('='))
        .filter(|(k, _)| *k == key)
        .map(|(_, v)| v)
        .next_back()
}

/// The rules the options describe, validated. The rules string (with its `--option`s) says
/// how many play; `--players` is shorthand for the same `players=` option, and giving both
/// differently is an error. Every command that takes `--rules` reads its table here.
pub fn rules_from(
    rules: &str,
    players: Option<u8>,
    partners: bool,
    individual: bool,
    options: &[String],
) -> Result<Rules, String> {
    let given = players.map(|p| (p, format!("--players is {p}")));
    rules_for_table(rules, given, partners, individual, options)
}

/// [`rules_from`] with the table's size given by another flag: `(n, how)`, where `how` says
/// how it was given for the error when the rules name another (`--seats is 3`,
/// `--seats names 3 seats`).
pub fn rules_for_table(
    rules: &str,
    given: Option<(u8, String)>,
    partners: bool,
    individual: bool,
    options: &[String],
) -> Result<Rules, String> {
    let mut words = rule_words(rules, options)?;
    match (named_option(&words, "players"), given) {
        (Some(named), Some((p, how))) if named.parse::<u8>() != Ok(p) => {
            return Err(format!(
                "the rules say players={named} but {how}: give the number once, or the same \
                 in both"
            ));
        }
        (None, Some((p, _))) => {
            let _ = write!(words, " players={p}");
        }
        _ => {}
    }
    if partners {
        words.push_str(" partnerships=true");
    }
    if individual {
        words.push_str(" partnerships=false");
    }
    Rules::parse(&words).map_err(|e| e.to_string())
}

/// [`rules_from`] for the duplicate runners, where four players sit each for themselves unless
/// `--partners` is given or the rules name `partnerships`.
pub fn match_rules_from(
    rules: &str,
    players: Option<u8>,
    partners: bool,
    options: &[String],
) -> Result<Rules, String> {
    match_rules_for_table(rules, players, "--players", partners, options)
}

/// [`match_rules_from`] with the table's size given by the flag `flag` (`--seats`).
pub fn match_rules_for_table(
    rules: &str,
    players: Option<u8>,
    flag: &str,
    partners: bool,
    options: &[String],
) -> Result<Rules, String> {
    let words = rule_words(rules, options)?;
    let given = |players: Option<u8>| players.map(|p| (p, format!("{flag} is {p}")));
    let mut table = rules_for_table(rules, given(players), false, false, options)?.players;
    // Partnerships need four or six: without a table size given, four.
    let players = if partners
        && players.is_none()
        && named_option(&words, "players").is_none()
        && table != 4
        && table != 6
    {
        table = 4;
        Some(4)
    } else {
        players
    };
    if partners && table != 4 && table != 6 {
        return Err(format!("--partners needs {flag} 4 or 6, not {table}"));
    }
    let mut r = rules_for_table(rules, given(players), partners, false, options)?;
    if !partners
        && r.players == 4
        && named_option(&words, "partnerships").is_none()
        && named_option(&words, "partners").is_none()
    {
        r.partnerships = false;
    }
    r.validate().map_err(|e| e.to_string())?;
    Ok(r)
}

/// `1 hand`, `3 hands`.
fn hands_text(n: u64) -> String {
    format!("{n} {}", if n == 1 { "hand" } else { "hands" })
}

/// One finished game of random players.
#[derive(Debug)]
pub struct Played {
    /// The final state.
    pub state: State,
    /// Hands played.
    pub hands: u32,
}

/// Play one game between random players and record it.
pub fn play_game(
    rules: Rules,
    seed: &Seed,
    rng: &mut FastRng,
    max_hands: u32,
) -> Result<(Played, Record), String> {
    let mut state = State::from_seed(rules, seed).map_err(|e| e.to_string())?;
    let mut recorder = Recorder::new(&state, None, Some(*seed)).map_err(|e| e.to_string())?;
    let mut hands = 1;
    loop {
        match state.phase() {
            Phase::GameOver => {
                let record = recorder.finish(&state);
                return Ok((Played { state, hands }, record));
            }
            Phase::HandOver => {
                if hands >= max_hands {
                    return Err(format!(
                        "the game had not ended after {} (scores {:?}); these options may \
                         never reach the target",
                        hands_text(u64::from(max_hands)),
                        &state.scores().0[..rules.sides() as usize]
                    ));
                }
                state.next_hand_from_seed(seed).map_err(|e| e.to_string())?;
                recorder.start_hand(&state);
                hands += 1;
            }
            Phase::Play | Phase::Claim => {
                let list = state.legal_actions();
                let a = list[rng.below(list.len() as u32) as usize];
                recorder
                    .apply(&mut state, a)
                    .map_err(|e| format!("engine refused its own legal action {a}: {e}"))?;
            }
        }
    }
}

/// Run `fiveup selfplay`.
pub fn run(a: &Args) -> Result<(), String> {
    let rules = rules_from(&a.rules, a.players, a.partners, a.individual, &a.options)?;
    if a.games == 0 {
        return Err("--games must be at least 1".into());
    }
    // A record file that cannot be written fails before the first game, not after the last.
    if let Some(path) = &a.record {
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let sides = rules.sides() as usize;
    let mut wins = vec![0u64; sides];
    let mut total_hands = 0u64;
    let mut points = vec![0i64; sides];
    let mut records = Vec::new();
    for g in 0..a.games {
        let seed = fiveup_bots::duel::deal_seed(a.seed, g);
        let mut rng = FastRng::new(a.seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let (played, record) = play_game(rules, &seed, &mut rng, a.max_hands)?;
        records.push(record);
        let winner = played
            .state
            .winner()
            .ok_or("a finished game has no winner")?;
        wins[winner.idx()] += 1;
        total_hands += u64::from(played.hands);
        let scores = &played.state.scores().0[..sides];
        for (p, s) in points.iter_mut().zip(scores) {
            *p += i64::from(*s);
        }
        if !a.quiet {
            crate::outln!(
                "game {g}: side {} wins, scores {:?}, {}",
                winner.0,
                scores,
                hands_text(u64::from(played.hands))
            );
        }
    }
    if let Some(path) = &a.record {
        let json = path.extension().is_some_and(|e| e == "json");
        let body = if json {
            let values: Vec<serde_json::Value> = records
                .iter()
                .map(|r| serde_json::from_str(&r.to_json()).map_err(|e| e.to_string()))
                .collect::<Result<_, _>>()?;
            let v = if values.len() == 1 {
                values.into_iter().next().unwrap_or_default()
            } else {
                serde_json::Value::Array(values)
            };
            format!("{v:#}\n")
        } else {
            records
                .iter()
                .map(Record::to_text)
                .collect::<Vec<_>>()
                .join("\n")
        };
        std::fs::write(path, body).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    crate::outln!(
        "{} games ({}); wins by side {:?}; {:.1} hands per game",
        a.games,
        rules.to_options_string(),
        wins,
        total_hands as f64 / a.games as f64
    );
    Ok(())
}
