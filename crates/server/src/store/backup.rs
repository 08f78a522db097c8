//! Online backups of an SQLite database while the server runs (`fiveup backup`).
//!
//! SQLite's online backup API copies the database page by page through a connection of its
//! own. The copy is made in **one step**, inside one read transaction: in WAL mode a reader
//! does not block the server's writer (nor the writer it), so play goes on while the copy is
//! made, and the copy is the database exactly as it stood at one commit (every change
//! acknowledged before the backup began is in it, and no table is torn between two versions).
//! A copy made in several steps would restart each time the server committed and might never
//! end on a busy server.
//!
//! The copy is written to a new file next to the destination and renamed into place only once
//! it is complete and has passed SQLite's integrity check, so a failed or interrupted backup
//! never leaves a file that looks like a backup. PostgreSQL is backed up with its own tool,
//! `pg_dump` (see `docs/server.md`, "Backups").

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::db::{is_sqlite, normalize_url};

/// What a backup copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupReport {
    /// The backup file.
    pub file: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Unfinished tables in it (a server started on it resumes each of them).
    pub unfinished_tables: i64,
    /// Finished games in it.
    pub games: i64,
    /// Accounts and guests in it.
    pub users: i64,
}

/// The file of an SQLite `--database` value (a path or an `sqlite:` URL).
///
/// # Errors
/// When the value names PostgreSQL or an in-memory database.
pub fn sqlite_file(database: &str) -> Result<PathBuf, String> {
    if !is_sqlite(database) {
        return Err(
            "this is a PostgreSQL database: back it up with pg_dump (see docs/server.md, \
             \"Backups\")"
                .to_string(),
        );
    }
    let url = normalize_url(database);
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(&url);
    let path = rest.split('?').next().unwrap_or(rest);
    if path.is_empty() || path == ":memory:" {
        return Err("an in-memory database has nothing to back up".to_string());
    }
    Ok(PathBuf::from(path))
}

fn count(conn: &Connection, sql: &str) -> Result<i64, String> {
    conn.query_row(sql, [], |r| r.get(0))
        .map_err(|e| format!("the backup cannot be read ({sql}): {e}"))
}

/// Copy the SQLite database `database` to the new file `dest`, online.
///
/// # Errors
/// When the database is not an SQLite file that exists, `dest` already exists (nothing is
/// overwritten), or the copy fails or does not pass the integrity check; `dest` is then not
/// created.
pub fn backup_sqlite(database: &str, dest: &Path) -> Result<BackupReport, String> {
    let src_path = sqlite_file(database)?;
    if !src_path.is_file() {
        return Err(format!("no database file at {}", src_path.display()));
    }
    if dest.exists() {
        return Err(format!(
            "{} already exists: a backup never overwrites a file, choose a new name",
            dest.display()
        ));
    }
    let name = dest
        .file_name()
        .ok_or_else(|| format!("{} is not a file name", dest.display()))?;
    let mut partial_name = name.to_os_string();
    partial_name.push(".partial");
    let partial = dest.with_file_name(partial_name);
    let _ = std::fs::remove_file(&partial);
    let result = copy(&src_path, &partial);
    match result {
        Ok(mut report) => {
            std::fs::rename(&partial, dest)
                .map_err(|e| format!("cannot move the backup to {}: {e}", dest.display()))?;
            report.file = dest.to_path_buf();
            Ok(report)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}

fn copy(src_path: &Path, partial: &Path) -> Result<BackupReport, String> {
    // Read-write without create: a read-only connection to a WAL database needs the shared
    // memory file to exist already. Nothing is written through this connection.
    let src = Connection::open_with_flags(
        src_path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("cannot open {}: {e}", src_path.display()))?;
    src.busy_timeout(Duration::from_secs(10))
        .map_err(|e| e.to_string())?;
    let mut dst = Connection::open(partial)
        .map_err(|e| format!("cannot create {}: {e}", partial.display()))?;
    {
        let backup = rusqlite::backup::Backup::new(&src, &mut dst)
            .map_err(|e| format!("cannot start the backup: {e}"))?;
        // -1: every page in one step, so the copy is one consistent snapshot (see above). A
        // busy or locked source (a checkpoint, a recovery) is tried again for a while.
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            match backup.step(-1) {
                Ok(rusqlite::backup::StepResult::Done) => break,
                Ok(_) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Ok(_) => return Err("the database stayed busy for 30 s: try again".to_string()),
                Err(e) => return Err(format!("the backup failed: {e}")),
            }
        }
    }
    let check: String = dst
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(|e| format!("cannot check the backup: {e}"))?;
    if check != "ok" {
        return Err(format!(
            "the backup failed SQLite's integrity check: {check}"
        ));
    }
    let unfinished_tables = count(
        &dst,
        "SELECT COUNT(*) FROM game_tables WHERE status <> 'finished'",
    )?;
    let games = count(&dst, "SELECT COUNT(*) FROM games")?;
    let users = count(&dst, "SELECT COUNT(*) FROM users")?;
    dst.close().map_err(|(_, e)| e.to_string())?;
    let file = std::fs::File::open(partial).map_err(|e| e.to_string())?;
    file.sync_all().map_err(|e| e.to_string())?;
    let bytes = file.metadata().map_err(|e| e.to_string())?.len();
    Ok(BackupReport {
        file: partial.to_path_buf(),
        bytes,
        unfinished_tables,
        games,
        users,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_values_name_their_file() {
        assert_eq!(
            sqlite_file("fiveup.db").unwrap(),
            PathBuf::from("fiveup.db")
        );
        assert_eq!(
            sqlite_file("sqlite:///var/lib/fiveup/f.db?mode=rwc").unwrap(),
            PathBuf::from("/var/lib/fiveup/f.db")
        );
        assert!(sqlite_file("postgres://u@h/db")
            .unwrap_err()
            .contains("pg_dump"));
        assert!(sqlite_file("sqlite::memory:").is_err());
    }

    #[test]
    fn a_backup_never_overwrites_and_leaves_nothing_when_it_fails() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("b.db");
        std::fs::write(&dest, b"precious").unwrap();
        let src = dir.path().join("missing.db");
        let e = backup_sqlite(src.to_str().unwrap(), &dest).unwrap_err();
        assert!(e.contains("no database file"), "{e}");
        // A source that is not a database: nothing is left behind.
        let junk = dir.path().join("junk.db");
        std::fs::write(&junk, b"not a database at all, just text").unwrap();
        let dest2 = dir.path().join("c.db");
        assert!(backup_sqlite(junk.to_str().unwrap(), &dest2).is_err());
        assert!(!dest2.exists());
        assert!(!dir.path().join("c.db.partial").exists());
        // An existing destination is refused and kept.
        let e = backup_sqlite(junk.to_str().unwrap(), &dest).unwrap_err();
        assert!(e.contains("already exists"), "{e}");
        assert_eq!(std::fs::read(&dest).unwrap(), b"precious");
    }
}
