// The YAML writer's guarantee, attacked through the real readers rather than through its own rules: whatever string
// a value or a key holds, what writeYaml writes reads back as exactly that string, in a document of its own with
// nothing added, through the `yaml` package as we parse (PARSE_OPTIONS), gopkg.in/yaml.v3 (kyaml: kpt, kustomize,
// Argo CD), gopkg.in/yaml.v2 (sigs.k8s.io/yaml: kubectl, Argo CD's manifest parsing) and PyYAML (cloud-init),
// every scalar's type kept (a string read back as an int, a float, a bool, null or a timestamp is a failure).
// Fixed seed; the strings are built from YAML indicators, line breaks, non-characters and the pieces of every
// number, date and reserved word those readers resolve.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { writeYaml } from '../../src/codec/yamlWriter.ts';
import { PARSE_OPTIONS } from '../../src/krm/yamlSchema.ts';
import { readTypedWithGoYaml } from '../support/goYamlTypedReader.ts';
import { readBack } from '../robustness/support/readBack.ts';

const SEED = Number(process.env.PROPERTY_SEED ?? 6006);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 3000);

const PIECES = [
  ...'0123456789_.:,+-eExXbBoOaAfFtTzZ ~<=#[]{}?!&*|>\'"%@`\\'.split(''),
  ...['\t', '\n', '\r', '\u0085', '\u2028', '\u2029', '\ufeff', '\ufffe', '\uffff', '\u00a0', '\x7f', '\x00', '\x1b'],
  ...['\u009f', '\u{1f600}', '\u{10ffff}', '\u{1fffe}', '\ufdd0', 'é'],
  ...['0x', '0X', '0b', '0B', '0o', '0O', 'inf', 'Inf', 'nan', 'NaN', 'null', 'Null', 'NULL', 'yes', 'Yes', 'y', 'Y'],
  ...['n', 'N', 'no', 'on', 'On', 'off', 'true', 'True', 'false', '<<', '2001-12-14', '2001-1-2', 'T', 't', '1:2'],
  ...[':59', '---', '...', '--- ', '... ', '- ', '? ', ': ', ' #', '%YAML', '!!str', '&a', '*a', 'a'],
];

// Found by this attack (each broke at least one reader before the fix).
const FOUND = [
  // yaml.v3 and v2 parse numbers with Go's strconv: any case of radix letter, underscores removed first.
  ...['0X1F', '0B1', '0O7', '+_1', '0_x1F', '+0_x1', '0_b1', '0_o7', '1e_3', '1e+_3', '1e3_', '1.5e_3', '+.5e_3'],
  // ... and Go's ParseFloat (for a leading `.`) takes underscores between digits of the exponent too.
  ...['.5e3_1', '.5_0e1_0'],
  // yaml.v3's timestamps are Go layouts: one-digit minutes and seconds, a comma before the fraction.
  ...['2001-1-2T1:2:3Z', '2001-01-02t01:2:3+07:00', '2001-1-2 1:2:3', '2001-1-2  1:2:3.5', '2001-1-2 1:2:3,5'],
  // A document end marker at the start of a line (a map key at column 0, a top-level scalar).
  ...['...', '... a', '...\u00a0', '... ...'],
  // Non-characters every Go and Python reader refuses anywhere in the text, even inside quotes.
  ...['\ufffe', 'a\uffff', 'a\ufffe\nb\n', 'x: \uffff'],
  // A literal block whose first line starts with a tab (yaml.v3 and v2: "found a tab character where an
  // indentation space is expected").
  ...['\tx\n', '\tx\ny', '\n\tx\n', ' \tx\n'],
  // Keys longer than 1024 characters (no reader takes an implicit key that long), in every quoting.
  ...['k'.repeat(1025), 'k'.repeat(1024), '"'.repeat(600), 'é'.repeat(1100), 'a\nb'.repeat(400), '1'.repeat(2000)],
];

type Layout = { name: string; text: (s: string) => string; expect: (s: string) => unknown };
const S = (s: string) => 's:' + s;
const LAYOUTS: Layout[] = [
  { name: 'value', text: (s) => writeYaml({ k: s }), expect: (s) => ({ 's:k': S(s) }) },
  { name: 'key', text: (s) => writeYaml({ [s]: 'v' }), expect: (s) => ({ [S(s)]: 's:v' }) },
  { name: 'top-level', text: (s) => writeYaml(s), expect: (s) => S(s) },
  { name: 'items', text: (s) => writeYaml([s, { [s]: [s] }]), expect: (s) => [S(s), { [S(s)]: [S(s)] }] },
  {
    name: 'nested',
    text: (s) => writeYaml({ m: { [s]: s, z: [s, []], e: { [s]: { [s]: {} } } } }),
    expect: (s) => ({ 's:m': { [S(s)]: S(s), 's:z': [S(s), []], 's:e': { [S(s)]: { [S(s)]: {} } } } }),
  },
];

/** What the `yaml` package reads, typed like the Go and Python readers' answers. */
function typed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(typed);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, e]) => [typed(k), typed(e)]));
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, e]) => [S(k), typed(e)]));
  if (typeof v === 'string') return S(v);
  return `${typeof v}:${String(v)}`;
}

type Read = { docs: number; value?: unknown; error?: string };

function readWithYamlPackage(text: string): Read {
  const docs = parseAllDocuments(text, PARSE_OPTIONS);
  if (!Array.isArray(docs)) return { docs: 0 };
  for (const d of docs) {
    const problem = d.errors[0] ?? d.warnings[0];
    if (problem !== undefined) return { docs: docs.length, error: problem.message.split('\n')[0] };
  }
  return { docs: docs.length, value: typed(docs[0]?.toJS({ maxAliasCount: 0, mapAsMap: true })) };
}

/** Key order apart (Go's maps have none): the same value. */
function canonical(v: unknown): string {
  const sort = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(sort)
      : x !== null && typeof x === 'object'
        ? Object.fromEntries(
            Object.entries(x)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, e]) => [k, sort(e)]),
          )
        : x;
  return JSON.stringify(sort(v));
}

function attack(strings: readonly string[]): string[] {
  const cases = strings.flatMap((s) => LAYOUTS.map((layout) => ({ s, layout, text: layout.text(s) })));
  const go = readTypedWithGoYaml(cases.map((c) => c.text));
  const py = readBack(cases.map((c) => ({ kind: 'typed' as const, text: c.text })));
  const failures: string[] = [];
  cases.forEach((c, i) => {
    const want = canonical(c.layout.expect(c.s));
    const python = py[i]!;
    const reads: Record<string, Read> = {
      yaml: readWithYamlPackage(c.text),
      'yaml.v3': go[i]!.v3,
      'yaml.v2': go[i]!.v2,
      PyYAML: 'error' in python ? { docs: 0, error: python.error } : (python.value as Read),
    };
    for (const [reader, r] of Object.entries(reads)) {
      const got =
        r.error !== undefined ? `error: ${r.error}` : r.docs !== 1 ? `${r.docs} documents` : canonical(r.value);
      if (got !== want)
        failures.push(`${reader}, ${c.layout.name} ${JSON.stringify(c.s).slice(0, 80)}: ${got.slice(0, 160)}`);
    }
  });
  return failures;
}

test('the strings found by the attack read back exactly in every reader', () => {
  const failures = attack(FOUND);
  assert.deepEqual(failures, [], failures.slice(0, 30).join('\n'));
});

test('generated strings read back exactly in every reader, as values, keys, items and nested', () => {
  const strings = fc.sample(
    fc.oneof(
      fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 7 }).map((a) => a.join('')),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.string({ unit: fc.constantFrom(...'0123456789_.:+-eExXbBoOtTzZ ,'.split('')), minLength: 1, maxLength: 14 }),
    ),
    { seed: SEED, numRuns: RUNS },
  );
  const failures = attack(strings);
  assert.deepEqual(failures, [], failures.slice(0, 30).join('\n'));
});
