//! The versioned shuffle: published test vectors and the uniformity of the dealt order.

mod common;

use common::{chi_square_critical, chi_square_uniform};
use fiveup_engine::{Deal, Preset, Rules, Seed, Tile, SHUFFLE_VERSION};

fn vectors() -> Vec<(Seed, u32, Vec<Tile>)> {
    vectors_of("shuffle_v1.txt", 28)
}

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("shuffle vectors")
}

fn vectors_of(name: &str, n: usize) -> Vec<(Seed, u32, Vec<Tile>)> {
    let text = data(name);
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(words.len(), n + 2, "seed, hand and {n} tiles: {l}");
            let seed = Seed::parse(words[0]).expect("64 hex digits");
            assert_eq!(seed.to_hex(), words[0]);
            let hand = words[1].parse().expect("hand number");
            let tiles = words[2..]
                .iter()
                .map(|w| w.parse().expect("tile"))
                .collect();
            (seed, hand, tiles)
        })
        .collect()
}

/// `Deal::from_seed` without the redeal rule reproduces every published vector, for any
/// player count (the order does not depend on how it is dealt out).
#[test]
fn shuffle_v1_reproduces_the_test_vectors() {
    assert_eq!(SHUFFLE_VERSION, 1);
    let v = vectors();
    assert!(v.len() >= 5);
    for n in [2, 3, 4] {
        let rules = Rules::preset(Preset::FiveUp, n);
        for (seed, hand, tiles) in &v {
            let deal = Deal::from_seed(seed, *hand, &rules, false);
            assert_eq!(deal.tiles().to_vec(), *tiles, "seed {seed} hand {hand}");
        }
    }
}

/// The same shuffle over the 55 tiles of a double-nine set and the 91 of a double-twelve set
/// reproduces its own published vectors.
#[test]
fn shuffle_v1_of_the_bigger_sets_reproduces_the_test_vectors() {
    for (name, set, n) in [
        ("shuffle_v1_double_nine.txt", 9u8, 55usize),
        ("shuffle_v1_double_twelve.txt", 12, 91),
    ] {
        let v = vectors_of(name, n);
        assert!(v.len() >= 5);
        let rules = Rules::parse(&format!("set={set} players=4")).unwrap();
        for (seed, hand, tiles) in &v {
            let deal = Deal::from_seed(seed, *hand, &rules, false);
            assert_eq!(
                deal.tiles().to_vec(),
                *tiles,
                "{name}: seed {seed} hand {hand}"
            );
        }
    }
}

/// Under `first-lead=lot` the word after the shuffle draws the leader; the deal itself is the
/// same as without the lot.
#[test]
fn the_lot_reproduces_its_test_vectors() {
    let text = data("shuffle_v1_lot.txt");
    let mut count = 0;
    for l in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let w: Vec<&str> = l.split_whitespace().collect();
        let seed = Seed::parse(w[0]).unwrap();
        let hand: u32 = w[1].parse().unwrap();
        let rules = Rules::parse(&format!("set={} players={} first-lead=lot", w[2], w[3])).unwrap();
        let deal = Deal::from_seed(&seed, hand, &rules, true);
        assert_eq!(deal.lot.0.to_string(), w[4], "{l}");
        let mut plain = rules;
        plain.first_lead = fiveup_engine::FirstLead::HighestDouble;
        plain.no_double = fiveup_engine::NoDouble::HeaviestTile;
        assert_eq!(
            deal.tiles(),
            Deal::from_seed(&seed, hand, &plain, true).tiles()
        );
        count += 1;
    }
    assert!(count >= 20);
}

/// The vectors include the seeds 0, 1 and 42 given as numbers.
#[test]
fn vectors_cover_the_small_seeds() {
    let seeds: Vec<Seed> = vectors().into_iter().map(|(s, _, _)| s).collect();
    for n in [0, 1, 42] {
        assert!(seeds.contains(&Seed::from_u64(n)), "seed {n}");
    }
}

/// Over 28,000 seeds the tile dealt first, and the tile at the bottom of the boneyard, are
/// each uniform over the 28 tiles (chi-square test at p = 0.001).
#[test]
fn dealt_positions_are_uniform_over_seeds() {
    let rules = Rules::default();
    let mut first = [0u64; 28];
    let mut last = [0u64; 28];
    for n in 0..28_000u64 {
        let deal = Deal::from_seed(&Seed::from_u64(n), 1, &rules, false);
        first[deal.order[0].index() as usize] += 1;
        last[deal.order[27].index() as usize] += 1;
    }
    let critical = chi_square_critical(27, 0.001);
    for (name, counts) in [("first", first), ("last", last)] {
        let stat = chi_square_uniform(&counts);
        assert!(
            stat < critical,
            "{name} position: chi-square {stat:.1} over {critical:.1}"
        );
    }
}
