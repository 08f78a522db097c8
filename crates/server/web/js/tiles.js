// Tiles drawn in SVG from the sprite `/static/tiles.svg` (one symbol per half face).
import { s, h } from './dom.js';

const SPRITE = '/static/tiles.svg';

/** Spoken form of a tile: "six-four", "double five". */
export function tileWords(t) {
  const w = ['blank', 'one', 'two', 'three', 'four', 'five', 'six'];
  return t[0] === t[2] ? `double ${w[+t[0]]}` : `${w[+t[0]]}-${w[+t[2]]}`;
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
    g.append(s('use', { href: `${SPRITE}#p${a}`, x: 0.05, y: 0.05, width: 0.9, height: 0.9, class: 'pips' }));
    g.append(s('use', { href: `${SPRITE}#p${b}`, x: 1.05, y: 0.05, width: 0.9, height: 0.9, class: 'pips' }));
  } else {
    g.append(s('line', { class: 'divider', x1: 0.15, y1: 1, x2: 0.85, y2: 1 }));
    g.append(s('use', { href: `${SPRITE}#p${a}`, x: 0.05, y: 0.05, width: 0.9, height: 0.9, class: 'pips' }));
    g.append(s('use', { href: `${SPRITE}#p${b}`, x: 0.05, y: 1.05, width: 0.9, height: 0.9, class: 'pips' }));
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
  svg.append(tileGroup({ x: horizontal ? 1 : 0.5, y: horizontal ? 0.5 : 1, horizontal, a: +t[0], b: +t[2] }));
  return svg;
}

/** A face-down tile. */
export function backSvg() {
  return s('svg', { class: 'tile-img back', viewBox: '0 0 10 20', 'aria-hidden': 'true' },
    s('use', { href: `${SPRITE}#back`, width: 10, height: 20 }));
}

/** A row of tiles (read as a list). */
export function tileRow(tiles, label) {
  return h('ul', { class: 'tile-row', 'aria-label': label },
    tiles.map((t) => h('li', { 'data-tile': t }, tileSvg(t))));
}
