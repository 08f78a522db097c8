//! # fiveup-outside
//!
//! Outside engines: programs of anyone's, in any language, that play Five Up by speaking the
//! `fiveup-engine/1` protocol (one JSON object per line on standard input and output; see
//! `docs/engine-protocol.md`), the way chess programs speak UCI.
//!
//! - [`messages`]: the protocol's messages, for fiveup and for bridges that relay them.
//! - [`encode`]: the messages made from a seat's [`View`](fiveup_engine::View) and nothing
//!   else, so no hidden tile can reach an engine.
//! - [`child`]: an engine process read and written by threads, with bounded lines and queues.
//! - [`player`]: an engine as a [`Player`](fiveup_bots::Player) of the bots crate, with its
//!   time limits, fallback moves, strikes and forfeit; [`Roster`] makes the players of a match.
//! - [`serve`]: the other side: a built-in player speaking the protocol (`fiveup engine`).

pub mod child;
pub mod encode;
pub mod messages;
pub mod player;
pub mod serve;

pub use encode::Encoder;
pub use messages::{FromEngine, ToEngine, PROTOCOL};
pub use player::{
    Conduct, EngineConfig, EngineHost, EnginePlayer, FaultKind, Roster, Strike, ENGINE_PREFIX,
    STRIKES,
};
pub use serve::Served;
