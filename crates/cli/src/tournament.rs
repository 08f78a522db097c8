//! `fiveup tournament`: an event of computer players, offline, in any format of the
//! `fiveup-tournament` crate. Deterministic for a seed: every game's deal and every player's
//! seed derive from `--seed` and the game's number in the event.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use fiveup_bots::duel::{bot_seed, deal_seed};
use fiveup_bots::{make_bot, Bot, LEVELS};
use fiveup_engine::{Phase, Rules, Seat, Side, State};
use fiveup_tournament::arena::{Arena, ArenaSettings};
use fiveup_tournament::cutthroat::{CutThroat, CutThroatSettings};
use fiveup_tournament::duplicate::{self, Board, DuplicateScoring};
use fiveup_tournament::knockout::{Elimination, Knockout, KnockoutSettings};
use fiveup_tournament::roundrobin::{RoundRobin, RoundRobinSettings};
use fiveup_tournament::swiss::{Swiss, SwissSettings};
use fiveup_tournament::{Entrant, EntrantId, MatchResult, MatchRule, StandingRow};

use crate::selfplay::rules_from;

/// The formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Swiss rounds paired within score groups.
    Swiss,
    /// Single elimination.
    Knockout,
    /// Double elimination.
    Double,
    /// Arena: a fixed (simulated) time, free players paired at once.
    Arena,
    /// Round robin on Berger tables.
    Roundrobin,
    /// Everyone plays the same deals against the house player; matchpoints.
    Duplicate,
    /// Cut-throat tables of 3 to 8, each for themselves.
    Cutthroat,
}

/// How duplicate boards are scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Scoring {
    /// Matchpoints as a percentage.
    Matchpoints,
    /// Points minus each board's average.
    Difference,
}

/// Options of `fiveup tournament`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The format.
    #[arg(long, value_enum, default_value = "swiss")]
    pub format: Format,
    /// The entrants: player specs or levels separated by commas, repeats allowed
    /// (`"expert,pimc,club,greedy,random"`, `"master,strong,club"`). With --partners an entrant
    /// is a team: `expert+pimc`, or one spec for two partners of that kind.
    #[arg(long, conflicts_with = "field")]
    pub entrants: Option<String>,
    /// A field of N entrants cycling through the levels, weakest first (beginner, casual,
    /// club, strong, master, beginner, ...).
    #[arg(long)]
    pub field: Option<u32>,
    /// Rounds (Swiss: default the rounds a knockout of the field would need; cut-throat: 3).
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Games in a match: best of N, the first to ceil(N/2) game wins takes it.
    #[arg(long)]
    pub best_of: Option<u32>,
    /// Rules preset, optionally followed by options: `cross`, `"five-up target=150"`.
    #[arg(long, default_value = "five-up")]
    pub rules: String,
    /// One more option, `key=value` (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Seed of every deal and every player.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Entrants are partnerships: four-player partnership games, each team holding one side.
    #[arg(long)]
    pub partners: bool,
    /// Round robin: play every pairing twice (a double round robin).
    #[arg(long)]
    pub twice: bool,
    /// Arena: its length in simulated minutes (each hand takes two; default 60).
    #[arg(long)]
    pub minutes: Option<u64>,
    /// Arena: lichess's streak rule (after two wins in a row, wins score double).
    #[arg(long)]
    pub streaks: bool,
    /// Duplicate: the boards (deals) everyone plays (default 4).
    #[arg(long)]
    pub boards: Option<u32>,
    /// Duplicate: the computer player everyone plays against (default greedy).
    #[arg(long)]
    pub house: Option<String>,
    /// Duplicate: how boards are scored (default matchpoints).
    #[arg(long, value_enum)]
    pub scoring: Option<Scoring>,
    /// Cut-throat: seats at a table, `MIN-MAX` within 3-8 (default 3-4; the rules must seat
    /// that many).
    #[arg(long)]
    pub seats: Option<String>,
    /// Stop with an error when a game has not ended after this many hands.
    #[arg(long, default_value_t = 1000)]
    pub max_hands: u32,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// The measured rating of a player spec's kind (`docs/strength.md`, the levels table), to seed
/// knockouts and order equal scores; `None` for a spec that is not a tournament entrant.
fn rating(spec: &str) -> Option<i32> {
    fiveup_bots::measured_rating(spec)
}

/// One entrant of the run: its crate entrant and the player spec of each of its seats on a
/// side (one for a single player, two for a partnership).
#[derive(Debug, Clone)]
struct Player {
    entrant: Entrant,
    specs: Vec<String>,
}

fn players(a: &Args) -> Result<Vec<Player>, String> {
    let specs: Vec<String> = match (&a.entrants, a.field) {
        (Some(list), None) => list
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        (None, Some(n)) => (0..n as usize)
            .map(|i| LEVELS[i % LEVELS.len()].0.to_string())
            .collect(),
        (None, None) => return Err("give the entrants: --entrants LIST or --field N".into()),
        (Some(_), Some(_)) => return Err("give --entrants or --field, not both".into()),
    };
    if specs.len() < 2 {
        return Err(format!(
            "a tournament needs at least two entrants, got {}",
            specs.len()
        ));
    }
    if specs.len() > 4096 {
        return Err(format!(
            "{} entrants: this command plays at most 4,096",
            specs.len()
        ));
    }
    let mut out = Vec::new();
    let mut used: Vec<String> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let seats: Vec<String> = if a.partners {
            let parts: Vec<String> = spec.split('+').map(|s| s.trim().to_string()).collect();
            match parts.len() {
                1 => vec![parts[0].clone(), parts[0].clone()],
                2 => parts,
                _ => {
                    return Err(format!(
                        "team {spec:?}: a partnership is one spec or two joined by +"
                    ))
                }
            }
        } else {
            if spec.contains('+') {
                return Err(format!(
                    "{spec:?} names a partnership: add --partners for team entrants"
                ));
            }
            vec![spec.clone()]
        };
        let mut ratings = Vec::new();
        for s in &seats {
            let r = rating(s).ok_or_else(|| {
                format!(
                    "{s:?} cannot enter: entrants are random, greedy, club, neural, pimc, expert (with \
                     settings) or a level ({})",
                    LEVELS.map(|(l, _)| l).join(", ")
                )
            })?;
            make_bot(s, 0).map_err(|e| format!("entrant {s:?}: {e}"))?;
            ratings.push(r);
        }
        let rating = ratings.iter().sum::<i32>() / ratings.len() as i32;
        let base = if a.partners {
            seats.join("+")
        } else {
            spec.clone()
        };
        let count = used.iter().filter(|u| **u == base).count();
        used.push(base.clone());
        let name = if count == 0 {
            base
        } else {
            format!("{base} ({})", count + 1)
        };
        let id = EntrantId(i as u32);
        let entrant = if a.partners {
            Entrant::team(id, name, rating, seats.clone())
        } else {
            Entrant::single(id, name, rating)
        };
        out.push(Player {
            entrant,
            specs: seats,
        });
    }
    // Names made unique above; a spec repeated three times reads `club`, `club (2)`, `club (3)`.
    let names: BTreeSet<&str> = out.iter().map(|p| p.entrant.name.as_str()).collect();
    if names.len() != out.len() {
        return Err("two entrants would share a name; name them differently".into());
    }
    Ok(out)
}

/// Plays games, numbering them so that each has its own deal and player seeds.
struct Table {
    seed: u64,
    games: u64,
    max_hands: u32,
}

impl Table {
    /// One whole game: the player spec of each seat. Returns each side's final score, the
    /// winning side and the hands played.
    fn game(&mut self, rules: Rules, seats: &[&str]) -> Result<(Vec<i64>, u8, u32), String> {
        self.game_as(rules, seats, &|_| 0)
    }

    /// [`Table::game`] where the player in seat `s` is seeded as seating `seating(s)`: a
    /// duplicate board gives each entrant players of their own while the house's stay the
    /// same.
    fn game_as(
        &mut self,
        rules: Rules,
        seats: &[&str],
        seating: &dyn Fn(u8) -> u32,
    ) -> Result<(Vec<i64>, u8, u32), String> {
        let number = self.games;
        self.games += 1;
        let seed = deal_seed(self.seed, number);
        let mut bots: Vec<Bot> = seats
            .iter()
            .enumerate()
            .map(|(s, spec)| {
                let s = s as u8;
                make_bot(spec, bot_seed(self.seed, number, seating(s), s))
            })
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        let mut state = State::from_seed(rules, &seed).map_err(|e| e.to_string())?;
        let mut hands = 1;
        loop {
            while matches!(state.phase(), Phase::Play | Phase::Claim) {
                let bot = &mut bots[state.to_move().idx()];
                let action = bot.choose(&state);
                state
                    .apply(action)
                    .map_err(|e| format!("{} chose an illegal action {action}: {e}", bot.name()))?;
            }
            if state.phase() == Phase::GameOver {
                break;
            }
            if hands >= self.max_hands {
                return Err(format!(
                    "a game had not ended after {} hands; these rules may never reach the target",
                    self.max_hands
                ));
            }
            state
                .next_hand_from_seed(&seed)
                .map_err(|e| e.to_string())?;
            hands += 1;
        }
        let scores = (0..rules.sides())
            .map(|s| i64::from(state.scores()[Side(s)]))
            .collect();
        let winner = state.winner().ok_or("a finished game has no winner")?;
        Ok((scores, winner.0, hands))
    }

    /// A match between two entrants under `rule`: games alternate which side sits first, and
    /// each game has a winner (so a match is never drawn). Returns the result from `a`'s side
    /// and the hands played.
    fn duel(
        &mut self,
        rules: Rules,
        rule: MatchRule,
        a: &Player,
        b: &Player,
    ) -> Result<(MatchResult, u32), String> {
        let mut r = MatchResult::new([0, 0], 0, [0, 0]);
        let mut hands = 0;
        let mut g = 0;
        while !rule.is_over(r.games, r.drawn) {
            let (first, second) = if g % 2 == 0 { (a, b) } else { (b, a) };
            let seats: Vec<&str> = (0..rules.players)
                .map(|s| {
                    let side = rules.side_of(Seat(s)).0;
                    let p = if side == 0 { first } else { second };
                    p.specs[usize::from(s / 2) % p.specs.len()].as_str()
                })
                .collect();
            let (scores, winner, h) = self.game(rules, &seats)?;
            hands += h;
            // Side 0 is whoever sat first this game.
            let a_side = if g % 2 == 0 { 0 } else { 1 };
            r.points[0] += scores[a_side];
            r.points[1] += scores[1 - a_side];
            if usize::from(winner) == a_side {
                r.games[0] += 1;
            } else {
                r.games[1] += 1;
            }
            g += 1;
        }
        Ok((r, hands))
    }
}

/// The rules of a two-sided match: two players, or four in two partnerships.
fn duel_rules(a: &Args) -> Result<Rules, String> {
    if a.partners {
        rules_from(&a.rules, Some(4), true, false, &a.options)
    } else {
        rules_from(&a.rules, Some(2), false, false, &a.options)
    }
}

/// Refuse an option the format does not use, rather than ignore it.
fn check_options(a: &Args) -> Result<(), String> {
    use Format::{Arena, Cutthroat, Duplicate, Roundrobin, Swiss};
    let f = a.format;
    let given: [(&str, bool, &[Format]); 10] = [
        ("--rounds", a.rounds.is_some(), &[Swiss, Cutthroat]),
        ("--twice", a.twice, &[Roundrobin]),
        ("--minutes", a.minutes.is_some(), &[Arena]),
        ("--streaks", a.streaks, &[Arena]),
        ("--boards", a.boards.is_some(), &[Duplicate]),
        ("--house", a.house.is_some(), &[Duplicate]),
        ("--scoring", a.scoring.is_some(), &[Duplicate]),
        ("--seats", a.seats.is_some(), &[Cutthroat]),
        (
            "--best-of",
            a.best_of.is_some(),
            &[Swiss, Format::Knockout, Format::Double, Arena, Roundrobin],
        ),
        (
            "--partners",
            a.partners,
            &[
                Swiss,
                Format::Knockout,
                Format::Double,
                Arena,
                Roundrobin,
                Duplicate,
            ],
        ),
    ];
    for (name, on, formats) in given {
        if on && !formats.contains(&f) {
            let names: Vec<String> = formats
                .iter()
                .map(|x| format!("{x:?}").to_lowercase())
                .collect();
            return Err(format!(
                "{name} does not apply to --format {}: it is for {}",
                format!("{f:?}").to_lowercase(),
                names.join(", ")
            ));
        }
    }
    Ok(())
}

/// Run `fiveup tournament`.
pub fn run(a: &Args) -> Result<(), String> {
    check_options(a)?;
    let field = players(a)?;
    let entrants: Vec<Entrant> = field.iter().map(|p| p.entrant.clone()).collect();
    let best_of = a.best_of.unwrap_or(1);
    let rule = MatchRule::best_of(best_of);
    rule.validate().map_err(|e| e.to_string())?;
    let mut table = Table {
        seed: a.seed,
        games: 0,
        max_hands: a.max_hands,
    };
    if a.max_hands == 0 {
        return Err("--max-hands must be at least 1".into());
    }
    let by_id = |id: EntrantId| &field[id.0 as usize];
    let name = |id: EntrantId| by_id(id).entrant.name.clone();
    let mut log = String::new();
    let mut json = serde_json::Map::new();
    let standings: Vec<StandingRow>;
    let mut heading = format!(
        "{} entrants, best of {best_of}, seed {}",
        field.len(),
        a.seed
    );
    match a.format {
        Format::Swiss => {
            let rules = duel_rules(a)?;
            let n = field.len() as u32;
            let rounds = a
                .rounds
                .unwrap_or_else(|| n.next_power_of_two().trailing_zeros().max(1));
            let settings = SwissSettings { rounds, rule };
            let mut s = Swiss::new(settings, entrants).map_err(|e| e.to_string())?;
            for r in 0..rounds as usize {
                let round = s.pair_next_round().map_err(|e| e.to_string())?.clone();
                let mut line = format!("Round {}:", r + 1);
                for (t, p) in round.pairings.iter().enumerate() {
                    match p.b {
                        None => {
                            let _ = write!(line, " {} bye;", name(p.a));
                        }
                        Some(b) => {
                            let (res, _) = table.duel(rules, rule, by_id(p.a), by_id(b))?;
                            let _ = write!(
                                line,
                                " {} {}-{} {};",
                                name(p.a),
                                res.games[0],
                                res.games[1],
                                name(b)
                            );
                            s.record(r, t, res).map_err(|e| e.to_string())?;
                        }
                    }
                }
                line.pop();
                let _ = writeln!(log, "{line}");
            }
            heading = format!(
                "Swiss, {rounds} rounds, {heading}, rules {}",
                rules.to_options_string()
            );
            standings = s.standings();
            json.insert("rounds".into(), to_value(s.rounds())?);
            json.insert("log".into(), to_value(s.log())?);
        }
        Format::Knockout | Format::Double => {
            let rules = duel_rules(a)?;
            let elimination = if a.format == Format::Knockout {
                Elimination::Single
            } else {
                Elimination::Double
            };
            let settings = KnockoutSettings { elimination, rule };
            let mut k = Knockout::new(settings, entrants).map_err(|e| e.to_string())?;
            while let Some(&(id, x, y)) = k.ready().first() {
                let (res, _) = table.duel(rules, rule, by_id(x), by_id(y))?;
                k.record(id, res).map_err(|e| e.to_string())?;
            }
            log = k.to_text();
            heading = format!(
                "{} elimination, {heading}, rules {}",
                if elimination == Elimination::Single {
                    "Single"
                } else {
                    "Double"
                },
                rules.to_options_string()
            );
            standings = k.standings();
            json.insert("bracket".into(), to_value(&k.bracket())?);
            json.insert("log".into(), to_value(k.log())?);
        }
        Format::Roundrobin => {
            let rules = duel_rules(a)?;
            let settings = RoundRobinSettings {
                double: a.twice,
                rule,
            };
            let mut rr = RoundRobin::new(settings, entrants).map_err(|e| e.to_string())?;
            let schedule = rr.rounds().to_vec();
            for (r, round) in schedule.iter().enumerate() {
                let mut line = format!("Round {}:", r + 1);
                for (t, p) in round.pairings.iter().enumerate() {
                    match p.b {
                        None => {
                            let _ = write!(line, " {} bye;", name(p.a));
                        }
                        Some(b) => {
                            let (res, _) = table.duel(rules, rule, by_id(p.a), by_id(b))?;
                            let _ = write!(
                                line,
                                " {} {}-{} {};",
                                name(p.a),
                                res.games[0],
                                res.games[1],
                                name(b)
                            );
                            rr.record(r, t, res).map_err(|e| e.to_string())?;
                        }
                    }
                }
                line.pop();
                let _ = writeln!(log, "{line}");
            }
            heading = format!(
                "{} round robin, {heading}, rules {}",
                if a.twice { "Double" } else { "Single" },
                rules.to_options_string()
            );
            standings = rr.standings();
            json.insert("rounds".into(), to_value(rr.rounds())?);
        }
        Format::Arena => {
            let rules = duel_rules(a)?;
            let minutes = a.minutes.unwrap_or(60);
            if minutes == 0 || minutes > 100_000 {
                return Err("--minutes must be 1 to 100,000".into());
            }
            let duration_ms = minutes * 60_000;
            let settings = ArenaSettings {
                duration_ms,
                streaks: a.streaks,
                rule,
            };
            let mut arena = Arena::new(settings, entrants).map_err(|e| e.to_string())?;
            for p in &field {
                arena.join(p.entrant.id).map_err(|e| e.to_string())?;
            }
            // Matches in play: (finish time, match index, result).
            let mut playing: BTreeSet<(u64, usize)> = BTreeSet::new();
            let mut results: Vec<Option<MatchResult>> = Vec::new();
            let mut now = 0u64;
            loop {
                if now < duration_ms {
                    let new = arena.pair(now).map_err(|e| e.to_string())?;
                    for g in new {
                        let m = arena.matches()[g];
                        let (res, hands) = table.duel(rules, rule, by_id(m.a), by_id(m.b))?;
                        results.resize(g + 1, None);
                        results[g] = Some(res);
                        // Two simulated minutes a hand.
                        playing.insert((now + u64::from(hands) * 120_000, g));
                    }
                }
                let Some(&(t, _)) = playing.first() else {
                    break;
                };
                now = t;
                while let Some(&(t, g)) = playing.first() {
                    if t != now {
                        break;
                    }
                    playing.pop_first();
                    let res = results[g].ok_or("a match in play lost its result")?;
                    arena.record(g, res, t).map_err(|e| e.to_string())?;
                }
            }
            for m in arena.matches() {
                if let Some(r) = m.result {
                    let _ = writeln!(
                        log,
                        "{:>4}m {} {}-{} {}",
                        m.started_ms / 60_000,
                        name(m.a),
                        r.games[0],
                        r.games[1],
                        name(m.b)
                    );
                }
            }
            heading = format!(
                "Arena, {minutes} minutes{}, {heading}, rules {}",
                if a.streaks { ", streaks" } else { "" },
                rules.to_options_string()
            );
            standings = arena.standings();
            json.insert("matches".into(), to_value(arena.matches())?);
        }
        Format::Duplicate => {
            let rules = duel_rules(a)?;
            let board_count = a.boards.unwrap_or(4);
            if board_count == 0 {
                return Err("--boards must be at least 1".into());
            }
            let house = a.house.clone().unwrap_or_else(|| "greedy".into());
            if rating(&house).is_none() {
                return Err(format!("--house {house:?} is not a player"));
            }
            make_bot(&house, 0).map_err(|e| format!("--house: {e}"))?;
            let mut boards = Vec::new();
            for b in 0..u64::from(board_count) {
                let mut board = Board::default();
                let mut line = format!("Board {}:", b + 1);
                for (i, p) in field.iter().enumerate() {
                    let seats: Vec<&str> = (0..rules.players)
                        .map(|s| {
                            if rules.side_of(Seat(s)).0 == 0 {
                                p.specs[usize::from(s / 2) % p.specs.len()].as_str()
                            } else {
                                house.as_str()
                            }
                        })
                        .collect();
                    // Every entrant gets the same deal: the board's game number.
                    let mut t = Table {
                        seed: a.seed,
                        games: b,
                        max_hands: a.max_hands,
                    };
                    let own = i as u32 + 1;
                    let seating = |s: u8| {
                        if rules.side_of(Seat(s)).0 == 0 {
                            own
                        } else {
                            0
                        }
                    };
                    let (scores, _, _) = t.game_as(rules, &seats, &seating)?;
                    let best_other = scores[1..].iter().copied().max().unwrap_or(0);
                    let score = scores[0] - best_other;
                    board.scores.push((p.entrant.id, score));
                    let _ = write!(line, " {} {score:+};", p.entrant.name);
                }
                line.pop();
                let _ = writeln!(log, "{line}");
                boards.push(board);
            }
            let scoring = match a.scoring.unwrap_or(Scoring::Matchpoints) {
                Scoring::Matchpoints => DuplicateScoring::Matchpoints,
                Scoring::Difference => DuplicateScoring::Difference,
            };
            heading = format!(
                "Duplicate, {board_count} boards against {house}, {} entrants, seed {}, rules {}",
                field.len(),
                a.seed,
                rules.to_options_string()
            );
            standings =
                duplicate::standings(&entrants, &boards, scoring).map_err(|e| e.to_string())?;
            json.insert("boards".into(), to_value(&boards)?);
        }
        Format::Cutthroat => {
            let seats = a.seats.clone().unwrap_or_else(|| "3-4".into());
            let (min, max) = seats
                .split_once('-')
                .and_then(|(x, y)| {
                    Some((x.trim().parse::<u8>().ok()?, y.trim().parse::<u8>().ok()?))
                })
                .ok_or_else(|| format!("--seats takes MIN-MAX, such as 3-4, got {seats:?}"))?;
            let rounds = a.rounds.unwrap_or(3);
            let settings = CutThroatSettings {
                min_seats: min,
                max_seats: max,
                rounds,
            };
            let mut c = CutThroat::new(settings, entrants).map_err(|e| e.to_string())?;
            // Check that the rules seat every table size before playing.
            for size in min..=max {
                rules_from(&a.rules, Some(size), false, true, &a.options)
                    .map_err(|e| format!("tables of {size}: {e}"))?;
            }
            for r in 0..rounds as usize {
                let tables = c.pair_next_round().map_err(|e| e.to_string())?.to_vec();
                let _ = writeln!(log, "Round {}:", r + 1);
                for (i, t) in tables.iter().enumerate() {
                    let size = t.seats.len() as u8;
                    let rules = rules_from(&a.rules, Some(size), false, true, &a.options)?;
                    let seats: Vec<&str> = t
                        .seats
                        .iter()
                        .map(|&id| by_id(id).specs[0].as_str())
                        .collect();
                    let (scores, _, _) = table.game(rules, &seats)?;
                    let cells: Vec<String> = t
                        .seats
                        .iter()
                        .zip(&scores)
                        .map(|(&id, s)| format!("{} {s}", name(id)))
                        .collect();
                    let _ = writeln!(log, "  table {}: {}", i + 1, cells.join(", "));
                    c.record(r, i, scores).map_err(|e| e.to_string())?;
                }
            }
            heading = format!(
                "Cut-throat, {rounds} rounds at tables of {min} to {max}, {} entrants, seed {}, rules {}",
                field.len(),
                a.seed,
                a.rules
            );
            standings = c.standings();
            json.insert("rounds".into(), to_value(c.rounds())?);
        }
    }
    if a.json {
        json.insert(
            "format".into(),
            format!("{:?}", a.format).to_lowercase().into(),
        );
        json.insert("seed".into(), a.seed.into());
        json.insert("best_of".into(), best_of.into());
        json.insert(
            "entrants".into(),
            to_value(&field.iter().map(|p| &p.entrant).collect::<Vec<_>>())?,
        );
        json.insert("standings".into(), to_value(&standings)?);
        crate::outln!("{}", serde_json::Value::Object(json));
    } else {
        crate::outln!("{heading}");
        crate::emit(&log);
        crate::outln!("");
        crate::emit(&standings_table(&standings));
    }
    Ok(())
}

fn to_value<T: serde::Serialize + ?Sized>(v: &T) -> Result<serde_json::Value, String> {
    serde_json::to_value(v).map_err(|e| e.to_string())
}

/// A number as it reads best: whole numbers without decimals, else one or two places.
fn num(x: f64) -> String {
    let x = (x * 100.0).round() / 100.0;
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else if (x * 10.0).fract().abs() < 1e-9 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// The standings as a text table: rank, entrant, points, each tie-break, the match record
/// (won-drawn-lost) and the games (won-lost).
fn standings_table(rows: &[StandingRow]) -> String {
    let mut header = vec!["rank".to_string(), "entrant".into(), "points".into()];
    if let Some(first) = rows.first() {
        header.extend(first.tiebreaks.iter().map(|t| t.name.clone()));
    }
    header.extend(["W-D-L".into(), "games".into()]);
    let mut cells: Vec<Vec<String>> = vec![header];
    for r in rows {
        let mut line = vec![
            r.rank.to_string(),
            format!("{}{}", r.name, if r.out { " (out)" } else { "" }),
            num(r.points),
        ];
        line.extend(r.tiebreaks.iter().map(|t| num(t.value)));
        line.push(format!(
            "{}-{}-{}",
            r.record.won, r.record.drawn, r.record.lost
        ));
        line.push(format!("{}-{}", r.record.games_won, r.record.games_lost));
        cells.push(line);
    }
    let cols = cells[0].len();
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            cells
                .iter()
                .map(|l| l.get(c).map_or(0, String::len))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for line in &cells {
        let mut text = String::new();
        for (c, cell) in line.iter().enumerate() {
            if c == 1 {
                let _ = write!(text, "{cell:<w$}  ", w = widths[c]);
            } else {
                let _ = write!(text, "{cell:>w$}  ", w = widths[c]);
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}
