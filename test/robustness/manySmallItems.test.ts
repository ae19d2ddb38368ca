// Many small items cost far more per byte than large scalars (README.md, Threat model): 24 MB of 400,000 small
// ConfigMaps took `render` 139 s at 2.6 GB before the node bound. Whatever shape carries them (block or flow items,
// JSON, documents of one file, many files, keys of one map, entries of one sequence) and whichever route reads
// them (the function's stdin, render, hydrate, generate), a run past 1,000,000 YAML nodes is refused with an
// error naming the limit and where it was reached, quickly and within 2 GiB; below it, items pass through.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { parse } from 'yaml';
import { BUNDLE, tempDir } from '../gitops/support.ts';

const HEAD = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n';
const LIMIT = 1_000_000;
const GiB2 = 2 * 1024 * 1024; // KiB, as GNU time reports
const LIMIT_MESSAGE =
  /holds more YAML nodes than osm-krm reads in one run: the limit of 1,000,000 \(documents, scalars with keys, aliases, flow collections and sequence entries; to stay within 2 GiB of memory\) is reached at line \d+, column \d+/;

/**
 * Shapes of many small things, each as a ResourceList of `n` of them; `perItem`: the nodes each holds by the
 * rule the bound counts by (scalars, aliases, flow collections and sequence entries; README.md).
 */
const SHAPES: Record<string, { perItem: number; text: (n: number) => string }> = {
  'block ConfigMaps': {
    perItem: 11, // the entry, 10 scalars
    text: (n) =>
      HEAD +
      Array.from(
        { length: n },
        (_, i) => `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c${i}\n  data:\n    k: v\n`,
      ).join(''),
  },
  'flow ConfigMaps': {
    perItem: 14, // the entry, 3 flow maps, 10 scalars
    text: (n) =>
      HEAD +
      Array.from(
        { length: n },
        (_, i) => `- {apiVersion: v1, kind: ConfigMap, metadata: {name: c${i}}, data: {k: v}}\n`,
      ).join(''),
  },
  'JSON items': {
    perItem: 5, // a flow map, 4 scalars
    text: (n) =>
      `{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[${Array.from(
        { length: n },
        (_, i) => `{"apiVersion":"v1","kind":"C${i}"}`,
      ).join(',')}]}\n`,
  },
  'keys of one map': {
    perItem: 2,
    text: (n) =>
      HEAD +
      `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: keys\n  data:\n` +
      Array.from({ length: n }, (_, i) => `    k${i}: v\n`).join(''),
  },
  'entries of one sequence': {
    perItem: 2,
    text: (n) =>
      HEAD +
      `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: seq\n  data:\n    s:\n` +
      '    - 1\n'.repeat(n),
  },
  'empty flow maps': {
    perItem: 1,
    text: (n) =>
      HEAD +
      `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: maps\n  data:\n    s: [${Array(n).fill('{}').join(',')}]\n`,
  },
};

/** The same items as documents of one file, or as files of one directory. */
const tinyDocuments = (n: number) =>
  Array.from({ length: n }, (_, i) => `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\n`).join('');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  rssKiB: number;
  ms: number;
}

/** The bundle under GNU time: its exit, output and peak RSS. */
function runBundle(args: string[], input?: string): Run {
  const started = Date.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, BUNDLE, ...args], {
    input: input ?? '',
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    timeout: 90_000, // a guard against a hang (before the bound: minutes), not a speed target
  });
  const lines = r.stderr
    .trimEnd()
    .split('\n')
    .filter((l) => !l.startsWith('Command exited with non-zero status'));
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: lines.slice(0, -1).join('\n'),
    rssKiB: Number(lines[lines.length - 1]),
    ms: Date.now() - started,
  };
}

function assertWithinMemory(r: Run, label: string): void {
  assert.ok(r.rssKiB > 0 && r.rssKiB < GiB2, `${label}: peak RSS ${r.rssKiB} KiB`);
}

/** Refused: exit 1 and the limit's error (stdin: as the ResourceList's one result; commands: on stderr, naming `file`). */
function assertRefused(r: Run, label: string, file?: string): void {
  assert.equal(r.status, 1, `${label}: exit ${r.status} after ${r.ms} ms\n${r.stderr.slice(0, 500)}`);
  assertWithinMemory(r, label);
  if (file === undefined) {
    const out = parse(r.stdout);
    assert.equal(out?.kind, 'ResourceList', label);
    assert.deepEqual(out.items, [], label);
    const errors = (out.results ?? []).filter((x: any) => x.severity === 'error');
    assert.equal(errors.length, 1, `${label}: ${JSON.stringify(out.results)}`);
    assert.match(errors[0].message, new RegExp(`^the input ${LIMIT_MESSAGE.source}`), label);
  } else {
    assert.match(r.stderr, new RegExp(`${file.replace(/\./g, '\\.')} ${LIMIT_MESSAGE.source}`), label);
    assert.equal(r.stdout, '', `${label}: nothing rendered`);
  }
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, label);
}

const ROUTES = ['stdin', 'render', 'hydrate', 'generate'] as const;

/** Runs `text` (a ResourceList) through a route: on stdin, or as a file of a directory the command reads. */
function throughRoute(route: (typeof ROUTES)[number], text: string): { run: Run; file?: string } {
  if (route === 'stdin') return { run: runBundle([], text) };
  const dir = tempDir('osm-krm-many-items-');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'items.yaml'), text);
  const args = route === 'hydrate' ? ['hydrate', join(dir, 'src'), join(dir, 'out')] : [route, join(dir, 'src')];
  const run = runBundle(args);
  if (route === 'hydrate') assert.ok(!existsSync(join(dir, 'out')), 'hydrate wrote nothing');
  return { run, file: 'items.yaml' };
}

test('many small items past the node limit, of any shape and through any route: refused quickly within 2 GiB', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...Object.keys(SHAPES)),
      fc.constantFrom(...ROUTES),
      fc.double({ min: 1.05, max: 1.6, noNaN: true }),
      (shape, route, over) => {
        const { perItem, text } = SHAPES[shape]!;
        const n = Math.ceil((LIMIT * over) / perItem);
        const { run, file } = throughRoute(route, text(n));
        assertRefused(run, `${shape} (${n}) via ${route}`, file);
      },
    ),
    { seed: 20261128, numRuns: 6, endOnFailure: true },
  );
});

test("the open finding's 400,000 ConfigMaps (24 MB), tiny documents and many small files: refused, naming the file", () => {
  const cms = SHAPES['block ConfigMaps']!.text(400_000);
  const started = Date.now();
  assertRefused(throughRoute('render', cms).run, '400,000 ConfigMaps via render', 'items.yaml');
  console.log(`400,000 ConfigMaps via render: refused in ${Date.now() - started} ms`);

  // Aliases cost the YAML reader a scan over those before each (hours for a million): counted apart.
  const aliases = runBundle(
    [],
    HEAD +
      `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    a: &a {}\n    s: [${Array(500_000).fill('*a').join(',')}]\n`,
  );
  assert.equal(aliases.status, 1);
  assertWithinMemory(aliases, 'aliases');
  assert.match(
    parse(aliases.stdout).results[0].message,
    /^the input holds more YAML aliases than osm-krm reads in one run: the limit of 10,000 .* is reached at line 10, column 30009$/,
  );

  // 200,000 documents of one file (7 nodes each).
  const dir = tempDir('osm-krm-many-items-');
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'docs.yaml'), tinyDocuments(200_000));
  assertRefused(runBundle(['generate', join(dir, 'docs')]), 'documents via generate', 'docs.yaml');

  // 400 files of 2,609 nodes each: each is small, together they pass the limit, at the file that does.
  mkdirSync(join(dir, 'files'));
  const keys = Array.from({ length: 1_300 }, (_, k) => `  k${k}: v\n`).join('');
  const perFile = 9 + 2 * 1_300; // the document, 8 scalars, the keys and their values
  const last = Math.floor(LIMIT / perFile);
  for (let i = 0; i < 400; i++)
    writeFileSync(
      join(dir, 'files', `f${String(i).padStart(3, '0')}.yaml`),
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n${keys}`,
    );
  const files = runBundle(['render', join(dir, 'files')]);
  assertRefused(files, 'many small files via render', `f${last}.yaml`);
  assert.ok(
    files.stderr.includes(`(with ${(last * perFile).toLocaleString('en-US')} in the inputs read before it)`),
    files.stderr,
  );
});

test('just below the limit, small items pass through byte for byte', () => {
  // 499,000 entries of one sequence: 998,000 nodes and the item's own.
  const input = SHAPES['entries of one sequence']!.text(499_000);
  const r = runBundle([], input);
  assert.equal(r.status, 0, r.stderr.slice(0, 500));
  assertWithinMemory(r, 'below the limit');
  assert.ok(r.stdout.startsWith(input), 'passed through unchanged');
});
