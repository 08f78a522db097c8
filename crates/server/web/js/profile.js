// A player's profile: statistics, rating and the history of finished games.
import { h, mount } from './dom.js';
import { api } from './api.js';

export async function profilePage(main, { params: [uid], app }) {
  const id = uid === 'me' || !uid ? app.user?.id : uid;
  if (!id) {
    mount(main, h('section', { class: 'page' }, h('h1', {}, 'Profile'), h('p', {}, 'Play as a guest or log in first: ', h('a', { href: '/' }, 'the lobby'), '.')));
    return null;
  }
  const p = await api.user(id);
  const st = p.stats;
  mount(main, h('section', { class: 'page profile', 'aria-labelledby': 'prof-h' },
    h('h1', { id: 'prof-h' }, p.user.name, p.user.registered ? '' : ' (guest)'),
    h('dl', { class: 'stats' },
      h('dt', {}, 'Games'), h('dd', {}, String(st.games)),
      h('dt', {}, 'Wins'), h('dd', {}, `${st.wins}${st.games ? ` (${Math.round((100 * st.wins) / st.games)}%)` : ''}`),
      h('dt', {}, 'Hands'), h('dd', {}, String(st.hands)),
      h('dt', {}, 'Points per hand'), h('dd', {}, st.points_per_hand.toFixed(1)),
      h('dt', {}, 'Rating'), h('dd', { id: 'rating' }, p.rating ? `${Math.round(p.rating.rating)} ± ${Math.round(2 * p.rating.deviation)}` : 'not rated (guests and games against computers are not rated)')),
    h('h2', {}, 'History'),
    p.history.length ? h('table', { class: 'history' },
      h('thead', {}, h('tr', {}, ['When', 'Rules', 'Players', 'Result', 'Scores', ''].map((x) => h('th', {}, x)))),
      h('tbody', {}, p.history.map((g) => h('tr', {},
        h('td', {}, new Date(g.finished_at * 1000).toLocaleString()),
        h('td', {}, g.options),
        h('td', {}, g.names.join(', ')),
        h('td', {}, g.won ? 'won' : 'lost'),
        h('td', {}, g.scores.join(' – ')),
        h('td', {}, h('a', { href: `/game/${g.game}` }, 'replay'))))))
      : h('p', {}, 'No finished games yet.')));
  return null;
}
