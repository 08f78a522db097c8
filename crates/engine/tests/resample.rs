//! Resampling: states sampled from a seat's view are uniform over the deals consistent with
//! what that seat has seen, respect what draws and passes revealed, and impossible assumptions
//! are reported.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use common::{chi_square_critical, chi_square_uniform, go, normal_upper_tail, script, state};
use fiveup_engine::{
    Action, Deal, Entry, FastRng, HandStart, NoDouble, Phase, PipSet, Preset, ResampleError, Rules,
    Sampler, Seat, Seed, State, Tile, TileSet, View,
};

/// A deal seen from one seat, up to the order of the other seat's initial hand (which nothing
/// can reveal): that seat's initial hand and the whole boneyard in draw order.
type DealKey = (u128, Vec<Tile>);

fn key(deal: &Deal, other: Seat) -> DealKey {
    (deal.hand(other).0, deal.boneyard().to_vec())
}

/// Every ordered choice of `n` distinct tiles from `pool`.
fn arrangements(pool: &[Tile], n: usize, cur: &mut Vec<Tile>, f: &mut dyn FnMut(&[Tile])) {
    if cur.len() == n {
        f(cur);
        return;
    }
    for &t in pool {
        if !cur.contains(&t) {
            cur.push(t);
            arrangements(pool, n, cur, f);
            cur.pop();
        }
    }
}

/// Brute force, without the sampler: every two-player deal consistent with `viewer`'s view of
/// `s`. The viewer's own initial hand and draws are fixed; every other tile is tried in every
/// boneyard place the viewer did not draw (tiles already laid cannot still be in the
/// boneyard), the rest going to the other seat's initial hand; a deal is consistent when the
/// public history replays through `State::apply` and gives back the same view.
fn consistent_deals(s: &State, viewer: Seat) -> BTreeSet<DealKey> {
    assert_eq!(s.rules().players, 2);
    let other = Seat(1 - viewer.0);
    let rules = *s.rules();
    let view = s.view(viewer);
    let mine = s.deal().hand_slice(viewer).to_vec();
    let mut bone: Vec<Option<Tile>> = vec![None; s.deal().boneyard().len()];
    let mut drawn = 0;
    let mut other_places = Vec::new();
    for e in view.history() {
        if let Entry::Draw { seat, tile, .. } = *e {
            if seat == viewer {
                bone[drawn] = Some(tile.expect("the viewer sees its own draws"));
            } else {
                other_places.push(drawn);
            }
            drawn += 1;
        }
    }
    let undrawn: Vec<usize> = (drawn..bone.len()).collect();
    let known: TileSet = mine.iter().chain(bone.iter().flatten()).copied().collect();
    let free: Vec<Tile> = Tile::all(6).minus(known).iter().collect();
    let unseen: Vec<Tile> = view.unseen().iter().collect();
    let actions: Vec<Action> = view.history().iter().filter_map(Entry::action).collect();
    let mut out = BTreeSet::new();
    arrangements(&unseen, undrawn.len(), &mut Vec::new(), &mut |rest| {
        let pool: Vec<Tile> = free.iter().copied().filter(|t| !rest.contains(t)).collect();
        arrangements(&pool, other_places.len(), &mut Vec::new(), &mut |draws| {
            let mut b = bone.clone();
            for (&place, &t) in other_places.iter().zip(draws) {
                b[place] = Some(t);
            }
            for (&place, &t) in undrawn.iter().zip(rest) {
                b[place] = Some(t);
            }
            let theirs = pool.iter().copied().filter(|t| !draws.contains(t));
            let mut order: Vec<Tile> = Vec::new();
            if viewer.0 == 0 {
                order.extend(&mine);
                order.extend(theirs);
            } else {
                order.extend(theirs);
                order.extend(&mine);
            }
            order.extend(b.iter().map(|t| t.expect("every place filled")));
            let deal = Deal::from_order(&rules, &order).expect("28 distinct tiles");
            let Ok(mut replay) = State::with_start(rules, deal, *s.start()) else {
                return;
            };
            if actions.iter().all(|&a| replay.apply(a).is_ok()) && replay.view(viewer) == view {
                out.insert(key(&deal, other));
            }
        });
    });
    out
}

/// Late in a two-player hand (nine tiles each): seat 1 holds two tiles and has drawn twice,
/// both times because it could not match the ends; four tiles remain in the boneyard; seat 0
/// is to move and views the position.
fn late_position() -> State {
    let r = Rules {
        hand_size: 9,
        ..Rules::default()
    };
    let mut s = state(
        r,
        &[
            "4-2 2-1 4-4 6-0 4-3 5-3 6-5 4-0 1-0",
            "1-1 6-6 4-1 6-3 3-0 3-1 5-5 6-2 6-4",
        ],
        "5-0 6-1 0-0 2-2 5-4 5-1 3-3 2-0 5-2 3-2",
        HandStart::first(),
    );
    script(
        &mut s,
        "6-6 6-5@E 6-4@W 6-0@S 4-1@W 5-3@E 3-0@S 2-1@W 6-2@N 4-2@N 6-3@E 4-0@N 3-1@S 1-0@N \
         1-1@S D D 6-1@N D D 2-2@W D D",
    );
    s
}

#[test]
fn late_position_is_as_described() {
    let s = late_position();
    assert_eq!(s.phase(), Phase::Play);
    assert_eq!(s.to_move(), Seat(0));
    assert_eq!(s.hand(Seat(1)).len(), 2);
    assert_eq!(s.boneyard_len(), 4);
    let forced_draws_by_1 = s
        .log()
        .iter()
        .filter(|e| {
            matches!(
                e,
                Entry::Draw {
                    seat: Seat(1),
                    forced: true,
                    ..
                }
            )
        })
        .count();
    assert_eq!(forced_draws_by_1, 2);
}

/// The exact chi-square upper tail for an even number of degrees of freedom `2k`:
/// `P(X > x) = exp(-x/2) * sum_{i<k} (x/2)^i / i!`.
fn chi_square_tail_even(df: u32, x: f64) -> f64 {
    assert_eq!(df % 2, 0);
    let h = x / 2.0;
    let mut term = 1.0;
    let mut sum = 0.0;
    for i in 0..df / 2 {
        if i > 0 {
            term *= h / f64::from(i);
        }
        sum += term;
    }
    (-h).exp() * sum
}

/// The chi-square helpers: the normal quantile has the asked tail, and the Wilson-Hilferty
/// critical value has an exact upper tail within 10% of 0.001 for the sizes used here.
#[test]
fn chi_square_helpers_are_sound() {
    let z = common::normal_upper_quantile(0.001);
    assert!((normal_upper_tail(z) - 0.001).abs() < 1e-9);
    for df in [26, 100, 142, 200] {
        let tail = chi_square_tail_even(df, chi_square_critical(df, 0.001));
        assert!((tail - 0.001).abs() < 1e-4, "df {df}: tail {tail}");
    }
}

/// Samples are uniform over the consistent deals: 20,000 samples from seat 0's view of the
/// late position fall only on the brute-force list of consistent deals, and their counts pass
/// a chi-square test of uniformity at p = 0.001.
#[test]
fn samples_are_uniform_over_consistent_deals() {
    let s = late_position();
    let view = s.view(Seat(0));
    let deals = consistent_deals(&s, Seat(0));
    assert!(
        deals.contains(&key(s.deal(), Seat(1))),
        "the real deal is consistent"
    );
    assert!(deals.len() >= 20, "{} consistent deals", deals.len());
    let index: BTreeMap<&DealKey, usize> = deals.iter().zip(0..).collect();
    let mut counts = vec![0u64; deals.len()];
    let mut sampler = Sampler::new(&view);
    let mut rng = FastRng::new(20_000);
    for _ in 0..20_000 {
        let sample = sampler
            .sample(&mut rng)
            .expect("the position is consistent");
        let k = key(sample.deal(), Seat(1));
        let i = index
            .get(&k)
            .unwrap_or_else(|| panic!("sampled an inconsistent deal {:?}", sample.deal()));
        counts[*i] += 1;
    }
    assert!(
        counts.iter().all(|&c| c > 0),
        "some consistent deal never sampled"
    );
    let stat = chi_square_uniform(&counts);
    let df = deals.len() as u32 - 1;
    let critical = chi_square_critical(df, 0.001);
    assert!(
        stat < critical,
        "chi-square {stat:.1} over {critical:.1} with {df} degrees of freedom"
    );
}

fn all_pips() -> PipSet {
    PipSet(0b111_1111)
}

fn assert_impossible_promptly(mut sampler: Sampler) {
    let t = Instant::now();
    assert_eq!(
        sampler.sample(&mut FastRng::new(1)).err(),
        Some(ResampleError::Impossible)
    );
    assert_eq!(sampler.count(), Ok(0.0));
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "took {:?}",
        t.elapsed()
    );
}

/// An assumption that no consistent deal satisfies is reported as impossible, promptly: late
/// in a hand (seat 1 holds no tile at all) and early in a four-player hand with most tiles
/// hidden (seat 1 holds only tiles showing no pip below 6: only the 6-6 could qualify).
#[test]
fn impossible_assumptions_are_reported() {
    let s = late_position();
    let mut sampler = Sampler::new(&s.view(Seat(0)));
    sampler.assume_lacks(Seat(1), all_pips());
    assert_impossible_promptly(sampler);

    let mut s = State::from_seed(Rules::preset(Preset::FiveUp, 4), &Seed::from_u64(5)).unwrap();
    let lead = s.legal_actions()[0];
    s.apply(lead).unwrap();
    let viewer = s.leader();
    let victim = viewer.next(4);
    let mut low = PipSet::EMPTY;
    for p in 0..6 {
        low.insert(p);
    }
    let mut sampler = Sampler::new(&s.view(viewer));
    sampler.assume_lacks(victim, low);
    assert_impossible_promptly(sampler);
}

/// A satisfiable assumption holds in every sample, and samples still reproduce the view.
#[test]
fn assumptions_hold_in_samples() {
    let s = State::from_seed(Rules::preset(Preset::FiveUp, 3), &Seed::from_u64(8)).unwrap();
    let mut s = s;
    let lead = s.legal_actions()[0];
    s.apply(lead).unwrap();
    let viewer = s.leader();
    let other = viewer.next(3);
    let view = s.view(viewer);
    let mut fives = PipSet::EMPTY;
    fives.insert(5);
    let mut sampler = Sampler::new(&view);
    sampler.assume_lacks(other, fives);
    let mut rng = FastRng::new(3);
    for _ in 0..300 {
        let sample = sampler.sample(&mut rng).unwrap();
        assert!(sample.hand(other).and(Tile::suit(5)).is_empty());
        assert_eq!(sample.view(viewer), view);
    }
}

/// Replay a sample's deal from its start and check, independently of the sampler, that every
/// forced draw and every pass by a seat other than `viewer` was made with no tile in hand
/// matching the open ends at the time. Returns how many such checks were made.
fn assert_voids_respected(sample: &State, viewer: Seat) -> usize {
    let mut replay = State::with_start(*sample.rules(), *sample.deal(), *sample.start()).unwrap();
    let mut checked = 0;
    for e in sample.log() {
        let void = match *e {
            Entry::Draw {
                seat,
                ends,
                forced: true,
                ..
            }
            | Entry::Pass { seat, ends } => Some((seat, ends)),
            _ => None,
        };
        if let Some((seat, ends)) = void {
            if seat != viewer {
                let held = replay.hand(seat).and(ends.tiles());
                assert!(
                    held.is_empty(),
                    "{seat} held {held} when showing void in {ends}"
                );
                checked += 1;
            }
        }
        if let Some(a) = e.action() {
            replay.apply(a).unwrap();
        }
    }
    checked
}

/// Draws: over positions of random two-, three- and four-player games (with drawing), every
/// sample respects the voids that other seats' forced draws revealed.
#[test]
fn samples_respect_voids_shown_by_draws() {
    let mut checked = 0;
    for (i, (preset, players)) in [
        (Preset::FiveUp, 2),
        (Preset::FiveUp, 3),
        (Preset::FiveUp, 4),
        (Preset::Muggins, 2),
        (Preset::Cross, 3),
        (Preset::FivesAndThrees, 2),
    ]
    .into_iter()
    .enumerate()
    {
        for seed in 0..8u64 {
            let rules = Rules::preset(preset, players);
            let mut s = State::from_seed(rules, &Seed::from_u64(seed * 31 + i as u64)).unwrap();
            let mut rng = FastRng::new(seed);
            // Play until the boneyard runs low (or the hand ends), then view from the seat to
            // move.
            while s.phase() == Phase::Play && s.boneyard_len() > 3 {
                let l = s.legal_actions();
                s.apply(l[rng.below(l.len() as u32) as usize]).unwrap();
            }
            if s.phase() != Phase::Play {
                continue;
            }
            let viewer = s.to_move();
            let view = s.view(viewer);
            let mut sampler = Sampler::new(&view);
            for _ in 0..25 {
                let sample = sampler.sample(&mut rng).unwrap();
                assert_eq!(sample.view(viewer), view);
                checked += assert_voids_respected(&sample, viewer);
            }
        }
    }
    assert!(checked > 100, "only {checked} voids checked");
}

/// Passes: in a three-player block game seat 1 passes on a 6, then on a 4 and a 5; no sample
/// gives seat 1 a 4, 5 or 6 (and seat 2 keeps the tiles it laid).
#[test]
fn samples_respect_voids_shown_by_passes() {
    let mut s = state(
        Rules::parse("block players=3 hand=5").unwrap(),
        &[
            "6-6 6-5 5-0 4-0 3-0",
            "1-1 2-1 3-1 2-2 3-2",
            "6-4 4-1 4-2 4-3 4-4",
        ],
        "",
        HandStart::first(),
    );
    script(&mut s, "6-6 P 6-4@W 6-5@E P 4-1@W");
    assert_eq!(s.to_move(), Seat(0));
    let view = s.view(Seat(0));
    let mut sampler = Sampler::new(&view);
    let mut rng = FastRng::new(11);
    let banned = Tile::suit(4).or(Tile::suit(5)).or(Tile::suit(6));
    for _ in 0..500 {
        let sample = sampler.sample(&mut rng).unwrap();
        assert_eq!(sample.view(Seat(0)), view);
        assert!(sample.hand(Seat(1)).and(banned).is_empty());
        assert_eq!(assert_voids_respected(&sample, Seat(0)), 2);
        let dealt2 = sample.deal().hand(Seat(2));
        assert!(dealt2.contains(Tile::new(6, 4)) && dealt2.contains(Tile::new(4, 1)));
    }
}

// ----- Positions the sampler gets wrong (engine bugs) -----

fn assert_samples_reproduce(view: &View, n: usize) {
    let mut sampler = Sampler::new(view);
    let mut rng = FastRng::new(7);
    for i in 0..n {
        match sampler.sample(&mut rng) {
            Ok(sample) => assert_eq!(
                sample.view(view.seat()),
                *view,
                "sample {i} shows a different view"
            ),
            Err(e) => panic!("sample {i}: {e}"),
        }
    }
}

/// Before the lead of a first hand, every seat knows who must lead and with which double
/// (seat 0, the 6-6); a sample from seat 1's view must keep the 6-6 in seat 0's hand.
#[test]
fn sample_before_the_lead_keeps_the_forced_lead_with_its_holder() {
    let s = state(
        Rules::default(),
        &["6-6 6-0 1-0 2-0 3-0 4-0 5-0", "5-5 1-1 2-1 3-1 4-1 5-1 6-1"],
        "",
        HandStart::first(),
    );
    assert_eq!(s.forced_lead(), Some(Tile::new(6, 6)));
    assert_samples_reproduce(&s.view(Seat(1)), 100);
}

/// No double dealt, draw-until-double option: before the lead, a seat that did not draw the
/// double can still sample (the last lead draw holds the double everyone saw announced).
#[test]
fn sample_before_the_lead_after_drawing_for_a_double() {
    let r = Rules {
        no_double: NoDouble::DrawUntilDouble,
        ..Rules::default()
    };
    let s = state(
        r,
        &["1-0 2-0 3-0 4-0 5-0 6-0 2-1", "3-1 4-1 5-1 6-1 6-5 3-2 4-2"],
        "5-4 4-3 6-4 2-2",
        HandStart::first(),
    );
    assert_eq!(s.to_move(), Seat(1));
    assert_samples_reproduce(&s.view(Seat(0)), 100);
}

/// Voluntary drawing: a seat that drew twice before laying showed that its first drawn tile
/// did not fit (it had to keep drawing) and its second did; samples must replay that.
#[test]
fn sample_respects_keep_drawing_under_voluntary_draws() {
    let r = Rules {
        voluntary_draw: true,
        ..Rules::default()
    };
    let mut s = state(
        r,
        &["6-6 0-0 1-0 2-0 3-0 4-0 5-0", "6-3 1-1 2-1 3-1 4-1 5-1 2-2"],
        "3-2 6-2",
        HandStart::first(),
    );
    script(&mut s, "6-6 D D 6-2@W");
    assert_samples_reproduce(&s.view(Seat(0)), 200);
}

/// Block game: seat 0 passes, so seat 1 must hold a playable tile, or the hand would already
/// be blocked; samples must keep the hand going.
#[test]
fn sample_keeps_an_unfinished_block_game_unblocked() {
    let mut s = state(
        Rules::preset(Preset::Block, 2),
        &["6-0 3-1 2-0 4-1 5-2 1-1 2-1", "6-6 1-0 3-2 4-0 5-1 4-2 4-3"],
        "",
        HandStart::first(),
    );
    script(
        &mut s,
        "6-6 6-0@W 1-0@W 3-1@W 3-2@W 2-0@W 4-0@W 4-1@W 5-1@W 5-2@W 4-2@W P",
    );
    assert_eq!(s.phase(), Phase::Play);
    assert_eq!(s.to_move(), Seat(1));
    assert_samples_reproduce(&s.view(Seat(0)), 200);
}

/// After a hand ends every hand is shown; a sample from the winner's view must show the same
/// tiles left in the loser's hand.
#[test]

fn sample_after_the_hand_keeps_the_revealed_hands() {
    let mut s = state(
        Rules::default(),
        &["6-0 3-1 2-0 4-1 5-2 4-3 4-4", "6-6 1-0 3-2 4-0 5-1 4-2 3-0"],
        "",
        HandStart::first(),
    );
    script(
        &mut s,
        "6-6 6-0@W 1-0@W 3-1@W 3-2@W 2-0@W 4-0@W 4-1@W 5-1@W 5-2@W 4-2@W 4-3@W",
    );
    go(&mut s, "3-0@W");
    assert_eq!(s.phase(), Phase::HandOver);
    assert_samples_reproduce(&s.view(Seat(1)), 100);
}
