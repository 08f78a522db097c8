// The test page's entry: exposes the unit tests to the browser tests (WebDriver).
import { runTests, geometryReport, sizeReport } from './tests.js';

window.geometryReport = geometryReport;
window.sizeReport = sizeReport;
window.runTests = async (vectors, more) => {
  const r = await runTests(vectors, more);
  document.getElementById('out').textContent = r.lines.join('\n');
  return r;
};
window.testsReady = true;
