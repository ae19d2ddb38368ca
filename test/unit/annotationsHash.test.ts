import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goJsonStringMap } from '../../src/go/encoding/json/encodeString.ts';
import { annotationsHash } from '../../src/render/generatedResources.ts';

test('annotations hash matches the value in upstream goldens', () => {
  // reference/osm.md §2.11 and every upstream golden with these two annotations.
  assert.equal(
    annotationsHash({
      'k8c.io/operating-system-profile': 'osp-ubuntu',
      'machinedeployment.clusters.k8s.io/revision': '1',
    }),
    '240e92a138b73a540fc8f38a171c511995e6c10890b9af15f92f5a8b84136765',
  );
});

test('map[string]string marshals like Go encoding/json', () => {
  // Go 1.19 output for the same map.
  assert.equal(
    goJsonStringMap({
      x: '<a&b>\u2028\x01',
      'machinedeployment.clusters.k8s.io/revision': '1',
      'k8c.io/operating-system-profile': 'osp-ubuntu',
    }),
    '{"k8c.io/operating-system-profile":"osp-ubuntu","machinedeployment.clusters.k8s.io/revision":"1","x":"\\u003ca\\u0026b\\u003e\\u2028\\u0001"}',
  );
  // Go >= 1.22 (OSM is built with 1.26) writes \b and \f in short form.
  assert.equal(goJsonStringMap({ a: '\b\f' }), '{"a":"\\b\\f"}');
  // A lone surrogate is invalid UTF-8 to Go and becomes U+FFFD.
  // Go writes the escape, not the character (encoding/json, checked with Go 1.19: json.Marshal("x\xffy")).
  assert.equal(goJsonStringMap({ a: '\ud800' }), '{"a":"\\ufffd"}');
});

test('orchestrator annotations (kpt, kustomize) never reach the annotations hash', async () => {
  const { parseMachineDeployment } = await import('../../src/machineDeployment/machineDeployment.ts');
  const md = (extra: Record<string, string>) =>
    parseMachineDeployment({
      apiVersion: 'cluster.k8s.io/v1alpha1',
      kind: 'MachineDeployment',
      metadata: {
        name: 'm',
        namespace: 'kube-system',
        annotations: { 'k8c.io/operating-system-profile': 'osp-ubuntu', ...extra },
      },
      spec: {
        template: {
          spec: {
            providerSpec: { value: { cloudProvider: 'aws', operatingSystem: 'ubuntu' } },
            versions: { kubelet: '1.34.0' },
          },
        },
      },
    } as any);
  const plain = annotationsHash(md({}).annotations);
  const inFlight = annotationsHash(
    md({
      'internal.config.kubernetes.io/path': 'md.yaml',
      'internal.config.kubernetes.io/package-path': '/abs',
      'config.kubernetes.io/path': 'md.yaml',
      'config.kubernetes.io/index': '0',
      'config.k8s.io/id': '1',
      'kustomize.config.k8s.io/id': 'x',
    }).annotations,
  );
  assert.equal(inFlight, plain);
  assert.notEqual(annotationsHash(md({ 'team': 'a' }).annotations), plain);
});
