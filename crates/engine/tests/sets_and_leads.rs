//! Conformance tests for the bigger sets, the larger tables, the first-lead rules and Cross
//! Dominoes, from the rule pages' own words.

mod common;

use common::{deal, go, set, state};
use fiveup_engine::notation::{Record, Recorder, ReplayErrorKind};
use fiveup_engine::{
    Action, Deal, FirstLead, HandEnd, HandStart, IllegalAction, LeadKind, Phase, Preset, Rules,
    Seat, Seed, SetupError, Side, State, Tile,
};

fn rules(s: &str) -> Rules {
    Rules::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn legal(s: &State) -> Vec<String> {
    s.legal_actions().iter().map(ToString::to_string).collect()
}

// ----- bigger sets -----

/// "If it gets larger than 4 [players], you'll need a set of double-twelve dominoes": the
/// count and its multiples of five work the same with pips up to 12.
#[test]
fn double_twelve_counts_like_double_six() {
    let r = rules("set=12 players=2 hand=7");
    let mut s = state(
        r,
        &[
            "12-3 12-12 11-4 9-9 10-0 8-7 1-1",
            "6-6 12-0 11-11 7-2 5-5 4-4 3-3",
        ],
        "",
        HandStart::free(Seat(0)),
    );
    // A 12-3 lead counts both ends: 15, and scores 15.
    assert_eq!(go(&mut s, "12-3").points, 15);
    // 12-0 on the 12 leaves 0 and 3: a count of 3.
    go(&mut s, "12-0@W");
    assert_eq!(s.layout().count(), 3);
    // 10-0 on the 0 end: 10 + 3 = 13, no score.
    assert_eq!(go(&mut s, "10-0@W").points, 0);
    assert_eq!(s.layout().count(), 13);
}

#[test]
fn a_double_twelve_at_an_end_counts_twenty_four() {
    let r = rules("set=12 players=2 hand=7 spinner=none");
    let mut s = state(
        r,
        &[
            "12-1 9-9 11-4 10-0 8-7 6-2 5-3",
            "12-12 11-11 7-2 5-5 4-4 3-3 2-2",
        ],
        "",
        HandStart::free(Seat(0)),
    );
    go(&mut s, "12-1");
    // 24 + 1 = 25: scores 25.
    assert_eq!(go(&mut s, "12-12@W").points, 25);
}

#[test]
fn every_set_deals_every_tile_once() {
    for (top, n) in [(6u8, 28usize), (9, 55), (12, 91)] {
        let r = rules(&format!("set={top} players=4"));
        let d = Deal::from_seed(&Seed::from_u64(3), 1, &r, true);
        assert_eq!(d.len(), n);
        let all: fiveup_engine::TileSet = d.tiles().iter().copied().collect();
        assert_eq!(all, Tile::all(top));
        let s = State::new(r, d).unwrap();
        assert_eq!(
            usize::from(s.boneyard_len()),
            n - 4 * usize::from(r.hand_size)
        );
    }
}

/// A tile outside the set is refused by the deal and by the play API.
#[test]
fn tiles_outside_the_set_are_refused() {
    let r = Rules::default();
    let d = Deal::from_hands(
        &r,
        &[
            common::tiles("9-9 6-5 6-4 6-3 6-2 6-1 6-0"),
            common::tiles("5-5 5-4 5-3 5-2 5-1 5-0 4-4"),
        ],
        &[],
    );
    assert!(d.is_err());
    let mut s = State::from_seed(r, &Seed::from_u64(1)).unwrap();
    let before = s.log().to_vec();
    assert_eq!(
        s.apply(Action::lead(Tile::new(9, 9))),
        Err(IllegalAction::NotInHand(Tile::new(9, 9)))
    );
    assert_eq!(s.log(), &before[..]);
}

// ----- more players -----

/// The Draw game page: "two players would start with 7 dominoes, three players with 5
/// tiles, four players with 4 tiles and five players with 3 tiles."
#[test]
fn draw_game_hand_sizes_follow_the_page() {
    for (players, hand) in [(2u8, 7u8), (3, 5), (4, 4), (5, 3)] {
        assert_eq!(Rules::preset(Preset::Draw, players).hand_size, hand);
    }
}

/// Six players in partnerships: the teams alternate around the table (even seats against odd
/// seats), and a domino by seat 4 scores the pips of seats 1, 3 and 5 for side 0.
#[test]
fn six_player_partnerships_alternate() {
    let r = rules("set=9 players=6 partnerships=true hand=3 spinner=none drawing=false");
    assert_eq!(r.sides(), 2);
    for seat in 0..6u8 {
        assert_eq!(r.side_of(Seat(seat)), Side(seat % 2));
    }
    let mut s = state(
        r,
        &[
            "0-0 1-0 2-0",
            "2-1 3-0 3-1",
            "3-2 4-0 4-1",
            "4-2 4-3 4-4",
            "9-9 9-8 8-7",
            "1-1 2-2 3-3",
        ],
        "",
        HandStart::free(Seat(4)),
    );
    go(&mut s, "9-9");
    for _ in 0..5 {
        go(&mut s, "P");
    }
    go(&mut s, "9-8@W");
    for _ in 0..5 {
        go(&mut s, "P");
    }
    // 7 + 18 (the 9-9 at the other end) = 25, and the last tile: domino.
    let o = go(&mut s, "8-7@W");
    assert_eq!(o.points, 25);
    let res = s.result().expect("the hand is over");
    assert_eq!(res.end, HandEnd::Domino { seat: Seat(4) });
    // Side 1 holds 10 + 21 + 12 = 43 pips, rounded to 45.
    assert_eq!(res.side_pips[Side(1)], 43);
    assert_eq!(res.awards[Side(0)], 45);
    assert_eq!(s.scores()[Side(0)], 70);
    assert_eq!(s.scores()[Side(1)], 0);
}

// ----- who leads the first hand -----

/// "The player who starts may play any domino they like": under highest-double-any the holder
/// of the highest double leads, with any tile, and the table is shown the double.
#[test]
fn highest_double_any_leads_any_tile() {
    let r = rules("fives");
    assert_eq!(r.first_lead, FirstLead::HighestDoubleAny);
    let d = deal(
        &r,
        &["6-4 5-0 3-2 2-1 1-0 4-0 3-0", "6-6 5-5 6-2 4-3 4-1 2-0 6-1"],
        "",
    );
    let s = State::new(r, d).unwrap();
    assert_eq!(s.leader(), Seat(1));
    assert_eq!(s.forced_lead(), None);
    assert_eq!(s.shown_tile(), Some(Tile::new(6, 6)));
    assert_eq!(s.lead_kind(), LeadKind::HighestDouble);
    assert_eq!(s.legal_actions().len(), 7);
    assert!(s.is_legal(Action::lead(Tile::new(5, 5))));
    // Every seat's view shows which double decided the lead.
    assert_eq!(s.view(Seat(0)).shown_tile(), Some(Tile::new(6, 6)));
}

/// pagat's All Fives: "The first player in the first hand is determined by lot ... If the last
/// hand was blocked, then the lead is again determined by lot. The lead can be any tile."
#[test]
fn lot_chooses_the_first_leader_and_again_after_a_block() {
    let r = rules("all-fives players=3");
    assert_eq!(r.first_lead, FirstLead::Lot);
    let mut leaders = std::collections::BTreeSet::new();
    for k in 0..30 {
        let s = State::from_seed(r, &Seed::from_u64(k)).unwrap();
        assert_eq!(s.lead_kind(), LeadKind::Lot);
        assert_eq!(s.leader(), s.deal().lot);
        assert_eq!(s.forced_lead(), None);
        assert_eq!(s.legal_actions().len(), usize::from(r.hand_size));
        leaders.insert(s.leader());
    }
    assert_eq!(leaders.len(), 3, "every seat wins the lot sometimes");
    // After a blocked hand the next hand opens by lot again.
    let mut d = deal(
        &rules("all-fives players=2 drawing=false hand=3"),
        &["6-6 0-0 1-0", "5-5 4-4 3-3"],
        "",
    );
    d.lot = Seat(1);
    let mut s = State::new(rules("all-fives players=2 drawing=false hand=3"), d).unwrap();
    assert_eq!(s.leader(), Seat(1));
    go(&mut s, "5-5");
    assert!(matches!(s.result().map(|r| r.end), Some(HandEnd::Blocked)));
    let start = s.next_hand_start().unwrap();
    assert!(
        start.highest_double,
        "the next hand opens by the first-lead rule: by lot"
    );
}

/// The domino shop's set variation: the set's highest double must be dealt, or the tiles are
/// reshuffled; its holder leads it.
#[test]
fn top_double_must_be_dealt_and_led() {
    let r = rules("first-lead=top-double");
    let d = deal(
        &r,
        &["5-5 6-4 5-0 3-2 2-1 1-0 4-0", "4-4 3-3 6-2 4-3 4-1 2-0 6-1"],
        "",
    );
    assert_eq!(State::new(r, d).unwrap_err(), SetupError::NoDouble);
    for k in 0..20 {
        let s = State::from_seed(r, &Seed::from_u64(k)).unwrap();
        assert_eq!(s.forced_lead(), Some(Tile::new(6, 6)));
        assert!(s.hand(s.leader()).contains(Tile::new(6, 6)));
        assert_eq!(legal(&s), vec!["6-6"]);
    }
    let r12 = rules("set=12 players=5 first-lead=top-double");
    let s = State::from_seed(r12, &Seed::from_u64(4)).unwrap();
    assert_eq!(s.forced_lead(), Some(Tile::new(12, 12)));
}

// ----- Cross Dominoes -----

/// "After the first doublet is played, the next four tiles played must be played against that
/// doublet so as to form a cross ... Players may have to take sleeping tiles before this is
/// accomplished but as soon as the cross is complete, play continues."
#[test]
fn cross_the_four_sides_come_first() {
    let r = rules("cross-dominoes");
    assert!(r.cross_first);
    let mut s = state(
        r,
        &["5-5 5-1 5-2 6-6 1-1 0-0 3-0", "5-0 5-3 5-4 6-1 2-2 4-4 3-3"],
        "5-6",
        HandStart::free(Seat(0)),
    );
    go(&mut s, "5-5");
    // All four sides are open at once.
    assert_eq!(s.layout().open_arms().count(), 4);
    go(&mut s, "5-0@W");
    // The west arm grew: it waits until the cross is complete.
    assert!(!s.layout().is_open(fiveup_engine::ArmId(0)));
    assert_eq!(
        s.check(Action::play(Tile::new(1, 1), fiveup_engine::ArmId(0))),
        Err(IllegalAction::ArmNotOpen(fiveup_engine::ArmId(0)))
    );
    go(&mut s, "5-1@E");
    go(&mut s, "5-3@N");
    go(&mut s, "5-2@S");
    // The cross is complete: every arm is open.
    assert!(!s.layout().cross_pending());
    assert_eq!(s.layout().open_arms().count(), 4);
}

/// When the first double comes later, the arm it lies on and its other sides fill first; the
/// far end of the lead waits.
#[test]
fn cross_with_a_later_first_double() {
    let r = rules("cross-dominoes");
    let mut s = state(
        r,
        &["6-4 4-1 6-3 6-2 1-1 0-0 3-0", "6-6 6-5 4-4 2-2 5-5 3-3 2-1"],
        "",
        HandStart::free(Seat(0)),
    );
    go(&mut s, "6-4");
    go(&mut s, "6-6@W");
    // Seat 0 holds 4-1 for the 4 end, but only the double's three free sides take tiles.
    assert!(!s.is_legal(Action::play(Tile::new(4, 1), fiveup_engine::ArmId(1))));
    assert!(s.is_legal(Action::play(Tile::new(6, 3), fiveup_engine::ArmId(0))));
    go(&mut s, "6-3@W");
    go(&mut s, "6-5@N");
    go(&mut s, "6-2@S");
    assert!(!s.layout().cross_pending());
    assert!(s.is_legal(Action::play(Tile::new(4, 4), fiveup_engine::ArmId(1))));
}

#[test]
fn a_player_who_cannot_fill_the_cross_draws() {
    let r = rules("cross-dominoes");
    let mut s = state(
        r,
        &["5-5 1-1 2-2 3-3 4-4 0-0 6-6", "5-0 5-3 5-4 6-1 2-1 4-1 3-1"],
        "5-6 3-2",
        HandStart::free(Seat(0)),
    );
    go(&mut s, "5-5");
    go(&mut s, "5-0@W");
    // Seat 0 has no 5: it must draw, and the 5-6 it draws goes on a side of the cross.
    assert_eq!(legal(&s), vec!["D"]);
    go(&mut s, "D");
    assert!(s.is_legal(Action::play(Tile::new(6, 5), fiveup_engine::ArmId(1))));
    assert!(!s.is_legal(Action::play(Tile::new(0, 0), fiveup_engine::ArmId(0))));
}

// ----- records -----

/// A lot is part of the record, replays, and a seeded record with the wrong lot is refused.
#[test]
fn records_keep_the_lot() {
    let r = rules("all-fives players=4 target=50");
    let seed = Seed::from_u64(8);
    let mut st = State::from_seed(r, &seed).unwrap();
    let mut rec = Recorder::new(&st, None, Some(seed)).unwrap();
    let mut rng = fiveup_engine::FastRng::new(2);
    while st.phase() != Phase::GameOver {
        if st.phase() == Phase::HandOver {
            st.next_hand_from_seed(&seed).unwrap();
            rec.start_hand(&st);
        }
        let a = st.random_action(&mut rng);
        rec.apply(&mut st, a).unwrap();
    }
    let record = rec.finish(&st);
    let text = record.to_text();
    assert!(text.contains("\nlot S"), "{text}");
    let back = Record::parse(&text).unwrap();
    assert_eq!(back, record);
    back.replay().unwrap();
    let json = record.to_json();
    assert!(json.contains("\"lot\""), "{json}");
    assert_eq!(Record::from_json(&json).unwrap(), record);
    // Change hand 1's lot: the seed disagrees.
    let wrong = (record.hands[0].deal.lot.0 + 1) % 4;
    let bad = text.replacen(
        &format!("lot S{}", record.hands[0].deal.lot.0),
        &format!("lot S{wrong}"),
        1,
    );
    let err = Record::parse(&bad).unwrap().replay().unwrap_err();
    assert!(
        matches!(err.kind, ReplayErrorKind::SeededLot { .. }),
        "{err}"
    );
    // A lot line under rules without the lot is malformed.
    let plain = Record::parse(&text.replace("first-lead=lot", ""));
    assert!(plain.is_err());
}

/// Records of every set round-trip and replay; double-six records have no new options.
#[test]
fn records_of_every_set_replay() {
    for spec in [
        "set=9 players=5",
        "set=12 players=8",
        "party-twelve players=6",
        "cross-dominoes",
    ] {
        let r = rules(spec);
        let seed = Seed::from_u64(5);
        let mut st = State::from_seed(r, &seed).unwrap();
        let mut rec = Recorder::new(&st, None, Some(seed)).unwrap();
        let mut rng = fiveup_engine::FastRng::new(3);
        while matches!(st.phase(), Phase::Play | Phase::Claim) {
            let a = st.random_action(&mut rng);
            rec.apply(&mut st, a).unwrap();
        }
        let record = rec.finish(&st);
        let text = record.to_text();
        let back = Record::parse(&text).unwrap_or_else(|e| panic!("{spec}: {e}\n{text}"));
        assert_eq!(back, record, "{spec}");
        back.replay().unwrap_or_else(|e| panic!("{spec}: {e}"));
    }
    let text = {
        let st = State::from_seed(Rules::default(), &Seed::from_u64(1)).unwrap();
        Recorder::new(&st, None, None)
            .unwrap()
            .finish(&st)
            .to_text()
    };
    assert!(
        !text.contains("set=") && !text.contains("first-lead"),
        "{text}"
    );
}

/// Impossible combinations are named errors that say what would work.
#[test]
fn impossible_tables_are_named() {
    let e = Rules::parse("players=9").unwrap_err().to_string();
    assert!(e.contains("2 to 8"), "{e}");
    let e = Rules::parse("players=8 hand=8").unwrap_err().to_string();
    assert!(e.contains("it must be 3 on a double-6 set"), "{e}");
    let e = Rules::parse("players=5 partnerships=true")
        .unwrap_err()
        .to_string();
    assert!(e.contains("4 or 6"), "{e}");
    let e = Rules::parse("muggins cross-first=true")
        .unwrap_err()
        .to_string();
    assert!(e.contains("spinner=first"), "{e}");
    assert!(Rules::parse("set=12 players=8 hand=11").is_ok());
    let _ = set("6-6");
}

/// A record of an eight-player game with named seats reads back (seat headers `S0` to `S7`).
#[test]
fn named_seats_up_to_eight_read_back() {
    let r = rules("set=12 players=8");
    let st = State::from_seed(r, &Seed::from_u64(2)).unwrap();
    let names: Vec<String> = (0..8).map(|i| format!("Player {i}")).collect();
    let record = Recorder::new(&st, Some(names), None).unwrap().finish(&st);
    let text = record.to_text();
    assert!(text.contains("[S7 \"Player 7\"]"), "{text}");
    assert_eq!(Record::parse(&text).unwrap(), record);
}
