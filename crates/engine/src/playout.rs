//! Random playouts and move-path counting ("perft"), used by benchmarks and tests.

use crate::deal::{Deal, FastRng};
use crate::rules::Rules;
use crate::state::{HandStart, Phase, SetupError, State};
use crate::tile::{Tile, TILE_COUNT};

/// Deal a random hand (redealing until a double is dealt when the rules require it) and play
/// it out with uniformly random legal actions. Returns the finished state.
pub fn random_hand(rules: Rules, rng: &mut FastRng) -> Result<State, SetupError> {
    rules.validate()?;
    let mut order: [Tile; TILE_COUNT] =
        std::array::from_fn(|i| Tile::from_index(i as u8).expect("index below 28"));
    rng.shuffle(&mut order);
    let deal = Deal {
        order,
        players: rules.players,
        hand_size: rules.hand_size,
    };
    let mut state = match State::with_start(rules, deal, HandStart::first()) {
        Ok(s) => s,
        Err(SetupError::NoDouble) => {
            let mut s = State::with_start(rules, deal, HandStart::free(crate::Seat(0)))?;
            s.redeal_first_hand(rng);
            s
        }
        Err(e) => return Err(e),
    };
    play_out(&mut state, rng);
    Ok(state)
}

/// Reuse `state` for a new random first hand under its own rules (redealing until a double
/// is dealt when the rules require it) and play it out with uniformly random legal actions.
/// The allocation-free loop behind `fiveup bench`.
#[inline]
pub fn random_hand_in_place(state: &mut State, rng: &mut FastRng) {
    state.redeal_first_hand(rng);
    play_out(state, rng);
}

/// Play the current hand to its end with uniformly random legal actions.
#[inline]
pub fn play_out(state: &mut State, rng: &mut FastRng) {
    while matches!(state.phase(), Phase::Play | Phase::Claim) {
        let a = state.random_action(rng);
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
