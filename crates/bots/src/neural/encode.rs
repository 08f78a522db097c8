//! The position encoding: what the networks read, as sparse vectors of `(index, value)`.
//!
//! One code encodes every set (double-six to double-twelve: 91 tile slots) and every seat count
//! (2 to 8: seats and sides are numbered from the viewer, the viewer first).
//!
//! - The **context** ([`CTX_LEN`] slots) is built from a [`View`] alone: the viewer's tiles, the
//!   tiles on the layout, the open ends (how many show each pip), the count, every seat's tile
//!   count, the suits each seat showed it lacks (a forced draw or a pass on those ends) and its
//!   draws and passes, every side's score and the target, the boneyard, the rules (set, seats,
//!   partnerships, drawing) and how many unseen tiles carry each pip.
//! - An **action** ([`ACTION_LEN`] slots after the context) adds its kind, its tile, the pip it
//!   is laid on and the pip it leaves open, the points it scores, and the count and open ends
//!   after it. The action-value network reads context and action ([`Q_LEN`]).
//! - The **critic** ([`V_LEN`]) reads a full state from one seat's side: that seat's context
//!   (from its view) and the tiles of every other hand and of the boneyard. It exists for
//!   training ("perfect training, imperfect execution") and for the search, which applies it
//!   to the worlds it sampled from its own view; a player never hands it a real hidden hand.

use fiveup_engine::{Action, Entry, Layout, Phase, Seat, Side, State, Tile, TileSet, View};

/// Tile slots: every tile of the double-twelve set (the smaller sets use the first ones).
pub const TILES: usize = 91;
/// Pip slots: 0 to 12.
pub const PIPS: usize = 13;
/// Seat slots.
pub const SEATS: usize = 8;

const HAND: usize = 0;
const LAID: usize = HAND + TILES;
const ENDS: usize = LAID + TILES;
const COUNT: usize = ENDS + PIPS;
/// Per seat: present, tiles held, the suits it showed it lacks, draws, passes.
const SEAT_BLOCK: usize = 2 + PIPS + 2;
const SEAT_BASE: usize = COUNT + 4;
const SIDE_BASE: usize = SEAT_BASE + SEATS * SEAT_BLOCK;
const MISC: usize = SIDE_BASE + SEATS + 1;
const UNSEEN: usize = MISC + 15;
/// Slots of the context.
pub const CTX_LEN: usize = UNSEEN + PIPS;

const KIND: usize = CTX_LEN;
const A_TILE: usize = KIND + 6;
const A_ON: usize = A_TILE + TILES;
const A_NEW: usize = A_ON + PIPS;
const A_POINTS: usize = A_NEW + PIPS;
const A_ENDS: usize = A_POINTS + 2;
/// Slots of an action.
pub const ACTION_LEN: usize = A_ENDS + PIPS - CTX_LEN;
/// Slots read by the action-value network: context and action.
pub const Q_LEN: usize = CTX_LEN + ACTION_LEN;

const OTHER_HANDS: usize = CTX_LEN;
const BONEYARD: usize = OTHER_HANDS + (SEATS - 1) * TILES;
/// Slots read by the critic: context, every other hand, the boneyard.
pub const V_LEN: usize = BONEYARD + TILES;

/// A sparse input: the slots that are not zero.
pub type Sparse = Vec<(u16, f32)>;

fn put(x: &mut Sparse, i: usize, v: f32) {
    if v != 0.0 {
        x.push((i as u16, v));
    }
}

fn tiles(x: &mut Sparse, base: usize, set: TileSet) {
    for t in set.iter() {
        x.push(((base + t.index() as usize) as u16, 1.0));
    }
}

fn ends(x: &mut Sparse, base: usize, l: &Layout) {
    for (p, &n) in l.open_pip_counts().iter().take(PIPS).enumerate() {
        put(x, base + p, f32::from(n) / 2.0);
    }
}

/// The seat `r` places after `viewer` (0: the viewer).
fn relative(viewer: Seat, seat: Seat, players: u8) -> usize {
    usize::from((seat.0 + players - viewer.0) % players)
}

/// The context of `view` (see the module's notes), appended to `x`.
pub fn context(view: &View, x: &mut Sparse) {
    let rules = view.rules();
    let players = rules.players;
    let me = view.seat();
    tiles(x, HAND, view.hand());
    let layout = view.layout();
    tiles(x, LAID, layout.tiles());
    ends(x, ENDS, layout);
    let count = layout.count();
    put(x, COUNT, f32::from(count) / 20.0);
    put(
        x,
        COUNT + 1,
        f32::from(u8::from(count > 0 && count % 5 == 0)),
    );
    put(x, COUNT + 2, layout.open_mask().count_ones() as f32 / 4.0);
    put(x, COUNT + 3, f32::from(u8::from(layout.is_empty())));
    // What each seat showed of its hand.
    let mut lacks = [0u16; SEATS];
    let mut draws = [0u8; SEATS];
    let mut passes = [0u8; SEATS];
    for e in view.history() {
        match *e {
            Entry::Draw {
                seat, ends, forced, ..
            } => {
                let r = relative(me, seat, players);
                draws[r] = draws[r].saturating_add(1);
                if forced {
                    lacks[r] |= ends.0;
                }
            }
            Entry::Pass { seat, ends } => {
                let r = relative(me, seat, players);
                passes[r] = passes[r].saturating_add(1);
                lacks[r] |= ends.0;
            }
            _ => {}
        }
    }
    for p in 0..players {
        let r = relative(me, Seat(p), players);
        let b = SEAT_BASE + r * SEAT_BLOCK;
        put(x, b, 1.0);
        put(x, b + 1, f32::from(view.hand_sizes()[Seat(p)]) / 10.0);
        for q in 0..PIPS {
            if lacks[r] & (1 << q) != 0 {
                put(x, b + 2 + q, 1.0);
            }
        }
        put(x, b + 2 + PIPS, f32::from(draws[r]) / 5.0);
        put(x, b + 3 + PIPS, f32::from(passes[r]) / 3.0);
    }
    let sides = rules.sides();
    let target = f32::from(rules.target.max(1));
    let mine = view.side();
    let mut best_other = i32::MIN;
    for s in 0..sides {
        let score = view.scores()[Side(s)];
        let r = usize::from((s + sides - mine.0) % sides);
        put(x, SIDE_BASE + r, score as f32 / target);
        if Side(s) != mine {
            best_other = best_other.max(score);
        }
    }
    put(
        x,
        SIDE_BASE + SEATS,
        (view.scores()[mine] - best_other) as f32 / target,
    );
    let all = rules.tiles();
    put(
        x,
        MISC,
        f32::from(view.boneyard_len()) / all.len().max(1) as f32,
    );
    put(x, MISC + 1, f32::from(u8::from(view.can_draw())));
    put(x, MISC + 2, target / 250.0);
    let set = match rules.set {
        6 => 0,
        9 => 1,
        _ => 2,
    };
    put(x, MISC + 3 + set, 1.0);
    put(x, MISC + 6 + usize::from(players.clamp(2, 8) - 2), 1.0);
    put(x, MISC + 13, f32::from(u8::from(rules.partnerships)));
    put(x, MISC + 14, f32::from(u8::from(rules.drawing)));
    let unseen = view.unseen();
    for p in 0..PIPS {
        let n = unseen.and(Tile::suit(p as u8)).len();
        put(x, UNSEEN + p, n as f32 / 13.0);
    }
}

/// The slots of `a` for the viewer of `view`, appended to `x` (after a context).
pub fn action(view: &View, a: Action, x: &mut Sparse) {
    let rules = view.rules();
    match a {
        Action::Play { tile, arm } => {
            let mut l = *view.layout();
            match arm {
                None => {
                    put(x, KIND, 1.0);
                    l.lay_lead(tile, rules);
                }
                Some(arm) => {
                    put(x, KIND + 1, 1.0);
                    let on = view.layout().arm_pip(arm);
                    put(x, A_ON + usize::from(on).min(PIPS - 1), 1.0);
                    put(x, A_NEW + usize::from(tile.other(on)).min(PIPS - 1), 1.0);
                    l.lay(tile, arm, rules);
                }
            }
            put(x, A_TILE + tile.index() as usize, 1.0);
            put(x, A_POINTS, f32::from(view.points_of(a)) / 20.0);
            put(x, A_POINTS + 1, f32::from(l.count()) / 20.0);
            ends(x, A_ENDS, &l);
        }
        Action::Draw => put(x, KIND + 2, 1.0),
        Action::Pass => put(x, KIND + 3, 1.0),
        Action::Claim(n) => {
            put(x, KIND + 4, 1.0);
            put(x, A_POINTS, f32::from(n) / 20.0);
        }
        Action::Muggins => {
            put(x, KIND + 5, 1.0);
            put(x, A_POINTS, f32::from(view.muggins_available()) / 20.0);
        }
    }
}

/// The critic's input for `state` from `seat`'s side: the context of `seat`'s view, then every
/// other hand (seats numbered from `seat`) and the boneyard.
pub fn world(state: &State, seat: Seat, x: &mut Sparse) {
    let view = state.view(seat);
    context(&view, x);
    let players = state.rules().players;
    for p in 0..players {
        let r = relative(seat, Seat(p), players);
        if r > 0 {
            tiles(x, OTHER_HANDS + (r - 1) * TILES, state.hand(Seat(p)));
        }
    }
    let mut yard = TileSet::default();
    for &t in state.boneyard() {
        yard.insert(t);
    }
    tiles(x, BONEYARD, yard);
}

/// Whether the seat to move in `view` chooses here (a play, a draw or a pass), rather than
/// making a claim or a Muggins call, which have one right answer.
#[must_use]
pub fn is_choice(view: &View) -> bool {
    view.phase() == Phase::Play && view.muggins_available() == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use fiveup_engine::{FastRng, Preset, Rules, Seed};

    fn dense(x: &Sparse, n: usize) -> Vec<f32> {
        let mut d = vec![0.0; n];
        for &(i, v) in x {
            assert!((i as usize) < n, "slot {i} beyond {n}");
            assert!(v.is_finite());
            d[i as usize] += v;
        }
        d
    }

    /// Every preset at every seat count it allows, played at random for a while.
    fn positions() -> Vec<State> {
        let mut out = Vec::new();
        let mut rng = FastRng::new(9);
        for (preset, set) in Preset::ALL
            .into_iter()
            .flat_map(|p| [6, 9, 12].map(|set| (p, set)))
        {
            for players in 2..=8u8 {
                let rules = Rules::preset_with_set(preset, players, set);
                if rules.validate().is_err() {
                    continue;
                }
                for k in 0..2 {
                    let Ok(mut s) = State::from_seed(rules, &Seed::from_u64(rng.next_u64())) else {
                        continue;
                    };
                    for _ in 0..(6 * k + 1) {
                        if !matches!(s.phase(), Phase::Play | Phase::Claim) {
                            break;
                        }
                        let l = s.legal_actions();
                        let a = l[rng.below(l.len() as u32) as usize];
                        s.apply(a).unwrap();
                    }
                    out.push(s);
                }
            }
        }
        out
    }

    #[test]
    fn slots_are_in_range_for_every_set_and_seat_count() {
        let states = positions();
        let mut seats_seen = std::collections::BTreeSet::new();
        let mut sets_seen = std::collections::BTreeSet::new();
        for s in &states {
            seats_seen.insert(s.rules().players);
            sets_seen.insert(s.rules().set);
            for p in 0..s.rules().players {
                let v = s.view(Seat(p));
                let mut x = Sparse::new();
                context(&v, &mut x);
                dense(&x, CTX_LEN);
                for &a in &v.legal_actions() {
                    let mut y = x.clone();
                    action(&v, a, &mut y);
                    dense(&y, Q_LEN);
                }
                let mut w = Sparse::new();
                world(s, Seat(p), &mut w);
                dense(&w, V_LEN);
            }
        }
        assert_eq!(sets_seen.into_iter().collect::<Vec<_>>(), [6, 9, 12]);
        assert!(
            seats_seen.contains(&2) && seats_seen.contains(&8),
            "{seats_seen:?}"
        );
    }

    #[test]
    fn the_context_is_built_from_the_view_alone() {
        // Two states that differ only in what the viewer cannot see (the other hands and the
        // boneyard, resampled) encode alike for the viewer.
        for s in positions() {
            let seat = s.to_move();
            let view = s.view(seat);
            let mut sm = fiveup_engine::Sampler::new(&view);
            let mut rng = FastRng::new(4);
            let Ok(other) = sm.sample_consistent(&mut rng) else {
                continue;
            };
            let v2 = other.view(seat);
            let (mut a, mut b) = (Sparse::new(), Sparse::new());
            context(&view, &mut a);
            context(&v2, &mut b);
            assert_eq!(a, b, "{:?}", s.rules());
            for &act in &view.legal_actions() {
                let (mut a, mut b) = (Sparse::new(), Sparse::new());
                action(&view, act, &mut a);
                action(&v2, act, &mut b);
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn no_tile_of_another_hand_reaches_the_context() {
        for s in positions() {
            for p in 0..s.rules().players {
                let view = s.view(Seat(p));
                let mut x = Sparse::new();
                context(&view, &mut x);
                let d = dense(&x, CTX_LEN);
                let hand_slots: TileSet = (0..TILES)
                    .filter(|&i| d[HAND + i] != 0.0)
                    .filter_map(|i| Tile::from_index(i as u8))
                    .fold(TileSet::default(), |mut acc, t| {
                        acc.insert(t);
                        acc
                    });
                assert_eq!(hand_slots, s.hand(Seat(p)));
                for q in 0..s.rules().players {
                    if q != p {
                        assert!(s.hand(Seat(q)).and(hand_slots).is_empty());
                    }
                }
            }
        }
    }

    #[test]
    fn the_critic_sees_every_hand_from_its_seat() {
        for s in positions() {
            let players = s.rules().players;
            let seat = Seat(0);
            let mut x = Sparse::new();
            world(&s, seat, &mut x);
            let d = dense(&x, V_LEN);
            for p in 1..players {
                let r = relative(seat, Seat(p), players);
                for t in s.hand(Seat(p)).iter() {
                    assert_eq!(d[OTHER_HANDS + (r - 1) * TILES + t.index() as usize], 1.0);
                }
            }
        }
    }
}
