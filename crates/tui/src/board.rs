//! Drawing the layout: a pure function from the layout's geometry ([`LayoutTree`]) and the size
//! of a rectangle to positioned text pieces.
//!
//! Tiles are drawn in a plain terminal font:
//!
//! - a tile lying in a horizontal line is `[6|4]` (five columns, one row);
//! - a tile lying in a vertical line is three rows, `/6\`, `|-|`, `\4/`;
//! - a double lies crosswise: upright (`/5\`, `|-|`, `\5/`) in a horizontal line, `[5|5]` in a
//!   vertical one;
//! - every open end is marked by its arm's name (`W`, `E`, `N`, `S`, `4`, ...) just past it.
//!
//! The lead sits near the middle; arm `W` grows left and `E` right, a spinner's first sprout
//! (`N`) grows up and its second (`S`) down, or left and right for a spinner lying in a
//! vertical stretch. An arm that reaches the edge of the rectangle, or another arm, turns a
//! corner (clockwise first, so the four arms of a cross make a pinwheel). When an arm cannot be
//! laid out at all, the middle of it is replaced by an elision marker `(+3)` that says how many
//! tiles are not shown, keeping the tiles next to its end and any spinner that carries sprouts.
//! Nothing is ever drawn outside the rectangle or over another piece.

use fiveup_engine::{Anchor, ArmId, LayoutTree, Pip, Tile};

/// A direction on the screen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dir {
    /// Toward column 0.
    Left,
    /// Toward larger columns.
    Right,
    /// Toward row 0.
    Up,
    /// Toward larger rows.
    Down,
}

impl Dir {
    const fn dx(self) -> i32 {
        match self {
            Dir::Left => -1,
            Dir::Right => 1,
            _ => 0,
        }
    }
    const fn dy(self) -> i32 {
        match self {
            Dir::Up => -1,
            Dir::Down => 1,
            _ => 0,
        }
    }
    const fn horizontal(self) -> bool {
        matches!(self, Dir::Left | Dir::Right)
    }
    const fn clockwise(self) -> Dir {
        match self {
            Dir::Left => Dir::Up,
            Dir::Up => Dir::Right,
            Dir::Right => Dir::Down,
            Dir::Down => Dir::Left,
        }
    }
    const fn counter(self) -> Dir {
        match self {
            Dir::Left => Dir::Down,
            Dir::Down => Dir::Right,
            Dir::Right => Dir::Up,
            Dir::Up => Dir::Left,
        }
    }
}

/// What a drawn piece is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    /// The lead tile.
    Lead(Tile),
    /// A tile in an arm: the arm and its position from the anchor outward.
    Tile {
        /// The tile.
        tile: Tile,
        /// Its arm.
        arm: ArmId,
        /// Its position in the arm.
        index: usize,
    },
    /// An open end's marker.
    End(ArmId),
    /// A spinner's sprout that is not open yet: `+` where its first tile will go.
    Shut(ArmId),
    /// Cross Dominoes: an arm that waits until the cross is complete, marked past its end by
    /// its name in lower case (`w`, `e`; a numbered arm as `4~`).
    Waiting(ArmId),
    /// Tiles of an arm not shown for lack of room.
    Elided {
        /// The arm.
        arm: ArmId,
        /// How many tiles it stands for.
        tiles: usize,
    },
}

/// One row of a piece: text at a position relative to the rectangle's top-left corner.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Glyph {
    /// Column.
    pub x: u16,
    /// Row.
    pub y: u16,
    /// The text (ASCII, one cell per character).
    pub text: String,
    /// What it belongs to.
    pub role: Role,
}

/// The drawn layout.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Drawing {
    /// Every row of every piece.
    pub glyphs: Vec<Glyph>,
    /// Tiles shown (the lead included).
    pub shown: usize,
    /// Tiles replaced by elision markers, or not drawn at all because there was no room.
    pub hidden: usize,
    /// Open ends whose marker could not be drawn.
    pub unmarked_ends: usize,
    /// How far the drawing strays from the straight layout for lack of room: arms whose first
    /// tile could not go its own way (it took another arm's place), arms that turn back the way
    /// they came, and turns beyond the second in one arm (a spiral). 0 when every arm starts
    /// where it should and runs on without doubling back.
    pub crowded: usize,
}

/// Rows of text at cells: `(x, y, text)`.
type Rows = Vec<(i32, i32, String)>;

#[derive(Clone, Copy, Debug)]
enum Kind {
    Tile { inner: Pip, outer: Pip },
    Double(Pip),
    Text(usize),
}

#[derive(Clone, Copy, Debug)]
struct Piece {
    kind: Kind,
    role: Role,
    /// Columns of one pip: 1, or 2 when the layout holds a pip of 10 or more (`[12|10]`,
    /// `[ 5| 3]`, `/12\`, `|--|`). Every tile of one drawing uses the same width.
    pw: i32,
}

/// A pip written in `pw` columns (right-aligned: ` 5`, `12`).
fn pip(p: Pip, pw: i32) -> String {
    format!("{p:>w$}", w = pw as usize)
}

/// The middle row of a tile standing upright: `|-|`, or `|--|` with two-column pips.
fn mid(pw: i32) -> String {
    format!("|{}|", "-".repeat(pw as usize))
}

/// Columns of a pip in drawings of `tree`: 2 once any tile in it has a pip of 10 or more.
fn pip_width(tree: &LayoutTree) -> i32 {
    let wide = |t: Tile| t.hi() > 9;
    if tree.root.is_some_and(wide)
        || tree
            .arms
            .iter()
            .any(|a| a.tiles.iter().any(|p| wide(p.tile)))
    {
        2
    } else {
        1
    }
}

#[derive(Clone, Copy, Debug)]
struct Rect {
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
}

/// Where a placed piece lies, to continue an arm from it or to sprout from it.
#[derive(Clone, Copy, Debug)]
struct Cursor {
    /// The cell just past the last piece, on the line's axis.
    next: (i32, i32),
    dir: Dir,
    /// The last piece's bounding box (`None` at an anchor).
    last: Option<Rect>,
}

struct Grid {
    w: i32,
    h: i32,
    used: Vec<bool>,
}

impl Grid {
    fn free(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.w && y < self.h && !self.used[(y * self.w + x) as usize]
    }
    fn fits(&self, rows: &[(i32, i32, String)]) -> bool {
        rows.iter()
            .all(|(x, y, t)| (0..t.chars().count() as i32).all(|i| self.free(x + i, *y)))
    }
    fn mark(&mut self, rows: &[(i32, i32, String)]) {
        for (x, y, t) in rows {
            for i in 0..t.chars().count() as i32 {
                self.used[(y * self.w + x + i) as usize] = true;
            }
        }
    }
}

fn text_of(role: Role) -> String {
    match role {
        Role::End(a) => a.to_string(),
        Role::Shut(_) => "+".to_string(),
        Role::Waiting(a) => waiting_mark(a),
        Role::Elided { tiles, .. } => format!("(+{tiles})"),
        _ => String::new(),
    }
}

/// The rows of a piece whose near edge starts at `p` going `d`, and the next cell on the axis.
fn shape(piece: Piece, p: (i32, i32), d: Dir) -> (Rows, (i32, i32)) {
    let (x, y) = p;
    let pw = piece.pw;
    match (piece.kind, d.horizontal()) {
        (Kind::Tile { inner, outer }, true) => {
            let (a, b) = if d == Dir::Right {
                (inner, outer)
            } else {
                (outer, inner)
            };
            let w = 3 + 2 * pw;
            let x0 = if d == Dir::Right { x } else { x - w + 1 };
            (
                vec![(x0, y, format!("[{}|{}]", pip(a, pw), pip(b, pw)))],
                (x + w * d.dx(), y),
            )
        }
        (Kind::Tile { inner, outer }, false) => {
            let (inner, outer) = (pip(inner, pw), pip(outer, pw));
            let rows = if d == Dir::Down {
                vec![
                    (x - 1, y, format!("/{inner}\\")),
                    (x - 1, y + 1, mid(pw)),
                    (x - 1, y + 2, format!("\\{outer}/")),
                ]
            } else {
                vec![
                    (x - 1, y - 2, format!("/{outer}\\")),
                    (x - 1, y - 1, mid(pw)),
                    (x - 1, y, format!("\\{inner}/")),
                ]
            };
            (rows, (x, y + 3 * d.dy()))
        }
        (Kind::Double(p), true) => {
            let w = 2 + pw;
            let x0 = if d == Dir::Right { x } else { x - w + 1 };
            let p = pip(p, pw);
            (
                vec![
                    (x0, y - 1, format!("/{p}\\")),
                    (x0, y, mid(pw)),
                    (x0, y + 1, format!("\\{p}/")),
                ],
                (x + w * d.dx(), y),
            )
        }
        (Kind::Double(p), false) => {
            let p = pip(p, pw);
            (vec![(x - 1 - pw, y, format!("[{p}|{p}]"))], (x, y + d.dy()))
        }
        (Kind::Text(n), true) => {
            let n = n as i32;
            let x0 = if d == Dir::Right { x } else { x - n + 1 };
            (
                vec![(x0, y, text_of(piece.role))],
                (x + (n + 1) * d.dx(), y),
            )
        }
        (Kind::Text(n), false) => (
            vec![(x - (n as i32 - 1) / 2, y, text_of(piece.role))],
            (x, y + d.dy()),
        ),
    }
}

fn bbox(rows: &[(i32, i32, String)]) -> Rect {
    let mut r = Rect {
        x0: i32::MAX,
        y0: i32::MAX,
        x1: i32::MIN,
        y1: i32::MIN,
    };
    for (x, y, t) in rows {
        r.x0 = r.x0.min(*x);
        r.y0 = r.y0.min(*y);
        r.x1 = r.x1.max(x + t.chars().count() as i32 - 1);
        r.y1 = r.y1.max(*y);
    }
    r
}

/// The rows of `piece` laid after `cur`, turned to `d` (which may equal `cur.dir`).
fn place(piece: Piece, cur: &Cursor, d: Dir) -> Option<(Rows, (i32, i32))> {
    if d == cur.dir {
        return Some(shape(piece, cur.next, d));
    }
    let last = cur.last?;
    if cur.dir.horizontal() {
        // On the last piece's outer half, growing up or down from its edge.
        let cx = if cur.dir == Dir::Right {
            last.x1 - piece.pw
        } else {
            last.x0 + 1
        };
        let y = if d == Dir::Up {
            last.y0 - 1
        } else {
            last.y1 + 1
        };
        Some(shape(piece, (cx, y), d))
    } else {
        // Beside the last piece's outer row, growing left or right.
        let row = cur.next.1 - cur.dir.dy();
        let x = if d == Dir::Right {
            last.x1 + 1
        } else {
            last.x0 - 1
        };
        Some(shape(piece, (x, row), d))
    }
}

/// Lay `pieces` one after another from `start`, turning where needed; `None` when some piece
/// fits nowhere. On success the grid is marked and the placed rows and cursors are returned.
fn lay_arm(grid: &mut Grid, start: Cursor, pieces: &[Piece], clockwise: bool) -> Option<Laid> {
    let mut trial = Grid {
        w: grid.w,
        h: grid.h,
        used: grid.used.clone(),
    };
    let mut cur = start;
    let mut out = Vec::new();
    for &piece in pieces {
        let mut done = false;
        let turns = if clockwise {
            [cur.dir, cur.dir.clockwise(), cur.dir.counter()]
        } else {
            [cur.dir, cur.dir.counter(), cur.dir.clockwise()]
        };
        for d in turns {
            let Some((rows, next)) = place(piece, &cur, d) else {
                continue;
            };
            if trial.fits(&rows) {
                trial.mark(&rows);
                let at = Cursor {
                    next,
                    dir: d,
                    last: Some(bbox(&rows)),
                };
                cur = at;
                out.push((piece, rows, at));
                done = true;
                break;
            }
        }
        if !done {
            return None;
        }
    }
    *grid = trial;
    Some(out)
}

fn piece_len(kind: Kind, horizontal: bool, pw: i32) -> i32 {
    match (kind, horizontal) {
        (Kind::Tile { .. }, true) => 3 + 2 * pw,
        (Kind::Tile { .. } | Kind::Double(_), false) => 3,
        (Kind::Double(_), true) => 1,
        (Kind::Text(n), true) => n as i32 + 1,
        (Kind::Text(_), false) => 1,
    }
}

fn arm_pieces(line: &fiveup_engine::ArmLine, pw: i32) -> Vec<Piece> {
    line.tiles
        .iter()
        .enumerate()
        .map(|(index, p)| Piece {
            kind: if p.tile.is_double() {
                Kind::Double(p.inner)
            } else {
                Kind::Tile {
                    inner: p.inner,
                    outer: p.outer,
                }
            },
            role: Role::Tile {
                tile: p.tile,
                arm: line.id,
                index,
            },
            pw,
        })
        .collect()
}

fn end_piece(id: ArmId, pw: i32) -> Piece {
    Piece {
        kind: Kind::Text(id.to_string().len()),
        role: Role::End(id),
        pw,
    }
}

/// The marker of an arm waiting for the cross: its name in lower case, or `4~` for a numbered
/// arm.
#[must_use]
pub fn waiting_mark(a: ArmId) -> String {
    let name = a.to_string();
    if name.chars().all(|c| c.is_ascii_alphabetic()) {
        name.to_ascii_lowercase()
    } else {
        format!("{name}~")
    }
}

/// Arms of `tree` that wait for a Cross Dominoes cross (`cross_pending`: the layout's
/// [`fiveup_engine::Layout::cross_pending`]): closed arms that already hold tiles, and a closed
/// side of the lead. A spinner's sprout that has not opened is shut, not waiting.
#[must_use]
pub fn waiting_arms(tree: &LayoutTree, cross_pending: bool) -> Vec<ArmId> {
    if !cross_pending {
        return Vec::new();
    }
    tree.arms
        .iter()
        .filter(|a| !a.open && (a.anchor == Anchor::Root || !a.tiles.is_empty()))
        .map(|a| a.id)
        .collect()
}

/// Draw `tree` in a rectangle of `width` × `height` cells.
///
/// A few placements of the lead and both turning preferences are tried; the drawing that
/// hides the fewest tiles wins (the first one tried, centred, when nothing is hidden).
#[must_use]
pub fn draw(tree: &LayoutTree, width: u16, height: u16) -> Drawing {
    draw_waiting(tree, width, height, &[])
}

/// [`draw`], marking the ends of the arms in `waiting` (Cross Dominoes, [`waiting_arms`]).
#[must_use]
pub fn draw_waiting(tree: &LayoutTree, width: u16, height: u16, waiting: &[ArmId]) -> Drawing {
    let Some(root) = tree.root else {
        return Drawing::default();
    };
    let pw = pip_width(tree);
    let lens = |id: u8, horizontal: bool| -> i32 {
        tree.arms.get(usize::from(id)).map_or(0, |line| {
            let mut n: i32 = arm_pieces(line, pw)
                .iter()
                .map(|p| piece_len(p.kind, horizontal, pw))
                .sum();
            if line.open || waiting.contains(&line.id) {
                n += piece_len(Kind::Text(1), horizontal, pw);
            }
            n
        })
    };
    // Place the lead so that a straight line of W and E (and of the first spinner's sprouts)
    // would fit when it can, else in proportion to the arms' lengths.
    let (rw, rh) = if root.is_double() {
        (2 + pw, 3)
    } else {
        (3 + 2 * pw, 1)
    };
    let w = i32::from(width);
    let h = i32::from(height);
    let (lw, le) = (lens(0, true), lens(1, true));
    let x0 = if lw + rw + le <= w {
        (w - (lw + rw + le)) / 2 + lw
    } else {
        ((w - rw) * lw / (lw + le).max(1))
            .max(0)
            .min((w - rw).max(0))
    };
    let (ln, ls) = (lens(2, false), lens(3, false));
    let cy = if ln + rh + ls <= h {
        (h - (ln + rh + ls)) / 2 + ln + rh / 2
    } else {
        ((h - rh) * ln.max(1) / (ln + ls).max(2) + rh / 2)
            .min(h - 1 - rh / 2)
            .max(rh / 2)
    };
    let mut best: Option<Drawing> = None;
    let xs = [
        x0,
        w / 2 - rw / 2,
        w / 4,
        3 * w / 4 - rw,
        x0 - w / 8,
        x0 + w / 8,
    ];
    let ys = [cy, h / 2, h / 3, 2 * h / 3, cy - h / 6, cy + h / 6];
    for (i, &x) in xs.iter().enumerate() {
        for (j, &y) in ys.iter().enumerate() {
            for clockwise in [true, false] {
                if (i > 0 || j > 0 || !clockwise)
                    && best
                        .as_ref()
                        .is_some_and(|b| b.hidden == 0 && b.unmarked_ends == 0 && b.crowded == 0)
                {
                    return best.unwrap_or_default();
                }
                let d = draw_at(tree, width, height, (x, y), clockwise, waiting);
                let key = |d: &Drawing| (d.hidden, d.unmarked_ends, d.crowded);
                if best.as_ref().is_none_or(|b| key(&d) < key(b)) {
                    best = Some(d);
                }
            }
        }
    }
    best.unwrap_or_default()
}

/// Draw with the lead's left column at `x0` and its middle row at `cy`.
fn draw_at(
    tree: &LayoutTree,
    width: u16,
    height: u16,
    (x0, cy): (i32, i32),
    clockwise: bool,
    waiting: &[ArmId],
) -> Drawing {
    let mut drawing = Drawing::default();
    let total_tiles =
        usize::from(tree.root.is_some()) + tree.arms.iter().map(|a| a.tiles.len()).sum::<usize>();
    let open_ends = tree.arms.iter().filter(|a| a.open).count();
    let Some(root) = tree.root else {
        return drawing;
    };
    let mut grid = Grid {
        w: i32::from(width),
        h: i32::from(height),
        used: vec![false; usize::from(width) * usize::from(height)],
    };
    let pw = pip_width(tree);
    let double = root.is_double();
    let (hi, lo) = (pip(root.hi(), pw), pip(root.lo(), pw));
    let root_rows = if double {
        vec![
            (x0, cy - 1, format!("/{hi}\\")),
            (x0, cy, mid(pw)),
            (x0, cy + 1, format!("\\{lo}/")),
        ]
    } else {
        vec![(x0, cy, format!("[{hi}|{lo}]"))]
    };
    if !grid.fits(&root_rows) {
        drawing.hidden = total_tiles;
        drawing.unmarked_ends = open_ends;
        return drawing;
    }
    grid.mark(&root_rows);
    let rb = bbox(&root_rows);
    for (x, y, text) in root_rows {
        drawing.glyphs.push(glyph(x, y, text, Role::Lead(root)));
    }
    drawing.shown = 1;
    // Where each drawn tile lies: (arm, index) -> (bounding box, direction).
    let mut at: Vec<(ArmId, usize, Rect, Dir)> = Vec::new();
    for line in &tree.arms {
        let pieces = arm_pieces(line, pw);
        let n = pieces.len();
        let start = match line.anchor {
            Anchor::Root => {
                let (next, dir) = if line.id.0 == 0 {
                    ((rb.x0 - 1, cy), Dir::Left)
                } else {
                    ((rb.x1 + 1, cy), Dir::Right)
                };
                Some(Cursor {
                    next,
                    dir,
                    last: Some(rb),
                })
            }
            Anchor::Sprout { arm, index, .. } => {
                let spot = match arm {
                    None => Some((rb, Dir::Right)),
                    Some(a) => at
                        .iter()
                        .find(|(aa, i, _, _)| *aa == a && *i == index)
                        .map(|(_, _, r, d)| (*r, *d)),
                };
                spot.map(|(r, d)| {
                    let first = line.id.0 % 2 == 0;
                    let (next, dir) = if d.horizontal() {
                        let cx = (r.x0 + r.x1) / 2;
                        if first {
                            ((cx, r.y0 - 1), Dir::Up)
                        } else {
                            ((cx, r.y1 + 1), Dir::Down)
                        }
                    } else {
                        let cyy = (r.y0 + r.y1) / 2;
                        if first {
                            ((r.x0 - 1, cyy), Dir::Left)
                        } else {
                            ((r.x1 + 1, cyy), Dir::Right)
                        }
                    };
                    Cursor {
                        next,
                        dir,
                        last: Some(r),
                    }
                })
            }
        };
        let Some(start) = start else {
            drawing.hidden += n;
            drawing.unmarked_ends += usize::from(line.open);
            continue;
        };
        // Tiles that carry sprouts must stay visible.
        let anchors: Vec<usize> = tree
            .arms
            .iter()
            .filter_map(|a| match a.anchor {
                Anchor::Sprout {
                    arm: Some(x),
                    index,
                    ..
                } if x == line.id => Some(index),
                _ => None,
            })
            .collect();
        let placed = lay_with_elision(
            &mut grid,
            start,
            &pieces,
            line,
            &anchors,
            (clockwise, pw),
            waiting.contains(&line.id),
        );
        if let Some(list) = &placed {
            let mut dir = start.dir;
            let mut turns = 0usize;
            let mut reversed = false;
            for (k, (_, _, cur)) in list.iter().enumerate() {
                if cur.dir != dir {
                    if k == 0 {
                        drawing.crowded += 1;
                    } else {
                        turns += 1;
                    }
                    dir = cur.dir;
                    // Running back the way it came: it has turned into other arms' room.
                    reversed |= dir == start.dir.clockwise().clockwise();
                }
            }
            drawing.crowded += turns.saturating_sub(2) + usize::from(reversed);
        }
        match placed {
            Some(list) => {
                for (piece, rows, cur) in list {
                    match piece.role {
                        Role::Tile { index, .. } => {
                            drawing.shown += 1;
                            if let Some(r) = cur.last {
                                at.push((line.id, index, r, cur.dir));
                            }
                        }
                        Role::Elided { tiles, .. } => drawing.hidden += tiles,
                        _ => {}
                    }
                    for (x, y, text) in rows {
                        drawing.glyphs.push(glyph(x, y, text, piece.role));
                    }
                }
            }
            None => {
                drawing.hidden += n;
                drawing.unmarked_ends += usize::from(line.open);
            }
        }
    }
    drawing
}

fn glyph(x: i32, y: i32, text: String, role: Role) -> Glyph {
    Glyph {
        x: u16::try_from(x).unwrap_or(0),
        y: u16::try_from(y).unwrap_or(0),
        text,
        role,
    }
}

type Laid = Vec<(Piece, Rows, Cursor)>;

/// Lay an arm whole if it fits, else with the fewest middle tiles elided (never a tile that
/// carries sprouts), else its end marker alone, else nothing.
fn lay_with_elision(
    grid: &mut Grid,
    start: Cursor,
    pieces: &[Piece],
    line: &fiveup_engine::ArmLine,
    anchors: &[usize],
    (clockwise, pw): (bool, i32),
    waiting: bool,
) -> Option<Laid> {
    let with_end = |mut v: Vec<Piece>| {
        if line.open {
            v.push(end_piece(line.id, pw));
        } else if waiting {
            let role = Role::Waiting(line.id);
            v.push(Piece {
                kind: Kind::Text(text_of(role).len()),
                role,
                pw,
            });
        }
        v
    };
    if !line.open && !waiting && pieces.is_empty() {
        // A sprout not open yet: mark where it will grow, if there is room.
        let shut = Piece {
            kind: Kind::Text(1),
            role: Role::Shut(line.id),
            pw,
        };
        return Some(lay_arm(grid, start, &[shut], clockwise).unwrap_or_default());
    }
    if let Some(l) = lay_arm(grid, start, &with_end(pieces.to_vec()), clockwise) {
        return Some(l);
    }
    let n = pieces.len();
    for m in 1..=n {
        // Candidate starts of the elided run, from the middle outward.
        let mid = (n - m) / 2;
        let mut starts: Vec<usize> = (0..=n - m).collect();
        starts.sort_by_key(|s| s.abs_diff(mid));
        for s in starts {
            if anchors.iter().any(|&i| i >= s && i < s + m) {
                continue;
            }
            let mut seq: Vec<Piece> = pieces[..s].to_vec();
            let role = Role::Elided {
                arm: line.id,
                tiles: m,
            };
            seq.push(Piece {
                kind: Kind::Text(text_of(role).len()),
                role,
                pw,
            });
            seq.extend_from_slice(&pieces[s + m..]);
            if let Some(l) = lay_arm(grid, start, &with_end(seq), clockwise) {
                return Some(l);
            }
        }
    }
    None
}

/// A part of the count.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CountPart {
    /// The pip showing at the end of an arm (a tile that is not a double).
    End(ArmId, Pip),
    /// A double that counts both halves: at the end of an arm, or a spinner with fewer than two
    /// tiles against it.
    Double(Tile),
    /// An open end that adds nothing: an empty sprout, or an end against a double that no longer
    /// counts.
    Nothing(ArmId),
}

impl CountPart {
    /// What it adds to the count.
    #[must_use]
    pub fn value(self) -> u8 {
        match self {
            CountPart::End(_, p) => p,
            CountPart::Double(t) => 2 * t.hi(),
            CountPart::Nothing(_) => 0,
        }
    }
}

impl std::fmt::Display for CountPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CountPart::End(a, p) => write!(f, "{a} {p}"),
            CountPart::Double(t) => write!(f, "{t}={}", 2 * t.hi()),
            CountPart::Nothing(a) => write!(f, "{a} 0"),
        }
    }
}

/// The count taken apart: the outer half of each arm's end tile, every double that still
/// counts both halves (at the end of an arm, or a spinner with fewer than two tiles against
/// it), and every other open end as adding nothing (an empty sprout, an end against a double
/// that no longer counts), so that each open end is accounted for. `None` when the parts do not
/// add up to the layout's count (a rule this drawing does not know).
#[must_use]
pub fn count_parts(tree: &LayoutTree) -> Option<Vec<CountPart>> {
    let root = tree.root?;
    let mut parts = Vec::new();
    let has = |id: ArmId| tree.arms.get(id.idx()).is_some_and(|a| !a.tiles.is_empty());
    let sprouts_filled = |arm: Option<ArmId>, index: usize| {
        tree.arms
            .iter()
            .filter(|a| {
                matches!(a.anchor, Anchor::Sprout { arm: x, index: i, .. } if x == arm && i == index)
                    && !a.tiles.is_empty()
            })
            .count()
    };
    // Doubles that count both halves.
    let mut counting: Vec<Tile> = Vec::new();
    if root.is_double()
        && usize::from(has(ArmId(0))) + usize::from(has(ArmId(1))) + sprouts_filled(None, 0) < 2
    {
        counting.push(root);
    }
    for line in &tree.arms {
        for (i, p) in line.tiles.iter().enumerate() {
            if p.tile.is_double()
                && 1 + usize::from(line.tiles.len() > i + 1) + sprouts_filled(Some(line.id), i) < 2
            {
                counting.push(p.tile);
            }
        }
    }
    let mut listed: Vec<Tile> = Vec::new();
    let mut double = |t: Tile, parts: &mut Vec<CountPart>| {
        if counting.contains(&t) && !listed.contains(&t) {
            listed.push(t);
            parts.push(CountPart::Double(t));
            true
        } else {
            counting.contains(&t)
        }
    };
    for line in &tree.arms {
        // The tile this arm's end lies against: its last tile, or its anchor.
        let (end_tile, outer) = match (line.tiles.last(), line.anchor) {
            (Some(last), _) => (last.tile, Some(last.outer)),
            (None, Anchor::Root) => (root, (!root.is_double()).then_some(line.end)),
            (None, Anchor::Sprout { double, .. }) => (double, None),
        };
        match outer {
            Some(p) if !end_tile.is_double() => parts.push(CountPart::End(line.id, p)),
            _ => {
                // On a double: the double's part when it counts, else this end adds nothing.
                if !double(end_tile, &mut parts) && line.open {
                    parts.push(CountPart::Nothing(line.id));
                }
            }
        }
    }
    // Doubles counting without an open end on them (none in the rules known so far).
    for t in counting.clone() {
        double(t, &mut parts);
    }
    let sum: u32 = parts.iter().map(|p| u32::from(p.value())).sum();
    (sum == u32::from(tree.count)).then_some(parts)
}

/// The drawing as plain text, `height` lines of `width` characters (trailing spaces trimmed).
#[must_use]
pub fn to_text(d: &Drawing, width: u16, height: u16) -> String {
    let mut rows = vec![vec![' '; usize::from(width)]; usize::from(height)];
    for g in &d.glyphs {
        for (i, c) in g.text.chars().enumerate() {
            if let Some(cell) = rows
                .get_mut(usize::from(g.y))
                .and_then(|r| r.get_mut(usize::from(g.x) + i))
            {
                *cell = c;
            }
        }
    }
    let mut out = String::new();
    for r in rows {
        out.push_str(r.iter().collect::<String>().trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fiveup_engine::{FastRng, Phase, Preset, Rules, Seed, State};
    use proptest::prelude::*;

    #[test]
    #[ignore = "prints how often whole hands are crowded; run by hand"]
    fn crowded_share() {
        for (preset, players, set) in [
            (Preset::FiveUp, 2, 6),
            (Preset::FiveUp, 4, 6),
            (Preset::Muggins, 2, 6),
            (Preset::Cross, 2, 6),
            (Preset::FiveUp, 2, 9),
            (Preset::FiveUp, 6, 12),
            (Preset::PartyTwelve, 8, 12),
            (Preset::Cross, 2, 12),
        ] {
            for (w, h) in [(48u16, 15u16), (78, 19), (68, 21), (128, 37)] {
                let n = 150;
                let rules = Rules::preset_with_set(preset, players, set);
                let drawn: Vec<Drawing> = (0..n)
                    .map(|seed| draw(&random_tree_on(seed, rules, 100), w, h))
                    .collect();
                let crowded = drawn.iter().filter(|d| d.crowded > 0).count();
                let hiding = drawn.iter().filter(|d| d.hidden > 0).count();
                println!(
                    "{} set={set} {players}p {w}x{h}: {crowded} of {n} crowded, {hiding} hide tiles",
                    preset.name()
                );
            }
        }
    }

    #[test]
    fn directions_turn_both_ways() {
        for d in [Dir::Left, Dir::Right, Dir::Up, Dir::Down] {
            assert_eq!(d.clockwise().counter(), d);
            assert_ne!(d.horizontal(), d.clockwise().horizontal());
        }
    }

    /// A layout from random play: `cut` of the hand's plays, under `preset` and `sprouts`.
    pub(crate) fn random_tree(seed: u64, preset: Preset, players: u8, cut: usize) -> LayoutTree {
        random_tree_on(seed, Rules::preset(preset, players), cut)
    }

    /// A layout from random play under `rules`: `cut` of the hand's plays.
    pub(crate) fn random_tree_on(seed: u64, rules: Rules, cut: usize) -> LayoutTree {
        let mut state = State::from_seed(rules, &Seed::from_u64(seed)).expect("a valid deal");
        let mut rng = FastRng::new(seed);
        let mut plays = 0;
        while state.phase() == Phase::Play || state.phase() == Phase::Claim {
            if plays >= cut {
                break;
            }
            let list = state.legal_actions();
            let a = list[rng.below(list.len() as u32) as usize];
            if matches!(a, fiveup_engine::Action::Play { .. }) {
                plays += 1;
            }
            state.apply(a).expect("a legal action");
        }
        LayoutTree::from_history(&rules, state.log())
    }

    /// Nothing outside the rectangle, nothing drawn twice on a cell, every tile accounted for.
    pub(crate) fn check(tree: &LayoutTree, w: u16, h: u16) -> Drawing {
        let d = draw(tree, w, h);
        let mut used = vec![false; usize::from(w) * usize::from(h)];
        for g in &d.glyphs {
            assert!(g.text.is_ascii());
            let len = g.text.len() as u16;
            assert!(g.y < h && g.x + len <= w, "{g:?} outside {w}x{h}");
            for i in 0..len {
                let c = usize::from(g.y) * usize::from(w) + usize::from(g.x + i);
                assert!(!used[c], "{g:?} overlaps at {w}x{h}: {tree:?}");
                used[c] = true;
            }
        }
        let total = usize::from(tree.root.is_some())
            + tree.arms.iter().map(|a| a.tiles.len()).sum::<usize>();
        assert_eq!(d.shown + d.hidden, total, "{d:?}");
        let tiles: usize = d
            .glyphs
            .iter()
            .filter(|g| matches!(g.role, Role::Tile { .. } | Role::Lead(_)))
            .map(|g| g.role)
            .collect::<Vec<_>>()
            .iter()
            .fold(Vec::new(), |mut v: Vec<Role>, r| {
                if !v.contains(r) {
                    v.push(*r);
                }
                v
            })
            .len();
        assert_eq!(tiles, d.shown);
        d
    }

    /// Full hands of random play whose layout satisfies `want`, from seeds 0, 1, ...
    fn trees(
        preset: Preset,
        players: u8,
        n: usize,
        want: impl Fn(&LayoutTree) -> bool,
    ) -> Vec<LayoutTree> {
        (0u64..)
            .map(|seed| random_tree(seed, preset, players, 40))
            .filter(|t| want(t))
            .take(n)
            .collect()
    }

    fn arm_len(t: &LayoutTree, id: usize) -> usize {
        t.arms.get(id).map_or(0, |a| a.tiles.len())
    }

    /// The board's inside at 80x24 (the smallest screen) is 48x15.
    const BOARD: (u16, u16) = (48, 15);

    #[test]
    fn a_spinner_cross_with_four_arms_fits_whole_on_the_smallest_screen() {
        let cross = trees(Preset::FiveUp, 2, 40, |t| {
            (0..4).all(|a| arm_len(t, a) >= 2)
        });
        let mut worst = 0;
        for t in &cross {
            let d = check(t, BOARD.0, BOARD.1);
            worst = worst.max(d.hidden);
            assert_eq!(d.hidden, 0, "{}", to_text(&d, BOARD.0, BOARD.1));
            assert_eq!(d.unmarked_ends, 0);
            for a in 0..4u8 {
                if t.arms[usize::from(a)].open {
                    assert!(d.glyphs.iter().any(|g| g.role == Role::End(ArmId(a))));
                }
            }
        }
        assert_eq!(worst, 0);
    }

    #[test]
    fn long_arms_turn_corners_and_fit_whole_on_the_smallest_screen() {
        let long = trees(Preset::FiveUp, 2, 40, |t| {
            (0..t.arms.len()).any(|a| arm_len(t, a) >= 9)
        });
        for t in &long {
            let d = check(t, BOARD.0, BOARD.1);
            assert_eq!(d.hidden, 0, "{}", to_text(&d, BOARD.0, BOARD.1));
            assert_eq!(d.unmarked_ends, 0);
        }
    }

    #[test]
    fn whole_hands_of_five_up_fit_on_the_smallest_screen() {
        for players in 2..=4u8 {
            for seed in 0..150 {
                let t = random_tree(seed, Preset::FiveUp, players, 40);
                let d = check(&t, BOARD.0, BOARD.1);
                if seed < 2 && players == 2 {
                    println!("{}", to_text(&d, BOARD.0, BOARD.1));
                }
                assert_eq!(d.hidden, 0, "{}", to_text(&d, BOARD.0, BOARD.1));
                assert_eq!(d.unmarked_ends, 0);
            }
        }
    }

    #[test]
    fn a_tiny_rectangle_elides_rather_than_overlaps() {
        let t = trees(Preset::FiveUp, 2, 1, |t| {
            (0..t.arms.len()).any(|a| arm_len(t, a) >= 9)
        });
        let d = check(&t[0], 30, 5);
        assert!(d.hidden > 0);
        assert!(d
            .glyphs
            .iter()
            .any(|g| matches!(g.role, Role::Elided { .. })));
    }

    #[test]
    fn the_count_is_taken_apart_exactly_for_every_preset() {
        let mut doubles = 0;
        for (k, preset) in Preset::ALL.iter().enumerate() {
            for players in 2..=4u8 {
                for seed in 0..60u64 {
                    for cut in [1, 2, 3, 5, 8, 40] {
                        let t = random_tree(seed * 7 + k as u64, *preset, players, cut);
                        let parts = count_parts(&t).unwrap_or_else(|| panic!("{t:?}"));
                        let sum: u32 = parts.iter().map(|p| u32::from(p.value())).sum();
                        assert_eq!(sum, u32::from(t.count));
                        // Every open end is accounted for, by its arm or by its double.
                        for a in t.arms.iter().filter(|a| a.open) {
                            let on = a.tiles.last().map(|p| p.tile);
                            assert!(
                                parts.iter().any(|p| match *p {
                                    CountPart::End(x, _) | CountPart::Nothing(x) => x == a.id,
                                    CountPart::Double(d) => on.map_or(
                                        t.root == Some(d) || matches!(a.anchor, Anchor::Sprout { double, .. } if double == d),
                                        |o| o == d
                                    ),
                                }),
                                "{:?} not accounted for in {parts:?}",
                                a.id
                            );
                        }
                        doubles += parts
                            .iter()
                            .filter(|p| matches!(p, CountPart::Double(_)))
                            .count();
                    }
                }
            }
        }
        assert!(doubles > 100, "doubles counting both halves are covered");
    }

    #[test]
    fn a_spinner_shows_where_its_shut_sprouts_will_grow() {
        // Five Up: the first double spins, its sprouts open once both sides are covered.
        let shut_sprouts = |t: &LayoutTree| {
            t.arms.len() >= 4 && t.arms[2..4].iter().all(|a| !a.open && a.tiles.is_empty())
        };
        let mut seen = 0;
        for seed in 0..200u64 {
            for cut in 1..4 {
                let t = random_tree(seed, Preset::FiveUp, 2, cut);
                if !shut_sprouts(&t) {
                    continue;
                }
                seen += 1;
                let d = check(&t, BOARD.0, BOARD.1);
                let shut = d
                    .glyphs
                    .iter()
                    .filter(|g| matches!(g.role, Role::Shut(_)))
                    .count();
                assert_eq!(shut, 2, "{}", to_text(&d, BOARD.0, BOARD.1));
            }
        }
        assert!(seen > 10);
    }

    #[test]
    fn two_digit_pips_take_two_columns_in_every_tile() {
        let mut seen = 0;
        for seed in 0..40u64 {
            let rules = Rules::preset_with_set(Preset::FiveUp, 2, 12);
            let t = random_tree_on(seed, rules, 40);
            if pip_width(&t) != 2 {
                continue;
            }
            seen += 1;
            let d = check(&t, 128, 37);
            for g in d
                .glyphs
                .iter()
                .filter(|g| matches!(g.role, Role::Tile { .. } | Role::Lead(_)))
            {
                // `[12|10]`, `[ 5| 3]`, `/12\`, `|--|`, `\ 9/`: every pip in two columns.
                let n = g.text.len();
                assert!(n == 4 || n == 7, "{g:?}");
            }
            assert!(d
                .glyphs
                .iter()
                .any(|g| g.text.contains("12") || g.text.contains("11") || g.text.contains("10")));
        }
        assert!(seen > 20, "{seen}");
    }

    #[test]
    fn many_arms_on_double_twelve_fit_without_overlap() {
        let mut most = 0;
        for seed in 0..40u64 {
            for players in [2u8, 8] {
                let rules = Rules::preset_with_set(Preset::Cross, players, 12);
                let t = random_tree_on(seed, rules, 91);
                most = most.max(t.arms.len());
                for (w, h) in [(48, 15), (68, 21), (128, 37)] {
                    let d = check(&t, w, h);
                    // Every open end is marked or counted as not marked.
                    let marked = d
                        .glyphs
                        .iter()
                        .filter(|g| matches!(g.role, Role::End(_)))
                        .count();
                    assert_eq!(
                        marked + d.unmarked_ends,
                        t.arms.iter().filter(|a| a.open).count()
                    );
                }
            }
        }
        assert!(most > 15, "arms beyond 15 are drawn: at most {most}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn never_overlaps_nor_leaves_the_rectangle(
            seed in 0u64..1_000_000,
            preset in 0usize..Preset::ALL.len(),
            set in prop::sample::select(vec![6u8, 9, 12]),
            players in 2u8..=8,
            spinner_all in prop::bool::ANY,
            cut in 1usize..60,
            w in 0u16..170,
            h in 0u16..50,
        ) {
            // Every preset on every set and table it fits, and every double spinning
            // (up to 28 arms on double-twelve).
            let mut rules = Rules::preset_with_set(Preset::ALL[preset], players, set);
            if spinner_all {
                rules.spinner = fiveup_engine::SpinnerRule::All;
            }
            prop_assume!(rules.validate().is_ok());
            let tree = random_tree_on(seed, rules, cut);
            check(&tree, w, h);
        }
    }
}
