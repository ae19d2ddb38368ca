// The writer's plain-scalar check scans character codes; these are the regular expressions it replaced (the rules
// as first written, with what ./yamlWriterReadBack.test.ts found the real readers do beyond them: Go's radix
// letters in either case, yaml.v3's and v2's removal of `_` before parsing a number, one-digit minutes and seconds
// and a comma before the fraction in Go's timestamps, `...` ending a document, U+FFFE and U+FFFF), and the scan must
// agree with them on every string: arbitrary UTF-16 (lone surrogates, controls, line breaks, every kind of white
// space), and strings built from the pieces of numbers, dates and reserved words that the rules are about.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { plainOk } from '../../src/codec/yamlWriter.ts';

const AMBIGUOUS_NUMBER =
  /^(?:[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?|[-+]?(?:0[bB][01_]+|0[oO]?[0-7_]+|0[xX][0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?)|\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d?:\d\d?(?:[.,]\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?)$/;
const AMBIGUOUS_PLAIN = new RegExp(
  '^(?:~|null|Null|NULL|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|[-+]?(?:\\.inf|\\.Inf|\\.INF)|\\.nan|\\.NaN|\\.NAN|<<|=)$|' +
    AMBIGUOUS_NUMBER.source,
);
const UNSAFE_START = /^(?:[-?:,[\]{}#&*!|>'"%@`\s]|\.\.\.(?:\s|$))/;

function regexpPlainOk(s: string): boolean {
  return (
    s !== '' &&
    !AMBIGUOUS_PLAIN.test(s) &&
    !(/^[0-9+.]/.test(s) && s.includes('_') && AMBIGUOUS_NUMBER.test(s.replaceAll('_', ''))) &&
    !UNSAFE_START.test(s) &&
    !/\s$/.test(s) &&
    !s.includes(': ') &&
    !s.includes(' #') &&
    !s.endsWith(':') &&
    !/[\x00-\x1f\x7f-\x9f\ufeff\u2028\u2029\ufffe\uffff]/.test(s)
  );
}

const same = (s: string) => assert.equal(plainOk(s), regexpPlainOk(s), JSON.stringify(s));

test('every UTF-16 code unit alone, first, last and inside a string', () => {
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    for (const s of [ch, ch + 'a', 'a' + ch, 'a' + ch + 'b', '1' + ch, ch + '1', '1' + ch + '2', ch + ' ', ' ' + ch])
      same(s);
  }
});

// Pieces of the things a plain scalar must not be taken for, and of what they sit next to.
const PIECES = [
  ...'0123456789_.:+-eExXbBoOaAfFtTzZ ~<=#'.split(''),
  '\t',
  '\n',
  '\u00a0',
  '\u3000',
  '00',
  '12',
  '59',
  '60',
  '99',
  '2024',
  '2001-12-14',
  't21:59:43',
  'T02:59:43.1',
  ' 21:59:43.10 -5',
  '-05:00',
  'Z',
  '0b',
  '0o',
  '0x',
  'inf',
  'Inf',
  'INF',
  'nan',
  'NaN',
  'NAN',
  'null',
  'Null',
  'NULL',
  'yes',
  'Yes',
  'YES',
  'no',
  'No',
  'true',
  'True',
  'false',
  'FALSE',
  'on',
  'ON',
  'off',
  'Off',
  'y',
  'Y',
  'n',
  'N',
  '<<',
  ': ',
  ' #',
];

const pieced = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }).map((a) => a.join(''));

test('strings built from pieces of numbers, dates and reserved words', () => {
  fc.assert(
    fc.property(pieced, (s) => plainOk(s) === regexpPlainOk(s)),
    { numRuns: 200_000 },
  );
});

// Strings the rules refuse, and strings one edit away from them.
const WORDS = AMBIGUOUS_PLAIN.source.slice(4, AMBIGUOUS_PLAIN.source.indexOf('|[-+]?(?:')).split('|');
assert.deepEqual(WORDS.slice(0, 3), ['~', 'null', 'Null']);
const REFUSED = [
  ...WORDS,
  ...['.inf', '.Inf', '.INF'].flatMap((w) => [w, '+' + w, '-' + w]),
  ...['.nan', '.NaN', '.NAN', '<<', '='],
  ...['2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5', '2001-12-14T21:59:43Z', '2001-1-4 1:59:43 Z'],
  ...['2001-12-14 \t21:59:43.10\t+05', '2001-12-14T21:59:43.', '2001-12-14'],
  ...['+12_3:45:06.7', '-0b1_0', '0o7_7', '+0x_fF', '1_0.5e+3', '.5E-7', '-.0_1', '190:20:30', '1:2'],
  ...['0X1F', '0B1', '0O7', '+_1', '0_x1F', '1e_3', '.5e3_1', '2001-1-2T1:2:3Z', '2001-1-2 1:2:3,5', '... a'],
];
const ALPHABET = '0123456789_.:,+-eExXbBoOaAfFtTzZ ~<=#\t\n'.split('');
const nearMiss = fc
  .tuple(
    fc.constantFrom(...REFUSED),
    fc.nat(40),
    fc.constantFrom(...ALPHABET),
    fc.constantFrom('insert', 'delete', 'replace', 'none'),
  )
  .map(([s, at, ch, edit]) => {
    const i = at % (s.length + 1);
    if (edit === 'insert') return s.slice(0, i) + ch + s.slice(i);
    if (edit === 'delete') return s.slice(0, i) + s.slice(i + 1);
    if (edit === 'replace') return s.slice(0, i) + ch + s.slice(i + 1);
    return s;
  });

test('the strings the rules refuse, and every one edit away from them', () => {
  for (const s of REFUSED) assert.equal(regexpPlainOk(s), false, s);
  fc.assert(
    fc.property(nearMiss, (s) => plainOk(s) === regexpPlainOk(s)),
    { numRuns: 200_000 },
  );
});

test('arbitrary strings: any code point, lone surrogates, controls and line breaks', () => {
  const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
  const anyString = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.string({ unit: codeUnit, maxLength: 12 }),
    fc.string({ unit: fc.constantFrom(...'ab1: #\n\r\t\u0085\u2028\ufeff\x7f-?'.split('')), maxLength: 10 }),
  );
  fc.assert(
    fc.property(anyString, (s) => plainOk(s) === regexpPlainOk(s)),
    { numRuns: 100_000 },
  );
});

test('numbers and dates as JavaScript and Go would print them', () => {
  const printed = fc.oneof(
    fc.double().map(String),
    fc.integer().map(String),
    fc.bigInt().map(String),
    fc.integer().map((n) => '0x' + n.toString(16)),
    fc.integer().map((n) => '0o' + n.toString(8)),
    fc.integer({ min: 0 }).map((n) => '0b' + n.toString(2)),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString().replace('T', ' ').replace('Z', ' +01:00')),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    fc.tuple(fc.nat(99), fc.nat(99), fc.nat(99)).map(([a, b, c]) => `${a}:${b}:${c}.5`),
  );
  fc.assert(
    fc.property(printed, (s) => plainOk(s) === regexpPlainOk(s)),
    { numRuns: 50_000 },
  );
});

test('examples the rules are about', () => {
  for (const s of ['yes', 'No', '~', '1_000', '0x1F', '0o17', '017', '0b101', '1:30', '190:20:30.15', '.5e3', '+.inf'])
    assert.equal(plainOk(s), false, s);
  for (const s of ['2001-12-14', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5', '2002-12-14', '1e3'])
    assert.equal(plainOk(s), false, s);
  for (const s of ['v1', 'Secret', 'ubuntu-22.04', '1.33.0', 'a: b', 'yess', '0b', '0x', '1:60', '2001-1-1T1:2:3'])
    assert.equal(plainOk(s), regexpPlainOk(s), s);
  for (const s of ['v1', 'Secret', 'ubuntu-22.04', '1.33.0', 'yess', '0b', '0x', '1:60', 'a:b', 'a#b'])
    assert.equal(plainOk(s), true, s);
});
