import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideRevision } from '../../src/gitops/machineDeploymentRevision.ts';

const template = (image: string) => ({
  spec: { providerSpec: { value: { cloudProviderSpec: { ami: image } } }, versions: { kubelet: '1.34.0' } },
});

test('create -> edit -> edit -> roll back counts like machine-controller (1, 2, 3, 4)', () => {
  const r1 = decideRevision({}, template('a'), undefined);
  const r2 = decideRevision({}, template('b'), r1.state);
  const r3 = decideRevision({}, template('c'), r2.state);
  const r4 = decideRevision({}, template('a'), r3.state);
  assert.deepEqual(
    [r1, r2, r3, r4].map((r) => r.revision),
    ['1', '2', '3', '4'],
  );
});

test('an unchanged template keeps its revision; key order does not matter', () => {
  const r1 = decideRevision({}, { b: 1, a: { y: 2, x: 1 } }, undefined);
  const again = decideRevision({}, { a: { x: 1, y: 2 }, b: 1 }, r1.state);
  assert.equal(again.revision, '1');
});

test('explicit revisions win: the runtime annotation, then osm-krm.dev/revision', () => {
  const prev = decideRevision({}, template('a'), undefined).state;
  assert.equal(
    decideRevision({ 'machinedeployment.clusters.k8s.io/revision': '7' }, template('b'), prev).revision,
    '7',
  );
  assert.equal(decideRevision({ 'osm-krm.dev/revision': '5' }, template('b'), prev).revision, '5');
  assert.throws(() => decideRevision({ 'osm-krm.dev/revision': 'x' }, template('b'), prev), /positive integer/);
});
