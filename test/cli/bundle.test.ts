// The shipped file (npm run build): a CommonJS loader and the program's sections in the comment of its last
// function, each compiled when first used with its V8 code cache from the cache file beside it. The cache is an
// accelerator only: without it, or with a broken one, the function behaves byte for byte the same. A plain
// render loads none of the sections it does not use (other commands, the review tools, SOPS).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/paths.ts';
import { embeddedProfiles } from '../../src/profiles/embeddedProfiles.ts';
// @ts-expect-error plain ESM script without types
import { bundleCaches, bundleSections, withDataExports, withoutCommentClose } from '../../scripts/build.mjs';
import { transform } from 'esbuild';

const BUNDLE = join(REPO_ROOT, 'dist', 'osm-krm.cjs');
const CACHE = join(REPO_ROOT, 'dist', 'osm-krm.cache');
const INPUT = readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'));
const sections = bundleSections(BUNDLE) as Map<string, string>;

function run(
  file: string,
  args: string[] = [],
  input: string | Buffer = INPUT,
  env: Record<string, string> = {},
  cwd = REPO_ROOT,
) {
  const r = spawnSync(file, args, { input, encoding: 'utf8', cwd, env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The sections a run compiled, and whether V8 took each one's cache (the loader's own report). */
function loadedSections(
  args: string[] = [],
  input: string | Buffer = INPUT,
  env: Record<string, string> = {},
  cwd = REPO_ROOT,
) {
  const r = run(BUNDLE, args, input, { ...env, OSM_KRM_CODE_CACHE_REPORT: '1' }, cwd);
  assert.equal(r.status, 0, r.stderr);
  const line = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('{"codeCache"'))
    .pop();
  return JSON.parse(line!).codeCache as Record<string, string>;
}

// Text each kind of code carries whatever the minifier does (string literals survive it).
const MARKERS = {
  'age encryption': 'age-encryption.org/v1',
  SOPS: 'ENC[AES256_GCM',
  'the review tools': 'its OperatingSystemConfig and Secrets are removed from the output',
  lint: 'curl -k towards the API server',
  hydrate: '.osm-krm-hydrate',
  bom: 'is set differently on different paths of',
};

test('the bundle is an executable CommonJS file of ASCII whose every section V8 accepts the built cache for', () => {
  const text = readFileSync(BUNDLE, 'utf8');
  assert.match(text, /^#!\/usr\/bin\/env node\n/);
  assert.ok((statSync(BUNDLE).mode & 0o111) !== 0, 'executable');
  // esbuild writes ASCII (non-ASCII escaped), which the loader relies on.
  assert.ok(/^[\x00-\x7f]*$/.test(text));
  const caches = bundleCaches(CACHE) as Map<string, Buffer>;
  assert.ok(caches.has('main.js'));
  for (const [name, data] of caches) {
    const script = new Script(sections.get(name)!, { filename: BUNDLE, cachedData: data });
    assert.equal(
      script.cachedDataRejected,
      false,
      `${name}: the code cache was made by another Node.js or for another program`,
    );
  }
});

test('no section of the bundle has to be unescaped at start-up (a copy of it, flattened again by V8)', () => {
  const table = JSON.parse(/^const SECTIONS = (.*);$/m.exec(readFileSync(BUNDLE, 'latin1'))![1]!) as Record<
    string,
    number[]
  >;
  assert.deepEqual(
    Object.entries(table)
      .filter(([, at]) => at[2] === 1)
      .map(([name]) => name),
    [],
  );
});

test('a section keeps its meaning without */: strings, templates and regular expressions are rewritten, the rest is refused', () => {
  const code = [
    'module.exports = [',
    '  "*/", \'a*/b\', `x*/${1}*/y`, `*/`,',
    '  /#.*/.exec("k: v # c*/")[0], /[*/]+/.exec("a*/b")[0], /a\\*/.test("a*"), /^ */g.source.length > 0,',
    '];',
  ].join('\n');
  const rewritten = withoutCommentClose(code) as string;
  assert.ok(!rewritten.includes('*/'));
  const value = (text: string) => {
    const m = { exports: undefined };
    new Script(`(function (module) {${text}\n})`).runInThisContext()(m);
    return m.exports;
  };
  assert.deepEqual(value(rewritten), value(code));
  // Where the rewrite would change what the program sees, the section is escaped instead.
  assert.equal(withoutCommentClose('module.exports = String.raw`*/`;'), undefined);
  assert.equal(withoutCommentClose('/* a comment */ module.exports = 1;'), undefined);
  assert.equal(withoutCommentClose('module.exports = 1;'), 'module.exports = 1;');
});

test("a section's exports are plain values, except a name assigned again, which stays a live binding", async () => {
  const source = [
    'export function f() { return 1; }',
    'export class K {}',
    'export const c = { n: 2 };',
    'export let counter = 0;',
    'export function bump() { counter++; }',
    'export let late;',
    'late = "set";',
  ].join('\n');
  for (const minify of [false, true]) {
    const cjs = (await transform(source, { format: 'cjs', minify })).code;
    const rewritten = withDataExports(cjs) as string;
    assert.notEqual(rewritten, undefined);
    const m = { exports: {} as Record<string, unknown> };
    new Script(`(function (module, exports) {${rewritten}\n})`).runInThisContext()(m, m.exports);
    const descriptor = (name: string) => Object.getOwnPropertyDescriptor(m.exports, name)!;
    for (const name of ['f', 'K', 'c', 'bump'])
      assert.ok('value' in descriptor(name), `${name} is data (minify ${minify})`);
    for (const name of ['counter', 'late']) assert.ok('get' in descriptor(name), `${name} is live (minify ${minify})`);
    assert.equal((m.exports.f as () => number)(), 1);
    assert.deepEqual(m.exports.c, { n: 2 });
    assert.equal(m.exports.late, 'set');
    (m.exports.bump as () => void)();
    assert.equal(m.exports.counter, 1);
  }
  assert.equal(withDataExports('module.exports = 1;'), undefined);
  assert.equal(withDataExports((await transform('export const a = 1;', { format: 'cjs' })).code, true), undefined);
});

test("the function's shared sections export plain values (no getter per use of another section's function)", () => {
  for (const [name, text] of bundleSections(BUNDLE))
    if (name.startsWith('chunk-')) assert.ok(text.includes('module.exports["'), name);
});

test("a plain render compiles only the function's sections, each with its cache; the other commands theirs", () => {
  const function_ = loadedSections();
  assert.ok(Object.keys(function_).length >= 2);
  for (const [name, state] of Object.entries(function_)) {
    assert.equal(state, 'accepted', name);
    for (const [what, marker] of Object.entries(MARKERS))
      assert.ok(!sections.get(name)!.includes(marker), `the function loaded ${what} (${name})`);
  }
  // Every marker is somewhere: the check above looks for what is there.
  for (const [what, marker] of Object.entries(MARKERS))
    assert.ok(
      [...sections.values()].some((t) => t.includes(marker)),
      what,
    );
  // The Argo CD and Flux routes are trained too.
  const secrets = mkdtempSync(join(tmpdir(), 'osm-krm-bundle-secrets-'));
  writeFileSync(join(secrets, 'cloud-init-getter-token'), 'example-cloud-init-getter-token');
  writeFileSync(join(secrets, 'bootstrap-token'), 'abcdef.0123456789abcdef');
  const generate = loadedSections(
    ['generate'],
    '',
    { OSM_KRM_SECRETS_DIR: secrets },
    join(REPO_ROOT, 'examples/argocd/app'),
  );
  assert.ok(Object.keys(generate).length > Object.keys(function_).length);
  assert.deepEqual(
    Object.entries(generate).filter(([, s]) => s !== 'accepted'),
    [],
  );
});

test('same output with the cache, without it, and with a corrupt one', () => {
  const reference = run(BUNDLE);
  assert.equal(reference.status, 0, reference.stderr);
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-bundle-'));
  const copy = join(dir, 'osm-krm.cjs');
  copyFileSync(BUNDLE, copy);
  assert.deepEqual(run(copy), reference, 'no cache');
  writeFileSync(join(dir, 'osm-krm.cache'), Buffer.alloc(4096, 7));
  assert.deepEqual(run(copy), reference, 'corrupt cache');
  writeFileSync(join(dir, 'osm-krm.cache'), '{"main.js":[0,100000]}\n' + 'x'.repeat(10));
  assert.deepEqual(run(copy), reference, 'truncated cache');
  copyFileSync(CACHE, join(dir, 'osm-krm.cache'));
  assert.deepEqual(run(copy), reference, 'cache beside a copy');
});

test("the embedded profiles the bundle reads from its data section are the source's", () => {
  const list = {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: [],
    functionConfig: {
      apiVersion: 'osm-krm.dev/v1alpha1',
      kind: 'OperatingSystemManager',
      metadata: { name: 'osm' },
      spec: { namespace: 'kube-system', defaultProfiles: { emit: true } },
    },
  };
  const r = run(BUNDLE, [], JSON.stringify(list));
  assert.equal(r.status, 0, r.stderr);
  const emitted = (parse(r.stdout).items as any[]).filter((i) => i.kind === 'OperatingSystemProfile');
  const strip = (o: any) => ({ ...o, metadata: { name: o.metadata.name, namespace: o.metadata.namespace } });
  assert.deepEqual(emitted.map(strip), embeddedProfiles().map(strip));
});

test('SOPS mode loads age encryption from its section and encrypts for the recipient', () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-bundle-sops-'));
  const key = join(dir, 'key.txt');
  assert.equal(spawnSync('age-keygen', ['-o', key]).status, 0);
  const recipient = /public key: (age1\S+)/.exec(readFileSync(key, 'utf8'))![1]!;
  const src = join(dir, 'source');
  spawnSync('cp', ['-r', join(REPO_ROOT, 'examples/flux/source'), src]);
  const config = join(src, 'osm-config.yaml');
  writeFileSync(
    config,
    readFileSync(config, 'utf8').trimEnd() +
      `\n  sops:\n    ageRecipients: [${recipient}]\n    dataKeySeed: {env: OSM_SOPS_SEED}\n`,
  );
  const env = {
    OSM_CLOUD_INIT_GETTER_TOKEN: 'example-cloud-init-getter-token',
    OSM_BOOTSTRAP_TOKEN: 'abcdef.0123456789abcdef',
    OSM_SOPS_SEED: 'bundle-test-seed-0123456789abcdefghijklmnop',
  };
  const loaded = loadedSections(['hydrate', src, join(dir, 'out')], '', env);
  assert.ok(
    Object.keys(loaded).some((name) => sections.get(name)!.includes(MARKERS['age encryption'])),
    JSON.stringify(loaded),
  );
  const secretFile = readdirSync(join(dir, 'out'), { recursive: true })
    .map(String)
    .find((f) => /secret_.*bootstrap-config\.yaml$/.test(f))!;
  const doc = parse(readFileSync(join(dir, 'out', secretFile), 'utf8'));
  const enc = join(dir, 'enc.age');
  writeFileSync(enc, doc.sops.age[0].enc);
  const d = spawnSync('age', ['-d', '-i', key, enc]);
  assert.equal(d.status, 0, String(d.stderr));
  assert.equal(d.stdout.length, 32, 'the data key');
});
