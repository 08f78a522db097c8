// The leaderboard: registered players by Glicko-2 rating (with twice its deviation), live and
// correspondence games apart, in two tabs (the ARIA tab pattern: arrow keys, Home and End move
// between the tabs, Tab goes on into the panel).
import { h, mount } from './dom.js';
import { api } from './api.js';

function liveTable(rows) {
  return rows.length ? h('table', { class: 'history', id: 'leaders' },
    h('thead', {}, h('tr', {}, ['Rank', 'Player', 'Rating', 'Games', 'Wins'].map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, rows.map((r, i) => h('tr', {},
      h('td', {}, String(i + 1)),
      h('td', {}, h('a', { href: `/user/${r.user.id}` }, r.user.name)),
      h('td', {}, `${Math.round(r.rating)} ± ${Math.round(2 * r.deviation)}`),
      h('td', {}, String(r.games)),
      h('td', {}, String(r.wins))))))
    : h('p', { class: 'empty' }, 'Nobody is rated yet: register and play a game against another person.');
}

function corrTable(rows) {
  return rows.length ? h('table', { class: 'history', id: 'corr-leaders' },
    h('thead', {}, h('tr', {}, ['Rank', 'Player', 'Rating'].map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, rows.map((r, i) => h('tr', {},
      h('td', {}, String(i + 1)),
      h('td', {}, h('a', { href: `/user/${r.user}` }, r.name)),
      h('td', {}, `${Math.round(r.rating)} ± ${Math.round(2 * r.deviation)}`)))))
    : h('p', { class: 'empty' }, 'Nobody has a correspondence rating yet: finish a correspondence game against another person.');
}

export async function leaderboardPage(main) {
  const [live, corr] = await Promise.all([api.leaderboard(), api.corrLeaderboard()]);
  const tabs = [
    ['live', 'Live', h('p', {}, 'Registered players who have finished a rated live game (against other people), by Glicko-2 rating; "±" is twice the rating\'s deviation.'), liveTable(live.players)],
    ['corr', 'Correspondence', h('p', {}, 'The correspondence rating, kept apart from the live one: registered players who have finished a rated correspondence game.'), corrTable(corr)],
  ];
  const buttons = [];
  const panels = [];
  const select = (i, focus) => {
    buttons.forEach((b, k) => {
      b.setAttribute('aria-selected', String(k === i));
      b.tabIndex = k === i ? 0 : -1;
      panels[k].hidden = k !== i;
    });
    if (focus) buttons[i].focus();
  };
  tabs.forEach(([key, label, intro, table], i) => {
    buttons.push(h('button', {
      type: 'button', role: 'tab', id: `lb-tab-${key}`, 'aria-controls': `lb-panel-${key}`,
      onClick: () => select(i, false),
      onKeydown: (ev) => {
        const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[ev.key];
        if (to === undefined) return;
        ev.preventDefault();
        select((to + tabs.length) % tabs.length, true);
      },
    }, label));
    panels.push(h('div', { role: 'tabpanel', id: `lb-panel-${key}`, 'aria-labelledby': `lb-tab-${key}`, tabindex: 0, class: 'lb-panel' }, intro, table));
  });
  mount(main, h('section', { class: 'page leaderboard', 'aria-labelledby': 'lb-h' },
    h('h1', { id: 'lb-h' }, 'Leaderboard'),
    h('div', { role: 'tablist', class: 'tabs', 'aria-label': 'kind of game' }, buttons),
    panels));
  select(location.hash === '#correspondence' ? 1 : 0, false);
  return null;
}
