// Attacks the line diff every review view goes through (src/review/unifiedDiff.ts: `diff`'s hunks, and lint's and
// bom's placing of a rendered script's lines on the profile's, alignRenderedLines). Myers' search kept one whole
// frontier (n + m integers) per edit distance to walk back, so a script of 10,000 lines with a template action on
// each (every rendered line differs from its template line) took `osm-krm bom` 26 s and 3.2 GB, and lint placed
// each finding by aligning the script again (1,490 findings on such a script: past 300 s). Whatever two texts,
// the diff is a valid edit script, found within bounded steps and memory; a unified diff of a huge change is
// printed without spreading its lines into one call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { diffLines, unifiedDiff } from '../../src/review/unifiedDiff.ts';
import { alignRenderedLines, RunAlignments } from '../../src/lint/profileSourceMap.ts';

const SEED = 20261128;

/** Applying the edit script: its kept and removed lines are `a`, its kept and added lines are `b`. */
function assertEditScript(a: readonly string[], b: readonly string[], edits: ReturnType<typeof diffLines>): void {
  assert.deepEqual(
    edits.filter((e) => e.op !== '+').map((e) => e.line),
    a,
  );
  assert.deepEqual(
    edits.filter((e) => e.op !== '-').map((e) => e.line),
    b,
  );
}

test('small texts: the diff is a shortest edit script', () => {
  const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 40 });
  fc.assert(
    fc.property(lines, lines, (a, b) => {
      const edits = diffLines(a, b);
      assertEditScript(a, b, edits);
      // Shortest: as many kept lines as the longest common subsequence.
      const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = a.length - 1; i >= 0; i--)
        for (let j = b.length - 1; j >= 0; j--)
          lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
      assert.equal(edits.filter((e) => e.op === ' ').length, lcs[0]![0]);
    }),
    { seed: SEED, numRuns: 300 },
  );
});

test('texts that differ everywhere are diffed in bounded memory and time, as a valid edit script', () => {
  const shape = fc.record({
    n: fc.integer({ min: 2_000, max: 40_000 }),
    common: fc.constantFrom(0, 1, 7, 100),
    head: fc.integer({ min: 0, max: 50 }),
  });
  fc.assert(
    fc.property(shape, ({ n, common, head }) => {
      const mk = (side: string) => [
        ...Array.from({ length: head }, (_, k) => `same ${k}`),
        ...Array.from({ length: n }, (_, k) => (common > 0 && k % common === 0 ? `c ${k}` : `${side} ${k}`)),
        'tail',
      ];
      const a = mk('a');
      const b = mk('b');
      const before = process.resourceUsage().maxRSS;
      const start = process.cpuUsage();
      const edits = diffLines(a, b);
      const used = process.cpuUsage(start);
      // A guard against a hang and a blow-up, not a speed target: whole frontiers took 3 GB at n = 10,000.
      const grewKb = process.resourceUsage().maxRSS - before;
      assert.ok(grewKb < 400 * 1024, `peak RSS grew ${grewKb} KB for ${n} lines`);
      assert.ok(used.user + used.system < 10e6, `${(used.user + used.system) / 1e6} s of CPU`);
      assertEditScript(a, b, edits);
      assert.deepEqual(
        edits.slice(0, head).map((e) => e.op),
        Array(head).fill(' '),
      );
      assert.equal(edits[edits.length - 1]!.op, ' ');
    }),
    { seed: SEED, numRuns: 8 },
  );
});

test('a script with a template action on each of 10,000 lines is aligned line for line', () => {
  const template = Array.from({ length: 10_000 }, (_, k) => `v${k}={{ "a" }}`).join('\n');
  const rendered = Array.from({ length: 10_000 }, (_, k) => `v${k}=a`).join('\n');
  const before = process.resourceUsage().maxRSS;
  const aligned = alignRenderedLines(template, rendered);
  assert.ok(process.resourceUsage().maxRSS - before < 400 * 1024, 'peak RSS');
  assert.equal(aligned.length, 10_000);
});

test('a unified diff of 300,000 changed lines is printed, not a RangeError', () => {
  const text = (side: string) => Array.from({ length: 300_000 }, (_, k) => `${side}${k}\n`).join('');
  const out = unifiedDiff(text('a'), text('b'), 'a/x', 'b/x');
  assert.equal(out.split('\n').length, 2 + 1 + 600_000 + 1);
});

test('lines and files longer than 16,383 characters: looked up by digest, in linear time, the same edits', () => {
  // V8 hashes a longer string by its length alone: 2,000 distinct lines of one such length that differ at their
  // end collide in the diff's map of lines (and whole rendered files in lint's and bom's alignments).
  const line = (i: number) => `${'x'.repeat(16_380)}${String(i).padStart(5, '0')}`;
  const a = Array.from({ length: 2000 }, (_, i) => line(i));
  const b = [...a.slice(0, 1000), 'inserted', ...a.slice(1000, 1999)];
  const started = process.hrtime.bigint();
  const edits = diffLines(a, b);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  assert.ok(seconds < 20, `took ${seconds.toFixed(1)} s`); // a guard against the quadratic map, not a target
  assertEditScript(a, b, edits);
  assert.deepEqual(
    edits.filter((e) => e.op !== ' ').map((e) => `${e.op}${e.line.slice(-8)}`),
    ['+inserted', `-${line(1999).slice(-8)}`],
  );
  const alignments = new RunAlignments();
  const texts = Array.from({ length: 300 }, (_, i) => `${'y'.repeat(16_380)}${String(i).padStart(5, '0')}`);
  for (const t of texts) assert.deepEqual(alignments.of(t, t), [{ line: 0, exact: true }]);
  assert.equal(alignments.of(texts[7]!, texts[7]!), alignments.of(texts[7]!, texts[7]!), 'kept, not aligned again');
});
