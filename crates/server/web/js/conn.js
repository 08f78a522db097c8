// The websocket: one per page, reconnecting with back-off. On every (re)connection the page's
// `onOpen` re-sends what it follows (the lobby, or `open` with the last version seen, so the
// server sends the missed events or a fresh snapshot).

export class Conn {
  constructor({ onMessage, onOpen, onStatus }) {
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.delay = 250;
    this.closed = false;
    this.queue = [];
    this.prefix = Math.random().toString(36).slice(2, 8);
    this.counter = 0;
    // A page the browser keeps in its back/forward cache would keep its websocket open, and the
    // server would go on counting a player who left as present (no computer would take the
    // seat): the socket closes when the page is hidden that way and opens again if the page is
    // shown again.
    this.suspended = false;
    this.onHide = () => {
      if (this.closed || !this.ws) return;
      this.suspended = true;
      this.ws.onclose = null;
      this.ws.close();
    };
    this.onShow = (ev) => {
      if (this.closed || !this.suspended || !ev.persisted) return;
      this.suspended = false;
      this.connect();
    };
    window.addEventListener('pagehide', this.onHide);
    window.addEventListener('pageshow', this.onShow);
    this.connect();
  }

  /** A command id unique to this page: a random prefix and a counter. */
  nextId(kind) {
    this.counter += 1;
    return `${kind}-${this.prefix}-${this.counter}`;
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 250;
      this.onStatus(true);
      this.onOpen(this);
      for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (_) { return; }
      // A moderator closed the account: no reconnecting; the app says so on every page.
      if (msg.type === 'error' && msg.code === 'banned') {
        this.close();
        window.dispatchEvent(new CustomEvent('fiveup:banned', { detail: msg.message }));
        return;
      }
      this.onMessage(msg, this);
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.onStatus(false);
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else this.queue.push(msg);
  }

  close() {
    this.closed = true;
    window.removeEventListener('pagehide', this.onHide);
    window.removeEventListener('pageshow', this.onShow);
    if (this.ws) this.ws.close();
  }
}

/** 32 random bytes as 64 hex digits, for a deal seed. */
export function randomSeedHex() {
  const b = new Uint8Array(32);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}
