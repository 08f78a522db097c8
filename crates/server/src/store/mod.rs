//! Storage and leases: what survives a restart, and who runs what.
//!
//! - [`db`]: SQLite and PostgreSQL through one layer, the migrations, the group-commit writer;
//! - [`dblock`]: which servers may share a PostgreSQL database;
//! - [`leases`]: table leases, takeovers and the bus between instances;
//! - [`janitor`]: the housekeeping every minute;
//! - [`backup`]: online backups of an SQLite database (`fiveup backup`).

pub mod backup;
pub mod db;
pub mod dblock;
pub mod janitor;
pub mod leases;
