// Tournaments: the list (upcoming, running, finished) with the create form, and one event's
// page: its settings, entrants, live standings (followed over the websocket), the pairings of
// each round, the knockout bracket, the arena's matches, duplicate boards with their
// commitments and seeds, cut-throat tables, a crosstable and every game's replay.
import { h, mount, announce } from './dom.js';
import { api } from './api.js';
import { Conn } from './conn.js';
import { presetWords, levelWords } from './format.js';
import { go } from './context.js';
import { formatWords, startWords, rulesWords, settingsLines, matchSides, standingsTable, roundsSection, bracketSection, arenaSection, boardsSection, cutThroatSection, crosstable, allGames, myTable, noShowWords, scrollCues } from './tourview.js';

const FORMATS = [
  ['swiss', 'Swiss'], ['knockout', 'Knockout (single elimination)'], ['double', 'Knockout (double elimination)'], ['arena', 'Arena'],
  ['round_robin', 'Round robin'], ['double_round_robin', 'Round robin, twice'], ['cut_throat', 'Cut-throat tables'],
  ['duplicate', 'Duplicate (same deals, against the computer)'], ['daylong', 'Daylong duplicate (open for hours)'],
];
const OPPONENTS = ['beginner', 'casual', 'club', 'strong', 'expert', 'master'];

// ---------------------------------------------------------------------------------------------
// The list and the create form
// ---------------------------------------------------------------------------------------------

function listItem(t, app) {
  // An upcoming event is joined from the list (a partnership event asks for the partner on its
  // own page); the event's page opens once in, and a refusal is said beside the button.
  const err = h('span', { class: 'error', role: 'alert' });
  const teams = /partnerships=true/.test(t.settings.rules);
  const join = app.user && t.status === 'upcoming' && !teams ? h('button', { type: 'button', class: 'secondary join-listed', 'aria-label': `Join ${t.name}`, onClick: async () => {
    err.textContent = '';
    try { await api.joinTournament(t.id); go(`/tournaments/${t.id}`); } catch (e) { err.textContent = ` ${e.message}`; }
  } }, 'Join') : null;
  return h('li', { class: 'tour-item', 'data-tournament': t.id },
    h('a', { href: `/tournaments/${t.id}`, class: 'tour-name' }, t.name),
    h('span', { class: 'muted' }, ` · ${formatWords(t.settings.format)} · ${rulesWords(t.settings.rules)}`),
    h('span', {}, ` · ${t.entrants} entrant${t.entrants === 1 ? '' : 's'}${t.settings.max_entrants ? ` of ${t.settings.max_entrants}` : ''}`),
    t.status === 'upcoming' && startWords(t.settings) ? h('span', { class: 'muted' }, ` · ${startWords(t.settings)}`) : null,
    join ? [' ', join, err] : null);
}

function numberOrNull(input) {
  const v = input.value.trim();
  return v === '' ? null : Number(v);
}

function createForm(cfg) {
  const err = h('p', { class: 'error', id: 'tc-error', role: 'alert' });
  const field = (id, label, input, note) => h('div', { class: 'field' }, h('label', { for: id }, label), input, note ? h('span', { class: 'key', id: `${id}-note` }, note) : null);
  const name = h('input', { id: 'tc-name', maxlength: 64, required: true, autocomplete: 'off' });
  const format = h('select', { id: 'tc-format' }, FORMATS.map(([v, t]) => h('option', { value: v }, t)));
  const rounds = h('input', { id: 'tc-rounds', type: 'number', min: 1, max: 50, value: 5 });
  const arena = h('input', { id: 'tc-minutes', type: 'number', min: 1, max: 1440, value: 30 });
  const preset = h('select', { id: 'tc-preset' }, cfg.presets.filter((p) => p.players[0] <= 2 || p.players[1] >= 4).map((p) => h('option', { value: p.name }, presetWords(p.name))));
  const partners = h('select', { id: 'tc-players' }, h('option', { value: '2' }, 'two players'), h('option', { value: '4' }, 'four, in partnerships'));
  const target = h('input', { id: 'tc-target', type: 'number', min: 50, max: 1000, placeholder: 'preset' });
  const bestOf = h('input', { id: 'tc-best-of', type: 'number', min: 1, max: 99, value: 1 });
  const matchClock = h('input', { id: 'tc-match-clock', type: 'number', min: 1, max: 240, placeholder: 'none' });
  const turnClock = h('input', { id: 'tc-turn-clock', type: 'number', min: 1, max: 600, placeholder: 'none' });
  const startAt = h('input', { id: 'tc-start-at', type: 'datetime-local' });
  const startWhen = h('input', { id: 'tc-start-when', type: 'number', min: 2, max: 10000 });
  const maxEntrants = h('input', { id: 'tc-max', type: 'number', min: 2, max: 10000 });
  const minRating = h('input', { id: 'tc-min-rating', type: 'number' });
  const maxRating = h('input', { id: 'tc-max-rating', type: 'number' });
  const minSeats = h('input', { id: 'tc-min-seats', type: 'number', min: 3, max: 8, value: 3 });
  const maxSeats = h('input', { id: 'tc-max-seats', type: 'number', min: 3, max: 8, value: 4 });
  const boards = h('input', { id: 'tc-boards', type: 'number', min: 1, max: 64, value: 8 });
  const scoring = h('select', { id: 'tc-scoring' }, h('option', { value: 'matchpoints' }, 'matchpoints'), h('option', { value: 'difference' }, 'difference from the average'));
  const opponents = h('select', { id: 'tc-opponents' }, OPPONENTS.map((l) => h('option', { value: l, selected: l === 'expert' }, levelWords(l))));
  const hours = h('input', { id: 'tc-hours', type: 'number', min: 1, max: 168, value: 24 });
  const noShow = h('input', { id: 'tc-no-show', type: 'number', min: 1, max: 60, placeholder: '2' });
  const roundsField = field('tc-rounds', 'Rounds', rounds);
  const arenaField = field('tc-minutes', 'Length (minutes)', arena);
  const seatsField = [field('tc-min-seats', 'Fewest at a table', minSeats), field('tc-max-seats', 'Most at a table', maxSeats)];
  const dupFields = [field('tc-boards', 'Boards', boards), field('tc-scoring', 'Scored by', scoring), field('tc-opponents', 'Computer opponents', opponents)];
  const hoursField = field('tc-hours', 'Open for (hours)', hours);
  const playersField = field('tc-players', 'Players', partners);
  const showFormat = () => {
    const f = format.value;
    roundsField.hidden = f !== 'swiss' && f !== 'cut_throat';
    arenaField.hidden = f !== 'arena';
    for (const el of seatsField) el.hidden = f !== 'cut_throat';
    for (const el of dupFields) el.hidden = f !== 'duplicate' && f !== 'daylong';
    hoursField.hidden = f !== 'daylong';
    // A cut-throat table is every player for themselves.
    playersField.hidden = f === 'cut_throat';
  };
  format.addEventListener('change', showFormat);
  showFormat();
  const settings = () => {
    const f = format.value;
    const fmt = f === 'swiss' ? { kind: 'swiss', rounds: Number(rounds.value) }
      : f === 'arena' ? { kind: 'arena', duration_ms: Math.round(Number(arena.value) * 60000) }
        : f === 'round_robin' || f === 'double_round_robin' ? { kind: 'round_robin', double: f === 'double_round_robin' }
          : f === 'cut_throat' ? { kind: 'cut_throat', rounds: Number(rounds.value), min_seats: Number(minSeats.value), max_seats: Number(maxSeats.value) }
            : f === 'duplicate' ? { kind: 'duplicate', boards: Number(boards.value), scoring: scoring.value }
              : f === 'daylong' ? { kind: 'daylong', boards: Number(boards.value), scoring: scoring.value, duration_ms: Math.round(Number(hours.value) * 3600000) }
                : { kind: 'knockout', double: f === 'double' };
    let rules = preset.value;
    if (partners.value === '4' && f !== 'cut_throat') rules += ' players=4 partnerships=true';
    if (target.value.trim()) rules += ` target=${Number(target.value)}`;
    const s = { name: name.value.trim(), format: fmt, rules, best_of: Number(bestOf.value || 1) };
    if (startAt.value) s.start_at = Math.floor(new Date(startAt.value).getTime() / 1000);
    const n = numberOrNull(startWhen); if (n !== null) s.start_when = n;
    const m = numberOrNull(maxEntrants); if (m !== null) s.max_entrants = m;
    const lo = numberOrNull(minRating); if (lo !== null) s.min_rating = lo;
    const hi = numberOrNull(maxRating); if (hi !== null) s.max_rating = hi;
    // The clocks: the match clock in minutes, the turn clock's limit in seconds.
    const mc = numberOrNull(matchClock); if (mc !== null) s.match_clock_ms = Math.round(mc * 60000);
    const tc = numberOrNull(turnClock); if (tc !== null) s.turn_ms = Math.round(tc * 1000);
    const ns = numberOrNull(noShow); if (ns !== null) s.no_show_ms = Math.round(ns * 60000);
    if (f === 'duplicate' || f === 'daylong') s.opponents = opponents.value;
    return s;
  };
  // What the form can tell before asking the server (which checks everything again).
  const problem = (s) => {
    if (!s.name) return ['tc-name', 'Give the tournament a name.'];
    if (!s.start_at && !s.start_when && s.format.kind !== 'daylong') return ['tc-start-when', 'Give a start time, or the number of entrants that starts it (or both).'];
    for (const [el, id] of [[rounds, 'tc-rounds'], [bestOf, 'tc-best-of'], [target, 'tc-target'], [startWhen, 'tc-start-when'], [maxEntrants, 'tc-max'], [matchClock, 'tc-match-clock'], [turnClock, 'tc-turn-clock'], [noShow, 'tc-no-show'], [minSeats, 'tc-min-seats'], [maxSeats, 'tc-max-seats'], [boards, 'tc-boards'], [hours, 'tc-hours']]) {
      if (!el.closest('[hidden]') && el.value.trim() !== '' && !el.checkValidity()) {
        return [id, `${el.labels[0].textContent}: ${el.validationMessage}`];
      }
    }
    return null;
  };
  const form = h('form', { id: 'tour-create', class: 'card', 'aria-labelledby': 'tc-h', novalidate: true, onSubmit: async (ev) => {
    ev.preventDefault();
    err.textContent = '';
    for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
    const s = settings();
    const bad = problem(s);
    if (bad) {
      const el = document.getElementById(bad[0]);
      el.setAttribute('aria-invalid', 'true');
      err.textContent = bad[1];
      el.focus();
      return;
    }
    const button = form.querySelector('#tc-go');
    button.disabled = true;
    try {
      const r = await api.createTournament(s);
      // A server that does not keep a clock asked for says so rather than dropping it quietly.
      const made = await api.tournament(r.id);
      const lost = ['match_clock_ms', 'turn_ms', 'no_show_ms'].filter((k) => s[k] != null && made.settings[k] == null);
      go(`/tournaments/${r.id}${lost.length ? `?unsupported=${lost.join(',')}` : ''}`);
    } catch (e) {
      err.textContent = e.message;
      button.disabled = false;
      err.focus?.();
    }
  } },
  h('h2', { id: 'tc-h' }, 'Create a tournament'),
  h('div', { class: 'row' }, field('tc-name', 'Name', name), field('tc-format', 'Format', format), roundsField, arenaField, seatsField, hoursField),
  h('div', { class: 'row' }, dupFields),
  h('div', { class: 'row' }, field('tc-preset', 'Game', preset), playersField, field('tc-target', 'Target', target), field('tc-best-of', 'Games a match (best of)', bestOf)),
  h('fieldset', {}, h('legend', {}, 'Clocks'), h('div', { class: 'row' },
    field('tc-match-clock', 'Match clock (minutes)', matchClock), field('tc-turn-clock', 'Turn clock limit (seconds)', turnClock), field('tc-no-show', 'No-show after (minutes)', noShow))),
  h('fieldset', {}, h('legend', {}, 'Start'), h('div', { class: 'row' },
    field('tc-start-at', 'Start time', startAt), field('tc-start-when', 'or when this many have joined', startWhen))),
  h('fieldset', {}, h('legend', {}, 'Limits'), h('div', { class: 'row' },
    field('tc-max', 'Most entrants', maxEntrants), field('tc-min-rating', 'Lowest rating', minRating), field('tc-max-rating', 'Highest rating', maxRating))),
  h('p', {}, h('button', { type: 'submit', id: 'tc-go' }, 'Create')),
  err);
  err.setAttribute('tabindex', '-1');
  return form;
}

export async function tournamentsPage(main, { app }) {
  document.title = 'Tournaments · fiveup';
  const [lists, cfg] = await Promise.all([api.tournaments(), api.config()]);
  const section = (key, title, empty) => h('section', { class: 'card', 'aria-labelledby': `tl-${key}` },
    h('h2', { id: `tl-${key}` }, title),
    (lists[key] || []).length ? h('ul', { class: 'tour-list', id: `tour-${key}` }, lists[key].map((t) => listItem(t, app))) : h('p', { class: 'muted' }, empty));
  mount(main, h('section', { class: 'page tournaments', 'aria-labelledby': 'tours-h' },
    h('h1', { id: 'tours-h' }, 'Tournaments'),
    h('div', { class: 'lobby-grid' },
      h('div', {},
        section('running', 'Running', 'No tournament is being played now.'),
        section('upcoming', 'Upcoming', 'No tournament is waiting to start.'),
        section('finished', 'Finished', 'No tournament has finished yet.')),
      h('div', {},
        app.user?.registered ? createForm(cfg)
          : h('section', { class: 'card', 'aria-labelledby': 'tc-h' }, h('h2', { id: 'tc-h' }, 'Create a tournament'),
            h('p', {}, app.user ? 'Register to create tournaments: ' : 'Log in or register to create tournaments: ', h('a', { href: '/' }, 'the lobby'), '.'))))));
  return null;
}

// ---------------------------------------------------------------------------------------------
// One event
// ---------------------------------------------------------------------------------------------

/** One event's page, following the event over the websocket. */
export async function tournamentPage(main, { params: [id], query, app }) {
  let ev = await api.tournament(id);
  let cfg = null;
  let live = null; // the standings pushed last over the websocket
  let conn = null;
  let refreshTimer = null;
  let closed = false;
  const unsupported = (query.get('unsupported') || '').split(',').filter(Boolean);
  const sections = h('div', { class: 'tour-sections' });
  const actions = h('div', { class: 'tour-actions' });
  const standingsBox = h('section', { class: 'card', 'aria-labelledby': 'standings-h' });
  const status = h('p', { class: 'tour-status', id: 'tour-status', role: 'status' });
  const err = h('p', { class: 'error', role: 'alert', id: 'tour-error' });
  const heading = h('h1', { id: 'tour-h' });
  let actionsKey = '';

  const nameOf = (e) => {
    if (e == null) return 'bye';
    const row = (ev.entrants || []).find((r) => r.entrant.id === e);
    return row ? row.entrant.name : `entrant ${e}`;
  };
  const mineSet = () => new Set((ev.entrants || []).filter((r) => !r.withdrawn && app.user && r.members.some((m) => m.kind === 'user' && m.user.id === app.user.id)).map((r) => r.entrant.id));

  const statusWords = () => {
    if (ev.cancelled) return 'Cancelled: fewer than two entrants when it was due to start.';
    if (ev.status === 'finished') return 'Finished.';
    if (ev.status === 'running' && ev.settings.format.kind === 'daylong') return ev.late_entry ? 'Open: join and play the boards whenever you like.' : 'Closed to entries; the boards in play are being finished.';
    if (ev.status === 'running') return ev.late_entry ? 'Running; late entries are open.' : 'Running.';
    return `Upcoming. ${startWords(ev.settings)}.`;
  };

  const drawActions = (mine) => {
    const inIt = mine.size > 0;
    const creator = app.user && app.user.id === ev.creator;
    const canWithdraw = inIt && ev.status !== 'finished' && !(ev.status === 'running' && ev.settings.format.kind === 'knockout');
    const key = JSON.stringify([!!app.user, inIt, ev.late_entry, canWithdraw, creator, ev.status]);
    if (key === actionsKey) return;
    actionsKey = key;
    const had = document.activeElement && actions.contains(document.activeElement) ? document.activeElement.id : null;
    const act = async (fn, done) => {
      err.textContent = '';
      try { await fn(); announce(done); await refresh(); } catch (e) { err.textContent = e.message; }
    };
    const teams = /partnerships=true/.test(ev.settings.rules);
    const partner = teams && cfg ? h('select', { id: 'partner' }, cfg.bot_levels.map((l) => h('option', { value: l, selected: l === 'club' }, levelWords(l)))) : null;
    const level = cfg ? h('select', { id: 'bot-level' }, cfg.bot_levels.map((l) => h('option', { value: l }, levelWords(l)))) : null;
    const count = h('input', { id: 'bot-count', type: 'number', min: 1, max: 1000, value: 1 });
    mount(actions,
      !app.user && ev.late_entry ? h('p', {}, h('a', { href: '/' }, 'Log in or play as a guest'), ' to join.') : null,
      app.user && !inIt && ev.late_entry ? h('form', { class: 'row', id: 'join-form', onSubmit: (e) => {
        e.preventDefault();
        act(() => api.joinTournament(id, partner ? { partner: partner.value } : undefined), 'You have joined the tournament.');
      } }, partner ? h('div', { class: 'field' }, h('label', { for: 'partner' }, 'Your computer partner'), partner) : null,
      h('button', { type: 'submit', id: 'join' }, ev.status === 'running' && ev.settings.format.kind !== 'daylong' ? 'Join late' : 'Join')) : null,
      inIt ? h('p', { class: 'ok', id: 'entered', tabindex: -1 }, ev.status === 'finished' ? 'You played in this tournament.' : 'You are in this tournament.') : null,
      // What happens to a game you do not play: no computer plays for anyone in a tournament.
      inIt && ev.status !== 'finished' ? h('p', { class: 'muted', id: 'no-show-rule' }, noShowWords(ev.settings)) : null,
      canWithdraw ? h('button', { type: 'button', class: 'secondary', id: 'withdraw', onClick: () => act(() => api.withdrawTournament(id), 'You have withdrawn.') }, 'Withdraw') : null,
      creator && ev.late_entry && cfg ? h('form', { class: 'row', id: 'bots-form', 'aria-label': 'add computer entrants', onSubmit: (e) => {
        e.preventDefault();
        act(() => api.tournamentBots(id, level.value, Number(count.value)), 'Computer entrants added.');
      } }, h('div', { class: 'field' }, h('label', { for: 'bot-level' }, 'Computer level'), level),
      h('div', { class: 'field' }, h('label', { for: 'bot-count' }, 'How many'), count),
      h('button', { type: 'submit', id: 'add-bots' }, 'Add computer entrants')) : null);
    // The control used may be gone (Join, once joined): the focus goes to what happened.
    if (had !== null) (document.getElementById(had) || actions.querySelector('button, a, #entered') || status).focus();
  };

  const draw = () => {
    const mine = mineSet();
    const sides = matchSides(ev);
    const gamesOf = (r, m) => ((ev.games || []).find((g) => g.round === r && g.match === m) || {}).games || [];
    document.title = `${ev.name} · Tournaments · fiveup`;
    heading.textContent = ev.name;
    // Set only when it changes: the status line is announced.
    if (status.textContent !== statusWords()) status.textContent = statusWords();
    drawActions(mine);
    // A push's standings have no tie-breaks: each row keeps those of the last full answer
    // (read again at once) rather than the columns going and coming back.
    const tieOf = new Map((ev.standings || []).map((r) => [r.entrant, r.tiebreaks]));
    const rows = live && live.length ? live.map((r) => (r.tiebreaks ? r : { ...r, tiebreaks: tieOf.get(r.entrant) || [] })) : ev.standings || [];
    const yours = myTable(ev, mine, sides);
    mount(standingsBox, h('h2', { id: 'standings-h' }, 'Standings'),
      yours ? h('p', { class: 'your-table' }, h('a', { class: 'button', id: 'your-table', href: `/table/${yours}` }, 'Go to your table')) : null,
      rows.length ? standingsTable(rows, nameOf, mine) : h('p', { class: 'muted' }, 'The standings start with the first round.'));
    // Redraw the rest, keeping the focus (by id, or the same link) and each box's scroll.
    const focused = document.activeElement && sections.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = focused ? (focused.id || focused.getAttribute('href') || focused.getAttribute('aria-label')) : null;
    const scrolls = [...sections.querySelectorAll('.bracket-scroll, .table-scroll')].map((b) => b.scrollLeft);
    // An entry withdrawn before it played (before the start) is gone; one withdrawn later stays.
    const ranked = new Set((ev.standings || []).map((r) => r.entrant));
    const shown = (ev.entrants || []).filter((r) => !r.withdrawn || ranked.has(r.entrant.id));
    mount(sections,
      bracketSection(ev, nameOf, gamesOf, mine),
      roundsSection(ev, nameOf, gamesOf),
      arenaSection(ev, nameOf, gamesOf),
      boardsSection(ev, nameOf),
      cutThroatSection(ev, nameOf),
      crosstable(ev, nameOf),
      h('section', { class: 'card', 'aria-labelledby': 'entrants-h' },
        h('h2', { id: 'entrants-h' }, `Entrants (${shown.filter((r) => !r.withdrawn).length})`),
        shown.length ? h('ol', { class: 'entrants', id: 'entrants' }, shown.map((r) => h('li', { class: [r.withdrawn ? 'out' : '', mine.has(r.entrant.id) ? 'mine' : ''] },
          r.entrant.name, r.entrant.rating ? h('span', { class: 'muted' }, ` (${r.entrant.rating})`) : null,
          r.members.every((m) => m.kind === 'bot') ? h('span', { class: 'muted' }, ' · computer') : null,
          r.withdrawn ? h('span', { class: 'muted' }, ' · withdrawn') : null))) : h('p', { class: 'muted' }, 'Nobody has joined yet.')),
      allGames(ev, nameOf, sides));
    [...sections.querySelectorAll('.bracket-scroll, .table-scroll')].forEach((b, i) => { if (scrolls[i]) b.scrollLeft = scrolls[i]; });
    scrollCues(sections);
    if (focusKey) {
      const again = [...sections.querySelectorAll('a, button, [tabindex]')].find((el) => (el.id || el.getAttribute('href') || el.getAttribute('aria-label')) === focusKey);
      again?.focus();
    }
  };

  const refresh = async () => {
    try {
      ev = await api.tournament(id);
      // The full answer's standings are newer than any push before it.
      live = null;
      draw();
    } catch (e) {
      if (!closed) err.textContent = e.message;
    }
  };

  mount(main, h('section', { class: 'page tournament', 'aria-labelledby': 'tour-h', 'data-tournament': id },
    h('p', { class: 'crumbs' }, h('a', { href: '/tournaments' }, 'All tournaments')),
    heading,
    status,
    unsupported.length ? h('p', { class: 'error', id: 'unsupported' }, `This server does not run ${unsupported.map((k) => ({ match_clock_ms: 'a match clock', turn_ms: 'a turn clock limit', no_show_ms: 'a no-show time' }[k] || k)).join(' or ')} yet: the tournament was created without it.`) : null,
    h('div', { class: 'lobby-grid tour-top' },
      h('section', { class: 'card', 'aria-labelledby': 'settings-h' },
        h('h2', { id: 'settings-h' }, 'Settings'),
        h('dl', { class: 'stats' }, settingsLines(ev.settings).map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
        actions, err),
      standingsBox),
    sections));
  status.setAttribute('tabindex', '-1');
  draw();
  const resized = () => scrollCues(sections);
  window.addEventListener('resize', resized);
  api.config().then((c) => { cfg = c; actionsKey = ''; if (!closed) drawActions(mineSet()); }, () => {});

  // Follow the event: the server pushes its standings on every change; the rest (pairings,
  // bracket, games) is read again once the pushes settle.
  conn = new Conn({
    onOpen: (c) => c.send({ type: 'tournament', tournament: id }),
    onStatus: (ok) => app.setNet(ok),
    onMessage: (msg) => {
      if (msg.type !== 'tournament' || !msg.event || msg.event.id !== id) return;
      const before = ev.status;
      live = msg.event.standings;
      ev.status = msg.event.status;
      draw();
      if (before !== ev.status) announce(`The tournament is ${ev.status === 'running' ? 'under way' : ev.status}.`);
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(refresh, 150);
    },
  });
  return () => {
    closed = true;
    window.removeEventListener('resize', resized);
    clearTimeout(refreshTimer);
    conn.send({ type: 'tournament', tournament: '' });
    conn.close();
  };
}

