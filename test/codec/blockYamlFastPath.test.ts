// The ResourceList fast path must be invisible: on every input it accepts, its values and item positions
// equal the full parser's (the `yaml` package), and it accepts nothing the full parser rejects. Checked on
// every YAML file of the project and of ../shared, on each of them nested as a ResourceList item, and on
// seeded random documents and mutations of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, parseDocument, type Node } from 'yaml';
import { createBlockYamlFastPath } from '../../src/codec/blockYamlFastPath.ts';
import { countYamlNodes, NodeLimitReached } from '../../src/codec/nodeLimit.ts';
import { PARSE_OPTIONS } from '../../src/krm/yamlSchema.ts';
import { parseResourceList } from '../../src/krm/resourceList.ts';
import { REPO_ROOT, SHARED } from '../support/paths.ts';
import { rng } from '../support/rng.ts';

const fast = createBlockYamlFastPath(PARSE_OPTIONS);

/** The full parser's view: the root's values and the offsets of the `-` of root.items' block entries. */
function full(text: string): { ok: false } | { ok: true; root: unknown; dashes?: number[] } {
  let doc;
  try {
    doc = parseDocument(text, PARSE_OPTIONS);
  } catch {
    return { ok: false };
  }
  if (doc.errors.length > 0) return { ok: false };
  let root: unknown;
  try {
    root = doc.toJS();
  } catch {
    return { ok: false };
  }
  const items = isMap(doc.contents) ? (doc.contents.get('items', true) as Node | undefined) : undefined;
  if (!items || !isSeq(items) || items.flow) return { ok: true, root };
  const dashes = items.items.map((n) => {
    // The entry's `-`: on the node's line before it, or alone on a line above it (comments between).
    const start = (n as Node).range![0];
    let lineStart = text.lastIndexOf('\n', start - 1) + 1;
    let prefix = text.slice(lineStart, start);
    while (!/^ *-( |$)/.test(prefix)) {
      lineStart = text.lastIndexOf('\n', lineStart - 2) + 1;
      prefix = text.slice(lineStart, text.indexOf('\n', lineStart));
    }
    return lineStart + prefix.indexOf('-');
  });
  return { ok: true, root, dashes };
}

const stats = { files: 0, accepted: 0 };

function check(text: string, label: string): void {
  const got = fast(text);
  if (got === undefined) return;
  stats.accepted++;
  const want = full(text);
  assert.ok(want.ok, `${label}: the fast path accepted what the full parser rejects:\n${text.slice(0, 400)}`);
  assert.deepEqual(got.root, want.root, `${label}: values differ`);
  if (want.dashes !== undefined && Array.isArray((want.root as any)?.items))
    assert.deepEqual(got.itemDashes, want.dashes, `${label}: item positions differ`);
  // The node bound (src/codec/nodeLimit.ts) counts the same on both paths, and stops at the same place.
  const nodes = countYamlNodes(text, Infinity).nodes;
  assert.equal(got.nodes, nodes, `${label}: the fast path counts ${got.nodes} nodes, the lexer ${nodes}`);
  if (nodes > 0) {
    const limit = nodes - 1 - Math.floor((nodes - 1) * ((text.length % 7) / 7));
    const stop = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        if (e instanceof NodeLimitReached) return e.offset;
        throw e;
      }
      return assert.fail(`${label}: not stopped at ${limit} nodes`);
    };
    assert.equal(
      stop(() => fast(text, limit)),
      stop(() => countYamlNodes(text, limit)),
      `${label}: stopped elsewhere`,
    );
  }
}

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === '.git' || name === 'dist' || name === '.cache') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yamlFiles(p, out);
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}

function asItem(text: string): string {
  const body = text.replace(/^---\n/, '').replace(/\n$/, '');
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- ${body
    .split('\n')
    .map((l, i) => (i === 0 || l === '' ? l : `  ${l}`))
    .join('\n')}\n`;
}

test('every YAML file of the project and of ../shared, alone and as a ResourceList item', () => {
  for (const file of [...yamlFiles(REPO_ROOT), ...yamlFiles(SHARED)]) {
    const text = readFileSync(file, 'utf8');
    stats.files++;
    check(text, file);
    check(asItem(text), `${file} as an item`);
  }
  assert.ok(stats.files > 100, `only ${stats.files} files`);
  // The point of the fast path: the examples and the KRM test inputs take it.
  assert.ok(
    fast(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8')) !== undefined,
    'examples/basic takes the fast path',
  );
});

// --- seeded random documents ---------------------------------------------------------------------------

const PLAIN = [
  'a',
  'x-y',
  '0644',
  '0',
  '09',
  '-1',
  '+1',
  '1e3',
  '1.5',
  '.5',
  '1.',
  '0x1F',
  '0o17',
  '0b1',
  '.inf',
  '-.Inf',
  '.nan',
  'true',
  'True',
  'TRUE',
  'yes',
  'no',
  'on',
  'off',
  'null',
  'Null',
  '~',
  'a#b',
  'a # c',
  'http://x:8080/p',
  'a:b',
  ':a',
  '-a',
  '?a',
  'a b  c',
  '1_000',
  '2001-12-14',
  '12:30',
  'é',
  'a\tb',
  '@x',
  '`x',
  '!x',
  '&x',
  '*x',
  '%x',
  'a: b',
  'a:',
  'key: ',
  '- a',
  '[a]',
  '{a: 1}',
  '|',
  '>',
  "'",
  '"',
  '#x',
  '',
  'a\u00a0',
  '\u3000x',
  'a\x7fb',
  'a\u2028b',
  'a\x0b',
  '\ufeffa',
  'a\x00b',
  '[a, b]',
  '[a, "b", 1, ~]',
  '[a,]',
  '[ ]',
  '[a,,b]',
  '[a: 1]',
  '[[a]]',
  '[a] x',
  '[a #c]',
];
const QUOTED = [
  "'a'",
  "'it''s'",
  "''",
  "'a: b'",
  '"a\\tb"',
  '"\\u00e9\\x41\\U0001F600"',
  '"\\q"',
  '"a\\"b"',
  '""',
  '"\\N\\_\\L\\P\\0"',
  "'unterminated",
  '"a" tail',
  "'a' # c",
];

function scalar(r: () => number): string {
  const x = r();
  if (x < 0.55) return PLAIN[Math.floor(r() * PLAIN.length)]!;
  if (x < 0.85) return QUOTED[Math.floor(r() * QUOTED.length)]!;
  return x < 0.93 ? '[]' : '{}';
}

function node(r: () => number, indent: number, depth: number, lines: string[], lead: string): void {
  const pad = ' '.repeat(Math.max(0, indent));
  const kind = depth > 3 ? 0 : Math.floor(r() * 4);
  if (kind === 0) {
    lines.push(`${lead} ${scalar(r)}`.replace(/ $/, r() < 0.5 ? '' : ' '));
    return;
  }
  if (kind === 1) {
    const chomp = ['', '-', '+'][Math.floor(r() * 3)];
    lines.push(`${lead} |${chomp}`);
    const n = 1 + Math.floor(r() * 3);
    for (let i = 0; i < n; i++)
      lines.push(r() < 0.2 ? '' : `${pad}  ${r() < 0.2 ? '  ' : ''}${PLAIN[Math.floor(r() * PLAIN.length)]}`);
    if (r() < 0.3) lines.push('');
    return;
  }
  lines.push(lead);
  const n = 1 + Math.floor(r() * 3);
  const child = indent + 2 + (r() < 0.1 ? 1 : 0);
  for (let i = 0; i < n; i++) {
    if (r() < 0.1) lines.push(r() < 0.5 ? '' : `${' '.repeat(Math.floor(r() * child))}# note`);
    if (kind === 2) node(r, child, depth + 1, lines, `${' '.repeat(child)}k${Math.floor(r() * 4)}:`);
    else {
      const compact = r() < 0.5;
      if (compact && depth < 3) {
        const sub: string[] = [];
        node(r, child + 2, depth + 1, sub, `${' '.repeat(child + 2)}c${i}:`);
        sub[0] = `${' '.repeat(child)}- ${sub[0]!.trimStart()}`;
        lines.push(...sub);
      } else node(r, child, depth + 1, lines, `${' '.repeat(child)}-`);
    }
  }
}

function randomDocument(r: () => number): string {
  const lines: string[] = r() < 0.2 ? ['---'] : [];
  lines.push('apiVersion: config.kubernetes.io/v1', 'kind: ResourceList');
  node(r, r() < 0.5 ? -2 : 0, 1, lines, 'items:');
  if (r() < 0.5) node(r, 0, 2, lines, 'functionConfig:');
  return lines.join('\n') + (r() < 0.9 ? '\n' : '');
}

/** A ResourceList whose items are mappings (what the function reads), in random styles, between comments. */
function randomResourceList(r: () => number): string {
  const column = r() < 0.5 ? 0 : 2;
  const lines = ['apiVersion: config.kubernetes.io/v1', 'kind: ResourceList', 'items:'];
  const count = 1 + Math.floor(r() * 4);
  for (let i = 0; i < count; i++) {
    const entry: string[] = [];
    for (let k = 0; k < 1 + Math.floor(r() * 3); k++) node(r, column + 2, 2, entry, `${' '.repeat(column + 2)}k${k}:`);
    entry[0] = `${' '.repeat(column)}- ${entry[0]!.trimStart()}`;
    lines.push(...entry);
    if (r() < 0.3) lines.push(r() < 0.5 ? '' : `${' '.repeat(Math.floor(r() * (column + 4)))}# between`);
  }
  if (r() < 0.6) node(r, 0, 2, lines, 'functionConfig:');
  return lines.join('\n') + '\n';
}

function mutate(text: string, r: () => number): string {
  const lines = text.split('\n');
  const i = Math.floor(r() * lines.length);
  const op = Math.floor(r() * 5);
  if (op === 0) lines.splice(i, 1);
  else if (op === 1) lines.splice(i, 0, lines[i] ?? '');
  else if (op === 2) lines[i] = ' ' + (lines[i] ?? '');
  else if (op === 3) lines[i] = (lines[i] ?? '').replace(/^ /, '');
  else lines[i] = (lines[i] ?? '') + [' #c', '\t', ':', ' - x', "'"][Math.floor(r() * 5)];
  return lines.join('\n');
}

test('seeded random documents and mutations: same values and positions, or left to the full parser', () => {
  const r = rng(Number(process.env.FUZZ_SEED ?? 20261122));
  let accepted = 0;
  const count = Number(process.env.FUZZ_COUNT ?? 3000);
  for (let n = 0; n < count; n++) {
    const text = randomDocument(r);
    const before = stats.accepted;
    check(text, `random #${n}`);
    if (stats.accepted > before) accepted++;
    check(mutate(text, r), `mutation of random #${n}`);
  }
  // The generator must exercise the fast path, not only its refusals.
  assert.ok(accepted > count / 5, `the fast path took only ${accepted} of ${count} random documents`);
});

test('item texts: each item keeps its own lines, comments between items go with the item before', () => {
  const text = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
  - kind: A
    # inside A
  # between A and B
  - kind: B # tail
  - kind: C
    data: |
      x

# before functionConfig
functionConfig:
  kind: X
`;
  const list = parseResourceList(text);
  assert.deepEqual(
    list.items.map((i) => i.sourceText),
    [
      '  - kind: A\n    # inside A\n  # between A and B\n',
      '  - kind: B # tail\n',
      '  - kind: C\n    data: |\n      x\n\n',
    ],
  );
  assert.equal(list.itemIndent, 2);
  assert.deepEqual(
    list.items.map((i) => i.object.kind),
    ['A', 'B', 'C'],
  );
});

test('with default options (as yaml.parse, used for kubeconfigs): same values as the full parser', () => {
  const plain = createBlockYamlFastPath({});
  const r = rng(7);
  let accepted = 0;
  for (let n = 0; n < 1000; n++) {
    const text = randomDocument(r);
    const got = plain(text);
    if (got === undefined) continue;
    accepted++;
    const doc = parseDocument(text);
    assert.equal(doc.errors.length, 0, text);
    assert.deepEqual(got.root, doc.toJS(), text);
  }
  assert.ok(accepted > 200);
  const kubeconfig = readFileSync(join(REPO_ROOT, 'examples/kpt/cluster-info.yaml'), 'utf8');
  assert.ok(
    plain(parseDocument(kubeconfig).toJS().data.kubeconfig) !== undefined,
    'a cluster-info kubeconfig takes the fast path',
  );
});

test('item texts of random ResourceLists: in order, without overlap, and each reads back as its item', () => {
  const r = rng(Number(process.env.FUZZ_SEED ?? 99));
  let checked = 0;
  for (let n = 0; n < 1500; n++) {
    const text = randomResourceList(r);
    let list;
    try {
      list = parseResourceList(text);
    } catch {
      continue;
    }
    let from = 0;
    for (const item of list.items) {
      if (item.sourceText === undefined) continue;
      const at = text.indexOf(item.sourceText, from);
      assert.ok(at >= from, `item ${item.index} text out of order:\n${text}`);
      from = at + item.sourceText.length;
      const alone = parseResourceList(`kind: ResourceList\nitems:\n${item.sourceText}`);
      assert.deepEqual(alone.items[0]?.object, item.object, `item ${item.index} does not read back:\n${text}`);
      checked++;
    }
  }
  assert.ok(checked > 200, `only ${checked} item texts checked`);
});

test("literal blocks with an indentation indicator (our writer's `|2` for text starting with a space or a blank line)", () => {
  const bodies = [
    '\n  x\n',
    '   lead\n  x\n',
    '\n\n  a\n\n  b\n\n',
    '  a\n',
    '    deeper\n  x\n',
    '  a\n b\n',
    '\n',
    '  a\n   \n  b\n',
    ' \n  a\n',
  ];
  let accepted = 0;
  for (const header of ['|1', '|2', '|3', '|2-', '|-2', '|2+', '|+2', '|9', '|0', '|2 # c', '|22', '|-+']) {
    for (const body of bodies) {
      for (const [prefix, pad] of [
        ['', ''],
        ['a:\n  ', '  '],
        ['- ', '  '],
        ['l:\n- ', '  '],
      ] as const) {
        const text = `${prefix}k: ${header}\n${body
          .split('\n')
          .map((l, i, all) => (i === all.length - 1 || l === '' ? l : pad + l))
          .join('\n')}z: 1\n`;
        if (fast(text) !== undefined) accepted++;
        check(text, JSON.stringify(text));
        check(asItem(text), `item ${JSON.stringify(text)}`);
      }
    }
  }
  assert.ok(accepted > 50, `the fast path takes most of them (${accepted})`);
});

test('implicit keys around the 1,024-character reach of their colon: same acceptance as the full parser', () => {
  // The fast path once read a 16,384-character plain key that the package refuses (KEY_OVER_1024_CHARS).
  const before = stats.accepted;
  for (const length of [1, 1022, 1023, 1024, 1025, 1026, 16_384]) {
    for (const key of [
      'k'.repeat(length),
      `"${'k'.repeat(Math.max(0, length - 2))}"`,
      `'${'k'.repeat(Math.max(0, length - 2))}'`,
    ]) {
      check(`${key}: v\n`, `top-level key of ${key.length}`);
      check(`a:\n  ${key}: v\n`, `nested key of ${key.length}`);
      check(`a:\n- ${key}: v\n  b: c\n`, `first key of a sequence entry, ${key.length}`);
      check(asItem(`metadata:\n  annotations:\n    ${key}: v\n`), `item annotation key of ${key.length}`);
    }
  }
  assert.ok(stats.accepted - before >= 4 * 3 * 3, 'the fast path took too few of the short keys');
  for (const length of [1025, 16_384]) assert.equal(fast(`${'k'.repeat(length)}: v\n`), undefined);
});
