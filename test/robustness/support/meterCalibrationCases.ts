// The worst inputs of every function a template can call (sprig's and OSM's function map, Go's builtins, the
// methods of the values functions return) and of the executor's own work, for the meter's calibration
// (test/robustness/templateMeterCalibration.test.ts): long ASCII and non-ASCII text, raw bytes, long digit
// strings, many small elements, deep nesting, structures that share parts, big maps, regexps at Go's limits.
// Inputs are made fresh for each run (some functions change their arguments), outside what is measured.
import { goSlice, GoStruct, type GoMap } from '../../../src/go/reflect/value.ts';
import { UNMETERED } from '../../../src/go/internal/meter.ts';
import { osmTemplateFuncs } from '../../../src/sprig/index.ts';
import { callGoFunction } from '../../../src/go/reflect/func.ts';

export type Args = () => unknown[];
/** A case: a label and the arguments of one call. */
export type Case = readonly [label: string, args: Args];

// ---------------------------------------------------------------- inputs

const K = 1024;
/** The length of long text: enough that a case's own overhead is small next to what it is charged. */
const M = 512 * K;

const cycle = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
/** Words, punctuation, digits, a tab: what word splitting, trimming and casing work hardest on. */
export const ascii = (n = M) => cycle('The quick Brown fox, jumps-over_the LAZY dog 0123456789.\t', n);
/** Two- and three-byte characters, characters that case-map specially, and astral ones. */
export const nonAscii = (n = M / 2) => cycle('Ünïcödé ǅ ß ſ İ Σς 日本語 😀 ', n);
/** Text with bytes that are not UTF-8 (held as lone surrogates). */
export const rawBytes = (n = M) => cycle('abc\udcff\udc80 é', n);
export const digits = (n = M) => '9'.repeat(n);
export const spaces = (n = M) => ' '.repeat(n);
export const lines = (n = M) => cycle('ab\n', n);
export const list = (n = 100 * K): unknown[] => Array.from({ length: n }, (_, i) => 'x' + (i % 1000));
export const intList = (n = 100 * K): unknown[] => Array.from({ length: n }, (_, i) => BigInt(i));
export const distinctList = (n: number): unknown[] => Array.from({ length: n }, (_, i) => 'item-' + i);
export function bigMap(n = 50 * K, value: (i: number) => unknown = (i) => BigInt(i)): GoMap {
  const m: GoMap = {};
  for (let i = 0; i < n; i++) m['key-' + i] = value(i);
  return m;
}
/** A list of lists `depth` deep. */
export function nested(depth: number): unknown[] {
  let v: unknown[] = ['leaf'];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
/** A list whose two elements are the same list, `depth` times over: 2^depth leaves, depth+1 objects. */
export function sharedList(depth: number, leaf: unknown = 'leaf-text'): unknown[] {
  let v: unknown[] = [leaf];
  for (let i = 0; i < depth; i++) v = [v, v];
  return v;
}
export function sharedMap(depth: number, leaf: unknown = 'leaf-text'): GoMap {
  let v: GoMap = { k: leaf };
  for (let i = 0; i < depth; i++) v = { a: v, b: v };
  return v;
}

// ---------------------------------------------------------------- cases per function

/** A case's identity across runs (the test measures a case again by it): kind, function name and label. */
export function caseKey(c: { kind: string; name: string; label: string }): string {
  return `${c.kind} ${c.name}: ${c.label}`;
}

const one = (label: string, ...args: unknown[]): Case => [
  label,
  () => args.map((a) => (typeof a === 'function' ? (a as () => unknown)() : a)),
];
/** The text cases of a function of one string. */
const texts = (...extra: Case[]): Case[] => [
  one('ascii 512 KiB', ascii),
  one('non-ASCII 256 KiB', () => nonAscii()),
  one('raw bytes 512 KiB', () => rawBytes()),
  one('digits 512 KiB', () => digits()),
  one('spaces 512 KiB', () => spaces()),
  one('lines 512 KiB', () => lines()),
  ...extra,
];
const values = (): Case[] => [
  one('ascii 512 KiB', ascii),
  one('list of 100k', () => list()),
  one('map of 50k', () => bigMap()),
  one('shared list 2^14', () => sharedList(14)),
  one('shared map 2^14', () => sharedMap(14)),
  one('nested 500', () => nested(500)),
];
const ints = (): Case[] => [
  one('digit strings', digits, digits),
  one('ints', 1n, 2n),
  one('list', () => list(), 1n),
  one('map', () => bigMap(), 1n),
];
const floats = (): Case[] => [
  one(
    'digit strings',
    () => '1.' + digits(),
    () => '2e-' + digits(10),
  ),
  one('floats', 1.5, 1e-300),
  one('many', ...Array.from({ length: 2000 }, () => 1e-300)),
];
const b64 = (n = M) => Buffer.from(ascii(n)).toString('base64');

const LIST_CASES = (): Case[] => [
  one('list of 100k', () => list()),
  one('ints 100k', () => intList()),
  one('bytes 256 KiB', () => new Uint8Array(256 * K)),
  one('shared list 2^16', () => sharedList(16)),
];

const REGEX_PATTERNS: ReadonlyArray<readonly [string, string]> = [
  ['a literal', 'b'],
  ['a class loop', '[a-z]+'],
  ['many groups', '(a|b|c|d|e|f|g|h)+(x)?'],
  // ~10,000 instructions (charged per instruction and position: a short input, that the run is measured
  // rather than refused); regexMatch also runs ~100,000, far beyond the old port's bound, accepted by Go.
  ['10k instructions', bigPattern(10)],
  ['nested repeats', '((a{0,9}){0,9}){0,9}'],
];
/** A pattern of about n thousand instructions. */
function bigPattern(n: number): string {
  return '(?:' + Array.from({ length: n }, (_, i) => `x${i}[a-z]{0,999}`).join('|') + ')';
}

function regexCases(make: (re: string, input: () => string) => Case[]): Case[] {
  return REGEX_PATTERNS.flatMap(([label, re]) => {
    const input = () => regexInput(label === '10k instructions' ? 256 : 64 * K);
    return make(re, input).map(([l, a]): Case => [`${label}: ${l}`, a]);
  });
}
const regexInput = (n: number) => cycle('abcdefgh xyz ', n);

export const FUNCTION_CASES: Readonly<Record<string, readonly Case[]>> = {
  hello: [one('no arguments')],
  trim: texts(),
  upper: texts(),
  lower: texts(),
  title: texts(),
  untitle: texts(),
  swapcase: texts(),
  snakecase: texts(
    one('one long word', () => 'a'.repeat(M)),
    one('one long number', () => '7'.repeat(M)),
  ),
  camelcase: texts(one('connectors', () => cycle('_-_ a', M))),
  kebabcase: texts(
    one('one long word', () => 'a'.repeat(M)),
    one('one long number', () => '7'.repeat(M)),
  ),
  nospace: texts(),
  initials: texts(),
  repeat: [
    one('64 MiB', 64n * 1024n, () => ascii(1024)),
    one('refused', 1n << 40n, 'x'),
    one('non-ASCII', 16n * 1024n, () => nonAscii(1024)),
  ],
  trimall: [
    one(
      'big cutset',
      () => nonAscii(4 * K),
      () => nonAscii(),
    ),
    one('ascii', ' Tq', ascii),
  ],
  trimAll: [
    one(
      'big cutset',
      () => nonAscii(4 * K),
      () => nonAscii(),
    ),
    one('ascii', ' Tq', ascii),
  ],
  trimSuffix: [
    one(
      'raw bytes',
      () => rawBytes(K),
      () => rawBytes(),
    ),
    one('ascii', () => ascii(K), ascii),
  ],
  trimPrefix: [
    one(
      'raw bytes',
      () => rawBytes(K),
      () => rawBytes(),
    ),
    one('ascii', () => ascii(K), ascii),
  ],
  wrap: [one('width 1', 1n, ascii), one('width 80', 80n, ascii), one('non-ASCII', 3n, () => nonAscii())],
  wrapWith: [
    one(
      'width 1, long separator',
      1n,
      () => 'x'.repeat(64),
      () => ascii(256 * K),
    ),
    one('width 80', 80n, '<br>', ascii),
    one('no spaces', 7n, '\n', () => 'a'.repeat(M)),
  ],
  contains: [
    one(
      'long needle',
      () => 'a'.repeat(1000) + 'b',
      () => 'a'.repeat(M),
    ),
    one(
      'raw bytes',
      () => rawBytes(K) + 'z',
      () => rawBytes(),
    ),
  ],
  hasPrefix: [
    one(
      'long prefix',
      () => 'a'.repeat(M),
      () => 'a'.repeat(M),
    ),
    one(
      'raw bytes',
      () => rawBytes(),
      () => rawBytes(),
    ),
  ],
  hasSuffix: [
    one(
      'long suffix',
      () => 'a'.repeat(M),
      () => 'a'.repeat(M),
    ),
    one(
      'raw bytes',
      () => rawBytes(),
      () => rawBytes(),
    ),
  ],
  atoi: [one('digits 512 KiB', digits), one('signed', () => '-' + digits()), one('not a number', ascii)],
  splitList: [
    one('many parts', ',', () => cycle('a,', M)),
    one('empty separator', '', () => nonAscii()),
    one('no separator found', ';', ascii),
  ],
  add1: [one('digit string', digits), one('int', 1n)],
  add: ints(),
  sub: ints(),
  div: ints(),
  mod: ints(),
  mul: ints(),
  add1f: floats(),
  addf: floats(),
  subf: floats(),
  divf: floats(),
  mulf: floats(),
  deepEqual: [
    one(
      'equal shared lists',
      () => sharedList(16),
      () => sharedList(16),
    ),
    one(
      'equal maps',
      () => bigMap(),
      () => bigMap(),
    ),
    one(
      'long strings',
      () => 'a'.repeat(M),
      () => 'a'.repeat(M),
    ),
    one(
      'lists of strings',
      () => list(),
      () => list(),
    ),
  ],
  base: texts(one('path', () => cycle('/a/../b/./c//', M))),
  dir: texts(one('path', () => cycle('/a/../b/./c//', M))),
  ext: texts(one('path', () => cycle('/a/../b/./c//', M))),
  clean: texts(one('path', () => cycle('/a/../b/./c//', M))),
  isAbs: texts(),
  tuple: [one('2000 arguments', ...Array.from({ length: 2000 }, (_, i) => BigInt(i)))],
  fail: [one('long message', ascii)],
  sha1sum: texts(),
  sha256sum: texts(),
  sha512sum: texts(),
  adler32sum: texts(),
  decryptAES: [one('512 KiB', 'secret', () => b64()), one('bad input', 'secret', ascii)],
  duration: [one('digits', digits), one('int64', 5n), one('text', ascii)],
  durationRound: [
    one('digits', digits),
    one('long fraction', () => '1.' + digits() + 'h'),
    one('many units', () => cycle('1h2m', M)),
  ],
  default: [
    one(
      'map',
      () => bigMap(),
      () => bigMap(),
    ),
    one(
      'list',
      () => list(),
      () => list(),
    ),
  ],
  empty: values(),
  coalesce: [
    one(
      'maps',
      () => bigMap(),
      () => bigMap(),
      () => list(),
    ),
  ],
  all: [
    one(
      'maps',
      () => bigMap(),
      () => bigMap(),
      () => list(),
    ),
  ],
  any: [
    one(
      'maps',
      () => bigMap(),
      () => bigMap(),
      () => list(),
    ),
  ],
  fromJson: jsonCases(),
  mustFromJson: jsonCases(),
  fromJsonArray: jsonCases(),
  toJson: values(),
  mustToJson: values(),
  toPrettyJson: values(),
  mustToPrettyJson: values(),
  toRawJson: values(),
  mustToRawJson: values(),
  ternary: [
    one(
      'maps',
      () => bigMap(),
      () => bigMap(),
      true,
    ),
  ],
  dict: [
    one('2000 pairs', ...Array.from({ length: 4000 }, (_, i) => (i % 2 === 0 ? 'k' + i : BigInt(i)))),
    one('list keys', () => sharedList(14), 'v'),
  ],
  get: [one('big map', () => bigMap(), 'key-7')],
  set: [
    one(
      'big map',
      () => bigMap(),
      'new',
      () => list(),
    ),
  ],
  unset: [one('big map', () => bigMap(), 'key-7')],
  hasKey: [one('big map', () => bigMap(), 'key-7')],
  pluck: [one('many maps', 'key-1', ...Array.from({ length: 2000 }, () => bigMap(10)))],
  keys: [
    one(
      'big maps',
      () => bigMap(),
      () => bigMap(),
    ),
    one('non-ASCII keys', () => mapOf(nonAsciiKeys(20 * K))),
  ],
  values: [one('big map', () => bigMap()), one('non-ASCII keys', () => mapOf(nonAsciiKeys(20 * K)))],
  pick: [one('2000 keys', () => bigMap(), ...Array.from({ length: 2000 }, (_, i) => 'key-' + i))],
  omit: [one('2000 keys', () => bigMap(), ...Array.from({ length: 2000 }, (_, i) => 'key-' + i))],
  merge: mergeCases(),
  mustMerge: mergeCases(),
  mergeOverwrite: mergeCases(),
  mustMergeOverwrite: mergeCases(),
  deepCopy: values(),
  mustDeepCopy: values(),
  dig: [one('deep', ...Array.from({ length: 1000 }, () => 'a'), 'default', () => deepMap(1000))],
  list: [one('2000 arguments', ...Array.from({ length: 2000 }, (_, i) => BigInt(i)))],
  push: [...LIST_CASES().map(([l, a]): Case => [l, () => [...a(), 'x']])],
  append: [...LIST_CASES().map(([l, a]): Case => [l, () => [...a(), 'x']])],
  prepend: [...LIST_CASES().map(([l, a]): Case => [l, () => [...a(), 'x']])],
  chunk: [
    one('size 1', 1n, () => list()),
    one('size 1000', 1000n, () => list()),
    one('bytes', 1n, () => new Uint8Array(256 * K)),
  ],
  first: LIST_CASES(),
  last: LIST_CASES(),
  rest: LIST_CASES(),
  initial: LIST_CASES(),
  reverse: LIST_CASES(),
  compact: [...LIST_CASES(), one('maps', () => Array.from({ length: 10 * K }, () => bigMap(10)))],
  uniq: [
    one('distinct 3000', () => distinctList(3000)),
    one('equal', () => list()),
    one('shared', () => Array.from({ length: 64 }, () => sharedList(10))),
  ],
  without: [
    one('list', () => list(), ...Array.from({ length: 100 }, (_, i) => 'y' + i)),
    one(
      'shared',
      () => [sharedList(12), sharedList(12)],
      () => sharedList(12),
    ),
  ],
  has: [
    one('absent', 'zz', () => list()),
    one(
      'shared',
      () => sharedList(14),
      () => [sharedList(14), sharedList(14)],
    ),
    one(
      'long strings',
      () => 'a'.repeat(K * 64) + 'b',
      () => Array.from({ length: 64 }, () => 'a'.repeat(64 * K)),
    ),
  ],
  slice: [one('list', () => list(), 1n), one('bytes', () => new Uint8Array(M), 1n)],
  sortAlpha: [
    one('strings', () => list()),
    one('long shared prefixes', () => Array.from({ length: 2000 }, (_, i) => 'a'.repeat(500) + i)),
    one('non-ASCII', () => nonAsciiKeys(20 * K)),
    one('ints', () => intList()),
    one('shared', () => [sharedList(14)]),
  ],
  concat: [
    one(
      'lists',
      () => list(),
      () => list(),
      () => new Uint8Array(M),
    ),
  ],
  int: [one('digits', digits), one('hex', () => '0x' + 'f'.repeat(M)), one('float text', () => '1.' + digits())],
  int64: [one('digits', digits), one('hex', () => '0x' + 'f'.repeat(M))],
  float64: [one('digits', digits), one('exponent', () => '1e' + digits())],
  max: ints(),
  biggest: ints(),
  min: ints(),
  maxf: floats(),
  minf: floats(),
  floor: [one('digits', () => '1.' + digits())],
  ceil: [one('digits', () => '1.' + digits())],
  round: [one('digits', () => '1.' + digits(), 3n), one('huge precision', 1.5, 1n << 40n)],
  until: [one('256k', 1n << 18n), one('refused', 1n << 40n)],
  untilStep: [one('256k', 0n, 1n << 18n, 1n), one('downwards', 0n, -(1n << 18n), -1n)],
  seq: [one('256k', 1n << 18n), one('stepped', 1n, 1n, 1n << 18n)],
  toDecimal: [one('octal digits', () => '7'.repeat(M)), one('shared list', () => sharedList(16))],
  typeOf: values(),
  typeIs: [one('long name', ascii, () => bigMap())],
  typeIsLike: [one('long name', ascii, () => bigMap())],
  kindOf: values(),
  kindIs: [one('long name', ascii, () => bigMap())],
  regexMatch: [
    ...regexCases((re, input) => [one('input', re, input)]),
    one(
      '100k instructions',
      () => bigPattern(100),
      () => regexInput(32),
    ),
  ],
  mustRegexMatch: regexCases((re, input) => [one('input', re, input)]),
  regexFind: regexCases((re, input) => [one('input', re, input)]),
  mustRegexFind: regexCases((re, input) => [one('input', re, input)]),
  regexFindAll: regexCases((re, input) => [one('input', re, input, -1n)]),
  mustRegexFindAll: regexCases((re, input) => [one('input', re, input, -1n)]),
  regexReplaceAll: [
    ...regexCases((re, input) => [one('input', re, input, '<$0>')]),
    one(
      'groups repeated',
      '(.)',
      () => 'x'.repeat(16 * K),
      () => '$1'.repeat(256),
    ),
    one('empty matches', 'x*', () => nonAscii(256 * K), 'yy'),
  ],
  mustRegexReplaceAll: regexCases((re, input) => [one('input', re, input, '<$0>')]),
  regexReplaceAllLiteral: [
    ...regexCases((re, input) => [one('input', re, input, '<>')]),
    one(
      'long replacement',
      '.',
      () => 'x'.repeat(4 * K),
      () => 'y'.repeat(K),
    ),
  ],
  mustRegexReplaceAllLiteral: regexCases((re, input) => [one('input', re, input, '<>')]),
  regexSplit: regexCases((re, input) => [one('input', re, input, -1n)]),
  mustRegexSplit: regexCases((re, input) => [one('input', re, input, -1n)]),
  regexQuoteMeta: texts(one('metacharacters', () => cycle('.+*?()|[]{}^$\\', M))),
  semverCompare: [
    one('plain', '~1.33.0', '1.33.4'),
    one('long grammar', () => cycle('>=1.2.3, <2.0.0 || ', 16 * K), '1.5.0'),
    one('ranges', () => cycle('1.2 - 1.4.5 ', 16 * K), '1.3.0'),
    one('long version', '>1', () => '1.' + digits()),
  ],
  semver: [one('long digits', () => '1.' + digits()), one('long pre-release', () => '1.2.3-' + cycle('a.0', M))],
  b64enc: texts(),
  b64dec: [one('valid', () => b64()), one('invalid', ascii), one('raw bytes', () => rawBytes())],
  b32enc: texts(),
  b32dec: [one('valid', () => b32(M)), one('invalid', ascii)],
  abbrev: [one('ascii', 100n, ascii), one('non-ASCII', 100n, () => nonAscii())],
  abbrevboth: [one('ascii', 100n, 200n, ascii), one('non-ASCII', 10n, 100n, () => nonAscii())],
  substr: [
    one('ascii', 10n, 1000n, ascii),
    one('non-ASCII', 7n, 100000n, () => nonAscii()),
    one('raw bytes', 1n, -1n, () => rawBytes()),
  ],
  trunc: [one('ascii', 1000n, ascii), one('non-ASCII', -100000n, () => nonAscii())],
  quote: [
    one(
      'texts',
      ascii,
      () => nonAscii(),
      () => rawBytes(),
    ),
    one('controls', () => cycle('\x00\x01\u0085', M)),
    one('shared list', () => sharedList(16)),
  ],
  squote: [one('texts', ascii, () => nonAscii()), one('shared list', () => sharedList(16))],
  cat: [
    one('texts', ascii, () => nonAscii()),
    one('shared map', () => sharedMap(16)),
    one('bytes', () => new Uint8Array(M)),
  ],
  indent: [one('many lines', 64n, () => lines(256 * K)), one('refused', 1n << 40n, 'x')],
  nindent: [one('many lines', 64n, () => lines(256 * K))],
  replace: [
    one(
      'frequent',
      ',',
      () => 'x'.repeat(256),
      () => cycle('a,', 256 * K),
    ),
    one('empty old', '', 'yy', () => nonAscii(256 * K)),
    one('not found', 'zzz', () => 'x'.repeat(M), ascii),
  ],
  plural: [one('texts', ascii, ascii, 2n)],
  toString: values(),
  toStrings: [...values(), one('bytes', () => new Uint8Array(M))],
  join: [
    one('strings', ',', () => list()),
    one('shared', ',', () => [sharedList(16)]),
    one(
      'long separator',
      () => 'x'.repeat(K),
      () => list(10 * K),
    ),
  ],
  split: [one('many parts', ',', () => cycle('a,', M)), one('empty separator', '', () => nonAscii(256 * K))],
  splitn: [one('many parts', ',', -1n, () => cycle('a,', M)), one('limited', ',', 100n, () => cycle('a,', M))],
  urlParse: [
    one('long', () => 'https://user:pw@host.example:8080/' + cycle('a/%41/', M) + '?q=' + ascii(K) + '#f'),
    one('non-ASCII', () => 'http://h/' + nonAscii()),
  ],
  urlJoin: [
    one('long parts', () => ({
      scheme: 'https',
      host: 'h',
      path: '/' + nonAscii(),
      query: ascii(),
      fragment: ascii(K),
      userinfo: 'u:p',
    })),
  ],
  toToml: [
    ...values(),
    one('deep tables', () => deepMap(300)),
    one('array of tables', () => ({ a: Array.from({ length: 20 * K }, () => ({ b: 1n })) })),
  ],
  fromToml: tomlCases(),
  toYaml: [
    ...values(),
    one('non-ASCII keys', () => mapOf(nonAsciiKeys(20 * K))),
    one('multi-line deep', () => deepMap(200, lines(64 * K))),
  ],
  fromYaml: yamlCases(),
  fromYamlArray: yamlCases(true),
};

// Functions that are another's twin or alias take its cases.
const TWINS: Readonly<Record<string, string>> = {
  osBase: 'base',
  osDir: 'dir',
  osExt: 'ext',
  osClean: 'clean',
  osIsAbs: 'isAbs',
  mustPush: 'push',
  mustAppend: 'append',
  mustPrepend: 'prepend',
  mustChunk: 'chunk',
  mustFirst: 'first',
  mustLast: 'last',
  mustRest: 'rest',
  mustInitial: 'initial',
  mustReverse: 'reverse',
  mustCompact: 'compact',
  mustUniq: 'uniq',
  mustWithout: 'without',
  mustHas: 'has',
  mustSlice: 'slice',
};

/** The cases of every function of osmTemplateFuncs (twins included). */
export function functionCases(name: string): readonly Case[] | undefined {
  return Object.prototype.hasOwnProperty.call(TWINS, name) ? FUNCTION_CASES[TWINS[name]!] : FUNCTION_CASES[name];
}

function jsonCases(): Case[] {
  return [
    one('empty maps', () => '[' + Array.from({ length: 200 * K }, () => '{}').join(',') + ']'),
    one('numbers', () => '[' + Array.from({ length: 200 * K }, () => '0').join(',') + ']'),
    one('long digits', () => '{"a":' + digits() + '}'),
    one('escapes', () => '{"a":"' + cycle('\\u00e9\\n', M) + '"}'),
    one('deep', () => '['.repeat(5000) + ']'.repeat(5000)),
    one('syntax error', () => '{"a":' + ascii()),
  ];
}

function yamlCases(array = false): Case[] {
  const doc = (body: string) => (array ? '- ' + body.replace(/\n/g, '\n  ') : body);
  return [
    one('many keys', () => doc(Array.from({ length: 3000 }, (_, i) => `k${i}: ${i}`).join('\n'))),
    one('flow empties', () => doc('a: [' + Array.from({ length: 50 * K }, () => '{}').join(',') + ']')),
    one('aliases', () =>
      doc('a: &a [' + 'x,'.repeat(500) + 'x]\nb: [' + Array.from({ length: 400 }, () => '*a').join(',') + ']'),
    ),
    // An alias decodes its anchor's text again: resolved (a timestamp's layouts), hashed as a key, base64-decoded.
    one('aliased timestamp', () => doc(`a: [&a 2001-01-01T00:00:00.${'0'.repeat(64 * K)}Z${', *a'.repeat(400)}]`)),
    one('aliased key', () => doc(`a: [&a {? ${'k'.repeat(64 * K)} : 1}${', {<<: *a}'.repeat(400)}]`)),
    // Every block that ends walks back over the comments after it.
    one('comments after deep blocks', () => doc('a:\n' + '- '.repeat(500) + 'x\n' + '#\n  #\n\n'.repeat(5 * K))),
    one('aliased binary', () => doc(`a: [&a !!binary ${'QUFB'.repeat(16 * K)}${', *a'.repeat(400)}]`)),
    one('long digits', () => doc('a: ' + digits())),
    one('long text', () => doc('a: |\n' + lines(M).replace(/^/gm, '  '))),
    one('non-ASCII', () => doc('a: "' + nonAscii() + '"')),
  ];
}

function tomlCases(): Case[] {
  return [
    one('many keys', () => Array.from({ length: 20 * K }, (_, i) => `k${i} = ${i}`).join('\n')),
    one(
      'deep table, many keys',
      () =>
        '[' +
        Array.from({ length: 500 }, () => 'a').join('.') +
        ']\n' +
        Array.from({ length: 4 * K }, (_, i) => `k${i} = 1`).join('\n'),
    ),
    one('dotted keys', () =>
      Array.from({ length: 1000 }, (_, i) => Array.from({ length: 300 }, () => 'a').join('.') + `.k${i} = 1`).join(
        '\n',
      ),
    ),
    one('long digits', () => 'a = ' + digits()),
    one('escapes', () => 'a = "' + cycle('\\u00e9\\n', M) + '"'),
    one('arrays of tables', () => Array.from({ length: 20 * K }, () => '[[t]]\nx = 1').join('\n')),
  ];
}

function mergeCases(): Case[] {
  return [
    one(
      'big maps',
      () => bigMap(),
      () => bigMap(),
      () => bigMap(),
    ),
    one(
      'deep maps',
      () => deepMap(500),
      () => deepMap(500),
    ),
    one(
      'shared maps',
      () => ({}),
      () => sharedMap(12),
    ),
  ];
}

function deepMap(depth: number, leaf: unknown = 1n): GoMap {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v as GoMap;
}

function nonAsciiKeys(n: number): string[] {
  return Array.from({ length: n }, (_, i) => 'ü' + 'é'.repeat(50) + i + '日本');
}

function mapOf(keys: string[]): GoMap {
  const m: GoMap = {};
  for (const k of keys) m[k] = k;
  return m;
}

function b32(n: number): string {
  return callGoFunction(osmTemplateFuncs.b32enc!, UNMETERED, [ascii(n)]) as string;
}

// ---------------------------------------------------------------- builtins

const escapes = (): Case[] => [
  one('specials', () => cycle('<>&"\'=\x00', M)),
  one('non-ASCII', () => nonAscii()),
  one('raw bytes', () => rawBytes()),
  one('shared list', () => sharedList(16)),
];

export const BUILTIN_CASES: Readonly<Record<string, readonly Case[]>> = {
  // and/or are evaluated by the executor (EXECUTOR_CASES); call can only fail.
  and: [],
  or: [],
  call: [one('not a function', () => bigMap())],
  html: escapes(),
  js: escapes(),
  urlquery: escapes(),
  index: [one('string', () => nonAscii(), 7n), one('map', () => bigMap(), 'key-1'), one('list', () => list(), 5n)],
  slice: [
    one('string', () => nonAscii(), 1n),
    one('list', () => list(), 1n),
    one('bytes', () => new Uint8Array(M), 1n),
  ],
  len: [one('string', () => nonAscii()), one('map', () => bigMap()), one('list', () => list())],
  not: [one('map', () => bigMap())],
  print: [
    one('texts', ascii, () => nonAscii()),
    one('shared list', () => sharedList(16)),
    one('shared map', () => sharedMap(16)),
    one('map', () => bigMap()),
    one('bytes', () => new Uint8Array(M)),
  ],
  println: [one('texts', ascii, () => nonAscii()), one('shared list', () => sharedList(16))],
  printf: [
    one('wide', () => '%1000000d'.repeat(64), ...Array.from({ length: 64 }, () => 1n)),
    one('precise', () => '%.1000000f'.repeat(16), ...Array.from({ length: 16 }, () => 1.5)),
    one('%q', '%q', () => cycle('\x00\udcff😀', M)),
    one('%x', '% #x', () => nonAscii()),
    one('%#v shared', '%#v', () => sharedMap(16)),
    one('%v bytes', '%v', () => new Uint8Array(M)),
  ],
  eq: [
    one(
      'long strings',
      () => 'a'.repeat(M),
      () => 'a'.repeat(M),
    ),
    one(
      'raw bytes',
      () => rawBytes(),
      () => rawBytes(),
    ),
    one(
      'maps',
      () => bigMap(),
      () => sharedMap(16),
    ),
  ],
  ne: [
    one(
      'long strings',
      () => 'a'.repeat(M),
      () => 'a'.repeat(M),
    ),
  ],
  lt: [
    one(
      'long strings',
      () => 'a'.repeat(M),
      () => 'a'.repeat(M),
    ),
  ],
  le: [
    one(
      'long strings',
      () => 'a'.repeat(M),
      () => 'a'.repeat(M),
    ),
  ],
  gt: [
    one(
      'long strings',
      () => 'a'.repeat(M),
      () => 'a'.repeat(M),
    ),
  ],
  ge: [
    one(
      'long strings',
      () => 'a'.repeat(M),
      () => 'a'.repeat(M),
    ),
  ],
};

/** What the executor does besides calling functions: a template and its data. */
export type ExecutorCase = readonly [label: string, template: string, data: () => unknown];

export const EXECUTOR_CASES: readonly ExecutorCase[] = [
  [
    'steps: field chains',
    '{{ range 200000 }}{{ $.a.b.c.d.E }}{{ end }}',
    () => ({ a: { b: { c: { d: new GoStruct('main.T', { E: 'x' }) } } } }),
  ],
  ['steps: variables', '{{ $a := 1 }}{{ $b := 2 }}{{ range 200000 }}{{ $a = $b }}{{ $b = $a }}{{ end }}', () => null],
  ['steps: calls', '{{ range 200000 }}{{ $x := add 1 2 }}{{ end }}', () => null],
  ['steps: branches', '{{ range 200000 }}{{ if and 1 (not 0) }}{{ else }}{{ end }}{{ end }}', () => null],
  [
    'steps: template calls',
    '{{ define "u" }}{{ . }}{{ end }}{{ range 200000 }}{{ template "u" 1 }}{{ end }}',
    () => null,
  ],
  ['print a shared list', '{{ . }}', () => sharedList(16)],
  ['print a big map', '{{ . }}', () => bigMap()],
  ['range over a big map', '{{ range 20 }}{{ range $.m }}{{ break }}{{ end }}{{ end }}', () => ({ m: bigMap() })],
  ['truth of a big map', '{{ range 100000 }}{{ if $.m }}{{ end }}{{ end }}', () => ({ m: bigMap() })],
  ['output', '{{ range 100000 }}{{ $.s }}{{ end }}', () => ({ s: 'x'.repeat(100) })],
  ['goSlice data', '{{ range . }}{{ . }}{{ end }}', () => goSlice('string', list(50 * K) as string[])],
  [
    'and/or of big maps',
    '{{ range 100000 }}{{ $x := and $.m $.m 1 }}{{ $y := or 0 $.m }}{{ end }}',
    () => ({ m: bigMap() }),
  ],
  // Methods of the values functions return.
  [
    'time Format, long layout',
    '{{ $t := index (fromToml "t = 2020-01-02T03:04:05.123456789Z") "t" }}{{ $x := $t.Format $.l }}',
    () => ({ l: cycle('Monday .000000000 January MST ', M) }),
  ],
  [
    'time AppendFormat',
    '{{ $t := index (fromToml "t = 2020-01-02T03:04:05Z") "t" }}{{ $x := $t.AppendFormat $.b $.l }}',
    () => ({ b: new Uint8Array(M), l: cycle('Mon Jan _2 ', 64 * K) }),
  ],
  [
    'semver methods',
    '{{ $v := semver "1.2.3" }}{{ range 20000 }}{{ $x := ($v.SetPrerelease "a.b.c").IncMajor.String }}{{ end }}',
    () => null,
  ],
];
