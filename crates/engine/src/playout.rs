//! Random playouts and move-path counting ("perft"), used by benchmarks and tests.

use crate::deal::{Deal, FastRng};
use crate::rules::Rules;
use crate::state::{HandStart, Phase, SetupError, State};

/// Deal a random hand (redealing until a double is dealt when the rules require it) and play
/// it out with uniformly random legal actions. Returns the finished state.
pub fn random_hand(rules: Rules, rng: &mut FastRng) -> Result<State, SetupError> {
    rules.validate()?;
    let n = rules.tile_count();
    let order = rng.tile_order(n);
    let deal = Deal {
        order,
        tiles: n as u8,
        players: rules.players,
        hand_size: rules.hand_size,
        lot: crate::Seat(0),
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
    if state.rules().is_standard_profile() {
        state.redeal_first_hand_std(rng);
        play_out_in::<true>(state, rng);
    } else {
        state.redeal_first_hand(rng);
        play_out_in::<false>(state, rng);
    }
}

/// Play the current hand to its end with uniformly random legal actions.
#[inline]
pub fn play_out(state: &mut State, rng: &mut FastRng) {
    if state.rules().is_standard_profile() {
        play_out_in::<true>(state, rng);
    } else {
        play_out_in::<false>(state, rng);
    }
}

/// The playout loop, with the rules' checks folded away under the standard profile.
#[inline(always)]
fn play_out_in<const STD: bool>(state: &mut State, rng: &mut FastRng) {
    while matches!(state.phase(), Phase::Play | Phase::Claim) {
        let a = state.random_action_in::<STD>(rng);
        state.apply_in::<STD>(a);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    /// The loop specialised for the standard profile plays exactly the game the general loop
    /// plays: same actions, same log, same scores, same result, for every generator state.
    #[test]
    fn standard_profile_loop_matches_the_general_loop() {
        let mut presets = 0;
        let leads = [
            crate::FirstLead::HighestDouble,
            crate::FirstLead::HighestDoubleAny,
            crate::FirstLead::Lot,
        ];
        for (preset, first_lead) in Preset::ALL.into_iter().flat_map(|p| leads.map(|l| (p, l))) {
            let mut rules = Rules::preset(preset, 2);
            rules.first_lead = first_lead;
            if !rules.is_standard_profile() || rules.validate().is_err() {
                continue;
            }
            presets += 1;
            let mut rng = FastRng::new(17);
            let mut state = random_hand(rules, &mut rng).expect("valid rules");
            for i in 0..3000u64 {
                state.redeal_first_hand(&mut rng);
                let mut a = state.clone();
                let mut b = state.clone();
                let mut ra = FastRng::new(i);
                let mut rb = FastRng::new(i);
                play_out_in::<true>(&mut a, &mut ra);
                play_out_in::<false>(&mut b, &mut rb);
                let at = format!("{preset:?} {first_lead:?} hand {i}");
                assert_eq!(a.log(), b.log(), "{at}");
                assert_eq!(a.scores(), b.scores(), "{at}");
                assert_eq!(a.result(), b.result(), "{at}");
                assert_eq!(a.phase(), b.phase(), "{at}");
                assert_eq!(ra.next_u64(), rb.next_u64(), "{at}");
            }
        }
        assert!(
            presets >= 9,
            "several presets use the standard profile, under each lead rule"
        );
    }

    #[test]
    fn the_standard_profile_is_what_it_says() {
        let r = Rules::default();
        assert!(r.is_standard_profile());
        for opts in [
            "players=3",
            "manual=true",
            "exact-target=true",
            "voluntary-draw=true",
        ] {
            let mut x = r;
            let (k, v) = opts.split_once('=').unwrap();
            x.set_option(k, v).unwrap();
            assert!(!x.is_standard_profile(), "{opts}");
        }
    }
}
