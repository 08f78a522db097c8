//! Reviewing a finished game: every decision analysed from the deciding seat's view, with the
//! points the choice made lost against the best the expert found.

use fiveup_engine::notation::Record;
use fiveup_engine::{Action, Phase, Seat, State};

use crate::pimc::{analyze, ExpertConfig};

/// One decision of a game, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Hand number, from 1.
    pub hand: usize,
    /// Index of the action in the hand, from 1.
    pub index: usize,
    /// Who decided.
    pub seat: Seat,
    /// What was played.
    pub chosen: Action,
    /// The expert's best action.
    pub best: Action,
    /// Expected value of the choice (points difference, see [`crate::expert`]).
    pub chosen_value: f64,
    /// Expected value of the best action.
    pub best_value: f64,
    /// `best_value - chosen_value`: what the choice lost (0 when it was the best).
    pub loss: f64,
    /// Legal actions there were.
    pub options: usize,
    /// Standard error of `chosen_value`.
    pub chosen_stderr: f64,
    /// Standard error of `best_value`.
    pub best_stderr: f64,
}

/// How many standard errors of the difference a loss must reach to count: a smaller
/// difference is within the noise of the sampled worlds (two plays of the same tile on
/// equivalent ends, for instance, differ only by it).
pub const NOISE_FACTOR: f64 = 2.0;

impl MoveReview {
    /// The standard error of the difference between the best value and the chosen one (taken
    /// as if the two were independent, which overstates it a little: both are measured on the
    /// same sampled worlds).
    #[must_use]
    pub fn noise(&self) -> f64 {
        self.best_stderr.hypot(self.chosen_stderr)
    }

    /// Whether the loss is within the noise: the choice is as good as the best, as far as the
    /// analysis can tell.
    #[must_use]
    pub fn within_noise(&self) -> bool {
        self.loss <= NOISE_FACTOR * self.noise()
    }

    /// The loss that counts: 0 when it is within the noise.
    #[must_use]
    pub fn counted_loss(&self) -> f64 {
        if self.within_noise() {
            0.0
        } else {
            self.loss
        }
    }

    /// The verdict in words: `best`, `as good as the best (within the noise)`, or
    /// `loses 4.2; best 6-4@W`.
    #[must_use]
    pub fn verdict(&self) -> String {
        if self.chosen == self.best || self.loss <= 0.0 {
            "best".to_string()
        } else if self.within_noise() {
            format!(
                "as good as the best {} (the difference, {:.1}, is within the noise: less than \
                 {NOISE_FACTOR} standard errors, {:.1})",
                self.best,
                self.loss,
                NOISE_FACTOR * self.noise()
            )
        } else {
            format!("loses {:.1}; best {}", self.loss, self.best)
        }
    }
}

/// One decision reviewed: `chosen` in `state` (of the seat to move), analysed from that seat's
/// view. `None` when there was no choice (one legal action) or `chosen` is not legal.
#[must_use]
pub fn review_decision(
    state: &State,
    chosen: Action,
    cfg: &ExpertConfig,
    seed: u64,
) -> Option<(Seat, Vec<crate::pimc::ActionEval>, usize)> {
    if !matches!(state.phase(), Phase::Play | Phase::Claim) {
        return None;
    }
    let seat = state.to_move();
    let legal = state.legal_actions();
    if legal.len() < 2 || !legal.contains(&chosen) {
        return None;
    }
    let view = state.view(seat);
    Some((seat, analyze(&view, cfg, seed), legal.len()))
}

/// The review of `chosen` from the evaluations of every legal action.
#[must_use]
pub fn judge(
    hand: usize,
    index: usize,
    seat: Seat,
    chosen: Action,
    evals: &[crate::pimc::ActionEval],
    options: usize,
) -> Option<MoveReview> {
    let best = evals.first()?;
    let c = evals.iter().find(|e| e.action == chosen)?;
    Some(MoveReview {
        hand,
        index,
        seat,
        chosen,
        best: best.action,
        chosen_value: c.mean,
        best_value: best.mean,
        loss: (best.mean - c.mean).max(0.0),
        options,
        chosen_stderr: c.stderr,
        best_stderr: best.stderr,
    })
}

/// Why a game could not be reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewError(pub String);

impl std::fmt::Display for ReviewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReviewError {}

/// Review every decision with a choice (two or more legal actions) of a recorded game. The
/// record is replayed and checked first; each decision is analysed from the view of the seat
/// that made it, so the review judges a choice by what that player could know.
pub fn review(
    record: &Record,
    cfg: &ExpertConfig,
    seed: u64,
) -> Result<Vec<MoveReview>, ReviewError> {
    let game = record
        .replay()
        .map_err(|e| ReviewError(format!("the record does not replay: {e}")))?;
    let mut out = Vec::new();
    for (h, hand) in game.hands.iter().enumerate() {
        let deal = record.hands[h].deal;
        let mut state = State::with_start(record.rules, deal, hand.start)
            .map_err(|e| ReviewError(format!("hand {}: {e}", h + 1)))?;
        for (i, step) in hand.steps.iter().enumerate() {
            if !matches!(state.phase(), Phase::Play | Phase::Claim) {
                break;
            }
            let seat = state.to_move();
            let legal = state.legal_actions();
            if legal.len() > 1 {
                let view = state.view(seat);
                let evals = analyze(&view, cfg, seed ^ ((h as u64) << 32) ^ i as u64);
                if let Some(best) = evals.first() {
                    let chosen =
                        evals
                            .iter()
                            .find(|e| e.action == step.action)
                            .ok_or_else(|| {
                                ReviewError(format!(
                                    "hand {}, action {}: {} is not among the legal actions",
                                    h + 1,
                                    i + 1,
                                    step.action
                                ))
                            })?;
                    out.push(MoveReview {
                        hand: h + 1,
                        index: i + 1,
                        seat,
                        chosen: step.action,
                        best: best.action,
                        chosen_value: chosen.mean,
                        best_value: best.mean,
                        loss: (best.mean - chosen.mean).max(0.0),
                        options: legal.len(),
                        chosen_stderr: chosen.stderr,
                        best_stderr: best.stderr,
                    });
                }
            }
            state
                .apply(step.action)
                .map_err(|e| ReviewError(format!("hand {}, action {}: {e}", h + 1, i + 1)))?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fiveup_engine::notation::Recorder;
    use fiveup_engine::{FastRng, Rules, Seed};

    fn move_review(loss: f64, se: f64) -> MoveReview {
        MoveReview {
            hand: 1,
            index: 3,
            seat: Seat(0),
            chosen: Action::play(fiveup_engine::Tile::new(6, 4), fiveup_engine::ArmId(0)),
            best: Action::play(fiveup_engine::Tile::new(6, 4), fiveup_engine::ArmId(1)),
            chosen_value: 5.0 - loss,
            best_value: 5.0,
            loss,
            options: 2,
            chosen_stderr: se,
            best_stderr: se,
        }
    }

    #[test]
    fn a_difference_within_the_noise_is_not_a_loss() {
        // The same tile on two equivalent ends: 0.1 apart with standard errors of 0.5.
        let same = move_review(0.1, 0.5);
        assert!(same.within_noise());
        assert_eq!(same.counted_loss(), 0.0);
        assert!(
            same.verdict().starts_with("as good as the best"),
            "{}",
            same.verdict()
        );
        // Well beyond two standard errors of the difference: a real loss.
        let worse = move_review(4.0, 0.5);
        assert!(!worse.within_noise());
        assert_eq!(worse.counted_loss(), 4.0);
        assert_eq!(worse.verdict(), "loses 4.0; best 6-4@E");
    }

    #[test]
    fn a_random_game_is_reviewed_decision_by_decision() {
        let seed = Seed::from_u64(12);
        let rules = Rules {
            target: 50,
            ..Rules::default()
        };
        let mut state = State::from_seed(rules, &seed).unwrap();
        let mut rec = Recorder::new(&state, None, Some(seed)).unwrap();
        let mut rng = FastRng::new(4);
        let mut choices = 0;
        for _ in 0..2 {
            while matches!(state.phase(), Phase::Play | Phase::Claim) {
                let legal = state.legal_actions();
                choices += usize::from(legal.len() > 1);
                let a = legal[rng.below(legal.len() as u32) as usize];
                rec.apply(&mut state, a).unwrap();
            }
            if state.phase() != Phase::HandOver {
                break;
            }
            state.next_hand_from_seed(&seed).unwrap();
            rec.start_hand(&state);
        }
        let record = rec.finish(&state);
        let cfg = ExpertConfig::parse("samples=12,threads=1").unwrap();
        let reviews = review(&record, &cfg, 1).unwrap();
        assert_eq!(reviews.len(), choices);
        // The verdicts do not depend on the threads the search runs on.
        for threads in [2, 3] {
            let cfg = ExpertConfig { threads, ..cfg };
            let again = review(&record, &cfg, 1).unwrap();
            assert_eq!(again.len(), reviews.len());
            for (a, b) in again.iter().zip(&reviews) {
                assert_eq!(a.verdict(), b.verdict(), "{threads} threads");
                assert_eq!(a.loss.to_bits(), b.loss.to_bits(), "{threads} threads");
            }
        }
        for r in &reviews {
            assert!(r.loss >= 0.0);
            assert!(r.options >= 2);
            assert!((r.best_value - r.chosen_value - r.loss).abs() < 1e-9);
        }
    }
}
