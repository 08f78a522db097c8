//! Bot accounts: tokens, the bot API, what a bot may not do, revocation, rate limits, rated
//! games in the bots' pool, and what a bot's seat sees.

mod common;

use std::net::SocketAddr;

use common::*;
use fiveup_engine::{Entry, Tile, TileSet};
use fiveup_protocol::{ClientMsg, ErrorBody, ErrorCode, ServerMsg, TableStatus};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

async fn register(addr: SocketAddr, name: &str) -> String {
    let r = post(
        addr,
        "/api/register",
        None,
        &json!({"username": name, "password": "correct horse"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    session_of(&r)
}

/// A request with a bot token.
async fn bot_http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: &str,
    body: Option<&str>,
) -> Answer {
    let auth = format!("Bearer {token}");
    http(addr, method, path, None, body, &[("Authorization", &auth)]).await
}

/// A websocket client signed in with a bot token.
async fn bot_connect(addr: SocketAddr, token: &str) -> Client {
    let mut req = format!("ws://{addr}/api/bot/ws")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("bot ws connect");
    let mut c = Client {
        ws,
        view: None,
        events: Vec::new(),
        raw: Vec::new(),
        next_id: 0,
        prefix: fiveup_server::new_id(),
        seeded: Vec::new(),
        last_sent: None,
    };
    match c.recv().await {
        ServerMsg::Welcome { user, .. } => assert!(user.expect("the bot").bot),
        m => panic!("expected welcome, got {m:?}"),
    }
    c
}

/// Every tile written in a message (as `hidden.rs` reads them) (`6-4`, `12-10`, also inside `6-4@W`).
fn tiles_in(text: &str) -> TileSet {
    let b = text.as_bytes();
    let mut out = TileSet::EMPTY;
    // A number of one or two digits ending just before `end` (exclusive), or starting at it.
    let before = |end: usize| -> Option<u8> {
        let mut start = end;
        while start > 0 && end - start < 3 && b[start - 1].is_ascii_digit() {
            start -= 1;
        }
        let ok = start < end && end - start <= 2 && (start == 0 || !b[start - 1].is_ascii_digit());
        ok.then(|| text[start..end].parse().ok()).flatten()
    };
    let after = |begin: usize| -> Option<u8> {
        let mut end = begin;
        while end < b.len() && end - begin < 3 && b[end].is_ascii_digit() {
            end += 1;
        }
        let ok = end > begin && end - begin <= 2 && (end == b.len() || !b[end].is_ascii_digit());
        ok.then(|| text[begin..end].parse().ok()).flatten()
    };
    for (i, _) in text.match_indices('-') {
        if i == 0 || i + 1 >= b.len() {
            continue;
        }
        if let (Some(x), Some(y)) = (before(i), after(i + 1)) {
            if x <= 12 && y <= 12 {
                out.insert(Tile::new(x, y));
            }
        }
    }
    out
}

fn error_of(a: &Answer) -> ErrorCode {
    a.json::<ErrorBody>().error
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_rated_games_see_only_their_seat_and_cannot_act_as_people() {
    let dir = tempfile::tempdir().unwrap();
    for (backend, db) in databases(dir.path(), "bots").await {
        let server = fiveup_server::start(config(&db)).await.unwrap();
        let addr = server.local_addr();
        let ann_name = format!("ann{}", &fiveup_server::new_id()[..6]);
        let ann = register(addr, &ann_name).await;
        // A guest cannot own bots; names are checked as user names, look-alikes included.
        let (guest, _) = guest(addr, "Gus").await;
        let g = post(addr, "/api/bots", Some(&guest), &json!({"name": "gusbot"})).await;
        assert_eq!(error_of(&g), ErrorCode::NotLoggedIn, "{backend}");
        let bad = post(addr, "/api/bots", Some(&ann), &json!({"name": "a b"})).await;
        assert_eq!(error_of(&bad), ErrorCode::BadName);
        let twin = post(
            addr,
            "/api/bots",
            Some(&ann),
            &json!({"name": ann_name.to_uppercase()}),
        )
        .await;
        assert_eq!(error_of(&twin), ErrorCode::NameTaken);
        let bot_name = format!("bot{}", &fiveup_server::new_id()[..6]);
        let made = post(addr, "/api/bots", Some(&ann), &json!({"name": bot_name})).await;
        assert_eq!(made.status, 201, "{}", made.body);
        let made: Value = made.json();
        let token = made["token"].as_str().unwrap().to_string();
        let bot_id = made["bot"]["id"].as_i64().unwrap();
        assert_eq!(made["bot"]["bot"], json!(true));
        // The token is shown once: the owner's list names it, never shows it.
        let mine = get(addr, "/api/bots/mine", Some(&ann)).await;
        assert_eq!(mine.status, 200);
        assert!(!mine.body.contains(&token));
        assert!(!mine.body.contains(&token[4..]));
        let account = bot_http(addr, "GET", "/api/bot/account", &token, None).await;
        assert_eq!(account.status, 200, "{}", account.body);
        let account: Value = account.json();
        assert_eq!(account["owner"]["name"], json!(ann_name));
        // A bot cannot act as a person: no session, no person's endpoints, no login.
        for (method, path, body) in [
            ("GET", "/api/me", None),
            (
                "POST",
                "/api/tables",
                Some(r#"{"rules":"five-up","seats":[{"kind":"me"},{"kind":"open"}]}"#),
            ),
            ("POST", "/api/bots", Some(r#"{"name":"another"}"#)),
            ("GET", "/api/bots/mine", None),
            ("POST", "/api/bots/settings", Some(r#"{"rated":true}"#)),
        ] {
            let a = bot_http(addr, method, path, &token, body).await;
            assert_eq!(a.status, 401, "{method} {path}: {}", a.body);
            assert_eq!(error_of(&a), ErrorCode::NotLoggedIn, "{method} {path}");
        }
        let session = get(addr, "/api/session", None).await;
        assert!(session.body.contains("null"));
        let login = post(
            addr,
            "/api/login",
            None,
            &json!({"username": bot_name, "password": "correct horse"}),
        )
        .await;
        assert_eq!(error_of(&login), ErrorCode::BadCredentials);
        // A person's session is no bot token.
        let p = http(addr, "GET", "/api/bot/account", Some(&ann), None, &[]).await;
        assert_eq!(error_of(&p), ErrorCode::NotLoggedIn);

        // Ann opts into rated games against bots and challenges her bot.
        let s = post(
            addr,
            "/api/bots/settings",
            Some(&ann),
            &json!({"rated": true}),
        )
        .await;
        assert_eq!(s.status, 200, "{}", s.body);
        let table = challenge_bot(addr, &ann, bot_id).await;
        let seats: Value = bot_http(addr, "GET", "/api/bot/seats", &token, None)
            .await
            .json();
        let ch = &seats["challenges"][0];
        assert_eq!(ch["table"], json!(table));
        assert_eq!(ch["rated"], json!(true));
        let join = bot_http(
            addr,
            "POST",
            &format!("/api/bot/tables/{table}/join"),
            &token,
            Some(&json!({"invite": ch["invite"]}).to_string()),
        )
        .await;
        assert_eq!(join.status, 200, "{}", join.body);
        // The seat card marks the bot as a computer.
        let info: Value = get(addr, &format!("/api/tables/{table}"), None)
            .await
            .json();
        assert_eq!(info["seats"][1]["occupant"]["user"]["bot"], json!(true));

        let mut a = connect(addr, Some(&ann)).await;
        let mut b = bot_connect(addr, &token).await;
        a.open(&table, None).await;
        b.open(&table, None).await;
        // A bot does not chat, ask for hints or follow the lobby.
        for m in [
            r#"{"type":"chat","text":"hi"}"#,
            r#"{"type":"hint","id":"h1"}"#,
            r#"{"type":"lobby"}"#,
        ] {
            b.send_text(m).await;
            match b.until(|m| matches!(m, ServerMsg::Error { .. })).await {
                ServerMsg::Error { code, .. } => assert_eq!(code, ErrorCode::BadRequest, "{m}"),
                _ => unreachable!(),
            }
        }
        let mut clients = [a, b];
        play_out(&mut clients, 2000).await;
        let [a, b] = clients;
        // What the bot saw: its own seat, never a tile of Ann's it could not know.
        let ann_tiles: std::collections::BTreeMap<u64, Vec<fiveup_engine::Tile>> = a
            .raw
            .iter()
            .filter_map(|t| Some((t, serde_json::from_str::<ServerMsg>(t).ok()?)))
            .filter_map(|(t, m)| match m {
                ServerMsg::Event { version, view, .. } => {
                    // The reader finds the tiles a message does write: Ann's own.
                    let written = tiles_in(t);
                    assert!(view.my_tiles.iter().all(|x| written.contains(*x)), "{t}");
                    Some((version, view.my_tiles))
                }
                _ => None,
            })
            .collect();
        let mut checked = 0;
        for t in &b.raw {
            let Ok(ServerMsg::Event { version, view, .. }) = serde_json::from_str::<ServerMsg>(t)
            else {
                continue;
            };
            assert_eq!(view.you, Some(1));
            if view.table.status == TableStatus::Playing {
                for e in &view.history {
                    if let Entry::Draw { seat, tile, .. } | Entry::LeadDraw { seat, tile } = e {
                        if seat.0 != 1 {
                            assert_eq!(*tile, None, "the bot saw Ann's draw");
                        }
                    }
                }
                // No tile of Ann's hand is written anywhere in the message.
                if let Some(theirs) = ann_tiles.get(&version) {
                    let written = tiles_in(t);
                    // (The tile shown to decide the lead is public.)
                    assert!(
                        theirs
                            .iter()
                            .all(|x| !written.contains(*x) || view.shown_tile == Some(*x)),
                        "a tile of Ann's hand reached the bot: {t}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 0, "no event compared");
        // Rated in the bots' pool with Ann's consent: both ratings moved; the bot is on the
        // engines list, not on the people's leaderboard.
        let prof: Value = get(addr, &format!("/api/users/{bot_id}"), None)
            .await
            .json();
        assert_eq!(prof["user"]["bot"], json!(true));
        let bots: Value = get(addr, "/api/bots", None).await.json();
        let entry = bots
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["user"]["id"] == json!(bot_id))
            .expect("the bot is listed");
        assert_eq!(entry["games"], json!(1));
        assert_ne!(
            entry["rating"],
            json!(1500.0),
            "{backend}: the bot's rating moved"
        );
        assert_eq!(entry["recent"][0]["id"], json!(table));
        let board = get(addr, "/api/leaderboard", None).await;
        assert!(board.body.contains(&ann_name), "{}", board.body);
        assert!(!board.body.contains(&bot_name));
        drop(b);

        // Revoked: refused at once, and the open socket is closed.
        let mut b = bot_connect(addr, &token).await;
        let mine: Value = get(addr, "/api/bots/mine", Some(&ann)).await.json();
        let tid = mine[0]["tokens"][0]["id"].as_i64().unwrap();
        let r = post(
            addr,
            &format!("/api/bots/tokens/{tid}/revoke"),
            Some(&ann),
            &json!({}),
        )
        .await;
        assert_eq!(r.status, 204, "{}", r.body);
        match b.until(|m| matches!(m, ServerMsg::Error { .. })).await {
            ServerMsg::Error { code, .. } => assert_eq!(code, ErrorCode::NotLoggedIn),
            _ => unreachable!(),
        }
        let after = bot_http(addr, "GET", "/api/bot/seats", &token, None).await;
        assert_eq!(after.status, 401);
        // Someone else cannot revoke or add tokens to Ann's bot.
        let bob = register(addr, &format!("bob{}", &fiveup_server::new_id()[..6])).await;
        let other = post(
            addr,
            &format!("/api/bots/{bot_id}/tokens"),
            Some(&bob),
            &json!({}),
        )
        .await;
        assert_eq!(error_of(&other), ErrorCode::NoSuchUser);
        let fresh = post(
            addr,
            &format!("/api/bots/{bot_id}/tokens"),
            Some(&ann),
            &json!({}),
        )
        .await;
        assert_eq!(fresh.status, 201, "{}", fresh.body);
        let fresh_token = fresh.json::<Value>()["token"].as_str().unwrap().to_string();
        assert_eq!(
            bot_http(addr, "GET", "/api/bot/account", &fresh_token, None)
                .await
                .status,
            200
        );
        server.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_tokens_are_rate_limited() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("limits.db").display().to_string();
    let mut cfg = config(&db);
    // Five requests and five moves, refilled far slower than the test runs.
    cfg.bot_rate = (1.0 / 3600.0, 5.0);
    cfg.bot_move_rate = (1.0 / 3600.0, 5.0);
    let server = fiveup_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let ann = register(addr, "annlimits").await;
    let made: Value = post(addr, "/api/bots", Some(&ann), &json!({"name": "limitbot"}))
        .await
        .json();
    let token = made["token"].as_str().unwrap().to_string();
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(
            bot_http(addr, "GET", "/api/bot/seats", &token, None)
                .await
                .status,
        );
    }
    assert_eq!(statuses, [200; 5]);
    let over = bot_http(addr, "GET", "/api/bot/seats", &token, None).await;
    assert_eq!(error_of(&over), ErrorCode::RateLimited);
    // Another token of the same bot has its own budget.
    let fresh: Value = post(
        addr,
        &format!("/api/bots/{}/tokens", made["bot"]["id"]),
        Some(&ann),
        &json!({}),
    )
    .await
    .json();
    let t2 = fresh["token"].as_str().unwrap().to_string();
    let mut b = bot_connect(addr, &t2).await;
    // Moves: five go through to the table (refused there: no table open), the sixth is
    // refused by the limit.
    let act = ClientMsg::Act {
        id: "x".into(),
        version: 0,
        action: fiveup_engine::Action::Pass,
    };
    let mut codes = Vec::new();
    for _ in 0..6 {
        b.send(&act).await;
        match b.until(|m| matches!(m, ServerMsg::Error { .. })).await {
            ServerMsg::Error { code, .. } => codes.push(code),
            _ => unreachable!(),
        }
    }
    assert_eq!(codes[..5], [ErrorCode::BadRequest; 5]);
    assert_eq!(codes[5], ErrorCode::RateLimited);
    server.shutdown().await;
}

/// With two instances on one PostgreSQL database, a bot talking to the instance that does not
/// run its table sees the challenge, joins (the request is forwarded) and plays (its websocket
/// is relayed with its token) a whole game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_plays_through_another_instance() {
    let url = match std::env::var("FIVEUP_TEST_POSTGRES_URL") {
        Ok(u) if !u.is_empty() => u,
        _ => {
            eprintln!(
                "note: bots: the two-instance test needs PostgreSQL (FIVEUP_TEST_POSTGRES_URL)"
            );
            return;
        }
    };
    let db = pg_schema(&url).await;
    let instance = |name: &str| {
        let mut c = config(&db);
        c.instance = Some(name.to_string());
        c.lease = std::time::Duration::from_secs(5);
        c.drain_wait = std::time::Duration::ZERO;
        c
    };
    let a = fiveup_server::start(instance("a")).await.unwrap();
    let b = fiveup_server::start(instance("b")).await.unwrap();
    let (addr_a, addr_b) = (a.local_addr(), b.local_addr());
    let ann = register(addr_a, "annrelay").await;
    let (token, bot_id) = make_bot(addr_a, &ann, "relaybot").await;
    let table = challenge_bot(addr_a, &ann, bot_id).await;
    let seats: Value = bot_http(addr_b, "GET", "/api/bot/seats", &token, None)
        .await
        .json();
    let ch = &seats["challenges"][0];
    assert_eq!(ch["table"], json!(table), "{seats}");
    let join = bot_http(
        addr_b,
        "POST",
        &format!("/api/bot/tables/{table}/join"),
        &token,
        Some(&json!({"invite": ch["invite"]}).to_string()),
    )
    .await;
    assert_eq!(join.status, 200, "{}", join.body);
    let mut pa = connect(addr_a, Some(&ann)).await;
    let mut pb = bot_connect(addr_b, &token).await;
    pa.open(&table, None).await;
    assert_eq!(pb.open(&table, None).await.you, Some(1));
    let mut clients = [pa, pb];
    play_out(&mut clients, 2000).await;
    b.shutdown().await;
    a.shutdown().await;
}
