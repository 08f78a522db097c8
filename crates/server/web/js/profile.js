// A player's profile: statistics, rating and the history of finished games.
import { h, mount } from './dom.js';
import { api } from './api.js';
import { optionsWords } from './format.js';
import { myBotsSection } from './engines.js';
import { withIcons } from './panels.js';
import { notificationSettings, clockWords, mutedSection } from './corr.js';
import { reportButton } from './moderation.js';

export async function profilePage(main, { params: [uid], app }) {
  const id = uid === 'me' || !uid ? app.user?.id : uid;
  if (!id) {
    mount(main, h('section', { class: 'page' }, h('h1', {}, 'Profile'), h('p', {}, 'Play as a guest or log in first: ', h('a', { href: '/' }, 'the lobby'), '.')));
    return null;
  }
  const p = await api.user(id);
  const st = p.stats;
  // The history with filters: the result, the rules, and a player's name.
  // Live or correspondence games: asked of the server (each kind has its own 100 newest).
  const kind = h('select', { id: 'hf-kind' }, [['', 'live and correspondence'], ['live', 'live'], ['correspondence', 'correspondence']].map(([v, t]) => h('option', { value: v }, t)));
  const result = h('select', { id: 'hf-result' }, [['all', 'all games'], ['won', 'won'], ['lost', 'lost']].map(([v, t]) => h('option', { value: v }, t)));
  const kinds = [...new Set(p.history.map((g) => optionsWords(g.options)))].sort();
  const rules = h('select', { id: 'hf-rules' }, h('option', { value: '' }, 'any rules'), kinds.map((k) => h('option', { value: k }, k)));
  const who = h('input', { id: 'hf-name', type: 'search', autocomplete: 'off' });
  const filters = h('form', { class: 'row filters', role: 'search', 'aria-label': 'filter the history', onSubmit: (ev) => ev.preventDefault() },
    h('div', { class: 'field' }, h('label', { for: 'hf-kind' }, 'Kind'), kind),
    h('div', { class: 'field' }, h('label', { for: 'hf-result' }, 'Result'), result),
    h('div', { class: 'field' }, h('label', { for: 'hf-rules' }, 'Rules'), rules),
    h('div', { class: 'field' }, h('label', { for: 'hf-name' }, 'With player'), who));
  const body = h('tbody', {});
  const table = h('table', { class: 'history' },
    h('thead', {}, h('tr', {}, ['When', 'Rules', 'Players', 'Result', 'Scores', 'Replay'].map((x) => h('th', { scope: 'col' }, x)))), body);
  const drawHistory = () => {
    const name = who.value.trim().toLowerCase();
    const shown = p.history.filter((g) => (result.value === 'all' || (result.value === 'won') === g.won)
      && (!rules.value || optionsWords(g.options) === rules.value)
      && (!name || g.names.some((n) => n.toLowerCase().includes(name))));
    mount(body, shown.map((g) => h('tr', {},
      h('td', {}, new Date(g.finished_at * 1000).toLocaleString()),
      h('td', {}, optionsWords(g.options), g.correspondence ? h('span', { class: 'corr-kind' }, ` · correspondence, ${clockWords(g.correspondence)}`) : null),
      h('td', {}, withIcons(g.names.join(', '))),
      h('td', {}, g.by_computer ? 'finished by the computer (not counted as a win)' : g.won ? 'won' : 'lost'),
      h('td', {}, g.scores.join(' – ')),
      h('td', {}, h('a', { href: `/game/${g.game}` }, 'replay')))));
    const c = document.getElementById('history-count');
    if (c) c.textContent = `${shown.length} of ${p.history.length} game${p.history.length === 1 ? '' : 's'}`;
  };
  for (const el of [result, rules]) el.addEventListener('change', drawHistory);
  kind.addEventListener('change', async () => {
    try {
      p.history = (await api.user(id, kind.value)).history;
    } catch (e) {
      const c = document.getElementById('history-count');
      if (c) c.textContent = e.message;
      return;
    }
    drawHistory();
  });
  who.addEventListener('input', drawHistory);
  // Your own profile, registered: the name shown at tables can be changed (the user name you
  // log in with stays).
  const mine = app.user && app.user.registered && String(app.user.id) === String(p.user.id);
  const heading = h('h1', { id: 'prof-h' }, p.user.name, p.user.bot ? ' (bot)' : p.user.registered ? '' : ' (guest)');
  const nameForm = () => {
    const input = h('input', { id: 'display-name', maxlength: 24, required: true, value: p.user.name, autocomplete: 'nickname' });
    const msg = h('p', { class: 'note', id: 'display-msg', role: 'status' });
    return h('form', { class: 'row', id: 'display-form', 'aria-label': 'your display name', onSubmit: async (ev) => {
      ev.preventDefault();
      msg.classList.remove('error');
      try {
        const me = await api.displayName(input.value.trim());
        app.setUser(me.user);
        p.user.name = me.user.name;
        heading.firstChild.textContent = me.user.name;
        msg.textContent = `Your tables now show you as ${me.user.name}.`;
      } catch (e) { msg.classList.add('error'); msg.textContent = e.message; }
    } }, h('div', { class: 'field' }, h('label', { for: 'display-name' }, 'Name shown at tables'), input), h('button', { type: 'submit', id: 'display-go' }, 'Change'), msg);
  };
  mount(main, h('section', { class: 'page profile', 'aria-labelledby': 'prof-h' },
    heading,
    (p.marks || []).length ? h('p', { class: 'marks', id: 'prof-marks' }, p.marks.map((m) => h('span', { class: 'badge mark' }, `Marked by a moderator: ${m}`))) : null,
    mine ? nameForm() : null,
    reportButton(app, p.user, { label: 'Report this player' }),
    h('dl', { class: 'stats' },
      h('dt', {}, 'Games'), h('dd', {}, String(st.games)),
      h('dt', {}, 'Wins'), h('dd', {}, `${st.wins}${st.games ? ` (${Math.round((100 * st.wins) / st.games)}%)` : ''}`),
      h('dt', {}, 'Hands'), h('dd', {}, String(st.hands)),
      h('dt', {}, 'Points per hand'), h('dd', {}, st.points_per_hand.toFixed(1)),
      h('dt', {}, 'Rating'), h('dd', { id: 'rating' }, p.rating ? `${Math.round(p.rating.rating)} ± ${Math.round(2 * p.rating.deviation)}` : 'not rated (guests and games against computers are not rated)'),
      p.corr_rating ? [h('dt', {}, 'Correspondence rating'), h('dd', { id: 'corr-rating' }, `${Math.round(p.corr_rating.rating)} ± ${Math.round(2 * p.corr_rating.deviation)}`)] : null),
    h('h2', {}, 'History'),
    p.history.length ? [filters, h('p', { class: 'shown', id: 'history-count', role: 'status' }), table] : h('p', {}, 'No finished games yet.'),
    String(p.user.id) === String(app.user?.id) ? [notificationSettings(), mutedSection(), myBotsSection(app)] : null));
  drawHistory();
  return null;
}
