//! `pimc` is the expert as it played before the present expert replaced it: with a seed it
//! makes exactly the decisions the old expert made. The fingerprints below were recorded from
//! the old `expert` (same settings, same seeds) before it was renamed.

use fiveup_bots::{make_bot, Bot};
use fiveup_engine::{Phase, Preset, Rules, Seed, State};

/// Every action of whole hands played by `spec` in every seat, as text, hashed (FNV-1a).
fn fingerprint(spec: &str, rules: Rules, deals: u64) -> (u64, usize) {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut n = 0;
    for d in 0..deals {
        let mut bots: Vec<Bot> = (0..rules.players)
            .map(|i| make_bot(spec, d * 10 + u64::from(i)).unwrap())
            .collect();
        let mut s = State::from_seed(rules, &Seed::from_u64(100 + d)).unwrap();
        while matches!(s.phase(), Phase::Play | Phase::Claim) {
            let a = bots[s.to_move().idx()].choose(&s);
            for b in format!("{a};").bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            n += 1;
            s.apply(a).unwrap();
        }
    }
    (h, n)
}

#[test]
fn pimc_makes_the_old_experts_decisions() {
    // (spec, rules, fingerprint and number of actions of the old expert's play, recorded with
    // the same settings under the name `expert` before the rename).
    let cases: [(&str, Rules, (u64, usize)); 5] = [
        (
            "pimc:samples=40,threads=1",
            Rules::default(),
            (598_709_660_957_411_036, 126),
        ),
        // Two threads search the very worlds one thread searches, summed in the same order
        // (the worlds no longer depend on how the threads split them): the same play to the
        // last decision as with one thread. (The old expert's two threads each drew their own
        // worlds and played (1_175_443_167_821_587_001, 88) here.)
        (
            "pimc:samples=40,threads=2",
            Rules::default(),
            (598_709_660_957_411_036, 126),
        ),
        (
            "pimc:samples=30,threads=1,rollout=greedy,endgame=10",
            Rules::default(),
            (16_956_220_962_080_215_576, 87),
        ),
        (
            "pimc:samples=20,threads=1",
            Rules::preset(Preset::FiveUp, 4),
            (8_887_440_684_847_833_480, 151),
        ),
        (
            "oracle:samples=20,threads=1",
            Rules::default(),
            (10_465_720_713_617_131_993, 113),
        ),
    ];
    for (spec, rules, want) in cases {
        assert_eq!(fingerprint(spec, rules, 6), want, "{spec}");
    }
}
