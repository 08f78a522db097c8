use fiveup_engine::{random_hand, FastRng, Rules};
fn main() {
    let rules = Rules::default();
    let mut rng = FastRng::new(1);
    let n = 2_000_000;
    let t = std::time::Instant::now();
    let mut acc = 0i64;
    for _ in 0..n {
        let s = random_hand(rules, &mut rng).unwrap();
        acc += i64::from(s.scores().0[0]);
    }
    let dt = t.elapsed().as_secs_f64();
    println!("{n} hands in {dt:.3}s = {:.0} hands/s (acc {acc})", n as f64 / dt);
}
