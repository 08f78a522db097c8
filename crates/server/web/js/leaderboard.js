// The leaderboard: registered players by Glicko-2 rating (with twice its deviation).
import { h, mount } from './dom.js';
import { api } from './api.js';

export async function leaderboardPage(main) {
  const rows = (await api.leaderboard()).players;
  mount(main, h('section', { class: 'page leaderboard', 'aria-labelledby': 'lb-h' },
    h('h1', { id: 'lb-h' }, 'Leaderboard'),
    h('p', {}, 'Registered players who have finished a rated game (against other people), by Glicko-2 rating; "±" is twice the rating\'s deviation.'),
    rows.length ? h('table', { class: 'history', id: 'leaders' },
      h('thead', {}, h('tr', {}, ['Rank', 'Player', 'Rating', 'Games', 'Wins'].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rows.map((r, i) => h('tr', {},
        h('td', {}, String(i + 1)),
        h('td', {}, h('a', { href: `/user/${r.user.id}` }, r.user.name)),
        h('td', {}, `${Math.round(r.rating)} ± ${Math.round(2 * r.deviation)}`),
        h('td', {}, String(r.games)),
        h('td', {}, String(r.wins))))))
      : h('p', { class: 'empty' }, 'Nobody is rated yet: register and play a game against another person.')));
  return null;
}
