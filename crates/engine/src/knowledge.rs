//! What one seat knows of a hand, as plain data, and a full state rebuilt from it.
//!
//! A program that receives a seat's knowledge over a wire (an outside engine, a remote
//! player) holds no [`State`] and so no [`View`]. [`SeatKnowledge::rebuild`] samples a full
//! state consistent with that knowledge (the same sampler that searching players use), then
//! checks that the state's view for the seat shows exactly what the knowledge says: its tiles,
//! the hand's history, the lead, the phase and whose turn it is. The view of the rebuilt state
//! is then a genuine [`View`], made by [`State::view`] like any other, and every player can
//! choose from it. Knowledge that no deal can explain is refused with an error.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::deal::FastRng;
use crate::layout::Layout;
use crate::resample::{ResampleError, Sampler};
use crate::rules::{FirstLead, Rules};
use crate::state::{Entry, HandStart, LeadKind, Phase, State};
use crate::tile::{BySeat, Seat, Tile, TileSet};
use crate::view::View;

/// Samples tried before knowledge is refused as unexplainable.
const REBUILD_ATTEMPTS: u32 = 64;

/// Everything one seat knows of the hand in progress, as plain data.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeatKnowledge {
    /// The rules.
    pub rules: Rules,
    /// The seat.
    pub seat: Seat,
    /// How the hand started: its number, the scores before it, and the lead rule.
    pub start: HandStart,
    /// Who led (or leads) the hand.
    pub leader: Seat,
    /// How the leader was chosen.
    pub lead_kind: LeadKind,
    /// The tile shown to decide the lead, if any.
    pub shown: Option<Tile>,
    /// The seat's tiles now.
    pub hand: TileSet,
    /// The hand's history as the seat saw it (its own draws with their tiles).
    pub history: Vec<Entry>,
    /// The phase (play or claim: a hand in progress).
    pub phase: Phase,
    /// Whose turn it is.
    pub to_move: Seat,
}

/// Why a seat's knowledge could not be rebuilt into a state.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RebuildError {
    /// The knowledge is malformed (the message says how).
    Invalid(String),
    /// The sampler could not place the hidden tiles.
    Sample(ResampleError),
    /// No sampled deal replays to exactly this knowledge.
    Inconsistent(String),
}

impl fmt::Display for RebuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RebuildError::Invalid(m) => write!(f, "invalid knowledge: {m}"),
            RebuildError::Sample(e) => write!(f, "{e}"),
            RebuildError::Inconsistent(m) => {
                write!(f, "no deal explains this knowledge: {m}")
            }
        }
    }
}

impl std::error::Error for RebuildError {}

impl SeatKnowledge {
    /// What `view`'s seat knows, as plain data.
    #[must_use]
    pub fn of(view: &View) -> SeatKnowledge {
        SeatKnowledge {
            rules: *view.rules(),
            seat: view.seat(),
            start: *view.start(),
            leader: view.leader(),
            lead_kind: view.lead_kind(),
            shown: view.shown_tile(),
            hand: view.hand(),
            history: view.history().to_vec(),
            phase: view.phase(),
            to_move: view.to_move(),
        }
    }

    /// A full state consistent with this knowledge, whose view for the seat shows exactly this
    /// knowledge. The hidden tiles are sampled with `rng`.
    pub fn rebuild(&self, rng: &mut FastRng) -> Result<State, RebuildError> {
        let rules = self.rules;
        rules
            .validate()
            .map_err(|e| RebuildError::Invalid(e.to_string()))?;
        let n = rules.players;
        for s in [self.seat, self.leader, self.to_move, self.start.free_leader] {
            if s.0 >= n {
                return Err(RebuildError::Invalid(format!("seat {} of {n}", s.0)));
            }
        }
        if !matches!(self.phase, Phase::Play | Phase::Claim) {
            return Err(RebuildError::Invalid(
                "only a hand in progress can be rebuilt".into(),
            ));
        }
        let all = rules.tiles();
        if !self.hand.minus(all).is_empty() {
            return Err(RebuildError::Invalid("a tile outside the set".into()));
        }
        let mut layout = Layout::new();
        let mut bone_taken = 0usize;
        for e in &self.history {
            if e.seat().0 >= n {
                return Err(RebuildError::Invalid(format!("seat {} of {n}", e.seat().0)));
            }
            match *e {
                Entry::Play { tile, .. } => {
                    if !all.contains(tile) || layout.tiles.contains(tile) {
                        return Err(RebuildError::Invalid(format!("{tile} laid twice")));
                    }
                    layout.tiles.insert(tile);
                }
                Entry::Draw { .. } | Entry::LeadDraw { .. } => bone_taken += 1,
                _ => {}
            }
        }
        let dealt = usize::from(n) * usize::from(rules.hand_size);
        let boneyard_len = rules
            .tile_count()
            .checked_sub(dealt + bone_taken)
            .ok_or_else(|| RebuildError::Invalid("more draws than tiles".into()))?;
        let forced_lead = match self.lead_kind {
            LeadKind::Free | LeadKind::Lot => None,
            _ if rules.first_lead == FirstLead::HighestDoubleAny => None,
            _ => self.shown,
        };
        let view = View {
            rules,
            seat: self.seat,
            hand: self.hand,
            hand_sizes: BySeat::default(),
            boneyard_len: u8::try_from(boneyard_len)
                .map_err(|_| RebuildError::Invalid("boneyard too big".into()))?,
            scores: self.start.scores,
            start: self.start,
            leader: self.leader,
            lead_kind: self.lead_kind,
            forced_lead,
            shown: self.shown,
            layout,
            to_move: self.to_move,
            phase: self.phase,
            drew: false,
            last_drawn_playable: false,
            claimable: 0,
            muggins: 0,
            history: self.history.clone(),
            result: None,
            winner: None,
        };
        let mut sampler = Sampler::new(&view);
        let mut last = String::new();
        for _ in 0..REBUILD_ATTEMPTS {
            let state = match sampler.sample_consistent(rng) {
                Ok(s) => s,
                Err(ResampleError::Replay(m)) => {
                    last = m;
                    continue;
                }
                Err(e) => return Err(RebuildError::Sample(e)),
            };
            let got = SeatKnowledge::of(&state.view(self.seat));
            if got == *self {
                return Ok(state);
            }
            last = self.difference(&got);
        }
        Err(RebuildError::Inconsistent(last))
    }

    /// The first field in which `other` differs from this knowledge, for error messages.
    fn difference(&self, other: &SeatKnowledge) -> String {
        if self.hand != other.hand {
            "the seat's tiles".into()
        } else if self.history != other.history {
            "the history".into()
        } else if (self.leader, self.lead_kind, self.shown)
            != (other.leader, other.lead_kind, other.shown)
        {
            "the lead".into()
        } else if self.start != other.start {
            "the hand's start".into()
        } else {
            "the phase or the turn".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Preset, Seed};

    #[test]
    fn every_decision_of_every_preset_rebuilds_to_the_same_view() {
        let mut rng = FastRng::new(5);
        for preset in Preset::ALL {
            for players in [2u8, 3, 4] {
                let rules = Rules::preset(preset, players);
                if rules.validate().is_err() {
                    continue;
                }
                let mut s = State::from_seed(rules, &Seed::from_u64(rng.next_u64())).unwrap();
                while matches!(s.phase(), Phase::Play | Phase::Claim) {
                    let seat = s.to_move();
                    let view = s.view(seat);
                    let k = SeatKnowledge::of(&view);
                    let rebuilt = k.rebuild(&mut rng).unwrap_or_else(|e| {
                        panic!("{preset:?} {players}: {e} at {}", view.history().len())
                    });
                    let again = rebuilt.view(seat);
                    assert_eq!(
                        again.legal_actions().as_slice(),
                        view.legal_actions().as_slice()
                    );
                    assert_eq!(again.history(), view.history());
                    assert_eq!(again.hand(), view.hand());
                    assert_eq!(again.scores(), view.scores());
                    let a = view.legal_actions()[0];
                    s.apply(a).unwrap();
                }
            }
        }
    }

    #[test]
    fn knowledge_no_deal_explains_is_refused() {
        let s = State::from_seed(Rules::default(), &Seed::from_u64(2)).unwrap();
        let mut k = SeatKnowledge::of(&s.view(s.to_move()));
        // Claim a tile laid that is in the seat's own hand.
        let mine = k.hand.iter().next().unwrap();
        k.history.push(Entry::Play {
            seat: k.seat.next(2),
            tile: mine,
            arm: None,
            count: 0,
            points: 0,
        });
        assert!(k.rebuild(&mut FastRng::new(1)).is_err());
        let mut k2 = SeatKnowledge::of(&s.view(s.to_move()));
        k2.seat = Seat(9);
        assert!(matches!(
            k2.rebuild(&mut FastRng::new(1)),
            Err(RebuildError::Invalid(_))
        ));
    }
}
