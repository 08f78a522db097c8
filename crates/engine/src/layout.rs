//! The layout: the tiles on the table as arms growing from the lead tile, with the count of
//! the open ends kept up to date on every tile laid.
//!
//! Arms are numbered in the order they come into being. Arms 0 and 1 are the two sides of the
//! lead tile (0 takes the lead's high half, 1 its low half). Each spinner adds two sprout arms,
//! numbered next; the first spinner's sprouts are therefore arms 2 and 3. Every arm has exactly
//! one open end, so "arm 3" names where a tile goes. In notation arms 0 to 3 are written
//! `W`, `E`, `N`, `S` and later arms by number.
//!
//! The count is the sum, over the arms, of the outer half of each arm's end tile when that tile
//! is not a double, plus both halves of every double that has fewer than two tiles against it.
//! That single rule gives every case of the rules: a double at the end of an arm counts both
//! halves, a spinner counts both halves until two tiles lie against it and nothing after, an
//! empty sprout counts nothing, and a lone lead tile counts both halves.

use std::fmt;
use std::str::FromStr;

use crate::rules::{Rules, SpinnerRule, SproutRule};
use crate::tile::{Pip, PipSet, Tile, TileSet};

/// The most arms a layout can have: the two sides of the lead plus two sprouts for each of the
/// thirteen doubles of a double-twelve set (a double-six layout has at most 16).
pub const MAX_ARMS: usize = 28;

/// An arm of the layout, `0..28`; see the module documentation for the numbering.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ArmId(pub u8);

impl ArmId {
    /// Index for per-arm arrays.
    #[must_use]
    pub const fn idx(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ArmId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("W"),
            1 => f.write_str("E"),
            2 => f.write_str("N"),
            3 => f.write_str("S"),
            n => write!(f, "{n}"),
        }
    }
}

impl FromStr for ArmId {
    type Err = String;
    fn from_str(s: &str) -> Result<ArmId, String> {
        match s {
            "W" | "w" => Ok(ArmId(0)),
            "E" | "e" => Ok(ArmId(1)),
            "N" | "n" => Ok(ArmId(2)),
            "S" | "s" => Ok(ArmId(3)),
            _ => match s.parse::<u8>() {
                Ok(n) if (n as usize) < MAX_ARMS => Ok(ArmId(n)),
                _ => Err(format!(
                    "not an arm: {s:?} (expected W, E, N, S or a number below {MAX_ARMS})"
                )),
            },
        }
    }
}

impl serde::Serialize for ArmId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for ArmId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ArmId, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

const NO_SPROUT: u8 = 0;

/// The tiles on the table, reduced to what play and scoring need: each arm's open end, which
/// arms are open, the doubles and how many tiles lie against them, and the count.
///
/// The layout is `Copy` and small, so search can copy states freely. The full geometry for
/// drawing is rebuilt from the plays by [`crate::LayoutTree`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Layout {
    /// Each arm's open pip (32 entries so that an arm masked to five bits needs no check).
    pip: [u8; 32],
    contrib: [u8; 32],
    /// Arms whose end is a free side of a double (the double of the arm's pip).
    on_double: u32,
    /// Arms a tile may be laid on.
    open: u32,
    /// Cross Dominoes: arms that would be open but wait until the cross is complete.
    held: u32,
    n_arms: u8,
    /// Cross Dominoes: the pip of the first double while its four sides are not all covered
    /// (`NO_CROSS` otherwise).
    cross: u8,
    /// Tiles lying against the double of each pip (meaningful for doubles in the layout; 16
    /// entries so that a pip masked to four bits indexes it without a check).
    against: [u8; 16],
    /// For a spinning double, the id of its first sprout arm (0: none; arm 0 is never a sprout).
    sprout: [u8; 16],
    /// Doubles that are in the layout, as a pip mask.
    doubles: u16,
    count: u16,
    pub(crate) tiles: TileSet,
    /// For each pip, how many open arms show it (indices 13 to 15 unused), kept with `open`
    /// and `pip`.
    open_pips: [u8; 16],
}

const NO_CROSS: u8 = u8::MAX;

impl Default for Layout {
    fn default() -> Self {
        Layout::new()
    }
}

impl Layout {
    /// An empty table.
    #[must_use]
    pub const fn new() -> Layout {
        Layout {
            pip: [0; 32],
            contrib: [0; 32],
            on_double: 0,
            open: 0,
            held: 0,
            n_arms: 0,
            cross: NO_CROSS,
            against: [0; 16],
            sprout: [NO_SPROUT; 16],
            doubles: 0,
            count: 0,
            tiles: TileSet::EMPTY,
            open_pips: [0; 16],
        }
    }

    /// Whether no tile has been laid.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.n_arms == 0
    }

    /// The count of the open ends (sum as defined in the module documentation).
    #[must_use]
    pub const fn count(&self) -> u16 {
        self.count
    }

    /// Every tile on the table.
    #[must_use]
    pub const fn tiles(&self) -> TileSet {
        self.tiles
    }

    /// Number of arms created so far (open or not yet open).
    #[must_use]
    pub const fn arm_count(&self) -> u8 {
        self.n_arms
    }

    /// Whether a tile may be laid on `arm`.
    #[must_use]
    pub const fn is_open(&self, arm: ArmId) -> bool {
        (arm.0 as usize) < MAX_ARMS && self.open & (1 << arm.0) != 0
    }

    /// The pip a tile must show to be laid on `arm`.
    #[must_use]
    #[inline]
    pub const fn arm_pip(&self, arm: ArmId) -> Pip {
        self.pip[(arm.0 & 31) as usize]
    }

    /// What the end of `arm` adds to the count by itself (doubles are counted separately).
    #[must_use]
    pub const fn arm_contribution(&self, arm: ArmId) -> u8 {
        self.contrib[(arm.0 & 31) as usize]
    }

    /// The open arms, in id order.
    pub fn open_arms(&self) -> impl Iterator<Item = ArmId> + '_ {
        let open = self.open;
        (0..self.n_arms)
            .filter(move |a| open & (1 << a) != 0)
            .map(ArmId)
    }

    /// Bitmask of open arms.
    #[must_use]
    pub const fn open_mask(&self) -> u32 {
        self.open
    }

    /// The pips showing on the open ends.
    #[must_use]
    pub fn open_pips(&self) -> PipSet {
        let mut s = PipSet::EMPTY;
        let mut m = self.open;
        while m != 0 {
            let a = m.trailing_zeros() as usize;
            m &= m - 1;
            s.insert(self.pip[a]);
        }
        s
    }

    /// For each pip `p`, how many open arms show it (entries 13 to 15 are always 0).
    #[inline]
    #[must_use]
    pub const fn open_pip_counts(&self) -> &[u8; 16] {
        &self.open_pips
    }

    /// On how many open arms `t` could be laid.
    #[inline]
    #[must_use]
    pub const fn fits_count(&self, t: Tile) -> u8 {
        // A double fits where its pip shows, once: its other half reads the count of pip 15,
        // always 0 (a look-up rather than a branch on whether the tile is a double).
        self.open_pips[(t.hi() & 15) as usize]
            + self.open_pips[(t.lo_unless_double() & 15) as usize]
    }

    /// Every tile that could be laid somewhere on the layout (for an empty layout: every tile
    /// of the largest set).
    #[inline]
    #[must_use]
    pub fn playable_tiles(&self) -> TileSet {
        if self.tiles.is_empty() {
            return Tile::all(crate::MAX_PIP);
        }
        let mut s = 0u128;
        let mut m = self.open;
        while m != 0 {
            let a = m.trailing_zeros() as usize;
            m &= m - 1;
            s |= Tile::suit(self.pip[a]).0;
        }
        TileSet(s)
    }

    /// Whether the double of pip `p` is on the table and spins.
    #[must_use]
    pub const fn is_spinner(&self, p: Pip) -> bool {
        self.sprout[(p & 15) as usize] != NO_SPROUT
    }

    /// Tiles lying against the double of pip `p` (0 if it is not on the table).
    #[must_use]
    pub const fn against(&self, p: Pip) -> u8 {
        if self.doubles & (1 << (p & 15)) != 0 {
            self.against[(p & 15) as usize]
        } else {
            0
        }
    }

    /// Whether `tile` may be laid on `arm` by the matching rule.
    #[must_use]
    pub const fn fits(&self, tile: Tile, arm: ArmId) -> bool {
        self.is_open(arm) && tile.has(self.pip[(arm.0 & 31) as usize])
    }

    fn spins(&self, rules: &Rules) -> bool {
        match rules.spinner {
            SpinnerRule::None => false,
            SpinnerRule::All => true,
            SpinnerRule::First => self.doubles == 0,
        }
    }

    fn add_sprouts(&mut self, p: Pip, rules: &Rules) {
        let first = self.n_arms;
        debug_assert!((first as usize) + 2 <= MAX_ARMS);
        let d = (p & 15) as usize;
        self.sprout[d] = first;
        for a in [first, first + 1] {
            self.pip[(a & 31) as usize] = p;
            self.contrib[(a & 31) as usize] = 0;
            self.on_double |= 1 << a;
        }
        self.n_arms += 2;
        if rules.sprouts == SproutRule::AtOnce || (rules.cross_first && self.doubles == 1 << d) {
            self.open |= 0b11 << first;
            self.open_pips[d] += 2;
        }
    }

    /// Cross Dominoes: the first double was just laid. Until its four sides are covered only
    /// they take tiles; every other open arm waits.
    #[cold]
    fn start_cross(&mut self, p: Pip) {
        self.cross = p;
        let at_cross = self.cross_arms();
        self.held = self.open & !at_cross;
        self.open &= at_cross;
        self.recount_open();
    }

    /// The arms whose end is a free side of the cross's double.
    fn cross_arms(&self) -> u32 {
        let mut m = 0;
        for a in 0..self.n_arms {
            if self.on_double & (1 << a) != 0 && self.pip[(a & 31) as usize] == self.cross {
                m |= 1 << a;
            }
        }
        m
    }

    /// Cross Dominoes: after a tile on a side of the cross, close the arm it grew (it waits
    /// with the others) or, once all four sides are covered, open every waiting arm.
    #[cold]
    fn continue_cross(&mut self, arm: usize) {
        let d = (self.cross & 15) as usize;
        if self.against[d] >= 4 {
            self.open |= self.held;
            self.held = 0;
            self.cross = NO_CROSS;
        } else {
            self.open &= !(1 << arm);
            self.held |= 1 << arm;
        }
        self.recount_open();
    }

    /// Whether a Cross Dominoes cross is waiting for one of its four sides.
    #[must_use]
    pub const fn cross_pending(&self) -> bool {
        self.cross != NO_CROSS
    }

    fn recount_open(&mut self) {
        let mut c = [0u8; 16];
        let mut m = self.open;
        while m != 0 {
            let a = m.trailing_zeros() as usize;
            m &= m - 1;
            c[(self.pip[a & 31] & 15) as usize] += 1;
        }
        self.open_pips = c;
    }

    /// Lay the first tile of the hand. The caller has checked the table is empty.
    pub fn lay_lead(&mut self, tile: Tile, rules: &Rules) {
        debug_assert!(self.is_empty());
        self.tiles.insert(tile);
        self.n_arms = 2;
        self.open = 0b11;
        let (h, l) = (tile.hi(), tile.lo());
        self.pip[0] = h;
        self.pip[1] = l;
        self.open_pips[(h & 15) as usize] += 1;
        self.open_pips[(l & 15) as usize] += 1;
        if tile.is_double() {
            self.contrib = [0; 32];
            self.on_double = 0b11;
            let spins = self.spins(rules);
            self.doubles |= 1 << (h & 15);
            self.against[(h & 15) as usize] = 0;
            self.count = 2 * u16::from(h);
            if spins {
                self.add_sprouts(h, rules);
                if rules.cross_first {
                    self.start_cross(h);
                }
            }
        } else {
            self.contrib[0] = h;
            self.contrib[1] = l;
            self.count = u16::from(h) + u16::from(l);
        }
    }

    /// Lay `tile` on `arm`. The caller has checked that the arm is open and the tile fits.
    #[inline(always)]
    pub fn lay(&mut self, tile: Tile, arm: ArmId, rules: &Rules) {
        self.lay_in::<false>(tile, arm, rules);
    }

    /// [`Layout::lay`] under a rules profile: with `STD` the set is double-six (every tile in
    /// the low word of the tile set) and there is no Cross Dominoes cross.
    #[inline(always)]
    pub(crate) fn lay_in<const STD: bool>(&mut self, tile: Tile, arm: ArmId, rules: &Rules) {
        let a = (arm.0 & 31) as usize;
        let p = self.pip[a];
        debug_assert!(self.is_open(arm) && tile.has(p));
        debug_assert!(!STD || (rules.set == 6 && !rules.cross_first));
        if STD {
            self.tiles.0 |= u128::from(1u64 << (tile.index() & 63));
        } else {
            self.tiles.insert(tile);
        }
        let bit = 1u32 << a;
        let d = (p & 15) as usize;
        if tile.is_double() {
            // A double only ever goes on the end of a non-double (there is one double per pip).
            self.count -= u16::from(self.contrib[a]);
            self.contrib[a] = 0;
            self.on_double |= bit;
            let spins = self.spins(rules);
            let first = self.doubles == 0;
            self.doubles |= 1 << d;
            self.against[d] = 1;
            self.count += 2 * u16::from(p);
            if spins {
                self.add_sprouts(p, rules);
                if !STD && rules.cross_first && first {
                    self.start_cross(p);
                }
            }
        } else {
            // The other half, without a branch on which half matched (`tile` carries `p`).
            let q = tile.pips() - p;
            if self.on_double & bit != 0 {
                self.on_double &= !bit;
                self.against[d] += 1;
                if self.against[d] == 2 {
                    self.count -= 2 * u16::from(p);
                    let s = self.sprout[d];
                    // Under sprouts-at-once they opened when the spinner was laid.
                    if s != NO_SPROUT && (self.open | self.held) & (0b11 << s) == 0 {
                        self.open |= 0b11 << s;
                        self.open_pips[d] += 2;
                    }
                }
            } else {
                self.count -= u16::from(self.contrib[a]);
            }
            self.contrib[a] = q;
            self.pip[a] = q;
            self.count += u16::from(q);
            self.open_pips[d] -= 1;
            self.open_pips[(q & 15) as usize] += 1;
            if !STD && self.cross == p {
                self.continue_cross(a);
            }
        }
    }

    /// The count recomputed from the arms and doubles, for tests that check the incremental
    /// count.
    #[must_use]
    pub fn recount(&self) -> u16 {
        let mut c: u16 = 0;
        for a in 0..self.n_arms as usize {
            if self.on_double & (1 << a) == 0 {
                c += u16::from(self.contrib[a]);
            }
        }
        for p in 0..=crate::MAX_PIP {
            if self.doubles & (1 << p) != 0 && self.against[p as usize] < 2 {
                c += 2 * u16::from(p);
            }
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    fn t(a: u8, b: u8) -> Tile {
        Tile::new(a, b)
    }

    #[test]
    fn five_five_then_five_zero_then_three_five() {
        let r = Rules::default();
        let mut l = Layout::new();
        l.lay_lead(t(5, 5), &r);
        assert_eq!(l.count(), 10);
        l.lay(t(5, 0), ArmId(0), &r);
        assert_eq!(l.count(), 10);
        // Sprouts are still shut: only the other line side and the blank are open.
        assert_eq!(l.open_arms().collect::<Vec<_>>(), vec![ArmId(0), ArmId(1)]);
        l.lay(t(3, 5), ArmId(1), &r);
        assert_eq!(l.count(), 3);
        assert_eq!(l.open_arms().count(), 4);
        assert_eq!(l.recount(), l.count());
    }

    #[test]
    fn double_six_and_a_three_count_fifteen() {
        let r = Rules::preset(Preset::Muggins, 2);
        let mut l = Layout::new();
        l.lay_lead(t(6, 3), &r);
        assert_eq!(l.count(), 9);
        l.lay(t(6, 6), ArmId(0), &r);
        assert_eq!(l.count(), 15);
    }

    /// The per-pip counts of open arms, recomputed from the arms.
    fn recount_open_pips(l: &Layout) -> [u8; 16] {
        let mut c = [0u8; 16];
        for a in l.open_arms() {
            c[l.arm_pip(a) as usize] += 1;
        }
        c
    }

    /// Lay tiles at random under every spinner and sprout option; after each tile the kept
    /// per-pip counts of open arms equal a recount.
    #[test]
    fn open_pip_counts_stay_exact_under_every_spinner_option() {
        use crate::rules::{SpinnerRule, SproutRule};
        let mut rng = crate::deal::FastRng::new(17);
        for spinner in [SpinnerRule::First, SpinnerRule::None, SpinnerRule::All] {
            for sprouts in [SproutRule::AfterBothSides, SproutRule::AtOnce] {
                let r = Rules {
                    spinner,
                    sprouts,
                    ..Rules::default()
                };
                for _ in 0..300 {
                    let mut tiles: Vec<Tile> = Tile::all(6).iter().collect();
                    rng.shuffle(&mut tiles);
                    let mut l = Layout::new();
                    l.lay_lead(tiles[0], &r);
                    assert_eq!(l.open_pip_counts(), &recount_open_pips(&l));
                    for &t in &tiles[1..] {
                        let arms: Vec<ArmId> = l.open_arms().filter(|&a| l.fits(t, a)).collect();
                        if let Some(&a) = arms.first() {
                            l.lay(t, a, &r);
                            assert_eq!(l.open_pip_counts(), &recount_open_pips(&l), "{t} on {a}");
                            assert_eq!(l.count(), l.recount());
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn thirty_five_is_reachable() {
        // Spinner 1-1 with four arms: 6-6, 5-5 and 4-4 end three arms, a 5 ends the fourth.
        let r = Rules::default();
        let mut l = Layout::new();
        l.lay_lead(t(1, 1), &r);
        l.lay(t(1, 6), ArmId(0), &r);
        l.lay(t(1, 5), ArmId(1), &r);
        l.lay(t(1, 4), ArmId(2), &r);
        l.lay(t(1, 3), ArmId(3), &r);
        l.lay(t(6, 6), ArmId(0), &r);
        l.lay(t(5, 5), ArmId(1), &r);
        l.lay(t(4, 4), ArmId(2), &r);
        l.lay(t(3, 5), ArmId(3), &r);
        assert_eq!(l.count(), 35);
        assert_eq!(l.recount(), 35);
    }
}
