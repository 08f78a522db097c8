// The views of a tournament, built from the API's answers (GET /api/tournaments/{id}): the
// settings in words, the standings, the pairings of each round, the knockout bracket, the arena's
// matches, duplicate boards with their commitments and seeds, cut-throat tables, the crosstable
// and the list of every game. Pure: no requests, no page state (tests.js checks them).
import { h, announce } from './dom.js';
import { presetWords, levelWords } from './format.js';
import { hexToBytes, sha256Hex } from './deal.js';

/** An event's format in words. */
export function formatWords(f) {
  if (!f) return '';
  switch (f.kind) {
    case 'swiss': return `Swiss, ${f.rounds} round${f.rounds === 1 ? '' : 's'}`;
    case 'knockout': return f.double ? 'Knockout, double elimination' : 'Knockout';
    case 'arena': return `Arena, ${minutes(f.duration_ms)}`;
    case 'round_robin': case 'roundrobin': return f.double || f.twice ? 'Double round robin' : 'Round robin';
    case 'duplicate': return `Duplicate${f.boards ? `, ${f.boards} boards` : ''}${f.scoring === 'difference' ? ', by difference' : ''}`;
    case 'daylong': return `Daylong duplicate${f.boards ? `, ${f.boards} boards` : ''}${f.duration_ms ? `, open ${minutes(f.duration_ms)}` : ''}`;
    case 'cut_throat': case 'cutthroat': return `Cut-throat tables${f.min_seats ? ` of ${f.min_seats === f.max_seats ? f.min_seats : `${f.min_seats} to ${f.max_seats}`}` : ''}${f.rounds ? `, ${f.rounds} round${f.rounds === 1 ? '' : 's'}` : ''}`;
    default: return String(f.kind).replace(/_/g, ' ');
  }
}

export function minutes(ms) {
  if (ms >= 60000 && ms % 60000 === 0) {
    const m = ms / 60000;
    return m % 60 === 0 && m >= 120 ? `${m / 60} hours` : `${m} minute${m === 1 ? '' : 's'}`;
  }
  if (ms >= 60000) return `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  return `${s} second${s === 1 ? '' : 's'}`;
}

/** What happens to a game an entrant does not play, in words (the server's defaults: a
 * no-show time of 2 minutes, and a turn clock of the no-show time). */
export function noShowWords(s) {
  const noShow = s.no_show_ms || 120000;
  const turn = s.turn_ms || noShow;
  return `Come to your table when called: if it waits ${minutes(noShow)} for your first move, that game is lost and you are withdrawn. `
    + `Once you have moved, ${minutes(turn)} without a move on your turn is a strike, and the third loses the game, whether you are at the table or not. `
    + 'No computer plays for anyone in a tournament.';
}

export function when(secs) {
  return new Date(secs * 1000).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
}

export function startWords(s) {
  const parts = [];
  if (s.start_at) parts.push(`at ${when(s.start_at)}`);
  if (s.start_when) parts.push(`when ${s.start_when} have joined`);
  return parts.length ? `Starts ${parts.join(', or ')}` : '';
}

export function rulesWords(spec) {
  const [preset, ...opts] = String(spec || '').trim().split(/\s+/);
  const words = [presetWords(preset)];
  const kv = Object.fromEntries(opts.map((o) => o.split('=')));
  if (kv.partnerships === 'true') words.push('in partnerships');
  if (kv.target) words.push(`to ${kv.target}`);
  const rest = opts.filter((o) => !/^(target|players|partnerships)=/.test(o));
  return [words.join(', '), ...rest].join(' ');
}

// The settings this page knows by name; any others the server sends are listed as they come.
const KNOWN = new Set(['name', 'format', 'rules', 'best_of', 'start_at', 'start_when', 'max_entrants', 'min_rating', 'max_rating', 'match_clock_ms', 'turn_ms', 'no_show_ms', 'opponents']);

export function settingsLines(s) {
  const lines = [
    ['Format', formatWords(s.format)],
    ['Rules', rulesWords(s.rules)],
    ['Match', s.best_of > 1 ? `best of ${s.best_of} games` : 'one game'],
  ];
  const start = startWords(s).replace(/^Starts /, '');
  lines.push(['Start', start || (s.format && s.format.kind === 'daylong' ? 'at once, when it was made' : 'not set')]);
  if (s.opponents) lines.push(['Opponents', levelWords(s.opponents)]);
  if (s.match_clock_ms) lines.push(['Match clock', `${minutes(s.match_clock_ms)}, then the hand in play decides`]);
  if (s.turn_ms) lines.push(['Turn clock', `${minutes(s.turn_ms)} a move; the third time out loses the game`]);
  if (s.no_show_ms) lines.push(['No-shows', `lose the game after ${minutes(s.no_show_ms)}; no computer plays for anyone`]);
  if (s.max_entrants) lines.push(['Entrants', `at most ${s.max_entrants}`]);
  if (s.min_rating != null || s.max_rating != null) {
    lines.push(['Ratings', s.min_rating != null && s.max_rating != null ? `${s.min_rating} to ${s.max_rating}`
      : s.min_rating != null ? `${s.min_rating} and above` : `up to ${s.max_rating}`]);
  }
  for (const [k, v] of Object.entries(s)) {
    if (KNOWN.has(k) || v === null || v === undefined) continue;
    const label = k.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
    const text = typeof v === 'object' ? JSON.stringify(v)
      : /_ms$/.test(k) && typeof v === 'number' ? minutes(v)
        : /_secs?$/.test(k) && typeof v === 'number' ? minutes(v * 1000) : String(v);
    lines.push([label.replace(/ (ms|secs?)$/, ''), text]);
  }
  return lines;
}

export function matchSides(ev) {
  const sides = new Map();
  (ev.rounds || []).forEach((r, ri) => r.pairings.forEach((p, i) => sides.set(`${ri}:${i}`, [p.a, p.b])));
  (ev.bracket || []).forEach((m) => sides.set(`0:${m.id}`, m.slots.map(slotEntrant)));
  (ev.matches || []).forEach((m, i) => sides.set(`0:${i}`, [m.a, m.b]));
  return sides;
}

export function slotEntrant(slot) {
  return slot && typeof slot === 'object' && 'Entrant' in slot ? slot.Entrant : null;
}

export function gameLinks(games, label = 'game') {
  return (games || []).map((g, i) => [' ', g.result
    ? h('a', { href: `/game/${g.table}`, class: 'replay-link' }, `${label} ${i + 1} replay`)
    : h('a', { href: `/table/${g.table}`, class: 'table-link' }, `${label} ${i + 1}: watch`)]);
}

/** A duplicate board's table: its replay once played, the table while it is (only its player sees a board in play). */
export function boardLinks(games, board) {
  return (games || []).map((g) => [' ', g.result
    ? h('a', { href: `/game/${g.table}`, class: 'replay-link' }, `board ${board} replay`)
    : h('a', { href: `/table/${g.table}`, class: 'table-link' }, `board ${board}: play`)]);
}

export function resultWords(result) {
  if (!result) return '';
  const [a, b] = result.games;
  const pts = result.points ? ` (${result.points[0]}–${result.points[1]})` : '';
  return `${a}–${b}${result.drawn ? `, ${result.drawn} drawn` : ''}${pts}`;
}

// The tie-breaks the formats name, as their columns are headed (in full in a key under the
// table, in the header's tooltip and for a screen reader); any other is headed in full.
const TIE_SHORT = { buchholz: 'Bch', 'sonneborn-berger': 'SB', 'points +/-': '±', 'points +/- avg': '± avg', matchpoints: 'MP', percent: '%', 'on streak': 'Streak', points: 'Pts' };
const TIE_FULL = { 'points +/-': 'point difference', 'points +/- avg': 'point difference from the average' };

/** A tie-break's column heading: `[short, full]`, or `[name, null]` where it has no short form. */
export function tieHeading(name) {
  const key = String(name).toLowerCase();
  return TIE_SHORT[key] ? [TIE_SHORT[key], TIE_FULL[key] || String(name)] : [String(name).replace(/^./, (c) => c.toUpperCase()), null];
}

export function standingsTable(rows, nameOf, mine) {
  const withTies = rows.some((r) => (r.tiebreaks || []).length);
  const ties = withTies ? rows.find((r) => (r.tiebreaks || []).length).tiebreaks.map((t) => tieHeading(t.name)) : [];
  const short = ties.filter(([, full]) => full);
  const tieTh = ([a, full]) => h('th', { scope: 'col', class: 'tiebreak' }, full
    ? [h('abbr', { title: full, 'aria-hidden': 'true' }, a), h('span', { class: 'visually-hidden' }, full)] : a);
  return h('div', { class: 'standings-box' }, h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'standings table' },
    h('table', { class: 'result standings', id: 'standings-table' },
      h('thead', {}, h('tr', {}, ['Rank', 'Entrant', 'Points', 'W-D-L'].map((x) => h('th', { scope: 'col' }, x)), ties.map(tieTh))),
      h('tbody', {}, rows.map((r) => {
        const rec = r.record || r;
        return h('tr', { class: [r.out ? 'out' : '', mine.has(r.entrant) ? 'mine' : ''], 'data-entrant': r.entrant },
          h('td', {}, String(r.rank)),
          h('td', {}, r.name || nameOf(r.entrant), r.out ? h('span', { class: 'muted' }, ' (out)') : null),
          h('td', {}, fmtPoints(r.points)),
          h('td', {}, `${rec.won}-${rec.drawn}-${rec.lost}`),
          (r.tiebreaks || []).map((t) => h('td', {}, fmtPoints(t.value))));
      })))),
    short.length ? h('p', { class: 'tie-key muted', id: 'tie-key' }, `Tie-breaks: ${short.map(([a, full]) => `${a} = ${full}`).join(', ')}.`) : null);
}

/** Points as people write them: halves as ½ (2½, -½), other fractions to two places. */
export function fmtPoints(x) {
  if (x == null) return '';
  const sign = x < 0 ? '-' : '';
  const whole = Math.floor(Math.abs(x));
  if (Math.abs(Math.abs(x) - whole - 0.5) < 1e-9) return `${sign}${whole || ''}½`;
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

export function roundsSection(ev, nameOf, gamesOf) {
  if (!ev.rounds || !ev.rounds.length) return null;
  return h('section', { class: 'card', 'aria-labelledby': 'rounds-h' },
    h('h2', { id: 'rounds-h' }, 'Pairings'),
    ev.rounds.map((r, ri) => h('div', { class: 'round' },
      h('h3', {}, `Round ${ri + 1}`),
      h('ul', { class: 'pairings', 'data-round': ri + 1 }, r.pairings.map((p, i) => h('li', {},
        p.b == null ? `${nameOf(p.a)}: bye` : [
          h('span', { class: 'pair' }, `${nameOf(p.a)} v ${nameOf(p.b)}`),
          r.results && r.results[i] ? h('span', { class: 'score-text' }, ` ${resultWords(r.results[i])}`) : h('span', { class: 'muted' }, ' playing'),
          gameLinks(gamesOf(ri, i))],
      ))))));
}

export const SIDE_WORDS = { Winners: 'Winners\' bracket', Losers: 'Losers\' bracket', GrandFinal: 'Grand final', Reset: 'Grand final, reset' };

export function slotWords(slot, nameOf) {
  if (slot === 'Empty') return 'bye';
  if (slot === 'Waiting') return 'to be decided';
  return nameOf(slotEntrant(slot));
}

export function bracketSection(ev, nameOf, gamesOf, mine) {
  if (!ev.bracket || !ev.bracket.length) return null;
  const double = ev.bracket.some((m) => m.side !== 'Winners');
  const sides = ['Winners', 'Losers', 'GrandFinal', 'Reset'].map((side) => [side, ev.bracket.filter((m) => m.side === side)]).filter(([, ms]) => ms.length);
  const lastWinners = Math.max(...ev.bracket.filter((m) => m.side === 'Winners').map((m) => m.round));
  const roundName = (side, r) => {
    if (side !== 'Winners') return side === 'Losers' ? `Round ${r}` : '';
    if (!double && r === lastWinners) return 'Final';
    if (!double && r === lastWinners - 1) return 'Semi-finals';
    return `Round ${r}`;
  };
  const matchBox = (m) => {
    const won = slotEntrant(m.winner);
    const games = gamesOf(0, m.id);
    return h('li', { class: ['bmatch', `st-${m.status.toLowerCase()}`], 'data-match': m.id, 'data-status': m.status },
      h('ul', { class: 'bslots', 'aria-label': `match ${m.id + 1}` }, m.slots.map((s, i) => {
        const e = slotEntrant(s);
        return h('li', { class: ['bslot', e != null && e === won ? 'won' : '', e != null && mine.has(e) ? 'mine' : '', e == null ? 'empty' : ''] },
          h('span', { class: 'bname' }, slotWords(s, nameOf)),
          m.result ? h('span', { class: 'bscore' }, String(m.result.games[i])) : null,
          e != null && e === won ? h('span', { class: 'visually-hidden' }, ' (through)') : null);
      })),
      m.status === 'Walkover' ? h('p', { class: 'bnote muted' }, 'walkover') : null,
      m.status === 'Void' ? h('p', { class: 'bnote muted' }, 'not played') : null,
      games.length ? h('p', { class: 'bnote' }, gameLinks(games)) : null);
  };
  return h('section', { class: 'card bracket', 'aria-labelledby': 'bracket-h' },
    h('h2', { id: 'bracket-h' }, 'Bracket'),
    sides.map(([side, ms]) => {
      if (side === 'Reset' && ms.every((m) => m.status === 'Void')) return null;
      const rounds = [...new Set(ms.map((m) => m.round))].sort((a, b) => a - b);
      // The headings in order: the sides (h3) where there are several, then the rounds.
      const roundH = sides.length > 1 ? 'h4' : 'h3';
      const name = sides.length > 1 ? SIDE_WORDS[side] : 'Bracket';
      // Where the box is narrower than its rounds (a phone), a caption and a faded edge say
      // that it scrolls (scrollCues shows them).
      const last = roundName(side, rounds[rounds.length - 1]);
      return h('div', { class: 'bside', 'data-side': side },
        sides.length > 1 ? h('h3', {}, SIDE_WORDS[side]) : null,
        h('p', { class: 'scroll-cue muted', hidden: true, 'aria-hidden': 'true' }, `Scroll sideways for ${last === 'Final' ? 'the final' : 'later rounds'} →`),
        h('div', { class: 'bracket-wrap' },
          h('div', { class: 'bracket-scroll', tabindex: 0, role: 'region', 'aria-label': `${name}, scrolls sideways`, onScroll: (e) => scrollCue(e.currentTarget) },
            h('ol', { class: 'bcols' }, rounds.map((r) => h('li', { class: 'bcol' },
              roundName(side, r) ? h(roundH, {}, roundName(side, r)) : null,
              h('ol', { class: 'bmatches' }, ms.filter((m) => m.round === r).sort((a, b) => a.index - b.index).map(matchBox))))))));
    }),
    ev.status === 'finished' && !ev.cancelled ? championLine(ev, nameOf) : null);
}

/**
 * A bracket box's cues that it scrolls: its caption shown while its rounds are wider than
 * the box, and a faded edge on each side that has more to see.
 */
export function scrollCue(box) {
  const wrap = box.parentElement;
  const over = box.scrollWidth > box.clientWidth + 1;
  wrap.classList.toggle('more-right', over && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
  wrap.classList.toggle('more-left', over && box.scrollLeft > 1);
  const cue = wrap.parentElement.querySelector('.scroll-cue');
  if (cue) cue.hidden = !over;
}

/** Every bracket box's cues in `root` (after a redraw, or when the window changes size). */
export function scrollCues(root) {
  for (const box of root.querySelectorAll('.bracket-scroll')) scrollCue(box);
}

export function championLine(ev, nameOf) {
  const top = (ev.standings || []).find((r) => r.rank === 1);
  return top ? h('p', { class: 'champion', id: 'champion' }, `Champion: ${nameOf(top.entrant)}`) : null;
}

export function arenaSection(ev, nameOf, gamesOf) {
  if (!ev.matches || !ev.matches.length) return null;
  const recent = ev.matches.map((m, i) => [m, i]).reverse().slice(0, 40);
  return h('section', { class: 'card', 'aria-labelledby': 'arena-h' },
    h('h2', { id: 'arena-h' }, 'Recent matches'),
    h('ul', { class: 'pairings arena-matches' }, recent.map(([m, i]) => h('li', {},
      `${nameOf(m.a)} v ${nameOf(m.b)}`,
      m.result ? h('span', { class: 'score-text' }, ` ${resultWords(m.result)}`) : h('span', { class: 'muted' }, ' playing'),
      gameLinks(gamesOf(0, i))))));
}

export function boardsSection(ev, nameOf) {
  if (!ev.boards || !ev.boards.length) return null;
  return h('section', { class: 'card boards', 'aria-labelledby': 'boards-h' },
    h('h2', { id: 'boards-h' }, 'Boards'),
    ev.closes_ms ? h('p', {}, `Entries close ${new Date(ev.closes_ms).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })}.`) : null,
    h('p', { class: 'note' }, 'Every entrant plays the same deals. Each board\'s commitment is published from the start and its seed when the event ends: the seed\'s SHA-256 must equal the commitment, and each game\'s replay re-derives its deal.'),
    ev.boards.map((b) => {
      const out = h('span', { class: 'verify-board', 'aria-live': 'polite' });
      const verify = async () => {
        try {
          const got = await sha256Hex(hexToBytes(b.seed));
          const ok = got === String(b.commit).toLowerCase();
          out.className = `verify-board ${ok ? 'ok' : 'bad'}`;
          out.textContent = ok ? ` ✓ SHA-256 of the seed equals the commitment` : ` ✗ SHA-256 of the seed is ${got}`;
          announce(ok ? `Board ${b.board} verified` : `Board ${b.board}: the seed does not match`);
        } catch (e) { out.className = 'verify-board bad'; out.textContent = ` ✗ ${e.message}`; }
      };
      return h('div', { class: 'board-box', 'data-board': b.board },
        h('h3', {}, `Board ${b.board}`),
        h('div', { class: 'hex' }, h('span', { class: 'k' }, 'commitment'), ' ', h('code', {}, b.commit)),
        h('div', { class: 'hex' }, h('span', { class: 'k' }, 'seed'), ' ', b.seed ? h('code', {}, b.seed) : h('span', { class: 'muted' }, 'published when the event ends')),
        b.seed ? h('p', {}, h('button', { type: 'button', class: 'secondary', onClick: verify }, `Verify board ${b.board}`), out) : null,
        b.hidden ? h('p', { class: 'muted board-hidden' }, 'Results are shown once you have played this board (everyone plays the same deal).') : null,
        b.average != null ? h('p', {}, `Average score: ${Number(b.average).toFixed(1)}`) : null,
        (b.results || []).length ? h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': `board ${b.board} results` }, h('table', { class: 'result' },
          h('thead', {}, h('tr', {}, ['Entrant', 'Score', 'Matchpoints', 'Difference', 'Game'].map((x) => h('th', { scope: 'col' }, x)))),
          h('tbody', {}, b.results.map((r) => h('tr', {},
            h('td', {}, nameOf(r.entrant)), h('td', {}, r.no_show ? 'no-show' : String(r.score)), h('td', {}, fmtPoints(r.matchpoints)), h('td', {}, Number(r.diff).toFixed(1)),
            h('td', {}, r.table ? h('a', { href: `/game/${r.table}` }, 'replay') : '')))))) : null);
    }));
}

export function cutThroatSection(ev, nameOf) {
  if (!Array.isArray(ev.tables) || !ev.tables.length) return null;
  return h('section', { class: 'card', 'aria-labelledby': 'ct-h' },
    h('h2', { id: 'ct-h' }, 'Tables'),
    ev.tables.map((round, ri) => h('div', { class: 'round' }, h('h3', {}, `Round ${ri + 1}`),
      h('ul', { class: 'pairings' }, round.map((t, ti) => h('li', {},
        `Table ${ti + 1}: `, t.entrants.map((e, k) => `${nameOf(e)}${t.scores ? ` ${t.scores[k]}` : ''}`).join(', '),
        t.table ? [' ', t.scores ? h('a', { href: `/game/${t.table}` }, 'replay') : h('a', { href: `/table/${t.table}` }, 'watch')] : null))))));
}

/** The crosstable of a finished Swiss or round robin: each entrant's result against each other. */
export function crosstable(ev, nameOf) {
  if (ev.status !== 'finished' || !ev.rounds || !ev.rounds.length) return null;
  const order = (ev.standings || []).map((r) => r.entrant);
  const place = new Map(order.map((e, i) => [e, i]));
  const cells = new Map();
  const add = (x, y, text) => { const k = `${x}:${y}`; cells.set(k, [...(cells.get(k) || []), text]); };
  const byes = new Map();
  ev.rounds.forEach((r) => r.pairings.forEach((p, i) => {
    if (p.b == null) { byes.set(p.a, (byes.get(p.a) || 0) + 1); return; }
    const res = r.results && r.results[i];
    if (!res) return;
    const [ga, gb] = res.games;
    add(p.a, p.b, ga > gb ? '1' : ga < gb ? '0' : '½');
    add(p.b, p.a, gb > ga ? '1' : gb < ga ? '0' : '½');
  }));
  return h('section', { class: 'card', 'aria-labelledby': 'cross-h' },
    h('h2', { id: 'cross-h' }, 'Crosstable'),
    h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'crosstable table' },
      h('table', { class: 'result crosstable', id: 'crosstable' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'Entrant'), order.map((_, i) => h('th', { scope: 'col' }, String(i + 1))), h('th', { scope: 'col' }, 'Byes'), h('th', { scope: 'col' }, 'Points'))),
        h('tbody', {}, order.map((e, i) => h('tr', {},
          h('td', {}, String(i + 1)), h('th', { scope: 'row' }, nameOf(e)),
          order.map((o) => h('td', { class: o === e ? 'self' : '' }, o === e ? '×' : (cells.get(`${e}:${o}`) || []).join(' '))),
          h('td', {}, String(byes.get(e) || 0)),
          h('td', {}, fmtPoints(ev.standings[place.get(e)].points))))))));
}

/** Every game of the event, with its replay or its table. */
export function allGames(ev, nameOf, sides) {
  const list = ev.games || [];
  if (!list.length) return null;
  const label = (g) => {
    const pair = sides.get(`${g.round}:${g.match}`);
    const who = pair && pair[0] != null && pair[1] != null ? `${nameOf(pair[0])} v ${nameOf(pair[1])}` : `match ${g.match + 1}`;
    return ev.rounds ? `Round ${g.round + 1}: ${who}` : who;
  };
  // A duplicate event's games are keyed by board and entrant: each is one board, played at
  // one table (a tie plays the board's next hand there).
  const item = (g) => (ev.boards
    ? h('li', {}, `Board ${g.round + 1} · ${nameOf(g.match)} ·`, boardLinks(g.games, g.round + 1))
    : h('li', {}, label(g), ' ·', gameLinks(g.games)));
  return h('section', { class: 'card', 'aria-labelledby': 'games-h' },
    h('h2', { id: 'games-h' }, 'Every game'),
    h('ul', { class: 'all-games' }, list.map(item)));
}

/** The table of yours being played now, if any: its id. */
export function myTable(ev, mine, sides) {
  for (const g of ev.games || []) {
    const last = g.games[g.games.length - 1];
    if (!last || last.result) continue;
    // A duplicate event's games are keyed by board and entrant.
    const pair = ev.boards ? [g.match] : sides.get(`${g.round}:${g.match}`) || [];
    if (pair.some((e) => mine.has(e))) return last.table;
  }
  for (const round of Array.isArray(ev.tables) ? ev.tables : []) {
    for (const t of round) if (t.table && !t.scores && t.entrants.some((e) => mine.has(e))) return t.table;
  }
  for (const b of ev.boards || []) {
    for (const r of b.results || []) if (r.table && mine.has(r.entrant) && r.score == null && !r.no_show) return r.table;
  }
  return null;
}

/**
 * Where the table `id` plays in the event `ev`: "Round 2" (a Swiss or round robin's game, a
 * cut-throat table), "Board 3" (a duplicate board), or '' where the format has no rounds (a
 * knockout's bracket names its matches, an arena pairs as people come).
 */
export function tablePlace(ev, id) {
  for (const g of ev.games || []) {
    if (!(g.games || []).some((x) => x.table === id)) continue;
    if (ev.boards) return `Board ${g.round + 1}`;
    return ev.rounds ? `Round ${g.round + 1}` : '';
  }
  const rounds = Array.isArray(ev.tables) ? ev.tables : [];
  for (let ri = 0; ri < rounds.length; ri += 1) {
    if (rounds[ri].some((t) => t.table === id)) return `Round ${ri + 1}`;
  }
  for (const b of ev.boards || []) {
    if ((b.results || []).some((r) => r.table === id)) return `Board ${b.board}`;
  }
  return '';
}
