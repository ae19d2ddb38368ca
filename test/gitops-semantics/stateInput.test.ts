// The committed state file as an input: recognised by what it is (a v1 ConfigMap named osm-krm-state),
// wherever it comes from (kustomize passes it without any path annotation), and checked like any input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runOn, findItem } from '../support/runInProcess.ts';
import { REPO_ROOT } from '../support/paths.ts';

const base = () => parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'));
const PATH_KEYS = ['internal.config.kubernetes.io/path', 'config.kubernetes.io/path'];
const revisionOf = (items: any[], md: string) =>
  findItem(items, 'Secret', `${md}-kube-system-bootstrap-config`).metadata.annotations[
    'k8c.io/machine-deployment-revision'
  ];

/** A first render's state, without its path annotations (as kustomize hands a committed file over). */
function firstState(): { list: any; state: any } {
  const list = base();
  for (const i of list.items)
    if (i.kind === 'MachineDeployment') delete i.metadata.annotations['machinedeployment.clusters.k8s.io/revision'];
  const r = runOn(list);
  assert.equal(r.exitCode, 0, r.stderr);
  const state = structuredClone(findItem(r.items, 'ConfigMap', 'osm-krm-state'));
  for (const k of PATH_KEYS) delete state.metadata.annotations[k];
  return { list, state };
}

test('a state without path annotations (as kustomize passes it) sets the revisions', () => {
  const { list, state } = firstState();
  const key = 'md.kube-system.ubuntu-workers';
  state.data[key] = JSON.stringify({ ...JSON.parse(state.data[key]), revision: '3' });
  list.items.push(state);
  const r = runOn(list);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(revisionOf(r.items, 'ubuntu-workers'), '3');
  assert.equal(revisionOf(r.items, 'flatcar-workers'), '1');
  // The input state is replaced by the new one, never passed through beside it.
  assert.equal(r.items.filter((i: any) => i.metadata?.name === 'osm-krm-state').length, 1);
});

test('a state whose OSP hash differs triggers the immutability rule without path annotations', () => {
  const { list, state } = firstState();
  list.items.find(
    (i: any) => i.metadata?.name === 'example-ubuntu',
  ).spec.provisioningConfig.files[0].content.inline.data += '# edited\n';
  list.items.push(state);
  const r = runOn(list);
  assert.equal(r.exitCode, 1);
  assert.ok(
    r.results.some((x: any) => /bump spec.version/.test(x.message)),
    JSON.stringify(r.results),
  );
});

test('a hostile or broken state is an error naming the state and the entry, not a silent revision 1', () => {
  const key = 'md.kube-system.ubuntu-workers';
  const cases: Array<[string, (s: any) => void, RegExp]> = [
    [
      'revision not a number',
      (s) => (s.data[key] = JSON.stringify({ ...JSON.parse(s.data[key]), revision: '3; rm -rf /' })),
      /data\.md\.kube-system\.ubuntu-workers.*revision must be a positive integer/,
    ],
    [
      'revision too large',
      (s) => (s.data[key] = JSON.stringify({ ...JSON.parse(s.data[key]), revision: '99999999999999999999' })),
      /revision must be a positive integer/,
    ],
    [
      'revision zero',
      (s) => (s.data[key] = JSON.stringify({ ...JSON.parse(s.data[key]), revision: '0' })),
      /revision must be a positive integer/,
    ],
    [
      'hash not a sha256',
      (s) => (s.data[key] = JSON.stringify({ ...JSON.parse(s.data[key]), templateHash: 'x' })),
      /templateHash must be sha256:/,
    ],
    ['not JSON', (s) => (s.data[key] = '{'), /is not JSON/],
    [
      // Counted before it is parsed: 200,000 empty objects cost JSON.parse as much as their bytes never show.
      'an entry past its few values',
      (s) => (s.data[key] = JSON.stringify({ ...JSON.parse(s.data[key]), x: Array(200_000).fill({}) })),
      /data\.md\.kube-system\.ubuntu-workers holds more than 7 JSON values/,
    ],
    ['unknown key', (s) => (s.data['something.else'] = '{}'), /data\.something\.else.*not a state entry/],
    ['data not a map', (s) => (s.data = ['x']), /data must be a map/],
  ];
  for (const [what, mutate, message] of cases) {
    const { list, state } = firstState();
    mutate(state);
    list.items.push(state);
    const r = runOn(list);
    assert.equal(r.exitCode, 1, what);
    const err = r.results.find((x: any) => x.severity === 'error');
    assert.ok(err, what);
    assert.equal(err.resourceRef?.name, 'osm-krm-state', what);
    assert.match(err.message, message, what);
    assert.ok(
      !r.items.some(
        (i: any) => i.kind === 'Secret' && /bootstrap-config$/.test(i.metadata.name) && !list.items.includes(i),
      ),
      what,
    );
  }
});

test('two state objects are an error naming both', () => {
  const { list, state } = firstState();
  const other = structuredClone(state);
  other.metadata.namespace = 'elsewhere';
  list.items.push(state, other);
  const r = runOn(list);
  assert.equal(r.exitCode, 1);
  assert.ok(
    r.results.some(
      (x: any) =>
        x.severity === 'error' && /more than one osm-krm-state/.test(x.message) && /elsewhere/.test(x.message),
    ),
    JSON.stringify(r.results),
  );
});

test('a state entry that repeats a key is refused (JSON.parse would take the last, a reader sees the first)', () => {
  const { list, state } = firstState();
  const key = 'md.kube-system.ubuntu-workers';
  state.data[key] = state.data[key].replace(/}$/, ',"revision":"9"}').replace('{', '{ ');
  list.items.push(state);
  const r = runOn(list);
  assert.equal(r.exitCode, 1);
  assert.ok(
    r.results.some(
      (x: any) =>
        x.severity === 'error' && /state entry data\.md\.kube-system\.ubuntu-workers repeats a key/.test(x.message),
    ),
    JSON.stringify(r.results),
  );
});
