// Tiles drawn in SVG. The pip faces (0 to 12 pips, for sets up to double-twelve) are symbols
// of one hidden <svg> put into the page once, so every tile refers to them inside the document:
// nothing is fetched per drawing (a page that lost its server still draws every tile).
import { s, h } from './dom.js';

/** Where the pips of a half face with `n` pips lie, on a 10 x 10 square, and their radius. */
export function pipSpots(n) {
  const c3 = [2.6, 5, 7.4];
  const r4 = [1.9, 3.97, 6.03, 8.1];
  const grid = {
    0: [], 1: [[5, 5]], 2: [[2.6, 2.6], [7.4, 7.4]], 3: [[2.6, 2.6], [5, 5], [7.4, 7.4]],
    4: [[2.6, 2.6], [7.4, 2.6], [2.6, 7.4], [7.4, 7.4]],
    5: [[2.6, 2.6], [7.4, 2.6], [5, 5], [2.6, 7.4], [7.4, 7.4]],
    6: [[2.6, 2.4], [7.4, 2.4], [2.6, 5], [7.4, 5], [2.6, 7.6], [7.4, 7.6]],
    7: [[2.6, 2.4], [7.4, 2.4], [2.6, 5], [5, 5], [7.4, 5], [2.6, 7.6], [7.4, 7.6]],
    8: c3.flatMap((x) => c3.map((y) => [x, y])).filter(([x, y]) => !(x === 5 && y === 5)),
    9: c3.flatMap((x) => c3.map((y) => [x, y])),
    10: [...r4.map((y) => [2.4, y]), ...r4.map((y) => [7.6, y]), [5, 3.97], [5, 6.03]],
    11: [...r4.map((y) => [2.4, y]), ...r4.map((y) => [7.6, y]), [5, 2.9], [5, 5], [5, 7.1]],
    12: [2.4, 5, 7.6].flatMap((x) => r4.map((y) => [x, y])),
  };
  return { spots: grid[n] || [], r: n > 9 ? 0.82 : n > 6 ? 0.98 : 1.15 };
}

/**
 * Faces of 7 to 12 pips each have their own colour, as on many double-twelve sets, so that a
 * small tile on a crowded board is told apart at a glance (faces of 0 to 6 stay black, as on
 * a double-six set). Every colour keeps at least 4.5:1 contrast against the tile's face.
 */
export const PIP_COLOURS = { 7: '#1d4f9c', 8: '#116632', 9: '#7a2f9e', 10: '#a3231b', 11: '#6e4a00', 12: '#005f68' };

const BACK_ID = 'fiveup-back';
function ensureSymbols() {
  if (typeof document === 'undefined' || document.getElementById('fiveup-pips')) return;
  const defs = s('svg', { id: 'fiveup-pips', width: 0, height: 0, 'aria-hidden': 'true', focusable: 'false', style: 'position:absolute;width:0;height:0;overflow:hidden' });
  for (let n = 0; n <= 12; n += 1) {
    const { spots, r } = pipSpots(n);
    defs.append(s('symbol', { id: `fiveup-p${n}`, viewBox: '0 0 10 10' }, spots.map(([cx, cy]) => s('circle', { cx, cy, r, fill: PIP_COLOURS[n] || null }))));
  }
  defs.append(s('symbol', { id: BACK_ID, viewBox: '0 0 10 20' },
    s('rect', { x: 0.5, y: 0.5, width: 9, height: 19, rx: 1.5, fill: '#2f4f6f', stroke: '#1c3147' }),
    s('path', { d: 'M2 4h6M2 16h6', stroke: '#8fb0d0', 'stroke-width': 0.6 })));
  (document.body || document.documentElement).prepend(defs);
}
const pipRef = (n) => { ensureSymbols(); return `#fiveup-p${n}`; };

/** The two halves of a tile token ("6-4", "12-10"). */
export function tileHalves(t) {
  const [a, b] = String(t).split('-').map(Number);
  return [a, b];
}

/** Spoken form of a tile: "six-four", "double five". */
export function tileWords(t) {
  const w = ['blank', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
  const [a, b] = tileHalves(t);
  return a === b ? `double ${w[a]}` : `${w[a]}-${w[b]}`;
}

/**
 * An SVG group for a tile centred at (x, y) in layout units (2 x 1), halves `a` (left or top)
 * and `b`. `horizontal`: lying across.
 */
export function tileGroup({ x = 0, y = 0, horizontal = false, a, b, cls = '' }) {
  const w = horizontal ? 2 : 1;
  const hgt = horizontal ? 1 : 2;
  const g = s('g', { class: `tile ${cls}`, transform: `translate(${x - w / 2} ${y - hgt / 2})` });
  g.append(s('rect', { class: 'face', x: 0.03, y: 0.03, width: w - 0.06, height: hgt - 0.06, rx: 0.12 }));
  if (horizontal) {
    g.append(s('line', { class: 'divider', x1: 1, y1: 0.15, x2: 1, y2: 0.85 }));
    g.append(s('use', { href: `${pipRef(a)}`, x: 0.05, y: 0.05, width: 0.9, height: 0.9, class: 'pips' }));
    g.append(s('use', { href: `${pipRef(b)}`, x: 1.05, y: 0.05, width: 0.9, height: 0.9, class: 'pips' }));
  } else {
    g.append(s('line', { class: 'divider', x1: 0.15, y1: 1, x2: 0.85, y2: 1 }));
    g.append(s('use', { href: `${pipRef(a)}`, x: 0.05, y: 0.05, width: 0.9, height: 0.9, class: 'pips' }));
    g.append(s('use', { href: `${pipRef(b)}`, x: 0.05, y: 1.05, width: 0.9, height: 0.9, class: 'pips' }));
  }
  return g;
}

/** A standalone upright tile image (for hands, summaries and replays). */
export function tileSvg(t, { horizontal = false, label = true } = {}) {
  const svg = s('svg', {
    class: 'tile-img',
    viewBox: horizontal ? '0 0 2 1' : '0 0 1 2',
    role: label ? 'img' : null,
    'aria-label': label ? tileWords(t) : null,
    'aria-hidden': label ? null : 'true',
    focusable: 'false',
  });
  svg.append(tileGroup({ x: horizontal ? 1 : 0.5, y: horizontal ? 0.5 : 1, horizontal, a: tileHalves(t)[0], b: tileHalves(t)[1] }));
  return svg;
}

/** A face-down tile. */
export function backSvg() {
  return s('svg', { class: 'tile-img back', viewBox: '0 0 10 20', 'aria-hidden': 'true' },
    s('use', { href: (ensureSymbols(), `#${BACK_ID}`), width: 10, height: 20 }));
}

/** A row of tiles (read as a list). */
export function tileRow(tiles, label) {
  return h('ul', { class: 'tile-row', 'aria-label': label },
    tiles.map((t) => h('li', { 'data-tile': t }, tileSvg(t))));
}
