//! What the browser client needs from the server besides the game: gzip-compressed answers,
//! a web app manifest and a favicon, a not-found page for unknown paths, and the leaderboard.

mod common;

use std::io::Read;
use std::net::SocketAddr;

use common::*;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A GET with or without `Accept-Encoding: gzip`: the status line and headers, and the body's
/// bytes as sent.
async fn raw_get(addr: SocketAddr, path: &str, gzip: bool) -> (String, Vec<u8>) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let enc = if gzip {
        "Accept-Encoding: gzip\r\n"
    } else {
        ""
    };
    s.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{enc}\r\n").as_bytes(),
    )
    .await
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let line_end = rest.windows(2).position(|w| w == b"\r\n").unwrap();
            let n =
                usize::from_str_radix(std::str::from_utf8(&rest[..line_end]).unwrap().trim(), 16)
                    .unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&rest[line_end + 2..line_end + 2 + n]);
            rest = &rest[line_end + 2 + n + 2..];
        }
        body = out;
    }
    (head, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replays_are_gzipped_and_pages_have_their_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("web.db").to_string_lossy().into_owned();
    let server = fiveup_server::start(config(&db)).await.unwrap();
    let addr = server.local_addr();
    // A finished game against computer players, to fetch its replay.
    let (ann, _) = guest(addr, "Ann").await;
    let r = post(
        addr,
        "/api/tables",
        Some(&ann),
        &json!({"rules": "five-up players=4 target=150", "seats": [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let t: fiveup_protocol::TableInfo = r.json();
    let mut a = connect(addr, Some(&ann)).await;
    a.open(&t.id, None).await;
    let mut clients = vec![a];
    play_out(&mut clients, 5_000).await;
    let path = format!("/api/games/{}", t.id);
    let mut plain = (String::new(), Vec::new());
    for _ in 0..50 {
        plain = raw_get(addr, &path, false).await;
        if plain.0.starts_with("HTTP/1.1 200") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(plain.0.starts_with("HTTP/1.1 200"), "{}", plain.0);
    let (head, gz) = raw_get(addr, &path, true).await;
    assert!(
        head.to_ascii_lowercase().contains("content-encoding: gzip"),
        "{head}"
    );
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_end(&mut unzipped)
        .unwrap();
    assert_eq!(unzipped, plain.1, "the gzipped replay is the replay");
    assert!(
        gz.len() * 4 < plain.1.len(),
        "{} bytes gzipped from {}",
        gz.len(),
        plain.1.len()
    );
    let hands = serde_json::from_slice::<serde_json::Value>(&plain.1).unwrap()["hands"]
        .as_array()
        .unwrap()
        .len();
    eprintln!(
        "replay of a {hands}-hand four-player game: {} bytes, {} gzipped",
        plain.1.len(),
        gz.len()
    );
    // Static files: gzipped too, revalidated with their ETag.
    let (head, _) = raw_get(addr, "/static/js/table.js", true).await;
    let low = head.to_ascii_lowercase();
    assert!(
        low.contains("content-encoding: gzip")
            && low.contains("cache-control: no-cache")
            && low.contains("etag:"),
        "{head}"
    );
    // The favicon, the manifest, and a not-found page for other paths (JSON under /api/).
    let (head, icon) = raw_get(addr, "/favicon.ico", false).await;
    assert!(
        head.starts_with("HTTP/1.1 200") && head.contains("image/svg+xml"),
        "{head}"
    );
    assert!(String::from_utf8_lossy(&icon).contains("<svg"));
    let (head, manifest) = raw_get(addr, "/manifest.webmanifest", false).await;
    assert!(head.contains("application/manifest+json"), "{head}");
    let m: serde_json::Value = serde_json::from_slice(&manifest).unwrap();
    assert_eq!(m["start_url"], "/");
    // Icons at 192 and 512 pixels (PNG, as phones want them) and the SVG.
    for icon in m["icons"].as_array().unwrap() {
        let (head, bytes) = raw_get(addr, icon["src"].as_str().unwrap(), false).await;
        assert!(head.starts_with("HTTP/1.1 200"), "{icon}: {head}");
        if icon["type"] == "image/png" {
            let side: u32 = icon["sizes"]
                .as_str()
                .unwrap()
                .split('x')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
            assert_eq!(
                u32::from_be_bytes(bytes[16..20].try_into().unwrap()),
                side,
                "{icon}"
            );
            assert_eq!(
                u32::from_be_bytes(bytes[20..24].try_into().unwrap()),
                side,
                "{icon}"
            );
        }
    }
    assert_eq!(m["icons"].as_array().unwrap().len(), 3);
    let (head, page) = raw_get(addr, "/no/such/page", false).await;
    assert!(
        head.starts_with("HTTP/1.1 404") && head.contains("text/html"),
        "{head}"
    );
    assert!(String::from_utf8_lossy(&page).contains("<main"));
    let api = get(addr, "/api/no-such-thing", None).await;
    assert_eq!(api.status, 400);
    assert!(api.body.contains("no such endpoint"));
    // Who is logged in: nobody, without an error.
    let s = get(addr, "/api/session", None).await;
    assert_eq!((s.status, s.body.as_str()), (200, r#"{"user":null}"#));
    let s = get(addr, "/api/session", Some(&ann)).await;
    assert_eq!(s.json::<serde_json::Value>()["user"]["name"], "Ann");
    for p in ["/how-to-play", "/leaderboard"] {
        assert_eq!(get(addr, p, None).await.status, 200, "{p}");
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_lists_rated_players_best_first() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("lb.db").to_string_lossy().into_owned();
    let server = fiveup_server::start(config(&db)).await.unwrap();
    let addr = server.local_addr();
    let board = get(addr, "/api/leaderboard", None).await;
    assert_eq!(board.status, 200);
    assert_eq!(board.json::<serde_json::Value>()["players"], json!([]));
    let mut sessions = Vec::new();
    for name in ["annlb", "boblb"] {
        let r = post(
            addr,
            "/api/register",
            None,
            &json!({"username": name, "password": "correct horse"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        sessions.push(session_of(&r));
    }
    // A guest who only plays the computer is not listed.
    let (guest_s, _) = guest(addr, "Gus").await;
    let t: fiveup_protocol::TableInfo = post(
        addr,
        "/api/tables",
        Some(&sessions[0]),
        &json!({"rules": "five-up target=50", "seats": [{"kind": "me"}, {"kind": "open"}]}),
    )
    .await
    .json();
    assert_eq!(
        post(
            addr,
            &format!("/api/tables/{}/join", t.id),
            Some(&sessions[1]),
            &json!({"seat": 1})
        )
        .await
        .status,
        200
    );
    let mut a = connect(addr, Some(&sessions[0])).await;
    let mut b = connect(addr, Some(&sessions[1])).await;
    a.open(&t.id, None).await;
    b.open(&t.id, None).await;
    let mut clients = vec![a, b];
    play_out(&mut clients, 2_000).await;
    let winner = clients[0].view.as_ref().unwrap().winner.unwrap();
    let _ = guest_s;
    let mut rows = serde_json::Value::Null;
    for _ in 0..50 {
        rows = get(addr, "/api/leaderboard", None)
            .await
            .json::<serde_json::Value>()["players"]
            .clone();
        if rows.as_array().unwrap().len() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2, "{rows:?}");
    let want_first = if winner == 0 { "annlb" } else { "boblb" };
    assert_eq!(rows[0]["user"]["name"], want_first, "{rows:?}");
    assert!(rows[0]["rating"].as_f64().unwrap() > rows[1]["rating"].as_f64().unwrap());
    assert_eq!(rows[0]["wins"], 1);
    server.shutdown().await;
}
