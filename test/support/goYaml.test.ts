// marshalLikeSigsYaml must write what Go's sigs.k8s.io/yaml.Marshal writes, byte for byte:
//  1. every upstream golden (written by Go from structs) re-serializes to itself;
//  2. on a corpus of tricky values it agrees with a Go oracle (./goyaml-oracle) running the real yaml.v2,
//     including where Go fails.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { GoYamlError, marshalLikeSigsYaml } from './goYaml.ts';
import { UPSTREAM_OSM } from './paths.ts';
import { goProgram } from './goProgram.ts';

const GOLDENS = join(UPSTREAM_OSM, 'pkg', 'controllers', 'osc', 'testdata');

describe('marshalLikeSigsYaml reproduces the upstream goldens', () => {
  // osp-*.yaml is a hand-written input (comments, quoted strings, indented sequences), not sigs.k8s.io/yaml output.
  const files = readdirSync(GOLDENS)
    .filter((f) => f.endsWith('.yaml') && !f.startsWith('osp-'))
    .filter((f) => statSync(join(GOLDENS, f)).size > 0)
    .sort();

  it('finds the goldens', () => assert.ok(files.length >= 18, `only ${files.length} goldens in ${GOLDENS}`));

  for (const file of files) {
    it(file, () => {
      const text = readFileSync(join(GOLDENS, file), 'utf8');
      assert.equal(marshalLikeSigsYaml(parse(text)), text);
    });
  }
});

describe('marshalLikeSigsYaml by example', () => {
  it('sorts keys, writes sequences at the key column and quotes what would not read back as a string', () => {
    const out = marshalLikeSigsYaml({ b: ['x', { k: 'true' }], a10: 1, a2: '', c: {}, d: [] });
    assert.equal(out, 'a2: ""\na10: 1\nb:\n- x\n- k: "true"\nc: {}\nd: []\n');
  });

  it('refuses what Go refuses and what is not JSON', () => {
    assert.throws(() => marshalLikeSigsYaml({ a: 'del\u007f' }), GoYamlError);
    assert.throws(() => marshalLikeSigsYaml({ 'k\u0085': 1 }), GoYamlError);
    assert.throws(() => marshalLikeSigsYaml({ a: '\ud800' }), GoYamlError);
    assert.throws(() => marshalLikeSigsYaml({ a: 1n }), GoYamlError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => marshalLikeSigsYaml(cyclic), GoYamlError);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The Go oracle

const here = dirname(fileURLToPath(import.meta.url));

/** The oracle, built into .cache/ when missing or older than its source (./goProgram.ts). */
function oracleBinary(): string {
  return goProgram(join(here, 'goyaml-oracle'), 'goyaml-oracle');
}

type OracleResult = { yaml: string } | { error: string };

function runOracle(docs: unknown[]): OracleResult[] {
  const res = spawnSync(oracleBinary(), [], { input: JSON.stringify(docs), encoding: 'utf8', maxBuffer: 1 << 30 });
  if (res.status !== 0) throw new Error(`goyaml oracle failed: ${res.error ?? res.stderr}`);
  return JSON.parse(res.stdout) as OracleResult[];
}

// ---------------------------------------------------------------------------------------------------------------
// The corpus

/** Deterministic pseudo-random numbers (a 32-bit LCG) so the corpus is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const TRICKY_STRINGS: string[] = [
  // empty, spaces, tabs, CR, leading/trailing blanks
  '',
  ' ',
  '  ',
  ' a',
  'a ',
  ' a ',
  'a  b',
  'a   b',
  '\t',
  'a\tb',
  '\ta',
  'a\t',
  '\r',
  'a\rb',
  'a\r\nb',
  'x\r\n',
  // unicode, emoji, non-printables
  'héllo',
  'naïve café',
  '日本語テキスト',
  'Ω≈ç√',
  '😀',
  'a😀b',
  '😀 '.repeat(30),
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\v',
  '\f',
  '\u001b',
  '\u001f',
  '\u00a0',
  'a\u00a0b',
  '\u2028',
  '\u2029',
  'a\u2028b',
  'a\u2029 b',
  '\ufeff',
  '\ufeffabc def',
  'x\ufeffy',
  '\ue000',
  '\ufffd',
  '\u00ad',
  '\u200b',
  'ǅ',
  '\u0301a',
  // YAML indicators
  ': ',
  'a: b',
  'a:b',
  ':a',
  'a:',
  '::',
  '#',
  '#a',
  'a #b',
  'a#b',
  'a\t#b',
  '- ',
  '-',
  '-a',
  '- a',
  '--',
  '---',
  '--- a',
  '---a',
  '...',
  '....',
  '... a',
  '?',
  '? a',
  '?a',
  'a?',
  ',',
  'a,b',
  ',a',
  '[',
  ']',
  '{',
  '}',
  '[a]',
  '{a: 1}',
  '&a',
  '*a',
  '!a',
  '!!str',
  '|',
  '|-',
  '>',
  '>-',
  "'",
  "'a'",
  "a'b",
  "''",
  '"',
  '"a"',
  'a"b',
  '%',
  '%YAML',
  '@',
  '@a',
  '`',
  '`a`',
  '\\',
  'a\\b',
  'C:\\path\\to',
  '\\n',
  '<<',
  '=',
  'a=b',
  '$HOME',
  '&&',
  'a || b',
  '!important',
  // YAML 1.1 bools and nulls
  'y',
  'Y',
  'n',
  'N',
  'yes',
  'Yes',
  'YES',
  'yEs',
  'no',
  'No',
  'NO',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'False',
  'FALSE',
  '~',
  '~a',
  'null',
  'Null',
  'NULL',
  'nULL',
  'nil',
  'none',
  // numbers as strings
  '0',
  '1',
  '-1',
  '+1',
  '-',
  '+',
  '007',
  '08',
  '0755',
  '0x1F',
  '0X1f',
  '0x',
  '0o17',
  '0O17',
  '0b101',
  '0B101',
  '0b',
  '0b-101',
  '0b+101',
  '-0b101',
  '-0b-1',
  '0b2',
  '1_000',
  '1__0',
  '_1',
  '1_',
  '+_1',
  '1.5',
  '.5',
  '5.',
  '-.5',
  '+.5',
  '.',
  '._5',
  '.5_5',
  '.5e1_0',
  '.5_',
  '1e3',
  '1E3',
  '1e+3',
  '1e',
  'e3',
  '1.2.3',
  '.inf',
  '-.inf',
  '+.inf',
  '.nan',
  '.NaN',
  '.Inf',
  '.INF',
  '.iNf',
  'inf',
  'nan',
  'Infinity',
  '-Infinity',
  '1e400',
  '.1e400',
  '-1e400',
  '1e-400',
  '0x1p-2',
  '123456789012345678901234567890',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '18446744073709551615',
  '18446744073709551616',
  '0.0',
  '-0',
  '+0',
  '0.',
  '00',
  '1,000',
  // sexagesimal
  '1:20',
  '1:20:30',
  '-1:20',
  '+1:20.5',
  '190:20:30.15',
  '1:70',
  '12:5',
  '1_0:20',
  'a1:20',
  '1:20:',
  // timestamps
  '2024-01-02',
  '2024-1-2',
  '2024-13-01',
  '2024-00-10',
  '2024-02-30',
  '2024-02-29',
  '2023-02-29',
  '1900-02-29',
  '2000-02-29',
  '2024-01-32',
  '2024-01-0',
  '2024-01-02x',
  '20240-01-02',
  '202-01-02',
  '2024-001-02',
  '2024-01-002',
  '2001-12-14t21:59:43.10-05:00',
  '2001-12-14T21:59:43.10Z',
  '2001-12-14 21:59:43.10',
  '2001-12-14  21:59:43',
  '2001-12-14 21:59:43.123456789',
  '2001-12-14 21:59:43.1234567891',
  '2002-12-14 24:00:00',
  '2002-12-14 23:60:00',
  '2002-12-14 23:59:60',
  '2024-01-02T10:20:30+01:00',
  '2024-01-02T10:20:30+0100',
  '2024-01-02T10:20:30-1:00',
  '2024-01-02T10:20:30++1:00',
  '2024-01-02T1:2:3Z',
  '2024-01-02 1:2:3',
  '2024-01-02T10:20:30,5Z',
  '2024-01-02T10:20Z',
  '2024-01-02 ',
  '2024-01-02T10:20:30.Z',
  '2024-01-02T10:20:30Zx',
  // typical Kubernetes values
  'v1.11.2',
  '1.11.2',
  '1.24',
  '1.24.0',
  '10.0.0.0/8',
  'fd00::/104',
  '::1',
  '[::1]:6443',
  'https://foo.bar:6443',
  'key=value:NoSchedule',
  'kubernetes.io/hostname',
  '0644',
  '*.example.com',
  'k8c.io/osp-version',
  // NEL (folded by Go's YAML parser) and characters Go's YAML parser refuses
  'a\u0085b',
  'a \u0085 b',
  'a\u0085\u0085b',
  'a\u0085 \u0085b',
  'a\u0085',
  '\u0085a',
  '\u0085',
  'a\u0085--- b',
  'a\u0085---b',
  'a\u0085---',
  'a\u0085... b',
  'a\u0085 --- b',
  'a\u0085---\u0085b',
  'a\u007fb',
  'a\u0080b',
  '\u009f',
  '\ufffe',
  '\uffff',
  // multi-line
  'a\nb',
  'a\nb\n',
  'a\nb\n\n',
  'a\nb\n\n\n',
  'a\n\n\nb',
  '\n',
  '\n\n',
  '\na',
  '\n\na\n',
  ' a\nb',
  '  a\n b\n',
  'a \nb',
  'a\n b',
  'a\n\tb',
  'a\t\nb',
  '\ta\nb\n',
  'a\nb ',
  'a\nb\n ',
  'a\n \nb',
  '#!/bin/bash\nset -e\n',
  'trailing spaces  \nnext\n',
  'a\r\nb\r\n',
  'a\n\u2028b',
  'a\u2028\nb',
  'a\u2028',
  ' \n',
  '\n ',
  'x\n😀\n',
  '- a\n- b\n',
  'a: b\nc: d\n',
  '"q"\n',
  "'q'\n",
  '---\n',
  '...\n',
  '%x\n',
  '\\\n',
  'a\n\u0085b',
  'a\u00a0\nb\n',
  `${'long line '.repeat(12)}\nshort\n`,
  `first line\n${'tabbed\tline '.repeat(10)}\nlast`,
  `${'x'.repeat(100)}\n`,
  `  indented first line\n${'word '.repeat(30)}\n`,
];

function fillerWords(totalLength: number, wordLength: number, separator = ' '): string {
  let s = '';
  for (let i = 0; s.length < totalLength; i++) {
    s += (s === '' ? '' : separator) + String.fromCharCode(97 + (i % 26)).repeat(wordLength);
  }
  return s.slice(0, totalLength);
}

/** Strings whose lines end near column 80 in plain, quoted and folded forms, at different indentations. */
function widthStrings(): string[] {
  const out: string[] = [];
  for (let len = 70; len <= 100; len++) {
    for (const wordLength of [1, 3, 9]) out.push(fillerWords(len, wordLength));
    out.push(`${fillerWords(len, 5)}\t`); // double-quoted
    out.push(`: ${fillerWords(len, 4)}`); // single-quoted
    out.push(fillerWords(len, 6, '  ')); // runs of spaces at the fold point
    out.push(`"${fillerWords(len, 7, '   ')}`);
  }
  out.push('x'.repeat(300), `${'x'.repeat(90)} ${'y'.repeat(90)}`, `${'word '.repeat(60)}end`);
  out.push(`${'tab\t'.repeat(30)}`, `${'ü '.repeat(60)}`, `${'😀 '.repeat(45)}x`, `${'é'.repeat(85)} z`);
  return out;
}

function base64Blob(bytes: number, seed: number, lineLength?: number): string {
  const next = random(seed);
  const data = Buffer.from(Array.from({ length: bytes }, () => Math.floor(next() * 256)));
  const b64 = data.toString('base64');
  if (lineLength === undefined) return b64;
  return `${b64.match(new RegExp(`.{1,${lineLength}}`, 'g'))!.join('\n')}\n`;
}

/** Random strings over an alphabet of troublemakers. */
function fuzzStrings(count: number, seed: number): string[] {
  const alphabet = [
    'a',
    'b',
    'Z',
    '0',
    '1',
    ' ',
    ' ',
    ' ',
    '\n',
    '\t',
    ':',
    '#',
    '-',
    '"',
    "'",
    '\\',
    '.',
    '~',
    ',',
    '[',
    '{',
    '?',
    '|',
    '>',
    '!',
    '&',
    '*',
    '%',
    '@',
    '`',
    'é',
    '😀',
    '\u2028',
    '\u0085',
    '\r',
    '\ufeff',
    '\u00a0',
  ];
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() ** 2 * 140);
    let s = '';
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(next() * alphabet.length)]!;
    return s;
  });
}

const TRICKY_NUMBERS: number[] = [
  0,
  -0,
  1,
  -1,
  755,
  420,
  2 ** 31,
  -(2 ** 31),
  2 ** 53,
  2 ** 53 + 2,
  2 ** 60,
  2 ** 63,
  -(2 ** 63),
  2 ** 64,
  -(2 ** 64),
  1e19,
  1.5e19,
  1e20,
  1e21,
  1e22,
  -1e21,
  1.5,
  -1.5,
  0.1,
  0.1 + 0.2,
  1 / 3,
  2 / 3,
  1e-5,
  1e-4,
  1.5e-4,
  1e-7,
  -1e-7,
  123456.7,
  999999.9,
  1e6 + 0.5,
  1234567.5,
  100000.25,
  5e-324,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  2.2250738585072014e-308,
  1e15 + 0.3,
  4.35,
  2.5e-3,
  1e300,
  1e100,
  123e-20,
  9007199254740993,
  0.000001,
  0.0000015,
];

function randomNumbers(count: number, seed: number): number[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const mantissa = (next() - 0.5) * 20;
    const exponent = Math.floor(next() * 60) - 30;
    const n = mantissa * 10 ** exponent;
    return next() < 0.3 ? Math.round(n) : n;
  });
}

// Keys whose order under yaml.v2's comparator is a true total order. Its comparator is not transitive in general
// (10 < 99 < 9a < 10), and then Go's own output changes from run to run with map iteration order; such key sets
// (and int64-overflowing digit runs, which wrap) are left out on purpose.
const SORT_KEYS = [
  'a2',
  'a10',
  'a01',
  'a1',
  'a001',
  'a0',
  'a00',
  '1',
  '01',
  '10',
  '2',
  '0',
  '00',
  'b',
  'B',
  '_a',
  'é',
  'Z',
  'z',
  'a-b',
  'a.b',
  'a_b',
  'k8s',
  'k08s',
  'x100y',
  'x99y',
  'x099y',
  '٣',
  'a٣',
  'a3',
  '١٠',
  'ab',
  'a',
  '',
  ' ',
  '-',
  '😀',
  'ǅ',
  'a20b3',
  'a20b10',
  'v1.10',
  'v1.9',
  'v1.09',
  'ª',
  'µ',
  'º',
  '×',
  'ß',
  'node-role.kubernetes.io/master',
  'kubernetes.io/os',
  'k8c.io/osp-version',
  'k8c.io/machine-deployment-revision',
  'apiVersion',
  'kind',
  'metadata',
  'spec',
  'data',
  'cloud-config',
  'cloud_config',
  'containerRuntime',
  'containerd',
  'x-1',
  'x-10',
  'x-2',
  'file1.txt',
  'file10.txt',
  'file2.txt',
  '99999999999999999999',
  '99999999999999999998',
  '-9223372036854775809',
  'x18446744073709551616',
  'x18446744073709551615',
];

function documentsFor(s: string): unknown[] {
  // each string at the root, as values at indents 0 and 4, in sequences (incl. nested ones) and as a key
  return [s, { v: s, n: { m: { v: s } }, l: [s, [s, [s]], { k: s }] }, { [s]: s }];
}

function corpus(): unknown[] {
  const strings = [...TRICKY_STRINGS, ...widthStrings(), ...fuzzStrings(1500, 7)];
  const docs: unknown[] = strings.flatMap(documentsFor);
  docs.push(
    {
      blob: base64Blob(5 * 1024, 1),
      mime: base64Blob(5 * 1024, 2, 76),
      nested: { deep: { blob: base64Blob(5000, 3) } },
    },
    [base64Blob(3000, 4), base64Blob(3000, 5, 64)],
    Object.fromEntries(SORT_KEYS.map((k, i) => [k, i])),
    { long: { ['k'.repeat(128)]: 1, ['k'.repeat(129)]: [1, 2], ['é'.repeat(64)]: { a: 1 }, ['é'.repeat(65)]: 'v' } },
    { ['multi\nline key']: 'v', ['tab\tkey']: 'v', ['trailing\n']: [] },
    // Go's YAML parser gives up on a JSON key longer than 1024 characters, counted after JSON escaping
    ...[1022, 1023].flatMap((n) => [{ ['k'.repeat(n)]: 1 }, { ['é'.repeat(n)]: 1 }]),
    ...[170, 171].flatMap((n) => [{ ['<'.repeat(n)]: 1 }, { ['\b'.repeat(n)]: 1 }, { ['"\n'.repeat(n / 2)]: 1 }]),
    TRICKY_NUMBERS,
    Object.fromEntries(TRICKY_NUMBERS.map((n, i) => [`n${i}`, n])),
    randomNumbers(300, 5),
    { t: true, f: false, z: null, nan: NaN, inf: Infinity, u: undefined, arr: [undefined, null, () => 1] },
    {},
    [],
    [[]],
    [{}],
    [[], {}],
    { a: {}, b: [], c: [{}], d: [[]], e: [[], {}], f: { g: {} } },
    [[1, [2, [3, []]]], [{ a: [{ b: [] }] }]],
    { a: [[{ b: 1, c: [[2]] }]] },
    42,
    1.5,
    true,
    null,
    {
      list: [
        { name: 'a', items: ['x', 'y'] },
        { name: 'b', items: [] },
      ],
      map: { 'a.b/c': { d: [1, 'two', 3.5] } },
    },
  );
  return docs;
}

/** The first line where two texts differ, with a little context. */
function firstDifference(want: string, got: string): string {
  const a = want.split('\n');
  const b = got.split('\n');
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const show = (lines: string[]) => JSON.stringify(lines.slice(Math.max(0, i - 1), i + 2).join('\n'));
  return `  line ${i + 1}\n  go:   ${show(a)}\n  ours: ${show(b)}`;
}

describe('marshalLikeSigsYaml agrees with Go (sigs.k8s.io/yaml.Marshal via yaml.v2)', () => {
  it('on the corpus', () => {
    const docs = corpus();
    const expected = runOracle(docs);
    assert.equal(expected.length, docs.length);
    const mismatches: string[] = [];
    let goErrors = 0;
    docs.forEach((doc, i) => {
      let got: string;
      try {
        got = marshalLikeSigsYaml(doc);
      } catch (e) {
        if (!(e instanceof GoYamlError)) throw e;
        got = `error: ${e.message}`;
      }
      const want = expected[i]!;
      if ('error' in want) goErrors++;
      const ok = 'error' in want ? got.startsWith('error: ') : got === want.yaml;
      if (!ok && mismatches.length < 10) {
        const goText = 'error' in want ? `error: ${want.error}` : want.yaml;
        mismatches.push(`#${i} ${JSON.stringify(doc).slice(0, 120)}\n${firstDifference(goText, got)}`);
      }
    });
    assert.ok(goErrors > 5, 'the corpus should include inputs Go refuses');
    assert.deepEqual(mismatches, []);
  });
});
