//! Game records: text and JSON round trips on randomly played games, replay, and tampering.

use fiveup_engine::notation::{Move, Record, Recorder, ReplayError, ReplayErrorKind};
use fiveup_engine::{
    shuffle, Action, Deal, FastRng, HandEnd, HandStart, IllegalAction, Phase, Preset, Rules, Seed,
    SetupError, Side, State, Tile, TILE_COUNT,
};
use proptest::prelude::*;

/// Where a game's deals come from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Deals {
    /// The game seed, recorded in the record.
    Seeded,
    /// Shuffles from the random stream, no seed recorded.
    Random,
}

/// A deal for a hand starting with `start`, redealing as the rules require.
fn random_deal(rules: Rules, start: HandStart, rng: &mut FastRng) -> State {
    let n = rules.tile_count();
    let mut order: [Tile; TILE_COUNT] =
        std::array::from_fn(|i| Tile::from_index(if i < n { i as u8 } else { 0 }).unwrap());
    loop {
        shuffle(&mut order[..n], |k| rng.below(k));
        let deal = Deal {
            order,
            tiles: n as u8,
            players: rules.players,
            hand_size: rules.hand_size,
            // The lot is part of a deal only under the lot rule (records keep it only then).
            lot: fiveup_engine::Seat(if rules.first_lead == fiveup_engine::FirstLead::Lot {
                rng.below(u32::from(rules.players)) as u8
            } else {
                0
            }),
        };
        match State::with_start(rules, deal, start) {
            Ok(s) => return s,
            Err(SetupError::NoDouble) => continue,
            Err(e) => panic!("{e}"),
        }
    }
}

/// Play a game with uniformly random legal actions and record it. The game stops after
/// `max_hands` hands, or after `stop_after` actions in all, if it has not ended by then.
fn play(
    rules: Rules,
    seed: u64,
    deals: Deals,
    max_hands: usize,
    stop_after: Option<usize>,
) -> (Record, State) {
    let game_seed = Seed::from_u64(seed);
    let mut rng = FastRng::new(seed ^ 0x5eed);
    let mut state = match deals {
        Deals::Seeded => State::from_seed(rules, &game_seed).unwrap(),
        Deals::Random => random_deal(rules, HandStart::first(), &mut rng),
    };
    let recorded_seed = (deals == Deals::Seeded).then_some(game_seed);
    let mut rec = Recorder::new(&state, None, recorded_seed).unwrap();
    let mut hands = 1;
    let mut actions = 0;
    while state.phase() != Phase::GameOver && stop_after.is_none_or(|n| actions < n) {
        if state.phase() == Phase::HandOver {
            if hands == max_hands {
                break;
            }
            match deals {
                Deals::Seeded => state.next_hand_from_seed(&game_seed).unwrap(),
                Deals::Random => {
                    state = random_deal(rules, state.next_hand_start().unwrap(), &mut rng);
                }
            }
            rec.start_hand(&state);
            hands += 1;
        }
        let legal = state.legal_actions();
        let a = legal[rng.below(legal.len() as u32) as usize];
        rec.apply(&mut state, a).unwrap();
        actions += 1;
    }
    (rec.finish(&state), state)
}

/// Every round trip and the replay, checked against the state the game was played in.
fn check_round_trips(record: &Record, state: &State) {
    let sides = state.rules().sides() as usize;
    let text = record.to_text();
    let parsed = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&parsed, record);
    assert_eq!(parsed.to_text(), text);
    let json = record.to_json();
    let from_json = Record::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(&from_json, record);
    assert_eq!(from_json.to_json(), json);
    assert_eq!(Record::from_json(&parsed.to_json()).unwrap(), *record);

    let replayed = record.replay().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(replayed.scores, state.scores().0[..sides].to_vec());
    assert_eq!(replayed.winner, state.winner());
    assert_eq!(replayed.hands.len(), record.hands.len());
    assert_eq!(replayed.state.log(), state.log());
    let from_json = from_json.replay().unwrap();
    assert_eq!(from_json.hands, replayed.hands);
    assert_eq!(from_json.scores, replayed.scores);
    for (h, r) in record.hands.iter().zip(&replayed.hands) {
        assert_eq!(h.moves.len(), r.steps.len());
        for (m, s) in h.moves.iter().zip(&r.steps) {
            assert_eq!((m.action, m.points), (s.action, s.points));
        }
    }
}

fn all_tables() -> Vec<Rules> {
    let mut v = Vec::new();
    for p in Preset::ALL {
        for n in 2..=4 {
            v.push(Rules::preset(p, n));
        }
    }
    v
}

fn variants() -> Vec<Rules> {
    [
        "five-up manual=true",
        "five-up players=3 manual=true exact-target=true target=100",
        "five-up players=4 manual=true",
        "fives-and-threes manual=true",
        "five-up exact-target=true target=50",
        "five-up no-double=draw-until-double",
        "five-up players=3 no-double=heaviest-tile",
        "muggins next-lead=rotate",
        "five-up game-end=finish-hand players=3",
        "draw award=difference players=3",
        "five-up award=subtract-own",
        "five-up voluntary-draw=true",
        "five-up boneyard-keep=2 players=3",
        "five-up doubles-one-half=true",
        "cross sprouts=at-once",
        "five-up players=4 partnerships=false",
        "five-up players=4 hand=7",
        "block players=4 hand=7 partnerships=false",
        "cribbage players=3",
    ]
    .iter()
    .map(|s| Rules::parse(s).unwrap())
    .collect()
}

#[test]
fn every_preset_and_table_round_trips_and_replays() {
    for rules in all_tables() {
        for seed in 0..3 {
            let (record, state) = play(rules, seed, Deals::Seeded, 60, None);
            check_round_trips(&record, &state);
        }
    }
}

#[test]
fn rule_variants_round_trip_and_replay() {
    for rules in variants() {
        for seed in 0..3 {
            for deals in [Deals::Seeded, Deals::Random] {
                let (record, state) = play(rules, seed, deals, 60, None);
                check_round_trips(&record, &state);
            }
        }
    }
}

#[test]
fn manual_scoring_records_claims_and_muggins() {
    let rules = Rules::parse("five-up manual=true").unwrap();
    let mut claims = 0;
    let mut muggins = 0;
    for seed in 0..10 {
        let (record, state) = play(rules, seed, Deals::Seeded, 60, None);
        check_round_trips(&record, &state);
        for m in record.hands.iter().flat_map(|h| &h.moves) {
            match m.action {
                Action::Claim(n) if n > 0 => {
                    assert_eq!(m.points, n);
                    claims += 1;
                }
                Action::Muggins => {
                    assert!(m.points > 0);
                    muggins += 1;
                }
                Action::Play { .. } => assert_eq!(m.points, 0),
                _ => {}
            }
        }
    }
    assert!(
        claims > 0 && muggins > 0,
        "claims {claims}, muggins {muggins}"
    );
}

#[test]
fn unfinished_games_round_trip_and_replay() {
    for rules in variants().into_iter().chain(all_tables()) {
        for stop in [1, 7, 40, 95] {
            let (record, state) = play(rules, stop as u64, Deals::Seeded, 60, Some(stop));
            assert!(record.game.is_none() || state.phase() == Phase::GameOver);
            check_round_trips(&record, &state);
        }
        // Stopped between hands.
        let (record, state) = play(rules, 9, Deals::Random, 2, None);
        check_round_trips(&record, &state);
    }
}

#[test]
fn recorder_action_matches_recorder_apply() {
    let rules = Rules::preset(Preset::FiveUp, 3);
    let seed = Seed::from_u64(11);
    let (by_apply, _) = play(rules, 11, Deals::Seeded, 60, None);
    let mut state = State::from_seed(rules, &seed).unwrap();
    let mut rec = Recorder::new(&state, None, Some(seed)).unwrap();
    let mut rng = FastRng::new(11 ^ 0x5eed);
    while state.phase() != Phase::GameOver {
        if state.phase() == Phase::HandOver {
            rec.finish_hand(&state);
            state.next_hand_from_seed(&seed).unwrap();
            rec.start_hand(&state);
        }
        let legal = state.legal_actions();
        let a = legal[rng.below(legal.len() as u32) as usize];
        let outcome = state.apply(a).unwrap();
        rec.action(a, &outcome);
    }
    assert_eq!(rec.finish(&state), by_apply);
}

#[test]
fn names_and_tags_are_kept() {
    let rules = Rules::preset(Preset::Cross, 4);
    let seed = Seed::from_u64(2);
    let state = State::from_seed(rules, &seed).unwrap();
    let names = vec![
        "Ann".to_string(),
        "Bo \"B\"".into(),
        "Cy; #3".into(),
        "Dee\\".into(),
    ];
    let mut rec = Recorder::new(&state, Some(names.clone()), Some(seed)).unwrap();
    rec.tag("Event", "Club night [final]").unwrap();
    assert!(rec.tag("Rules", "x").is_err());
    assert!(rec.tag("S1", "x").is_err());
    assert!(rec.tag("bad key", "x").is_err());
    assert!(rec.tag("Note", "line\nbreak").is_err());
    let record = rec.finish(&state);
    let text = record.to_text();
    assert!(text.contains("[Event \"Club night [final]\"]"), "{text}");
    let back = Record::parse(&text).unwrap();
    assert_eq!(back.seats, names);
    assert_eq!(back, record);
    assert!(Recorder::new(&state, Some(vec!["A".into()]), None).is_err());
    assert!(Recorder::new(&state, Some(vec![" ".into(); 4]), None).is_err());
}

// ----- tampering -----

fn sample(rules: &str, seed: u64, deals: Deals) -> Record {
    let (record, state) = play(Rules::parse(rules).unwrap(), seed, deals, 60, None);
    assert_eq!(state.phase(), Phase::GameOver);
    assert!(record.hands.len() >= 2);
    record
}

fn replay_err(r: &Record) -> ReplayError {
    let e = r.replay().unwrap_err();
    // The text form gives the same error.
    assert_eq!(
        Record::parse(&r.to_text()).unwrap().replay().unwrap_err(),
        e
    );
    e
}

#[test]
fn a_changed_points_annotation_is_named() {
    let mut r = sample("five-up", 1, Deals::Seeded);
    let (hi, ai) = r
        .hands
        .iter()
        .enumerate()
        .skip(1)
        .find_map(|(hi, h)| {
            h.moves
                .iter()
                .position(|m| m.points > 0 && matches!(m.action, Action::Play { arm: Some(_), .. }))
                .map(|ai| (hi, ai))
        })
        .unwrap();
    let real = r.hands[hi].moves[ai];
    r.hands[hi].moves[ai].points += 5;
    let e = replay_err(&r);
    assert_eq!(e.hand, Some(hi + 1));
    assert_eq!(e.action, Some(ai + 1));
    assert_eq!(
        e.to_string(),
        format!(
            "hand {}, action {} `{}+{}`: the play scores {}, the record says {}",
            hi + 1,
            ai + 1,
            real.action,
            real.points + 5,
            real.points,
            real.points + 5
        )
    );
    // Points dropped from a scoring play.
    let mut r2 = sample("five-up", 1, Deals::Seeded);
    r2.hands[hi].moves[ai].points = 0;
    assert!(matches!(
        replay_err(&r2).kind,
        ReplayErrorKind::Points { actual, recorded: 0, .. } if actual == real.points
    ));
    // Points on a draw.
    let mut r3 = sample("five-up", 1, Deals::Seeded);
    let (hi, ai) = r3
        .hands
        .iter()
        .enumerate()
        .find_map(|(hi, h)| {
            h.moves
                .iter()
                .position(|m| m.action == Action::Draw)
                .map(|ai| (hi, ai))
        })
        .unwrap();
    r3.hands[hi].moves[ai].points = 10;
    let e = replay_err(&r3);
    assert!(
        e.to_string()
            .ends_with("`D+10`: the draw scores nothing, the record says 10"),
        "{e}"
    );
}

#[test]
fn a_swapped_tile_is_illegal() {
    let mut r = sample("five-up", 2, Deals::Seeded);
    // Replace the tile of the third action of hand 2 with a tile nobody holds there: one
    // already on the table (the lead).
    let hand = &mut r.hands[1];
    let lead = match hand.moves[0].action {
        Action::Play { tile, arm: None } => tile,
        a => panic!("hand starts with {a}"),
    };
    let ai = hand
        .moves
        .iter()
        .position(|m| matches!(m.action, Action::Play { arm: Some(_), .. }))
        .unwrap();
    let Action::Play { arm, .. } = hand.moves[ai].action else {
        unreachable!()
    };
    hand.moves[ai] = Move::new(Action::Play { tile: lead, arm });
    let e = replay_err(&r);
    assert_eq!((e.hand, e.action), (Some(2), Some(ai + 1)));
    assert!(
        matches!(e.kind, ReplayErrorKind::Illegal { error: IllegalAction::NotInHand(t), .. } if t == lead),
        "{e}"
    );
    assert!(e.to_string().contains(": illegal for S"), "{e}");
    assert!(
        e.to_string().ends_with(&format!("you do not hold {lead}")),
        "{e}"
    );
}

#[test]
fn a_dropped_token_is_found() {
    let base = sample("five-up players=3", 3, Deals::Seeded);
    // The last token of hand 1: the hand no longer ends, yet the record gives its result.
    let mut r = base.clone();
    r.hands[0].moves.pop();
    let e = replay_err(&r);
    assert_eq!((e.hand, e.action), (Some(1), None));
    assert!(
        matches!(
            e.kind,
            ReplayErrorKind::ResultWithoutEnd {
                game_over: false,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("the hand is not over"), "{e}");
    // The first token of hand 1: the lead is missing.
    let mut r = base.clone();
    r.hands[0].moves.remove(0);
    let e = replay_err(&r);
    assert_eq!((e.hand, e.action), (Some(1), Some(1)));
    assert!(matches!(e.kind, ReplayErrorKind::Illegal { .. }), "{e}");
    // A token added after the end of a hand.
    let mut r = base.clone();
    r.hands[0].moves.push(Move::new(Action::Pass));
    let e = replay_err(&r);
    assert_eq!(e.action, Some(r.hands[0].moves.len()));
    assert_eq!(e.kind, ReplayErrorKind::AfterEnd { game: false });
}

#[test]
fn a_changed_deal_is_found() {
    // Seeded: the deal must be the seed's.
    let mut r = sample("five-up", 4, Deals::Seeded);
    r.hands[1].deal.order.swap(2, 9);
    let (a, b) = (r.hands[1].deal.order[2], r.hands[1].deal.order[9]);
    let e = replay_err(&r);
    assert_eq!(e.hand, Some(2));
    assert_eq!(
        e.kind,
        ReplayErrorKind::SeededDeal {
            position: 2,
            recorded: a,
            seeded: b,
            hand_size: 7,
            players: 2
        }
    );
    assert_eq!(
        e.to_string(),
        format!("hand 2: the deal is not the one the seed gives: tile 3 of S0 is {a}, the seed deals {b}")
    );
    // Unseeded: swapping the lead (the highest double) into the boneyard spoils the lead.
    let mut r = sample("five-up", 4, Deals::Random);
    let Action::Play { tile: lead, .. } = r.hands[0].moves[0].action else {
        unreachable!()
    };
    let order = &mut r.hands[0].deal.order;
    let at = order.iter().position(|&t| t == lead).unwrap();
    let swapped = order[14];
    order.swap(at, 14);
    let e = replay_err(&r);
    assert_eq!(e.hand, Some(1));
    if swapped.is_double() && swapped > lead {
        assert_eq!(e.action, Some(1), "{e}");
    } else {
        assert!(
            e.action == Some(1) || e.kind == ReplayErrorKind::Setup(SetupError::NoDouble),
            "{e}"
        );
    }
}

#[test]
fn changed_results_are_found() {
    let base = sample("five-up", 5, Deals::Seeded);
    let sides = 2;
    let mut r = base.clone();
    r.hands[0].result.as_mut().unwrap().scores[0] += 5;
    let e = replay_err(&r);
    assert!(matches!(e.kind, ReplayErrorKind::Scores { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("hand 1: the scores after the hand are"),
        "{e}"
    );

    let mut r = base.clone();
    r.hands[0].result.as_mut().unwrap().awards[1] += 5;
    assert!(matches!(
        replay_err(&r).kind,
        ReplayErrorKind::Awards { .. }
    ));

    let mut r = base.clone();
    let res = r.hands[0].result.as_mut().unwrap();
    res.end = match res.end {
        HandEnd::Blocked => HandEnd::Domino {
            seat: fiveup_engine::Seat(0),
        },
        HandEnd::Domino { .. } => HandEnd::Blocked,
    };
    assert!(matches!(
        replay_err(&r).kind,
        ReplayErrorKind::ResultEnd { .. }
    ));

    let mut r = base.clone();
    r.hands[0].result = None;
    assert!(matches!(
        replay_err(&r).kind,
        ReplayErrorKind::MissingResult { .. }
    ));

    let mut r = base.clone();
    let g = r.game.as_mut().unwrap();
    g.winner = Side(1 - g.winner.0);
    let e = replay_err(&r);
    assert_eq!(e.hand, None);
    assert!(matches!(e.kind, ReplayErrorKind::Winner { .. }), "{e}");
    assert!(e.to_string().starts_with("game: side "), "{e}");

    let mut r = base.clone();
    r.game.as_mut().unwrap().scores = vec![0; sides];
    assert!(matches!(
        replay_err(&r).kind,
        ReplayErrorKind::FinalScores { .. }
    ));

    let mut r = base.clone();
    r.game = None;
    assert!(matches!(
        replay_err(&r).kind,
        ReplayErrorKind::MissingGameResult { .. }
    ));

    // A game line on an unfinished game.
    let mut r = base.clone();
    r.hands.truncate(1);
    assert_eq!(replay_err(&r).kind, ReplayErrorKind::GameNotOver);

    // A hand after the end of the game.
    let mut r = base.clone();
    let extra = r.hands[0].clone();
    r.hands.push(extra);
    let e = replay_err(&r);
    assert_eq!(
        (e.hand, e.kind),
        (Some(base.hands.len() + 1), ReplayErrorKind::AfterGameOver)
    );

    // An unfinished hand followed by another.
    let mut r = base.clone();
    r.hands[0].moves.truncate(3);
    r.hands[0].result = None;
    let e = replay_err(&r);
    assert_eq!(e.hand, Some(1));
    assert!(matches!(e.kind, ReplayErrorKind::Unfinished { .. }), "{e}");
}

#[test]
fn text_level_tampering_gives_the_same_errors() {
    let r = sample("five-up", 6, Deals::Seeded);
    let text = r.to_text();
    // Change the first scored token's points in the text.
    let m = r.hands[0].moves.iter().find(|m| m.points > 0).unwrap();
    let token = m.to_string();
    let bad = format!("{}+{}", m.action, m.points + 10);
    let tampered = text.replacen(&format!(" {token} "), &format!(" {bad} "), 1);
    let tampered = if tampered == text {
        text.replacen(&format!(" {token}\n"), &format!(" {bad}\n"), 1)
    } else {
        tampered
    };
    assert_ne!(tampered, text);
    let e = Record::parse(&tampered).unwrap().replay().unwrap_err();
    assert!(matches!(e.kind, ReplayErrorKind::Points { .. }), "{e}");
    assert!(e.to_string().contains(&format!("`{bad}`")), "{e}");

    // Bad headers.
    let bad_seed = text.replacen("[Seed \"", "[Seed \"zz", 1);
    let e = Record::parse(&bad_seed).unwrap_err();
    assert_eq!(e.line, Some(3));
    assert!(e.message.contains("Seed: not a seed"), "{e}");
    let no_rules: String = text
        .lines()
        .filter(|l| !l.starts_with("[Rules"))
        .map(|l| format!("{l}\n"))
        .collect();
    let e = Record::parse(&no_rules).unwrap_err();
    assert!(e.message.contains("missing [Rules"), "{e}");
    let e = Record::parse(&text.replacen("players=2", "players=two", 1)).unwrap_err();
    assert_eq!(e.line, Some(2));
    assert!(e.message.starts_with("Rules: players: not a number"), "{e}");
}

#[test]
fn short_games_replay_step_by_step() {
    let r = sample("five-up target=50", 7, Deals::Seeded);
    let g = r.replay().unwrap();
    let first = &g.hands[0];
    assert_eq!(first.start.hand_no, 1);
    let lead = &first.steps[0];
    assert_eq!(lead.seat, first.leader);
    assert_eq!(lead.open_ends.len(), 2);
    assert!(lead.count > 0);
    for h in &g.hands {
        let mut prev = h.start.scores.0[..2].to_vec();
        for (i, s) in h.steps.iter().enumerate() {
            let gained: i32 = s.scores.iter().zip(&prev).map(|(a, b)| a - b).sum();
            // The action that ends a hand also brings the hand's award.
            let award: i32 = match &h.result {
                Some(res) if i + 1 == h.steps.len() => res.scored.0.iter().sum(),
                _ => 0,
            };
            assert_eq!(gained, i32::from(s.points) + award);
            prev.clone_from(&s.scores);
        }
        assert_eq!(prev, h.scores);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_games_round_trip(
        preset in 0usize..Preset::ALL.len(),
        players in 2u8..=4,
        seed in any::<u64>(),
        manual in any::<bool>(),
        seeded in any::<bool>(),
        stop in prop::option::of(1usize..400),
    ) {
        let mut rules = Rules::preset(Preset::ALL[preset], players);
        rules.manual_scoring = manual && rules.play_scoring != fiveup_engine::PlayScoring::None;
        let deals = if seeded { Deals::Seeded } else { Deals::Random };
        let (record, state) = play(rules, seed, deals, 40, stop);
        check_round_trips(&record, &state);
    }
}

#[test]
fn malformed_records_are_refused_before_replay() {
    let base = sample("five-up", 8, Deals::Seeded);
    let mut r = base.clone();
    r.hands.clear();
    let e = r.replay().unwrap_err();
    assert!(matches!(e.kind, ReplayErrorKind::Malformed(_)), "{e}");
    assert_eq!(
        e.to_string(),
        "game: the record is malformed: a record needs at least one hand"
    );
    let mut r = base.clone();
    r.hands[0].deal.order[0] = r.hands[0].deal.order[1];
    assert!(matches!(
        r.replay().unwrap_err().kind,
        ReplayErrorKind::Malformed(_)
    ));
    let mut r = base;
    r.hands[0].result.as_mut().unwrap().awards.pop();
    let e = r.check().unwrap_err();
    assert!(
        e.message
            .contains("hand 1: result awards: expected 2 numbers"),
        "{e}"
    );
    assert!(matches!(
        r.replay().unwrap_err().kind,
        ReplayErrorKind::Malformed(_)
    ));
}
