// Differential test: every case of testdata/template-corpus runs through Go's text/template (the oracle,
// one batched process) and through our engine; outputs, and error messages on failure, must match.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCorpus } from './corpus.ts';
import { compareAll, formatReport } from './harness.ts';
import { runOracle } from './oracle/oracle.ts';
import { ourEngine } from './ourEngine.ts';
import { KNOWN_DIFFERENCES } from './knownDifferences.ts';

const cases = loadCorpus();
const goResults = await runOracle(cases);

test('the corpus has at least 300 cases and Go answered each', () => {
  assert.ok(cases.length >= 300, `only ${cases.length} cases`);
  assert.equal(goResults.length, cases.length);
  // A corpus where Go fails everything would prove nothing.
  assert.ok(goResults.filter((r) => r.error === null).length > cases.length / 2);
});

for (const file of [...new Set(cases.map((c) => c.file))]) {
  test(`${file} renders as in Go`, () => {
    const idx = cases.flatMap((c, i) => (c.file === file ? [i] : []));
    const all = compareAll(
      idx.map((i) => cases[i]!),
      idx.map((i) => goResults[i]!),
      ourEngine,
    );
    const mismatches = all.filter((m) => !KNOWN_DIFFERENCES.has(m.kase.name));
    if (mismatches.length > 0) assert.fail(formatReport(mismatches, idx.length));
    const stillDiffering = new Set(all.map((m) => m.kase.name));
    const fixed = idx.map((i) => cases[i]!.name).filter((n) => KNOWN_DIFFERENCES.has(n) && !stillDiffering.has(n));
    assert.deepEqual(fixed, [], 'these cases now match Go: remove them from test/template/knownDifferences.ts');
  });
}
