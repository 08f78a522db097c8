// Fair play in the browser: the Report dialog (profiles, game pages, chat lines), the notices
// a moderated person sees (with their one appeal), and the moderators' page: the queue of
// reports, flags and appeals, one account's evidence with the actions, and the log.
import { h, mount, announce } from './dom.js';
import { call } from './api.js';

export const modApi = {
  report: (req) => call('POST', '/api/reports', req),
  mine: () => call('GET', '/api/me/moderation'),
  seen: (id) => call('POST', `/api/me/moderation/${id}/seen`),
  appeal: (id, text) => call('POST', `/api/me/moderation/${id}/appeal`, { text }),
  queue: () => call('GET', '/api/moderation/queue'),
  evidence: (id) => call('GET', `/api/moderation/users/${encodeURIComponent(id)}`),
  act: (req) => call('POST', '/api/moderation/act', req),
  undo: (action, reason) => call('POST', '/api/moderation/undo', { action, reason }),
  dismiss: (report, reason) => call('POST', '/api/moderation/dismiss', { report, reason }),
  log: (before) => call('GET', `/api/moderation/log${before ? `?before=${before}` : ''}`),
};

export const REASONS = [
  ['computer-help', 'Computer help'],
  ['rating-manipulation', 'Rating manipulation'],
  ['chat-abuse', 'Abuse in chat'],
  ['offensive-name', 'Offensive name'],
];

const ACTIONS = [
  ['warn', 'Warn', 'They see a notice.'],
  ['mute', 'Mute', 'Their chat lines reach only themselves.'],
  ['mark-assisted', 'Mark computer-assisted', 'Left out of leaderboards, future games unrated, tournament places removed, their victims refunded.'],
  ['mark-farm', 'Mark rating farm', 'Their ratings are reset.'],
  ['ban', 'Ban', 'Every session and connection closes at once; login refused.'],
  ['rename', 'Force a name change', 'Their name becomes PlayerN until they choose another.'],
];

const when = (s) => new Date(s * 1000).toLocaleString();

/**
 * The Report dialog: `target` {id, name}; `game` and `chat` ({table, at, text}) optional, with
 * the reason chosen first (`reason`). Opens at once; the focus goes back where it was.
 */
export function openReport(target, { game = null, chat = null, reason = null } = {}) {
  const back = document.activeElement;
  const select = h('select', { id: 'report-reason', required: true },
    REASONS.map(([v, t]) => h('option', { value: v, selected: v === reason }, t)));
  const text = h('textarea', { id: 'report-text', rows: 3, maxlength: 1000, placeholder: 'What happened (optional)' });
  const msg = h('p', { class: 'note', id: 'report-msg', role: 'status' });
  const go = h('button', { type: 'submit', id: 'report-go' }, 'Send the report');
  const dlg = h('dialog', { class: 'report-dialog', id: 'report-dialog', 'aria-labelledby': 'report-h' },
    h('form', { method: 'dialog', onSubmit: async (ev) => {
      ev.preventDefault();
      msg.classList.remove('error');
      go.disabled = true;
      try {
        await modApi.report({ user: target.id, reason: select.value, game: game || undefined, chat: chat || undefined, text: text.value.trim() || undefined });
        mount(dlg, h('h2', { id: 'report-h' }, 'Thank you'),
          h('p', { id: 'report-done' }, `Your report about ${target.name} is in the moderators' queue.`),
          h('button', { type: 'button', id: 'report-close', onClick: () => dlg.close() }, 'Close'));
        dlg.querySelector('#report-close').focus();
        announce(`Report about ${target.name} sent`);
      } catch (e) {
        go.disabled = false;
        msg.classList.add('error');
        msg.textContent = e.message;
      }
    } },
    h('h2', { id: 'report-h' }, `Report ${target.name}`),
    chat ? h('blockquote', { class: 'reported-line' }, chat.text) : null,
    game ? h('p', { class: 'note' }, `About game ${game}.`) : null,
    h('div', { class: 'field' }, h('label', { for: 'report-reason' }, 'Reason'), select),
    h('div', { class: 'field' }, h('label', { for: 'report-text' }, 'Details'), text),
    msg,
    h('div', { class: 'row' }, go, h('button', { type: 'button', class: 'secondary', id: 'report-cancel', onClick: () => dlg.close() }, 'Cancel'))));
  dlg.addEventListener('close', () => { dlg.remove(); if (back && back.focus) back.focus(); });
  document.body.append(dlg);
  dlg.showModal();
  select.focus();
  return dlg;
}

/** A Report button for `target` (shown to registered players other than the target). */
export function reportButton(app, target, opts = {}) {
  if (!app.user || !app.user.registered || String(app.user.id) === String(target.id) || target.bot) return null;
  return h('button', { type: 'button', class: 'secondary report-btn', 'data-user': target.id, onClick: () => openReport(target, opts) }, opts.label || 'Report');
}

/**
 * The notices of the signed-in person: what moderators did to their account, each with one
 * appeal; a forced name change asks for a new name. Shown above the page until seen.
 */
export async function showNotices(app) {
  const old = document.getElementById('mod-notices');
  if (old) old.remove();
  const nav = document.getElementById('nav-moderation');
  if (!app.user) { if (nav) nav.hidden = true; return; }
  let mine;
  try { mine = await modApi.mine(); } catch (_) { return; }
  if (nav) nav.hidden = !mine.moderator;
  const open = mine.notices.filter((n) => !n.undone_at && (!n.seen || (n.action === 'rename' && mine.must_rename)));
  if (!open.length) return;
  const box = h('section', { class: 'mod-notices', id: 'mod-notices', role: 'region', 'aria-label': 'notices from the moderators' },
    open.map((n) => notice(app, n, mine)));
  document.querySelector('header.top')?.after(box);
}

function notice(app, n, mine) {
  const msg = h('p', { class: 'note', role: 'status' });
  const appealText = h('textarea', { id: `appeal-text-${n.id}`, rows: 2, maxlength: 1000 });
  const appeal = n.appeal
    ? h('p', { class: 'note' }, n.appeal_closed ? 'Your appeal was answered.' : 'Your appeal is with the moderators.')
    : h('details', { class: 'appeal' }, h('summary', {}, 'Appeal'),
      h('form', { onSubmit: async (ev) => {
        ev.preventDefault();
        try {
          await modApi.appeal(n.id, appealText.value);
          msg.classList.remove('error');
          msg.textContent = 'Your appeal is with the moderators.';
          ev.target.closest('details').replaceWith(msg);
        } catch (e) { msg.classList.add('error'); msg.textContent = e.message; }
      } },
      h('label', { for: `appeal-text-${n.id}` }, 'What the moderators should know (one appeal per action)'), appealText,
      h('button', { type: 'submit', class: 'appeal-go' }, 'Send the appeal')));
  const rename = n.action === 'rename' && mine.must_rename && app.user.registered
    ? h('p', {}, h('a', { href: '/user/me' }, 'Choose a new name on your profile'))
    : null;
  return h('div', { class: ['mod-notice', n.action === 'warn' ? 'warn' : 'serious'], 'data-action': n.action },
    h('p', {}, h('strong', {}, 'From the moderators: '), n.words, '.'),
    h('p', {}, 'Reason: ', n.reason),
    rename, appeal, msg,
    n.seen ? null : h('button', { type: 'button', class: 'secondary', onClick: async (ev) => {
      await modApi.seen(n.id).catch(() => {});
      ev.target.closest('.mod-notice').remove();
      if (!document.querySelector('#mod-notices .mod-notice')) document.getElementById('mod-notices')?.remove();
    } }, 'I have read this'));
}

function person(p) {
  return p.id ? h('a', { href: `/moderation/user/${p.id}` }, p.name) : p.name;
}

function kindWords(item) {
  if (item.kind === 'appeal') return 'Appeal';
  if (item.kind === 'flag-assist') return 'Flag: computer-assisted play';
  if (item.kind === 'flag-farm') return 'Flag: rating farm';
  return `Report: ${(REASONS.find(([k]) => k === item.reason) || [null, item.reason])[1]}`;
}

/** `/moderation` (the queue and the log) and `/moderation/user/ID` (one account). */
export async function moderationPage(main, { params: [uid], app }) {
  document.title = 'Moderation · fiveup';
  if (!app.user) {
    mount(main, h('section', { class: 'page' }, h('h1', {}, 'Moderation'), h('p', {}, 'Log in as a moderator first.')));
    return null;
  }
  try {
    if (uid) await accountView(main, uid, app);
    else await queueView(main, app);
  } catch (e) {
    if (e.status === 403 || e.status === 401) {
      mount(main, h('section', { class: 'page' }, h('h1', {}, 'Moderation'), h('p', { role: 'alert' }, e.message)));
      return null;
    }
    throw e;
  }
  return null;
}

async function queueView(main) {
  const [q, log] = await Promise.all([modApi.queue(), modApi.log()]);
  const rows = q.items.map((it) => h('li', { class: ['queue-item', it.kind], 'data-report': it.id },
    h('p', { class: 'queue-head' }, h('strong', {}, kindWords(it)), ' · ', person(it.target),
      it.marks.length ? h('span', { class: 'badge mark' }, it.marks.join(', ')) : null,
      h('span', { class: 'when' }, ` · ${when(it.at)}`)),
    it.kind === 'report' ? h('p', {}, 'By ', person(it.reporter)) : null,
    it.appealed ? h('p', {}, `Appeals action ${it.appealed.id} (${it.appealed.action}: ${it.appealed.reason})`) : null,
    it.chat ? h('blockquote', { class: 'reported-line' }, it.chat.text) : null,
    it.game ? h('p', {}, 'Game: ', h('a', { href: `/game/${it.game}` }, it.game)) : null,
    it.text ? h('p', { class: 'report-text' }, it.text) : null,
    h('p', {}, h('a', { class: 'evidence-link', href: `/moderation/user/${it.target.id}?report=${it.id}` }, 'Evidence and actions'))));
  mount(main, h('section', { class: 'page moderation', 'aria-labelledby': 'mod-h' },
    h('h1', { id: 'mod-h' }, 'Moderation'),
    h('h2', {}, `Queue (${q.items.length})`),
    q.items.length ? h('ol', { class: 'queue', id: 'queue' }, rows) : h('p', { id: 'queue-empty' }, 'Nothing waits: no open reports, flags or appeals.'),
    h('h2', {}, 'Log'),
    logTable(log.entries)));
}

function logTable(entries) {
  if (!entries.length) return h('p', { id: 'log-empty' }, 'No action yet.');
  return h('div', { class: 'table-scroll' }, h('table', { class: 'mod-log', id: 'mod-log' },
    h('thead', {}, h('tr', {}, ['When', 'Moderator', 'Action', 'Account', 'Reason'].map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, entries.map((e) => h('tr', { 'data-action': e.action, class: e.undone_at ? 'undone' : null },
      h('td', {}, when(e.at)),
      h('td', {}, e.moderator.name),
      h('td', {}, e.action === 'undo' ? `undo of ${e.undoes}` : e.action, e.undone_at ? ' (undone)' : ''),
      h('td', {}, person(e.target)),
      h('td', {}, e.reason))))));
}

async function accountView(main, uid, app) {
  const ev = await modApi.evidence(uid);
  const report = new URLSearchParams(location.search).get('report');
  const reason = h('textarea', { id: 'act-reason', rows: 2, maxlength: 500, required: true });
  const action = h('select', { id: 'act-kind' }, ACTIONS.map(([v, t]) => h('option', { value: v }, t)));
  const help = h('p', { class: 'note', id: 'act-help' }, ACTIONS[0][2]);
  action.addEventListener('change', () => { help.textContent = ACTIONS.find(([v]) => v === action.value)[2]; });
  const msg = h('p', { class: 'note', id: 'act-msg', role: 'status' });
  const reload = () => accountView(main, uid, app);
  const fp = ev.fairplay;
  const u = ev.user;
  const openReports = ev.reports.filter((r) => !r.closed_at);
  mount(main, h('section', { class: 'page moderation', 'aria-labelledby': 'ev-h' },
    h('p', {}, h('a', { href: '/moderation' }, '← The queue')),
    h('h1', { id: 'ev-h' }, u.name, u.registered ? '' : ' (guest)'),
    h('p', { id: 'ev-marks', class: 'marks' }, ev.marks.length ? ev.marks.map((m) => h('span', { class: 'badge mark' }, m)) : 'No marks.'),
    h('dl', { class: 'stats' },
      h('dt', {}, 'Profile'), h('dd', {}, h('a', { href: `/user/${u.id}` }, `${u.name}'s public profile`)),
      h('dt', {}, 'Since'), h('dd', {}, when(u.created_at)),
      h('dt', {}, 'Rating'), h('dd', { id: 'ev-rating' }, `${Math.round(ev.rating.rating)} ± ${Math.round(2 * ev.rating.deviation)}`),
      h('dt', {}, 'Correspondence'), h('dd', {}, `${Math.round(ev.corr_rating.rating)} ± ${Math.round(2 * ev.corr_rating.deviation)}`)),
    h('h2', {}, 'Fair play'),
    fp ? h('p', { id: 'ev-fairplay', class: fp.flagged ? 'flagged' : null },
      `Agreement with the master's best play: ${(100 * fp.agreement).toFixed(1)}% over ${fp.decisions} decisions in ${fp.games} rated games `,
      `(honest players of the ${fp.band} band: ${(100 * fp.band_agreement).toFixed(1)}%); `,
      `${fp.loss_per_decision.toFixed(2)} points lost a decision; ${fp.z.toFixed(1)} standard errors over the band${fp.flagged ? ': over the threshold' : ''}.`)
      : h('p', { id: 'ev-fairplay' }, 'No rated game analysed yet.'),
    ev.analysed.length ? h('div', { class: 'table-scroll' }, h('table', { class: 'mod-games' },
      h('thead', {}, h('tr', {}, ['Game', 'When', 'Rating then', 'Decisions', 'Best play', 'Points lost', 'Review'].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, ev.analysed.map((g) => h('tr', {},
        h('td', {}, h('a', { href: `/game/${g.game}` }, g.game)), h('td', {}, when(g.at)),
        h('td', {}, `${Math.round(g.rating)} ± ${Math.round(2 * g.deviation)}`), h('td', {}, String(g.decisions)), h('td', {}, g.decisions ? `${Math.round((100 * g.agreed) / g.decisions)}%` : '–'),
        h('td', {}, g.loss.toFixed(1)), h('td', {}, h('a', { href: `/game/${g.game}` }, 'replay and review'))))))) : null,
    h('h2', {}, 'Recent games'),
    ev.games.length ? h('ul', { class: 'mod-recent' }, ev.games.map((g) => h('li', {},
      h('a', { href: `/game/${g.game}` }, g.game), ` · ${when(g.at)} · ${(g.players || []).join(', ')}${g.rated ? ' · rated' : ''}`))) : h('p', {}, 'No finished game.'),
    h('h2', {}, 'Reports about this account'),
    ev.reports.length ? h('ol', { class: 'queue' }, ev.reports.map((r) => h('li', { class: ['queue-item', r.kind, r.closed_at ? 'closed' : null] },
      h('p', {}, h('strong', {}, kindWords(r)), ` · ${when(r.at)}`, r.kind === 'report' ? [' · by ', person(r.reporter)] : null, r.closed_at ? ' · closed' : ''),
      r.chat ? h('blockquote', { class: 'reported-line' }, r.chat.text) : null,
      r.game ? h('p', {}, 'Game: ', h('a', { href: `/game/${r.game}` }, r.game)) : null,
      r.text ? h('p', { class: 'report-text' }, r.text) : null,
      r.closed_at ? null : h('button', { type: 'button', class: 'secondary dismiss-btn', onClick: async () => {
        if (!reason.value.trim()) { msg.classList.add('error'); msg.textContent = 'Write a reason first (it goes into the log).'; reason.focus(); return; }
        try { await modApi.dismiss(r.id, reason.value); await reload(); } catch (e) { msg.classList.add('error'); msg.textContent = e.message; }
      } }, 'Dismiss without action')))) : h('p', {}, 'None.'),
    h('h2', {}, 'Accounts seen from the same addresses'),
    ev.same_address.length ? h('ul', { id: 'ev-same' }, ev.same_address.map((a) => h('li', {}, person(a), ` (${a.addresses} address${a.addresses === 1 ? '' : 'es'} shared)`))) : h('p', { id: 'ev-same' }, 'None.'),
    h('h2', { id: 'act-h' }, 'Act'),
    h('form', { class: 'act-form', id: 'act-form', 'aria-labelledby': 'act-h', onSubmit: async (e) => {
      e.preventDefault();
      msg.classList.remove('error');
      const label = ACTIONS.find(([v]) => v === action.value)[1];
      if (!window.confirm(`${label}: ${u.name}?`)) return;
      try {
        const rep = report && openReports.some((r) => String(r.id) === report) ? Number(report) : (openReports[0]?.id ?? undefined);
        await modApi.act({ user: u.id, action: action.value, reason: reason.value, report: rep });
        announce(`${label} done`);
        await reload();
        const m = document.getElementById('act-msg');
        if (m) m.textContent = `${label}: done, and written to the log.`;
      } catch (err) { msg.classList.add('error'); msg.textContent = err.message; }
    } },
    h('div', { class: 'field' }, h('label', { for: 'act-kind' }, 'Action'), action), help,
    h('div', { class: 'field' }, h('label', { for: 'act-reason' }, 'Reason (kept in the log, shown to them)'), reason),
    h('button', { type: 'submit', id: 'act-go' }, 'Act'), msg),
    h('h2', {}, 'What was done'),
    ev.actions.length ? h('ul', { class: 'mod-done', id: 'ev-actions' }, ev.actions.map((a) => h('li', { 'data-action': a.action },
      `${when(a.at)} · ${a.moderator.name} · ${a.action === 'undo' ? `undo of ${a.undoes}` : a.action}${a.undone_at ? ' (undone)' : ''} · ${a.reason}`,
      refundWords(a.detail),
      a.action !== 'undo' && a.action !== 'dismiss' && !a.undone_at ? h('button', { type: 'button', class: 'secondary undo-btn', onClick: async () => {
        if (!reason.value.trim()) { msg.classList.add('error'); msg.textContent = 'Write a reason first (it goes into the log).'; reason.focus(); return; }
        if (!window.confirm(`Undo ${a.action}?`)) return;
        try { await modApi.undo(a.id, reason.value); await reload(); } catch (e) { msg.classList.add('error'); msg.textContent = e.message; }
      } }, 'Undo') : null))) : h('p', { id: 'ev-actions' }, 'Nothing yet.')));
}

function refundWords(d) {
  if (!d || !d.refunds || !d.refunds.length) return null;
  return h('span', { class: 'refunds' }, ` · ${d.refunds.length} victim${d.refunds.length === 1 ? '' : 's'} refunded (`,
    d.refunds.map((r) => `${r.user}: ${Math.round(r.from.rating)} → ${Math.round(r.to.rating)}`).join(', '), ')');
}


