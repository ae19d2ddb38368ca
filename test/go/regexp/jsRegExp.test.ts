// regexMatch's JS fast path (src/go/regexp/jsRegExp.ts) against the Pike VM it stands in for: the
// VM is checked against Go by the corpus, so wherever the fast path answers, it must answer as the VM does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UNMETERED } from '../../../src/go/internal/meter.ts';
import { compileGoRegexp, type GoRegexp } from '../../../src/go/regexp/regexp.ts';
import { MAX_JS_BACKTRACKING } from '../../../src/go/regexp/jsRegExp.ts';
import { rng } from '../../support/rng.ts';

const fastPathApplies = (re: GoRegexp, s: string): boolean => {
  re.matchString('', UNMETERED); // the matcher is made on first use
  return ((re as unknown as { js?: { bound(s: string): number } }).js?.bound(s) ?? Infinity) <= MAX_JS_BACKTRACKING;
};

function agree(pattern: string, input: string): void {
  const re = compileGoRegexp(pattern, UNMETERED);
  assert.equal(
    re.matchString(input, UNMETERED),
    re.matchStringWithVM(input, UNMETERED),
    `${JSON.stringify(pattern)} on ${JSON.stringify(input)}`,
  );
}

test('where JS and Go read characters differently, the fast path answers as Go', () => {
  const cases: Array<[string, string, boolean]> = [
    ['^a.b$', 'a\rb', true], // JS . refuses \r
    ['^a.b$', 'a\u2028b', true],
    ['^a.b$', 'a\nb', false],
    ['(?s)^a.b$', 'a\nb', true],
    ['^a$', 'a\n', false], // $ is end of text
    ['(?m)^a$', 'x\na\ny', true],
    ['(?m)^a$', 'x\ra\ry', false], // (?m) lines end at \n only
    ['(?m)a$', 'a\u2028', false],
    ['^\\s$', '\u000b', false], // Go's \s is [\t\n\f\r ]
    ['^\\s$', '\u00a0', false],
    ['^\\s$', '\f', true],
    ['^\\w+$', 'é', false],
    ['\\bé', ' é', false], // \b is ASCII in both
    ['(?i)^k$', '\u212a', true], // Kelvin sign folds to k
    ['(?i)^s$', '\u017f', true],
    ['^[[:alpha:]]+$', 'abcZ', true],
    ['^\\pL+$', 'ǅé', true],
    ['^\\p{Greek}$', 'λ', true],
    ['^[^\\d\\s]$', 'x', true],
    ['\\Aab\\z', 'ab', true],
    ['\\Aab\\z', 'ab\n', false],
    ['^(https?://|file:///)[A-Za-z0-9._~:/%@+=,-]+$', 'https://example.com/a/b.tar.gz', true],
    ['^(https?://|file:///)[A-Za-z0-9._~:/%@+=,-]+$', 'https://example.com/$(id)', false],
  ];
  for (const [pattern, input, want] of cases) {
    const re = compileGoRegexp(pattern, UNMETERED);
    assert.ok(fastPathApplies(re, input), `fast path expected for ${pattern}`);
    assert.equal(re.matchString(input, UNMETERED), want, `${pattern} on ${JSON.stringify(input)}`);
    assert.equal(re.matchStringWithVM(input, UNMETERED), want, `VM: ${pattern} on ${JSON.stringify(input)}`);
  }
});

test('raw bytes, astral characters, folded classes and nested quantifiers go to the VM', () => {
  // A raw byte (U+DCFF) reads as U+FFFD in Go.
  for (const [pattern, input] of [
    ['^\\x{FFFD}$', '\udcff'],
    ['^.$', '\u{1f600}'],
    ['(?i)^[k]$', '\u212a'],
    ['^(a+)+$', 'aaa'],
    ['^(?:ab)*$', 'abab'],
  ] as const) {
    const re = compileGoRegexp(pattern, UNMETERED);
    assert.equal(fastPathApplies(re, input), false, pattern);
    assert.equal(re.matchString(input, UNMETERED), true, pattern);
  }
});

test('the fast path gives way where backtracking could be long', () => {
  const re = compileGoRegexp('a*a*a*b', UNMETERED);
  assert.ok(fastPathApplies(re, 'a'.repeat(50)));
  assert.equal(fastPathApplies(re, 'a'.repeat(5000)), false);
  const t = performance.now();
  assert.equal(re.matchString('a'.repeat(20_000), UNMETERED), false);
  assert.ok(performance.now() - t < 2000);
});

// Random patterns over the constructs the translation handles, on random strings from an alphabet that
// holds every character the two engines could read differently.
const ALPHABET = [
  'a',
  'b',
  'k',
  'K',
  '\u212a',
  's',
  '\u017f',
  'é',
  '1',
  '_',
  ' ',
  '\t',
  '\n',
  '\r',
  '\f',
  '\u000b',
  '\u00a0',
  '\u2028',
  '.',
  '-',
  'λ',
  '\ufffd',
];
const ATOMS = [
  'a',
  'b',
  'k',
  'é',
  '\\.',
  '.',
  '\\d',
  '\\w',
  '\\s',
  '\\D',
  '\\W',
  '\\S',
  '[a-c]',
  '[^a\\n]',
  '[[:alpha:]]',
  '[[:^space:]]',
  '\\pL',
  '\\p{Greek}',
  '[\\d\\s]',
  '[^\\W_]',
  '\\x{212A}',
  '(?i:k)',
  '(?i:s)',
  '(?s:.)',
];
const ASSERTIONS = ['^', '$', '\\A', '\\z', '\\b', '\\B', '(?m:^)', '(?m:$)'];
const QUANTIFIERS = ['*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?'];

function randomPattern(r: () => number, depth = 0): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const parts: string[] = [];
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.5) parts.push(pick(ATOMS) + (r() < 0.4 ? pick(QUANTIFIERS) : ''));
    else if (x < 0.65) parts.push(pick(ASSERTIONS));
    else if (x < 0.85 && depth < 2) parts.push(`(${randomPattern(r, depth + 1)}|${randomPattern(r, depth + 1)})`);
    else if (depth < 2) parts.push(`(?:${randomPattern(r, depth + 1)})${r() < 0.3 ? pick(QUANTIFIERS) : ''}`);
    else parts.push(pick(ATOMS));
  }
  return parts.join('');
}

test('random patterns and strings: the fast path and the VM agree', () => {
  const r = rng(20261122);
  let fast = 0;
  let total = 0;
  for (let p = 0; p < 1500; p++) {
    const pattern = randomPattern(r);
    let re: GoRegexp;
    try {
      re = compileGoRegexp(pattern, UNMETERED);
    } catch {
      continue;
    }
    for (let k = 0; k < 12; k++) {
      const len = Math.floor(r() * 8);
      let s = '';
      for (let i = 0; i < len; i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
      total++;
      if (fastPathApplies(re, s)) fast++;
      agree(pattern, s);
    }
  }
  // The comparison means something only if the fast path answered for most of them.
  assert.ok(fast > total / 2, `fast path used for ${fast} of ${total}`);
});
