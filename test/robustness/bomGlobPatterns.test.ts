// Attacks the bill of materials' shell patterns (case arms, ${x%pat}, ${x##pat}...): a glob was made a regular
// expression, so `*a*a*a...*b` against a run of a's backtracked over every way to place the stars (28
// characters and 11 stars: 1 s on a charge of 9,000 units; a few more, hours), a shortest suffix matched every
// suffix again (quadratic), and a `[` with no `]` was an invalid expression thrown out of the evaluator.
// Whatever the pattern and the text, matching ends with a result, never a thrown error, and spends no more CPU
// per charged unit than the evaluator's budget allows (bomScriptBudget.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { evaluateHostileScript } from './evaluateHostileScript.ts';

const SEED = 20261128;
const NS_PER_UNIT = 25;
const SLACK_NS = 100e6;

const caseArb = fc.record({
  stars: fc.integer({ min: 6, max: 14 }),
  letter: fc.constantFrom('a', '?', '[a]', '[!b]', '[a-c]'),
  last: fc.constantFrom('b', '[', '[b', ']', '\\'),
  length: fc.integer({ min: 24, max: 20_000 }),
  form: fc.constantFrom(
    (x: string, p: string) => `x=${x}\ncase $x in ${p}) echo;; esac`,
    (x: string, p: string) => `x=${x}\ny=\${x%${p}}`,
    (x: string, p: string) => `x=${x}\ny=\${x%%${p}}`,
    (x: string, p: string) => `x=${x}\ny=\${x#${p}}`,
    (x: string, p: string) => `x=${x}\ny=\${x##${p}}`,
  ),
});

test('a shell pattern matches in time its charge allows, and never throws', () => {
  fc.assert(
    fc.property(caseArb, ({ stars, letter, last, length, form }) => {
      const pattern = `*${letter}`.repeat(stars) + last;
      const run = evaluateHostileScript(form('a'.repeat(length), pattern), 20_000_000);
      assert.ok(
        run.cpuNs <= NS_PER_UNIT * run.work + SLACK_NS,
        `${(run.cpuNs / 1e6).toFixed(0)} ms for ${run.work} units`,
      );
    }),
    {
      seed: SEED,
      numRuns: 30,
      reporter: (r) => {
        if (r.failed)
          throw new Error(
            `seed ${r.seed} path ${r.counterexamplePath}: ${JSON.stringify({ ...r.counterexample?.[0], form: String(r.counterexample?.[0].form('X', 'P')) })}: ${String(r.errorInstance).slice(0, 500)}`,
          );
      },
    },
  );
});

test('shell patterns match as bash does: stars, ?, classes with ! and ranges, a [ with no ] literal', () => {
  const cases: [string, string, string][] = [
    ['ubuntu', 'ub*', 'yes'],
    ['ubuntu', 'u?untu', 'yes'],
    ['ubuntu', '[uv]buntu', 'yes'],
    ['ubuntu', '[!u]buntu', 'no'],
    ['ubuntu', '[a-z]*', 'yes'],
    ['[x', '[x', 'yes'],
    ['amd64', '*64', 'yes'],
    ['arm64', 'amd*', 'no'],
  ];
  for (const [subject, pattern, expected] of cases) {
    const run = evaluateHostileScript(
      `case ${subject} in ${pattern}) curl -o /a https://yes.example/a;; *) curl -o /a https://no.example/a;; esac`,
      20_000_000,
      true,
    );
    assert.equal(run.fetched.length, 1, `${subject} ${pattern}`);
    assert.match(run.fetched[0]!, new RegExp(`${expected}\\.example`), `${subject} ${pattern}`);
  }
  const trims: [string, string][] = [
    ['x=file.tar.gz; curl -o /a https://h.example/${x%.*}', 'file.tar'],
    ['x=file.tar.gz; curl -o /a https://h.example/${x%%.*}', 'file'],
    ['x=file.tar.gz; curl -o /a https://h.example/${x#*.}', 'tar.gz'],
    ['x=file.tar.gz; curl -o /a https://h.example/${x##*.}', 'gz'],
  ];
  for (const [script, expected] of trims) {
    const run = evaluateHostileScript(script, 20_000_000, true);
    assert.ok(
      run.fetched.some((c) => c.includes(`https://h.example/${expected}"`)),
      `${script}: ${run.fetched.join(' ')}`,
    );
  }
});
