// Big, deep and strange inputs still get a ResourceList (issue #17 §3, #14 item 9): whatever arrives on
// stdin, the built function prints a ResourceList and exits 0 or 1, never an internal error with an empty
// stdout; bytes that are not UTF-8 are refused naming the item; aliases are bounded by what they expand to.
import assert from 'node:assert/strict';
import { constants } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { parse } from 'yaml';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE, EXAMPLE_SECRETS, EXAMPLES, copyTree, tempDir, toolEnv } from '../gitops/support.ts';
import { runHydrateCommand } from '../../src/cli/hydrateCommand.ts';
import { runFunction } from '../../src/cli/runFunction.ts';
import { MAX_INPUT_BYTES } from '../../src/krm/inputBounds.ts';
import { noEnvironment } from '../support/runInProcess.ts';

const HEAD = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n';

function configMap(name: string, data: string): string {
  return `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: ${name}\n    namespace: default\n  data:\n${data}`;
}

/** The bundle as kpt runs it: input on stdin, and what it printed. */
function runBundle(input: string | Buffer): { status: number | null; stdout: string; stderr: string; out: any } {
  const r = spawnSync(process.execPath, [BUNDLE], { input, encoding: 'utf8', maxBuffer: 1 << 30, timeout: 120_000 });
  let out: any;
  try {
    out = parse(r.stdout);
  } catch (e) {
    assert.fail(
      `stdout is not YAML (${(e as Error).message}): ${r.stdout.slice(0, 300)}\nstderr: ${r.stderr.slice(0, 500)}`,
    );
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, out };
}

function inProcess(input: string | Uint8Array) {
  let stdout = '';
  let stderr = '';
  const exitCode = runFunction(input, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: noEnvironment,
  });
  return { exitCode, stdout, stderr, out: parse(stdout, { maxAliasCount: -1 }) };
}

function assertRefused(
  r: { status?: number | null; exitCode?: number; out: any; stderr: string },
  message: RegExp,
): any {
  assert.equal(r.status ?? r.exitCode, 1, r.stderr);
  assert.equal(r.out?.kind, 'ResourceList');
  const errors = (r.out.results ?? []).filter((x: any) => x.severity === 'error');
  assert.equal(errors.length, 1, JSON.stringify(r.out.results));
  assert.match(errors[0].message, message);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
  return errors[0];
}

test('deeply nested JSON and YAML (flow and block) get an error result, not an internal error', () => {
  const nest = (open: string, close: string, n: number) => open.repeat(n) + close.repeat(n);
  const cases: Record<string, string> = {
    'JSON 5,000 levels': `{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"a":${nest('[', ']', 5000)}}}]}`,
    'JSON 300 levels': `{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"a":${nest('{"k":', '}', 300).replace(/\{"k":\}/, '1')}}}]}`,
    'YAML flow 20,000 levels': HEAD + configMap('x', `    a: ${nest('[', ']', 20000)}\n`),
    'YAML block 1,000 levels':
      HEAD +
      configMap(
        'x',
        Array.from({ length: 1000 }, (_, i) => `${'  '.repeat(i + 2)}k:\n`).join('') + `${'  '.repeat(1002)}v\n`,
      ),
  };
  for (const [label, input] of Object.entries(cases)) {
    const r = runBundle(input);
    assertRefused(r, /the input is nested more than 256 levels deep/);
    assert.ok(!r.stdout.includes('\n- apiVersion'), `${label}: no items on error`);
  }
  // Real manifests nest a few dozen levels: 100 is fine.
  const ok = inProcess(HEAD + configMap('x', `    a: ${nest('[', ']', 100)}\n`));
  assert.equal(ok.exitCode, 0, ok.stdout);
  assert.doesNotMatch(ok.stdout, /nested/);
});

test('a ResourceList larger than a JavaScript string can hold, streamed to the bundle: an error result, exit 1', async () => {
  // A block literal of short lines, streamed in chunks: the test never holds the whole input.
  const line = Buffer.from('      ' + 'x'.repeat(57) + '\n'); // 64 bytes
  const chunk = Buffer.concat(Array.from({ length: (16 << 20) / 64 }, () => line));
  // More than one string holds; the function stops reading at its own, lower limit (and the rest gets EPIPE).
  const total = constants.MAX_STRING_LENGTH + (32 << 20);
  assert.ok(MAX_INPUT_BYTES < constants.MAX_STRING_LENGTH);
  const child = spawn(process.execPath, [BUNDLE], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s) => (stderr += s));
  const exited = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
  child.stdin.on('error', () => {}); // EPIPE: the function stops reading at its limit
  const write = (b: Buffer) => new Promise<boolean>((res) => child.stdin.write(b, (err) => res(!err)));
  let sent = 0;
  if (await write(Buffer.from(HEAD + configMap('huge', '    x: |\n')))) {
    while (sent < total && (await write(chunk))) sent += chunk.length;
  }
  child.stdin.end();
  const status = await exited;
  const out = parse(stdout);
  assertRefused({ status, out, stderr }, /the input is larger than 96 MiB, the most osm-krm reads/);
});

test('bytes that are not UTF-8 are refused naming the item, never replaced by U+FFFD', () => {
  const good = configMap('fine', '    a: b\n');
  const bad = Buffer.concat([
    Buffer.from(HEAD + good + configMap('latin1', '    text: caf')),
    Buffer.from([0xe9]),
    Buffer.from('\n'),
  ]);
  for (const r of [runBundle(bad), inProcess(bad)]) {
    const e = assertRefused(
      r,
      /the input is not valid UTF-8: byte 0xe9 at line 17, column 14; osm-krm refuses to rewrite it \(in items\[1\]\)/,
    );
    assert.deepEqual(e.resourceRef, { apiVersion: 'v1', kind: 'ConfigMap', name: 'latin1', namespace: 'default' });
    assert.ok(!r.stdout.includes('\uFFFD'));
  }
  // Overlong encodings, surrogates and truncated sequences are not UTF-8 either.
  for (const bytes of [
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xe2, 0x82],
    [0xf4, 0x90, 0x80, 0x80],
  ]) {
    const input = Buffer.concat([
      Buffer.from(HEAD + configMap('x', '    a: "')),
      Buffer.from(bytes),
      Buffer.from('"\n'),
    ]);
    assertRefused(inProcess(input), /is not valid UTF-8: byte 0x[cef][0-9a-f] at line 10, column 9/);
  }
  // Valid multi-byte UTF-8 passes through byte for byte.
  const utf8 = HEAD + configMap('utf8', '    text: "café ✓ 𝄞"\n');
  const r = inProcess(Buffer.from(utf8));
  assert.ok(r.stdout.includes('    text: "café ✓ 𝄞"\n'));
});

test('more than 100 aliases in a ResourceList are fine; an alias bomb is refused by its expanded size', () => {
  const items = Array.from({ length: 150 }, (_, i) =>
    `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm-${i}\n    labels: ${i === 0 ? '&labels' : '*labels'}\n      team: a\n`.replace(
      /\*labels\n {6}team: a\n/,
      '*labels\n',
    ),
  );
  const r = inProcess(HEAD + items.join(''));
  assert.doesNotMatch(r.stdout, /exhaustion|alias/i);
  assert.equal(r.out.items.length, 150);
  for (const o of r.out.items) assert.deepEqual(o.metadata.labels, { team: 'a' });

  const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++)
    levels.push(
      `${'abcdefghi'[i]}: &${'abcdefghi'[i]} [${Array(10)
        .fill('*' + 'abcdefghi'[i - 1])
        .join(',')}]`,
    );
  const bomb = `${HEAD}- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: bomb\n  data:\n${levels.map((l) => '    ' + l + '\n').join('')}`;
  const started = Date.now();
  assertRefused(
    runBundle(bomb),
    /the input: its aliases expand to more than 16 MiB \(twice the input plus 16 MiB\); refusing it as an alias bomb/,
  );
  assert.ok(Date.now() - started < 60_000, 'guard against a hang');
});

test("an alias in one item to an anchor elsewhere: the output is valid YAML with the input's values (read by PyYAML)", () => {
  // The anchor sits in the functionConfig (never output) and in an item the alias item does not contain.
  const input = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: fc
  data: &shared
    from: functionConfig
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: anchor
  data: &mine
    k: v
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: alias # a comment
  data: *shared
  binaryData: *mine
`;
  const r = inProcess(input);
  const py = spawnSync(
    'python3',
    ['-c', 'import sys, json, yaml; print(json.dumps(yaml.safe_load(sys.stdin)["items"]))'],
    { input: r.stdout, encoding: 'utf8' },
  );
  assert.equal(py.status, 0, `PyYAML cannot read the output: ${py.stderr}\n${r.stdout}`);
  const items = JSON.parse(py.stdout).filter((o: any) => o.kind === 'ConfigMap');
  const byName = Object.fromEntries(items.map((o: any) => [o.metadata.name, o]));
  assert.deepEqual(byName.alias.data, { from: 'functionConfig' });
  assert.deepEqual(byName.alias.binaryData, { k: 'v' });
  assert.deepEqual(byName.anchor.data, { k: 'v' });
  // The self-contained item keeps its exact text.
  assert.ok(r.stdout.includes('  data: &mine\n    k: v\n'));
});

test('large scalars in an unrelated item pass through byte for byte within the memory target, or are refused', () => {
  const GiB2 = 2 * 1024 * 1024; // KiB, as GNU time reports
  const cases: Record<string, string> = {
    '30 MB plain': `    x: ${'y'.repeat(30e6)}\n`,
    '2 million lines': '    x: |\n' + '      line\n'.repeat(2e6),
    '3 million escapes': `    x: "${'\\n\\t\\u00e9\\"'.repeat(3e6)}"\n`,
    '1 million folded lines (full parser)': '    x: >\n' + '      line\n'.repeat(1e6),
  };
  for (const [label, data] of Object.entries(cases)) {
    const input = HEAD + configMap('big', data);
    const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, BUNDLE], {
      input,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      timeout: 120_000,
    });
    assert.equal(r.status, 0, `${label}: ${r.stderr.slice(0, 500)}`);
    // Byte for byte, then only the function's results (the no-config notice).
    assert.ok(
      r.stdout.slice(0, input.length) === input && /^(results:\n[\s\S]*)?$/.test(r.stdout.slice(input.length)),
      `${label}: passed through unchanged`,
    );
    const rssKiB = Number(r.stderr.trim().split('\n').pop());
    assert.ok(rssKiB > 0 && rssKiB < GiB2, `${label}: peak RSS ${rssKiB} KiB`);
  }
  // Beyond what the full parser reads within the target: refused, with the reason.
  const folded = HEAD + configMap('big', '    x: >\n' + '      line\n'.repeat(6.2e6));
  assertRefused(
    runBundle(folded),
    /the input is larger than 64 MiB and not plain block YAML .* \(to stay within 2 GiB of memory\)/,
  );
});

test('the files of hydrate and generate get the same bounds: nesting, UTF-8, aliases by expanded size', () => {
  const root = tempDir('osm-krm-file-bounds-');
  const src = copyTree(join(EXAMPLES, 'flux', 'source'), join(root, 'src'));
  const hydrate = () => {
    let stderr = '';
    const code = runHydrateCommand(['src', 'out'], {
      stdout: () => {},
      stderr: (s) => (stderr += s),
      env: { ...toolEnv(), ...EXAMPLE_SECRETS },
      cwd: root,
    });
    return { code, stderr };
  };
  const cm = (name: string, data: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: kube-system\ndata:\n${data}`;
  // 150 aliases in one object (hand-written YAML does this): read like any file.
  writeFileSync(
    join(src, 'aliases.yaml'),
    cm('aliases', Array.from({ length: 150 }, (_, i) => (i === 0 ? '  k0: &v value\n' : `  k${i}: *v\n`)).join('')),
  );
  const ok = hydrate();
  assert.equal(ok.code, 0, ok.stderr);
  const cases: Array<[string, string | Buffer, RegExp]> = [
    [
      'deep.yaml',
      cm('deep', `  a: ${'['.repeat(3000)}${']'.repeat(3000)}\n`),
      /deep\.yaml is nested more than 256 levels deep/,
    ],
    [
      'latin1.yaml',
      Buffer.concat([Buffer.from(cm('latin1', '  a: caf')), Buffer.from([0xe9, 0x0a])]),
      /latin1\.yaml is not valid UTF-8: byte 0xe9 at line 7, column 9/,
    ],
    [
      'dangling.yaml',
      cm('a', '  a: 1\n') + '---\n' + cm('b', '  b: *nowhere\n'),
      /dangling\.yaml: document 2: the alias at line 15, column 6 refers to no anchor before it/,
    ],
    [
      'bomb.yaml',
      cm(
        'bomb',
        '  a: &a [x,x,x,x,x,x,x,x,x,x]\n' +
          Array.from(
            { length: 8 },
            (_, i) =>
              `  ${'bcdefghi'[i]}: &${'bcdefghi'[i]} [${Array(10)
                .fill('*' + 'abcdefghi'[i])
                .join(',')}]\n`,
          ).join(''),
      ),
      /bomb\.yaml: document 1: its aliases expand to more than 16 MiB/,
    ],
  ];
  for (const [name, content, message] of cases) {
    writeFileSync(join(src, name), content);
    const r = hydrate();
    assert.equal(r.code, 1, name);
    assert.match(r.stderr, message, name);
    assert.doesNotMatch(r.stderr, /internal error/);
    writeFileSync(join(src, name), cm(name.replace('.yaml', ''), '  a: b\n'));
  }
});
