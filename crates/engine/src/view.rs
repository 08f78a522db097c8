//! What one seat may know: [`View`]. Computer players and clients only ever receive this.
//!
//! A view is made by [`State::view`]; nothing in it reaches another seat's tiles or the
//! boneyard order. A draw by another seat appears as [`Entry::Draw`] with `tile: None`, with the
//! open ends the player could not match.

use serde::{Deserialize, Serialize};

use crate::layout::Layout;
use crate::rules::Rules;
use crate::state::{
    Action, ActionList, Entry, HandResult, HandStart, IllegalAction, LeadKind, Phase, State,
    TurnInfo,
};
use crate::tile::{BySeat, BySide, Seat, Side, Tile, TileSet};

/// Everything one seat may know about the game in progress.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct View {
    pub(crate) rules: Rules,
    pub(crate) seat: Seat,
    pub(crate) hand: TileSet,
    pub(crate) hand_sizes: BySeat<u8>,
    pub(crate) boneyard_len: u8,
    pub(crate) scores: BySide<i32>,
    pub(crate) start: HandStart,
    pub(crate) leader: Seat,
    pub(crate) lead_kind: LeadKind,
    pub(crate) forced_lead: Option<Tile>,
    pub(crate) shown: Option<Tile>,
    pub(crate) layout: Layout,
    pub(crate) to_move: Seat,
    pub(crate) phase: Phase,
    pub(crate) drew: bool,
    pub(crate) last_drawn_playable: bool,
    pub(crate) claimable: u16,
    pub(crate) muggins: u16,
    pub(crate) history: Vec<Entry>,
    pub(crate) result: Option<HandResult>,
    pub(crate) winner: Option<Side>,
}

/// A view as plain data, for sending to clients and saving. It carries exactly the fields of
/// [`View`]; it cannot be turned back into a [`View`] (views only come from states).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ViewData {
    /// The rules.
    pub rules: Rules,
    /// The viewer's seat.
    pub seat: Seat,
    /// The viewer's tiles.
    pub hand: TileSet,
    /// Tiles in each hand.
    pub hand_sizes: Vec<u8>,
    /// Tiles in the boneyard.
    pub boneyard: u8,
    /// Scores per side.
    pub scores: Vec<i32>,
    /// Hand number.
    pub hand_no: u16,
    /// The leader of the hand.
    pub leader: Seat,
    /// How the leader was chosen.
    pub lead_kind: LeadKind,
    /// The count of the open ends.
    pub count: u16,
    /// Whose turn.
    pub to_move: Seat,
    /// The phase.
    pub phase: Phase,
    /// The hand's history.
    pub history: Vec<Entry>,
    /// The legal actions, when it is the viewer's turn.
    pub legal: Vec<Action>,
    /// The hand's result, once over (all hands revealed).
    pub result: Option<HandResult>,
    /// The winner, once the game is over.
    pub winner: Option<Side>,
}

impl State {
    /// What `seat` may know.
    #[must_use]
    pub fn view(&self, seat: Seat) -> View {
        let mut hand_sizes = BySeat::default();
        for p in 0..self.rules().players {
            hand_sizes[Seat(p)] = self.hand(Seat(p)).len() as u8;
        }
        let history = self
            .log()
            .iter()
            .map(|e| match *e {
                Entry::Draw {
                    seat: s,
                    tile,
                    ends,
                    forced,
                } => Entry::Draw {
                    seat: s,
                    tile: if s == seat { tile } else { None },
                    ends,
                    forced,
                },
                Entry::LeadDraw { seat: s, tile } => Entry::LeadDraw {
                    seat: s,
                    tile: if s == seat { tile } else { None },
                },
                other => other,
            })
            .collect();
        let mine = self.to_move() == seat;
        let (drew, last_drawn_playable) = self.drew_this_turn();
        View {
            rules: *self.rules(),
            seat,
            hand: self.hand(seat),
            hand_sizes,
            boneyard_len: self.boneyard_len(),
            scores: *self.scores(),
            start: *self.start(),
            leader: self.leader(),
            lead_kind: self.lead_kind(),
            forced_lead: self.forced_lead(),
            shown: self.shown_tile(),
            layout: *self.layout(),
            to_move: self.to_move(),
            phase: self.phase(),
            drew: mine && drew,
            last_drawn_playable: mine && last_drawn_playable,
            claimable: self.claimable(),
            muggins: if mine { self.muggins_available() } else { 0 },
            history,
            result: self.result().copied(),
            winner: self.winner(),
        }
    }
}

impl View {
    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The viewer's seat.
    #[must_use]
    pub const fn seat(&self) -> Seat {
        self.seat
    }

    /// The viewer's side.
    #[must_use]
    pub fn side(&self) -> Side {
        self.rules.side_of(self.seat)
    }

    /// The viewer's tiles.
    #[must_use]
    pub const fn hand(&self) -> TileSet {
        self.hand
    }

    /// Tiles in each seat's hand.
    #[must_use]
    pub const fn hand_sizes(&self) -> &BySeat<u8> {
        &self.hand_sizes
    }

    /// Tiles in the boneyard.
    #[must_use]
    pub const fn boneyard_len(&self) -> u8 {
        self.boneyard_len
    }

    /// Scores per side.
    #[must_use]
    pub const fn scores(&self) -> &BySide<i32> {
        &self.scores
    }

    /// How the hand started.
    #[must_use]
    pub const fn start(&self) -> &HandStart {
        &self.start
    }

    /// The leader of the hand.
    #[must_use]
    pub const fn leader(&self) -> Seat {
        self.leader
    }

    /// How the leader was chosen.
    #[must_use]
    pub const fn lead_kind(&self) -> LeadKind {
        self.lead_kind
    }

    /// The tile that decided who leads, which the whole table saw (see
    /// [`State::shown_tile`]).
    #[must_use]
    pub const fn shown_tile(&self) -> Option<Tile> {
        self.shown
    }

    /// The layout (public).
    #[must_use]
    pub const fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Whose turn it is.
    #[must_use]
    pub const fn to_move(&self) -> Seat {
        self.to_move
    }

    /// The phase.
    #[must_use]
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// The hand's history as this seat saw it.
    #[must_use]
    pub fn history(&self) -> &[Entry] {
        &self.history
    }

    /// The result of the hand, once over.
    #[must_use]
    pub const fn result(&self) -> Option<&HandResult> {
        self.result.as_ref()
    }

    /// The winner, once the game is over.
    #[must_use]
    pub const fn winner(&self) -> Option<Side> {
        self.winner
    }

    /// Missed points the viewer may take with a Muggins call now (0 when none).
    #[must_use]
    pub const fn muggins_available(&self) -> u16 {
        self.muggins
    }

    /// Tiles this seat has not seen: in other hands or the boneyard.
    #[must_use]
    pub fn unseen(&self) -> TileSet {
        self.rules
            .tiles()
            .minus(self.layout.tiles())
            .minus(self.hand)
    }

    /// Whether a tile may be drawn now.
    #[must_use]
    pub fn can_draw(&self) -> bool {
        self.rules.drawing && self.boneyard_len > self.rules.boneyard_keep
    }

    fn turn_info(&self) -> Option<TurnInfo<'_>> {
        if self.to_move != self.seat {
            return None;
        }
        Some(TurnInfo {
            rules: &self.rules,
            layout: &self.layout,
            phase: self.phase,
            hand: self.hand,
            forced_lead: self.forced_lead,
            drew: self.drew,
            last_drawn_playable: self.last_drawn_playable,
            can_draw: self.can_draw(),
            claimable: self.claimable,
            muggins: self.muggins > 0,
        })
    }

    /// The viewer's legal actions (empty when it is not the viewer's turn). Identical to
    /// [`State::legal_actions`] for the seat to move.
    #[must_use]
    pub fn legal_actions(&self) -> ActionList {
        let mut l = ActionList::new();
        if let Some(t) = self.turn_info() {
            t.legal_actions(&mut l);
        }
        l
    }

    /// Why `a` would be illegal for the viewer now.
    pub fn check(&self, a: Action) -> Result<(), IllegalAction> {
        match self.turn_info() {
            Some(t) => t.check(a),
            None => Err(if self.phase == Phase::GameOver {
                IllegalAction::GameOver
            } else if self.phase == Phase::HandOver {
                IllegalAction::HandOver
            } else {
                IllegalAction::NotYourTurn
            }),
        }
    }

    /// The points `a` would score at once if the viewer played it now (0 for anything but a
    /// scoring play). Lets clients show each legal play's points without rules logic.
    #[must_use]
    pub fn points_of(&self, a: Action) -> u16 {
        match a {
            Action::Play { tile, arm } if self.check(a).is_ok() => {
                let mut l = self.layout;
                match arm {
                    None => l.lay_lead(tile, &self.rules),
                    Some(arm) => l.lay(tile, arm, &self.rules),
                }
                State::count_points(&self.rules, l.count())
            }
            _ => 0,
        }
    }

    /// The view as plain serialisable data.
    #[must_use]
    pub fn to_data(&self) -> ViewData {
        let n = self.rules.players as usize;
        ViewData {
            rules: self.rules,
            seat: self.seat,
            hand: self.hand,
            hand_sizes: self.hand_sizes.0[..n].to_vec(),
            boneyard: self.boneyard_len,
            scores: self.scores.0[..self.rules.sides() as usize].to_vec(),
            hand_no: self.start.hand_no,
            leader: self.leader,
            lead_kind: self.lead_kind,
            count: self.layout.count(),
            to_move: self.to_move,
            phase: self.phase,
            history: self.history.clone(),
            legal: self.legal_actions().iter().copied().collect(),
            result: self.result,
            winner: self.winner,
        }
    }
}
