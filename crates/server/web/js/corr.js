// Correspondence play in the browser: the "My games" page, the header's badge, the clock
// choices of the create form, and the notification settings of the profile
// (docs/correspondence.md).
import { h, mount } from './dom.js';
import { seatName, gameName, timeLeft } from './format.js';
import { withIcons } from './panels.js';
import { reach } from './api.js';

async function call(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await reach(path, init);
  if (res.status === 204) return null;
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(data?.message || `${res.status} ${res.statusText}`);
  return data;
}

/** The times per move offered, in hours, with their words. */
export const PER_MOVE = [[6, '6 hours'], [24, '1 day'], [48, '2 days'], [72, '3 days'], [120, '5 days'], [168, '7 days']];

/** People the one logged in muted (ids): their chat lines are hidden at every table (the
 * server leaves them out of what it sends; this hides at once the lines already shown). */
export const muted = new Set();

/** Mute a player's chat (their games and moves go on). */
export async function mutePlayer(id) {
  await call('POST', '/api/mutes', { user: id });
  muted.add(id);
}

/** The profile's list of muted players, each with an Unmute button. */
export function mutedSection() {
  const list = h('ul', { id: 'muted-list', class: 'muted-list' });
  const msg = h('p', { class: 'note', role: 'status', id: 'muted-msg' });
  const draw = async () => {
    let rows;
    try { rows = await call('GET', '/api/mutes'); } catch (e) { msg.textContent = e.message; return; }
    muted.clear();
    for (const r of rows) muted.add(r.user);
    mount(list, rows.map((r) => h('li', {}, h('a', { href: `/user/${r.user}` }, r.name), ' ',
      h('button', { type: 'button', class: 'secondary', 'aria-label': `Unmute ${r.name}`, onClick: async () => {
        try {
          await call('DELETE', '/api/mutes', { user: r.user });
          muted.delete(r.user);
          msg.textContent = `${r.name} is unmuted: their chat shows again.`;
          draw();
        } catch (e) { msg.textContent = e.message; }
      } }, 'Unmute'))));
    if (!rows.length) mount(list, h('li', { class: 'empty' }, 'Nobody.'));
  };
  draw();
  return h('section', { class: 'muted-players', 'aria-labelledby': 'muted-h' },
    h('h2', { id: 'muted-h' }, 'Muted players'),
    h('p', {}, 'Their chat lines are hidden from you at every table; games with them go on as usual.'),
    list, msg);
}

/** Load the list of muted players (for the chat of a table). */
export async function loadMuted() {
  try {
    const rows = await call('GET', '/api/mutes');
    muted.clear();
    for (const r of rows) muted.add(r.user);
  } catch (_) { /* not logged in: nobody muted */ }
}

/** A correspondence game's clock in words: "2 days a move, no weekends". */
export function clockWords(spec) {
  if (!spec) return '';
  const per = PER_MOVE.find(([v]) => v === spec.per_move_hours)?.[1] || `${spec.per_move_hours} hours`;
  return `${per} a move${spec.no_weekends ? ', no weekends' : ''}`;
}

export { timeLeft };

/** A correspondence table named as such, for headings and lists: "Correspondence · 3 days a move". */
export function corrTitle(spec) {
  return `Correspondence · ${clockWords(spec)}`;
}

/** What a correspondence clock means, for those about to sit down. */
export function corrNote(spec) {
  const per = PER_MOVE.find(([v]) => v === spec.per_move_hours)?.[1] || `${spec.per_move_hours} hours`;
  return `${corrTitle(spec)}: each player has ${per} for each move${spec.no_weekends ? ' (the clock stands still at weekends)' : ''}, and nobody needs to stay online. A move not made in time loses the game.`;
}

/**
 * The deadline of the move a correspondence table waits for, asked of the server
 * (`GET /api/correspondence/tables/{id}/clock`) whenever the table's version changes. The time
 * left runs from the server's figure (its clock decides), the deadline is a date. `onChange`
 * redraws the page when an answer comes.
 */
export function moveDeadline(table, onChange) {
  const st = { version: -1, answer: null, at: 0, tries: 0, timer: null };
  const ask = (version) => {
    call('GET', `/api/correspondence/tables/${encodeURIComponent(table)}/clock`).then((a) => {
      if (st.version !== version) return;
      st.answer = a;
      st.at = Date.now();
      // The deadline is written a moment after the change that began the move: ask again.
      if ((a.version == null || a.version < version) && st.tries < 6) {
        st.tries += 1;
        st.timer = setTimeout(() => ask(version), 400 * st.tries);
      }
      onChange();
    }).catch(() => {});
  };
  return {
    sync(view, version) {
      if (!view.table.correspondence || view.table.status !== 'playing') { st.answer = null; return; }
      if (version === st.version) return;
      st.version = version;
      st.tries = 0;
      clearTimeout(st.timer);
      ask(version);
    },
    /** Seat `seat`'s move: `{ due, end }` (`end`: this page's time in ms when it runs out), or null. */
    of(seat) {
      const a = st.answer;
      if (!a || a.due_at == null || a.seat !== seat) return null;
      return { due: a.due_at, end: st.at + a.seconds_left * 1000 };
    },
    stop() { clearTimeout(st.timer); },
  };
}

/** The controls of the create form: live, or a time per move with its options. */
export function clockControls() {
  const per = h('select', { id: 'corr-per-move' },
    h('option', { value: '' }, 'Live (play now)'),
    PER_MOVE.map(([v, t]) => h('option', { value: v }, `Correspondence: ${t} a move`)));
  const weekends = h('input', { type: 'checkbox', id: 'corr-no-weekends' });
  const vacation = h('input', { type: 'checkbox', id: 'corr-vacation', checked: true });
  const extra = h('span', { class: 'corr-extra', hidden: true },
    h('label', {}, weekends, ' No weekends'), ' ',
    h('label', {}, vacation, ' Vacation days allowed'));
  per.addEventListener('change', () => { extra.hidden = !per.value; });
  const el = h('div', { class: 'row field' }, h('label', { for: 'corr-per-move' }, 'Clock'), per, extra);
  el.spec = () => (per.value ? { per_move_hours: Number(per.value), no_weekends: weekends.checked, vacation: vacation.checked } : undefined);
  return el;
}

/** "My games": every correspondence game, those waiting for your move first. */
export async function gamesPage(main, { app }) {
  document.title = 'My games · fiveup';
  if (!app.user) {
    mount(main, h('section', { class: 'page' }, h('h1', {}, 'My games'), h('p', {}, 'Play as a guest or log in first: ', h('a', { href: '/' }, 'the lobby'), '.')));
    return null;
  }
  const g = await call('GET', '/api/correspondence/games');
  // Each game named as people know it: the game, the opponents, the time per move (the
  // table's id only where the table cannot be read).
  const [infos, presets] = await Promise.all([
    Promise.all(g.games.map((x) => call('GET', `/api/tables/${encodeURIComponent(x.table)}`).catch(() => null))),
    call('GET', '/api/config').then((c) => c.presets || []).catch(() => []),
  ]);
  const opponents = (info) => {
    const others = info.seats.map((_, i) => i).filter((i) => i !== info.your_seat);
    return others.flatMap((i, k) => [k ? ', ' : '', withIcons(seatName(info.seats, i))]);
  };
  const row = (x, k) => {
    const info = infos[k];
    return h('li', { class: x.your_turn ? 'your-turn' : '' },
      h('a', { href: `/table/${x.table}` }, info ? [gameName(info.rules, presets), ' with ', opponents(info)] : `Table ${x.table}`),
      x.correspondence ? [' · ', h('span', { class: 'corr-clock' }, clockWords(x.correspondence))] : null, ' · ',
      x.finished ? 'finished' : x.your_turn ? `your move, ${timeLeft(x.seconds_left)} left` : 'waiting for the others');
  };
  mount(main, h('section', { class: 'page my-games', 'aria-labelledby': 'mg-h' },
    h('h1', { id: 'mg-h' }, 'My games'),
    g.timeouts ? h('p', {}, `Moves you let time out: ${g.timeouts}.`) : null,
    g.games.length ? h('ul', { id: 'my-games' }, g.games.map(row)) : h('p', {}, 'No correspondence games yet: create one in the lobby with a time per move.')));
  return null;
}

let badgeTimer = null;
async function updateBadge() {
  const badge = document.getElementById('games-badge');
  if (!badge) return;
  try {
    const g = await call('GET', '/api/correspondence/games');
    badge.textContent = g.your_turn ? String(g.your_turn) : '';
    badge.hidden = !g.your_turn;
  } catch (_) { badge.hidden = true; }
}

/**
 * Read the header's badge again soon: the pages call this when the websocket says one of your
 * tables changed (a move made, a seat taken), so that the badge follows at once rather than
 * at its next minute. Several calls close together make one request.
 */
export function refreshBadge() {
  if (badgeTimer) return;
  badgeTimer = setTimeout(() => { badgeTimer = null; updateBadge(); }, 300);
}

/** Keep the header's badge (the games waiting for your move) up to date. */
export function startBadge() {
  if (!document.getElementById('games-badge')) return;
  updateBadge();
  setInterval(updateBadge, 60000);
}

const KINDS = [['turn', 'Your turn'], ['reminder', 'Reminders before a timeout'], ['over', 'Game over']];

function base64url(s) {
  const pad = '='.repeat((4 - (s.length % 4)) % 4);
  const b = atob((s + pad).replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

// The site's one service worker (/sw.js, scope /), which pulls in the push handlers.
async function registration() {
  return (await navigator.serviceWorker.getRegistration('/')) || navigator.serviceWorker.register('/sw.js', { scope: '/' });
}

const BLOCKED = 'notifications are blocked for this site in the browser\'s settings: allow them there first';

/** How long subscribing may wait on the browser's push service. */
const PUSH_WAIT_MS = 20000;

/** Subscribe this browser for the kinds chosen (asking for permission first). */
export async function enablePush(kinds) {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) throw new Error('this browser has no Web Push');
  const permission = await Notification.requestPermission();
  if (permission === 'denied') throw new Error(BLOCKED);
  if (permission !== 'granted') throw new Error('the browser\'s question was closed without an answer: press the button again to be asked');
  const reg = await registration();
  await navigator.serviceWorker.ready;
  const { public_key: key } = await call('GET', '/api/push/key');
  // The browser's push service may never answer (no network to it): give up after a while.
  const slow = new Promise((_, no) => { setTimeout(() => no(new Error('the browser\'s push service did not answer; try again later')), PUSH_WAIT_MS); });
  const sub = (await reg.pushManager.getSubscription())
    || await Promise.race([reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64url(key) }), slow]);
  await call('POST', '/api/push/subscriptions', { subscription: sub.toJSON(), kinds });
  localStorage.setItem('fiveup-push-kinds', JSON.stringify(kinds));
  return sub;
}

/** Send this browser's subscription again (a subscription not renewed for 30 days expires). */
export async function renewPush() {
  try {
    const kinds = JSON.parse(localStorage.getItem('fiveup-push-kinds') || 'null');
    if (!kinds || !('serviceWorker' in navigator) || Notification.permission !== 'granted') return;
    const reg = await navigator.serviceWorker.getRegistration('/');
    const sub = reg && await reg.pushManager.getSubscription();
    if (sub) await call('POST', '/api/push/subscriptions', { subscription: sub.toJSON(), kinds });
  } catch (_) { /* tried again on the next visit */ }
}

/** The profile's notification settings. */
export function notificationSettings() {
  const saved = JSON.parse(localStorage.getItem('fiveup-push-kinds') || '["turn","reminder","over"]');
  const boxes = KINDS.map(([k, t]) => h('label', {}, h('input', { type: 'checkbox', 'data-kind': k, checked: saved.includes(k) }), ` ${t}`));
  const status = h('p', { id: 'push-status', role: 'status' });
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent) && !navigator.standalone;
  const go = h('button', { type: 'button', id: 'push-enable' }, 'Turn notifications on');
  // Where the browser stands: "blocked" only once permission was refused ("denied"); while it
  // has not been asked ("default") the button asks.
  const permission = () => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);
  const stand = () => {
    const p = permission();
    if (p === 'unsupported') { go.disabled = true; status.textContent = 'This browser has no notifications.'; } else if (p === 'denied') status.textContent = 'Notifications are blocked for this site in your browser\'s settings: allow them there, then press the button.';
    else if (p === 'default') status.textContent = 'Notifications are off. Turning them on asks your browser for permission.';
    else status.textContent = localStorage.getItem('fiveup-push-kinds') ? 'Notifications are allowed for this site: press the button to update what is sent.' : 'Notifications are allowed for this site but not turned on yet.';
  };
  stand();
  go.addEventListener('click', async () => {
    const kinds = boxes.map((b) => b.querySelector('input')).filter((i) => i.checked).map((i) => i.dataset.kind);
    // While the browser asks and subscribes: the button waits, and says so.
    go.disabled = true;
    go.setAttribute('aria-busy', 'true');
    go.textContent = 'Turning on…';
    status.textContent = 'Turning notifications on…';
    try {
      await enablePush(kinds);
      status.textContent = kinds.length ? 'Notifications are on.' : 'No kind chosen: nothing will be sent.';
    } catch (e) { status.textContent = `Notifications could not be turned on: ${e.message}.`; }
    go.disabled = false;
    go.removeAttribute('aria-busy');
    go.textContent = 'Turn notifications on';
  });
  return h('section', { class: 'notifications', 'aria-labelledby': 'push-h' },
    h('h2', { id: 'push-h' }, 'Notifications for correspondence games'),
    ios ? h('p', { class: 'note' }, 'On an iPhone or iPad, notifications work only once this site is installed to the home screen: in Safari, Share, then "Add to Home Screen", and open it from there.') : null,
    h('p', {}, 'They name the table and your opponents, never your tiles.'),
    h('div', { class: 'row' }, boxes), go, status);
}
