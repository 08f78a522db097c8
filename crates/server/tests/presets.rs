//! Every rules preset online, through the real server: a table is created for each (double-six,
//! double-nine and double-twelve sets, 2 to 8 seats, partnerships of 4 and 6), computer players
//! of every level fill the other seats, and a test client in seat 0 plays the game to its end.
//! The views carry what the browser draws (the lot, the tile shown for the lead, the Cross
//! Dominoes arms waiting for the cross); the stored record replays and verifies.

mod common;

use common::*;
use fiveup_engine::{LeadKind, Preset, Rules};
use fiveup_protocol::{
    ClientMsg, EventView, Replay, RulesCheck, ServerConfig, ServerMsg, TableInfo, TableStatus,
};
use serde_json::json;

/// The tables played: a preset with options, covering every preset, each set, 2 to 8 seats and
/// both partnership sizes.
const TABLES: [&str; 13] = [
    "five-up players=2",
    "all-fives players=3",
    "pagat-five-up players=4 set=9",
    "fives players=4",
    "muggins players=5",
    "cross players=6 set=9",
    "fives-and-threes players=3",
    "draw players=5",
    "block players=2 set=9",
    "cross-dominoes players=4",
    "cribbage players=2",
    "party-twelve players=6",
    "party-twelve players=8 first-lead=lot",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_preset_is_played_to_the_end_online() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("presets.db").display().to_string();
    let server = fiveup_server::start(config(&db)).await.unwrap();
    let addr = server.local_addr();
    let (ann, _) = guest(addr, "Ann").await;
    let levels = ["club", "greedy", "random", "expert"];
    let mut presets_seen = std::collections::HashSet::new();
    for (k, spec) in TABLES.iter().enumerate() {
        let spec = format!("{spec} target=50");
        let rules = Rules::parse(&spec).unwrap();
        presets_seen.insert(spec.split(' ').next().unwrap().to_string());
        let mut seats = vec![json!({"kind": "me"})];
        for i in 1..rules.players as usize {
            seats.push(json!({"kind": "bot", "level": levels[(i + k) % levels.len()]}));
        }
        let a = post(
            addr,
            "/api/tables",
            Some(&ann),
            &json!({"rules": spec, "seats": seats, "unlisted": true}),
        )
        .await;
        assert_eq!(a.status, 201, "{spec}: {}", a.body);
        let t: TableInfo = a.json();
        assert_eq!(t.rules, rules, "{spec}");
        assert_eq!(t.seats.len(), rules.players as usize, "{spec}");

        let mut me = connect(addr, Some(&ann)).await;
        let v = me.open(&t.id, None).await;
        assert_eq!(v.you, Some(0), "{spec}");
        assert_eq!(v.sides.len(), rules.players as usize, "{spec}");
        assert_eq!(v.scores.len(), rules.sides() as usize, "{spec}");
        let mut clients = vec![me];
        // On the first turn with a choice, the expert's hint covers every legal action.
        play_until(&mut clients, 20_000, |cs| {
            cs[0].over() || cs[0].view.as_ref().is_some_and(|v| v.legal.len() >= 2)
        })
        .await;
        if !clients[0].over() {
            let c = &mut clients[0];
            let legal: Vec<_> = c
                .view
                .as_ref()
                .unwrap()
                .legal
                .iter()
                .map(|l| l.action)
                .collect();
            let id = c.id();
            c.send(&ClientMsg::Hint { id: id.clone() }).await;
            match c
                .until(|m| matches!(m, ServerMsg::Hint { .. } | ServerMsg::Error { .. }))
                .await
            {
                ServerMsg::Hint { id: i, evals, .. } => {
                    assert_eq!(i, id);
                    assert_eq!(evals.len(), legal.len(), "{spec}");
                    assert!(evals.iter().all(|e| legal.contains(&e.action)), "{spec}");
                }
                m => panic!("{spec}: {m:?}"),
            }
        }
        play_out(&mut clients, 20_000).await;
        let me = &clients[0];
        let end = me.view.clone().unwrap();
        assert_eq!(end.table.status, TableStatus::Finished, "{spec}");
        let winner = end.winner.expect("a winner");
        assert!(
            end.scores[usize::from(winner)] >= 50,
            "{spec}: {:?}",
            end.scores
        );

        // What the views carried during the game, for the browser to draw.
        let views: Vec<fiveup_protocol::TableView> = me
            .raw
            .iter()
            .filter_map(|t| match serde_json::from_str::<ServerMsg>(t).ok()? {
                ServerMsg::Snapshot { view, .. } | ServerMsg::Event { view, .. } => Some(*view),
                _ => None,
            })
            .collect();
        for v in &views {
            assert_eq!(v.hand_sizes.len(), rules.players as usize, "{spec}");
            assert!(v.my_tiles.len() <= 91, "{spec}");
            match v.lead_kind {
                Some(LeadKind::Lot) => assert_eq!(v.lot, v.leader, "{spec}: the lot leads"),
                _ => assert_eq!(v.lot, None, "{spec}"),
            }
            if v.lead_kind == Some(LeadKind::HighestDouble) {
                assert!(
                    v.shown_tile.is_some_and(|t| t.is_double()),
                    "{spec}: the double that decided the lead is shown"
                );
            }
            if !v.cross_pending {
                assert!(v.waiting.is_empty(), "{spec}: arms wait only for a cross");
            }
            if !rules.cross_first {
                assert!(!v.cross_pending && v.waiting.is_empty(), "{spec}");
            }
            for t in &v.my_tiles {
                assert!(t.hi() <= rules.set, "{spec}: {t} in a double-{}", rules.set);
            }
        }
        if rules.first_lead == fiveup_engine::FirstLead::Lot {
            assert!(
                views.iter().any(|v| v.lot.is_some()),
                "{spec}: a hand led by lot"
            );
        }
        if rules.cross_first {
            assert!(
                views
                    .iter()
                    .any(|v| v.cross_pending && !v.waiting.is_empty()),
                "{spec}: an arm waited for the cross"
            );
        }

        // The stored game replays with the same fields, and its record verifies.
        let replay: Replay = get(addr, &format!("/api/games/{}", t.id), None)
            .await
            .json();
        assert_eq!(replay.rules, rules, "{spec}");
        assert_eq!(replay.scores, end.scores, "{spec}");
        for h in &replay.hands {
            assert_eq!(h.dealt.len(), rules.players as usize);
            assert_eq!(
                h.lot,
                (h.lead_kind == LeadKind::Lot).then_some(h.leader),
                "{spec}"
            );
            if h.lead_kind == LeadKind::HighestDouble {
                assert!(h.shown_tile.is_some(), "{spec}");
            }
        }
        if rules.cross_first {
            assert!(replay
                .hands
                .iter()
                .any(|h| h.steps.iter().any(|s| !s.waiting.is_empty())));
        }
        let text = get(addr, &format!("/api/games/{}/record.txt", t.id), None)
            .await
            .body;
        let report = fiveup_server::games::verify(&text);
        assert!(report.ok, "{spec}: {report:?}");
        eprintln!(
            "{spec}: {} hands, scores {:?}",
            replay.hands.len(),
            end.scores
        );
    }
    let all: std::collections::HashSet<String> =
        Preset::ALL.iter().map(|p| p.name().to_string()).collect();
    assert_eq!(presets_seen, all, "every preset played");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_config_and_the_rules_check_offer_every_set_and_table_size() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cfg.db").display().to_string();
    let server = fiveup_server::start(config(&db)).await.unwrap();
    let addr = server.local_addr();
    let cfg: ServerConfig = get(addr, "/api/config", None).await.json();
    assert_eq!(cfg.presets.len(), Preset::ALL.len());
    for p in &cfg.presets {
        let preset: Preset = p.name.parse().unwrap();
        assert_eq!(p.rules.len(), 7, "{}: rules for 2 to 8 players", p.name);
        for (i, r) in p.rules.iter().enumerate() {
            assert_eq!(*r, Rules::preset(preset, i as u8 + 2));
            r.validate().unwrap();
        }
        assert_eq!(p.set, preset.set());
        assert_eq!(p.players, [preset.players().0, preset.players().1]);
        assert_eq!(p.hands.len(), 3);
        for h in &p.hands {
            for (i, &n) in h.hand_size.iter().enumerate() {
                let players = i as u8 + 2;
                let r = Rules::preset_with_set(preset, players, h.set);
                assert_eq!(
                    r.hand_size, n,
                    "{} {players} players, set {}",
                    p.name, h.set
                );
                // Where the preset's hand fits the set, the options string makes those rules;
                // a table below the preset's fewest players is refused (the party game).
                if players < p.players[0] {
                    let e = Rules::parse(&format!("{} players={players} set={}", p.name, h.set));
                    assert!(e.is_err(), "{} {players} players", p.name);
                } else if r.validate().is_ok() {
                    let parsed =
                        Rules::parse(&format!("{} players={players} set={}", p.name, h.set));
                    assert_eq!(parsed, Ok(r));
                }
            }
        }
    }
    let keys: Vec<&str> = cfg.options.iter().map(|o| o.key.as_str()).collect();
    for k in ["set", "players", "first-lead", "cross-first"] {
        assert!(keys.contains(&k), "{k} offered");
    }
    // The check answers the rules a table would get, or the engine's reason.
    let ok: RulesCheck = get(addr, "/api/rules?spec=party-twelve%20players%3D7", None)
        .await
        .json();
    let want = Rules::parse("party-twelve players=7").unwrap();
    assert_eq!(ok.rules, Some(want));
    assert_eq!(ok.options, Some(want.to_options_string()));
    assert_eq!(ok.error, None);
    for (spec, words) in [
        (
            "five-up%20players%3D5%20partnerships%3Dtrue",
            "partnerships need 4 or 6",
        ),
        (
            "muggins%20cross-first%3Dtrue",
            "cross-first needs a spinner",
        ),
        ("five-up%20players%3D9", "players must be 2 to 8"),
        (
            "five-up%20set%3D12%20players%3D8%20hand%3D12",
            "hand size 12",
        ),
        ("five-up%20set%3D7", "set=7"),
    ] {
        let a = get(addr, &format!("/api/rules?spec={spec}"), None).await;
        assert_eq!(a.status, 200, "{spec}");
        let c: RulesCheck = a.json();
        assert_eq!((c.rules, c.options), (None, None), "{spec}");
        let e = c.error.expect("the reason");
        assert!(e.contains(words), "{spec}: {e}");
    }
    server.shutdown().await;
}

/// A person who goes away at an eight-seat double-twelve table has a computer player take their
/// seat over, and gets it back on returning.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_is_taken_over_and_handed_back_at_an_eight_seat_table() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("takeover.db").display().to_string();
    let mut cfg = config(&db);
    cfg.takeover = Some(std::time::Duration::from_millis(300));
    let server = fiveup_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let (ann, _) = guest(addr, "Ann").await;
    let mut seats = vec![json!({"kind": "me"})];
    seats.extend((1..8).map(|_| json!({"kind": "bot", "level": "greedy"})));
    let a = post(
        addr,
        "/api/tables",
        Some(&ann),
        &json!({"rules": "party-twelve players=8", "seats": seats}),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let t: TableInfo = a.json();
    let mut me = connect(addr, Some(&ann)).await;
    me.open(&t.id, None).await;
    let mut clients = vec![me];
    play_until(&mut clients, 20_000, |cs| {
        cs[0].over() || cs[0].view.as_ref().is_some_and(|v| !v.legal.is_empty())
    })
    .await;
    let me = clients.pop().unwrap();
    assert!(!me.over(), "the game ended before Ann's first turn");
    let version = me.view.as_ref().unwrap().table.version;
    drop(me);
    let mut w = connect(addr, None).await;
    w.open(&t.id, None).await;
    w.until(|m| matches!(m, ServerMsg::Event { event: EventView::Seat { seat }, .. } if seat.taken_over))
        .await;
    // The computer player plays Ann's turn.
    w.until(|m| matches!(m, ServerMsg::Event { version: v, .. } if *v > version + 1))
        .await;
    let mut me = connect(addr, Some(&ann)).await;
    assert_eq!(me.open(&t.id, None).await.you, Some(0));
    me.until(|m| matches!(m, ServerMsg::Event { event: EventView::Seat { seat }, .. } if !seat.taken_over && seat.seat == 0))
        .await;
    server.shutdown().await;
}
