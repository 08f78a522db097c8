//! The inference from plays, shared by the search ([`crate::pimc`]) and the expert built on
//! it: how likely another seat's plays are under a model of that seat (club's scores, or a
//! rollout policy's values, softened by a temperature in points and mixed with a uniform
//! choice), and so how much a sampled world weighs given the plays made in it.
//!
//! The search weights its worlds with [`world_weight`] when `infer` is set, and its chance
//! node over replies (`reply=K`) uses [`play_chances`]. This module imports nothing from the
//! players built on the search, so the search depends on it and not on them.

use fiveup_engine::{Action, Entry, Seat, State, View};

use crate::learned::Policy;

/// The default temperature of the inference, in points.
pub const DEFAULT_INFER: u32 = 3;

/// The share of a play's chance that is uniform over the legal plays, whatever the scores.
pub const FLOOR: f64 = 0.05;

/// How likely the plays of every seat but `viewer` were in `world`, under the club model at
/// temperature `temp`: the product of each play's chance. 1 when the hand cannot be replayed
/// (never for a sampled world).
#[must_use]
pub fn world_weight(world: &State, viewer: Seat, temp: f64) -> f64 {
    world_weight_with(world, viewer, temp, FLOOR)
}

/// [`world_weight`] with another uniform share than [`FLOOR`].
#[must_use]
pub fn world_weight_with(world: &State, viewer: Seat, temp: f64, floor: f64) -> f64 {
    world_weight_model(world, viewer, temp, floor, None)
}

/// [`world_weight_with`] under another model of the other seats: the values a rollout policy
/// gives their plays ([`crate::learned::Policy`]) instead of club's scores (`None`).
#[must_use]
pub fn world_weight_model(
    world: &State,
    viewer: Seat,
    temp: f64,
    floor: f64,
    model: Option<&Policy>,
) -> f64 {
    let Ok(mut s) = State::with_start(*world.rules(), *world.deal(), *world.start()) else {
        return 1.0;
    };
    let mut log_p = 0.0;
    let mut chances: Vec<(Action, f64)> = Vec::new();
    for e in world.log() {
        let Some(a) = e.action() else { continue };
        if let Entry::Play { seat, .. } = *e {
            if seat != viewer && s.to_move() == seat {
                play_chances(&s.view(seat), model, temp, &mut chances);
                if chances.len() > 1 {
                    let mut z = 0.0;
                    let mut mine = 0.0;
                    for &(b, q) in &chances {
                        z += q;
                        if b == a {
                            mine = q;
                        }
                    }
                    let p = (1.0 - floor) * mine / z + floor / chances.len() as f64;
                    log_p += p.ln();
                }
            }
        }
        if s.apply(a).is_err() {
            return 1.0;
        }
    }
    log_p.max(-700.0).exp()
}

/// How likely the seat to move in `view` is to make each of its plays, unnormalised, under the
/// club model (`None`) or a rollout policy's values: each play's `exp((value - best) / temp)`,
/// in the legal order, written into `out`. The model of another seat shared by the inference
/// ([`world_weight_model`]) and the chance node over replies (`reply=K`).
pub(crate) fn play_chances(
    view: &View,
    model: Option<&Policy>,
    temp: f64,
    out: &mut Vec<(Action, f64)>,
) {
    match model {
        None => crate::club::play_scores(view, out),
        Some(p) => p.play_values(view, out),
    }
    let max = out.iter().map(|x| x.1).fold(f64::MIN, f64::max);
    for x in out.iter_mut() {
        x.1 = ((x.1 - max) / temp).exp();
    }
}
