//! `expert`: pimc's search over sampled worlds, with the worlds weighted by what the other
//! seats' plays say about their hands.
//!
//! Pimc ([`crate::pimc`]) samples worlds uniformly among the deals consistent with every draw
//! and pass its seat saw, and weighs them alike. But a play says more than a draw: an opponent
//! who let a 20 go by, or kept back the 5-5, most likely did not hold what would have made the
//! better play. The expert replays the hand in every sampled world and, at each play another
//! seat made, asks how likely that play was for a club player holding that world's hand: club
//! scores every legal play ([`crate::club`]), and the chance of a play is a softmax over
//! those scores at the temperature `infer` (in points), mixed with a uniform choice
//! ([`FLOOR`](crate::infer::FLOOR)) so that no play a real opponent makes can rule a world out. A world weighs the
//! product of those chances over the hand (importance weighting: the uniform sample becomes a
//! sample of the posterior under that model of the opponents), and each action's value is its
//! weighted mean over the worlds.
//!
//! The temperature was chosen by how well the weighted worlds predict the opponent's true hand
//! (the `infer_probe` example): 3 points predicted best, against pimc and club opponents.
//!
//! Settings: pimc's (`samples`, `time`, `threads`, `endgame`, `rollout`) and:
//! - `infer`, the temperature (0 turns the weighting off);
//! - `nest=K`, an experiment: in each world the searcher's next decision is made by a search
//!   of `K` worlds sampled from its own view in that world rather than by the rollout policy
//!   (0, the default, turns it off);
//! - `rollout=seeing`, an experiment: rollouts by club reading the next seat's hand in the
//!   world.
//! - `reply=K`, an experiment: in each world the next seat's reply to the searched action,
//!   when that seat is an opponent, is a chance node over its `K` likeliest plays under the
//!   rollout policy's values (a softmax at the `infer` temperature) instead of the policy's
//!   one choice, each finished by the rollout: the search no longer bets on one guess of the
//!   reply (0, the default, turns it off).
//!
//! Defaults: [`EXPERT_SAMPLES`] worlds and [`DEFAULT_INFER`]. What each setting was measured to
//! be worth against pimc is in `docs/strength.md`.

use fiveup_engine::{Action, FastRng, View};

use crate::infer::DEFAULT_INFER;
use crate::pimc::{choose_by_search, ExpertConfig};
use crate::{Player, SpecError};

/// Worlds sampled per decision by default.
pub const EXPERT_SAMPLES: u32 = 400;

impl ExpertConfig {
    /// The expert's default settings.
    #[must_use]
    pub fn expert() -> ExpertConfig {
        ExpertConfig {
            samples: EXPERT_SAMPLES,
            infer: DEFAULT_INFER,
            ..ExpertConfig::default()
        }
    }

    /// Read the expert's `key=value` settings: pimc's and `infer`.
    pub fn parse_expert(settings: &str) -> Result<ExpertConfig, SpecError> {
        ExpertConfig::parse_onto(ExpertConfig::expert(), settings, true)
    }
}

/// The expert player.
#[derive(Debug)]
pub struct Expert {
    cfg: ExpertConfig,
    rng: FastRng,
}

impl Expert {
    /// An expert with these settings.
    #[must_use]
    pub fn new(cfg: ExpertConfig, seed: u64) -> Expert {
        Expert {
            cfg,
            rng: FastRng::new(seed),
        }
    }
}

impl Player for Expert {
    fn name(&self) -> String {
        self.cfg.describe("expert")
    }

    fn choose(&mut self, view: &View) -> Action {
        choose_by_search(&self.cfg, &mut self.rng, view, None)
    }

    fn choose_within(&mut self, view: &View, cap: std::time::Duration) -> Action {
        choose_by_search(&self.cfg, &mut self.rng, view, Some(cap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::greedy::greedy_action;
    use crate::infer::world_weight;
    use crate::pimc::analyze;
    use fiveup_engine::{Phase, Rules, Sampler, Seed, State};

    /// A two-player hand played by club for `plies` actions.
    fn club_hand(seed: u64, plies: usize) -> State {
        let mut s = State::from_seed(Rules::default(), &Seed::from_u64(seed)).unwrap();
        for _ in 0..plies {
            if !matches!(s.phase(), Phase::Play | Phase::Claim) {
                break;
            }
            let a = crate::club::Club.choose(&s.view(s.to_move()));
            s.apply(a).unwrap();
        }
        s
    }

    #[test]
    fn weights_are_chances() {
        let s = club_hand(3, 8);
        let seat = s.to_move();
        let mut sm = Sampler::new(&s.view(seat));
        let mut rng = FastRng::new(1);
        for _ in 0..20 {
            let w = sm.sample_consistent(&mut rng).unwrap();
            let p = world_weight(&w, seat, 3.0);
            assert!(p > 0.0 && p <= 1.0, "{p}");
        }
        // Before anybody else has played, every world weighs 1.
        let fresh = State::from_seed(Rules::default(), &Seed::from_u64(5)).unwrap();
        let first = fresh.to_move();
        assert_eq!(world_weight(&fresh, first, 3.0), 1.0);
    }

    #[test]
    fn the_true_world_of_a_club_opponent_outweighs_the_average_world() {
        // Club's own plays are likelier in the world that made them than in a uniform sample
        // of the worlds the view allows, in most positions.
        let mut above = 0;
        let cases = 12;
        for seed in 0..cases {
            let s = club_hand(100 + seed, 9);
            let seat = s.to_move();
            let truth = world_weight(&s, seat, 3.0);
            let mut sm = Sampler::new(&s.view(seat));
            let mut rng = FastRng::new(seed);
            let mean = (0..100)
                .map(|_| world_weight(&sm.sample_consistent(&mut rng).unwrap(), seat, 3.0))
                .sum::<f64>()
                / 100.0;
            if truth > mean {
                above += 1;
            }
        }
        assert!(above >= 9, "{above} of {cases}");
    }

    #[test]
    fn a_time_budget_is_honoured() {
        let s = club_hand(2, 6);
        let view = s.view(s.to_move());
        let cfg = ExpertConfig::parse_expert("time=60,threads=1").unwrap();
        let t = std::time::Instant::now();
        let evals = analyze(&view, &cfg, 1);
        let spent = t.elapsed();
        assert!(evals[0].samples >= 1);
        assert!(spent >= std::time::Duration::from_millis(60), "{spent:?}");
        // The world in progress at the deadline is finished: far less than a second.
        assert!(spent < std::time::Duration::from_millis(1060), "{spent:?}");
    }

    #[test]
    fn a_time_cap_cuts_a_budget_of_worlds_short() {
        let s = club_hand(2, 6);
        let view = s.view(s.to_move());
        // Within the cap: exactly the uncapped answer.
        let cfg = ExpertConfig::parse_expert("samples=20,threads=1").unwrap();
        assert_eq!(
            crate::pimc::analyze_within(&view, &cfg, 5, std::time::Duration::from_secs(60)),
            analyze(&view, &cfg, 5)
        );
        // A budget far beyond the cap stops at the cap, after the world in progress.
        let big = ExpertConfig::parse_expert("samples=1000000,threads=2").unwrap();
        let t = std::time::Instant::now();
        let evals =
            crate::pimc::analyze_within(&view, &big, 5, std::time::Duration::from_millis(40));
        let spent = t.elapsed();
        assert!(evals[0].samples >= 1 && evals[0].samples < 1_000_000);
        assert!(spent >= std::time::Duration::from_millis(40), "{spent:?}");
        assert!(spent < std::time::Duration::from_millis(1040), "{spent:?}");
    }

    #[test]
    fn the_expert_is_deterministic_given_its_seed() {
        let mut s = State::from_seed(Rules::default(), &Seed::from_u64(8)).unwrap();
        for _ in 0..5 {
            let a = greedy_action(&s);
            s.apply(a).unwrap();
        }
        let view = s.view(s.to_move());
        let cfg = ExpertConfig::parse_expert("samples=30,threads=2,nest=3").unwrap();
        assert_eq!(analyze(&view, &cfg, 4), analyze(&view, &cfg, 4));
        let learned = ExpertConfig::parse_expert("samples=30,threads=2,rollout=learned").unwrap();
        assert_eq!(analyze(&view, &learned, 4), analyze(&view, &learned, 4));
        // With the critic at the leaves, any number of threads gives one thread's answer.
        let net = ExpertConfig::parse_expert("samples=30,threads=1,leaf=net").unwrap();
        let net2 = ExpertConfig::parse_expert("samples=30,threads=2,leaf=net").unwrap();
        assert_eq!(analyze(&view, &net, 4), analyze(&view, &net2, 4));
        let mut e1 = Expert::new(cfg, 11);
        let mut e2 = Expert::new(cfg, 11);
        assert_eq!(e1.choose(&view), e2.choose(&view));
    }
}
