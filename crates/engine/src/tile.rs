//! Tiles, pips, tile sets and seats: the small value types everything else is built from.
//!
//! Tiles are numbered the same way in every set: `hi * (hi + 1) / 2 + lo`, so the 28 tiles of a
//! double-six set are the first 28 of a double-nine set (55 tiles), which are the first 55 of a
//! double-twelve set (91 tiles). A [`TileSet`] is a 128-bit bitset that holds any of them.

use std::fmt;
use std::str::FromStr;

/// A pip value, 0 to 6 on a double-six set, up to 12 on a double-twelve set.
pub type Pip = u8;

/// Highest pip on the largest set (double-twelve).
pub const MAX_PIP: Pip = 12;

/// Number of tiles in the largest set (double-twelve).
pub const TILE_COUNT: usize = 91;

/// Number of tiles in the set whose highest double is `top`-`top`: 28 for double-six, 55 for
/// double-nine, 91 for double-twelve.
#[must_use]
pub const fn set_size(top: Pip) -> usize {
    (top as usize + 1) * (top as usize + 2) / 2
}

/// One tile of a double-six, double-nine or double-twelve set.
///
/// The index is `hi * (hi + 1) / 2 + lo` with `hi >= lo`, so `0-0` is 0, `6-6` is 27, `9-9` is
/// 54 and `12-12` is 90. A tile is written high half first: `6-4`, `5-0`, `12-10`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(pub(crate) u8);

const fn build_halves() -> ([u8; 128], [u8; 128]) {
    let mut hi = [0u8; 128];
    let mut lo = [0u8; 128];
    let mut a = 0;
    while a <= MAX_PIP {
        let mut b = 0;
        while b <= a {
            let i = a as usize * (a as usize + 1) / 2 + b as usize;
            hi[i] = a;
            lo[i] = b;
            b += 1;
        }
        a += 1;
    }
    (hi, lo)
}

const HALVES: ([u8; 128], [u8; 128]) = build_halves();
/// High halves by tile index (padded to 128 so a masked index needs no bounds check).
const HI: [u8; 128] = HALVES.0;
/// Low halves by tile index (padded like `HI`).
const LO: [u8; 128] = HALVES.1;
/// Low halves by tile index, except 15 (a pip no set has) for a double: a per-pip table
/// indexed by it counts a double's pip once, without a branch on whether the tile is a double.
const LO_UNLESS_DOUBLE: [u8; 128] = {
    let mut t = HALVES.1;
    let mut i = 0;
    while i < 128 {
        if HALVES.0[i] == HALVES.1[i] {
            t[i] = 15;
        }
        i += 1;
    }
    t
};

const fn build_suits() -> [u128; 16] {
    let mut suits = [0u128; 16];
    let mut i = 0;
    while i < TILE_COUNT {
        suits[HI[i] as usize] |= 1 << i;
        suits[LO[i] as usize] |= 1 << i;
        i += 1;
    }
    suits
}

/// `SUITS[p]`: the bitset of tiles (of the largest set) that carry pip `p` on either half
/// (entries 13 to 15 are empty, so a pip masked to four bits needs no bounds check).
const SUITS: [u128; 16] = build_suits();

/// `BIT[i]`: the set holding tile `i` alone (a load is cheaper than a 128-bit shift).
const BIT: [u128; 128] = {
    let mut b = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        b[i] = 1 << i;
        i += 1;
    }
    b
};

const fn build_doubles() -> u128 {
    let mut m = 0u128;
    let mut p = 0usize;
    while p <= MAX_PIP as usize {
        m |= 1 << (p * (p + 1) / 2 + p);
        p += 1;
    }
    m
}

impl Tile {
    /// Every tile of the set whose highest double is `top`-`top` (6, 9 or 12).
    #[must_use]
    pub const fn all(top: Pip) -> TileSet {
        let n = set_size(top);
        TileSet(if n >= 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        })
    }

    /// The tile with halves `a` and `b` (in either order). Panics if a pip is above 12.
    #[must_use]
    pub const fn new(a: Pip, b: Pip) -> Tile {
        assert!(a <= MAX_PIP && b <= MAX_PIP, "pip out of range");
        let (h, l) = if a >= b { (a, b) } else { (b, a) };
        Tile(h * (h + 1) / 2 + l)
    }

    /// The tile with this index (0..91), if in range.
    #[must_use]
    pub const fn from_index(i: u8) -> Option<Tile> {
        if (i as usize) < TILE_COUNT {
            Some(Tile(i))
        } else {
            None
        }
    }

    /// The index 0..91.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The higher half.
    #[must_use]
    #[inline]
    pub const fn hi(self) -> Pip {
        HI[(self.0 & 127) as usize]
    }

    /// The lower half, or 15 (a pip no set has) for a double.
    #[inline]
    #[must_use]
    pub(crate) const fn lo_unless_double(self) -> u8 {
        LO_UNLESS_DOUBLE[(self.0 & 127) as usize]
    }

    /// The lower half.
    #[must_use]
    #[inline]
    pub const fn lo(self) -> Pip {
        LO[(self.0 & 127) as usize]
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

    /// The set of tiles carrying pip `p` (in the largest set: intersect with the set in use
    /// where that matters).
    #[must_use]
    #[inline]
    pub const fn suit(p: Pip) -> TileSet {
        TileSet(SUITS[(p & 15) as usize])
    }

    /// The doubles of the largest set, `0-0` to `12-12` (a smaller set holds the first seven or
    /// ten of them).
    pub const DOUBLES: TileSet = TileSet(build_doubles());

    /// Weight order used to pick the "heaviest tile": more pips first, then the higher half.
    #[must_use]
    pub const fn weight(self) -> u16 {
        (self.pips() as u16) * 16 + self.hi() as u16
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
            "not a tile: {:?} (expected two pips 0 to 12 like 6-4 or 12-10)",
            self.0
        )
    }
}

impl std::error::Error for ParseTileError {}

impl FromStr for Tile {
    type Err = ParseTileError;
    /// Reads `a-b` with pips 0 to 12 (`6-4`, `12-10`), or two single digits without the dash
    /// (`64`). Whether the tile belongs to the set in use is for the caller to check.
    fn from_str(s: &str) -> Result<Tile, ParseTileError> {
        let pip = |w: &str| -> Option<u8> {
            if w.is_empty() || w.len() > 2 || !w.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            if w.len() == 2 && w.starts_with('0') {
                return None;
            }
            w.parse::<u8>().ok().filter(|&p| p <= MAX_PIP)
        };
        let ok = match s.split_once('-') {
            Some((x, y)) => pip(x).zip(pip(y)),
            None => match s.as_bytes() {
                [x, y] if x.is_ascii_digit() && y.is_ascii_digit() => Some((x - b'0', y - b'0')),
                _ => None,
            },
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
pub struct TileSet(pub u128);

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
        self.0 & BIT[(t.0 & 127) as usize] != 0
    }

    /// Add a tile.
    pub fn insert(&mut self, t: Tile) {
        self.0 |= BIT[(t.0 & 127) as usize];
    }

    /// Remove a tile.
    pub fn remove(&mut self, t: Tile) {
        self.0 &= !BIT[(t.0 & 127) as usize];
    }

    /// The set with one tile.
    #[must_use]
    pub const fn single(t: Tile) -> TileSet {
        TileSet(BIT[(t.0 & 127) as usize])
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
pub struct TileSetIter(u128);

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

/// A set of pip values 0..=12 as a bitset.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PipSet(pub u16);

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

/// A seat at the table, 0 to 7, in clockwise order.
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

/// A scoring side: a single player, or a partnership (partners alternate around the table:
/// the even seats are side 0, the odd seats side 1).
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

/// Most players at a table.
pub const MAX_SEATS: usize = 8;

/// A value per seat (up to eight), like a fixed array indexed by [`Seat`].
///
/// In JSON it is a list of at least four entries; entries past the fourth are written only up
/// to the last one that is not the default, so tables of up to four players read and write
/// exactly as they did when a table had at most four seats, and a shorter list reads with the
/// missing entries at their default.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct BySeat<T>(pub [T; MAX_SEATS]);

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

/// A value per side (up to eight), indexed by [`Side`]; in JSON like [`BySeat`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct BySide<T>(pub [T; MAX_SEATS]);

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

/// The entries of a per-seat array that its JSON form writes: at least four, then up to the
/// last that is not the default.
fn written_len<T: PartialEq + Default>(a: &[T]) -> usize {
    let d = T::default();
    let last = a.iter().rposition(|v| *v != d).map_or(0, |i| i + 1);
    last.max(4)
}

fn serialize_seats<T, S>(a: &[T], s: S) -> Result<S::Ok, S::Error>
where
    T: serde::Serialize + PartialEq + Default,
    S: serde::Serializer,
{
    s.collect_seq(&a[..written_len(a)])
}

fn deserialize_seats<'de, T, D>(d: D) -> Result<[T; MAX_SEATS], D::Error>
where
    T: serde::Deserialize<'de> + Default + Copy,
    D: serde::Deserializer<'de>,
{
    let v = <Vec<T> as serde::Deserialize>::deserialize(d)?;
    if v.len() > MAX_SEATS {
        return Err(serde::de::Error::custom(format!(
            "{} entries given for at most {MAX_SEATS} seats",
            v.len()
        )));
    }
    let mut a = [T::default(); MAX_SEATS];
    a[..v.len()].copy_from_slice(&v);
    Ok(a)
}

impl<T: serde::Serialize + PartialEq + Default> serde::Serialize for BySeat<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_seats(&self.0, s)
    }
}

impl<'de, T: serde::Deserialize<'de> + Default + Copy> serde::Deserialize<'de> for BySeat<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_seats(d).map(BySeat)
    }
}

impl<T: serde::Serialize + PartialEq + Default> serde::Serialize for BySide<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_seats(&self.0, s)
    }
}

impl<'de, T: serde::Deserialize<'de> + Default + Copy> serde::Deserialize<'de> for BySide<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_seats(d).map(BySide)
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
        assert_eq!(seen, Tile::all(6));
        assert_eq!(Tile::new(6, 6).index(), 27);
        assert_eq!(Tile::new(0, 0).index(), 0);
        // The bigger sets extend the numbering: double-six tiles keep their indices.
        assert_eq!(Tile::new(9, 9).index(), 54);
        assert_eq!(Tile::new(12, 12).index(), 90);
        for (top, n, pips) in [(6u8, 28usize, 168u32), (9, 55, 495), (12, 91, 1092)] {
            assert_eq!(set_size(top), n);
            let all = Tile::all(top);
            assert_eq!(all.len() as usize, n);
            assert_eq!(all.pips(), pips, "double-{top}");
            assert_eq!(all.and(Tile::DOUBLES).len(), u32::from(top) + 1);
            for p in 0..=top {
                assert_eq!(Tile::suit(p).and(all).len(), u32::from(top) + 1);
            }
        }
    }

    #[test]
    fn suits_have_seven_tiles() {
        for p in 0..=6 {
            assert_eq!(Tile::suit(p).and(Tile::all(6)).len(), 7);
            assert!(Tile::suit(p).contains(Tile::double(p)));
        }
        assert_eq!(Tile::DOUBLES.and(Tile::all(6)).len(), 7);
        assert_eq!(Tile::DOUBLES.len(), 13);
    }

    #[test]
    fn parse_and_print() {
        assert_eq!("3-5".parse::<Tile>().unwrap(), Tile::new(5, 3));
        assert_eq!(Tile::new(3, 5).to_string(), "5-3");
        assert_eq!("64".parse::<Tile>().unwrap(), Tile::new(6, 4));
        assert_eq!("12-10".parse::<Tile>().unwrap(), Tile::new(12, 10));
        assert_eq!("9-11".parse::<Tile>().unwrap().to_string(), "11-9");
        assert!("13-1".parse::<Tile>().is_err());
        assert!("01-1".parse::<Tile>().is_err());
        assert!("1210".parse::<Tile>().is_err());
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
