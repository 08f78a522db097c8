//! `fiveup serve` as a process: killed with SIGKILL mid-game and restarted, no acknowledged
//! action is lost; SIGTERM stops it cleanly; `fiveup verify` checks the finished game's record.

#[path = "../../server/tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};

use common::*;
use fiveup_protocol::{ClientMsg, ServerMsg, TableInfo};
use serde_json::json;

/// Start `fiveup serve` on a free port; returns the process and its address.
fn serve(db: &str) -> (Proc, SocketAddr) {
    serve_with(db, &[])
}

/// [`serve`] with more options.
fn serve_with(db: &str, more: &[&str]) -> (Proc, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--database",
            db,
            "--bot-delay-ms",
            "0",
            "--http-rate",
            "0",
            "--ws-rate",
            "1000",
        ])
        .args(more)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fiveup serve starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server says where it listens")
            .unwrap();
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.split(' ').next().unwrap().parse().unwrap();
        }
    };
    // Keep reading the log so the pipe never fills.
    std::thread::spawn(move || for _ in lines.by_ref() {});
    (Proc(child), addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_loses_no_acknowledged_action() {
    let dir = tempfile::tempdir().unwrap();
    for (backend, db) in databases(dir.path(), "kill").await {
        killed_and_restarted(dir.path(), &db).await;
        eprintln!("kill -9 on {backend}: ok");
    }
}

async fn killed_and_restarted(dir: &std::path::Path, db: &str) {
    let (mut child, addr) = serve(db);
    let (ann, _) = guest(addr, "Ann").await;
    let a = post(
        addr,
        "/api/tables",
        Some(&ann),
        &json!({"rules": "five-up target=250", "seats": [{"kind": "me"}, {"kind": "bot", "level": "random"}]}),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let t: TableInfo = a.json();
    let mut c = connect(addr, Some(&ann)).await;
    c.open(&t.id, None).await;
    // Play, one acknowledged command at a time, keeping every acknowledgement.
    let mut acked: Vec<(ClientMsg, u64)> = Vec::new();
    while acked.len() < 25 {
        let Some(mut m) = c.due() else {
            c.recv().await;
            continue;
        };
        let id = c.id();
        match &mut m {
            ClientMsg::Seed { id: x, .. } | ClientMsg::Act { id: x, .. } => *x = id,
            _ => {}
        }
        c.send(&m).await;
        match c
            .until(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. }))
            .await
        {
            ServerMsg::Ack { version, .. } => acked.push((m, version)),
            e => panic!("{e:?}"),
        }
        assert!(!c.over(), "the game ended too soon for this test");
    }
    // SIGKILL right after the last acknowledgement.
    child.0.kill().unwrap();
    child.0.wait().unwrap();
    drop(c);

    let (mut child, addr) = serve(db);
    let mut c = connect(addr, Some(&ann)).await;
    let view = c.open(&t.id, None).await;
    let last = acked.last().unwrap().1;
    assert!(
        view.table.version >= last,
        "version {} after the restart, {last} acknowledged",
        view.table.version
    );
    // Every acknowledged command is stored: sent again, it gets the same acknowledgement.
    for (m, version) in &acked {
        c.send(m).await;
        match c
            .until(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. }))
            .await
        {
            ServerMsg::Ack { version: v, .. } => assert_eq!(v, *version),
            e => panic!("an acknowledged command was lost: {m:?} got {e:?}"),
        }
    }
    // The game goes on to its end.
    let mut clients = vec![c];
    play_out(&mut clients, 10_000).await;
    let record = get(addr, &format!("/api/games/{}/record.txt", t.id), None).await;
    assert_eq!(record.status, 200);
    let file = dir.join("game.txt");
    std::fs::write(&file, &record.body).unwrap();

    // SIGTERM: a clean stop.
    let pid = child.0.id().to_string();
    let st = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(st.success());
    let status = child.0.wait().unwrap();
    assert!(status.success(), "{status:?}");

    // fiveup verify re-derives every deal; a tampered record fails with a clear message.
    let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["verify", file.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("hand 1: ok"), "{text}");
    let key = "[Hand1Commit \"";
    let at = record.body.find(key).unwrap() + key.len();
    let mut bad = record.body.clone();
    let c0 = if &bad[at..=at] == "f" { "e" } else { "f" };
    bad.replace_range(at..=at, c0);
    let bad_file = dir.join("bad.txt");
    std::fs::write(&bad_file, bad).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["verify", bad_file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("hand 1: FAILED") && text.contains("commitment"),
        "{text}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("do not verify"), "{err}");
}

/// A program from PostgreSQL's client tools: on the `PATH`, or in Debian's versioned folder.
fn pg_tool(name: &str) -> std::path::PathBuf {
    if let Ok(out) = Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
    {
        let p = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if out.status.success() && !p.is_empty() {
            return p.into();
        }
    }
    let mut dirs: Vec<_> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    dirs.sort_by_key(|d| {
        d.file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.parse::<u32>().ok())
            .unwrap_or(0)
    });
    let p = dirs.last().map(|d| d.join("bin").join(name));
    match p {
        Some(p) if p.exists() => p,
        _ => panic!("{name} is needed to back up PostgreSQL (install PostgreSQL's client tools)"),
    }
}

/// Back up `db` while it is in use: `fiveup backup` for SQLite, `pg_dump` into a fresh
/// database for PostgreSQL. Returns what a restored server is started on.
fn back_up(dir: &std::path::Path, db: &str) -> String {
    if !db.starts_with("postgres") {
        let to = dir.join("backup.db");
        let out = Command::new(env!("CARGO_BIN_EXE_fiveup"))
            .args(["backup", "--database", db, "--to", to.to_str().unwrap()])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("unfinished tables"), "{text}");
        // Asked again, it refuses to overwrite the backup.
        let again = Command::new(env!("CARGO_BIN_EXE_fiveup"))
            .args(["backup", "--database", db, "--to", to.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(!again.status.success());
        assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
        return to.display().to_string();
    }
    // The test's database is a schema of its own in the server named by the URL: dump that
    // schema (pg_dump takes one consistent snapshot while the server writes) and load it into
    // a new database, as docs/server.md says.
    let (base, options) = db.split_once('?').unwrap();
    let schema = options.rsplit("search_path%3D").next().unwrap();
    let dump = dir.join("backup.sql");
    let out = Command::new(pg_tool("pg_dump"))
        .args(["--no-owner", "--schema", schema, "--file"])
        .arg(&dump)
        .arg(base)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let restored = format!("r_{schema}");
    let st = Command::new(pg_tool("psql"))
        .args(["-q", "-v", "ON_ERROR_STOP=1", base, "-c"])
        .arg(format!("CREATE DATABASE {restored}"))
        .status()
        .unwrap();
    assert!(st.success());
    let (server, _) = base.rsplit_once('/').unwrap();
    let target = format!("{server}/{restored}");
    let out = Command::new(pg_tool("psql"))
        .args(["-q", "-v", "ON_ERROR_STOP=1", &target, "-f"])
        .arg(&dump)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    format!("{target}?{options}")
}

/// The files of `dir`: name, size and permission bits, sorted by name.
fn listing(dir: &std::path::Path) -> Vec<(String, u64, u32)> {
    use std::os::unix::fs::PermissionsExt as _;
    let mut v: Vec<(String, u64, u32)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let m = e.metadata().unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                m.len(),
                m.permissions().mode() & 0o777,
            )
        })
        .collect();
    v.sort();
    v
}

fn shown(files: &[(String, u64, u32)]) -> String {
    files
        .iter()
        .map(|(n, len, mode)| format!("{n} ({:.1} MB, {mode:o})", *len as f64 / 1e6))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A line past the test harness's capture, so that it shows in every run.
fn report(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// `fiveup backup` under umask 022, as a process.
fn backup_cmd(db: &std::path::Path, to: &std::path::Path) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg("umask 022; exec \"$0\" backup --database \"$1\" --to \"$2\"")
        .arg(env!("CARGO_BIN_EXE_fiveup"))
        .arg(db)
        .arg(to);
    c
}

/// The review's attack on `fiveup backup`: one killed with SIGKILL mid-copy, two run at once
/// to one name beside an operator's file `NAME.partial`, under umask 022. A killed backup's
/// file is private and removed by the next backup; of the two, one makes the copy and the
/// other says the name is taken; the operator's file is kept; every copy is mode 0600.
#[test]
fn killed_and_racing_backups_leave_nothing_behind_and_copies_are_private() {
    let dir = tempfile::tempdir().unwrap();
    // A database of about 60 MB, with the tables a backup counts.
    let db = dir.path().join("big.db");
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        use sqlx::Connection as _;
        let url = format!("sqlite://{}?mode=rwc", db.display());
        let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
        for q in [
            "PRAGMA journal_mode=WAL",
            "CREATE TABLE game_tables (status TEXT)",
            "CREATE TABLE games (id INTEGER)",
            "CREATE TABLE users (id INTEGER, hash TEXT)",
            "INSERT INTO users VALUES (1, 'argon2id hash')",
            "CREATE TABLE filler (b BLOB)",
            "INSERT INTO filler WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 \
             FROM n WHERE x < 600) SELECT randomblob(100000) FROM n",
        ] {
            sqlx::query(q).execute(&mut c).await.unwrap();
        }
        c.close().await.unwrap();
    });
    let out = dir.path().join("backups");
    std::fs::create_dir(&out).unwrap();
    let t = std::time::Instant::now();
    // Killed once it has written a megabyte of its copy.
    let mut child = backup_cmd(&db, &out.join("k.db"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    loop {
        let big = listing(&out)
            .iter()
            .any(|(n, len, _)| n.starts_with("k.db.partial") && *len > 1_000_000);
        if big || t.elapsed() > std::time::Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let left = listing(&out);
    report(&format!(
        "attack: fiveup backup killed with SIGKILL mid-copy: left {}",
        shown(&left)
    ));
    assert!(
        left.iter()
            .all(|(n, _, mode)| n.starts_with("k.db.partial-") && *mode == 0o600),
        "{left:?}"
    );
    // Two at once to one name, beside the operator's r.db.partial.
    std::fs::write(out.join("r.db.partial"), b"the operator's").unwrap();
    let racers: Vec<std::process::Child> = (0..2)
        .map(|_| {
            backup_cmd(&db, &out.join("r.db"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let results: Vec<(bool, String)> = racers
        .into_iter()
        .map(|c| {
            let o = c.wait_with_output().unwrap();
            (
                o.status.success(),
                String::from_utf8_lossy(&o.stderr).trim().to_string(),
            )
        })
        .collect();
    let raced = listing(&out);
    report(&format!(
        "attack: two fiveup backups to one name: {} of 2 made the copy, the other said {:?}; \
         then {}",
        results.iter().filter(|r| r.0).count(),
        results.iter().find(|r| !r.0).map_or("", |r| r.1.as_str()),
        shown(&raced)
    ));
    assert_eq!(results.iter().filter(|r| r.0).count(), 1, "{results:?}");
    assert!(
        results
            .iter()
            .any(|r| !r.0 && r.1.contains("already exists")),
        "{results:?}"
    );
    assert_eq!(
        std::fs::read(out.join("r.db.partial")).unwrap(),
        b"the operator's"
    );
    // The killed backup's files are gone (its lock went with it); only the copy and the
    // operator's file remain, the copy readable by its owner only.
    let names: Vec<&str> = raced.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["r.db", "r.db.partial"], "{raced:?}");
    assert_eq!(raced[0].2, 0o600, "{raced:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_during_play_restores_a_server_that_resumes_every_table() {
    let dir = tempfile::tempdir().unwrap();
    for (backend, db) in databases(dir.path(), "backup").await {
        let sub = dir.path().join(&backend);
        std::fs::create_dir_all(&sub).unwrap();
        backed_up_and_restored(&sub, &db).await;
        eprintln!("backup and restore on {backend}: ok");
    }
}

async fn backed_up_and_restored(dir: &std::path::Path, db: &str) {
    // Three: the most tables with computer players one person may have by default.
    const TABLES: usize = 3;
    let (mut child, addr) = serve(db);
    let (ann, _) = guest(addr, "Ann").await;
    let mut ids = Vec::new();
    let mut clients = Vec::new();
    for _ in 0..TABLES {
        let a = post(
            addr,
            "/api/tables",
            Some(&ann),
            &json!({"rules": "five-up target=1000",
                    "seats": [{"kind": "me"}, {"kind": "bot", "level": "random"}]}),
        )
        .await;
        assert_eq!(a.status, 201, "{}", a.body);
        let t: TableInfo = a.json();
        let mut c = connect(addr, Some(&ann)).await;
        c.open(&t.id, None).await;
        ids.push(t.id);
        clients.push(c);
    }
    // Play a while, then back up while every table goes on playing.
    let played = |cs: &[Client]| cs.iter().all(|c| c.events.len() >= 30);
    play_until(&mut clients, 100_000, played).await;
    let before: Vec<u64> = clients
        .iter()
        .map(|c| c.view.as_ref().unwrap().table.version)
        .collect();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = done.clone();
    let (dirc, dbc) = (dir.to_path_buf(), db.to_string());
    let backup = tokio::task::spawn_blocking(move || {
        // Play stops when the backup ends, also when it fails.
        struct Done(std::sync::Arc<std::sync::atomic::AtomicBool>);
        impl Drop for Done {
            fn drop(&mut self) {
                self.0.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        }
        let _done = Done(flag);
        back_up(&dirc, &dbc)
    });
    let during = play_until(&mut clients, 100_000, |_| {
        done.load(std::sync::atomic::Ordering::SeqCst)
    });
    let (restored, _) = tokio::join!(backup, during);
    let restored = restored.unwrap();
    // A little more play after the backup, then the server stops.
    let after_backup = clients
        .iter()
        .map(|c| c.events.len() + 10)
        .collect::<Vec<_>>();
    play_until(&mut clients, 100_000, |cs| {
        cs.iter()
            .zip(&after_backup)
            .all(|(c, n)| c.over() || c.events.len() >= *n)
    })
    .await;
    let after: Vec<u64> = clients
        .iter()
        .map(|c| c.view.as_ref().unwrap().table.version)
        .collect();
    assert!(
        clients.iter().all(|c| !c.over()),
        "a game ended too soon for this test"
    );
    drop(clients);
    child.0.kill().unwrap();
    child.0.wait().unwrap();

    // A server on the backup resumes every table: each at a version between what was
    // acknowledged when the backup began and what was played by the end, and each plays on to
    // its end (the sessions are in the backup too).
    let (_child, addr) = serve(&restored);
    let mut clients = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let mut c = connect(addr, Some(&ann)).await;
        let v = c.open(id, None).await;
        assert!(
            v.table.version >= before[i] && v.table.version <= after[i],
            "table {id}: version {} in the backup, {} acknowledged before it began, {} at the end",
            v.table.version,
            before[i],
            after[i]
        );
        assert_ne!(v.table.status, fiveup_protocol::TableStatus::Finished);
        clients.push(c);
    }
    play_out(&mut clients, 100_000).await;
    for id in &ids {
        let record = get(addr, &format!("/api/games/{id}/record.txt"), None).await;
        assert_eq!(
            record.status, 200,
            "table {id} finished on the restored server"
        );
    }
}

/// A tool the deployment checks need, or `None` with a note saying what was skipped.
fn tool(name: &str, what: &str) -> Option<std::path::PathBuf> {
    let found = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .chain(["/usr/sbin", "/sbin"].map(std::path::PathBuf::from))
        .map(|d| d.join(name))
        .find(|p| p.is_file());
    if found.is_none() {
        eprintln!("note: {what}: skipped, it needs {name} (.ci/run installs it)");
    }
    found
}

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

#[test]
fn the_systemd_unit_verifies_with_its_hardening() {
    let Some(analyze) = tool("systemd-analyze", "systemd unit") else {
        return;
    };
    let unit = std::fs::read_to_string(format!("{ROOT}/deploy/fiveup.service")).unwrap();
    for needed in [
        "DynamicUser=yes",
        "StateDirectory=fiveup",
        "ProtectSystem=strict",
        "NoNewPrivileges=yes",
        "LimitNOFILE=",
        "KillSignal=SIGTERM",
    ] {
        assert!(unit.contains(needed), "the unit sets {needed}");
    }
    // Checked against this build's binary (systemd-analyze checks that it exists).
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fiveup.service");
    std::fs::write(
        &file,
        unit.replace("/usr/local/bin/fiveup", env!("CARGO_BIN_EXE_fiveup")),
    )
    .unwrap();
    let out = Command::new(analyze)
        .arg("verify")
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // Unknown or misspelt settings are only warned about: there must be none.
    assert!(err.trim().is_empty(), "systemd-analyze warns: {err}");
}

#[test]
fn the_compose_file_validates() {
    let Some(compose) = tool("docker-compose", "compose file") else {
        return;
    };
    let file = format!("{ROOT}/deploy/compose.yaml");
    let out = Command::new(&compose)
        .args(["-f", &file, "config"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // PostgreSQL, three named instances of the image, and the proxy with its TLS settings.
    for needed in [
        "postgres:15",
        "--instance=a",
        "--instance=b",
        "--instance=c",
        "haproxy-tls.cfg",
        "443",
    ] {
        assert!(
            text.contains(needed),
            "the resolved compose file has {needed}:\n{text}"
        );
    }
    let cfg = std::fs::read_to_string(format!("{ROOT}/deploy/haproxy-tls.cfg")).unwrap();
    for ip in ["172.30.0.11", "172.30.0.12", "172.30.0.13"] {
        assert!(text.contains(ip) && cfg.contains(ip), "{ip} in both files");
    }
    let docker = std::fs::read_to_string(format!("{ROOT}/Dockerfile")).unwrap();
    assert!(
        docker.contains("USER 65532"),
        "the image runs as a non-root user"
    );
    assert!(docker.contains("VOLUME [\"/data\"]"));
}

/// `curl` with its output: the status line and headers (`-i`), then the body.
fn curl(args: &[&str]) -> String {
    let out = Command::new("curl")
        .args(["-s", "-i", "--max-time", "5"])
        .args(args)
        .output()
        .expect("curl runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn haproxy_ends_tls_redirects_plain_http_and_the_cookie_is_secure() {
    if tool("curl", "TLS proxy").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tls.db");
    let (_server, addr) = serve_with(db.to_str().unwrap(), &["--trust-proxy", "127.0.0.1"]);
    let Some(proxy) = tls_proxy(dir.path(), addr) else {
        return;
    };
    let (http, https) = (proxy.http, proxy.https);
    let url = format!("https://127.0.0.1:{https}");
    let end = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let r = curl(&["-k", &format!("{url}/healthz")]);
        if r.starts_with("HTTP/2 200") || r.starts_with("HTTP/1.1 200") {
            assert!(r.contains("ready"), "{r}");
            assert!(
                r.to_ascii_lowercase().contains("strict-transport-security"),
                "{r}"
            );
            break;
        }
        assert!(std::time::Instant::now() < end, "no answer over HTTPS: {r}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    // Plain HTTP is sent to HTTPS.
    let r = curl(&[&format!("http://127.0.0.1:{http}/api/lobby")]);
    assert!(r.starts_with("HTTP/1.1 301"), "{r}");
    assert!(
        r.to_ascii_lowercase()
            .contains(&format!("location: https://127.0.0.1:{http}/api/lobby")),
        "{r}"
    );
    // A guest made over HTTPS gets a Secure session cookie.
    let r = curl(&[
        "-k",
        "-X",
        "POST",
        "-H",
        "content-type: application/json",
        "-d",
        r#"{"nickname":"Tess"}"#,
        &format!("{url}/api/guest"),
    ]);
    let cookie = r
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie"))
        .unwrap_or_else(|| panic!("a session cookie: {r}"));
    assert!(cookie.contains("Secure"), "{cookie}");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
}
