//! Train the learned rollout policy (`rollout=learned`, `crates/bots/src/learned.rs`) by
//! expert iteration, and write its weights to `crates/bots/src/learned_weights.rs`:
//!
//! ```text
//! cargo run --release -p fiveup-bots --example train_rollout -- ITERATIONS POSITIONS SAMPLES SEED [THREADS] [FROM] [INFER]
//! ```
//!
//! Each iteration plays Five Up hands (two players, and every third hand four players in
//! partnerships) by the current policy, one play in ten chosen at random to vary the
//! positions. At a third of the decisions with a choice between plays, pimc's search (SAMPLES
//! worlds, every world finished by the current policy) values every play; POSITIONS such
//! decisions are gathered, the last fifth held out. The new weights minimise the squared error
//! between a play's weighted terms and its searched value, both centred on their decision's
//! mean, plus a ridge pull towards the current weights scaled to the values' units. The
//! policy starts from club's weights. For each iteration the command prints the mean regret
//! (searched value of the best play minus that of the play chosen) on the held-out decisions of
//! the current and the new weights. THREADS (default 1) share the hands by a fixed rule, so
//! the result depends only on the seed.

use std::fmt::Write as _;

use fiveup_bots::analyze;
use fiveup_bots::learned::{play_terms, Policy, NF};
use fiveup_bots::{ExpertConfig, Rollout};
use fiveup_engine::{Action, FastRng, Phase, Preset, Rules, Seed, State};

/// One labelled decision: each play's terms and searched value.
struct Sample {
    terms: Vec<[f64; NF]>,
    values: Vec<f64>,
}

/// The decisions gathered from hand `g` of an iteration.
fn hand_samples(
    policy: &'static Policy,
    samples: u32,
    infer: u32,
    seed: u64,
    g: u64,
) -> Vec<Sample> {
    let mut rng = FastRng::new(seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let players = if g % 3 == 2 { 4 } else { 2 };
    let rules = Rules::preset(Preset::FiveUp, players);
    let Ok(mut s) = State::from_seed(rules, &Seed::from_u64(rng.next_u64())) else {
        return Vec::new();
    };
    let cfg = ExpertConfig {
        samples,
        threads: 1,
        rollout: Rollout::Learned(policy),
        infer,
        ..ExpertConfig::default()
    };
    let mut out = Vec::new();
    while matches!(s.phase(), Phase::Play | Phase::Claim) {
        let view = s.view(s.to_move());
        if let Some(terms) = play_terms(&view) {
            if rng.below(3) == 0 {
                let evals = analyze(&view, &cfg, rng.next_u64());
                let values: Vec<f64> = terms
                    .iter()
                    .map(|(a, _)| {
                        evals
                            .iter()
                            .find(|e| e.action == *a)
                            .map_or(0.0, |e| e.mean)
                    })
                    .collect();
                // Decisions played to win the game are valued in game units: left out.
                if values.iter().all(|v| v.abs() < 200.0) {
                    out.push(Sample {
                        terms: terms.iter().map(|(_, f)| *f).collect(),
                        values,
                    });
                }
            }
        }
        let legal = view.legal_actions();
        let plays: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Play { .. }))
            .collect();
        let a = if plays.len() > 1 && rng.below(10) == 0 {
            plays[rng.below(plays.len() as u32) as usize]
        } else {
            policy.choose(&view)
        };
        s.apply(a).expect("legal");
    }
    out
}

fn gather(
    policy: &'static Policy,
    positions: usize,
    samples: u32,
    infer: u32,
    seed: u64,
    threads: u64,
) -> Vec<Sample> {
    // Hands are played in rounds of `threads * 8`, each thread its share by index, and the
    // results joined in hand order until enough decisions are gathered.
    let mut all = Vec::new();
    let mut next = 0u64;
    while all.len() < positions {
        let round = threads * 8;
        let mut per: Vec<Vec<(u64, Vec<Sample>)>> = std::thread::scope(|sc| {
            let hs: Vec<_> = (0..threads)
                .map(|t| {
                    sc.spawn(move || {
                        (next..next + round)
                            .filter(|g| g % threads == t)
                            .map(|g| (g, hand_samples(policy, samples, infer, seed, g)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().expect("thread")).collect()
        });
        let mut hands: Vec<(u64, Vec<Sample>)> = per.drain(..).flatten().collect();
        hands.sort_by_key(|h| h.0);
        for (_, s) in hands {
            all.extend(s);
        }
        next += round;
    }
    all.truncate(positions);
    all
}

/// Mean regret of `w` over `data`: best searched value minus the value of the play `w` prefers.
fn regret(w: &[f64; NF], data: &[Sample]) -> f64 {
    let p = Policy { w: *w };
    let mut total = 0.0;
    for d in data {
        let best = d.values.iter().copied().fold(f64::MIN, f64::max);
        let mut pick = 0;
        let mut pv = f64::MIN;
        for (i, f) in d.terms.iter().enumerate() {
            let v = p.value(f);
            if v > pv {
                pv = v;
                pick = i;
            }
        }
        total += best - d.values[pick];
    }
    total / data.len().max(1) as f64
}

/// Solve `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .expect("rows");
        a.swap(c, p);
        b.swap(c, p);
        let d = a[c][c];
        if d.abs() < 1e-12 {
            continue;
        }
        let pivot = a[c].clone();
        let bc = b[c];
        for (r, (row, br)) in a.iter_mut().zip(b.iter_mut()).enumerate() {
            if r != c {
                let f = row[c] / d;
                if f != 0.0 {
                    for (x, y) in row[c..].iter_mut().zip(&pivot[c..]) {
                        *x -= f * y;
                    }
                    *br -= f * bc;
                }
            }
        }
    }
    (0..n)
        .map(|i| {
            if a[i][i].abs() < 1e-12 {
                0.0
            } else {
                b[i] / a[i][i]
            }
        })
        .collect()
}

/// Least squares of the centred values on the centred terms, pulled towards `prior`
/// (scaled to the values' units) by `lambda` times each term's own spread.
fn fit(data: &[Sample], prior: &[f64; NF], lambda: f64) -> [f64; NF] {
    let mut a = vec![vec![0.0; NF]; NF];
    let mut b = vec![0.0; NF];
    // The scale of the prior: the least-squares multiple of its values.
    let (mut pv, mut pp) = (0.0, 0.0);
    let prior_p = Policy { w: *prior };
    for d in data {
        let k = d.terms.len() as f64;
        let mut mf = [0.0; NF];
        for f in &d.terms {
            for i in 0..NF {
                mf[i] += f[i] / k;
            }
        }
        let my = d.values.iter().sum::<f64>() / k;
        let mp = d.terms.iter().map(|f| prior_p.value(f)).sum::<f64>() / k;
        for (f, &y) in d.terms.iter().zip(&d.values) {
            let x: Vec<f64> = (0..NF).map(|i| f[i] - mf[i]).collect();
            let yc = y - my;
            for i in 0..NF {
                b[i] += x[i] * yc;
                for j in 0..NF {
                    a[i][j] += x[i] * x[j];
                }
            }
            let p = prior_p.value(f) - mp;
            pv += p * yc;
            pp += p * p;
        }
    }
    let scale = if pp > 0.0 { pv / pp } else { 1.0 };
    for i in 0..NF {
        let r = lambda * a[i][i].max(1e-6);
        a[i][i] += r;
        b[i] += r * scale * prior[i];
    }
    let x = solve(a, b);
    // Back to the prior's units, so that the weights read like club's.
    let mut w = [0.0; NF];
    for i in 0..NF {
        w[i] = x[i] / scale.max(1e-6);
    }
    w
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let iterations = arg(1, 2);
    let positions = arg(2, 4000) as usize;
    let samples = arg(3, 100) as u32;
    let seed = arg(4, 1);
    let threads = arg(5, 1).max(1);
    let from = args.get(6).map_or("club", String::as_str);
    let infer = arg(7, 0);
    if !(0..=1000).contains(&infer) {
        eprintln!("INFER must be from 0 to 1000");
        std::process::exit(2);
    }
    let lambda = 0.05;
    let mut w = match from {
        "club" => Policy::club().w,
        "learned" => fiveup_bots::learned::LEARNED.w,
        _ => {
            eprintln!("FROM must be club or learned, got {from:?}");
            std::process::exit(2);
        }
    };
    for it in 0..iterations {
        let policy: &'static Policy = Box::leak(Box::new(Policy { w }));
        let t = std::time::Instant::now();
        let data = gather(
            policy,
            positions,
            samples,
            infer as u32,
            seed.wrapping_add(it * 1_000_003),
            threads,
        );
        let cut = data.len() * 4 / 5;
        let (train, held) = data.split_at(cut);
        let new = fit(train, &w, lambda);
        println!(
            "iteration {}: {} decisions in {:.0} s; held-out regret {:.3} -> {:.3} (club {:.3})",
            it + 1,
            data.len(),
            t.elapsed().as_secs_f64(),
            regret(&w, held),
            regret(&new, held),
            regret(&Policy::club().w, held)
        );
        w = new;
        println!("weights: {w:?}");
    }
    let mut src = String::new();
    src += "// Written by the train_rollout example (see docs/strength.md): the learned rollout policy's\n";
    let _ = writeln!(
        src,
        "// weights, one per term of a play (crate::learned). Command: train_rollout -- {iterations} {positions} {samples} {seed}{}",
        if from == "club" && infer == 0 {
            String::new()
        } else {
            format!(" {threads} {from} {infer}")
        }
    );
    src += "pub(crate) const WEIGHTS: [f64; crate::club::NF] = [\n";
    for x in w {
        let _ = writeln!(src, "    {x:?},");
    }
    src += "];\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/learned_weights.rs");
    let out = std::env::var("TRAIN_OUT").unwrap_or_else(|_| path.to_string());
    std::fs::write(&out, src).expect("write the weights");
    println!("written to {out}");
}
