//! The learned networks: an action-value network that plays from a seat's view, and a critic
//! that values a whole (sampled) world, both trained by self-play with Deep Monte-Carlo (the
//! return of each decision is its target; see the `fiveup-train` crate and `docs/strength.md`).
//!
//! - [`Neural`], the player `neural`: one forward pass per legal action of the action-value
//!   network, the best taken. No search: it answers in microseconds. It plays as club does
//!   (docs/strength.md), so it is a player any seat may name rather than a level of its own.
//! - The search's leaves: `expert:leaf=net,depth=K` plays each sampled world on for K plies
//!   after the searched action and then values it by the critic instead of playing it out
//!   (see [`crate::pimc`]), and `rollout=net` plays worlds out by the action-value network.
//!
//! The shipped weights (`crates/bots/weights/neural.safetensors`) are compiled into the
//! binary and read once, on first use.

pub mod encode;
pub mod mlp;

use std::sync::OnceLock;

use fiveup_engine::{Action, Seat, Side, State, View};

use crate::club::obvious_choice;
use crate::Player;
use encode::Sparse;
pub use mlp::{LoadError, Mlp};

/// Points per unit of the networks' outputs (their targets are divided by it in training).
pub const SCALE: f32 = 20.0;

/// The action-value network and the critic.
#[derive(Clone, Debug, PartialEq)]
pub struct Nets {
    /// The action-value network ([`encode::Q_LEN`] inputs): a play's value for its seat.
    pub q: Mlp,
    /// The critic ([`encode::V_LEN`] inputs): a world's value for one seat's side.
    pub v: Mlp,
}

/// The shipped weights' file.
pub static SHIPPED_FILE: &[u8] = include_bytes!("../../weights/neural.safetensors");

impl Nets {
    /// Read both networks (`q.*` and `v.*` tensors) from a safetensors file's bytes.
    pub fn from_safetensors(bytes: &[u8]) -> Result<Nets, LoadError> {
        Ok(Nets {
            q: Mlp::from_safetensors(bytes, "q", encode::Q_LEN, SCALE)?,
            v: Mlp::from_safetensors(bytes, "v", encode::V_LEN, SCALE)?,
        })
    }

    /// The shipped networks.
    ///
    /// # Panics
    /// If the shipped file is malformed (a test reads it).
    pub fn shipped() -> &'static Nets {
        static NETS: OnceLock<Nets> = OnceLock::new();
        NETS.get_or_init(|| {
            Nets::from_safetensors(SHIPPED_FILE).expect("the shipped network weights load")
        })
    }

    /// The action-value network's value of each legal action of the viewer (whose turn it
    /// is), in points, in the legal order.
    #[must_use]
    pub fn q_values(&self, view: &View) -> Vec<(Action, f32)> {
        self.values_of(view, view.legal_actions().as_slice())
    }

    /// The action-value network's value of each of `legal` (the viewer's legal actions): the
    /// context's share of the first layer is summed once for all of them.
    fn values_of(&self, view: &View, legal: &[Action]) -> Vec<(Action, f32)> {
        let h1 = self.q.h1;
        let mut ctx = Sparse::with_capacity(96);
        encode::context(view, &mut ctx);
        let mut base_sums = [0.0f32; mlp::MAX_HIDDEN];
        let base = &mut base_sums[..h1];
        base.copy_from_slice(&self.q.b1);
        self.q.accumulate(&ctx, base);
        let mut sums = [0.0f32; mlp::MAX_HIDDEN];
        let acc = &mut sums[..h1];
        let mut x = Sparse::with_capacity(32);
        legal
            .iter()
            .map(|&a| {
                x.clear();
                encode::action(view, a, &mut x);
                acc.copy_from_slice(base);
                self.q.accumulate(&x, acc);
                (a, self.q.finish(acc))
            })
            .collect()
    }

    /// The action-value network's choice for the viewer: the right claim or Muggins call
    /// where there is one, else the legal action of highest value (the first of equals).
    #[must_use]
    pub fn choose(&self, view: &View) -> Action {
        let legal = view.legal_actions();
        if let Some(a) = obvious_choice(view, &legal) {
            return a;
        }
        if legal.len() == 1 {
            return legal[0];
        }
        let mut best = (legal[0], f32::NEG_INFINITY);
        for (a, q) in self.values_of(view, legal.as_slice()) {
            if q > best.1 {
                best = (a, q);
            }
        }
        best.0
    }

    /// The critic's value of `world` for `seat`'s side: the points that side is expected to
    /// gain over the others' mean from here to the end of the hand.
    #[must_use]
    pub fn world_value(&self, world: &State, seat: Seat) -> f32 {
        let mut x = Sparse::with_capacity(128);
        encode::world(world, seat, &mut x);
        self.v.eval(&x)
    }

    /// [`Nets::world_value`] for `side`, read from its first seat.
    #[must_use]
    pub fn side_value(&self, world: &State, side: Side) -> f32 {
        let r = world.rules();
        let seat = (0..r.players)
            .map(Seat)
            .find(|&s| r.side_of(s) == side)
            .unwrap_or(Seat(0));
        self.world_value(world, seat)
    }
}

/// The network alone as a player (the level `neural`).
#[derive(Debug, Clone, Copy)]
pub struct Neural {
    nets: &'static Nets,
}

impl Neural {
    /// A player with the shipped networks.
    #[must_use]
    pub fn shipped() -> Neural {
        Neural {
            nets: Nets::shipped(),
        }
    }

    /// A player with these networks.
    #[must_use]
    pub fn with(nets: &'static Nets) -> Neural {
        Neural { nets }
    }
}

impl Player for Neural {
    fn name(&self) -> String {
        "neural".into()
    }

    fn choose(&mut self, view: &View) -> Action {
        self.nets.choose(view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fiveup_engine::{Phase, Preset, Rules, Seed};

    #[test]
    fn the_shipped_weights_load_and_play_every_preset() {
        let nets = Nets::shipped();
        assert_eq!(nets.q.inputs, encode::Q_LEN);
        assert_eq!(nets.v.inputs, encode::V_LEN);
        let mut p = Neural::shipped();
        for preset in Preset::ALL {
            for players in 2..=8u8 {
                let rules = Rules::preset(preset, players);
                if rules.validate().is_err() {
                    continue;
                }
                let mut s = State::from_seed(rules, &Seed::from_u64(u64::from(players))).unwrap();
                while matches!(s.phase(), Phase::Play | Phase::Claim) {
                    let seat = s.to_move();
                    let a = p.choose(&s.view(seat));
                    assert!(s.is_legal(a), "{a} in {preset} with {players}");
                    let v = nets.world_value(&s, seat);
                    assert!(v.is_finite());
                    s.apply(a).unwrap();
                }
            }
        }
    }

    #[test]
    fn values_of_plays_agree_with_the_plain_forward_pass() {
        // The shared-context shortcut of `q_values` gives what encoding each play whole gives.
        let nets = Nets::shipped();
        let mut s = State::from_seed(Rules::default(), &Seed::from_u64(3)).unwrap();
        for _ in 0..6 {
            let view = s.view(s.to_move());
            for (a, q) in nets.q_values(&view) {
                let mut x = Sparse::new();
                encode::context(&view, &mut x);
                encode::action(&view, a, &mut x);
                assert!((nets.q.eval(&x) - q).abs() < 1e-3, "{a}");
            }
            let a = nets.choose(&view);
            s.apply(a).unwrap();
        }
    }
}
