//! Duplicate matches between two players: the engine of `fiveup match`.
//!
//! # Format
//! A match plays `deals` deals, numbered from 0. Deal `d` is dealt from [`deal_seed`]`(seed, d)`
//! with shuffle version 1 ([`State::from_seed`]), so its first hand is led by the highest
//! double. Each deal is played once per *seating*; there is one seating per scoring side, and
//! in seating `k` player A holds every seat of side `k` while player B holds all the others:
//!
//! - 2 players: A in seat 0 and B in seat 1, then A in seat 1 and B in seat 0;
//! - 4 players in partnerships: A in seats 0+2 and B in 1+3, then A in 1+3 and B in 0+2;
//! - 3 players, or 4 each for themselves: A alone in seat `k` against B in every other seat,
//!   for `k` = 0, 1, ... so A plays every hand of the deal once.
//!
//! In [`MatchMode::Hands`] each seating plays the deal's hand to its end; in
//! [`MatchMode::Games`] it plays a whole game to the target, the later hands dealt from the same
//! seed ([`State::next_hand_from_seed`]), so both sides see the same deals in each seat.
//!
//! Every seat gets a fresh player for each deal and seating, made by [`make_bot`] with the seed
//! [`bot_seed`]`(seed, deal, seating, seat)`. A deal's result therefore depends only on the
//! match's settings, never on which thread played it or when.
//!
//! # Points and statistics
//! A side's points for a hand (or game) are the scores its sides hold at the end, all games
//! starting from 0: every play, claim and Muggins call of its seats plus the end-of-hand awards.
//! When B holds several sides (individual play), its points are the mean over those sides, so
//! both players are measured per seat. A deal's *difference* is A's points minus B's,
//! averaged over the deal's seatings; the report gives the mean of those differences over the
//! deals, their sample standard deviation, and the half-width of a 95% confidence interval by
//! the normal approximation, `1.96 * sd / sqrt(deals)`.
//!
//! A hand is won by A when its winners (the [`HandResult`](fiveup_engine::HandResult) bits)
//! include A's side and no side of B's, and likewise for B; a blocked hand with several sides
//! tied on fewest pips may be *shared*, and a block where every side ties has *no winner*. A
//! hand cut short because a side reached the target mid-hand counts as won by that side.
//!
//! Every call of [`Bot::choose`] is timed with [`Instant`], forced single-option decisions
//! included; times are measurements, not results, and vary from run to run.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use fiveup_engine::{Phase, Rules, Seat, Seed, Side, State};

use crate::{make_bot, Bot, SpecError};

/// The z value of a two-sided 95% interval.
const Z95: f64 = 1.96;

/// Whether a match plays single hands or whole games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchMode {
    /// Each seating plays the deal's first hand to its end.
    Hands,
    /// Each seating plays a whole game to the target.
    Games {
        /// A game that has not ended after this many hands is an error (some option mixes
        /// never reach the target).
        max_hands: u32,
    },
}

/// The settings of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// Player A's spec, as [`make_bot`] takes it.
    pub a: String,
    /// Player B's spec.
    pub b: String,
    /// The rules of every hand.
    pub rules: Rules,
    /// Deals to play (each under every seating).
    pub deals: u64,
    /// The match seed: deals and players' seeds derive from it.
    pub seed: u64,
    /// Worker threads (the report is the same whatever their number, timings aside).
    pub threads: usize,
    /// Hands or games.
    pub mode: MatchMode,
}

/// Why a match could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// A player spec was refused.
    Spec(SpecError),
    /// The settings are invalid (no deals, no threads, bad rules).
    Config(String),
    /// The engine refused to deal, or a player chose an illegal action.
    Engine {
        /// The deal.
        deal: u64,
        /// The seating.
        seating: u32,
        /// What went wrong.
        message: String,
    },
    /// A game did not end within the hand limit.
    Endless {
        /// The deal.
        deal: u64,
        /// The seating.
        seating: u32,
        /// The limit.
        max_hands: u32,
        /// The scores by side when it was stopped.
        scores: Vec<i32>,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Spec(e) => write!(f, "{e}"),
            MatchError::Config(m) => f.write_str(m),
            MatchError::Engine {
                deal,
                seating,
                message,
            } => write!(f, "deal {deal}, seating {seating}: {message}"),
            MatchError::Endless {
                deal,
                seating,
                max_hands,
                scores,
            } => write!(
                f,
                "deal {deal}, seating {seating}: the game had not ended after {max_hands} hands \
                 (scores {scores:?}); these options may never reach the target"
            ),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<SpecError> for MatchError {
    fn from(e: SpecError) -> MatchError {
        MatchError::Spec(e)
    }
}

/// One player's results in a match.
#[derive(Clone, Debug, PartialEq)]
pub struct SideReport {
    /// The player's name with its settings.
    pub name: String,
    /// Mean points per hand (per game in games mode: the final score), per side held.
    pub mean: f64,
    /// Hands won outright.
    pub hands_won: u64,
    /// Decisions made (calls of [`Bot::choose`]).
    pub decisions: u64,
}

/// How long one player's decisions took. A measurement: it varies between runs.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct DecisionTimes {
    /// Median decision time in milliseconds (nearest rank).
    pub median_ms: f64,
    /// 99th percentile in milliseconds (nearest rank).
    pub p99_ms: f64,
}

/// Whole-game results ([`MatchMode::Games`] only).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameReport {
    /// Games played: deals times seatings.
    pub games: u64,
    /// Games A won.
    pub wins_a: u64,
    /// Games B won (by any of its sides).
    pub wins_b: u64,
    /// A's share of the games.
    pub win_rate_a: f64,
    /// 95% Wilson score interval on A's win rate, `(low, high)`. It treats games as
    /// independent, which the paired seatings of a deal are not quite.
    pub win_rate_ci95: (f64, f64),
}

/// The outcome of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    /// Deals played.
    pub deals: u64,
    /// Seatings per deal.
    pub seatings: u32,
    /// Hands played in all (in games mode, every hand of every game).
    pub hands: u64,
    /// Player A.
    pub a: SideReport,
    /// Player B.
    pub b: SideReport,
    /// Mean over deals of A's points minus B's.
    pub mean_diff: f64,
    /// Sample standard deviation of the per-deal differences (NaN with one deal).
    pub sd_diff: f64,
    /// Half-width of the 95% confidence interval on `mean_diff` (NaN with one deal).
    pub ci95: f64,
    /// Deals won by A, won by B, and drawn, judged by the deal's points difference (a deal
    /// is one game of a round robin: see [`crate::rating`]).
    pub deals_won: [u64; 3],
    /// Hands won by both players (a shared block in individual play).
    pub hands_shared: u64,
    /// Hands nobody won (every side tied in a block).
    pub hands_no_winner: u64,
    /// Game results, in games mode.
    pub games: Option<GameReport>,
    /// A's decision times.
    pub time_a: DecisionTimes,
    /// B's decision times.
    pub time_b: DecisionTimes,
}

impl MatchReport {
    /// The low end of the 95% confidence interval on the mean difference.
    #[must_use]
    pub fn ci95_low(&self) -> f64 {
        self.mean_diff - self.ci95
    }

    /// The high end of the 95% confidence interval on the mean difference.
    #[must_use]
    pub fn ci95_high(&self) -> f64 {
        self.mean_diff + self.ci95
    }
}

/// The mean of per-deal differences and their sample standard deviation (NaN with fewer than
/// two).
pub(crate) fn mean_sd(diffs: &[f64]) -> (f64, f64) {
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let sd = if diffs.len() < 2 {
        f64::NAN
    } else {
        (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    };
    (mean, sd)
}

/// The seed of deal `deal` under match seed `seed`: bytes 0-7 are `seed` and bytes 8-15 are
/// `deal`, both little-endian, the rest zero. It is the seed `fiveup selfplay --seed seed` uses
/// for its game number `deal`, so the deals are the same.
#[must_use]
pub fn deal_seed(seed: u64, deal: u64) -> Seed {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&seed.to_le_bytes());
    b[8..16].copy_from_slice(&deal.to_le_bytes());
    Seed(b)
}

/// The splitmix64 finaliser: a bijective mix of 64 bits.
#[must_use]
pub const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of the player in `seat` for deal `deal` and seating `seating`:
/// `mix(mix(mix(seed) ^ deal) ^ (seating << 8 | seat))`, where `mix` is the splitmix64
/// finaliser (add `0x9E3779B97F4A7C15`, then the two xor-shift-multiply rounds).
#[must_use]
pub const fn bot_seed(seed: u64, deal: u64, seating: u32, seat: u8) -> u64 {
    mix(mix(mix(seed) ^ deal) ^ ((seating as u64) << 8 | seat as u64))
}

/// Seatings per deal: one per scoring side.
#[must_use]
pub fn seatings(rules: &Rules) -> u32 {
    u32::from(rules.sides())
}

/// Whether player A holds `seat` in seating `seating` (A holds side number `seating`).
#[must_use]
pub fn a_holds(rules: &Rules, seating: u32, seat: Seat) -> bool {
    u32::from(rules.side_of(seat).0) == seating
}

/// What one deal gave, summed over its seatings. Index 0 is A, 1 is B.
#[derive(Debug, Default)]
struct DealOutcome {
    /// Points: A's side, and the sum over B's sides.
    points: [i64; 2],
    hands: u64,
    hands_won: [u64; 2],
    hands_shared: u64,
    hands_no_winner: u64,
    wins: [u64; 2],
    decisions: [u64; 2],
    /// Decision times in nanoseconds.
    times: [Vec<u64>; 2],
}

impl DealOutcome {
    /// Count a finished hand whose winners are the bits `winners`.
    fn count_hand(&mut self, winners: u8, a_side: Side) {
        let a_bit = 1u8 << a_side.0;
        let (a, b) = (winners & a_bit != 0, winners & !a_bit != 0);
        self.hands += 1;
        match (a, b) {
            (true, false) => self.hands_won[0] += 1,
            (false, true) => self.hands_won[1] += 1,
            (true, true) => self.hands_shared += 1,
            (false, false) => self.hands_no_winner += 1,
        }
    }
}

/// Makes a player from its spec and seed: [`make_bot`], or a maker that also knows other
/// kinds of players (outside programs), passed to [`run_match_using`].
pub type MakeBot<'a> = dyn Fn(&str, u64) -> Result<Bot, SpecError> + Sync + 'a;

/// Play deal `deal` under every seating.
fn play_deal(cfg: &MatchConfig, make: &MakeBot<'_>, deal: u64) -> Result<DealOutcome, MatchError> {
    let rules = cfg.rules;
    let seed = deal_seed(cfg.seed, deal);
    let mut out = DealOutcome::default();
    for seating in 0..seatings(&rules) {
        let engine = |message: String| MatchError::Engine {
            deal,
            seating,
            message,
        };
        let a_side = Side(seating as u8);
        let mut bots: Vec<(Bot, usize)> = Vec::with_capacity(usize::from(rules.players));
        for s in 0..rules.players {
            let (spec, who) = if a_holds(&rules, seating, Seat(s)) {
                (&cfg.a, 0)
            } else {
                (&cfg.b, 1)
            };
            bots.push((make(spec, bot_seed(cfg.seed, deal, seating, s))?, who));
        }
        let mut state = State::from_seed(rules, &seed).map_err(|e| engine(e.to_string()))?;
        let mut hands = 1u32;
        loop {
            while matches!(state.phase(), Phase::Play | Phase::Claim) {
                let (bot, who) = &mut bots[state.to_move().idx()];
                let start = Instant::now();
                let action = bot.choose(&state);
                let ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
                out.times[*who].push(ns);
                out.decisions[*who] += 1;
                if let Err(e) = state.apply(action) {
                    return Err(engine(format!(
                        "{} chose {action}, which is illegal: {e}",
                        bot.name()
                    )));
                }
            }
            for (s, (bot, _)) in bots.iter_mut().enumerate() {
                bot.hand_over(&state, Seat(s as u8));
            }
            let winners = match state.result() {
                Some(r) => r.winners,
                None => state.winner().map_or(0, |s| 1 << s.0),
            };
            out.count_hand(winners, a_side);
            match cfg.mode {
                MatchMode::Hands => break,
                MatchMode::Games { .. } if state.phase() == Phase::GameOver => break,
                MatchMode::Games { max_hands } => {
                    if hands >= max_hands {
                        return Err(MatchError::Endless {
                            deal,
                            seating,
                            max_hands,
                            scores: state.scores().0[..usize::from(rules.sides())].to_vec(),
                        });
                    }
                    state
                        .next_hand_from_seed(&seed)
                        .map_err(|e| engine(e.to_string()))?;
                    hands += 1;
                }
            }
        }
        for side in 0..rules.sides() {
            let who = usize::from(side != a_side.0);
            out.points[who] += i64::from(state.scores()[Side(side)]);
        }
        if let MatchMode::Games { .. } = cfg.mode {
            match state.winner() {
                Some(w) => out.wins[usize::from(w != a_side)] += 1,
                None => return Err(engine("a finished game has no winner".into())),
            }
        }
    }
    Ok(out)
}

/// The nearest-rank `p` quantile (0 < p <= 1) of sorted nanoseconds, in milliseconds.
fn quantile_ms(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1] as f64 / 1e6
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
#[must_use]
pub fn wilson95(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Check the settings and return the players' names.
fn check(cfg: &MatchConfig, make: &MakeBot<'_>) -> Result<(String, String), MatchError> {
    if cfg.deals == 0 {
        return Err(MatchError::Config("a match needs at least 1 deal".into()));
    }
    if cfg.threads == 0 {
        return Err(MatchError::Config("a match needs at least 1 thread".into()));
    }
    cfg.rules
        .validate()
        .map_err(|e| MatchError::Config(e.to_string()))?;
    if let MatchMode::Games { max_hands: 0 } = cfg.mode {
        return Err(MatchError::Config(
            "the hand limit of a game must be at least 1".into(),
        ));
    }
    Ok((make(&cfg.a, 0)?.name(), make(&cfg.b, 0)?.name()))
}

/// Play a match. See the [module documentation](self) for the format.
pub fn run_match(cfg: &MatchConfig) -> Result<MatchReport, MatchError> {
    run_match_with_progress(cfg, &|_, _| {})
}

/// Play a match, calling `progress(done, total)` after each deal (from the worker threads, so
/// it must be cheap or throttle itself).
pub fn run_match_with_progress(
    cfg: &MatchConfig,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<MatchReport, MatchError> {
    run_match_using(cfg, &make_bot, progress)
}

/// Play a match whose players are made by `make` instead of [`make_bot`] (for players
/// [`make_bot`] does not know, such as outside programs), calling `progress` as
/// [`run_match_with_progress`] does. Every player is told when each hand is over
/// ([`Bot::hand_over`]).
pub fn run_match_using(
    cfg: &MatchConfig,
    make: &MakeBot<'_>,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<MatchReport, MatchError> {
    let (a_name, b_name) = check(cfg, make)?;
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let workers = usize::try_from(cfg.deals).map_or(cfg.threads, |d| cfg.threads.min(d));
    let worker = || {
        let mut mine = Vec::new();
        while !failed.load(Ordering::Relaxed) {
            let deal = next.fetch_add(1, Ordering::Relaxed);
            if deal >= cfg.deals {
                break;
            }
            let r = play_deal(cfg, make, deal);
            if r.is_err() {
                failed.store(true, Ordering::Relaxed);
            }
            mine.push((deal, r));
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, cfg.deals);
        }
        mine
    };
    let mut results: Vec<(u64, Result<DealOutcome, MatchError>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers).map(|_| s.spawn(worker)).collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    // Deals are claimed in order and every claimed deal is finished, so the first failure in
    // deal order is the same whatever the number of threads.
    results.sort_unstable_by_key(|(d, _)| *d);
    let outcomes = results
        .into_iter()
        .map(|(_, r)| r)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(aggregate(cfg, a_name, b_name, outcomes))
}

/// Sum the deals' outcomes, in deal order, into the report.
fn aggregate(
    cfg: &MatchConfig,
    a_name: String,
    b_name: String,
    outcomes: Vec<DealOutcome>,
) -> MatchReport {
    let seatings = seatings(&cfg.rules);
    let b_sides = i64::from(cfg.rules.sides()) - 1;
    let deals = outcomes.len() as u64;
    let units = (deals * u64::from(seatings)) as f64;
    let mut total = DealOutcome::default();
    let mut diffs = Vec::with_capacity(outcomes.len());
    for mut o in outcomes {
        // A's points minus B's per side held, averaged over the seatings, computed on
        // integers first so equal play gives exactly zero.
        let diff =
            (o.points[0] * b_sides - o.points[1]) as f64 / (b_sides as f64 * f64::from(seatings));
        diffs.push(diff);
        for i in 0..2 {
            total.points[i] += o.points[i];
            total.hands_won[i] += o.hands_won[i];
            total.wins[i] += o.wins[i];
            total.decisions[i] += o.decisions[i];
            total.times[i].append(&mut o.times[i]);
        }
        total.hands += o.hands;
        total.hands_shared += o.hands_shared;
        total.hands_no_winner += o.hands_no_winner;
    }
    let n = diffs.len() as f64;
    let (mean_diff, sd_diff) = mean_sd(&diffs);
    let [time_a, time_b] = total.times.map(|mut t| {
        t.sort_unstable();
        DecisionTimes {
            median_ms: quantile_ms(&t, 0.5),
            p99_ms: quantile_ms(&t, 0.99),
        }
    });
    let games = match cfg.mode {
        MatchMode::Hands => None,
        MatchMode::Games { .. } => {
            let games = deals * u64::from(seatings);
            Some(GameReport {
                games,
                wins_a: total.wins[0],
                wins_b: total.wins[1],
                win_rate_a: total.wins[0] as f64 / games as f64,
                win_rate_ci95: wilson95(total.wins[0], games),
            })
        }
    };
    MatchReport {
        deals,
        seatings,
        hands: total.hands,
        a: SideReport {
            name: a_name,
            mean: total.points[0] as f64 / units,
            hands_won: total.hands_won[0],
            decisions: total.decisions[0],
        },
        b: SideReport {
            name: b_name,
            mean: total.points[1] as f64 / (units * b_sides as f64),
            hands_won: total.hands_won[1],
            decisions: total.decisions[1],
        },
        mean_diff,
        sd_diff,
        ci95: Z95 * sd_diff / n.sqrt(),
        deals_won: [
            diffs.iter().filter(|&&d| d > 0.0).count() as u64,
            diffs.iter().filter(|&&d| d < 0.0).count() as u64,
            diffs.iter().filter(|&&d| d == 0.0).count() as u64,
        ],
        hands_shared: total.hands_shared,
        hands_no_winner: total.hands_no_winner,
        games,
        time_a,
        time_b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fiveup_engine::Preset;

    fn config(a: &str, b: &str, players: u8, deals: u64, threads: usize) -> MatchConfig {
        MatchConfig {
            a: a.into(),
            b: b.into(),
            rules: Rules::preset(Preset::FiveUp, players),
            deals,
            seed: 11,
            threads,
            mode: MatchMode::Hands,
        }
    }

    /// The report with its timings cleared, for comparing results.
    fn untimed(mut r: MatchReport) -> MatchReport {
        r.time_a = DecisionTimes::default();
        r.time_b = DecisionTimes::default();
        r
    }

    #[test]
    fn results_do_not_depend_on_the_number_of_threads() {
        let mut four = config("random", "greedy", 4, 12, 1);
        four.rules.partnerships = false;
        let mut games = config("greedy", "random", 2, 3, 1);
        games.mode = MatchMode::Games { max_hands: 1000 };
        for cfg in [config("random", "greedy", 2, 30, 1), four, games] {
            let one = run_match(&cfg).unwrap();
            let two = run_match(&MatchConfig {
                threads: 2,
                ..cfg.clone()
            })
            .unwrap();
            let many = run_match(&MatchConfig {
                threads: 7,
                ..cfg.clone()
            })
            .unwrap();
            assert_eq!(untimed(one.clone()), untimed(two));
            assert_eq!(untimed(one.clone()), untimed(many));
            assert!(one.time_a.p99_ms >= one.time_a.median_ms);
        }
    }

    #[test]
    fn equal_deterministic_players_differ_by_exactly_zero() {
        for players in [2, 3, 4] {
            for partners in [false, true] {
                let mut cfg = config("greedy", "greedy", players, 9, 2);
                cfg.rules.partnerships = partners && players == 4;
                let r = run_match(&cfg).unwrap();
                assert_eq!(r.seatings, u32::from(cfg.rules.sides()));
                assert_eq!(r.hands, 9 * u64::from(r.seatings));
                assert!(r.mean_diff == 0.0 && r.sd_diff == 0.0, "{r:?}");
                assert!((r.a.mean - r.b.mean).abs() < 1e-9, "{r:?}");
            }
        }
        let mut cfg = config("greedy", "greedy", 2, 2, 1);
        cfg.mode = MatchMode::Games { max_hands: 1000 };
        let r = run_match(&cfg).unwrap();
        assert!(r.mean_diff == 0.0, "{r:?}");
        let g = r.games.unwrap();
        assert_eq!((g.games, g.wins_a, g.wins_b), (4, 2, 2));
    }

    #[test]
    fn greedy_beats_random() {
        let r = run_match(&config("random", "greedy", 2, 200, 2)).unwrap();
        assert!(r.b.mean > r.a.mean, "{r:?}");
        assert!(r.ci95_high() < 0.0, "{r:?}");
        assert_eq!(
            r.a.hands_won + r.b.hands_won + r.hands_shared + r.hands_no_winner,
            r.hands
        );
        assert_eq!((r.a.name.as_str(), r.b.name.as_str()), ("random", "greedy"));
    }

    #[test]
    fn seatings_give_each_player_every_seat() {
        let two = Rules::preset(Preset::FiveUp, 2);
        assert!(a_holds(&two, 0, Seat(0)) && !a_holds(&two, 0, Seat(1)));
        assert!(a_holds(&two, 1, Seat(1)) && !a_holds(&two, 1, Seat(0)));
        let partners = Rules::preset(Preset::FiveUp, 4);
        let held = |r: &Rules, k| {
            (0..4)
                .filter(|&s| a_holds(r, k, Seat(s)))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            (held(&partners, 0), held(&partners, 1)),
            (vec![0, 2], vec![1, 3])
        );
        let mut solo = partners;
        solo.partnerships = false;
        assert_eq!(seatings(&solo), 4);
        assert_eq!(held(&solo, 2), vec![2]);
    }

    #[test]
    fn bad_settings_are_refused() {
        let bad = |f: &dyn Fn(&mut MatchConfig)| {
            let mut cfg = config("greedy", "random", 2, 1, 1);
            f(&mut cfg);
            run_match(&cfg).unwrap_err().to_string()
        };
        assert!(bad(&|c| c.deals = 0).contains("at least 1 deal"));
        assert!(bad(&|c| c.threads = 0).contains("at least 1 thread"));
        assert!(bad(&|c| c.b = "grandmaster".into()).contains("unknown player"));
        assert!(bad(&|c| c.rules.partnerships = true).contains("partnerships need 4"));
        assert!(bad(&|c| c.mode = MatchMode::Games { max_hands: 0 }).contains("hand limit"));
        let endless = bad(&|c| c.mode = MatchMode::Games { max_hands: 1 });
        assert!(endless.contains("had not ended after 1 hands"), "{endless}");
    }

    #[test]
    fn wilson_interval_matches_known_values() {
        let (lo, hi) = wilson95(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        assert!(wilson95(0, 10).0.abs() < 1e-12);
        assert!((wilson95(10, 10).1 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn deal_and_bot_seeds_follow_the_documented_layout() {
        let s = deal_seed(0x0102, 3);
        assert_eq!(&s.0[..9], &[2, 1, 0, 0, 0, 0, 0, 0, 3]);
        assert!(s.0[9..].iter().all(|&b| b == 0));
        assert_ne!(bot_seed(1, 0, 0, 1), bot_seed(1, 0, 1, 0));
        assert_ne!(bot_seed(1, 0, 0, 0), bot_seed(1, 1, 0, 0));
        assert_ne!(bot_seed(1, 0, 0, 0), bot_seed(2, 0, 0, 0));
    }
}
