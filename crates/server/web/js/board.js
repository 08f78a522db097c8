// The layout drawn in SVG: tiles where geometry.js puts them, open ends marked, zoomed to fit.
import { s } from './dom.js';
import { layoutGeometry, fitViewBox, turnLimits } from './geometry.js';
import { tileGroup, tileWords } from './tiles.js';

export const ARM_NAMES = { W: 'west', E: 'east', N: 'north', S: 'south' };
// Arms beyond the spinner's four are sprouts of a double (Sprouts, Cross): they are named by
// their double, from the last layout drawn ("the first sprout of 2-2").
const sproutNames = new Map();
/** Note the sprouts of `tree` so that `armName` can name them. */
export function learnArms(tree) {
  const byDouble = new Map();
  for (const arm of (tree && tree.arms) || []) {
    if (!arm.anchor || arm.anchor.kind !== 'sprout') continue;
    const list = byDouble.get(arm.anchor.double) || [];
    list.push(String(arm.id));
    byDouble.set(arm.anchor.double, list);
  }
  for (const [double, ids] of byDouble) {
    ids.forEach((id, i) => sproutNames.set(id, ids.length > 1 ? `the ${['first', 'second', 'third', 'fourth'][i] || `${i + 1}th`} sprout of ${double}` : `the sprout of ${double}`));
  }
}
export const armName = (a) => ARM_NAMES[a] || sproutNames.get(String(a)) || 'a sprout';

/**
 * Draw `tree` into the <svg> `svg`. `openEnds`: the view's open ends (arm, pip, counts);
 * `targets`: a Map from arm to the action a click on that end sends; `onEnd(arm)`.
 * `lastTile`: a tile to highlight (the last one laid); `order`: the arms in play order
 * (geometry.js `playOrder`); `waiting`: ends waiting for a Cross Dominoes cross; `turns`: how
 * often an arm from the lead turns (2 when the rules never spin a double, geometry.js).
 */
export function renderBoard(svg, tree, { openEnds = [], targets = new Map(), onEnd, lastTile, leadTarget, order, fly, waiting = [], turns = 1 } = {}) {
  learnArms(tree);
  const rect = svg.getBoundingClientRect();
  const aspect = rect.width > 0 && rect.height > 0 ? rect.width / rect.height : 1.6;
  const geo = layoutGeometry(tree, { ...turnLimits(aspect, rect.width, rect.height), order, waiting, turns });
  const vb = fitViewBox(geo.bbox, { aspect, minW: aspect >= 1 ? 12 : 8, minH: aspect >= 1 ? 7 : 9 });
  svg.setAttribute('viewBox', vb.map((v) => v.toFixed(3)).join(' '));
  svg.replaceChildren();
  // Where an arm had to leap over other tiles (geometry.js), a dashed line joins the gap.
  for (const t of geo.tiles) {
    if (!t.gap) continue;
    svg.append(s('line', {
      class: 'gap', x1: t.gap.from[0], y1: t.gap.from[1], x2: t.gap.to[0], y2: t.gap.to[1], 'aria-hidden': 'true',
    }));
  }
  const tilesG = s('g', { class: 'layout-tiles', role: 'list', 'aria-label': 'tiles on the table' });
  for (const t of geo.tiles) {
    const g = tileGroup({ x: t.x, y: t.y, horizontal: t.horizontal, a: t.a, b: t.b, cls: t.tile === lastTile ? 'last' : '' });
    g.setAttribute('role', 'listitem');
    g.setAttribute('aria-label', `${tileWords(t.tile)}${t.arm ? ` on ${armName(t.arm)}` : ', the lead'}`);
    g.dataset.tile = t.tile;
    // `fly`: the tile just laid slides in from where its player sits ({tile, dx, dy} as
    // fractions of the view: 0 1 is from below).
    if (fly && fly.tile === t.tile) {
      const wrap = s('g', { class: 'fly', style: `--dx: ${(fly.dx * vb[2]).toFixed(2)}px; --dy: ${(fly.dy * vb[3]).toFixed(2)}px` });
      wrap.append(g);
      tilesG.append(wrap);
      continue;
    }
    tilesG.append(g);
  }
  svg.append(tilesG);
  const counts = new Map(openEnds.map((e) => [String(e.arm), e]));
  for (const e of geo.ends) {
    const target = targets.get(e.arm);
    const oe = counts.get(e.arm);
    const label = e.waiting
      ? `${armName(e.arm)} end showing ${e.pip}, waiting until the cross is complete`
      : `${armName(e.arm)} end showing ${e.pip}${oe ? `, counts ${oe.counts}` : ''}${target ? ', play here' : ''}`;
    const g = s('g', {
      class: ['end', target ? 'target' : '', e.waiting ? 'waiting' : ''],
      transform: `translate(${e.x} ${e.y})`,
      'data-arm': e.arm,
      role: target ? 'button' : 'img',
      tabindex: target ? 0 : null,
      'aria-label': label,
    },
    s('circle', { r: 0.42 }),
    s('text', { y: 0.16, 'text-anchor': 'middle', class: String(e.pip).length > 1 ? 'small' : null }, String(e.pip)));
    if (target && onEnd) {
      g.addEventListener('click', () => onEnd(e.arm));
      g.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); onEnd(e.arm); }
      });
    }
    svg.append(g);
  }
  if (!tree || !tree.root) {
    const g = s('g', { class: ['end', 'center', leadTarget ? 'target' : ''], 'data-arm': 'lead', role: leadTarget ? 'button' : 'img', tabindex: leadTarget ? 0 : null, 'aria-label': leadTarget ? 'the empty table: lead here' : 'the empty table' },
      s('rect', { x: -1.2, y: -0.7, width: 2.4, height: 1.4, rx: 0.2 }),
      s('text', { y: 0.12, 'text-anchor': 'middle', class: 'small' }, 'lead'));
    if (leadTarget && onEnd) {
      g.addEventListener('click', () => onEnd(null));
      g.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); onEnd(null); } });
    }
    svg.append(g);
  }
  return geo;
}
