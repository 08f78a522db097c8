// The deal proof panel: the commitment during the hand, the seeds after it, and the button that
// re-derives the deal in this browser (deal.js) and shows each step of the check.
import { h, mount, announce } from './dom.js';
import { verifyHand } from './deal.js';

export function hex(label, value) {
  return h('div', { class: 'hex' }, h('span', { class: 'k' }, label), ' ', h('code', {}, value || '—'));
}

/**
 * A revealed proof with its verify button. `known` and `leadKind` as `verifyHand` takes them;
 * `rules`: the table's rules.
 */
export function proofBlock(proof, rules, leadKind, known, { id } = {}) {
  const out = h('div', { class: 'verify-result', 'aria-live': 'polite' });
  const run = async () => {
    mount(out, h('p', {}, 'Re-deriving the deal…'));
    try {
      const r = await verifyHand(proof, rules, leadKind, known);
      mount(out,
        h('p', { class: r.ok ? 'ok verdict' : 'bad verdict', 'data-ok': String(r.ok) },
          r.ok ? `✓ Hand ${proof.hand}: the deal matches its commitment and seeds` : `✗ Hand ${proof.hand}: the check failed`),
        h('ol', { class: 'steps' }, r.steps.map((st) => h('li', { class: st.ok ? 'ok' : 'bad' }, st.ok ? '✓ ' : '✗ ', st.text))));
      announce(r.ok ? `Hand ${proof.hand} verified: the deal matches` : `Hand ${proof.hand}: verification failed`);
    } catch (e) {
      mount(out, h('p', { class: 'bad verdict', 'data-ok': 'false' }, `✗ ${e.message}`));
    }
  };
  return h('div', { class: 'proof', 'data-hand': proof.hand },
    h('h3', { class: 'proof-h' }, `Hand ${proof.hand}`),
    h('p', { class: 'note' }, 'The server\'s part of the shuffle is revealed with every player\'s: anyone can re-make the deal from them.'),
    // The figures themselves (64 hexadecimal digits each) on demand.
    h('details', { class: 'seeds' }, h('summary', {}, 'Show the seeds'),
      hex('commitment', proof.commitment),
      hex('server seed', proof.server_seed),
      (proof.client_seeds || []).map((c, i) => hex(`seat ${i + 1} seed`, c || '(none)')),
      hex('deal seed', proof.deal_seed)),
    h('button', { type: 'button', class: 'verify-btn', id, onClick: run }, `Verify hand ${proof.hand} in this browser`),
    out);
}
