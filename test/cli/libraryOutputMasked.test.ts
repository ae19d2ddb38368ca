// What a library prints by itself goes through the mask too. The `yaml` package warns through
// process.emitWarning, which Node's own listener prints on a later tick, past every writer of ours; a console
// call writes to the process's streams directly (console.log to stdout, inside the ResourceList). Today every
// command finishes before that tick; this runs the bundle with process.exit deferred, as a command that awaits
// I/O would be, and prints a run's secret through each of those doors after the run registered it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../support/paths.ts';
import { tempDir } from '../review/reviewSupport.ts';

const BUNDLE = join(REPO_ROOT, 'dist', 'osm-krm.cjs');
const SECRET = 'S3cretValue-from-a-Secret';

const RESOURCE_LIST = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: Secret
  metadata: {name: credentials, namespace: default}
  stringData: {token: ${SECRET}}
`;

// Loaded before the bundle (node -r): when the run is done, print the secret through every door a library
// has, then leave a little later, as a command with pending I/O would.
const DEFERRED_EXIT = `const exit = process.exit;
process.exit = (code) => {
  process.emitWarning('a library warns about ${SECRET}');
  console.warn('console.warn ${SECRET}');
  console.error('console.error ${SECRET}');
  console.log('console.log ${SECRET}');
  console.info('console.info ${SECRET}');
  setTimeout(() => exit(code), 50);
};
`;

/** The bundle on RESOURCE_LIST with `preload` loaded before it (node -r). */
function runWithPreload(preload: string) {
  const dir = tempDir();
  writeFileSync(join(dir, 'preload.cjs'), preload);
  return spawnSync(process.execPath, ['-r', join(dir, 'preload.cjs'), BUNDLE], {
    input: RESOURCE_LIST,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
    timeout: 60_000,
  });
}

test("a library's process warning and console output reach stderr through the mask, never stdout", () => {
  const r = runWithPreload(DEFERRED_EXIT);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, new RegExp(SECRET));
  for (const line of [
    'osm-krm: warning: Warning: a library warns about [redacted]',
    'console.warn [redacted]',
    'console.error [redacted]',
    'console.log [redacted]',
    'console.info [redacted]',
  ])
    assert.ok(r.stderr.split('\n').includes(line), `${line}\n--- stderr:\n${r.stderr}`);
  // stdout holds the ResourceList alone (the input Secret passes through as given, as every item does).
  assert.doesNotMatch(r.stdout, /console\.|warns about/);
  assert.match(r.stdout, /^apiVersion: config\.kubernetes\.io\/v1\nkind: ResourceList\n/);
});

// Loaded before the bundle: the first write of the ResourceList fails as a run out of memory would (V8's
// "Invalid string length" when a string passes its limit), with the run's secret in the message.
const FAILING_WRITE = `const fs = require('node:fs');
const writeSync = fs.writeSync;
let failed = false;
fs.writeSync = function (fd, ...rest) {
  if (fd === 1 && !failed) {
    failed = true;
    throw new RangeError('Invalid string length near ${SECRET}');
  }
  return writeSync.call(this, fd, ...rest);
};
`;

test('a function run that fails outside its own error handling still prints a ResourceList with the error, masked', () => {
  const r = runWithPreload(FAILING_WRITE);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(
    r.stdout,
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nresults:\n- severity: error\n  message: "osm-krm could not finish: Invalid string length near [redacted]"\n',
  );
  assert.match(
    r.stderr,
    /^osm-krm: error: not enough resources to finish \(Invalid string length near \[redacted\]\)/m,
  );
  assert.doesNotMatch(r.stdout + r.stderr, new RegExp(SECRET));
});
