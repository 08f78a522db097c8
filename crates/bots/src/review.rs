//! Reviewing a finished game: every decision analysed from the deciding seat's view, with the
//! points the choice made lost against the best the expert found.

use fiveup_engine::notation::Record;
use fiveup_engine::{Action, Phase, Seat, State};

use crate::expert::{analyze, ExpertConfig};

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
        for r in &reviews {
            assert!(r.loss >= 0.0);
            assert!(r.options >= 2);
            assert!((r.best_value - r.chosen_value - r.loss).abs() < 1e-9);
        }
    }
}
