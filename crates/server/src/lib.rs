//! # fiveup-server
pub mod fairness;
