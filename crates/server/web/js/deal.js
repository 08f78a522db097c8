// Verifiable deals, scheme fiveup-deal-v1, re-derived in the browser.
//
// Everything here follows docs/protocol.md ("Verifiable deals") and the engine's shuffle
// version 1 (crates/engine/src/deal.rs): SHA-256 through WebCrypto, a ChaCha20 keystream
// (RFC 8439 block function), Fisher-Yates with Lemire's unbiased bounded integers.

export const SCHEME = 'fiveup-deal-v1';

/** Tile index `a(a+1)/2 + b` to its name `a-b` (high half first). */
export function tileName(index) {
  let a = 0;
  while (((a + 1) * (a + 2)) / 2 <= index) a += 1;
  return `${a}-${index - (a * (a + 1)) / 2}`;
}

/** Tiles in the set whose highest pip is `set`: 28, 55 or 91. */
export function setSize(set = 6) {
  return ((set + 1) * (set + 2)) / 2;
}

/** The set's tile names in index order: 0-0 1-0 1-1 2-0 ... 6-6 (... 12-12). */
export function tilesInOrder(set = 6) {
  return Array.from({ length: setSize(set) }, (_, i) => tileName(i));
}

/** The 28 double-six tile names in index order. */
export const TILES_IN_ORDER = tilesInOrder(6);

export function isDouble(name) {
  const [a, b] = String(name).split('-');
  return a === b;
}

export function hexToBytes(hex) {
  if (typeof hex !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(hex)) {
    throw new Error(`not hex digits: ${hex}`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** SHA-256 of some bytes, as 64 lowercase hex digits (WebCrypto). */
export async function sha256Hex(bytes) {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return bytesToHex(new Uint8Array(digest));
}

/** The bytes hashed into the deal seed: scheme, server seed, players, each seat's seed. */
export function dealSeedMessage(serverSeedHex, clientSeeds) {
  const server = hexToBytes(serverSeedHex);
  if (server.length !== 32) throw new Error('the server seed is 32 bytes');
  const parts = [new TextEncoder().encode(SCHEME), server, Uint8Array.of(clientSeeds.length)];
  for (const s of clientSeeds) {
    if (s === null || s === undefined || s === '-') {
      parts.push(Uint8Array.of(0));
    } else {
      const b = hexToBytes(s);
      if (b.length !== 32) throw new Error('a client seed is 32 bytes');
      parts.push(Uint8Array.of(1), b);
    }
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The deal seed (64 hex digits) from the server seed and the seats' seeds. */
export function dealSeed(serverSeedHex, clientSeeds) {
  return sha256Hex(dealSeedMessage(serverSeedHex, clientSeeds));
}

function rotl(x, n) {
  return ((x << n) | (x >>> (32 - n))) >>> 0;
}

function quarter(s, a, b, c, d) {
  s[a] = (s[a] + s[b]) >>> 0; s[d] = rotl(s[d] ^ s[a], 16);
  s[c] = (s[c] + s[d]) >>> 0; s[b] = rotl(s[b] ^ s[c], 12);
  s[a] = (s[a] + s[b]) >>> 0; s[d] = rotl(s[d] ^ s[a], 8);
  s[c] = (s[c] + s[d]) >>> 0; s[b] = rotl(s[b] ^ s[c], 7);
}

/** A ChaCha20 keystream read as little-endian 32-bit words. */
export class ChaCha20 {
  constructor(key, nonce, counter) {
    if (key.length !== 32) throw new Error('a ChaCha20 key is 32 bytes');
    const st = new Uint32Array(16);
    st.set([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);
    const view = new DataView(key.buffer, key.byteOffset, 32);
    for (let i = 0; i < 8; i += 1) st[4 + i] = view.getUint32(4 * i, true);
    st[12] = counter >>> 0;
    st[13] = nonce[0] >>> 0; st[14] = nonce[1] >>> 0; st[15] = nonce[2] >>> 0;
    this.state = st;
    this.block = new Uint32Array(16);
    this.used = 16;
  }

  blockWords() {
    const x = Array.from(this.state);
    for (let r = 0; r < 10; r += 1) {
      quarter(x, 0, 4, 8, 12); quarter(x, 1, 5, 9, 13);
      quarter(x, 2, 6, 10, 14); quarter(x, 3, 7, 11, 15);
      quarter(x, 0, 5, 10, 15); quarter(x, 1, 6, 11, 12);
      quarter(x, 2, 7, 8, 13); quarter(x, 3, 4, 9, 14);
    }
    return Uint32Array.from(x, (v, i) => (v + this.state[i]) >>> 0);
  }

  nextU32() {
    if (this.used === 16) {
      this.block = this.blockWords();
      this.state[12] = (this.state[12] + 1) >>> 0;
      this.used = 0;
    }
    const w = this.block[this.used];
    this.used += 1;
    return w;
  }

  /** A uniform integer in 0..n by Lemire's method (n <= 2^21 keeps the product exact). */
  below(n) {
    const TWO32 = 4294967296;
    let m = this.nextU32() * n;
    let low = m % TWO32;
    if (low < n) {
      const threshold = (TWO32 - n) % n;
      while (low < threshold) {
        m = this.nextU32() * n;
        low = m % TWO32;
      }
    }
    return Math.floor(m / TWO32);
  }
}

/**
 * One shuffle v1 pass: the set's tiles in index order, Fisher-Yates from the last position
 * (27, 54 or 90) down.
 */
export function shuffleOnce(rng, set = 6) {
  const order = set === 6 ? TILES_IN_ORDER.slice() : tilesInOrder(set);
  for (let i = order.length - 1; i >= 1; i -= 1) {
    const j = rng.below(i + 1);
    const t = order[i]; order[i] = order[j]; order[j] = t;
  }
  return order;
}

/** The shuffled order of hand `handNo` (no redeal), as in the engine's test vectors. */
export function shuffledOrder(seedHex, handNo, set = 6) {
  return shuffleOnce(new ChaCha20(hexToBytes(seedHex), [handNo, 0, 0], 0), set);
}

/**
 * The lot of hand `handNo` (first-lead=lot), as in the engine's test vectors: after the
 * shuffle, the next keystream number chooses the leader among `players` seats.
 */
export function lotOf(seedHex, handNo, set, players) {
  const rng = new ChaCha20(hexToBytes(seedHex), [handNo, 0, 0], 0);
  shuffleOnce(rng, set);
  return rng.below(players);
}

/**
 * The deal of hand `handNo` from a deal seed: `{hands, boneyard, lot}`. `needs`: for a hand
 * that opens by a rule needing a tile dealt (see `openingNeeds`), a test of a tile; the
 * shuffle then repeats on the same keystream until some hand holds such a tile (`true` means
 * any double, as before). `opts.set`: the set (6, 9 or 12); `opts.lot`: the hand opens by lot,
 * so the next keystream number after the shuffle chooses the leader (`lot` is null otherwise).
 */
export function deal(seedHex, handNo, players, handSize, needs, opts = {}) {
  const set = opts.set ?? 6;
  const test = needs === true ? isDouble : needs || null;
  const rng = new ChaCha20(hexToBytes(seedHex), [handNo, 0, 0], 0);
  for (;;) {
    const order = shuffleOnce(rng, set);
    const dealt = order.slice(0, players * handSize);
    if (!test || dealt.some(test)) {
      const hands = [];
      for (let s = 0; s < players; s += 1) hands.push(order.slice(s * handSize, (s + 1) * handSize));
      const lot = opts.lot ? rng.below(players) : null;
      return { hands, boneyard: order.slice(players * handSize), lot };
    }
  }
}

/**
 * For a hand that opens by the first-lead rule (any lead kind but a free lead), the tile one of
 * which must be dealt or the tiles are shuffled again, as a test of a tile; `null` when any
 * deal stands (as the engine's `Rules::opening_needs`).
 */
export function openingNeeds(rules, leadKind) {
  if (!leadKind || leadKind === 'free') return null;
  const first = rules.first_lead || 'highest-double';
  if (first === 'lot') return null;
  if (first === 'top-double') {
    const top = `${rules.set ?? 6}-${rules.set ?? 6}`;
    return (t) => t === top;
  }
  return rules.no_double === 'redeal' ? isDouble : null;
}

/** Whether a hand's deal used the redeal rule. */
export function needsDouble(rules, leadKind) {
  return openingNeeds(rules, leadKind) !== null;
}

function sameList(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameSet(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

/**
 * Check one hand's proof, step by step. `known` is what the page knows of the deal:
 * `{dealt, boneyard}` (a replay), or `{history, remaining}` (the hand just played, as the
 * table saw it: every draw takes the next boneyard tile, every play must be a held tile, and
 * the hands left must be what remains). Returns `{ok, steps: [{ok, text}], deal}`.
 */
export async function verifyHand(proof, rules, leadKind, known) {
  const steps = [];
  const step = (ok, text) => { steps.push({ ok, text }); return ok; };
  if (!proof || !proof.server_seed) {
    step(false, 'the server seed is not revealed yet (it is revealed when the hand ends)');
    return { ok: false, steps, deal: null };
  }
  const server = hexToBytes(proof.server_seed);
  const commit = await sha256Hex(server);
  if (!step(commit === proof.commitment,
    commit === proof.commitment
      ? `SHA-256(server seed) = ${commit.slice(0, 16)}… equals the commitment published before the deal`
      : `SHA-256(server seed) = ${commit} but the commitment was ${proof.commitment}`)) {
    return { ok: false, steps, deal: null };
  }
  const seeds = proof.client_seeds || [];
  if (seeds.length !== rules.players) {
    step(false, `${seeds.length} client seeds for ${rules.players} players`);
    return { ok: false, steps, deal: null };
  }
  const ds = await dealSeed(proof.server_seed, seeds);
  const given = seeds.filter((s) => s).length;
  if (!step(!proof.deal_seed || ds === proof.deal_seed,
    `deal seed = SHA-256("${SCHEME}", server seed, ${rules.players} players, ${given} client seed(s)) = ${ds.slice(0, 16)}…`
      + (proof.deal_seed ? (ds === proof.deal_seed ? ', as the server said' : `, but the server said ${proof.deal_seed}`) : ''))) {
    return { ok: false, steps, deal: null };
  }
  if (!known) {
    step(true, 'the whole deal is compared with the game in the replay, once the game is over');
    return { ok: true, steps, deal: null };
  }
  const needs = openingNeeds(rules, leadKind);
  const set = rules.set ?? 6;
  const byLot = leadKind === 'lot';
  const d = deal(ds, proof.hand, rules.players, rules.hand_size, needs, { set, lot: byLot });
  const redealt = !needs ? '' : (rules.first_lead === 'top-double' ? ` (redealt until ${set}-${set} is dealt)` : ' (redealt until a double is dealt)');
  step(true, `shuffle v1 of the ${setSize(set)} tiles for hand ${proof.hand}${redealt}: ${d.hands.map((h, s) => `seat ${s + 1}: ${h.join(' ')}`).join('; ')}`);
  if (byLot && known.lot != null) {
    if (!step(d.lot === known.lot, d.lot === known.lot
      ? `the lot (the next number drawn after the shuffle) chose seat ${d.lot + 1} to lead, as played`
      : `the lot chose seat ${d.lot + 1} to lead, but seat ${known.lot + 1} led`)) {
      return { ok: false, steps, deal: d };
    }
  }
  if (known.dealt) {
    const ok = d.hands.every((h, s) => sameSet(h, known.dealt[s] || []))
      && (!known.boneyard || sameList(d.boneyard, known.boneyard));
    step(ok, ok ? 'the re-derived deal is the deal that was played' : 'the re-derived deal differs from the deal that was played');
    return { ok, steps, deal: d };
  }
  if (known.history) {
    const held = d.hands.map((h) => new Set(h));
    let next = 0;
    let ok = true;
    let why = '';
    for (const e of known.history) {
      if (e.kind === 'draw' || e.kind === 'lead-draw') {
        const t = d.boneyard[next];
        next += 1;
        if (t === undefined || (e.tile && e.tile !== t)) { ok = false; why = `seat ${e.seat + 1} drew ${e.tile}, the deal gives ${t}`; break; }
        held[e.seat].add(t);
      } else if (e.kind === 'play') {
        if (!held[e.seat].has(e.tile)) { ok = false; why = `seat ${e.seat + 1} played ${e.tile}, which the deal did not give them`; break; }
        held[e.seat].delete(e.tile);
      }
    }
    if (ok && known.remaining) {
      for (let s = 0; s < held.length; s += 1) {
        if (!sameSet([...held[s]], known.remaining[s] || [])) { ok = false; why = `seat ${s + 1}'s tiles left differ from the deal`; break; }
      }
    }
    step(ok, ok ? 'every draw, every play and every hand left agree with the re-derived deal' : why);
    return { ok, steps, deal: d };
  }
  return { ok: true, steps, deal: d };
}
