//! Perft: the number of action sequences of each length from fixed deals, compared with
//! counts committed in `tests/data/*.perft`. Any change to the rules' move generation shows
//! up here as a changed count.
//!
//! # Counting
//! `perft(state, depth)` counts the sequences of `depth` actions (plays, draws, passes, and
//! under manual scoring claims and Muggins calls) from the start of the hand. A sequence that
//! ends the hand before `depth` actions counts once, at the point it ends. Plays are counted
//! per concrete arm: the same tile laid on two arms that show the same pip (the two line
//! sides of a spinner, say) counts as two different actions. A draw is one action whatever the
//! tile, because the deal fixes the boneyard order.
//!
//! # File format
//! Lines starting with `#` are comments; blank lines are ignored. Then, in order:
//! - `deal <hands and boneyard>`: the deal as [`Deal::to_text`] writes it, each hand in seat
//!   order then the boneyard in draw order, separated by ` / `;
//! - `rules <rules string>`: a string [`Rules::parse`] reads (the files give every option);
//! - one `<depth> <count>` line per depth, depths increasing.
//!
//! The hand starts as a first hand of a game: the highest double dealt leads.
//! The counts were produced by the engine's own `perft` and committed; they guard against
//! unintended changes rather than prove correctness (the small depths of the two-player file
//! are also worked out by hand below).

use std::path::PathBuf;

use fiveup_engine::{perft, Deal, HandStart, Rules, State};

struct PerftFile {
    state: State,
    counts: Vec<(u32, u64)>,
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn read(name: &str) -> PerftFile {
    let path = data_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let deal_text = lines
        .next()
        .and_then(|l| l.strip_prefix("deal "))
        .unwrap_or_else(|| panic!("{name}: the first line must be `deal ...`"));
    let rules_text = lines
        .next()
        .and_then(|l| l.strip_prefix("rules "))
        .unwrap_or_else(|| panic!("{name}: the second line must be `rules ...`"));
    let rules = Rules::parse(rules_text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let deal = Deal::parse(&rules, deal_text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let state = State::with_start(rules, deal, HandStart::first())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let counts: Vec<(u32, u64)> = lines
        .map(|l| {
            let (d, c) = l
                .split_once(' ')
                .unwrap_or_else(|| panic!("{name}: expected `depth count`, got {l:?}"));
            (
                d.parse()
                    .unwrap_or_else(|_| panic!("{name}: bad depth {d:?}")),
                c.trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("{name}: bad count {c:?}")),
            )
        })
        .collect();
    assert!(!counts.is_empty(), "{name}: no counts");
    assert!(
        counts.windows(2).all(|w| w[0].0 < w[1].0),
        "{name}: depths must increase"
    );
    PerftFile { state, counts }
}

fn check(name: &str) {
    let f = read(name);
    for &(depth, want) in &f.counts {
        let got = perft(&f.state, depth);
        assert_eq!(got, want, "{name}: perft at depth {depth}");
    }
}

const FILES: [&str; 5] = [
    "two_player.perft",
    "three_player.perft",
    "partnerships.perft",
    "cross.perft",
    "threes_manual.perft",
];

#[test]
fn two_player() {
    check(FILES[0]);
}

#[test]
fn three_player() {
    check(FILES[1]);
}

#[test]
fn partnerships() {
    check(FILES[2]);
}

#[test]
fn cross() {
    check(FILES[3]);
}

#[test]
fn threes_manual() {
    check(FILES[4]);
}

/// Every data file is checked by one of the tests above.
#[test]
fn every_data_file_is_checked() {
    let mut found: Vec<String> = std::fs::read_dir(data_dir())
        .expect("tests/data exists")
        .map(|e| {
            e.expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".perft"))
        .collect();
    found.sort();
    let mut known: Vec<String> = FILES.iter().map(|s| (*s).to_string()).collect();
    known.sort();
    assert_eq!(found, known);
}

/// The first depths of `two_player.perft`, worked out from the rules. Seat 1 holds the only
/// dealt double, 3-3, and must lead it: 1 sequence. Seat 0 holds two tiles with a 3 (3-1 and
/// 6-3) and the spinner's two line sides are open (its sprouts wait): 2 x 2 = 4. Then seat 1
/// (5-0 4-2 3-0 1-0 3-2 5-2) answers a 3-1 (on either side) with 1-0 on the 1 or 3-0 or 3-2 on
/// the other side, 3 ways each, and a 6-3 with 3-0 or 3-2 on the open 3 (nothing takes the 6),
/// 2 ways each: 3 + 3 + 2 + 2 = 10.
#[test]
fn two_player_small_depths_by_hand() {
    let f = read(FILES[0]);
    let s = &f.state;
    assert_eq!(perft(s, 1), 1);
    assert_eq!(perft(s, 2), 4);
    assert_eq!(perft(s, 3), 10);
}

/// A sequence that ends the hand counts once: from a finished hand, every depth counts 1.
#[test]
fn finished_hands_count_once() {
    let f = read(FILES[0]);
    let mut s = f.state.clone();
    while !s.is_hand_over() {
        let a = s.legal_actions()[0];
        s.apply(a).unwrap();
    }
    for depth in [0, 1, 5] {
        assert_eq!(perft(&s, depth), 1);
    }
}
