//! Swiss pairing time: round 4 of an event of 100, 1,000 and 10,000 entrants, after three
//! rounds paired by the same code with seeded random results (so the score groups are the
//! ones a real event has after three rounds: about 1/8, 3/8, 3/8, 1/8 of the field on 3, 2,
//! 1 and 0 wins, with the byes between).
//!
//! `cargo bench -p fiveup-tournament --bench swiss`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fiveup_tournament::swiss::{pair_swiss, pair_swiss_with, Swiss, SwissPlayer, SwissSettings};
use fiveup_tournament::{Entrant, EntrantId, MatchResult, MatchRule};

/// The players as round 4 sees them, after three rounds of seeded random results.
fn after_three_rounds(n: u32) -> Vec<SwissPlayer> {
    let entrants: Vec<Entrant> = (0..n)
        .map(|i| Entrant::single(EntrantId(i), format!("p{i}"), 2500 - (i as i32 % 1500)))
        .collect();
    let mut s = Swiss::new(
        SwissSettings {
            rounds: 5,
            rule: MatchRule::single(),
        },
        entrants,
    )
    .expect("valid settings");
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for r in 0..3 {
        let round = s.pair_next_round().expect("pairs").clone();
        for (t, p) in round.pairings.iter().enumerate() {
            if p.b.is_some() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let a_won = x.is_multiple_of(2);
                s.record(
                    r,
                    t,
                    MatchResult::game(a_won, if a_won { [250, 100] } else { [100, 250] }),
                )
                .expect("a valid result");
            }
        }
    }
    s.pairing_players()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("swiss_round_4");
    g.sample_size(10);
    for n in [100u32, 1_000, 10_000] {
        let players = after_three_rounds(n);
        g.bench_with_input(BenchmarkId::new("pair", n), &players, |b, p| {
            b.iter(|| black_box(pair_swiss(black_box(p))));
        });
    }
    // The same 1,000 players (one graph by default) cut into blocks, to show what blocks save.
    let players = after_three_rounds(1_000);
    g.bench_with_input(BenchmarkId::new("blocks", 1_000), &players, |b, p| {
        b.iter(|| black_box(pair_swiss_with(black_box(p), 0)));
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
