//! Conformance: the rules of Five Up and its house options, each as a test on real states built
//! from hand-described deals and played through `State::apply`.
//!
//! Arms: the lead's high half is arm `W` (0), its low half arm `E` (1); the first spinner's
//! sprouts are `N` (2) and `S` (3); later sprouts are numbered from 4.

mod common;

use common::{act, deal, free_lead, go, legal, script, set, sorted, state, t};
use fiveup_engine::{
    ArmId, Award, BySide, Entry, GameEnd, HandEnd, HandStart, IllegalAction, LeadKind, NextLead,
    NoDouble, Phase, PipSet, Preset, Rules, Seat, SetupError, Side, SpinnerRule, SproutRule, State,
};

fn scores(s: &State, n: usize) -> Vec<i32> {
    s.scores().0[..n].to_vec()
}

fn last_play(s: &State) -> (u16, u16) {
    match s
        .log()
        .iter()
        .rev()
        .find(|e| matches!(e, Entry::Play { .. }))
    {
        Some(Entry::Play { count, points, .. }) => (*count, *points),
        _ => panic!("no play in the log"),
    }
}

fn open_arms(s: &State) -> Vec<u8> {
    s.layout().open_arms().map(|a| a.0).collect()
}

fn start_with_scores(a: i32, b: i32) -> HandStart {
    let mut scores = BySide::default();
    scores.0[0] = a;
    scores.0[1] = b;
    HandStart {
        scores,
        ..HandStart::first()
    }
}

// ----- The count -----

/// Count: a 5-5 lead counts 10 and scores 10; a 5-0 against it keeps the count at 10 (the
/// spinner, with one tile against it, still counts both halves; the blank counts nothing) and
/// scores 10; a 3-5 against the spinner's other side leaves 0 and 3, counts 3 and scores
/// nothing. Sprouts (default rule): shut until both line sides are covered, open after.
#[test]
fn five_five_then_five_zero_then_three_five() {
    // 6-6 sits in the boneyard, so the 5-5 is the highest double dealt and leads.
    let mut s = state(
        Rules::default(),
        &["5-5 5-3 2-1 4-4 3-3 1-0 2-2", "5-0 6-1 6-2 4-1 3-1 4-0 3-2"],
        "",
        HandStart::first(),
    );
    assert_eq!(go(&mut s, "5-5").points, 10);
    assert_eq!(s.layout().count(), 10);
    assert_eq!(go(&mut s, "5-0@W").points, 10);
    assert_eq!(s.layout().count(), 10);
    // Only the spinner's other line side and the blank are open.
    assert_eq!(open_arms(&s), vec![0, 1]);
    assert_eq!(legal(&s), sorted("1-0@W 5-3@E"));
    assert_eq!(
        s.apply(act("5-3@N")),
        Err(IllegalAction::ArmNotOpen(ArmId(2)))
    );
    assert_eq!(go(&mut s, "5-3@E").points, 0);
    assert_eq!(s.layout().count(), 3);
    assert_eq!(open_arms(&s), vec![0, 1, 2, 3]);
    assert_eq!(s.layout().arm_pip(ArmId(2)), 5);
    assert_eq!(s.layout().arm_pip(ArmId(3)), 5);
    assert_eq!(scores(&s, 2), vec![10, 10]);
}

/// Sprouts option "at once": the spinner's four sides take tiles from the moment it is laid.
/// After the 5-0, three sides of the 5-5 and the blank are open; a 3-5 on the other line side
/// or on a sprout counts 3 either way (two tiles now lie against the spinner).
#[test]
fn sprouts_open_at_once_under_the_option() {
    let r = Rules {
        sprouts: SproutRule::AtOnce,
        ..Rules::default()
    };
    let hands = ["5-5 5-3 2-1 4-4 3-3 1-0 2-2", "5-0 6-1 6-2 4-1 3-1 4-0 3-2"];
    let mut s = state(r, &hands, "", HandStart::first());
    go(&mut s, "5-5");
    assert_eq!(open_arms(&s), vec![0, 1, 2, 3]);
    assert_eq!(s.layout().count(), 10, "empty sprouts count nothing");
    go(&mut s, "5-0@W");
    assert_eq!(s.layout().count(), 10);
    assert_eq!(open_arms(&s), vec![0, 1, 2, 3]);
    assert_eq!(s.layout().arm_pip(ArmId(0)), 0);
    let mut on_sprout = s.clone();
    assert_eq!(go(&mut s, "5-3@E").points, 0);
    assert_eq!(s.layout().count(), 3);
    assert_eq!(go(&mut on_sprout, "5-3@N").points, 0);
    assert_eq!(on_sprout.layout().count(), 3);
}

/// Count: a lone lead counts both halves, so a 6-4 lead scores 10.
#[test]
fn six_four_lead_scores_ten() {
    let mut s = state(
        Rules::default(),
        &["6-4 0-0 1-0 2-0 3-0 4-0 5-0", "6-0 1-1 2-1 3-1 4-1 5-1 6-1"],
        "",
        free_lead(0),
    );
    assert_eq!(go(&mut s, "6-4").points, 10);
    assert_eq!(scores(&s, 2), vec![10, 0]);
}

/// Count: a 6-6 at one end and a 3 at the other count 12 + 3 = 15, which scores 15.
#[test]
fn double_six_and_a_three_count_fifteen() {
    let mut s = state(
        Rules::default(),
        &["6-6 0-0 1-0 2-0 1-1 2-1 2-2", "6-3 3-3 4-3 5-3 4-4 5-4 5-5"],
        "",
        HandStart::first(),
    );
    assert_eq!(go(&mut s, "6-6").points, 0);
    assert_eq!(s.layout().count(), 12);
    assert_eq!(go(&mut s, "6-3@W").points, 15);
    assert_eq!(s.layout().count(), 15);
    assert_eq!(scores(&s, 2), vec![0, 15]);
}

/// Count: a 4-4 at one end and a 2 at the other count 8 + 2 = 10, which scores 10.
#[test]
fn four_four_and_a_two_count_ten() {
    let mut s = state(
        Rules::default(),
        &["4-2 0-0 1-0 2-0 1-1 2-1 2-2", "4-4 3-3 3-0 5-3 6-3 5-4 5-5"],
        "",
        free_lead(0),
    );
    assert_eq!(go(&mut s, "4-2").points, 0);
    assert_eq!(go(&mut s, "4-4@W").points, 10);
    assert_eq!(s.layout().count(), 10);
}

/// Count: the highest possible count is 35, with 6-6, 5-5 and 4-4 ending three arms of the
/// spinner and a 5 ending the fourth. Sprouts count only once a tile lies on them.
#[test]
fn the_maximum_count_is_thirty_five() {
    let mut s = state(
        Rules::default(),
        &["1-1 5-1 3-1 5-5 5-3 0-0 2-0", "6-1 4-1 6-6 4-4 2-2 3-2 3-3"],
        "",
        free_lead(0),
    );
    let steps = [
        ("1-1", 2, 0),
        ("6-1@W", 8, 0),
        ("5-1@E", 11, 0), // both line sides covered: the spinner stops counting
        ("4-1@N", 15, 15),
        ("3-1@S", 18, 0),
        ("6-6@W", 24, 0),
        ("5-5@E", 29, 0),
        ("4-4@N", 33, 0),
        ("5-3@S", 35, 35),
    ];
    for (a, count, points) in steps {
        let o = go(&mut s, a);
        assert_eq!((s.layout().count(), o.points), (count, points), "after {a}");
        assert_eq!(last_play(&s), (count, points), "log after {a}");
    }
    assert_eq!(scores(&s, 2), vec![35, 15]);
}

/// Count: a double laid later in an arm (not the spinner) counts both halves while it ends
/// the arm, and nothing once a tile covers its free side.
#[test]
fn a_later_double_counts_both_halves_until_covered() {
    let mut s = state(
        Rules::default(),
        &["5-5 5-1 3-2 0-0 1-0 2-0 4-0", "5-3 3-3 6-5 6-3 6-1 6-2 6-4"],
        "",
        HandStart::first(),
    );
    script(&mut s, "5-5 5-3@W");
    assert_eq!(s.layout().count(), 13);
    go(&mut s, "5-1@E");
    assert_eq!(s.layout().count(), 4, "spinner covered on both sides");
    go(&mut s, "3-3@W");
    assert_eq!(s.layout().count(), 6 + 1);
    assert!(!s.layout().is_spinner(3));
    assert_eq!(s.layout().arm_count(), 4, "a second double does not spin");
    go(&mut s, "3-2@W");
    assert_eq!(s.layout().count(), 2 + 1);
}

/// Spinner: the first double laid is the spinner even when it is not the lead. With a 4-1
/// lead, the 1-1 laid first spins and the 4-4 laid later does not; the 1-1's sprouts open
/// only once tiles lie on both its line sides.
#[test]
fn the_one_one_spins_not_the_later_four_four() {
    let mut s = state(
        Rules::default(),
        &["4-1 4-4 3-1 0-0 2-0 3-0 5-0", "1-1 4-2 6-6 6-0 6-2 6-3 6-5"],
        "",
        free_lead(0),
    );
    assert_eq!(go(&mut s, "4-1").points, 5);
    go(&mut s, "1-1@E");
    assert!(s.layout().is_spinner(1));
    assert_eq!(s.layout().count(), 4 + 2);
    assert_eq!(go(&mut s, "4-4@W").points, 10);
    assert!(!s.layout().is_spinner(4));
    assert_eq!(open_arms(&s), vec![0, 1]);
    go(&mut s, "4-2@W");
    assert_eq!(s.layout().count(), 2 + 2);
    assert_eq!(open_arms(&s), vec![0, 1], "covering the 4-4 opens nothing");
    assert_eq!(go(&mut s, "3-1@E").points, 5);
    assert_eq!(open_arms(&s), vec![0, 1, 2, 3]);
    assert_eq!(s.layout().arm_pip(ArmId(2)), 1);
    assert_eq!(s.layout().arm_pip(ArmId(3)), 1);
    assert_eq!(s.layout().arm_count(), 4);
}

/// Spinner `none` (Muggins): a double is laid crosswise but takes tiles on two sides only.
#[test]
fn spinner_none_keeps_two_ends() {
    let r = Rules::preset(Preset::Muggins, 2);
    assert_eq!(r.spinner, SpinnerRule::None);
    let mut s = state(
        r,
        &["5-5 5-1 3-2 0-0 1-0 2-0 4-0", "5-3 3-3 6-5 6-3 6-1 6-2 6-4"],
        "",
        HandStart::first(),
    );
    assert_eq!(go(&mut s, "5-5").points, 10);
    assert_eq!(go(&mut s, "5-3@W").points, 0);
    assert_eq!(s.layout().count(), 13);
    go(&mut s, "5-1@E");
    assert_eq!(s.layout().count(), 4);
    assert_eq!(s.layout().arm_count(), 2);
    assert_eq!(open_arms(&s), vec![0, 1]);
    assert!(!s.layout().is_spinner(5));
    assert_eq!(
        s.apply(act("3-3@N")),
        Err(IllegalAction::ArmNotOpen(ArmId(2)))
    );
}

/// Spinner `all` (Cross): every double spins, each opening its sprouts by the same rule
/// (after both its line sides are covered). Under `first` the same later double does not.
#[test]
fn spinner_all_makes_every_double_spin() {
    let hands = ["5-5 5-1 3-2 0-0 1-0 2-0 4-0", "5-3 3-3 6-5 6-3 6-1 6-2 6-4"];
    let r = Rules::preset(Preset::Cross, 2);
    assert_eq!(r.spinner, SpinnerRule::All);
    let mut s = state(r, &hands, "", HandStart::first());
    script(&mut s, "5-5 5-3@W 5-1@E");
    assert_eq!(open_arms(&s), vec![0, 1, 2, 3]);
    go(&mut s, "3-3@W");
    assert!(s.layout().is_spinner(3));
    assert_eq!(s.layout().arm_count(), 6);
    assert_eq!(
        open_arms(&s),
        vec![0, 1, 2, 3],
        "3-3 sprouts wait for both sides"
    );
    assert_eq!(s.layout().count(), 6 + 1);
    go(&mut s, "3-2@W");
    assert_eq!(open_arms(&s), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(s.layout().arm_pip(ArmId(4)), 3);
    assert_eq!(s.layout().arm_pip(ArmId(5)), 3);
    assert_eq!(s.layout().count(), 2 + 1);
    // The 3-3's sprout takes a 3 and then counts its outer half.
    go(&mut s, "6-3@4");
    assert_eq!(s.layout().count(), 2 + 1 + 6);

    let mut first = state(Rules::default(), &hands, "", HandStart::first());
    script(&mut first, "5-5 5-3@W 5-1@E 3-3@W 3-2@W");
    assert_eq!(first.layout().arm_count(), 4);
    assert_eq!(
        first.apply(act("6-3@4")),
        Err(IllegalAction::ArmNotOpen(ArmId(4)))
    );
}

// ----- Scoring during play: scales and variants -----

/// The hand used by several tests below: seat 1 holds 6-6 and leads it (first hand), both
/// players build one arm, seat 0 scores 15 twice (its 2nd and 6th plays), and seat 1 plays out
/// on the 13th tile, leaving seat 0 with the single tile `left`.
fn chain_hand(rules: Rules, left: &str, start: HandStart) -> State {
    let hand0 = format!("6-0 3-1 2-0 4-1 5-2 4-3 {left}");
    state(rules, &[&hand0, "6-6 1-0 3-2 4-0 5-1 4-2 3-0"], "", start)
}

const CHAIN: [&str; 13] = [
    "6-6", "6-0@W", "1-0@W", "3-1@W", "3-2@W", "2-0@W", "4-0@W", "4-1@W", "5-1@W", "5-2@W",
    "4-2@W", "4-3@W", "3-0@W",
];

/// Counts along [`CHAIN`] (the spinner keeps counting 12 with one tile against it).
const CHAIN_COUNTS: [u16; 13] = [12, 12, 13, 15, 14, 12, 16, 13, 17, 14, 16, 15, 12];

#[test]
fn chain_counts_follow_the_rules() {
    let mut s = chain_hand(Rules::default(), "1-1", HandStart::first());
    for (a, c) in CHAIN.iter().zip(CHAIN_COUNTS) {
        let o = go(&mut s, a);
        assert_eq!(s.layout().count(), c, "after {a}");
        assert_eq!(o.points, if c % 5 == 0 { c } else { 0 }, "after {a}");
    }
    assert_eq!(s.result().unwrap().end, HandEnd::Domino { seat: Seat(1) });
}

/// Cribbage scale: every score is divided by 5 (a count of 15 scores 3, a hand award of 10
/// scores 2) and the game is played to 61.
#[test]
fn cribbage_scale() {
    let r = Rules::preset(Preset::Cribbage, 2);
    assert!(r.cribbage_scale);
    assert_eq!(r.target, 61);
    let mut s = chain_hand(r, "4-4", HandStart::first());
    for a in CHAIN {
        go(&mut s, a);
    }
    let res = s.result().unwrap();
    assert_eq!(res.awards[Side(1)], 2, "8 pips round to 10, scaled to 2");
    assert_eq!(scores(&s, 2), vec![6, 2]);

    // Reaching 61 wins.
    let mut s = chain_hand(r, "4-4", start_with_scores(58, 0));
    for a in &CHAIN[..3] {
        go(&mut s, a);
    }
    let o = go(&mut s, CHAIN[3]);
    assert_eq!(o.points, 3);
    assert!(o.game_over);
    assert_eq!(s.winner(), Some(Side(0)));
    assert_eq!(scores(&s, 2), vec![61, 0]);
}

/// Fives and Threes: a count scores one point per 5 it divides by plus one per 3 it divides
/// by: 6 scores 2, 9 scores 3, 15 scores 5 + 3 = 8. The preset plays to 61.
#[test]
fn fives_and_threes_points() {
    let r = Rules::preset(Preset::FivesAndThrees, 2);
    assert_eq!(r.target, 61);
    let hands = ["6-3 4-2 0-0 1-0 2-0 1-1 2-1", "6-6 3-3 4-3 5-3 4-4 5-4 5-5"];
    let mut s = state(r, &hands, "", free_lead(0));
    assert_eq!(go(&mut s, "6-3").points, 3);
    assert_eq!(go(&mut s, "6-6@W").points, 8);
    assert_eq!(s.layout().count(), 15);
    assert_eq!(scores(&s, 2), vec![3, 8]);

    let mut s = state(r, &hands, "", free_lead(0));
    assert_eq!(go(&mut s, "4-2").points, 2);
    assert_eq!(s.layout().count(), 6);
}

// ----- End of a hand -----

/// Domino: the winner scores the pips left in the opponents' hands rounded to the nearest 5;
/// a lone 1-2 (3 pips) rounds up to 5, a lone 1-1 (2 pips) rounds down to 0.
#[test]
fn domino_award_rounds_to_the_nearest_five() {
    for (left, award) in [("2-1", 5), ("1-1", 0), ("4-4", 10)] {
        let mut s = chain_hand(Rules::default(), left, HandStart::first());
        for a in CHAIN {
            go(&mut s, a);
        }
        assert_eq!(s.phase(), Phase::HandOver);
        let res = s.result().unwrap();
        assert_eq!(res.end, HandEnd::Domino { seat: Seat(1) });
        assert!(res.won(Side(1)) && !res.won(Side(0)));
        assert_eq!(res.hands[Seat(0)], set(left));
        assert_eq!(res.awards[Side(1)], award, "{left} left");
        assert_eq!(res.awards[Side(0)], 0);
        assert_eq!(scores(&s, 2), vec![30, award], "{left} left");
    }
}

/// Domino in partnerships: the team of the player who goes out scores the pips of both
/// opponents together, rounded once (2 + 7 = 9 rounds to 10); the partner's tiles do not count.
#[test]
fn partnership_domino_scores_both_opponents() {
    let r = Rules::preset(Preset::FiveUp, 4);
    assert!(r.partnerships);
    let mut s = state(
        r,
        &[
            "1-0 5-4 4-2 5-3 6-2",
            "2-1 6-5 6-4 5-0 1-1",
            "3-2 6-0 6-1 3-0 6-6",
            "4-3 2-0 3-1 6-3 5-2",
        ],
        "",
        free_lead(0),
    );
    let chain = [
        "1-0", "2-1@W", "3-2@W", "4-3@W", "5-4@W", "6-5@W", "6-0@W", "2-0@W", "4-2@W", "6-4@W",
        "6-1@W", "3-1@W", "5-3@W", "5-0@W", "3-0@W", "6-3@W", "6-2@W",
    ];
    let mut play_points = [0i32; 2];
    for (i, a) in chain.iter().enumerate() {
        let o = go(&mut s, a);
        play_points[i % 2] += i32::from(o.points);
    }
    let res = s.result().unwrap();
    assert_eq!(res.end, HandEnd::Domino { seat: Seat(0) });
    assert_eq!(res.side_pips[Side(1)], 9);
    assert_eq!(res.awards[Side(0)], 10);
    assert_eq!(res.awards[Side(1)], 0);
    assert_eq!(scores(&s, 2), vec![play_points[0] + 10, play_points[1]]);
}

/// Rules with no drawing, so a lead that nobody can follow blocks the hand at once.
fn no_draw(preset: Preset, players: u8) -> Rules {
    let mut r = Rules::preset(preset, players);
    r.drawing = false;
    r
}

/// Blocked, two players: the lower pip total scores the opponent's pips rounded (27 -> 25).
#[test]
fn blocked_lowest_total_scores_the_rest() {
    let mut s = state(
        no_draw(Preset::FiveUp, 2),
        &["6-6 2-1 3-1 2-2 4-1 3-2 3-3", "0-0 1-0 2-0 3-0 4-0 5-0 1-1"],
        "",
        HandStart::first(),
    );
    let o = go(&mut s, "6-6");
    assert!(o.hand_over);
    let res = s.result().unwrap();
    assert_eq!(res.end, HandEnd::Blocked);
    assert_eq!(res.side_pips.0[..2], [27, 17]);
    assert!(res.won(Side(1)) && !res.won(Side(0)));
    assert_eq!(res.awards.0[..2], [0, 25]);
    assert_eq!(scores(&s, 2), vec![0, 25]);
}

/// Blocked, two players tied for lowest: nobody scores.
#[test]
fn blocked_two_player_tie_scores_nothing() {
    let mut s = state(
        no_draw(Preset::FiveUp, 2),
        &["6-6 2-1 3-1 2-2 4-1 3-2 3-3", "0-0 1-0 2-0 3-0 4-0 5-3 5-4"],
        "",
        HandStart::first(),
    );
    go(&mut s, "6-6");
    let res = s.result().unwrap();
    assert_eq!(res.end, HandEnd::Blocked);
    assert_eq!(res.side_pips.0[..2], [27, 27]);
    assert_eq!(res.winners, 0);
    assert_eq!(res.awards.0[..2], [0, 0]);
    assert_eq!(scores(&s, 2), vec![0, 0]);
}

/// Blocked, partnerships tied for lowest (partners' pips summed, 52 each): nobody scores.
#[test]
fn blocked_partnership_tie_scores_nothing() {
    let mut s = state(
        no_draw(Preset::FiveUp, 4),
        &[
            "6-6 5-5 5-4 4-4 5-3",
            "5-2 4-0 3-1 2-2 5-0",
            "4-3 2-0 1-1 3-0 2-1",
            "4-1 3-2 5-1 4-2 3-3",
        ],
        "0-0 1-0",
        HandStart::first(),
    );
    go(&mut s, "6-6");
    let res = s.result().unwrap();
    assert_eq!(res.end, HandEnd::Blocked);
    assert_eq!(res.side_pips.0[..2], [52, 52]);
    assert_eq!(res.winners, 0);
    assert_eq!(res.awards.0[..2], [0, 0]);
    assert_eq!(scores(&s, 2), vec![0, 0]);
}

/// Blocked, three players: a single lowest player scores both others' pips (22 + 23 = 45).
#[test]
fn blocked_three_player_single_winner() {
    let mut s = state(
        no_draw(Preset::FiveUp, 3),
        &[
            "6-6 5-4 4-2 3-1 2-2",
            "0-0 1-0 2-0 3-0 4-0",
            "1-1 2-1 5-0 4-1 4-3",
        ],
        "",
        HandStart::first(),
    );
    go(&mut s, "6-6");
    let res = s.result().unwrap();
    assert_eq!(res.side_pips.0[..3], [23, 10, 22]);
    assert_eq!(res.awards.0[..3], [0, 45, 0]);
    assert_eq!(scores(&s, 3), vec![0, 45, 0]);
}

/// Blocked, three players, two tied for lowest: they share the third player's pips, each
/// scoring half rounded to the nearest 5 (23 pips: 11.5 each, rounded to 10).
#[test]
fn blocked_three_player_two_way_tie_splits() {
    let mut s = state(
        no_draw(Preset::FiveUp, 3),
        &[
            "6-6 5-4 4-2 3-1 2-2",
            "0-0 2-0 3-0 4-0 4-3",
            "1-0 1-1 2-1 5-0 4-1",
        ],
        "",
        HandStart::first(),
    );
    go(&mut s, "6-6");
    let res = s.result().unwrap();
    assert_eq!(res.side_pips.0[..3], [23, 16, 16]);
    assert!(res.won(Side(1)) && res.won(Side(2)) && !res.won(Side(0)));
    assert_eq!(res.awards.0[..3], [0, 10, 10]);
    assert_eq!(scores(&s, 3), vec![0, 10, 10]);
}

/// Blocked, three players all tied: nobody scores.
#[test]
fn blocked_three_player_three_way_tie_scores_nothing() {
    let mut s = state(
        no_draw(Preset::FiveUp, 3),
        &[
            "6-6 5-3 4-4 4-0 2-1",
            "0-0 1-0 3-0 5-5 5-4",
            "1-1 5-0 4-1 3-2 3-3",
        ],
        "",
        HandStart::first(),
    );
    go(&mut s, "6-6");
    let res = s.result().unwrap();
    assert_eq!(res.side_pips.0[..3], [23, 23, 23]);
    assert_eq!(res.winners, 0);
    assert_eq!(res.awards.0[..3], [0, 0, 0]);
    assert_eq!(scores(&s, 3), vec![0, 0, 0]);
}

// ----- Who leads -----

/// First hand: the holder of the highest double dealt leads, and must lead that double
/// (here 5-5, held by seat 1, as the 6-6 is in the boneyard).
#[test]
fn first_hand_is_led_with_the_highest_double() {
    let mut s = state(
        Rules::default(),
        &["4-4 3-3 0-0 1-0 2-0 3-0 4-0", "5-5 6-5 2-2 1-1 6-1 6-2 6-3"],
        "",
        HandStart::first(),
    );
    assert_eq!(s.to_move(), Seat(1));
    assert_eq!(s.leader(), Seat(1));
    assert_eq!(s.lead_kind(), LeadKind::HighestDouble);
    assert_eq!(legal(&s), vec!["5-5"]);
    assert_eq!(s.apply(act("6-5")), Err(IllegalAction::MustLead(t("5-5"))));
    assert_eq!(s.apply(act("5-5@W")), Err(IllegalAction::ArmMismatch));
    assert_eq!(s.apply(act("D")), Err(IllegalAction::MustPlay));
    assert_eq!(s.apply(act("P")), Err(IllegalAction::MustPlay));
    go(&mut s, "5-5");
}

/// Later hands (default): the player who won the previous hand by domino leads, with any tile,
/// even though another player holds the highest double.
#[test]
fn next_hand_is_led_by_the_domino_winner_with_any_tile() {
    let mut s = chain_hand(Rules::default(), "1-1", HandStart::first());
    for a in CHAIN {
        go(&mut s, a);
    }
    let start = s.next_hand_start().unwrap();
    assert_eq!(start.hand_no, 2);
    assert!(!start.highest_double);
    assert_eq!(start.free_leader, Seat(1));
    assert_eq!(start.scores, *s.scores());
    let r = Rules::default();
    let d2 = deal(
        &r,
        &["6-6 5-5 0-0 1-0 2-0 3-0 4-0", "6-5 6-4 6-3 2-1 3-1 4-1 5-1"],
        "",
    );
    s.next_hand(d2).unwrap();
    assert_eq!(s.to_move(), Seat(1));
    assert_eq!(s.lead_kind(), LeadKind::Free);
    assert_eq!(s.forced_lead(), None);
    assert_eq!(legal(&s), sorted("6-5 6-4 6-3 2-1 3-1 4-1 5-1"));
}

/// Later hands (default): after a blocked hand the next hand starts like a first hand, led
/// with the highest double.
#[test]
fn after_a_blocked_hand_the_highest_double_leads() {
    let r = no_draw(Preset::FiveUp, 2);
    let mut s = state(
        r,
        &["6-6 2-1 3-1 2-2 4-1 3-2 3-3", "0-0 1-0 2-0 3-0 4-0 5-0 1-1"],
        "",
        HandStart::first(),
    );
    go(&mut s, "6-6");
    let start = s.next_hand_start().unwrap();
    assert!(start.highest_double);
    // The blocked hand's winner (seat 1) does not lead: seat 0 holds the highest double.
    let d2 = deal(
        &r,
        &["5-5 6-5 0-0 1-0 2-0 3-0 4-0", "4-4 6-4 6-3 2-1 3-1 4-1 5-1"],
        "",
    );
    s.next_hand(d2).unwrap();
    assert_eq!(s.to_move(), Seat(0));
    assert_eq!(s.lead_kind(), LeadKind::HighestDouble);
    assert_eq!(legal(&s), vec!["5-5"]);
}

/// Option "rotate the down": the lead passes clockwise each hand, with any tile, whoever won
/// and however the hand ended.
#[test]
fn rotate_the_down() {
    let r = Rules {
        next_lead: NextLead::Rotate,
        ..Rules::default()
    };
    let mut s = chain_hand(r, "1-1", HandStart::first());
    for a in CHAIN {
        go(&mut s, a);
    }
    // Seat 1 led and won; the lead rotates to seat 0.
    let start = s.next_hand_start().unwrap();
    assert!(!start.highest_double);
    assert_eq!(start.free_leader, Seat(0));
    let d2 = deal(
        &r,
        &["6-5 6-4 6-3 2-1 3-1 4-1 5-1", "6-6 5-5 0-0 1-0 2-0 3-0 4-0"],
        "",
    );
    s.next_hand(d2).unwrap();
    assert_eq!(s.to_move(), Seat(0));
    assert_eq!(legal(&s), sorted("6-5 6-4 6-3 2-1 3-1 4-1 5-1"));

    // After a blocked hand the lead still rotates.
    let mut r = no_draw(Preset::FiveUp, 3);
    r.next_lead = NextLead::Rotate;
    let mut s = state(
        r,
        &[
            "6-6 5-4 4-2 3-1 2-2",
            "0-0 1-0 2-0 3-0 4-0",
            "1-1 2-1 5-0 4-1 4-3",
        ],
        "",
        HandStart::first(),
    );
    go(&mut s, "6-6");
    assert_eq!(s.result().unwrap().end, HandEnd::Blocked);
    let start = s.next_hand_start().unwrap();
    assert!(!start.highest_double);
    assert_eq!(start.free_leader, Seat(1));
}

// ----- End of the game -----

/// Game end (default): the first side to reach the target wins at once, mid-hand.
#[test]
fn reaching_the_target_mid_hand_wins_at_once() {
    let mut s = chain_hand(Rules::default(), "4-4", start_with_scores(220, 245));
    for a in &CHAIN[..11] {
        go(&mut s, a);
    }
    assert_eq!(scores(&s, 2), vec![235, 245]);
    let o = go(&mut s, CHAIN[11]);
    assert_eq!(o.points, 15);
    assert!(o.game_over);
    assert_eq!(s.phase(), Phase::GameOver);
    assert_eq!(s.winner(), Some(Side(0)));
    assert_eq!(s.apply(act(CHAIN[12])), Err(IllegalAction::GameOver));
    assert!(s.legal_actions().is_empty());
    assert_eq!(scores(&s, 2), vec![250, 245]);
}

/// Game end option "finish the hand": reaching the target mid-hand does not end the game; at
/// the end of the hand the highest score wins (here the domino award takes seat 1 past).
#[test]
fn finish_hand_option_plays_the_hand_out() {
    let r = Rules {
        game_end: GameEnd::FinishHand,
        ..Rules::default()
    };
    let mut s = chain_hand(r, "4-4", start_with_scores(220, 245));
    for a in &CHAIN[..12] {
        go(&mut s, a);
    }
    assert_eq!(scores(&s, 2), vec![250, 245]);
    assert_eq!(s.phase(), Phase::Play);
    assert_eq!(s.winner(), None);
    let o = go(&mut s, CHAIN[12]);
    assert!(o.hand_over && o.game_over);
    assert_eq!(scores(&s, 2), vec![250, 255]);
    assert_eq!(s.winner(), Some(Side(1)));
}

/// Option "exact target": a score that would overshoot the target is not scored (play points
/// and hand awards alike); reaching the target exactly wins.
#[test]
fn exact_target_refuses_overshooting_scores() {
    let r = Rules {
        exact_target: true,
        ..Rules::default()
    };
    // Seat 0 at 240: both of its 15s would overshoot 250.
    let mut s = chain_hand(r, "4-4", start_with_scores(240, 245));
    for a in CHAIN {
        let o = go(&mut s, a);
        assert_eq!(o.points, 0, "{a}");
    }
    let plays: Vec<u16> = s
        .log()
        .iter()
        .filter_map(|e| match e {
            Entry::Play { points, .. } => Some(*points),
            _ => None,
        })
        .collect();
    assert_eq!(plays, vec![0; 13]);
    let res = s.result().unwrap();
    assert_eq!(res.awards[Side(1)], 10);
    assert_eq!(res.scored[Side(1)], 0, "245 + 10 would overshoot");
    assert_eq!(scores(&s, 2), vec![240, 245]);
    assert_eq!(s.phase(), Phase::HandOver);

    // An award that lands exactly on the target wins.
    let mut s = chain_hand(r, "2-1", start_with_scores(240, 245));
    for a in CHAIN {
        go(&mut s, a);
    }
    assert_eq!(scores(&s, 2), vec![240, 250]);
    assert_eq!(s.winner(), Some(Side(1)));

    // A play that lands exactly on the target wins at once.
    let mut s = chain_hand(r, "2-1", start_with_scores(235, 0));
    for a in &CHAIN[..3] {
        go(&mut s, a);
    }
    let o = go(&mut s, CHAIN[3]);
    assert_eq!(o.points, 15);
    assert!(o.game_over);
    assert_eq!(s.winner(), Some(Side(0)));
}

// ----- Drawing and passing -----

/// A player who can lay a tile must lay one: no pass, no draw.
#[test]
fn must_play_when_able() {
    let mut s = state(
        Rules::default(),
        &["6-6 0-0 1-0 2-0 3-0 4-0 5-0", "6-3 1-1 2-1 3-1 4-1 5-1 2-2"],
        "",
        HandStart::first(),
    );
    go(&mut s, "6-6");
    assert_eq!(s.apply(act("D")), Err(IllegalAction::MustPlay));
    assert_eq!(s.apply(act("P")), Err(IllegalAction::MustPlay));
    assert_eq!(legal(&s), sorted("6-3@W 6-3@E"));
}

/// A player who cannot lay must draw, one tile at a time, until a drawn tile can be laid, and
/// then lays it; every draw is public with the ends the player could not match.
#[test]
fn forced_draw_until_a_playable_tile() {
    let mut s = state(
        Rules::default(),
        &["6-6 0-0 1-0 2-0 3-0 4-0 5-0", "1-1 2-1 3-1 4-1 5-1 2-2 3-2"],
        "4-3 6-3",
        HandStart::first(),
    );
    go(&mut s, "6-6");
    assert_eq!(legal(&s), vec!["D"]);
    assert_eq!(s.apply(act("P")), Err(IllegalAction::MustDraw));
    assert!(matches!(
        s.apply(act("2-1@W")),
        Err(IllegalAction::DoesNotFit { .. })
    ));
    let o = go(&mut s, "D");
    assert_eq!(o.drawn, Some(t("4-3")));
    assert_eq!(s.to_move(), Seat(1));
    assert_eq!(legal(&s), vec!["D"]);
    assert_eq!(s.apply(act("P")), Err(IllegalAction::MustKeepDrawing));
    let o = go(&mut s, "D");
    assert_eq!(o.drawn, Some(t("6-3")));
    assert_eq!(legal(&s), sorted("6-3@W 6-3@E"));
    assert_eq!(s.apply(act("D")), Err(IllegalAction::MustPlay));
    assert_eq!(s.boneyard_len(), 12);
    let mut sixes = PipSet::EMPTY;
    sixes.insert(6);
    let draws: Vec<Entry> = s.log()[1..].to_vec();
    assert_eq!(
        draws,
        vec![
            Entry::Draw {
                seat: Seat(1),
                tile: Some(t("4-3")),
                ends: sixes,
                forced: true
            },
            Entry::Draw {
                seat: Seat(1),
                tile: Some(t("6-3")),
                ends: sixes,
                forced: true
            },
        ]
    );
    // Seat 0 sees that seat 1 drew, not what.
    let seen = s.view(Seat(0));
    assert!(seen.history()[1..].iter().all(|e| matches!(
        e,
        Entry::Draw {
            tile: None,
            forced: true,
            ..
        }
    )));
    go(&mut s, "6-3@E");
}

/// A deal where seat 0 leads 0-0 and holds every other blank, so seat 1 can never lay and
/// draws the whole (blank-free) boneyard.
fn blank_wall(rules: Rules) -> State {
    state(
        rules,
        &["0-0 1-0 2-0 3-0 4-0 5-0 6-0", "1-1 2-1 3-1 4-1 5-1 6-1 2-2"],
        "",
        free_lead(0),
    )
}

/// With the boneyard exhausted, a player who cannot lay passes (and may not draw).
#[test]
fn pass_when_the_boneyard_is_empty() {
    let mut s = blank_wall(Rules::default());
    go(&mut s, "0-0");
    for _ in 0..14 {
        assert_eq!(legal(&s), vec!["D"]);
        go(&mut s, "D");
    }
    assert_eq!(s.boneyard_len(), 0);
    assert_eq!(s.to_move(), Seat(1));
    assert_eq!(legal(&s), vec!["P"]);
    assert_eq!(s.apply(act("D")), Err(IllegalAction::CannotDraw));
    go(&mut s, "P");
    let mut blank = PipSet::EMPTY;
    blank.insert(0);
    assert_eq!(
        s.log().last(),
        Some(&Entry::Pass {
            seat: Seat(1),
            ends: blank
        })
    );
    assert_eq!(s.to_move(), Seat(0));
    assert_eq!(s.phase(), Phase::Play);
}

/// Option: the last 1 or 2 tiles of the boneyard can never be drawn.
#[test]
fn boneyard_keep_leaves_tiles_undrawn() {
    for keep in [1u8, 2] {
        let r = Rules {
            boneyard_keep: keep,
            ..Rules::default()
        };
        let mut s = blank_wall(r);
        go(&mut s, "0-0");
        for _ in 0..14 - keep {
            assert_eq!(legal(&s), vec!["D"]);
            go(&mut s, "D");
        }
        assert_eq!(s.boneyard_len(), keep);
        assert_eq!(legal(&s), vec!["P"], "keep {keep}");
        assert_eq!(s.apply(act("D")), Err(IllegalAction::CannotDraw));
        go(&mut s, "P");
    }
}

/// Block game: no drawing at all; a player who cannot lay passes at once.
#[test]
fn block_game_has_no_drawing() {
    let r = Rules::preset(Preset::Block, 2);
    assert!(!r.drawing);
    let mut s = blank_wall(r);
    go(&mut s, "0-0");
    assert_eq!(legal(&s), vec!["P"]);
    assert_eq!(s.apply(act("D")), Err(IllegalAction::CannotDraw));
    go(&mut s, "P");
    assert_eq!(s.boneyard_len(), 14);
    assert_eq!(s.to_move(), Seat(0));
}

/// Option "voluntary draw": a player able to lay may draw anyway, one tile at a time, until a
/// drawn tile can be laid. Such draws prove nothing about the hand (`forced: false`).
#[test]
fn voluntary_draw_option() {
    let hands = ["6-6 0-0 1-0 2-0 3-0 4-0 5-0", "6-3 1-1 2-1 3-1 4-1 5-1 2-2"];
    let mut s = state(Rules::default(), &hands, "3-2 6-2", HandStart::first());
    go(&mut s, "6-6");
    assert_eq!(s.apply(act("D")), Err(IllegalAction::MustPlay));

    let r = Rules {
        voluntary_draw: true,
        ..Rules::default()
    };
    let mut s = state(r, &hands, "3-2 6-2", HandStart::first());
    go(&mut s, "6-6");
    assert_eq!(legal(&s), sorted("6-3@W 6-3@E D"));
    go(&mut s, "D");
    assert_eq!(legal(&s), vec!["D"], "an unplayable draw: keep drawing");
    assert_eq!(s.apply(act("6-3@W")), Err(IllegalAction::MustKeepDrawing));
    go(&mut s, "D");
    let l = legal(&s);
    assert!(l.contains(&"6-2@W".to_string()) && l.contains(&"6-2@E".to_string()));
    assert!(
        !l.contains(&"D".to_string()),
        "stop drawing once a drawn tile fits"
    );
    assert!(matches!(
        s.log()[1],
        Entry::Draw {
            seat: Seat(1),
            forced: false,
            ..
        }
    ));
    go(&mut s, "6-2@W");
}

// ----- Manual scoring and Muggins -----

/// Manual scoring: the player claims the points of their play; a wrong claim is refused, a
/// missed score may be taken by the next (opposing) player with a Muggins call.
#[test]
fn manual_scoring_claims_and_muggins() {
    let r = Rules {
        manual_scoring: true,
        ..Rules::default()
    };
    let mut s = state(
        r,
        &["5-5 5-3 2-1 4-4 3-3 1-0 2-2", "5-0 6-1 6-2 4-1 3-1 4-0 3-2"],
        "",
        HandStart::first(),
    );
    go(&mut s, "5-5");
    assert_eq!(s.phase(), Phase::Claim);
    assert_eq!(s.to_move(), Seat(0));
    assert_eq!(last_play(&s), (10, 0), "nothing scored before the claim");
    assert_eq!(legal(&s), sorted("C0 C10"));
    assert_eq!(
        s.apply(act("C5")),
        Err(IllegalAction::WrongClaim {
            claimed: 5,
            actual: 10
        })
    );
    assert_eq!(s.apply(act("P")), Err(IllegalAction::MustClaim));
    assert_eq!(go(&mut s, "C10").points, 10);
    assert_eq!(scores(&s, 2), vec![10, 0]);
    // A correct claim leaves nothing to call.
    assert_eq!(s.apply(act("M")), Err(IllegalAction::NoMuggins));

    // Seat 1 makes 10 but claims nothing.
    go(&mut s, "5-0@W");
    assert_eq!(go(&mut s, "C0").points, 0);
    assert_eq!(s.to_move(), Seat(0));
    assert!(s.legal_actions().contains(&act("M")));
    assert_eq!(go(&mut s, "M").points, 10);
    assert_eq!(scores(&s, 2), vec![20, 0]);
    assert_eq!(
        s.log().last(),
        Some(&Entry::Muggins {
            seat: Seat(0),
            points: 10
        })
    );
    // The caller still plays its turn; the call cannot be repeated.
    assert_eq!(s.apply(act("M")), Err(IllegalAction::NoMuggins));
    go(&mut s, "5-3@E");
    go(&mut s, "C0");
}

// ----- No double dealt -----

/// Hands without a single double (all seven doubles in the boneyard).
const NO_DOUBLES: [&str; 2] = ["1-0 2-0 3-0 4-0 5-0 6-0 2-1", "3-1 4-1 5-1 6-1 6-5 3-2 4-2"];

/// No double dealt, default: the deal is refused and must be dealt again.
#[test]
fn no_double_redeals_by_default() {
    let r = Rules::default();
    assert_eq!(r.no_double, NoDouble::Redeal);
    let d = deal(&r, &NO_DOUBLES, "");
    assert!(matches!(
        State::with_start(r, d, HandStart::first()),
        Err(SetupError::NoDouble)
    ));
}

/// No double dealt, option: the holder of the heaviest tile (6-5) leads it.
#[test]
fn no_double_heaviest_tile_leads() {
    let r = Rules {
        no_double: NoDouble::HeaviestTile,
        ..Rules::default()
    };
    let mut s = state(r, &NO_DOUBLES, "", HandStart::first());
    assert_eq!(s.to_move(), Seat(1));
    assert_eq!(s.lead_kind(), LeadKind::HeaviestTile);
    assert_eq!(legal(&s), vec!["6-5"]);
    assert_eq!(s.apply(act("6-1")), Err(IllegalAction::MustLead(t("6-5"))));
    assert_eq!(go(&mut s, "6-5").points, 0);
}

/// No double dealt, option: players draw one tile each in turn until a double appears; its
/// holder leads it. Here seat 0 draws 5-4, seat 1 draws 4-3, seat 0 draws 6-4 and seat 1
/// draws 2-2, completing the second round with the only double, and leads it. Others do not
/// see what was drawn.
#[test]
fn no_double_draw_until_double() {
    let r = Rules {
        no_double: NoDouble::DrawUntilDouble,
        ..Rules::default()
    };
    let mut s = state(r, &NO_DOUBLES, "5-4 4-3 6-4 2-2", HandStart::first());
    assert_eq!(s.lead_kind(), LeadKind::DrawUntilDouble);
    assert_eq!(s.to_move(), Seat(1));
    assert_eq!(legal(&s), vec!["2-2"]);
    assert_eq!(s.hand(Seat(0)).len(), 9);
    assert_eq!(s.hand(Seat(1)).len(), 9);
    assert_eq!(s.boneyard_len(), 10);
    let draws: Vec<(u8, Option<String>)> = s
        .log()
        .iter()
        .map(|e| match e {
            Entry::LeadDraw { seat, tile } => (seat.0, tile.map(|t| t.to_string())),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    let some = |x: &str| Some(x.to_string());
    assert_eq!(
        draws,
        vec![
            (0, some("5-4")),
            (1, some("4-3")),
            (0, some("6-4")),
            (1, some("2-2"))
        ]
    );
    let seen = s.view(Seat(0));
    let hidden: Vec<bool> = seen
        .history()
        .iter()
        .map(|e| matches!(e, Entry::LeadDraw { tile: None, .. }))
        .collect();
    assert_eq!(hidden, vec![false, true, false, true]);
    go(&mut s, "2-2");
}

// ----- Award options (as documented in the rules) -----

/// Award option "difference": the winner scores the loser's pips minus its own, rounded.
/// Award option "subtract own": nobody is awarded; each side loses its own rounded pips.
#[test]
fn award_options_difference_and_subtract_own() {
    let hands = ["6-6 2-1 3-1 2-2 4-1 3-2 3-3", "0-0 1-0 2-0 3-0 4-0 5-0 1-1"];
    let mut r = no_draw(Preset::FiveUp, 2);
    r.award = Award::Difference;
    let mut s = state(r, &hands, "", HandStart::first());
    go(&mut s, "6-6");
    // 27 - 17 = 10.
    assert_eq!(s.result().unwrap().awards.0[..2], [0, 10]);
    assert_eq!(scores(&s, 2), vec![0, 10]);

    r.award = Award::SubtractOwn;
    let mut s = state(r, &hands, "", start_with_scores(100, 100));
    go(&mut s, "6-6");
    // 27 rounds to 25, 17 to 15.
    assert_eq!(s.result().unwrap().awards.0[..2], [-25, -15]);
    assert_eq!(scores(&s, 2), vec![75, 85]);
}

/// Option "doubles count one half" in the hand left at the end: 3-3 counts 3, 2-2 counts 2.
#[test]
fn doubles_count_one_half_option() {
    let mut r = no_draw(Preset::FiveUp, 2);
    r.doubles_count_one_half = true;
    let mut s = state(
        r,
        &["6-6 2-1 3-1 2-2 4-1 3-2 3-3", "0-0 1-0 2-0 3-0 4-0 5-0 1-1"],
        "",
        HandStart::first(),
    );
    go(&mut s, "6-6");
    let res = s.result().unwrap();
    // Seat 0: 27 - 2 - 3 = 22; seat 1: 17 - 1 = 16 (0-0 halves to 0).
    assert_eq!(res.pips.0[..2], [22, 16]);
    assert_eq!(res.awards.0[..2], [0, 20]);
}

// ----- Seating, deal sizes and targets -----

/// Deal and game defaults: 2 players hold 7 tiles and play to 250; 3 and 4 players hold 5 and
/// play to 200; 4 players play in partnerships (seats 0+2 against 1+3) unless chosen otherwise.
#[test]
fn default_hand_sizes_targets_and_partnerships() {
    for (players, hand, target) in [(2, 7, 250), (3, 5, 200), (4, 5, 200)] {
        let r = Rules::preset(Preset::FiveUp, players);
        assert_eq!((r.hand_size, r.target), (hand, target), "{players} players");
        assert_eq!(r.partnerships, players == 4);
        assert_eq!(u32::from(r.boneyard_size()), 28 - u32::from(players * hand));
    }
    let r = Rules::preset(Preset::FiveUp, 4);
    assert_eq!(r.sides(), 2);
    assert_eq!(
        (0..4).map(|p| r.side_of(Seat(p)).0).collect::<Vec<_>>(),
        vec![0, 1, 0, 1]
    );
    let solo = Rules {
        partnerships: false,
        ..r
    };
    assert_eq!(solo.sides(), 4);
    solo.validate().unwrap();
}

/// Options: any hand size from 3 up to what the set holds for every player (2 players may hold
/// 14 of a double-six set; 4 players at most 7); any target from 50 to 1000.
#[test]
fn hand_size_and_target_ranges() {
    let size_ok = |players: u8, hand: u8| {
        Rules {
            hand_size: hand,
            ..Rules::preset(Preset::FiveUp, players)
        }
        .validate()
        .is_ok()
    };
    assert!(size_ok(2, 9) && size_ok(2, 3) && !size_ok(2, 2) && size_ok(2, 14));
    assert!(!size_ok(2, 15));
    assert!(size_ok(3, 9));
    assert!(size_ok(4, 7) && !size_ok(4, 8));
    let target_ok = |target: u16| {
        Rules {
            target,
            ..Rules::default()
        }
        .validate()
        .is_ok()
    };
    assert!(target_ok(50) && target_ok(1000) && !target_ok(49) && !target_ok(1001));
    // A 9-tile two-player deal plays.
    let r = Rules {
        hand_size: 9,
        ..Rules::default()
    };
    let mut s = state(
        r,
        &[
            "6-6 0-0 1-0 2-0 3-0 4-0 5-0 1-1 2-1",
            "6-3 3-3 4-3 5-3 4-4 5-4 5-5 2-2 3-1",
        ],
        "",
        HandStart::first(),
    );
    assert_eq!(s.boneyard_len(), 10);
    go(&mut s, "6-6");
    assert_eq!(go(&mut s, "6-3@W").points, 15);
}

/// Draw game: no scoring during play (a 5-5 lead scores nothing); drawing is allowed.
#[test]
fn draw_game_scores_nothing_during_play() {
    let r = Rules::preset(Preset::Draw, 2);
    assert!(r.drawing);
    let mut s = state(
        r,
        &["5-5 0-0 1-0 2-0 3-0 4-0 6-0", "5-0 1-1 2-1 3-1 4-1 6-1 2-2"],
        "3-2 6-5",
        HandStart::first(),
    );
    assert_eq!(go(&mut s, "5-5").points, 0);
    assert_eq!(go(&mut s, "5-0@W").points, 0);
    assert_eq!(s.layout().count(), 10);
    assert_eq!(legal(&s), sorted("1-0@W 2-0@W 3-0@W 4-0@W 6-0@W 0-0@W"));
    assert_eq!(scores(&s, 2), vec![0, 0]);
}
