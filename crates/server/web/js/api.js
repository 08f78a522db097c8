// The HTTP API of `fiveup serve` (docs/protocol.md).

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** What a request that could not reach the server says (never the browser's "Failed to fetch"). */
export const OFFLINE_WORDS = 'The server cannot be reached: check your connection, then try again.';

/**
 * `fetch`, with a request that never reached the server (no network, the server away) thrown
 * as an `ApiError` with the code `offline` and a plain sentence.
 */
export async function reach(path, init) {
  try {
    return await fetch(path, init);
  } catch (_) {
    throw new ApiError('offline', OFFLINE_WORDS, 0);
  }
}

/** One request to the API: JSON in and out; a failure is thrown as an `ApiError`. */
export async function call(method, path, body) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  // The server takes state-changing requests as JSON only (a defence against cross-site
  // forms), bodiless ones included.
  if (method === 'POST') init.headers['Content-Type'] = 'application/json';
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await reach(path, init);
  if (res.status === 204) return null;
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = null; }
  if (!res.ok) {
    throw new ApiError(data?.error || 'http', data?.message || `${res.status} ${res.statusText}`, res.status);
  }
  return data;
}

export const api = {
  config: () => call('GET', '/api/config'),
  me: () => call('GET', '/api/me'),
  session: () => call('GET', '/api/session'),
  guest: (nickname) => call('POST', '/api/guest', { nickname }),
  // `display_name` (optional): the name shown at tables; the user name is for logging in.
  register: (username, password, displayName) => call('POST', '/api/register', displayName ? { username, password, display_name: displayName } : { username, password }),
  displayName: (displayName) => call('POST', '/api/me/name', { display_name: displayName }),
  login: (username, password) => call('POST', '/api/login', { username, password }),
  logout: () => call('POST', '/api/logout'),
  lobby: () => call('GET', '/api/lobby'),
  checkRules: (spec) => call('GET', `/api/rules?spec=${encodeURIComponent(spec)}`),
  // A request id makes a repeated create (after a lost answer) answer the same table.
  createTable: (req) => call('POST', '/api/tables', { request_id: crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`, ...req }),
  table: (id) => call('GET', `/api/tables/${encodeURIComponent(id)}`),
  join: (id, req) => call('POST', `/api/tables/${encodeURIComponent(id)}/join`, req),
  leave: (id) => call('POST', `/api/tables/${encodeURIComponent(id)}/leave`),
  game: (id) => call('GET', `/api/games/${encodeURIComponent(id)}`),
  review: (id) => call('GET', `/api/games/${encodeURIComponent(id)}/review`),
  // `kind`: 'live' or 'correspondence' keeps that kind of game in the history.
  user: (id, kind) => call('GET', `/api/users/${encodeURIComponent(id)}${kind ? `?kind=${kind}` : ''}`),
  leaderboard: () => call('GET', '/api/leaderboard'),
  corrLeaderboard: () => call('GET', '/api/correspondence/leaderboard'),
  verify: (record) => call('POST', '/api/verify', { record }),
  bots: () => call('GET', '/api/bots'),
  myBots: () => call('GET', '/api/bots/mine'),
  createBot: (name) => call('POST', '/api/bots', { name }),
  newToken: (id) => call('POST', `/api/bots/${encodeURIComponent(id)}/tokens`),
  revokeToken: (id) => call('POST', `/api/bots/tokens/${encodeURIComponent(id)}/revoke`),
  botSettings: () => call('GET', '/api/bots/settings'),
  setBotSettings: (s) => call('POST', '/api/bots/settings', s),
  // Tournaments (docs/tournaments.md).
  tournaments: (status) => call('GET', `/api/tournaments${status ? `?status=${encodeURIComponent(status)}` : ''}`),
  tournament: (id) => call('GET', `/api/tournaments/${encodeURIComponent(id)}`),
  createTournament: (settings) => call('POST', '/api/tournaments', settings),
  joinTournament: (id, body) => call('POST', `/api/tournaments/${encodeURIComponent(id)}/join`, body),
  withdrawTournament: (id) => call('POST', `/api/tournaments/${encodeURIComponent(id)}/withdraw`),
  tournamentBots: (id, level, count) => call('POST', `/api/tournaments/${encodeURIComponent(id)}/bots`, { level, count }),
};

/** The logged-in user, or null. */
export async function currentUser() {
  return (await api.session()).user || null;
}
