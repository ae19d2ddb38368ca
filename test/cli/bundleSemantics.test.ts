// The shipped bundle runs the sources with their own semantics, whatever the build does to them (scripts/build.mjs):
// - every code section is strict, as the ESM sources are and as the tests run them;
// - a section's exports that the build turned into data properties (withDataExports: set once the section has
//   run, instead of esbuild's live getters) are never stale: the bundle, instrumented, runs each command on the
//   examples and checks at exit that every such property still equals its binding's value, and that no section
//   with data exports is required again while it is still running (a require cycle, where its exports would be
//   missing). A future source whose exports the build's detection misses (a binding assigned again in a form it
//   does not see, a cycle it does not find) fails here on the paths the examples take.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { REPO_ROOT } from '../support/paths.ts';
// @ts-expect-error plain ESM script without types
import { bundleSections } from '../../scripts/build.mjs';

const BUNDLE = join(REPO_ROOT, 'dist', 'osm-krm.cjs');
const PREFIX = 'function sections() {/*\n';
const WRAPPER = '(function (require, module, exports) {';
const STRICT = '"use strict";';

const codeSections = () =>
  [...(bundleSections(BUNDLE) as Map<string, string>)].filter(([, t]) => t.startsWith(WRAPPER));

test('every code section of the bundle is strict, as its ESM source is', () => {
  const sections = codeSections();
  assert.ok(sections.length > 5);
  for (const [name, text] of sections) {
    const fn = new Script(text).runInThisContext() as () => void;
    // Reading `caller` of a strict function throws; of a sloppy one it gives null.
    assert.throws(() => fn.caller, TypeError, `${name} runs sloppy`);
  }
});

/** The data exports the build appended to a section: `module.exports["k"]=local;` on the section's last line. */
function dataExports(text: string): { line: string; pairs: Array<[string, string]> } | undefined {
  const lines = text.split('\n');
  const line = lines.at(-2)!;
  if (!/^(?:module\.exports\["(?:[^"\\]|\\.)*"\]=[\w$]+;)+$/.test(line)) return undefined;
  const pairs = [...line.matchAll(/module\.exports\[("(?:[^"\\]|\\.)*")\]=([\w$]+);/g)].map(
    (m) => [JSON.parse(m[1]!) as string, m[2]!] as [string, string],
  );
  return { line, pairs };
}

const HARNESS = `
const __osmRunning = new Set();
const __osmProblems = [];
const __osmChecks = [];
globalThis.__osmEnter = (name) => __osmRunning.add(name);
globalThis.__osmRan = (name, exported, live) => { __osmRunning.delete(name); __osmChecks.push([name, exported, live]); };
globalThis.__osmLoadedAgain = (name) => { if (__osmRunning.has(name)) __osmProblems.push('required while running: ' + name); };
process.once('exit', () => {
  for (const [name, exported, live] of __osmChecks)
    for (const k of Object.keys(live)) if (!Object.is(exported[k], live[k]())) __osmProblems.push('stale: ' + name + ' ' + k);
  require('node:fs').writeSync(2, JSON.stringify({ dataExports: __osmChecks.reduce((n, c) => n + Object.keys(c[2]).length, 0), problems: __osmProblems }) + '\\n');
});
`;

/** The bundle with each data-export section and the loader instrumented (no code cache: sections change). */
function instrumentedBundle(dir: string): string {
  const text = readFileSync(BUNDLE, 'latin1');
  const tableLine = /^const SECTIONS = (.*);$/m.exec(text)!;
  const table = JSON.parse(tableLine[1]!) as Record<string, [number, number, number?]>;
  const start = text.indexOf('\n' + PREFIX) + 1;
  const sections = bundleSections(BUNDLE) as Map<string, string>;
  let body = PREFIX;
  const newTable: Record<string, [number, number, number?]> = {};
  let instrumented = 0;
  for (const name of Object.keys(table)) {
    let t = sections.get(name)!;
    const data = t.startsWith(WRAPPER) ? dataExports(t) : undefined;
    if (data !== undefined) {
      const strict = t.startsWith(WRAPPER + STRICT);
      const head = WRAPPER + (strict ? STRICT : '');
      const live = data.pairs.map(([k, local]) => `${JSON.stringify(k)}: () => ${local}`).join(', ');
      const at = t.lastIndexOf(data.line) + data.line.length;
      const ran = `__osmRan(${JSON.stringify(name)}, module.exports, {${live}});`;
      t = head + `__osmEnter(${JSON.stringify(name)});` + t.slice(head.length, at) + ran + t.slice(at);
      instrumented++;
    }
    const escaped = t.includes('*/');
    const stored = escaped ? t.replaceAll('*/', '*\x01/') : t;
    newTable[name] = escaped
      ? [body.length, body.length + stored.length, 1]
      : [body.length, body.length + stored.length];
    body += stored + '\n';
  }
  assert.ok(instrumented > 5, 'sections with data exports');
  let loader = text.slice(0, start).replace(tableLine[0], `const SECTIONS = ${JSON.stringify(newTable)};`);
  loader = loader.replace("'use strict';\n", "'use strict';\n" + HARNESS);
  const reload = 'const done = loaded.get(name);\n  if (done !== undefined) return done.exports;';
  assert.ok(loader.includes(reload), 'the loader returns a loaded section as the harness expects');
  loader = loader.replace(
    reload,
    'const done = loaded.get(name);\n  if (done !== undefined) { __osmLoadedAgain(name); return done.exports; }',
  );
  const file = join(dir, 'osm-krm.cjs');
  writeFileSync(file, loader + body + '*/}\n', 'latin1');
  return file;
}

test("the bundle's data exports are never stale and never read before their section ran", () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-bundle-semantics-'));
  try {
    const bundle = instrumentedBundle(dir);
    const secrets = join(dir, 'secrets');
    mkdirSync(secrets);
    writeFileSync(join(secrets, 'cloud-init-getter-token'), 'example-cloud-init-getter-token');
    writeFileSync(join(secrets, 'bootstrap-token'), 'abcdef.0123456789abcdef');
    const env = {
      ...process.env,
      OSM_CLOUD_INIT_GETTER_TOKEN: 'example-cloud-init-getter-token',
      OSM_BOOTSTRAP_TOKEN: 'abcdef.0123456789abcdef',
      OSM_KRM_SECRETS_DIR: secrets,
    };
    const basic = readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8');
    const runs = [
      { args: [], input: basic, cwd: REPO_ROOT },
      { args: ['generate'], input: '', cwd: join(REPO_ROOT, 'examples/argocd/app') },
      { args: ['hydrate', 'examples/flux/source', join(dir, 'hydrated')], input: '', cwd: REPO_ROOT },
      { args: ['render', 'examples/flux/source'], input: '', cwd: REPO_ROOT },
      { args: ['lint', 'examples/flux/source'], input: '', cwd: REPO_ROOT },
    ];
    for (const run of runs) {
      const r = spawnSync(process.execPath, [bundle, ...run.args], {
        cwd: run.cwd,
        input: run.input,
        env,
        encoding: 'utf8',
      });
      const report = r.stderr
        .split('\n')
        .filter((l) => l.startsWith('{"dataExports"'))
        .pop();
      assert.ok(report !== undefined, `osm-krm ${run.args.join(' ')}: no report (status ${r.status}): ${r.stderr}`);
      const { dataExports: checked, problems } = JSON.parse(report) as { dataExports: number; problems: string[] };
      assert.deepEqual(problems, [], `osm-krm ${run.args.join(' ')}`);
      assert.ok(checked > 50, `osm-krm ${run.args.join(' ')} checked ${checked} data exports`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
