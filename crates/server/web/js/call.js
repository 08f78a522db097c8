// "Your table is ready": on every page of a logged-in player, a connection that hears the
// server's `tournament_table` call and shows a banner under the header with a one-click link to
// the table, plays a short chime (made with WebAudio; silent when the table's Sound setting is
// off or the system asks for reduced motion), announces it to screen readers and marks the
// document's title until the banner is seen (the link followed, the banner dismissed, or the
// page looked at again after being in the background).
import { h, mount } from './dom.js';
import { Conn } from './conn.js';

let conn = null;
let userId = null;
let pending = null; // { table, name, title }

function banner() {
  let el = document.getElementById('call-banner');
  if (!el) {
    el = h('div', { id: 'call-banner', class: 'call-banner', role: 'region', 'aria-label': 'your tournament table', hidden: true });
    document.querySelector('header.top')?.after(el);
  }
  return el;
}

function seen() {
  if (!pending) return;
  if (document.title === pending.title) document.title = pending.before;
  pending = null;
  const el = banner();
  el.hidden = true;
  el.replaceChildren();
}

function chime() {
  if (localStorage.getItem('fiveup-sound') === 'off') return;
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  if (typeof AudioContext === 'undefined' || navigator.userActivation?.hasBeenActive === false) return;
  try {
    const ctx = new AudioContext();
    const ring = () => {
      [523.25, 659.25, 783.99].forEach((f, i) => {
        const o = ctx.createOscillator(); const g = ctx.createGain();
        o.type = 'triangle'; o.frequency.value = f;
        const t0 = ctx.currentTime + i * 0.13;
        g.gain.setValueAtTime(0.0001, t0); g.gain.exponentialRampToValueAtTime(0.15, t0 + 0.02); g.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.4);
        o.connect(g).connect(ctx.destination); o.start(t0); o.stop(t0 + 0.45);
      });
      setTimeout(() => ctx.close().catch(() => {}), 1200);
    };
    if (ctx.state === 'running') ring(); else ctx.resume().then(ring, () => ctx.close().catch(() => {}));
  } catch (_) { /* no audio here */ }
}

/** Show the call to `table` of the tournament `name` (`tournament`: its id). */
export function showCall({ tournament, name, table }) {
  // Already at that table: nothing to call.
  if (location.pathname === `/table/${table}`) return;
  const before = pending ? pending.before : document.title;
  const title = `Your table is ready · ${name}`;
  pending = { table, before, title };
  document.title = title;
  const el = banner();
  const link = h('a', { href: `/table/${table}`, class: 'button', id: 'call-go', onClick: () => seen() }, 'Go to your table');
  mount(el,
    // An alert: screen readers say it at once, whatever else the page announces meanwhile.
    h('p', { class: 'call-text', role: 'alert' }, h('strong', {}, 'Your table is ready'), ' in ', h('a', { href: `/tournaments/${tournament}` }, name), '.'),
    link,
    h('button', { type: 'button', class: 'secondary', id: 'call-dismiss', 'aria-label': 'Dismiss the call to your table', onClick: () => seen() }, 'Dismiss'));
  el.hidden = false;
  chime();
}

// Pages set their own titles as they change (the event page on every push, the table on every
// turn): while a call is unseen its title stays, and the page's newest one comes back after.
const titleWatch = new MutationObserver(() => {
  if (!pending || !pending.title || document.title === pending.title) return;
  pending.before = document.title;
  document.title = pending.title;
});
const titleEl = document.querySelector('title');
if (titleEl) titleWatch.observe(titleEl, { childList: true, characterData: true, subtree: true });

// A call looked at: the page shown again after being in the background, or the table reached.
document.addEventListener('visibilitychange', () => {
  if (pending && document.visibilityState === 'visible') {
    // The banner stays until followed or dismissed; the title goes back once seen.
    if (document.title === pending.title) document.title = pending.before;
    pending.title = null;
  }
});
window.addEventListener('popstate', () => { if (pending && location.pathname === `/table/${pending.table}`) seen(); });

/** Listen for calls while `user` is logged in (a new user: a new connection; none: stop). */
export function startCalls(user) {
  const id = user ? user.id : null;
  if (id === userId && conn) return;
  if (conn) { conn.close(); conn = null; }
  userId = id;
  delete document.body.dataset.calls;
  if (!user) { seen(); return; }
  conn = new Conn({
    // Marked on the page for the browser tests: calls are heard from now on.
    onOpen: () => { document.body.dataset.calls = 'open'; },
    onMessage: (msg) => { if (msg.type === 'tournament_table') showCall(msg); },
  });
}

/** The app moved to `path`: reaching the called table counts as seeing the call. */
export function routed(path) {
  if (pending && path === `/table/${pending.table}`) seen();
}
