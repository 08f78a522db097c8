//! Random playouts and move-path counting ("perft"), used by benchmarks and tests.

use crate::deal::{shuffle, Deal, FastRng};
use crate::rules::Rules;
use crate::state::{ActionList, HandStart, Phase, SetupError, State};
use crate::tile::{Tile, TILE_COUNT};

/// Deal a random hand (redealing until a double is dealt when the rules require it) and play
/// it out with uniformly random legal actions. Returns the finished state.
pub fn random_hand(rules: Rules, rng: &mut FastRng) -> Result<State, SetupError> {
    let mut order: [Tile; TILE_COUNT] =
        std::array::from_fn(|i| Tile::from_index(i as u8).expect("index below 28"));
    let mut state = loop {
        shuffle(&mut order, |n| rng.below(n));
        let deal = Deal {
            order,
            players: rules.players,
            hand_size: rules.hand_size,
        };
        match State::with_start(rules, deal, HandStart::first()) {
            Ok(s) => break s,
            Err(SetupError::NoDouble) => continue,
            Err(e) => return Err(e),
        }
    };
    play_out(&mut state, rng);
    Ok(state)
}

/// Play the current hand to its end with uniformly random legal actions.
#[inline]
pub fn play_out(state: &mut State, rng: &mut FastRng) {
    let mut list = ActionList::new();
    while matches!(state.phase(), Phase::Play | Phase::Claim) {
        state.legal_actions_into(&mut list);
        let a = list[rng.below(list.len() as u32) as usize];
        state.apply_unchecked(a);
    }
}

/// Count the action sequences of length `depth` from `state` (sequences that end the hand
/// early count once, at the point they end).
#[must_use]
pub fn perft(state: &State, depth: u32) -> u64 {
    if depth == 0 || !matches!(state.phase(), Phase::Play | Phase::Claim) {
        return 1;
    }
    let list = state.legal_actions();
    if depth == 1 {
        return list.len() as u64;
    }
    let mut total = 0;
    for &a in &list {
        let mut s = state.clone();
        s.apply_unchecked(a);
        total += perft(&s, depth - 1);
    }
    total
}
