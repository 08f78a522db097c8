//! `pimc`: search over the hidden tiles by perfect-information sampling (the expert before the
//! present one, kept with the same behaviour and the same results for a seed on one thread,
//! which any number of threads now gives); `oracle`: the same search seeing every hand. The
//! search itself also serves the present expert (`expert.rs`, built on this module), which
//! weights the worlds by what the opponents' plays say of them ([`crate::infer`]). This module
//! imports nothing from the expert.
//!
//! For each decision pimc draws sampled worlds: full states consistent with its view,
//! uniform over the deals that agree with everything its seat has seen (see
//! [`fiveup_engine::Sampler`]: it respects every suit an opponent showed it lacks by drawing or
//! passing). In every world it plays each legal action and finishes the hand, either by letting
//! every seat play on as the club player would from its own view of that world (the default;
//! `rollout=greedy` uses the faster greedy rule) or, once the boneyard is closed and few tiles
//! remain, by an exact alpha-beta search of that world. The same worlds serve every action (common random numbers), so the
//! comparison between actions is sharper than the values themselves.
//!
//! An action's value in a world is the points its side gains until the hand ends minus what the
//! other sides gain (their mean, with more than two sides). When any side is within
//! [`NEAR_TARGET`] points of the target (a fifth of that on the small scales), winning the game
//! matters more than points: a world in which the searcher's side wins the game scores
//! [`WIN_VALUE`], one in which another side wins scores minus that, and points only break ties.
//!
//! Pimc chooses the action with the best mean. [`analyze`] returns every action's mean
//! and standard error, for hints and game reviews.
//!
//! Settings (`pimc:samples=400,threads=2`): `samples` worlds per decision (default
//! [`DEFAULT_SAMPLES`]); or `time` in milliseconds, which keeps sampling until the time is
//! spent (not deterministic); `threads` to share the worlds (default: the machine's cores);
//! `endgame`, the most tiles left in all hands for the exact search (default 8); `rollout`,
//! `club` or `greedy`. With a `samples` budget the worlds are drawn in turn from one generator
//! and the threads share their evaluation, the values summed in the worlds' order, so the
//! answer depends only on the seed and the budget, never on timing nor on the number of
//! threads (the same to the last bit as on one thread). With a `time` budget each thread
//! samples with a generator of its own until the time is spent.

use std::time::{Duration, Instant};

use fiveup_engine::{Action, FastRng, GameEnd, Phase, Sampler, Side, State, View};

use crate::greedy::greedy_action;
use crate::{OmniscientPlayer, Player, SpecError};

/// Worlds sampled per decision by default.
pub const DEFAULT_SAMPLES: u32 = 200;

/// A side this close to the target (in fives) makes the expert play to win the game.
pub const NEAR_TARGET: i32 = 50;

/// The value of a won game, in points.
pub const WIN_VALUE: f64 = 500.0;

/// How the expert spends its effort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpertConfig {
    /// Worlds per decision (ignored when `time` is set).
    pub samples: u32,
    /// A time budget per decision instead of a number of worlds.
    pub time: Option<Duration>,
    /// Threads sharing the worlds.
    pub threads: usize,
    /// Exact search once the boneyard is closed and at most this many tiles are in hands.
    pub endgame: u32,
    /// How sampled worlds are finished.
    pub rollout: Rollout,
    /// Inference from plays: each world is weighted by how likely the other seats' plays
    /// were in it under the club player's scores, softened by this temperature in points
    /// (0: every world weighs the same, as pimc does). See [`crate::infer`].
    pub infer: u32,
    /// Nested search: in each world, the searcher's next decision after the one searched is
    /// made by a search of this many worlds sampled from its own view in that world, instead
    /// of by the rollout policy (0: off, as pimc). An expert setting (`expert.rs`).
    pub nest: u32,
    /// Replies: in each world, the next seat's reply to the searched action (when that seat
    /// is another side's) is not the rollout policy's one choice but a chance node over its
    /// this many likeliest plays, each weighted by a softmax of the policy's values at the
    /// inference temperature, and each finished by the rollout (0: off, as pimc). An
    /// expert setting (`expert.rs`).
    pub reply: u32,
    /// How a world is valued once the searched action is made: played out by the rollout
    /// (the default), or valued at once by the learned critic ([`Leaf::Net`]).
    pub leaf: Leaf,
    /// With [`Leaf::Net`]: plies played by the rollout policy after the searched action before
    /// the critic values the world (0: at once).
    pub depth: u32,
}

/// How the search values a sampled world after the searched action.
#[derive(Clone, Copy, Debug)]
pub enum Leaf {
    /// Played out to the end of the hand by the rollout policy.
    Rollout,
    /// Valued by the learned critic ([`crate::neural`]): the points the searcher's side is
    /// expected to gain over the others' from there to the end of the hand. Near the target
    /// (when the search plays to win the game) and in the exact endgame the search does as
    /// before.
    Net(&'static crate::neural::Nets),
}

impl PartialEq for Leaf {
    fn eq(&self, other: &Leaf) -> bool {
        match (self, other) {
            (Leaf::Rollout, Leaf::Rollout) => true,
            (Leaf::Net(a), Leaf::Net(b)) => std::ptr::eq(*a, *b),
            _ => false,
        }
    }
}

impl Eq for Leaf {}

impl Default for ExpertConfig {
    fn default() -> ExpertConfig {
        ExpertConfig {
            samples: DEFAULT_SAMPLES,
            time: None,
            threads: std::thread::available_parallelism().map_or(1, usize::from),
            endgame: 8,
            rollout: Rollout::Club,
            infer: 0,
            nest: 0,
            reply: 0,
            leaf: Leaf::Rollout,
            depth: 0,
        }
    }
}

impl ExpertConfig {
    /// Read pimc's (and the oracle's) `key=value` settings separated by commas: `samples`,
    /// `time`, `threads`, `endgame`, `rollout`.
    pub fn parse(settings: &str) -> Result<ExpertConfig, SpecError> {
        ExpertConfig::parse_onto(ExpertConfig::default(), settings, false)
    }

    /// Read `key=value` settings onto `c`; `infer` is accepted only when `extended`.
    pub(crate) fn parse_onto(
        mut c: ExpertConfig,
        settings: &str,
        extended: bool,
    ) -> Result<ExpertConfig, SpecError> {
        for kv in settings.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| SpecError(format!("expected key=value, got {kv:?}")))?;
            if k == "rollout" {
                c.rollout = match v {
                    "greedy" => Rollout::Greedy,
                    "club" => Rollout::Club,
                    "seeing" if extended => Rollout::Seeing,
                    "learned" if extended => Rollout::Learned(&crate::learned::LEARNED),
                    "net" if extended => Rollout::Net(crate::neural::Nets::shipped()),
                    _ => {
                        return Err(SpecError(format!(
                            "rollout: {v:?} is not {}",
                            if extended {
                                "greedy, club, learned, net or seeing"
                            } else {
                                "greedy or club"
                            }
                        )))
                    }
                };
                continue;
            }
            if k == "leaf" && extended {
                c.leaf = match v {
                    "rollout" => Leaf::Rollout,
                    "net" => Leaf::Net(crate::neural::Nets::shipped()),
                    _ => return Err(SpecError(format!("leaf: {v:?} is not rollout or net"))),
                };
                continue;
            }
            let n: u64 = v
                .parse()
                .map_err(|_| SpecError(format!("{k}: not a number: {v:?}")))?;
            match k {
                "samples" if (1..=1_000_000).contains(&n) => c.samples = n as u32,
                "time" if (1..=600_000).contains(&n) => c.time = Some(Duration::from_millis(n)),
                "threads" if (1..=64).contains(&n) => c.threads = n as usize,
                "endgame" if n <= 28 => c.endgame = n as u32,
                "infer" if extended && n <= 1000 => c.infer = n as u32,
                "nest" if extended && n <= 1000 => c.nest = n as u32,
                "reply" if extended && n <= 28 => c.reply = n as u32,
                "depth" if extended && n <= 100 => c.depth = n as u32,
                "samples" | "time" | "threads" | "endgame" => {
                    return Err(SpecError(format!("{k}={v} is out of range")))
                }
                "infer" | "nest" | "reply" | "depth" if extended => {
                    return Err(SpecError(format!("{k}={v} is out of range")))
                }
                _ => {
                    let more = if extended {
                        ", infer, nest, reply, leaf, depth"
                    } else {
                        ""
                    };
                    return Err(SpecError(format!(
                        "unknown setting {k:?}; settings are samples, time, threads, endgame, \
                         rollout{more}"
                    )));
                }
            }
        }
        if c.depth > 0 && c.leaf == Leaf::Rollout {
            return Err(SpecError(
                "depth counts the plies before the critic: it needs leaf=net".into(),
            ));
        }
        Ok(c)
    }

    pub(crate) fn describe(&self, name: &str) -> String {
        let budget = match self.time {
            Some(t) => format!("time={}", t.as_millis()),
            None => format!("samples={}", self.samples),
        };
        let rollout = match self.rollout {
            Rollout::Greedy => "greedy",
            Rollout::Club => "club",
            Rollout::Seeing => "seeing",
            Rollout::Learned(p) if std::ptr::eq(p, &crate::learned::LEARNED) => "learned",
            Rollout::Learned(_) => "trained",
            Rollout::Net(_) => "net",
        };
        let mut infer = String::new();
        if self.infer > 0 {
            infer += &format!(",infer={}", self.infer);
        }
        if self.nest > 0 {
            infer += &format!(",nest={}", self.nest);
        }
        if self.reply > 0 {
            infer += &format!(",reply={}", self.reply);
        }
        if let Leaf::Net(_) = self.leaf {
            infer += ",leaf=net";
            if self.depth > 0 {
                infer += &format!(",depth={}", self.depth);
            }
        }
        format!(
            "{name}:{budget},threads={},endgame={},rollout={rollout}{infer}",
            self.threads, self.endgame
        )
    }
}

/// One legal action's evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionEval {
    /// The action.
    pub action: Action,
    /// Mean value over the worlds (points difference, or game value near the target).
    pub mean: f64,
    /// Standard error of the mean.
    pub stderr: f64,
    /// Worlds evaluated.
    pub samples: u32,
}

/// Sums per action, merged across threads.
#[derive(Clone, Debug)]
struct Tally {
    /// Weighted sums of the values and of their squares.
    sum: Vec<f64>,
    sq: Vec<f64>,
    n: u32,
    /// Sum of the worlds' weights, and of their squares (each world weighs 1 without
    /// inference).
    w: f64,
    w2: f64,
}

impl Tally {
    fn new(k: usize) -> Tally {
        Tally {
            sum: vec![0.0; k],
            sq: vec![0.0; k],
            n: 0,
            w: 0.0,
            w2: 0.0,
        }
    }

    fn merge(&mut self, o: &Tally) {
        for i in 0..self.sum.len() {
            self.sum[i] += o.sum[i];
            self.sq[i] += o.sq[i];
        }
        self.n += o.n;
        self.w += o.w;
        self.w2 += o.w2;
    }
}

/// Whether the searcher should play to win the game rather than for points.
fn playing_to_win(state: &State) -> bool {
    let r = state.rules();
    if r.game_end != GameEnd::Immediate {
        return false;
    }
    let margin = if r.small_scale() {
        NEAR_TARGET / 5
    } else {
        NEAR_TARGET
    };
    let t = i32::from(r.target);
    (0..r.sides()).any(|s| state.scores()[Side(s)] >= t - margin)
}

/// The points `side` gained from the scores `before` to the scores `end` over the mean gain of
/// the other sides (of `sides`): what the search maximises away from the target, and the
/// return the learned networks are trained on ([`crate::neural`]).
#[must_use]
pub fn points_margin(
    sides: u8,
    side: Side,
    before: &fiveup_engine::BySide<i32>,
    end: &fiveup_engine::BySide<i32>,
) -> f64 {
    let gain = |s: Side| f64::from(end[s] - before[s]);
    let others: f64 = (0..sides)
        .map(Side)
        .filter(|&s| s != side)
        .map(gain)
        .sum::<f64>()
        / f64::from(sides - 1);
    gain(side) - others
}

/// The value for `side` of a finished (or game-over) world, from the scores before.
fn value(end: &State, side: Side, before: &fiveup_engine::BySide<i32>, to_win: bool) -> f64 {
    let points = points_margin(end.rules().sides(), side, before, end.scores());
    if to_win {
        match end.winner() {
            Some(w) if w == side => WIN_VALUE + points / 100.0,
            Some(_) => -WIN_VALUE + points / 100.0,
            None => points / 100.0,
        }
    } else {
        points
    }
}

/// Apply the actions that need no decision in search: the right claim, and a Muggins call.
fn settle(s: &mut State) {
    loop {
        match s.phase() {
            Phase::Claim => {
                s.apply_unchecked(Action::Claim(s.claimable()));
            }
            Phase::Play if s.muggins_available() > 0 => {
                s.apply_unchecked(Action::Muggins);
            }
            _ => return,
        }
    }
}

fn in_play(s: &State) -> bool {
    matches!(s.phase(), Phase::Play | Phase::Claim)
}

/// Finish the hand with the rollout policy.
fn rollout(s: &mut State, policy: Rollout) {
    // The learned policy reuses its buffer across the plies.
    if let (Rollout::Learned(p), 6) = (policy, s.rules().set) {
        let mut buf = Vec::new();
        while in_play(s) {
            let a = p.choose_with(&s.view(s.to_move()), &mut buf);
            s.apply_unchecked(a);
        }
        return;
    }
    while in_play(s) {
        rollout_ply(s, policy);
    }
}

/// One action of the rollout policy.
fn rollout_ply(s: &mut State, policy: Rollout) {
    let seat = s.to_move();
    // The club player reads a view of the whole history at every ply: on the bigger sets that
    // took over half a second a decision, so they are finished by the greedy rule.
    let big = s.rules().set != 6;
    let a = match policy {
        Rollout::Net(n) => n.choose(&s.view(seat)),
        Rollout::Learned(p) if !big => p.choose(&s.view(seat)),
        Rollout::Club if !big => crate::Player::choose(&mut crate::club::Club, &s.view(seat)),
        Rollout::Seeing if !big => {
            let next = seat.next(s.rules().players);
            crate::club::choose_seeing(&s.view(seat), &crate::club::Weights::CLUB, s.hand(next))
        }
        _ => greedy_action(s),
    };
    s.apply_unchecked(a);
}

/// How sampled worlds are played to the end of the hand.
#[derive(Clone, Copy, Debug)]
pub enum Rollout {
    /// The greedy rule (fast).
    Greedy,
    /// The club player, seeing each seat's view of the sampled world (stronger, slower). On a
    /// double-six set only: the bigger sets are finished by the greedy rule.
    Club,
    /// The club player reading the next seat's hand in the sampled world (double-six only).
    Seeing,
    /// A learned policy over club's terms and more, from each seat's view of the sampled world
    /// (double-six only; see [`crate::learned`]).
    Learned(&'static crate::learned::Policy),
    /// The learned action-value network ([`crate::neural`]) from each seat's view of the
    /// sampled world, on every set.
    Net(&'static crate::neural::Nets),
}

impl PartialEq for Rollout {
    fn eq(&self, other: &Rollout) -> bool {
        match (self, other) {
            (Rollout::Greedy, Rollout::Greedy)
            | (Rollout::Club, Rollout::Club)
            | (Rollout::Seeing, Rollout::Seeing) => true,
            (Rollout::Learned(a), Rollout::Learned(b)) => a == b,
            (Rollout::Net(a), Rollout::Net(b)) => std::ptr::eq(*a, *b),
            _ => false,
        }
    }
}

impl Eq for Rollout {}

/// Tiles left in all hands.
fn tiles_in_hands(s: &State) -> u32 {
    (0..s.rules().players)
        .map(|p| s.hand(fiveup_engine::Seat(p)).len())
        .sum()
}

/// Exact alpha-beta value for `side` of a world with a closed boneyard (two sides only).
fn solve(
    s: &State,
    side: Side,
    before: &fiveup_engine::BySide<i32>,
    to_win: bool,
    mut alpha: f64,
    mut beta: f64,
) -> f64 {
    let mut s = s.clone();
    settle(&mut s);
    if !in_play(&s) {
        return value(&s, side, before, to_win);
    }
    let maximizing = s.rules().side_of(s.to_move()) == side;
    let legal = s.legal_actions();
    let mut best = if maximizing {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    for &a in &legal {
        let mut c = s.clone();
        c.apply_unchecked(a);
        let v = solve(&c, side, before, to_win, alpha, beta);
        if maximizing {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The value of playing `a` in world `w` for `side`.
fn evaluate(w: &State, a: Action, side: Side, cfg: &ExpertConfig, to_win: bool) -> f64 {
    let before = *w.scores();
    let mut s = w.clone();
    s.apply_unchecked(a);
    settle(&mut s);
    if cfg.reply > 0 {
        if let Some(v) = replies(&s, side, &before, cfg, to_win) {
            return v;
        }
    }
    finish(s, side, &before, cfg, to_win)
}

/// Whether a world is solved exactly: in play, two sides, the boneyard closed and at most
/// `cfg.endgame` tiles in hands.
fn exact_endgame(s: &State, cfg: &ExpertConfig) -> bool {
    in_play(s) && s.rules().sides() == 2 && !s.can_draw() && tiles_in_hands(s) <= cfg.endgame
}

/// Finish a world by the exact search or the rollout, and value it for `side`.
fn finish(
    mut s: State,
    side: Side,
    before: &fiveup_engine::BySide<i32>,
    cfg: &ExpertConfig,
    to_win: bool,
) -> f64 {
    if exact_endgame(&s, cfg) {
        return solve(&s, side, before, to_win, f64::NEG_INFINITY, f64::INFINITY);
    }
    if let (Leaf::Net(n), false) = (cfg.leaf, to_win) {
        // A few plies by the rollout policy (the replies the search cares most about), then
        // the critic.
        let mut plies = cfg.depth;
        while plies > 0 && in_play(&s) {
            rollout_ply(&mut s, cfg.rollout);
            settle(&mut s);
            plies -= 1;
        }
        if exact_endgame(&s, cfg) {
            return solve(&s, side, before, to_win, f64::NEG_INFINITY, f64::INFINITY);
        }
        if in_play(&s) {
            return value(&s, side, before, false) + f64::from(n.side_value(&s, side));
        }
        return value(&s, side, before, false);
    }
    rollout(&mut s, cfg.rollout);
    value(&s, side, before, to_win)
}

/// The chance node over the next seat's replies (`cfg.reply`): `None` when that seat is on
/// `side`, or has no choice among plays, or the set is not double-six.
fn replies(
    s: &State,
    side: Side,
    before: &fiveup_engine::BySide<i32>,
    cfg: &ExpertConfig,
    to_win: bool,
) -> Option<f64> {
    if !in_play(s) || s.rules().set != 6 {
        return None;
    }
    let seat = s.to_move();
    if s.rules().side_of(seat) == side {
        return None;
    }
    let model = match cfg.rollout {
        Rollout::Learned(p) => Some(p),
        _ => None,
    };
    let temp = f64::from(if cfg.infer > 0 {
        cfg.infer
    } else {
        crate::infer::DEFAULT_INFER
    });
    let mut chances = Vec::new();
    crate::infer::play_chances(&s.view(seat), model, temp, &mut chances);
    if chances.len() < 2 {
        return None;
    }
    // The likeliest first; equal chances keep the legal order.
    chances.sort_by(|x, y| y.1.total_cmp(&x.1));
    chances.truncate(cfg.reply as usize);
    let z: f64 = chances.iter().map(|x| x.1).sum();
    let mut total = 0.0;
    for (b, q) in chances {
        let mut c = s.clone();
        c.apply_unchecked(b);
        settle(&mut c);
        total += q / z * finish(c, side, before, cfg, to_win);
    }
    Some(total)
}

/// [`evaluate`] with a nested search (`cfg.nest` worlds, seeded by `seed`) for the
/// searcher's next decision in the world, the rest finished as [`evaluate`] does.
fn evaluate_nested(
    w: &State,
    a: Action,
    side: Side,
    cfg: &ExpertConfig,
    to_win: bool,
    seed: u64,
) -> f64 {
    let me = w.to_move();
    let before = *w.scores();
    let mut s = w.clone();
    s.apply_unchecked(a);
    settle(&mut s);
    if exact_endgame(&s, cfg) {
        return solve(&s, side, &before, to_win, f64::NEG_INFINITY, f64::INFINITY);
    }
    if s.rules().set == 6 {
        // The others play on as the rollout would, up to the searcher's next turn.
        while in_play(&s) && s.to_move() != me {
            rollout_ply(&mut s, cfg.rollout);
            settle(&mut s);
        }
        if in_play(&s) {
            if exact_endgame(&s, cfg) {
                return solve(&s, side, &before, to_win, f64::NEG_INFINITY, f64::INFINITY);
            }
            let inner = ExpertConfig {
                samples: cfg.nest,
                time: None,
                threads: 1,
                nest: 0,
                ..*cfg
            };
            let mut rng = FastRng::new(seed);
            let b = choose_by_search(&inner, &mut rng, &s.view(me), None);
            s.apply_unchecked(b);
            settle(&mut s);
            if exact_endgame(&s, cfg) {
                return solve(&s, side, &before, to_win, f64::NEG_INFINITY, f64::INFINITY);
            }
        }
    }
    rollout(&mut s, cfg.rollout);
    value(&s, side, &before, to_win)
}

/// Where the worlds come from: samples of a view, or reshuffled boneyards of a known state.
enum Worlds<'a> {
    View(&'a View),
    Known(&'a State),
}

/// What every search thread shares.
struct Job<'a> {
    worlds: Worlds<'a>,
    actions: &'a [Action],
    side: Side,
    to_win: bool,
    cfg: &'a ExpertConfig,
    /// A time limit on top of the budget of worlds: the search stops once it has passed (see
    /// [`analyze_within`]).
    cap: Option<Duration>,
}

/// Evaluate every action over the worlds drawn by one thread with its own generator: `quota`
/// of them (`None`: no limit), or as many as fit before `deadline`, whichever is fewer; always
/// at least one. A search on a time budget runs one per thread; a budget of worlds is searched
/// by [`search_worlds`], which draws the same worlds as one of these would.
fn run_thread(job: &Job<'_>, seed: u64, quota: Option<u32>, deadline: Option<Instant>) -> Tally {
    let mut rng = FastRng::new(seed);
    let mut tally = Tally::new(job.actions.len());
    let mut sampler = match job.worlds {
        Worlds::View(v) => Some(Sampler::new(v)),
        Worlds::Known(_) => None,
    };
    loop {
        if let Some(d) = deadline {
            if tally.n > 0 && Instant::now() >= d {
                break;
            }
        }
        if quota.is_some_and(|q| tally.n >= q) {
            break;
        }
        let world = match (&job.worlds, &mut sampler) {
            // Exactly uniform worlds where they can be counted; consistent ones on the bigger
            // tables where they cannot.
            (Worlds::View(_), Some(sm)) => match sm.sample_consistent(&mut rng) {
                Ok(w) => w,
                Err(_) => break,
            },
            (Worlds::Known(s), _) => {
                let mut w = (*s).clone();
                w.shuffle_boneyard(&mut rng);
                w
            }
            (Worlds::View(_), None) => break,
        };
        match (job.cfg.infer, &job.worlds) {
            (t, Worlds::View(v)) if t > 0 || job.cfg.nest > 0 => {
                let w = if t > 0 {
                    crate::infer::world_weight(&world, v.seat(), f64::from(t))
                } else {
                    1.0
                };
                let nest_seed = if job.cfg.nest > 0 { rng.next_u64() } else { 0 };
                for (i, &a) in job.actions.iter().enumerate() {
                    let v = if job.cfg.nest > 0 {
                        evaluate_nested(&world, a, job.side, job.cfg, job.to_win, nest_seed)
                    } else {
                        evaluate(&world, a, job.side, job.cfg, job.to_win)
                    };
                    tally.sum[i] += w * v;
                    tally.sq[i] += w * v * v;
                }
                tally.w += w;
                tally.w2 += w * w;
            }
            _ => {
                for (i, &a) in job.actions.iter().enumerate() {
                    let v = evaluate(&world, a, job.side, job.cfg, job.to_win);
                    tally.sum[i] += v;
                    tally.sq[i] += v * v;
                }
                tally.w += 1.0;
                tally.w2 += 1.0;
            }
        }
        tally.n += 1;
    }
    tally
}

/// One sampled world with the seed of its nested search (0 when there is none).
type World = (State, u64);

/// The worlds of a search in the order one generator draws them (with the same random numbers
/// as one thread of [`run_thread`]), handed out one at a time, so that the threads sharing a
/// search evaluate the same worlds however many they are.
struct WorldSource {
    rng: FastRng,
    sampler: Option<Sampler>,
    /// Worlds handed out so far.
    drawn: u32,
    /// The view allows no more worlds.
    done: bool,
}

impl WorldSource {
    /// The next world and its index, or `None` once `n` were drawn or no more can be.
    fn next(&mut self, job: &Job<'_>, n: u32) -> Option<(usize, World)> {
        if self.done || self.drawn >= n {
            return None;
        }
        let world = match (&job.worlds, &mut self.sampler) {
            (Worlds::View(_), Some(sm)) => match sm.sample_consistent(&mut self.rng) {
                Ok(w) => w,
                Err(_) => {
                    self.done = true;
                    return None;
                }
            },
            (Worlds::Known(s), _) => {
                let mut w = (*s).clone();
                w.shuffle_boneyard(&mut self.rng);
                w
            }
            (Worlds::View(_), None) => {
                self.done = true;
                return None;
            }
        };
        let nested = matches!(job.worlds, Worlds::View(_)) && job.cfg.nest > 0;
        let nest_seed = if nested { self.rng.next_u64() } else { 0 };
        self.drawn += 1;
        Some((self.drawn as usize - 1, (world, nest_seed)))
    }
}

/// One world's weight and the value of every action in it.
fn evaluate_world(job: &Job<'_>, world: &World) -> (f64, Vec<f64>) {
    let (world, nest_seed) = world;
    match (job.cfg.infer, &job.worlds) {
        (t, Worlds::View(v)) if t > 0 || job.cfg.nest > 0 => {
            let w = if t > 0 {
                crate::infer::world_weight(world, v.seat(), f64::from(t))
            } else {
                1.0
            };
            let values = job
                .actions
                .iter()
                .map(|&a| {
                    if job.cfg.nest > 0 {
                        evaluate_nested(world, a, job.side, job.cfg, job.to_win, *nest_seed)
                    } else {
                        evaluate(world, a, job.side, job.cfg, job.to_win)
                    }
                })
                .collect();
            (w, values)
        }
        _ => (
            1.0,
            job.actions
                .iter()
                .map(|&a| evaluate(world, a, job.side, job.cfg, job.to_win))
                .collect(),
        ),
    }
}

/// Search a budget of worlds the same whatever the number of threads: the worlds are drawn
/// from one generator, the threads share their evaluation, and the values are summed in the
/// worlds' order, so the result (to the last bit) depends only on the seed and the budget, as
/// one thread of [`run_thread`] would give it. Under a `cap` the worlds evaluated before it
/// passed count (at least the first).
fn search_worlds(job: &Job<'_>, seed: u64, deadline: Option<Instant>) -> Tally {
    let cfg = job.cfg;
    let threads = cfg.threads.max(1).min(cfg.samples.max(1) as usize);
    let source = std::sync::Mutex::new(WorldSource {
        rng: FastRng::new(seed),
        sampler: match job.worlds {
            Worlds::View(v) => Some(Sampler::new(v)),
            Worlds::Known(_) => None,
        },
        drawn: 0,
        done: false,
    });
    let work = || {
        let mut done: Vec<(usize, f64, Vec<f64>)> = Vec::new();
        loop {
            let next = {
                let mut src = source.lock().expect("the world source");
                // Past the cap no new world starts (the first always does).
                if src.drawn > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                    None
                } else {
                    src.next(job, cfg.samples)
                }
            };
            let Some((i, world)) = next else { break };
            let (w, values) = evaluate_world(job, &world);
            done.push((i, w, values));
        }
        done
    };
    let mut done: Vec<(usize, f64, Vec<f64>)> = if threads == 1 {
        work()
    } else {
        std::thread::scope(|sc| {
            let hs: Vec<_> = (0..threads).map(|_| sc.spawn(work)).collect();
            hs.into_iter()
                .flat_map(|h| h.join().expect("a search thread panicked"))
                .collect()
        })
    };
    done.sort_by_key(|d| d.0);
    let weighted = (cfg.infer > 0 || cfg.nest > 0) && matches!(job.worlds, Worlds::View(_));
    let mut tally = Tally::new(job.actions.len());
    for (_, w, values) in &done {
        for (i, v) in values.iter().enumerate() {
            if weighted {
                tally.sum[i] += w * v;
                tally.sq[i] += w * v * v;
            } else {
                tally.sum[i] += v;
                tally.sq[i] += v * v;
            }
        }
        if weighted {
            tally.w += w;
            tally.w2 += w * w;
        } else {
            tally.w += 1.0;
            tally.w2 += 1.0;
        }
        tally.n += 1;
    }
    tally
}

fn search(job: &Job<'_>, seed: u64) -> Vec<ActionEval> {
    let cfg = job.cfg;
    let threads = cfg.threads.max(1);
    let start = Instant::now();
    // The earlier of the time budget and the cap, if either is set.
    let deadline = [cfg.time, job.cap]
        .into_iter()
        .flatten()
        .min()
        .map(|d| start + d);
    let thread_seed = |i: usize| seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1));
    let mut total = Tally::new(job.actions.len());
    if cfg.time.is_none() {
        // A budget of worlds: the same worlds and the same sums whatever the threads.
        total.merge(&search_worlds(job, thread_seed(0), deadline));
    } else {
        // A time budget: each thread samples on with its own generator until the time is spent
        // (timing decides the result anyway).
        let tallies: Vec<Tally> = std::thread::scope(|sc| {
            let hs: Vec<_> = (0..threads)
                .map(|i| sc.spawn(move || run_thread(job, thread_seed(i), None, deadline)))
                .collect();
            hs.into_iter()
                .map(|h| h.join().expect("a search thread panicked"))
                .collect()
        });
        for t in &tallies {
            total.merge(t);
        }
    }
    let weighted = (cfg.infer > 0 || cfg.nest > 0) && matches!(job.worlds, Worlds::View(_));
    let n = f64::from(total.n.max(1));
    // With weighted worlds: the weighted mean, and the standard error over the effective
    // number of worlds (Kish's (sum w)^2 / sum w^2).
    let (wsum, n_eff) = if weighted && total.w > 0.0 {
        (total.w, total.w * total.w / total.w2)
    } else {
        (n, n)
    };
    let mut evals: Vec<ActionEval> = job
        .actions
        .iter()
        .enumerate()
        .map(|(i, &action)| {
            let mean = total.sum[i] / wsum;
            let var = (total.sq[i] / wsum - mean * mean).max(0.0);
            ActionEval {
                action,
                mean,
                stderr: (var / n_eff).sqrt(),
                samples: total.n,
            }
        })
        .collect();
    // Best first; ties keep the legal list's order, so the choice is deterministic.
    evals.sort_by(|a, b| b.mean.total_cmp(&a.mean));
    evals
}

/// Every legal action of the viewer with its expected value and standard error, best first.
/// Empty when it is not the viewer's turn.
#[must_use]
pub fn analyze(view: &View, cfg: &ExpertConfig, seed: u64) -> Vec<ActionEval> {
    analyze_capped(view, cfg, seed, None)
}

/// [`analyze`] within a time limit whatever the budget of worlds: each thread stops sampling
/// once `cap` has passed since the start (finishing the world in progress, and evaluating at
/// least one), so the answer comes in about `cap` at most. Within the limit it is exactly
/// [`analyze`]'s answer; cut short, it rests on fewer worlds (`samples` says how many) and
/// depends on timing. For hints, which must answer in time.
#[must_use]
pub fn analyze_within(
    view: &View,
    cfg: &ExpertConfig,
    seed: u64,
    cap: Duration,
) -> Vec<ActionEval> {
    analyze_capped(view, cfg, seed, Some(cap))
}

fn analyze_capped(
    view: &View,
    cfg: &ExpertConfig,
    seed: u64,
    cap: Option<Duration>,
) -> Vec<ActionEval> {
    let legal = view.legal_actions();
    if legal.is_empty() {
        return Vec::new();
    }
    let actions: Vec<Action> = legal.iter().copied().collect();
    // The sample's own scores decide whether to play to win; any sample will do.
    let to_win = Sampler::new(view)
        .sample_consistent(&mut FastRng::new(seed))
        .map(|s| playing_to_win(&s))
        .unwrap_or(false);
    let job = Job {
        worlds: Worlds::View(view),
        actions: &actions,
        side: view.side(),
        to_win,
        cfg,
        cap,
    };
    search(&job, seed)
}

/// The pimc player: every sampled world weighted alike.
#[derive(Debug)]
pub struct Pimc {
    cfg: ExpertConfig,
    rng: FastRng,
}

impl Pimc {
    /// A pimc player with these settings.
    #[must_use]
    pub fn new(cfg: ExpertConfig, seed: u64) -> Pimc {
        Pimc {
            cfg,
            rng: FastRng::new(seed),
        }
    }
}

/// The choice for a decision: the only legal action, the right claim, a Muggins call, or the
/// best evaluated action.
fn forced(legal: &[Action], claimable: Option<u16>) -> Option<Action> {
    if legal.len() == 1 {
        return Some(legal[0]);
    }
    if legal.contains(&Action::Muggins) {
        return Some(Action::Muggins);
    }
    if let Some(c) = claimable {
        if legal.iter().all(|a| matches!(a, Action::Claim(_))) {
            return Some(Action::Claim(c));
        }
    }
    None
}

impl Player for Pimc {
    fn name(&self) -> String {
        self.cfg.describe("pimc")
    }

    fn choose(&mut self, view: &View) -> Action {
        choose_by_search(&self.cfg, &mut self.rng, view, None)
    }

    fn choose_within(&mut self, view: &View, cap: Duration) -> Action {
        choose_by_search(&self.cfg, &mut self.rng, view, Some(cap))
    }
}

/// A searching player's decision: a forced one without search, else the best action
/// [`analyze`] finds (within `cap` when one is given), with a seed drawn from `rng`.
pub(crate) fn choose_by_search(
    cfg: &ExpertConfig,
    rng: &mut FastRng,
    view: &View,
    cap: Option<Duration>,
) -> Action {
    let legal: Vec<Action> = view.legal_actions().iter().copied().collect();
    let claim = legal
        .iter()
        .filter_map(|a| match a {
            Action::Claim(n) => Some(*n),
            _ => None,
        })
        .max();
    if let Some(a) = forced(&legal, claim) {
        return a;
    }
    let seed = rng.next_u64();
    match analyze_capped(view, cfg, seed, cap).first() {
        Some(e) if e.samples > 0 => e.action,
        // No world could be sampled (never seen in play): the club player's choice.
        _ => crate::club::Club.choose(view),
    }
}

/// The oracle: the expert's search, seeing every hand (only the boneyard order is sampled).
/// For measurement only; never offered as an opponent.
#[derive(Debug)]
pub struct Oracle {
    cfg: ExpertConfig,
    rng: FastRng,
}

impl Oracle {
    /// An oracle with these settings.
    #[must_use]
    pub fn new(cfg: ExpertConfig, seed: u64) -> Oracle {
        Oracle {
            cfg,
            rng: FastRng::new(seed),
        }
    }
}

impl OmniscientPlayer for Oracle {
    fn name(&self) -> String {
        self.cfg.describe("oracle")
    }

    fn choose(&mut self, state: &State) -> Action {
        let legal: Vec<Action> = state.legal_actions().iter().copied().collect();
        let claim = (state.phase() == Phase::Claim).then(|| state.claimable());
        if let Some(a) = forced(&legal, claim) {
            return a;
        }
        let seed = self.rng.next_u64();
        let side = state.rules().side_of(state.to_move());
        let job = Job {
            worlds: Worlds::Known(state),
            actions: &legal,
            side,
            to_win: playing_to_win(state),
            cfg: &self.cfg,
            cap: None,
        };
        search(&job, seed).first().map_or(legal[0], |e| e.action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fiveup_engine::{Rules, Seed};

    fn mid_hand(seed: u64) -> State {
        let mut s = State::from_seed(Rules::default(), &Seed::from_u64(seed)).unwrap();
        for _ in 0..4 {
            let a = greedy_action(&s);
            s.apply(a).unwrap();
        }
        s
    }

    #[test]
    fn analysis_covers_every_legal_action_best_first() {
        let s = mid_hand(5);
        let view = s.view(s.to_move());
        let cfg = ExpertConfig {
            samples: 30,
            threads: 2,
            ..ExpertConfig::default()
        };
        let evals = analyze(&view, &cfg, 9);
        let legal = view.legal_actions();
        assert_eq!(evals.len(), legal.len());
        for a in &legal {
            assert_eq!(evals.iter().filter(|e| e.action == *a).count(), 1);
        }
        assert!(evals.windows(2).all(|w| w[0].mean >= w[1].mean));
        assert!(evals.iter().all(|e| e.stderr >= 0.0 && e.samples == 30));
        // Not the viewer's turn: nothing to analyse.
        let other = s.view(s.to_move().next(2));
        assert!(analyze(&other, &cfg, 9).is_empty());
    }

    #[test]
    fn same_seed_same_choices() {
        let s = mid_hand(8);
        let view = s.view(s.to_move());
        let cfg = ExpertConfig::parse("samples=40,threads=2").unwrap();
        let a = analyze(&view, &cfg, 3);
        let b = analyze(&view, &cfg, 3);
        assert_eq!(a, b);
        let mut e1 = Pimc::new(cfg, 11);
        let mut e2 = Pimc::new(cfg, 11);
        assert_eq!(e1.choose(&view), e2.choose(&view));
    }

    #[test]
    fn a_budget_of_worlds_gives_the_same_answer_on_any_number_of_threads() {
        for seed in [2, 5, 8] {
            let s = mid_hand(seed);
            let view = s.view(s.to_move());
            for spec in [
                "samples=37",
                "samples=37,rollout=greedy",
                "samples=23,infer=2",
            ] {
                let one = {
                    // `infer` is read as the expert reads it, onto pimc's defaults (the spec
                    // sets the expert's own defaults, samples and infer, itself).
                    let mut c = if spec.contains("infer") {
                        ExpertConfig::parse_onto(ExpertConfig::default(), spec, true).unwrap()
                    } else {
                        ExpertConfig::parse(spec).unwrap()
                    };
                    c.threads = 1;
                    c
                };
                let base = analyze(&view, &one, 7);
                assert!(base.iter().all(|e| e.samples == one.samples), "{base:?}");
                for threads in [2, 3, 8] {
                    let cfg = ExpertConfig { threads, ..one };
                    // Equal to the last bit: the same worlds, summed in the same order.
                    assert_eq!(analyze(&view, &cfg, 7), base, "{spec}, {threads} threads");
                }
            }
            // The oracle too.
            let mut o1 = Oracle::new(ExpertConfig::parse("samples=20,threads=1").unwrap(), 3);
            let mut o4 = Oracle::new(ExpertConfig::parse("samples=20,threads=4").unwrap(), 3);
            assert_eq!(o1.choose(&s), o4.choose(&s));
        }
    }

    #[test]
    fn a_time_budget_is_honoured() {
        let s = mid_hand(2);
        let view = s.view(s.to_move());
        let cfg = ExpertConfig::parse("time=60,threads=1").unwrap();
        let t = Instant::now();
        let evals = analyze(&view, &cfg, 1);
        let spent = t.elapsed();
        assert!(evals[0].samples >= 1);
        assert!(spent >= Duration::from_millis(60), "{spent:?}");
        // The last world started before the deadline finishes; one world takes far less than
        // a second even in a debug build.
        assert!(spent < Duration::from_millis(1060), "{spent:?}");
    }

    #[test]
    fn a_capped_choice_answers_in_time_and_within_it_is_the_same_choice() {
        let s = mid_hand(2);
        let view = s.view(s.to_move());
        // A budget far beyond the cap: the cap decides when the answer comes.
        let cfg = ExpertConfig::parse("samples=1000000,threads=1").unwrap();
        let mut p = Pimc::new(cfg, 5);
        let t = Instant::now();
        let a = p.choose_within(&view, Duration::from_millis(30));
        let spent = t.elapsed();
        assert!(s.is_legal(a));
        assert!(spent < Duration::from_millis(1030), "{spent:?}");
        // A cap the search never reaches changes nothing.
        let small = ExpertConfig::parse("samples=20,threads=1").unwrap();
        let mut e1 = Pimc::new(small, 9);
        let mut e2 = Pimc::new(small, 9);
        assert_eq!(
            e1.choose(&view),
            e2.choose_within(&view, Duration::from_secs(600))
        );
    }

    #[test]
    fn the_oracle_sees_the_true_hands() {
        let s = mid_hand(4);
        let mut o = Oracle::new(ExpertConfig::parse("samples=20,threads=1").unwrap(), 1);
        let a = o.choose(&s);
        assert!(s.is_legal(a));
    }
}
