// Attacks the places that gather one line, command or finding per line of a profile's file: each spread what
// it gathered into one call, and V8 runs out of stack at about 100,000 arguments. A 40 KB profile whose files
// render 160,000 lines made `osm-krm render` end in "internal error: Maximum call stack size exceeded"
// (formatReview.ts), a script with a stray `)` before 200,000 commands did the same to `bom` (shellSyntax.ts),
// 150,000 `curl -k` lines to `lint` (lintProfile.ts). Whatever the length, each is listed, followed or found
// whole (test/architecture/spreadArguments.test.ts keeps new spreads out).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAllDocuments, stringify } from 'yaml';
import { renderForReview } from '../../src/review/renderForReview.ts';
import { formatReview, reviewFiles } from '../../src/review/formatReview.ts';
import { lintProfiles } from '../../src/lint/lintProfile.ts';
import { BASE_CONFIG, SMALL_OSP, itemsWithProvisioningConfig } from './inputCorpus.ts';
import { evaluateHostileScript } from './evaluateHostileScript.ts';
import { MAX_EVALUATION_WORK } from '../../src/bom/scriptEvaluation.ts';

const LINES = 200_000;

test('render lists a file of 200,000 lines, each of them', () => {
  const items = itemsWithProvisioningConfig({
    files: [{ path: '/opt/bin/long', permissions: 755, content: { inline: { data: 'x\n'.repeat(LINES) } } }],
  });
  items.splice(2, 1); // one MachineDeployment
  const env = { env: () => undefined, readFile: () => '' };
  const rendered = renderForReview({ objects: items, functionConfig: BASE_CONFIG } as any, env as any);
  assert.equal(rendered.reviews.length, 1, JSON.stringify(rendered.results).slice(0, 500));
  const text = formatReview(rendered.reviews[0]!, undefined);
  assert.equal(text.split('\n').filter((l) => l === '  | x').length, LINES);
  const listing = reviewFiles(rendered.reviews[0]!).get('provisioning.txt')!;
  assert.equal(listing.split('\n').filter((l) => l === '  | x').length, LINES);
});

test('a script with a stray `)` before 200,000 commands is followed to its budget, not to a RangeError', () => {
  const run = evaluateHostileScript(`#!/bin/bash\n)\n${':\n'.repeat(LINES)}`, MAX_EVALUATION_WORK);
  assert.ok(run.outcome === 'followed' || /budget/.test(run.outcome), run.outcome);
});

test('lint finds each of 150,000 `curl -k` lines', () => {
  const osp = structuredClone(SMALL_OSP) as any;
  osp.spec.provisioningConfig.files[0].content.inline.data =
    '#!/bin/bash\n' + 'curl -k https://x.example/\n'.repeat(150_000);
  osp.spec.supportedCloudProviders = [{ name: 'aws' }];
  const text = stringify(osp, { lineWidth: 0, blockQuote: 'literal' });
  // The external validators are left out (not on PATH): shellcheck alone takes minutes on such a script.
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    const report = lintProfiles([
      { object: parseAllDocuments(text)[0]!.toJS(), file: 'osp.yaml', text, documentIndex: 0 },
    ]);
    const found = report.findings.find((f) => f.check === 'curl-insecure');
    assert.ok(found !== undefined);
    assert.equal(report.findings.filter((f) => f.check === 'curl-insecure').length, 150_000);
  } finally {
    process.env.PATH = path;
  }
});
