// The offline page: shown by the service worker in place of a page asked for while the server
// cannot be reached (offline.html), and drawn by the app itself when a page's requests cannot
// reach it (app.js). Either way it tries again by itself and goes back to the page wanted as
// soon as the server answers.

/** The waits between tries, in seconds: from 2 s, doubling, up to 30 s (then every 30 s). */
export const RETRY_DELAYS = [2, 4, 8, 16, 30];

/**
 * Try the server again until it answers, then `back()` (by default: load the page wanted
 * again). A try is made after each wait of `RETRY_DELAYS` (the last one repeated), at once when
 * the browser says it is online again, and at once when the tab is shown again. `status` (an
 * element) says when the next try is. Each try's time (ms since the start) is kept in
 * `window.fiveupRetries`. Answers a function that stops it all.
 */
export function retryUntilBack(status, back = () => location.reload()) {
  const start = Date.now();
  window.fiveupRetries = [];
  let n = 0;
  let timer = null;
  let next = 0;
  let trying = false;
  let stopped = false;
  const say = () => {
    if (!status) return;
    status.textContent = trying ? 'Trying again now…' : `Trying again in ${Math.max(1, Math.ceil((next - Date.now()) / 1000))} s.`;
  };
  const schedule = () => {
    const wait = RETRY_DELAYS[Math.min(n, RETRY_DELAYS.length - 1)];
    n += 1;
    next = Date.now() + wait * 1000;
    timer = setTimeout(attempt, wait * 1000);
    say();
  };
  async function attempt() {
    if (trying || stopped) return;
    trying = true;
    clearTimeout(timer);
    window.fiveupRetries.push(Date.now() - start);
    say();
    let ok = false;
    try {
      // Never answered by the service worker (it leaves /api/ to the network).
      ok = (await fetch('/api/config', { cache: 'no-store' })).ok;
    } catch (_) { ok = false; }
    trying = false;
    if (stopped) return;
    if (ok) { stop(); back(); return; }
    schedule();
  }
  const onVisible = () => { if (document.visibilityState === 'visible') attempt(); };
  const ticker = setInterval(say, 1000);
  function stop() {
    stopped = true;
    clearTimeout(timer);
    clearInterval(ticker);
    window.removeEventListener('online', attempt);
    document.removeEventListener('visibilitychange', onVisible);
  }
  window.addEventListener('online', attempt);
  document.addEventListener('visibilitychange', onVisible);
  schedule();
  return stop;
}

/** What the offline page says, drawn into `main` by the app; answers the function that stops its tries. */
export function offlinePage(main, h) {
  document.title = 'Offline · fiveup';
  const status = h('p', { id: 'retry-status', class: 'note' });
  const stop = retryUntilBack(status);
  main.replaceChildren(h('section', { class: 'page offline-page' },
    h('h1', { id: 'offline' }, 'You are offline'),
    h('p', {}, 'The server cannot be reached just now. fiveup needs it to play: the tables, the chat and the deals are on the server. Your games are kept there, so nothing is lost.'),
    h('p', {}, 'This page tries again by itself and comes back as soon as the server answers.'),
    status,
    h('p', {}, h('a', { class: 'button', href: location.pathname + location.search, id: 'retry', onClick: (ev) => { ev.preventDefault(); location.reload(); } }, 'Try again now'))));
  return stop;
}

// The page served by the service worker (offline.html): start at once.
if (document.querySelector('.offline-page #offline')) {
  const status = document.getElementById('retry-status');
  retryUntilBack(status);
  const retry = document.getElementById('retry');
  if (retry) {
    retry.setAttribute('href', location.pathname + location.search);
    retry.addEventListener('click', (ev) => { ev.preventDefault(); location.reload(); });
  }
}
