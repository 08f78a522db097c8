// A finished game step by step, forward and back: every hand visible, the count and points of
// each action, the expert's verdict on each decision, and each hand's deal verified.
import { h, s, mount, announce } from './dom.js';
import { api } from './api.js';
import { renderBoard } from './board.js';
import { tileRow } from './tiles.js';
import { seatName, sideName, actionWords, playingToWin, valueUnit, leadWords } from './format.js';
import { proofBlock } from './verifyview.js';
import { tallySvg } from './panels.js';
import { withIcons } from './panels.js';
import { clockWords } from './corr.js';
import { reportButton } from './moderation.js';

/** Every position of the game in order: the deal of each hand, then each step. */
export function positions(replay) {
  const out = [];
  replay.hands.forEach((hand, hi) => {
    out.push({ hi, step: null, index: 0 });
    hand.steps.forEach((step, si) => out.push({ hi, step, index: si + 1 }));
  });
  return out;
}

/** The game, asking again for a few seconds while a game that just ended is being stored. */
async function loadGame(id) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await api.game(id);
    } catch (e) {
      if (e.code !== 'no_such_game' || attempt >= 10) throw e;
      await new Promise((r) => { setTimeout(r, 300); });
    }
  }
}

export async function replayPage(main, { params: [id], app }) {
  // A game still in play has no replay yet: the table is asked first (so no request fails), and
  // the page says so and offers to watch it.
  let table = null;
  try { table = await api.table(id); } catch (_) { table = null; }
  if (table && table.status !== 'finished') {
    document.title = 'A game in play · fiveup';
    mount(main, h('section', { class: 'page in-play', id: 'in-play', 'aria-labelledby': 'rep-h' },
      h('h1', { id: 'rep-h' }, 'This game is still being played'),
      h('p', {}, table.status === 'waiting' ? 'Its table is waiting for players.' : 'Its replay is ready when the game ends; until then you can watch it.'),
      h('p', {}, h('a', { class: 'button', href: `/table/${id}`, id: 'watch-game' }, table.status === 'waiting' ? 'Go to the table' : 'Watch the game'), ' ', h('a', { href: '/' }, 'Back to the lobby'))));
    return null;
  }
  const replay = await loadGame(id);
  const pos = positions(replay);
  let at = 0;
  let review = null;
  let reviewState = 'loading';
  const seats = replay.seats;
  const players = replay.rules.players;
  const sides = Array.from({ length: players }, (_, i) => (replay.rules.partnerships ? i % 2 : i));
  const board = s('svg', { id: 'replay-board', class: 'board', role: 'img', 'aria-label': 'the layout', preserveAspectRatio: 'xMidYMid meet' });
  const info = h('div', { class: 'replay-info' });
  const hands = h('div', { class: 'replay-hands' });
  const pane = h('div', { class: 'replay-proof' });
  const counter = h('span', { id: 'replay-pos', 'aria-live': 'polite' });

  const verdictFor = (hand, index) => (review?.moves || []).find((m) => m.hand === hand && m.index === index);

  function draw() {
    const p = pos[at];
    const hand = replay.hands[p.hi];
    const step = p.step;
    const layout = step ? step.layout : { root: null, arms: [], count: 0 };
    const tiles = step ? step.hands : hand.dealt;
    const scores = step ? step.scores : hand.scores_before;
    const order = hand.steps.slice(0, p.index).map((x) => x.action).filter((a) => a.includes('@')).map((a) => a.split('@')[1]);
    renderBoard(board, layout, { openEnds: step ? step.open_ends : [], order, lastTile: step && step.action.includes('-') ? step.action.split('@')[0] : null, waiting: step ? step.waiting || [] : [], wind: replay.rules.spinner === 'none', set: replay.rules.set || 6, zoomable: true });
    counter.textContent = `Hand ${hand.hand}, ${step ? `action ${p.index} of ${hand.steps.length}` : 'the deal'} (${at + 1} / ${pos.length})`;
    const v = step ? verdictFor(hand.hand, step.index) : null;
    // The scores when the decision was made: after the previous action.
    const before = p.index > 1 ? hand.steps[p.index - 2].scores : hand.scores_before;
    const game = playingToWin(replay.rules, before);
    const last = step && p.index === hand.steps.length;
    mount(info,
      step
        ? h('p', { class: 'what', id: 'replay-action', 'data-index': step.index },
          h('strong', {}, withIcons(seatName(seats, step.seat))), ` ${actionWords(step.action)}`, step.drawn ? ` (${step.drawn})` : '',
          ` · count ${step.count}`, step.points ? ` · scores ${step.points}` : ' · no points')
        : h('p', { class: 'what', id: 'replay-action', 'data-index': 0 }, withIcons(`Hand ${hand.hand} dealt. ${leadWords(seats, hand.leader, hand.lead_kind, hand.shown_tile, replay.rules)}.`)),
      step ? h('p', { class: 'verdict-line' }, v
        ? (v.loss < 0.05 ? `Verdict: the best play (${v.options} choices)`
          : `Verdict: ${v.loss.toFixed(1)} ${game ? 'lost' : 'points lost'} against the best, ${actionWords(v.best)} (${v.options} choices)${game ? `, ${valueUnit(replay.rules, before)}` : ''}`)
        : reviewState === 'loading' ? 'Verdict: the expert is reviewing the game…' : reviewState === 'failed' ? 'Verdict: the review is not available' : 'Verdict: forced (one legal action)') : null,
      h('ul', { class: 'scores-line' }, scores.map((sc, side) => h('li', {}, withIcons(`${sideName(seats, sides, side)}: `), h('strong', {}, String(sc)), tallySvg(sc, `tally of ${sc}`)))),
      h('p', {}, `Boneyard: ${step ? step.boneyard : hand.boneyard.length}`),
      last && hand.outcome ? h('div', { class: 'outcome' }, h('h2', {}, 'The award'), h('ol', {}, hand.outcome.explanation.map((l) => h('li', {}, withIcons(l))))) : null);
    mount(hands, h('ul', { class: 'revealed' }, tiles.map((t, i) => h('li', { class: step && step.seat === i ? 'acted' : '' },
      h('span', { class: 'who' }, withIcons(seatName(seats, i))), t.length ? tileRow(t, `${seatName(seats, i)}'s tiles`) : h('span', {}, 'no tiles')))));
    if (pane.dataset.hand !== String(hand.hand)) {
      pane.dataset.hand = String(hand.hand);
      mount(pane, hand.proof ? proofBlock(hand.proof, replay.rules, hand.lead_kind, { dealt: hand.dealt, boneyard: hand.boneyard, lot: hand.lot }, { id: 'verify-replay' }) : h('p', {}, 'This hand has no deal proof.'));
    }
  }
  const goTo = (i) => { at = Math.max(0, Math.min(pos.length - 1, i)); draw(); };
  const nextHand = (dir) => {
    const hi = pos[at].hi + dir;
    const i = pos.findIndex((p) => p.hi === hi);
    if (i >= 0) goTo(i);
  };
  const onKey = (ev) => {
    if (ev.target.closest('input, textarea, select')) return;
    if (ev.key === 'ArrowRight') { goTo(at + 1); ev.preventDefault(); }
    if (ev.key === 'ArrowLeft') { goTo(at - 1); ev.preventDefault(); }
    if (ev.key === 'Home') goTo(0);
    if (ev.key === 'End') goTo(pos.length - 1);
    if (ev.key === 'PageDown') nextHand(1);
    if (ev.key === 'PageUp') nextHand(-1);
  };
  document.addEventListener('keydown', onKey);

  const winner = replay.winner;
  mount(main, h('section', { class: 'page replay', 'aria-labelledby': 'rep-h' },
    h('h1', { id: 'rep-h' }, 'Replay: ', withIcons(seats.map((_, i) => seatName(seats, i)).join(', '))),
    h('p', {}, `${replay.hands.length} hand${replay.hands.length === 1 ? '' : 's'} · `,
      winner != null ? withIcons(`${sideName(seats, sides, winner)} won · `) : '',
      withIcons(replay.scores.map((sc, side) => `${sideName(seats, sides, side)} ${sc}`).join(', ')), ' · ',
      h('a', { href: `/api/games/${replay.id}/record.txt`, download: `${replay.id}.txt` }, 'the record')),
    replay.correspondence ? h('p', { id: 'replay-corr' }, `A correspondence game: ${clockWords(replay.correspondence)}.`) : null,
    reportRow(app, seats, replay.id),
    h('div', { class: 'row controls', role: 'toolbar', 'aria-label': 'replay controls' },
      h('button', { type: 'button', id: 'replay-first', onClick: () => goTo(0), 'aria-keyshortcuts': 'Home' }, '« Start'),
      h('button', { type: 'button', id: 'replay-prev-hand', onClick: () => nextHand(-1), 'aria-keyshortcuts': 'PageUp' }, 'Hand −'),
      h('button', { type: 'button', id: 'replay-back', onClick: () => goTo(at - 1), 'aria-keyshortcuts': 'ArrowLeft' }, '◀ Back'),
      h('button', { type: 'button', id: 'replay-forward', onClick: () => goTo(at + 1), 'aria-keyshortcuts': 'ArrowRight' }, 'Forward ▶'),
      h('button', { type: 'button', id: 'replay-next-hand', onClick: () => nextHand(1), 'aria-keyshortcuts': 'PageDown' }, 'Hand +'),
      h('button', { type: 'button', id: 'replay-last', onClick: () => goTo(pos.length - 1), 'aria-keyshortcuts': 'End' }, 'End »'),
      counter),
    h('div', { class: 'replay-grid' },
      h('div', { class: 'board-wrap' }, board),
      h('div', {}, info, hands, h('section', { class: 'card verify' }, h('h2', {}, 'Fair deal'), pane)))));
  draw();
  api.review(id).then((r) => { review = r; reviewState = 'done'; draw(); announce('The review is ready'); })
    .catch(() => { reviewState = 'failed'; draw(); });
  return () => document.removeEventListener('keydown', onKey);
}

/** A Report button for each other person who played the game (registered viewers only). */
function reportRow(app, seats, game) {
  const people = (seats || []).map((st) => st?.occupant?.kind === 'human' ? st.occupant.user : null)
    .filter((u) => u && !u.bot && app?.user && String(u.id) !== String(app.user.id));
  const buttons = people.map((u) => reportButton(app, u, { game, label: `Report ${u.name}` })).filter(Boolean);
  return buttons.length ? h('p', { class: 'row report-row', id: 'replay-report' }, buttons) : null;
}
