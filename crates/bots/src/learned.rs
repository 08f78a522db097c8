//! The learned rollout policy: club's terms and a few more, weighted by weights fitted to the
//! searcher's own evaluations (`rollout=learned`).
//!
//! Every legal play is described by [`NF`] terms from its seat's view (club's fourteen terms,
//! unweighted, and ten more: the points of this seat's best next play on the new ends, how
//! many of its tiles would score there, the next seat's best possible reply, the share of the
//! next seat's possible tiles that fit, the new ends the next seat is known to lack, the points
//! and the pips left once nothing can be drawn, the tiles of this seat and the unseen tiles
//! carrying the suits the play newly shows, and the exposure when the next seat holds two
//! tiles or fewer). The policy plays the highest weighted sum; a play that wins the game or
//! goes out comes first, as in club, and ties are broken as club breaks them.
//!
//! The weights ([`LEARNED`], in `learned_weights.rs`) come from expert iteration: hands are
//! played by the current policy, at sampled decisions the searcher (pimc's search with the
//! current policy finishing every world) values every legal play, and the weights are refitted
//! by least squares to those values (each decision's values and terms centred on their mean,
//! with a ridge pull towards the previous weights), then the loop repeats with the new policy.
//! The command that produced them is in `docs/strength.md`:
//!
//! ```text
//! cargo run --release -p fiveup-bots --example train_rollout -- ITERATIONS POSITIONS SAMPLES SEED
//! ```

use std::cmp::Ordering;

use fiveup_engine::{Action, Phase, Rules, Side, State, View};

pub use crate::club::NF;
use crate::club::{obvious_choice, play_features, tie_key, Special};

/// The fitted weights, written by the `train_rollout` example.
mod weights {
    include!("learned_weights.rs");
}

/// The hidden units of a [`Net`].
pub const HIDDEN: usize = 16;

/// A small network over a play's terms, added to a policy's weighted sum: the terms
/// standardised, one layer of [`HIDDEN`] rectified linear units, one output in the policy's
/// units. It is fitted to what the linear sum leaves unexplained of the searcher's values.
#[derive(Debug, Clone, PartialEq)]
pub struct Net {
    /// Each term's mean over the training plays.
    pub mean: [f64; NF],
    /// One over each term's standard deviation over the training plays (0 for a constant term).
    pub inv_sd: [f64; NF],
    /// The hidden units' weights.
    pub w1: [[f64; NF]; HIDDEN],
    /// The hidden units' biases.
    pub b1: [f64; HIDDEN],
    /// The output's weight of each hidden unit.
    pub w2: [f64; HIDDEN],
}

impl Net {
    /// The network's output for a play's terms.
    #[must_use]
    pub fn eval(&self, f: &[f64; NF]) -> f64 {
        let mut x = [0.0; NF];
        for ((x, f), (m, s)) in x.iter_mut().zip(f).zip(self.mean.iter().zip(&self.inv_sd)) {
            *x = (f - m) * s;
        }
        let mut out = 0.0;
        for ((w, b), o) in self.w1.iter().zip(&self.b1).zip(&self.w2) {
            let a = b + w.iter().zip(&x).map(|(w, x)| w * x).sum::<f64>();
            if a > 0.0 {
                out += o * a;
            }
        }
        out
    }
}

/// A rollout policy's weights, one per term of a play, and optionally a network added to
/// their sum.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Policy {
    /// The weight of each term.
    pub w: [f64; NF],
    /// A network whose output is added to the weighted sum.
    pub net: Option<&'static Net>,
}

// The weights are finite numbers (never NaN), so equality is an equivalence.
impl Eq for Policy {}

/// The learned policy shipped with the players.
pub static LEARNED: Policy = Policy {
    w: weights::WEIGHTS,
    net: None,
};

impl Policy {
    /// The weights under which the policy plays as club (but for ties between plays whose
    /// scores differ by rounding).
    #[must_use]
    pub fn club() -> Policy {
        Policy {
            w: crate::club::club_feature_weights(),
            net: None,
        }
    }

    /// The weighted sum of a play's terms, plus the network's output if there is one.
    #[must_use]
    pub fn value(&self, f: &[f64; NF]) -> f64 {
        let linear: f64 = self.w.iter().zip(f).map(|(w, x)| w * x).sum();
        match self.net {
            Some(n) => linear + n.eval(f),
            None => linear,
        }
    }

    /// A play's value: its special value if it has one, else the weighted sum of its terms.
    fn play_value(&self, sp: Special, f: &[f64; NF]) -> f64 {
        match sp {
            Special::Value(v) => v,
            Special::No => self.value(f),
        }
    }

    /// The policy's choice for the viewer (whose turn it is).
    #[must_use]
    pub fn choose(&self, view: &View) -> Action {
        let mut scratch = Vec::new();
        self.choose_with(view, &mut scratch)
    }

    /// [`Policy::choose`] reusing a buffer.
    pub(crate) fn choose_with(
        &self,
        view: &View,
        buf: &mut Vec<(Action, Special, [f64; NF])>,
    ) -> Action {
        let legal = view.legal_actions();
        if let Some(a) = obvious_choice(view, &legal) {
            return a;
        }
        play_features(view, buf);
        if buf.is_empty() {
            return *legal
                .iter()
                .next()
                .expect("the player to move has a legal action");
        }
        buf.iter()
            .map(|(a, sp, f)| (*a, self.play_value(*sp, f)))
            .max_by(|x, y| {
                x.1.partial_cmp(&y.1)
                    .unwrap_or(Ordering::Equal)
                    .then_with(|| tie_key(x.0).cmp(&tie_key(y.0)))
            })
            .expect("at least one play")
            .0
    }
}

impl Policy {
    /// The policy's value of every play for the seat to move in `view`, as
    /// [`crate::club`]'s scores are given for the expert's inference (empty when it has no
    /// play to choose).
    pub fn play_values(&self, view: &View, out: &mut Vec<(Action, f64)>) {
        let mut buf = Vec::new();
        play_features(view, &mut buf);
        out.clear();
        out.extend(buf.iter().map(|(a, sp, f)| (*a, self.play_value(*sp, f))));
    }
}

/// Every play of the viewer with its terms, for training: `None` when the viewer has no choice
/// among plays, or when one of them wins the game or goes out (the policy needs no weights
/// there).
#[must_use]
pub fn play_terms(view: &View) -> Option<Vec<(Action, [f64; NF])>> {
    let mut buf = Vec::new();
    play_features(view, &mut buf);
    if buf.len() < 2 || buf.iter().any(|(_, sp, _)| *sp != Special::No) {
        return None;
    }
    Some(buf.into_iter().map(|(a, _, f)| (a, f)).collect())
}

/// Policy `a`'s points minus policy `b`'s per hand, and the standard error, as players over
/// `deals` duplicate two-player deals of Five Up (the deals of `fiveup match --seed seed`,
/// each played twice, the seats swapped).
#[must_use]
pub fn head_to_head(a: &Policy, b: &Policy, deals: u64, seed: u64) -> (f64, f64) {
    let mut diffs = Vec::new();
    for d in 0..deals {
        let Ok(start) = State::from_seed(Rules::default(), &crate::duel::deal_seed(seed, d)) else {
            continue;
        };
        let mut diff = 0.0;
        for a_seat in 0..2u8 {
            let mut s = start.clone();
            while matches!(s.phase(), Phase::Play | Phase::Claim) {
                let seat = s.to_move();
                let p = if seat.0 == a_seat { a } else { b };
                s.apply(p.choose(&s.view(seat)))
                    .expect("a policy plays legally");
            }
            let (me, other) = (Side(a_seat), Side(1 - a_seat));
            diff += f64::from(s.scores()[me] - s.scores()[other]) / 2.0;
        }
        diffs.push(diff);
    }
    let (mean, sd) = crate::duel::mean_sd(&diffs);
    (mean, sd / (diffs.len() as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Player;
    use fiveup_engine::Seed;

    #[test]
    fn club_weights_play_as_club() {
        // With club's weights the policy's sum is club's score, so it makes club's choices
        // (but for plays whose scores differ only by rounding, never seen here).
        let club = Policy::club();
        let mut same = 0;
        let mut total = 0;
        for seed in 0..30 {
            let mut s = State::from_seed(Rules::default(), &Seed::from_u64(seed)).unwrap();
            while matches!(s.phase(), Phase::Play | Phase::Claim) {
                let view = s.view(s.to_move());
                let a = crate::club::Club.choose(&view);
                total += 1;
                if club.choose(&view) == a {
                    same += 1;
                }
                s.apply(a).unwrap();
            }
        }
        assert_eq!(same, total);
    }

    #[test]
    fn the_learned_policy_beats_club_head_to_head() {
        let (mean, se) = head_to_head(&LEARNED, &Policy::club(), 3000, 7);
        eprintln!("learned - club: {mean:+.2} a hand, standard error {se:.2}");
        assert!(mean - 2.0 * se > 0.0, "{mean:+.2} +- {se:.2}");
    }

    #[test]
    fn the_learned_weights_are_finite() {
        assert!(LEARNED.w.iter().all(|w| w.is_finite()));
        assert!(LEARNED.net.is_none());
    }

    #[test]
    fn a_network_adds_its_output_to_the_sum() {
        // One hidden unit reading the first term (standardised around 1), weight 2 out: the
        // sum gains 2 * max(0, f0 - 1).
        let mut w1 = [[0.0; NF]; HIDDEN];
        w1[0][0] = 1.0;
        let mut w2 = [0.0; HIDDEN];
        w2[0] = 2.0;
        let mut mean = [0.0; NF];
        mean[0] = 1.0;
        let net: &'static Net = Box::leak(Box::new(Net {
            mean,
            inv_sd: [1.0; NF],
            w1,
            b1: [0.0; HIDDEN],
            w2,
        }));
        let mut w = [0.0; NF];
        w[1] = 3.0;
        let p = Policy { w, net: Some(net) };
        let mut f = [0.0; NF];
        f[0] = 4.0;
        f[1] = 1.0;
        assert!((p.value(&f) - (3.0 + 2.0 * 3.0)).abs() < 1e-12);
        f[0] = 0.5;
        assert!((p.value(&f) - 3.0).abs() < 1e-12);
    }
}
