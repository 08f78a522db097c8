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
//!
//! Two settings in the environment: DATA names a file of gathered decisions (read if it exists,
//! else written after gathering), so a fit can be repeated without the search; NET=EPOCHS fits
//! a small network ([`Net`]) on top of the current weights instead of refitting them (Adam
//! over `EPOCHS` passes, the pass with the lowest held-out loss kept), prints its held-out loss
//! and regret and how it plays against the weights alone and against club (3,000 duplicate
//! deals each), and writes it to NET_OUT (default `target/net_weights.rs`).

use std::fmt::Write as _;

use fiveup_bots::analyze;
use fiveup_bots::learned::{head_to_head, play_terms, Net, Policy, HIDDEN, NF};
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

/// Each play of decision `d`: `p`'s value times `scale` and the searched value, each centred on
/// the decision's mean.
fn centred(p: &Policy, scale: f64, d: &Sample) -> Vec<(f64, f64)> {
    let k = d.terms.len() as f64;
    let ps: Vec<f64> = d.terms.iter().map(|f| scale * p.value(f)).collect();
    let mp = ps.iter().sum::<f64>() / k;
    let my = d.values.iter().sum::<f64>() / k;
    ps.iter()
        .zip(&d.values)
        .map(|(x, y)| (x - mp, y - my))
        .collect()
}

/// The least-squares multiple of `p`'s centred values on the searched centred values: the
/// factor from the policy's units to the search's points.
fn units(p: &Policy, data: &[Sample]) -> f64 {
    let (mut pv, mut pp) = (0.0, 0.0);
    for d in data {
        for (x, y) in centred(p, 1.0, d) {
            pv += x * y;
            pp += x * x;
        }
    }
    if pp > 0.0 {
        pv / pp
    } else {
        1.0
    }
}

/// Mean squared error of `p`'s centred values, in the search's points (times `scale`),
/// against the centred searched values.
fn loss(p: &Policy, scale: f64, data: &[Sample]) -> f64 {
    let (mut e, mut n) = (0.0, 0.0f64);
    for d in data {
        for (x, y) in centred(p, scale, d) {
            e += (x - y).powi(2);
            n += 1.0;
        }
    }
    e / n.max(1.0)
}

/// A standard normal number (Box-Muller).
fn normal(rng: &mut FastRng) -> f64 {
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let v = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// Fit a [`Net`] to what `base` leaves unexplained of the searched values on `train` (each
/// decision centred), by Adam over decisions in batches, for `epochs` passes; the pass with
/// the lowest loss on `held` is kept. Returns the network in `base`'s units.
fn fit_net(base: &Policy, train: &[Sample], held: &[Sample], epochs: usize, seed: u64) -> Net {
    let scale = units(base, train);
    let n_plays: f64 = train.iter().map(|d| d.terms.len() as f64).sum();
    let mut mean = [0.0; NF];
    let mut sq = [0.0; NF];
    for d in train {
        for f in &d.terms {
            for i in 0..NF {
                mean[i] += f[i] / n_plays;
                sq[i] += f[i] * f[i] / n_plays;
            }
        }
    }
    let mut inv_sd = [0.0; NF];
    for i in 0..NF {
        let var = sq[i] - mean[i] * mean[i];
        inv_sd[i] = if var > 1e-12 { 1.0 / var.sqrt() } else { 0.0 };
    }
    // The residual target of each play, in points.
    let targets: Vec<Vec<f64>> = train
        .iter()
        .map(|d| centred(base, scale, d).iter().map(|(x, y)| y - x).collect())
        .collect();
    let mut rng = FastRng::new(seed);
    // Parameters, in points: w1 (HIDDEN x NF), b1, w2.
    let np = HIDDEN * NF + 2 * HIDDEN;
    let mut th = vec![0.0; np];
    for x in &mut th[..HIDDEN * NF] {
        *x = normal(&mut rng) * (2.0 / NF as f64).sqrt();
    }
    for x in &mut th[HIDDEN * NF..HIDDEN * NF + HIDDEN] {
        *x = 0.1;
    }
    let to_net = |th: &[f64]| -> Net {
        let mut w1 = [[0.0; NF]; HIDDEN];
        for (h, row) in w1.iter_mut().enumerate() {
            row.copy_from_slice(&th[h * NF..(h + 1) * NF]);
        }
        let mut b1 = [0.0; HIDDEN];
        b1.copy_from_slice(&th[HIDDEN * NF..HIDDEN * NF + HIDDEN]);
        let mut w2 = [0.0; HIDDEN];
        for (o, t) in w2.iter_mut().zip(&th[HIDDEN * NF + HIDDEN..]) {
            *o = t / scale;
        }
        Net {
            mean,
            inv_sd,
            w1,
            b1,
            w2,
        }
    };
    let (mut m, mut v) = (vec![0.0; np], vec![0.0; np]);
    let (lr, b1c, b2c, eps, decay) = (0.003, 0.9, 0.999, 1e-8, 1e-4);
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut best = (f64::INFINITY, to_net(&th), 0);
    let linear = loss(base, scale, held);
    let batch = 32;
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u32 + 1) as usize);
        }
        for chunk in order.chunks(batch) {
            let mut g = vec![0.0; np];
            let mut count = 0.0;
            for &di in chunk {
                let d = &train[di];
                let k = d.terms.len();
                // Forward: hidden activations and outputs of each play.
                let mut xs = Vec::with_capacity(k);
                let mut hs = Vec::with_capacity(k);
                let mut outs = Vec::with_capacity(k);
                for f in &d.terms {
                    let mut x = [0.0; NF];
                    for i in 0..NF {
                        x[i] = (f[i] - mean[i]) * inv_sd[i];
                    }
                    let mut hv = [0.0; HIDDEN];
                    let mut o = 0.0;
                    for h in 0..HIDDEN {
                        let mut a = th[HIDDEN * NF + h];
                        for i in 0..NF {
                            a += th[h * NF + i] * x[i];
                        }
                        hv[h] = a.max(0.0);
                        o += th[HIDDEN * NF + HIDDEN + h] * hv[h];
                    }
                    xs.push(x);
                    hs.push(hv);
                    outs.push(o);
                }
                let mo = outs.iter().sum::<f64>() / k as f64;
                for j in 0..k {
                    let e = 2.0 * ((outs[j] - mo) - targets[di][j]);
                    count += 1.0;
                    for h in 0..HIDDEN {
                        let w2 = th[HIDDEN * NF + HIDDEN + h];
                        g[HIDDEN * NF + HIDDEN + h] += e * hs[j][h];
                        if hs[j][h] > 0.0 {
                            let gh = e * w2;
                            g[HIDDEN * NF + h] += gh;
                            for i in 0..NF {
                                g[h * NF + i] += gh * xs[j][i];
                            }
                        }
                    }
                }
            }
            step += 1;
            for p in 0..np {
                let gp = g[p] / count + decay * th[p];
                m[p] = b1c * m[p] + (1.0 - b1c) * gp;
                v[p] = b2c * v[p] + (1.0 - b2c) * gp * gp;
                let mh = m[p] / (1.0 - b1c.powi(step));
                let vh = v[p] / (1.0 - b2c.powi(step));
                th[p] -= lr * mh / (vh.sqrt() + eps);
            }
        }
        let net: &'static Net = Box::leak(Box::new(to_net(&th)));
        let p = Policy {
            w: base.w,
            net: Some(net),
        };
        let l = loss(&p, scale, held);
        println!(
            "epoch {}: held-out loss {l:.3} (linear {linear:.3}), regret {:.3}",
            epoch + 1,
            regret_of(&p, held)
        );
        if l < best.0 {
            best = (l, net.clone(), epoch + 1);
        }
    }
    println!("kept epoch {} (held-out loss {:.3})", best.2, best.0);
    best.1
}

/// Mean regret of policy `p` over `data`: best searched value minus the value of the play `p`
/// prefers.
fn regret_of(p: &Policy, data: &[Sample]) -> f64 {
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

/// Mean regret of the weights `w` alone over `data`.
fn regret(w: &[f64; NF], data: &[Sample]) -> f64 {
    regret_of(&Policy { w: *w, net: None }, data)
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
    for d in data {
        let k = d.terms.len() as f64;
        let mut mf = [0.0; NF];
        for f in &d.terms {
            for i in 0..NF {
                mf[i] += f[i] / k;
            }
        }
        let my = d.values.iter().sum::<f64>() / k;
        for (f, &y) in d.terms.iter().zip(&d.values) {
            let x: Vec<f64> = (0..NF).map(|i| f[i] - mf[i]).collect();
            let yc = y - my;
            for i in 0..NF {
                b[i] += x[i] * yc;
                for j in 0..NF {
                    a[i][j] += x[i] * x[j];
                }
            }
        }
    }
    // The scale of the prior: the least-squares multiple of its values.
    let scale = units(
        &Policy {
            w: *prior,
            net: None,
        },
        data,
    );
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

/// Write gathered decisions to `path` (little-endian: per decision its play count, then per
/// play its terms and its value).
fn save(path: &str, data: &[Sample]) {
    let mut out = Vec::new();
    for d in data {
        out.extend_from_slice(&(d.terms.len() as u32).to_le_bytes());
        for (f, v) in d.terms.iter().zip(&d.values) {
            for x in f.iter().chain(std::iter::once(v)) {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
    }
    std::fs::write(path, out).expect("write the decisions");
}

/// Read decisions written by [`save`].
fn load(path: &str) -> Option<Vec<Sample>> {
    let bytes = std::fs::read(path).ok()?;
    let mut data = Vec::new();
    let mut at = 0;
    let f64_at = |at: &mut usize| {
        let x = f64::from_le_bytes(bytes[*at..*at + 8].try_into().expect("8 bytes"));
        *at += 8;
        x
    };
    while at < bytes.len() {
        let k = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
        at += 4;
        let mut terms = Vec::with_capacity(k);
        let mut values = Vec::with_capacity(k);
        for _ in 0..k {
            let mut f = [0.0; NF];
            for x in &mut f {
                *x = f64_at(&mut at);
            }
            terms.push(f);
            values.push(f64_at(&mut at));
        }
        data.push(Sample { terms, values });
    }
    Some(data)
}

/// Write a network as Rust source (a `crate::learned::Net`), to NET_OUT or
/// `target/net_weights.rs`.
fn write_net(net: &Net, args: &str) {
    let mut src = String::new();
    src += "// Written by the train_rollout example (see docs/strength.md): the network added to the\n";
    let _ = writeln!(
        src,
        "// learned rollout policy's sum (crate::learned::Net). Command: NET={} train_rollout -- {args}",
        std::env::var("NET").unwrap_or_default()
    );
    src += "pub(crate) static NET: crate::learned::Net = crate::learned::Net {\n";
    let list = |xs: &[f64]| {
        let items: Vec<String> = xs.iter().map(|x| format!("{x:?}")).collect();
        format!("[{}],\n", items.join(", "))
    };
    src += &format!("    mean: {}", list(&net.mean));
    src += &format!("    inv_sd: {}", list(&net.inv_sd));
    src += "    w1: [\n";
    for r in &net.w1 {
        src += &format!("    {}", list(r));
    }
    src += "    ],\n";
    src += &format!("    b1: {}", list(&net.b1));
    src += &format!("    w2: {}", list(&net.w2));
    src += "};\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/net_weights.rs");
    let out = std::env::var("NET_OUT").unwrap_or_else(|_| path.to_string());
    std::fs::write(&out, src).expect("write the network");
    println!("written to {out}");
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
        let policy: &'static Policy = Box::leak(Box::new(Policy { w, net: None }));
        let t = std::time::Instant::now();
        // DATA names a file of gathered decisions: read if it exists, else written.
        let cache = std::env::var("DATA").ok();
        let data = match cache.as_deref().and_then(load) {
            Some(d) => d,
            None => {
                let d = gather(
                    policy,
                    positions,
                    samples,
                    infer as u32,
                    seed.wrapping_add(it * 1_000_003),
                    threads,
                );
                if let Some(path) = &cache {
                    save(path, &d);
                }
                d
            }
        };
        let cut = data.len() * 4 / 5;
        let (train, held) = data.split_at(cut);
        if let Some(epochs) = std::env::var("NET").ok().and_then(|e| e.parse().ok()) {
            // NET=EPOCHS: fit a network on top of the current weights instead of refitting them.
            let net = fit_net(policy, train, held, epochs, seed);
            let with: &'static Net = Box::leak(Box::new(net));
            let p = Policy { w, net: Some(with) };
            println!(
                "held-out regret {:.3} -> {:.3} (club {:.3})",
                regret(&w, held),
                regret_of(&p, held),
                regret(&Policy::club().w, held)
            );
            let deals = 3000;
            let (m, se) = head_to_head(&p, policy, deals, seed);
            println!("as a player over {deals} deals: {m:+.2} a hand against the weights alone (standard error {se:.2})");
            let (m, se) = head_to_head(&p, &Policy::club(), deals, seed);
            println!("as a player over {deals} deals: {m:+.2} a hand against club (standard error {se:.2})");
            let (m, se) = head_to_head(policy, &Policy::club(), deals, seed);
            println!("the weights alone: {m:+.2} a hand against club (standard error {se:.2})");
            write_net(
                with,
                &format!("{iterations} {positions} {samples} {seed} {threads} {from} {infer}"),
            );
            return;
        }
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
