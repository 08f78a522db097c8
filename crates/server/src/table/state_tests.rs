//! Tests of the module beside this file.

use super::*;
use crate::table::config::TourTable;
use fiveup_engine::Rules;

fn board_table(tour: Option<TourTable>) -> TableCore {
    let mut core = TableCore::new(TableConfig {
        id: "t".into(),
        rules: Rules::default(),
        seats: vec![
            SeatSetup::Open,
            SeatSetup::Bot {
                level: "random".into(),
            },
        ],
        creator: None,
        unlisted: true,
        created_at: 0,
        request: None,
        correspondence: None,
        tournament: tour,
        hints: false,
    });
    core.apply(&Stored::Sit {
        seat: 0,
        user: UserRef {
            id: 7,
            name: "ann".into(),
            registered: true,
            bot: false,
        },
    })
    .unwrap();
    core.apply(&Stored::Start).unwrap();
    core
}

#[test]
fn a_board_is_dealt_from_its_seed_alone_and_a_no_show_loses() {
    let seed = [5u8; 32];
    let tour = TourTable {
        board: Some(fairness::to_hex(&seed)),
        event: Some("ev1".to_string()),
        no_show_ms: Some(1000),
        turn_ms: None,
        match_ms: None,
        owner: None,
        names: Vec::new(),
    };
    let mut core = board_table(Some(tour));
    // Nobody's seed is waited for: the deal is the seed's, with no client seeds.
    assert_eq!(core.board_seed(), Some(fairness::to_hex(&seed).as_str()));
    core.apply(&Stored::Commit {
        hand: 1,
        server_seed: fairness::to_hex(&seed),
    })
    .unwrap();
    assert!(core.seeds_complete());
    core.apply(&Stored::Deal { hand: 1 }).unwrap();
    let want = fairness::deal(
        &fairness::deal_seed(&seed, &[None, None]),
        1,
        &Rules::default(),
        true,
    );
    let state = core.state.as_ref().unwrap();
    assert_eq!(state.hand(Seat(0)), want.hand(Seat(0)));
    // Ann has not moved: she is the no-show, and her side loses at once.
    assert_eq!(core.no_show_seat(), Some(0));
    assert!(core.apply(&Stored::NoShow { seat: 1 }).is_err());
    core.apply(&Stored::NoShow { seat: 0 }).unwrap();
    assert_eq!(core.status, TableStatus::Finished);
    assert_eq!(core.forfeit, Some(1));
    assert_eq!(core.no_show_seat(), None);
}

#[test]
fn clocks_and_no_shows_are_refused_at_ordinary_tables() {
    let mut core = board_table(None);
    core.apply(&Stored::Commit {
        hand: 1,
        server_seed: "00".repeat(32),
    })
    .unwrap();
    // An ordinary table waits for the person's seed.
    assert!(!core.seeds_complete());
    core.apply(&Stored::Deal { hand: 1 }).unwrap();
    assert_eq!(core.no_show_seat(), None);
    assert!(core.apply(&Stored::NoShow { seat: 0 }).is_err());
    assert!(core.apply(&Stored::ClockOut { hand: 1 }).is_err());
    assert!(core.apply(&Stored::ClockEnd).is_err());
    if let Some(seat) = core.to_move() {
        assert!(core.apply(&Stored::Strike { seat }).is_err());
    }
    assert_eq!(core.status, TableStatus::Playing);
}

/// A tournament table of `rules` with people at `people` (users 7, 8, ...) and computer
/// players elsewhere, started and dealt its first hand.
fn tour_table(rules: &str, people: &[u8], tour: TourTable) -> TableCore {
    let rules = Rules::parse(rules).unwrap();
    let seats = (0..rules.players)
        .map(|s| {
            if people.contains(&s) {
                SeatSetup::Open
            } else {
                SeatSetup::Bot {
                    level: "random".into(),
                }
            }
        })
        .collect();
    let mut core = TableCore::new(TableConfig {
        id: "t".into(),
        rules,
        seats,
        creator: None,
        unlisted: true,
        created_at: 0,
        request: None,
        correspondence: None,
        tournament: Some(tour),
        hints: false,
    });
    for (n, &seat) in people.iter().enumerate() {
        core.apply(&Stored::Sit {
            seat,
            user: UserRef {
                id: 7 + n as i64,
                name: format!("p{n}"),
                registered: true,
                bot: false,
            },
        })
        .unwrap();
    }
    core.apply(&Stored::Start).unwrap();
    core.apply(&Stored::Commit {
        hand: 1,
        server_seed: "11".repeat(32),
    })
    .unwrap();
    core.apply(&Stored::Deal { hand: 1 }).unwrap();
    core
}

fn no_show_after(ms: u64) -> TourTable {
    TourTable {
        no_show_ms: Some(ms),
        ..TourTable::default()
    }
}

/// The computer players move until `seat` is to move.
fn computers_until(core: &mut TableCore, seat: u8) {
    while let Some(s) = core.to_move() {
        if s == seat {
            return;
        }
        let action = core.state.as_ref().unwrap().view(Seat(s)).legal_actions()[0];
        core.apply(&Stored::Act {
            seat: s,
            action,
            cmd: None,
        })
        .unwrap();
    }
    panic!("seat {seat} never came to move");
}

#[test]
fn no_computer_plays_a_person_at_a_tournament_table_and_leaving_loses_at_once() {
    let mut core = tour_table("all-fives", &[0], no_show_after(1000));
    // A takeover stored before the rule stands in the record but plays nothing; a
    // correspondence timeout is refused.
    core.apply(&Stored::Takeover { seat: 0, on: true }).unwrap();
    assert!(!core.computer_plays(0));
    assert!(core.computer_plays(1));
    assert!(core.apply(&Stored::Timeout { seat: 0 }).is_err());
    // The turn clock is the no-show time when the event sets none.
    assert_eq!(core.turn_ms(), Some(1000));
    let mut core = tour_table("all-fives", &[0], no_show_after(1000));
    core.apply(&Stored::Forfeit { seat: 0 }).unwrap();
    assert_eq!(core.status, TableStatus::Finished);
    assert_eq!(core.forfeit, Some(1));
    let s = core.seat_info(0);
    assert!(s.resigned && !s.by_computer, "{s:?}");
    assert!(core.apply(&Stored::Forfeit { seat: 0 }).is_err());
    // Only at tournament tables.
    let mut plain = board_table(None);
    plain
        .apply(&Stored::Commit {
            hand: 1,
            server_seed: "00".repeat(32),
        })
        .unwrap();
    plain.apply(&Stored::Deal { hand: 1 }).unwrap();
    assert!(plain.apply(&Stored::Forfeit { seat: 0 }).is_err());
    assert_eq!(plain.turn_ms(), None);
}

#[test]
fn strikes_move_nobody_and_the_third_loses() {
    let mut core = tour_table("all-fives", &[0], no_show_after(60_000));
    computers_until(&mut core, 0);
    let version = core.version;
    for _ in 0..2 {
        core.apply(&Stored::Strike { seat: 0 }).unwrap();
        assert_eq!(core.to_move(), Some(0), "nobody moved for her");
    }
    assert_eq!(core.version, version + 2);
    core.apply(&Stored::Strike { seat: 0 }).unwrap();
    assert_eq!(core.status, TableStatus::Finished);
    assert_eq!(core.forfeit, Some(1));
    assert!(core.seat_info(0).resigned && !core.seat_info(0).by_computer);
}

#[test]
fn at_a_table_of_three_no_shows_end_the_game_for_the_best_of_the_rest() {
    let mut core = tour_table(
        "all-fives players=3 partnerships=false",
        &[0, 1],
        no_show_after(1000),
    );
    // Seat 2, the computer, leads the table on points or not: the first no-show ends the
    // game, given to the higher of the others (the lower seat on a tie).
    let scores = core.scores();
    core.apply(&Stored::NoShow { seat: 0 }).unwrap();
    assert_eq!(core.status, TableStatus::Finished);
    let want = if scores[2] > scores[1] { 2 } else { 1 };
    assert_eq!(core.forfeit, Some(want));
    // A second no-show of the same check follows; with seat 1 out too, the computer wins.
    core.apply(&Stored::NoShow { seat: 1 }).unwrap();
    assert_eq!(core.forfeit, Some(2));
    assert_eq!(core.no_shows, vec![0, 1]);
    assert!(core.apply(&Stored::NoShow { seat: 1 }).is_err());
    assert!(core.apply(&Stored::Forfeit { seat: 0 }).is_err());
    // A third strike at a table of three is followed by a forfeit (the task stores both).
    let mut core = tour_table(
        "all-fives players=3 partnerships=false",
        &[0],
        no_show_after(60_000),
    );
    computers_until(&mut core, 0);
    for _ in 0..3 {
        core.apply(&Stored::Strike { seat: 0 }).unwrap();
    }
    assert_eq!(core.status, TableStatus::Playing);
    core.apply(&Stored::Forfeit { seat: 0 }).unwrap();
    assert_eq!(core.status, TableStatus::Finished);
    assert_ne!(core.forfeit, Some(0));
}
