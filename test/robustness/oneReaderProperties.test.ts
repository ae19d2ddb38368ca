// One reader per syntax (issue #22): JSON is YAML 1.2, so a ResourceList spelled as JSON, as flow YAML and as
// block YAML is one document and must give one outcome. fast-check (fixed seed) builds documents with repeated
// keys, deep nesting, big scalars, escapes and non-ASCII text, spells each three ways, runs the built bundle on
// each as kpt or kustomize would (stdin), and compares exit code, output items (as values) and results (line and
// column aside: the spellings lay the text out differently). Malformed inputs never print input text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { parse } from 'yaml';
import { BUNDLE } from '../gitops/support.ts';

const SEED = Number(process.env.PROPERTY_SEED ?? 2026);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 25);

// A document: objects are lists of pairs, so a key can be repeated (no JavaScript object can hold that).
type Doc = null | boolean | number | string | Doc[] | { pairs: Array<[string, Doc]> };

const MARKER = 'Sk3tchT0ken98765';

const arbKey = fc.oneof(
  fc.constantFrom('a', 'b', 'name', 'kind', 'x-y', 'ü', '"q"', '\\', ''),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);
const arbString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('true', 'null', '0644', '1e3', '- x', '#c', 'a: b', '\t', '\n', '\u2028', MARKER),
  fc.integer({ min: 1, max: 300_000 }).map((n) => 'x'.repeat(n)),
);
const arbNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 2 ** 53 + 2, 1e21, 0.1),
);

const { doc: arbDoc } = fc.letrec<{ doc: Doc; object: Doc }>((tie) => ({
  doc: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    arbNumber,
    arbString,
    fc.array(tie('doc'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc.oneof(
    // Mostly distinct keys; sometimes one repeated.
    fc.uniqueArray(fc.tuple(arbKey, tie('doc')), { maxLength: 4, selector: ([k]) => k }).map((pairs) => ({ pairs })),
    fc.tuple(arbKey, tie('doc'), tie('doc')).map(([k, a, b]) => ({
      pairs: [
        [k, a],
        ['other', null],
        [k, b],
      ] as Array<[string, Doc]>,
    })),
  ),
}));

/** Wraps `d` in `n` levels of lists or objects. */
function nest(d: Doc, n: number, objects: boolean): Doc {
  for (let i = 0; i < n; i++) d = objects ? { pairs: [['n', d]] } : [d];
  return d;
}

const arbResourceList = fc
  .record({
    spec: arbDoc,
    depth: fc.oneof(fc.constant(0), fc.integer({ min: 240, max: 270 })),
    objects: fc.boolean(),
    items: fc.integer({ min: 1, max: 3 }),
  })
  .map(({ spec, depth, objects, items }): Doc => ({
    pairs: [
      ['apiVersion', 'config.kubernetes.io/v1'],
      ['kind', 'ResourceList'],
      [
        'items',
        Array.from({ length: items }, (_, i): Doc => ({
          pairs: [
            ['apiVersion', 'example.com/v1'],
            ['kind', 'Thing'],
            [
              'metadata',
              {
                pairs: [
                  ['name', `thing-${i}`],
                  ['namespace', 'default'],
                ],
              },
            ],
            ['token', MARKER],
            ['spec', nest(spec, depth, objects)],
          ],
        })),
      ],
    ],
  }));

const isObject = (d: Doc): d is { pairs: Array<[string, Doc]> } =>
  d !== null && typeof d === 'object' && !Array.isArray(d);

function json(d: Doc): string {
  if (Array.isArray(d)) return `[${d.map(json).join(',')}]`;
  if (isObject(d)) return `{${d.pairs.map(([k, v]) => `${JSON.stringify(k)}:${json(v)}`).join(',')}}`;
  return JSON.stringify(d);
}

const PLAIN = /^[A-Za-z][A-Za-z0-9_.\/-]*$/;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;
/** Flow YAML: JSON's shape with plain scalars where YAML reads them back as the same string. */
function flow(d: Doc): string {
  const str = (s: string) => (PLAIN.test(s) && !RESERVED.test(s) ? s : JSON.stringify(s));
  if (Array.isArray(d)) return `[ ${d.map(flow).join(', ')} ]`;
  if (isObject(d)) return `{ ${d.pairs.map(([k, v]) => `${str(k)}: ${flow(v)}`).join(', ')} }`;
  return typeof d === 'string' ? str(d) : JSON.stringify(d);
}

/** Block YAML: keys and strings double-quoted (JSON's escapes are YAML's), collections as blocks. */
function block(d: Doc, indent = ''): string {
  const scalar = (v: Doc) => JSON.stringify(v);
  const inline = (v: Doc) =>
    Array.isArray(v) && v.length === 0 ? '[]' : isObject(v) && v.pairs.length === 0 ? '{}' : undefined;
  if (Array.isArray(d)) {
    if (d.length === 0) return `${indent}[]\n`;
    return d
      .map((v) => {
        const small = inline(v);
        if (small !== undefined || (!Array.isArray(v) && !isObject(v))) return `${indent}- ${small ?? scalar(v)}\n`;
        return `${indent}-\n${block(v, indent + '  ')}`;
      })
      .join('');
  }
  if (isObject(d)) {
    if (d.pairs.length === 0) return `${indent}{}\n`;
    return d.pairs
      .map(([k, v]) => {
        const small = inline(v);
        if (small !== undefined || (!Array.isArray(v) && !isObject(v)))
          return `${indent}${JSON.stringify(k)}: ${small ?? scalar(v)}\n`;
        return `${indent}${JSON.stringify(k)}:\n${block(v, indent + '  ')}`;
      })
      .join('');
  }
  return `${indent}${scalar(d)}\n`;
}

interface Outcome {
  status: number | null;
  items: unknown;
  results: unknown;
  stderr: string;
}

function run(input: string): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, [BUNDLE], {
    input,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    timeout: 120_000,
  });
  if (r.error) throw r.error;
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

const placeless = (s: string) => s.replace(/line \d+, column \d+/g, 'line L, column C');

function outcome(input: string): Outcome {
  const r = run(input);
  const out = parse(r.stdout, { maxAliasCount: -1 }) as { items?: unknown; results?: Array<Record<string, unknown>> };
  return {
    status: r.status,
    items: out.items,
    results: (out.results ?? []).map((x) => ({ ...x, message: placeless(String(x.message)) })),
    stderr: placeless(r.stderr),
  };
}

test('a ResourceList spelled as JSON, flow YAML and block YAML gives one outcome', { timeout: 1_200_000 }, () => {
  fc.assert(
    fc.property(arbResourceList, (doc) => {
      const spellings = { json: json(doc), flow: flow(doc), block: block(doc) };
      const [first, ...rest] = Object.entries(spellings).map(([name, text]) => [name, outcome(text)] as const);
      for (const [name, o] of rest) assert.deepEqual(o, first![1], `${name} differs from ${first![0]}`);
      // A refusal never quotes the input (a token written without quotes would sit where the parser stops).
      if (first![1].status !== 0)
        assert.ok(!JSON.stringify(first![1]).includes(MARKER), JSON.stringify(first![1]).slice(0, 500));
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
});

test('the outcomes the reader must give: repeated keys refused in JSON as in YAML, flow YAML read, no text in errors', () => {
  const list = (items: string) =>
    `{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": [${items}]}`;
  const thing =
    '{"apiVersion": "example.com/v1", "kind": "Thing", "metadata": {"name": "t", "namespace": "default"}, "spec": {"replicas": 1, "replicas": 5}}';
  const dupBlock: Doc = {
    pairs: [
      ['apiVersion', 'config.kubernetes.io/v1'],
      ['kind', 'ResourceList'],
      [
        'items',
        [
          {
            pairs: [
              ['apiVersion', 'example.com/v1'],
              ['kind', 'Thing'],
              [
                'metadata',
                {
                  pairs: [
                    ['name', 't'],
                    ['name', 'u'],
                  ],
                },
              ],
            ],
          },
        ],
      ],
    ],
  };
  for (const text of [list(thing), block(dupBlock)]) {
    const r = run(text);
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stdout, /malformed YAML at line \d+, column \d+: a map key is repeated/);
  }
  const flowList =
    '{apiVersion: config.kubernetes.io/v1, kind: ResourceList, items: [{apiVersion: v1, kind: ConfigMap, metadata: {name: flow, namespace: default}}]}';
  const r = run(flowList);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual((parse(r.stdout) as any).items, [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'flow', namespace: 'default' } },
  ]);
  for (const bad of [
    list(`{"kind": "Secret", "stringData": {"token": "${MARKER}\\q"}}`),
    list(`{"kind": "Secret", "data": {"t": ${MARKER}}}}`),
    `{"items": [${'['.repeat(5000)}"${MARKER}"`,
  ]) {
    const e = run(bad);
    assert.equal(e.status, 1, bad.slice(0, 200));
    assert.ok(
      !e.stdout.includes(MARKER.slice(0, 6)) && !e.stderr.includes(MARKER.slice(0, 6)),
      `${e.stdout}\n${e.stderr}`,
    );
    assert.match(e.stdout, /line \d+, column \d+|nested more than 256 levels/);
  }
});
