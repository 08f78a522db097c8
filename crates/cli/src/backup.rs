//! `fiveup backup`: an online backup of the server's SQLite database while it runs.

use fiveup_server::store::backup::backup_sqlite;

/// Options of `fiveup backup`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The server's database: its SQLite file (or `sqlite:` URL), as given to `fiveup serve`.
    /// PostgreSQL is backed up with `pg_dump` (docs/server.md, "Backups").
    #[arg(long, default_value = "fiveup.db")]
    pub database: String,
    /// The backup file to create (never overwritten).
    #[arg(long)]
    pub to: std::path::PathBuf,
}

/// Run `fiveup backup`.
pub fn run(a: &Args) -> Result<(), String> {
    let r = backup_sqlite(&a.database, &a.to)?;
    crate::outln!(
        "backed up {} to {}: {} bytes, {} unfinished tables, {} finished games, {} accounts",
        a.database,
        r.file.display(),
        r.bytes,
        r.unfinished_tables,
        r.games,
        r.users
    );
    crate::outln!(
        "to restore: stop the server, remove the old database file with its -wal and -shm \
         files, put this file in its place, and start the server"
    );
    Ok(())
}
