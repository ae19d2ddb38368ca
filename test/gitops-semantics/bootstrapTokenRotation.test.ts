// Bootstrap tokens that expire, rotate and never strand a node (#24 §3): windows from SOURCE_DATE_EPOCH or the
// clock, the current and the previous window's token Secrets, byte-identical output within a window, warnings
// before tokens run out, and the clock entering nowhere else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runOn } from '../support/runInProcess.ts';
import { REPO_ROOT } from '../support/paths.ts';
import type { Environment } from '../../src/cluster/valueSource.ts';

const KEY = 'a-long-enough-secret-key-for-tests';
const DAY = 86400;
/** 2026-12-01T00:00:00Z: a window edge for any period dividing a day. */
const T0 = 1796083200;

function list(
  cluster: Record<string, unknown> = {
    bootstrapTokenKey: { env: 'OSM_TOKEN_KEY' },
    bootstrapTokenRotation: { period: '24h', overlap: '24h' },
  },
) {
  const l = parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'));
  l.items = l.items.filter((i: any) => i.type !== 'bootstrap.kubernetes.io/token');
  l.functionConfig.spec.cluster = cluster;
  return l;
}

function env(vars: Record<string, string>, now?: number): Environment {
  const all: Record<string, string> = { OSM_TOKEN_KEY: KEY, ...vars };
  return {
    env: (n) => all[n],
    readFile: () => {
      throw new Error('no files');
    },
    ...(now !== undefined ? { now: () => now * 1000 } : {}),
  };
}

const at = (seconds: number) => env({ SOURCE_DATE_EPOCH: String(seconds) });
const tokens = (items: any[]) => items.filter((i) => i.type === 'bootstrap.kubernetes.io/token');
const decoded = (s: any) =>
  Object.fromEntries(Object.entries<string>(s.data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
const kubeconfigToken = (items: any[], md: string) =>
  /token: (\S+)/.exec(
    Buffer.from(
      items.find((i) => i.metadata.name === `kube-system-${md}-kubelet-bootstrap-config`).data.kubeconfig,
      'base64',
    ).toString('utf8'),
  )![1];

test("within a window every render is byte-identical; the current and previous windows' tokens are emitted, expiring overlap after their window", () => {
  const renders = [0, 1, 3600, DAY / 2, DAY - 1].map((s) => runOn(list(), at(T0 + s)));
  for (const r of renders) assert.equal(r.exitCode, 0, r.stderr);
  for (const r of renders.slice(1)) assert.equal(r.stdout, renders[0]!.stdout);
  const secrets = tokens(renders[0]!.items)
    .filter((s) => s.metadata.labels['machinedeployment.k8s.io/name'] === 'kube-system-ubuntu-workers')
    .map(decoded);
  assert.deepEqual(
    secrets.map((s) => s.expiration),
    ['2026-12-03T00:00:00Z', '2026-12-02T00:00:00Z'],
  );
  // The kubelet gets the current window's token.
  assert.equal(
    kubeconfigToken(renders[0]!.items, 'ubuntu-workers'),
    `${secrets[0]!['token-id']}.${secrets[0]!['token-secret']}`,
  );
  for (const s of secrets) assert.match(`${s['token-id']}.${s['token-secret']}`, /^[a-z0-9]{6}\.[a-z0-9]{16}$/);
});

test('at the window edge the token rotates: the new previous is the old current, same Secret bytes but nothing else', () => {
  const before = runOn(list(), at(T0 + DAY - 1));
  const after = runOn(list(), at(T0 + DAY));
  const byName = (r: any) => new Map(tokens(r.items).map((s: any) => [s.metadata.name, JSON.stringify(s)]));
  const b = byName(before);
  const a = byName(after);
  const kept = [...a.keys()].filter((k) => b.has(k));
  assert.equal(kept.length, 2, 'one token per MachineDeployment carries over');
  for (const k of kept) assert.equal(a.get(k), b.get(k));
  assert.notEqual(kubeconfigToken(after.items, 'ubuntu-workers'), kubeconfigToken(before.items, 'ubuntu-workers'));
  // The cloud-init Secrets do not change (the node fetches the kubeconfig at boot): no re-create, no roll.
  for (const name of [
    'ubuntu-workers-kube-system-bootstrap-config',
    'ubuntu-workers-kube-system-provisioning-config',
  ]) {
    const find = (r: any) => JSON.stringify(r.items.find((i: any) => i.metadata.name === name));
    assert.equal(find(after), find(before), name);
  }
});

test('the window comes from SOURCE_DATE_EPOCH, else the process clock; with neither the render fails naming SOURCE_DATE_EPOCH', () => {
  assert.equal(runOn(list(), env({}, T0 + 5)).stdout, runOn(list(), at(T0 + 7)).stdout);
  assert.notEqual(runOn(list(), env({}, T0 + DAY)).stdout, runOn(list(), at(T0)).stdout);
  // SOURCE_DATE_EPOCH wins over the clock.
  assert.equal(
    runOn(list(), env({ SOURCE_DATE_EPOCH: String(T0) }, T0 + 10 * DAY)).stdout,
    runOn(list(), at(T0)).stdout,
  );
  const none = runOn(list(), env({}));
  assert.equal(none.exitCode, 1);
  assert.match(none.results.find((r: any) => r.severity === 'error').message, /needs the time: set SOURCE_DATE_EPOCH/);
  const bad = runOn(list(), env({ SOURCE_DATE_EPOCH: '2026-12-01' }));
  assert.match(
    bad.results.find((r: any) => r.severity === 'error').message,
    /SOURCE_DATE_EPOCH must be whole seconds since the Unix epoch/,
  );
});

test('without a rotation or an expiration the clock is never read', () => {
  const l = list({ bootstrapTokenKey: { env: 'OSM_TOKEN_KEY' } });
  const r = runOn(l, {
    ...env({}),
    now: () => {
      throw new Error('the clock was read');
    },
  });
  assert.equal(r.exitCode, 0, r.stderr);
});

test('the newest token expiring within one period is a warning; overlap = period never warns', () => {
  const late = runOn(
    list({ bootstrapTokenKey: { env: 'OSM_TOKEN_KEY' }, bootstrapTokenRotation: { period: '24h', overlap: '6h' } }),
    at(T0 + 20 * 3600),
  );
  assert.equal(late.exitCode, 0, late.stderr);
  const w = late.results.filter((r: any) => r.severity === 'warning');
  assert.equal(w.length, 1);
  assert.match(
    w[0].message,
    /expires at 2026-12-02T06:00:00Z, 10h after this render \(time from SOURCE_DATE_EPOCH=\d+\), less than one period \(24h\)/,
  );
  assert.equal(w[0].field.path, 'spec.cluster.bootstrapTokenRotation.overlap');
  const early = runOn(
    list({ bootstrapTokenKey: { env: 'OSM_TOKEN_KEY' }, bootstrapTokenRotation: { period: '24h', overlap: '6h' } }),
    at(T0 + 3600),
  );
  assert.deepEqual(
    early.results.filter((r: any) => r.severity === 'warning'),
    [],
  );
  for (const s of [0, DAY / 2, DAY - 1])
    assert.deepEqual(
      runOn(list(), at(T0 + s)).results.filter((r: any) => r.severity === 'warning'),
      [],
    );
});

test('a fixed bootstrapTokenExpiration that has passed, or passes within 7 days, is a warning', () => {
  const fixed = (expiration: string) =>
    list({ bootstrapTokenKey: { env: 'OSM_TOKEN_KEY' }, bootstrapTokenExpiration: expiration });
  const warnings = (expiration: string) =>
    runOn(fixed(expiration), at(T0))
      .results.filter((r: any) => r.severity === 'warning')
      .map((r: any) => r.message);
  assert.match(warnings('2026-11-30T00:00:00Z')[0], /expired at 2026-11-30T00:00:00Z/);
  assert.match(warnings('2026-12-07T12:00:00Z')[0], /expire at 2026-12-07T12:00:00Z, in 156h/);
  assert.deepEqual(warnings('2026-12-09T00:00:00Z'), []);
  // The output is the same with and without the warning: only the result differs.
  assert.deepEqual(
    runOn(fixed('2026-12-07T12:00:00Z'), at(T0)).items,
    runOn(fixed('2026-12-07T12:00:00Z'), at(T0 - 30 * DAY)).items,
  );
});

test('rotation settings that cannot work are errors naming the field', () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [
      { bootstrapTokenKey: { env: 'OSM_TOKEN_KEY' }, bootstrapTokenRotation: { period: '24h', overlap: '25h' } },
      /overlap must be more than 0 and at most the period/,
    ],
    [
      { bootstrapTokenKey: { env: 'OSM_TOKEN_KEY' }, bootstrapTokenRotation: { period: '5m', overlap: '1m' } },
      /period must be at least 10m/,
    ],
    [
      { bootstrapTokenKey: { env: 'OSM_TOKEN_KEY' }, bootstrapTokenRotation: { period: '24h', overlap: '0s' } },
      /overlap must be more than 0/,
    ],
    [
      { bootstrapTokenRotation: { period: '24h', overlap: '1h' } },
      /derives each window's tokens from spec\.cluster\.bootstrapTokenKey, which is not set/,
    ],
    [
      {
        bootstrapToken: 'abcdef.0123456789abcdef',
        bootstrapTokenKey: { env: 'OSM_TOKEN_KEY' },
        bootstrapTokenRotation: { period: '24h', overlap: '1h' },
      },
      /spec\.cluster\.bootstrapToken is one fixed token/,
    ],
    [
      {
        bootstrapTokenKey: { env: 'OSM_TOKEN_KEY' },
        bootstrapTokenExpiration: '2027-01-01T00:00:00Z',
        bootstrapTokenRotation: { period: '24h', overlap: '1h' },
      },
      /exclude each other/,
    ],
  ];
  for (const [cluster, message] of cases) {
    const r = runOn(list(cluster), at(T0));
    assert.equal(r.exitCode, 1, JSON.stringify(cluster));
    assert.match(r.results.find((x: any) => x.severity === 'error').message, message);
  }
  // A token Secret in the inputs for a MachineDeployment would silently not rotate.
  const l = list();
  l.items.push({
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'bootstrap.kubernetes.io/token',
    metadata: {
      name: 'bootstrap-token-abcdef',
      namespace: 'kube-system',
      labels: { 'machinedeployment.k8s.io/name': 'kube-system-ubuntu-workers' },
      annotations: { 'config.kubernetes.io/local-config': 'true' },
    },
    stringData: { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef' },
  });
  const r = runOn(l, at(T0));
  assert.match(r.results.find((x: any) => x.severity === 'error').message, /nothing would rotate: remove that Secret/);
});

test('the ConfigMap form takes bootstrap-token-rotation-period and -overlap', () => {
  const l = list();
  l.functionConfig = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'osm' },
    data: {
      'bootstrap-token-key-env': 'OSM_TOKEN_KEY',
      'bootstrap-token-rotation-period': '24h',
      'bootstrap-token-rotation-overlap': '24h',
    },
  };
  const r = runOn(l, at(T0));
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(tokens(r.items).length, 4);
  const half = runOn(
    {
      ...l,
      functionConfig: {
        ...l.functionConfig,
        data: { 'bootstrap-token-key-env': 'OSM_TOKEN_KEY', 'bootstrap-token-rotation-period': '24h' },
      },
    },
    at(T0),
  );
  assert.match(half.results[0].message, /must be set together/);
});

test('the clock enters the code in one place only (src/cli/clock.ts)', () => {
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|js|mjs)$/.test(e.name)) {
        const text = readFileSync(p, 'utf8');
        const rel = p.slice(REPO_ROOT.length + 1);
        // new Date(Date.UTC(...)) builds a date from numbers, it reads no clock.
        const reads =
          text
            .replace(/new Date\(Date\.UTC\(/g, '')
            .match(/Date\.now\(|new Date\(\)|performance\.now\(|process\.hrtime|new Date\([^)]/g) ?? [];
        if (reads.length > 0 && rel !== 'src/cli/clock.ts') offenders.push(`${rel}: ${reads.join(', ')}`);
      }
    }
  };
  walk(join(REPO_ROOT, 'src'));
  walk(join(REPO_ROOT, 'functions'));
  assert.deepEqual(offenders, []);
});
