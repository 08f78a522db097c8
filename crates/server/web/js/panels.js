// The parts of the table page drawn from the view alone: the scores with their tallies, the
// other players, and the end-of-hand and end-of-game summary.
import { h, s } from './dom.js';
import { backSvg, tileRow } from './tiles.js';
import { tallySegments } from './tally.js';
import { seatName, sideName, BOT_NAMES, timeLeft, dueWords } from './format.js';
import { proofBlock } from './verifyview.js';
import { ratingOf } from './ratings.js';

export function tallySvg(score, label) {
  const t = tallySegments(score);
  return s('svg', { class: 'tally', viewBox: `-0.3 -0.3 ${t.width + 0.6} 5.6`, role: 'img', 'aria-label': label },
    t.boxes.map(([x, y, w, hh]) => s('rect', { x, y, width: w, height: hh, rx: 0.4 })),
    t.segs.map(([x1, y1, x2, y2]) => s('line', { x1, y1, x2, y2 })));
}

/**
 * A seat's name to show: a computer player's name with the computer icon (labelled for screen
 * readers) rather than a "(computer)" suffix.
 */
export function seatLabel(seats, i) {
  const seat = seats && seats[i];
  if (seat && seat.occupant.kind === 'bot') return h('span', { class: 'seat-label bot' }, botIcon(), BOT_NAMES[i % BOT_NAMES.length]);
  return h('span', { class: 'seat-label' }, seatName(seats, i));
}

/** A side's names to show (`seatLabel`), partners joined by "&". */
export function sideLabel(seats, sides, side) {
  const out = [];
  sides.forEach((sd, i) => { if (sd === side) { if (out.length) out.push(' & '); out.push(seatLabel(seats, i)); } });
  return out.length ? out : [`side ${side + 1}`];
}

export function scoresPanel(view) {
  const seats = view.table.seats;
  const nSides = view.scores.length;
  return h('section', { class: 'card scores', 'aria-labelledby': 'scores-h' },
    // A duplicate board is one hand (hands=1), whatever the preset's target.
    h('h2', { id: 'scores-h' }, `Scores · ${view.table.rules.hand_limit === 1 ? 'one hand' : `to ${view.table.rules.target}`}`),
    h('ul', {}, Array.from({ length: nSides }, (_, side) => h('li', { class: ['score', view.you != null && view.sides[view.you] === side ? 'mine' : ''], 'data-side': side },
      h('span', { class: 'who' }, sideLabel(seats, view.sides, side)),
      h('span', { class: 'num', 'aria-label': `${view.scores[side]} points` }, String(view.scores[side])),
      tallySvg(view.scores[side], `tally of ${view.scores[side]}`)))));
}

/**
 * Where each other seat sits around the table as this viewer sees it, for 2 to 8 seats: you at
 * the bottom, play going clockwise (the next player on your left), a partner opposite.
 * Returns `{ left, top, right }`, lists of seat numbers (left from the bottom up, top from left
 * to right, right from the top down).
 */
export function seatPlaces(n, me) {
  const base = me == null || me < 0 ? 0 : me;
  const others = [];
  for (let k = 1; k < n; k += 1) others.push((base + k) % n);
  if (me == null || me < 0) others.unshift(base);
  const m = others.length;
  const side = m >= 3 ? Math.floor((m - 1) / 2) : 0;
  return { left: others.slice(0, side), top: others.slice(side, m - side), right: others.slice(m - side) };
}

/** A turn clock: seconds since `since` (ms), or a countdown to `since + limit` seconds. */
export function clockText(since, limit, now = Date.now()) {
  const t = Math.max(0, Math.floor((now - since) / 1000));
  if (limit) return `${Math.max(0, limit - t)} s`;
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
}

/**
 * A correspondence move's clock (`d`: `moveDeadline(...).of(seat)`): the time left, which
 * counts down by itself, and the deadline as a date: "2 days 3 h left · due Thu 26 Nov, 09:00".
 */
export function corrClock(d) {
  if (!corrTicker) {
    corrTicker = setInterval(() => {
      for (const e of document.querySelectorAll('.corr-left[data-end]')) e.textContent = leftWords(Number(e.dataset.end));
    }, 5000);
  }
  return [h('span', { class: 'corr-left', 'data-end': d.end }, leftWords(d.end)), ' · due ',
    h('time', { class: 'corr-due', datetime: new Date(d.due * 1000).toISOString() }, dueWords(d.due))];
}
let corrTicker = null;
const leftWords = (end) => `${timeLeft(Math.max(0, Math.floor((end - Date.now()) / 1000)))} left`;

/** The computer player's icon: a small screen, read as "computer player". */
export function botIcon() {
  return s('svg', { class: 'bot-icon', viewBox: '0 0 16 16', role: 'img', 'aria-label': 'computer player' },
    s('title', {}, 'computer player'),
    s('rect', { x: 1.5, y: 2.5, width: 13, height: 9, rx: 1.5 }),
    s('path', { d: 'M5.5 14.5h5M8 11.5v3' }));
}

/**
 * Text that names players with a "(computer)" suffix (the server's award steps, a log line,
 * a list of names), to show: each "Name (computer)" becomes the computer icon (labelled for
 * screen readers) and the name, as the table's seats show them.
 */
export function withIcons(text) {
  const out = [];
  let at = 0;
  for (const m of String(text).matchAll(/([^\s,.:;()&]+) \(computer\)/g)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(h('span', { class: 'seat-label bot' }, botIcon(), m[1]));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

function seatCard(view, i, clock) {
  const me = view.you ?? -1;
  const seat = view.table.seats[i];
  const count = view.hand_sizes[i] ?? 0;
  const turn = view.to_move === i && (view.phase === 'play' || view.phase === 'claim') && view.winner == null;
  const person = seat.occupant.kind === 'human';
  const away = person && !seat.connected;
  // No computer takes a seat over at a tournament table nor at a correspondence table: their
  // clocks decide instead.
  const tour = !!view.table.tournament;
  const corr = !!view.table.correspondence;
  const limit = away && !tour && !corr && !seat.taken_over && clock && clock.takeover ? clock.takeover : 0;
  const due = corr && turn && clock && clock.deadline ? clock.deadline.of(i) : null;
  const partner = me >= 0 && i !== me && view.sides[i] === view.sides[me];
  // A computer player is marked by an icon (labelled for screen readers), not by a suffix that
  // a narrow card would cut off.
  const bot = seat.occupant.kind === 'bot';
  return h('li', { class: ['opp', turn ? 'turn' : '', away ? 'away' : ''], 'data-seat': i },
    h('div', { class: 'name', title: seatName(view.table.seats, i) }, bot ? [botIcon(), BOT_NAMES[i % BOT_NAMES.length]] : seatName(view.table.seats, i)),
    h('div', { class: 'opp-meta' },
      partner ? h('span', { class: 'tag' }, 'partner') : null,
      seat.resigned ? h('span', { class: 'tag' }, tour ? 'out: lost the game' : 'resigned: a computer plays for them') : seat.taken_over ? h('span', { class: 'tag' }, 'computer playing for them') : away ? h('span', { class: 'tag away-tag' }, 'away') : null,
      h('span', { class: 'opp-score' }, `${view.scores[view.sides[i]] ?? 0} pts`),
      person && ratingOf(seat.occupant.user, clock && clock.redraw) ? h('span', { class: 'opp-rating' }, `rated ${ratingOf(seat.occupant.user)}`) : null),
    h('div', { class: 'backs', role: 'img', 'aria-label': `${count} tile${count === 1 ? '' : 's'} in hand` },
      Array.from({ length: Math.min(count, 9) }, () => backSvg()), h('span', { class: 'n' }, String(count))),
    turn && clock && corr ? h('div', { class: 'clock corr-move', 'data-seat': i }, 'their move', due ? [': ', corrClock(due)] : null) : null,
    turn && clock && !corr ? h('div', { class: ['clock', limit ? 'countdown' : ''], 'data-since': clock.since, 'data-limit': limit || null, 'aria-label': limit ? 'a computer plays for them in' : 'time on this turn' },
      limit ? 'away: a computer plays for them in ' : 'to play · ', h('span', { class: 'clock-t' }, clockText(clock.since, limit))) : null);
}

/** The other seats around the table (see `seatPlaces`), each with its turn clock. */
export function seatsPanel(view, clock) {
  const places = seatPlaces(view.table.seats.length, view.you ?? -1);
  const list = (where, seats) => h('ul', { class: `ring-${where} opponents`, 'aria-label': `players on the ${where === 'top' ? 'far side' : where}` }, seats.map((i) => seatCard(view, i, clock)));
  return { left: list('left', places.left), top: list('top', places.top), right: list('right', [...places.right]) };
}

/** What each side scored during the hand's play (points laid, claimed, or called). */
export function playPoints(view, history) {
  const out = view.scores.map(() => 0);
  const manual = view.table.rules.manual_scoring;
  for (const e of history || []) {
    const side = view.sides[e.seat];
    if (side == null) continue;
    if (e.kind === 'play' && !manual && e.points) out[side] += e.points;
    if ((e.kind === 'claim' || e.kind === 'muggins') && e.points) out[side] += e.points;
  }
  return out;
}

/** How the hand ended, in words. */
export function endWords(view, o) {
  const seats = view.table.seats;
  if (o.mid_hand) return `${sideName(seats, view.sides, o.winners[0] ?? view.winner ?? 0)} reached ${view.table.rules.target} during the hand`;
  return o.end.kind === 'domino' ? `${seatName(seats, o.end.seat)} went out` : 'The hand is blocked';
}

/** A registered player's rating change over the game just ended. */
function ratingLine({ before, after, unrated }) {
  if (unrated) return h('p', { class: 'rating-change unrated', id: 'rating-change' }, 'This game was not rated: your rating stays as it was.');
  const d = Math.round(after) - Math.round(before);
  return h('p', { class: ['rating-change', d >= 0 ? 'up' : 'down'], id: 'rating-change' },
    `Your rating: ${Math.round(before)} → ${Math.round(after)} (${d >= 0 ? '+' : '−'}${Math.abs(d)})`);
}

/**
 * The game hand by hand: what each side made in each hand and its score after it, the winner's
 * column marked. `sheet`: `[{hand, scored, scores}]` from the game's replay (null while it is
 * fetched).
 */
export function scoreSheet(view, sheet) {
  const seats = view.table.seats;
  const n = view.scores.length;
  if (!sheet || !sheet.length) return h('p', { class: 'note', id: 'score-sheet-wait' }, 'The score sheet is on its way…');
  // Many sides scroll sideways inside their own box (focusable, so keys scroll it too).
  return h('section', { class: 'score-sheet-wrap', 'aria-labelledby': 'sheet-h' },
    h('h3', { id: 'sheet-h' }, 'The score sheet'),
    h('div', { class: 'sheet-scroll', tabindex: 0, role: 'region', 'aria-label': 'the score sheet, hand by hand' }, h('table', { class: 'result score-sheet', id: 'score-sheet' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'hand'), Array.from({ length: n }, (_, side) => h('th', { scope: 'col', class: side === view.winner ? 'winner' : null }, sideLabel(seats, view.sides, side))))),
      h('tbody', {}, sheet.map((row, k) => {
        const prev = k ? sheet[k - 1].scores : view.scores.map(() => 0);
        return h('tr', {}, h('th', { scope: 'row' }, String(row.hand)), Array.from({ length: n }, (_, side) => {
          const gain = (row.scores[side] ?? 0) - (prev[side] ?? 0);
          return h('td', { class: 'num' }, h('strong', {}, String(row.scores[side] ?? 0)), h('span', { class: 'gain' }, ` (${gain >= 0 ? '+' : '−'}${Math.abs(gain)})`));
        }));
      })),
      h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, 'final'), Array.from({ length: n }, (_, side) => h('td', { class: ['num', side === view.winner ? 'winner' : ''] }, h('strong', {}, String(view.scores[side])))))))));
}

/** How the hand ended, to show: `endWords` with computer players named by their icon. */
function endLabel(view, o) {
  const seats = view.table.seats;
  if (o.mid_hand) return [sideLabel(seats, view.sides, o.winners[0] ?? view.winner ?? 0), ` reached ${view.table.rules.target} during the hand`];
  return o.end.kind === 'domino' ? [seatLabel(seats, o.end.seat), ' went out'] : ['The hand is blocked'];
}

/**
 * The end-of-hand summary. `kept`: the summary of a hand already over, opened again during the
 * next one (only a Close button).
 */
export function summary(view, st, actions, { kept = false } = {}) {
  const o = view.last_hand;
  const seats = view.table.seats;
  const over = !kept && view.winner !== null && view.winner !== undefined;
  const during = playPoints(view, view.history);
  const proof = (view.proofs || []).find((p) => p.hand === o.hand);
  // The dialog's buttons come first, under its heading, so that "Next hand" and "Play again"
  // are on a phone's screen without scrolling; the main one takes focus (table.js).
  const buttons = kept ? h('div', { class: 'row buttons' }, h('button', { type: 'button', id: 'close-kept', class: 'main-action', onClick: actions.closeKept }, 'Close')) : h('div', { class: 'row buttons' },
    over && view.you != null
      ? [
        view.rematch && st.rematchJoined
          ? h('a', { class: 'button main-action', href: `/table/${view.rematch}`, id: 'rematch-go' }, 'Go to the new table')
          : view.rematch
            ? h('button', { type: 'button', id: 'rematch-accept', class: 'main-action', onClick: actions.rematch }, 'Accept the rematch')
            : h('button', { type: 'button', id: 'play-again', class: 'main-action', disabled: !!st.rematchId, onClick: actions.rematch }, st.rematchId ? 'Opening the new table…' : 'Play again'),
        h('a', { class: 'button', href: `/game/${view.table.id}`, id: 'replay-link' }, 'Replay this game'),
        h('a', { class: 'button', href: '/' }, 'Lobby')]
      : over ? h('a', { class: 'button main-action', href: `/game/${view.table.id}`, id: 'replay-link' }, 'Replay this game') : (view.you != null
        ? h('button', { type: 'button', id: 'next-hand', class: 'main-action', disabled: st.readyNext || view.seed_sent, onClick: actions.next },
          st.readyNext || view.seed_sent ? 'Waiting for the others…' : 'Next hand')
        : null),
    // A tournament's game leads back to its event.
    over && st.tour ? h('a', { class: 'button', href: `/tournaments/${st.tour.id}`, id: 'tour-back' }, `Back to ${st.tour.name}`) : null,
    h('button', { type: 'button', class: 'secondary', id: 'look', onClick: actions.hideSummary }, 'Look at the table'));
  // The game's end for a player: won or lost, said first and big; a spectator sees who won.
  const mySide = view.you != null ? view.sides[view.you] : null;
  const won = over && mySide != null && mySide === view.winner;
  const winners = [sideLabel(seats, view.sides, view.winner), ` win${view.sides.filter((x) => x === view.winner).length > 1 ? '' : 's'}`];
  return h('div', { class: 'overlay', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'sum-h', id: 'summary' },
    h('div', { class: ['card summary', over ? 'final' : '', over && mySide != null ? (won ? 'won' : 'lost') : ''] },
      over
        ? h('h2', { id: 'sum-h', class: 'game-over' },
          mySide != null ? h('span', { class: 'verdict', id: 'verdict' }, won ? 'You won!' : 'You lost') : null,
          h('span', { class: 'winners' }, mySide != null ? ' Game over: ' : 'Game over: ', winners))
        : h('h2', { id: 'sum-h' }, `Hand ${o.hand}: `, endLabel(view, o)),
      over ? h('p', {}, `Hand ${o.hand}: `, endLabel(view, o), '.') : null,
      over && st.ratingChange ? ratingLine(st.ratingChange) : null,
      buttons,
      over ? scoreSheet(view, st.sheet) : null,
      h('h3', {}, 'All hands'),
      h('ul', { class: 'revealed' }, o.hands.map((tiles, i) => h('li', {},
        h('span', { class: 'who' }, seatLabel(seats, i)),
        tiles.length ? tileRow(tiles, `${seatName(seats, i)}'s tiles`) : h('span', {}, 'no tiles'),
        h('span', { class: 'pips' }, `${o.pips[i]} pips`)))),
      h('h3', {}, 'The award, step by step'),
      h('ol', { class: 'explanation' }, o.explanation.map((line) => h('li', {}, withIcons(line)))),
      h('table', { class: 'result' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'side'), h('th', { scope: 'col' }, 'during play'), h('th', { scope: 'col' }, 'award'), h('th', { scope: 'col' }, 'this hand'), h('th', { scope: 'col' }, 'score'))),
        h('tbody', {}, o.scores.map((sc, side) => h('tr', {}, h('td', {}, sideLabel(seats, view.sides, side)), h('td', {}, `+${during[side]}`), h('td', {}, `+${o.scored[side]}`), h('td', { class: 'hand-total' }, `+${during[side] + o.scored[side]}`), h('td', { class: 'num' }, String(sc)))))),
      !over && !kept && view.you != null && st.dealAt ? h('p', { class: 'deal-countdown', id: 'deal-countdown', 'data-deadline': st.dealAt, role: 'timer' },
        'The next hand is dealt in ', h('span', { class: 'clock-t' }, `${Math.max(0, Math.ceil((st.dealAt - Date.now()) / 1000))} s`),
        ' (your seed is sent for you if you have not pressed Next hand by then).') : null,
      proof ? actions.keptProof(`last-${proof.hand}`, () => proofBlock(proof, view.table.rules, view.lead_kind, { history: view.history, remaining: o.hands, lot: view.lot }, { id: 'verify-last' })) : null));
}

