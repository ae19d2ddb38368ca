// Many small items cost far more per byte than large scalars (README.md, Threat model): 24 MB of 400,000 small
// ConfigMaps took `render` 139 s at 2.6 GB before the node bound. Whatever shape carries them (block or flow items,
// JSON, documents of one file, many files, keys of one map, entries of one sequence) and whichever route reads
// them (the function's stdin, render, hydrate, generate), a run past 1,500,000 YAML nodes is refused with an
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
const LIMIT = 1_500_000;
const GiB2 = 2 * 1024 * 1024; // KiB, as GNU time reports
const LIMIT_MESSAGE =
  /holds more YAML nodes than osm-krm reads in one run: the limit of 1,500,000 \(every scalar, alias, anchor, tag, indicator, bracket, directive and document marker; to stay within 2 GiB of memory\) is reached at line \d+, column \d+/;

/**
 * Shapes of many small things, each as a ResourceList of `n` of them; `perItem`: the nodes each holds by the
 * rule the bound counts by (every token but layout: scalars, indicators, brackets...; README.md).
 */
const SHAPES: Record<string, { perItem: number; text: (n: number) => string }> = {
  'block ConfigMaps': {
    perItem: 17, // the `-`, 10 scalars, 6 `:`
    text: (n) =>
      HEAD +
      Array.from(
        { length: n },
        (_, i) => `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c${i}\n  data:\n    k: v\n`,
      ).join(''),
  },
  'flow ConfigMaps': {
    perItem: 26, // the `-`, 3 flow maps' brackets, 10 scalars, 6 `:`, 3 `,`
    text: (n) =>
      HEAD +
      Array.from(
        { length: n },
        (_, i) => `- {apiVersion: v1, kind: ConfigMap, metadata: {name: c${i}}, data: {k: v}}\n`,
      ).join(''),
  },
  'JSON items': {
    perItem: 10, // a flow map's brackets, 4 scalars, 2 `:`, 2 `,`
    text: (n) =>
      `{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[${Array.from(
        { length: n },
        (_, i) => `{"apiVersion":"v1","kind":"C${i}"}`,
      ).join(',')}]}\n`,
  },
  'keys of one map': {
    perItem: 3, // key, `:`, value
    text: (n) =>
      HEAD +
      `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: keys\n  data:\n` +
      Array.from({ length: n }, (_, i) => `    k${i}: v\n`).join(''),
  },
  'entries of one sequence': {
    perItem: 2, // `-`, value
    text: (n) =>
      HEAD +
      `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: seq\n  data:\n    s:\n` +
      '    - 1\n'.repeat(n),
  },
  'empty flow maps': {
    perItem: 3, // `{`, `}`, `,`
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

  // 200,000 documents of one file (12 nodes each).
  const dir = tempDir('osm-krm-many-items-');
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'docs.yaml'), tinyDocuments(200_000));
  assertRefused(runBundle(['generate', join(dir, 'docs')]), 'documents via generate', 'docs.yaml');

  // 600 files of 3,914 nodes each: each is small, together they pass the limit, at the file that does.
  mkdirSync(join(dir, 'files'));
  const keys = Array.from({ length: 1_300 }, (_, k) => `  k${k}: v\n`).join('');
  const perFile = 14 + 3 * 1_300; // the document, 8 scalars, 5 `:`, the keys with their `:` and values
  const last = Math.floor(LIMIT / perFile);
  for (let i = 0; i < 600; i++)
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

const LAYOUT_LIMIT = 4_000_000;
const LAYOUT_MESSAGE =
  /holds more spaces, line breaks and comments than osm-krm reads in one run outside plain block YAML: the limit of 4,000,000 \(the full YAML reader keeps an object for each; to stay within 2 GiB of memory\) is reached at line \d+, column \d+/;

/**
 * Pieces that build parser objects (documents, errors, warnings, pairs) or layout the full parser keeps, and
 * that the count missed when it listed what counts: 2 million empty documents, stray `]` or unknown
 * directives took 2.1-2.7 GB with exit 0, 30 MB of blank lines 2.4 GB. `body(n)`: n pieces in a document whose
 * anchor sends it to the full parser; `limit`/`per`: the bound they meet and what each piece counts there.
 */
const PIECES: Record<
  string,
  { per: number; layout?: true; body: (n: number) => string; prefix?: (n: number) => string }
> = {
  'empty documents': { per: 1, body: (n) => '\n' + '---\n'.repeat(n) },
  'stray ]': { per: 1, body: (n) => '\n' + ']\n'.repeat(n) },
  'unknown directives': { per: 1, body: () => '\n', prefix: (n) => '%FOO\n'.repeat(n) + '---\n' },
  '? keys': { per: 1, body: (n) => 'data:\n' + '  ?\n'.repeat(n) },
  'tags on empty entries': { per: 2, body: (n) => 'data:\n' + '- !!str\n'.repeat(n) },
  'blank lines': { per: 1, layout: true, body: (n) => '\n'.repeat(n) },
  'comment lines': { per: 2, layout: true, body: (n) => '#c\n'.repeat(n) },
};

test('pieces a list of what counts missed (documents, stray brackets, directives, `?`, tags, layout): refused within 2 GiB on every route', () => {
  for (const [name, piece] of Object.entries(PIECES)) {
    for (const route of ['stdin', 'render'] as const) {
      const n = Math.ceil(((piece.layout ? LAYOUT_LIMIT : LIMIT) * 1.1) / piece.per);
      const object = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: &a x}\n';
      const text =
        (piece.prefix?.(n) ?? '') +
        (route === 'stdin' ? `${HEAD}- ${object.replace(/\n(?=.)/g, '\n  ')}` : object) +
        piece.body(n);
      const label = `${name} (${n}) via ${route}`;
      const run = route === 'stdin' ? runBundle([], text) : throughRoute('render', text).run;
      assert.equal(run.status, 1, `${label}: exit ${run.status}\n${run.stderr.slice(0, 500)}`);
      assertWithinMemory(run, label);
      const message = route === 'stdin' ? String(parse(run.stdout)?.results?.[0]?.message) : run.stderr;
      assert.match(message, piece.layout ? LAYOUT_MESSAGE : LIMIT_MESSAGE, label);
      assert.doesNotMatch(run.stderr, /internal error|\n\s+at /, label);
    }
  }
});

test('diff reads both sides within one budget: two trees of 60% each are refused together, each read alone', () => {
  const dir = tempDir('osm-krm-many-items-');
  // 300,000 keys (900,000 nodes) on each side: each within the limit, both past it.
  const keys = Array.from({ length: 300_000 }, (_, k) => `  k${k}: v\n`).join('');
  for (const side of ['base', 'head']) {
    mkdirSync(join(dir, side));
    writeFileSync(join(dir, side, 'cm.yaml'), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n${keys}`);
  }
  const both = runBundle(['diff', join(dir, 'base'), join(dir, 'head')]);
  assert.equal(both.status, 2, both.stderr.slice(0, 500));
  assertWithinMemory(both, 'diff');
  assert.match(
    both.stderr,
    new RegExp(`cm\\.yaml ${LIMIT_MESSAGE.source} \\(with 900,0\\d\\d in the inputs read before it\\)`),
  );
  const one = runBundle(['render', join(dir, 'head')]);
  assert.equal(one.status, 0, one.stderr.slice(0, 500));
});

test('just below the limit, small items pass through byte for byte', () => {
  // 749,000 entries of one sequence: 1,498,000 nodes and the 25 of the list and its item.
  const input = SHAPES['entries of one sequence']!.text(749_000);
  const r = runBundle([], input);
  assert.equal(r.status, 0, r.stderr.slice(0, 500));
  assertWithinMemory(r, 'below the limit');
  assert.ok(r.stdout.startsWith(input), 'passed through unchanged');
});
