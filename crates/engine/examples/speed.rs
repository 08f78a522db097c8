use fiveup_engine::{random_hand, random_hand_in_place, FastRng, Rules};
fn main() {
    let rules = Rules::default();
    let mut rng = FastRng::new(1);
    let mut state = random_hand(rules, &mut rng).unwrap();
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(4_000_000);
    let t = std::time::Instant::now();
    let mut acc = 0i64;
    for _ in 0..n {
        random_hand_in_place(&mut state, &mut rng);
        acc += i64::from(state.scores().0[0]);
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{n} hands in {dt:.3}s = {:.0} hands/s (acc {acc})",
        n as f64 / dt
    );
}
