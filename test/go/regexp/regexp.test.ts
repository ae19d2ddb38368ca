// The Go regexp engine behind sprig's regex functions and semver's constraint grammar: linear time on
// patterns that make backtracking engines hang, and case-folding tables that cover every cased rune.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { casedCodePoints, compileGoRegexp, foldOrbitsOf, GoRegexpError } from '../../../src/go/regexp/regexp.ts';
import { semverCompare } from '../../../src/go/semver/semver.ts';
import { UNMETERED } from '../../../src/go/internal/meter.ts';
import { GoCallError } from '../../../src/go/reflect/func.ts';
import { call } from '../../sprig/sprigCases.ts';

function elapsed(f: () => void): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

test('nested quantifiers run in linear time', () => {
  const input = 'a'.repeat(20_000) + '!';
  for (const re of ['(a+)+$', '(a|a)*b', '(a*)*b', '(?:a|aa)+$', '(.*a){12}x']) {
    const ms = elapsed(() => assert.equal(compileGoRegexp(re, UNMETERED).matchString(input, UNMETERED), false));
    assert.ok(ms < 2000, `${re} took ${ms} ms`);
  }
});

test('a hostile semver constraint is rejected quickly', () => {
  const constraint = '1  '.repeat(2000) + '!';
  const ms = elapsed(() => assert.throws(() => semverCompare(constraint, '1.0.0', UNMETERED), GoCallError));
  assert.ok(ms < 2000, `took ${ms} ms`);
});

test('Go syntax JavaScript lacks: \\A, \\z, \\Q..\\E, inline flags anywhere, POSIX classes, (?U)', () => {
  assert.equal(call('regexFind', '\\Aab', 'abab'), 'ab');
  assert.equal(call('regexReplaceAll', 'b\\z', 'bab', 'X'), 'baX');
  assert.equal(call('regexFind', '\\Q.*\\E+', 'x.**'), '.**');
  assert.equal(call('regexFind', 'x(?i)ab(?-i)c', 'xABc xABC'), 'xABc');
  assert.equal(call('regexFind', '[[:digit:][:upper:]]+', 'ab12CDe'), '12CD');
  assert.equal(call('regexFind', '(?U)a+', 'aaa'), 'a');
  assert.equal(call('regexMatch', '^\\s$', '\u00a0'), false, '\\s is ASCII-only in Go');
  assert.equal(call('regexMatch', '^a$', 'a\n'), false, '$ is end of text without (?m)');
});

test('syntax errors carry Go parse messages', () => {
  assert.throws(
    () => compileGoRegexp('a(?=b)', UNMETERED),
    (e: unknown) =>
      e instanceof GoRegexpError && e.message === 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
  );
  assert.throws(
    () => compileGoRegexp('x**', UNMETERED),
    (e: unknown) =>
      e instanceof GoRegexpError && e.message === 'error parsing regexp: invalid nested repetition operator: `**`',
  );
});

test('case-fold orbits only need the cased blocks', () => {
  // Every rune that changes under case mapping lies in the blocks we scan.
  let text = '';
  for (let c = 0; c < 0x110000; c += 0x1000) {
    const chunk: number[] = [];
    for (let x = c; x < c + 0x1000; x++) if (x < 0xd800 || x > 0xdfff) chunk.push(x);
    text += String.fromCodePoint(...chunk);
  }
  const blocks = new Set(casedCodePoints());
  const outside = [...text.matchAll(/\p{Changes_When_Casemapped}/gu)]
    .map((m) => m[0].codePointAt(0)!)
    .filter((c) => !blocks.has(c));
  assert.deepEqual(
    outside.map((c) => c.toString(16)),
    [],
  );
  const orbits = foldOrbitsOf(casedCodePoints());
  assert.deepEqual(orbits.get(0x6b), [0x6b, 0x4b, 0x212a]);
  assert.deepEqual(orbits.get(0x131), undefined, 'dotless i folds to nothing else');
});
