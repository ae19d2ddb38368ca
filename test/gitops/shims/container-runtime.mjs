#!/usr/bin/env node
// `docker` and `podman` as kustomize and kpt call them, backed by the real podman (there is no Docker engine
// here): linked into the tests' bin directory under both names, it runs the real podman with the same
// arguments, stdin and environment, so the tools run the real image (scripts/test-images.sh) with their flags.
// - OSM_KRM_SHIM_LOG, when set, is a file that receives one JSON line per call: {argv, stdin}.
// - OSM_KRM_SHIM_RUN_FLAGS, when set, holds extra flags put after `run` (space-separated), e.g. --read-only.
import { spawnSync } from 'node:child_process';
import { accessSync, appendFileSync, constants, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const here = dirname(process.argv[1]);
const podman = (process.env.PATH ?? '')
  .split(':')
  .filter((d) => d !== '' && d !== here)
  .map((d) => join(d, 'podman'))
  .find((p) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
if (podman === undefined) {
  process.stderr.write('docker (osm-krm test shim): no podman on PATH\n');
  process.exit(127);
}
const argv = process.argv.slice(2);
const isRun = argv[0] === 'run';
const stdin = isRun ? readFileSync(0) : Buffer.alloc(0);
if (process.env.OSM_KRM_SHIM_LOG)
  appendFileSync(process.env.OSM_KRM_SHIM_LOG, JSON.stringify({ argv, stdin: stdin.toString('utf8') }) + '\n');
const extra = isRun ? (process.env.OSM_KRM_SHIM_RUN_FLAGS ?? '').split(' ').filter(Boolean) : [];
const r = spawnSync(podman, isRun ? ['run', ...extra, ...argv.slice(1)] : argv, {
  input: stdin,
  stdio: ['pipe', 'inherit', 'inherit'],
});
if (r.error) {
  process.stderr.write(`docker (osm-krm test shim): ${r.error.message}\n`);
  process.exit(127);
}
process.exit(r.status ?? 1);
