// Attacks the line diffs of one run together (src/review/unifiedDiff.ts, DiffBudget): each diff was bounded
// (3,000 edits, 50M steps), but a file of 3,000 lines that differ costs 4.5 million steps (about 60 ms) however
// short its lines, and nothing bounded how many there were. A 112 KB profile listing 400 such files, on 3
// MachineDeployments, took `osm-krm diff` 8 minutes (lint's and bom's alignments, one per script and scenario or
// MachineDeployment, the same way). Now every diff of a run searches within one budget, past which a diff is the
// replaced middle (linear); whatever the number of files and MachineDeployments, each diff is a valid edit script
// and the run's search is bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareReviews, type ReviewSide } from '../../src/review/compareReviews.ts';
import { BOUNDED_DIFF_NOTE, DiffBudget, diffLines, MAX_RUN_DIFF_STEPS } from '../../src/review/unifiedDiff.ts';
import type { MachineDeploymentReview } from '../../src/review/renderForReview.ts';
import { RunAlignments } from '../../src/lint/profileSourceMap.ts';
import { lintProfiles } from '../../src/lint/lintProfile.ts';
import { SMALL_OSP } from './inputCorpus.ts';
import { parseAllDocuments, stringify } from 'yaml';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBomCommand } from '../../src/cli/bomCommand.ts';
import { runCommand, tempDir } from '../review/reviewSupport.ts';
import { REPO_ROOT } from '../support/paths.ts';

const SEED = 20261128;

/** A guard against a hang, not a speed target: the budget is about 3 s of search, the rest linear. */
const CPU_GUARD_US = 30e6;

function review(name: string, files: Array<{ path: string; content: string }>): MachineDeploymentReview {
  const view = (fs: typeof files) => ({
    format: 'cloud-config' as const,
    bytes: 0,
    files: fs.map((f) => ({ ...f, mode: '0755', owner: '' })),
    units: [],
    settings: [],
  });
  return {
    namespace: 'kube-system',
    name,
    profile: { namespace: 'kube-system', name: 'osp', version: 'v1', source: 'osp.yaml' },
    revision: '1',
    bootstrap: view([]),
    provisioning: view(files),
    template: {},
    templateData: [],
    userData: { bootstrap: '', provisioning: '' },
    cloudProvider: 'aws',
    recreatedBy: { bootstrap: [], provisioning: [] },
  } as unknown as MachineDeploymentReview;
}

test("a diff's files of every MachineDeployment search within one budget, each a valid diff", () => {
  const shape = fc.record({
    machineDeployments: fc.integer({ min: 20, max: 25 }),
    files: fc.integer({ min: 40, max: 50 }),
    lines: fc.integer({ min: 1_501, max: 1_700 }),
  });
  fc.assert(
    fc.property(shape, ({ machineDeployments, files, lines }) => {
      const side = (line: string): ReviewSide => ({
        reviews: Array.from({ length: machineDeployments }, (_, k) =>
          review(
            `md${k}`,
            Array.from({ length: files }, (_, i) => ({ path: `/opt/bin/s${i}`, content: `${line}\n`.repeat(lines) })),
          ),
        ),
        unrendered: [],
      });
      const start = process.cpuUsage();
      const changes = compareReviews(side('a'), side('b'), (s) => s);
      const used = process.cpuUsage(start);
      // Without the run's budget, 1,000 files of 1,501 lines (past 3,000 edits each) take more than a minute.
      assert.ok(used.user + used.system < CPU_GUARD_US, `${(used.user + used.system) / 1e6} s of CPU`);
      assert.equal(changes.length, machineDeployments);
      for (const c of changes) {
        const body = c.diff.split('\n');
        assert.equal(body.filter((l) => l === '-a').length, files * lines);
        assert.equal(body.filter((l) => l === '+b').length, files * lines);
        // The review says how the diff is shown: every file stopped at a bound, and is named.
        const note = c.consequences.filter((l) => l.includes(BOUNDED_DIFF_NOTE));
        assert.equal(note.length, 1, c.consequences.join('\n'));
        for (let i = 0; i < files; i++) assert.ok(note[0]!.includes(`provisioning/opt/bin/s${i}`), note[0]);
      }
    }),
    { seed: SEED, numRuns: 2 },
  );
});

test('a diff that stopped at a bound is said so, naming its files; one found whole says nothing', () => {
  // Past 3,000 edits a file is the replaced middle whatever the run's budget: a file of 3,001 changed lines.
  const changed = (x: string) => Array.from({ length: 3_001 }, (_, k) => `${x}${k}`).join('\n');
  const side = (big: string, small: string): ReviewSide => ({
    reviews: [
      review('md', [
        { path: '/opt/bin/big', content: big },
        { path: '/opt/bin/small', content: small },
      ]),
    ],
    unrendered: [],
  });
  const [bounded] = compareReviews(side(changed('a'), 'x\ny\n'), side(changed('b'), 'x\nz\n'), (s) => s);
  assert.deepEqual(
    bounded!.consequences.filter((l) => l.includes(BOUNDED_DIFF_NOTE)),
    [`diff of provisioning/opt/bin/big: ${BOUNDED_DIFF_NOTE}`],
  );
  const [whole] = compareReviews(side('a\nb\n', 'x\ny\n'), side('a\nc\n', 'x\nz\n'), (s) => s);
  assert.deepEqual(
    whole!.consequences.filter((l) => l.startsWith('diff of')),
    [],
  );
  assert.match(whole!.diff, /^-b\n\+c$/m);
});

test('diffs sharing a budget are charged what they searched, and stay valid once it is spent', () => {
  const lines = fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 300 });
  fc.assert(
    fc.property(fc.array(fc.tuple(lines, lines), { minLength: 1, maxLength: 30 }), fc.nat(20_000), (pairs, steps) => {
      const budget = new DiffBudget(steps);
      for (const [a, b] of pairs) {
        const before = budget.steps;
        const edits = diffLines(a, b, budget);
        assert.deepEqual(
          edits.filter((e) => e.op !== '+').map((e) => e.line),
          a,
        );
        assert.deepEqual(
          edits.filter((e) => e.op !== '-').map((e) => e.line),
          b,
        );
        // A diff searches past what is left by one diagonal at most (its snake included).
        assert.ok(budget.steps <= before);
        assert.ok(budget.steps >= Math.min(before, 0) - 1 - a.length - b.length, `${before} -> ${budget.steps}`);
      }
    }),
    { seed: SEED, numRuns: 200 },
  );
  assert.ok(MAX_RUN_DIFF_STEPS > 0);
});

test("a run's alignments: a script rendered for many scenarios is aligned once, and placed the same in each", () => {
  const line = (k: number, x: string) => (k % 10 === 0 ? `v${k}=${x}` : `echo ${k}`);
  const template = Array.from({ length: 10_000 }, (_, k) => line(k, '{{ .X }}')).join('\n');
  const rendered = (x: string) => Array.from({ length: 10_000 }, (_, k) => line(k, x)).join('\n');
  const alignments = new RunAlignments();
  const first = alignments.of(template, rendered('a'));
  // 400 scenarios rendering the same text (not the same string object): without the run's cache each searched
  // its 20,000 lines again, and once the budget was spent a later one was placed as the replaced middle.
  const start = process.cpuUsage();
  for (let k = 0; k < 400; k++) assert.equal(alignments.of(template, rendered('a')), first);
  const used = process.cpuUsage(start);
  assert.ok(used.user + used.system < CPU_GUARD_US, `${(used.user + used.system) / 1e6} s of CPU`);
  assert.ok(
    first.every((a, k) => a.line === k),
    'each rendered line on its template line',
  );
});

test('lint says when a rendered file was aligned with its template only as far as the bounds allow', () => {
  const lintData = (data: string) => {
    const osp = structuredClone(SMALL_OSP) as any;
    osp.spec.provisioningConfig.files[0].content.inline.data = data;
    osp.spec.supportedCloudProviders = [{ name: 'aws' }];
    const text = stringify(osp, { lineWidth: 0, blockQuote: 'literal' });
    // The external validators are left out (not on PATH): only the placing of lint's own findings is looked at.
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      return lintProfiles([{ object: parseAllDocuments(text)[0]!.toJS(), file: 'osp.yaml', text, documentIndex: 0 }]);
    } finally {
      process.env.PATH = path;
    }
  };
  // 4,000 rendered lines from a 4-line template: past 3,000 edits, the block is placed as a whole (the download
  // below them is found in the rendered script and placed through the alignment).
  const coarse = lintData(
    '#!/bin/bash\n{{ range until 4000 }}echo {{ . }}\n{{ end }}curl -o /tmp/x https://x.example/x\n',
  );
  assert.ok(coarse.findings.some((f) => f.check === 'unverified-download'));
  assert.equal(coarse.notes.length, 1, JSON.stringify(coarse.notes));
  assert.match(coarse.notes[0]!, /^\d+ rendered file\(s\) differ from their templates past the diff search's bounds/);
  const fine = lintData('#!/bin/bash\necho {{ "fine" }}\ncurl -o /tmp/x https://x.example/x\n');
  assert.ok(fine.findings.some((f) => f.check === 'unverified-download'));
  assert.deepEqual(fine.notes, []);
});

test('bom says when it placed items on profile lines only as far as the bounds allow', () => {
  const bomOf = (data: string) => {
    const dir = tempDir();
    cpSync(join(REPO_ROOT, 'testdata', 'bom', 'air-gapped'), dir, { recursive: true });
    const osp = structuredClone(SMALL_OSP) as any;
    osp.metadata = { name: 'osp-lines', namespace: 'kube-system' };
    osp.spec.provisioningConfig.files[0].content.inline.data = data;
    osp.spec.supportedCloudProviders = [{ name: 'vsphere' }];
    writeFileSync(join(dir, 'osp.yaml'), stringify(osp, { lineWidth: 0, blockQuote: 'literal' }));
    const md = join(dir, 'machinedeployment.yaml');
    writeFileSync(
      md,
      readFileSync(md, 'utf8').replace('operating-system-profile: osp-ubuntu', 'operating-system-profile: osp-lines'),
    );
    const env = {
      PATH: process.env.PATH,
      OSM_CLOUD_INIT_GETTER_TOKEN: 'getter-token-for-bom-tests-0123456789',
      OSM_BOOTSTRAP_TOKEN: 'abcdef.0123456789abcdef',
    };
    return runCommand(runBomCommand, ['.', '--arch', 'amd64'], dir, env);
  };
  // As for lint: 4,000 rendered lines from a 4-line template, past 3,000 edits; the download after them is an item.
  const coarse = bomOf(
    '#!/bin/bash\n{{ range until 4000 }}echo {{ . }}\n{{ end }}curl -o /tmp/x https://x.example/x\n',
  );
  assert.equal(coarse.code, 0, coarse.stderr);
  assert.match(coarse.stdout, /https:\/\/x\.example\/x/);
  assert.match(
    coarse.stderr,
    /^osm-krm bom: note: 1 rendered file\(s\) differ from their templates past the diff search's bounds/m,
  );
  const fine = bomOf('#!/bin/bash\necho {{ "fine" }}\ncurl -o /tmp/x https://x.example/x\n');
  assert.equal(fine.code, 0, fine.stderr);
  assert.match(fine.stdout, /https:\/\/x\.example\/x/);
  assert.doesNotMatch(fine.stderr, /note:/);
});
