//! Sampling full states consistent with a seat's view, uniformly over the consistent deals.
//!
//! # How it works
//! A deal puts every tile in a *slot*: a place in a seat's initial hand, the `k`-th boneyard
//! draw (owned by whoever drew it), or a place still in the boneyard. The viewer knows its own
//! slots. For the others, the *items* to place are the tiles other seats have laid (known tile,
//! known owner, known time) and the unseen tiles. The public history constrains which item may
//! sit in which slot:
//! - a laid tile sat in a slot of the seat that laid it, filled before it was laid;
//! - every forced draw and every pass proves that the seat's hand at that moment held no tile
//!   matching the open ends: no tile filled earlier and still held may carry those pips;
//! - the opening lead proves facts about the initial hands (no double above the highest double
//!   led; no double at all and nothing heavier under the heaviest-tile rule; no double under the
//!   draw-until-double rule, whose lead draws hold non-doubles but for the last); before the lead
//!   is laid, the forced lead tile is known to be in the leader's hand;
//! - what a player did right after drawing shows whether the drawn tile fitted: drawing again
//!   means it did not, laying a tile while drawing was still possible means it did (this is what
//!   survives of the inference when voluntary drawing is allowed);
//! - once a hand is over, its result reveals every hand, so only the boneyard's order is unknown.
//!
//! One fact spans seats and so is not a slot constraint: an unfinished hand was never blocked.
//! Samples whose replay would have blocked the hand early are drawn again (rejection keeps the
//! distribution uniform); after 10,000 failures in a row sampling reports
//! [`ResampleError::TooRare`].
//!
//! Slots with identical constraints form classes. The number of ways to place items
//! `i..` into classes with given remaining capacities is counted by dynamic programming
//! (memoised on the item index and the capacity vector), and a sample walks the items choosing
//! each class with probability proportional to its completions, then arranges each class's items
//! over its slots uniformly. Every consistent deal is the same number of arrangements of one
//! placement, so the sample is uniform over consistent deals. An impossible set of constraints
//! counts zero and is reported as [`ResampleError::Impossible`].

use std::collections::HashMap;
use std::fmt;

use crate::deal::{Deal, FastRng};
use crate::rules::NoDouble;
use crate::state::{Entry, IllegalAction, LeadKind, State};
use crate::tile::{PipSet, Seat, Tile, TileSet};
use crate::view::View;

/// Why no state could be sampled.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ResampleError {
    /// No deal is consistent with the view and the added assumptions.
    Impossible,
    /// The constraints split the slots into more classes than the sampler handles (24), or (on
    /// the bigger sets) into so many ways of counting that an exact count would take too long.
    TooComplex,
    /// A sampled deal failed to replay the view's history (a bug; the message says where).
    Replay(String),
    /// Every one of many samples broke a constraint that spans seats (the hand would already
    /// have been blocked): consistent deals, if any, are too rare to find.
    TooRare,
}

impl fmt::Display for ResampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResampleError::Impossible => {
                write!(f, "no deal is consistent with what this seat has seen")
            }
            ResampleError::TooComplex => {
                write!(
                    f,
                    "the constraints are too fragmented to sample exactly (over 24 slot classes, \
                     or too many ways to count)"
                )
            }
            ResampleError::Replay(s) => write!(f, "a sampled deal did not replay: {s}"),
            ResampleError::TooRare => write!(
                f,
                "no sample in {MAX_ATTEMPTS} attempts kept the hand unblocked; consistent deals \
                 are too rare to find"
            ),
        }
    }
}

impl std::error::Error for ResampleError {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlotKind {
    /// A place in a seat's initial hand.
    Initial(Seat),
    /// The boneyard position `pos` (drawn by its owner, or still in the boneyard).
    Bone(u8),
}

#[derive(Clone, Debug)]
struct Slot {
    kind: SlotKind,
    owner: Option<Seat>,
    /// History index at which the slot was filled (-1: the deal).
    filled: i32,
    /// Tiles the slot may never hold, from the lead rules.
    forbid: TileSet,
}

/// Where an item may go, beyond the slots' own constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    /// Any seat's slot or the boneyard.
    Any,
    /// Only this seat's slots (a tile it laid, a forced lead it holds, or a tile the finished
    /// hand's result shows in its hand).
    Seat(Seat),
    /// Only the boneyard (the finished hand's result shows it in nobody's hand).
    Boneyard,
}

#[derive(Clone, Copy, Debug)]
struct Item {
    tile: Option<Tile>,
    /// For a laid tile: who laid it and when.
    laid: Option<(Seat, i32)>,
    owner: Owner,
}

/// Samples drawn before giving up on the constraint that spans seats (see [`Sampler::sample`]).
const MAX_ATTEMPTS: u32 = 10_000;
/// The most slot classes: each class's remaining capacity takes `bits` bits of a `u128` (5 bits
/// and 24 classes on a double-six set; 7 bits and 18 classes when a class may hold up to 127
/// slots on the bigger sets).
const MAX_CLASSES: usize = 24;
/// The most group splits the bigger sets' count may examine (a few milliseconds of work)
/// before the view is reported too complex to sample exactly.
const GROUP_WORK: u64 = 20_000;

/// A sampler for one view: built once, then asked for as many samples as wanted.
#[derive(Debug)]
pub struct Sampler {
    view: View,
    extra_voids: Vec<(Seat, PipSet)>,
    built: Option<Built>,
}

#[derive(Debug)]
struct Built {
    slots: Vec<Slot>,
    items: Vec<Item>,
    /// Hidden tiles, in the order their items appear after the laid items.
    hidden: Vec<Tile>,
    classes: Vec<Vec<usize>>,
    /// For each item, the classes it may go to (bitmask).
    elig: Vec<u32>,
    caps0: u128,
    /// Bits per class in a capacity vector, and the mask of one class's field.
    bits: u32,
    field: u128,
    /// On the bigger sets: the items grouped by eligibility, smallest group first (see
    /// [`Built::count_groups`]). A double-six set counts item by item, as it always has, so
    /// its samples stay the same for the same generator.
    groups: Vec<Group>,
    /// Splits examined while counting groups; past [`GROUP_WORK`] counting stops and the view
    /// is reported [`ResampleError::TooComplex`].
    work: u64,
    /// The weighted splits met while sampling groups (see [`Built::weighted_splits`]).
    splits: HashMap<(u8, u128), (Vec<u128>, Vec<f64>)>,
    memo: HashMap<(u8, u128), f64>,
    /// Known boneyard draws of the viewer: position -> tile.
    known_bone: Vec<Option<Tile>>,
    viewer_initial: Vec<Tile>,
    total: f64,
    /// For each slot, the items it may hold (bit per item).
    slot_masks: Vec<u128>,
    /// Whether the exact count was made; when not, only [`Sampler::sample_consistent`] can
    /// sample (see [`ResampleError::TooComplex`]).
    exact: bool,
}

impl Sampler {
    /// A sampler for `view`.
    #[must_use]
    pub fn new(view: &View) -> Sampler {
        Sampler {
            view: view.clone(),
            extra_voids: Vec::new(),
            built: None,
        }
    }

    /// Add an assumption: `seat` holds no tile carrying any of `pips` now. For puzzles and
    /// what-if analysis; an impossible assumption makes sampling report
    /// [`ResampleError::Impossible`].
    pub fn assume_lacks(&mut self, seat: Seat, pips: PipSet) {
        self.extra_voids.push((seat, pips));
        self.built = None;
    }

    /// The number of consistent placements (deals up to arrangements within slot classes).
    pub fn count(&mut self) -> Result<f64, ResampleError> {
        self.build()?;
        if self.built.as_ref().is_some_and(|b| !b.exact) {
            return Err(ResampleError::TooComplex);
        }
        Ok(self.built.as_ref().map_or(0.0, |b| b.total))
    }

    fn build(&mut self) -> Result<(), ResampleError> {
        if self.built.is_some() {
            return Ok(());
        }
        let v = &self.view;
        let me = v.seat();
        let n = v.rules().players;
        let h = v.rules().hand_size;
        let hist = v.history();

        // The lead's facts about initial hands, and the lead draws. Before the lead is laid the
        // forced lead (if any) is already known to be in the leader's hand.
        let laid_lead = hist.iter().find_map(|e| match e {
            Entry::Play {
                arm: None, tile, ..
            } => Some(*tile),
            _ => None,
        });
        // The tile that decided the lead: the forced lead, or the tile shown when any tile may
        // be led.
        let lead_tile = v.shown.or(laid_lead.filter(|_| v.forced_lead.is_some()));
        let all_tiles = v.rules().tiles();
        let lead_draws = hist
            .iter()
            .filter(|e| matches!(e, Entry::LeadDraw { .. }))
            .count();
        // Under `no-double=each-draws` every seat drew one tile because no double was dealt;
        // then the highest double held (or the heaviest tile) decided the lead.
        let each_drew = lead_draws > 0 && v.rules().no_double == NoDouble::EachDraws;
        let higher_doubles =
            |d: Tile| -> TileSet { Tile::DOUBLES.iter().filter(|t| t.hi() > d.hi()).collect() };
        let heavier = |t: Tile| -> TileSet {
            all_tiles
                .iter()
                .filter(|x| x.weight() > t.weight())
                .collect()
        };
        let initial_forbid = match (v.lead_kind(), lead_tile) {
            _ if each_drew => match (v.lead_kind(), lead_tile) {
                (LeadKind::HeaviestTile, Some(t)) => Tile::DOUBLES.or(heavier(t)),
                _ => Tile::DOUBLES,
            },
            (LeadKind::HighestDouble, Some(d)) => {
                Tile::DOUBLES.iter().filter(|t| t.hi() > d.hi()).collect()
            }
            (LeadKind::HeaviestTile, Some(t)) => Tile::DOUBLES.or(all_tiles
                .iter()
                .filter(|x| x.weight() > t.weight())
                .collect()),
            (LeadKind::DrawUntilDouble, _) => Tile::DOUBLES,
            _ => TileSet::EMPTY,
        };
        // The highest double or heaviest tile that decided the lead was in the leader's
        // initial hand, never in the boneyard (it may be led later when any tile may lead).
        let bone_forbid = match (v.lead_kind(), lead_tile) {
            (LeadKind::HighestDouble | LeadKind::HeaviestTile, Some(t)) => TileSet::single(t),
            _ => TileSet::EMPTY,
        };
        let rules = v.rules();
        let dealt_boneyard = v.rules().tile_count() as i32 - i32::from(n) * i32::from(h);

        let mut slots = Vec::new();
        let mut known_bone: Vec<Option<Tile>> = Vec::new();
        let mut voids: Vec<(Seat, i32, TileSet)> = Vec::new();
        let mut laid: Vec<Item> = Vec::new();
        let mut my_drawn = TileSet::EMPTY;
        let mut my_laid = TileSet::EMPTY;
        for p in (0..n).map(Seat).filter(|&p| p != me) {
            for _ in 0..h {
                slots.push(Slot {
                    kind: SlotKind::Initial(p),
                    owner: Some(p),
                    filled: -1,
                    forbid: initial_forbid,
                });
            }
        }
        let mut lead_draw_no = 0;
        for (i, e) in hist.iter().enumerate() {
            let at = i as i32;
            match *e {
                Entry::LeadDraw { seat, tile } | Entry::Draw { seat, tile, .. } => {
                    let pos = known_bone.len() as u8;
                    let mut forbid = bone_forbid;
                    if let Entry::LeadDraw { .. } = e {
                        lead_draw_no += 1;
                        forbid = if each_drew {
                            match (v.lead_kind(), lead_tile) {
                                // The leader's one draw gave the double that leads (no double
                                // was dealt); nobody drew a higher one.
                                (LeadKind::HighestDouble, Some(d)) if seat == v.leader() => {
                                    all_tiles.minus(TileSet::single(d))
                                }
                                (LeadKind::HighestDouble, Some(d)) => {
                                    higher_doubles(d).or(TileSet::single(d))
                                }
                                // Still no double: nothing heavier than the tile that leads.
                                (LeadKind::HeaviestTile, Some(t)) if seat == v.leader() => {
                                    Tile::DOUBLES.or(heavier(t))
                                }
                                (LeadKind::HeaviestTile, Some(t)) => {
                                    Tile::DOUBLES.or(heavier(t)).or(TileSet::single(t))
                                }
                                _ => TileSet::EMPTY,
                            }
                        } else if lead_draw_no == lead_draws {
                            all_tiles.minus(lead_tile.map_or(TileSet::EMPTY, TileSet::single))
                        } else {
                            Tile::DOUBLES
                        };
                    }
                    if let Entry::Draw { ends, forced, .. } = *e {
                        if forced {
                            voids.push((seat, at, ends.tiles()));
                        }
                        // What the same player did next in the same turn shows whether the
                        // drawn tile fitted: drawing again means it did not; laying a tile
                        // while drawing was still possible means it did (an unfitting draw
                        // obliges the player to keep drawing).
                        let left = dealt_boneyard - i32::from(pos) - 1;
                        let drawable = rules.drawing && left > i32::from(rules.boneyard_keep);
                        match hist.get(i + 1) {
                            Some(Entry::Draw { seat: s2, .. }) if *s2 == seat => {
                                forbid = forbid.or(ends.tiles());
                            }
                            // Under `draw-one` a forced draw followed by a play fitted (nothing
                            // else could); after a voluntary one the player may lay another tile.
                            Some(Entry::Play { seat: s2, .. })
                                if *s2 == seat
                                    && (if rules.draw_one { forced } else { drawable }) =>
                            {
                                forbid = forbid.or(all_tiles.minus(ends.tiles()));
                            }
                            _ => {}
                        }
                    }
                    if seat == me {
                        let t = tile.ok_or_else(|| {
                            ResampleError::Replay("the viewer's own draw has no tile".into())
                        })?;
                        my_drawn.insert(t);
                        known_bone.push(Some(t));
                    } else {
                        known_bone.push(None);
                        slots.push(Slot {
                            kind: SlotKind::Bone(pos),
                            owner: Some(seat),
                            filled: at,
                            forbid,
                        });
                    }
                }
                Entry::Pass { seat, ends } => voids.push((seat, at, ends.tiles())),
                Entry::Play { seat, tile, .. } => {
                    if seat == me {
                        my_laid.insert(tile);
                    } else {
                        laid.push(Item {
                            tile: Some(tile),
                            laid: Some((seat, at)),
                            owner: Owner::Seat(seat),
                        });
                    }
                }
                Entry::Claim { .. } | Entry::Muggins { .. } => {}
            }
        }
        let now = hist.len() as i32;
        for &(seat, pips) in &self.extra_voids {
            voids.push((seat, now, pips.tiles()));
        }
        let drawn = known_bone.len() as u8;
        for k in 0..v.boneyard_len() {
            slots.push(Slot {
                kind: SlotKind::Bone(drawn + k),
                owner: None,
                filled: -1,
                forbid: bone_forbid,
            });
        }
        let viewer_initial: Vec<Tile> = v.hand().or(my_laid).minus(my_drawn).iter().collect();
        let hidden: Vec<Tile> = v.unseen().iter().collect();
        // Tiles whose owner is known though unseen: a forced lead not yet laid, and every
        // tile once a finished hand's result reveals the hands.
        let owner_of = |t: Tile| -> Owner {
            if let Some(r) = v.result() {
                return (0..n)
                    .map(Seat)
                    .find(|&p| p != me && r.hands[p].contains(t))
                    .map_or(Owner::Boneyard, Owner::Seat);
            }
            // The tile that decided the lead, still unseen, is the leader's.
            if lead_tile == Some(t) && v.leader() != me {
                return Owner::Seat(v.leader());
            }
            Owner::Any
        };
        let mut items = laid;
        items.extend(hidden.iter().map(|&t| Item {
            tile: Some(t),
            laid: None,
            owner: owner_of(t),
        }));
        if items.len() != slots.len() || viewer_initial.len() != h as usize {
            return Err(ResampleError::Replay(format!(
                "{} tiles to place in {} slots; viewer dealt {} of {h}",
                items.len(),
                slots.len(),
                viewer_initial.len()
            )));
        }

        // Eligibility of each item for each slot.
        let ok = |s: &Slot, it: &Item| -> bool {
            let t = it.tile.expect("items carry tiles");
            if s.forbid.contains(t) {
                return false;
            }
            match (s.owner, it.owner) {
                (None, Owner::Seat(_)) | (Some(_), Owner::Boneyard) => return false,
                (Some(p), Owner::Seat(q)) if p != q => return false,
                _ => {}
            }
            match (s.owner, it.laid) {
                (None, Some(_)) => false,
                (None, None) => true,
                (Some(p), Some((q, at))) => {
                    p == q
                        && s.filled < at
                        && voids.iter().all(|&(vs, vt, e)| {
                            vs != p || vt <= s.filled || vt >= at || !e.contains(t)
                        })
                }
                (Some(p), None) => voids
                    .iter()
                    .all(|&(vs, vt, e)| vs != p || vt <= s.filled || !e.contains(t)),
            }
        };
        let big = v.rules().set != 6;
        let masks: Vec<u128> = slots
            .iter()
            .map(|s| {
                items
                    .iter()
                    .enumerate()
                    .filter(|(_, it)| ok(s, it))
                    .fold(0u128, |m, (j, _)| m | (1 << j))
            })
            .collect();
        let mut class_masks: Vec<u128> = Vec::new();
        let mut classes: Vec<Vec<usize>> = Vec::new();
        for (si, &m) in masks.iter().enumerate() {
            match class_masks.iter().position(|&c| c == m) {
                Some(c) => classes[c].push(si),
                None => {
                    class_masks.push(m);
                    classes.push(vec![si]);
                }
            }
        }
        let largest = classes.iter().map(Vec::len).max().unwrap_or(0);
        let bits = if largest < 32 { 5 } else { 7 };
        let countable = classes.len() <= MAX_CLASSES.min(128 / bits as usize);
        if !countable {
            // Too many classes to count: keep what the consistent sampler needs.
            classes.clear();
            class_masks.clear();
        }
        let elig: Vec<u32> = (0..items.len())
            .map(|j| {
                class_masks
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| *m & (1 << j) != 0)
                    .fold(0u32, |acc, (c, _)| acc | (1 << c))
            })
            .collect();
        let caps0 = classes.iter().enumerate().fold(0u128, |acc, (c, s)| {
            acc | ((s.len() as u128) << (bits * c as u32))
        });
        let groups = if big { group_items(&elig) } else { Vec::new() };
        let mut b = Built {
            slots,
            items,
            hidden,
            classes,
            elig,
            caps0,
            bits,
            field: (1u128 << bits) - 1,
            groups,
            work: 0,
            splits: HashMap::new(),
            memo: HashMap::new(),
            known_bone,
            viewer_initial,
            total: 0.0,
            slot_masks: masks,
            exact: countable,
        };
        if b.exact {
            b.total = if b.groups.is_empty() {
                b.count(0, caps0)
            } else {
                b.count_groups(0, caps0)
            };
            b.exact = b.work <= GROUP_WORK;
            if !b.exact {
                b.memo.clear();
                b.total = 0.0;
            }
        }
        self.built = Some(b);
        Ok(())
    }

    /// A full state consistent with the view, uniformly over the consistent deals. The state's
    /// view for the same seat equals the view the sampler was made from.
    ///
    /// One constraint spans seats and is not part of the exact count: an unfinished hand was
    /// never blocked (after every action somebody could still lay or draw). Samples that break
    /// it are drawn again, which keeps the result uniform over the consistent deals; after
    /// many failures in a row the sampler reports [`ResampleError::TooRare`].
    pub fn sample(&mut self, rng: &mut FastRng) -> Result<State, ResampleError> {
        self.build()?;
        if self.built.as_ref().is_some_and(|b| !b.exact) {
            return Err(ResampleError::TooComplex);
        }
        if self.built.as_ref().is_some_and(|b| b.total <= 0.0) {
            return Err(ResampleError::Impossible);
        }
        for _ in 0..MAX_ATTEMPTS {
            if let Some(s) = self.sample_once(rng)? {
                return Ok(s);
            }
        }
        Err(ResampleError::TooRare)
    }

    /// A full state consistent with the view: exactly uniform over the consistent deals
    /// whenever [`Sampler::sample`] can count them; when the view is too complex to count
    /// (on the bigger sets with many players), a consistent deal found by matching every
    /// unseen and laid tile to a place it may hold, in a random order. Such deals satisfy every
    /// constraint but are not exactly uniform. For players, which need worlds in every
    /// position; analysis that needs exact uniformity uses [`Sampler::sample`].
    pub fn sample_consistent(&mut self, rng: &mut FastRng) -> Result<State, ResampleError> {
        self.build()?;
        if self.built.as_ref().is_some_and(|b| b.exact) {
            return self.sample(rng);
        }
        for _ in 0..MAX_ATTEMPTS {
            let b = self.built.as_ref().expect("built");
            let slot_tile = b.match_slots(rng).ok_or(ResampleError::Impossible)?;
            if let Some(s) = self.finish(&slot_tile)? {
                return Ok(s);
            }
        }
        Err(ResampleError::TooRare)
    }

    /// One draw from the exact count; `None` when the deal would have blocked the hand early.
    fn sample_once(&mut self, rng: &mut FastRng) -> Result<Option<State>, ResampleError> {
        let slot_tile = self.place_exact(rng)?;
        self.finish(&slot_tile)
    }

    /// Every slot's tile, drawn from the exact count.
    fn place_exact(&mut self, rng: &mut FastRng) -> Result<Vec<Tile>, ResampleError> {
        let b = self.built.as_mut().expect("built before sampling");
        let mut caps = b.caps0;
        let mut placed: Vec<Vec<usize>> = vec![Vec::new(); b.classes.len()];
        if !b.groups.is_empty() {
            b.sample_groups(rng, &mut placed)?;
        }
        for i in 0..if b.groups.is_empty() {
            b.items.len()
        } else {
            0
        } {
            let total = b.count(i, caps);
            let mut r = rng.unit() * total;
            let mut chosen = None;
            let mut m = b.elig[i];
            while m != 0 {
                let c = m.trailing_zeros();
                m &= m - 1;
                if (caps >> (b.bits * c)) & b.field == 0 {
                    continue;
                }
                let next = caps - (1u128 << (b.bits * c));
                let w = b.count(i + 1, next);
                if w <= 0.0 {
                    continue;
                }
                chosen = Some((c, next));
                if r < w {
                    break;
                }
                r -= w;
            }
            let (c, next) = chosen.ok_or(ResampleError::Impossible)?;
            placed[c as usize].push(i);
            caps = next;
        }
        // Arrange each class's items over its slots uniformly.
        let mut slot_tile: Vec<Tile> = vec![Tile::new(0, 0); b.slots.len()];
        for (c, items) in placed.iter_mut().enumerate() {
            let mut its = items.clone();
            for k in (1..its.len()).rev() {
                let j = rng.below(k as u32 + 1) as usize;
                its.swap(k, j);
            }
            for (slot, item) in b.classes[c].iter().zip(its) {
                slot_tile[*slot] = b.items[item].tile.expect("items carry tiles");
            }
        }
        Ok(slot_tile)
    }

    /// The deal that puts these tiles in the slots, replayed through the view's history;
    /// `None` when the deal would have blocked the hand early.
    fn finish(&self, slot_tile: &[Tile]) -> Result<Option<State>, ResampleError> {
        let b = self.built.as_ref().expect("built before sampling");
        let v = &self.view;
        let rules = *v.rules();
        let n = rules.players;
        let mut order: Vec<Tile> = Vec::with_capacity(rules.tile_count());
        let mut bone: Vec<Option<Tile>> = b.known_bone.clone();
        bone.resize(usize::from(rules.boneyard_size()), None);
        for p in (0..n).map(Seat) {
            if p == v.seat() {
                order.extend_from_slice(&b.viewer_initial);
            } else {
                for (si, s) in b.slots.iter().enumerate() {
                    if s.kind == SlotKind::Initial(p) {
                        order.push(slot_tile[si]);
                    }
                }
            }
        }
        for (si, s) in b.slots.iter().enumerate() {
            if let SlotKind::Bone(pos) = s.kind {
                bone[pos as usize] = Some(slot_tile[si]);
            }
        }
        for t in bone {
            order.push(t.ok_or_else(|| ResampleError::Replay("a boneyard place is empty".into()))?);
        }
        let _ = &b.hidden;
        let mut deal =
            Deal::from_order(&rules, &order).map_err(|e| ResampleError::Replay(e.to_string()))?;
        if v.lead_kind() == LeadKind::Lot {
            deal.lot = v.leader();
        }
        let mut s = State::with_start(rules, deal, *v.start())
            .map_err(|e| ResampleError::Replay(e.to_string()))?;
        for e in v.history() {
            if let Some(a) = e.action() {
                match s.apply(a) {
                    Ok(_) => {}
                    // The deal blocked the hand before this action: rejected.
                    Err(IllegalAction::HandOver | IllegalAction::GameOver) => return Ok(None),
                    Err(err) => return Err(ResampleError::Replay(format!("{a}: {err}"))),
                }
            }
        }
        if s.phase() != v.phase() {
            return Ok(None);
        }
        Ok(Some(s))
    }
}

impl Built {
    /// A consistent placement by bipartite matching (Kuhn's augmenting paths) with items and
    /// each slot's candidates tried in a random order; `None` if no placement exists.
    fn match_slots(&self, rng: &mut FastRng) -> Option<Vec<Tile>> {
        let n = self.slots.len();
        let mut order: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut order);
        let cands: Vec<Vec<usize>> = self
            .slot_masks
            .iter()
            .map(|&m| {
                let mut c: Vec<usize> = (0..self.items.len())
                    .filter(|&j| m & (1 << j) != 0)
                    .collect();
                rng.shuffle(&mut c);
                c
            })
            .collect();
        let mut item_slot: Vec<Option<usize>> = vec![None; self.items.len()];
        fn augment(
            s: usize,
            cands: &[Vec<usize>],
            item_slot: &mut [Option<usize>],
            seen: &mut [bool],
        ) -> bool {
            for &j in &cands[s] {
                if seen[j] {
                    continue;
                }
                seen[j] = true;
                if item_slot[j].is_none_or(|t| augment(t, cands, item_slot, seen)) {
                    item_slot[j] = Some(s);
                    return true;
                }
            }
            false
        }
        for &s in &order {
            let mut seen = vec![false; self.items.len()];
            if !augment(s, &cands, &mut item_slot, &mut seen) {
                return None;
            }
        }
        let mut slot_tile = vec![Tile::new(0, 0); n];
        for (j, s) in item_slot.iter().enumerate() {
            slot_tile[(*s)?] = self.items[j].tile?;
        }
        Some(slot_tile)
    }

    fn count(&mut self, i: usize, caps: u128) -> f64 {
        if i == self.items.len() {
            return if caps == 0 { 1.0 } else { 0.0 };
        }
        if let Some(&c) = self.memo.get(&(i as u8, caps)) {
            return c;
        }
        let mut total = 0.0;
        let mut m = self.elig[i];
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            if (caps >> (self.bits * c)) & self.field != 0 {
                total += self.count(i + 1, caps - (1u128 << (self.bits * c)));
            }
        }
        self.memo.insert((i as u8, caps), total);
        total
    }

    /// The ways to place the items of groups `g..` into the classes with remaining capacities
    /// `caps`, exactly filling them. The items of a group are interchangeable for the
    /// constraints, so a group of `k` is placed by choosing how many go to each eligible class,
    /// `d`, in `k! / (d_1! ... d_m!)` ways; the last (largest) group has no choice left.
    fn count_groups(&mut self, g: usize, caps: u128) -> f64 {
        if g == self.groups.len() {
            return if caps == 0 { 1.0 } else { 0.0 };
        }
        if g + 1 == self.groups.len() {
            return self.last_group(caps);
        }
        if let Some(&c) = self.memo.get(&(g as u8, caps)) {
            return c;
        }
        if self.work > GROUP_WORK {
            return 0.0;
        }
        let mut total = 0.0;
        let splits = self.distributions(g, caps);
        self.work += splits.len() as u64 + 1;
        for (d, ways) in splits {
            let rest = self.count_groups(g + 1, caps - d);
            total += ways * rest;
        }
        self.memo.insert((g as u8, caps), total);
        total
    }

    /// The last group fills what is left: `k! / (c_1! ... c_m!)` ways if every class with room
    /// is eligible and the room is exactly `k`.
    fn last_group(&self, caps: u128) -> f64 {
        let grp = self.groups.last().expect("a last group");
        let k = grp.items.len();
        let mut room = 0usize;
        let mut v = ln_factorial(k);
        for c in 0..self.classes.len() as u32 {
            let cap = ((caps >> (self.bits * c)) & self.field) as usize;
            if cap > 0 {
                if grp.elig & (1 << c) == 0 {
                    return 0.0;
                }
                room += cap;
                v -= ln_factorial(cap);
            }
        }
        if room == k {
            v.exp()
        } else {
            0.0
        }
    }

    /// Every way to split group `g` over its eligible classes within `caps`, as the capacity
    /// taken (in the packed form) and the number of item assignments it stands for. Classes
    /// that no later group may fill must be filled now.
    fn distributions(&self, g: usize, caps: u128) -> Vec<(u128, f64)> {
        let grp = &self.groups[g];
        let later = self.groups[g + 1..].iter().fold(0u32, |m, x| m | x.elig);
        let mut need = 0usize;
        let mut classes: Vec<(u32, usize, usize)> = Vec::new(); // (class, min, max)
        for c in 0..self.classes.len() as u32 {
            let cap = ((caps >> (self.bits * c)) & self.field) as usize;
            let forced = if later & (1 << c) == 0 { cap } else { 0 };
            if grp.elig & (1 << c) != 0 {
                if cap > 0 {
                    classes.push((c, forced, cap));
                }
                need += forced;
            } else if forced > 0 {
                return Vec::new();
            }
        }
        let k = grp.items.len();
        if need > k {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut d = vec![0usize; classes.len()];
        fn rec(
            i: usize,
            left: usize,
            classes: &[(u32, usize, usize)],
            d: &mut Vec<usize>,
            out: &mut Vec<Vec<usize>>,
        ) {
            if i == classes.len() {
                if left == 0 {
                    out.push(d.clone());
                }
                return;
            }
            let min_rest: usize = classes[i + 1..].iter().map(|x| x.1).sum();
            let max_rest: usize = classes[i + 1..].iter().map(|x| x.2).sum();
            let (_, lo, hi) = classes[i];
            for x in lo..=hi.min(left) {
                let rest = left - x;
                if rest < min_rest || rest > max_rest {
                    continue;
                }
                d[i] = x;
                rec(i + 1, rest, classes, d, out);
            }
        }
        let mut all = Vec::new();
        rec(0, k, &classes, &mut d, &mut all);
        for d in all {
            let mut taken = 0u128;
            let mut v = ln_factorial(k);
            for (j, &(c, _, _)) in classes.iter().enumerate() {
                taken += (d[j] as u128) << (self.bits * c);
                v -= ln_factorial(d[j]);
            }
            out.push((taken, v.exp()));
        }
        out
    }

    /// The splits of group `g` within `caps`, each with its weight (assignments times
    /// completions), computed once per state and kept for later samples.
    fn weighted_splits(&mut self, g: usize, caps: u128) -> (Vec<u128>, Vec<f64>) {
        if let Some(hit) = self.splits.get(&(g as u8, caps)) {
            return hit.clone();
        }
        let options = self.distributions(g, caps);
        let weights: Vec<f64> = options
            .iter()
            .map(|&(d, ways)| ways * self.count_groups(g + 1, caps - d))
            .collect();
        let entry = (
            options.into_iter().map(|o| o.0).collect::<Vec<u128>>(),
            weights,
        );
        self.splits.insert((g as u8, caps), entry.clone());
        entry
    }

    /// Place every group: choose each group's split in proportion to its completions, then
    /// deal the group's items over the chosen classes in a uniformly random order.
    fn sample_groups(
        &mut self,
        rng: &mut FastRng,
        placed: &mut [Vec<usize>],
    ) -> Result<(), ResampleError> {
        let mut caps = self.caps0;
        for g in 0..self.groups.len() {
            let take = if g + 1 == self.groups.len() {
                caps
            } else {
                let (options, weights) = self.weighted_splits(g, caps);
                let total: f64 = weights.iter().sum();
                if total <= 0.0 {
                    return Err(ResampleError::Impossible);
                }
                let mut r = rng.unit() * total;
                let mut pick = None;
                for (o, w) in options.iter().zip(&weights) {
                    if *w <= 0.0 {
                        continue;
                    }
                    pick = Some(*o);
                    if r < *w {
                        break;
                    }
                    r -= w;
                }
                pick.ok_or(ResampleError::Impossible)?
            };
            let mut items = self.groups[g].items.clone();
            for k in (1..items.len()).rev() {
                let j = rng.below(k as u32 + 1) as usize;
                items.swap(k, j);
            }
            let mut it = items.into_iter();
            for c in 0..self.classes.len() as u32 {
                let n = ((take >> (self.bits * c)) & self.field) as usize;
                placed[c as usize].extend(it.by_ref().take(n));
            }
            caps -= take;
        }
        Ok(())
    }
}

/// Items with the same eligibility, as a group for [`Built::count_groups`].
#[derive(Debug, Clone)]
struct Group {
    items: Vec<usize>,
    elig: u32,
}

/// The items grouped by eligibility mask, smallest group first (so the largest is placed last,
/// in closed form).
fn group_items(elig: &[u32]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for (i, &e) in elig.iter().enumerate() {
        match groups.iter_mut().find(|g| g.elig == e) {
            Some(g) => g.items.push(i),
            None => groups.push(Group {
                items: vec![i],
                elig: e,
            }),
        }
    }
    groups.sort_by_key(|g| (g.items.len(), g.elig));
    groups
}

/// `ln(n!)`, summed (n is at most 91).
fn ln_factorial(n: usize) -> f64 {
    LN_FACTORIAL.with(|t| t[n.min(t.len() - 1)])
}

thread_local! {
    /// `ln(n!)` for every `n` up to the largest set's 91 tiles.
    static LN_FACTORIAL: [f64; 92] = {
        let mut t = [0.0; 92];
        for n in 2..92 {
            t[n] = t[n - 1] + (n as f64).ln();
        }
        t
    };
}

impl View {
    /// One state consistent with this view, uniformly over the consistent deals. For many
    /// samples build a [`Sampler`] once.
    pub fn sample(&self, rng: &mut FastRng) -> Result<State, ResampleError> {
        Sampler::new(self).sample(rng)
    }
}
