// Unit tests of the pure modules, run in the browser (test.html), driven by the Rust browser
// tests, which pass in the engine's shuffle test vectors (crates/engine/tests/data/shuffle_v1.txt).
import * as deal from './deal.js';
import { layoutGeometry, overlaps, fitViewBox, turnLimits, boardLimits, boardView, MIN_UNIT } from './geometry.js';
import { tallyParts, tallySegments } from './tally.js';
import { actionWords, entryWords, optionsString, seatName, playingToWin, rulesLines, optionsWords, valueWords, formProblems, leadWords, plainRulesWords, presetRulesFor, formOptions, maxPlayers, maxHand, gameName, shortRules } from './format.js';
import { learnArms } from './board.js';
import { pipSpots, tileWords, tileSvg, PIP_COLOURS } from './tiles.js';
import { seatPlaces, endWords, playPoints, clockText } from './panels.js';
import { positions } from './replay.js';
import { formatWords, rulesWords, settingsLines, fmtPoints, matchSides, bracketSection, roundsSection, crosstable, boardsSection, cutThroatSection, arenaSection, myTable, noShowWords, allGames, tablePlace, standingsTable, tieHeading } from './tourview.js';

function placedLine(tiles, startPip) {
  // Tiles laid outward from a starting pip: each tile's inner half matches the previous end.
  let pip = startPip;
  return tiles.map((t) => {
    const a = +t[0]; const b = +t[2];
    const inner = pip;
    if (a !== inner && b !== inner) throw new Error(`${t} does not fit ${pip}`);
    const outer = a === inner ? b : a;
    pip = outer;
    return { tile: t, inner, outer };
  });
}

/**
 * The layout geometry on many real layouts (made by the engine in the Rust test): for each
 * `{tree, order}`, the pairs of tiles that overlap (or tiles left out) with the wide, the
 * phone and the square turn limits.
 */
export function geometryReport(items) {
  const out = [];
  items.forEach(({ tree, order }, i) => {
    // A layout that never spun (every arm from the lead) is also drawn winding, as the table
    // draws it when the rules spin no double.
    const winding = tree.arms.every((arm) => !arm.anchor || arm.anchor.kind === 'root');
    // The aspect-ratio limits, and the limits the table derives from its size on a phone,
    // a laptop and a wide screen (turnLimits), and the extremes of their range.
    const shapes = [{ turnX: 9, turnY: 5 }, { turnX: 4, turnY: 8 }, { turnX: 6, turnY: 6 },
      turnLimits(1.36, 378, 278), turnLimits(1.34, 615, 458), turnLimits(1.6, 1100, 690),
      { turnX: 14, turnY: 3 }, { turnX: 4, turnY: 10 }, { turnX: 14, turnY: 10 }];
    for (const limits of winding ? [...shapes, ...shapes.map((x) => ({ ...x, turns: 2 })), ...shapes.map((x) => ({ ...x, wind: true }))] : shapes) {
      const g = layoutGeometry(tree, { ...limits, order });
      let n = 0;
      for (let a = 0; a < g.tiles.length; a += 1) {
        for (let b = a + 1; b < g.tiles.length; b += 1) if (overlaps(g.tiles[a], g.tiles[b])) n += 1;
      }
      const tiles = 1 + tree.arms.reduce((k, arm) => k + arm.tiles.length, 0);
      if (n > 0 || g.tiles.length !== tiles) out.push({ i, limits, overlaps: n, placed: g.tiles.length, tiles });
    }
  });
  return out;
}

/**
 * The size of the tiles on real layouts (`{tree, order, set, last}`), laid out as the table
 * lays them on boards of the given pixel sizes (`boards`: `[{width, height}]`, measured on the
 * table): for each board, the smallest half-tile when the whole layout is fitted (`fitMin`),
 * the smallest half-tile the board shows by itself (`shownMin`: the fitted size, or a readable
 * window on the tile just laid), how many layouts needed that window (`windows`), whether the
 * tile just laid was in view every time (`lastInView`), and how many tiles the biggest layout
 * held (`mostTiles`).
 */
export function sizeReport(items, boards) {
  return boards.map(({ width, height }) => {
    let fitMin = Infinity; let shownMin = Infinity; let windows = 0; let lastInView = true; let mostTiles = 0; let overlapping = 0;
    for (const { tree, order, set, last } of items) {
      const wind = tree.arms.every((arm) => !arm.anchor || arm.anchor.kind === 'root');
      const aspect = width / height;
      const g = layoutGeometry(tree, { ...boardLimits(width, height, { wind, setTiles: ((set + 1) * (set + 2)) / 2 }), order });
      for (let a = 0; a < g.tiles.length; a += 1) for (let b = a + 1; b < g.tiles.length; b += 1) if (overlaps(g.tiles[a], g.tiles[b])) overlapping += 1;
      const t = g.tiles.find((x) => x.tile === last);
      const v = boardView(g.bbox, width, height, { focus: t ? [t.x, t.y] : null, minW: aspect >= 1 ? 12 : 8, minH: aspect >= 1 ? 7 : 9 });
      fitMin = Math.min(fitMin, v.fitUnit);
      shownMin = Math.min(shownMin, v.unit);
      if (!v.whole) windows += 1;
      if (t) {
        const [x, y, w, hh] = v.vb;
        const hw = t.horizontal ? 1 : 0.5; const hh2 = t.horizontal ? 0.5 : 1;
        if (t.x - hw < x - 1e-9 || t.x + hw > x + w + 1e-9 || t.y - hh2 < y - 1e-9 || t.y + hh2 > y + hh + 1e-9) lastInView = false;
      }
      mostTiles = Math.max(mostTiles, g.tiles.length);
    }
    return { width, height, fitMin, shownMin, windows, lastInView, mostTiles, overlapping, layouts: items.length };
  });
}

/** The vector lines of a test-vector file (comments and blank lines left out), split in words. */
function vectorLines(text) {
  return (text || '').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')).map((l) => l.split(/\s+/));
}

/**
 * `vectorsText`: the engine's double-six shuffle vectors; `more`: the other vector files,
 * `{ nine, twelve, lot }` (shuffle v1 over 55 and 91 tiles, and the lot).
 */
export async function runTests(vectorsText, more = {}) {
  const lines = [];
  let failed = 0;
  let passed = 0;
  const check = (ok, name, detail = '') => {
    if (ok) passed += 1; else failed += 1;
    lines.push(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : ` ${detail}`}`);
  };
  const eq = (a, b, name) => check(JSON.stringify(a) === JSON.stringify(b), name, `got ${JSON.stringify(a)}, want ${JSON.stringify(b)}`);

  // RFC 8439 section 2.3.2 block.
  const key = Uint8Array.from({ length: 32 }, (_, i) => i);
  const blk = new deal.ChaCha20(key, [0x09000000, 0x4a000000, 0], 1).blockWords();
  eq([blk[0], blk[1], blk[15]], [0xe4e7f110, 0x15593bd1, 0x4e3c50a2], 'chacha20 RFC 8439 block');

  // SHA-256 of "abc" (FIPS 180-2).
  eq(await deal.sha256Hex(new TextEncoder().encode('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 'sha-256 of abc');

  // The engine's shuffle v1 test vectors.
  let vectors = 0;
  for (const raw of (vectorsText || '').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [seed, hand, ...tiles] = line.split(/\s+/);
    eq(deal.shuffledOrder(seed, Number(hand)), tiles, `shuffle v1 vector ${seed.slice(0, 8)} hand ${hand}`);
    vectors += 1;
  }
  check(vectors >= 6, 'the test vectors were given', `${vectors} vectors`);
  // Shuffle v1 over the double-nine and double-twelve sets, and the lot.
  for (const [set, text] of [[9, more.nine], [12, more.twelve]]) {
    const lines = vectorLines(text);
    check(lines.length >= 6, `the double-${set} vectors were given`, `${lines.length} vectors`);
    for (const [seed, hand, ...tiles] of lines) {
      check(tiles.length === deal.setSize(set), `double-${set} vector has the whole set`, `${tiles.length} tiles`);
      eq(deal.shuffledOrder(seed, Number(hand), set), tiles, `shuffle v1 double-${set} vector ${seed.slice(0, 8)} hand ${hand}`);
    }
  }
  const lots = vectorLines(more.lot);
  check(lots.length >= 12, 'the lot vectors were given', `${lots.length} vectors`);
  for (const [seed, hand, set, players, seat] of lots) {
    eq(deal.lotOf(seed, Number(hand), Number(set), Number(players)), Number(seat), `lot vector ${seed.slice(0, 8)} set ${set} players ${players}`);
    // The deal of a hand opened by lot draws the same lot after the same shuffle.
    const d = deal.deal(seed, Number(hand), Number(players), 3, null, { set: Number(set), lot: true });
    check(d.lot === Number(seat) && [...d.hands.flat(), ...d.boneyard].join(' ') === deal.shuffledOrder(seed, Number(hand), Number(set)).join(' '),
      `lot vector ${seed.slice(0, 8)} set ${set}: the deal's lot`, JSON.stringify(d.lot));
  }
  // The set's top double: reshuffled until it is dealt; a free lead needs nothing.
  const topRules = { set: 12, players: 6, hand_size: 6, first_lead: 'top-double', no_double: 'redeal' };
  const top = deal.deal('2a'.padEnd(64, '0'), 1, 6, 6, deal.openingNeeds(topRules, 'highest-double'), { set: 12 });
  check(top.hands.flat().includes('12-12'), 'top double: the deal holds 12-12', JSON.stringify(top.hands));
  eq([deal.openingNeeds(topRules, 'free'), deal.openingNeeds({ ...topRules, first_lead: 'lot' }, 'lot')], [null, null], 'no reshuffle for a free lead or a lot');
  check(deal.openingNeeds({ ...topRules, first_lead: 'highest-double-any' }, 'highest-double')('9-9') === true
    && deal.openingNeeds({ ...topRules, no_double: 'heaviest-tile', first_lead: 'highest-double' }, 'highest-double') === null, 'highest double: a double is needed only under the redeal rule');

  // The worked example of docs/protocol.md.
  const server = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join('');
  const c0 = '11'.repeat(32);
  eq(await deal.sha256Hex(deal.hexToBytes(server)), '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd', 'worked example: commitment');
  eq(deal.dealSeedMessage(server, [c0, null]).length, 81, 'worked example: 81 hashed bytes');
  const ds = await deal.dealSeed(server, [c0, null]);
  eq(ds, '8d598f90682132e3f4dec00f65a3f85768e407305dcfea9f78ab5569bebdca58', 'worked example: deal seed');
  const d = deal.deal(ds, 1, 2, 7, true);
  eq(d.hands, [['4-1', '1-1', '6-0', '1-0', '4-3', '3-2', '4-0'], ['5-4', '5-0', '3-1', '6-2', '0-0', '2-0', '5-3']], 'worked example: hands');
  eq(d.boneyard.join(' '), '6-4 5-1 4-2 4-4 6-1 3-3 2-2 6-6 3-0 5-5 5-2 2-1 6-3 6-5', 'worked example: boneyard');
  const rules = { players: 2, hand_size: 7, no_double: 'redeal' };
  const proof = { hand: 1, commitment: '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd', server_seed: server, client_seeds: [c0, null], deal_seed: ds };
  const good = await deal.verifyHand(proof, rules, 'highest-double', { dealt: d.hands, boneyard: d.boneyard });
  check(good.ok, 'verifyHand accepts the worked example', JSON.stringify(good.steps));
  const badCommit = await deal.verifyHand({ ...proof, commitment: '00'.repeat(32) }, rules, 'highest-double', { dealt: d.hands });
  check(!badCommit.ok, 'verifyHand refuses a wrong commitment');
  const swapped = [d.hands[1], d.hands[0]];
  check(!(await deal.verifyHand(proof, rules, 'highest-double', { dealt: swapped })).ok, 'verifyHand refuses another deal');
  const history = [{ kind: 'play', seat: 1, tile: '0-0', arm: null }, { kind: 'draw', seat: 0, tile: '6-4' }, { kind: 'play', seat: 0, tile: '6-4', arm: 'W' }];
  const remaining = [d.hands[0].slice(), d.hands[1].filter((t) => t !== '0-0')];
  check((await deal.verifyHand(proof, rules, 'highest-double', { history, remaining })).ok, 'verifyHand follows draws and plays');
  const wrongDraw = [{ kind: 'draw', seat: 0, tile: '5-1' }];
  check(!(await deal.verifyHand(proof, rules, 'highest-double', { history: wrongDraw })).ok, 'verifyHand refuses a draw the deal did not give');
  // Without the redeal rule the first shuffle of the keystream is the deal.
  eq(deal.deal(ds, 1, 2, 7, false).hands[0], deal.shuffledOrder(ds, 1).slice(0, 7), 'no redeal: the first shuffle');

  // Geometry: a long arm turns and nothing overlaps.
  const longE = { root: '6-6', count: 0, arms: [
    { id: 'W', anchor: { kind: 'root' }, tiles: placedLine(['6-5', '5-4', '4-3', '3-2', '2-1', '1-0'], 6), open: true, end: 0 },
    { id: 'E', anchor: { kind: 'root' }, tiles: placedLine(['6-0', '0-0', '0-1', '1-1', '1-2', '2-2', '2-3', '3-3', '3-4', '4-4', '4-5', '5-5', '5-6'].map((t) => (t[0] < t[2] ? `${t[2]}-${t[0]}` : t)), 6), open: true, end: 6 },
    { id: 'N', anchor: { kind: 'sprout', double: '6-6', arm: null, index: 0 }, tiles: placedLine(['6-3', '3-1'], 6), open: true, end: 1 },
    { id: 'S', anchor: { kind: 'sprout', double: '6-6', arm: null, index: 0 }, tiles: placedLine(['6-2'], 6), open: true, end: 2 },
  ] };
  const g = layoutGeometry(longE, { turnX: 9, turnY: 5 });
  eq(g.tiles.length, 1 + 6 + 13 + 2 + 1, 'geometry: every tile placed');
  let clash = '';
  for (let i = 0; i < g.tiles.length; i += 1) {
    for (let j = i + 1; j < g.tiles.length; j += 1) {
      if (overlaps(g.tiles[i], g.tiles[j])) clash = `${g.tiles[i].tile} and ${g.tiles[j].tile}`;
    }
  }
  check(clash === '', 'geometry: no two tiles overlap', clash);
  check(g.tiles.filter((t) => t.arm === 'E').some((t) => t.dir[1] === 1), 'geometry: the long east arm turns down');
  check(g.tiles.every((t) => t.arm !== 'E' || t.dir[1] === 1 || t.x <= 9.01), 'geometry: nothing passes the turn limit before turning');
  const root = g.tiles[0];
  check(!root.horizontal, 'geometry: the double lead lies crosswise');
  check(g.tiles.filter((t) => t.arm === 'E' && t.tile[0] === t.tile[2]).every((t) => t.dir[0] !== 0 ? !t.horizontal : t.horizontal), 'geometry: doubles lie crosswise in their arm');
  const n = g.tiles.find((t) => t.tile === '6-3');
  check(n.x === 0 && n.y < -1 && !n.horizontal && n.b === 6, 'geometry: the north arm goes up from the spinner, its 6 touching it');
  const w1 = g.tiles.find((t) => t.tile === '6-5');
  check(w1.horizontal && w1.b === 6 && w1.x < 0, 'geometry: the west arm goes left, the matching half inward');
  eq(g.ends.map((e) => e.arm), ['W', 'E', 'N', 'S'], 'geometry: four open ends marked');
  const vb = fitViewBox(g.bbox, { aspect: 2 });
  check(vb[0] <= g.bbox.minX && vb[1] <= g.bbox.minY && vb[0] + vb[2] >= g.bbox.maxX && vb[1] + vb[3] >= g.bbox.maxY && Math.abs(vb[2] / vb[3] - 2) < 1e-9, 'geometry: the view box fits everything at the aspect ratio');
  // Turn limits from the board's size: a bigger board lets arms run further before turning,
  // a phone keeps them within its width, and the limits stay within their range.
  const phone = turnLimits(378 / 278, 378, 278);
  const laptop = turnLimits(615 / 458, 615, 458);
  const wide = turnLimits(1100 / 690, 1100, 690);
  check(phone.turnX <= laptop.turnX && laptop.turnX < wide.turnX && phone.turnY <= laptop.turnY && laptop.turnY < wide.turnY, 'geometry: a bigger board turns arms later', JSON.stringify([phone, laptop, wide]));
  check([phone, laptop, wide, turnLimits(1, 100, 100), turnLimits(4, 4000, 1000)].every((l) => l.turnX >= 4 && l.turnX <= 14 && l.turnY >= 3 && l.turnY <= 10), 'geometry: turn limits stay in range');
  // A phone's arms, run to their limits, still fit its board with half-tiles of 18 px or more.
  check((378 / (2 * phone.turnX + 3)) >= 18 && (278 / (2 * phone.turnY + 3)) >= 18, 'geometry: a phone board keeps tiles legible at the turn limits', JSON.stringify(phone));
  eq(turnLimits(1.6), { turnX: 9, turnY: 5 }, 'geometry: without a size, limits by the aspect ratio');
  // Two turns: a long arm winds round the lead (left, up, then right above it).
  const longW = { root: '6-5', count: 0, arms: [
    { id: 'W', anchor: { kind: 'root' }, tiles: placedLine(['6-0', '0-0', '0-1', '1-1', '1-2', '2-2', '2-3', '3-3', '3-4', '4-4', '4-5', '5-5', '5-6', '6-6', '6-1', '1-3', '3-5', '5-0', '0-2', '2-4', '4-6', '6-2'].map((t) => (t[0] < t[2] ? `${t[2]}-${t[0]}` : t)), 6), open: true, end: 2 },
    { id: 'E', anchor: { kind: 'root' }, tiles: [], open: true, end: 5 },
  ] };
  const w1g = layoutGeometry(longW, { turnX: 6, turnY: 4, turns: 1 });
  const w2g = layoutGeometry(longW, { turnX: 6, turnY: 4, turns: 2 });
  const span = (gg) => { const b = gg.bbox; return Math.max(b.maxX - b.minX, b.maxY - b.minY); };
  const legs = (gg) => new Set(gg.tiles.filter((x) => x.arm === 'W').map((x) => x.dir.join())).size;
  eq([legs(w1g), legs(w2g)], [2, 3], 'geometry: two turns make a third leg');
  check(span(w2g) < span(w1g) && w2g.tiles.filter((x) => x.arm === 'W' && x.dir[0] === 1).every((x) => x.y < -1), 'geometry: the winding arm is more compact and comes back above the lead', `${span(w1g)} ${span(w2g)}`);
  let windClash = '';
  for (let i = 0; i < w2g.tiles.length; i += 1) for (let j = i + 1; j < w2g.tiles.length; j += 1) if (overlaps(w2g.tiles[i], w2g.tiles[j])) windClash = `${w2g.tiles[i].tile} ${w2g.tiles[j].tile}`;
  check(windClash === '', 'geometry: the winding arm crosses nothing', windClash);

  // Winding: the long arm goes back and forth in rows two units apart, each row within the
  // limit, as many rows as it needs, crossing nothing.
  const wg = layoutGeometry(longW, { turnX: 4, turnY: 4, wind: true });
  const rows = [...new Set(wg.tiles.filter((x) => x.arm === 'W' && x.dir[1] === 0 && x.horizontal).map((x) => x.y))].sort((a, b) => b - a);
  check(rows.length >= 4 && rows.every((y, i) => i === 0 || y <= rows[i - 1] - 2), 'geometry: a winding arm makes rows upwards, two units apart', JSON.stringify(rows));
  check(wg.tiles.every((x) => x.arm !== 'W' || Math.abs(x.x) <= 4 + 2), 'geometry: a winding arm stays within its rows\' width', JSON.stringify(wg.bbox));
  let windRowsClash = '';
  for (let i = 0; i < wg.tiles.length; i += 1) for (let j = i + 1; j < wg.tiles.length; j += 1) if (overlaps(wg.tiles[i], wg.tiles[j])) windRowsClash = `${wg.tiles[i].tile} ${wg.tiles[j].tile}`;
  check(windRowsClash === '', 'geometry: the rows cross nothing', windRowsClash);
  // The view: a layout that fits at a readable size is shown whole; one that does not is shown
  // in part at the readable size, around the focus, never past the layout's edges.
  const small = boardView({ minX: -5, minY: -2, maxX: 5, maxY: 2 }, 378, 278);
  check(small.whole && small.unit >= MIN_UNIT, 'view: a small layout is shown whole', JSON.stringify(small));
  const big = boardView({ minX: -20, minY: -15, maxX: 20, maxY: 15 }, 378, 278, { focus: [19, 14] });
  check(!big.whole && Math.abs(big.unit - MIN_UNIT) < 1e-9 && big.vb[0] + big.vb[2] <= 20.6 + 1e-9 && big.vb[1] + big.vb[3] <= 15.6 + 1e-9 && big.vb[0] < 19 && big.vb[0] + big.vb[2] > 19 && big.vb[1] < 14 && big.vb[1] + big.vb[3] > 14, 'view: a big layout is shown in part at a readable size, near the focus', JSON.stringify(big));
  // Ends offered for a play are all kept in view by the automatic view, wherever the focus is.
  const inView = (v, p) => v.vb[0] <= p[0] && p[0] <= v.vb[0] + v.vb[2] && v.vb[1] <= p[1] && p[1] <= v.vb[1] + v.vb[3];
  for (const show of [[[-19, -14]], [[-19, -14], [-12, -14]], [[-19, -14], [19, 14]]]) {
    const v = boardView({ minX: -20, minY: -15, maxX: 20, maxY: 15 }, 378, 278, { focus: [19, 14], show });
    check(show.every((p) => inView(v, p)) && v.unit <= MIN_UNIT + 1e-9, 'view: the offered ends are in view', JSON.stringify({ show, v }));
  }
  const near = boardView({ minX: -20, minY: -15, maxX: 20, maxY: 15 }, 378, 278, { focus: [19, 14], show: [[-19, -14], [-17, -14]] });
  check(Math.abs(near.unit - MIN_UNIT) < 1e-9, 'view: ends close together keep the readable size', JSON.stringify(near));
  const fitted = boardView({ minX: -20, minY: -15, maxX: 20, maxY: 15 }, 378, 278, { zoom: { fit: true } });
  check(fitted.whole && fitted.unit < MIN_UNIT, 'view: asked to fit, the whole layout at any size', JSON.stringify(fitted));
  const limits = boardLimits(378, 278, { wind: true, setTiles: 91 });
  check(limits.wind && 378 / (2 * limits.turnX + 3) >= MIN_UNIT, 'view: winding rows on a phone are never wider than the board at a readable size', JSON.stringify(limits));

  // A spinner later in an arm (Cross): its sprouts leave it perpendicular.
  const cross = { root: '5-3', count: 0, arms: [
    { id: 'W', anchor: { kind: 'root' }, tiles: placedLine(['5-5', '5-1'], 5), open: true, end: 1 },
    { id: 'E', anchor: { kind: 'root' }, tiles: [], open: true, end: 3 },
    { id: 'N', anchor: { kind: 'sprout', double: '5-5', arm: 'W', index: 0 }, tiles: placedLine(['5-2'], 5), open: true, end: 2 },
    { id: 'S', anchor: { kind: 'sprout', double: '5-5', arm: 'W', index: 0 }, tiles: [], open: true, end: 5 },
  ] };
  const gc = layoutGeometry(cross);
  const dbl = gc.tiles.find((t) => t.tile === '5-5');
  const sprout = gc.tiles.find((t) => t.tile === '5-2');
  check(dbl.horizontal === false && sprout.x === dbl.x && sprout.y < dbl.y - 1, 'geometry: a sprout of a double in an arm goes up from it');
  const sEnd = gc.ends.find((e) => e.arm === 'S');
  check(sEnd && sEnd.x === dbl.x && sEnd.y > dbl.y, 'geometry: the empty south sprout is marked below the double');

  // An arm does not turn right after a spinner lying in it (its sprout would run alongside).
  const late = { root: '6-5', count: 0, arms: [
    { id: 'W', anchor: { kind: 'root' }, tiles: placedLine(['6-0', '0-0', '0-1', '1-1', '1-2', '2-2', '2-3', '3-4'].map((t) => (t[0] < t[2] ? `${t[2]}-${t[0]}` : t)), 6), open: true, end: 4 },
    { id: 'E', anchor: { kind: 'root' }, tiles: [], open: true, end: 5 },
    { id: 'N', anchor: { kind: 'sprout', double: '2-2', arm: 'W', index: 5 }, tiles: placedLine(['2-4', '4-4', '4-5'].map((t) => (t[0] < t[2] ? `${t[2]}-${t[0]}` : t)), 2), open: true, end: 5 },
    { id: 'S', anchor: { kind: 'sprout', double: '2-2', arm: 'W', index: 5 }, tiles: placedLine(['2-5'].map((t) => `${t[2]}-${t[0]}`), 2), open: true, end: 5 },
  ] };
  const gl = layoutGeometry(late, { turnX: 9, turnY: 5 });
  let lateClash = '';
  for (let i = 0; i < gl.tiles.length; i += 1) {
    for (let j = i + 1; j < gl.tiles.length; j += 1) {
      if (overlaps(gl.tiles[i], gl.tiles[j])) lateClash = `${gl.tiles[i].tile} and ${gl.tiles[j].tile}`;
    }
  }
  check(lateClash === '', 'geometry: a spinner near the corner keeps its sprouts clear', lateClash);
  check(gl.tiles.filter((t) => t.arm === 'W').some((t) => t.dir[1] !== 0), 'geometry: that arm still turns, one tile later');

  // Boxed in (a real four-player Cross layout on a tall board): the south sprout's first tile
  // can neither go straight on nor turn without meeting a tile of the east arm, so it leaps
  // over it, recording the gap, and still no two tiles overlap.
  const boxed = { root: '5-5', count: 11, arms: [
    { id: 'W', anchor: { kind: 'root' }, tiles: placedLine(['5-4', '4-4', '4-0', '2-0'], 5), open: true, end: 2 },
    { id: 'E', anchor: { kind: 'root' }, tiles: placedLine(['6-5', '6-1', '1-1', '2-1', '3-2'], 5), open: true, end: 3 },
    { id: 'N', anchor: { kind: 'sprout', double: '5-5', arm: null, index: 0 }, tiles: [], open: true, end: 5 },
    { id: 'S', anchor: { kind: 'sprout', double: '5-5', arm: null, index: 0 }, tiles: placedLine(['5-0'], 5), open: true, end: 0 },
    { id: '4', anchor: { kind: 'sprout', double: '1-1', arm: 'E', index: 2 }, tiles: placedLine(['4-1', '6-4'], 1), open: true, end: 6 },
    { id: '5', anchor: { kind: 'sprout', double: '1-1', arm: 'E', index: 2 }, tiles: [], open: true, end: 1 },
    { id: '6', anchor: { kind: 'sprout', double: '4-4', arm: 'W', index: 1 }, tiles: [], open: true, end: 4 },
    { id: '7', anchor: { kind: 'sprout', double: '4-4', arm: 'W', index: 1 }, tiles: [], open: true, end: 4 },
  ] };
  const boxedOrder = ['E', 'E', 'W', 'E', 'W', 'E', '4', '4', 'E', 'W', 'S', 'W'];
  const gb = layoutGeometry(boxed, { turnX: 4, turnY: 8, order: boxedOrder });
  eq(gb.tiles.length, 13, 'geometry: boxed in, every tile placed');
  let boxedClash = '';
  for (let i = 0; i < gb.tiles.length; i += 1) {
    for (let j = i + 1; j < gb.tiles.length; j += 1) {
      if (overlaps(gb.tiles[i], gb.tiles[j])) boxedClash = `${gb.tiles[i].tile} and ${gb.tiles[j].tile}`;
    }
  }
  check(boxedClash === '', 'geometry: boxed in, no two tiles overlap', boxedClash);
  const leapt = gb.tiles.find((t) => t.tile === '5-0');
  check(leapt.gap && leapt.gap.from[0] === 0 && leapt.gap.from[1] === 1 && leapt.gap.to[1] === leapt.y - 1 && leapt.x === 0,
    'geometry: boxed in, the sprout leaps straight on from the spinner and records the gap', JSON.stringify(leapt));
  check(gb.tiles.filter((t) => t.gap).length === 1, 'geometry: only the boxed-in tile leaps');

  // Tally.
  eq(tallyParts(0), { full: 0, xs: 0, line: 0, rest: 0 }, 'tally: 0');
  eq(tallyParts(5), { full: 0, xs: 0, line: 1, rest: 0 }, 'tally: 5 is one line');
  eq(tallyParts(10), { full: 0, xs: 1, line: 0, rest: 0 }, 'tally: 10 is an X');
  eq(tallyParts(135), { full: 2, xs: 3, line: 1, rest: 0 }, 'tally: 135 is two figures, three X\'s and a line');
  eq(tallySegments(50).segs.length, 10, 'tally: a full figure has ten lines');
  eq(tallySegments(50).boxes.length, 1, 'tally: a full figure is boxed');
  eq(tallySegments(25).segs.length, 5, 'tally: 25 is five lines');

  // Words and options strings.
  const seats = [{ occupant: { kind: 'human', user: { name: 'Ann' } } }, { occupant: { kind: 'bot', level: 'club' } }, { occupant: { kind: 'open' } }];
  eq([seatName(seats, 0), seatName(seats, 1), seatName(seats, 2)], ['Ann', 'Blaise (computer)', 'open seat'], 'format: seat names (computer players named by seat)');
  learnArms({ root: '6-5', arms: [{ id: 'W', anchor: { kind: 'root' }, tiles: [] }, { id: '6', anchor: { kind: 'sprout', double: '2-2', arm: 'W', index: 3 }, tiles: [] }, { id: '7', anchor: { kind: 'sprout', double: '2-2', arm: 'W', index: 3 }, tiles: [] }] });
  eq(['5-0@W', '6-6', 'D', 'P', 'C10', 'M', '3-2@7'].map(actionWords), ['5-0 on west', 'lead 6-6', 'draw', 'pass', 'claim 10', 'call Muggins', '3-2 on the second sprout of 2-2'], 'format: actions in words (sprouts named by their double)');
  eq(entryWords({ kind: 'play', seat: 0, tile: '5-0', arm: 'E', count: 10, points: 10 }, seats), 'Ann played 5-0 on east: count 10, scores 10', 'format: a play in the log');
  eq(entryWords({ kind: 'draw', seat: 1, tile: null, ends: [3, 6], forced: true }, seats), 'Blaise (computer) drew a tile (no 3, 6)', 'format: a hidden draw in the log');
  const opts = [{ key: 'players', field: 'players' }, { key: 'target', field: 'target' }, { key: 'spinner', field: 'spinner' }, { key: 'hand', field: 'hand_size' }];
  eq(optionsString('five-up', 3, { players: 3, target: 250, spinner: 'first', hand_size: 5 }, opts, { target: '100', spinner: 'first', hand: '5' }), 'five-up players=3 target=100', 'format: only changed options are sent');
  eq(optionsString('cross', 4, { players: 4, target: 250, spinner: 'all', hand_size: 5 }, opts, { spinner: 'none', hand: '6' }), 'cross players=4 spinner=none hand=6', 'format: options after the preset');

  const r100 = { game_end: 'immediate', target: 100, cribbage_scale: false, play_scoring: 'fives' };
  eq([playingToWin(r100, [40, 49]), playingToWin(r100, [50, 0]), playingToWin({ ...r100, game_end: 'finish-hand' }, [90, 0]), playingToWin({ ...r100, target: 61, cribbage_scale: true }, [50, 0]), playingToWin({ ...r100, target: 61, cribbage_scale: true }, [51, 0])],
    [false, true, false, false, true], 'format: when the expert plays to win the game');

  // Plain words: no option key, no true/false, no key=value reaches the player.
  const rules5 = { players: 4, partnerships: true, target: 150, hand_size: 5, spinner: 'first', sprouts: 'after-both-sides', no_double: 'redeal', next_lead: 'winner', drawing: true, voluntary_draw: false, boneyard_keep: 0, play_scoring: 'fives', award: 'opponents', doubles_count_one_half: false, game_end: 'immediate', exact_target: false, cribbage_scale: false, manual_scoring: true };
  const words = rulesLines(rules5).join(' | ');
  check(!/=|\btrue\b|\bfalse\b|_|undefined/.test(words) && words.includes('Muggins') && words.includes('partners'), 'format: the rules in plain words', words);
  const ow = optionsWords('players=3 partnerships=false hand=7 target=100 spinner=first manual=true');
  check(!/=|true|false/.test(ow) && ow.includes('3 players') && ow.includes('100') && ow.includes('by hand'), 'format: a stored options string in words', ow);
  eq([valueWords('drawing', 'false'), valueWords('exact-target', 'true').startsWith('yes')], ['no drawing (block game)', true], 'format: option values in words');
  // Pips up to double-twelve: each face has its number of pips, none outside the half.
  const spots = Array.from({ length: 13 }, (_, n) => pipSpots(n));
  check(spots.every((sp, n) => sp.spots.length === n && sp.spots.every(([x, y]) => x - sp.r >= 0.5 && x + sp.r <= 9.5 && y - sp.r >= 0.5 && y + sp.r <= 9.5)), 'tiles: 0 to 12 pips fit their half');
  check(spots.every((sp) => sp.spots.every((a, i) => sp.spots.every((b, j) => i === j || Math.hypot(a[0] - b[0], a[1] - b[1]) >= 2 * sp.r + 0.2))), 'tiles: no two pips touch');
  eq([tileWords('12-10'), tileWords('9-9'), tileWords('6-4')], ['twelve-ten', 'double nine', 'six-four'], 'tiles: words up to twelve');
  const svg = tileSvg('12-11');
  check([...svg.querySelectorAll('use')].every((u) => u.getAttribute('href').startsWith('#fiveup-p')) && document.querySelectorAll('#fiveup-p12 circle').length === 12, 'tiles: faces come from symbols inside the page, nothing fetched');
  // Faces of 7 to 12 pips each in their own colour, legible on the tile (contrast 4.5:1 at
  // least against the face); 0 to 6 stay black.
  const lum = (hex) => {
    const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const faceFill = (n) => document.querySelector(`#fiveup-p${n} circle`)?.getAttribute('fill') ?? null;
  const fills = [7, 8, 9, 10, 11, 12].map(faceFill);
  check(new Set(fills).size === 6 && fills.every((f) => f && (lum('#fffdf5') + 0.05) / (lum(f) + 0.05) >= 4.5), 'tiles: 7 to 12 pips in six distinct legible colours', JSON.stringify(fills));
  eq([1, 2, 3, 4, 5, 6].map(faceFill), [null, null, null, null, null, null], 'tiles: 1 to 6 pips stay black');
  check(Object.keys(PIP_COLOURS).length === 6, 'tiles: a colour per face above six');
  // Seats around the table, 2 to 8: every other seat placed once, clockwise from your left.
  for (let n = 2; n <= 8; n += 1) {
    for (let me = 0; me < n; me += 1) {
      const p = seatPlaces(n, me);
      const all = [...p.left, ...p.top, ...p.right];
      check(all.length === n - 1 && new Set(all).size === n - 1 && !all.includes(me) && all[0] === (me + 1) % n && p.left.length === p.right.length, `seats: ${n} seats around the table from seat ${me}`, JSON.stringify(p));
    }
  }
  eq(seatPlaces(4, 1), { left: [2], top: [3], right: [0] }, 'seats: the partner sits opposite');
  // Words for how a hand ended, and points scored during play counted in the summary.
  const view = { table: { seats, rules: { target: 100, manual_scoring: false } }, sides: [0, 1, 2], scores: [0, 0, 0], winner: 1 };
  check(endWords(view, { mid_hand: true, winners: [1], end: { kind: 'blocked' } }).includes('reached 100 during the hand'), 'summary: a game won during the hand says so', endWords(view, { mid_hand: true, winners: [1], end: { kind: 'blocked' } }));
  eq(endWords(view, { end: { kind: 'blocked' } }), 'The hand is blocked', 'summary: a blocked hand');
  eq(playPoints(view, [{ kind: 'play', seat: 0, points: 10 }, { kind: 'play', seat: 1, points: 5 }, { kind: 'draw', seat: 2 }, { kind: 'play', seat: 0, points: 15 }]), [25, 5, 0], 'summary: points scored during play per side');
  eq([clockText(0, 0, 65000), clockText(0, 30, 12000), clockText(0, 30, 40000)], ['1:05', '18 s', '0 s'], 'clock: time on a turn and a countdown');

  // The game a table plays, named from the presets (the target aside).
  const presetsFor = [
    { name: 'five-up', set: 6, rules: [2, 3, 4].map((n) => ({ players: n, set: 6, target: 100, spinner: 'first', play_scoring: 'fives' })) },
    { name: 'cross-dominoes', set: 6, rules: [2, 3, 4].map((n) => ({ players: n, set: 6, target: 100, spinner: 'first', play_scoring: 'none' })) },
  ];
  eq(gameName({ players: 4, set: 6, target: 100, spinner: 'first', play_scoring: 'none' }, presetsFor), 'Cross Dominoes', 'game name: the preset played');
  eq(gameName({ players: 3, set: 6, target: 50, spinner: 'first', play_scoring: 'fives' }, presetsFor), 'Five Up', 'game name: another target is the same game');
  eq(gameName({ players: 2, set: 6, target: 100, spinner: 'all', play_scoring: 'fives' }, presetsFor), 'Five Up, with its own rules', 'game name: other options');
  eq(gameName({ players: 2 }, null), 'Dominoes', 'game name: before the config');
  const limited = [{ name: 'five-up', set: 6, rules: [2, 3, 4].map((n) => ({ players: n, set: 6, target: 100, spinner: 'first', play_scoring: 'fives', hand_limit: 0 })) }];
  eq(gameName({ players: 2, set: 6, target: 250, spinner: 'first', play_scoring: 'fives', hand_limit: 1 }, limited), 'Five Up', 'game name: a one-hand board is the same game');

  // The new-table form: impossible choices in words, the preset on another set, the options
  // string sent.
  const six = { set: 6, players: 6, partnerships: false, hand_size: 5, spinner: 'none', target: 200, drawing: true, voluntary_draw: false, manual_scoring: false, play_scoring: 'fives', award: 'difference', cross_first: false };
  check(formProblems(six).startsWith('5 tiles each for 6 players cannot be dealt from the double-six (28 tiles): choose 3 to 4'), 'form: a hand too big for the set', formProblems(six));
  eq(formProblems({ ...six, set: 12 }), '', 'form: the party game on double-twelve is fine');
  check(formProblems({ ...six, set: 12, players: 5, partnerships: true }).startsWith('Partners need 4 or 6 players'), 'form: partners at five');
  check(formProblems({ ...six, set: 12, partnerships: true }) === '', 'form: partners at six');
  check(formProblems({ ...six, set: 12, cross_first: true }).startsWith('Cross first needs a spinner'), 'form: cross first without a spinner');
  check(formProblems({ ...six, set: 12, play_scoring: 'none', award: 'subtract-own' }).includes('no score could ever rise'), 'form: a game that never ends');
  const problems = [six, { ...six, set: 12, players: 5, partnerships: true }, { ...six, set: 12, cross_first: true }, { ...six, set: 12, voluntary_draw: true, drawing: false }].map(formProblems).join(' ');
  check(!/=|\btrue\b|\bfalse\b|_/.test(problems), 'form: problems in plain words', problems);
  eq([maxPlayers(6), maxPlayers(9), maxPlayers(12), maxHand(12, 8), maxHand(6, 4)], [8, 8, 8, 11, 7], 'form: players and hands a set allows');
  eq(plainRulesWords('partnerships need 4 or 6 players, not 5; use partnerships=false'), 'partnerships need 4 or 6 players, not 5; use “every player for themselves”', 'form: a server message in words');
  const party = { name: 'party-twelve', set: 12, players: [5, 8], rules: [2, 3, 4, 5, 6, 7, 8].map((n) => ({ players: n, set: 12, hand_size: 5, target: 200, spinner: 'none' })), hands: [{ set: 6, hand_size: [5, 5, 5, 5, 5, 5, 5] }, { set: 9, hand_size: [5, 5, 5, 5, 5, 5, 5] }, { set: 12, hand_size: [5, 5, 5, 5, 5, 5, 5] }] };
  const fiveUp = { name: 'five-up', set: 6, players: [2, 4], rules: [2, 3, 4, 5, 6, 7, 8].map((n) => ({ players: n, set: 6, hand_size: n === 2 ? 7 : n <= 4 ? 5 : 3, target: 250, spinner: 'first' })), hands: [{ set: 6, hand_size: [7, 5, 5, 3, 3, 3, 3] }, { set: 9, hand_size: [9, 7, 7, 6, 5, 5, 4] }, { set: 12, hand_size: [12, 10, 9, 7, 6, 5, 5] }] };
  eq([presetRulesFor(fiveUp, 6, 12).hand_size, presetRulesFor(fiveUp, 6, 12).set, presetRulesFor(fiveUp, 2, 6).hand_size], [6, 12, 7], 'form: a preset on another set takes that set\'s hand');
  const opts2 = [{ key: 'set', field: 'set' }, { key: 'players', field: 'players' }, { key: 'target', field: 'target' }, { key: 'hand', field: 'hand_size' }];
  eq(formOptions(fiveUp, 6, 12, opts2, { set: '12', target: '250', hand: '6' }), 'five-up players=6 set=12', 'form: the set is sent when it is not the game\'s own');
  eq(formOptions(party, 6, 12, opts2, { set: '12', target: '100', hand: '5' }), 'party-twelve players=6 target=100', 'form: the game\'s own set is not sent');
  // Who leads and why.
  const leadSeats = [{ occupant: { kind: 'human', user: { name: 'Ann' } } }, { occupant: { kind: 'bot', level: 'club' } }];
  eq([
    leadWords(leadSeats, 1, 'lot', null, { first_lead: 'lot' }),
    leadWords(leadSeats, 0, 'highest-double', '12-12', { first_lead: 'highest-double-any' }),
    leadWords(leadSeats, 0, 'highest-double', '9-9', { first_lead: 'top-double' }),
    leadWords(leadSeats, 1, 'highest-double', '5-5', {}),
  ], [
    'Blaise (computer) was chosen by lot to lead, with any tile',
    'Ann holds 12-12, the highest double dealt, and leads with any tile',
    'Ann holds 9-9, the set\'s top double, and must lead it',
    'Blaise (computer) holds 5-5, the highest double dealt, and must lead it',
  ], 'lead: who leads and why, in words');
  // Cross Dominoes: an arm waiting for the cross has its end marked as waiting.
  const crossTree = { root: '4-4', count: 0, arms: [
    { id: 'W', anchor: { kind: 'root' }, tiles: placedLine(['4-2'], 4), open: false, end: 2 },
    { id: 'E', anchor: { kind: 'root' }, tiles: [], open: true, end: 4 },
    { id: 'N', anchor: { kind: 'sprout', double: '4-4', arm: null, index: 0 }, tiles: [], open: true, end: 4 },
    { id: 'S', anchor: { kind: 'sprout', double: '4-4', arm: null, index: 0 }, tiles: [], open: true, end: 4 },
  ] };
  const gx = layoutGeometry(crossTree, { waiting: ['W'] });
  eq(gx.ends.map((e) => [e.arm, e.waiting]), [['W', true], ['E', false], ['N', false], ['S', false]], 'geometry: the waiting arm\'s end is marked');
  eq(layoutGeometry(crossTree).ends.map((e) => e.arm), ['E', 'N', 'S'], 'geometry: without the cross, closed arms have no end');

  // Replay positions: the deal, then every action, hand after hand.
  const rp = positions({ hands: [{ steps: [{}, {}] }, { steps: [{}] }] });
  eq(rp.map((p) => [p.hi, p.index]), [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]], 'replay: one position per deal and per action');

  // Tournament views (tourview.js), from answers shaped as GET /api/tournaments/{id}'s.
  {
  const names = { 1: 'Ann', 2: 'Bob', 3: 'Cy', 4: 'Di' };
  const nameOf = (e) => (e == null ? 'bye' : names[e]);
  const noGames = () => [];
  eq([formatWords({ kind: 'swiss', rounds: 1 }), formatWords({ kind: 'knockout', double: true }), formatWords({ kind: 'arena', duration_ms: 1800000 })],
    ['Swiss, 1 round', 'Knockout, double elimination', 'Arena, 30 minutes'], 'tournament: formats in words');
  eq(rulesWords('all-fives players=4 partnerships=true target=150'), 'All Fives (first lead by lot), in partnerships, to 150', 'tournament: rules in words');
  eq([fmtPoints(0.5), fmtPoints(2.5), fmtPoints(3), fmtPoints(1.25), fmtPoints(-2.5), fmtPoints(-0.5), fmtPoints(0)], ['½', '2½', '3', '1.25', '-2½', '-½', '0'], 'tournament: half points');
  // The clocks in words; settings the page does not know by name are still listed.
  const settings = settingsLines({ name: 'x', format: { kind: 'swiss', rounds: 3 }, rules: 'five-up', best_of: 3, start_when: 8, match_clock_ms: 900000, turn_ms: 30000, no_show_ms: 120000, max_entrants: 16, min_rating: 1200, pause_ms: 90000 });
  eq(settings.map((l) => l.join(': ')), ['Format: Swiss, 3 rounds', 'Rules: Five Up', 'Match: best of 3 games', 'Start: when 8 have joined',
    'Match clock: 15 minutes, then the hand in play decides', 'Turn clock: 30 seconds a move; the third time out loses the game', 'No-shows: lose the game after 2 minutes; no computer plays for anyone',
    'Entrants: at most 16', 'Ratings: 1200 and above', 'Pause: 1 min 30 s'], 'tournament: the settings in words');
  // What a game not played comes to: the no-show time, the turn clock (the no-show time unless
  // set), and no computer playing for anyone.
  eq([noShowWords({}), noShowWords({ no_show_ms: 300000, turn_ms: 30000 })], [
    'Come to your table when called: if it waits 2 minutes for your first move, that game is lost and you are withdrawn. Once you have moved, 2 minutes without a move on your turn is a strike, and the third loses the game, whether you are at the table or not. No computer plays for anyone in a tournament.',
    'Come to your table when called: if it waits 5 minutes for your first move, that game is lost and you are withdrawn. Once you have moved, 30 seconds without a move on your turn is a strike, and the third loses the game, whether you are at the table or not. No computer plays for anyone in a tournament.',
  ], 'tournament: a game not played, in words');
  eq([formatWords({ kind: 'cut_throat', rounds: 4, min_seats: 3, max_seats: 4 }), formatWords({ kind: 'daylong', boards: 8, duration_ms: 86400000 }), formatWords({ kind: 'duplicate', boards: 6, scoring: 'difference' }), formatWords({ kind: 'round_robin', double: true })],
    ['Cut-throat tables of 3 to 4, 4 rounds', 'Daylong duplicate, 8 boards, open 24 hours', 'Duplicate, 6 boards, by difference', 'Double round robin'], 'tournament: every format in words');
  // A double-elimination bracket of three: the sides, the bye, the reset left out when void.
  const E = (e) => ({ Entrant: e });
  const m = (id, side, round, index, slots, status, result, winner) => ({ id, side, round, index, slots, status, result, winner: winner ?? 'Waiting', loser: 'Waiting', sources: [], winner_to: null, loser_to: null });
  const ko = { status: 'finished', cancelled: false, standings: [{ rank: 1, entrant: 2 }], bracket: [
    m(0, 'Winners', 1, 0, [E(1), 'Empty'], 'Walkover', null, E(1)),
    m(1, 'Winners', 1, 1, [E(2), E(3)], 'Played', { games: [1, 0], drawn: 0, points: [50, 20] }, E(2)),
    m(2, 'Winners', 2, 0, [E(1), E(2)], 'Played', { games: [0, 1], drawn: 0, points: [30, 50] }, E(2)),
    m(3, 'Losers', 1, 0, ['Empty', E(3)], 'Walkover', null, E(3)),
    m(4, 'Losers', 2, 0, [E(3), E(1)], 'Played', { games: [0, 1], drawn: 0, points: [10, 50] }, E(1)),
    m(5, 'GrandFinal', 1, 0, [E(2), E(1)], 'Played', { games: [1, 0], drawn: 0, points: [50, 45] }, E(2)),
    m(6, 'Reset', 1, 0, ['Waiting', 'Waiting'], 'Void', null),
  ] };
  const games = (r, k) => (k === 5 ? [{ table: 'gf1', result: [true, [50, 45]] }] : []);
  const kb = bracketSection(ko, nameOf, games, new Set([2]));
  eq([...kb.querySelectorAll('.bside')].map((x) => x.dataset.side), ['Winners', 'Losers', 'GrandFinal'], 'bracket: winners, losers, grand final; a void reset left out');
  eq([...kb.querySelectorAll('[data-match="0"] .bname')].map((x) => x.textContent), ['Ann', 'bye'], 'bracket: a bye');
  eq([kb.querySelector('[data-match="5"] .bslot.won .bname').textContent, kb.querySelector('[data-match="5"] a').getAttribute('href'), kb.querySelector('#champion').textContent],
    ['Bob', '/game/gf1', 'Champion: Bob'], 'bracket: the grand final\'s winner, its replay, the champion');
  check(kb.querySelectorAll('.bracket-scroll[tabindex="0"][role="region"]').length === 3, 'bracket: each side scrolls in a box the keyboard reaches');
  // A round robin of four (Swiss-shaped rounds), finished: pairings and the crosstable.
  const rr = { status: 'finished', standings: [{ rank: 1, entrant: 1, points: 2.5 }, { rank: 2, entrant: 2, points: 2 }, { rank: 3, entrant: 3, points: 1 }, { rank: 4, entrant: 4, points: 0.5 }],
    rounds: [
      { pairings: [{ a: 1, b: 4 }, { a: 2, b: 3 }], results: [{ games: [1, 0], drawn: 0, points: [50, 10] }, { games: [1, 0], drawn: 0, points: [50, 40] }] },
      { pairings: [{ a: 4, b: 3 }, { a: 1, b: 2 }], results: [{ games: [0, 0], drawn: 1, points: [40, 40] }, { games: [0, 0], drawn: 1, points: [30, 30] }] },
      { pairings: [{ a: 2, b: 4 }, { a: 3, b: 1 }], results: [{ games: [1, 0], drawn: 0, points: [50, 0] }, { games: [0, 1], drawn: 0, points: [0, 50] }] },
    ] };
  const ct = crosstable(rr, nameOf);
  eq([...ct.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent).join(' ')),
    ['1 Ann × ½ 1 1 0 2½', '2 Bob ½ × 1 1 0 2', '3 Cy 0 0 × ½ 0 1', '4 Di 0 0 ½ × 0 ½'], 'crosstable: each result against each opponent, in standings order');
  check(crosstable({ ...rr, status: 'running' }, nameOf) === null, 'crosstable: only once the event is over');
  eq([...roundsSection(rr, nameOf, noGames).querySelectorAll('[data-round="2"] li')].map((li) => li.textContent), ['Di v Cy 0–0, 1 drawn (40–40)', 'Ann v Bob 0–0, 1 drawn (30–30)'], 'pairings: round 2 with its results');
  // Duplicate boards: the commitment from the start, the seed once published, verified here.
  const seed = '00'.repeat(32);
  const commit = await deal.sha256Hex(deal.hexToBytes(seed));
  const dup = { boards: [
    { board: 1, commit, seed, average: 12.5, results: [{ entrant: 1, score: 30, matchpoints: 2, diff: 17.5, table: 't1' }, { entrant: 2, score: -5, matchpoints: 0, diff: -17.5, table: null }] },
    { board: 2, commit: 'ab'.repeat(32), seed: null, average: null, results: [{ entrant: 3, score: 0, matchpoints: 1, diff: 0, table: 't9' }] },
  ], closes_ms: Date.UTC(2030, 0, 1) };
  const bs = boardsSection(dup, nameOf);
  eq([...bs.querySelectorAll('[data-board="1"] tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent).join('|')),
    ['Ann|30|2|17.5|replay', 'Bob|-5|0|-17.5|'], 'boards: each entrant\'s result');
  check(bs.querySelector('[data-board="2"]').textContent.includes('published when the event ends') && !bs.querySelector('[data-board="2"] button'), 'boards: no seed, no verify button, until the end');
  document.body.append(bs);
  bs.querySelector('[data-board="1"] button').click();
  for (let i = 0; i < 50 && !bs.querySelector('.verify-board').textContent; i += 1) await new Promise((r) => setTimeout(r, 20));
  check(bs.querySelector('.verify-board').classList.contains('ok'), 'boards: the published seed verified against its commitment', bs.querySelector('.verify-board').textContent);
  bs.remove();
  // Cut-throat tables, an arena's matches, and the table of yours now.
  const cut = { tables: [[{ table: 'c1', entrants: [1, 2, 3], scores: [50, 20, 35] }], [{ table: 'c2', entrants: [3, 1, 2], scores: null }]] };
  eq([...cutThroatSection(cut, nameOf).querySelectorAll('li')].map((li) => li.textContent), ['Table 1: Ann 50, Bob 20, Cy 35 replay', 'Table 1: Cy, Ann, Bob watch'], 'cut-throat: tables per round');
  eq(myTable(cut, new Set([1]), new Map()), 'c2', 'cut-throat: your table now');
  const ar = { matches: [{ a: 1, b: 2, started_ms: 0, result: { games: [1, 0], drawn: 0, points: [50, 5] } }, { a: 3, b: 4, started_ms: 5 }], games: [{ round: 0, match: 1, games: [{ table: 'a2', result: null }] }] };
  eq([...arenaSection(ar, nameOf, (r, k) => ar.games.find((g) => g.match === k)?.games || []).querySelectorAll('li')].map((li) => li.textContent),
    ['Cy v Di playing game 1: watch', 'Ann v Bob 1–0 (50–5)'], 'arena: the newest match first');
  eq([myTable(ar, new Set([4]), matchSides(ar)), myTable(ar, new Set([1]), matchSides(ar))], ['a2', null], 'arena: your table while your match is played');
  // A duplicate event's games are keyed (board, entrant): the open board is yours to go back
  // to, the list speaks of boards, and the table's place is its board.
  const dupRun = { boards: [{ board: 1, results: [], hidden: false }, { board: 2, results: [], hidden: true }],
    games: [{ round: 0, match: 1, games: [{ table: 'b1', result: [true, [30, 5]] }] }, { round: 1, match: 1, games: [{ table: 'b2', result: null }] }] };
  eq([myTable(dupRun, new Set([1]), matchSides(dupRun)), myTable(dupRun, new Set([2]), matchSides(dupRun))], ['b2', null], 'duplicate: your open board');
  eq([...allGames(dupRun, nameOf, matchSides(dupRun)).querySelectorAll('li')].map((li) => li.textContent), ['Board 1 · Ann · board 1 replay', 'Board 2 · Ann · board 2: play'], 'duplicate: every game by board');
  eq([tablePlace(dupRun, 'b2'), tablePlace(ar, 'a2')], ['Board 2', ''], 'duplicate: a table\'s place is its board');
  eq([shortRules({ players: 2, target: 250, hand_limit: 1 }), shortRules({ players: 2, target: 250, hand_limit: 0 })], ['2 players · one hand', '2 players · to 250'], 'rules: a one-hand board in a few words');
  // Tie-breaks headed short, each said in full.
  eq([tieHeading('Sonneborn-Berger'), tieHeading('points +/-'), tieHeading('some new rule')], [['SB', 'Sonneborn-Berger'], ['±', 'point difference'], ['Some new rule', null]], 'standings: tie-break headings');
  const st = standingsTable([{ rank: 1, entrant: 1, points: 1, record: { won: 1, drawn: 0, lost: 0 }, tiebreaks: [{ name: 'Buchholz', value: 0 }, { name: 'on streak', value: 1 }] }], nameOf, new Set());
  eq([[...st.querySelectorAll('th')].map((x) => x.textContent), st.querySelector('#tie-key').textContent], [['Rank', 'Entrant', 'Points', 'W-D-L', 'BchBuchholz', 'Streakon streak'], 'Tie-breaks: Bch = Buchholz, Streak = on streak.'], 'standings: short headings and their key');
  // A single knockout: its rounds' headings in order, its box named, its caption.
  const single = { status: 'running', standings: [], bracket: [m(0, 'Winners', 1, 0, [E(1), E(2)], 'Played', { games: [1, 0], drawn: 0, points: [50, 20] }, E(1)), m(1, 'Winners', 1, 1, [E(3), E(4)], 'Ready', null), m(2, 'Winners', 2, 0, [E(1), 'Waiting'], 'Pending', null)] };
  const sb = bracketSection(single, nameOf, noGames, new Set());
  eq([[...sb.querySelectorAll('h2, h3, h4')].map((x) => `${x.tagName} ${x.textContent}`), sb.querySelector('.bracket-scroll').getAttribute('aria-label'), sb.querySelector('.scroll-cue').textContent],
    [['H2 Bracket', 'H3 Semi-finals', 'H3 Final'], 'Bracket, scrolls sideways', 'Scroll sideways for the final →'], 'bracket: one side\'s rounds as h3, its box named, its cue');
  eq([...kb.querySelectorAll('h2, h3, h4')].map((x) => x.tagName).join(' '), 'H2 H3 H4 H4 H3 H4 H4 H3', 'bracket: sides h3, their rounds h4');
  }

  return { passed, failed, lines };
}
