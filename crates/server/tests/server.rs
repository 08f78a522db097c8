//! The server end to end: a real server on a free loopback port, a real SQLite file (and
//! PostgreSQL when `FIVEUP_TEST_POSTGRES_URL` is set), real websocket clients.

mod common;

use common::*;
use fiveup_protocol::{
    ClientMsg, ErrorCode, EventView, Occupant, Profile, Replay, Review, ServerMsg, TableInfo,
    TableStatus,
};
use serde_json::json;

async fn create(addr: std::net::SocketAddr, cookie: &str, body: serde_json::Value) -> TableInfo {
    let a = post(addr, "/api/tables", Some(cookie), &body).await;
    assert_eq!(a.status, 201, "{}", a.body);
    a.json()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_and_a_computer_play_a_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    for (backend, db) in databases(dir.path(), "whole").await {
        let server = fiveup_server::start(config(&db)).await.unwrap();
        let addr = server.local_addr();
        let (ann, _) = guest(addr, "Ann").await;
        let (bob, bob_id) = guest(addr, "Bob").await;
        let t = create(
            addr,
            &ann,
            json!({"rules": "five-up players=3 target=50",
                   "seats": [{"kind": "me"}, {"kind": "invite"}, {"kind": "bot", "level": "club"}]}),
        )
        .await;
        assert_eq!(t.status, TableStatus::Waiting);
        assert_eq!(t.invites.len(), 1, "the creator sees the invitation");
        // The lobby lists it; others do not see the invitation.
        let lobby: fiveup_protocol::Lobby = get(addr, "/api/lobby", None).await.json();
        let listed = lobby.tables.iter().find(|x| x.id == t.id).expect("listed");
        assert!(listed.invites.is_empty());
        // Bob cannot take the kept seat without the invitation, then takes it with it.
        let no = post(
            addr,
            &format!("/api/tables/{}/join", t.id),
            Some(&bob),
            &json!({"seat": 1}),
        )
        .await;
        assert_eq!(no.status, 409, "{}", no.body);
        let bad = post(
            addr,
            &format!("/api/tables/{}/join", t.id),
            Some(&bob),
            &json!({"invite": "nope"}),
        )
        .await;
        assert_eq!(
            bad.json::<fiveup_protocol::ErrorBody>().error,
            ErrorCode::BadInvite
        );
        let yes = post(
            addr,
            &format!("/api/tables/{}/join", t.id),
            Some(&bob),
            &json!({"invite": t.invites[0].token}),
        )
        .await;
        assert_eq!(yes.status, 200, "{}", yes.body);
        let joined: TableInfo = yes.json();
        assert_eq!(joined.your_seat, Some(1));
        assert!(matches!(&joined.seats[1].occupant, Occupant::Human { user } if user.id == bob_id));

        let mut a = connect(addr, Some(&ann)).await;
        let mut b = connect(addr, Some(&bob)).await;
        let mut spectator = connect(addr, None).await;
        let va = a.open(&t.id, None).await;
        assert_eq!(va.you, Some(0));
        assert_eq!(b.open(&t.id, None).await.you, Some(1));
        assert_eq!(spectator.open(&t.id, None).await.you, None);
        let mut clients = vec![a, b];
        play_out(&mut clients, 2_000).await;
        let v = clients[0].view.clone().unwrap();
        assert!(v.winner.is_some());
        assert!(!v.proofs.is_empty());
        // Every hand ended with a revealed proof and outcome.
        let hand_overs = clients[0]
            .events
            .iter()
            .filter(|(_, e)| matches!(e, EventView::HandOver { .. }))
            .count();
        assert_eq!(hand_overs, v.proofs.len());
        // The spectator saw the same game without any hand.
        let sv = loop {
            spectator.recv().await;
            let sv = spectator.view.clone().unwrap();
            if sv.table.status == TableStatus::Finished {
                break sv;
            }
        };
        assert!(sv.my_tiles.is_empty() && sv.legal.is_empty());
        assert_eq!(sv.scores, v.scores);

        // The stored game: replay, record, verification, review, profiles.
        let replay: Replay = get(addr, &format!("/api/games/{}", t.id), None)
            .await
            .json();
        assert_eq!(replay.scores, v.scores);
        assert_eq!(replay.hands.len(), v.proofs.len());
        for h in &replay.hands {
            assert!(h.proof.as_ref().unwrap().server_seed.is_some());
            let last = h.steps.last().unwrap();
            assert_eq!(last.hands.len(), 3);
        }
        let text = get(addr, &format!("/api/games/{}/record.txt", t.id), None)
            .await
            .body;
        assert!(text.contains("[DealScheme \"fiveup-deal-v1\"]"));
        let report = fiveup_server::games::verify(&text);
        assert!(report.ok, "{report:?}");
        let over_http: fiveup_protocol::VerifyReport =
            post(addr, "/api/verify", None, &json!({ "record": text }))
                .await
                .json();
        assert!(over_http.ok);
        // A tampered record fails: change the first server seed's first digit.
        let key = "[Hand1ServerSeed \"";
        let at = text.find(key).unwrap() + key.len();
        let mut bad = text.clone();
        let c = if &bad[at..=at] == "0" { "1" } else { "0" };
        bad.replace_range(at..=at, c);
        let r = fiveup_server::games::verify(&bad);
        assert!(!r.ok && r.hands[0].message.contains("commitment"), "{r:?}");
        let review: Review = get(addr, &format!("/api/games/{}/review", t.id), None)
            .await
            .json();
        assert!(!review.moves.is_empty());
        assert!(review.moves.iter().all(|m| m.loss >= 0.0 && m.options >= 2));
        let again: Review = get(addr, &format!("/api/games/{}/review", t.id), None)
            .await
            .json();
        assert_eq!(again.moves.len(), review.moves.len());
        let p: Profile = get(addr, &format!("/api/users/{bob_id}"), None)
            .await
            .json();
        assert_eq!(p.stats.games, 1);
        assert_eq!(p.history.len(), 1);
        assert_eq!(p.history[0].game, t.id);
        assert!(p.rating.is_none(), "guests have no rating");
        let missing = get(addr, "/api/games/nosuchgame", None).await;
        assert_eq!(missing.status, 404);
        server.shutdown().await;
        eprintln!("whole game on {backend}: ok");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_mid_hand_resumes_and_resent_commands_apply_once() {
    let dir = tempfile::tempdir().unwrap();
    for (_backend, db) in databases(dir.path(), "reconnect").await {
        let server = fiveup_server::start(config(&db)).await.unwrap();
        let addr = server.local_addr();
        let (ann, _) = guest(addr, "Ann").await;
        let t = create(
            addr,
            &ann,
            json!({"rules": "five-up target=150", "seats": [{"kind": "me"}, {"kind": "bot", "level": "greedy"}]}),
        )
        .await;
        let mut a = connect(addr, Some(&ann)).await;
        a.open(&t.id, None).await;
        // Send the seed and play until it is our turn with a few actions behind us.
        let mut acted = 0;
        let mut last_ack = None;
        while acted < 3 {
            let due = a.due();
            match due {
                Some(ClientMsg::Seed { hand, seed, .. }) => {
                    let id = a.id();
                    a.send(&ClientMsg::Seed { id, hand, seed }).await;
                    a.until(|m| matches!(m, ServerMsg::Ack { .. })).await;
                }
                Some(ClientMsg::Act {
                    version, action, ..
                }) => {
                    let id = a.id();
                    a.send(&ClientMsg::Act {
                        id: id.clone(),
                        version,
                        action,
                    })
                    .await;
                    match a
                        .until(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. }))
                        .await
                    {
                        ServerMsg::Ack { version, .. } => last_ack = Some((id, version, action)),
                        m => panic!("{m:?}"),
                    }
                    acted += 1;
                }
                _ => {
                    a.recv().await;
                }
            }
        }
        let (id, acked_version, action) = last_ack.unwrap();
        let seen = a.view.as_ref().unwrap().table.version;
        let hand_before = a.view.as_ref().unwrap().my_tiles.clone();
        // Drop the connection and come back with the last version seen.
        drop(a);
        let mut a = connect(addr, Some(&ann)).await;
        a.send(&ClientMsg::Open {
            table: t.id.clone(),
            since: Some(seen.saturating_sub(2)),
        })
        .await;
        let ServerMsg::Snapshot {
            view,
            missed,
            complete,
            ..
        } = a.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await
        else {
            unreachable!()
        };
        assert!(complete, "recent events are all held");
        assert!(missed.iter().all(|e| e.version > seen.saturating_sub(2)));
        assert!(!missed.is_empty());
        assert_eq!(
            view.my_tiles, hand_before,
            "the same hand after the reconnect"
        );
        assert_eq!(view.you, Some(0));
        let version_now = view.table.version;
        // Resending the acknowledged command gets the same answer and changes nothing.
        a.send(&ClientMsg::Act {
            id: id.clone(),
            version: acked_version - 1,
            action,
        })
        .await;
        match a
            .until(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. }))
            .await
        {
            ServerMsg::Ack { id: i, version } => {
                assert_eq!(i, id);
                assert_eq!(version, acked_version);
            }
            m => panic!("{m:?}"),
        }
        let again = a.open(&t.id, None).await;
        assert_eq!(again.table.version, version_now, "nothing changed");
        // The same id for another command is refused.
        a.send(&ClientMsg::Act {
            id,
            version: version_now,
            action: fiveup_engine::Action::Pass,
        })
        .await;
        match a
            .until(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. }))
            .await
        {
            ServerMsg::Error { code, .. } => assert_eq!(code, ErrorCode::DuplicateId),
            m => panic!("{m:?}"),
        }
        // And the game goes on to the end.
        let mut clients = vec![a];
        play_out(&mut clients, 5_000).await;
        server.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_continues_every_table() {
    let dir = tempfile::tempdir().unwrap();
    for (_backend, db) in databases(dir.path(), "restart").await {
        let server = fiveup_server::start(config(&db)).await.unwrap();
        let addr = server.local_addr();
        let (ann, _) = guest(addr, "Ann").await;
        let (bob, _) = guest(addr, "Bob").await;
        let t = create(
            addr,
            &ann,
            json!({"rules": "five-up target=100", "seats": [{"kind": "me"}, {"kind": "open"}]}),
        )
        .await;
        let j = post(
            addr,
            &format!("/api/tables/{}/join", t.id),
            Some(&bob),
            &json!({}),
        )
        .await;
        assert_eq!(j.status, 200, "{}", j.body);
        // A second table of computer players only, to see it finish after the restart.
        let bots = create(
            addr,
            &ann,
            json!({"rules": "five-up target=100", "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "greedy"}]}),
        )
        .await;
        let mut a = connect(addr, Some(&ann)).await;
        let mut b = connect(addr, Some(&bob)).await;
        a.open(&t.id, None).await;
        b.open(&t.id, None).await;
        // Play a few actions.
        let mut clients = vec![a, b];
        play_until(&mut clients, 5_000, |cs| {
            cs[0]
                .view
                .as_ref()
                .is_some_and(|v| v.table.status == TableStatus::Playing && v.history.len() >= 4)
        })
        .await;
        let before = clients[0].open(&t.id, None).await;
        drop(clients);
        server.shutdown().await;

        let server = fiveup_server::start(config(&db)).await.unwrap();
        let addr = server.local_addr();
        let mut a = connect(addr, Some(&ann)).await;
        let mut b = connect(addr, Some(&bob)).await;
        let after = a.open(&t.id, Some(before.table.version)).await;
        assert!(after.table.version >= before.table.version);
        assert_eq!(after.history[..before.history.len()], before.history[..]);
        if after.table.version == before.table.version {
            assert_eq!(after.history, before.history);
            assert_eq!(after.my_tiles, before.my_tiles);
            assert_eq!(after.scores, before.scores);
        }
        assert_eq!(
            after.proof.as_ref().map(|p| p.commitment.clone()),
            before.proof.as_ref().map(|p| p.commitment.clone())
        );
        b.open(&t.id, None).await;
        let mut clients = vec![a, b];
        play_out(&mut clients, 5_000).await;
        // The computer players' table finished by itself after the restart.
        let mut w = connect(addr, None).await;
        let mut v = w.open(&bots.id, None).await;
        while v.table.status != TableStatus::Finished {
            w.recv().await;
            v = w.view.clone().unwrap();
        }
        assert!(v.winner.is_some());
        server.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registered_players_get_ratings_and_sessions_work() {
    let dir = tempfile::tempdir().unwrap();
    for (_backend, db) in databases(dir.path(), "accounts").await {
        let server = fiveup_server::start(config(&db)).await.unwrap();
        let addr = server.local_addr();
        let name_a = format!("ann{}", &fiveup_server::new_id()[..6]);
        let name_b = format!("bob{}", &fiveup_server::new_id()[..6]);
        // A guest registers and keeps the account.
        let (guest_a, guest_id) = guest(addr, "Ann").await;
        let r = post(
            addr,
            "/api/register",
            Some(&guest_a),
            &json!({"username": name_a, "password": "correct horse"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let me: fiveup_protocol::Me = r.json();
        assert_eq!(me.user.id, guest_id);
        assert!(me.user.registered);
        let cookie = r.header("set-cookie").unwrap().to_string();
        assert!(
            cookie.contains("HttpOnly")
                && cookie.contains("SameSite=Lax")
                && !cookie.contains("Secure")
        );
        // Behind a TLS proxy the cookie is Secure.
        let tls = http(
            addr,
            "POST",
            "/api/guest",
            None,
            Some(r#"{"nickname":"T"}"#),
            &[("X-Forwarded-Proto", "https")],
        )
        .await;
        assert!(tls.header("set-cookie").unwrap().contains("Secure"));
        // The same name again is taken; a short password is refused.
        let taken = post(
            addr,
            "/api/register",
            None,
            &json!({"username": name_a.to_uppercase(), "password": "another one"}),
        )
        .await;
        assert_eq!(
            taken.json::<fiveup_protocol::ErrorBody>().error,
            ErrorCode::NameTaken
        );
        let short = post(
            addr,
            "/api/register",
            None,
            &json!({"username": name_b, "password": "short"}),
        )
        .await;
        assert_eq!(
            short.json::<fiveup_protocol::ErrorBody>().error,
            ErrorCode::BadPassword
        );
        let rb = post(
            addr,
            "/api/register",
            None,
            &json!({"username": name_b, "password": "battery staple"}),
        )
        .await;
        assert_eq!(rb.status, 200);
        let bob = session_of(&rb);
        let bob_id = rb.json::<fiveup_protocol::Me>().user.id;
        // Logout ends the session; a wrong password fails; the right one logs in.
        let ann_session = session_of(&r);
        let out = post(addr, "/api/logout", Some(&ann_session), &json!({})).await;
        assert_eq!(out.status, 204);
        assert_eq!(get(addr, "/api/me", Some(&ann_session)).await.status, 401);
        let wrong = post(
            addr,
            "/api/login",
            None,
            &json!({"username": name_a, "password": "wrong horse"}),
        )
        .await;
        assert_eq!(wrong.status, 401);
        let ok = post(
            addr,
            "/api/login",
            None,
            &json!({"username": name_a, "password": "correct horse"}),
        )
        .await;
        assert_eq!(ok.status, 200);
        let ann = session_of(&ok);
        assert_eq!(
            get(addr, "/api/me", Some(&ann))
                .await
                .json::<fiveup_protocol::Me>()
                .user
                .id,
            guest_id
        );
        // A rated game.
        let t = create(
            addr,
            &ann,
            json!({"rules": "five-up target=50", "seats": [{"kind": "me"}, {"kind": "open"}]}),
        )
        .await;
        assert_eq!(
            post(
                addr,
                &format!("/api/tables/{}/join", t.id),
                Some(&bob),
                &json!({"seat": 1})
            )
            .await
            .status,
            200
        );
        let mut a = connect(addr, Some(&ann)).await;
        let mut b = connect(addr, Some(&bob)).await;
        a.open(&t.id, None).await;
        b.open(&t.id, None).await;
        let mut clients = vec![a, b];
        play_out(&mut clients, 2_000).await;
        let winner = clients[0].view.as_ref().unwrap().winner.unwrap();
        let pa: Profile = get(addr, &format!("/api/users/{guest_id}"), None)
            .await
            .json();
        let pb: Profile = get(addr, &format!("/api/users/{bob_id}"), None)
            .await
            .json();
        let (ra, rb) = (pa.rating.unwrap(), pb.rating.unwrap());
        if winner == 0 {
            assert!(ra.rating > 1500.0 && rb.rating < 1500.0);
        } else {
            assert!(ra.rating < 1500.0 && rb.rating > 1500.0);
        }
        assert_eq!(pa.stats.games, 1);
        assert_eq!(pa.stats.wins + pb.stats.wins, 1);
        assert!(pa.stats.hands >= 1);
        // A rematch: a new table with the same players.
        let mut a = clients.remove(0);
        let id = a.id();
        a.send(&ClientMsg::Rematch { id }).await;
        let new_table = loop {
            if let ServerMsg::Event {
                event: EventView::Rematch { table },
                ..
            } = a.recv().await
            {
                break table;
            }
        };
        let info: TableInfo = get(addr, &format!("/api/tables/{new_table}"), Some(&ann))
            .await
            .json();
        assert_eq!(info.your_seat, Some(0));
        // Bob is not seated without saying so: his seat waits for him.
        assert_eq!(info.status, TableStatus::Waiting);
        assert_eq!(info.seats[1].occupant, fiveup_protocol::Occupant::Invite);
        let mut b = clients.remove(0);
        let bid = b.id();
        b.send(&ClientMsg::Rematch { id: bid.clone() }).await;
        loop {
            match b.recv().await {
                ServerMsg::Ack { id, .. } if id == bid => break,
                ServerMsg::Error {
                    id: Some(id),
                    message,
                    ..
                } if id == bid => {
                    panic!("the rematch was refused: {message}")
                }
                _ => {}
            }
        }
        let info: TableInfo = get(addr, &format!("/api/tables/{new_table}"), Some(&bob))
            .await
            .json();
        assert_eq!(info.your_seat, Some(1));
        assert_ne!(info.status, TableStatus::Waiting);
        server.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_clear_errors_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bad.db").display().to_string();
    let mut cfg = config(&db);
    cfg.ws_rate = (5.0, 10.0);
    let server = fiveup_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let (ann, _) = guest(addr, "Ann").await;
    let (bob, _) = guest(addr, "Bob").await;
    // HTTP: malformed JSON, bad rules, unknown computer player, wrong seat count, no session.
    let e = http(addr, "POST", "/api/tables", Some(&ann), Some("{nope"), &[]).await;
    assert_eq!(
        (e.status, e.json::<fiveup_protocol::ErrorBody>().error),
        (400, ErrorCode::BadJson)
    );
    let e = post(
        addr,
        "/api/tables",
        Some(&ann),
        &json!({"rules": "five-up players=7", "seats": []}),
    )
    .await;
    assert_eq!(
        e.json::<fiveup_protocol::ErrorBody>().error,
        ErrorCode::BadRules
    );
    let e = post(
        addr,
        "/api/tables",
        Some(&ann),
        &json!({"rules": "five-up set=12 players=8 hand=12", "seats": [{"kind":"me"},{"kind":"open"}]}),
    )
    .await;
    let body = e.json::<fiveup_protocol::ErrorBody>();
    assert_eq!(body.error, ErrorCode::BadRules);
    // The engine's own reason, in full.
    assert!(
        body.message.contains("hand size 12") && body.message.contains("double-12"),
        "{}",
        body.message
    );
    let e = post(
        addr,
        "/api/tables",
        Some(&ann),
        &json!({"rules": "five-up", "seats": [{"kind":"me"},{"kind":"bot","level":"oracle"}]}),
    )
    .await;
    assert_eq!(
        e.json::<fiveup_protocol::ErrorBody>().error,
        ErrorCode::BadRules
    );
    let e = post(
        addr,
        "/api/tables",
        Some(&ann),
        &json!({"rules": "five-up", "seats": [{"kind":"me"}]}),
    )
    .await;
    assert_eq!(
        e.json::<fiveup_protocol::ErrorBody>().error,
        ErrorCode::BadRules
    );
    let e = post(
        addr,
        "/api/tables",
        None,
        &json!({"rules": "five-up", "seats": [{"kind":"me"},{"kind":"open"}]}),
    )
    .await;
    assert_eq!(
        (e.status, e.json::<fiveup_protocol::ErrorBody>().error),
        (401, ErrorCode::NotLoggedIn)
    );
    assert_eq!(get(addr, "/api/tables/zzzz", None).await.status, 404);
    // A foreign origin cannot open a websocket.
    {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
        req.headers_mut()
            .insert("origin", "https://evil.example".parse().unwrap());
        match tokio_tungstenite::connect_async(req).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
                assert_eq!(r.status().as_u16(), 403);
                let body = String::from_utf8(r.body().clone().unwrap_or_default()).unwrap();
                assert!(body.contains("bad_origin"), "{body}");
            }
            other => panic!("a foreign origin was not refused: {other:?}"),
        }
        // The server's own origin is fine.
        let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
        req.headers_mut()
            .insert("origin", format!("http://{addr}").parse().unwrap());
        assert!(tokio_tungstenite::connect_async(req).await.is_ok());
    }

    let t = create(
        addr,
        &ann,
        json!({"rules": "five-up", "seats": [{"kind":"me"},{"kind":"open"}]}),
    )
    .await;
    assert_eq!(
        post(
            addr,
            &format!("/api/tables/{}/join", t.id),
            Some(&bob),
            &json!({})
        )
        .await
        .status,
        200
    );
    let mut a = connect(addr, Some(&ann)).await;
    let mut b = connect(addr, Some(&bob)).await;
    let mut watcher = connect(addr, None).await;
    a.open(&t.id, None).await;
    b.open(&t.id, None).await;
    watcher.open(&t.id, None).await;
    // Seeds in, hand dealt.
    for c in [&mut a, &mut b] {
        let Some(ClientMsg::Seed { hand, seed, .. }) = c.due() else {
            panic!("a seed is due")
        };
        let id = c.id();
        c.send(&ClientMsg::Seed { id, hand, seed }).await;
        c.until(|m| matches!(m, ServerMsg::Ack { .. })).await;
    }
    while a.view.as_ref().unwrap().table.status != TableStatus::Playing {
        a.recv().await;
    }
    while b.view.as_ref().unwrap().table.version != a.view.as_ref().unwrap().table.version {
        b.recv().await;
    }
    let v = a.view.clone().unwrap();
    let version = v.table.version;
    let (mover, other) = if v.to_move == Some(0) {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    async fn expect(c: &mut Client, code: ErrorCode) -> String {
        match c
            .until(|m| matches!(m, ServerMsg::Error { .. } | ServerMsg::Ack { .. }))
            .await
        {
            ServerMsg::Error {
                code: got, message, ..
            } => {
                assert_eq!(got, code, "{message}");
                message
            }
            m => panic!("expected {code:?}, got {m:?}"),
        }
    }
    other.send_text("{not json").await;
    expect(other, ErrorCode::BadJson).await;
    other.send_text(r#"{"type":"teleport"}"#).await;
    expect(other, ErrorCode::UnknownType).await;
    other
        .send_text(r#"{"type":"act","id":"x","version":1,"action":"13-1"}"#)
        .await;
    expect(other, ErrorCode::BadJson).await;
    other
        .send_text(&format!(
            r#"{{"type":"chat","text":"{}"}}"#,
            "a".repeat(9000)
        ))
        .await;
    expect(other, ErrorCode::FrameTooLarge).await;
    // Out of turn.
    let any = v
        .legal
        .first()
        .map(|l| l.action)
        .unwrap_or(fiveup_engine::Action::Draw);
    let id = other.id();
    other
        .send(&ClientMsg::Act {
            id,
            version,
            action: any,
        })
        .await;
    expect(other, ErrorCode::NotYourTurn).await;
    // Illegal play: a tile the mover does not hold.
    let mv = mover.view.clone().unwrap();
    let foreign = fiveup_engine::Tile::all(6)
        .iter()
        .find(|t| !mv.my_tiles.contains(t))
        .unwrap();
    let id = mover.id();
    mover
        .send(&ClientMsg::Act {
            id,
            version,
            action: fiveup_engine::Action::lead(foreign),
        })
        .await;
    let msg = expect(mover, ErrorCode::IllegalAction).await;
    assert!(!msg.is_empty());
    // Stale version.
    let id = mover.id();
    mover
        .send(&ClientMsg::Act {
            id,
            version: version - 1,
            action: mv.legal[0].action,
        })
        .await;
    match mover.until(|m| matches!(m, ServerMsg::Error { .. })).await {
        ServerMsg::Error {
            code,
            version: Some(cur),
            ..
        } => {
            assert_eq!(code, ErrorCode::StaleVersion);
            assert_eq!(cur, version);
        }
        m => panic!("{m:?}"),
    }
    // A spectator cannot act.
    let id = watcher.id();
    watcher
        .send(&ClientMsg::Act {
            id,
            version,
            action: mv.legal[0].action,
        })
        .await;
    expect(&mut watcher, ErrorCode::NotLoggedIn).await;
    // Nothing changed.
    let now = mover.open(&t.id, None).await;
    assert_eq!(now.table.version, version);
    assert_eq!(now.my_tiles, mv.my_tiles);
    // Too many messages: some are refused, and the other client is served all along.
    for _ in 0..30 {
        other.send(&ClientMsg::Ping).await;
    }
    let mut pongs = 0;
    let mut limited = 0;
    while pongs + limited < 30 {
        match other.recv().await {
            ServerMsg::Pong => pongs += 1,
            ServerMsg::Error {
                code: ErrorCode::RateLimited,
                ..
            } => limited += 1,
            _ => {}
        }
    }
    assert!(limited > 0 && pongs > 0, "{pongs} pongs, {limited} limited");
    mover.send(&ClientMsg::Ping).await;
    mover.until(|m| matches!(m, ServerMsg::Pong)).await;
    let id = mover.id();
    mover
        .send(&ClientMsg::Act {
            id,
            version,
            action: mv.legal[0].action,
        })
        .await;
    mover.until(|m| matches!(m, ServerMsg::Ack { .. })).await;
    // Hints: the mover's turn may have passed; the other side gets a clear refusal off turn.
    let id = watcher.id();
    watcher.send(&ClientMsg::Hint { id }).await;
    expect(&mut watcher, ErrorCode::NotLoggedIn).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_chat_and_a_seat_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hint.db").display().to_string();
    let mut cfg = config(&db);
    cfg.takeover = Some(std::time::Duration::from_millis(300));
    let server = fiveup_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let (ann, _) = guest(addr, "Ann").await;
    let t = create(
        addr,
        &ann,
        json!({"rules": "five-up", "seats": [{"kind":"me"},{"kind":"bot","level":"expert"}]}),
    )
    .await;
    let mut a = connect(addr, Some(&ann)).await;
    a.open(&t.id, None).await;
    a.send(&ClientMsg::Chat {
        text: "hello".into(),
    })
    .await;
    match a.until(|m| matches!(m, ServerMsg::Chat { .. })).await {
        ServerMsg::Chat { line } => {
            assert_eq!(line.text, "hello");
            assert_eq!(line.seat, Some(0));
        }
        _ => unreachable!(),
    }
    let Some(ClientMsg::Seed { hand, seed, .. }) = a.due() else {
        panic!()
    };
    let id = a.id();
    a.send(&ClientMsg::Seed { id, hand, seed }).await;
    // Wait for our turn, ask for a hint.
    loop {
        let v = a.view.clone().unwrap();
        if !v.legal.is_empty() {
            break;
        }
        a.recv().await;
    }
    let legal: Vec<_> = a
        .view
        .as_ref()
        .unwrap()
        .legal
        .iter()
        .map(|l| l.action)
        .collect();
    let id = a.id();
    a.send(&ClientMsg::Hint { id: id.clone() }).await;
    match a
        .until(|m| matches!(m, ServerMsg::Hint { .. } | ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::Hint { id: i, evals, .. } => {
            assert_eq!(i, id);
            assert_eq!(evals.len(), legal.len());
            assert!(evals.iter().all(|e| legal.contains(&e.action)));
            // The configured worlds (8 in tests), or fewer if the hint budget ran out.
            assert!(
                evals.iter().all(|e| (1..=8).contains(&e.samples)),
                "{evals:?}"
            );
        }
        m => panic!("{m:?}"),
    }
    // Leave on our turn: a computer player takes the seat over, and hands it back.
    let version = a.view.as_ref().unwrap().table.version;
    drop(a);
    let mut w = connect(addr, None).await;
    w.open(&t.id, None).await;
    let taken = w.until(|m| matches!(m, ServerMsg::Event { event: EventView::Seat { seat }, .. } if seat.taken_over)).await;
    assert!(matches!(taken, ServerMsg::Event { .. }));
    w.until(|m| matches!(m, ServerMsg::Event { version: v, .. } if *v > version + 1))
        .await;
    let mut a = connect(addr, Some(&ann)).await;
    let back = a.open(&t.id, None).await;
    assert_eq!(back.you, Some(0));
    let returned = a.until(|m| matches!(m, ServerMsg::Event { event: EventView::Seat { seat }, .. } if !seat.taken_over)).await;
    assert!(matches!(returned, ServerMsg::Event { .. }));
    server.shutdown().await;
}

/// Display names: a guest who registers keeps the nickname they played under (the user name is
/// for logging in); a display name can be chosen when registering and changed later, is checked
/// like a nickname, and nobody else may take it or one that looks like it (guests, other
/// registrations, other display names); bad input changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn display_names_are_kept_chosen_and_guarded() {
    let dir = tempfile::tempdir().unwrap();
    for (_backend, db) in databases(dir.path(), "display").await {
        let server = fiveup_server::start(config(&db)).await.unwrap();
        let addr = server.local_addr();
        let tag = &fiveup_server::new_id()[..5];
        let nick = format!("Ann Shown{tag}");
        let (guest_a, guest_id) = guest(addr, &nick).await;
        let login_a = format!("annlogin{tag}");
        let r = post(
            addr,
            "/api/register",
            Some(&guest_a),
            &json!({"username": login_a, "password": "correct horse"}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let me: fiveup_protocol::Me = r.json();
        assert_eq!(
            (me.user.id, me.user.name.as_str(), me.user.registered),
            (guest_id, nick.as_str(), true),
            "the guest's nickname is kept"
        );
        let ann = session_of(&r);
        // Logging in with the user name, shown by the display name.
        let ok = post(
            addr,
            "/api/login",
            None,
            &json!({"username": login_a, "password": "correct horse"}),
        )
        .await;
        assert_eq!(ok.json::<fiveup_protocol::Me>().user.name, nick);
        // Nobody else takes it, or a look-alike: not a guest, not another registration.
        let err = |a: &Answer| a.json::<fiveup_protocol::ErrorBody>().error;
        let g = post(
            addr,
            "/api/guest",
            None,
            &json!({"nickname": nick.to_uppercase()}),
        )
        .await;
        assert_eq!(err(&g), ErrorCode::NameTaken, "{}", g.body);
        let login_b = format!("boblogin{tag}");
        let b = post(
            addr,
            "/api/register",
            None,
            &json!({"username": login_b, "password": "battery staple", "display_name": nick.replace('A', "\u{0410}")}),
        )
        .await;
        assert_eq!(err(&b), ErrorCode::NameTaken, "{}", b.body);
        // Bad input is refused with a clear error and creates nothing.
        let bad = post(
            addr,
            "/api/register",
            None,
            &json!({"username": login_b, "password": "battery staple", "display_name": "Bob <b>"}),
        )
        .await;
        assert_eq!(err(&bad), ErrorCode::BadName, "{}", bad.body);
        assert!(bad.body.contains("a display name"), "{}", bad.body);
        let none = post(
            addr,
            "/api/login",
            None,
            &json!({"username": login_b, "password": "battery staple"}),
        )
        .await;
        assert_eq!(none.status, 401, "nothing was created");
        // Chosen when registering.
        let shown_b = format!("Bobby{tag}");
        let b = post(
            addr,
            "/api/register",
            None,
            &json!({"username": login_b, "password": "battery staple", "display_name": format!("  {shown_b} ")}),
        )
        .await;
        assert_eq!(b.status, 200, "{}", b.body);
        assert_eq!(b.json::<fiveup_protocol::Me>().user.name, shown_b);
        let bob = session_of(&b);
        // Changed later: checked the same way, another's name refused, one's own kept.
        let taken = post(
            addr,
            "/api/me/name",
            Some(&bob),
            &json!({"display_name": nick.to_lowercase()}),
        )
        .await;
        assert_eq!(err(&taken), ErrorCode::NameTaken, "{}", taken.body);
        let login_like = post(
            addr,
            "/api/me/name",
            Some(&bob),
            &json!({"display_name": login_a.to_uppercase()}),
        )
        .await;
        assert_eq!(
            err(&login_like),
            ErrorCode::NameTaken,
            "{}",
            login_like.body
        );
        let renamed = format!("Annie{tag}");
        let r = post(
            addr,
            "/api/me/name",
            Some(&ann),
            &json!({"display_name": renamed}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json::<fiveup_protocol::Me>().user.name, renamed);
        let me: fiveup_protocol::Me = get(addr, "/api/me", Some(&ann)).await.json();
        assert_eq!(me.user.name, renamed);
        // The old display name is free again; the new one is guarded.
        assert_eq!(
            post(addr, "/api/guest", None, &json!({"nickname": nick}))
                .await
                .status,
            200
        );
        let g = post(addr, "/api/guest", None, &json!({"nickname": renamed})).await;
        assert_eq!(err(&g), ErrorCode::NameTaken);
        // A guest renames by playing under another nickname, not here.
        let (guest_c, _) = guest(addr, &format!("Cat{tag}")).await;
        let g = post(
            addr,
            "/api/me/name",
            Some(&guest_c),
            &json!({"display_name": format!("Kitty{tag}")}),
        )
        .await;
        assert_eq!(err(&g), ErrorCode::BadRequest, "{}", g.body);
        server.shutdown().await;
    }
}
