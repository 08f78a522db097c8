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
