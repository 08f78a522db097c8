//! The game state: one hand in progress within a game, with scores, the action log, and the
//! play API with three doors: [`State::apply`] (checked, leaves the state unchanged on error),
//! [`State::is_legal`], and [`State::apply_unchecked`] for search loops.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::deal::{Deal, Seed};
use crate::layout::{ArmId, Layout};
use crate::rules::{
    Award, BlockedTie, FirstLead, GameEnd, MugginsCall, NextLead, NoDouble, PlayScoring, Rules,
    RulesError,
};
use crate::tile::{BySeat, BySide, PipSet, Seat, Side, Tile, TileSet, MAX_SEATS};

/// What a player does on their turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// Lay a tile. `arm` is `None` for the lead (the first tile of the hand) and names an open
    /// arm otherwise.
    Play {
        /// The tile laid.
        tile: Tile,
        /// Where it goes.
        arm: Option<ArmId>,
    },
    /// Draw the next tile from the boneyard (the tile is the chance outcome fixed by the deal).
    Draw,
    /// Pass: nothing can be laid and nothing drawn.
    Pass,
    /// Manual scoring only: announce the points the play just made (0: no claim).
    Claim(u16),
    /// Manual scoring only: take the points the previous player missed ("Muggins!").
    Muggins,
}

impl Action {
    /// A play on an arm.
    #[must_use]
    pub const fn play(tile: Tile, arm: ArmId) -> Action {
        Action::Play {
            tile,
            arm: Some(arm),
        }
    }

    /// The lead of a tile.
    #[must_use]
    pub const fn lead(tile: Tile) -> Action {
        Action::Play { tile, arm: None }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play { tile, arm: None } => write!(f, "{tile}"),
            Action::Play { tile, arm: Some(a) } => write!(f, "{tile}@{a}"),
            Action::Draw => f.write_str("D"),
            Action::Pass => f.write_str("P"),
            Action::Claim(n) => write!(f, "C{n}"),
            Action::Muggins => f.write_str("M"),
        }
    }
}

impl FromStr for Action {
    type Err = String;
    /// Reads the notation token of an action without its points suffix: `6-4`, `5-0@W`, `D`,
    /// `P`, `C10`, `M`.
    fn from_str(s: &str) -> Result<Action, String> {
        match s {
            "D" | "d" => return Ok(Action::Draw),
            "P" | "p" => return Ok(Action::Pass),
            "M" | "m" => return Ok(Action::Muggins),
            _ => {}
        }
        if let Some(n) = s.strip_prefix('C').or_else(|| s.strip_prefix('c')) {
            return n
                .parse()
                .map(Action::Claim)
                .map_err(|_| format!("bad claim {s:?}: expected C and a number"));
        }
        let (t, arm) = match s.split_once('@') {
            Some((t, a)) => (t, Some(a.parse::<ArmId>()?)),
            None => (s, None),
        };
        let tile = t.parse::<Tile>().map_err(|e| e.to_string())?;
        Ok(Action::Play { tile, arm })
    }
}

impl Serialize for Action {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Action, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Where the game stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// A player is to play, draw or pass.
    Play,
    /// Manual scoring: the player who just laid a tile is to claim its points.
    Claim,
    /// The hand is over; the next hand needs a deal.
    HandOver,
    /// The game is over.
    GameOver,
}

/// How the leader of a hand was chosen.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeadKind {
    /// The holder of the highest double leads it.
    HighestDouble,
    /// No double was dealt: the holder of the heaviest tile leads it.
    HeaviestTile,
    /// No double was dealt: players drew in turn until one drew a double, and lead it.
    DrawUntilDouble,
    /// The leader was chosen by lot and leads any tile.
    Lot,
    /// The leader (previous winner, or the next seat in rotation) leads any tile.
    Free,
}

/// How a hand begins: which hand of the game, the scores, and who leads.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct HandStart {
    /// Hand number in the game, from 1.
    pub hand_no: u16,
    /// Scores before the hand.
    pub scores: BySide<i32>,
    /// Whether the hand opens by the first-lead rule (first hand, or after a blocked hand
    /// under the winner-leads rule): by default the highest double; see
    /// [`crate::FirstLead`]. Otherwise `free_leader` leads any tile.
    pub highest_double: bool,
    /// The leader when the lead is free.
    pub free_leader: Seat,
}

impl HandStart {
    /// A hand (numbered 1, scores 0) led freely by `seat`, for puzzles and tests.
    #[must_use]
    pub fn free(seat: Seat) -> HandStart {
        HandStart {
            hand_no: 1,
            scores: BySide::default(),
            highest_double: false,
            free_leader: seat,
        }
    }

    /// The first hand of a game.
    #[must_use]
    pub fn first() -> HandStart {
        HandStart {
            hand_no: 1,
            scores: BySide::default(),
            highest_double: true,
            free_leader: Seat(0),
        }
    }
}

/// How a hand ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum HandEnd {
    /// A player laid their last tile.
    Domino {
        /// Who went out.
        seat: Seat,
    },
    /// Nobody could lay and nobody could draw.
    Blocked,
}

/// The outcome of a finished hand, with everything needed to show how the award was made.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct HandResult {
    /// How it ended.
    pub end: HandEnd,
    /// Every hand, revealed.
    pub hands: BySeat<TileSet>,
    /// Pips counted in each seat's hand (after the doubles-one-half option).
    pub pips: BySeat<u16>,
    /// Pips per side (partners summed).
    pub side_pips: BySide<u16>,
    /// Sides that won the hand (bit per side; two bits for a shared three-player block).
    pub winners: u8,
    /// Points each side was awarded by the rules (after rounding and scale).
    pub awards: BySide<i32>,
    /// Points actually added to each score (an exact target may refuse an award).
    pub scored: BySide<i32>,
}

impl HandResult {
    /// Whether `side` won (or shared) the hand.
    #[must_use]
    pub const fn won(&self, side: Side) -> bool {
        self.winners & (1 << side.0) != 0
    }
}

/// Why an action was refused. The state is unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalAction {
    /// It is not this seat's turn.
    NotYourTurn,
    /// The game is over.
    GameOver,
    /// The hand is over: the next hand must be dealt first.
    HandOver,
    /// The player does not hold that tile.
    NotInHand(Tile),
    /// The first tile of this hand must be the named tile.
    MustLead(Tile),
    /// The lead takes no arm; later plays need one.
    ArmMismatch,
    /// That arm is not open.
    ArmNotOpen(ArmId),
    /// The tile does not match the arm's open end.
    DoesNotFit {
        /// The tile.
        tile: Tile,
        /// The arm.
        arm: ArmId,
        /// The pip showing there.
        pip: u8,
    },
    /// The player can lay a tile, so must.
    MustPlay,
    /// The player cannot lay and the boneyard can be drawn from, so must draw.
    MustDraw,
    /// The player drew an unplayable tile this turn and must keep drawing.
    MustKeepDrawing,
    /// Drawing is not possible: the boneyard is empty, kept, or drawing is off.
    CannotDraw,
    /// Passing is only allowed when nothing can be laid or drawn.
    CannotPass,
    /// A claim is expected first (manual scoring).
    MustClaim,
    /// No claim is due now.
    NoClaimDue,
    /// The claim does not match the points the play made.
    WrongClaim {
        /// Points claimed.
        claimed: u16,
        /// Points the count gives.
        actual: u16,
    },
    /// There are no missed points to call Muggins on.
    NoMuggins,
    /// Under `draw-one` the player has drawn this turn's tile, it does not fit, so passes.
    MustPass,
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalAction::NotYourTurn => write!(f, "it is not your turn"),
            IllegalAction::GameOver => write!(f, "the game is over"),
            IllegalAction::HandOver => write!(f, "the hand is over; deal the next hand"),
            IllegalAction::NotInHand(t) => write!(f, "you do not hold {t}"),
            IllegalAction::MustLead(t) => write!(f, "this hand must be led with {t}"),
            IllegalAction::ArmMismatch => {
                write!(
                    f,
                    "the lead goes on the empty table without an arm; later tiles need one"
                )
            }
            IllegalAction::ArmNotOpen(a) => write!(f, "arm {a} is not open"),
            IllegalAction::DoesNotFit { tile, arm, pip } => {
                write!(f, "{tile} does not match the {pip} showing on arm {arm}")
            }
            IllegalAction::MustPlay => write!(f, "you can lay a tile, so you must"),
            IllegalAction::MustDraw => write!(f, "you cannot lay a tile, so you must draw"),
            IllegalAction::MustKeepDrawing => {
                write!(f, "the tile you drew does not fit: keep drawing")
            }
            IllegalAction::CannotDraw => write!(f, "there is nothing you may draw"),
            IllegalAction::CannotPass => write!(f, "you may only pass when you cannot lay or draw"),
            IllegalAction::MustClaim => {
                write!(f, "claim the points of your play first (C0 for none)")
            }
            IllegalAction::NoClaimDue => write!(f, "there is no play to claim points for"),
            IllegalAction::WrongClaim { claimed, actual } => write!(
                f,
                "a claim of {claimed} does not match the count, which scores {actual}"
            ),
            IllegalAction::NoMuggins => write!(f, "there are no missed points to take"),
            IllegalAction::MustPass => write!(
                f,
                "you have drawn your one tile this turn and it does not fit: pass"
            ),
        }
    }
}

impl std::error::Error for IllegalAction {}

/// Why a game or hand could not be set up.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SetupError {
    /// The rules are invalid.
    Rules(RulesError),
    /// The deal does not fit the rules.
    Deal(crate::deal::DealError),
    /// The hand must be led with the highest double, none was dealt, and the rules say redeal.
    NoDouble,
    /// The state is not between hands.
    NotBetweenHands,
    /// A seat number is out of range.
    Seat(Seat),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Rules(e) => write!(f, "{e}"),
            SetupError::Deal(e) => write!(f, "{e}"),
            SetupError::NoDouble => write!(
                f,
                "no double was dealt and the rules say to redeal (deal again)"
            ),
            SetupError::NotBetweenHands => write!(f, "the current hand is not over"),
            SetupError::Seat(s) => write!(f, "seat {} is not at this table", s.0),
        }
    }
}

impl std::error::Error for SetupError {}

impl From<RulesError> for SetupError {
    fn from(e: RulesError) -> Self {
        SetupError::Rules(e)
    }
}

impl From<crate::deal::DealError> for SetupError {
    fn from(e: crate::deal::DealError) -> Self {
        SetupError::Deal(e)
    }
}

/// A fixed-capacity list of actions, filled without heap allocation.
///
/// Capacity 400: each open arm accepts at most the thirteen tiles of its pip's suit (on a
/// double-twelve set), and there are at most 28 arms, so at most 364 plays, plus one draw or
/// pass and one Muggins call. A lead offers at most the 91 tiles a hand can hold; claims offer
/// at most two values.
#[derive(Clone)]
pub struct ActionList {
    items: [Action; ActionList::CAPACITY],
    len: u16,
}

impl fmt::Debug for ActionList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Default for ActionList {
    fn default() -> Self {
        ActionList::new()
    }
}

impl ActionList {
    /// Capacity (see the type's documentation for the bound).
    pub const CAPACITY: usize = 400;

    /// An empty list.
    #[must_use]
    pub const fn new() -> ActionList {
        ActionList {
            items: [Action::Pass; ActionList::CAPACITY],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, a: Action) {
        self.items[self.len as usize] = a;
        self.len += 1;
    }

    /// Remove every action.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of actions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The actions as a slice.
    #[must_use]
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len as usize]
    }

    /// Iterate.
    pub fn iter(&self) -> std::slice::Iter<'_, Action> {
        self.as_slice().iter()
    }

    /// Whether `a` is in the list.
    #[must_use]
    pub fn contains(&self, a: &Action) -> bool {
        self.as_slice().contains(a)
    }
}

impl std::ops::Index<usize> for ActionList {
    type Output = Action;
    fn index(&self, i: usize) -> &Action {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a ActionList {
    type Item = &'a Action;
    type IntoIter = std::slice::Iter<'a, Action>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// One entry of a hand's history, as the whole table saw it, plus the drawn tile where the
/// viewer may know it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Entry {
    /// A tile drawn before the lead to find a double (no-double option). `tile` is known only
    /// to its owner.
    LeadDraw {
        /// Who drew.
        seat: Seat,
        /// The tile, if the viewer may know it.
        tile: Option<Tile>,
    },
    /// A tile laid, with the count it made and the points it scored at once.
    Play {
        /// Who laid it.
        seat: Seat,
        /// The tile.
        tile: Tile,
        /// The arm (`None` for the lead).
        arm: Option<ArmId>,
        /// The count after the play.
        count: u16,
        /// Points scored at once (0 under manual scoring until claimed).
        points: u16,
    },
    /// A draw, with the open ends the player could not match.
    Draw {
        /// Who drew.
        seat: Seat,
        /// The tile, if the viewer may know it.
        tile: Option<Tile>,
        /// The pips on the open ends at the time.
        ends: PipSet,
        /// Whether the draw proves the player held nothing matching `ends` (false when
        /// voluntary drawing is allowed).
        forced: bool,
    },
    /// A pass, with the open ends the player could not match.
    Pass {
        /// Who passed.
        seat: Seat,
        /// The pips on the open ends at the time.
        ends: PipSet,
    },
    /// A claim under manual scoring.
    Claim {
        /// Who claimed.
        seat: Seat,
        /// Points announced.
        claimed: u16,
        /// Points scored.
        points: u16,
    },
    /// A Muggins call taking missed points.
    Muggins {
        /// Who called.
        seat: Seat,
        /// Points taken.
        points: u16,
    },
}

impl Entry {
    /// Who acted.
    #[must_use]
    pub const fn seat(&self) -> Seat {
        match *self {
            Entry::LeadDraw { seat, .. }
            | Entry::Play { seat, .. }
            | Entry::Draw { seat, .. }
            | Entry::Pass { seat, .. }
            | Entry::Claim { seat, .. }
            | Entry::Muggins { seat, .. } => seat,
        }
    }

    /// The action that made this entry (`None` for a lead draw, which the rules make).
    #[must_use]
    pub const fn action(&self) -> Option<Action> {
        match *self {
            Entry::LeadDraw { .. } => None,
            Entry::Play { tile, arm, .. } => Some(Action::Play { tile, arm }),
            Entry::Draw { .. } => Some(Action::Draw),
            Entry::Pass { .. } => Some(Action::Pass),
            Entry::Claim { claimed, .. } => Some(Action::Claim(claimed)),
            Entry::Muggins { .. } => Some(Action::Muggins),
        }
    }
}

/// Entries a hand's log holds in place: a double-six hand logs at most 192 entries (28 plays,
/// 21 draws, at most 3 passes before each of the 29 turns that lay or end a hand, and one
/// claim and one Muggins call per play), so 256 hold any double-six hand and a `u8`-masked
/// index needs no bounds check. A longer log (bigger sets and tables) moves to the heap.
const LOG_INLINE: usize = 256;

/// A hand's log: entries in place up to [`LOG_INLINE`], then on the heap. Keeping the common
/// case in place keeps a push as cheap as a store, and cloning a state free of allocation.
#[derive(Clone)]
struct Log {
    inline: [Entry; LOG_INLINE],
    len: u16,
    /// Every entry, once the log outgrew `inline` (empty until then).
    spill: Vec<Entry>,
}

impl Log {
    fn new() -> Log {
        Log {
            inline: [Entry::Pass {
                seat: Seat(0),
                ends: PipSet::EMPTY,
            }; LOG_INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, e: Entry) {
        if usize::from(self.len) < LOG_INLINE {
            self.inline[usize::from(self.len) & (LOG_INLINE - 1)] = e;
        } else {
            self.push_spilled(e);
        }
        self.len += 1;
    }

    /// A push known to stay in place (a double-six hand of two players).
    #[inline(always)]
    fn push_inline(&mut self, e: Entry) {
        debug_assert!(usize::from(self.len) < 192);
        self.inline[usize::from(self.len) & (LOG_INLINE - 1)] = e;
        self.len += 1;
    }

    #[cold]
    #[inline(never)]
    fn push_spilled(&mut self, e: Entry) {
        if self.spill.is_empty() {
            self.spill.reserve(4 * LOG_INLINE);
            self.spill.extend_from_slice(&self.inline);
        }
        self.spill.push(e);
    }

    fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }

    fn as_slice(&self) -> &[Entry] {
        if usize::from(self.len) <= LOG_INLINE {
            &self.inline[..usize::from(self.len)]
        } else {
            &self.spill
        }
    }
}

/// What the state needs to judge the player to move, shared by [`State`] and
/// [`crate::View`] so both give the same legal actions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TurnInfo<'a> {
    pub rules: &'a Rules,
    pub layout: &'a Layout,
    pub phase: Phase,
    pub hand: TileSet,
    pub forced_lead: Option<Tile>,
    pub drew: bool,
    pub last_drawn_playable: bool,
    pub can_draw: bool,
    pub claimable: u16,
    pub muggins: bool,
}

impl TurnInfo<'_> {
    fn playable(&self) -> TileSet {
        self.hand.and(self.layout.playable_tiles())
    }

    #[inline]
    pub(crate) fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        match self.phase {
            Phase::HandOver | Phase::GameOver => return,
            Phase::Claim => {
                out.push(Action::Claim(0));
                if self.claimable > 0 {
                    out.push(Action::Claim(self.claimable));
                }
                return;
            }
            Phase::Play => {}
        }
        if self.layout.is_empty() {
            match self.forced_lead {
                Some(t) => out.push(Action::lead(t)),
                None => {
                    for t in self.hand {
                        out.push(Action::lead(t));
                    }
                }
            }
            return;
        }
        if self.muggins && !self.drew {
            out.push(Action::Muggins);
        }
        if self.drew && !self.last_drawn_playable && self.can_draw && !self.rules.draw_one {
            out.push(Action::Draw);
            return;
        }
        let mut playable = 0u128;
        let mut open = self.layout.open_mask();
        while open != 0 {
            let a = ArmId(open.trailing_zeros() as u8);
            open &= open - 1;
            let mut m = self.hand.0 & Tile::suit(self.layout.arm_pip(a)).0;
            playable |= m;
            while m != 0 {
                let t = Tile::from_index(m.trailing_zeros() as u8).expect("bit below 91");
                m &= m - 1;
                out.push(Action::play(t, a));
            }
        }
        if !self.drew && self.can_draw && (playable == 0 || self.rules.voluntary_draw) {
            out.push(Action::Draw);
        }
        if playable == 0 && (!self.can_draw || (self.drew && self.rules.draw_one)) {
            out.push(Action::Pass);
        }
    }

    pub(crate) fn check(&self, a: Action) -> Result<(), IllegalAction> {
        match self.phase {
            Phase::GameOver => return Err(IllegalAction::GameOver),
            Phase::HandOver => return Err(IllegalAction::HandOver),
            Phase::Claim => {
                return match a {
                    Action::Claim(0) => Ok(()),
                    Action::Claim(n) if n == self.claimable => Ok(()),
                    Action::Claim(n) => Err(IllegalAction::WrongClaim {
                        claimed: n,
                        actual: self.claimable,
                    }),
                    _ => Err(IllegalAction::MustClaim),
                }
            }
            Phase::Play => {}
        }
        let playable = self.playable();
        // One draw a turn under `draw-one`: then play what fits or pass.
        let drew_one = self.drew && self.rules.draw_one;
        let keep_drawing = self.drew && !self.last_drawn_playable && self.can_draw && !drew_one;
        match a {
            Action::Claim(_) => Err(IllegalAction::NoClaimDue),
            Action::Muggins => {
                if self.muggins && !self.drew && !self.layout.is_empty() {
                    Ok(())
                } else {
                    Err(IllegalAction::NoMuggins)
                }
            }
            Action::Play { tile, arm } => {
                if !self.hand.contains(tile) {
                    return Err(IllegalAction::NotInHand(tile));
                }
                if self.layout.is_empty() {
                    if arm.is_some() {
                        return Err(IllegalAction::ArmMismatch);
                    }
                    if let Some(f) = self.forced_lead {
                        if f != tile {
                            return Err(IllegalAction::MustLead(f));
                        }
                    }
                    return Ok(());
                }
                let Some(arm) = arm else {
                    return Err(IllegalAction::ArmMismatch);
                };
                if !self.layout.is_open(arm) {
                    return Err(IllegalAction::ArmNotOpen(arm));
                }
                if !tile.has(self.layout.arm_pip(arm)) {
                    return Err(IllegalAction::DoesNotFit {
                        tile,
                        arm,
                        pip: self.layout.arm_pip(arm),
                    });
                }
                if keep_drawing {
                    return Err(IllegalAction::MustKeepDrawing);
                }
                Ok(())
            }
            Action::Draw => {
                if self.layout.is_empty() {
                    return Err(IllegalAction::MustPlay);
                }
                if !self.can_draw {
                    return Err(IllegalAction::CannotDraw);
                }
                if keep_drawing {
                    return Ok(());
                }
                if drew_one {
                    return Err(if playable.is_empty() {
                        IllegalAction::MustPass
                    } else {
                        IllegalAction::MustPlay
                    });
                }
                if self.drew || (!playable.is_empty() && !self.rules.voluntary_draw) {
                    return Err(IllegalAction::MustPlay);
                }
                Ok(())
            }
            Action::Pass => {
                if self.layout.is_empty() || !playable.is_empty() {
                    return Err(IllegalAction::MustPlay);
                }
                if self.can_draw && !drew_one {
                    return Err(if keep_drawing {
                        IllegalAction::MustKeepDrawing
                    } else {
                        IllegalAction::MustDraw
                    });
                }
                Ok(())
            }
        }
    }
}

/// What one applied action did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Outcome {
    /// Points scored by the action (a play, claim or Muggins call).
    pub points: u16,
    /// The tile drawn, for a draw (known only to the drawer).
    pub drawn: Option<Tile>,
    /// Whether the hand ended.
    pub hand_over: bool,
    /// Whether the game ended.
    pub game_over: bool,
}

/// A game in progress: the current hand, the scores and the hand's log.
#[derive(Clone)]
pub struct State {
    rules: Rules,
    start: HandStart,
    deal: Deal,
    leader: Seat,
    lead_kind: LeadKind,
    forced_lead: Option<Tile>,
    /// The tile that decided who leads, shown to the table (the highest double, the heaviest
    /// tile or the double drawn); under `first-lead=highest-double-any` it need not be led.
    shown: Option<Tile>,
    scores: BySide<i32>,
    hands: BySeat<TileSet>,
    /// For each seat and pip, how many tiles in the hand carry that pip (kept with `hands`, so
    /// the number of plays on an arm is one look-up).
    suit_counts: BySeat<[u8; 16]>,
    /// For each seat, how many (tile, open arm) plays it has on a non-empty table: the size of
    /// its legal list before draws and passes, kept with `hands` and the layout.
    plays: BySeat<u16>,
    /// Tiles drawn from the boneyard so far this hand (lead draws included).
    drawn: u8,
    /// Tiles left in the boneyard.
    bone_left: u8,
    /// Whether a tile may be drawn now (kept with `bone_left`).
    drawable: bool,
    /// The side of each seat.
    side: [Side; MAX_SEATS],
    layout: Layout,
    to_move: Seat,
    phase: Phase,
    drew: bool,
    last_drawn_playable: bool,
    claimable: u16,
    /// Missed points open to a Muggins call by the seat to move.
    muggins: u16,
    /// Under `muggins-call=any`: missed points still open to the opponents of the side that
    /// missed them, each at their turn, until that side moves again (0: none).
    muggins_open: u16,
    /// The side that missed `muggins_open`.
    muggins_side: Side,
    result: Option<HandResult>,
    winner: Option<Side>,
    /// The hand's log (its storage is reused from hand to hand by [`State::reset`]).
    log: Log,
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("hand_no", &self.start.hand_no)
            .field("deal", &self.deal)
            .field("phase", &self.phase)
            .field("to_move", &self.to_move)
            .field("scores", &self.scores)
            .field("hands", &self.hands)
            .field("count", &self.layout.count())
            .field("log", &self.log())
            .finish_non_exhaustive()
    }
}

/// For each tile, its per-pip counts as sixteen bytes of a word: one for each pip it carries
/// (a double carries its pip once). Padded to 128 so an index masked to seven bits needs no
/// check.
const SUIT_WORDS: [u128; 128] = {
    let mut w = [0u128; 128];
    let mut i = 0;
    while i < crate::TILE_COUNT {
        let t = Tile(i as u8);
        w[i] = (1u128 << (8 * t.hi() as u32)) | (1u128 << (8 * t.lo() as u32));
        i += 1;
    }
    w
};

/// Add (`up`) or take away one tile's pips in the per-pip counts: one word operation, since a
/// count never leaves `0..=13` and so never carries into its neighbour.
#[inline]
fn add_suits(counts: &mut [u8; 16], t: Tile, up: bool) {
    let v = u128::from_le_bytes(*counts);
    let d = SUIT_WORDS[t.index() as usize & 127];
    *counts = if up { v + d } else { v - d }.to_le_bytes();
}

/// [`SUIT_WORDS`] for a double-six set: pips 0 to 6 fit the low eight bytes.
const SUIT_WORDS_LOW: [u64; 32] = {
    let mut w = [0u64; 32];
    let mut i = 0;
    while i < 28 {
        w[i] = SUIT_WORDS[i] as u64;
        i += 1;
    }
    w
};

/// [`add_suits`] on a double-six set (the standard profile): one 64-bit operation on the
/// counts of pips 0 to 7.
#[inline]
fn add_suits_low(counts: &mut [u8; 16], t: Tile, up: bool) {
    let mut low = [0u8; 8];
    low.copy_from_slice(&counts[..8]);
    let v = u64::from_le_bytes(low);
    let d = SUIT_WORDS_LOW[t.index() as usize & 31];
    counts[..8].copy_from_slice(&if up { v + d } else { v - d }.to_le_bytes());
}

/// Each double-six tile's pips, by index (padded to 32 so a masked index needs no check).
const PIPS_LOW: [u8; 32] = {
    let mut w = [0u8; 32];
    let mut i = 0;
    while i < 28 {
        w[i] = Tile(i as u8).pips();
        i += 1;
    }
    w
};

/// The pips of a double-six set of tiles given as its low word.
#[inline]
fn pips_low(mut m: u64) -> u16 {
    let mut v = 0u16;
    while m != 0 {
        v += u16::from(PIPS_LOW[m.trailing_zeros() as usize & 31]);
        m &= m - 1;
    }
    v
}

/// The pips shown on open arms, from the per-pip counts of open arms, for a double-six set
/// (pips 0 to 6: the low eight counts). Branch-free: a count is below 128, so adding 127 to it
/// sets its byte's top bit exactly when it is not 0, and one multiplication gathers the eight
/// top bits into one byte.
#[inline]
fn open_pips_low(counts: &[u8; 16]) -> PipSet {
    let mut low = [0u8; 8];
    low.copy_from_slice(&counts[..8]);
    let v = u64::from_le_bytes(low);
    let top = (v + 0x7f7f_7f7f_7f7f_7f7f) & 0x8080_8080_8080_8080;
    PipSet(((top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16)
}

/// Put `t` into a double-six hand (every bit in the low word).
#[inline]
fn insert_low(hand: &mut TileSet, t: Tile) {
    hand.0 |= u128::from(1u64 << (t.index() & 63));
}

/// `FIVES_POINTS[c]`: what a count of `c` scores under fives scoring (the count itself when it is
/// a positive multiple of 5). A count stays below 1024: at most 28 arm ends of at most 24 each.
const FIVES_POINTS: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut c = 5;
    while c < 1024 {
        t[c] = c as u16;
        c += 5;
    }
    t
};

/// Round a pip total to the nearest 5: remainder 0-2 rounds down, 3-4 up.
#[must_use]
pub const fn round5(p: u32) -> u32 {
    (p + 2) / 5 * 5
}

/// A share `total / k` rounded to the nearest 5 (a remainder of exactly 2.5 rounds up).
#[must_use]
pub const fn round5_share(total: u32, k: u32) -> u32 {
    (2 * total + 5 * k) / (10 * k) * 5
}

impl State {
    /// The first hand of a new game with this deal. Fails if the rules are invalid, the deal
    /// does not fit them, or no double was dealt and the rules say to redeal.
    pub fn new(rules: Rules, deal: Deal) -> Result<State, SetupError> {
        State::with_start(rules, deal, HandStart::first())
    }

    /// The first hand of a game whose deals come from `seed` (shuffle version 1), redealing as
    /// the rules require.
    pub fn from_seed(rules: Rules, seed: &Seed) -> Result<State, SetupError> {
        rules.validate()?;
        let deal = Deal::from_seed(seed, 1, &rules, true);
        State::new(rules, deal)
    }

    /// A hand with this deal and this start (hand number, scores, lead): the door for
    /// hand-described setups, puzzles and records.
    pub fn with_start(rules: Rules, deal: Deal, start: HandStart) -> Result<State, SetupError> {
        let mut s = State {
            rules,
            start,
            deal,
            leader: Seat(0),
            lead_kind: LeadKind::Free,
            forced_lead: None,
            shown: None,
            scores: start.scores,
            hands: BySeat::default(),
            suit_counts: BySeat::default(),
            plays: BySeat::default(),
            drawn: 0,
            bone_left: 0,
            drawable: false,
            side: [Side(0); MAX_SEATS],
            layout: Layout::new(),
            to_move: Seat(0),
            phase: Phase::Play,
            drew: false,
            last_drawn_playable: false,
            claimable: 0,
            muggins: 0,
            muggins_open: 0,
            muggins_side: Side(0),
            result: None,
            winner: None,
            log: Log::new(),
        };
        s.reset(rules, deal, start)?;
        Ok(s)
    }

    /// Replace this state with a new hand, reusing its storage: the same as
    /// [`State::with_start`] without building a new value (for playout loops). On error the
    /// state is left unchanged.
    pub fn reset(&mut self, rules: Rules, deal: Deal, start: HandStart) -> Result<(), SetupError> {
        rules.validate()?;
        if deal.players != rules.players
            || deal.hand_size != rules.hand_size
            || deal.len() != rules.tile_count()
        {
            return Err(SetupError::Deal(crate::deal::DealError::Hands {
                got: deal.players as usize,
                want: rules.players,
            }));
        }
        if start.free_leader.0 >= rules.players {
            return Err(SetupError::Seat(start.free_leader));
        }
        if deal.lot.0 >= rules.players {
            return Err(SetupError::Seat(deal.lot));
        }
        self.reset_trusted(rules, deal, start)
    }

    /// A new first hand of a game with the same rules, dealt by shuffling this state's deal order
    /// in place with `rng` (uniform: a uniform shuffle of any order is uniform). Redeals until a
    /// double is dealt when the rules require it. For playout loops.
    pub fn redeal_first_hand(&mut self, rng: &mut crate::deal::FastRng) {
        if self.rules.is_standard_profile() {
            self.redeal_first_hand_std(rng);
            return;
        }
        let n = self.deal.len();
        let lot = self.rules.first_lead == FirstLead::Lot;
        loop {
            // Shuffled in place: this state's deal is only replaced, never needed again.
            rng.tile_order_into(&mut self.deal.order[..n]);
            if lot {
                self.deal.lot = Seat(rng.below(u32::from(self.rules.players)) as u8);
            }
            if self.deal_hand(HandStart::first()).is_ok() {
                return;
            }
        }
    }

    /// [`State::redeal_first_hand`] under the standard profile: the same generator calls in the
    /// same order, so the same hands, with the deal made by [`State::deal_first_hand_std`].
    #[inline]
    pub(crate) fn redeal_first_hand_std(&mut self, rng: &mut crate::deal::FastRng) {
        debug_assert!(self.rules.is_standard_profile() && self.deal.len() == 28);
        let lot = self.rules.first_lead == FirstLead::Lot;
        loop {
            let order: &mut [Tile; 28] = (&mut self.deal.order[..28])
                .try_into()
                .expect("a double-six deal has 28 tiles");
            rng.tile_order_fixed(order);
            if lot {
                self.deal.lot = Seat(rng.below(2) as u8);
            }
            if self.deal_first_hand_std() {
                return;
            }
        }
    }

    /// [`State::deal_hand`] of a first hand under the standard profile (two players, a
    /// double-six set): both hands are made in registers and the leader found from them before
    /// anything is stored, and only what a standard-profile hand uses is reset. The rarer
    /// opening rules (no double dealt and no redeal) go to the general deal. Returns false,
    /// having changed nothing, when the deal must be redone for want of a double.
    #[inline(always)]
    fn deal_first_hand_std(&mut self) -> bool {
        let h = usize::from(self.rules.hand_size);
        debug_assert!(2 * h <= 28);
        let order = &self.deal.order[..2 * h];
        let (mut b0, mut c0, mut b1, mut c1) = (0u64, 0u64, 0u64, 0u64);
        for (t0, t1) in order[..h].iter().zip(&order[h..]) {
            b0 |= 1u64 << (t0.0 & 63);
            c0 += SUIT_WORDS_LOW[usize::from(t0.0) & 31];
            b1 |= 1u64 << (t1.0 & 63);
            c1 += SUIT_WORDS_LOW[usize::from(t1.0) & 31];
        }
        let doubles = (b0 | b1) & Tile::DOUBLES.0 as u64;
        // The leader, the kind of lead, the tile that must be led and the tile shown.
        let (leader, kind, forced, shown) = match self.rules.first_lead {
            FirstLead::Lot => (self.deal.lot, LeadKind::Lot, None, None),
            FirstLead::TopDouble => {
                let d = Tile::double(6);
                let bit = 1u64 << (d.0 & 63);
                if doubles & bit == 0 {
                    return false;
                }
                let seat = Seat(u8::from(b0 & bit == 0));
                (seat, LeadKind::HighestDouble, Some(d), Some(d))
            }
            FirstLead::HighestDouble | FirstLead::HighestDoubleAny if doubles != 0 => {
                let d = Tile(63 - doubles.leading_zeros() as u8);
                let seat = Seat(u8::from(b0 & (1u64 << (d.0 & 63)) == 0));
                let forced = (self.rules.first_lead == FirstLead::HighestDouble).then_some(d);
                (seat, LeadKind::HighestDouble, forced, Some(d))
            }
            FirstLead::HighestDouble | FirstLead::HighestDoubleAny => {
                if self.rules.no_double == NoDouble::Redeal {
                    return false;
                }
                return self.deal_hand(HandStart::first()).is_ok();
            }
        };
        self.hands = BySeat::default();
        self.hands.0[0] = TileSet(u128::from(b0));
        self.hands.0[1] = TileSet(u128::from(b1));
        self.suit_counts = BySeat::default();
        self.suit_counts.0[0][..8].copy_from_slice(&c0.to_le_bytes());
        self.suit_counts.0[1][..8].copy_from_slice(&c1.to_le_bytes());
        self.start = HandStart::first();
        self.scores = BySide::default();
        self.plays = BySeat::default();
        self.drawn = 0;
        self.set_bone_left((28 - 2 * h) as u8);
        self.side[0] = Side(0);
        self.side[1] = Side(1);
        self.clear_play();
        self.leader = leader;
        self.lead_kind = kind;
        self.forced_lead = forced;
        self.shown = shown;
        self.to_move = leader;
        true
    }

    /// Empty the table and the hand's history and outcome, for a hand about to start.
    #[inline(always)]
    fn clear_play(&mut self) {
        self.layout = Layout::new();
        self.phase = Phase::Play;
        self.drew = false;
        self.last_drawn_playable = false;
        self.claimable = 0;
        self.muggins = 0;
        self.muggins_open = 0;
        self.result = None;
        self.winner = None;
        self.log.clear();
    }

    /// [`State::reset`] for values already checked: valid rules, a deal made for them, a seat in
    /// range. Fails only with [`SetupError::NoDouble`], leaving the state unchanged.
    #[inline]
    fn reset_trusted(
        &mut self,
        rules: Rules,
        deal: Deal,
        start: HandStart,
    ) -> Result<(), SetupError> {
        let old = (self.rules, self.deal);
        self.rules = rules;
        self.deal = deal;
        let r = self.deal_hand(start);
        if r.is_err() {
            (self.rules, self.deal) = old;
        }
        r
    }

    /// Start a hand from this state's rules and deal. Fails only with
    /// [`SetupError::NoDouble`], having changed nothing but the rules and the deal.
    #[inline]
    fn deal_hand(&mut self, start: HandStart) -> Result<(), SetupError> {
        let rules = self.rules;
        let h = rules.hand_size as usize;
        let dealt = self.deal.dealt();
        let needs = if start.highest_double {
            rules.opening_needs()
        } else {
            None
        };
        if rules.set == 6 {
            // A double-six set: the tiles fit a 64-bit word and the pips 0 to 6 the low eight
            // bytes of the per-pip counts. At most 28 tiles are dealt. The hands are made
            // first and checked against the opening rule before anything is stored.
            let order = &self.deal.order[..28];
            let players = usize::from(rules.players).min(MAX_SEATS);
            let (mut bits, mut counts) = ([0u64; MAX_SEATS], [0u64; MAX_SEATS]);
            let mut all = 0u64;
            for seat in 0..players {
                let (mut b, mut c) = (0u64, 0u64);
                for t in &order[seat * h..(seat + 1) * h] {
                    b |= 1u64 << (t.0 & 63);
                    c += SUIT_WORDS_LOW[usize::from(t.0) & 31];
                }
                (bits[seat], counts[seat], all) = (b, c, all | b);
            }
            if let Some(need) = needs {
                if u128::from(all) & need.0 == 0 {
                    return Err(SetupError::NoDouble);
                }
            }
            self.hands = BySeat::default();
            self.suit_counts = BySeat::default();
            for seat in 0..players {
                self.hands.0[seat] = TileSet(u128::from(bits[seat]));
                self.suit_counts.0[seat][..8].copy_from_slice(&counts[seat].to_le_bytes());
            }
        } else {
            if let Some(need) = needs {
                if !self.deal.order[..dealt].iter().any(|&t| need.contains(t)) {
                    return Err(SetupError::NoDouble);
                }
            }
            self.hands = BySeat::default();
            self.suit_counts = BySeat::default();
            for (seat, chunk) in self.deal.order[..dealt].chunks_exact(h).enumerate() {
                for t in chunk {
                    self.hands.0[seat & 7].insert(*t);
                    add_suits(&mut self.suit_counts.0[seat & 7], *t, true);
                }
            }
        }
        self.start = start;
        self.scores = start.scores;
        self.plays = BySeat::default();
        self.drawn = 0;
        self.set_bone_left((self.deal.len() - dealt) as u8);
        for (i, side) in self.side[..usize::from(rules.players)]
            .iter_mut()
            .enumerate()
        {
            *side = rules.side_of(Seat(i as u8));
        }
        self.clear_play();
        self.choose_leader()
    }

    fn choose_leader(&mut self) -> Result<(), SetupError> {
        let n = self.rules.players;
        self.forced_lead = None;
        self.shown = None;
        if !self.start.highest_double {
            self.leader = self.start.free_leader;
            self.lead_kind = LeadKind::Free;
            self.to_move = self.leader;
            return Ok(());
        }
        let holder = |s: &State, t: Tile| (0..n).map(Seat).find(|&p| s.hands[p].contains(t));
        let all = TileSet(self.hands.0.iter().fold(0, |acc, h| acc | h.0));
        let any_tile = self.rules.first_lead == FirstLead::HighestDoubleAny;
        match self.rules.first_lead {
            FirstLead::Lot => {
                self.leader = self.deal.lot;
                self.lead_kind = LeadKind::Lot;
            }
            FirstLead::TopDouble => {
                let d = Tile::double(self.rules.set);
                self.leader = holder(self, d).ok_or(SetupError::NoDouble)?;
                self.lead_kind = LeadKind::HighestDouble;
                self.forced_lead = Some(d);
                self.shown = Some(d);
            }
            FirstLead::HighestDouble | FirstLead::HighestDoubleAny => {
                let doubles = all.and(Tile::DOUBLES);
                if doubles.is_empty() {
                    self.lead_without_double()?;
                } else {
                    // Doubles' indices grow with their pip, so the highest bit is the highest
                    // double.
                    let d =
                        Tile::from_index(127 - doubles.0.leading_zeros() as u8).expect("a double");
                    self.leader = holder(self, d).expect("a dealt tile has a holder");
                    self.lead_kind = LeadKind::HighestDouble;
                    self.forced_lead = Some(d);
                }
                self.shown = self.forced_lead;
                if any_tile {
                    self.forced_lead = None;
                }
            }
        }
        self.to_move = self.leader;
        Ok(())
    }

    /// The highest-double rules when no double was dealt: the no-double option decides.
    fn lead_without_double(&mut self) -> Result<(), SetupError> {
        let n = self.rules.players;
        match self.rules.no_double {
            NoDouble::Redeal => Err(SetupError::NoDouble),
            NoDouble::HeaviestTile => {
                let all = TileSet(self.hands.0.iter().fold(0, |acc, h| acc | h.0));
                let t = all
                    .iter()
                    .max_by_key(|t| t.weight())
                    .expect("hands are not empty");
                self.leader = (0..n)
                    .map(Seat)
                    .find(|&p| self.hands[p].contains(t))
                    .expect("a dealt tile has a holder");
                self.lead_kind = LeadKind::HeaviestTile;
                self.forced_lead = Some(t);
                Ok(())
            }
            NoDouble::DrawUntilDouble => {
                let mut seat = Seat(0);
                loop {
                    if self.bone_left == 0 {
                        // Every tile is out and none is a double: impossible with a whole set
                        // (it holds every double), kept as an error rather than a panic.
                        return Err(SetupError::NoDouble);
                    }
                    let t = self.lead_draw(seat);
                    if t.is_double() {
                        self.leader = seat;
                        self.forced_lead = Some(t);
                        break;
                    }
                    seat = seat.next(n);
                }
                self.lead_kind = LeadKind::DrawUntilDouble;
                Ok(())
            }
            NoDouble::EachDraws => {
                // One tile each, seat 0 first, as far as the boneyard goes.
                for seat in (0..n).map(Seat) {
                    if self.bone_left == 0 {
                        break;
                    }
                    self.lead_draw(seat);
                }
                let all = TileSet(self.hands.0.iter().fold(0, |acc, h| acc | h.0));
                let doubles = all.and(Tile::DOUBLES);
                let (t, kind) = if doubles.is_empty() {
                    let t = all
                        .iter()
                        .max_by_key(|t| t.weight())
                        .expect("hands are not empty");
                    (t, LeadKind::HeaviestTile)
                } else {
                    let d =
                        Tile::from_index(127 - doubles.0.leading_zeros() as u8).expect("a double");
                    (d, LeadKind::HighestDouble)
                };
                self.leader = (0..n)
                    .map(Seat)
                    .find(|&p| self.hands[p].contains(t))
                    .expect("a dealt tile has a holder");
                self.lead_kind = kind;
                self.forced_lead = Some(t);
                Ok(())
            }
        }
    }

    /// One tile drawn by `seat` before the lead (the no-double rules), logged.
    fn lead_draw(&mut self, seat: Seat) -> Tile {
        let t = self.deal.order[self.deal.dealt() + self.drawn as usize];
        self.drawn += 1;
        self.set_bone_left(self.bone_left - 1);
        self.take(seat, t);
        self.push_log(Entry::LeadDraw {
            seat,
            tile: Some(t),
        });
        t
    }

    /// Deal the next hand after a finished one. The leader follows the rules (winner, rotation,
    /// or the highest double after a block).
    pub fn next_hand(&mut self, deal: Deal) -> Result<(), SetupError> {
        let start = self.next_hand_start().ok_or(SetupError::NotBetweenHands)?;
        *self = State::with_start(self.rules, deal, start)?;
        Ok(())
    }

    /// How the next hand starts, once this hand is over and the game is not.
    #[must_use]
    pub fn next_hand_start(&self) -> Option<HandStart> {
        if self.phase != Phase::HandOver {
            return None;
        }
        let result = self.result.as_ref()?;
        let (highest_double, free_leader) = match self.rules.next_lead {
            NextLead::Rotate => (false, self.leader.next(self.rules.players)),
            NextLead::FirstLead => (true, Seat(0)),
            NextLead::Winner => match result.end {
                HandEnd::Domino { seat } => (false, seat),
                HandEnd::Blocked => (true, Seat(0)),
            },
        };
        Some(HandStart {
            hand_no: self.start.hand_no + 1,
            scores: self.scores,
            highest_double,
            free_leader,
        })
    }

    /// Deal the next hand from the game's seed (shuffle version 1).
    pub fn next_hand_from_seed(&mut self, seed: &Seed) -> Result<(), SetupError> {
        let start = self.next_hand_start().ok_or(SetupError::NotBetweenHands)?;
        let deal = Deal::from_seed(
            seed,
            u32::from(start.hand_no),
            &self.rules,
            start.highest_double,
        );
        *self = State::with_start(self.rules, deal, start)?;
        Ok(())
    }

    // ----- accessors -----

    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> &Rules {
        &self.rules
    }

    /// How this hand started.
    #[must_use]
    pub const fn start(&self) -> &HandStart {
        &self.start
    }

    /// This hand's deal (hands and boneyard order).
    #[must_use]
    pub const fn deal(&self) -> &Deal {
        &self.deal
    }

    /// Who led (or leads) this hand.
    #[must_use]
    pub const fn leader(&self) -> Seat {
        self.leader
    }

    /// How the leader was chosen.
    #[must_use]
    pub const fn lead_kind(&self) -> LeadKind {
        self.lead_kind
    }

    /// The tile the hand must be led with, if the rules force one.
    #[must_use]
    pub const fn forced_lead(&self) -> Option<Tile> {
        self.forced_lead
    }

    /// The tile that decided who leads, which the table has seen (the highest double, the
    /// heaviest tile or the double drawn); `None` for a free lead or a lead by lot.
    #[must_use]
    pub const fn shown_tile(&self) -> Option<Tile> {
        self.shown
    }

    /// Scores per side.
    #[must_use]
    pub const fn scores(&self) -> &BySide<i32> {
        &self.scores
    }

    /// A seat's tiles.
    #[must_use]
    pub fn hand(&self, seat: Seat) -> TileSet {
        self.hands[seat]
    }

    /// Every seat's tiles.
    #[must_use]
    pub const fn hands(&self) -> &BySeat<TileSet> {
        &self.hands
    }

    /// The layout.
    #[must_use]
    pub const fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The boneyard tiles not yet drawn, in draw order.
    #[must_use]
    pub fn boneyard(&self) -> &[Tile] {
        &self.deal.boneyard()[self.drawn as usize..]
    }

    /// Tiles left in the boneyard.
    #[must_use]
    pub const fn boneyard_len(&self) -> u8 {
        self.bone_left
    }

    /// Whose turn it is (meaningless once the hand is over).
    #[must_use]
    pub const fn to_move(&self) -> Seat {
        self.to_move
    }

    /// The phase.
    #[must_use]
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// The result of the hand, once it is over.
    #[must_use]
    pub const fn result(&self) -> Option<&HandResult> {
        self.result.as_ref()
    }

    /// The winning side, once the game is over.
    #[must_use]
    pub const fn winner(&self) -> Option<Side> {
        self.winner
    }

    /// Whether the hand is over (or the game, which ends the hand too).
    #[must_use]
    pub const fn is_hand_over(&self) -> bool {
        matches!(self.phase, Phase::HandOver | Phase::GameOver)
    }

    /// The hand's log, in order, with drawn tiles shown.
    #[must_use]
    pub fn log(&self) -> &[Entry] {
        self.log.as_slice()
    }

    /// Whether a tile may be drawn now.
    #[must_use]
    #[inline]
    pub const fn can_draw(&self) -> bool {
        self.drawable
    }

    #[inline]
    fn set_bone_left(&mut self, n: u8) {
        self.bone_left = n;
        self.drawable = self.rules.drawing && n > self.rules.boneyard_keep;
    }

    /// Missed points the seat to move may take with a Muggins call.
    #[must_use]
    pub const fn muggins_available(&self) -> u16 {
        self.muggins
    }

    /// Points the last play made, to be claimed under manual scoring.
    #[must_use]
    pub const fn claimable(&self) -> u16 {
        self.claimable
    }

    /// Whether the seat to move drew this turn, and whether the last tile drawn fits.
    #[must_use]
    pub const fn drew_this_turn(&self) -> (bool, bool) {
        (self.drew, self.last_drawn_playable)
    }

    #[inline]
    pub(crate) fn turn_info(&self) -> TurnInfo<'_> {
        TurnInfo {
            rules: &self.rules,
            layout: &self.layout,
            phase: self.phase,
            hand: self.hands[self.to_move],
            forced_lead: self.forced_lead,
            drew: self.drew,
            last_drawn_playable: self.last_drawn_playable,
            can_draw: self.can_draw(),
            claimable: self.claimable,
            muggins: self.muggins > 0,
        }
    }

    // ----- the play API -----

    /// Fill `out` with every legal action of the seat to move.
    #[inline]
    pub fn legal_actions_into(&self, out: &mut ActionList) {
        self.turn_info().legal_actions(out);
    }

    /// Every legal action of the seat to move.
    #[must_use]
    pub fn legal_actions(&self) -> ActionList {
        let mut l = ActionList::new();
        self.legal_actions_into(&mut l);
        l
    }

    /// Whether the list-free paths below apply: a play-phase turn with no Muggins call open.
    #[inline]
    fn ordinary_turn(&self) -> bool {
        matches!(self.phase, Phase::Play)
            && self.muggins == 0
            && !(self.drew && self.rules.draw_one)
    }

    /// Number of legal actions, without building the list.
    #[inline]
    #[must_use]
    pub fn legal_action_count(&self) -> usize {
        if !self.ordinary_turn() {
            return self.legal_actions().len();
        }
        if self.layout.is_empty() {
            return if self.forced_lead.is_some() {
                1
            } else {
                self.hands[self.to_move].len() as usize
            };
        }
        let can_draw = self.can_draw();
        if self.drew && !self.last_drawn_playable && can_draw {
            return 1;
        }
        // The seat's plays, as kept up to date with its hand and the layout.
        let total = usize::from(self.plays[self.to_move]);
        let draw = !self.drew && can_draw && (total == 0 || self.rules.voluntary_draw);
        let pass = total == 0 && !can_draw;
        total + usize::from(draw || pass)
    }

    /// The `k`-th legal action in the order of [`State::legal_actions`], without building the
    /// list. Panics if `k` is out of range.
    #[inline]
    #[must_use]
    pub fn nth_legal_action(&self, k: usize) -> Action {
        if !self.ordinary_turn() {
            return self.legal_actions()[k];
        }
        if self.layout.is_empty() {
            let t = match self.forced_lead {
                Some(t) if k == 0 => Some(t),
                Some(_) => None,
                None => self.hands[self.to_move].nth(k as u32),
            };
            return Action::lead(t.expect("legal action index out of range"));
        }
        let can_draw = self.can_draw();
        if self.drew && !self.last_drawn_playable && can_draw {
            assert!(k == 0, "legal action index out of range");
            return Action::Draw;
        }
        let hand = self.hands[self.to_move].0;
        let counts = &self.suit_counts[self.to_move];
        let mut k = k;
        let mut open = self.layout.open_mask();
        while open != 0 {
            let a = ArmId(open.trailing_zeros() as u8);
            open &= open - 1;
            let pip = self.layout.arm_pip(a);
            let c = counts[pip as usize] as usize;
            if k < c {
                let mut m = hand & Tile::suit(pip).0;
                for _ in 0..k {
                    m &= m - 1;
                }
                let t = Tile::from_index(m.trailing_zeros() as u8).expect("k is below the count");
                return Action::play(t, a);
            }
            k -= c;
        }
        assert!(k == 0, "legal action index out of range");
        if can_draw && !self.drew {
            Action::Draw
        } else {
            Action::Pass
        }
    }

    #[cold]
    #[inline(never)]
    fn random_action_slow(&self, rng: &mut crate::deal::FastRng) -> Action {
        let n = self.legal_action_count();
        assert!(n > 0, "no legal action: the hand is over");
        self.nth_legal_action(rng.below(n as u32) as usize)
    }

    /// A legal action chosen uniformly at random.
    #[inline(always)]
    pub fn random_action(&self, rng: &mut crate::deal::FastRng) -> Action {
        self.random_action_in::<false>(rng)
    }

    /// [`State::random_action`] under a rules profile: with `STD` the rules are known to be
    /// [`Rules::is_standard_profile`], so its checks fold away.
    #[inline(always)]
    pub(crate) fn random_action_in<const STD: bool>(
        &self,
        rng: &mut crate::deal::FastRng,
    ) -> Action {
        // Under the standard profile there are no claims and no Muggins calls.
        debug_assert!(!STD || self.ordinary_turn());
        if STD && self.layout.is_empty() {
            // The lead: the tile the rules name, or any tile of a one-word hand (a generator
            // output is taken either way, as the general path takes one).
            let k = rng.below(match self.forced_lead {
                Some(_) => 1,
                None => self.hands.0[self.to_move.idx() & 1].len(),
            });
            if let Some(t) = self.forced_lead {
                return Action::lead(t);
            }
            let mut m = self.hands.0[self.to_move.idx() & 1].0 as u64;
            for _ in 0..k {
                m &= m - 1;
            }
            return Action::lead(Tile(m.trailing_zeros() as u8));
        }
        if (!STD && !self.ordinary_turn()) || self.layout.is_empty() {
            return self.random_action_slow(rng);
        }
        let can_draw = self.can_draw();
        if self.drew && !self.last_drawn_playable && can_draw {
            return Action::Draw;
        }
        let counts = &self.suit_counts[self.to_move];
        let open_mask = self.layout.open_mask();
        let total = u32::from(self.plays[self.to_move]);
        debug_assert_eq!(
            total,
            self.layout
                .open_arms()
                .map(|a| u32::from(counts[(self.layout.arm_pip(a) & 15) as usize]))
                .sum::<u32>(),
            "the kept play count matches the open arms"
        );
        let draw = !self.drew && can_draw && (total == 0 || self.voluntary_draw::<STD>());
        let pass = total == 0 && !can_draw;
        let mut k = rng.below(total + u32::from(draw || pass));
        if k >= total {
            return if draw { Action::Draw } else { Action::Pass };
        }
        let hand = self.hands[self.to_move].0;
        let mut open = open_mask;
        while open != 0 {
            let a = ArmId(open.trailing_zeros() as u8);
            open &= open - 1;
            let pip = self.layout.arm_pip(a) & 15;
            let c = u32::from(counts[pip as usize]);
            if k < c {
                if STD {
                    // A double-six set: every tile's bit is in the low word.
                    let mut m = hand as u64 & Tile::suit(pip).0 as u64;
                    for _ in 0..k {
                        m &= m - 1;
                    }
                    return Action::play(Tile(m.trailing_zeros() as u8), a);
                }
                let mut m = hand & Tile::suit(pip).0;
                for _ in 0..k {
                    m &= m - 1;
                }
                return Action::play(TileSet(m).first_unchecked(), a);
            }
            k -= c;
        }
        unreachable!("k is below the total")
    }

    /// Put the tiles still in the boneyard in a new uniformly random order. Hands, layout and
    /// history are unchanged; only the order of future draws changes. For search that knows
    /// the hands but not the draws (an observer of every hand cannot see the boneyard order).
    pub fn shuffle_boneyard(&mut self, rng: &mut crate::deal::FastRng) {
        let end = self.deal.len();
        let pos = end - self.bone_left as usize;
        rng.shuffle(&mut self.deal.order[pos..end]);
    }

    /// Whether `a` is legal for the seat to move.
    #[must_use]
    pub fn is_legal(&self, a: Action) -> bool {
        self.turn_info().check(a).is_ok()
    }

    /// Why `a` is illegal, or `Ok` if it is legal.
    pub fn check(&self, a: Action) -> Result<(), IllegalAction> {
        self.turn_info().check(a)
    }

    /// Apply a legal action. On error the state is unchanged.
    pub fn apply(&mut self, a: Action) -> Result<Outcome, IllegalAction> {
        self.check(a)?;
        Ok(self.apply_unchecked(a))
    }

    /// Apply an action known to be legal (from [`State::legal_actions`]). An illegal action
    /// here leaves the state inconsistent; use [`State::apply`] for untrusted input.
    #[inline(always)]
    pub fn apply_unchecked(&mut self, a: Action) -> Outcome {
        self.apply_in::<false>(a)
    }

    /// [`State::apply_unchecked`] under a rules profile (see [`State::random_action_in`]).
    #[inline(always)]
    pub(crate) fn apply_in<const STD: bool>(&mut self, a: Action) -> Outcome {
        debug_assert!(!STD || self.rules.is_standard_profile());
        match a {
            Action::Play { tile, arm } => self.do_play::<STD>(tile, arm),
            Action::Draw => self.do_draw::<STD>(),
            Action::Pass => {
                let ends = self.layout.open_pips();
                self.push_log_in::<STD>(Entry::Pass {
                    seat: self.to_move,
                    ends,
                });
                self.muggins = 0;
                self.advance_in::<STD>();
                Outcome::default()
            }
            Action::Claim(n) => self.do_claim(n),
            Action::Muggins => self.do_muggins(),
        }
    }

    #[cold]
    #[inline(never)]
    fn do_muggins(&mut self) -> Outcome {
        let missed = self.muggins;
        self.muggins = 0;
        self.muggins_open = 0;
        let side = self.rules.side_of(self.to_move);
        // The log records what was scored (an exact target may refuse the points).
        let scored = self.add_score(side, i32::from(missed)) as u16;
        self.push_log(Entry::Muggins {
            seat: self.to_move,
            points: scored,
        });
        Outcome {
            points: scored,
            game_over: scored > 0 && self.check_immediate_win(side),
            ..Outcome::default()
        }
    }

    #[inline]
    fn take(&mut self, seat: Seat, t: Tile) {
        self.hands[seat].insert(t);
        add_suits(&mut self.suit_counts[seat], t, true);
        self.plays[seat] = self.plays[seat].wrapping_add(u16::from(self.layout.fits_count(t)));
    }

    /// Every seat's play count from scratch (after the lead).
    fn recount_plays<const STD: bool>(&mut self) {
        for p in 0..self.players::<STD>() {
            let c = &self.suit_counts.0[p];
            self.plays.0[p] = self
                .layout
                .open_arms()
                .map(|a| u16::from(c[(self.layout.arm_pip(a) & 15) as usize]))
                .sum();
        }
    }

    /// Sprouts just opened: each seat gains its tiles carrying their pips.
    #[cold]
    fn add_opened_arms(&mut self, mut opened: u32) {
        while opened != 0 {
            let a = ArmId(opened.trailing_zeros() as u8);
            opened &= opened - 1;
            let pip = (self.layout.arm_pip(a) & 15) as usize;
            for p in 0..self.rules.players as usize {
                self.plays.0[p] =
                    self.plays.0[p].wrapping_add(u16::from(self.suit_counts.0[p][pip]));
            }
        }
    }

    #[inline]
    fn push_log(&mut self, e: Entry) {
        self.log.push(e);
    }

    /// [`State::push_log`] under a rules profile: a standard-profile hand (two players, a
    /// double-six set) logs at most 192 entries, so its log never leaves its place.
    #[inline(always)]
    fn push_log_in<const STD: bool>(&mut self, e: Entry) {
        if STD {
            self.log.push_inline(e);
        } else {
            self.log.push(e);
        }
    }

    /// Points a count scores during play under these rules.
    #[inline]
    #[must_use]
    pub fn count_points(rules: &Rules, count: u16) -> u16 {
        if rules.play_scoring == PlayScoring::Fives && !rules.cribbage_scale {
            return FIVES_POINTS[count as usize & 1023];
        }
        State::count_points_general(rules, count)
    }

    fn count_points_general(rules: &Rules, count: u16) -> u16 {
        if count == 0 {
            return 0;
        }
        match rules.play_scoring {
            PlayScoring::None => 0,
            PlayScoring::Fives => {
                if count % 5 == 0 {
                    if rules.cribbage_scale {
                        count / 5
                    } else {
                        count
                    }
                } else {
                    0
                }
            }
            PlayScoring::FivesAndThrees => {
                let mut p = 0;
                if count % 5 == 0 {
                    p += count / 5;
                }
                if count % 3 == 0 {
                    p += count / 3;
                }
                p
            }
        }
    }

    /// Add points to a side, honouring the exact-target option. Returns what was added.
    fn add_score(&mut self, side: Side, pts: i32) -> i32 {
        if pts == 0 {
            return 0;
        }
        if self.rules.exact_target
            && pts > 0
            && self.scores[side] + pts > i32::from(self.rules.target)
        {
            return 0;
        }
        self.scores[side] += pts;
        pts
    }

    fn reached(&self, side: Side) -> bool {
        let t = i32::from(self.rules.target);
        if self.rules.exact_target {
            self.scores[side] == t
        } else {
            self.scores[side] >= t
        }
    }

    /// Under the immediate rule, end the game if `side` reached the target.
    fn check_immediate_win(&mut self, side: Side) -> bool {
        if self.rules.game_end == GameEnd::Immediate && self.reached(side) {
            self.winner = Some(side);
            self.phase = Phase::GameOver;
            true
        } else {
            false
        }
    }

    #[inline(always)]
    fn do_play<const STD: bool>(&mut self, tile: Tile, arm: Option<ArmId>) -> Outcome {
        let seat = self.to_move;
        // Whether the player has just laid their last tile, read off the hand while it is at
        // hand (the standard profile's hand is one word).
        let out_of_tiles = if STD {
            let i = seat.idx() & 1;
            let bit = 1u64 << (tile.index() & 63);
            let left = self.hands.0[i].0 as u64 & !bit;
            // Only the low word changes (the high word of a double-six hand stays empty).
            self.hands.0[i].0 &= !u128::from(bit);
            add_suits_low(&mut self.suit_counts.0[i], tile, false);
            left == 0
        } else {
            self.hands[seat].remove(tile);
            add_suits(&mut self.suit_counts[seat], tile, false);
            self.hands[seat].is_empty()
        };
        match arm {
            None => {
                self.layout.lay_lead(tile, &self.rules);
                self.recount_plays::<STD>();
            }
            Some(a) => {
                // The tile leaves the hand while the old ends still show.
                self.plays[seat] =
                    self.plays[seat].wrapping_sub(u16::from(self.layout.fits_count(tile)));
                let old_pip = self.layout.arm_pip(a);
                let old_open = self.layout.open_mask();
                self.layout.lay_in::<STD>(tile, a, &self.rules);
                let new_pip = self.layout.arm_pip(a);
                if new_pip != old_pip {
                    for p in 0..self.players::<STD>() {
                        let c = &self.suit_counts.0[p];
                        self.plays.0[p] = self.plays.0[p]
                            .wrapping_add(u16::from(c[(new_pip & 15) as usize]))
                            .wrapping_sub(u16::from(c[(old_pip & 15) as usize]));
                    }
                }
                if !STD && self.rules.cross_first {
                    // The cross closes and reopens arms: count every seat's plays afresh.
                    self.recount_plays::<STD>();
                } else {
                    let opened = self.layout.open_mask() & !old_open;
                    if opened != 0 {
                        self.add_opened_arms(opened);
                    }
                }
            }
        }
        self.muggins = 0;
        let count = self.layout.count();
        let points = if STD {
            FIVES_POINTS[count as usize & 1023]
        } else {
            State::count_points(&self.rules, count)
        };
        let mut out = Outcome::default();
        if !STD && self.rules.manual_scoring {
            self.push_log(Entry::Play {
                seat,
                tile,
                arm,
                count,
                points: 0,
            });
            self.claimable = points;
            self.phase = Phase::Claim;
            return out;
        }
        // Two players without partnerships: each seat is its own side.
        let side = if STD {
            Side(seat.0 & 1)
        } else {
            self.side[seat.idx() & 7]
        };
        // Adding zero changes nothing, so the usual case adds without a branch on whether the
        // count scored; the exact target needs its check.
        let scored = if !STD && self.rules.exact_target {
            self.add_score(side, i32::from(points)) as u16
        } else {
            self.scores[side] += i32::from(points);
            points
        };
        self.push_log_in::<STD>(Entry::Play {
            seat,
            tile,
            arm,
            count,
            points: scored,
        });
        out.points = scored;
        // A score below the target (the usual case) cannot end the game; an exact target is
        // never passed, so reaching it is the same test.
        if self.scores[side] >= i32::from(self.rules.target) && self.check_immediate_win(side) {
            out.game_over = true;
            return out;
        }
        self.after_lay_in::<STD>(&mut out, out_of_tiles);
        out
    }

    #[cold]
    #[inline(never)]
    fn do_claim(&mut self, n: u16) -> Outcome {
        let seat = self.to_move;
        let actual = self.claimable;
        self.claimable = 0;
        self.phase = Phase::Play;
        let mut out = Outcome::default();
        let side = self.rules.side_of(seat);
        let (points, missed) = if n == actual && n > 0 {
            (self.add_score(side, i32::from(n)) as u16, 0)
        } else {
            (0, actual)
        };
        self.push_log(Entry::Claim {
            seat,
            claimed: n,
            points,
        });
        out.points = points;
        if points > 0 && self.check_immediate_win(side) {
            out.game_over = true;
            return out;
        }
        self.after_lay(&mut out);
        if !out.hand_over && missed > 0 {
            if self.rules.muggins_call == MugginsCall::Any {
                // Open to every opponent in turn until this side moves again.
                self.muggins_open = missed;
                self.muggins_side = side;
            }
            if self.rules.side_of(self.to_move) != side {
                self.muggins = missed;
            }
        }
        out
    }

    /// After a tile is laid (and claimed): domino, block, or the next turn.
    #[inline(always)]
    fn after_lay(&mut self, out: &mut Outcome) {
        let out_of_tiles = self.hands[self.to_move].is_empty();
        self.after_lay_in::<false>(out, out_of_tiles);
    }

    #[inline(always)]
    fn after_lay_in<const STD: bool>(&mut self, out: &mut Outcome, out_of_tiles: bool) {
        let seat = self.to_move;
        if out_of_tiles {
            self.end_hand::<STD>(HandEnd::Domino { seat }, out);
            return;
        }
        if self.is_blocked_in::<STD>() {
            self.end_hand::<STD>(HandEnd::Blocked, out);
            return;
        }
        self.advance_in::<STD>();
    }

    #[inline(always)]
    fn advance_in<const STD: bool>(&mut self) {
        self.to_move = if STD {
            Seat(self.to_move.0 ^ 1)
        } else {
            self.to_move.next(self.players::<STD>() as u8)
        };
        self.drew = false;
        self.last_drawn_playable = false;
        if !STD && self.muggins_open > 0 {
            // Missed points open to any opponent: the next opponent may call them, until the
            // turn comes back to the side that missed them.
            if self.side[self.to_move.idx() & 7] == self.muggins_side {
                self.muggins_open = 0;
            } else {
                self.muggins = self.muggins_open;
            }
        }
    }

    /// Nobody can lay and nobody can draw.
    #[inline(always)]
    fn is_blocked_in<const STD: bool>(&self) -> bool {
        if self.can_draw() {
            return false;
        }
        if STD {
            // Each seat's number of plays is kept up to date: nobody can lay when both are 0.
            return self.plays.0[0] | self.plays.0[1] == 0;
        }
        let playable = self.layout.playable_tiles();
        (0..self.players::<STD>()).all(|p| self.hands.0[p].and(playable).is_empty())
    }

    /// The number of players, a constant under the standard profile.
    #[inline(always)]
    fn players<const STD: bool>(&self) -> usize {
        if STD {
            2
        } else {
            self.rules.players as usize
        }
    }

    /// Whether drawing is voluntary; never under the standard profile.
    #[inline(always)]
    fn voluntary_draw<const STD: bool>(&self) -> bool {
        !STD && self.rules.voluntary_draw
    }

    #[inline(always)]
    fn do_draw<const STD: bool>(&mut self) -> Outcome {
        let seat = self.to_move;
        let t = self.deal.order[self.deal.len() - self.bone_left as usize];
        self.drawn += 1;
        self.set_bone_left(self.bone_left - 1);
        let ends = if STD {
            open_pips_low(self.layout.open_pip_counts())
        } else {
            self.layout.open_pips()
        };
        let forced = !self.voluntary_draw::<STD>();
        self.push_log_in::<STD>(Entry::Draw {
            seat,
            tile: Some(t),
            ends,
            forced,
        });
        self.muggins = 0;
        if STD {
            let i = seat.idx() & 1;
            insert_low(&mut self.hands.0[i], t);
            add_suits_low(&mut self.suit_counts.0[i], t, true);
            self.plays.0[i] = self.plays.0[i].wrapping_add(u16::from(self.layout.fits_count(t)));
        } else {
            self.take(seat, t);
        }
        self.drew = true;
        self.last_drawn_playable = if STD {
            self.layout.fits_count(t) != 0
        } else {
            ends.contains(t.hi()) || ends.contains(t.lo())
        };
        let mut out = Outcome {
            drawn: Some(t),
            ..Outcome::default()
        };
        if self.is_blocked_in::<STD>() {
            self.end_hand::<STD>(HandEnd::Blocked, &mut out);
        }
        out
    }

    #[cold]
    #[inline(never)]
    fn end_hand<const STD: bool>(&mut self, end: HandEnd, out: &mut Outcome) {
        let r = &self.rules;
        // Under the standard profile: two players, each its own side, Fives scale.
        let n = if STD { 2 } else { r.players };
        let sides = if STD { 2 } else { r.sides() };
        let mut pips = BySeat::<u16>::default();
        let mut side_pips = BySide::<u16>::default();
        for p in (0..n).map(Seat) {
            let h = self.hands[p];
            let mut v = if STD {
                pips_low(h.0 as u64)
            } else {
                h.pips() as u16
            };
            if r.doubles_count_one_half {
                v -= if STD {
                    pips_low(h.0 as u64 & Tile::DOUBLES.0 as u64)
                } else {
                    h.and(Tile::DOUBLES).pips() as u16
                } / 2;
            }
            pips[p] = v;
            side_pips[if STD { Side(p.0) } else { r.side_of(p) }] += v;
        }
        let all_sides = || (0..sides).map(Side);
        // Winners and the pips the award is reckoned against.
        let (winners, base): (u8, u32) = match end {
            HandEnd::Domino { seat } => (1 << r.side_of(seat).0, 0),
            HandEnd::Blocked => {
                let min = all_sides().map(|s| side_pips[s]).min().unwrap_or(0);
                let mut w = 0u8;
                for s in all_sides() {
                    if side_pips[s] == min {
                        w |= 1 << s.0;
                    }
                }
                (w, u32::from(min))
            }
        };
        // A tie for lowest in a block scores nothing under `blocked-tie=nobody`.
        let winners = if !STD
            && end == HandEnd::Blocked
            && winners.count_ones() > 1
            && r.blocked_tie == BlockedTie::Nobody
        {
            0
        } else {
            winners
        };
        let k = winners.count_ones();
        let mut awards = BySide::<i32>::default();
        let scale = |v: u32| -> i32 {
            let v = v as i32;
            if !STD && (r.cribbage_scale || r.play_scoring == PlayScoring::FivesAndThrees) {
                v / 5
            } else {
                v
            }
        };
        match r.award {
            Award::SubtractOwn => {
                for s in all_sides() {
                    awards[s] = -scale(round5(u32::from(side_pips[s])));
                }
            }
            Award::Opponents | Award::Difference if k > 0 && k < u32::from(sides) => {
                let losers = all_sides().filter(|s| winners & (1 << s.0) == 0);
                let total: u32 = match r.award {
                    Award::Opponents => losers.map(|s| u32::from(side_pips[s])).sum(),
                    _ => losers.map(|s| round5(u32::from(side_pips[s]) - base)).sum(),
                };
                let each = if k == 1 {
                    round5(total)
                } else {
                    round5_share(total, k)
                };
                for s in all_sides() {
                    if winners & (1 << s.0) != 0 {
                        awards[s] = scale(each);
                    }
                }
            }
            _ => {}
        }
        let mut scored = BySide::<i32>::default();
        for s in all_sides() {
            scored[s] = self.add_score(s, awards[s]);
        }
        self.result = Some(HandResult {
            end,
            hands: self.hands,
            pips,
            side_pips,
            winners: if k == u32::from(sides) { 0 } else { winners },
            awards,
            scored,
        });
        out.hand_over = true;
        self.phase = Phase::HandOver;
        // Game end: any side at the target; the highest wins, a tie for highest plays on.
        let mut best: Option<i32> = None;
        let mut top = 0u8;
        for s in all_sides().filter(|&s| self.reached(s)) {
            let v = self.scores[s];
            match best {
                Some(b) if b > v => {}
                Some(b) if b == v => top |= 1 << s.0,
                _ => {
                    best = Some(v);
                    top = 1 << s.0;
                }
            }
        }
        if top.count_ones() == 1 {
            self.winner = Some(Side(top.trailing_zeros() as u8));
            self.phase = Phase::GameOver;
            out.game_over = true;
            return;
        }
        // A hand limit: after the last hand the highest score wins; a tie plays on.
        let limit = self.rules.effective_hand_limit();
        if !STD && limit > 0 && self.start.hand_no >= limit {
            let best = all_sides().map(|s| self.scores[s]).max().unwrap_or(0);
            let mut top = all_sides().filter(|&s| self.scores[s] == best);
            if let (Some(w), None) = (top.next(), top.next()) {
                self.winner = Some(w);
                self.phase = Phase::GameOver;
                out.game_over = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn rounding_matches_the_rules() {
        assert_eq!(round5(3), 5); // a lone 1-2
        assert_eq!(round5(2), 0); // a lone 1-1
        assert_eq!(round5(12), 10);
        assert_eq!(round5(13), 15);
        assert_eq!(round5_share(23, 2), 10);
        assert_eq!(round5_share(25, 2), 15);
        assert_eq!(round5_share(20, 2), 10);
    }

    /// Walk random hands of every preset and player count; at every step the list-free paths
    /// must agree with the legal list, and random picks must stay in it.
    #[test]
    fn list_free_paths_agree_with_the_legal_list() {
        let mut rng = crate::deal::FastRng::new(11);
        for (i, preset) in Preset::ALL.into_iter().enumerate() {
            for players in 2..=4 {
                let mut rules = Rules::preset(preset, players);
                rules.voluntary_draw = players == 3 && rules.drawing;
                // Mix in the options that change the layout and drawing.
                if i % 2 == 1 {
                    rules.sprouts = crate::rules::SproutRule::AtOnce;
                }
                if i % 3 == 2 {
                    rules.boneyard_keep = 2;
                }
                for _ in 0..20 {
                    let mut st = crate::playout::random_hand(rules, &mut rng).unwrap();
                    st.redeal_first_hand(&mut rng);
                    while matches!(st.phase(), Phase::Play | Phase::Claim) {
                        let list = st.legal_actions();
                        assert_eq!(st.legal_action_count(), list.len());
                        for (k, a) in list.iter().enumerate() {
                            assert_eq!(st.nth_legal_action(k), *a);
                        }
                        let r = st.random_action(&mut rng);
                        assert!(list.contains(&r), "{r} not in {list:?}");
                        st.apply(r).unwrap();
                    }
                }
            }
        }
    }

    /// The random pick is uniform over the legal list: a chi-square check on one position.
    #[test]
    fn random_action_is_uniform() {
        let mut rng = crate::deal::FastRng::new(5);
        let rules = Rules::preset(Preset::Cross, 2);
        // Find a position with several choices on several arms.
        let st = loop {
            let mut st = crate::playout::random_hand(rules, &mut rng).unwrap();
            st.redeal_first_hand(&mut rng);
            let mut found = None;
            while st.phase() == Phase::Play {
                if st.legal_actions().len() >= 5 && st.layout().open_arms().count() >= 3 {
                    found = Some(st.clone());
                    break;
                }
                let a = st.random_action(&mut rng);
                st.apply_unchecked(a);
            }
            if let Some(f) = found {
                break f;
            }
        };
        let list = st.legal_actions();
        let n = list.len();
        let draws = 20_000 * n;
        let mut hits = vec![0u32; n];
        for _ in 0..draws {
            let a = st.random_action(&mut rng);
            hits[list.iter().position(|x| *x == a).unwrap()] += 1;
        }
        let e = (draws / n) as f64;
        let chi2: f64 = hits.iter().map(|&h| (f64::from(h) - e).powi(2) / e).sum();
        // Wilson-Hilferty upper 0.001 quantile of chi-square with n-1 degrees of freedom.
        let k = (n - 1) as f64;
        let z = 3.090_232;
        let crit = k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3);
        assert!(chi2 < crit, "chi2 {chi2} >= {crit} for {hits:?}");
    }

    #[test]
    fn fives_and_threes_points() {
        let r = Rules::preset(Preset::FivesAndThrees, 2);
        assert_eq!(State::count_points(&r, 15), 8);
        assert_eq!(State::count_points(&r, 6), 2);
        assert_eq!(State::count_points(&r, 10), 2);
        assert_eq!(State::count_points(&r, 7), 0);
        let c = Rules::preset(Preset::Cribbage, 2);
        assert_eq!(State::count_points(&c, 15), 3);
    }
}

#[cfg(test)]
mod standard_deal_tests {
    use super::*;
    use crate::deal::FastRng;
    use crate::rules::Preset;

    /// Every field a hand's play reads, to compare two states.
    fn snapshot(s: &State) -> String {
        format!(
            "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {} {} {} {:?} {:?} {:?} {} {} {} {} {:?} {:?} {:?} {:?}",
            s.rules,
            s.start,
            s.deal,
            s.leader,
            s.lead_kind,
            s.forced_lead,
            s.shown,
            s.scores,
            s.hands,
            s.suit_counts,
            s.plays,
            s.drawn,
            s.bone_left,
            s.drawable,
            &s.side[..2],
            s.layout,
            s.to_move,
            s.drew,
            s.last_drawn_playable,
            s.claimable,
            s.muggins,
            s.phase,
            s.result,
            s.winner,
            s.log(),
        )
    }

    /// The standard profile's deal of a first hand makes the state the general deal makes,
    /// under every lead rule and no-double rule, after hands of every kind (so that whatever
    /// a played hand leaves behind is reset), and redeals exactly when the general deal does.
    #[test]
    fn the_standard_deal_is_the_general_deal() {
        let (mut checked, mut all_redeals) = (0, 0);
        for preset in Preset::ALL {
            for first_lead in [
                FirstLead::HighestDouble,
                FirstLead::HighestDoubleAny,
                FirstLead::Lot,
                FirstLead::TopDouble,
            ] {
                for no_double in [
                    NoDouble::Redeal,
                    NoDouble::DrawUntilDouble,
                    NoDouble::HeaviestTile,
                ] {
                    let mut rules = Rules::preset(preset, 2);
                    rules.first_lead = first_lead;
                    rules.no_double = no_double;
                    if !rules.is_standard_profile() || rules.validate().is_err() {
                        continue;
                    }
                    checked += 1;
                    let mut rng = FastRng::new(5);
                    let mut state =
                        crate::playout::random_hand(rules, &mut rng).expect("valid rules");
                    let (mut redeals, mut deals) = (0, 0);
                    for i in 0..400u64 {
                        let mut order_rng = FastRng::new(i);
                        order_rng.tile_order_into(&mut state.deal.order[..28]);
                        if first_lead == FirstLead::Lot {
                            state.deal.lot = Seat((i % 2) as u8);
                        }
                        let mut general = state.clone();
                        let ok_std = state.deal_first_hand_std();
                        let ok_general = general.deal_hand(HandStart::first()).is_ok();
                        assert_eq!(
                            ok_std, ok_general,
                            "{preset:?} {first_lead:?} {no_double:?} {i}"
                        );
                        if ok_std {
                            deals += 1;
                            assert_eq!(
                                snapshot(&state),
                                snapshot(&general),
                                "{preset:?} {first_lead:?} {no_double:?} {i}"
                            );
                            crate::playout::play_out(&mut state, &mut rng);
                        } else {
                            redeals += 1;
                        }
                    }
                    assert!(deals >= 150, "{preset:?} {first_lead:?} {no_double:?}");
                    all_redeals += redeals;
                }
            }
        }
        assert!(checked >= 12, "checked {checked} rule sets");
        assert!(
            all_redeals > 0,
            "some deals lacked the double the rules need"
        );
    }
}
