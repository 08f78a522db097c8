// Small DOM helpers: build elements from tags, attributes and children.

const SVG_NS = 'http://www.w3.org/2000/svg';

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'text') el.textContent = v;
    // Styles go through the CSSOM: the pages' Content-Security-Policy refuses style attributes.
    else if (k === 'style') el.style.cssText = v;
    else if (k === 'value' && 'value' in el) el.value = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** An HTML element: `h('button', {class: 'x', onClick: f}, 'text')`. */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace the children of `el`. */
export function mount(el, ...children) {
  el.replaceChildren();
  build(el, {}, children);
  return el;
}

/** `$('#id')`. */
export const $ = (sel, root = document) => root.querySelector(sel);

/** Announce something to screen readers through the page's live region. */
export function announce(text) {
  const live = document.getElementById('live');
  if (live) {
    live.textContent = '';
    setTimeout(() => { live.textContent = text; }, 20);
  }
}

/**
 * A question asked in place before an action that one stray tap must not take (muting a
 * player, revoking a token): the question, the button that does it (`yes`, with `yesClass`)
 * and Cancel (with `noClass`). The caller redraws on either answer; Cancel should take the
 * focus when the question opens, so that Enter pressed twice does nothing.
 */
export function askFirst({ question, yes, yesClass, noClass, onYes, onNo }) {
  return h('span', { class: 'ask', role: 'group', 'aria-label': question },
    h('span', { class: 'ask-q' }, question), ' ',
    h('button', { type: 'button', class: ['ask-yes', yesClass], onClick: onYes }, yes), ' ',
    h('button', { type: 'button', class: ['secondary', 'ask-no', noClass], onClick: onNo }, 'Cancel'));
}
