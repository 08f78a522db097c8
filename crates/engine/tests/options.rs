//! Every rules option, shown through real play: each test deals hands by hand, plays actions
//! with `State::apply`, and checks what the option changes against the default. The expected
//! figures are worked out from the rules in the comment beside each assertion.
//!
//! Seats are written s0..s3, arms in notation: `W` and `E` are the two sides of the lead
//! (W its high half), `N` and `S` the first spinner's sprouts, later arms by number.

use fiveup_engine::{
    round5, round5_share, Action, ArmId, Award, BlockedTie, BySide, Deal, DealError, Entry,
    FirstLead, GameEnd, HandEnd, HandStart, IllegalAction, Layout, LeadKind, MugginsCall, NextLead,
    NoDouble, Outcome, Phase, PlayScoring, Preset, Rules, RulesError, Seat, SetupError, Side,
    SpinnerRule, SproutRule, State, Tile, TileSet,
};

// ----- helpers -----

fn t(s: &str) -> Tile {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn tiles(s: &str) -> Vec<Tile> {
    s.split_whitespace().map(t).collect()
}

fn rules(s: &str) -> Rules {
    Rules::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// A deal from explicit hands and the front of the boneyard; every tile named nowhere follows
/// in index order (0-0, 1-0, 1-1, 2-0, 2-1, 2-2, 3-0, ...).
fn deal(rules: &Rules, hands: &[&str], front: &str) -> Deal {
    let hands: Vec<Vec<Tile>> = hands.iter().map(|h| tiles(h)).collect();
    let mut boneyard = tiles(front);
    let named: TileSet = hands.iter().flatten().chain(&boneyard).copied().collect();
    boneyard.extend(rules.tiles().minus(named));
    Deal::from_hands(rules, &hands, &boneyard).unwrap_or_else(|e| panic!("{e}"))
}

/// The first hand of a game: the highest double leads.
fn first_hand(rules: Rules, hands: &[&str], front: &str) -> State {
    let d = deal(&rules, hands, front);
    State::new(rules, d).unwrap_or_else(|e| panic!("{e}"))
}

/// A later hand led freely by `leader`, with these scores before it.
fn free_hand(rules: Rules, hands: &[&str], leader: u8, scores: [i32; 4]) -> State {
    let d = deal(&rules, hands, "");
    let mut all = [0; 8];
    all[..4].copy_from_slice(&scores);
    let start = HandStart {
        hand_no: 2,
        scores: BySide(all),
        highest_double: false,
        free_leader: Seat(leader),
    };
    State::with_start(rules, d, start).unwrap_or_else(|e| panic!("{e}"))
}

fn action(a: &str) -> Action {
    a.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// Apply each action in turn (by whoever is to move); panics on an illegal one.
fn play(s: &mut State, moves: &str) -> Vec<Outcome> {
    moves
        .split_whitespace()
        .map(|m| {
            s.apply(action(m))
                .unwrap_or_else(|e| panic!("{m} by {}: {e}", s.to_move()))
        })
        .collect()
}

fn err(s: &State, a: &str) -> IllegalAction {
    let mut c = s.clone();
    c.apply(action(a)).expect_err(a)
}

/// The legal actions in notation, sorted.
fn legal(s: &State) -> Vec<String> {
    let mut v: Vec<String> = s.legal_actions().iter().map(ToString::to_string).collect();
    v.sort();
    v
}

fn score(s: &State, side: u8) -> i32 {
    s.scores()[Side(side)]
}

fn scores(s: &State, n: u8) -> Vec<i32> {
    (0..n).map(|i| score(s, i)).collect()
}

fn open(s: &State) -> Vec<String> {
    s.layout().open_arms().map(|a| a.to_string()).collect()
}

// A three-player hand that s0 dominoes. s0 lays its chain on E; s1 and s2 lay on W; each of
// them keeps one tile: s1 the 3-0 (3 pips), s2 the 4-0 (4 pips).
//   count after each play: 5-4 lead 9 | 6-5 10 (s1 +10) | 6-0 4 | 4-3 3 | 2-0 5 (s1 +5) |
//   4-2 7 | 3-2 6 | 6-4 8 | 6-1 3 | 2-1 2 | 3-1 4 | 5-3 6 | 1-0 5 (s0 +5), domino.
const THREE_HANDS: [&str; 3] = [
    "5-4 4-3 3-2 2-1 1-0",
    "6-5 2-0 6-4 3-1 3-0",
    "6-0 4-2 6-1 5-3 4-0",
];
const THREE_MOVES: &str =
    "5-4 6-5@W 6-0@W 4-3@E 2-0@W 4-2@W 3-2@E 6-4@W 6-1@W 2-1@E 3-1@W 5-3@W 1-0@E";

fn three_domino(opts: &str, scores: [i32; 4]) -> State {
    let r = rules(&format!("players=3 {opts}"));
    let mut s = free_hand(r, &THREE_HANDS, 0, scores);
    play(&mut s, THREE_MOVES);
    s
}

// A two-player first hand that blocks at once (drawing off): s0 leads the 6-6 and nobody holds
// another 6. s0 keeps 0-0 1-0 1-1 2-0 2-1 3-0 = 0+1+2+2+3+3 = 11 pips;
// s1 holds 5-5 5-4 5-3 4-4 4-3 3-3 4-1 = 10+9+8+8+7+6+5 = 53 pips.
const BLOCK_HANDS: [&str; 2] = ["6-6 0-0 1-0 1-1 2-0 2-1 3-0", "5-5 5-4 5-3 4-4 4-3 3-3 4-1"];

fn two_block(opts: &str) -> State {
    let r = rules(&format!("drawing=false {opts}"));
    let mut s = first_hand(r, &BLOCK_HANDS, "");
    play(&mut s, "6-6");
    assert_eq!(s.result().map(|r| r.end), Some(HandEnd::Blocked));
    s
}

// ----- the count -----

#[test]
fn count_worked_example_five_five_five_zero_three_five() {
    let mut s = free_hand(
        Rules::default(),
        &["5-5 5-3 6-6 6-5 6-4 6-3 6-2", "5-0 4-4 4-3 4-2 4-1 4-0 3-3"],
        0,
        [0; 4],
    );
    // The 5-5 led alone counts both halves: 10, a multiple of 5, scored by s0.
    assert_eq!(play(&mut s, "5-5")[0].points, 10);
    // 5-0 against one side: the spinner still counts 10, the blank 0: 10 again, to s1.
    assert_eq!(play(&mut s, "5-0@W")[0].points, 10);
    // 3-5 against the other side: two tiles lie against the spinner, which now counts
    // nothing; the ends are 0 and 3: count 3, no score.
    assert_eq!(play(&mut s, "5-3@E")[0].points, 0);
    assert_eq!(s.layout().count(), 3);
    assert_eq!(scores(&s, 2), vec![10, 10]);
}

#[test]
fn the_largest_count_that_scores_is_35() {
    let r = Rules::default();
    let t1 = |rest: &str| {
        let mut l = Layout::new();
        l.lay_lead(t("1-1"), &r);
        for (tile, arm) in [
            ("1-6", "W"),
            ("1-5", "E"),
            ("1-4", "N"),
            ("1-3", "S"),
            ("6-6", "W"),
            ("5-5", "E"),
            ("4-4", "N"),
            (rest, "S"),
        ] {
            l.lay(t(tile), arm.parse().unwrap(), &r);
        }
        l.count()
    };
    // 1-1 spinner with four arms ending 6-6 (12), 5-5 (10), 4-4 (8) and a 5: 35, scored.
    assert_eq!(t1("3-5"), 35);
    assert_eq!(State::count_points(&r, 35), 35);
    // The 3-3 on the fourth arm instead makes 36, the largest count there is; it is no
    // multiple of 5 and scores nothing, but under fives and threes 36 = 12 x 3 scores 12.
    assert_eq!(t1("3-3"), 36);
    assert_eq!(State::count_points(&r, 36), 0);
    let ft = rules("play-scoring=fives-and-threes");
    assert_eq!(State::count_points(&ft, 36), 12);
    // 35 under fives and threes: 7 for the fives, no threes.
    assert_eq!(State::count_points(&ft, 35), 7);
}

// ----- players -----

#[test]
fn players_2_deal_seven_each_and_alternate() {
    let r = rules("players=2");
    // Two players: 7 tiles each, 28 - 14 = 14 in the boneyard, to 250, no partnerships.
    assert_eq!(
        (r.hand_size, r.target, r.partnerships, r.sides()),
        (7, 250, false, 2)
    );
    let mut s = free_hand(
        r,
        &["5-4 6-6 6-5 6-4 6-3 6-2 6-1", "4-1 5-5 5-3 5-2 5-1 5-0 4-4"],
        0,
        [0; 4],
    );
    assert_eq!((s.hand(Seat(0)).len(), s.hand(Seat(1)).len()), (7, 7));
    assert_eq!(s.boneyard_len(), 14);
    play(&mut s, "5-4");
    assert_eq!(s.to_move(), Seat(1));
    play(&mut s, "4-1@E");
    assert_eq!(s.to_move(), Seat(0));
}

#[test]
fn players_3_deal_five_each_and_score_alone() {
    let r = rules("players=3");
    // Three players: 5 tiles each, 28 - 15 = 13 in the boneyard, to 200, one side per seat.
    assert_eq!(
        (r.hand_size, r.target, r.partnerships, r.sides()),
        (5, 200, false, 3)
    );
    let mut s = free_hand(r, &THREE_HANDS, 0, [0; 4]);
    assert_eq!(s.boneyard_len(), 13);
    // Play passes 0 -> 1 -> 2 -> 0; s1's 6-5 makes 6 + 4 = 10 and scores for s1 alone.
    play(&mut s, "5-4 6-5@W");
    assert_eq!(scores(&s, 3), vec![0, 10, 0]);
    play(&mut s, "6-0@W");
    assert_eq!(s.to_move(), Seat(0));
}

#[test]
fn players_4_deal_five_each_in_partnerships() {
    let r = rules("players=4");
    // Four players: 5 each, 28 - 20 = 8 in the boneyard, to 200, seats 0+2 against 1+3.
    assert_eq!(
        (r.hand_size, r.target, r.partnerships, r.sides()),
        (5, 200, true, 2)
    );
    let mut s = free_hand(r, &PARTNER_HANDS, 2, [0; 4]);
    assert_eq!(s.boneyard_len(), 8);
    // Play passes 2 -> 3 -> 0 -> 1 -> 2.
    for (i, m) in ["5-3", "3-3@E", "6-5@W", "4-3@E"].iter().enumerate() {
        assert_eq!(s.to_move(), Seat((2 + i as u8) % 4));
        play(&mut s, m);
    }
    assert_eq!(s.to_move(), Seat(2));
}

// ----- partnerships -----

const PARTNER_HANDS: [&str; 4] = [
    "6-6 6-5 6-4 6-3 6-2",
    "4-4 4-3 4-2 4-1 4-0",
    "5-5 5-0 5-1 5-2 5-3",
    "3-3 3-2 3-1 3-0 2-2",
];

#[test]
fn partnerships_score_for_the_team() {
    // s2 leads 5-5: 10 points. With partners (default for 4) they go to side 0 (seats 0+2).
    let mut s = free_hand(rules("players=4"), &PARTNER_HANDS, 2, [0; 4]);
    play(&mut s, "5-5");
    assert_eq!(scores(&s, 2), vec![10, 0]);
    // Four individual players: four sides, and the 10 are s2's own.
    let r = rules("players=4 partnerships=false");
    assert_eq!(r.sides(), 4);
    let mut s = free_hand(r, &PARTNER_HANDS, 2, [0; 4]);
    play(&mut s, "5-5");
    assert_eq!(scores(&s, 4), vec![0, 0, 10, 0]);
}

// A four-player first hand that blocks at once (drawing off): s0 leads the 6-6 and nobody else
// holds a 6. Pips left: s0 3-1 2-2 2-0 4-0 = 14; s1 1-0 2-1 1-1 0-0 3-3 = 12;
// s2 4-3 3-0 5-0 3-2 5-1 = 26; s3 5-4 5-5 5-2 4-4 4-2 = 40.
const FOUR_BLOCK: [&str; 4] = [
    "6-6 3-1 2-2 2-0 4-0",
    "1-0 2-1 1-1 0-0 3-3",
    "4-3 3-0 5-0 3-2 5-1",
    "5-4 5-5 5-2 4-4 4-2",
];

#[test]
fn partnerships_block_compares_team_totals() {
    let mut s = first_hand(rules("players=4 drawing=false"), &FOUR_BLOCK, "");
    play(&mut s, "6-6");
    let res = *s.result().unwrap();
    // Teams: 14 + 26 = 40 against 12 + 40 = 52. Side 0 is lowest and scores the other team's
    // 52, rounded to 50 (remainder 2 rounds down), although s1 holds the fewest pips.
    assert_eq!(res.side_pips.0[..2], [40, 52]);
    assert!(res.won(Side(0)));
    assert_eq!(scores(&s, 2), vec![50, 0]);

    // Individually, s1's 12 is lowest: s1 scores 14 + 26 + 40 = 80.
    let mut s = first_hand(
        rules("players=4 partnerships=false drawing=false"),
        &FOUR_BLOCK,
        "",
    );
    play(&mut s, "6-6");
    assert_eq!(scores(&s, 4), vec![0, 80, 0, 0]);
}

// A four-player partnership hand s0 dominoes: s0 lays its chain on E, the others on W. Left in
// hand: s1 3-0 (3), partner s2 2-2 (4), s3 5-0 (5).
//   counts: 9 | 5-1 5 (s1 +5) | 3-1 7 | 5-3 9 | 4-3 8 | 5-2 5 (s1 +5) | 2-0 3 | 4-0 7 |
//   3-2 6 | 4-1 3 | 6-1 8 | 6-2 4 | 2-1 3 | 4-2 5 (s1 +5) | 6-4 7 | 6-0 1 | 1-0 0, domino.
const FOUR_DOMINO_HANDS: [&str; 4] = [
    "5-4 4-3 3-2 2-1 1-0",
    "5-1 5-2 4-1 4-2 3-0",
    "3-1 2-0 6-1 6-4 2-2",
    "5-3 4-0 6-2 6-0 5-0",
];
const FOUR_DOMINO_MOVES: &str = "5-4 5-1@W 3-1@W 5-3@W 4-3@E 5-2@W 2-0@W 4-0@W 3-2@E \
                                 4-1@W 6-1@W 6-2@W 2-1@E 4-2@W 6-4@W 6-0@W 1-0@E";

#[test]
fn partnerships_domino_counts_only_the_opponents_tiles() {
    for (opts, award) in [("", 10), ("award=difference", 10)] {
        let mut s = free_hand(
            rules(&format!("players=4 {opts}")),
            &FOUR_DOMINO_HANDS,
            0,
            [0; 4],
        );
        play(&mut s, FOUR_DOMINO_MOVES);
        let res = *s.result().unwrap();
        assert_eq!(res.end, HandEnd::Domino { seat: Seat(0) });
        // Opponents s1 + s3 hold 3 + 5 = 8, rounded to 10; the partner's 2-2 does not count.
        // Under the difference award the side that went out counts 0 (the partner's 4 pips
        // are not subtracted): 8 - 0 = 8, again 10.
        assert_eq!(res.side_pips.0[..2], [4, 8], "{opts}");
        assert_eq!(res.awards.0[..2], [award, 0], "{opts}");
        // Side 1 made 5 + 5 + 5 during play.
        assert_eq!(scores(&s, 2), vec![award, 15], "{opts}");
    }
}

#[test]
fn partnerships_tied_teams_score_nothing() {
    // Every seat keeps 22 pips: s0 3-3 4-2 5-1 2-2; s1 2-0 5-3 4-3 5-0 0-0; s2 1-1 1-0 4-0
    // 3-2 5-5; s3 3-0 2-1 4-1 3-1 5-2. Teams 44 and 44: a tie for lowest, nobody scores.
    let mut s = first_hand(rules("players=4 drawing=false"), &FOUR_TIED, "");
    play(&mut s, "6-6");
    let res = *s.result().unwrap();
    assert_eq!(res.side_pips.0[..2], [44, 44]);
    assert_eq!(res.winners, 0);
    assert_eq!(scores(&s, 2), vec![0, 0]);
}

// ----- ties in blocked hands -----

const FOUR_TIED: [&str; 4] = [
    "6-6 3-3 4-2 5-1 2-2",
    "2-0 5-3 4-3 5-0 0-0",
    "1-1 1-0 4-0 3-2 5-5",
    "3-0 2-1 4-1 3-1 5-2",
];

#[test]
fn two_players_tied_score_nothing() {
    // s0 keeps 5-5 5-2 4-1 0-0 1-0 2-0 = 10+7+5+0+1+2 = 25; s1 holds 2-2 3-0 4-0 3-1 5-0 1-1
    // 2-1 = 4+3+4+4+5+2+3 = 25. Tied lowest with two players: nobody scores.
    let mut s = first_hand(
        rules("drawing=false"),
        &["6-6 5-5 5-2 4-1 0-0 1-0 2-0", "2-2 3-0 4-0 3-1 5-0 1-1 2-1"],
        "",
    );
    play(&mut s, "6-6");
    assert_eq!(s.result().unwrap().winners, 0);
    assert_eq!(scores(&s, 2), vec![0, 0]);
}

// Three-player first hand that blocks at once: s0 keeps 5-0 4-0 3-0 2-0 = 14, s1 holds
// 0-0 1-0 1-1 2-1 5-3 = 0+1+2+3+8 = 14, s2 holds 2-2 3-1 4-1 3-2 3-3 = 4+4+5+5+6 = 24.
const THREE_SPLIT: [&str; 3] = [
    "6-6 5-0 4-0 3-0 2-0",
    "0-0 1-0 1-1 2-1 5-3",
    "2-2 3-1 4-1 3-2 3-3",
];

#[test]
fn three_players_two_tied_lowest_share_the_third() {
    let mut s = first_hand(rules("players=3 drawing=false"), &THREE_SPLIT, "");
    play(&mut s, "6-6");
    let res = *s.result().unwrap();
    // s0 and s1 tie on 14 and share s2's 24: half is 12, rounded to 10 each.
    assert!(res.won(Side(0)) && res.won(Side(1)) && !res.won(Side(2)));
    assert_eq!(scores(&s, 3), vec![10, 10, 0]);
}

#[test]
fn three_players_all_tied_score_nothing() {
    // s0 keeps 4-1 2-0 5-2 2-1 = 17; s1 1-1 3-2 4-2 1-0 3-0 = 17; s2 5-0 2-2 4-0 0-0 3-1 = 17.
    let mut s = first_hand(
        rules("players=3 drawing=false"),
        &[
            "6-6 4-1 2-0 5-2 2-1",
            "1-1 3-2 4-2 1-0 3-0",
            "5-0 2-2 4-0 0-0 3-1",
        ],
        "",
    );
    play(&mut s, "6-6");
    assert_eq!(s.result().unwrap().winners, 0);
    assert_eq!(scores(&s, 3), vec![0, 0, 0]);
}

#[test]
fn four_individuals_two_tied_share_the_other_two() {
    // s0 keeps 5-4 1-1 1-0 2-1 = 15; s1 4-1 2-2 0-0 4-0 2-0 = 15; s2 4-2 3-3 5-2 3-0 4-4 = 30;
    // s3 4-3 5-5 5-1 5-0 5-3 = 36. s0 and s1 share 30 + 36 = 66: 33 each, rounded to 35.
    let mut s = first_hand(
        rules("players=4 partnerships=false drawing=false"),
        &[
            "6-6 5-4 1-1 1-0 2-1",
            "4-1 2-2 0-0 4-0 2-0",
            "4-2 3-3 5-2 3-0 4-4",
            "4-3 5-5 5-1 5-0 5-3",
        ],
        "",
    );
    play(&mut s, "6-6");
    assert_eq!(scores(&s, 4), vec![35, 35, 0, 0]);
}

#[test]
fn four_individuals_three_tied_share_the_fourth() {
    // s0 keeps 5-4 1-1 4-1 2-2 = 20; s1 1-0 2-1 4-2 3-3 4-0 = 20; s2 5-2 3-0 5-1 0-0 3-1 = 20;
    // s3 5-5 4-4 5-0 5-3 3-2 = 36. Three share 36: 12 each, rounded to 10.
    let mut s = first_hand(
        rules("players=4 partnerships=false drawing=false"),
        &[
            "6-6 5-4 1-1 4-1 2-2",
            "1-0 2-1 4-2 3-3 4-0",
            "5-2 3-0 5-1 0-0 3-1",
            "5-5 4-4 5-0 5-3 3-2",
        ],
        "",
    );
    play(&mut s, "6-6");
    assert_eq!(scores(&s, 4), vec![10, 10, 10, 0]);
}

#[test]
fn four_individuals_all_tied_score_nothing() {
    // All four keep 22 pips (see FOUR_TIED): nobody scores.
    let mut s = first_hand(
        rules("players=4 partnerships=false drawing=false"),
        &FOUR_TIED,
        "",
    );
    play(&mut s, "6-6");
    assert_eq!(s.result().unwrap().winners, 0);
    assert_eq!(scores(&s, 4), vec![0, 0, 0, 0]);
}

#[test]
fn rounding_to_the_nearest_five() {
    // A lone 1-2 (3 pips) rounds up to 5; a lone 1-1 (2 pips) rounds down to 0.
    assert_eq!(round5(3), 5);
    assert_eq!(round5(2), 0);
    assert_eq!((round5(12), round5(13), round5(53)), (10, 15, 55));
    // Shares: the exact share is rounded; a share ending in 2.5 rounds up.
    // 24 / 2 = 12 -> 10; 23 / 2 = 11.5 -> 10; 25 / 2 = 12.5 -> 15; 36 / 3 = 12 -> 10;
    // 66 / 2 = 33 -> 35; 5 / 2 = 2.5 -> 5.
    assert_eq!(round5_share(24, 2), 10);
    assert_eq!(round5_share(23, 2), 10);
    assert_eq!(round5_share(25, 2), 15);
    assert_eq!(round5_share(36, 3), 10);
    assert_eq!(round5_share(66, 2), 35);
    assert_eq!(round5_share(5, 2), 5);
}

// ----- hand size -----

#[test]
fn hand_9_deals_nine_each() {
    let r = rules("hand=9");
    assert_eq!(r.hand_size, 9);
    // 9-tile hands are required: a 7-tile deal is refused.
    let seven = [
        tiles("6-6 6-5 6-4 6-3 6-2 6-1 6-0"),
        tiles("5-5 5-4 5-3 5-2 5-1 5-0 4-4"),
    ];
    let rest: Vec<Tile> = Tile::all(6)
        .minus(seven.iter().flatten().copied().collect())
        .iter()
        .collect();
    assert_eq!(
        Deal::from_hands(&r, &seven, &rest),
        Err(DealError::HandSize {
            seat: Seat(0),
            got: 7,
            want: 9
        })
    );
    let s = first_hand(
        r,
        &[
            "6-6 6-5 6-4 6-3 6-2 6-1 6-0 5-5 5-4",
            "5-3 5-2 5-1 5-0 4-4 4-3 4-2 4-1 4-0",
        ],
        "",
    );
    // 28 - 2 x 9 = 10 tiles left to draw.
    assert_eq!((s.hand(Seat(0)).len(), s.hand(Seat(1)).len()), (9, 9));
    assert_eq!(s.boneyard_len(), 10);
}

// ----- target -----

#[test]
fn target_ends_the_game_when_reached() {
    let hands = ["5-5 6-6 6-5 6-4 6-3 6-2 6-1", "4-4 4-3 4-2 4-1 4-0 3-3 3-2"];
    // s0 has 40 and leads 5-5 for 10: 50. To 50, that wins at once.
    let mut s = free_hand(rules("target=50"), &hands, 0, [40, 0, 0, 0]);
    let o = play(&mut s, "5-5")[0];
    assert!(o.game_over);
    assert_eq!((s.phase(), s.winner()), (Phase::GameOver, Some(Side(0))));
    assert_eq!(err(&s, "4-4"), IllegalAction::GameOver);
    // To the default 250, 50 is nothing special: play goes on.
    let mut s = free_hand(Rules::default(), &hands, 0, [40, 0, 0, 0]);
    play(&mut s, "5-5");
    assert_eq!((s.phase(), score(&s, 0)), (Phase::Play, 50));
}

// ----- spinner and sprouts -----

#[test]
fn spinner_none_never_opens_a_third_arm() {
    let hands = ["5-5 5-3 6-6 6-5 6-4 6-3 6-2", "5-1 5-0 4-4 4-3 4-2 4-1 4-0"];
    let mut first = free_hand(Rules::default(), &hands, 0, [0; 4]);
    let mut none = free_hand(rules("spinner=none"), &hands, 0, [0; 4]);
    for s in [&mut first, &mut none] {
        // 5-5 (10), 5-0 against it (10), 3-5 on the other side (0 + 3 = 3): the same count
        // either way, since a double with two tiles against it counts nothing.
        play(s, "5-5 5-0@W 5-3@E");
        assert_eq!(s.layout().count(), 3);
    }
    // The first double spins by default: both sides are covered, so N and S open.
    assert!(first.layout().is_spinner(5));
    assert_eq!(open(&first), ["W", "E", "N", "S"]);
    play(&mut first, "5-1@N");
    // Without a spinner the 5-5 is an ordinary double: two arms only.
    assert!(!none.layout().is_spinner(5));
    assert_eq!(open(&none), ["W", "E"]);
    assert_eq!(err(&none, "5-1@N"), IllegalAction::ArmNotOpen(ArmId(2)));
}

#[test]
fn spinner_all_lets_later_doubles_spin() {
    let hands = ["5-5 5-0 3-1 6-6 6-5 6-4 6-3", "5-3 3-3 3-2 4-4 4-2 4-1 4-0"];
    let mut first = free_hand(Rules::default(), &hands, 0, [0; 4]);
    let mut all = free_hand(rules("spinner=all"), &hands, 0, [0; 4]);
    for s in [&mut first, &mut all] {
        // 5-5, 5-3 on W, 5-0 on E, then 3-3 on the 3 at W: the 3-3 counts 6, E counts 0, the
        // 5-5 (two tiles against it) and its empty sprouts nothing: count 6.
        play(s, "5-5 5-3@W 5-0@E 3-3@W");
        assert_eq!(s.layout().count(), 6);
    }
    // Under `first` the 3-3 does not spin; under `all` it has two sprouts (arms 4 and 5),
    // shut until a tile lies on its far side.
    assert!(!first.layout().is_spinner(3));
    assert_eq!(first.layout().arm_count(), 4);
    assert!(all.layout().is_spinner(3));
    assert_eq!(all.layout().arm_count(), 6);
    assert_eq!(open(&all), ["W", "E", "N", "S"]);
    for s in [&mut first, &mut all] {
        // 3-1 on the 3-3's far side: the double now counts nothing; ends 1 and 0: count 1.
        play(s, "3-1@W");
        assert_eq!(s.layout().count(), 1);
    }
    assert_eq!(open(&all), ["W", "E", "N", "S", "4", "5"]);
    // s1 lays 3-2 on the 3-3's sprout: ends 1, 0, 2: count 3.
    play(&mut all, "3-2@4");
    assert_eq!(all.layout().count(), 3);
    assert_eq!(err(&first, "3-2@4"), IllegalAction::ArmNotOpen(ArmId(4)));
}

#[test]
fn sprouts_at_once_open_the_lead_spinner_immediately() {
    let hands = ["5-5 5-2 6-6 6-5 6-4 6-3 6-2", "5-1 4-4 4-3 4-2 4-1 4-0 3-3"];
    let mut default = free_hand(Rules::default(), &hands, 0, [0; 4]);
    let mut at_once = free_hand(rules("sprouts=at-once"), &hands, 0, [0; 4]);
    play(&mut default, "5-5");
    play(&mut at_once, "5-5");
    // By default the sprouts wait for both line sides; at once they open with the spinner.
    assert_eq!(open(&default), ["W", "E"]);
    assert_eq!(open(&at_once), ["W", "E", "N", "S"]);
    assert_eq!(err(&default, "5-1@N"), IllegalAction::ArmNotOpen(ArmId(2)));
    // 5-1 on N: one tile against the spinner, which still counts 10; plus the 1: 11.
    play(&mut at_once, "5-1@N");
    assert_eq!(at_once.layout().count(), 11);
    // 5-2 on S: two tiles against it, so the spinner counts nothing, and its empty line
    // sides W and E count nothing either: 1 + 2 = 3.
    play(&mut at_once, "5-2@S");
    assert_eq!(at_once.layout().count(), 3);
    assert_eq!(open(&at_once), ["W", "E", "N", "S"]);
}

#[test]
fn sprouts_at_once_with_spinner_all_open_later_doubles_at_once() {
    let hands = ["5-5 5-0 3-1 6-6 6-5 6-4 6-3", "5-3 3-3 3-2 4-4 4-2 4-1 4-0"];
    let mut s = free_hand(rules("spinner=all sprouts=at-once"), &hands, 0, [0; 4]);
    play(&mut s, "5-5 5-3@W 5-0@E 3-3@W");
    // The 3-3's sprouts (arms 4 and 5) are open as soon as it is laid.
    assert_eq!(open(&s), ["W", "E", "N", "S", "4", "5"]);
}

// ----- who leads -----

// No doubles dealt: s0 holds 5-4 (9 pips) and s1 6-3 (9 pips); 6-5 and 6-4 are undealt.
const NO_DOUBLE_HANDS: [&str; 2] = ["5-4 5-3 6-2 4-3 5-2 6-1 4-2", "6-3 6-0 5-1 5-0 4-1 3-2 4-0"];

#[test]
fn no_double_redeal_refuses_the_deal() {
    let r = Rules::default();
    let d = deal(&r, &NO_DOUBLE_HANDS, "6-5 6-4 2-2");
    assert_eq!(State::new(r, d).unwrap_err(), SetupError::NoDouble);
}

#[test]
fn no_double_heaviest_tile_leads() {
    let s = first_hand(
        rules("no-double=heaviest-tile"),
        &NO_DOUBLE_HANDS,
        "6-5 6-4 2-2",
    );
    // 6-3 and 5-4 both have 9 pips, the most dealt; the higher half (6) breaks the tie.
    assert_eq!(s.lead_kind(), LeadKind::HeaviestTile);
    assert_eq!((s.leader(), s.forced_lead()), (Seat(1), Some(t("6-3"))));
    assert_eq!(err(&s, "6-0"), IllegalAction::MustLead(t("6-3")));
    assert_eq!(legal(&s), ["6-3"]);
}

#[test]
fn no_double_draw_until_double_from_seat_zero() {
    let s = first_hand(
        rules("no-double=draw-until-double"),
        &NO_DOUBLE_HANDS,
        "6-5 6-4 2-2",
    );
    // s0 draws 6-5, s1 draws 6-4, s0 draws 2-2: the first double drawn, which s0 leads.
    let draws: Vec<(Seat, Option<Tile>)> = s
        .log()
        .iter()
        .map(|e| match *e {
            Entry::LeadDraw { seat, tile } => (seat, tile),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(
        draws,
        [
            (Seat(0), Some(t("6-5"))),
            (Seat(1), Some(t("6-4"))),
            (Seat(0), Some(t("2-2")))
        ]
    );
    assert_eq!(s.lead_kind(), LeadKind::DrawUntilDouble);
    assert_eq!((s.leader(), s.forced_lead()), (Seat(0), Some(t("2-2"))));
    assert_eq!((s.hand(Seat(0)).len(), s.hand(Seat(1)).len()), (9, 8));
    assert_eq!(s.boneyard_len(), 14 - 3);
}

#[test]
fn first_hand_leads_the_highest_double() {
    // s1 holds 6-6, the highest double: s1 leads, and must lead it.
    let s = first_hand(
        Rules::default(),
        &["5-5 5-4 5-3 5-2 5-1 5-0 4-4", "6-6 6-5 6-4 6-3 6-2 6-1 6-0"],
        "",
    );
    assert_eq!(s.lead_kind(), LeadKind::HighestDouble);
    assert_eq!(s.to_move(), Seat(1));
    assert_eq!(err(&s, "6-5"), IllegalAction::MustLead(t("6-6")));
}

#[test]
fn next_lead_winner_after_a_domino_leads_any_tile() {
    let mut s = three_domino("", [0; 4]);
    // s0 went out: s0 leads the next hand, with any tile.
    let start = s.next_hand_start().unwrap();
    assert_eq!(
        (start.hand_no, start.highest_double, start.free_leader),
        (3, false, Seat(0))
    );
    // Next deal: s2 holds the 6-6, yet s0 leads, and may lead a non-double.
    let r = *s.rules();
    s.next_hand(deal(
        &r,
        &[
            "1-0 2-1 3-2 4-3 5-4",
            "2-0 3-1 4-2 5-3 6-4",
            "6-6 5-5 4-4 3-3 2-2",
        ],
        "",
    ))
    .unwrap();
    assert_eq!((s.lead_kind(), s.to_move()), (LeadKind::Free, Seat(0)));
    assert_eq!(scores(&s, 3), vec![10, 15, 0]);
    play(&mut s, "1-0");
}

#[test]
fn next_lead_winner_after_a_block_is_the_highest_double() {
    let mut s = two_block("");
    // s0 won the blocked hand, but a block restarts the lead: highest double.
    assert!(s.next_hand_start().unwrap().highest_double);
    let r = *s.rules();
    s.next_hand(deal(
        &r,
        &["5-5 5-4 5-3 5-2 5-1 5-0 4-4", "6-6 6-5 6-4 6-3 6-2 6-1 6-0"],
        "",
    ))
    .unwrap();
    assert_eq!(
        (s.lead_kind(), s.to_move()),
        (LeadKind::HighestDouble, Seat(1))
    );
    assert_eq!(s.forced_lead(), Some(t("6-6")));
}

#[test]
fn next_lead_rotate_passes_the_down_clockwise() {
    // s0 led and went out; rotating, s1 leads next, any tile.
    let s = three_domino("next-lead=rotate", [0; 4]);
    assert_eq!(s.rules().next_lead, NextLead::Rotate);
    let start = s.next_hand_start().unwrap();
    assert_eq!((start.highest_double, start.free_leader), (false, Seat(1)));
    // After a block as well: s0 led the blocked hand, s1 leads the next freely.
    let s = two_block("next-lead=rotate");
    let start = s.next_hand_start().unwrap();
    assert_eq!((start.highest_double, start.free_leader), (false, Seat(1)));
}

// ----- drawing -----

const DRAW_HANDS: [&str; 2] = ["5-4 5-5 5-3 4-4 4-3 2-2 1-1", "6-6 6-3 6-2 6-1 6-0 3-3 3-2"];

#[test]
fn drawing_false_passes_instead_of_drawing() {
    // s0 leads 5-4; s1 holds no 5 and no 4.
    let mut s = free_hand(Rules::default(), &DRAW_HANDS, 0, [0; 4]);
    play(&mut s, "5-4");
    assert_eq!(legal(&s), ["D"]);
    assert_eq!(err(&s, "P"), IllegalAction::MustDraw);
    play(&mut s, "D");
    // A forced draw shows the table s1 holds neither 5 nor 4.
    assert!(matches!(
        s.log().last(),
        Some(Entry::Draw { forced: true, .. })
    ));

    let mut s = free_hand(rules("drawing=false"), &DRAW_HANDS, 0, [0; 4]);
    play(&mut s, "5-4");
    assert_eq!(legal(&s), ["P"]);
    assert_eq!(err(&s, "D"), IllegalAction::CannotDraw);
    play(&mut s, "P");
    assert_eq!((s.to_move(), s.boneyard_len()), (Seat(0), 14));
}

#[test]
fn voluntary_draw_commits_to_drawing_until_a_tile_fits() {
    let hands = ["5-4 5-5 5-3 4-4 4-3 2-2 1-1", "4-1 6-6 6-3 6-2 3-3 3-2 3-1"];
    // After s0's 5-4 the ends are 5 and 4; s1 can lay 4-1 on E.
    let mut s = State::with_start(
        Rules::default(),
        deal(&Rules::default(), &hands, "0-0 6-0 5-0"),
        free_start(),
    )
    .unwrap();
    play(&mut s, "5-4");
    assert_eq!(legal(&s), ["4-1@E"]);
    assert_eq!(err(&s, "D"), IllegalAction::MustPlay);

    let r = rules("voluntary-draw=true");
    let mut s = State::with_start(r, deal(&r, &hands, "0-0 6-0 5-0"), free_start()).unwrap();
    play(&mut s, "5-4");
    assert_eq!(legal(&s), ["4-1@E", "D"]);
    // 0-0 does not fit: s1 must keep drawing, and may not lay the 4-1 now.
    assert_eq!(play(&mut s, "D")[0].drawn, Some(t("0-0")));
    assert_eq!(legal(&s), ["D"]);
    assert_eq!(err(&s, "4-1@E"), IllegalAction::MustKeepDrawing);
    // 6-0 does not fit either; 5-0 does: the drawing stops there.
    play(&mut s, "D D");
    assert_eq!(legal(&s), ["4-1@E", "5-0@W"]);
    assert_eq!(err(&s, "D"), IllegalAction::MustPlay);
    // Any tile that fits may be laid, not only the one drawn.
    play(&mut s, "4-1@E");
    // These draws prove nothing about s1's hand: they are logged as not forced.
    let forced: Vec<bool> = s
        .log()
        .iter()
        .filter_map(|e| match e {
            Entry::Draw { forced, .. } => Some(*forced),
            _ => None,
        })
        .collect();
    assert_eq!(forced, [false, false, false]);
}

fn free_start() -> HandStart {
    HandStart {
        hand_no: 2,
        scores: BySide::default(),
        highest_double: false,
        free_leader: Seat(0),
    }
}

#[test]
fn boneyard_keep_2_forbids_drawing_the_last_two() {
    // s0 leads 6-6; s1 holds no 6. The boneyard holds 12 tiles without a 6, then 6-1, 6-0.
    let hands = ["6-6 6-5 6-4 6-3 6-2 0-0 1-0", "1-1 2-0 2-1 2-2 3-0 3-1 3-2"];
    let front = "3-3 4-0 4-1 4-2 4-3 4-4 5-0 5-1 5-2 5-3 5-4 5-5 6-1 6-0";
    let twelve = "D D D D D D D D D D D D";

    let mut s = first_hand(Rules::default(), &hands, front);
    play(&mut s, "6-6");
    play(&mut s, twelve);
    // By default the 13th draw is allowed and brings the 6-1, which fits.
    assert_eq!(legal(&s), ["D"]);
    assert_eq!(play(&mut s, "D")[0].drawn, Some(t("6-1")));
    assert_eq!(legal(&s), ["6-1@E", "6-1@W"]);

    let mut s = first_hand(rules("boneyard-keep=2"), &hands, front);
    play(&mut s, "6-6");
    play(&mut s, twelve);
    // Two tiles remain and may not be drawn: s1 passes.
    assert_eq!(s.boneyard_len(), 2);
    assert_eq!(legal(&s), ["P"]);
    assert_eq!(err(&s, "D"), IllegalAction::CannotDraw);
    play(&mut s, "P");
    assert_eq!(s.to_move(), Seat(0));
}

#[test]
fn boneyard_keep_1_forbids_drawing_the_last_one() {
    // s0 leads 6-6; s1 holds no 6. The boneyard holds 13 tiles without a 6, then 6-0.
    let hands = ["6-6 6-5 6-4 6-3 6-2 6-1 0-0", "1-0 1-1 2-0 2-1 2-2 3-0 3-1"];
    let front = "3-2 3-3 4-0 4-1 4-2 4-3 4-4 5-0 5-1 5-2 5-3 5-4 5-5 6-0";
    let thirteen = "D D D D D D D D D D D D D";

    let mut s = first_hand(Rules::default(), &hands, front);
    play(&mut s, "6-6");
    play(&mut s, thirteen);
    assert_eq!(play(&mut s, "D")[0].drawn, Some(t("6-0")));

    let mut s = first_hand(rules("boneyard-keep=1"), &hands, front);
    play(&mut s, "6-6");
    play(&mut s, thirteen);
    assert_eq!(s.boneyard_len(), 1);
    assert_eq!(legal(&s), ["P"]);
}

// ----- scoring during play -----

// s0 leads 6-3 (count 9); s1 lays 6-6 on the 6 (count 12 + 3 = 15).
const SCORING_HANDS: [&str; 2] = ["6-3 5-4 5-3 4-4 4-3 2-2 1-1", "6-6 6-1 6-0 3-3 3-2 0-0 1-0"];

fn scoring_points(opts: &str) -> Vec<u16> {
    let mut s = free_hand(rules(opts), &SCORING_HANDS, 0, [0; 4]);
    play(&mut s, "6-3 6-6@W").iter().map(|o| o.points).collect()
}

#[test]
fn play_scoring_fives_scores_multiples_of_five() {
    // 9 is no multiple of 5; 15 is, and scores 15.
    assert_eq!(scoring_points("play-scoring=fives"), [0, 15]);
    assert_eq!(scoring_points(""), [0, 15]);
}

#[test]
fn play_scoring_fives_and_threes_english_convention() {
    // 9 = 3 x 3 scores 3; 15 = 3 x 5 scores 5 (for the threes) + 3 (for the fives) = 8.
    assert_eq!(scoring_points("play-scoring=fives-and-threes"), [3, 8]);
    // A whole hand (see THREE_MOVES): counts 9 10 4 3 5 7 6 8 3 2 4 6 5 score
    // 3 2 0 1 1 0 2 0 1 0 0 2 1, so s0 3+1+2+0+1 = 7, s1 2+1+0+0 = 3, s2 0+0+1+2 = 3.
    // The award is divided by 5 on this scale: 3 + 4 = 7 rounds to 5, i.e. 1. s0: 8.
    let s = three_domino("play-scoring=fives-and-threes", [0; 4]);
    assert_eq!(s.result().unwrap().awards.0[..3], [1, 0, 0]);
    assert_eq!(scores(&s, 3), vec![8, 3, 3]);
}

#[test]
fn play_scoring_none_scores_nothing_during_play() {
    assert_eq!(scoring_points("play-scoring=none"), [0, 0]);
    // Only the end-of-hand award counts: s0 gets 3 + 4 = 7, rounded to 5.
    let s = three_domino("play-scoring=none", [0; 4]);
    assert_eq!(scores(&s, 3), vec![5, 0, 0]);
}

// ----- the award at the end of a hand -----

#[test]
fn award_opponents_scores_the_losers_pips() {
    // Blocked: s0 has 11, s1 53; s0 scores 53 rounded to 55.
    let s = two_block("award=opponents");
    assert_eq!(s.result().unwrap().pips.0[..2], [11, 53]);
    assert_eq!(scores(&s, 2), vec![55, 0]);
    // Domino: s0 scores s1's 3 + s2's 4 = 7, rounded once to 5; with 5 from its last play
    // that is 10; s1 made 10 + 5 during play.
    let s = three_domino("", [0; 4]);
    assert_eq!(s.result().unwrap().awards.0[..3], [5, 0, 0]);
    assert_eq!(scores(&s, 3), vec![10, 15, 0]);
}

#[test]
fn award_difference_scores_pips_over_the_winners() {
    // Blocked: 53 - 11 = 42, rounded to 40.
    let s = two_block("award=difference");
    assert_eq!(scores(&s, 2), vec![40, 0]);
    // Domino: the winner went out and counts 0; each losing side is rounded on its own:
    // s1 3 -> 5, s2 4 -> 5, total 10 (against 5 under the default award).
    let s = three_domino("award=difference", [0; 4]);
    assert_eq!(s.result().unwrap().awards.0[..3], [10, 0, 0]);
    assert_eq!(scores(&s, 3), vec![15, 15, 0]);
    // Shared block: s0 and s1 tie on 14, s2 holds 24: 24 - 14 = 10, shared: 5 each.
    let mut s = first_hand(
        rules("players=3 drawing=false award=difference"),
        &THREE_SPLIT,
        "",
    );
    play(&mut s, "6-6");
    assert_eq!(scores(&s, 3), vec![5, 5, 0]);
}

#[test]
fn award_subtract_own_replaces_the_award() {
    // Blocked: nobody is paid; s0 loses 11 rounded to 10, s1 53 rounded to 55, below zero.
    let s = two_block("award=subtract-own");
    assert_eq!(s.result().unwrap().awards.0[..2], [-10, -55]);
    assert_eq!(scores(&s, 2), vec![-10, -55]);
    // Domino: s0 went out and loses nothing; s1 loses 3 -> 5 from its 15, s2 4 -> 5.
    let s = three_domino("award=subtract-own", [0; 4]);
    assert_eq!(s.result().unwrap().awards.0[..3], [0, -5, -5]);
    assert_eq!(scores(&s, 3), vec![5, 10, -5]);
}

#[test]
fn doubles_one_half_counts_one_half_of_doubles_in_hand() {
    // s0: 11 less half of 0-0 (0) and of 1-1 (1) = 10. s1: 53 less half of 5-5 (5), 4-4 (4)
    // and 3-3 (3) = 41. s0 is still lowest and scores 41 rounded to 40 (55 by default).
    let s = two_block("doubles-one-half=true");
    assert_eq!(s.result().unwrap().pips.0[..2], [10, 41]);
    assert_eq!(scores(&s, 2), vec![40, 0]);
}

// ----- end of the game -----

#[test]
fn game_end_immediate_stops_mid_hand() {
    // s1 has 190 of 200 and makes 10 with its first tile: 200, game over at once.
    let mut s = free_hand(rules("players=3"), &THREE_HANDS, 0, [0, 190, 0, 0]);
    let o = play(&mut s, "5-4 6-5@W");
    assert!(o[1].game_over);
    assert_eq!((s.phase(), s.winner()), (Phase::GameOver, Some(Side(1))));
    assert!(s.result().is_none());
}

#[test]
fn game_end_finish_hand_lets_the_highest_win() {
    // s1 reaches 200 on its first tile but the hand goes on. At the end s0 has
    // 196 + 5 (last play) + 5 (award) = 206, s1 190 + 15 = 205: s0 is highest and wins.
    let r = rules("players=3 game-end=finish-hand");
    assert_eq!(r.game_end, GameEnd::FinishHand);
    let mut s = free_hand(r, &THREE_HANDS, 0, [196, 190, 0, 0]);
    play(&mut s, "5-4 6-5@W");
    assert_eq!((s.phase(), score(&s, 1)), (Phase::Play, 200));
    play(&mut s, &THREE_MOVES["5-4 6-5@W ".len()..]);
    assert_eq!(scores(&s, 3), vec![206, 205, 0]);
    assert_eq!((s.phase(), s.winner()), (Phase::GameOver, Some(Side(0))));
    // The same start under the immediate rule: s1 wins on its first tile.
    let mut s = free_hand(rules("players=3"), &THREE_HANDS, 0, [196, 190, 0, 0]);
    play(&mut s, "5-4 6-5@W");
    assert_eq!(s.winner(), Some(Side(1)));
}

#[test]
fn game_end_tie_at_the_target_plays_another_hand() {
    // From 195 and 190, s0 and s1 both finish on 205: a tie for highest, nobody wins yet.
    let s = three_domino("game-end=finish-hand", [195, 190, 0, 0]);
    assert_eq!(scores(&s, 3), vec![205, 205, 0]);
    assert_eq!((s.phase(), s.winner()), (Phase::HandOver, None));
    assert!(s.next_hand_start().is_some());
}

#[test]
fn exact_target_refuses_an_overshoot() {
    // s1 at 195 of 200 makes 10: 205 would overshoot, so nothing is scored...
    let mut s = free_hand(
        rules("players=3 exact-target=true"),
        &THREE_HANDS,
        0,
        [0, 195, 0, 0],
    );
    let o = play(&mut s, "5-4 6-5@W");
    assert_eq!((o[1].points, score(&s, 1)), (0, 195));
    // ...and the 5 made by 2-0 two turns later lands exactly on 200 and wins.
    play(&mut s, "6-0@W 4-3@E 2-0@W");
    assert_eq!((score(&s, 1), s.winner()), (200, Some(Side(1))));
    // Without the option the 10 is scored (205) and wins at once.
    let mut s = free_hand(rules("players=3"), &THREE_HANDS, 0, [0, 195, 0, 0]);
    play(&mut s, "5-4 6-5@W");
    assert_eq!((score(&s, 1), s.winner()), (205, Some(Side(1))));
}

#[test]
fn exact_target_refuses_an_overshooting_award() {
    // s0 at 196: its last play's 5 (201) and the award of 5 (201) both overshoot 200.
    let s = three_domino("exact-target=true", [196, 0, 0, 0]);
    let res = s.result().unwrap();
    assert_eq!((res.awards[Side(0)], res.scored[Side(0)]), (5, 0));
    assert_eq!(scores(&s, 3), vec![196, 15, 0]);
    assert_eq!(s.phase(), Phase::HandOver);
}

#[test]
fn cribbage_divides_every_score_by_five() {
    // s1's 10 and 5 become 2 and 1; s0's 5 and its award of 5 become 1 and 1.
    let s = three_domino("cribbage=true", [0; 4]);
    assert_eq!(scores(&s, 3), vec![2, 3, 0]);
    // The cribbage preset also plays to 61.
    for n in 2..=4 {
        assert_eq!(Rules::preset(Preset::Cribbage, n).target, 61);
    }
}

#[test]
fn cribbage_option_alone_plays_to_61() {
    // The rules define the cribbage option as every score divided by 5, to 61.
    assert_eq!(rules("cribbage=true").target, 61);
    assert_eq!(rules("players=4 cribbage=true").target, 61);
    // Fives and Threes scoring is on the same small scale.
    assert_eq!(rules("play-scoring=fives-and-threes").target, 61);
    // An explicit target wins, and leaving the small scale restores the fives target.
    assert_eq!(rules("cribbage=true target=121").target, 121);
    assert_eq!(rules("cribbage cribbage=false").target, 250);
    assert_eq!(rules("cribbage players=3 cribbage=false").target, 200);
}

// ----- manual scoring and Muggins -----

const MANUAL_HANDS: [&str; 2] = ["5-5 5-3 6-6 6-5 6-4 6-3 6-2", "5-0 4-4 4-3 4-2 4-1 4-0 3-3"];

#[test]
fn manual_scoring_needs_an_exact_claim() {
    let mut s = free_hand(rules("manual=true"), &MANUAL_HANDS, 0, [0; 4]);
    let o = play(&mut s, "5-5")[0];
    // Nothing is scored until claimed; the 5-5 makes 10.
    assert_eq!(
        (o.points, s.phase(), s.to_move()),
        (0, Phase::Claim, Seat(0))
    );
    assert_eq!(legal(&s), ["C0", "C10"]);
    assert_eq!(
        err(&s, "C5"),
        IllegalAction::WrongClaim {
            claimed: 5,
            actual: 10
        }
    );
    assert_eq!(err(&s, "5-3@W"), IllegalAction::MustClaim);
    assert_eq!(play(&mut s, "C10")[0].points, 10);
    assert_eq!(
        (score(&s, 0), s.to_move(), s.phase()),
        (10, Seat(1), Phase::Play)
    );

    // Without manual scoring the 10 is scored at once and there is nothing to claim.
    let mut s = free_hand(Rules::default(), &MANUAL_HANDS, 0, [0; 4]);
    assert_eq!(play(&mut s, "5-5")[0].points, 10);
    assert_eq!(err(&s, "C10"), IllegalAction::NoClaimDue);
}

#[test]
fn manual_scoring_muggins_takes_missed_points() {
    let mut s = free_hand(rules("manual=true"), &MANUAL_HANDS, 0, [0; 4]);
    // s1's 5-0 makes 10 (spinner 10 + blank 0) but s1 claims nothing.
    play(&mut s, "5-5 C10 5-0@W C0");
    assert_eq!(score(&s, 1), 0);
    // s0 may call Muggins before acting and takes the 10, then plays on.
    assert_eq!(s.muggins_available(), 10);
    assert!(legal(&s).contains(&"M".to_string()));
    assert_eq!(play(&mut s, "M")[0].points, 10);
    assert_eq!((scores(&s, 2), s.to_move()), (vec![20, 0], Seat(0)));
    assert_eq!(err(&s, "M"), IllegalAction::NoMuggins);
    play(&mut s, "5-3@E C0");
}

#[test]
fn manual_scoring_muggins_lapses_once_the_next_player_acts() {
    let mut s = free_hand(rules("manual=true"), &MANUAL_HANDS, 0, [0; 4]);
    play(&mut s, "5-5 C10 5-0@W C0");
    // s0 plays 5-3 (count 0 + 3 = 3, nothing to claim) instead of calling: the 10 is lost.
    play(&mut s, "5-3@E");
    assert_eq!(legal(&s), ["C0"]);
    play(&mut s, "C0");
    assert_eq!(err(&s, "M"), IllegalAction::NoMuggins);
    assert_eq!(scores(&s, 2), vec![10, 0]);
    // Without manual scoring there is never anything to call.
    let mut s = free_hand(Rules::default(), &MANUAL_HANDS, 0, [0; 4]);
    play(&mut s, "5-5 5-0@W");
    assert_eq!(err(&s, "M"), IllegalAction::NoMuggins);
}

// ----- invalid options -----

#[test]
fn invalid_combinations_name_the_problem() {
    let cases: [(&str, RulesError); 10] = [
        ("players=9", RulesError::Players { players: 9, set: 6 }),
        ("players=1", RulesError::Players { players: 1, set: 6 }),
        (
            "players=3 partnerships=true",
            RulesError::PartnershipsNeedFour(3),
        ),
        (
            "players=4 partnerships=false hand=8",
            RulesError::HandSize {
                hand_size: 8,
                players: 4,
                set: 6,
            },
        ),
        (
            "hand=2",
            RulesError::HandSize {
                hand_size: 2,
                players: 2,
                set: 6,
            },
        ),
        ("target=49", RulesError::Target(49)),
        ("target=1001", RulesError::Target(1001)),
        ("boneyard-keep=3", RulesError::BoneyardKeep(3)),
        (
            "drawing=false voluntary-draw=true",
            RulesError::VoluntaryWithoutDrawing,
        ),
        (
            "play-scoring=none manual=true",
            RulesError::ManualWithoutScoring,
        ),
    ];
    for (s, e) in cases {
        assert_eq!(Rules::parse(s), Err(e), "{s}");
    }
    assert_eq!(
        Rules::parse("block voluntary-draw=true"),
        Err(RulesError::VoluntaryWithoutDrawing)
    );
    assert_eq!(
        Rules::parse("draw manual=on"),
        Err(RulesError::ManualWithoutScoring)
    );
    // The edges of the ranges are allowed.
    for s in [
        "target=50",
        "target=1000",
        "hand=9",
        "players=4 hand=7",
        "boneyard-keep=2",
    ] {
        assert!(Rules::parse(s).is_ok(), "{s}");
    }
    // A game cannot be set up with invalid rules.
    let bad = Rules {
        boneyard_keep: 3,
        ..Rules::default()
    };
    let d = deal(&Rules::default(), &MANUAL_HANDS, "");
    assert_eq!(
        State::new(bad, d).unwrap_err(),
        SetupError::Rules(RulesError::BoneyardKeep(3))
    );
}

#[test]
fn parse_errors_are_clear() {
    let msg = |s: &str| Rules::parse(s).unwrap_err().to_string();
    assert_eq!(msg("players=9"), "players must be 2 to 8, not 9");
    assert_eq!(
        msg("players=3 partners=yes"),
        "partnerships need 4 or 6 players (two teams alternating around the table), not 3; \
         use partnerships=false"
    );
    assert_eq!(
        msg("set=7"),
        "set=7 is not a domino set: use 6 (double-six, 28 tiles), 9 (double-nine, 55) or 12 \
         (double-twelve, 91)"
    );
    assert!(msg("players=8 hand=5").contains("(8 x 5 = 40 of 28 tiles)"));
    assert!(msg("block cross-first=true").contains("cross-first needs a spinner"));
    assert!(msg("players=4 partnerships=false hand=8").contains("(4 x 8 = 32 of 28 tiles)"));
    assert!(msg("target=20").starts_with("target 20 is out of range: it must be 50 to 1000"));
    assert_eq!(
        msg("boneyard-keep=5"),
        "boneyard-keep must be 0, 1 or 2, not 5"
    );
    assert_eq!(
        msg("bogus"),
        "unknown rules preset \"bogus\"; presets are: five-up, all-fives, pagat-five-up, fives, \
         muggins, cross, fives-and-threes, draw, block, cross-dominoes, cribbage, party-twelve"
    );
    assert!(msg("colour=red").starts_with("unknown option \"colour\"; options are: set, players,"));
    assert_eq!(
        msg("spinner=sideways"),
        "spinner: \"sideways\" is not one of first, none, all"
    );
    assert_eq!(
        msg("award=all"),
        "award: \"all\" is not one of opponents, difference, subtract-own"
    );
    assert_eq!(
        msg("drawing=maybe"),
        "drawing: expected true or false, got \"maybe\""
    );
    assert_eq!(msg("target=lots"), "target: not a number: \"lots\"");
    assert_eq!(msg("players=x"), "players: not a number: \"x\"");
    assert_eq!(msg("five-up hand"), "expected key=value, got \"hand\"");
}

#[test]
fn parse_accepts_aliases_and_separators() {
    let a = rules("Cross, players=4; partners=no hand-size=6 manual=1 exact-target=on");
    assert_eq!(a.spinner, SpinnerRule::All);
    assert!(!a.partnerships && a.manual_scoring && a.exact_target);
    assert_eq!(a.hand_size, 6);
    assert_eq!(rules("default"), Rules::default());
    assert_eq!(rules(""), Rules::default());
    // Every option round-trips through its canonical string.
    let all = rules(
        "players=3 hand=6 target=300 spinner=all sprouts=at-once no-double=heaviest-tile \
         next-lead=rotate voluntary-draw=true boneyard-keep=1 play-scoring=fives-and-threes \
         award=difference doubles-one-half=true game-end=finish-hand exact-target=true \
         cribbage=true manual=true",
    );
    assert_eq!(rules(&all.to_options_string()), all);
    assert_eq!(
        (all.sprouts, all.no_double, all.award, all.play_scoring),
        (
            SproutRule::AtOnce,
            NoDouble::HeaviestTile,
            Award::Difference,
            PlayScoring::FivesAndThrees
        )
    );
}

// ----- presets -----

#[test]
fn presets_differ_from_five_up_as_documented() {
    for n in 2..=4 {
        let base = Rules::preset(Preset::FiveUp, n);
        assert_eq!(base, rules(&format!("players={n}")));
        // pagat: "If there is a tie for least points in a blocked two-player or four-player
        // game no one scores"; with three players the two tied split the third's points.
        let pagat_tie = if n == 3 {
            BlockedTie::Share
        } else {
            BlockedTie::Nobody
        };
        for p in Preset::ALL {
            let mut expect = base;
            match p {
                Preset::FiveUp => {}
                // pagat: "The first player in the first hand is determined by lot."
                Preset::AllFives => {
                    expect.first_lead = FirstLead::Lot;
                    expect.blocked_tie = pagat_tie;
                }
                Preset::PagatFiveUp => {
                    expect.spinner = SpinnerRule::All;
                    expect.first_lead = FirstLead::Lot;
                    expect.blocked_tie = pagat_tie;
                }
                // "The player who starts may play any domino they like"; seven tiles apiece.
                Preset::Fives => {
                    expect.first_lead = FirstLead::HighestDoubleAny;
                    expect.hand_size = 7;
                }
                Preset::CrossDominoes => {
                    expect.cross_first = true;
                    expect.play_scoring = PlayScoring::None;
                    expect.target = 100;
                    expect.hand_size = [7, 5, 4][usize::from(n) - 2];
                    // The Draw page: every hand opens with the highest double.
                    expect.next_lead = NextLead::FirstLead;
                }
                Preset::PartyTwelve => {
                    expect = Rules::preset_with_set(Preset::FiveUp, n, 12);
                    expect.spinner = SpinnerRule::None;
                    expect.first_lead = FirstLead::HighestDoubleAny;
                    expect.hand_size = 5;
                    expect.boneyard_keep = 2;
                    expect.award = Award::Difference;
                    expect.partnerships = false;
                    expect.next_lead = NextLead::FirstLead;
                    // Declaring, and "any player can shout Muggins!".
                    expect.manual_scoring = true;
                    expect.muggins_call = MugginsCall::Any;
                    // "That player takes a sleeping tile instead."
                    expect.draw_one = true;
                    expect.target = fiveup_engine::PARTY_TARGET;
                }
                Preset::Muggins => {
                    expect.spinner = SpinnerRule::None;
                    expect.blocked_tie = pagat_tie;
                }
                Preset::Cross => expect.spinner = SpinnerRule::All,
                // "Played in the same way as All Fives", which has a spinner.
                Preset::FivesAndThrees => {
                    expect.play_scoring = PlayScoring::FivesAndThrees;
                    expect.target = 61;
                }
                // The Draw game page: 2 players take 7 tiles, 3 take 5, 4 take 4.
                Preset::Draw => {
                    expect.spinner = SpinnerRule::None;
                    expect.play_scoring = PlayScoring::None;
                    expect.target = 100;
                    expect.hand_size = [7, 5, 4][usize::from(n) - 2];
                    expect.next_lead = NextLead::FirstLead;
                }
                // The same page: Block deals more than Draw and leaves a few tiles sleeping.
                Preset::Block => {
                    expect.spinner = SpinnerRule::None;
                    expect.play_scoring = PlayScoring::None;
                    expect.drawing = false;
                    expect.target = 100;
                    expect.hand_size = [7, 7, 6][usize::from(n) - 2];
                    expect.next_lead = NextLead::FirstLead;
                }
                Preset::Cribbage => {
                    expect.cribbage_scale = true;
                    expect.target = 61;
                    expect.blocked_tie = pagat_tie;
                }
            }
            assert_eq!(Rules::preset(p, n), expect, "{p} with {n} players");
            if p == Preset::PartyTwelve {
                // The party game is for five players or more: a rules string naming a smaller
                // table is refused.
                assert!(
                    Rules::parse(&format!("{p} players={n}")).is_err(),
                    "{p} {n}"
                );
            } else {
                assert_eq!(rules(&format!("{p} players={n}")), expect);
            }
        }
    }
}

// ----- options from the rule pages (blocked ties, Muggins calls, no-double draws, later
// leads, one draw a turn, hand limits) -----

#[test]
fn blocked_tie_nobody_scores_nothing_for_four_individuals() {
    // The hands of `four_individuals_two_tied_share_the_other_two`: s0 and s1 tie on 15.
    let hands = [
        "6-6 5-4 1-1 1-0 2-1",
        "4-1 2-2 0-0 4-0 2-0",
        "4-2 3-3 5-2 3-0 4-4",
        "4-3 5-5 5-1 5-0 5-3",
    ];
    let mut s = first_hand(
        rules("players=4 partnerships=false drawing=false blocked-tie=nobody"),
        &hands,
        "",
    );
    play(&mut s, "6-6");
    assert_eq!(s.result().unwrap().winners, 0);
    assert_eq!(scores(&s, 4), vec![0, 0, 0, 0]);
    // pagat's presets: "no one scores" with four players, but with three the two tied split
    // the third player's points.
    let mut s = first_hand(
        rules("all-fives players=4 partnerships=false drawing=false first-lead=highest-double"),
        &hands,
        "",
    );
    play(&mut s, "6-6");
    assert_eq!(scores(&s, 4), vec![0, 0, 0, 0]);
    assert_eq!(
        rules("all-fives players=3").blocked_tie,
        BlockedTie::Share,
        "three players share"
    );
    // A single lowest still scores under either rule.
    let s = two_block("blocked-tie=nobody");
    assert_eq!(scores(&s, 2), vec![55, 0]);
}

// Three players, manual scoring: s0 leads 5-5 (10) and claims nothing.
const MUGGINS_THREE: [&str; 3] = [
    "5-5 6-6 6-5 6-4 6-3",
    "5-1 0-0 1-1 2-2 3-3",
    "5-2 4-4 4-3 4-2 4-1",
];

#[test]
fn muggins_call_any_lets_every_opponent_call_before_the_side_that_missed_moves_again() {
    let r = rules("players=3 manual=true muggins-call=any");
    let mut s = free_hand(r, &MUGGINS_THREE, 0, [0; 4]);
    play(&mut s, "5-5 C0");
    // s1 may call but plays on instead (5-1: the spinner's 10 and the 1 make 11, nothing).
    assert_eq!((s.to_move(), s.muggins_available()), (Seat(1), 10));
    play(&mut s, "5-1@W C0");
    // s2, another opponent, may still shout "Muggins!" and takes the 10.
    assert_eq!((s.to_move(), s.muggins_available()), (Seat(2), 10));
    assert_eq!(play(&mut s, "M")[0].points, 10);
    assert_eq!(scores(&s, 3), vec![0, 0, 10]);
    assert_eq!(err(&s, "M"), IllegalAction::NoMuggins);

    // Nobody calls: once the turn is back with the side that missed, the points are gone.
    let mut s = free_hand(r, &MUGGINS_THREE, 0, [0; 4]);
    play(&mut s, "5-5 C0 5-1@W C0 5-2@E C0");
    assert_eq!(s.to_move(), Seat(0));
    assert_eq!(err(&s, "M"), IllegalAction::NoMuggins);

    // Under the default rule only the next player may call.
    let mut s = free_hand(rules("players=3 manual=true"), &MUGGINS_THREE, 0, [0; 4]);
    play(&mut s, "5-5 C0 5-1@W C0");
    assert_eq!(s.to_move(), Seat(2));
    assert_eq!(err(&s, "M"), IllegalAction::NoMuggins);
}

// Two hands without a double (Walnut's case): every double is in the boneyard or not dealt.
const NO_DOUBLES: [&str; 2] = ["6-5 6-4 6-3 6-2 6-1 6-0 5-4", "5-3 5-2 5-1 5-0 4-3 4-2 4-1"];

#[test]
fn no_double_each_draws_one_tile_then_the_highest_double_leads() {
    // Walnut: "If no player has a double, each player draws an additional tile", then "the
    // player with the highest double places that tile down".
    let s = first_hand(rules("no-double=each-draws"), &NO_DOUBLES, "2-2 4-4");
    assert_eq!(s.log().len(), 2, "one lead draw each: {:?}", s.log());
    assert_eq!(
        (s.to_move(), s.lead_kind(), s.forced_lead()),
        (Seat(1), LeadKind::HighestDouble, Some(t("4-4")))
    );
    assert_eq!(s.boneyard_len(), 14 - 2);
    // Drawing until a double appears stops at s0's 2-2 instead.
    let s = first_hand(rules("no-double=draw-until-double"), &NO_DOUBLES, "2-2 4-4");
    assert_eq!((s.to_move(), s.forced_lead()), (Seat(0), Some(t("2-2"))));
    // Still no double after the round: the heaviest tile leads (s0's 6-5).
    let s = first_hand(rules("no-double=each-draws"), &NO_DOUBLES, "1-0 2-0");
    assert_eq!(
        (s.to_move(), s.lead_kind(), s.forced_lead()),
        (Seat(0), LeadKind::HeaviestTile, Some(t("6-5")))
    );
    // Other seats see that a tile was drawn, not which.
    let v = s.view(Seat(1));
    assert!(v.history().iter().any(|e| matches!(
        e,
        Entry::LeadDraw {
            seat: Seat(0),
            tile: None
        }
    )));
    // Resampled worlds agree with what the view shows.
    let mut rng = fiveup_engine::FastRng::new(3);
    let mut sampler = fiveup_engine::Sampler::new(&v);
    for _ in 0..50 {
        let w = sampler.sample(&mut rng).expect("a consistent world");
        assert_eq!(w.view(Seat(1)).history(), v.history());
        assert_eq!(w.forced_lead(), Some(t("6-5")));
    }
}

#[test]
fn next_lead_first_lead_opens_every_hand_with_the_highest_double() {
    // The Draw, Cross Dominoes and party pages: every hand opens with the highest double.
    for preset in ["draw", "block", "cross-dominoes", "party-twelve"] {
        let r = rules(preset);
        assert_eq!(r.next_lead, NextLead::FirstLead, "{preset}");
        let mut rng = fiveup_engine::FastRng::new(7);
        let mut s = State::from_seed(r, &fiveup_engine::Seed::from_u64(2)).unwrap();
        for hand in 0..6 {
            // The hand's first play is a double (the first-lead rule), and so is the lead of
            // every later hand, however the previous one ended.
            assert!(s.start().highest_double, "{preset} hand {hand}");
            assert_ne!(s.lead_kind(), LeadKind::Free, "{preset} hand {hand}");
            while matches!(s.phase(), Phase::Play | Phase::Claim) {
                let a = s.random_action(&mut rng);
                s.apply(a).unwrap();
            }
            if s.phase() == Phase::GameOver {
                break;
            }
            s.next_hand_from_seed(&fiveup_engine::Seed::from_u64(2))
                .unwrap();
        }
    }
    // In Cross Dominoes every hand's lead is now a double, so the cross forms at once.
    let mut rng = fiveup_engine::FastRng::new(9);
    let mut leads = 0;
    for g in 0..100 {
        let mut s =
            State::from_seed(rules("cross-dominoes"), &fiveup_engine::Seed::from_u64(g)).unwrap();
        loop {
            let mut first = true;
            while matches!(s.phase(), Phase::Play | Phase::Claim) {
                let a = s.random_action(&mut rng);
                if first {
                    assert!(
                        matches!(a, Action::Play { tile, arm: None } if tile.is_double()),
                        "game {g}: hand {} led with {a}",
                        s.start().hand_no
                    );
                    leads += 1;
                    first = false;
                }
                s.apply(a).unwrap();
            }
            if s.phase() == Phase::GameOver {
                break;
            }
            s.next_hand_from_seed(&fiveup_engine::Seed::from_u64(g))
                .unwrap();
        }
    }
    assert!(leads > 100, "{leads} hands");
}

#[test]
fn draw_one_takes_one_sleeping_tile_a_turn_then_plays_it_or_passes() {
    // BLOCK_HANDS: s0 leads 6-6 and nobody else holds a 6. The boneyard starts 5-2 3-2 6-5.
    let r = rules("draw-one=true");
    let mut s = first_hand(r, &BLOCK_HANDS, "5-2 3-2 6-5");
    play(&mut s, "6-6");
    assert_eq!((s.to_move(), legal(&s)), (Seat(1), vec!["D".to_string()]));
    // The 5-2 does not fit: s1 passes rather than drawing again.
    play(&mut s, "D");
    assert_eq!(legal(&s), ["P"]);
    assert_eq!(err(&s, "D"), IllegalAction::MustPass);
    assert!(err(&s, "D").to_string().contains("one tile this turn"));
    play(&mut s, "P");
    // s0 has no 6 either: one draw (3-2), then a pass.
    play(&mut s, "D P");
    // s1's next draw, the 6-5, fits and must be laid.
    play(&mut s, "D");
    let l = legal(&s);
    assert!(
        !l.is_empty() && l.iter().all(|a| a.starts_with("6-5@")),
        "{l:?}"
    );
    // Without the option the player draws until a tile fits.
    let mut s = first_hand(rules(""), &BLOCK_HANDS, "5-2 3-2 6-5");
    play(&mut s, "6-6 D");
    assert_eq!(legal(&s), ["D"]);
}

#[test]
fn a_hand_limit_ends_the_game_with_the_highest_score() {
    // The three-player hand of THREE_MOVES: s0 goes out (5 + an award of 5) but s1 made 15
    // during play, so s1 has the most points when the limit is reached. (three_domino's hand
    // is the game's second: a limit of one is already past.)
    let s = three_domino("hands=1 target=1000", [0; 4]);
    assert_eq!(scores(&s, 3), vec![10, 15, 0]);
    assert_eq!((s.phase(), s.winner()), (Phase::GameOver, Some(Side(1))));
    let r = rules("players=3 hands=2 target=1000");
    let mut s = free_hand(r, &THREE_HANDS, 0, [0; 4]);
    play(&mut s, THREE_MOVES);
    assert_eq!((s.phase(), s.winner()), (Phase::GameOver, Some(Side(1))));
    // Without a limit the same hand leaves the game going.
    let s = three_domino("target=1000", [0; 4]);
    assert_eq!(s.phase(), Phase::HandOver);
    // A tie for highest plays another hand.
    let mut s = first_hand(
        rules("drawing=false hands=1"),
        &["6-6 5-5 5-2 4-1 0-0 1-0 2-0", "2-2 3-0 4-0 3-1 5-0 1-1 2-1"],
        "",
    );
    play(&mut s, "6-6");
    assert_eq!((s.phase(), s.winner()), (Phase::HandOver, None));
    assert_eq!(Rules::parse("hands=1001"), Err(RulesError::HandLimit(1001)));
    // Scores that may fall end after 50 hands when no limit is given.
    assert_eq!(rules("award=subtract-own").effective_hand_limit(), 50);
    assert_eq!(
        rules("award=subtract-own hands=5").effective_hand_limit(),
        5
    );
    assert_eq!(rules("").effective_hand_limit(), 0);
}

#[test]
fn an_exact_target_the_fives_scale_cannot_reach_is_refused() {
    assert_eq!(
        Rules::parse("exact-target=true target=52"),
        Err(RulesError::TargetUnreachable(52))
    );
    let e = RulesError::TargetUnreachable(52).to_string();
    assert!(e.contains("can never end") && e.contains("50"), "{e}");
    // On a scale of ones any target can be met.
    assert!(Rules::parse("cribbage exact-target=true target=52").is_ok());
    assert!(Rules::parse("exact-target=true target=250").is_ok());
}

#[test]
fn five_up_keeps_forced_drawing_as_documented() {
    // The Rubl page allows drawing when able to play; the preset keeps draws forced so that a
    // draw tells the table what the drawer lacks (docs/rules.md says why), and the page's rule
    // is one option away.
    assert!(!rules("five-up").voluntary_draw);
    assert!(rules("five-up voluntary-draw=true").voluntary_draw);
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rules.md"))
        .expect("docs/rules.md");
    assert!(
        doc.contains("five-up voluntary-draw=true"),
        "the departure is documented"
    );
}
