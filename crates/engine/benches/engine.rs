//! Engine benchmarks: `cargo bench -p fiveup-engine`.
//!
//! - `random_hand`: deal and play out a default-rules two-player hand with uniformly random
//!   legal actions (the figure `fiveup bench` reports, per hand).
//! - `legal_actions`: the legal list of positions taken from random hands.
//! - `random_action`: the list-free uniform pick on the same positions.
//! - `resample`: one full state sampled from a seat's view mid-hand.
//! - `perft`: move paths to depth 4 from a seeded first hand.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fiveup_engine::{
    perft, random_hand, random_hand_in_place, FastRng, Phase, Rules, Sampler, Seed, State,
};

/// Positions from random hands: every decision point of 200 hands.
fn positions() -> Vec<State> {
    let mut rng = FastRng::new(3);
    let mut out = Vec::new();
    for _ in 0..200 {
        let mut s = random_hand(Rules::default(), &mut rng).expect("default rules are valid");
        s.redeal_first_hand(&mut rng);
        while s.phase() == Phase::Play {
            out.push(s.clone());
            let a = s.random_action(&mut rng);
            s.apply_unchecked(a);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("engine");
    g.throughput(Throughput::Elements(1));
    let mut rng = FastRng::new(1);
    let mut state = random_hand(Rules::default(), &mut rng).expect("default rules are valid");
    g.bench_function("random_hand", |b| {
        b.iter(|| {
            random_hand_in_place(&mut state, &mut rng);
            black_box(state.scores().0[0])
        });
    });

    let pos = positions();
    let mut i = 0;
    g.bench_function("legal_actions", |b| {
        b.iter(|| {
            i = (i + 1) % pos.len();
            black_box(pos[i].legal_actions().len())
        });
    });
    g.bench_function("random_action", |b| {
        b.iter(|| {
            i = (i + 1) % pos.len();
            black_box(pos[i].random_action(&mut rng))
        });
    });

    let mid = pos
        .iter()
        .find(|s| s.layout().tiles().len() >= 6 && s.log().len() > 8)
        .expect("some hand reaches six tiles");
    let view = mid.view(mid.to_move());
    let mut sampler = Sampler::new(&view);
    g.bench_function("resample", |b| {
        b.iter(|| black_box(sampler.sample(&mut rng).expect("a view is consistent")));
    });

    let start = State::from_seed(Rules::default(), &Seed::from_u64(1)).expect("valid");
    g.bench_function("perft4", |b| b.iter(|| black_box(perft(&start, 4))));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
