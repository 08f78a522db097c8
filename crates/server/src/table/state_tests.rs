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
