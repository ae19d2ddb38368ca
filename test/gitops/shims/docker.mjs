#!/usr/bin/env node
// A stand-in for `docker` (there is no Docker engine here): kustomize and kpt run container KRM functions
// with `docker run ... IMAGE`; this runs the built bundle instead, as the container would.
// - Only the image named by OSM_KRM_SHIM_IMAGE is "available"; any other image fails like a missing one.
// - Like a container, the function sees only the variables passed with -e/--env (NAME or NAME=value).
// - OSM_KRM_SHIM_LOG, when set, is a file that receives one JSON line per call: {argv, stdin}.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bundle = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dist', 'osm-krm.cjs');
const argv = process.argv.slice(2);
const fail = (msg, code = 125) => {
  process.stderr.write(`docker (osm-krm test shim): ${msg}\n`);
  process.exit(code);
};

if (argv[0] === 'version') {
  // kpt checks the client version (`docker version --format {{.Client.Version}}`) before running containers.
  process.stdout.write(argv.includes('--format') ? '24.0.0\n' : 'Client:\n Version:           24.0.0\n');
  process.exit(0);
}
if (argv[0] !== 'run') fail(`unsupported command ${JSON.stringify(argv[0] ?? '')}`);

// Flags kustomize and kpt pass to `docker run`; those taking a value list it here.
const WITH_VALUE = new Set(['-a', '--attach', '--network', '--user', '-u', '--security-opt', '--pull', '--mount', '-v', '--volume', '--name', '-w', '--workdir']);
const env = { PATH: process.env.PATH ?? '' };
let i = 1;
for (; i < argv.length; i++) {
  const a = argv[i];
  if (!a.startsWith('-')) break;
  if (a === '-e' || a === '--env') {
    const spec = argv[++i] ?? '';
    const eq = spec.indexOf('=');
    if (eq >= 0) env[spec.slice(0, eq)] = spec.slice(eq + 1);
    else if (process.env[spec] !== undefined) env[spec] = process.env[spec];
  } else if (WITH_VALUE.has(a)) {
    i++;
  } else if (!['--rm', '-i', '--interactive', '-t'].includes(a) && !a.includes('=')) {
    fail(`unsupported flag ${a}`);
  }
}
const image = argv[i];
if (image === undefined) fail('no image given');
if (image !== process.env.OSM_KRM_SHIM_IMAGE) fail(`Unable to find image '${image}' locally`);

const stdin = readFileSync(0);
if (process.env.OSM_KRM_SHIM_LOG) appendFileSync(process.env.OSM_KRM_SHIM_LOG, JSON.stringify({ argv, stdin: stdin.toString('utf8') }) + '\n');
const r = spawnSync(process.execPath, [bundle, ...argv.slice(i + 1)], { input: stdin, env, stdio: ['pipe', 'inherit', 'inherit'] });
process.exit(r.status ?? 1);
