//! How well the expert's weighted worlds predict the opponent's hand: two-player hands between
//! two copies of a player (argument 1, default `pimc:samples=100,threads=1`), and at each of
//! seat 0's plays 300 worlds sampled from its view; for each temperature (0: unweighted), the
//! weighted chance that each unseen tile is in the opponent's hand, scored by its log loss
//! against the true hand, and the effective number of worlds. An experiment of
//! `docs/strength.md`:
//!
//! ```text
//! cargo run --release -p fiveup-bots --example infer_probe -- pimc:samples=100,threads=1 40
//! FLOOR=0.2 cargo run --release -p fiveup-bots --example infer_probe
//! cargo run --release -p fiveup-bots --example infer_probe -- pimc:samples=100,threads=1 40 learned
//! ```
//!
//! A third argument `learned` weighs the worlds by the learned rollout policy's values of the
//! other seat's plays instead of club's scores.
use fiveup_bots::{make_bot, world_weight_model, Bot};
use fiveup_engine::{FastRng, Phase, Rules, Sampler, Seat, Seed, State};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let opp = args
        .get(1)
        .cloned()
        .unwrap_or("pimc:samples=100,threads=1".into());
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(40);
    // A third argument `learned` models the other seat by the learned rollout policy.
    let model = (args.get(3).map(String::as_str) == Some("learned"))
        .then_some(&fiveup_bots::learned::LEARNED);
    let temps = [0.0, 1.5, 2.0, 3.0, 5.0, 10.0];
    let floor: f64 = std::env::var("FLOOR")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.05);
    let mut loss = vec![0.0; temps.len()];
    let mut ess = vec![0.0; temps.len()];
    let mut count = 0.0;
    let mut decisions = 0.0;
    let rules = Rules::default();
    let mut rng = FastRng::new(5);
    for g in 0..games {
        let mut s = State::from_seed(rules, &Seed::from_u64(1000 + g)).unwrap();
        let mut bots: Vec<Bot> = (0..2).map(|i| make_bot(&opp, g * 7 + i).unwrap()).collect();
        while matches!(s.phase(), Phase::Play | Phase::Claim) {
            let seat = s.to_move();
            if seat == Seat(0) && s.phase() == Phase::Play && s.log().len() > 2 {
                let v = s.view(seat);
                let mut sm = Sampler::new(&v);
                let worlds: Vec<State> = (0..300)
                    .filter_map(|_| sm.sample_consistent(&mut rng).ok())
                    .collect();
                let truth = s.hand(Seat(1));
                let unseen = v.unseen();
                for (ti, &t) in temps.iter().enumerate() {
                    let ws: Vec<f64> = worlds
                        .iter()
                        .map(|w| {
                            if t == 0.0 {
                                1.0
                            } else {
                                world_weight_model(w, seat, t, floor, model)
                            }
                        })
                        .collect();
                    let sw: f64 = ws.iter().sum();
                    let sw2: f64 = ws.iter().map(|x| x * x).sum();
                    ess[ti] += sw * sw / sw2;
                    for tile in unseen.iter() {
                        let p: f64 = worlds
                            .iter()
                            .zip(&ws)
                            .filter(|(w, _)| w.hand(Seat(1)).contains(tile))
                            .map(|(_, x)| x)
                            .sum::<f64>()
                            / sw;
                        let p = p.clamp(0.01, 0.99);
                        let y = truth.contains(tile);
                        loss[ti] -= if y { p.ln() } else { (1.0 - p).ln() };
                        if ti == 0 {
                            count += 1.0;
                        }
                    }
                }
                decisions += 1.0;
            }
            let a = bots[seat.idx()].choose(&s);
            s.apply(a).unwrap();
        }
    }
    for (ti, t) in temps.iter().enumerate() {
        println!(
            "T={t}: logloss/tile={:.4} mean ESS={:.1}",
            loss[ti] / count,
            ess[ti] / decisions
        );
    }
}
