// The `function` image (Dockerfile target, built by scripts/test-images.sh from the working tree) run by the
// real tools through the real podman: each call kustomize and kpt make is logged by the wrapper, replayed
// with the same flags plus --read-only, and its output compared byte for byte with the bundle on the same input.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../support/paths.ts';
import {
  BUNDLE,
  EXAMPLE_IMAGE,
  EXAMPLE_SECRETS,
  EXAMPLES,
  changedPaths,
  copyTree,
  run,
  runOk,
  snapshot,
  tempDir,
  toolEnv,
} from './support.ts';

interface Call {
  argv: string[];
  stdin: string;
}

function loggedCalls(log: string): Call[] {
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Call)
    .filter((c) => c.argv[0] === 'run');
}

/** Runs `cmd` with `env`, the stdin given as bytes, and returns stdout as bytes. */
function bytesOf(cmd: string, args: string[], stdin: string, env: Record<string, string>) {
  const r = spawnSync(cmd, args, { input: stdin, env, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

/** The values the call passes with `-e NAME` (from the caller's environment) or `-e NAME=value`. */
function passedEnv(argv: string[], from: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  argv.forEach((a, i) => {
    if (a !== '-e' && a !== '--env') return;
    const spec = argv[i + 1]!;
    const eq = spec.indexOf('=');
    if (eq >= 0) env[spec.slice(0, eq)] = spec.slice(eq + 1);
    else if (from[spec] !== undefined) env[spec] = from[spec]!;
  });
  return env;
}

/** Replays a logged container call with --read-only and checks it prints exactly what the bundle prints. */
function assertReplayMatchesBundle(call: Call, callerEnv: Record<string, string>): void {
  assert.equal(call.argv[call.argv.length - 1], EXAMPLE_IMAGE, 'the image is the last argument (no command override)');
  const container = bytesOf('podman', ['run', '--read-only', ...call.argv.slice(1)], call.stdin, callerEnv);
  assert.equal(container.status, 0, container.stderr);
  const bundle = bytesOf(process.execPath, [BUNDLE], call.stdin, {
    PATH: '/usr/bin:/bin',
    ...passedEnv(call.argv, callerEnv),
  });
  assert.equal(bundle.status, 0, bundle.stderr);
  assert.ok(container.stdout.length > 1000);
  assert.ok(container.stdout.equals(bundle.stdout), 'the image and the bundle print different bytes');
}

test("kubectl kustomize: the flags it passes, and the image prints the bundle's bytes (also --read-only)", () => {
  const log = join(tempDir(), 'calls.log');
  const env = toolEnv({ ...EXAMPLE_SECRETS, OSM_KRM_SHIM_LOG: log });
  runOk('kubectl', ['kustomize', '--enable-alpha-plugins', join(EXAMPLES, 'kustomize', 'container')], { env });
  const [call, ...more] = loggedCalls(log);
  assert.equal(more.length, 0);
  const args = ` ${call!.argv.join(' ')} `;
  for (const flag of [
    '--rm',
    '-i',
    '--network none',
    '--user nobody',
    '--security-opt=no-new-privileges',
    '-e OSM_CLOUD_INIT_GETTER_TOKEN',
    '-e OSM_BOOTSTRAP_TOKEN',
  ]) {
    assert.ok(args.includes(` ${flag} `), `docker run without ${flag}: ${args}`);
  }
  // The secrets travel by name, never as values on a command line.
  assert.ok(
    !args.includes(EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN) && !args.includes(EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN),
  );
  assertReplayMatchesBundle(call!, env);
});

test("kpt fn eval -i with KPT_FN_RUNTIME=podman: the flags it passes, and the image prints the bundle's bytes (also --read-only)", () => {
  const log = join(tempDir(), 'calls.log');
  const env = toolEnv({ ...EXAMPLE_SECRETS, OSM_KRM_SHIM_LOG: log, KPT_FN_RUNTIME: 'podman' });
  const pkg = copyTree(join(EXAMPLES, 'kpt'), join(tempDir(), 'pkg'));
  runOk(
    'kpt',
    [
      'fn',
      'eval',
      pkg,
      '-i',
      EXAMPLE_IMAGE,
      '--fn-config',
      join(pkg, 'osm-config.yaml'),
      '-e',
      'OSM_CLOUD_INIT_GETTER_TOKEN',
      '-e',
      'OSM_BOOTSTRAP_TOKEN',
    ],
    { env },
  );
  const [call, ...more] = loggedCalls(log);
  assert.equal(more.length, 0);
  const args = ` ${call!.argv.join(' ')} `;
  for (const flag of [
    '--rm',
    '-i',
    '--network none',
    '--user nobody',
    '--security-opt=no-new-privileges',
    '-e OSM_CLOUD_INIT_GETTER_TOKEN',
    '-e OSM_BOOTSTRAP_TOKEN',
  ]) {
    assert.ok(args.includes(` ${flag} `), `podman run without ${flag}: ${args}`);
  }
  assertReplayMatchesBundle(call!, env);
});

test("kpt fn eval -i: a function error fails the run and kpt shows the function's message, no file changes", () => {
  const env = toolEnv({ OSM_BOOTSTRAP_TOKEN: EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN, KPT_FN_RUNTIME: 'podman' });
  const pkg = copyTree(join(EXAMPLES, 'kpt'), join(tempDir(), 'pkg'));
  const before = snapshot(pkg);
  const r = run(
    'kpt',
    [
      'fn',
      'eval',
      pkg,
      '-i',
      EXAMPLE_IMAGE,
      '--fn-config',
      join(pkg, 'osm-config.yaml'),
      '-e',
      'OSM_CLOUD_INIT_GETTER_TOKEN',
      '-e',
      'OSM_BOOTSTRAP_TOKEN',
    ],
    { env },
  );
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /\[FAIL\] "localhost\/osm-krm:0\.1\.0"/);
  assert.match(
    r.stderr,
    /environment variable OSM_CLOUD_INIT_GETTER_TOKEN \(named by spec\.cluster\.cloudInitGetterToken\.env\) is not set/,
  );
  assert.deepEqual(changedPaths(before, snapshot(pkg)), []);
});

// A Kptfile `image:` entry cannot pass environment variables: here the package carries the cluster facts as
// local-config Secrets instead (as it would carry SOPS-decrypted ones); with the example's env-only config the
// function's error shows.
function localSecrets(): string {
  const local = { 'config.kubernetes.io/local-config': 'true' };
  const docs = [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'cloud-init-getter-token', namespace: 'cloud-init-settings', annotations: local },
      stringData: { token: EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN },
    },
    ...['workers-a', 'workers-b'].map((md, i) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'bootstrap.kubernetes.io/token',
      metadata: {
        name: `bootstrap-token-abcde${i}`,
        namespace: 'kube-system',
        annotations: local,
        labels: { 'machinedeployment.k8s.io/name': `kube-system-${md}` },
      },
      stringData: { 'token-id': `abcde${i}`, 'token-secret': '0123456789abcdef' },
    })),
  ];
  return docs.map((d) => JSON.stringify(d)).join('\n---\n') + '\n';
}

function kptPackage(entry: string, withSecrets: boolean): string {
  const pkg = copyTree(join(EXAMPLES, 'kpt'), join(tempDir(), 'pkg'));
  const kptfile = join(pkg, 'Kptfile');
  const text = readFileSync(kptfile, 'utf8');
  assert.match(text, /- exec: osm-krm\n/);
  writeFileSync(kptfile, text.replace('- exec: osm-krm\n', `${entry}\n`));
  if (withSecrets) {
    const config = join(pkg, 'osm-config.yaml');
    const without = readFileSync(config, 'utf8').replace(/\n  cluster:\n(    .*\n)+/, '\n');
    assert.doesNotMatch(without, /OSM_/);
    writeFileSync(config, without);
    writeFileSync(join(pkg, 'cluster-secrets.yaml'), localSecrets());
  }
  return pkg;
}

test('kpt fn render with an image: pipeline entry (KPT_FN_RUNTIME=podman) writes what the exec pipeline writes', () => {
  const env = toolEnv({ KPT_FN_RUNTIME: 'podman' });
  const exec = kptPackage('- exec: osm-krm', true);
  const image = kptPackage(`- image: ${EXAMPLE_IMAGE}`, true);
  runOk('kpt', ['fn', 'render', exec, '--allow-exec'], { env });
  runOk('kpt', ['fn', 'render', image], { env });
  const [a, b] = [snapshot(exec), snapshot(image)];
  assert.ok([...a.keys()].some((p) => p.startsWith('osm-generated/')));
  a.delete('Kptfile');
  b.delete('Kptfile');
  assert.deepEqual(b, a);
});

test("kpt fn render with an image: entry and secrets only in the environment: the function's error shows, nothing written", () => {
  const pkg = kptPackage(`- image: ${EXAMPLE_IMAGE}`, false);
  const before = snapshot(pkg);
  const r = run('kpt', ['fn', 'render', pkg], { env: toolEnv({ ...EXAMPLE_SECRETS, KPT_FN_RUNTIME: 'podman' }) });
  assert.notEqual(r.status, 0);
  assert.match(
    r.stderr,
    /environment variable OSM_CLOUD_INIT_GETTER_TOKEN \(named by spec\.cluster\.cloudInitGetterToken\.env\) is not set/,
  );
  assert.deepEqual(changedPaths(before, snapshot(pkg)), []);
});

// The cache is made at build time by the build machine's Node.js; the image's Node.js (the official 20.20.2
// binary) must accept it, or the image starts as slowly as without one (bench/imageStartup.mjs measures both).
test('in the image, V8 accepts the code cache the build wrote', () => {
  const r = runOk('podman', [
    'run',
    '--rm',
    '--network',
    'none',
    '--read-only',
    '--tmpfs',
    '/tmp',
    '--user',
    'nobody',
    '-v',
    `${join(REPO_ROOT, 'bench', 'imageStartup.mjs')}:/bench.mjs:ro`,
    '-v',
    `${join(EXAMPLES, 'basic', 'resourcelist.yaml')}:/in.yaml:ro`,
    '--entrypoint',
    'node',
    EXAMPLE_IMAGE,
    '/bench.mjs',
    '/in.yaml',
    '1',
  ]);
  const result = JSON.parse(r.stdout);
  assert.equal(result.node, 'v20.20.2');
  assert.equal(result.cacheRejected, false, JSON.stringify(result.codeCache));
  assert.ok(Object.keys(result.codeCache).length >= 2, 'the function compiled its sections');
});
