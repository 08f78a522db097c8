//! # fiveup-train
//!
//! The learned players' networks ([`fiveup_bots::neural`]), trained by self-play with Deep
//! Monte-Carlo: hands are played, and every decision's target is its return, the points its
//! side went on to gain over the other sides' mean by the end of the hand. No search labels.
//!
//! - The **action-value network** reads a seat's view and one legal action
//!   ([`fiveup_bots::neural::encode::Q_LEN`] slots) and learns the return of that action.
//! - The **critic** reads a whole state from one seat's side
//!   ([`fiveup_bots::neural::encode::V_LEN`] slots: every hand and the boneyard) and learns the
//!   return from that state for that seat's side, for every seat at every decision ("perfect
//!   training, imperfect execution": it sees every hand here, and in play only ever the worlds
//!   a search sampled from its own view).
//!
//! Hands come in chunks of [`CHUNK`] hands; chunk `k`'s deals and choices derive from the
//! run's seed and `k` alone, and a checkpoint (weights, the optimiser's moments, the step) is
//! written after each chunk, so a run stopped and resumed gives the same weights as one that
//! ran straight through. Every `eval_every` hands the run measures the held-out loss (a fixed
//! set of positions from hands the run never trains on) and the action-value network's
//! duplicate result against pimc, and appends them to the learning curve (`curve.csv`).
//!
//! The behaviour policy: each seat of each hand is played by the action-value network with an
//! ε-greedy choice, or, with the probability `league`, by the club player (so the returns are
//! of sensible play from the first hand on).

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use candle_core::{Device, Tensor, Var};
use fiveup_bots::neural::encode::{self, Sparse};
use fiveup_bots::neural::{Nets, SCALE};
use fiveup_bots::{MatchConfig, MatchMode, Player};
use fiveup_engine::{Action, FastRng, Phase, Preset, Rules, Seat, State};
use serde::{Deserialize, Serialize};

/// Hands per chunk (the unit of determinism and of checkpoints).
pub const CHUNK: u64 = 200;

/// A training run's settings.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TrainConfig {
    /// Hands to play in all (a resumed run plays up to this many).
    pub hands: u64,
    /// The run's seed.
    pub seed: u64,
    /// Units of the first hidden layer.
    pub h1: usize,
    /// Units of the second hidden layer.
    pub h2: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size at the start (it falls linearly to a tenth of it by the last hand).
    pub lr: f64,
    /// The chance of a random legal action in the network's own choices.
    pub epsilon: f64,
    /// The chance that a seat of a hand is played by club rather than the network.
    pub league: f64,
    /// Hands between measurements (a multiple of [`CHUNK`]; 0: only at the end).
    pub eval_every: u64,
    /// Deals of the duplicate match against pimc at each measurement (0: none).
    pub eval_deals: u64,
    /// Pimc's worlds per decision in that match.
    pub eval_samples: u32,
    /// Hands whose positions make the held-out set.
    pub heldout_hands: u64,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hands: 100_000,
            seed: 1,
            h1: 256,
            h2: 64,
            batch: 256,
            lr: 1e-3,
            epsilon: 0.05,
            league: 0.5,
            eval_every: 10_000,
            eval_deals: 100,
            eval_samples: 100,
            heldout_hands: 300,
        }
    }
}

/// A training error.
#[derive(Debug)]
pub struct TrainError(pub String);

impl std::fmt::Display for TrainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TrainError {}

impl From<candle_core::Error> for TrainError {
    fn from(e: candle_core::Error) -> TrainError {
        TrainError(e.to_string())
    }
}

impl From<std::io::Error> for TrainError {
    fn from(e: std::io::Error) -> TrainError {
        TrainError(e.to_string())
    }
}

type Result<T> = std::result::Result<T, TrainError>;

/// One network's parameters as candle variables.
#[derive(Debug)]
struct Net {
    vars: Vec<(String, Var)>,
}

impl Net {
    /// A network of `inputs` → `h1` → `h2` → 1, initialised (He's uniform) from `rng`.
    fn new(
        prefix: &str,
        inputs: usize,
        h1: usize,
        h2: usize,
        rng: &mut FastRng,
        dev: &Device,
    ) -> Result<Net> {
        let mut vars = Vec::new();
        for (name, fan_in, shape) in [
            ("w1", inputs, vec![inputs, h1]),
            ("b1", 0, vec![h1]),
            ("w2", h1, vec![h1, h2]),
            ("b2", 0, vec![h2]),
            ("w3", h2, vec![h2, 1]),
            ("b3", 0, vec![1]),
        ] {
            let n: usize = shape.iter().product();
            let data: Vec<f32> = if fan_in == 0 {
                vec![0.0; n]
            } else {
                // First layer: the input is sparse (a few dozen of several hundred slots set),
                // so its rows are scaled to the active slots rather than to every slot.
                let fan = if name == "w1" { 64 } else { fan_in };
                let bound = (6.0 / fan as f64).sqrt();
                (0..n)
                    .map(|_| ((unit(rng) * 2.0 - 1.0) * bound) as f32)
                    .collect()
            };
            let t = Tensor::from_vec(data, shape, dev)?;
            vars.push((format!("{prefix}.{name}"), Var::from_tensor(&t)?));
        }
        Ok(Net { vars })
    }

    fn var(&self, i: usize) -> &Tensor {
        self.vars[i].1.as_tensor()
    }

    /// The outputs for a batch `[n, inputs]`: `[n]`.
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let h = x.matmul(self.var(0))?.broadcast_add(self.var(1))?.relu()?;
        let h = h.matmul(self.var(2))?.broadcast_add(self.var(3))?.relu()?;
        Ok(h.matmul(self.var(4))?
            .broadcast_add(self.var(5))?
            .squeeze(1)?)
    }
}

/// Adam (Kingma and Ba), with its moments kept so that a checkpoint resumes it exactly.
#[derive(Debug)]
struct Adam {
    lr: f64,
    step: u64,
    m: Vec<Tensor>,
    v: Vec<Tensor>,
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const ADAM_EPS: f64 = 1e-8;

impl Adam {
    fn new(lr: f64, vars: &[&Var]) -> Result<Adam> {
        let zeros = |v: &&Var| v.as_tensor().zeros_like();
        Ok(Adam {
            lr,
            step: 0,
            m: vars.iter().map(zeros).collect::<candle_core::Result<_>>()?,
            v: vars.iter().map(zeros).collect::<candle_core::Result<_>>()?,
        })
    }

    fn update(&mut self, vars: &[&Var], grads: &candle_core::backprop::GradStore) -> Result<()> {
        self.step += 1;
        let t = self.step as i32;
        let c1 = 1.0 - BETA1.powi(t);
        let c2 = 1.0 - BETA2.powi(t);
        for (i, var) in vars.iter().enumerate() {
            let Some(g) = grads.get(var.as_tensor()) else {
                continue;
            };
            // Detached: a moment that kept the graph that made it would hold every earlier
            // step's tensors alive.
            let g = g.detach();
            let m = ((&self.m[i] * BETA1)? + (&g * (1.0 - BETA1))?)?.detach();
            let v = ((&self.v[i] * BETA2)? + (g.sqr()? * (1.0 - BETA2))?)?.detach();
            let delta = ((&m / c1)? / ((&v / c2)?.sqrt()? + ADAM_EPS)?)?;
            var.set(&(var.as_tensor().detach() - (delta * self.lr)?)?)?;
            self.m[i] = m;
            self.v[i] = v;
        }
        Ok(())
    }
}

/// One training position: an input and its return (in points).
#[derive(Clone, Debug)]
pub struct Sample {
    /// The input's non-zero slots.
    pub x: Sparse,
    /// The return.
    pub ret: f32,
}

/// The positions of some hands: for the action-value network and for the critic.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Context and chosen action, with the return of that choice.
    pub q: Vec<Sample>,
    /// A whole state from one seat's side, with the return from it.
    pub v: Vec<Sample>,
}

/// The rules of a training hand: two-player Five Up most often, then four-player
/// partnerships, then any preset for 2 to 4 players.
fn pick_rules(rng: &mut FastRng) -> Rules {
    let r = rng.below(100);
    if r < 55 {
        return Rules::default();
    }
    if r < 80 {
        return Rules::preset(Preset::FiveUp, 4);
    }
    loop {
        let preset = Preset::ALL[rng.below(Preset::ALL.len() as u32) as usize];
        let players = 2 + rng.below(3) as u8;
        let rules = Rules::preset(preset, players);
        if rules.validate().is_ok() {
            return rules;
        }
    }
}

/// Who plays a seat in a self-played hand.
#[derive(Clone, Copy, Debug)]
enum Actor {
    Net,
    Club,
}

/// Play one hand of `rules` from a deal made with `rng`, returning its positions.
fn play_hand(nets: &Nets, cfg: &TrainConfig, rules: Rules, rng: &mut FastRng, out: &mut Samples) {
    let seed = fiveup_engine::Seed::from_u64(rng.next_u64());
    let Ok(mut s) = State::from_seed(rules, &seed) else {
        return;
    };
    let players = rules.players;
    let actors: Vec<Actor> = (0..players)
        .map(|_| {
            if unit(rng) < cfg.league {
                Actor::Club
            } else {
                Actor::Net
            }
        })
        .collect();
    // Every decision: its Q input, whose it was, and the scores before it; every state: the
    // critic's input for each seat, with the scores then.
    let mut qs: Vec<(Sparse, Seat, fiveup_engine::BySide<i32>)> = Vec::new();
    let mut vs: Vec<(Sparse, Seat, fiveup_engine::BySide<i32>)> = Vec::new();
    let mut club = fiveup_bots::Club;
    while matches!(s.phase(), Phase::Play | Phase::Claim) {
        let seat = s.to_move();
        let view = s.view(seat);
        let legal = view.legal_actions();
        let choosing = encode::is_choice(&view) && legal.len() > 1;
        if choosing {
            for p in 0..players {
                let mut x = Sparse::new();
                encode::world(&s, Seat(p), &mut x);
                vs.push((x, Seat(p), *s.scores()));
            }
        }
        let a: Action = if !choosing {
            nets.choose(&view)
        } else {
            match actors[seat.idx()] {
                Actor::Club => club.choose(&view),
                Actor::Net => {
                    if unit(rng) < cfg.epsilon {
                        legal[rng.below(legal.len() as u32) as usize]
                    } else {
                        nets.choose(&view)
                    }
                }
            }
        };
        if choosing {
            let mut x = Sparse::new();
            encode::context(&view, &mut x);
            encode::action(&view, a, &mut x);
            qs.push((x, seat, *s.scores()));
        }
        s.apply(a).expect("a legal action");
    }
    let end = *s.scores();
    let ret = |seat: Seat, before: &fiveup_engine::BySide<i32>| -> f32 {
        fiveup_bots::points_margin(rules.sides(), rules.side_of(seat), before, &end) as f32
    };
    for (x, seat, before) in qs {
        let r = ret(seat, &before);
        out.q.push(Sample { x, ret: r });
    }
    for (x, seat, before) in vs {
        let r = ret(seat, &before);
        out.v.push(Sample { x, ret: r });
    }
}

/// Play `n` hands with `rng`.
fn play_hands(nets: &Nets, cfg: &TrainConfig, n: u64, rng: &mut FastRng) -> Samples {
    let mut out = Samples::default();
    for _ in 0..n {
        let rules = pick_rules(rng);
        play_hand(nets, cfg, rules, rng, &mut out);
    }
    out
}

/// The seed of chunk `k` of the run seeded `seed`.
fn chunk_seed(seed: u64, k: u64) -> u64 {
    let mut r = FastRng::new(seed ^ 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(k + 1));
    r.next_u64()
}

/// Both networks, their optimisers and where the run stands.
#[derive(Debug)]
pub struct Trainer {
    cfg: TrainConfig,
    dev: Device,
    q: Net,
    v: Net,
    q_opt: Adam,
    v_opt: Adam,
    /// Hands played so far.
    pub hands: u64,
}

/// One line of the learning curve.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CurvePoint {
    /// Hands played.
    pub hands: u64,
    /// Mean squared error of the action-value network on the held-out positions, in points².
    pub heldout_q: f64,
    /// The critic's, in points².
    pub heldout_v: f64,
    /// The network alone against pimc: points a hand, and the 95% interval's half-width
    /// (`None` when not measured).
    pub vs_pimc: Option<(f64, f64)>,
    /// Seconds of training so far (one core), measurements excluded.
    pub train_seconds: f64,
}

#[derive(Serialize, Deserialize)]
struct Progress {
    cfg: TrainConfig,
    hands: u64,
    step_q: u64,
    step_v: u64,
    train_seconds: f64,
}

impl Trainer {
    /// A fresh run.
    pub fn new(cfg: TrainConfig) -> Result<Trainer> {
        let max = fiveup_bots::neural::mlp::MAX_HIDDEN;
        if !(1..=max).contains(&cfg.h1) || !(1..=max).contains(&cfg.h2) {
            return Err(TrainError(format!(
                "hidden layers of 1 to {max} units, not {} and {}",
                cfg.h1, cfg.h2
            )));
        }
        let dev = Device::Cpu;
        let mut rng = FastRng::new(cfg.seed);
        let q = Net::new("q", encode::Q_LEN, cfg.h1, cfg.h2, &mut rng, &dev)?;
        let v = Net::new("v", encode::V_LEN, cfg.h1, cfg.h2, &mut rng, &dev)?;
        let q_opt = Adam::new(cfg.lr, &q.vars.iter().map(|x| &x.1).collect::<Vec<_>>())?;
        let v_opt = Adam::new(cfg.lr, &v.vars.iter().map(|x| &x.1).collect::<Vec<_>>())?;
        Ok(Trainer {
            cfg,
            dev,
            q,
            v,
            q_opt,
            v_opt,
            hands: 0,
        })
    }

    /// The run's settings.
    #[must_use]
    pub fn config(&self) -> &TrainConfig {
        &self.cfg
    }

    /// Every tensor of the run by name: the weights (`q.w1` ...) and, with `moments`, Adam's.
    fn tensors(&self, moments: bool) -> HashMap<String, Tensor> {
        let mut m = HashMap::new();
        for (net, opt) in [(&self.q, &self.q_opt), (&self.v, &self.v_opt)] {
            for (i, (name, var)) in net.vars.iter().enumerate() {
                m.insert(name.clone(), var.as_tensor().clone());
                if moments {
                    m.insert(format!("adam.m.{name}"), opt.m[i].clone());
                    m.insert(format!("adam.v.{name}"), opt.v[i].clone());
                }
            }
        }
        m
    }

    /// The networks as the players read them.
    pub fn nets(&self) -> Result<Nets> {
        Ok(Nets {
            q: mlp(&self.q, encode::Q_LEN)?,
            v: mlp(&self.v, encode::V_LEN)?,
        })
    }

    /// Write the weights alone (what the players ship) to `path`.
    pub fn save_weights(&self, path: &Path) -> Result<()> {
        candle_core::safetensors::save(&self.tensors(false), path)?;
        Ok(())
    }

    /// Write a checkpoint into `dir`: `checkpoint.safetensors` and `progress.json`, each
    /// replaced whole.
    pub fn checkpoint(&self, dir: &Path, train_seconds: f64) -> Result<()> {
        let tmp = dir.join("checkpoint.safetensors.tmp");
        candle_core::safetensors::save(&self.tensors(true), &tmp)?;
        std::fs::rename(&tmp, dir.join("checkpoint.safetensors"))?;
        let p = Progress {
            cfg: self.cfg.clone(),
            hands: self.hands,
            step_q: self.q_opt.step,
            step_v: self.v_opt.step,
            train_seconds,
        };
        let tmp = dir.join("progress.json.tmp");
        std::fs::write(
            &tmp,
            serde_json::to_string_pretty(&p).map_err(|e| TrainError(e.to_string()))?,
        )?;
        std::fs::rename(&tmp, dir.join("progress.json"))?;
        Ok(())
    }

    /// Resume the run checkpointed in `dir` (its settings, but for `hands`, are the run's),
    /// and the seconds it had trained.
    pub fn resume(dir: &Path, hands: u64) -> Result<(Trainer, f64)> {
        let p: Progress =
            serde_json::from_str(&std::fs::read_to_string(dir.join("progress.json"))?)
                .map_err(|e| TrainError(format!("progress.json: {e}")))?;
        let mut cfg = p.cfg;
        cfg.hands = hands;
        let mut t = Trainer::new(cfg)?;
        let loaded = candle_core::safetensors::load(dir.join("checkpoint.safetensors"), &t.dev)?;
        let get = |name: &str| -> Result<Tensor> {
            loaded
                .get(name)
                .cloned()
                .ok_or_else(|| TrainError(format!("the checkpoint lacks {name}")))
        };
        for (net, opt) in [(&t.q, &mut t.q_opt), (&t.v, &mut t.v_opt)] {
            for (i, (name, var)) in net.vars.iter().enumerate() {
                var.set(&get(name)?)?;
                opt.m[i] = get(&format!("adam.m.{name}"))?;
                opt.v[i] = get(&format!("adam.v.{name}"))?;
            }
        }
        t.q_opt.step = p.step_q;
        t.v_opt.step = p.step_v;
        t.hands = p.hands;
        Ok((t, p.train_seconds))
    }

    /// A dense batch `[n, width]` of sparse inputs, and their targets in network units.
    fn batch(&self, xs: &[Sample], width: usize) -> Result<(Tensor, Tensor)> {
        let mut data = vec![0f32; xs.len() * width];
        for (r, s) in xs.iter().enumerate() {
            for &(i, v) in &s.x {
                data[r * width + i as usize] += v;
            }
        }
        let x = Tensor::from_vec(data, (xs.len(), width), &self.dev)?;
        let y = Tensor::from_vec(
            xs.iter().map(|s| s.ret / SCALE).collect::<Vec<f32>>(),
            xs.len(),
            &self.dev,
        )?;
        Ok((x, y))
    }

    /// One gradient step of one network on `xs`; the batch's mean squared error (points²).
    fn step(&mut self, critic: bool, xs: &[Sample]) -> Result<f64> {
        let width = if critic { encode::V_LEN } else { encode::Q_LEN };
        let (x, y) = self.batch(xs, width)?;
        let (net, opt) = if critic {
            (&self.v, &mut self.v_opt)
        } else {
            (&self.q, &mut self.q_opt)
        };
        let pred = net.forward(&x)?;
        let loss = (pred - y)?.sqr()?.mean_all()?;
        let grads = loss.backward()?;
        let vars: Vec<&Var> = net.vars.iter().map(|x| &x.1).collect();
        opt.update(&vars, &grads)?;
        Ok(f64::from(loss.to_scalar::<f32>()?) * f64::from(SCALE * SCALE))
    }

    /// Mean squared error (points²) of one network on `xs`, without learning.
    pub fn loss(&self, critic: bool, xs: &[Sample]) -> Result<f64> {
        if xs.is_empty() {
            return Ok(f64::NAN);
        }
        let width = if critic { encode::V_LEN } else { encode::Q_LEN };
        let net = if critic { &self.v } else { &self.q };
        let mut total = 0.0;
        for part in xs.chunks(1024) {
            let (x, y) = self.batch(part, width)?;
            let l = (net.forward(&x)? - y)?
                .sqr()?
                .sum_all()?
                .to_scalar::<f32>()?;
            total += f64::from(l);
        }
        Ok(total / xs.len() as f64 * f64::from(SCALE * SCALE))
    }

    /// Play and learn from the next chunk of hands; the mean training losses (Q, critic).
    pub fn chunk(&mut self) -> Result<(f64, f64)> {
        let k = self.hands / CHUNK;
        // The step size falls linearly to a tenth of its start over the run.
        let done = self.hands as f64 / self.cfg.hands.max(1) as f64;
        let lr = self.cfg.lr * (1.0 - 0.9 * done.min(1.0));
        self.q_opt.lr = lr;
        self.v_opt.lr = lr;
        let nets = self.nets()?;
        let mut rng = FastRng::new(chunk_seed(self.cfg.seed, k));
        let mut s = play_hands(&nets, &self.cfg, CHUNK, &mut rng);
        shuffle(&mut s.q, &mut rng);
        shuffle(&mut s.v, &mut rng);
        let b = self.cfg.batch.max(1);
        let (mut lq, mut nq) = (0.0, 0);
        for part in s.q.chunks(b) {
            lq += self.step(false, part)?;
            nq += 1;
        }
        let (mut lv, mut nv) = (0.0, 0);
        for part in s.v.chunks(b) {
            lv += self.step(true, part)?;
            nv += 1;
        }
        self.hands += CHUNK;
        Ok((lq / f64::from(nq.max(1)), lv / f64::from(nv.max(1))))
    }
}

/// A uniform number in [0, 1).
fn unit(rng: &mut FastRng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

fn shuffle<T>(v: &mut [T], rng: &mut FastRng) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        v.swap(i, j);
    }
}

/// A network's weights as the players' forward pass reads them.
fn mlp(net: &Net, inputs: usize) -> Result<fiveup_bots::neural::Mlp> {
    let flat = |i: usize| -> Result<Vec<f32>> { Ok(net.var(i).flatten_all()?.to_vec1::<f32>()?) };
    let b1 = flat(1)?;
    let b2 = flat(3)?;
    Ok(fiveup_bots::neural::Mlp {
        inputs,
        h1: b1.len(),
        h2: b2.len(),
        w1: flat(0)?,
        b1,
        w2: flat(2)?,
        b2,
        w3: flat(4)?,
        b3: flat(5)?[0],
        scale: SCALE,
    })
}

/// The held-out positions of a run: hands played by club at every seat from a seed no chunk
/// uses.
#[must_use]
pub fn heldout(cfg: &TrainConfig) -> Samples {
    let mut c = cfg.clone();
    c.league = 1.0;
    let nets = Nets::shipped();
    let mut rng = FastRng::new(cfg.seed ^ 0x00ff_00ff_00ff_00ff);
    play_hands(nets, &c, cfg.heldout_hands, &mut rng)
}

/// The network alone against pimc (`samples` worlds, one thread) over `deals` two-player
/// duplicate deals from `seed`: points a hand and the 95% interval's half-width.
pub fn versus(nets: Nets, opponent: &str, deals: u64, seed: u64) -> Result<(f64, f64)> {
    let nets: &'static Nets = Box::leak(Box::new(nets));
    let cfg = MatchConfig {
        a: "neural".into(),
        b: opponent.into(),
        rules: Rules::default(),
        deals,
        seed,
        threads: 1,
        mode: MatchMode::Hands,
    };
    let make = move |spec: &str, seed: u64| -> std::result::Result<fiveup_bots::Bot, _> {
        if spec == "neural" {
            Ok(fiveup_bots::Bot::Seat(Box::new(
                fiveup_bots::neural::Neural::with(nets),
            )))
        } else {
            fiveup_bots::make_bot(spec, seed)
        }
    };
    let r = fiveup_bots::duel::run_match_using(&cfg, &make, &|_, _| {})
        .map_err(|e| TrainError(format!("{e:?}")))?;
    Ok((r.mean_diff, r.ci95))
}

/// Run (or resume) a training run into `dir`: checkpoints, the learning curve `curve.csv`,
/// and the final weights `weights.safetensors`. `progress` is told the hands done.
pub fn run(
    cfg: TrainConfig,
    dir: &Path,
    resume: bool,
    progress: &dyn Fn(u64, u64, &str),
) -> Result<Vec<CurvePoint>> {
    std::fs::create_dir_all(dir)?;
    if cfg.eval_every % CHUNK != 0 {
        return Err(TrainError(format!(
            "eval-every must be a multiple of {CHUNK} hands"
        )));
    }
    let (mut t, mut seconds) = if resume && dir.join("progress.json").exists() {
        Trainer::resume(dir, cfg.hands)?
    } else {
        (Trainer::new(cfg.clone())?, 0.0)
    };
    let curve_path = dir.join("curve.csv");
    if t.hands == 0 {
        std::fs::write(
            &curve_path,
            "hands,heldout_q_mse,heldout_v_mse,vs_pimc,vs_pimc_ci95,train_seconds\n",
        )?;
    }
    let held = heldout(t.config());
    let mut curve = Vec::new();
    let measure = |t: &Trainer, seconds: f64| -> Result<CurvePoint> {
        let vs = if t.cfg.eval_deals > 0 {
            Some(versus(
                t.nets()?,
                &format!("pimc:samples={},threads=1", t.cfg.eval_samples),
                t.cfg.eval_deals,
                t.cfg.seed.wrapping_add(1),
            )?)
        } else {
            None
        };
        let p = CurvePoint {
            hands: t.hands,
            heldout_q: t.loss(false, &held.q)?,
            heldout_v: t.loss(true, &held.v)?,
            vs_pimc: vs,
            train_seconds: seconds,
        };
        let mut f = std::fs::OpenOptions::new().append(true).open(&curve_path)?;
        let (m, ci) = p.vs_pimc.map_or((String::new(), String::new()), |(m, c)| {
            (format!("{m:.3}"), format!("{c:.3}"))
        });
        writeln!(
            f,
            "{},{:.3},{:.3},{m},{ci},{:.1}",
            p.hands, p.heldout_q, p.heldout_v, p.train_seconds
        )?;
        Ok(p)
    };
    if t.hands == 0 {
        curve.push(measure(&t, seconds)?);
    }
    while t.hands < t.cfg.hands {
        let start = std::time::Instant::now();
        let (lq, lv) = t.chunk()?;
        seconds += start.elapsed().as_secs_f64();
        t.checkpoint(dir, seconds)?;
        progress(
            t.hands,
            t.cfg.hands,
            &format!("train mse q {lq:.1} v {lv:.1}"),
        );
        if (t.cfg.eval_every > 0 && t.hands % t.cfg.eval_every == 0) || t.hands >= t.cfg.hands {
            curve.push(measure(&t, seconds)?);
        }
    }
    t.save_weights(&dir.join("weights.safetensors"))?;
    Ok(curve)
}
