// The lobby: who you are (guest, login, register), the open tables live, and a new table.
import { h, mount, announce } from './dom.js';
import { api, call } from './api.js';
import { Conn } from './conn.js';
import { seatName, shortRules, gameName, optionsString, valueWords, levelWords, rulesLines, presetWords, setWords, maxPlayers, maxHand, formProblems, plainRulesWords, presetRulesFor, formOptions } from './format.js';
import { go } from './context.js';
import { ratingOf } from './ratings.js';
import { clockControls, refreshBadge, corrTitle } from './corr.js';
import { withIcons } from './panels.js';

function errorLine() {
  return h('p', { class: 'error', role: 'alert' });
}

/**
 * What is missing from a log-in or registration form, checked in the page so that an empty or
 * too short field is said at once and nothing is sent: one sentence, or '' when the fields
 * will do. Each field found wanting is marked invalid and the first takes the focus.
 */
export function accountProblems(user, pass) {
  const name = user.value.trim().length;
  const problems = [
    [user, name === 0 ? 'a user name' : name < 3 ? 'a user name of at least 3 characters' : ''],
    [pass, pass.value.length === 0 ? 'a password' : pass.value.length < 8 ? 'a password of at least 8 characters' : ''],
  ];
  for (const [field, p] of problems) field.setAttribute('aria-invalid', p ? 'true' : 'false');
  const wanting = problems.filter(([, p]) => p);
  if (!wanting.length) return '';
  wanting[0][0].focus();
  const words = wanting.map(([, p]) => p);
  return `Enter ${words.join(' and ')}.`;
}

function accountPanel(app, onChange) {
  const err = errorLine();
  const fail = (e) => { err.textContent = e.message; };
  if (!app.user) {
    const nick = h('input', { id: 'guest-name', name: 'nickname', maxlength: 24, required: true, autocomplete: 'nickname' });
    const user = h('input', { id: 'login-name', name: 'username', maxlength: 24, autocomplete: 'username' });
    const pass = h('input', { id: 'login-pass', name: 'password', type: 'password', autocomplete: 'current-password' });
    const signIn = async (how) => {
      const missing = how === 'register' ? accountProblems(user, pass) : '';
      if (missing) { err.textContent = missing; return; }
      try {
        const me = how === 'login' ? await api.login(user.value, pass.value) : await api.register(user.value, pass.value);
        app.setUser(me.user); onChange();
      } catch (e) {
        fail(e);
        // A closed account cannot log in: its owner may still send the moderators one appeal.
        if (e.code === 'banned' && !document.getElementById('ban-appeal')) err.after(banAppeal(user.value, pass.value));
      }
    };
    return h('section', { class: 'card account', 'aria-labelledby': 'acc-h' },
      h('h2', { id: 'acc-h' }, 'Play'),
      h('form', { class: 'row', id: 'guest-form', onSubmit: async (ev) => {
        ev.preventDefault();
        try { const me = await api.guest(nick.value.trim()); app.setUser(me.user); onChange(); } catch (e) { fail(e); }
      } }, h('label', { for: 'guest-name' }, 'Nickname'), nick, h('button', { type: 'submit', id: 'guest-go' }, 'Play as a guest')),
      h('form', { class: 'row', onSubmit: (ev) => { ev.preventDefault(); signIn('login'); } },
        h('div', { class: 'field' }, h('label', { for: 'login-name' }, 'User name'), user),
        h('div', { class: 'field' }, h('label', { for: 'login-pass' }, 'Password'), pass),
        h('button', { type: 'submit' }, 'Log in'),
        h('button', { type: 'button', onClick: () => signIn('register') }, 'Register')),
      err);
  }
  const user = h('input', { id: 'reg-name', maxlength: 24, autocomplete: 'username' });
  // The name shown at tables: the guest's nickname unless changed (the user name is only for
  // logging in).
  const shown = h('input', { id: 'reg-display', maxlength: 24, value: app.user.name, autocomplete: 'nickname' });
  const rename = h('input', { id: 'rename-name', maxlength: 24, required: true, value: app.user.name, autocomplete: 'nickname' });
  const pass = h('input', { id: 'reg-pass', type: 'password', autocomplete: 'new-password' });
  return h('section', { class: 'card account', 'aria-labelledby': 'acc-h' },
    h('h2', { id: 'acc-h' }, `Hello, ${app.user.name}`),
    h('p', {}, app.user.registered ? 'You are logged in.' : 'You play as a guest. Register to keep a rating.',
      ' ', h('a', { href: `/user/${app.user.id}` }, 'Your profile')),
    app.user.registered ? null : h('form', { class: 'row', onSubmit: async (ev) => {
      ev.preventDefault();
      const missing = accountProblems(user, pass);
      if (missing) { err.textContent = missing; return; }
      try { const me = await api.register(user.value, pass.value, shown.value.trim()); app.setUser(me.user); onChange(); } catch (e) { fail(e); }
    } },
      // Each label stays with its field when the row wraps (as in the log-in form).
      h('div', { class: 'field' }, h('label', { for: 'reg-display' }, 'Name shown at tables'), shown),
      h('div', { class: 'field' }, h('label', { for: 'reg-name' }, 'User name (to log in)'), user),
      h('div', { class: 'field' }, h('label', { for: 'reg-pass' }, 'Password'), pass),
      h('button', { type: 'submit' }, 'Register')),
    // A guest (named by the page when they went straight to a game) may take another nickname:
    // that starts a new guest, so the games so far stay with the old name (registering keeps them).
    app.user.registered ? null : h('details', { class: 'rename' }, h('summary', {}, 'Play under another nickname'),
      h('form', { class: 'row', onSubmit: async (ev) => {
        ev.preventDefault();
        try { const me = await api.guest(rename.value.trim()); app.setUser(me.user); onChange(); } catch (e) { fail(e); }
      } },
      h('div', { class: 'field' }, h('label', { for: 'rename-name' }, 'New nickname'), rename),
      h('button', { type: 'submit', id: 'rename-go' }, 'Change'),
      h('p', { class: 'note' }, 'Games so far stay with the old name: register above to keep them under a name of your own.'))),
    h('button', { type: 'button', class: 'secondary', id: 'logout', onClick: async () => { await api.logout(); app.setUser(null); onChange(); } }, 'Log out'),
    err);
}

/** A guest's name made up for a player who has not chosen one: "Guest 4821". */
export function madeUpName() {
  const n = new Uint16Array(1);
  crypto.getRandomValues(n);
  return `Guest ${1000 + (n[0] % 9000)}`;
}

function tableItem(t, app, redraw, presets) {
  const free = t.seats.filter((s) => s.occupant.kind === 'open');
  const err = h('span', { class: 'error', role: 'alert' });
  const sit = async (seat) => {
    try { await api.join(t.id, { seat }); go(`/table/${t.id}`); } catch (e) { err.textContent = e.message; }
  };
  return h('li', { class: 'table-item', 'data-table': t.id },
    h('div', { class: 'rules' }, h('strong', { class: 'game' }, gameName(t.rules, presets)), ` · ${shortRules(t.rules)}`, ` · ${t.status}`, t.hand_no ? ` · hand ${t.hand_no}` : '', t.correspondence ? h('span', { class: 'badge corr-badge' }, corrTitle(t.correspondence)) : null, t.hints_allowed ? h('span', { class: 'badge hints-badge' }, 'hints allowed · unrated') : null),
    h('details', {}, h('summary', {}, 'All the rules'), h('ul', { class: 'rules-lines' }, rulesLines(t.rules).map((l) => h('li', {}, l)))),
    h('ul', { class: 'seats', 'aria-label': 'seats' }, t.seats.map((s) => h('li', {},
      `${s.seat + 1}: `, s.occupant.kind === 'open'
        ? (app.user && t.status === 'waiting' && t.your_seat == null
          ? h('button', { type: 'button', class: 'sit', onClick: () => sit(s.seat) }, 'Sit here')
          : 'free')
        : [withIcons(seatName(t.seats, s.seat)), s.occupant.kind === 'human' && ratingOf(s.occupant.user, redraw) ? h('span', { class: 'opp-rating' }, ` (${ratingOf(s.occupant.user)})`) : null]))),
    h('p', {}, `${free.length} free seat${free.length === 1 ? '' : 's'} · `, h('a', { href: `/table/${t.id}` }, t.your_seat != null ? 'Go to your table' : 'Watch')),
    err);
}

// Readable names of the options (the keys of the options string; see docs/rules.md).
const OPTION_LABELS = {
  target: 'Target', partnerships: 'Partnerships', hand: 'Tiles per hand', spinner: 'Spinner',
  sprouts: 'Spinner sprouts open', 'no-double': 'No double dealt', 'next-lead': 'Next hand led by',
  drawing: 'Drawing', 'voluntary-draw': 'Voluntary drawing', 'boneyard-keep': 'Tiles kept in the boneyard',
  'play-scoring': 'Scoring during play', award: 'End-of-hand award', 'doubles-one-half': 'Doubles count one half',
  'game-end': 'Game ends', 'exact-target': 'Exact target', cribbage: 'Cribbage scale', manual: 'Manual scoring (Muggins)',
  'first-lead': 'First hand led by', 'cross-first': 'Cross first (Cross Dominoes)',
  'draw-one': 'Draws a turn', 'muggins-call': 'Muggins may be called by', 'blocked-tie': 'Tie for lowest in a block',
  hands: 'Hand limit (0: none)',
};

function optionControl(o, value, limits = {}) {
  const id = `opt-${o.key}`;
  const range = o.values.find((v) => /^-?\d+\.\.=-?\d+$/.test(v));
  let input;
  if (range) {
    let [lo, hi] = range.split('..=').map(Number);
    if (limits[o.key]) [lo, hi] = limits[o.key];
    input = h('input', { id, type: 'number', min: lo, max: hi, value, 'data-key': o.key });
  } else {
    input = h('select', { id, 'data-key': o.key }, o.values.map((v) => h('option', { value: v, selected: String(v) === String(value) }, valueWords(o.key, v))));
  }
  return h('div', { class: 'field' }, h('label', { for: id }, OPTION_LABELS[o.key] || o.key), input);
}

function createForm(cfg, app) {
  // The form's own check names impossible choices in words (the browser's would stop silently
  // on a field inside the closed "More options").
  const form = h('form', { id: 'create', class: 'card', 'aria-labelledby': 'create-h', novalidate: true });
  const err = errorLine();
  // Live, or a correspondence clock (kept across the form's redraws).
  const clock = clockControls();
  // What the server says of the rules chosen so far: impossible combinations are named as
  // soon as they are chosen, in the engine's words.
  const check = h('p', { id: 'rules-check', class: 'rules-check', 'aria-live': 'polite' });
  // The seats chosen are kept when the rules or the number of players change; a new seat
  // defaults to a computer player, so a game against the computer needs no extra step.
  const first = cfg.presets[0];
  const state = { preset: first.name, set: first.set ?? 6, players: 2, seats: ['me'] };
  const seatChoice = (i) => state.seats[i] || (i === 0 ? 'me' : 'bot:club');
  const preset = () => cfg.presets.find((x) => x.name === state.preset) || cfg.presets[0];
  const presetRules = () => presetRulesFor(preset(), state.players, state.set);
  const seatKinds = ['me', 'open', 'invite', ...cfg.bot_levels.map((l) => `bot:${l}`)];
  const seatLabel = (k) => ({ me: 'me', open: 'open to anyone', invite: 'a friend (invitation link)' }[k] || `computer: ${levelWords(k.slice(4))}`);
  const chosenOptions = () => {
    const chosen = {};
    for (const el of form.querySelectorAll('[data-key]')) chosen[el.dataset.key] = el.value;
    return formOptions(preset(), state.players, state.set, cfg.options, chosen);
  };
  // The rules the form's choices make, typed as the server's `Rules` object.
  const formRules = () => {
    const r = { ...presetRules(), players: state.players, set: state.set };
    for (const el of form.querySelectorAll('[data-key]')) {
      const o = cfg.options.find((x) => x.key === el.dataset.key);
      if (!o) continue;
      const v = el.value;
      r[o.field] = v === 'true' ? true : v === 'false' ? false : /^-?\d+$/.test(v) ? Number(v) : v;
    }
    return r;
  };
  const showCheck = (text, bad) => {
    check.classList.toggle('error', bad);
    check.setAttribute('role', bad ? 'alert' : 'status');
    check.textContent = text;
  };
  let checkTimer = null;
  let checked = '';
  const checkRules = () => {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(async () => {
      const problem = formProblems(formRules());
      if (problem) { checked = ''; showCheck(problem, true); return; }
      const spec = chosenOptions();
      if (spec === checked) return;
      checked = spec;
      try {
        const c = await api.checkRules(spec);
        if (spec !== checked) return;
        if (c.error) {
          showCheck(`These rules cannot be played: ${plainRulesWords(c.error)}.`, true);
        } else {
          const r = c.rules;
          const left = ((r.set + 1) * (r.set + 2)) / 2 - r.players * r.hand_size;
          showCheck(`${r.players} players, ${r.hand_size} tiles each from the ${setWords(r.set)}: ${left} left in the boneyard.`, false);
        }
      } catch (_) { /* the server will say on creation */ }
    }, 200);
  };
  form.addEventListener('change', checkRules);
  form.addEventListener('input', checkRules);
  const render = () => {
    const r = presetRules();
    const most = maxPlayers(state.set);
    const least = (preset().players || [2])[0];
    if (state.players < least) state.players = least;
    if (state.players > most) state.players = most;
    const seats = h('fieldset', { class: 'seats-config' }, h('legend', {}, 'Seats'),
      Array.from({ length: state.players }, (_, i) => {
        const id = `seat-${i}`;
        const def = seatChoice(i);
        return h('div', { class: 'field' }, h('label', { for: id }, `Seat ${i + 1}`),
          h('select', { id, 'data-seat': i, onChange: (ev) => { state.seats[i] = ev.target.value; } }, seatKinds.map((k) => h('option', { value: k, selected: k === def }, seatLabel(k)))));
      }));
    const targetOpt = cfg.options.find((o) => o.key === 'target');
    const more = cfg.options.filter((o) => !['players', 'target', 'set'].includes(o.key));
    const limits = { hand: [3, maxHand(state.set, state.players)] };
    const sets = (cfg.options.find((o) => o.key === 'set')?.values || ['6']).map(Number);
    mount(form,
      h('h2', { id: 'create-h' }, 'New table'),
      h('div', { class: 'row' },
        h('div', { class: 'field' }, h('label', { for: 'preset' }, 'Game'),
          h('select', { id: 'preset', onChange: (ev) => {
            state.preset = ev.target.value;
            // A game brings its own set and the table sizes it is made for.
            const p = preset();
            state.set = p.set ?? 6;
            const [lo, hi] = p.players || [2, 4];
            state.players = Math.min(Math.max(state.players, lo), hi);
            render();
          } }, cfg.presets.map((p) => h('option', { value: p.name, selected: p.name === state.preset }, presetWords(p.name))))),
        h('div', { class: 'field' }, h('label', { for: 'set' }, 'Dominoes'),
          h('select', { id: 'set', onChange: (ev) => { state.set = Number(ev.target.value); render(); } },
            sets.map((n) => h('option', { value: n, selected: n === state.set }, setWords(n))))),
        h('div', { class: 'field' }, h('label', { for: 'players' }, 'Players'),
          h('select', { id: 'players', onChange: (ev) => { state.players = Number(ev.target.value); render(); } },
            // From the game's fewest players (the party game is for five or more).
            Array.from({ length: most - least + 1 }, (_, i) => i + least).map((n) => h('option', { value: n, selected: n === state.players }, n)))),
        targetOpt ? optionControl(targetOpt, r.target) : null),
      seats,
      h('details', { class: 'more' }, h('summary', {}, 'More options'),
        h('div', { class: 'grid' }, more.map((o) => optionControl(o, r[o.field], limits)))),
      check,
      clock,
      h('div', { class: 'row' },
        h('label', {}, h('input', { type: 'checkbox', id: 'unlisted' }), ' Unlisted (reached by link only)'),
        h('label', {}, h('input', { type: 'checkbox', id: 'hints-allowed' }), ' Hints allowed (a casual game: never rated)'),
        h('button', { type: 'submit', id: 'create-go' }, 'Create the table')),
      err);
    checkRules();
  };
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (!app.user) { err.textContent = 'Choose a nickname or log in first.'; return; }
    const problem = formProblems(formRules());
    if (problem) { err.textContent = problem; showCheck(problem, true); return; }
    const rules = chosenOptions();
    const seats = [...form.querySelectorAll('[data-seat]')].map((el) => (el.value.startsWith('bot:')
      ? { kind: 'bot', level: el.value.slice(4) } : { kind: el.value }));
    const hints = form.querySelector('#hints-allowed').checked;
    if (hints && clock.spec()) {
      err.textContent = 'Hints cannot be allowed at a correspondence table: its games always count.';
      form.querySelector('#hints-allowed').focus();
      return;
    }
    try {
      const t = await api.createTable({ rules, seats, unlisted: form.querySelector('#unlisted').checked, correspondence: clock.spec(), hints });
      announce('Table created');
      go(`/table/${t.id}`);
    } catch (e) { err.textContent = `The table was not created: ${plainRulesWords(e.message)}.`; }
  });
  render();
  return form;
}

/**
 * Play now: one click to a game against the computer at a chosen level (five-up, two players),
 * and a quick match that takes the first free seat at a waiting table of the chosen rules or,
 * when there is none, opens such a table for anyone to join.
 */
function playNow(cfg, app, tables) {
  const err = errorLine();
  const level = h('select', { id: 'pn-level' }, cfg.bot_levels.map((l) => h('option', { value: l, selected: l === 'club' }, levelWords(l))));
  const preset = h('select', { id: 'qm-preset' }, cfg.presets.map((p) => h('option', { value: p.name }, presetWords(p.name))));
  const players = h('select', { id: 'qm-players' }, [2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: n }, `${n} players`)));
  // No nickname yet: the one typed above, or one made up (changed later in the lobby), so the
  // first click reaches a game.
  const ready = async () => {
    if (app.user) return true;
    const typed = document.getElementById('guest-name')?.value.trim();
    try {
      const me = await api.guest(typed || madeUpName());
      app.setUser(me.user);
      return true;
    } catch (e) {
      err.textContent = `${e.message}: choose a nickname (or log in) just above.`;
      document.getElementById('guest-name')?.focus();
      return false;
    }
  };
  const rulesOf = (name, n) => { const p = cfg.presets.find((x) => x.name === name) || cfg.presets[0]; return p.rules[n - 2] || p.rules[0]; };
  return h('section', { class: 'card play-now', 'aria-labelledby': 'pn-h' },
    h('h2', { id: 'pn-h' }, 'Play now'),
    h('div', { class: 'row' },
      h('div', { class: 'field' }, h('label', { for: 'pn-level' }, 'Computer'), level),
      h('button', { type: 'button', id: 'play-now', onClick: async () => {
        if (!(await ready())) return;
        try {
          const t = await api.createTable({ rules: 'five-up players=2', seats: [{ kind: 'me' }, { kind: 'bot', level: level.value }], unlisted: true });
          go(`/table/${t.id}`);
        } catch (e) { err.textContent = e.message; }
      } }, 'Play the computer')),
    h('div', { class: 'row' },
      h('div', { class: 'field' }, h('label', { for: 'qm-preset' }, 'Rules'), preset),
      h('div', { class: 'field' }, h('label', { for: 'qm-players' }, 'Table'), players),
      h('button', { type: 'button', id: 'quick-match', onClick: async () => {
        if (!(await ready())) return;
        const n = Number(players.value);
        const want = rulesOf(preset.value, n);
        const same = (r) => Object.keys(want).every((k) => JSON.stringify(want[k]) === JSON.stringify(r[k]));
        const open = [...tables.values()].filter((t) => t.status === 'waiting' && t.your_seat == null && same(t.rules) && t.seats.some((x) => x.occupant.kind === 'open'))
          .sort((a, b) => a.created_at - b.created_at);
        try {
          for (const t of open) {
            try { await api.join(t.id, {}); go(`/table/${t.id}`); return; } catch (_) { /* taken meanwhile: the next one */ }
          }
          const seats = Array.from({ length: n }, (_, i) => ({ kind: i === 0 ? 'me' : 'open' }));
          const t = await api.createTable({ rules: `${preset.value} players=${n}`, seats, unlisted: false });
          announce('No table was waiting: yours is open for the next player');
          go(`/table/${t.id}`);
        } catch (e) { err.textContent = e.message; }
      } }, 'Quick match')),
    err);
}

export async function lobbyPage(main, { app }) {
  const cfg = await api.config();
  const list = h('ul', { id: 'tables', class: 'tables', 'aria-live': 'polite' });
  const tables = new Map();
  const draw = () => {
    const items = [...tables.values()].sort((a, b) => b.created_at - a.created_at);
    mount(list, items.length ? items.map((t) => tableItem(t, app, draw, cfg.presets)) : h('li', { class: 'empty' }, 'No open tables yet: create one.'));
  };
  let conn = null;
  const follow = () => new Conn({
    onOpen: (c) => c.send({ type: 'lobby' }),
    onStatus: (ok) => app.setNet(ok),
    onMessage: (m) => {
      if (m.type === 'lobby') { tables.clear(); for (const t of m.tables) tables.set(t.id, t); draw(); }
      // A table of yours changed (someone sat, a move was made): the My games badge follows.
      const mine = (t) => t && t.seats.some((x) => x.occupant.kind === 'human' && x.occupant.user.id === app.user.id);
      if (app.user && ((m.type === 'lobby_table' && mine(m.table)) || (m.type === 'lobby_gone' && mine(tables.get(m.id))))) refreshBadge();
      if (m.type === 'lobby_table') { tables.set(m.table.id, m.table); draw(); }
      if (m.type === 'lobby_gone') { tables.delete(m.id); draw(); }
    },
  });
  // After logging in or out the lobby is followed again with the new session, so that each
  // table says whether you sit there.
  const relogin = () => { if (conn) conn.close(); conn = follow(); layout(); };
  const layout = () => mount(main, h('section', { class: 'page lobby' },
    h('h1', {}, 'Five Up'),
    h('p', { class: 'lead-links' }, h('a', { href: '/how-to-play' }, 'How to play'), ' · ', h('a', { href: '/leaderboard' }, 'Leaderboard'), ' · ', h('a', { href: '/engines' }, 'Engines')),
    h('div', { class: 'lobby-grid' },
      h('div', {}, accountPanel(app, relogin), playNow(cfg, app, tables), createForm(cfg, app)),
      h('section', { class: 'card', 'aria-labelledby': 'tables-h' }, h('h2', { id: 'tables-h' }, 'Open tables'), list))));
  layout();
  draw();
  conn = follow();
  return () => conn.close();
}

/** The one appeal of a closed account, sent with its name and password. */
function banAppeal(username, password) {
  const text = h('textarea', { id: 'ban-appeal-text', rows: 3, maxlength: 1000, required: true });
  const msg = h('p', { class: 'note', role: 'status', id: 'ban-appeal-msg' });
  return h('form', { id: 'ban-appeal', class: 'ban-appeal', onSubmit: async (ev) => {
    ev.preventDefault();
    msg.classList.remove('error');
    try {
      await call('POST', '/api/appeals/ban', { username, password, text: text.value });
      ev.target.replaceWith(h('p', { class: 'note', role: 'status' }, 'Your appeal is with the moderators.'));
    } catch (e) { msg.classList.add('error'); msg.textContent = e.message; }
  } },
  h('label', { for: 'ban-appeal-text' }, 'Appeal to the moderators (once)'), text,
  h('button', { type: 'submit', id: 'ban-appeal-go' }, 'Send the appeal'), msg);
}
