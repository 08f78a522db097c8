//! The one projection from a table and a viewer to what that viewer may see. Every message
//! about a table goes through here: snapshots, events, resyncs, spectators, the lobby.

use fiveup_engine::{Entry, LayoutTree, Seat, Tile};
use fiveup_protocol::{EventView, HandProof, Invite, LegalAction, OpenEnd, TableInfo, TableView};

use crate::table::{CoreEvent, SeatSetup, TableCore};

/// Who is looking.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Viewer {
    /// The viewer's seat (`None`: spectator).
    pub seat: Option<u8>,
    /// The viewer's user id, if logged in.
    pub user: Option<i64>,
}

impl Viewer {
    /// A spectator without an account.
    pub const ANONYMOUS: Viewer = Viewer {
        seat: None,
        user: None,
    };
}

/// The table as listed, for this viewer (the creator also sees the invitation links).
#[must_use]
pub fn table_info(core: &TableCore, viewer: Viewer) -> TableInfo {
    let is_creator =
        viewer.user.is_some() && core.cfg.creator.as_ref().map(|c| c.id) == viewer.user;
    let invites = if is_creator {
        core.cfg
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s {
                SeatSetup::Invite { token } => Some(Invite {
                    seat: i as u8,
                    token: token.clone(),
                    path: format!("/table/{}?invite={token}", core.cfg.id),
                }),
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    TableInfo {
        id: core.cfg.id.clone(),
        version: core.version,
        status: core.status,
        rules: core.cfg.rules,
        options: core.cfg.rules.to_options_string(),
        seats: (0..core.players()).map(|s| core.seat_info(s)).collect(),
        creator: core.cfg.creator.clone(),
        unlisted: core.cfg.unlisted,
        hand_no: core.hand_no(),
        scores: core.scores(),
        created_at: core.cfg.created_at,
        invites,
        your_seat: viewer.user.and_then(|u| core.seat_of(u)),
        hints_allowed: core.cfg.hints,
        counts: core.counts(),
        tournament: core.cfg.tournament.as_ref().and_then(|t| t.event.clone()),
        correspondence: core.cfg.correspondence.map(|c| c.spec()),
    }
}

/// A history entry as `seat` (or a spectator, `None`) may know it.
/// The open ends of `layout` (drawn as `tree`) with what each adds to the count: the outer half
/// of a plain tile at the end, both halves of a double at the end, nothing for a sprout with no
/// tile yet; a lone double lead shows the same half at both ends and counts one half at each
/// (its two halves in all). The ends' counts add up to the layout's count.
#[must_use]
pub fn open_ends(layout: &fiveup_engine::Layout, tree: &LayoutTree) -> Vec<OpenEnd> {
    let lead_double = tree.root.filter(|t| t.is_double());
    let arm_of = |id: fiveup_engine::ArmId| tree.arms.iter().find(|a| a.id == id);
    layout
        .open_arms()
        .map(|arm| {
            let pip = layout.arm_pip(arm);
            let line = arm_of(arm);
            let counts = match line.and_then(|l| l.tiles.last()) {
                Some(last) if last.tile.is_double() => 2 * pip,
                Some(_) => layout.arm_contribution(arm),
                None => match (line.map(|l| &l.anchor), lead_double) {
                    // A side of a double lead: both halves when the other side has a tile
                    // against the double, one half each while both sides are empty.
                    (Some(fiveup_engine::Anchor::Root), Some(_)) => {
                        let other = fiveup_engine::ArmId(arm.0 ^ 1);
                        if arm_of(other).is_some_and(|o| !o.tiles.is_empty()) {
                            2 * pip
                        } else {
                            pip
                        }
                    }
                    (Some(fiveup_engine::Anchor::Root), None) => layout.arm_contribution(arm),
                    // An empty sprout counts nothing: its spinner is counted by the arms.
                    _ => 0,
                },
            };
            OpenEnd { arm, pip, counts }
        })
        .collect()
}

/// Cross Dominoes: the arms of `tree` that wait for the cross (`cross_pending`: the layout's
/// [`fiveup_engine::Layout::cross_pending`]): closed arms that already hold tiles, and a closed
/// side of the lead. A spinner's sprout that has not opened is shut, not waiting.
#[must_use]
pub fn waiting_arms(tree: &LayoutTree, cross_pending: bool) -> Vec<fiveup_engine::ArmId> {
    if !cross_pending {
        return Vec::new();
    }
    tree.arms
        .iter()
        .filter(|a| !a.open && (a.anchor == fiveup_engine::Anchor::Root || !a.tiles.is_empty()))
        .map(|a| a.id)
        .collect()
}

fn entry_for(e: &Entry, seat: Option<u8>) -> Entry {
    match *e {
        Entry::Draw {
            seat: s,
            tile,
            ends,
            forced,
        } => Entry::Draw {
            seat: s,
            tile: if Some(s.0) == seat { tile } else { None },
            ends,
            forced,
        },
        Entry::LeadDraw { seat: s, tile } => Entry::LeadDraw {
            seat: s,
            tile: if Some(s.0) == seat { tile } else { None },
        },
        other => other,
    }
}

/// The whole table as `viewer` may see it.
#[must_use]
pub fn table_view(core: &TableCore, viewer: Viewer) -> TableView {
    let rules = core.cfg.rules;
    let n = rules.players as usize;
    let sides: Vec<u8> = (0..rules.players)
        .map(|p| rules.side_of(Seat(p)).0)
        .collect();
    let seat = viewer.seat.filter(|s| (*s as usize) < n);
    let proof: Option<HandProof> = core
        .pending
        .as_ref()
        .or(core.current.as_ref())
        .map(crate::table::HandSeeds::sealed);
    // A duplicate board takes no seeds from the players (its deal is fixed): a seated player
    // has nothing to send, so clients are told their part is done.
    let seed_sent = match (&core.pending, seat) {
        (Some(p), Some(s)) => p.client[s as usize].is_some() || core.board_seed().is_some(),
        _ => false,
    };
    let mut v = TableView {
        table: table_info(core, viewer),
        you: seat,
        hand_no: core.hand_no(),
        phase: None,
        to_move: None,
        leader: None,
        lead_kind: None,
        shown_tile: None,
        lot: None,
        cross_pending: false,
        waiting: Vec::new(),
        scores: core.scores(),
        sides,
        hand_sizes: vec![0; n],
        boneyard: 0,
        can_draw: false,
        count: 0,
        open_ends: Vec::new(),
        layout: LayoutTree::default(),
        history: Vec::new(),
        my_tiles: Vec::new(),
        legal: Vec::new(),
        muggins_available: 0,
        proof,
        seed_sent,
        proofs: core
            .finished
            .iter()
            .map(crate::table::HandSeeds::revealed)
            .collect(),
        last_hand: core.last_hand.clone(),
        winner: core.state.as_ref().and_then(|s| s.winner()).map(|w| w.0),
        rematch: core.rematch.clone(),
    };
    let Some(state) = &core.state else {
        return v;
    };
    let layout = state.layout();
    v.phase = Some(state.phase());
    v.to_move = Some(state.to_move().0);
    v.leader = Some(state.leader().0);
    v.lead_kind = Some(state.lead_kind());
    v.shown_tile = state.shown_tile();
    v.lot = (state.lead_kind() == fiveup_engine::LeadKind::Lot).then_some(state.leader().0);
    v.cross_pending = layout.cross_pending();
    v.hand_sizes = (0..n)
        .map(|p| state.hand(Seat(p as u8)).len() as u8)
        .collect();
    v.boneyard = state.boneyard_len();
    v.can_draw = state.can_draw();
    v.count = layout.count();
    v.layout = LayoutTree::from_history(&rules, state.log());
    v.open_ends = open_ends(layout, &v.layout);
    v.waiting = waiting_arms(&v.layout, v.cross_pending);
    v.history = state.log().iter().map(|e| entry_for(e, seat)).collect();
    if let Some(s) = seat {
        let view = state.view(Seat(s));
        v.my_tiles = view.hand().iter().collect();
        if core.to_move() == Some(s) {
            v.legal = view
                .legal_actions()
                .iter()
                .map(|&a| {
                    let (tile, arm): (Option<Tile>, _) = match a {
                        fiveup_engine::Action::Play { tile, arm } => (Some(tile), arm),
                        _ => (None, None),
                    };
                    LegalAction {
                        action: a,
                        tile,
                        arm,
                        points: view.points_of(a),
                    }
                })
                .collect();
            v.muggins_available = view.muggins_available();
        }
    }
    v
}

/// An event as `viewer` may know it.
#[must_use]
pub fn event_view(ev: &CoreEvent, viewer: Viewer) -> EventView {
    match ev {
        CoreEvent::Seat(s) => EventView::Seat { seat: s.clone() },
        CoreEvent::Started => EventView::Started,
        CoreEvent::Commit { hand, commitment } => EventView::Commit {
            hand: *hand,
            commitment: commitment.clone(),
        },
        CoreEvent::SeedIn { hand, seat } => EventView::SeedIn {
            hand: *hand,
            seat: *seat,
        },
        CoreEvent::Dealt { hand, leader } => EventView::Dealt {
            hand: *hand,
            leader: *leader,
        },
        CoreEvent::Action {
            seat,
            action,
            points,
            count,
            drawn,
        } => EventView::Action {
            seat: *seat,
            action: *action,
            points: *points,
            count: *count,
            drawn: if viewer.seat == Some(*seat) {
                *drawn
            } else {
                None
            },
        },
        CoreEvent::HandOver { outcome, proof } => EventView::HandOver {
            outcome: outcome.clone(),
            proof: proof.clone(),
        },
        CoreEvent::GameOver { winner, scores } => EventView::GameOver {
            winner: *winner,
            scores: scores.clone(),
        },
        CoreEvent::Rematch { table } => EventView::Rematch {
            table: table.clone(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::open_ends;
    use fiveup_engine::{FastRng, LayoutTree, Rules, Seed, State};

    /// At every point of many random hands, the open ends' counts add up to the count, and a
    /// double at an end counts both its halves.
    #[test]
    fn the_ends_counts_add_up_to_the_count() {
        let mut doubles_at_an_end = 0;
        for spec in [
            "five-up",
            "five-up players=4",
            "cross players=4",
            "muggins players=2",
        ] {
            let rules = Rules::parse(spec).unwrap();
            let mut rng = FastRng::new(11);
            for n in 0..200 {
                let mut s = State::from_seed(rules, &Seed::from_u64(n)).unwrap();
                while !s.is_hand_over() {
                    let legal = s.legal_actions();
                    let a = legal[rng.below(legal.len() as u32) as usize];
                    s.apply(a).unwrap();
                    let tree = LayoutTree::from_history(&rules, s.log());
                    let ends = open_ends(s.layout(), &tree);
                    let sum: u32 = ends.iter().map(|e| u32::from(e.counts)).sum();
                    assert_eq!(
                        sum,
                        u32::from(s.layout().count()),
                        "{spec} hand {n}: {ends:?}"
                    );
                    for e in &ends {
                        let line = tree.arms.iter().find(|l| l.id == e.arm).unwrap();
                        if line.tiles.last().is_some_and(|p| p.tile.is_double()) {
                            assert_eq!(e.counts, 2 * e.pip);
                            doubles_at_an_end += 1;
                        }
                    }
                }
            }
        }
        assert!(
            doubles_at_an_end > 100,
            "{doubles_at_an_end} doubles at an end seen"
        );
    }
}
