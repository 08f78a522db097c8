//! The table runtime: everything that runs one table's game.
//!
//! - [`state`]: one table's game as a pure state machine over its stored changes (its items are
//!   re-exported here: `table::TableCore`, `table::Stored`, ...);
//! - [`config`]: what a table is: its settings, its kind and clocks, whether it counts;
//! - [`project`]: the one projection from a table and a viewer to what that viewer may see;
//! - [`actor`]: one task per table, the hub that finds them, computer players and timers;
//! - [`hooks`]: the events a table publishes and the concerns registered to hear them;
//! - [`compute`]: the computer players' CPU, shared fairly between owners;
//! - [`cluster`]: several instances on one database: table leases, takeovers, the bus;
//! - [`outcome`]: a finished hand explained for people;
//! - [`fairness`]: verifiable deals (commit and reveal).

pub mod actor;
pub mod cluster;
pub mod compute;
pub mod config;
pub mod fairness;
pub mod hooks;
pub mod outcome;
pub mod project;
pub mod state;

pub use config::*;
pub use state::*;
