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
//! The copy is written to a temporary file of its own next to the destination
//! (`NAME.partial-` and 16 random hex digits, created with mode 0600: a backup holds password,
//! session and token hashes and the VAPID private key) and linked into place only once it is
//! complete and has passed SQLite's integrity check, never over an existing file. So a failed
//! backup never leaves a file that looks like one, two backups to one name do not write into
//! one file (the second to finish is told the name is taken), and no file of the operator's is
//! deleted. Every failure removes the temporary file and SQLite's journal files beside it; a
//! backup killed outright (SIGKILL, power loss) cannot, and the next backup into that folder
//! removes what it left: each backup holds an advisory lock (`flock`) on its temporary file
//! while it runs, so a temporary file nobody holds a lock on is left over. PostgreSQL is backed
//! up with its own tool, `pg_dump` (see `docs/server.md`, "Backups").

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

/// Copy the SQLite database `database` to the new file `dest` (mode 0600), online.
///
/// # Errors
/// When the database is not an SQLite file that exists, `dest` already exists (nothing is
/// overwritten; also when another backup to that name finished first), or the copy fails or
/// does not pass the integrity check; `dest` is then not created, and nothing of this backup
/// is left behind.
pub fn backup_sqlite(database: &str, dest: &Path) -> Result<BackupReport, String> {
    let src_path = sqlite_file(database)?;
    if !src_path.is_file() {
        return Err(format!("no database file at {}", src_path.display()));
    }
    let taken = || {
        format!(
            "{} already exists: a backup never overwrites a file, choose a new name",
            dest.display()
        )
    };
    if dest.exists() {
        return Err(taken());
    }
    let name = dest
        .file_name()
        .ok_or_else(|| format!("{} is not a file name", dest.display()))?;
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    remove_stale(&dir);
    let partial = Partial::create(&dir, name)?;
    let mut report = copy(&src_path, &partial.path)?;
    // A link never replaces a file: of two backups to one name the second to finish is told.
    match std::fs::hard_link(&partial.path, dest) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(taken()),
        // A file system without hard links: rename, having looked first.
        Err(_) if !dest.exists() => std::fs::rename(&partial.path, dest)
            .map_err(|e| format!("cannot move the backup to {}: {e}", dest.display()))?,
        Err(_) => return Err(taken()),
    }
    drop(partial);
    report.file = dest.to_path_buf();
    Ok(report)
}

/// What marks a backup's temporary file: `NAME.partial-` and this many hex digits.
const PARTIAL: &str = ".partial-";
const PARTIAL_DIGITS: usize = 16;

/// SQLite's files beside a database.
const SIDECARS: [&str; 3] = ["-journal", "-wal", "-shm"];

/// A backup's temporary file, locked while it is written, removed with SQLite's files beside
/// it when dropped (the copy is linked into place before that).
struct Partial {
    path: PathBuf,
    /// Open (and locked) until the end.
    _file: std::fs::File,
}

impl Partial {
    fn create(dir: &Path, name: &std::ffi::OsStr) -> Result<Partial, String> {
        let mut tries = 0;
        loop {
            match Partial::try_create(dir, name)? {
                Some(p) => return Ok(p),
                None if tries < 3 => tries += 1,
                None => {
                    return Err(
                        "other backups in the folder keep removing this one's file: try again"
                            .to_string(),
                    )
                }
            }
        }
    }

    /// A new temporary file, or `None` if another backup took it for a killed one's and
    /// removed it before it was locked.
    fn try_create(dir: &Path, name: &std::ffi::OsStr) -> Result<Option<Partial>, String> {
        let mut bytes = [0u8; PARTIAL_DIGITS / 2];
        getrandom::fill(&mut bytes).map_err(|e| e.to_string())?;
        let mut file_name = name.to_os_string();
        file_name.push(PARTIAL);
        file_name.push(crate::table::fairness::to_hex(&bytes));
        let path = dir.join(file_name);
        let mut open = std::fs::OpenOptions::new();
        open.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut open, 0o600);
        let file = open
            .open(&path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive)
                .map_err(|e| format!("cannot lock {}: {e}", path.display()))?;
            // Another backup clearing the folder may have taken it for a killed backup's
            // between its creation and the lock: then it is gone.
            let ours = file.metadata().map(|m| m.ino()).ok();
            let there = std::fs::metadata(&path).map(|m| m.ino()).ok();
            if ours.is_none() || ours != there {
                return Ok(None);
            }
        }
        Ok(Some(Partial { path, _file: file }))
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        remove_with_sidecars(&self.path);
    }
}

fn remove_with_sidecars(path: &Path) {
    let _ = std::fs::remove_file(path);
    for s in SIDECARS {
        let mut p = path.as_os_str().to_os_string();
        p.push(s);
        let _ = std::fs::remove_file(p);
    }
}

/// Whether a file name is a backup's temporary file (`NAME.partial-` and 16 hex digits).
fn is_partial(name: &str) -> bool {
    name.rsplit_once(PARTIAL).is_some_and(|(base, digits)| {
        !base.is_empty()
            && digits.len() == PARTIAL_DIGITS
            && digits.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

/// Remove the temporary files that killed backups left in `dir`: those no backup holds a lock
/// on, with SQLite's files beside them (and such files whose temporary file is gone).
fn remove_stale(dir: &Path) {
    #[cfg(unix)]
    {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(name) = name.to_str() else {
                continue;
            };
            let path = e.path();
            if is_partial(name) {
                let Ok(file) = std::fs::OpenOptions::new().read(true).open(&path) else {
                    continue;
                };
                // Held: a backup is writing it.
                if rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive)
                    .is_ok()
                {
                    remove_with_sidecars(&path);
                }
            } else if let Some(main) = SIDECARS
                .iter()
                .find_map(|s| name.strip_suffix(s))
                .filter(|m| is_partial(m))
            {
                if !dir.join(main).exists() {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
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
        assert_eq!(names(dir.path()), ["b.db", "junk.db"]);
        // An existing destination is refused and kept.
        let e = backup_sqlite(junk.to_str().unwrap(), &dest).unwrap_err();
        assert!(e.contains("already exists"), "{e}");
        assert_eq!(std::fs::read(&dest).unwrap(), b"precious");
    }

    /// The files in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// A database with the tables a backup counts, in WAL mode as the server's.
    fn source(dir: &Path) -> String {
        let path = dir.join("src.db");
        let c = Connection::open(&path).unwrap();
        c.execute_batch(
            "PRAGMA journal_mode=WAL; CREATE TABLE game_tables (status TEXT); \
             CREATE TABLE games (id INTEGER); CREATE TABLE users (id INTEGER); \
             INSERT INTO users VALUES (1), (2);",
        )
        .unwrap();
        path.display().to_string()
    }

    #[cfg(unix)]
    #[test]
    fn a_backup_is_private_and_leaves_only_itself() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let src = source(dir.path());
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let r = backup_sqlite(&src, &out.join("b.db")).unwrap();
        assert_eq!(r.users, 2);
        assert_eq!(names(&out), ["b.db"]);
        let mode = std::fs::metadata(out.join("b.db"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }

    #[cfg(unix)]
    #[test]
    fn killed_backups_files_go_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let src = source(dir.path());
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let put = |n: &str| std::fs::write(out.join(n), b"x").unwrap();
        // What killed backups left: a temporary file and its journal, a journal alone.
        put("a.db.partial-0123456789abcdef");
        put("a.db.partial-0123456789abcdef-journal");
        put("z.db.partial-fedcba9876543210-wal");
        // The operator's files, and a running backup's file (locked).
        put("a.db.partial");
        put("a.db.partial-0123");
        put("notes.partial-0123456789abcdeg");
        put("b.db.partial-00000000000000ff");
        let running = std::fs::File::open(out.join("b.db.partial-00000000000000ff")).unwrap();
        rustix::fs::flock(&running, rustix::fs::FlockOperation::LockExclusive).unwrap();
        backup_sqlite(&src, &out.join("a.db")).unwrap();
        assert_eq!(
            names(&out),
            [
                "a.db",
                "a.db.partial",
                "a.db.partial-0123",
                "b.db.partial-00000000000000ff",
                "notes.partial-0123456789abcdeg"
            ]
        );
        assert!(is_partial("x.partial-0123456789ABCDEF"));
        assert!(!is_partial(".partial-0123456789abcdef"));
    }

    #[test]
    fn of_two_backups_to_one_name_one_wins_and_the_other_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let src = source(dir.path());
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let dest = out.join("b.db");
        let results: Vec<Result<BackupReport, String>> = std::thread::scope(|s| {
            let a = s.spawn(|| backup_sqlite(&src, &dest));
            let b = s.spawn(|| backup_sqlite(&src, &dest));
            vec![a.join().unwrap(), b.join().unwrap()]
        });
        assert_eq!(
            results.iter().filter(|r| r.is_ok()).count(),
            1,
            "{results:?}"
        );
        let e = results.iter().find_map(|r| r.clone().err()).unwrap();
        assert!(e.contains("already exists"), "{e}");
        assert_eq!(names(&out), ["b.db"]);
    }
}
