//! # fiveup-engine
//!
//! The rules of Five Up and the rest of the Fives family of dominoes, as a pure library: tiles,
//! deals, the layout with its spinner(s) and count, legal actions, draws and passes, hand and
//! game scoring with every house option, seat views, resampling of hidden tiles, and game
//! records. No I/O, no clocks, no global randomness: everything is a function of its inputs.
//!
//! Play a hand from a seed:
//! ```
//! use fiveup_engine::{Rules, Seed, State, Phase};
//!
//! let mut state = State::from_seed(Rules::default(), &Seed::from_u64(1)).unwrap();
//! // The first hand is led with the highest double dealt.
//! let lead = state.legal_actions()[0];
//! let outcome = state.apply(lead).unwrap();
//! assert_eq!(state.layout().count() % 2, 0); // a double counts both halves
//! # let _ = outcome;
//! while state.phase() == Phase::Play {
//!     let a = state.legal_actions()[0];
//!     state.apply(a).unwrap();
//! }
//! assert!(state.is_hand_over());
//! ```
//!
//! Illegal actions are typed errors and change nothing:
//! ```
//! use fiveup_engine::{Action, IllegalAction, Rules, Seed, State, Tile};
//!
//! let mut state = State::from_seed(Rules::default(), &Seed::from_u64(1)).unwrap();
//! let before = state.clone();
//! let err = state.apply(Action::Pass).unwrap_err();
//! assert_eq!(err, IllegalAction::MustPlay);
//! assert_eq!(state.log(), before.log());
//! ```
//!
//! A computer player sees only a [`View`], and can sample full states consistent with it:
//! ```
//! use fiveup_engine::{FastRng, Rules, Seat, Seed, State};
//!
//! let state = State::from_seed(Rules::default(), &Seed::from_u64(3)).unwrap();
//! let view = state.view(Seat(1));
//! let sample = view.sample(&mut FastRng::new(9)).unwrap();
//! assert_eq!(sample.view(Seat(1)), view);
//! ```

mod deal;
mod knowledge;
mod layout;
pub mod notation;
mod playout;
mod resample;
mod rules;
mod state;
mod tile;
mod tree;
mod view;

pub use deal::{shuffle, uniform_below, ChaCha20, Deal, DealError, FastRng, Seed, SHUFFLE_VERSION};
pub use knowledge::{RebuildError, SeatKnowledge};
pub use layout::{ArmId, Layout, MAX_ARMS};
pub use playout::{perft, play_out, random_hand, random_hand_in_place};
pub use resample::{ResampleError, Sampler};
pub use rules::{
    default_hand, max_hand, max_players, Award, BlockedTie, FirstLead, GameEnd, MugginsCall,
    NextLead, NoDouble, PlayScoring, Preset, Rules, RulesError, SpinnerRule, SproutRule,
    PARTY_TARGET, SUBTRACT_OWN_HANDS,
};
pub use state::{
    round5, round5_share, Action, ActionList, Entry, HandEnd, HandResult, HandStart, IllegalAction,
    LeadKind, Outcome, Phase, SetupError, State,
};
pub use tile::{
    set_size, BySeat, BySide, ParseTileError, Pip, PipSet, Seat, Side, Tile, TileSet, MAX_PIP,
    MAX_SEATS, TILE_COUNT,
};
pub use tree::{Anchor, ArmLine, LayoutTree, Placed};
pub use view::{View, ViewData};
