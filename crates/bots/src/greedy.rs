//! `greedy`: the most points now.
//!
//! Tie-breaks, in order: a play before a draw or pass; the heavier tile (fewer pips left to be
//! caught with); a double before a non-double (doubles are harder to place late); then the
//! lowest tile and arm, so the choice is deterministic. Under manual scoring it always claims
//! the right points and calls Muggins whenever it can.

use fiveup_engine::{Action, ActionList, Layout, Rules, State, View};

use crate::Player;

/// The greedy player.
#[derive(Debug, Clone, Copy, Default)]
pub struct Greedy;

/// Points `a` scores at once on `layout` (0 for anything but a play).
fn points(rules: &Rules, layout: &Layout, a: Action) -> u16 {
    match a {
        Action::Play { tile, arm } => {
            let mut l = *layout;
            match arm {
                None => l.lay_lead(tile, rules),
                Some(arm) => l.lay(tile, arm, rules),
            }
            State::count_points(rules, l.count())
        }
        _ => 0,
    }
}

/// The sort key of an action: larger is better.
fn key(rules: &Rules, layout: &Layout, a: Action, muggins: u16) -> (u16, u8, u8, u8, u8, i16) {
    match a {
        Action::Muggins => (muggins, 2, 0, 0, 0, 0),
        Action::Claim(n) => (n, 2, 0, 0, 0, 0),
        Action::Play { tile, arm } => (
            points(rules, layout, a),
            1,
            tile.pips(),
            u8::from(tile.is_double()),
            u8::MAX - tile.index(),
            -i16::from(arm.map_or(0, |x| x.0)),
        ),
        Action::Draw => (0, 0, 1, 0, 0, 0),
        Action::Pass => (0, 0, 0, 0, 0, 0),
    }
}

/// The greedy choice among `legal` on `layout`; `muggins` is the value of a Muggins call.
fn best(rules: &Rules, layout: &Layout, legal: &ActionList, muggins: u16) -> Action {
    *legal
        .iter()
        .max_by_key(|a| key(rules, layout, **a, muggins))
        .expect("the player to move has a legal action")
}

/// The greedy action of the seat to move in `state` (used as a fast rollout policy in
/// sampled worlds, where the full state is the sample's own).
#[must_use]
pub fn greedy_action(state: &State) -> Action {
    let legal = state.legal_actions();
    best(
        state.rules(),
        state.layout(),
        &legal,
        state.muggins_available(),
    )
}

impl Player for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, view: &View) -> Action {
        let legal = view.legal_actions();
        let muggins = view.muggins_available();
        best(view.rules(), view.layout(), &legal, muggins)
    }
}
