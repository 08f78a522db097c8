// The table: the layout, your hand, the count, scores and tallies, the log, chat, hints, the
// deal proof, the end-of-hand summary and the end of the game.
import { h, s, mount, announce } from './dom.js';
import { api } from './api.js';
import { Conn, randomSeedHex } from './conn.js';
import { renderBoard, armName } from './board.js';
import { playOrder } from './geometry.js';
import { tileSvg, tileWords } from './tiles.js';
import { seatName, sideName, actionWords, entryWords, shortRules, valueUnit } from './format.js';
import { proofBlock, hex } from './verifyview.js';
import { scoresPanel, seatsPanel, summary } from './panels.js';
import { go } from './app.js';

export async function tablePage(main, { params: [id], query, app }) {
  const st = {
    view: null, version: 0, selected: null, hint: null, hintPending: false, drawn: null,
    chat: [], info: null, readyNext: false, seedFor: null, pending: null, error: '', hideSummary: null,
  };
  const invite = query.get('invite');
  const el = {
    root: h('section', { class: 'table-page', 'aria-label': 'the table' }),
    board: s('svg', { id: 'board', class: 'board', role: 'group', 'aria-label': 'the layout', preserveAspectRatio: 'xMidYMid meet' }),
    count: h('div', { id: 'count', class: 'count', role: 'status', 'aria-live': 'polite' }),
    chatList: h('ol', { class: 'chat-lines', 'aria-live': 'polite', 'aria-label': 'chat' }),
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
  const maybeSendSeed = () => {
    const v = st.view;
    if (!v || v.you == null || v.seed_sent || !v.proof || v.winner != null) return;
    if (v.table.status !== 'dealing') return;
    if (v.last_hand && !st.readyNext) return;
    if (st.seedFor === v.proof.hand) return;
    st.seedFor = v.proof.hand;
    send({ type: 'seed', id: conn.nextId('s'), hand: v.proof.hand, seed: randomSeedHex() });
  };
  // Parts that keep their state across redraws: open <details>, and proof blocks with the
  // result of a verification.
  const opened = new Set();
  const keptDetails = (key, attrs, summaryText, ...children) => {
    const d = h('details', { ...attrs, open: opened.has(key) }, h('summary', {}, summaryText), ...children);
    d.addEventListener('toggle', () => { if (d.open) opened.add(key); else opened.delete(key); });
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
    if (!st.view || ev.target.closest('input, textarea, select')) return;
    const legal = st.view.legal || [];
    const k = ev.key.toLowerCase();
    if (k === 'escape') { st.selected = null; renderPlayArea(); return; }
    if (k === 'd' && legal.some((l) => l.action === 'D')) { act('D'); return; }
    if (k === 'p' && legal.some((l) => l.action === 'P')) { act('P'); return; }
    if (k === 'h') { askHint(); return; }
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

  const askHint = () => {
    if (!st.view || !(st.view.legal || []).length || st.hintPending) return;
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
  const logList = h('ol', { class: 'log', 'aria-label': 'actions this hand' });

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
    return `${seatName(v.table.seats, v.to_move)} to play`;
  }

  function renderPlayArea() {
    const v = st.view;
    if (!v) return;
    const legal = v.legal || [];
    const targets = new Map();
    if (st.selected) for (const l of legalFor(st.selected)) if (l.arm) targets.set(l.arm, l.action);
    const leadTarget = st.selected && legalFor(st.selected).some((l) => l.arm == null);
    const last = [...(v.history || [])].reverse().find((e) => e.kind === 'play');
    renderBoard(el.board, v.layout, { openEnds: v.open_ends, targets, onEnd: (arm) => chooseEnd(arm), lastTile: last?.tile, leadTarget, order: playOrder(v.history) });
    el.count.replaceChildren(h('span', { class: 'label' }, 'Count'), h('span', { class: 'value', 'aria-label': `count ${v.count}` }, String(v.count)));
    const mustDraw = v.to_move === v.you && legal.length > 0 && legal.every((l) => l.action === 'D');
    const prompt = promptText(v);
    const tiles = v.my_tiles || [];
    const hintFor = new Map((st.hint?.evals || []).map((e, i) => [e.action, { ...e, rank: i }]));
    // Keyboard players keep their place: focus returns to the same tile (or the next sensible
    // control) after every redraw.
    const active = document.activeElement;
    const hadFocus = active && (handArea.contains(active) || playArea.contains(active)) ? (active.dataset.tile || active.id || 'any') : null;
    mount(playArea,
      h('p', { id: 'prompt', class: ['prompt', mustDraw ? 'must-draw' : '', v.to_move === v.you && legal.length ? 'yours' : ''], role: 'status', 'aria-live': 'polite' }, prompt),
      st.error ? h('p', { class: 'error', role: 'alert' }, st.error) : null,
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
        legal.filter((l) => !l.tile).map((l) => h('button', {
          type: 'button', class: ['act', l.action === 'D' && mustDraw ? 'big' : ''], id: l.action === 'D' ? 'draw' : l.action === 'P' ? 'pass' : null, 'data-action': l.action, onClick: () => act(l.action),
        }, actionWords(l.action)[0].toUpperCase() + actionWords(l.action).slice(1), l.action === 'D' ? ` (${v.boneyard} left)` : '')),
        v.you != null ? h('button', { type: 'button', id: 'hint', class: 'secondary', disabled: !legal.length || st.hintPending, onClick: askHint, 'aria-keyshortcuts': 'h' }, st.hintPending ? 'Thinking…' : 'Hint') : null,
        h('span', { class: 'boneyard', 'aria-label': `${v.boneyard} tiles in the boneyard` }, `Boneyard: ${v.boneyard}`)),
      st.hint ? h('section', { class: 'hint-panel', 'aria-label': 'hint' },
        h('h3', {}, 'The expert\'s evaluation'),
        h('p', { class: 'unit' }, `What each play is worth to your side over the rest of the hand, ${valueUnit(v.table.rules, v.scores)}, best first:`),
        h('ol', {}, st.hint.evals.map((e, i) => h('li', { class: i === 0 ? 'best' : '' },
          h('strong', {}, actionWords(e.action)), `: ${e.mean >= 0 ? '+' : ''}${e.mean.toFixed(1)} ± ${e.stderr.toFixed(1)}`,
          i > 0 ? h('span', { class: 'loss' }, ` (${(st.hint.evals[0].mean - e.mean).toFixed(1)} worse)`) : ' (best)')))) : null);
    if (hadFocus) {
      const again = (st.selected && playArea.querySelector('.ends-bar button'))
        || handArea.querySelector(`.hand-tile[data-tile="${hadFocus}"]`)
        || (hadFocus !== 'any' && document.getElementById(hadFocus))
        || handArea.querySelector('.hand-tile.playable') || handArea.querySelector('#draw, #pass')
        || handArea.querySelector('.hand-tile');
      if (again) again.focus({ preventScroll: true });
    }
  }

  function renderSide() {
    const v = st.view;
    const proofs = [...(v.proofs || [])].reverse();
    mount(logList, (v.history || []).map((e) => h('li', {}, entryWords(e, v.table.seats))));
    mount(side,
      scoresPanel(v),
      h('section', { class: 'card', 'aria-labelledby': 'log-h' }, h('h2', { id: 'log-h' }, `Hand ${(v.last_hand && v.phase !== 'play' && v.phase !== 'claim' ? v.last_hand.hand : v.hand_no) || '—'}`), logList),
      h('section', { class: 'card chat', 'aria-labelledby': 'chat-h' }, h('h2', { id: 'chat-h' }, 'Chat'), el.chatList, chatForm),
      h('section', { class: 'card verify', 'aria-labelledby': 'ver-h' }, h('h2', { id: 'ver-h' }, 'Fair deal'),
        v.proof ? h('div', { class: 'current-proof' },
          h('p', {}, `Hand ${v.proof.hand}: the server committed to its seed before the deal.`),
          hex('commitment', v.proof.commitment),
          h('p', {}, `Seeds in from seat${v.proof.contributed.length === 1 ? '' : 's'}: ${v.proof.contributed.map((x) => x + 1).join(', ') || 'none yet'}`)) : null,
        proofs.length ? keptDetails('proofs', { class: 'past-proofs' }, 'Finished hands: seeds revealed',
          proofs.map((p) => {
            const current = v.last_hand && v.last_hand.hand === p.hand;
            // A hand seen to its end on this page is checked in full even later on.
            const seen = current ? { leadKind: v.lead_kind, known: { history: v.history, remaining: v.last_hand.hands } } : handsSeen.get(p.hand);
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
    return h('section', { class: 'card waiting', 'aria-labelledby': 'wait-h' },
      h('h2', { id: 'wait-h' }, 'Waiting for players'),
      h('p', {}, v.table.options),
      h('ul', { class: 'seats' }, v.table.seats.map((seat) => h('li', { 'data-seat': seat.seat },
        `Seat ${seat.seat + 1}: `, seatName(v.table.seats, seat.seat),
        seat.occupant.kind === 'open' && v.you == null && app.user ? h('button', { type: 'button', class: 'sit', onClick: () => sit({ seat: seat.seat }) }, 'Sit here') : null))),
      invite && v.you == null && app.user
        ? h('button', { type: 'button', id: 'join-invite', onClick: () => sit({ invite }) }, 'Take the seat you were invited to') : null,
      v.you == null && !app.user && (invite || v.table.seats.some((x) => x.occupant.kind === 'open')) ? guestInline() : null,
      invites.length ? h('div', { class: 'invites' }, h('h3', {}, 'Invite a friend'),
        invites.map((inv) => {
          const url = `${location.origin}${inv.path}`;
          return h('div', { class: 'invite' }, `Seat ${inv.seat + 1}: `, h('input', { class: 'invite-link', readonly: true, value: url, 'aria-label': `invitation link for seat ${inv.seat + 1}`, 'data-seat': inv.seat }),
            h('button', { type: 'button', onClick: () => navigator.clipboard?.writeText(url) }, 'Copy'));
        })) : null,
      v.you != null ? h('button', { type: 'button', class: 'secondary', onClick: async () => { try { await api.leave(id); go('/'); } catch (e) { err.textContent = e.message; } } }, 'Leave the table') : null,
      err);
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

  const chatInput = h('input', { id: 'chat-input', maxlength: 500, 'aria-label': 'message', autocomplete: 'off' });
  const chatForm = h('form', { class: 'row', onSubmit: (ev) => {
    ev.preventDefault();
    const text = chatInput.value.trim();
    if (text) send({ type: 'chat', text });
    chatInput.value = '';
  } }, chatInput, h('button', { type: 'submit' }, 'Send'));
  const renderChat = () => {
    mount(el.chatList, st.chat.slice(-100).map((c) => h('li', {}, h('strong', {}, c.from.name), ': ', c.text)));
    el.chatList.scrollTop = el.chatList.scrollHeight;
  };

  function render() {
    const v = st.view;
    if (!v) return;
    el.root.dataset.version = String(st.version);
    el.root.dataset.status = v.table.status;
    el.root.dataset.hand = String(v.hand_no);
    el.root.dataset.turn = v.you != null && v.to_move === v.you && (v.legal || []).length ? 'mine' : 'other';
    mount(top,
      h('div', { class: 'table-head' },
        h('h1', {}, `Table ${v.table.id}`),
        keptDetails('rules', { class: 'rules' }, shortRules(v.table.rules), v.table.options),
        v.you == null ? h('span', { class: 'badge' }, 'watching') : null),
      seatsPanel(v));
    renderPlayArea();
    renderSide();
    const showSummary = v.last_hand && st.hideSummary !== v.last_hand.hand;
    mount(overlay,
      v.table.status === 'waiting' ? waitingPanel(v) : null,
      showSummary ? summary(v, st, actions) : null,
      !showSummary && v.last_hand ? h('button', { type: 'button', class: 'show-summary', onClick: () => { st.hideSummary = null; render(); } }, `Hand ${v.last_hand.hand} result`) : null);
  }

  mount(main, el.root);
  mount(el.root,
    top,
    overlay,
    h('div', { class: 'table-grid' },
      h('div', { class: 'centre' },
        h('div', { class: 'board-wrap' }, el.board, el.count),
        playArea,
        handArea),
      side));
  const ro = new ResizeObserver(() => { if (st.view) renderPlayArea(); });
  ro.observe(el.board);

  try { st.info = await api.table(id); } catch (e) {
    mount(el.root, h('section', { class: 'page' }, h('h1', {}, 'No such table'), h('p', {}, e.message), h('a', { href: '/' }, 'Lobby')));
    return () => {};
  }

  conn = new Conn({
    onOpen: (c) => c.send(st.version ? { type: 'open', table: id, since: st.version } : { type: 'open', table: id }),
    onStatus: (ok) => app.setNet(ok),
    onMessage: (m) => {
      switch (m.type) {
        case 'snapshot':
          st.view = m.view; st.version = m.version; st.chat = m.chat || [];
          st.pending = null;
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
          if (e.kind === 'action' && e.seat !== m.view.you) announce(`${seatName(m.view.table.seats, e.seat)}: ${actionWords(e.action)}${e.points ? `, scores ${e.points}` : ''}. Count ${e.count}`);
          if (e.kind === 'hand_over') {
            st.readyNext = false; st.hideSummary = null; announce('The hand is over');
            handsSeen.set(e.outcome.hand, { leadKind: m.view.lead_kind, known: { history: m.view.history, remaining: e.outcome.hands } });
          }
          if (e.kind === 'dealt') { st.drawnTile = null; announce(`Hand ${e.hand} dealt`); }
          if (e.kind === 'seat' || e.kind === 'started') api.table(id).then((i) => { st.info = i; render(); }).catch(() => {});
          if (e.kind === 'rematch' && before) announce('A new table is ready: play again');
          // A hint is for one version of the table; errors are about the moment they came.
          st.hint = null;
          st.error = '';
          if (before && before.to_move !== m.view.to_move) st.hintPending = false;
          break;
        }
        case 'ack':
          if (m.id && m.id === st.rematchId) { st.rematchJoined = true; render(); }
          break;
        case 'error':
          st.pending = null;
          if (m.code !== 'stale_version') st.error = m.message;
          if (m.id && m.id.startsWith('h-')) st.hintPending = false;
          break;
        case 'chat':
          st.chat.push(m.line); renderChat(); return;
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
      if (st.selected && !(st.view.legal || []).some((l) => l.tile === st.selected)) st.selected = null;
      render();
      maybeSendSeed();
    },
  });

  return () => {
    conn.close();
    ro.disconnect();
    document.removeEventListener('keydown', onKey);
    window.removeEventListener('pointermove', onPointerMove);
    window.removeEventListener('pointerup', onPointerUp);
  };
}
