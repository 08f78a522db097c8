// The layout's geometry: where each tile lies on the table, where the open ends are, and the
// view box that fits it all. Pure functions of the engine's LayoutTree (see docs/protocol.md),
// so they are unit-tested in the browser test page.
//
// Units: a tile is 2 long and 1 wide. The lead lies at the origin; x grows to the right, y
// downwards (SVG). Doubles lie crosswise, other tiles lengthwise. The arms W and E leave the
// lead to the left and right, N and S (the sprouts of a spinning lead) up and down. A long arm
// turns a corner, clockwise, once its next tile would pass the turn limit (`turnX` across,
// `turnY` up and down), so the layout stays compact; doubles never sit in a corner.

export const DIRS = { W: [-1, 0], E: [1, 0], N: [0, -1], S: [0, 1] };

const isDouble = (t) => t[0] === t[2];
const hiPip = (t) => Number(t[0]);
const loPip = (t) => Number(t[2]);
const clockwise = ([x, y]) => [-y, x];

/**
 * Place every tile of a layout. `opts.turnX` / `opts.turnY`: how far (in units from the
 * lead) an arm runs before turning. Returns `{tiles, ends, bbox}`:
 * - tiles: `{tile, arm, index, x, y, horizontal, a, b}` (centre; `a` is the left or top half);
 * - ends: `{arm, pip, x, y, dir}` for every open end (where the next tile would touch);
 * - bbox: `{minX, minY, maxX, maxY}` of everything drawn.
 */
export function layoutGeometry(tree, opts = {}) {
  const turnX = opts.turnX ?? 9;
  const turnY = opts.turnY ?? 6;
  const tiles = [];
  const ends = [];
  if (!tree || !tree.root) return { tiles, ends, bbox: { minX: -2, minY: -1, maxX: 2, maxY: 1 } };
  const root = tree.root;
  const rootDouble = isDouble(root);
  tiles.push({ tile: root, arm: null, index: 0, x: 0, y: 0, horizontal: !rootDouble, a: hiPip(root), b: loPip(root), dir: [1, 0] });
  // Each arm's cursor: the point on its centre line where its next tile touches.
  const placedByArm = {};
  // Spinners lying in arms (their sprouts leave them sideways): an arm does not turn right
  // after one, or its next leg would run alongside the spinner's sprout.
  const spinners = new Set(tree.arms.filter((x) => x.anchor && x.anchor.kind === 'sprout' && x.anchor.arm != null)
    .map((x) => `${x.anchor.arm}:${x.anchor.index}`));
  for (const arm of tree.arms) {
    let cursor;
    let dir;
    let mayTurn = true;
    const a = arm.anchor || { kind: 'root' };
    if (a.kind === 'root') {
      dir = arm.id === 'W' ? DIRS.W : DIRS.E;
      const half = rootDouble ? 0.5 : 1;
      cursor = [dir[0] * half, 0];
    } else if (a.arm === null || a.arm === undefined) {
      // A sprout of the spinning lead: N and S leave its ends.
      const first = tree.arms.filter((x) => x.anchor && x.anchor.kind === 'sprout' && (x.anchor.arm ?? null) === null)[0];
      dir = first && first.id === arm.id ? DIRS.N : DIRS.S;
      cursor = [0, dir[1]];
    } else {
      // A sprout of a double lying in another arm: perpendicular to that arm there.
      const host = (placedByArm[a.arm] || [])[a.index];
      if (!host) continue;
      const sibs = tree.arms.filter((x) => x.anchor && x.anchor.kind === 'sprout'
        && x.anchor.arm === a.arm && x.anchor.index === a.index);
      const p1 = clockwise(host.dir);
      const p2 = [-p1[0], -p1[1]];
      const upOrLeft = (p) => p[0] + p[1] < 0;
      const firstDir = upOrLeft(p1) ? p1 : p2;
      const secondDir = firstDir === p1 ? p2 : p1;
      dir = sibs.length && sibs[0].id === arm.id ? firstDir : secondDir;
      cursor = [host.x + dir[0], host.y + dir[1]];
      mayTurn = false;
    }
    const mine = [];
    placedByArm[arm.id] = mine;
    arm.tiles.forEach((p, index) => {
      const dbl = p.inner === p.outer;
      if (!dbl && mayTurn && !spinners.has(`${arm.id}:${index - 1}`)) {
        const far = [cursor[0] + 2 * dir[0], cursor[1] + 2 * dir[1]];
        const over = dir[1] === 0 ? Math.abs(far[0]) > turnX : Math.abs(far[1]) > turnY;
        if (over) {
          const nd = clockwise(dir);
          cursor = [cursor[0] + 0.5 * dir[0] - 0.5 * nd[0], cursor[1] + 0.5 * dir[1] - 0.5 * nd[1]];
          dir = nd;
          mayTurn = false;
        }
      }
      const step = dbl ? 0.5 : 1;
      const x = cursor[0] + step * dir[0];
      const y = cursor[1] + step * dir[1];
      const alongX = dir[1] === 0;
      const forward = dir[0] + dir[1] > 0; // E or S: the inner half is left/top
      const t = {
        tile: p.tile, arm: arm.id, index, x, y,
        horizontal: dbl ? !alongX : alongX,
        a: forward ? p.inner : p.outer,
        b: forward ? p.outer : p.inner,
        dir,
      };
      tiles.push(t);
      mine.push(t);
      cursor = [cursor[0] + 2 * step * dir[0], cursor[1] + 2 * step * dir[1]];
    });
    if (arm.open) {
      ends.push({ arm: arm.id, pip: arm.end, x: cursor[0] + 0.75 * dir[0], y: cursor[1] + 0.75 * dir[1], dir });
    }
  }
  return { tiles, ends, bbox: boundingBox(tiles, ends) };
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

/** Turn limits suited to a container: wide screens run arms across, phones up and down. */
export function turnLimits(aspect) {
  if (aspect >= 1.2) return { turnX: 9, turnY: 5 };
  if (aspect >= 0.8) return { turnX: 6, turnY: 6 };
  return { turnX: 4, turnY: 8 };
}

/** Whether two placed tiles overlap (for tests). */
export function overlaps(p, q) {
  const ext = (t) => (t.horizontal ? [1, 0.5] : [0.5, 1]);
  const [pw, ph] = ext(p);
  const [qw, qh] = ext(q);
  const eps = 1e-9;
  return Math.abs(p.x - q.x) < pw + qw - eps && Math.abs(p.y - q.y) < ph + qh - eps;
}
