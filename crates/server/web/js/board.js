// The layout drawn in SVG: tiles where geometry.js puts them, open ends marked, zoomed to fit.
import { h, s } from './dom.js';
import { layoutGeometry, boardLimits, boardView, MIN_UNIT, LEGIBLE_SIX } from './geometry.js';
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
 * (geometry.js `playOrder`); `waiting`: ends waiting for a Cross Dominoes cross; `wind`: the
 * rules never spin a double, so the two arms wind in rows (geometry.js); `set`: the set's top
 * pip (6, 9, 12). `zoomable`: a layout too big to fit at a readable size is shown in part, at
 * `MIN_UNIT`, and the player zooms and pans it (buttons, drag, pinch, keys; `attachZoom`).
 */
export function renderBoard(svg, tree, opts = {}) {
  const { openEnds = [], targets = new Map(), onEnd, lastTile, leadTarget, fly, zoomable = false } = opts;
  learnArms(tree);
  // A zoomable board shows its zoom bar in a strip of its own under the layout while the whole
  // layout does not fit (or the player has zoomed): decided on the board's full area, so the
  // strip's own height never changes the decision.
  // Without the strip (and no zoom of the player's) the board is its full area, and that view
  // is the one drawn.
  let full = null;
  if (zoomable && svg.parentElement) {
    const wrap = svg.parentElement;
    const area = wrap.getBoundingClientRect();
    full = { area, ...layoutView(tree, area, { ...opts, zoom: null }) };
    svg.fiveupStrip = !!svg.fiveupZoom || !full.view.whole;
    wrap.classList.toggle('zoom-strip', svg.fiveupStrip);
  }
  const rect = svg.getBoundingClientRect();
  const same = full && !svg.fiveupStrip && ['left', 'top', 'width', 'height'].every((k) => full.area[k] === rect[k]);
  const { geo, view } = same ? full : layoutView(tree, rect, { ...opts, zoom: zoomable ? svg.fiveupZoom || null : { fit: true } });
  const vb = view.vb;
  svg.setAttribute('viewBox', vb.map((v) => v.toFixed(3)).join(' '));
  svg.dataset.unit = view.unit.toFixed(2);
  svg.dataset.fitUnit = view.fitUnit.toFixed(2);
  svg.dataset.whole = String(view.whole);
  if (zoomable) {
    svg.fiveupView = { ...view, width: rect.width, height: rect.height };
    svg.fiveupRedraw = () => renderBoard(svg, tree, opts);
    attachZoom(svg);
  }
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

/**
 * The layout laid out for a board of `rect`'s size and the view of it the board shows
 * (`boardView`), with `renderBoard`'s options.
 */
function layoutView(tree, rect, opts) {
  const { targets = new Map(), lastTile, order, waiting = [], wind = false, set = 6, avoid = null, zoom = null } = opts;
  const aspect = rect.width > 0 && rect.height > 0 ? rect.width / rect.height : 1.6;
  const setTiles = ((set + 1) * (set + 2)) / 2;
  const geo = layoutGeometry(tree, { ...boardLimits(rect.width, rect.height, { wind, setTiles }), order, waiting });
  const minW = aspect >= 1 ? 12 : 8;
  const minH = aspect >= 1 ? 7 : 9;
  const last = geo.tiles.find((t) => t.tile === lastTile);
  // The box over the board's top-right corner (the count): what is drawn stays out from under
  // it when the whole layout shows.
  const box = avoid && !avoid.hidden && avoid.getClientRects().length ? avoid.getBoundingClientRect() : null;
  const items = [...geo.tiles.map((t) => [t.x, t.y, t.horizontal ? 1 : 0.5, t.horizontal ? 0.5 : 1, t === last]), ...geo.ends.map((e) => [e.x, e.y, 0.5, 0.5, true])];
  // The ends offered for a play stay in view whatever the size; otherwise every open end,
  // down to the size at which the set's tiles still read (double-six halves have at most six
  // spots: 14 px; the bigger sets' up to twelve: MIN_UNIT).
  const offered = targets.size ? geo.ends.filter((e) => targets.has(e.arm)) : [];
  const open = offered.length ? offered : geo.ends.filter((e) => !e.waiting);
  const view = boardView(geo.bbox, rect.width, rect.height, {
    minW, minH, focus: last ? [last.x, last.y] : null,
    zoom,
    show: open.length ? open.map((e) => [e.x, e.y]) : null, offered: offered.length > 0,
    floor: set <= 6 ? LEGIBLE_SIX : MIN_UNIT,
    avoid: box ? { w: rect.right - box.left + 2, h: box.bottom - rect.top + 2 } : null, items,
  });
  return { geo, view };
}

/** Back to the automatic view (the whole layout, or a readable window on the last tile). */
export function resetZoom(svg) { svg.fiveupZoom = null; }

/**
 * Zooming and panning a board too big to show whole at a readable size: buttons (zoom in,
 * zoom out, fit the whole layout, follow play), dragging with a finger or the mouse, pinching,
 * Ctrl and the wheel (a trackpad's pinch), and the keys on the focused board (arrows pan,
 * + and - zoom, 0 fits). The bar of buttons shows while the layout is shown in part, or once
 * the player has zoomed, in a strip of its own under the board (nothing is drawn under it).
 */
function attachZoom(svg) {
  const view = () => svg.fiveupView;
  const redraw = () => svg.fiveupRedraw && svg.fiveupRedraw();
  const centre = () => { const [x, y, w, hh] = view().vb; return [x + w / 2, y + hh / 2]; };
  const setZoom = (unit, at) => {
    const v = view();
    const [cx, cy] = at || centre();
    svg.fiveupZoom = unit <= v.fitUnit ? { fit: true } : { unit, cx, cy };
    redraw();
  };
  if (!svg.fiveupZoomBar) {
    const btn = (label, text, id, f) => h('button', { type: 'button', class: 'secondary zoom-btn', id, 'aria-label': label, title: label, onClick: f }, text);
    const bar = h('div', { class: 'zoom-bar', role: 'group', 'aria-label': 'zoom the layout' },
      btn('Zoom out', '\u2212', 'zoom-out', () => setZoom(view().unit / 1.3)),
      btn('Zoom in', '+', 'zoom-in', () => setZoom(view().unit * 1.3)),
      btn('Show the whole layout', 'Fit', 'zoom-fit', () => { svg.fiveupZoom = { fit: true }; redraw(); }),
      btn('Follow play at a readable size', 'Follow', 'zoom-follow', () => { svg.fiveupZoom = null; redraw(); }));
    svg.fiveupZoomBar = bar;
    svg.after(bar);
    // Dragging pans; two fingers pinch. A press that does not move stays a click.
    const pointers = new Map();
    let start = null;
    const snapshot = () => {
      const pts = [...pointers.values()];
      const v = view();
      const [cx, cy] = centre();
      start = { pts: pts.map((p) => ({ ...p })), unit: v.unit, cx, cy, moved: false };
    };
    svg.addEventListener('pointerdown', (ev) => {
      if (ev.pointerType === 'mouse' && ev.button !== 0) return;
      pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      snapshot();
    });
    svg.addEventListener('pointermove', (ev) => {
      if (!pointers.has(ev.pointerId) || !start) return;
      pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      const pts = [...pointers.values()];
      if (pts.length >= 2 && start.pts.length >= 2) {
        const d0 = Math.hypot(start.pts[0].x - start.pts[1].x, start.pts[0].y - start.pts[1].y);
        const d1 = Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y);
        if (d0 > 0) { start.moved = true; setZoom(start.unit * (d1 / d0), [start.cx, start.cy]); }
        return;
      }
      const dx = ev.clientX - start.pts[0].x;
      const dy = ev.clientY - start.pts[0].y;
      if (!start.moved && Math.hypot(dx, dy) < 8) return;
      const v = view();
      if (v.whole && !svg.fiveupZoom) return;
      if (!start.moved) { try { svg.setPointerCapture(ev.pointerId); } catch (_) { /* gone */ } }
      start.moved = true;
      svg.fiveupZoom = { unit: v.unit, cx: start.cx - dx / start.unit, cy: start.cy - dy / start.unit };
      redraw();
    });
    const up = (ev) => {
      pointers.delete(ev.pointerId);
      if (start && start.moved) dragged = Date.now();
      if (pointers.size) snapshot(); else start = null;
    };
    // A drag is not a click on whatever it ended over.
    let dragged = 0;
    svg.addEventListener('click', (e) => {
      if (Date.now() - dragged < 250) { e.stopPropagation(); e.preventDefault(); }
    }, { capture: true });
    svg.addEventListener('pointerup', up);
    svg.addEventListener('pointercancel', up);
    svg.addEventListener('wheel', (ev) => {
      if (!ev.ctrlKey) return;
      ev.preventDefault();
      setZoom(view().unit * (ev.deltaY < 0 ? 1.15 : 1 / 1.15));
    }, { passive: false });
    svg.addEventListener('keydown', (ev) => {
      if (ev.target !== svg) return;
      const v = view();
      const stepPx = 80 / v.unit;
      const [cx, cy] = centre();
      const pan = { ArrowLeft: [-stepPx, 0], ArrowRight: [stepPx, 0], ArrowUp: [0, -stepPx], ArrowDown: [0, stepPx] }[ev.key];
      if (pan) {
        ev.preventDefault();
        svg.fiveupZoom = { unit: v.unit, cx: cx + pan[0], cy: cy + pan[1] };
        redraw();
      } else if (ev.key === '+' || ev.key === '=') { ev.preventDefault(); setZoom(v.unit * 1.3); }
      else if (ev.key === '-') { ev.preventDefault(); setZoom(v.unit / 1.3); }
      else if (ev.key === '0') { ev.preventDefault(); svg.fiveupZoom = { fit: true }; redraw(); }
    });
    svg.setAttribute('tabindex', '0');
    svg.setAttribute('aria-keyshortcuts', 'ArrowLeft ArrowRight ArrowUp ArrowDown + - 0');
  }
  const v = view();
  const bar = svg.fiveupZoomBar;
  // Only while the layout is shown in part (or the player has zoomed): a bar over a board that
  // shows everything would only hide part of it.
  // It shows in its strip under the board (style.css: .zoom-strip; renderBoard decides), so it
  // covers no tile: the board is that much shorter while the bar shows.
  bar.hidden = !svg.fiveupStrip;
  bar.querySelector('#zoom-follow').hidden = !svg.fiveupZoom;
  bar.querySelector('#zoom-fit').disabled = v.whole;
  bar.querySelector('#zoom-out').disabled = v.whole;
  svg.setAttribute('aria-label', v.whole ? 'the layout' : 'the layout, in part: the arrow keys, dragging or the zoom buttons move the view');
}
