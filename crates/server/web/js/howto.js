// How to play: the rules of Five Up in a few lines and example positions to try, drawn by the
// same board code as the table (board.js), each asking for the count of the open ends.
import { h, s, mount, announce } from './dom.js';
import { renderBoard } from './board.js';
import { tileSvg } from './tiles.js';

const root = (tiles, end) => ({ anchor: { kind: 'root' }, tiles, open: true, end });
const placed = (tile, inner) => {
  const [a, b] = tile.split('-').map(Number);
  return { tile, inner, outer: a === inner ? b : a };
};

/** The example positions: a layout, its open ends with what each counts, and the question. */
export const EXAMPLES = [
  {
    title: 'A double to lead',
    tree: { root: '5-5', count: 10, arms: [{ id: 'W', ...root([], 5) }, { id: 'E', ...root([], 5) }] },
    ends: [{ arm: 'W', pip: 5, counts: 5 }, { arm: 'E', pip: 5, counts: 5 }],
    choices: [5, 10, 0],
    answer: 10,
    why: 'A lone double counts both its halves: 5 + 5 = 10, a multiple of five, so leading it scores 10 at once.',
  },
  {
    title: 'Two ends',
    tree: { root: '6-4', count: 5, arms: [{ id: 'W', ...root([placed('6-2', 6)], 2) }, { id: 'E', ...root([placed('4-3', 4)], 3) }] },
    ends: [{ arm: 'W', pip: 2, counts: 2 }, { arm: 'E', pip: 3, counts: 3 }],
    choices: [5, 15, 10],
    answer: 5,
    why: 'Only the open ends count: 2 on the west end and 3 on the east end make 5, which scores 5.',
  },
  {
    title: 'A double at an end',
    tree: { root: '5-2', count: 10, arms: [{ id: 'W', ...root([placed('5-5', 5)], 5) }, { id: 'E', ...root([placed('2-0', 2)], 0) }] },
    ends: [{ arm: 'W', pip: 5, counts: 10 }, { arm: 'E', pip: 0, counts: 0 }],
    choices: [5, 10, 7],
    answer: 10,
    why: 'A double at the end of an arm counts both halves: 5 + 5 on the west, and the blank on the east counts nothing. The count is 10.',
  },
  {
    title: 'The spinner',
    tree: {
      root: '6-6', count: 10, arms: [
        { id: 'W', ...root([placed('6-1', 6)], 1) }, { id: 'E', ...root([placed('6-4', 6)], 4) },
        { id: 'N', anchor: { kind: 'sprout', double: '6-6', arm: null, index: 0 }, tiles: [placed('6-5', 6)], open: true, end: 5 },
        { id: 'S', anchor: { kind: 'sprout', double: '6-6', arm: null, index: 0 }, tiles: [placed('6-0', 6)], open: true, end: 0 },
      ],
    },
    ends: [{ arm: 'W', pip: 1, counts: 1 }, { arm: 'E', pip: 4, counts: 4 }, { arm: 'N', pip: 5, counts: 5 }, { arm: 'S', pip: 0, counts: 0 }],
    choices: [22, 10, 12],
    answer: 10,
    why: 'The first double is the spinner: once both its sides are played, tiles go on all four sides and the spinner itself counts no more. 1 + 4 + 5 + 0 = 10.',
  },
];

function example(ex, n) {
  const board = s('svg', { class: 'board howto-board', role: 'img', 'aria-label': `example ${n + 1}: the layout`, preserveAspectRatio: 'xMidYMid meet' });
  const out = h('p', { class: 'answer', role: 'status', 'aria-live': 'polite' });
  const wrap = h('div', { class: 'board-wrap howto-wrap' }, board);
  const draw = () => renderBoard(board, ex.tree, { openEnds: ex.ends });
  const card = h('section', { class: 'card example', 'aria-labelledby': `ex-${n}`, 'data-example': n },
    h('h2', { id: `ex-${n}` }, `${n + 1}. ${ex.title}`),
    wrap,
    h('p', {}, 'What is the count of the open ends?'),
    h('div', { class: 'row choices' }, ex.choices.map((c) => h('button', {
      type: 'button', class: 'secondary choice', 'data-value': c,
      onClick: () => {
        const right = c === ex.answer;
        out.className = `answer ${right ? 'ok' : 'bad'}`;
        out.textContent = `${right ? 'Right' : `Not quite: it is ${ex.answer}`}. ${ex.why}`;
        card.querySelectorAll('.choice').forEach((b) => b.setAttribute('aria-pressed', b === document.activeElement ? 'true' : 'false'));
        announce(out.textContent);
      },
    }, String(c)))),
    out);
  requestAnimationFrame(draw);
  new ResizeObserver(draw).observe(board);
  return card;
}

export async function howToPage(main) {
  mount(main, h('section', { class: 'page howto', 'aria-labelledby': 'howto-h' },
    h('h1', { id: 'howto-h' }, 'How to play Five Up'),
    h('section', { class: 'card' },
      h('ol', { class: 'rules-intro' },
        h('li', {}, 'Each player gets a hand of tiles; the rest is the boneyard. The first tile (the lead) goes in the middle.'),
        h('li', {}, 'In turn, lay a tile whose half matches an open end of the layout. If nothing fits, draw from the boneyard until something does (or pass when it is empty).'),
        h('li', {}, 'After each tile, add up the open ends: the outer half of each end tile, both halves of a double lying across an end. When that count is a multiple of five, you score it.'),
        h('li', {}, 'The first double is the spinner: once both its sides have a tile, the other two sides open too, and the layout grows in four directions.'),
        h('li', {}, 'The first to lay all their tiles wins the hand and scores the pips left in the others\' hands, rounded to five. The first side to reach the target wins the game.')),
      h('p', {}, 'At the table: tap a tile to play it (tap an end when it fits more than one), or drag it onto an end; ',
        h('kbd', {}, '1'), '–', h('kbd', {}, '9'), ' choose a tile, ', h('kbd', {}, 'D'), ' draws, ', h('kbd', {}, 'P'), ' passes, ', h('kbd', {}, 'H'), ' asks for a hint. ',
        'A tile like ', tileSvg('6-4'), ' is played by matching its 6 or its 4.')),
    h('h2', {}, 'Try it: count the ends'),
    h('div', { class: 'examples' }, EXAMPLES.map(example)),
    h('p', {}, h('a', { href: '/' }, 'Back to the lobby to play'))));
  return null;
}
