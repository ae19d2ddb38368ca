// YAML an input holds is read as the input itself is (src/krm/inputYaml.ts): the cluster-info ConfigMap's
// kubeconfig was parsed by a reader of its own, with none of the input bounds, so a 12 MB ResourceList whose
// kubeconfig held a flow list of 6 million numbers ran 162 s, reached 4.4 GB and aborted (signal 6). Through the
// one reader it is refused by a node bound, with an error result about the ConfigMap's field, the same as a
// malformed kubeconfig (which was reported on the function config, the wrong object). The bound is the
// kubeconfig's own, a seventy-fifth of a run's: a bound of a run's size for each text inside a value would let the
// texts inside the inputs each read as much as the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/paths.ts';

const BUNDLE = join(REPO_ROOT, 'dist', 'osm-krm.cjs');
const ENV = {
  PATH: process.env.PATH,
  OSM_CLOUD_INIT_GETTER_TOKEN: 'example-cloud-init-getter-token',
  OSM_BOOTSTRAP_TOKEN: 'abcdef.0123456789abcdef',
};
/** A guard against the old behaviour (minutes, gigabytes), not a speed target. */
const GUARD_KIB = 2 * 1024 * 1024;

/** examples/basic with the cluster-info kubeconfig replaced by `kubeconfig`, as JSON (one reader reads both). */
function withKubeconfig(kubeconfig: string): string {
  const list = parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'));
  const info = list.items.find((i: any) => i.kind === 'ConfigMap' && i.metadata?.name === 'cluster-info');
  assert.ok(info, 'examples/basic holds the cluster-info ConfigMap');
  info.data.kubeconfig = kubeconfig;
  return JSON.stringify(list);
}

function run(input: string) {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, BUNDLE], {
    input,
    encoding: 'utf8',
    env: ENV,
    maxBuffer: 1 << 28,
    timeout: 120_000,
  });
  const peakKiB = Number(r.stderr.trim().split('\n').pop());
  const out = parse(r.stdout);
  return { status: r.status, peakKiB, errors: (out?.results ?? []).filter((x: any) => x.severity === 'error') };
}

const CLUSTER_INFO = { apiVersion: 'v1', kind: 'ConfigMap', name: 'cluster-info', namespace: 'kube-public' };

test('a kubeconfig past the node bound is refused as an error about the ConfigMap, within 2 GiB', () => {
  const numbers = Array.from({ length: 1_200_000 }, () => '1').join(',');
  const r = run(withKubeconfig(`{clusters: [{cluster: {server: "https://api.example:6443", x: [${numbers}]}}]}`));
  assert.equal(r.status, 1);
  assert.ok(r.peakKiB < GUARD_KIB, `${r.peakKiB} KiB`);
  assert.equal(r.errors.length, 1, JSON.stringify(r.errors));
  assert.match(
    r.errors[0].message,
    /^the cluster-info kubeconfig holds more YAML nodes than osm-krm reads in a kubeconfig: the limit of 20,000 .* is reached at line 1, column \d+$/,
  );
  assert.deepEqual(r.errors[0].resourceRef, CLUSTER_INFO);
  assert.deepEqual(r.errors[0].field, { path: 'data.kubeconfig' });
});

test("a kubeconfig's bound is its own: past it by a little, refused; a real one with room to spare, read", () => {
  const list = parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'));
  const info = list.items.find((i: any) => i.kind === 'ConfigMap' && i.metadata?.name === 'cluster-info');
  const original = parse(info.data.kubeconfig);
  /** examples/basic's own kubeconfig (its CA and server), with a list of `n` numbers added to its cluster, as JSON. */
  const kubeconfig = (n: number) => {
    const k = structuredClone(original);
    k.clusters[0].cluster.x = Array(n).fill(1);
    return JSON.stringify(k);
  };
  // 10,001 numbers and their commas: past 20,000 nodes, far below a run's 1,500,000.
  const past = run(withKubeconfig(kubeconfig(10_001)));
  assert.equal(past.status, 1);
  assert.match(past.errors[0]?.message ?? '', /in a kubeconfig: the limit of 20,000/);
  // 9,000 numbers: 18,000-odd nodes, read; the run renders.
  assert.equal(run(withKubeconfig(kubeconfig(9_000))).status, 0);
});

test('a malformed kubeconfig is an error about the ConfigMap, at a place, never quoting it', () => {
  const r = run(withKubeconfig('clusters: ]not-a-token-to-print'));
  assert.equal(r.status, 1);
  assert.equal(r.errors.length, 1, JSON.stringify(r.errors));
  assert.equal(r.errors[0].message, 'cluster-info kubeconfig is not valid YAML at line 1, column 11: unexpected text');
  assert.deepEqual(r.errors[0].resourceRef, CLUSTER_INFO);
  assert.deepEqual(r.errors[0].field, { path: 'data.kubeconfig' });
});
