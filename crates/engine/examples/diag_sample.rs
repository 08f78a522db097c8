use fiveup_engine::*;
use std::time::Instant;
fn main() {
    sizes();
    if std::env::args().count() > 1 {
        return;
    }
    let mut rng = FastRng::new(1);
    for set in [9u8, 12] {
        for players in 2..=8u8 {
            for preset in [Preset::FiveUp, Preset::Cross, Preset::Muggins] {
                let rules = Rules::preset_with_set(preset, players, set);
                if rules.validate().is_err() {
                    continue;
                }
                let mut s = State::from_seed(rules, &Seed::from_u64(rng.next_u64())).unwrap();
                let mut worst = 0.0f64;
                let mut worst_desc = String::new();
                let mut step = 0;
                while matches!(s.phase(), Phase::Play) {
                    if step % 3 == 0 {
                        for p in 0..players {
                            let v = s.view(Seat(p));
                            let t = Instant::now();
                            let mut sm = Sampler::new(&v);
                            let r = sm.sample_consistent(&mut rng);
                            let dt = t.elapsed().as_secs_f64();
                            if dt > worst {
                                worst = dt;
                                worst_desc = format!("step {step} seat {p} {:?}", r.as_ref().err());
                            }
                        }
                    }
                    let a = s.random_action(&mut rng);
                    s.apply(a).unwrap();
                    step += 1;
                }
                println!(
                    "set {set} players {players} {preset}: worst {:.3}s {worst_desc}",
                    worst
                );
            }
        }
    }
}
#[allow(dead_code)]
fn sizes() {
    println!(
        "{} {} {}",
        std::mem::size_of::<Entry>(),
        std::mem::size_of::<State>(),
        std::mem::size_of::<Layout>()
    );
}
