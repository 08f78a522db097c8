// The layout's geometry: where each tile lies on the table, where the open ends are, and the
// view box that fits it all. Pure functions of the engine's LayoutTree (see docs/protocol.md),
// so they are unit-tested in the browser test page.
//
// Units: a tile is 2 long and 1 wide. The lead lies at the origin; x grows to the right, y
// downwards (SVG). Doubles lie crosswise, other tiles lengthwise. The arms W and E leave the
// lead to the left and right, N and S (the sprouts of a spinning lead) up and down. A long arm
// turns a corner, clockwise, once its next tile would pass the turn limit (`turnX` across,
// `turnY` up and down), so the layout stays compact; doubles never sit in a corner. No two
// tiles ever overlap: a tile that would meet one already placed turns a corner instead, and
// when it cannot, its arm leaps over what is in its way (the tile records the gap).

export const DIRS = { W: [-1, 0], E: [1, 0], N: [0, -1], S: [0, 1] };

// Tiles are tokens "high-low" ("6-4", and on bigger sets "12-10").
const halves = (t) => String(t).split('-').map(Number);
const isDouble = (t) => { const [a, b] = halves(t); return a === b; };
const hiPip = (t) => halves(t)[0];
const loPip = (t) => halves(t)[1];
const clockwise = ([x, y]) => [-y, x];
const anticlockwise = ([x, y]) => [y, -x];

/**
 * Place every tile of a layout. `opts.turnX` / `opts.turnY`: how far (in units from the
 * lead) an arm runs before turning. `opts.order`: the arm of every tile laid after the lead,
 * in the order they were laid (from the hand's history); tiles are placed in that order, so a
 * tile laid later never moves an earlier one. A tile that would overlap one already placed
 * turns a corner instead (clockwise, else anticlockwise) when it can, even where a tile would
 * not normally turn (a sprout's first tile, the tile after a spinner); a double, or a tile
 * with every way blocked, leaps to the nearest free place straight on or to either side.
 * `opts.turns`: how many times an arm from the lead turns at the limits (1 by default).
 * `opts.wind`: the two arms of a layout that never spins wind back and forth in rows as often
 * as needed, filling the board like lines of text: the west arm runs left to the limit
 * `turnX`, steps up one tile and runs right to the limit on the other side, steps up again and
 * runs left, and so on; the east arm does the same downwards. Rows lie two units apart (a
 * double lying across a row fits between its neighbours), so the board fills evenly however
 * long the arms grow.
 * Returns `{tiles, ends, bbox}`:
 * - tiles: `{tile, arm, index, x, y, horizontal, a, b, dir, gap?}` (centre; `a` is the left or
 *   top half; `dir` the arm's direction there; `gap: {from, to}` the points a leap joins);
 * - ends: `{arm, pip, x, y, dir, waiting}` for every open end (where the next tile would touch),
 *   and for every end waiting for a Cross Dominoes cross (`opts.waiting`, marked `waiting`);
 * - bbox: `{minX, minY, maxX, maxY}` of everything drawn.
 */
export function layoutGeometry(tree, opts = {}) {
  const turnX = opts.turnX ?? 9;
  const turnY = opts.turnY ?? 6;
  const wind = !!opts.wind;
  const turns = wind ? Infinity : opts.turns ?? 1;
  const tiles = [];
  const ends = [];
  if (!tree || !tree.root) return { tiles, ends, bbox: { minX: -2, minY: -1, maxX: 2, maxY: 1 } };
  const root = tree.root;
  const rootDouble = isDouble(root);
  tiles.push({ tile: root, arm: null, index: 0, x: 0, y: 0, horizontal: !rootDouble, a: hiPip(root), b: loPip(root), dir: [1, 0] });
  // Spinners lying in arms (their sprouts leave them sideways): an arm does not turn right
  // after one, or its next leg would run alongside the spinner's sprout.
  const spinners = new Set(tree.arms.filter((x) => x.anchor && x.anchor.kind === 'sprout' && x.anchor.arm != null)
    .map((x) => `${x.anchor.arm}:${x.anchor.index}`));
  const arms = new Map(tree.arms.map((a) => [a.id, a]));
  // Each arm's pen: the cursor (the point on its centre line where its next tile touches),
  // its direction, whether it may still turn at the limit, and its tiles placed so far.
  const pens = new Map();

  function startPen(arm) {
    const a = arm.anchor || { kind: 'root' };
    if (a.kind === 'root') {
      const dir = arm.id === 'W' ? DIRS.W : DIRS.E;
      const half = rootDouble ? 0.5 : 1;
      // Winding: the arm's rows step away from the lead (west upwards, east downwards).
      const out = arm.id === 'W' ? DIRS.N : DIRS.S;
      return { cursor: [dir[0] * half, 0], dir, turnsLeft: turns, sprout: false, placed: [], wind, out, row: dir };
    }
    if (a.arm === null || a.arm === undefined) {
      // A sprout of the spinning lead: N and S leave its ends.
      const first = tree.arms.find((x) => x.anchor && x.anchor.kind === 'sprout' && (x.anchor.arm ?? null) === null);
      const dir = first && first.id === arm.id ? DIRS.N : DIRS.S;
      return { cursor: [0, dir[1]], dir, turnsLeft: turns, sprout: false, placed: [] };
    }
    // A sprout of a double lying in another arm: perpendicular to that arm there.
    const hostPen = pens.get(a.arm);
    const host = hostPen && hostPen.placed[a.index];
    if (!host) return null;
    const sibs = tree.arms.filter((x) => x.anchor && x.anchor.kind === 'sprout'
      && x.anchor.arm === a.arm && x.anchor.index === a.index);
    const p1 = clockwise(host.dir);
    const p2 = [-p1[0], -p1[1]];
    const firstDir = p1[0] + p1[1] < 0 ? p1 : p2; // up, or left
    const secondDir = firstDir === p1 ? p2 : p1;
    const dir = sibs.length && sibs[0].id === arm.id ? firstDir : secondDir;
    return { cursor: [host.x + dir[0], host.y + dir[1]], dir, turnsLeft: 0, sprout: true, placed: [] };
  }

  // Where a tile goes from `cursor` in `dir` (turning from `from` first, if given).
  function candidate(cursor, dir, dbl, from) {
    let c = cursor;
    if (from) c = [cursor[0] + 0.5 * from[0] - 0.5 * dir[0], cursor[1] + 0.5 * from[1] - 0.5 * dir[1]];
    const step = dbl ? 0.5 : 1;
    const alongX = dir[1] === 0;
    return {
      x: c[0] + step * dir[0],
      y: c[1] + step * dir[1],
      horizontal: dbl ? !alongX : alongX,
      dir,
      next: [c[0] + 2 * step * dir[0], c[1] + 2 * step * dir[1]],
      turned: !!from,
    };
  }

  const clear = (t) => tiles.every((u) => !overlaps(t, u));

  // The last resort, when every way on from the cursor is taken: the arm leaps over what is
  // in its way, straight on if it can, else to either side, to the nearest free place (there
  // always is one: beyond everything placed). The tile records the gap it leapt, so the
  // picture can join it to the rest of its arm.
  function leap(pen, dbl) {
    let best = null;
    for (const d of [pen.dir, clockwise(pen.dir), anticlockwise(pen.dir)]) {
      const turn = d === pen.dir ? null : pen.dir;
      for (let k = 1; ; k += 1) {
        const c = candidate([pen.cursor[0] + k * d[0], pen.cursor[1] + k * d[1]], d, dbl, turn);
        if (!clear(c)) continue;
        const step = dbl ? 0.5 : 1;
        const to = [c.x - step * d[0], c.y - step * d[1]]; // where the tile's near side is
        if (!best || k < best.k) best = { k, c: { ...c, from: pen.cursor, to } };
        break;
      }
    }
    return best.c;
  }

  function place(arm, index) {
    if (!pens.has(arm.id)) {
      const pen = startPen(arm);
      if (!pen) return;
      pens.set(arm.id, pen);
    }
    const pen = pens.get(arm.id);
    const p = arm.tiles[index];
    const dbl = p.inner === p.outer;
    const straight = candidate(pen.cursor, pen.dir, dbl, null);
    const mayTurn = !dbl && !spinners.has(`${arm.id}:${index - 1}`) && (!pen.sprout || index > 0);
    let options = [straight];
    if (mayTurn && pen.wind) {
      // Winding: along a row until past the limit, then one step away from the lead, then
      // back along the next row the other way.
      const back = [-pen.row[0], -pen.row[1]];
      const step = candidate(pen.cursor, pen.out, dbl, pen.dir);
      const along = candidate(pen.cursor, back, dbl, pen.dir);
      const cw = candidate(pen.cursor, clockwise(pen.dir), dbl, pen.dir);
      const ccw = candidate(pen.cursor, anticlockwise(pen.dir), dbl, pen.dir);
      if (pen.dir[1] === 0) {
        const over = Math.abs(straight.next[0]) > turnX;
        options = over ? [step, straight, cw, ccw] : [straight, step, cw, ccw];
      } else {
        options = [along, straight, cw, ccw];
      }
    } else if (mayTurn) {
      const cw = candidate(pen.cursor, clockwise(pen.dir), dbl, pen.dir);
      const ccw = candidate(pen.cursor, anticlockwise(pen.dir), dbl, pen.dir);
      const far = straight.next;
      const over = pen.turnsLeft > 0 && (pen.dir[1] === 0 ? Math.abs(far[0]) > turnX : Math.abs(far[1]) > turnY);
      options = over ? [cw, straight, ccw] : [straight, cw, ccw];
    }
    let pick = options.find(clear);
    if (!pick && !dbl && !mayTurn) {
      // Boxed in where a tile would not normally turn (a sprout's first tile, the tile after
      // a spinner): turning a corner there still beats crossing another tile.
      pick = [clockwise(pen.dir), anticlockwise(pen.dir)]
        .map((d) => candidate(pen.cursor, d, dbl, pen.dir)).find(clear);
    }
    if (!pick) pick = leap(pen, dbl);
    if (pick.turned) pen.turnsLeft = Math.max(0, pen.turnsLeft - 1);
    // A winding arm's row: the way it last ran along the board.
    if (pen.wind && pick.dir[1] === 0 && pick.dir !== pen.dir) pen.row = pick.dir;
    pen.dir = pick.dir;
    pen.cursor = pick.next;
    const forward = pick.dir[0] + pick.dir[1] > 0; // E or S: the inner half is left/top
    const t = {
      tile: p.tile, arm: arm.id, index, x: pick.x, y: pick.y, horizontal: pick.horizontal,
      a: forward ? p.inner : p.outer, b: forward ? p.outer : p.inner, dir: pick.dir,
    };
    if (pick.from) t.gap = { from: pick.from, to: pick.to };
    tiles.push(t);
    pen.placed.push(t);
  }

  const next = new Map();
  const lay = (id) => {
    const arm = arms.get(id);
    const k = next.get(id) ?? 0;
    if (!arm || k >= arm.tiles.length) return;
    next.set(id, k + 1);
    place(arm, k);
  };
  for (const id of opts.order || []) lay(String(id));
  for (const arm of tree.arms) while ((next.get(arm.id) ?? 0) < arm.tiles.length) lay(arm.id);

  const waiting = new Set((opts.waiting || []).map(String));
  for (const arm of tree.arms) {
    if (!arm.open && !waiting.has(String(arm.id))) continue;
    if (!pens.has(arm.id)) {
      const pen = startPen(arm);
      if (!pen) continue;
      pens.set(arm.id, pen);
    }
    const { cursor, dir } = pens.get(arm.id);
    ends.push({ arm: arm.id, pip: arm.end, x: cursor[0] + 0.75 * dir[0], y: cursor[1] + 0.75 * dir[1], dir, waiting: !arm.open });
  }
  return { tiles, ends, bbox: boundingBox(tiles, ends) };
}

/** The arms of the tiles laid after the lead, in play order, from a hand's history. */
export function playOrder(history) {
  return (history || []).filter((e) => e.kind === 'play' && e.arm != null).map((e) => String(e.arm));
}

/** The box around every tile and end marker. */
export function boundingBox(tiles, ends) {
  let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
  for (const t of tiles) {
    const hw = t.horizontal ? 1 : 0.5;
    const hh = t.horizontal ? 0.5 : 1;
    minX = Math.min(minX, t.x - hw); maxX = Math.max(maxX, t.x + hw);
    minY = Math.min(minY, t.y - hh); maxY = Math.max(maxY, t.y + hh);
  }
  for (const e of ends) {
    minX = Math.min(minX, e.x - 0.5); maxX = Math.max(maxX, e.x + 0.5);
    minY = Math.min(minY, e.y - 0.5); maxY = Math.max(maxY, e.y + 0.5);
  }
  if (minX === Infinity) return { minX: -2, minY: -1, maxX: 2, maxY: 1 };
  return { minX, minY, maxX, maxY };
}

/**
 * Zoom to fit: the view box `[x, y, w, h]` showing `bbox` with a margin, never smaller than
 * `minW` x `minH` (so a short layout is not blown up), widened or heightened to the
 * container's aspect ratio `aspect` (width / height) and centred.
 */
export function fitViewBox(bbox, { aspect = 1.6, margin = 0.6, minW = 12, minH = 7 } = {}) {
  let w = Math.max(bbox.maxX - bbox.minX + 2 * margin, minW);
  let h = Math.max(bbox.maxY - bbox.minY + 2 * margin, minH);
  if (w / h < aspect) w = h * aspect; else h = w / aspect;
  const cx = (bbox.minX + bbox.maxX) / 2;
  const cy = (bbox.minY + bbox.maxY) / 2;
  return [cx - w / 2, cy - h / 2, w, h];
}

/**
 * Turn limits for a board of `width` x `height` pixels: an arm runs straight for as long as
 * the layout, zoomed to fit, keeps its tiles at a comfortable size, and turns a corner only
 * when going on would make every tile smaller. The comfortable size of half a tile is a
 * fourteenth of the board's shorter side, kept between 18 and 30 pixels (large on a laptop,
 * still legible on a phone). Without a measured size, limits by the aspect ratio alone.
 */
export function turnLimits(aspect, width = 0, height = 0) {
  if (width > 0 && height > 0) {
    const unit = Math.max(18, Math.min(30, Math.min(width, height) / 14));
    const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
    // Half the board in tile units at that size, less the lead's half and an end marker.
    return {
      turnX: clamp(Math.floor(width / unit / 2 - 1.5), 4, 14),
      turnY: clamp(Math.floor(height / unit / 2 - 1.5), 3, 10),
    };
  }
  if (aspect >= 1.2) return { turnX: 9, turnY: 5 };
  if (aspect >= 0.8) return { turnX: 6, turnY: 6 };
  return { turnX: 4, turnY: 8 };
}

/** The smallest half-tile drawn, in CSS pixels: smaller pips are not readable on a phone. */
export const MIN_UNIT = 18;

/**
 * The smallest half-tile at which a double-six layout is shown whole rather than in part when
 * that keeps every open end in view: its halves carry at most six spots, which still read at
 * 14 px, where the bigger sets' up to twelve need `MIN_UNIT`.
 */
export const LEGIBLE_SIX = 14;

/**
 * The layout options for a board of `width` x `height` pixels (`turnLimits`). `wind`: the
 * layout never spins (its two arms wind in rows, `layoutGeometry`); `setTiles`: how many tiles
 * the set has. A winding layout's rows are as long as holds the whole set in the board's
 * shape (k rows of k x aspect tiles), never longer than the board's width at `MIN_UNIT`, and
 * never shorter than the comfortable limit.
 */
export function boardLimits(width, height, { wind = false, setTiles = 28 } = {}) {
  const aspect = width > 0 && height > 0 ? width / height : 1.6;
  const base = turnLimits(aspect, width, height);
  if (!wind) return base;
  const shape = Math.ceil(Math.sqrt(setTiles * aspect));
  const widest = width > 0 ? Math.floor((width / MIN_UNIT - 3) / 2) : shape;
  return { turnX: Math.max(base.turnX, Math.min(shape, widest)), turnY: base.turnY, wind: true };
}

/**
 * The whole layout fitted to a board of `width` x `height` pixels, keeping the tiles and end
 * markers out from under a box in its top-right corner (`avoid`: `{w, h}` in pixels, the count
 * box) when they would lie under it: the layout is then fitted beside the box or below it,
 * whichever keeps the tiles larger, as long as half a tile stays at `floor` pixels or more (or
 * at any size when an open end or the newest tile would lie under the box).
 * `items`: `[x, y, halfWidth, halfHeight, key]` in layout units, each tile and end marker
 * (`key`: an open end or the newest tile, kept from under the box in a window too).
 * Returns `{vb, unit}`.
 */
export function fitAvoiding(bbox, width, height, { minW = 12, minH = 7, margin = 0.6, avoid = null, items = null, floor = 0 } = {}) {
  const aspect = width > 0 && height > 0 ? width / height : 1.6;
  const fit = fitViewBox(bbox, { aspect, minW, minH, margin });
  const unit = width > 0 ? width / fit[2] : 0;
  if (!avoid || !items || !items.length || !(width > 0 && height > 0) || !(avoid.w > 0 && avoid.h > 0)) return { vb: fit, unit };
  if (!underBox(fit, unit, width, height, avoid, items).length) return { vb: fit, unit };
  // Fitted into the part of the board beside the box (its full height) or below it (its full
  // width), then widened back to the whole board.
  const bw = bbox.maxX - bbox.minX + 2 * margin;
  const bh = bbox.maxY - bbox.minY + 2 * margin;
  const cx = (bbox.minX + bbox.maxX) / 2;
  const cy = (bbox.minY + bbox.maxY) / 2;
  const parts = [
    { w: width - avoid.w, h: height, dx: 0, dy: 0 },
    { w: width, h: height - avoid.h, dx: 0, dy: avoid.h },
  ].filter((p) => p.w > 0 && p.h > 0).map((p) => {
    // Never larger than the plain fit (a short layout is not blown up).
    const u = Math.min(p.w / bw, p.h / bh, unit);
    const px = p.dx + p.w / 2;
    const py = p.dy + p.h / 2;
    return { vb: [cx - px / u, cy - py / u, width / u, height / u], unit: u };
  }).filter((p) => !underBox(p.vb, p.unit, width, height, avoid, items).length);
  const best = (list) => list.reduce((a, b) => (b.unit > a.unit ? b : a));
  const legible = parts.filter((p) => p.unit >= floor);
  if (legible.length) return best(legible);
  // No part keeps the tiles legible: an open end or the newest tile under the box (`key`) is
  // worse than smaller tiles (a short board: eight seats on a phone at a claim).
  if (parts.length && underBox(fit, unit, width, height, avoid, items).some((it) => it[4])) return best(parts);
  return { vb: fit, unit };
}

/**
 * The `items` in the view `vb` (of a `width` x `height` board at `unit` pixels a unit) that lie
 * under the box `avoid` in its top-right corner.
 */
function underBox(vb, unit, width, height, avoid, items) {
  const [x, y] = vb;
  const right = x + width / unit;
  const bottom = y + height / unit;
  const x0 = right - avoid.w / unit;
  const y1 = y + avoid.h / unit;
  return items.filter(([px, py, hw, hh]) => px - hw < right && py + hh > y && py - hh < bottom
    && px + hw > x0 && py - hh < y1);
}

/**
 * What the board shows, on a board of `width` x `height` pixels: the whole layout zoomed to fit
 * (`fitAvoiding`: out from under the count box) while that keeps half a tile at `minUnit` pixels
 * or more; otherwise a window at `minUnit` centred on `focus` (the tile just laid), which the
 * player pans and zooms. `show`: points to keep in view (the ends offered for a play, or every
 * open end): the automatic view zooms out as far as they need, to the whole layout at most, and
 * with `offered` false no further than `floor` pixels a half-tile (the ends of a layout too big
 * to read whole are then left to panning). `zoom`: the player's own view, `{unit, cx, cy}`
 * (pixels per unit and the centre), or `{fit: true}` for the whole layout at any size. A view
 * never strays past the layout's edges, except by `slack` pixels below it.
 * Returns `{vb, unit, fitUnit, whole}` (`whole`: everything is in view).
 */
export function boardView(bbox, width, height, { minUnit = MIN_UNIT, focus = null, zoom = null, minW = 12, minH = 7, margin = 0.6, slack = 0, show = null, offered = true, floor = minUnit, avoid = null, items = null } = {}) {
  const aspect = width > 0 && height > 0 ? width / height : 1.6;
  const fit = fitViewBox(bbox, { aspect, minW, minH, margin });
  const fitUnit = width > 0 ? width / fit[2] : minUnit;
  const whole = () => {
    const f = fitAvoiding(bbox, width, height, { minW, minH, margin, avoid, items, floor: Math.min(floor, 0.8 * fitUnit) });
    return { vb: f.vb, unit: f.unit || fitUnit, fitUnit, whole: true };
  };
  if (zoom && zoom.fit) return whole();
  let unit = zoom ? zoom.unit : minUnit;
  if (!zoom && fitUnit >= minUnit) return whole();
  // The box around the points of `show` the automatic view keeps in view.
  const pts = !zoom && show && show.length ? {
    minX: Math.min(...show.map((p) => p[0])), maxX: Math.max(...show.map((p) => p[0])),
    minY: Math.min(...show.map((p) => p[1])), maxY: Math.max(...show.map((p) => p[1])),
  } : null;
  // The automatic view keeps every point of `show` in view: centred on them, and zoomed out as
  // far as it takes (to the whole layout at most; not below `floor` for ends not offered).
  if (pts && width > 0 && height > 0) {
    const need = Math.min(width / (pts.maxX - pts.minX + 2), height / (pts.maxY - pts.minY + 2));
    if (need < unit && (offered || need >= floor || fitUnit >= floor)) {
      unit = Math.max(need, offered ? 0 : Math.min(fitUnit, floor));
      focus = [(pts.maxX + pts.minX) / 2, (pts.maxY + pts.minY) / 2];
    }
  }
  if (unit <= fitUnit) return whole();
  unit = Math.min(unit, 4 * Math.max(minUnit, fitUnit));
  const w = width / unit;
  const hgt = height / unit;
  const centre = [(bbox.minX + bbox.maxX) / 2, (bbox.minY + bbox.maxY) / 2];
  let [cx, cy] = zoom ? [zoom.cx, zoom.cy] : focus || centre;
  const keep = (c, lo, hi, span) => (span >= hi - lo ? (lo + hi) / 2 : Math.min(hi - span / 2, Math.max(lo + span / 2, c)));
  // The view may pan past the layout's right and top edges by the box's size, so what lies
  // under the box can be brought out from under it.
  const boxW = avoid ? avoid.w / unit : 0;
  const boxH = avoid ? avoid.h / unit : 0;
  cx = keep(cx, bbox.minX - margin, bbox.maxX + margin + boxW, w);
  cy = keep(cy, bbox.minY - margin - boxH, bbox.maxY + margin + slack / unit, hgt);
  // Points of `show` that fit in the window together are all kept in it: the window moves the
  // least it takes from its focus.
  if (pts) {
    const within = (c, lo, hi, span) => (hi - lo + 2 <= span ? Math.min(lo - 1 + span / 2, Math.max(hi + 1 - span / 2, c)) : c);
    cx = within(cx, pts.minX, pts.maxX, w);
    cy = within(cy, pts.minY, pts.maxY, hgt);
  }
  // The automatic window keeps the open ends and the newest tile (`items` marked as such) out
  // from under the box: it moves the view the shorter way that keeps them all in view.
  // First every tile and end (a window that shows nearly everything has room to move), else
  // the key ones.
  if (!zoom && avoid && items) {
    const key = items.filter((it) => it[4]);
    const inView = (x, y) => key.every(([px, py]) => px >= x - w / 2 && px <= x + w / 2 && py >= y - hgt / 2 && py <= y + hgt / 2);
    const under = (list, x, y) => underBox([x - w / 2, y - hgt / 2], unit, width, height, avoid, list);
    for (const list of [items, key]) {
      const now = under(list, cx, cy);
      if (!now.length) break;
      const sx = Math.max(...now.map(([px, , hw]) => px + hw - (cx + w / 2 - boxW)));
      const sy = Math.max(...now.map(([, py, , hh]) => cy - hgt / 2 + boxH - (py - hh)));
      const tries = [[cx + sx, cy], [cx, cy - sy]].sort((a, b) => (Math.abs(a[0] - cx) + Math.abs(a[1] - cy)) - (Math.abs(b[0] - cx) + Math.abs(b[1] - cy)));
      const ok = tries.find(([x, y]) => !under(list, x, y).length && inView(x, y));
      if (ok) { [cx, cy] = ok; break; }
    }
  }
  const all = w >= bbox.maxX - bbox.minX && hgt >= bbox.maxY - bbox.minY;
  return { vb: [cx - w / 2, cy - hgt / 2, w, hgt], unit, fitUnit, whole: all };
}

/** Whether two placed tiles overlap (for tests). */
export function overlaps(p, q) {
  const ext = (t) => (t.horizontal ? [1, 0.5] : [0.5, 1]);
  const [pw, ph] = ext(p);
  const [qw, qh] = ext(q);
  const eps = 1e-9;
  return Math.abs(p.x - q.x) < pw + qw - eps && Math.abs(p.y - q.y) < ph + qh - eps;
}
