// The engines page: the bot accounts (computer programs playing through the bot API), their
// ratings in the bots' pool and their latest games; and, in a person's own profile, their bots
// with the tokens to create (shown once, with a copy button) and revoke (docs/bots.md).
import { h, mount, announce, askFirst } from './dom.js';
import { api } from './api.js';
import { optionsWords } from './format.js';

export async function enginesPage(main) {
  document.title = 'Engines · fiveup';
  const bots = await api.bots();
  mount(main, h('section', { class: 'page engines', 'aria-labelledby': 'eng-h' },
    h('h1', { id: 'eng-h' }, 'Engines'),
    h('p', {}, 'Bot accounts are computer programs that play here through the bot API, put online by their owners with ',
      h('code', {}, 'fiveup connect'), '. They are rated in their own pool; games against them count for a person only if that person chose rated games against bots (in their profile).'),
    bots.length ? h('table', { class: 'history', id: 'engines' },
      h('thead', {}, h('tr', {}, ['Rank', 'Bot', 'Owner', 'Rating', 'Games', 'Wins', 'Latest games'].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, bots.map((b, i) => h('tr', {},
        h('td', {}, String(i + 1)),
        h('td', {}, h('a', { href: `/user/${b.user.id}` }, b.user.name), ' (bot)'),
        h('td', {}, h('a', { href: `/user/${b.owner.id}` }, b.owner.name)),
        h('td', {}, b.games ? `${Math.round(b.rating)} ± ${Math.round(2 * b.deviation)}` : 'not rated yet'),
        h('td', {}, String(b.games)),
        h('td', {}, String(b.wins)),
        h('td', {}, b.recent.length ? h('ul', { class: 'recent' }, b.recent.slice(0, 3).map((g) => h('li', {},
          h('a', { href: `/game/${g.id}` }, `${g.won ? 'won' : 'lost'}: ${g.names.join(' – ')}`), ' ', h('span', { class: 'muted' }, optionsWords(g.options)))))
          : 'no games yet')))))
      : h('p', { class: 'empty' }, 'No bots yet. Create one in your profile and put an engine online with fiveup connect.')));
  return null;
}

/** The profile's section for the logged-in person's own bots (null for guests). */
export function myBotsSection(app) {
  if (!app.user || !app.user.registered || app.user.bot) return null;
  const box = h('section', { class: 'my-bots', 'aria-labelledby': 'bots-h' });
  const status = h('p', { role: 'status', id: 'bots-status' });
  const shown = h('div', { id: 'new-token' });
  const name = h('input', { id: 'bot-name', maxlength: 24, required: true, autocomplete: 'off' });
  const rated = h('input', { id: 'bot-rated', type: 'checkbox' });
  const list = h('div', { id: 'bot-list' });
  const showToken = (t) => {
    const field = h('input', { id: 'token-value', readonly: true, value: t.token, 'aria-label': `token for ${t.bot.name}` });
    mount(shown, h('div', { class: 'token-once', role: 'group', 'aria-labelledby': 'token-h' },
      h('h3', { id: 'token-h' }, `New token for ${t.bot.name}`),
      h('p', {}, 'It is shown only now: copy it into fiveup connect (--token or FIVEUP_BOT_TOKEN).'),
      h('div', { class: 'row' }, field,
        h('button', { type: 'button', id: 'copy-token', onClick: async () => {
          field.select();
          try { await navigator.clipboard.writeText(t.token); announce('Token copied'); status.textContent = 'Token copied.'; } catch (_) { status.textContent = 'Select the token and copy it.'; }
        } }, 'Copy'))));
    field.focus();
    field.select();
  };
  const refresh = async () => {
    const mine = await api.myBots();
    mount(list, mine.length ? h('ul', { class: 'bots' }, mine.map((b) => h('li', {},
      h('h3', {}, h('a', { href: `/user/${b.bot.id}` }, b.bot.name), ` · ${b.games} games`),
      h('ul', { class: 'tokens' }, b.tokens.map((t) => h('li', {},
        `token ${t.id}, made ${new Date(t.created_at * 1000).toLocaleString()}`,
        t.last_used ? `, last used ${new Date(t.last_used * 1000).toLocaleString()}` : ', never used',
        // Revoking asks first, in place: the bot using the token stops at once.
        t.revoked_at ? h('span', { class: 'muted' }, ' (revoked)') : [' ', h('button', { type: 'button', class: 'revoke', 'data-token': String(t.id), 'aria-label': `revoke token ${t.id} of ${b.bot.name}`, onClick: (ev) => {
          const ask = askFirst({ question: `Revoke token ${t.id} of ${b.bot.name}? Programs using it stop.`, yes: 'Revoke', yesClass: 'revoke-yes', noClass: 'revoke-no',
            onYes: async () => {
              try { await api.revokeToken(t.id); status.textContent = `Token ${t.id} revoked.`; await refresh(); } catch (e) { status.textContent = e.message; }
            },
            onNo: () => { ask.replaceWith(button); button.focus(); } });
          const button = ev.currentTarget;
          button.replaceWith(ask);
          ask.querySelector('.revoke-no').focus();
        } }, 'Revoke')]))),
      h('button', { type: 'button', class: 'new-token', 'aria-label': `new token for ${b.bot.name}`, onClick: async () => {
        try { showToken(await api.newToken(b.bot.id)); await refresh(); } catch (e) { status.textContent = e.message; }
      } }, 'New token'))))
      : h('p', {}, 'You have no bots yet.'));
  };
  mount(box,
    h('h2', { id: 'bots-h' }, 'Your bots'),
    h('p', {}, 'A bot account plays through the bot API with a token; see the ', h('a', { href: '/engines' }, 'engines'), ' page.'),
    h('form', { class: 'row', id: 'new-bot', onSubmit: async (ev) => {
      ev.preventDefault();
      try { showToken(await api.createBot(name.value.trim())); name.value = ''; status.textContent = 'Bot created.'; await refresh(); } catch (e) { status.textContent = e.message; }
    } }, h('div', { class: 'field' }, h('label', { for: 'bot-name' }, 'New bot name'), name), h('button', { type: 'submit' }, 'Create bot')),
    h('div', { class: 'field check' }, rated, h('label', { for: 'bot-rated' }, 'Rate my games against bots')),
    shown, status, list);
  rated.addEventListener('change', async () => {
    try { await api.setBotSettings({ rated: rated.checked }); status.textContent = rated.checked ? 'Your games against bots are rated.' : 'Your games against bots are not rated.'; } catch (e) { status.textContent = e.message; }
  });
  (async () => {
    try { rated.checked = (await api.botSettings()).rated; await refresh(); } catch (e) { status.textContent = e.message; }
  })();
  return box;
}
