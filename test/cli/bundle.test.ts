// The shipped file (npm run build): a CommonJS loader with the program in a trailing comment, compiled with
// the V8 code cache beside it. The cache is an accelerator only: without it, or with a broken one, the
// function behaves byte for byte the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { REPO_ROOT } from '../support/paths.ts';

const BUNDLE = join(REPO_ROOT, 'dist', 'osm-krm.cjs');
const CACHE = join(REPO_ROOT, 'dist', 'osm-krm.cache');
const INPUT = readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'));

function program(file: string): string {
  const text = readFileSync(file, 'utf8');
  const marker = '\n/* osm-krm program\n';
  return text.slice(text.lastIndexOf(marker) + marker.length, text.lastIndexOf('*/')).replaceAll('*\x01/', '*/');
}

function run(file: string) {
  const r = spawnSync(file, [], { input: INPUT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('the bundle is an executable CommonJS file whose program V8 accepts the built cache for', () => {
  const text = readFileSync(BUNDLE, 'utf8');
  assert.match(text, /^#!\/usr\/bin\/env node\n/);
  assert.ok((statSync(BUNDLE).mode & 0o111) !== 0, 'executable');
  // esbuild writes ASCII (non-ASCII escaped), and the loader's own text never holds the program's end marker.
  assert.ok(/^[\x00-\x7f]*$/.test(text));
  const script = new Script(program(BUNDLE), { filename: BUNDLE, cachedData: readFileSync(CACHE) });
  assert.equal(script.cachedDataRejected, false, 'the code cache was made by another Node.js or for another program');
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
  copyFileSync(CACHE, join(dir, 'osm-krm.cache'));
  assert.deepEqual(run(copy), reference, 'cache beside a copy');
});
