// The page router: one HTML page, a view per path. The pages get what they share with it
// (navigation, the session) from context.js, and none imports this module.
//   /             the lobby                /table/{id}[?invite=...]  a table
//   /game/{id}    a finished game, replay  /user/{id} or /user/me    a player's profile
//   /tournaments  the tournaments          /tournaments/{id}         one event
import { $, mount, h } from './dom.js';
import { currentUser } from './api.js';
import { go, provide, session } from './context.js';
import { offlinePage } from './offline.js';

// Script errors are kept for the browser tests (and shown in the console as usual).
window.fiveupErrors = [];
window.addEventListener('error', (e) => window.fiveupErrors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.fiveupErrors.push(String(e.reason && e.reason.message ? e.reason.message : e.reason)));

const routes = [
  [/^\/$/, () => import('./lobby.js').then((m) => m.lobbyPage)],
  [/^\/table\/([a-z0-9]+)$/, () => import('./table.js').then((m) => m.tablePage)],
  [/^\/game\/([a-z0-9]+)$/, () => import('./replay.js').then((m) => m.replayPage)],
  [/^\/user\/(\d+|me)$/, () => import('./profile.js').then((m) => m.profilePage)],
  [/^\/how-to-play$/, () => import('./howto.js').then((m) => m.howToPage)],
  [/^\/leaderboard$/, () => import('./leaderboard.js').then((m) => m.leaderboardPage)],
  [/^\/engines$/, () => import('./engines.js').then((m) => m.enginesPage)],
  [/^\/games$/, () => import('./corr.js').then((m) => m.gamesPage)],
  [/^\/tournaments$/, () => import('./tournaments.js').then((m) => m.tournamentsPage)],
  [/^\/tournaments\/([a-z0-9]+)$/, () => import('./tournaments.js').then((m) => m.tournamentPage)],
  [/^\/moderation$/, () => import('./moderation.js').then((m) => m.moderationPage)],
  [/^\/moderation\/user\/(\d+)$/, () => import('./moderation.js').then((m) => m.moderationPage)],
];

// The header's part of the session (context.js): the player's name, the calls from
// tournaments and the connection indicator.
provide({
  route,
  user(user) {
    mount($('#who'), user ? h('span', {}, user.name, user.registered ? '' : ' (guest)') : '');
    // "Your table is ready" calls from tournaments, on every page (call.js).
    import('./call.js').then((m) => m.startCalls(user));
    // What moderators did to this account, and the Moderation link for moderators.
    import('./moderation.js').then((m) => m.showNotices(session));
  },
  net(ok) {
    const el = $('#net');
    if (!el) return;
    el.textContent = ok ? '' : 'reconnecting…';
    el.className = ok ? 'net' : 'net down';
  },
});

// What the page shown leaves to undo when another is shown.
let cleanup = null;

async function route() {
  if (cleanup) { cleanup(); cleanup = null; }
  session.setNet(true);
  const main = $('#main');
  const path = location.pathname.replace(/\/+$/, '') || '/';
  import('./call.js').then((m) => m.routed(path));
  for (const [re, load] of routes) {
    const m = path.match(re);
    if (m) {
      try {
        const page = await load();
        cleanup = (await page(main, { params: m.slice(1), query: new URLSearchParams(location.search), app: session })) || null;
      } catch (e) {
        // The server out of reach (or a page's script with it): the offline page, which tries
        // again by itself, rather than the browser's "Failed to fetch".
        if (e.code === 'offline' || (e instanceof TypeError && /fetch|import/i.test(String(e.message)))) {
          cleanup = offlinePage(main, h);
          return;
        }
        const missing = { no_such_game: 'No such game', no_such_user: 'No such player', no_such_table: 'No such table' }[e.code];
        if (missing) notFound(main, missing, `There is no ${missing.slice(8)} at this address: it may have been mistyped, or the game was never finished.`);
        else mount(main, h('section', { class: 'page' }, h('h1', {}, 'The page could not be shown'), h('p', { role: 'alert' }, String(e.message || e)), h('p', {}, h('a', { href: '/' }, 'Back to the lobby'))));
      }
      return;
    }
  }
  notFound(main, 'Page not found', 'Nothing lives at this address.');
}

function notFound(main, title, text) {
  document.title = `${title} · fiveup`;
  mount(main, h('section', { class: 'page not-found', id: 'not-found' }, h('h1', {}, title), h('p', {}, text),
    h('p', {}, h('a', { href: '/' }, 'Back to the lobby'), ' · ', h('a', { href: '/how-to-play' }, 'How to play'))));
}

document.addEventListener('click', (ev) => {
  const a = ev.target.closest('a[href^="/"]');
  if (!a || a.target || ev.ctrlKey || ev.metaKey || ev.shiftKey || a.hasAttribute('download') || a.getAttribute('href').startsWith('/api/')) return;
  ev.preventDefault();
  go(a.getAttribute('href'));
});
window.addEventListener('popstate', route);

// The account was closed by a moderator (the server said so on the websocket, and closed it):
// whatever page was shown stops, and says why.
window.addEventListener('fiveup:banned', () => {
  if (cleanup) { cleanup(); cleanup = null; }
  session.setUser(null);
  document.title = 'Account closed · fiveup';
  mount($('#main'), h('section', { class: 'page', id: 'banned', 'aria-labelledby': 'banned-h' },
    h('h1', { id: 'banned-h' }, 'Your account was closed'),
    h('p', { role: 'alert' }, 'A moderator closed this account: you can no longer play with it, and every page of yours was signed out.'),
    h('p', {}, 'If you think this is a mistake, you may appeal once: log in from the lobby with your user name and password, and the form offers the appeal.'),
    h('p', {}, h('a', { href: '/' }, 'The lobby'))));
  $('#main').focus();
});

(async () => {
  try { session.setUser(await currentUser()); } catch (_) { session.setUser(null); }
  route();
  if (session.user) import('./corr.js').then((m) => { m.startBadge(); m.renewPush(); });
})();

// The service worker (sw.js): the app shell kept for an offline page; never the API or the
// games. A browser without one (or a page not served over HTTPS or from localhost) plays the
// same without it.
if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).then((reg) => { window.fiveupWorker = reg; }, () => {});
}
