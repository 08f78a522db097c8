//! Times the sampler over the positions of random games on the bigger sets (a diagnostic:
//! `cargo run --release -p fiveup-engine --example diag_sample`).
use fiveup_engine::*;
use std::time::Instant;
fn main() {
    let mut rng = FastRng::new(1);
    for (set, players) in [(12u8, 8u8), (12, 6), (9, 8)] {
        let rules = Rules::preset_with_set(Preset::FiveUp, players, set);
        for game in 0..3 {
            let mut s = State::from_seed(rules, &Seed::from_u64(game)).unwrap();
            let mut worst = (0.0f64, String::new());
            let mut step = 0;
            while matches!(s.phase(), Phase::Play) {
                let p = s.to_move();
                let v = s.view(p);
                let t = Instant::now();
                let mut sm = Sampler::new(&v);
                let mut errs = 0;
                for _ in 0..200 {
                    if sm.sample_consistent(&mut rng).is_err() {
                        errs += 1;
                    }
                }
                let dt = t.elapsed().as_secs_f64();
                if dt > worst.0 {
                    worst = (
                        dt,
                        format!("step {step} exact {:?} errs {errs}", sm.count().is_ok()),
                    );
                }
                let a = s.random_action(&mut rng);
                s.apply(a).unwrap();
                step += 1;
            }
            println!(
                "set {set} players {players} game {game}: worst 200 samples {:.3}s {}",
                worst.0, worst.1
            );
        }
    }
}
