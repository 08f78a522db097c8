//! The engine's view of a seat, rebuilt from what the server's person websocket sends that
//! seat (a [`TableView`]) and nothing else: what a program needs to choose a move with one of
//! the built-in players. `fiveup connect` (an outside engine as a bot) and the load
//! generator's fair-play mode (built-in players as people) both choose from it, and both ask
//! it when their seat's seed and its decisions are due.

use fiveup_engine::{
    BySide, Entry, FastRng, HandStart, LeadKind, Phase, Seat, SeatKnowledge, TileSet, View,
};
use fiveup_protocol::{TableStatus, TableView};

/// The hand for which the seat should send its seed now, if any: the table is dealing, the
/// server's seed is not yet opened, and the seat has neither contributed nor sent a seed for
/// that hand (`seeded`: the hand it last sent one for).
#[must_use]
pub fn seed_due(v: &TableView, seeded: Option<u16>) -> Option<u16> {
    let you = v.you?;
    if v.table.status != TableStatus::Dealing || v.seed_sent {
        return None;
    }
    let p = v.proof.as_ref()?;
    (p.server_seed.is_none() && !p.contributed.contains(&you) && seeded != Some(p.hand))
        .then_some(p.hand)
}

/// Whether the seat is to choose an action at this view: the hand is in play, it is the
/// seat's turn with legal actions, and it has not already decided at this version
/// (`decided`: the version it last decided at).
#[must_use]
pub fn decision_due(v: &TableView, decided: Option<u64>) -> bool {
    v.table.status == TableStatus::Playing
        && v.you.is_some()
        && v.to_move == v.you
        && !v.legal.is_empty()
        && decided != Some(v.table.version)
}

/// The engine's view of the seat: the hand's start, the seat's tiles and the hand's history,
/// replayed by the rules library into a state consistent with them
/// ([`SeatKnowledge::rebuild`]), of which the seat's view is taken. `start` is the hand's
/// start when the caller knows it exactly; without it, it is worked out with [`start_of`].
pub fn engine_view(v: &TableView, start: Option<HandStart>) -> Result<View, String> {
    let you = v.you.ok_or("not seated")?;
    let rules = v.table.rules;
    let knowledge = SeatKnowledge {
        rules,
        seat: Seat(you),
        start: start.map_or_else(|| start_of(v), Ok)?,
        leader: Seat(v.leader.ok_or("no leader")?),
        lead_kind: v.lead_kind.ok_or("no lead kind")?,
        shown: v.shown_tile,
        hand: v.my_tiles.iter().copied().collect::<TileSet>(),
        history: v.history.clone(),
        phase: v.phase.ok_or("no phase")?,
        to_move: Seat(v.to_move.ok_or("nobody to move")?),
    };
    let mut rng = FastRng::new(v.table.version ^ 0x5eed);
    let state = knowledge.rebuild(&mut rng).map_err(|e| e.to_string())?;
    Ok(state.view(Seat(you)))
}

/// How the hand a view shows started: the scores before it are the scores now (before the
/// award, when the hand is over) less what the hand's history scored; the lead rule follows
/// from how the leader was chosen.
pub fn start_of(v: &TableView) -> Result<HandStart, String> {
    let rules = v.table.rules;
    let leader = Seat(v.leader.ok_or("no leader")?);
    let lead_kind = v.lead_kind.ok_or("no lead kind")?;
    let over = matches!(v.phase, Some(Phase::HandOver | Phase::GameOver));
    let mut scores = BySide::<i32>::default();
    let (now, award, hand_no) = match (&v.last_hand, over) {
        (Some(o), true) => (&o.scores, &o.scored[..], o.hand),
        _ => (&v.scores, &[][..], v.hand_no),
    };
    for (i, s) in now.iter().enumerate().take(scores.0.len()) {
        scores.0[i] = *s - award.get(i).copied().unwrap_or(0);
    }
    for e in &v.history {
        let pts = match *e {
            Entry::Play { points, .. }
            | Entry::Claim { points, .. }
            | Entry::Muggins { points, .. } => i32::from(points),
            _ => 0,
        };
        scores.0[rules.side_of(e.seat()).idx()] -= pts;
    }
    let free = lead_kind == LeadKind::Free;
    Ok(HandStart {
        hand_no: hand_no.max(1),
        scores,
        highest_double: !free,
        free_leader: if free { leader } else { Seat(0) },
    })
}
