//! `points` taken at its word: an engine that always answers the legal action of the most
//! points (`tests/engines/maxpoints.py`) plays manual scoring as it should, claiming every
//! point its lays make and calling Muggins when that is worth most, and so scores as the
//! greedy player does.
//!
//! These tests run Python engines and fail (never skip) when `python3` is missing.

use std::sync::Arc;
use std::time::Duration;

use fiveup_bots::{Greedy, Player};
use fiveup_engine::{Action, Phase, Preset, Rules, Seat, Seed, State};
use fiveup_outside::{EngineConfig, EngineHost, EnginePlayer};

const MAXPOINTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/maxpoints.py");

#[test]
fn an_engine_that_maximises_points_claims_what_its_lays_make() {
    let config = EngineConfig {
        move_time: Duration::from_secs(30),
        ..EngineConfig::default()
    };
    let host: Arc<EngineHost> = EngineHost::start(&format!("python3 {MAXPOINTS}"), &config)
        .expect("python3 runs the engine");
    let party = Rules::preset(Preset::PartyTwelve, Preset::PartyTwelve.players().0);
    let manual = Rules {
        manual_scoring: true,
        ..Rules::default()
    };
    let mut claims = 0;
    for rules in [party, manual] {
        assert!(rules.manual_scoring);
        for deal in 0..4 {
            let mut s = State::from_seed(rules, &Seed::from_u64(deal)).unwrap();
            let mut engine = EnginePlayer::new(host.clone(), deal).unwrap();
            let mut greedy = Greedy;
            while matches!(s.phase(), Phase::Play | Phase::Claim) {
                let seat = s.to_move();
                let view = s.view(seat);
                let a = if seat == Seat(0) {
                    engine.choose(&view)
                } else {
                    greedy.choose(&view)
                };
                if seat == Seat(0) && s.phase() == Phase::Claim {
                    assert_eq!(a, Action::Claim(s.claimable()), "the claim due");
                    claims += u32::from(s.claimable() > 0);
                }
                s.apply(a).unwrap();
            }
            engine.hand_over(&s.view(Seat(0)));
        }
    }
    let conduct = host.conduct();
    assert!(conduct.strikes.is_empty(), "{conduct:?}");
    assert_eq!(conduct.fallback_decisions, 0);
    assert!(claims > 5, "{claims} claims");
}
