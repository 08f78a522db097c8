//! A short training run learns something measurable, and a stopped run resumes to the same
//! weights.

use fiveup_train::{run, versus, TrainConfig, Trainer};

fn small(hands: u64) -> TrainConfig {
    TrainConfig {
        hands,
        seed: 5,
        h1: 64,
        h2: 32,
        eval_every: 0,
        eval_deals: 0,
        heldout_hands: 100,
        ..TrainConfig::default()
    }
}

#[test]
fn a_few_thousand_hands_lower_the_loss_and_beat_random() {
    let dir = tempfile::tempdir().unwrap();
    let curve = run(small(3000), dir.path(), false, &|_, _, _| {}).unwrap();
    let (first, last) = (&curve[0], curve.last().unwrap());
    eprintln!(
        "held-out mse q {:.1} -> {:.1}, v {:.1} -> {:.1}",
        first.heldout_q, last.heldout_q, first.heldout_v, last.heldout_v
    );
    assert_eq!(last.hands, 3000);
    assert!(last.heldout_q < 0.8 * first.heldout_q, "{curve:?}");
    assert!(last.heldout_v < 0.8 * first.heldout_v, "{curve:?}");
    // The learning curve was written as it went.
    let csv = std::fs::read_to_string(dir.path().join("curve.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + curve.len());
    // The trained network beats a random player, outside the noise.
    let (t, _) = Trainer::resume(dir.path(), 3000).unwrap();
    let (mean, ci) = versus(t.nets().unwrap(), "random", 200, 9).unwrap();
    eprintln!("trained network against random: {mean:+.2} ± {ci:.2} a hand");
    assert!(mean - ci > 0.0, "{mean} ± {ci}");
    // The weights the players read load as the shipped ones do.
    let bytes = std::fs::read(dir.path().join("weights.safetensors")).unwrap();
    let nets = fiveup_bots::neural::Nets::from_safetensors(&bytes).unwrap();
    assert_eq!(nets, t.nets().unwrap());
}

#[test]
fn a_run_stopped_and_resumed_ends_with_the_same_weights() {
    let straight = tempfile::tempdir().unwrap();
    run(small(600), straight.path(), false, &|_, _, _| {}).unwrap();
    let resumed = tempfile::tempdir().unwrap();
    run(small(200), resumed.path(), false, &|_, _, _| {}).unwrap();
    run(small(600), resumed.path(), true, &|_, _, _| {}).unwrap();
    let a = std::fs::read(straight.path().join("weights.safetensors")).unwrap();
    let b = std::fs::read(resumed.path().join("weights.safetensors")).unwrap();
    assert!(a == b, "the resumed run's weights differ");
    // And a fresh run with the same seed gives them again.
    let again = tempfile::tempdir().unwrap();
    run(small(600), again.path(), false, &|_, _, _| {}).unwrap();
    assert!(a == std::fs::read(again.path().join("weights.safetensors")).unwrap());
}

#[test]
fn layers_the_players_cannot_evaluate_are_refused() {
    let mut cfg = small(200);
    cfg.h1 = fiveup_bots::neural::mlp::MAX_HIDDEN + 1;
    assert!(Trainer::new(cfg).is_err());
    let mut cfg = small(200);
    cfg.h2 = 0;
    assert!(Trainer::new(cfg).is_err());
}
