//! `random`: any legal action, uniformly.

use fiveup_engine::{Action, FastRng, View};

use crate::Player;

/// Chooses uniformly among the legal actions.
#[derive(Debug, Clone)]
pub struct RandomPlayer {
    rng: FastRng,
}

impl RandomPlayer {
    /// A random player with its own generator.
    #[must_use]
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: FastRng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, view: &View) -> Action {
        let legal = view.legal_actions();
        legal[self.rng.below(legal.len() as u32) as usize]
    }
}
