//! Tournaments through the real server: whole events between computer entrants, every game
//! played at a real table, and the standings checked against a recomputation from the stored
//! game records.

mod common;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{config, connect, databases, get, guest, next_call, post, registered};
use fiveup_protocol::{ClientMsg, ServerMsg};
use fiveup_tournament::knockout::{Elimination, Knockout, KnockoutSettings};
use fiveup_tournament::swiss::{Swiss, SwissSettings};
use fiveup_tournament::{Entrant, MatchResult, MatchRule, StandingRow};
use serde_json::{json, Value};

/// How long a whole event may take before the test fails.
const EVENT_WAIT: Duration = Duration::from_secs(240);

fn test_config(db: &str) -> fiveup_server::Config {
    let mut c = config(db);
    c.tournament_tick = Duration::from_millis(50);
    c
}

async fn create(addr: SocketAddr, cookie: &str, settings: &Value) -> String {
    let r = post(addr, "/api/tournaments", Some(cookie), settings).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.json::<Value>()["id"].as_str().unwrap().to_string()
}

async fn add_bots(addr: SocketAddr, cookie: &str, id: &str, level: &str, count: u32) {
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/bots"),
        Some(cookie),
        &json!({"level": level, "count": count}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.json::<Value>()["entrants"].as_array().unwrap().len(),
        count as usize
    );
}

async fn event(addr: SocketAddr, id: &str) -> Value {
    let r = get(addr, &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

async fn wait_status(addr: SocketAddr, id: &str, status: &str) -> Value {
    let start = Instant::now();
    loop {
        let e = event(addr, id).await;
        if e["status"] == status {
            return e;
        }
        assert!(
            start.elapsed() < EVENT_WAIT,
            "tournament {id} is not {status} in time: {}",
            e["status"]
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every match's result recomputed from the stored game records (each game's winner and
/// scores as the games endpoint gives them), checked against what the event recorded.
async fn recomputed_results(addr: SocketAddr, e: &Value) -> BTreeMap<(usize, usize), MatchResult> {
    let best_of = e["settings"]["best_of"].as_u64().unwrap() as u32;
    let rule = MatchRule::best_of(best_of);
    let mut out = BTreeMap::new();
    let mut tables = std::collections::BTreeSet::new();
    for m in e["games"].as_array().unwrap() {
        let key = (
            m["round"].as_u64().unwrap() as usize,
            m["match"].as_u64().unwrap() as usize,
        );
        let mut wins = [0u32; 2];
        let mut points = [0i64; 2];
        for g in m["games"].as_array().unwrap() {
            let table = g["table"].as_str().unwrap();
            // Nothing is played twice: every table belongs to one game.
            assert!(tables.insert(table.to_string()), "table {table} twice");
            let r = get(addr, &format!("/api/games/{table}"), None).await;
            assert_eq!(r.status, 200, "game {table}: {}", r.body);
            let replay: fiveup_protocol::Replay = r.json();
            let winner = replay.winner.expect("a finished game has a winner");
            let stored = &g["result"];
            assert_eq!(stored[0].as_bool().unwrap(), winner == 0, "game {table}");
            assert_eq!(stored[1][0].as_i64().unwrap(), i64::from(replay.scores[0]));
            assert_eq!(stored[1][1].as_i64().unwrap(), i64::from(replay.scores[1]));
            wins[usize::from(winner)] += 1;
            points[0] += i64::from(replay.scores[0]);
            points[1] += i64::from(replay.scores[1]);
        }
        let result = MatchResult::new(wins, 0, points);
        rule.check(&result)
            .unwrap_or_else(|err| panic!("match {key:?}: {err}"));
        out.insert(key, result);
    }
    out
}

fn entrants_of(e: &Value) -> Vec<Entrant> {
    e["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| !r["withdrawn"].as_bool().unwrap_or(false))
        .map(|r| serde_json::from_value(r["entrant"].clone()).unwrap())
        .collect()
}

fn standings_of(e: &Value) -> Vec<StandingRow> {
    serde_json::from_value(e["standings"].clone()).unwrap()
}

/// A Swiss rebuilt from the entrants and the recomputed results: the same pairings and the
/// same standings as the server's.
async fn check_swiss(addr: SocketAddr, e: &Value, rounds: u32) {
    let results = recomputed_results(addr, e).await;
    let rule = MatchRule::best_of(e["settings"]["best_of"].as_u64().unwrap() as u32);
    let mut swiss = Swiss::new(SwissSettings { rounds, rule }, entrants_of(e)).unwrap();
    let server_rounds = e["rounds"].as_array().unwrap();
    assert_eq!(server_rounds.len(), rounds as usize);
    for (r, server_round) in server_rounds.iter().enumerate() {
        let round = swiss.pair_next_round().unwrap().clone();
        assert_eq!(
            serde_json::to_value(&round.pairings).unwrap(),
            server_round["pairings"],
            "round {r}"
        );
        for (t, p) in round.pairings.iter().enumerate() {
            if p.b.is_some() {
                swiss.record(r, t, results[&(r, t)]).unwrap();
            }
        }
    }
    assert!(swiss.is_finished());
    assert_eq!(swiss.standings(), standings_of(e));
}

fn swiss_settings(name: &str, rounds: u32, rules: &str) -> Value {
    json!({
        "name": name,
        "format": {"kind": "swiss", "rounds": rounds},
        "rules": rules,
        "best_of": 1,
        "start_when": 2,
        "start_at": fiveup_server::now() + 3600,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_64_player_swiss_of_6_rounds_plays_every_game() {
    let dir = tempfile::tempdir().unwrap();
    for (kind, db) in databases(dir.path(), "swiss64").await {
        let server = fiveup_server::start(test_config(&db)).await.unwrap();
        let addr = server.local_addr();
        let td = registered(addr, "director").await;
        // Starts when 64 have joined (the time given is an hour away).
        let mut s = swiss_settings("Sixty-four", 6, "all-fives target=50");
        s["start_when"] = json!(64);
        let id = create(addr, &td, &s).await;
        add_bots(addr, &td, &id, "random", 40).await;
        assert_eq!(event(addr, &id).await["status"], "upcoming");
        add_bots(addr, &td, &id, "greedy", 24).await;
        let e = wait_status(addr, &id, "finished").await;
        assert_eq!(entrants_of(&e).len(), 64);
        check_swiss(addr, &e, 6).await;
        // 32 matches a round, one game each.
        assert_eq!(e["games"].as_array().unwrap().len(), 6 * 32, "{kind}");
        // Entries are closed now.
        let r = post(
            addr,
            &format!("/api/tournaments/{id}/bots"),
            Some(&td),
            &json!({"level": "random", "count": 1}),
        )
        .await;
        assert_eq!(r.status, 409, "{}", r.body);
        let list: Value = get(addr, "/api/tournaments?status=finished", None)
            .await
            .json();
        assert_eq!(list["finished"][0]["id"], id.as_str());
        server.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_32_player_double_elimination_knockout_best_of_3() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ko.db").display().to_string();
    let server = fiveup_server::start(test_config(&db)).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "director").await;
    let id = create(
        addr,
        &td,
        &json!({
            "name": "Double knockout",
            "format": {"kind": "knockout", "double": true},
            "rules": "all-fives target=50",
            "best_of": 3,
            "start_when": 32,
        }),
    )
    .await;
    add_bots(addr, &td, &id, "random", 32).await;
    let e = wait_status(addr, &id, "finished").await;
    let results = recomputed_results(addr, &e).await;
    let entrants = entrants_of(&e);
    assert_eq!(entrants.len(), 32);
    let mut ko = Knockout::new(
        KnockoutSettings {
            elimination: Elimination::Double,
            rule: MatchRule::best_of(3),
        },
        entrants,
    )
    .unwrap();
    // Replay the results in the order the bracket allows.
    let mut left: Vec<((usize, usize), MatchResult)> = results.into_iter().collect();
    while !left.is_empty() {
        let ready: Vec<usize> = ko.ready().iter().map(|r| r.0).collect();
        let before = left.len();
        left.retain(|((_, m), r)| {
            if ready.contains(m) {
                ko.record(*m, *r).unwrap();
                false
            } else {
                true
            }
        });
        assert!(
            left.len() < before,
            "results that the bracket never asked for"
        );
    }
    assert!(ko.champion().is_some());
    // 2n - 2 or 2n - 1 matches.
    let played = e["games"].as_array().unwrap().len();
    assert!(played == 62 || played == 63, "{played} matches");
    assert_eq!(ko.standings(), standings_of(&e));
    assert_eq!(
        serde_json::to_value(ko.bracket()).unwrap(),
        e["bracket"],
        "the bracket as drawn"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_partnership_swiss_seats_both_partners() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pairs.db").display().to_string();
    let server = fiveup_server::start(test_config(&db)).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "director").await;
    let mut s = swiss_settings("Pairs", 3, "all-fives players=4 partnerships=yes target=50");
    s["start_when"] = json!(8);
    let id = create(addr, &td, &s).await;
    add_bots(addr, &td, &id, "random", 8).await;
    let e = wait_status(addr, &id, "finished").await;
    for m in e["games"].as_array().unwrap() {
        let table = m["games"][0]["table"].as_str().unwrap();
        let replay: fiveup_protocol::Replay =
            get(addr, &format!("/api/games/{table}"), None).await.json();
        assert_eq!(replay.seats.len(), 4);
        assert_eq!(replay.scores.len(), 2);
    }
    check_swiss(addr, &e, 3).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_arena_pairs_free_players_until_time_is_up() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("arena.db").display().to_string();
    let server = fiveup_server::start(test_config(&db)).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "director").await;
    let id = create(
        addr,
        &td,
        &json!({
            "name": "Blitz arena",
            "format": {"kind": "arena", "duration_ms": 4000},
            "rules": "all-fives target=50",
            "start_when": 10,
        }),
    )
    .await;
    add_bots(addr, &td, &id, "random", 10).await;
    let e = wait_status(addr, &id, "finished").await;
    let matches = e["matches"].as_array().unwrap();
    let results = recomputed_results(addr, &e).await;
    assert_eq!(results.len(), matches.len());
    // More than one wave: players were paired again as they came free.
    assert!(matches.len() > 5, "{} matches", matches.len());
    for (i, m) in matches.iter().enumerate() {
        assert!(m["started_ms"].as_u64().unwrap() < 4000);
        let r: MatchResult = serde_json::from_value(m["result"].clone()).unwrap();
        assert_eq!(r, results[&(0, i)]);
    }
    // Every entrant's match points in the standings come from these results.
    let mut won: BTreeMap<u32, u32> = BTreeMap::new();
    for m in matches {
        let r: MatchResult = serde_json::from_value(m["result"].clone()).unwrap();
        let w = if r.games[0] > r.games[1] {
            &m["a"]
        } else {
            &m["b"]
        };
        *won.entry(w.as_u64().unwrap() as u32).or_default() += 1;
    }
    for row in standings_of(&e) {
        assert_eq!(
            row.record.won,
            won.get(&row.entrant.0).copied().unwrap_or(0)
        );
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_join_withdraw_are_called_to_their_table_and_see_standings() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("people.db").display().to_string();
    let server = fiveup_server::start(test_config(&db)).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "director").await;
    let ann = registered(addr, "ann").await;
    let bob = registered(addr, "bob").await;
    let (guest_cookie, _) = guest(addr, "visitor").await;
    // Bad settings are refused and change nothing.
    let r = post(
        addr,
        "/api/tournaments",
        Some(&td),
        &json!({"name": "", "format": {"kind": "swiss", "rounds": 2}, "rules": "all-fives", "start_when": 2}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = post(
        addr,
        "/api/tournaments",
        Some(&guest_cookie),
        &swiss_settings("Guests", 1, "all-fives"),
    )
    .await;
    assert_eq!(r.status, 401, "{}", r.body);
    let list: Value = get(addr, "/api/tournaments", None).await.json();
    assert_eq!(list["upcoming"].as_array().unwrap().len(), 0);

    let mut s = swiss_settings("People", 2, "all-fives target=50");
    s["start_when"] = json!(3);
    let id = create(addr, &td, &s).await;
    // A guest may not join a rated Swiss.
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/join"),
        Some(&guest_cookie),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 401, "{}", r.body);
    // Ann joins, withdraws and joins again; joining twice is refused.
    let join = |c: String| {
        let id = id.clone();
        async move {
            post(
                addr,
                &format!("/api/tournaments/{id}/join"),
                Some(&c),
                &json!({}),
            )
            .await
        }
    };
    assert_eq!(join(ann.clone()).await.status, 200);
    assert_eq!(join(ann.clone()).await.status, 409);
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/withdraw"),
        Some(&ann),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(join(ann.clone()).await.status, 200);

    // Ann follows the event and is told when her table is ready.
    let mut wa = connect(addr, Some(&ann)).await;
    wa.send(&ClientMsg::Tournament {
        tournament: id.clone(),
    })
    .await;
    match wa.recv().await {
        ServerMsg::Tournament { event } => {
            assert_eq!(event.status, "upcoming");
            assert_eq!(event.entrants, 1);
        }
        m => panic!("expected the tournament, got {m:?}"),
    }
    let wb = connect(addr, Some(&bob)).await;
    assert_eq!(join(bob.clone()).await.status, 200);
    add_bots(addr, &td, &id, "random", 1).await;
    // Three entrants: one has the bye each round. Each person plays the table called to, as
    // called (wherever they were), alone against the computer or against each other.
    let mut ws = [wa, wb];
    let mut cursors = [0usize; 2];
    let mut played_tables: Vec<String> = Vec::new();
    let start = Instant::now();
    while event(addr, &id).await["status"] != "finished" {
        assert!(start.elapsed() < EVENT_WAIT, "the event did not finish");
        let mut calls: Vec<Option<String>> = Vec::new();
        for (w, cursor) in ws.iter_mut().zip(cursors.iter_mut()) {
            calls.push(next_call(w, cursor, Duration::from_millis(1500)).await);
        }
        match (&calls[0], &calls[1]) {
            (Some(a), Some(b)) if a == b => {
                for w in ws.iter_mut() {
                    w.open(a, None).await;
                }
                common::play_out(&mut ws, 4000).await;
                played_tables.push(a.clone());
            }
            _ => {
                for (i, call) in calls.iter().enumerate() {
                    if let Some(t) = call {
                        ws[i].open(t, None).await;
                        common::play_out(std::slice::from_mut(&mut ws[i]), 4000).await;
                        played_tables.push(t.clone());
                    }
                }
            }
        }
        for w in ws.iter_mut() {
            w.view = None;
            w.events.clear();
            // Each table deals from hand 1 again.
            w.seeded.clear();
        }
    }
    assert!(played_tables.len() >= 2, "{played_tables:?}");
    let e = event(addr, &id).await;
    check_swiss(addr, &e, 2).await;
    // The followed event's final standings were pushed to Ann.
    let finished_push = |c: &common::Client| {
        c.raw.iter().find_map(|t| match serde_json::from_str(t) {
            Ok(ServerMsg::Tournament { event }) if event.status == "finished" => Some(event),
            _ => None,
        })
    };
    let pushed = loop {
        if let Some(e) = finished_push(&ws[0]) {
            break e;
        }
        ws[0].recv().await;
    };
    let standings = standings_of(&e);
    assert_eq!(pushed.standings.len(), standings.len());
    for (p, s) in pushed.standings.iter().zip(&standings) {
        assert_eq!((p.entrant, p.points), (s.entrant.0, s.points));
    }
    // The games are in the players' histories.
    let mut in_history = 0;
    for c in [&ann, &bob] {
        let me: Value = get(addr, "/api/me", Some(c)).await.json();
        let uid = me["user"]["id"].as_i64().unwrap();
        let profile: Value = get(addr, &format!("/api/users/{uid}"), None).await.json();
        let history = profile["history"].to_string();
        in_history += played_tables
            .iter()
            .filter(|t| history.contains(t.as_str()))
            .count();
    }
    assert!(
        in_history >= played_tables.len(),
        "{in_history} in histories"
    );
    server.shutdown().await;
}

/// The figure in `docs/benchmarks.md`: how long the director takes, in process, from the
/// entry that starts an arena of 1,000 computer entrants to the 500 tables of its first
/// pairing wave all opened (stored, created and running). Run by hand:
/// `cargo test -p fiveup-server --test tournament -- --ignored --nocapture arena_of_1000`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, run by hand"]
async fn arena_of_1000_first_wave() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("arena1000.db").display().to_string();
    let mut cfg = test_config(&db);
    // The games wait, so that the first wave is measured alone.
    cfg.bot_delay = Duration::from_secs(5);
    let server = fiveup_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "director").await;
    let id = create(
        addr,
        &td,
        &json!({
            "name": "Big arena",
            "format": {"kind": "arena", "duration_ms": 600_000},
            "rules": "all-fives target=50",
            "start_when": 1000,
        }),
    )
    .await;
    add_bots(addr, &td, &id, "random", 999).await;
    let t0 = Instant::now();
    add_bots(addr, &td, &id, "random", 1).await;
    let e = loop {
        let e = event(addr, &id).await;
        if e["games"].as_array().is_some_and(|g| g.len() >= 500) {
            break e;
        }
        assert!(t0.elapsed() < EVENT_WAIT);
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let wave = t0.elapsed();
    assert_eq!(e["matches"].as_array().unwrap().len(), 500);
    eprintln!(
        "arena of 1,000: first wave of 500 matches paired, stored and their tables opened in {} ms",
        wave.as_millis()
    );
    server.shutdown().await;
}

/// A duplicate event's boards checked from the published data: every commitment is the
/// SHA-256 of its published seed, every table of a board was dealt the deal the seed gives
/// (re-derived here from the seed alone), every stored score is its game record's, and the
/// standings are the crate's recomputation from those records.
async fn check_duplicate(addr: SocketAddr, e: &Value, boards: usize, commits: &[String]) {
    use fiveup_server::table::fairness;
    let rules = {
        let mut r = fiveup_engine::Rules::parse(e["settings"]["rules"].as_str().unwrap()).unwrap();
        r.hand_limit = 1;
        r
    };
    let field = entrants_of(e);
    let list = e["boards"].as_array().unwrap();
    assert_eq!(list.len(), boards);
    let mut recomputed = Vec::new();
    let mut tables = std::collections::BTreeSet::new();
    for (b, board) in list.iter().enumerate() {
        assert_eq!(board["board"].as_u64().unwrap() as usize, b + 1);
        // The commitment shown before the start stands, and the seed published matches it.
        assert_eq!(board["commit"].as_str().unwrap(), commits[b]);
        let seed =
            fairness::parse_seed_hex(board["seed"].as_str().expect("seed published")).unwrap();
        assert_eq!(fairness::to_hex(&fairness::commitment(&seed)), commits[b]);
        let deal_seed = fairness::deal_seed(&seed, &vec![None; usize::from(rules.players)]);
        let deal = fairness::deal(&deal_seed, 1, &rules, true);
        let results = board["results"].as_array().unwrap();
        assert_eq!(
            results.len(),
            field.len(),
            "board {}: everyone played",
            b + 1
        );
        let mut scores = Vec::new();
        for r in results {
            let table = r["table"].as_str().unwrap();
            assert!(tables.insert(table.to_string()), "table {table} twice");
            let g = get(addr, &format!("/api/games/{table}"), None).await;
            assert_eq!(g.status, 200, "game {table}: {}", g.body);
            let replay: fiveup_protocol::Replay = g.json();
            let h1 = &replay.hands[0];
            let proof = h1.proof.as_ref().expect("a proof");
            assert_eq!(proof.commitment, commits[b], "table {table}");
            assert_eq!(
                proof.server_seed.as_deref(),
                Some(fairness::to_hex(&seed).as_str())
            );
            // The deal the published seed gives is the one played.
            for (seat, tiles) in h1.dealt.iter().enumerate() {
                let mut want: Vec<_> = deal.hand(fiveup_engine::Seat(seat as u8)).iter().collect();
                let mut got = tiles.clone();
                want.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, want, "board {} at table {table}, seat {seat}", b + 1);
            }
            assert_eq!(h1.boneyard, deal.boneyard(), "board {} at {table}", b + 1);
            // Any further hand (a tie on the board) is the board's too.
            for h in &replay.hands[1..] {
                let p = h.proof.as_ref().expect("a proof");
                assert_eq!(
                    p.server_seed.as_deref(),
                    Some(fairness::to_hex(&seed).as_str())
                );
            }
            let score = i64::from(replay.scores[0]) - i64::from(replay.scores[1]);
            assert_eq!(r["score"].as_i64().unwrap(), score, "table {table}");
            let entrant = fiveup_tournament::EntrantId(r["entrant"].as_u64().unwrap() as u32);
            scores.push((entrant, score));
        }
        let n = scores.len() as f64;
        let avg = scores.iter().map(|(_, s)| *s as f64).sum::<f64>() / n;
        assert!((board["average"].as_f64().unwrap() - avg).abs() < 1e-9);
        recomputed.push(fiveup_tournament::duplicate::Board {
            scores,
            ..Default::default()
        });
    }
    let scoring = match e["settings"]["format"]["scoring"].as_str() {
        Some("difference") => fiveup_tournament::duplicate::DuplicateScoring::Difference,
        _ => fiveup_tournament::duplicate::DuplicateScoring::Matchpoints,
    };
    let want = fiveup_tournament::duplicate::standings(&field, &recomputed, scoring).unwrap();
    assert_eq!(standings_of(e), want);
}

/// The commitments of an event's boards, once drawn (before the start).
async fn commitments(addr: SocketAddr, id: &str, boards: usize) -> Vec<String> {
    let start = Instant::now();
    loop {
        let e = event(addr, id).await;
        if let Some(list) = e["boards"].as_array().filter(|l| l.len() == boards) {
            return list
                .iter()
                .map(|b| {
                    // Secret until the event is over.
                    assert!(b["seed"].is_null(), "{b}");
                    b["commit"].as_str().unwrap().to_string()
                })
                .collect();
        }
        assert!(start.elapsed() < EVENT_WAIT, "no boards drawn: {e}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_of_8_boards_with_20_entrants_publishes_checkable_seeds() {
    let dir = tempfile::tempdir().unwrap();
    for (kind, db) in databases(dir.path(), "duplicate").await {
        let server = fiveup_server::start(test_config(&db)).await.unwrap();
        let addr = server.local_addr();
        let td = registered(addr, "director").await;
        let id = create(
            addr,
            &td,
            &json!({
                "name": "Duplicate",
                "format": {"kind": "duplicate", "boards": 8, "scoring": "matchpoints"},
                "rules": "all-fives target=50",
                "opponents": "greedy",
                "start_when": 20,
            }),
        )
        .await;
        let commits = commitments(addr, &id, 8).await;
        add_bots(addr, &td, &id, "random", 10).await;
        add_bots(addr, &td, &id, "greedy", 10).await;
        let e = wait_status(addr, &id, "finished").await;
        assert_eq!(entrants_of(&e).len(), 20, "{kind}");
        check_duplicate(addr, &e, 8, &commits).await;
        assert_eq!(e["games"].as_array().unwrap().len(), 8 * 20, "{kind}");
        assert!(e.get("closes_ms").is_none());
        server.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daylong_is_played_by_one_person_whenever_they_come() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("daylong.db").display().to_string();
    let server = fiveup_server::start(test_config(&db)).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "director").await;
    // Bad values are refused with the reason.
    for (format, opponents, want) in [
        (
            json!({"kind": "daylong", "boards": 0, "duration_ms": 8000}),
            "greedy",
            "boards",
        ),
        (
            json!({"kind": "daylong", "boards": 2, "duration_ms": 10}),
            "greedy",
            "daylong",
        ),
        (
            json!({"kind": "duplicate", "boards": 2}),
            "nobody",
            "opponents",
        ),
    ] {
        let r = post(
            addr,
            "/api/tournaments",
            Some(&td),
            &json!({"name": "Bad", "format": format, "rules": "all-fives", "opponents": opponents, "start_when": 2}),
        )
        .await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains(want), "{}", r.body);
    }
    // Open at once (no start time) for twenty seconds.
    let id = create(
        addr,
        &td,
        &json!({
            "name": "Daylong",
            "format": {"kind": "daylong", "boards": 2, "scoring": "difference", "duration_ms": 20000},
            "rules": "all-fives target=50",
            "opponents": "greedy",
        }),
    )
    .await;
    let commits = commitments(addr, &id, 2).await;
    wait_status(addr, &id, "running").await;
    // One person, a guest, comes and plays both boards as they are dealt.
    let (visitor, _) = guest(addr, "visitor").await;
    let mut w = connect(addr, Some(&visitor)).await;
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/join"),
        Some(&visitor),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let mut cursor = 0;
    for _ in 0..2 {
        let table = next_call(&mut w, &mut cursor, Duration::from_secs(30))
            .await
            .expect("the next board is dealt");
        w.open(&table, None).await;
        common::play_out(std::slice::from_mut(&mut w), 4000).await;
        w.view = None;
        w.events.clear();
        w.seeded.clear();
    }
    // A computer entrant comes later, still before the close.
    add_bots(addr, &td, &id, "random", 1).await;
    // While the daylong runs, a board's results and games are hidden from anyone who has not
    // played it: the visitor, who has, sees the computer's game of board 1 once it is over; a
    // stranger sees neither results nor games, and no record of the board.
    let path = format!("/api/tournaments/{id}");
    let start = Instant::now();
    let other_table = loop {
        let e: Value = get(addr, &path, Some(&visitor)).await.json();
        if e["status"] == "finished" {
            break None;
        }
        let b1 = &e["boards"][0];
        assert_eq!(b1["hidden"], false, "{b1}");
        let theirs = b1["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["table"].as_str())
            .map(str::to_string)
            .collect::<Vec<_>>();
        if theirs.len() == 2 {
            break Some((theirs, e));
        }
        assert!(start.elapsed() < EVENT_WAIT);
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    if let Some((tables, _)) = other_table {
        let (stranger, _) = guest(addr, "stranger").await;
        let e: Value = get(addr, &path, Some(&stranger)).await.json();
        if e["status"] != "finished" {
            for b in e["boards"].as_array().unwrap() {
                assert_eq!(b["hidden"], true, "{b}");
                assert!(b["results"].as_array().unwrap().is_empty(), "{b}");
                assert!(b["average"].is_null(), "{b}");
                assert!(b["seed"].is_null(), "{b}");
            }
            assert!(e["games"].as_array().unwrap().is_empty(), "{}", e["games"]);
            for t in &tables {
                for p in [
                    format!("/api/games/{t}"),
                    format!("/api/games/{t}/record.txt"),
                ] {
                    let r = get(addr, &p, Some(&stranger)).await;
                    assert_eq!(r.status, 404, "{p}: {}", r.body);
                    assert!(
                        r.body.contains(
                            "hidden until you have played it or the tournament has ended"
                        ),
                        "{}",
                        r.body
                    );
                }
                // Whoever finished the board may look at every table's game of it.
                let r = get(addr, &format!("/api/games/{t}"), Some(&visitor)).await;
                assert_eq!(r.status, 200, "{}", r.body);
            }
        }
        // After the end, everyone may.
        wait_status(addr, &id, "finished").await;
        for t in &tables {
            let r = get(addr, &format!("/api/games/{t}"), Some(&stranger)).await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
    }
    let e = event(addr, &id).await;
    let closes = e["closes_ms"].as_i64().expect("a daylong closes");
    assert_eq!(
        closes - e["started_ms"].as_i64().unwrap(),
        20000,
        "open for its period"
    );
    let e = wait_status(addr, &id, "finished").await;
    assert!(fiveup_server::clock::Clock::system().now_ms() >= closes);
    assert_eq!(entrants_of(&e).len(), 2);
    check_duplicate(addr, &e, 2, &commits).await;
    // Entries are closed now.
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/bots"),
        Some(&td),
        &json!({"level": "random", "count": 1}),
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.body);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_shows_lose_are_withdrawn_and_a_second_bars_joining_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    for (kind, db) in databases(dir.path(), "noshow").await {
        let server = fiveup_server::start(test_config(&db)).await.unwrap();
        let addr = server.local_addr();
        let td = registered(addr, "director").await;
        let ann = registered(addr, "ann").await;
        let mut s = swiss_settings("No-show", 1, "all-fives target=50");
        s["no_show_ms"] = json!(10);
        let r = post(addr, "/api/tournaments", Some(&td), &s).await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains("no-show"), "{}", r.body);
        s["no_show_ms"] = json!(1500);
        for n in 0..2 {
            let id = create(addr, &td, &s).await;
            let r = post(
                addr,
                &format!("/api/tournaments/{id}/join"),
                Some(&ann),
                &json!({}),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.body);
            // Ann never comes to her table.
            add_bots(addr, &td, &id, "random", 1).await;
            let e = wait_status(addr, &id, "finished").await;
            let rows = e["entrants"].as_array().unwrap();
            let ann_row = rows
                .iter()
                .find(|r| r["members"][0]["kind"] == "user")
                .unwrap();
            assert_eq!(ann_row["withdrawn"], true, "{kind} event {n}: {ann_row}");
            let ann_no = ann_row["entrant"]["id"].as_u64().unwrap();
            let standings = standings_of(&e);
            let row = standings
                .iter()
                .find(|r| u64::from(r.entrant.0) == ann_no)
                .unwrap();
            assert_eq!((row.record.lost, row.points), (1, 0.0), "{kind}: {row:?}");
            // The game was lost at its table, with nobody having played for Ann: she is out
            // of it, no computer player ever took her seat, and no move of hers was played.
            let table = e["games"][0]["games"][0]["table"].as_str().unwrap();
            let replay: fiveup_protocol::Replay =
                get(addr, &format!("/api/games/{table}"), None).await.json();
            assert!(
                replay.seats[0].resigned
                    && !replay.seats[0].by_computer
                    && !replay.seats[0].taken_over,
                "{kind}: {:?}",
                replay.seats[0]
            );
            assert!(
                replay
                    .hands
                    .iter()
                    .flat_map(|h| &h.steps)
                    .all(|s| s.seat != 0),
                "{kind}: a move at Ann's seat"
            );
        }
        // A second no-show within the week: Ann may not join another event for a day, and
        // that holds after a restart.
        let id = create(addr, &td, &s).await;
        server.shutdown().await;
        let server = fiveup_server::start(test_config(&db)).await.unwrap();
        let addr = server.local_addr();
        let r = post(
            addr,
            &format!("/api/tournaments/{id}/join"),
            Some(&ann),
            &json!({}),
        )
        .await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(
            r.body.contains("missed your games in two tournaments"),
            "{}",
            r.body
        );
        assert!(r.body.contains("1440 minutes"), "{}", r.body);
        server.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_no_show_is_withdrawn_before_the_next_round_and_one_event_missed_bars_nobody() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("noshow-once.db").display().to_string();
    let server = fiveup_server::start(test_config(&db)).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "director").await;
    let ann = registered(addr, "ann").await;
    // Four entrants, two rounds: Ann never comes. The computers' game of round 1 ends in
    // milliseconds, so Ann's lost game is the one that completes the round.
    let mut s = swiss_settings("Once", 2, "all-fives target=50");
    s["no_show_ms"] = json!(1500);
    s["start_when"] = json!(4);
    let id = create(addr, &td, &s).await;
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/join"),
        Some(&ann),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    add_bots(addr, &td, &id, "random", 3).await;
    let e = wait_status(addr, &id, "finished").await;
    let ann_row = e["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["members"][0]["kind"] == "user")
        .unwrap()
        .clone();
    assert_eq!(ann_row["withdrawn"], true, "{ann_row}");
    let ann_no = ann_row["entrant"]["id"].as_u64().unwrap();
    let row = standings_of(&e)
        .into_iter()
        .find(|r| u64::from(r.entrant.0) == ann_no)
        .unwrap();
    println!(
        "a no-show in a 2-round Swiss: games lost {}, no-shows stored {}",
        row.record.lost,
        sqlx::query("SELECT table_id FROM tournament_no_shows")
            .fetch_all(&server.app.db.pool)
            .await
            .unwrap()
            .len()
    );
    // One game lost, not paired again in round 2.
    assert_eq!(row.record.lost, 1, "{row:?}");
    assert_eq!(row.points, 0.0, "{row:?}");
    // One event missed bars nobody: Ann may join the next.
    let next = create(addr, &td, &swiss_settings("Next", 1, "all-fives target=50")).await;
    let r = post(
        addr,
        &format!("/api/tournaments/{next}/join"),
        Some(&ann),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_match_clock_ends_a_game_on_the_higher_score() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("clock.db").display().to_string();
    let mut c = test_config(&db);
    // A pause between computer moves, so that a game to 500 cannot end by itself in time.
    c.bot_delay = Duration::from_millis(10);
    let server = fiveup_server::start(c).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "director").await;
    let mut s = swiss_settings("Clock", 1, "all-fives target=500");
    s["match_clock_ms"] = json!(0);
    let r = post(addr, "/api/tournaments", Some(&td), &s).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("match clock"), "{}", r.body);
    s["match_clock_ms"] = json!(1500);
    let id = create(addr, &td, &s).await;
    add_bots(addr, &td, &id, "random", 2).await;
    let e = wait_status(addr, &id, "finished").await;
    let table = e["games"][0]["games"][0]["table"]
        .as_str()
        .unwrap()
        .to_string();
    let replay: fiveup_protocol::Replay =
        get(addr, &format!("/api/games/{table}"), None).await.json();
    let scores = &replay.scores;
    assert!(scores.iter().all(|&s| s < 500), "{scores:?}");
    assert_ne!(scores[0], scores[1], "a tie is played on to the next score");
    // The higher score won, as the event recorded.
    let a_won = e["games"][0]["games"][0]["result"][0].as_bool().unwrap();
    assert_eq!(a_won, scores[0] > scores[1], "{scores:?}");
    // The clock ended the hand in play before deciding: the last hand is over, or a tie was
    // broken in a later hand by one score.
    let last = replay.hands.last().unwrap();
    if last.outcome.is_none() {
        assert!(replay.hands.len() >= 2);
        let before = &last.scores_before;
        assert_eq!(
            before[0], before[1],
            "a hand begun after the clock breaks a tie"
        );
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_turn_clock_strikes_a_slow_person_moves_nobody_for_them_and_the_third_loses() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("turn.db").display().to_string();
    let server = fiveup_server::start(test_config(&db)).await.unwrap();
    let addr = server.local_addr();
    let td = registered(addr, "director").await;
    let ann = registered(addr, "ann").await;
    let settings = |turn: u64| {
        json!({
            "name": "Turns",
            "format": {"kind": "duplicate", "boards": 1},
            "rules": "all-fives target=50",
            "opponents": "random",
            "start_when": 2,
            "turn_ms": turn,
            "no_show_ms": 3_600_000,
        })
    };
    let r = post(addr, "/api/tournaments", Some(&td), &settings(5)).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("turn clock"), "{}", r.body);
    let id = create(addr, &td, &settings(300)).await;
    let mut w = connect(addr, Some(&ann)).await;
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/join"),
        Some(&ann),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    add_bots(addr, &td, &id, "random", 1).await;
    // Ann comes to her board and makes one move, then stays at the table without moving:
    // three strikes on her next turn, nobody moving for her, and the third loses the game.
    let mut cursor = 0;
    let table = next_call(&mut w, &mut cursor, Duration::from_secs(30))
        .await
        .expect("Ann's board is dealt");
    let seat = w
        .open(&table, None)
        .await
        .you
        .expect("Ann sits at her board");
    common::play_until(std::slice::from_mut(&mut w), 1, |cs| {
        cs[0].events.iter().any(
            |(_, e)| matches!(e, fiveup_protocol::EventView::Action { seat: s, .. } if *s == seat),
        )
    })
    .await;
    let e = wait_status(addr, &id, "finished").await;
    let replay: fiveup_protocol::Replay =
        get(addr, &format!("/api/games/{table}"), None).await.json();
    let hers = replay
        .hands
        .iter()
        .flat_map(|h| &h.steps)
        .filter(|s| s.seat == seat)
        .count();
    assert_eq!(hers, 1, "her own move alone");
    let s = &replay.seats[usize::from(seat)];
    assert!(s.resigned && !s.by_computer && !s.taken_over, "{s:?}");
    // Her side lost: she sits on side A (the even seats) at her board.
    assert_eq!(e["games"][0]["games"][0]["result"][0], seat % 2 == 1);
    // A slow player is not withdrawn.
    assert!(e["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["withdrawn"] == false));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_of_5_plays_its_berger_tables_round_by_round() {
    use fiveup_tournament::roundrobin::{RoundRobin, RoundRobinSettings};
    let dir = tempfile::tempdir().unwrap();
    for (kind, db) in databases(dir.path(), "roundrobin").await {
        let server = fiveup_server::start(test_config(&db)).await.unwrap();
        let addr = server.local_addr();
        let td = registered(addr, "director").await;
        let id = create(
            addr,
            &td,
            &json!({
                "name": "All play all",
                "format": {"kind": "round_robin"},
                "rules": "all-fives target=50",
                "best_of": 1,
                "start_when": 5,
            }),
        )
        .await;
        add_bots(addr, &td, &id, "random", 3).await;
        add_bots(addr, &td, &id, "greedy", 2).await;
        let e = wait_status(addr, &id, "finished").await;
        // Five entrants: five rounds of two matches and a bye.
        let results = recomputed_results(addr, &e).await;
        assert_eq!(results.len(), 10, "{kind}");
        let mut rr = RoundRobin::new(
            RoundRobinSettings {
                double: false,
                rule: MatchRule::single(),
            },
            entrants_of(&e),
        )
        .unwrap();
        for ((round, table), r) in &results {
            rr.record(*round, *table, *r).unwrap();
        }
        assert!(rr.is_finished());
        assert_eq!(e["rounds"], serde_json::to_value(rr.rounds()).unwrap());
        assert_eq!(standings_of(&e), rr.standings(), "{kind}");
        for s in standings_of(&e) {
            assert_eq!(s.record.played, 4, "{kind}: {s:?}");
        }
        server.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_throat_event_seats_7_at_tables_of_3_to_4_for_3_rounds() {
    use fiveup_tournament::cutthroat::{CutThroat, CutThroatSettings};
    let dir = tempfile::tempdir().unwrap();
    for (kind, db) in databases(dir.path(), "cutthroat").await {
        let server = fiveup_server::start(test_config(&db)).await.unwrap();
        let addr = server.local_addr();
        let td = registered(addr, "director").await;
        let mut s = json!({
            "name": "Cut-throat",
            "format": {"kind": "cut_throat", "rounds": 3, "min_seats": 3, "max_seats": 9},
            "rules": "all-fives target=50",
            "start_when": 7,
        });
        let r = post(addr, "/api/tournaments", Some(&td), &s).await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains("seat 3 to 8"), "{}", r.body);
        s["format"]["max_seats"] = json!(4);
        let id = create(addr, &td, &s).await;
        add_bots(addr, &td, &id, "random", 7).await;
        let e = wait_status(addr, &id, "finished").await;
        let mut ct = CutThroat::new(
            CutThroatSettings {
                min_seats: 3,
                max_seats: 4,
                rounds: 3,
            },
            entrants_of(&e),
        )
        .unwrap();
        let rounds = e["tables"].as_array().unwrap();
        assert_eq!(rounds.len(), 3, "{kind}");
        let mut tables = std::collections::BTreeSet::new();
        for (r, round) in rounds.iter().enumerate() {
            // The same seating as the crate's from the same results.
            let seated = ct.pair_next_round().unwrap().to_vec();
            let round = round.as_array().unwrap();
            assert_eq!(round.len(), 2, "{kind}: seven at tables of 4 and 3");
            for (t, table) in round.iter().enumerate() {
                let ids: Vec<u32> = table["entrants"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap() as u32)
                    .collect();
                assert_eq!(
                    ids,
                    seated[t].seats.iter().map(|e| e.0).collect::<Vec<_>>(),
                    "{kind}: round {r} table {t}"
                );
                let id = table["table"].as_str().unwrap();
                assert!(tables.insert(id.to_string()));
                let replay: fiveup_protocol::Replay =
                    get(addr, &format!("/api/games/{id}"), None).await.json();
                assert_eq!(replay.seats.len(), ids.len());
                let points: Vec<i64> = replay.scores.iter().map(|&x| i64::from(x)).collect();
                let stored: Vec<i64> = table["scores"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_i64().unwrap())
                    .collect();
                assert_eq!(stored, points, "{kind}: table {id}");
                ct.record(r, t, points).unwrap();
            }
        }
        assert_eq!(standings_of(&e), ct.standings(), "{kind}");
        server.shutdown().await;
    }
}
