//! # fiveup-tui
//!
//! Five Up in the terminal: the full-screen game, the line-based plain mode and the replay
//! viewer behind `fiveup play`.

pub mod app;
pub mod board;
pub mod game;
pub mod plain;
pub mod screen;
pub mod tally;
pub mod term;
pub mod ui;
