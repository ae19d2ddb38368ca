// Every kpt package with `.expected/` (examples/ and test/gitops/kpt-cases/), run through the real kpt by our
// catalog-style runner (kptTestRunner.ts): the git diff after two runs must be .expected/diff.patch.
import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../support/paths.ts';
import { findKptCases, readCaseConfig, runKptCase } from './kptTestRunner.ts';

const cases = findKptCases(join(REPO_ROOT, 'examples'), join(REPO_ROOT, 'test', 'gitops', 'kpt-cases'));

test('the example kpt package and our kpt test packages are found', () => {
  const names = cases.map((c) => relative(REPO_ROOT, c));
  assert.ok(names.includes('examples/kpt'), names.join(', '));
  assert.ok(
    names.some((n) => n.startsWith('test/gitops/kpt-cases/')),
    names.join(', '),
  );
});

for (const dir of cases) {
  const config = readCaseConfig(dir);
  const name = relative(REPO_ROOT, dir);
  test(`kpt ${config.testType}: ${name}`, { skip: config.skip }, () => {
    const problems = runKptCase(dir);
    assert.deepEqual(problems, [], problems.join('\n\n'));
  });
}
