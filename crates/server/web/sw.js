// The service worker, served at /sw.js (scope: the whole site). The server writes its release
// into VERSION (a fingerprint of every file built into it), so a new release is a new worker,
// which fills a new cache and deletes the old ones.
//
// What it does:
// - install: caches the app shell (the page, its scripts, styles, icons and the offline page);
// - fetch: the shell's files come from the network when it answers (always the newest) and
//   from the cache when it does not; a page asked for while the network is gone gets the
//   offline page. Nothing else is ever answered or stored by the worker: not the API, not the
//   websocket, not replays or records, nothing with a tile in it.
// Web Push for correspondence play ('push' and 'notificationclick') is in sw-push.js, pulled in
// here: one worker for the whole site.
importScripts('/static/sw-push.js');
const VERSION = '__FIVEUP_VERSION__';
const CACHE = `fiveup-shell-${VERSION}`;
const OFFLINE = '/static/offline.html';
const SHELL = [
  '/', OFFLINE, '/static/style.css', '/static/js/offline.js', '/manifest.webmanifest',
  '/static/icon.svg', '/static/icon-192.png', '/static/icon-512.png',
  ...['api', 'app', 'board', 'conn', 'context', 'deal', 'dom', 'format', 'geometry', 'howto', 'leaderboard', 'lobby',
    'panels', 'profile', 'engines', 'corr', 'ratings', 'replay', 'table', 'tally', 'tiles', 'verifyview',
    'call', 'tournaments', 'tourview', 'moderation'].map((m) => `/static/js/${m}.js`),
];
// Paths the worker answers: the shell's files. Everything else goes to the network untouched.
const SHELL_PATHS = new Set(SHELL);

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL.map((p) => new Request(p, { cache: 'reload' })))).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('fiveup-shell-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname === '/ws') return;
  if (req.mode === 'navigate') {
    // Pages: always the network; the offline page when it is gone.
    event.respondWith(fetch(req).catch(() => caches.open(CACHE).then((c) => c.match(OFFLINE))));
    return;
  }
  if (!SHELL_PATHS.has(url.pathname)) return;
  event.respondWith(fetch(req).catch(() => caches.open(CACHE).then((c) => c.match(url.pathname)).then((r) => r || Response.error())));
});
