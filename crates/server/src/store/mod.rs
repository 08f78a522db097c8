//! Storage: what survives a restart. The lowest layer of the server: it imports nothing from
//! the table runtime or the concerns above it.
//!
//! - [`db`]: SQLite and PostgreSQL through one layer, the migrations, the group-commit writer;
//! - [`dblock`]: which servers may share a PostgreSQL database;
//! - [`backup`]: online backups of an SQLite database (`fiveup backup`).

pub mod backup;
pub mod db;
pub mod dblock;
