//! Tiles, pips, tile sets and seats: the small value types everything else is built from.

use std::fmt;
use std::str::FromStr;

/// A pip value, 0 to 6 on a double-six set.
pub type Pip = u8;

/// Highest pip on the set.
pub const MAX_PIP: Pip = 6;

/// Number of tiles in a double-six set.
pub const TILE_COUNT: usize = 28;

/// One of the 28 tiles of a double-six set.
///
/// The index is `hi * (hi + 1) / 2 + lo` with `hi >= lo`, so `0-0` is 0 and `6-6` is 27.
/// A tile is written high half first: `6-4`, `5-0`, `1-1`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(pub(crate) u8);

const fn build_halves() -> ([u8; 32], [u8; 32]) {
    let mut hi = [0u8; 32];
    let mut lo = [0u8; 32];
    let mut a = 0;
    while a <= MAX_PIP {
        let mut b = 0;
        while b <= a {
            let i = (a * (a + 1) / 2 + b) as usize;
            hi[i] = a;
            lo[i] = b;
            b += 1;
        }
        a += 1;
    }
    (hi, lo)
}

const HALVES: ([u8; 32], [u8; 32]) = build_halves();
/// High halves by tile index (padded to 32 so a masked index needs no bounds check).
const HI: [u8; 32] = HALVES.0;
/// Low halves by tile index (padded like `HI`).
const LO: [u8; 32] = HALVES.1;

const fn build_suits() -> [u32; 8] {
    let mut suits = [0u32; 8];
    let mut i = 0;
    while i < TILE_COUNT {
        suits[HI[i] as usize] |= 1 << i;
        suits[LO[i] as usize] |= 1 << i;
        i += 1;
    }
    suits
}

/// `SUITS[p]`: the bitset of tiles that carry pip `p` on either half (entry 7 is empty, so a
/// masked index needs no bounds check).
const SUITS: [u32; 8] = build_suits();

const fn build_doubles() -> u32 {
    let mut m = 0u32;
    let mut p = 0;
    while p <= MAX_PIP {
        m |= 1 << (p * (p + 1) / 2 + p);
        p += 1;
    }
    m
}

impl Tile {
    /// Every tile, from `0-0` to `6-6`.
    pub const ALL: TileSet = TileSet((1 << TILE_COUNT) - 1);

    /// The tile with halves `a` and `b` (in either order). Panics if a pip is above 6.
    #[must_use]
    pub const fn new(a: Pip, b: Pip) -> Tile {
        assert!(a <= MAX_PIP && b <= MAX_PIP, "pip out of range");
        let (h, l) = if a >= b { (a, b) } else { (b, a) };
        Tile(h * (h + 1) / 2 + l)
    }

    /// The tile with this index (0..28), if in range.
    #[must_use]
    pub const fn from_index(i: u8) -> Option<Tile> {
        if (i as usize) < TILE_COUNT {
            Some(Tile(i))
        } else {
            None
        }
    }

    /// The index 0..28.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The higher half.
    #[must_use]
    #[inline]
    pub const fn hi(self) -> Pip {
        HI[(self.0 & 31) as usize]
    }

    /// The lower half.
    #[must_use]
    #[inline]
    pub const fn lo(self) -> Pip {
        LO[(self.0 & 31) as usize]
    }

    /// Total pips on the tile.
    #[must_use]
    pub const fn pips(self) -> u8 {
        self.hi() + self.lo()
    }

    /// Whether both halves are equal.
    #[must_use]
    pub const fn is_double(self) -> bool {
        self.hi() == self.lo()
    }

    /// Whether the tile carries pip `p` on either half.
    #[must_use]
    pub const fn has(self, p: Pip) -> bool {
        self.hi() == p || self.lo() == p
    }

    /// The half opposite to `p`. Only meaningful when `self.has(p)`.
    #[must_use]
    pub const fn other(self, p: Pip) -> Pip {
        if self.hi() == p {
            self.lo()
        } else {
            self.hi()
        }
    }

    /// The double of pip `p`.
    #[must_use]
    pub const fn double(p: Pip) -> Tile {
        Tile::new(p, p)
    }

    /// The set of tiles carrying pip `p`.
    #[must_use]
    #[inline]
    pub const fn suit(p: Pip) -> TileSet {
        TileSet(SUITS[(p & 7) as usize])
    }

    /// The seven doubles.
    pub const DOUBLES: TileSet = TileSet(build_doubles());

    /// Weight order used to pick the "heaviest tile": more pips first, then the higher half.
    #[must_use]
    pub const fn weight(self) -> u16 {
        (self.pips() as u16) * 8 + self.hi() as u16
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.hi(), self.lo())
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.hi(), self.lo())
    }
}

/// Error from parsing a tile such as `6-4`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseTileError(pub String);

impl fmt::Display for ParseTileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a tile: {:?} (expected two pips 0-6 like 6-4)",
            self.0
        )
    }
}

impl std::error::Error for ParseTileError {}

impl FromStr for Tile {
    type Err = ParseTileError;
    fn from_str(s: &str) -> Result<Tile, ParseTileError> {
        let b = s.as_bytes();
        let pip = |c: u8| -> Option<u8> {
            if (b'0'..=b'6').contains(&c) {
                Some(c - b'0')
            } else {
                None
            }
        };
        let ok = match b {
            [x, b'-', y] => pip(*x).zip(pip(*y)),
            [x, y] => pip(*x).zip(pip(*y)),
            _ => None,
        };
        ok.map(|(x, y)| Tile::new(x, y))
            .ok_or_else(|| ParseTileError(s.to_string()))
    }
}

impl serde::Serialize for Tile {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Tile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Tile, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of tiles as a bitset: bit `i` is the tile with index `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TileSet(pub u32);

impl TileSet {
    /// The empty set.
    pub const EMPTY: TileSet = TileSet(0);

    /// Number of tiles in the set.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `t` is in the set.
    #[must_use]
    pub const fn contains(self, t: Tile) -> bool {
        self.0 & (1 << t.0) != 0
    }

    /// Add a tile.
    pub fn insert(&mut self, t: Tile) {
        self.0 |= 1 << t.0;
    }

    /// Remove a tile.
    pub fn remove(&mut self, t: Tile) {
        self.0 &= !(1 << t.0);
    }

    /// The set with one tile.
    #[must_use]
    pub const fn single(t: Tile) -> TileSet {
        TileSet(1 << t.0)
    }

    /// Intersection.
    #[must_use]
    pub const fn and(self, o: TileSet) -> TileSet {
        TileSet(self.0 & o.0)
    }

    /// Union.
    #[must_use]
    pub const fn or(self, o: TileSet) -> TileSet {
        TileSet(self.0 | o.0)
    }

    /// Difference: tiles in `self` but not in `o`.
    #[must_use]
    pub const fn minus(self, o: TileSet) -> TileSet {
        TileSet(self.0 & !o.0)
    }

    /// The tile of the lowest set bit; the set must not be empty.
    #[inline]
    pub(crate) const fn first_unchecked(self) -> Tile {
        debug_assert!(self.0 != 0);
        Tile(self.0.trailing_zeros() as u8)
    }

    /// The lowest-index tile, if any.
    #[must_use]
    pub const fn first(self) -> Option<Tile> {
        if self.0 == 0 {
            None
        } else {
            Some(Tile(self.0.trailing_zeros() as u8))
        }
    }

    /// The `k`-th tile in index order (0-based), if any.
    #[must_use]
    pub fn nth(self, k: u32) -> Option<Tile> {
        let mut bits = self.0;
        for _ in 0..k {
            if bits == 0 {
                return None;
            }
            bits &= bits - 1;
        }
        TileSet(bits).first()
    }

    /// Total pips of every tile in the set.
    #[must_use]
    pub fn pips(self) -> u32 {
        self.iter().map(|t| u32::from(t.pips())).sum()
    }

    /// The tiles in index order.
    #[must_use]
    pub fn iter(self) -> TileSetIter {
        TileSetIter(self.0)
    }

    /// The set of pips that appear on any tile of the set.
    #[must_use]
    pub fn suits(self) -> PipSet {
        let mut p = PipSet::EMPTY;
        for t in self.iter() {
            p.insert(t.hi());
            p.insert(t.lo());
        }
        p
    }
}

impl fmt::Debug for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl fmt::Display for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for t in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(it: I) -> TileSet {
        let mut s = TileSet::EMPTY;
        for t in it {
            s.insert(t);
        }
        s
    }
}

impl IntoIterator for TileSet {
    type Item = Tile;
    type IntoIter = TileSetIter;
    fn into_iter(self) -> TileSetIter {
        self.iter()
    }
}

/// Iterator over a [`TileSet`] in index order.
#[derive(Debug, Clone)]
pub struct TileSetIter(u32);

impl Iterator for TileSetIter {
    type Item = Tile;
    #[inline]
    fn next(&mut self) -> Option<Tile> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Tile(i as u8))
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for TileSetIter {}

impl serde::Serialize for TileSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.len() as usize))?;
        for t in self.iter() {
            seq.serialize_element(&t)?;
        }
        seq.end()
    }
}

impl<'de> serde::Deserialize<'de> for TileSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TileSet, D::Error> {
        let v = Vec::<Tile>::deserialize(d)?;
        let mut s = TileSet::EMPTY;
        for t in v {
            if s.contains(t) {
                return Err(serde::de::Error::custom(format!("tile {t} listed twice")));
            }
            s.insert(t);
        }
        Ok(s)
    }
}

/// A set of pip values 0..=6 as a bitset.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PipSet(pub u8);

impl PipSet {
    /// No pips.
    pub const EMPTY: PipSet = PipSet(0);

    /// Add a pip.
    pub fn insert(&mut self, p: Pip) {
        self.0 |= 1 << p;
    }

    /// Whether `p` is in the set.
    #[must_use]
    pub const fn contains(self, p: Pip) -> bool {
        self.0 & (1 << p) != 0
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The pips in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Pip> {
        (0..=MAX_PIP).filter(move |&p| self.contains(p))
    }

    /// Every tile carrying at least one pip of the set.
    #[must_use]
    pub fn tiles(self) -> TileSet {
        let mut s = TileSet::EMPTY;
        for p in self.iter() {
            s = s.or(Tile::suit(p));
        }
        s
    }
}

impl fmt::Debug for PipSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl fmt::Display for PipSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s: Vec<String> = self.iter().map(|p| p.to_string()).collect();
        f.write_str(&s.join(","))
    }
}

impl serde::Serialize for PipSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> serde::Deserialize<'de> for PipSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<PipSet, D::Error> {
        let v = Vec::<u8>::deserialize(d)?;
        let mut s = PipSet::EMPTY;
        for p in v {
            if p > MAX_PIP {
                return Err(serde::de::Error::custom(format!("pip {p} out of range")));
            }
            s.insert(p);
        }
        Ok(s)
    }
}

/// A seat at the table, 0 to 3, in clockwise order.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize, serde::Deserialize,
)]
pub struct Seat(pub u8);

impl Seat {
    /// The next seat clockwise at a table of `n`.
    #[must_use]
    #[inline]
    pub const fn next(self, n: u8) -> Seat {
        if self.0 + 1 >= n {
            Seat(0)
        } else {
            Seat(self.0 + 1)
        }
    }

    /// Index for per-seat arrays.
    #[must_use]
    pub const fn idx(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "S{}", self.0)
    }
}

/// A scoring side: a single player, or a partnership (seats 0+2 are side 0, 1+3 side 1).
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize, serde::Deserialize,
)]
pub struct Side(pub u8);

impl Side {
    /// Index for per-side arrays.
    #[must_use]
    pub const fn idx(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "side {}", self.0)
    }
}

/// A value per seat (up to four), like a fixed array indexed by [`Seat`].
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize,
)]
pub struct BySeat<T>(pub [T; 4]);

impl<T> std::ops::Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, s: Seat) -> &T {
        &self.0[s.idx()]
    }
}

impl<T> std::ops::IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, s: Seat) -> &mut T {
        &mut self.0[s.idx()]
    }
}

/// A value per side (up to four), indexed by [`Side`].
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize,
)]
pub struct BySide<T>(pub [T; 4]);

impl<T> std::ops::Index<Side> for BySide<T> {
    type Output = T;
    fn index(&self, s: Side) -> &T {
        &self.0[s.idx()]
    }
}

impl<T> std::ops::IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, s: Side) -> &mut T {
        &mut self.0[s.idx()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_cover_the_set_once() {
        let mut seen = TileSet::EMPTY;
        for a in 0..=6 {
            for b in 0..=a {
                let t = Tile::new(a, b);
                assert_eq!((t.hi(), t.lo()), (a, b));
                assert!(!seen.contains(t));
                seen.insert(t);
            }
        }
        assert_eq!(seen, Tile::ALL);
        assert_eq!(Tile::new(6, 6).index(), 27);
        assert_eq!(Tile::new(0, 0).index(), 0);
    }

    #[test]
    fn suits_have_seven_tiles() {
        for p in 0..=6 {
            assert_eq!(Tile::suit(p).len(), 7);
            assert!(Tile::suit(p).contains(Tile::double(p)));
        }
        assert_eq!(Tile::DOUBLES.len(), 7);
        assert_eq!(Tile::ALL.pips(), 168);
    }

    #[test]
    fn parse_and_print() {
        assert_eq!("3-5".parse::<Tile>().unwrap(), Tile::new(5, 3));
        assert_eq!(Tile::new(3, 5).to_string(), "5-3");
        assert_eq!("64".parse::<Tile>().unwrap(), Tile::new(6, 4));
        assert!("7-1".parse::<Tile>().is_err());
        assert!("6-".parse::<Tile>().is_err());
        assert!("".parse::<Tile>().is_err());
    }

    #[test]
    fn set_operations() {
        let s: TileSet = [Tile::new(1, 2), Tile::new(5, 5)].into_iter().collect();
        assert_eq!(s.len(), 2);
        assert_eq!(s.pips(), 13);
        assert_eq!(s.nth(1), Some(Tile::new(5, 5)));
        assert_eq!(s.nth(2), None);
        assert_eq!(s.to_string(), "2-1 5-5");
    }
}
