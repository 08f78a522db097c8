// The test page's entry: exposes the unit tests to the browser tests (WebDriver).
import { runTests, geometryReport, sizeReport } from './tests.js';
import { renderBoard } from './board.js';

window.geometryReport = geometryReport;
window.sizeReport = sizeReport;
window.runTests = async (vectors, more) => {
  const r = await runTests(vectors, more);
  document.getElementById('out').textContent = r.lines.join('\n');
  return r;
};
// A board of `width` x `height` pixels drawing `tree` as the table does (for the zoom test).
window.showBoard = (tree, opts, width, height) => {
  let wrap = document.getElementById('board-test');
  if (!wrap) {
    wrap = document.createElement('div');
    wrap.id = 'board-test';
    wrap.className = 'board-wrap';
    document.body.append(wrap);
  }
  wrap.style.width = `${width}px`;
  wrap.style.height = `${height}px`;
  wrap.replaceChildren();
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'board');
  svg.id = 'board';
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', 'the layout');
  svg.style.height = `${height}px`;
  wrap.append(svg);
  renderBoard(svg, tree, { ...opts, zoomable: true });
  return svg.getAttribute('viewBox');
};
window.testsReady = true;
