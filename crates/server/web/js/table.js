// The table: the layout, your hand, the count, scores and tallies, the log, chat, hints, the
// deal proof, the end-of-hand summary and the end of the game.
import { h, s, mount, announce } from './dom.js';
import { askFirst } from './dom.js';
import { withIcons } from './panels.js';
import { api } from './api.js';
import { Conn, randomSeedHex } from './conn.js';
import { renderBoard, armName, resetZoom } from './board.js';
import { playOrder } from './geometry.js';
import { tileSvg, tileWords } from './tiles.js';
import { seatName, sideName, actionWords, entryWords, shortRules, valueUnit, rulesLines, leadWords, gameName, levelWords, helpWords } from './format.js';
import { proofBlock, hex } from './verifyview.js';
import { scoresPanel, seatsPanel, seatPlaces, summary, clockText, seatLabel, corrClock } from './panels.js';
import { go } from './context.js';
import { muted, mutePlayer, loadMuted, moveDeadline, corrTitle, corrNote, clockWords } from './corr.js';
import { refreshBadge } from './corr.js';
import { tablePlace } from './tourview.js';
import { openReport } from './moderation.js';

/** How long a table with open seats waits for players before the page offers computer players. */
const WAIT_OFFER_MS = 15000;

/** How long before the server stops waiting for seeds the page sends its own by itself. */
const AUTO_SEED_MARGIN_MS = 2500;

export async function tablePage(main, { params: [id], query, app }) {
  const st = {
    view: null, version: 0, selected: null, hint: null, hintPending: false, drawn: null,
    chat: [], info: null, readyNext: false, seedFor: null, pending: null, error: '', hideSummary: null,
    dealAt: null, kept: null, showKept: false,
  };
  // The turn clock: when the seat to move began its turn (this page's clock), and how long a
  // disconnected player's turn waits before a computer plays for them.
  const clock = { since: Date.now(), takeover: 0, key: '', redraw: () => { if (st.view) render(); } };
  // A correspondence table's clock: the deadline of the move waited for (corr.js).
  clock.deadline = moveDeadline(id, clock.redraw);
  let seedWaitSecs = 30;
  // The server's presets, to name the game the table plays ("Cross Dominoes").
  let presets = null;
  const configLoaded = api.config().then((c) => {
    clock.takeover = c.takeover_secs || 0; seedWaitSecs = c.seed_wait_secs || 30; presets = c.presets || [];
    if (st.view) render();
  }).catch(() => {});
  const invite = query.get('invite');
  const el = {
    root: h('section', { class: 'table-page', 'aria-label': 'the table' }),
    board: s('svg', { id: 'board', class: 'board', role: 'group', 'aria-label': 'the layout', preserveAspectRatio: 'xMidYMid meet' }),
    count: h('div', { id: 'count', class: 'count', role: 'status', 'aria-live': 'polite' }),
    chatList: h('ol', { class: 'chat-lines', 'aria-label': 'chat', tabindex: 0 }),
  };
  let conn = null;

  const send = (m) => conn && conn.send(m);
  const act = (action) => {
    if (!st.view) return;
    st.pending = action;
    st.selected = null;
    st.drawn = null;
    st.error = '';
    send({ type: 'act', id: conn.nextId('a'), version: st.version, action });
    render();
  };
  // Drawing without a click per tile: "Draw until a tile fits" draws, one `act` at a time,
  // each acknowledged and stored like any move, until a tile in the hand fits (or the rules or
  // the boneyard stop it); the automatic setting does the same, and passes, whenever the
  // player has no tile to play. Under draw-one rules only one tile is drawn a turn.
  const draws = { on: localStorage.getItem('fiveup-autodraw') === 'on', run: false, timer: null };
  const noPlay = (v) => v && v.you != null && v.to_move === v.you && v.winner == null
    && (v.legal || []).length > 0 && !(v.legal || []).some((l) => l.tile);
  const forcedMove = (v) => {
    if (!noPlay(v)) return null;
    const legal = v.legal;
    if (legal.some((l) => l.action === 'D') && (draws.run || draws.on)) return 'D';
    if (draws.on && legal.every((l) => l.action === 'P')) return 'P';
    return null;
  };
  const autoStep = () => {
    const v = st.view;
    if (draws.run && !(noPlay(v) && v.legal.some((l) => l.action === 'D'))) draws.run = false;
    const move = forcedMove(v);
    if (!move || st.pending || draws.timer) return;
    const version = st.version;
    const pause = window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 50 : 350;
    draws.timer = setTimeout(() => {
      draws.timer = null;
      if (st.version === version && !st.pending && forcedMove(st.view) === move) act(move);
    }, pause);
  };
  const drawUntil = () => { draws.run = true; autoStep(); renderPlayArea(); };
  const autoDrawToggle = (v) => {
    if (v.you == null || !v.table.rules.drawing || v.table.seats[v.you]?.resigned || v.winner != null) return null;
    const box = h('input', { type: 'checkbox', id: 'auto-draw', checked: draws.on });
    box.addEventListener('change', () => {
      draws.on = box.checked;
      localStorage.setItem('fiveup-autodraw', draws.on ? 'on' : 'off');
      announce(draws.on ? 'You will draw and pass automatically when no tile fits' : 'Automatic drawing is off');
      autoStep();
    });
    return h('label', { class: 'auto-draw', for: 'auto-draw' }, box, ' Draw for me when no tile fits');
  };
  const maybeSendSeed = () => {
    const v = st.view;
    if (!v || v.you == null || v.seed_sent || !v.proof || v.winner != null) return;
    if (v.table.status !== 'dealing') return;
    // After a hand the seed goes with "Next hand", or by itself just before the server's wait
    // runs out, so no hand is ever dealt without this player's seed.
    if (v.last_hand && !st.readyNext && !(st.dealAt && Date.now() >= st.dealAt - AUTO_SEED_MARGIN_MS)) return;
    if (st.seedFor === v.proof.hand) return;
    st.seedFor = v.proof.hand;
    send({ type: 'seed', id: conn.nextId('s'), hand: v.proof.hand, seed: randomSeedHex() });
  };
  // Parts that keep their state across redraws: open <details>, and proof blocks with the
  // result of a verification. A <details> is closed until opened, or, given `byDefault`, open
  // as that says (it may follow the window) until the player opens or closes it.
  const opened = new Set();
  const chosen = new Set();
  const keptDetails = (key, attrs, summaryText, ...children) => {
    const { byDefault, ...rest } = attrs;
    const open = byDefault && !chosen.has(key) ? byDefault() : opened.has(key);
    const d = h('details', { ...rest, open }, h('summary', {}, summaryText), ...children);
    d.addEventListener('toggle', () => {
      // Setting `open` while drawing fires a toggle too: only the player's counts.
      if (d.open === open) return;
      chosen.add(key);
      if (d.open) opened.add(key); else opened.delete(key);
    });
    return d;
  };
  const proofEls = new Map();
  // Each hand that ended while this page was open: its history and the hands left, for the
  // full check of its deal.
  const handsSeen = new Map();
  const actions = {
    keptProof: (key, make) => {
      if (!proofEls.has(key)) proofEls.set(key, make());
      return proofEls.get(key);
    },
    next: () => { st.readyNext = true; maybeSendSeed(); render(); },
    // Asking for a rematch, or accepting one someone asked for: the answer seats us at the
    // new table.
    rematch: () => { st.rematchId = conn.nextId('r'); send({ type: 'rematch', id: st.rematchId }); },
    hideSummary: () => { st.hideSummary = st.view?.last_hand?.hand ?? null; render(); },
    closeKept: () => { st.showKept = false; render(); },
  };

  const legalFor = (tile) => (st.view?.legal || []).filter((l) => l.tile === tile);
  const chooseTile = (tile) => {
    const plays = legalFor(tile);
    if (!plays.length) { announce(`${tileWords(tile)} does not fit`); return; }
    if (plays.length === 1) { act(plays[0].action); return; }
    st.selected = st.selected === tile ? null : tile;
    renderPlayArea();
    if (st.selected) {
      announce(`${tileWords(tile)} selected: choose an end`);
      const first = el.root.querySelector('.ends-bar button');
      if (first) first.focus();
    }
  };
  const chooseEnd = (arm) => {
    if (!st.selected) return;
    const play = legalFor(st.selected).find((l) => (l.arm ?? null) === arm);
    if (play) act(play.action);
  };

  // Drag and drop with pointer events (mouse, pen and touch alike).
  let drag = null;
  const onPointerDown = (ev, tile) => {
    if (!legalFor(tile).length) return;
    drag = { tile, x: ev.clientX, y: ev.clientY, ghost: null, moved: false, pointer: ev.pointerId };
  };
  const onPointerMove = (ev) => {
    if (!drag || ev.pointerId !== drag.pointer) return;
    if (!drag.moved && Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 8) return;
    if (!drag.moved) {
      drag.moved = true;
      st.selected = drag.tile;
      renderPlayArea();
      drag.ghost = h('div', { class: 'ghost', 'aria-hidden': 'true' }, tileSvg(drag.tile, { label: false }));
      document.body.append(drag.ghost);
    }
    drag.ghost.style.left = `${ev.clientX}px`;
    drag.ghost.style.top = `${ev.clientY}px`;
    ev.preventDefault();
  };
  const onPointerUp = (ev) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;
    d.ghost?.remove();
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    const end = under && under.closest('[data-arm]');
    st.suppressClick = true;
    setTimeout(() => { st.suppressClick = false; }, 0);
    if (end) {
      const arm = end.dataset.arm === 'lead' ? null : end.dataset.arm;
      const play = legalFor(d.tile).find((l) => (l.arm ?? null) === arm);
      if (play) { act(play.action); return; }
    }
    if (legalFor(d.tile).length === 1 && under && under.closest('#board')) { act(legalFor(d.tile)[0].action); return; }
    renderPlayArea();
  };
  window.addEventListener('pointermove', onPointerMove, { passive: false });
  window.addEventListener('pointerup', onPointerUp);

  const onKey = (ev) => {
    if (!st.view || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    // Shortcuts never fire while a text field (or any form control) has focus.
    const focused = document.activeElement;
    if (ev.target.closest?.('input, textarea, select, [contenteditable]') || (focused && focused.closest?.('input, textarea, select, [contenteditable]'))) return;
    const legal = st.view.legal || [];
    const k = ev.key.toLowerCase();
    if (k === 'escape') { st.selected = null; renderPlayArea(); return; }
    if (k === 'd' && legal.some((l) => l.action === 'D')) { act('D'); return; }
    if (k === 'p' && legal.some((l) => l.action === 'P')) { act('P'); return; }
    if (k === 'h') { if (!st.view?.table.counts) askHint(); return; }
    if (/^[1-9]$/.test(k)) {
      const t = st.view.my_tiles[Number(k) - 1];
      if (t) { el.root.querySelector(`.hand-tile[data-tile="${t}"]`)?.focus(); chooseTile(t); }
      return;
    }
    if (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') {
      const tiles = [...el.root.querySelectorAll('.hand-tile')];
      const i = tiles.indexOf(document.activeElement);
      if (i >= 0) {
        ev.preventDefault();
        tiles[(i + (ev.key === 'ArrowLeft' ? tiles.length - 1 : 1)) % tiles.length].focus();
      }
    }
  };
  document.addEventListener('keydown', onKey);

  const hintBest = () => {
    const best = st.hint.evals[0];
    return best ? h('span', { class: 'hint-best' }, ` · best: ${actionWords(best.action)}, ${best.mean >= 0 ? '+' : ''}${best.mean.toFixed(1)}`) : null;
  };
  const askHint = () => {
    // A forced move has nothing to weigh: no hint for it.
    if (!st.view || (st.view.legal || []).length < 2 || st.hintPending) return;
    st.hintPending = true;
    st.hint = null;
    send({ type: 'hint', id: conn.nextId('h') });
    renderPlayArea();
  };

  // ---- drawing ----
  const playArea = h('div', { class: 'play-area' });
  const handArea = h('div', { class: 'hand-area' });
  const side = h('div', { class: 'side' });
  const top = h('div', { class: 'top-area' });
  const overlay = h('div', { class: 'overlay-slot' });
  const logList = h('ol', { class: 'log', 'aria-label': 'actions this hand', tabindex: 0 });

  function promptText(v) {
    if (v.table.status === 'waiting') return 'Waiting for players';
    if (v.winner != null) return `Game over: ${sideName(v.table.seats, v.sides, v.winner)} won`;
    if (v.phase !== 'play' && v.phase !== 'claim') {
      if (v.table.status === 'dealing') return v.last_hand ? 'Hand over' : 'Shuffling: waiting for the players\' seeds';
      return '';
    }
    const legal = v.legal || [];
    if (v.you != null && v.to_move === v.you && legal.length) {
      if (legal.every((l) => l.action === 'D')) return 'No tile fits: you must draw';
      if (legal.every((l) => l.action === 'P')) return 'No tile fits and nothing to draw: you must pass';
      if (v.phase === 'claim') return 'Claim the points your play made (or more, at your risk)';
      if (legal.some((l) => l.tile && l.arm == null)) return 'Your lead: choose a tile';
      return st.selected ? `Choose an end for ${st.selected}` : 'Your turn: choose a tile';
    }
    if (v.you != null && v.to_move === v.you && v.table.seats[v.you]?.resigned) return 'The computer plays your seat';
    return `${seatName(v.table.seats, v.to_move)} to play`;
  }

  // The button that opens the result of the hand just over (hidden to look at the table), or of
  // the last hand during the next one.
  function resultButton(v) {
    const kept = !v.last_hand && st.kept && st.kept.last_hand && v.winner == null ? st.kept : null;
    if (v.last_hand && st.hideSummary === v.last_hand.hand) {
      return h('button', { type: 'button', class: 'secondary show-summary', id: 'show-summary', onClick: () => { st.hideSummary = null; render(); } }, `Hand ${v.last_hand.hand} result`);
    }
    if (kept && !st.showKept) return h('button', { type: 'button', class: 'secondary show-summary', id: 'last-hand', onClick: () => { st.showKept = true; render(); } }, `Last hand (${kept.last_hand.hand}): result`);
    return null;
  }

  // Resign (a computer player plays your seat to the end; your side's win would not count as
  // yours) or leave (the same, and back to the lobby): asked twice, on the page itself. At a
  // tournament table no computer plays for anyone: resigning loses the game at once.
  function resignControls(v) {
    if (v.you == null || v.winner != null || !['dealing', 'playing'].includes(v.table.status)) return null;
    const me = v.table.seats[v.you];
    if (me.resigned) return h('span', { class: 'note', id: 'resigned' }, 'You resigned: a computer player plays your seat to the end.');
    const leave = async (andGo) => {
      try { await api.leave(id); if (andGo) go('/'); else { st.confirmResign = false; render(); } } catch (e) { st.error = e.message; render(); }
    };
    if (st.confirmResign) {
      const what = v.table.tournament ? 'Resign this game? It is lost at once, the scores as they stand.' : 'Resign this game? A computer player finishes it for you and it counts as a loss.';
      return h('span', { class: 'confirm row', role: 'group', 'aria-label': 'resign' }, what,
        h('button', { type: 'button', id: 'resign-yes', onClick: () => leave(false) }, 'Resign'),
        h('button', { type: 'button', id: 'leave-yes', onClick: () => leave(true) }, 'Resign and leave'),
        h('button', { type: 'button', class: 'secondary', onClick: () => { st.confirmResign = false; render(); } }, 'Keep playing'));
    }
    return h('button', { type: 'button', class: 'secondary', id: 'resign', onClick: () => { st.confirmResign = true; render(); } }, 'Resign or leave');
  }

  // Manual scoring (Muggins): the player states the points their play made; the page never
  // shows the figure (that is the game), only a field to claim any number, or nothing.
  function claimForm(legal) {
    const claims = legal.filter((l) => /^C\d+$/.test(l.action));
    if (!claims.length) return null;
    const input = h('input', { id: 'claim-points', type: 'number', min: 0, max: 99, step: 1, inputmode: 'numeric', value: '', 'aria-label': 'points you claim' });
    const send = (n) => {
      const want = `C${n}`;
      if (!claims.some((l) => l.action === want)) {
        act('C0');
        st.note = `You claimed ${n}, which is not what your play made: that counts as claiming nothing, and the others may call Muggins.`;
        announce(st.note);
        renderPlayArea();
        return;
      }
      st.note = '';
      act(want);
    };
    return h('form', { class: 'claim-form row', id: 'claim-form', onSubmit: (ev) => { ev.preventDefault(); const n = Number.parseInt(input.value, 10); if (Number.isFinite(n) && n >= 0) send(n); } },
      h('label', { for: 'claim-points' }, 'Points you claim'), input,
      h('button', { type: 'submit', id: 'claim-go' }, 'Claim'),
      h('button', { type: 'button', class: 'secondary', id: 'claim-none', onClick: () => act('C0') }, 'Claim nothing'));
  }

  function renderPlayArea() {
    const v = st.view;
    if (!v) return;
    const legal = v.legal || [];
    const targets = new Map();
    if (st.selected) for (const l of legalFor(st.selected)) if (l.arm) targets.set(l.arm, l.action);
    const leadTarget = st.selected && legalFor(st.selected).some((l) => l.arm == null);
    const last = [...(v.history || [])].reverse().find((e) => e.kind === 'play');
    const fly = st.fly && st.fly.version === st.version ? st.fly : null;
    el.count.replaceChildren(h('span', { class: 'label' }, 'Count'), h('span', { class: 'value', 'aria-label': `count ${v.count}` }, String(v.count)));
    // Games whose plays score nothing (Cross Dominoes, Draw, Block) have no count to watch.
    el.count.hidden = v.table.rules.play_scoring === 'none';
    // The count box sits over the board's corner: the layout is drawn out from under it.
    renderBoard(el.board, v.layout, { openEnds: v.open_ends, targets, onEnd: (arm) => chooseEnd(arm), lastTile: last?.tile, leadTarget, order: playOrder(v.history), fly, waiting: v.waiting || [], wind: v.table.rules.spinner === 'none', set: v.table.rules.set || 6, zoomable: true, avoid: el.count });
    const mustDraw = v.to_move === v.you && legal.length > 0 && legal.every((l) => l.action === 'D');
    const prompt = promptText(v);
    const tiles = v.my_tiles || [];
    const hintFor = new Map((st.hint?.evals || []).map((e, i) => [e.action, { ...e, rank: i }]));
    // Keyboard players keep their place: focus returns to the same tile (or the next sensible
    // control) after every redraw.
    const active = document.activeElement;
    const hadFocus = active && (handArea.contains(active) || playArea.contains(active)) ? (active.dataset.tile || active.id || 'any') : null;
    mount(playArea,
      h('p', { id: 'prompt', class: ['prompt', mustDraw ? 'must-draw' : '', v.to_move === v.you && legal.length ? 'yours' : ''], role: 'status', 'aria-live': 'polite' }, withIcons(prompt)),
      v.you != null && v.to_move === v.you && legal.length && v.table.correspondence
        ? h('p', { class: 'clock my-clock corr-move', id: 'my-clock' }, 'Your move: ', clock.deadline.of(v.you) ? corrClock(clock.deadline.of(v.you)) : clockWords(v.table.correspondence)) : null,
      v.you != null && v.to_move === v.you && legal.length && !v.table.correspondence ? h('p', { class: 'clock my-clock', id: 'my-clock', 'data-since': clock.since }, 'Your time on this turn: ', h('span', { class: 'clock-t' }, clockText(clock.since, 0))) : null,
      // Before the lead: who leads and why (the lot, or the tile shown for the lead).
      (v.phase === 'play' || v.phase === 'claim') && v.layout && !v.layout.root && v.leader != null
        ? h('p', { class: 'lead-note', id: 'lead-note' }, v.shown_tile ? tileSvg(v.shown_tile) : null, ' ', withIcons(`${leadWords(v.table.seats, v.leader, v.lead_kind, v.shown_tile, v.table.rules)}.`)) : null,
      // Cross Dominoes: only the cross's sides are open until it is complete.
      v.cross_pending && v.layout && v.layout.root
        ? h('p', { class: 'note', id: 'cross-note' }, 'Cross first: the sides of the first double are filled before any line grows; the marked ends wait.') : null,
      st.error ? h('p', { class: 'error', role: 'alert' }, st.error) : null,
      st.note ? h('p', { class: 'note', id: 'note' }, st.note) : null,
      st.drawn ? h('div', { class: 'drawn', id: 'drawn', role: 'status' }, h('span', {}, 'You drew'), tileSvg(st.drawn), h('span', {}, tileWords(st.drawn))) : null,
      st.selected && targets.size ? h('div', { class: 'ends-bar', role: 'group', 'aria-label': `ends for ${st.selected}` },
        `Play ${st.selected} on: `, legalFor(st.selected).filter((l) => l.arm).map((l) => h('button', { type: 'button', class: 'end-btn', 'data-arm': l.arm, onClick: () => act(l.action) },
          `${armName(l.arm)}${l.points ? ` (+${l.points})` : ''}`)),
        h('button', { type: 'button', class: 'secondary', onClick: () => { st.selected = null; renderPlayArea(); } }, 'Cancel')) : null);
    mount(handArea,
      v.you == null ? h('p', { class: 'spectator' }, 'You are watching: only what everyone may see is shown.') : h('ul', { class: 'hand', id: 'hand', 'aria-label': `your hand, ${tiles.length} tiles` }, tiles.map((t, i) => {
        const plays = legalFor(t);
        const ok = plays.length > 0;
        const best = plays.map((p) => hintFor.get(p.action)).filter(Boolean).sort((a, b) => a.rank - b.rank)[0];
        const label = `${tileWords(t)}${ok ? `, playable ${plays.map((p) => (p.arm ? `on ${armName(p.arm)}` : 'as the lead') + (p.points ? ` for ${p.points}` : '')).join(', ')}` : ''}`;
        const b = h('button', {
          type: 'button', class: ['hand-tile', ok ? 'playable' : '', st.selected === t ? 'selected' : '', t === st.drawnTile ? 'new' : '', best && best.rank === 0 ? 'best' : ''],
          'data-tile': t, 'aria-label': label, 'aria-pressed': st.selected === t ? 'true' : 'false', 'aria-keyshortcuts': i < 9 ? String(i + 1) : null,
          onClick: () => { if (!st.suppressClick) chooseTile(t); },
        }, tileSvg(t, { label: false }), best ? h('span', { class: 'hint-tag' }, best.mean.toFixed(1)) : null);
        b.addEventListener('pointerdown', (ev) => onPointerDown(ev, t));
        return h('li', {}, b);
      })),
      h('div', { class: 'actions row' },
        claimForm(legal),
        legal.filter((l) => !l.tile && !/^C\d+$/.test(l.action)).map((l) => h('button', {
          type: 'button', class: ['act', l.action === 'D' && mustDraw ? 'big' : ''], id: l.action === 'D' ? 'draw' : l.action === 'P' ? 'pass' : null, 'data-action': l.action, onClick: () => act(l.action),
        }, actionWords(l.action)[0].toUpperCase() + actionWords(l.action).slice(1), l.action === 'D' ? ` (${v.boneyard} left)` : '')),
        // Several draws in one action, where the rules allow more than one a turn.
        noPlay(v) && legal.some((l) => l.action === 'D') && !v.table.rules.draw_one
          ? h('button', { type: 'button', class: 'act', id: 'draw-until', disabled: draws.run, onClick: drawUntil }, draws.run ? 'Drawing…' : 'Draw until a tile fits') : null,
        autoDrawToggle(v),
        resignControls(v),
        // No computer help where the result counts (rated, tournament, correspondence): no
        // Hint button; the first hand says why, once.
        v.you != null && v.table.counts && v.hand_no <= 1 ? h('span', { class: 'no-help', id: 'no-help' }, 'No hints: this game counts') : null,
        v.you != null && !v.table.counts && !v.table.seats[v.you]?.resigned ? h('button', { type: 'button', id: 'hint', class: 'secondary', disabled: legal.length < 2 || st.hintPending, title: legal.length === 1 ? 'Only one move is possible' : null, onClick: askHint, 'aria-keyshortcuts': 'h' }, st.hintPending ? 'Thinking…' : 'Hint') : null,
        h('span', { class: 'boneyard', 'aria-label': `${v.boneyard} tiles in the boneyard` }, `Boneyard: ${v.boneyard}`),
        // Your own score beside your hand, as the other seats show theirs on their cards.
        v.you != null ? h('span', { class: 'my-score', id: 'my-score' }, `${v.table.rules.partnerships ? 'Your side' : 'You'}: ${v.scores[v.sides[v.you]] ?? 0} pts`) : null,
        // The last hand's result, reopened from here: in the row, so it never covers a control.
        resultButton(v)),
      // The hint's best play on one line, the whole list below it: on a phone the list starts
      // folded (one tap opens it), so the board keeps its height; wider windows show it open.
      st.hint ? keptDetails('hint', { class: 'hint-panel', byDefault: () => !window.matchMedia('(max-width: 480px)').matches },
        [h('h2', { id: 'hint-h' }, 'Hint'), hintBest()],
        h('p', { class: 'unit' }, `The expert's evaluation: what each play is worth to your side over the rest of the hand, ${valueUnit(v.table.rules, v.scores)}, on average over the deals the expert imagined, best first:`),
        h('ol', {}, st.hint.evals.map((e, i) => h('li', { class: i === 0 ? 'best' : '' },
          h('strong', {}, actionWords(e.action)), `: ${e.mean >= 0 ? '+' : ''}${e.mean.toFixed(1)}`,
          i > 0 ? h('span', { class: 'loss' }, ` (${(st.hint.evals[0].mean - e.mean).toFixed(1)} worse)`) : ' (best)'))),
        // How sure the estimates are, for those who ask: the standard error of each mean.
        keptDetails('hint-spread', { class: 'hint-spread' }, 'How sure is this?',
          h('p', {}, 'Each value is an average over sampled deals, so it is uncertain: the true value is usually within about two of these amounts of it (the standard error of the mean).'),
          h('ul', {}, st.hint.evals.map((e) => h('li', {}, `${actionWords(e.action)}: ${e.mean >= 0 ? '+' : ''}${e.mean.toFixed(1)} ± ${e.stderr.toFixed(1)}`))))) : null);
    if (hadFocus) {
      const again = (st.selected && playArea.querySelector('.ends-bar button'))
        || handArea.querySelector(`.hand-tile[data-tile="${hadFocus}"]`)
        || (hadFocus !== 'any' && document.getElementById(hadFocus))
        || handArea.querySelector('.hand-tile.playable') || handArea.querySelector('#draw, #pass')
        || handArea.querySelector('.hand-tile');
      if (again) again.focus({ preventScroll: true });
    }
  }

  // The side panel is built once: its parts are redrawn in place and the chat card (with the
  // text field someone may be typing in) is never rebuilt.
  const scoresSlot = h('div', { class: 'scores-slot' });
  const logHeading = h('h2', { id: 'log-h' });
  const verifySlot = h('div', { class: 'verify-slot' });
  let sideBuilt = false;
  function renderSide() {
    const v = st.view;
    const proofs = [...(v.proofs || [])].reverse();
    if (!sideBuilt) {
      sideBuilt = true;
      mount(side, scoresSlot,
        h('section', { class: 'card', 'aria-labelledby': 'log-h' }, logHeading, logList),
        h('section', { class: 'card chat', 'aria-labelledby': 'chat-h' }, h('h2', { id: 'chat-h' }, 'Chat'), el.chatList, chatForm),
        verifySlot);
      chatSeen.observe(side.querySelector('.card.chat'));
    }
    mount(scoresSlot, scoresPanel(v));
    logHeading.textContent = `Hand ${(v.last_hand && v.phase !== 'play' && v.phase !== 'claim' ? v.last_hand.hand : v.hand_no) || '—'}`;
    mount(logList, (v.history || []).map((e) => h('li', {}, withIcons(entryWords(e, v.table.seats)))));
    mount(verifySlot,
      h('section', { class: 'card verify', 'aria-labelledby': 'ver-h' }, h('h2', { id: 'ver-h' }, 'Fair deal'),
        v.proof ? h('div', { class: 'current-proof' },
          h('p', {}, `Hand ${v.proof.hand}: the server locked in its part of the shuffle before the deal, so it cannot change the deal afterwards; after the hand your browser can check it.`),
          keptDetails('commitment', { class: 'commitment' }, 'Show the commitment (its fingerprint)', hex('commitment', v.proof.commitment)),
          h('p', {}, `Seeds in from seat${v.proof.contributed.length === 1 ? '' : 's'}: ${v.proof.contributed.map((x) => x + 1).join(', ') || 'none yet'}`)) : null,
        proofs.length ? keptDetails('proofs', { class: 'past-proofs' }, 'Finished hands: seeds revealed',
          proofs.map((p) => {
            const current = v.last_hand && v.last_hand.hand === p.hand;
            // A hand seen to its end on this page is checked in full even later on.
            const seen = current ? { leadKind: v.lead_kind, known: { history: v.history, remaining: v.last_hand.hands, lot: v.lot } } : handsSeen.get(p.hand);
            return actions.keptProof(`${current ? 'now' : 'old'}-${p.hand}`, () => proofBlock(p, v.table.rules, seen ? seen.leadKind : null, seen ? seen.known : null));
          })) : null));
    logList.scrollTop = logList.scrollHeight;
  }

  function waitingPanel(v) {
    const info = st.info;
    const err = h('p', { class: 'error', role: 'alert' });
    const sit = async (req) => {
      try { await api.join(id, req); announce('You took a seat'); st.info = await api.table(id); } catch (e) { err.textContent = e.message; }
    };
    const invites = info?.invites || [];
    const host = info?.creator?.name;
    const invited = invite && v.you == null;
    const corr = v.table.correspondence;
    return h('section', { class: 'card waiting', 'aria-labelledby': 'wait-h' },
      h('h2', { id: 'wait-h' }, invited ? `${host || 'A friend'} invited you to a game of ${gameName(v.table.rules, presets)}${corr ? ` by correspondence (${clockWords(corr)})` : ''}` : 'Waiting for players'),
      corr ? h('p', { class: 'corr-note', id: 'corr-note' }, corrNote(corr)) : null,
      invited ? h('p', { class: 'invited' }, app.user ? `Take your seat as ${app.user.name}, or ` : 'Choose a nickname to play as a guest, or log in if you have an account. ', h('a', { href: '/how-to-play' }, 'learn how to play'), '.') : null,
      h('ul', { class: 'rules-lines', 'aria-label': 'the rules' }, rulesLines(v.table.rules).map((l) => h('li', {}, l))),
      h('p', { class: 'help-rule', id: 'help-rule' }, helpWords(v.table)),
      h('ul', { class: 'seats' }, v.table.seats.map((seat) => h('li', { 'data-seat': seat.seat },
        `Seat ${seat.seat + 1}: `, seatName(v.table.seats, seat.seat),
        seat.occupant.kind === 'open' && v.you == null && app.user ? h('button', { type: 'button', class: 'sit', onClick: () => sit({ seat: seat.seat }) }, 'Sit here') : null))),
      invite && v.you == null && app.user
        ? h('button', { type: 'button', id: 'join-invite', onClick: () => sit({ invite }) }, 'Take the seat you were invited to') : null,
      v.you == null && !app.user && (invite || v.table.seats.some((x) => x.occupant.kind === 'open')) ? [guestInline(), loginInline()] : null,
      invites.length ? h('div', { class: 'invites' }, h('h3', {}, 'Invite a friend'),
        invites.map((inv) => {
          const url = `${location.origin}${inv.path}`;
          return h('div', { class: 'invite' }, `Seat ${inv.seat + 1}: `, h('input', { class: 'invite-link', readonly: true, value: url, 'aria-label': `invitation link for seat ${inv.seat + 1}`, 'data-seat': inv.seat }),
            h('button', { type: 'button', onClick: () => navigator.clipboard?.writeText(url) }, 'Copy'));
        })) : null,
      offerComputers(v, err),
      v.you != null ? h('button', { type: 'button', class: 'secondary', onClick: async () => { try { await api.leave(id); go('/'); } catch (e) { err.textContent = e.message; } } }, 'Leave the table') : null,
      err);
  }

  // Nobody has come after a while (a quick match at a quiet hour): offer the same game at once
  // with computer players in the open seats (a new table; this one is left).
  function offerComputers(v, err) {
    const open = v.table.seats.filter((x) => x.occupant.kind === 'open').length;
    const alone = v.table.seats.every((x) => x.seat === v.you || x.occupant.kind === 'open');
    if (v.you == null || !open || !alone) { st.waitSince = null; return null; }
    if (!st.waitSince) st.waitSince = Date.now();
    if (Date.now() - st.waitSince < WAIT_OFFER_MS) return null;
    const level = h('select', { id: 'offer-level', 'aria-label': 'computer level' }, ['casual', 'club', 'strong'].map((l) => h('option', { value: l, selected: l === 'club' }, levelWords(l))));
    return h('div', { class: 'offer', id: 'offer-computers', role: 'status' },
      h('p', {}, `Nobody has come yet. Play now with ${open === 1 ? 'a computer player' : `${open} computer players`} in the open seat${open === 1 ? '' : 's'}?`),
      h('div', { class: 'row' }, level,
        h('button', { type: 'button', id: 'offer-go', onClick: async () => {
          try {
            const rules = st.info?.options || v.table.options;
            const seats = v.table.seats.map((x) => (x.seat === v.you ? { kind: 'me' } : { kind: 'bot', level: level.value }));
            await api.leave(id);
            const t = await api.createTable({ rules, seats, unlisted: true });
            go(`/table/${t.id}`);
          } catch (e) { err.textContent = e.message; }
        } }, 'Play the computer instead')));
  }

  function guestInline() {
    const nick = h('input', { id: 'guest-name', maxlength: 24, required: true });
    const err = h('span', { class: 'error', role: 'alert' });
    return h('form', { class: 'row', onSubmit: async (ev) => {
      ev.preventDefault();
      try {
        const me = await api.guest(nick.value.trim());
        app.setUser(me.user);
        await api.join(id, invite ? { invite } : {});
        location.reload();
      } catch (e) { err.textContent = e.message; }
    } }, h('label', { for: 'guest-name' }, 'Nickname'), nick, h('button', { type: 'submit', id: 'guest-go' }, 'Join as a guest'), err);
  }

  function loginInline() {
    const user = h('input', { id: 'inv-login-name', maxlength: 24, autocomplete: 'username' });
    const pass = h('input', { id: 'inv-login-pass', type: 'password', autocomplete: 'current-password' });
    const err = h('span', { class: 'error', role: 'alert' });
    return h('form', { class: 'row login-inline', 'aria-label': 'log in', onSubmit: async (ev) => {
      ev.preventDefault();
      try {
        const me = await api.login(user.value, pass.value);
        app.setUser(me.user);
        await api.join(id, invite ? { invite } : {});
        location.reload();
      } catch (e) { err.textContent = e.message; }
    } }, h('div', { class: 'field' }, h('label', { for: 'inv-login-name' }, 'User name'), user),
    h('div', { class: 'field' }, h('label', { for: 'inv-login-pass' }, 'Password'), pass),
    h('button', { type: 'submit', id: 'inv-login-go' }, 'Log in and sit down'), err);
  }

  const chatInput = h('input', { id: 'chat-input', maxlength: 500, 'aria-label': 'message', autocomplete: 'off' });
  const chatForm = h('form', { class: 'row', onSubmit: (ev) => {
    ev.preventDefault();
    const text = chatInput.value.trim();
    if (text) send({ type: 'chat', text });
    chatInput.value = '';
  } }, chatInput, h('button', { type: 'submit' }, 'Send'));
  let askMute = null;
  const renderChat = () => {
    // Lines from the table itself (a computer taking a seat over), and from people watching
    // rather than playing (no seat), marked as such.
    // A muted player's lines are hidden; each other person's line has a Mute action (its
    // word drawn by the style sheet, so that the line's text stays the line).
    mount(el.chatList, st.chat.filter((c) => c.system || !muted.has(c.from.id)).slice(-100).map((c) => (c.system
      ? h('li', { class: 'system' }, h('span', { class: 'tag' }, 'table'), ' ', c.text)
      : h('li', { class: c.seat == null ? 'watcher' : null },
        h('strong', {}, c.from.name), c.seat == null ? h('span', { class: 'tag watcher-tag' }, ' (watching)') : null, ': ', c.text,
        // Muting asks first, in place (one stray tap on a phone must not mute anyone).
        app.user && c.from.id !== app.user.id && askMute === c ? askFirst({ question: `Mute ${c.from.name}?`, yes: 'Mute', yesClass: 'mute-yes', noClass: 'mute-no',
          onYes: async () => {
            askMute = null;
            try { await mutePlayer(c.from.id); announce(`${c.from.name} is muted: unmute from your profile.`); } catch (e) { announce(e.message); }
            renderChat();
          },
          onNo: () => { askMute = null; renderChat(); el.chatList.querySelector(`button.mute[aria-label="Mute ${CSS.escape(c.from.name)}"]`)?.focus({ preventScroll: true }); } })
          : app.user && c.from.id !== app.user.id ? h('button', { type: 'button', class: 'secondary mute', 'aria-label': `Mute ${c.from.name}`, title: `Mute ${c.from.name}`, onClick: () => {
            askMute = c; renderChat(); el.chatList.querySelector('.mute-no')?.focus({ preventScroll: true });
          } }) : null,
        app.user && app.user.registered && c.from.id !== app.user.id && !c.from.bot ? h('button', { type: 'button', class: 'secondary report-line', 'aria-label': `Report ${c.from.name}'s line`, title: `Report ${c.from.name}'s line`, onClick: () => {
          openReport(c.from, { chat: { table: id, at: c.at, text: c.text }, reason: 'chat-abuse' });
        } }) : null))));
    el.chatList.scrollTop = el.chatList.scrollHeight;
    renderUnread();
  };
  // Unread chat: lines that came while the chat was out of sight (below the table on a phone,
  // or while the tab was hidden) are counted on the Chat button in the table's heading, which
  // brings the chat into view; the count clears once the chat is seen. Each line is also
  // announced politely to screen readers.
  const unread = { n: 0, seen: false };
  const chatToggle = h('button', { type: 'button', class: 'secondary chat-toggle', id: 'chat-toggle', onClick: () => {
    const card = el.root.querySelector('.card.chat');
    card?.scrollIntoView({ block: 'nearest', behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    chatInput.focus({ preventScroll: true });
    unread.n = 0;
    renderUnread();
  } });
  const renderUnread = () => {
    chatToggle.replaceChildren(...['Chat', unread.n ? h('span', { class: 'unread', 'aria-hidden': 'true' }, String(unread.n)) : null].filter(Boolean));
    chatToggle.setAttribute('aria-label', unread.n ? `Chat, ${unread.n} unread` : 'Chat');
    chatToggle.classList.toggle('has-unread', unread.n > 0);
  };
  const chatSeen = new IntersectionObserver((entries) => {
    unread.seen = entries.some((e) => e.isIntersecting);
    if (unread.seen && !document.hidden && unread.n) { unread.n = 0; renderUnread(); }
  }, { threshold: 0.4 });
  const onVisible = () => { if (!document.hidden && unread.seen && unread.n) { unread.n = 0; renderUnread(); } };
  document.addEventListener('visibilitychange', onVisible);
  if (app.user) loadMuted().then(() => renderChat());
  const chatArrived = (line) => {
    const mine = app.user && line.from && line.from.id === app.user.id;
    if (mine || muted.has(line.from?.id)) return;
    if (!unread.seen || document.hidden) unread.n += 1;
    announce(`Chat from ${line.from.name}${line.seat == null ? ', watching' : ''}: ${line.text}`);
  };

  // Motion and sound: the tile just laid slides in from its player's place, the points it
  // scored rise from the count, and a chime and the tab's title say when it is your turn
  // (sound can be switched off; motion follows prefers-reduced-motion, see style.css).
  const motion = (e, v, version) => {
    const tile = /^\d+-\d+/.exec(e.action || '')?.[0];
    if (tile) {
      const n = v.table.seats.length;
      const me = v.you ?? 0;
      let dx = 0; let dy = 0.6;
      if (e.seat !== v.you) {
        const places = seatPlaces(n, v.you ?? -1);
        [dx, dy] = places.left.includes(e.seat) ? [-0.6, 0] : places.right.includes(e.seat) ? [0.6, 0] : [0, -0.6];
      }
      st.fly = { tile, dx, dy, version, n, me };
    }
    if (e.points) {
      const wrap = el.root.querySelector('.board-wrap');
      // One at a time, under the count box (never over its figure).
      wrap?.querySelectorAll('.score-pop').forEach((old) => old.remove());
      const pop = h('div', { class: 'score-pop', 'aria-hidden': 'true' }, `+${e.points}`);
      wrap?.append(pop);
      setTimeout(() => pop.remove(), 1600);
    }
  };
  // Browsers let a page start audio only after a user gesture (a reloaded page has had none):
  // the audio starts with the first click, tap or key on the page, and until then the chime is
  // silent rather than refused with a console warning.
  const sound = { on: localStorage.getItem('fiveup-sound') !== 'off', ctx: null };
  const startAudio = () => {
    if (sound.ctx || typeof AudioContext === 'undefined') return;
    try { sound.ctx = new AudioContext(); } catch (_) { sound.ctx = null; }
  };
  // A touch counts as a gesture only when the finger lifts (a pointerdown from a finger does
  // not, and an AudioContext made then is refused with a warning): the audio starts on the
  // events that do count, and only once the page has had one.
  const GESTURES = ['pointerup', 'click', 'keydown'];
  const gesture = () => {
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
    startAudio();
    if (sound.ctx?.state === 'suspended') sound.ctx.resume().catch(() => {});
    if (sound.ctx) GESTURES.forEach((g) => document.removeEventListener(g, gesture, true));
  };
  GESTURES.forEach((g) => document.addEventListener(g, gesture, true));
  const chime = () => {
    if (!sound.on) return;
    // A page reached by a click in the app (the lobby's buttons) has had its gesture already.
    if (!sound.ctx && navigator.userActivation?.hasBeenActive) startAudio();
    const ctx = sound.ctx;
    if (!ctx) return;
    const ring = () => {
      try {
        [659.25, 987.77].forEach((f, i) => {
          const o = ctx.createOscillator(); const g = ctx.createGain();
          o.frequency.value = f; o.type = 'sine';
          const t0 = ctx.currentTime + i * 0.12;
          g.gain.setValueAtTime(0.0001, t0); g.gain.exponentialRampToValueAtTime(0.12, t0 + 0.02); g.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.35);
          o.connect(g).connect(ctx.destination); o.start(t0); o.stop(t0 + 0.4);
        });
      } catch (_) { /* no audio here */ }
    };
    // A context made since a gesture may still be starting (or was suspended in the background).
    if (ctx.state === 'running') ring();
    else if (navigator.userActivation?.hasBeenActive !== false) ctx.resume().then(ring, () => {});
  };
  let wasMine = false;
  const turnSignals = (v) => {
    const mine = v.you != null && v.to_move === v.you && (v.legal || []).length > 0 && v.winner == null;
    document.title = mine ? 'Your turn · fiveup' : 'fiveup';
    if (mine && !wasMine) chime();
    wasMine = mine;
  };
  const soundButton = () => h('button', { type: 'button', class: 'secondary sound', id: 'sound', 'aria-pressed': sound.on ? 'true' : 'false', onClick: () => {
    sound.on = !sound.on;
    localStorage.setItem('fiveup-sound', sound.on ? 'on' : 'off');
    render();
  } }, sound.on ? 'Sound on' : 'Sound off');

  // The game over: the match hand by hand (from the game's replay), and for a registered
  // player the rating before the game (fetched when the page opened, before this game was
  // stored) and after it (once the server has stored the game in their profile).
  const gameOverData = (v) => {
    if (v.winner == null || st.sheetAsked) return;
    st.sheetAsked = true;
    api.game(id).then((r) => {
      st.sheet = (r.hands || []).filter((x) => x.outcome).map((x) => ({ hand: x.hand, scored: x.outcome.scored, scores: x.outcome.scores, during: x.scores_before }));
      render();
    }).catch(() => {});
    if (!st.ratingBefore) return;
    // A game whose result does not count (casual, against the computer) is never rated: said
    // at once, rather than a change of +0.
    if (!v.table.counts) { st.ratingChange = { unrated: true }; return; }
    let tries = 0;
    const poll = () => {
      tries += 1;
      api.user(app.user.id).then((p) => {
        if ((p.history || []).some((g) => g.game === id) && p.rating) {
          // Neither the rating nor its deviation moved: the game was not rated (a tournament's).
          const same = p.rating.rating === st.ratingBefore.rating && p.rating.deviation === st.ratingBefore.deviation;
          st.ratingChange = same ? { unrated: true } : { before: st.ratingBefore.rating, after: p.rating.rating };
          render();
        } else if (tries < 10) setTimeout(poll, 1000);
      }).catch(() => {});
    };
    poll();
  };
  if (app.user && app.user.registered) {
    api.user(app.user.id).then((p) => {
      if (p.rating && !(p.history || []).some((g) => g.game === id)) st.ratingBefore = p.rating;
    }).catch(() => {});
  }

  function render() {
    const v = st.view;
    if (!v) return;
    gameOverData(v);
    // A tournament's table names its event and round, and links back to the event.
    if (v.table.tournament && !st.tourAsked) {
      st.tourAsked = true;
      api.tournament(v.table.tournament).then((ev) => { st.tour = { id: v.table.tournament, name: ev.name, place: tablePlace(ev, id) }; render(); }).catch(() => {});
    }
    turnSignals(v);
    el.root.dataset.version = String(st.version);
    el.root.dataset.status = v.table.status;
    el.root.dataset.hand = String(v.hand_no);
    el.root.dataset.turn = v.you != null && v.to_move === v.you && (v.legal || []).length ? 'mine' : 'other';
    // The players, a computer player marked by its icon (seatLabel), not a "(computer)" suffix.
    const names = v.table.seats.filter((x) => x.occupant.kind === 'human' || x.occupant.kind === 'bot')
      .flatMap((x, k) => (k ? [', ', seatLabel(v.table.seats, x.seat)] : [seatLabel(v.table.seats, x.seat)]));
    const game = gameName(v.table.rules, presets);
    mount(top,
      h('div', { class: ['table-head', v.table.seats.length > 4 ? 'many' : ''] },
        h('h1', {}, game, names.length ? [h('span', { class: 'names-full' }, ': ', names), h('span', { class: 'names-short' }, ` · ${v.table.seats.length} players`)] : null),
        st.tour ? h('p', { class: 'tour-line', id: 'tour-line' }, h('a', { href: `/tournaments/${st.tour.id}` }, st.tour.name), st.tour.place ? ` · ${st.tour.place}` : '') : null,
        keptDetails('rules', { class: 'rules' }, shortRules(v.table.rules), h('ul', { class: 'rules-lines' }, rulesLines(v.table.rules).map((l) => h('li', {}, l)))),
        v.table.rules.manual_scoring ? h('span', { class: 'badge manual', id: 'manual-badge' }, 'Scored by hand: claim your points') : null,
        v.table.correspondence ? h('span', { class: 'badge corr-badge', id: 'corr-badge' }, corrTitle(v.table.correspondence)) : null,
        v.you == null && !invite && v.table.status !== 'waiting' ? h('span', { class: 'badge' }, 'watching') : null,
        h('a', { href: '/how-to-play', class: 'help-link' }, 'How to play'),
        chatToggle,
        soundButton()),
    );
    const key = `${v.hand_no}:${v.to_move}:${v.phase}`;
    if (key !== clock.key) { clock.key = key; clock.since = Date.now(); }
    clock.deadline.sync(v, st.version);
    const ring = seatsPanel(v, clock);
    ringLeft.replaceWith(ring.left); ringLeft = ring.left;
    ringTop.replaceWith(ring.top); ringTop = ring.top;
    ringRight.replaceWith(ring.right); ringRight = ring.right;
    // Three or more others: on a narrow window they sit in rows above the board, in play order
    // (three cards around the board do not fit a phone's width).
    const others = v.table.seats.length - (v.you == null ? 0 : 1);
    ringEl.classList.toggle('many', others >= 3);
    ringEl.style.setProperty('--card-rows', String(Math.ceil(others / 3)));
    renderPlayArea();
    renderSide();
    placeTable();
    const showSummary = v.last_hand && st.hideSummary !== v.last_hand.hand;
    const kept = !v.last_hand && st.kept && st.kept.last_hand && v.winner == null ? st.kept : null;
    // The summary is drawn again on each change: the focused button keeps its focus.
    const focusedId = overlay.contains(document.activeElement) ? document.activeElement.id : null;
    mount(overlay,
      v.table.status === 'waiting' ? waitingPanel(v) : null,
      showSummary ? summary(v, st, actions) : null,
      kept && st.showKept ? summary(kept, st, actions, { kept: true }) : null);
    // A dialog that opens takes the focus on its main button (Next hand, Play again, Close), so
    // a keyboard player need not tab through the table to reach it.
    const again = focusedId && document.getElementById(focusedId);
    if (again && !again.disabled) again.focus({ preventScroll: true });
    const dialog = showSummary ? `${v.last_hand.hand}:${v.winner != null}` : kept && st.showKept ? `kept:${kept.last_hand.hand}` : null;
    if (dialog && dialog !== st.dialogFocused) {
      const main = overlay.querySelector('#summary .main-action:not([disabled])') || overlay.querySelector('#summary button');
      if (main) main.focus({ preventScroll: true });
      // Only a focus taken counts: a dialog whose button is not ready yet tries again on the
      // next redraw.
      if (main && document.activeElement === main) st.dialogFocused = dialog;
    } else if (!dialog) st.dialogFocused = null;
    // One click on Play again: once the server seats us at the new table, go there.
    if (st.rematchJoined && v.rematch && !st.rematchGone) { st.rematchGone = true; go(`/table/${v.rematch}`); }
  }

  let ringLeft = h('ul', { class: 'ring-left' });
  let ringTop = h('ul', { class: 'ring-top' });
  let ringRight = h('ul', { class: 'ring-right' });
  const ringEl = h('div', { class: 'ring' }, ringLeft, ringTop, ringRight, h('div', { class: 'board-wrap' }, el.board, el.count));
  mount(main, el.root);
  mount(el.root,
    top,
    overlay,
    h('div', { class: 'table-grid' },
      h('div', { class: 'centre' },
        ringEl,
        playArea,
        handArea),
      side));
  // The table takes the window's height below where it starts (style.css: --above).
  const placeTable = () => {
    const centre = el.root.querySelector('.centre');
    if (!centre) return;
    const above = Math.round(centre.getBoundingClientRect().top + window.scrollY);
    if (el.root.style.getPropertyValue('--above') !== `${above}px`) el.root.style.setProperty('--above', `${above}px`);
  };
  window.addEventListener('resize', placeTable);
  // Clocks and countdowns tick without redrawing anything else.
  const ticker = setInterval(() => {
    for (const c of el.root.querySelectorAll('.clock[data-since]')) {
      const t = c.querySelector('.clock-t');
      if (t) t.textContent = clockText(Number(c.dataset.since), Number(c.dataset.limit || 0));
    }
    const d = document.getElementById('deal-countdown');
    if (d) d.querySelector('.clock-t').textContent = `${Math.max(0, Math.ceil((Number(d.dataset.deadline) - Date.now()) / 1000))} s`;
    if (st.dealAt) maybeSendSeed();
    if (st.waitSince && !document.getElementById('offer-computers') && Date.now() - st.waitSince >= WAIT_OFFER_MS && st.view?.table.status === 'waiting') render();
  }, 500);
  // The board's frame is observed, not the board: the zoom bar's strip changes the board's
  // size inside the frame, and a redraw here that changed an observed size would be a resize
  // loop. Redrawn at once, so no frame shows the layout fitted to the old size.
  const ro = new ResizeObserver(() => { if (st.view) renderPlayArea(); });
  ro.observe(el.board.parentElement || el.board);

  try { st.info = await api.table(id); } catch (e) {
    if (e.code === 'offline') throw e;
    mount(el.root, h('section', { class: 'page' }, h('h1', {}, 'No such table'), h('p', {}, e.message), h('a', { href: '/' }, 'Lobby')));
    return () => {};
  }

  // The game's name comes from the config: the first drawing waits for it.
  await configLoaded;
  conn = new Conn({
    onOpen: (c) => c.send(st.version ? { type: 'open', table: id, since: st.version } : { type: 'open', table: id }),
    onStatus: (ok) => app.setNet(ok),
    onMessage: (m) => {
      switch (m.type) {
        case 'snapshot':
          st.view = m.view; st.version = m.version; st.chat = m.chat || [];
          st.pending = null;
          // A fresh snapshot (after a reconnection, say) makes earlier errors stale.
          st.error = '';
          if (m.view.last_hand && m.view.table.status === 'dealing' && !st.dealAt) st.dealAt = Date.now() + seedWaitSecs * 1000;
          renderChat();
          break;
        case 'event': {
          const e = m.event;
          const before = st.view;
          st.view = m.view; st.version = m.version;
          st.pending = null;
          if (e.kind === 'action' && e.seat === m.view.you) {
            if (e.drawn) { st.drawn = e.drawn; st.drawnTile = e.drawn; announce(`You drew ${tileWords(e.drawn)}`); } else { st.drawn = null; }
          }
          if (e.kind === 'action') motion(e, m.view, m.version);
          if (e.kind === 'action' && e.seat !== m.view.you) announce(`${seatName(m.view.table.seats, e.seat)}: ${actionWords(e.action)}${e.points ? `, scores ${e.points}` : ''}. Count ${e.count}`);
          if (e.kind === 'hand_over') {
            st.readyNext = false; st.hideSummary = null; announce('The hand is over');
            st.dealAt = Date.now() + seedWaitSecs * 1000;
            st.kept = m.view; st.showKept = false;
            handsSeen.set(e.outcome.hand, { leadKind: m.view.lead_kind, known: { history: m.view.history, remaining: e.outcome.hands, lot: m.view.lot } });
          }
          // A new hand's summary starts with Next hand to press again (the view may carry the
          // summary with the hand's last play, before its hand_over event).
          if (e.kind === 'dealt') { st.readyNext = false; resetZoom(el.board); st.drawnTile = null; st.note = ''; st.dealAt = null; announce(`Hand ${e.hand} dealt`); }
          // A computer player taking a disconnected person's seat, or handing it back when they
          // return, is said in the chat (as a line from the table) and to screen readers.
          if (e.kind === 'seat' && before && e.seat) {
            const was = before.table.seats[e.seat.seat];
            if (was && !!was.taken_over !== !!e.seat.taken_over && !e.seat.resigned) {
              const who = seatName(m.view.table.seats, e.seat.seat);
              const text = e.seat.taken_over
                ? `${who} lost the connection: a computer player plays the seat until they come back.`
                : `${who} is back and plays the seat again.`;
              st.chat.push({ system: true, text, at: Math.floor(Date.now() / 1000) });
              announce(text);
              renderChat();
            }
          }
          if (e.kind === 'seat' || e.kind === 'started') api.table(id).then((i) => { st.info = i; render(); }).catch(() => {});
          if (e.kind === 'rematch' && before) announce('A new table is ready: play again');
          // A hint is for one version of the table; errors are about the moment they came.
          st.hint = null;
          st.error = '';
          if (before && before.to_move !== m.view.to_move) st.hintPending = false;
          // Whose move it is changed at a table of yours: the My games badge follows.
          if (before && m.view.you != null && before.to_move !== m.view.to_move && (before.to_move === m.view.you || m.view.to_move === m.view.you)) refreshBadge();
          break;
        }
        case 'ack':
          if (m.id && m.id === st.rematchId) { st.rematchJoined = true; render(); }
          break;
        case 'error':
          st.pending = null;
          draws.run = false;
          if (m.code !== 'stale_version') st.error = m.message;
          if (m.id && m.id.startsWith('h-')) st.hintPending = false;
          break;
        case 'chat':
          st.chat.push(m.line); chatArrived(m.line); renderChat(); return;
        case 'presence': {
          const seat = st.view?.table.seats[m.seat];
          if (seat) seat.connected = m.connected;
          break;
        }
        case 'hint':
          st.hintPending = false;
          if (m.version === st.version) st.hint = m;
          break;
        default:
          return;
      }
      // A player who resigned has nothing to play: the computer plays the seat, and the page
      // must not say "Your turn" nor offer its moves.
      if (st.view.you != null && st.view.table.seats[st.view.you]?.resigned) st.view.legal = [];
      if (st.selected && !(st.view.legal || []).some((l) => l.tile === st.selected)) st.selected = null;
      render();
      maybeSendSeed();
      autoStep();
    },
  });

  return () => {
    document.title = 'fiveup';
    clearInterval(ticker);
    clock.deadline.stop();
    clearTimeout(draws.timer);
    chatSeen.disconnect();
    document.removeEventListener('visibilitychange', onVisible);
    window.removeEventListener('resize', placeTable);
    conn.close();
    ro.disconnect();
    document.removeEventListener('keydown', onKey);
    GESTURES.forEach((g) => document.removeEventListener(g, gesture, true));
    sound.ctx?.close().catch(() => {});
    window.removeEventListener('pointermove', onPointerMove);
    window.removeEventListener('pointerup', onPointerUp);
  };
}
