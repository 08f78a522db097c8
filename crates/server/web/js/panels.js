// The parts of the table page drawn from the view alone: the scores with their tallies, the
// other players, and the end-of-hand and end-of-game summary.
import { h, s } from './dom.js';
import { backSvg, tileRow } from './tiles.js';
import { tallySegments } from './tally.js';
import { seatName, sideName } from './format.js';
import { proofBlock } from './verifyview.js';

export function tallySvg(score, label) {
  const t = tallySegments(score);
  return s('svg', { class: 'tally', viewBox: `-0.3 -0.3 ${t.width + 0.6} 5.6`, role: 'img', 'aria-label': label },
    t.boxes.map(([x, y, w, hh]) => s('rect', { x, y, width: w, height: hh, rx: 0.4 })),
    t.segs.map(([x1, y1, x2, y2]) => s('line', { x1, y1, x2, y2 })));
}

export function scoresPanel(view) {
  const seats = view.table.seats;
  const nSides = view.scores.length;
  return h('section', { class: 'card scores', 'aria-labelledby': 'scores-h' },
    h('h2', { id: 'scores-h' }, `Scores · to ${view.table.rules.target}`),
    h('ul', {}, Array.from({ length: nSides }, (_, side) => h('li', { class: ['score', view.you != null && view.sides[view.you] === side ? 'mine' : ''], 'data-side': side },
      h('span', { class: 'who' }, sideName(seats, view.sides, side)),
      h('span', { class: 'num', 'aria-label': `${view.scores[side]} points` }, String(view.scores[side])),
      tallySvg(view.scores[side], `tally of ${view.scores[side]}`)))));
}

export function seatsPanel(view) {
  const n = view.table.seats.length;
  const me = view.you ?? -1;
  const order = [];
  for (let k = 1; k <= n; k += 1) { const i = (Math.max(me, 0) + k) % n; if (i !== me) order.push(i); }
  if (me < 0) order.unshift(0);
  return h('ul', { class: 'opponents', 'aria-label': 'other players' }, [...new Set(order)].map((i) => {
    const seat = view.table.seats[i];
    const count = view.hand_sizes[i] ?? 0;
    const turn = view.to_move === i && view.phase === 'play';
    return h('li', { class: ['opp', turn ? 'turn' : '', seat.connected || seat.occupant.kind === 'bot' ? '' : 'away'], 'data-seat': i },
      h('div', { class: 'name' }, seatName(view.table.seats, i), me >= 0 && i !== me && view.sides[i] === view.sides[me] ? ' (partner)' : '', seat.taken_over ? ' (computer playing)' : '', turn ? ' · to play' : ''),
      h('div', { class: 'opp-score' }, `score ${view.scores[view.sides[i]] ?? 0}`),
      h('div', { class: 'backs', role: 'img', 'aria-label': `${count} tile${count === 1 ? '' : 's'} in hand` },
        Array.from({ length: Math.min(count, 9) }, () => backSvg()), h('span', { class: 'n' }, String(count))));
  }));
}

export function summary(view, st, actions) {
  const o = view.last_hand;
  const seats = view.table.seats;
  const over = view.winner !== null && view.winner !== undefined;
  const end = o.end.kind === 'domino' ? `${seatName(seats, o.end.seat)} went out` : 'The hand is blocked';
  const proof = (view.proofs || []).find((p) => p.hand === o.hand);
  return h('div', { class: 'overlay', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'sum-h', id: 'summary' },
    h('div', { class: 'card summary' },
      over
        ? h('h2', { id: 'sum-h', class: 'game-over' }, `Game over: ${sideName(seats, view.sides, view.winner)} win${view.sides.filter((x) => x === view.winner).length > 1 ? '' : 's'}`)
        : h('h2', { id: 'sum-h' }, `Hand ${o.hand}: ${end}`),
      over ? h('p', {}, `Hand ${o.hand}: ${end}.`) : null,
      h('h3', {}, 'All hands'),
      h('ul', { class: 'revealed' }, o.hands.map((tiles, i) => h('li', {},
        h('span', { class: 'who' }, seatName(seats, i)),
        tiles.length ? tileRow(tiles, `${seatName(seats, i)}'s tiles`) : h('span', {}, 'no tiles'),
        h('span', { class: 'pips' }, `${o.pips[i]} pips`)))),
      h('h3', {}, 'The award, step by step'),
      h('ol', { class: 'explanation' }, o.explanation.map((line) => h('li', {}, line))),
      h('table', { class: 'result' }, h('thead', {}, h('tr', {}, h('th', {}, 'side'), h('th', {}, 'scored'), h('th', {}, 'score'))),
        h('tbody', {}, o.scores.map((sc, side) => h('tr', {}, h('td', {}, sideName(seats, view.sides, side)), h('td', {}, `+${o.scored[side]}`), h('td', { class: 'num' }, String(sc)))))),
      proof ? actions.keptProof(`last-${proof.hand}`, () => proofBlock(proof, view.table.rules, view.lead_kind, { history: view.history, remaining: o.hands }, { id: 'verify-last' })) : null,
      h('div', { class: 'row buttons' },
        over && view.you != null
          ? [
            view.rematch && st.rematchJoined
              ? h('a', { class: 'button', href: `/table/${view.rematch}`, id: 'rematch-go' }, 'Go to the new table')
              : view.rematch
                ? h('button', { type: 'button', id: 'rematch-accept', onClick: actions.rematch }, 'Accept the rematch')
                : h('button', { type: 'button', id: 'play-again', onClick: actions.rematch }, 'Play again'),
            h('a', { class: 'button', href: `/game/${view.table.id}`, id: 'replay-link' }, 'Replay this game'),
            h('a', { class: 'button', href: '/' }, 'Lobby')]
          : over ? h('a', { class: 'button', href: `/game/${view.table.id}`, id: 'replay-link' }, 'Replay this game') : (view.you != null
            ? h('button', { type: 'button', id: 'next-hand', disabled: st.readyNext || view.seed_sent, onClick: actions.next },
              st.readyNext || view.seed_sent ? 'Waiting for the others…' : 'Next hand')
            : null),
        h('button', { type: 'button', class: 'secondary', onClick: actions.hideSummary }, 'Look at the table'))));
}
