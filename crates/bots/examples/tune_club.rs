//! Tune club's weights by duplicate matches against club: hill climbing from club's own
//! weights, each candidate played against club on the same deals (seed 7), the best then
//! measured on other deals (seed 99). An experiment of `docs/strength.md`:
//!
//! ```text
//! cargo run --release -p fiveup-bots --example tune_club -- 250 4000
//! ```
//!
//! Arguments: candidates tried, deals per candidate, players (2).
use fiveup_bots::duel::deal_seed;
use fiveup_bots::{club_choose_with, ClubWeights};
use fiveup_engine::{FastRng, Phase, Rules, State};

fn diff(w: &ClubWeights, base: &ClubWeights, rules: Rules, seed: u64, deals: u64) -> f64 {
    let mut total = 0i64;
    for d in 0..deals {
        let start = State::from_seed(rules, &deal_seed(seed, d)).unwrap();
        for seating in 0..2u8 {
            let mut s = start.clone();
            while matches!(s.phase(), Phase::Play | Phase::Claim) {
                let seat = s.to_move();
                let side = rules.side_of(seat).0;
                let ww = if side == seating { w } else { base };
                let a = club_choose_with(&s.view(seat), ww);
                s.apply(a).unwrap();
            }
            let a_side = fiveup_engine::Side(seating);
            let b_side = fiveup_engine::Side(1 - seating);
            total += i64::from(s.scores()[a_side] - s.scores()[b_side]);
        }
    }
    total as f64 / (2.0 * deals as f64)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let iters: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let deals: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3000);
    let players: u8 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2);
    let rules = Rules::preset(fiveup_engine::Preset::FiveUp, players);
    let base = ClubWeights::CLUB;
    let mut best = base;
    let mut best_v = 0.0;
    let mut rng = FastRng::new(42);
    for it in 0..iters {
        let mut a = best.to_array();
        // Perturb two or three weights by up to +-60%.
        let k = 2 + rng.below(2) as usize;
        for _ in 0..k {
            let i = rng.below(12) as usize;
            let f = 1.0 + (rng.unit() - 0.5) * 1.2;
            a[i] = (a[i] * f).max(0.0);
            if a[i] == 0.0 && rng.unit() < 0.5 {
                a[i] = 0.5;
            }
        }
        let cand = ClubWeights::from_array(a);
        let v = diff(&cand, &base, rules, 7, deals);
        if v > best_v {
            best_v = v;
            best = cand;
            println!("it {it}: {v:+.3} {:?}", best.to_array());
        }
    }
    let held = diff(&best, &base, rules, 99, deals * 2);
    println!(
        "best train {best_v:+.3}, held-out {held:+.3}: {:?}",
        best.to_array()
    );
}
