//! Tests of the module beside this file.

use super::*;

fn settings(format: Format) -> Settings {
    Settings {
        name: "t".into(),
        format,
        rules: "all-fives target=50".into(),
        best_of: 3,
        start_at: None,
        start_when: Some(4),
        max_entrants: None,
        min_rating: None,
        max_rating: None,
        opponents: None,
        no_show_ms: None,
        match_clock_ms: None,
        turn_ms: None,
    }
}

fn field(n: u32) -> Vec<Entrant> {
    (1..=n)
        .map(|i| Entrant::single(EntrantId(i), format!("p{i}"), 1500))
        .collect()
}

#[test]
fn settings_are_checked() {
    assert!(settings(Format::Swiss { rounds: 3 }).check(0).is_ok());
    assert!(settings(Format::Swiss { rounds: 0 }).check(0).is_err());
    let mut s = settings(Format::Knockout { double: false });
    s.best_of = 2;
    assert!(s.check(0).unwrap_err().contains("odd"));
    let mut s = settings(Format::Arena { duration_ms: 10 });
    assert!(s.check(0).is_err());
    s.format = Format::Arena { duration_ms: 5000 };
    s.start_when = None;
    assert!(s.check(0).unwrap_err().contains("start"));
    let mut s = settings(Format::Swiss { rounds: 3 });
    s.rules = "all-fives players=3".into();
    assert!(s.check(0).unwrap_err().contains("two players"));
}

#[test]
fn a_best_of_three_is_played_game_by_game_and_replays() {
    let mut e = Event::new("e".into(), settings(Format::Swiss { rounds: 1 }));
    e.apply(Op::Start {
        at_ms: 0,
        entrants: field(2),
    })
    .unwrap();
    e.apply(Op::Swiss {
        swiss: SwissOp::PairRound,
    })
    .unwrap();
    let live = e.live();
    assert_eq!(live.len(), 1);
    let key = live[0].key;
    assert_eq!(e.match_state(key), MatchState::Open(0));
    // A game cannot be opened twice or out of turn, nor its result given twice.
    e.apply(Op::Open {
        key,
        game: 0,
        table: "a".into(),
    })
    .unwrap();
    assert!(e
        .apply(Op::Open {
            key,
            game: 1,
            table: "b".into()
        })
        .is_err());
    assert_eq!(e.match_state(key), MatchState::Playing);
    // A game whose table was never written moves to a new table.
    e.apply(Op::Reopen {
        key,
        game: 0,
        table: "a2".into(),
    })
    .unwrap();
    assert_eq!(e.games[&key][0].table, "a2");
    let game = |game, a_won| Op::Game {
        key,
        game,
        a_won,
        points: if a_won { [50, 10] } else { [20, 51] },
        scores: Vec::new(),
    };
    e.apply(game(0, true)).unwrap();
    assert!(e.apply(game(0, true)).is_err());
    assert!(e
        .apply(Op::Reopen {
            key,
            game: 0,
            table: "a3".into()
        })
        .is_err());
    for (n, a_won) in [(1, false), (2, true)] {
        assert_eq!(e.match_state(key), MatchState::Open(n));
        e.apply(Op::Open {
            key,
            game: n,
            table: format!("t{n}"),
        })
        .unwrap();
        e.apply(game(n, a_won)).unwrap();
    }
    let MatchState::Over(r) = e.match_state(key) else {
        panic!("the match is over")
    };
    assert_eq!(r.games, [2, 1]);
    assert_eq!(r.points, [120, 71]);
    e.apply(e.record_op(key, r, 0).unwrap()).unwrap();
    assert!(e.live().is_empty());
    e.apply(Op::Finish { at_ms: 1 }).unwrap();
    assert_eq!(e.standings()[0].name, e.field()[0].name.clone());
    // The stored log rebuilds the same event.
    let mut again = Event::new("e".into(), e.settings.clone());
    for op in e.ops.clone() {
        again.apply(op).unwrap();
    }
    assert_eq!(again.standings(), e.standings());
    assert_eq!(again.games, e.games);
    assert!(again.apply(Op::Cancel).is_err());
}

#[test]
fn a_daylong_deals_boards_one_after_another_until_it_closes() {
    let mut s = settings(Format::Daylong {
        boards: 2,
        scoring: Scoring::Difference,
        duration_ms: 60_000,
    });
    s.best_of = 1;
    s.start_when = None;
    assert!(s.check(0).is_ok());
    let mut e = Event::new("d".into(), s);
    // Not before the boards are drawn, and only as many seeds as boards.
    let start = Op::Start {
        at_ms: 1000,
        entrants: field(1),
    };
    assert!(e.apply(start.clone()).is_err());
    assert!(e
        .apply(Op::Boards {
            seeds: vec!["00".repeat(32)]
        })
        .is_err());
    e.apply(Op::Boards {
        seeds: vec!["00".repeat(32), "11".repeat(32)],
    })
    .unwrap();
    e.apply(start).unwrap();
    assert_eq!(e.closes_ms(), Some(61_000));
    let live = e.live();
    assert_eq!(live.len(), 1);
    assert_eq!(live[0].key, (0, 1));
    e.apply(Op::Open {
        key: (0, 1),
        game: 0,
        table: "b1".into(),
    })
    .unwrap();
    // A late entrant starts at board 1 too.
    e.apply(Op::Enter {
        entrant: Entrant::single(EntrantId(2), "p2", 1500),
    })
    .unwrap();
    assert_eq!(e.live().len(), 2);
    e.apply(Op::Game {
        key: (0, 1),
        game: 0,
        a_won: true,
        points: [10, 4],
        scores: Vec::new(),
    })
    .unwrap();
    assert_eq!(e.live()[0].key, (1, 1), "the next board");
    // Entrant 2 leaves; the daylong closes: no more boards for anyone.
    e.apply(Op::Withdraw {
        entrant: EntrantId(2),
    })
    .unwrap();
    assert!(e.live().iter().all(|l| l.a != EntrantId(2)));
    e.apply(Op::Close { at_ms: 61_000 }).unwrap();
    assert!(e.live().is_empty());
    assert!(e
        .apply(Op::Enter {
            entrant: Entrant::single(EntrantId(3), "p3", 1500),
        })
        .is_err());
    let rows = e.standings();
    assert_eq!(rows.len(), 2);
    assert_eq!(e.board_scores()[0].scores, vec![(EntrantId(1), 6)]);
    assert!(rows.iter().any(|r| r.entrant == EntrantId(2) && r.out));
}
