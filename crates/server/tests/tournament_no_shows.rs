//! No computer plays a person's seat at a tournament table, in any format: a person who never
//! comes to their table (wherever they are meanwhile) loses that game as a no-show and is
//! withdrawn, with nothing played in their name; a person who moved and then went away loses
//! on the turn clock; one who leaves during the game loses it at once.
//!
//! The server here takes an away person's turn over after 100 ms and deals without missing
//! seeds after 50 ms, as a live server does after 60 and 30 seconds: quicker than the
//! tournament's no-show time, as there. Neither may reach a tournament table.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{config, connect, get, next_call, post, registered};
use fiveup_protocol::{ClientMsg, Replay, ServerMsg};
use fiveup_server::clock::Clock;
use serde_json::{json, Value};

/// How long a whole event may take before the test fails.
const EVENT_WAIT: Duration = Duration::from_secs(120);

/// The shortest no-show time an event may set.
const NO_SHOW_MS: u64 = 1000;

fn test_config(db: &str) -> fiveup_server::Config {
    let mut c = config(db);
    c.tournament_tick = Duration::from_millis(50);
    c.takeover = Some(Duration::from_millis(100));
    c.seed_wait = Duration::from_millis(50);
    c
}

/// A server on a loopback port with SQLite in `dir`, and its address.
async fn server(
    dir: &std::path::Path,
    name: &str,
    clock: Option<Clock>,
) -> (fiveup_server::Server, SocketAddr) {
    let db = dir.join(format!("{name}.db")).display().to_string();
    let mut c = test_config(&db);
    if let Some(clock) = clock {
        c.clock = clock;
    }
    let s = fiveup_server::start(c).await.unwrap();
    let addr = s.local_addr();
    (s, addr)
}

async fn create(addr: SocketAddr, cookie: &str, settings: &Value) -> String {
    let r = post(addr, "/api/tournaments", Some(cookie), settings).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.json::<Value>()["id"].as_str().unwrap().to_string()
}

async fn join(addr: SocketAddr, cookie: &str, id: &str) {
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/join"),
        Some(cookie),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

async fn add_bots(addr: SocketAddr, cookie: &str, id: &str, count: u32) {
    let r = post(
        addr,
        &format!("/api/tournaments/{id}/bots"),
        Some(cookie),
        &json!({"level": "random", "count": count}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
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
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn user_id(addr: SocketAddr, cookie: &str) -> i64 {
    let me: Value = get(addr, "/api/me", Some(cookie)).await.json();
    me["user"]["id"].as_i64().unwrap()
}

/// A person's entrant row in the event.
fn entrant_of(e: &Value, user: i64) -> Value {
    e["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["members"][0]["kind"] == "user" && r["members"][0]["user"]["id"] == user)
        .unwrap_or_else(|| panic!("no entrant of user {user}: {}", e["entrants"]))
        .clone()
}

fn entrant_no(e: &Value, user: i64) -> u64 {
    entrant_of(e, user)["entrant"]["id"].as_u64().unwrap()
}

/// A person's standings row.
fn standing(e: &Value, entrant: u64) -> Value {
    e["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["entrant"] == entrant)
        .unwrap_or_else(|| panic!("entrant {entrant} not in {}", e["standings"]))
        .clone()
}

/// Every finished game a person sat at: table and seat.
async fn tables_of(server: &fiveup_server::Server, user: i64) -> Vec<(String, usize)> {
    let rows = sqlx::query("SELECT game_id, seat FROM game_players WHERE user_id = $1")
        .bind(user)
        .fetch_all(&server.app.db.pool)
        .await
        .unwrap();
    rows.iter()
        .map(|r| {
            use sqlx::Row;
            let t: String = r.get("game_id");
            let s: i64 = r.get("seat");
            (t, s as usize)
        })
        .collect()
}

/// A table's stored changes.
async fn changes(server: &fiveup_server::Server, table: &str) -> Vec<Value> {
    use sqlx::Row;
    sqlx::query("SELECT body FROM table_events WHERE table_id = $1 ORDER BY seq")
        .bind(table)
        .fetch_all(&server.app.db.pool)
        .await
        .unwrap()
        .iter()
        .map(|r| serde_json::from_str(&r.get::<String, _>("body")).unwrap())
        .collect()
}

/// No computer player took the seat, played for it, or was handed it: the table stored no
/// takeover, no resignation and no move without the person's own command id for the seat.
fn nobody_played_for(changes: &[Value], seat: usize) {
    for c in changes {
        let t = c["t"].as_str().unwrap();
        assert!(t != "takeover" && t != "resign", "{c}");
        if t == "act" && c["seat"] == seat {
            assert!(c["cmd"].is_string(), "a move played for seat {seat}: {c}");
        }
    }
}

/// The game `table` was lost by the person at `seat` as a no-show, and nothing was played in
/// their name: the table stored their no-show and no move of theirs, the director counted the
/// no-show, and the game's record shows them out of it, never played for.
async fn lost_as_no_show(server: &fiveup_server::Server, table: &str, seat: usize, user: i64) {
    let ch = changes(server, table).await;
    nobody_played_for(&ch, seat);
    assert!(
        ch.iter().any(|c| c["t"] == "no_show" && c["seat"] == seat),
        "no no-show stored at {table}: {ch:?}"
    );
    assert!(
        !ch.iter().any(|c| c["t"] == "act" && c["seat"] == seat),
        "a move at seat {seat} of {table}"
    );
    let counted =
        sqlx::query("SELECT user_id FROM tournament_no_shows WHERE table_id = $1 AND user_id = $2")
            .bind(table)
            .bind(user)
            .fetch_all(&server.app.db.pool)
            .await
            .unwrap();
    assert_eq!(counted.len(), 1, "the no-show at {table} is counted");
    let addr = server.local_addr();
    let replay: Replay = get(addr, &format!("/api/games/{table}"), None).await.json();
    let s = &replay.seats[seat];
    assert!(
        s.resigned && !s.by_computer && !s.taken_over,
        "{table}: {s:?}"
    );
    assert!(
        replay
            .hands
            .iter()
            .flat_map(|h| &h.steps)
            .all(|st| usize::from(st.seat) != seat),
        "{table}: a step at seat {seat}"
    );
    // Not a game of theirs won.
    use sqlx::Row;
    let won: i64 = sqlx::query("SELECT won FROM game_players WHERE game_id = $1 AND user_id = $2")
        .bind(table)
        .bind(user)
        .fetch_one(&server.app.db.pool)
        .await
        .unwrap()
        .get("won");
    assert_eq!(won, 0, "{table}");
}

/// The game of `table` in the event's list: its result `[a_won, [points a, points b]]`.
fn game_result(e: &Value, table: &str) -> Value {
    e["games"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["games"].as_array().unwrap())
        .find(|g| g["table"] == table)
        .unwrap_or_else(|| panic!("no game at {table}"))["result"]
        .clone()
}

/// Swiss settings starting with `n` entrants.
fn swiss(rounds: u32, n: u32) -> Value {
    json!({
        "name": "Swiss",
        "format": {"kind": "swiss", "rounds": rounds},
        "rules": "all-fives target=50",
        "start_when": n,
        "no_show_ms": NO_SHOW_MS,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_entrant_who_never_comes_loses_by_no_show_and_is_not_paired_again() {
    let dir = tempfile::tempdir().unwrap();
    let (server, addr) = server(dir.path(), "swiss", None).await;
    let td = registered(addr, "director").await;
    let ann = registered(addr, "ann").await;
    let ann_id = user_id(addr, &ann).await;
    let id = create(addr, &td, &swiss(2, 4)).await;
    join(addr, &ann, &id).await;
    // Ann never connects.
    add_bots(addr, &td, &id, 3).await;
    let e = wait_status(addr, &id, "finished").await;
    assert_eq!(entrant_of(&e, ann_id)["withdrawn"], true);
    let tables = tables_of(&server, ann_id).await;
    assert_eq!(tables.len(), 1, "not paired again: {tables:?}");
    let (table, seat) = &tables[0];
    lost_as_no_show(&server, table, *seat, ann_id).await;
    // Her opponent won the game: side A sits at the even seats.
    assert_eq!(game_result(&e, table)[0], seat % 2 == 1, "{}", e["games"]);
    let row = standing(&e, entrant_no(&e, ann_id));
    assert_eq!(
        (row["record"]["lost"].as_u64(), row["points"].as_f64()),
        (Some(1), Some(0.0)),
        "{row}"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_knockout_entrant_who_never_comes_loses_the_match_by_no_show() {
    let dir = tempfile::tempdir().unwrap();
    let (server, addr) = server(dir.path(), "knockout", None).await;
    let td = registered(addr, "director").await;
    let ann = registered(addr, "ann").await;
    let ann_id = user_id(addr, &ann).await;
    let id = create(
        addr,
        &td,
        &json!({
            "name": "Knockout",
            "format": {"kind": "knockout"},
            "rules": "all-fives target=50",
            "best_of": 3,
            "start_when": 2,
            "no_show_ms": NO_SHOW_MS,
        }),
    )
    .await;
    join(addr, &ann, &id).await;
    add_bots(addr, &td, &id, 1).await;
    let e = wait_status(addr, &id, "finished").await;
    assert_eq!(entrant_of(&e, ann_id)["withdrawn"], true);
    // The bracket is fixed: each game of the match not come to is lost the same way, two of
    // a best of three.
    let tables = tables_of(&server, ann_id).await;
    assert_eq!(tables.len(), 2, "{tables:?}");
    for (table, seat) in &tables {
        lost_as_no_show(&server, table, *seat, ann_id).await;
        assert_eq!(game_result(&e, table)[0], seat % 2 == 1);
    }
    // The computer entrant is the champion.
    let ann_no = entrant_no(&e, ann_id);
    let first = &e["standings"][0];
    assert_ne!(first["entrant"], ann_no, "{}", e["standings"]);
    assert_eq!(first["rank"], 1);
    assert_eq!(standing(&e, ann_no)["record"]["lost"], 1);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_entrant_who_never_comes_loses_by_no_show_and_leaves_the_arena() {
    let dir = tempfile::tempdir().unwrap();
    // The arena's hour is ended by moving the server's clock, once Ann's game is decided.
    let clock = Clock::manual(fiveup_server::clock::system_now());
    let (server, addr) = server(dir.path(), "arena", Some(clock.clone())).await;
    let td = registered(addr, "director").await;
    let ann = registered(addr, "ann").await;
    let ann_id = user_id(addr, &ann).await;
    let id = create(
        addr,
        &td,
        &json!({
            "name": "Arena",
            "format": {"kind": "arena", "duration_ms": 3_600_000},
            "rules": "all-fives target=50",
            "start_when": 3,
            "no_show_ms": NO_SHOW_MS,
        }),
    )
    .await;
    join(addr, &ann, &id).await;
    add_bots(addr, &td, &id, 2).await;
    let start = Instant::now();
    while !entrant_of(&event(addr, &id).await, ann_id)["withdrawn"]
        .as_bool()
        .unwrap()
    {
        assert!(start.elapsed() < EVENT_WAIT, "Ann is not withdrawn");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Long enough for the computers to be paired again (with Ann, were she still in).
    tokio::time::sleep(Duration::from_millis(500)).await;
    clock.advance(3_601);
    let e = wait_status(addr, &id, "finished").await;
    let tables = tables_of(&server, ann_id).await;
    assert_eq!(tables.len(), 1, "not paired again: {tables:?}");
    let (table, seat) = &tables[0];
    lost_as_no_show(&server, table, *seat, ann_id).await;
    assert_eq!(game_result(&e, table)[0], seat % 2 == 1);
    let row = standing(&e, entrant_no(&e, ann_id));
    assert_eq!(row["out"], true, "{row}");
    assert_eq!(
        (
            row["record"]["won"].as_u64(),
            row["record"]["lost"].as_u64()
        ),
        (Some(0), Some(1)),
        "{row}"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_entrant_who_never_comes_loses_every_game_by_no_show() {
    let dir = tempfile::tempdir().unwrap();
    let (server, addr) = server(dir.path(), "roundrobin", None).await;
    let td = registered(addr, "director").await;
    let ann = registered(addr, "ann").await;
    let ann_id = user_id(addr, &ann).await;
    let id = create(
        addr,
        &td,
        &json!({
            "name": "All play all",
            "format": {"kind": "round_robin"},
            "rules": "all-fives target=50",
            "start_when": 3,
            "no_show_ms": NO_SHOW_MS,
        }),
    )
    .await;
    join(addr, &ann, &id).await;
    add_bots(addr, &td, &id, 2).await;
    let e = wait_status(addr, &id, "finished").await;
    assert_eq!(entrant_of(&e, ann_id)["withdrawn"], true);
    // The schedule is fixed: both of Ann's games are lost, each as a no-show.
    let tables = tables_of(&server, ann_id).await;
    assert_eq!(tables.len(), 2, "{tables:?}");
    for (table, seat) in &tables {
        lost_as_no_show(&server, table, *seat, ann_id).await;
        assert_eq!(game_result(&e, table)[0], seat % 2 == 1);
    }
    // Nothing but her bye (three entrants: each has one) scored.
    let row = standing(&e, entrant_no(&e, ann_id));
    assert_eq!(
        (
            row["record"]["won"].as_u64(),
            row["record"]["lost"].as_u64(),
            row["record"]["byes"].as_u64(),
            row["points"].as_f64()
        ),
        (Some(0), Some(2), Some(1), Some(0.5)),
        "{row}"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_throat_entrant_who_never_comes_is_placed_last_at_the_table_and_not_seated_again() {
    let dir = tempfile::tempdir().unwrap();
    let (server, addr) = server(dir.path(), "cutthroat", None).await;
    let td = registered(addr, "director").await;
    let ann = registered(addr, "ann").await;
    let ann_id = user_id(addr, &ann).await;
    let id = create(
        addr,
        &td,
        &json!({
            "name": "Cut-throat",
            "format": {"kind": "cut_throat", "rounds": 2, "min_seats": 3, "max_seats": 4},
            "rules": "all-fives target=50",
            "start_when": 7,
            "no_show_ms": NO_SHOW_MS,
        }),
    )
    .await;
    join(addr, &ann, &id).await;
    add_bots(addr, &td, &id, 6).await;
    let e = wait_status(addr, &id, "finished").await;
    assert_eq!(entrant_of(&e, ann_id)["withdrawn"], true);
    let tables = tables_of(&server, ann_id).await;
    assert_eq!(tables.len(), 1, "not seated again: {tables:?}");
    let (table, seat) = &tables[0];
    lost_as_no_show(&server, table, *seat, ann_id).await;
    // The game ended at once; Ann's points at her table are below everyone else's there, and
    // the round after seats the six others.
    let ann_no = entrant_no(&e, ann_id);
    let rounds = e["tables"].as_array().unwrap();
    let t = rounds[0]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["table"] == table.as_str())
        .unwrap();
    let scores: Vec<i64> = t["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect();
    let others = scores
        .iter()
        .enumerate()
        .filter(|(i, _)| i != seat)
        .map(|(_, s)| *s);
    assert!(others.clone().all(|s| s > scores[*seat]), "{scores:?}");
    assert_eq!(t["entrants"][*seat], ann_no);
    let seated: Vec<u64> = rounds[1]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["entrants"].as_array().unwrap().clone())
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(seated.len(), 6, "{seated:?}");
    assert!(!seated.contains(&ann_no));
    // Nobody at the table is out but Ann: the others' game points as they stood.
    let replay: Replay = get(addr, &format!("/api/games/{table}"), None).await.json();
    for (i, s) in scores.iter().enumerate() {
        if i != *seat {
            assert_eq!(*s, i64::from(replay.scores[i]), "{scores:?}");
        }
    }
    server.shutdown().await;
}

/// Duplicate settings of `boards` boards.
fn duplicate(boards: u32, n: u32) -> Value {
    json!({
        "name": "Duplicate",
        "format": {"kind": "duplicate", "boards": boards},
        "rules": "all-fives target=50",
        "opponents": "random",
        "start_when": n,
        "no_show_ms": NO_SHOW_MS,
    })
}

/// A duplicate event's board results for an entrant.
fn board_result(e: &Value, board: usize, entrant: u64) -> Option<Value> {
    e["boards"][board]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["entrant"] == entrant)
        .cloned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_entrants_who_never_play_their_board_get_its_bottom_as_no_shows() {
    let dir = tempfile::tempdir().unwrap();
    let (server, addr) = server(dir.path(), "duplicate", None).await;
    let td = registered(addr, "director").await;
    let ann = registered(addr, "ann").await;
    let bob = registered(addr, "bob").await;
    let ann_id = user_id(addr, &ann).await;
    let bob_id = user_id(addr, &bob).await;
    let id = create(addr, &td, &duplicate(2, 4)).await;
    // Ann never connects; Bob waits on the site and opens his table when called, but never
    // moves.
    let mut wb = connect(addr, Some(&bob)).await;
    join(addr, &ann, &id).await;
    join(addr, &bob, &id).await;
    add_bots(addr, &td, &id, 2).await;
    let mut cursor = 0;
    let called = next_call(&mut wb, &mut cursor, EVENT_WAIT)
        .await
        .expect("Bob is called to his table");
    wb.open(&called, None).await;
    let e = wait_status(addr, &id, "finished").await;
    for (who, user) in [("ann", ann_id), ("bob", bob_id)] {
        assert_eq!(entrant_of(&e, user)["withdrawn"], true, "{who}");
        let tables = tables_of(&server, user).await;
        assert_eq!(tables.len(), 1, "{who}: no second board: {tables:?}");
        let (table, seat) = &tables[0];
        lost_as_no_show(&server, table, *seat, user).await;
        let no = entrant_no(&e, user);
        // The board's bottom: no score, no matchpoints, a board lost; no second board dealt.
        let r = board_result(&e, 0, no).expect("board 1 lists the no-show");
        assert_eq!(r["no_show"], true, "{who}: {r}");
        assert!(r["score"].is_null(), "{who}: {r}");
        assert_eq!(
            (r["matchpoints"].as_u64(), r["percent"].as_f64()),
            (Some(0), Some(0.0))
        );
        assert!(board_result(&e, 1, no).is_none(), "{who}");
        let row = standing(&e, no);
        assert_eq!(
            (
                row["record"]["played"].as_u64(),
                row["record"]["lost"].as_u64(),
                row["points"].as_f64()
            ),
            (Some(1), Some(1), Some(0.0)),
            "{who}: {row}"
        );
        assert_eq!(row["out"], true);
    }
    assert_eq!(called, tables_of(&server, bob_id).await[0].0);
    // The computer entrants played both boards, and their results are among themselves.
    for b in 0..2 {
        let played: Vec<&Value> = e["boards"][b]["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["no_show"] == false)
            .collect();
        assert_eq!(played.len(), 2, "board {}: {played:?}", b + 1);
        let mp: u64 = played
            .iter()
            .map(|r| r["matchpoints"].as_u64().unwrap())
            .sum();
        assert_eq!(mp, 2, "board {}: two entrants share two matchpoints", b + 1);
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daylong_entrant_on_another_page_loses_their_board_by_no_show() {
    let dir = tempfile::tempdir().unwrap();
    // The daylong's hour is ended by moving the server's clock.
    let clock = Clock::manual(fiveup_server::clock::system_now());
    let (server, addr) = server(dir.path(), "daylong", Some(clock.clone())).await;
    let td = registered(addr, "director").await;
    let ann = registered(addr, "ann").await;
    let ann_id = user_id(addr, &ann).await;
    let id = create(
        addr,
        &td,
        &json!({
            "name": "Daylong",
            "format": {"kind": "daylong", "boards": 2, "duration_ms": 3_600_000},
            "rules": "all-fives target=50",
            "opponents": "random",
            "no_show_ms": NO_SHOW_MS,
        }),
    )
    .await;
    wait_status(addr, &id, "running").await;
    // Ann comes after the opening, follows the event's page and is called to her first
    // board's table, which she never opens.
    let mut wa = connect(addr, Some(&ann)).await;
    wa.send(&ClientMsg::Tournament {
        tournament: id.clone(),
    })
    .await;
    wa.until(|m| matches!(m, ServerMsg::Tournament { .. }))
        .await;
    join(addr, &ann, &id).await;
    add_bots(addr, &td, &id, 1).await;
    let mut cursor = 0;
    let called = next_call(&mut wa, &mut cursor, EVENT_WAIT)
        .await
        .expect("Ann is called to her board");
    let start = Instant::now();
    loop {
        let e = event(addr, &id).await;
        let done = entrant_of(&e, ann_id)["withdrawn"] == true
            && e["standings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["record"]["played"] == 2);
        if done {
            break;
        }
        assert!(start.elapsed() < EVENT_WAIT, "{e}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Still on the event's page: no second board was dealt to her.
    assert!(next_call(&mut wa, &mut cursor, Duration::from_millis(500))
        .await
        .is_none());
    clock.advance(3_601);
    let e = wait_status(addr, &id, "finished").await;
    let tables = tables_of(&server, ann_id).await;
    assert_eq!(tables, vec![(called.clone(), tables[0].1)]);
    lost_as_no_show(&server, &called, tables[0].1, ann_id).await;
    let no = entrant_no(&e, ann_id);
    let r = board_result(&e, 0, no).expect("board 1 lists the no-show");
    assert_eq!(
        (r["no_show"].as_bool(), r["matchpoints"].as_u64()),
        (Some(true), Some(0))
    );
    let row = standing(&e, no);
    assert_eq!(
        (
            row["record"]["played"].as_u64(),
            row["record"]["lost"].as_u64(),
            row["out"].as_bool()
        ),
        (Some(1), Some(1), Some(true)),
        "{row}"
    );
    server.shutdown().await;
}

/// Ann's client: plays her seeds and moves until she has made `moves` of her own, then
/// returns (the connection still open). Her moves are acknowledged before it returns.
async fn play_moves(c: &mut common::Client, moves: usize) {
    let mut made = 0;
    let mut sent: Option<(u64, String)> = None;
    let mut acts: Vec<String> = Vec::new();
    let start = Instant::now();
    while made < moves {
        assert!(start.elapsed() < EVENT_WAIT, "Ann's turn did not come");
        if let Some(mut m) = c.due() {
            let v = c.view.as_ref().unwrap().table.version;
            let key = (v, format!("{m:?}"));
            if sent.as_ref() != Some(&key) {
                sent = Some(key);
                let id = c.id();
                match &mut m {
                    ClientMsg::Seed { id: i, .. } => *i = id,
                    ClientMsg::Act { id: i, .. } => {
                        acts.push(id.clone());
                        *i = id;
                    }
                    _ => {}
                }
                c.send(&m).await;
            }
        }
        match c.recv().await {
            ServerMsg::Ack { id, .. } if acts.contains(&id) => made += 1,
            // A seed a moment late (the hand was dealt without it) is refused harmlessly.
            ServerMsg::Error {
                code: fiveup_protocol::ErrorCode::BadSeed,
                ..
            } => {}
            ServerMsg::Error { code, message, .. } => panic!("{code:?}: {message}"),
            _ => {}
        }
    }
}

/// Ann at her table.
struct AtTable {
    /// The event.
    id: String,
    /// Ann's session and id.
    ann: String,
    ann_id: i64,
    /// Her client, following the table.
    client: common::Client,
    /// The table.
    table: String,
}

/// A one-round Swiss of Ann and a computer entrant, with these clocks; Ann is called to her
/// table and opens it.
async fn ann_at_her_table(addr: SocketAddr, clocks: Value) -> AtTable {
    let td = registered(addr, "director").await;
    let ann = registered(addr, "ann").await;
    let ann_id = user_id(addr, &ann).await;
    let mut s = swiss(1, 2);
    for (k, v) in clocks.as_object().unwrap() {
        s[k] = v.clone();
    }
    let id = create(addr, &td, &s).await;
    let mut wa = connect(addr, Some(&ann)).await;
    join(addr, &ann, &id).await;
    add_bots(addr, &td, &id, 1).await;
    let mut cursor = 0;
    let table = next_call(&mut wa, &mut cursor, EVENT_WAIT)
        .await
        .expect("Ann is called to her table");
    wa.open(&table, None).await;
    AtTable {
        id,
        ann,
        ann_id,
        client: wa,
        table,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_moved_and_went_away_loses_on_the_turn_clock_not_played_for() {
    let dir = tempfile::tempdir().unwrap();
    let (server, addr) = server(dir.path(), "away", None).await;
    let AtTable {
        id,
        ann_id,
        client: mut wa,
        table,
        ..
    } = ann_at_her_table(addr, json!({"turn_ms": 300, "no_show_ms": 60_000})).await;
    play_moves(&mut wa, 1).await;
    // Ann closes the page.
    drop(wa);
    let e = wait_status(addr, &id, "finished").await;
    let tables = tables_of(&server, ann_id).await;
    assert_eq!(tables.len(), 1);
    let seat = tables[0].1;
    let ch = changes(&server, &table).await;
    nobody_played_for(&ch, seat);
    // Her own move, then three strikes on her next turn, the third losing the game.
    let mine = ch
        .iter()
        .filter(|c| c["t"] == "act" && c["seat"] == seat)
        .count();
    assert_eq!(mine, 1, "{ch:?}");
    let strikes = ch
        .iter()
        .filter(|c| c["t"] == "strike" && c["seat"] == seat)
        .count();
    assert_eq!(strikes, 3, "{ch:?}");
    assert!(!ch.iter().any(|c| c["t"] == "no_show"));
    let replay: Replay = get(addr, &format!("/api/games/{table}"), None).await.json();
    let s = &replay.seats[seat];
    assert!(s.resigned && !s.by_computer && !s.taken_over, "{s:?}");
    assert_eq!(game_result(&e, &table)[0], seat % 2 == 1, "she lost");
    // Not a no-show: not withdrawn, nothing counted.
    assert_eq!(entrant_of(&e, ann_id)["withdrawn"], false);
    let counted = sqlx::query("SELECT user_id FROM tournament_no_shows")
        .fetch_all(&server.app.db.pool)
        .await
        .unwrap();
    assert!(counted.is_empty());
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_a_tournament_game_loses_it_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("leave.db").display().to_string();
    let mut c = test_config(&db);
    // Ann is at her table throughout: her seeds come at once.
    c.seed_wait = Duration::from_secs(30);
    let server = fiveup_server::start(c).await.unwrap();
    let addr = server.local_addr();
    let AtTable {
        id,
        ann,
        ann_id,
        client: mut wa,
        table,
    } = ann_at_her_table(addr, json!({"no_show_ms": 60_000})).await;
    play_moves(&mut wa, 1).await;
    let r = post(
        addr,
        &format!("/api/tables/{table}/leave"),
        Some(&ann),
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let info: Value = r.json();
    assert_eq!(info["status"], "finished", "lost at once: {info}");
    let e = wait_status(addr, &id, "finished").await;
    let seat = tables_of(&server, ann_id).await[0].1;
    let ch = changes(&server, &table).await;
    nobody_played_for(&ch, seat);
    assert_eq!(
        ch.iter()
            .filter(|c| c["t"] == "act" && c["seat"] == seat)
            .count(),
        1
    );
    assert!(
        ch.iter().any(|c| c["t"] == "forfeit" && c["seat"] == seat),
        "{ch:?}"
    );
    assert_eq!(game_result(&e, &table)[0], seat % 2 == 1, "she lost");
    assert_eq!(entrant_of(&e, ann_id)["withdrawn"], false);
    server.shutdown().await;
}
