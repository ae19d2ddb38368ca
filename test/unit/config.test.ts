import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CONFIG, parseFunctionConfig } from '../../src/config/operatingSystemManagerConfig.ts';
import { ResourceError } from '../../src/krm/results.ts';

const typed = (spec: unknown) => ({
  apiVersion: 'osm-krm.dev/v1alpha1',
  kind: 'OperatingSystemManager',
  metadata: { name: 'osm' },
  spec,
});

test("no config means OSM's flag defaults", () => {
  const c = parseFunctionConfig(undefined);
  assert.equal(c.namespace, 'kube-system');
  assert.deepEqual(c.clusterDNS, ['10.10.10.10']);
  assert.equal(c.nodeNoProxy, '.svc,.cluster.local,localhost,127.0.0.1');
  assert.deepEqual(c.kubeletFeatureGates, { RotateKubeletServerCertificate: true });
});

test('typed config overrides defaults and is validated by the schema', () => {
  const c = parseFunctionConfig(
    typed({ namespace: 'osm', clusterDNS: ['10.96.0.10'], cluster: { cloudInitGetterToken: { env: 'TOKEN' } } }),
  );
  assert.equal(c.namespace, 'osm');
  assert.deepEqual(c.cluster.cloudInitGetterToken, { env: 'TOKEN' });
  assert.equal(c.nodeNoProxy, DEFAULT_CONFIG.nodeNoProxy);
  assert.throws(
    () => parseFunctionConfig(typed({ containerRuntime: 'docker' })),
    (e: ResourceError) => e.fieldPath === 'spec.containerRuntime' && /must be one of "containerd"/.test(e.message),
  );
  assert.throws(() => parseFunctionConfig(typed({ nameSpace: 'x' })), /unknown field "nameSpace"/);
  assert.throws(
    () => parseFunctionConfig(typed({ cluster: { cloudInitGetterToken: { env: 'A', file: 'b' } } })),
    ResourceError,
  );
  assert.throws(
    () => parseFunctionConfig({ ...typed({}), apiVersion: 'osm-krm.dev/v1' }),
    (e: ResourceError) => e.fieldPath === 'apiVersion',
  );
  assert.throws(
    () => parseFunctionConfig(typed({ gitops: { syncAnnotations: ['argocd', 'argocd'] } })),
    /must NOT have duplicate items/,
  );
  assert.deepEqual(parseFunctionConfig(typed({ gitops: { syncAnnotations: ['argocd', 'flux'] } })).gitops, {
    split: false,
    syncAnnotations: ['argocd', 'flux'],
  });
});

test('a ConfigMap with OSM flag names works like the flags', () => {
  const c = parseFunctionConfig({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'function-input' },
    data: {
      namespace: 'osm',
      'cluster-dns': '10.0.0.10, 10.0.0.11',
      'node-kubelet-feature-gates': 'GracefulNodeShutdown=true',
      'external-cloud-provider': 'true',
      'node-containerd-registry-mirrors': 'a=https://x\nb=https://y',
    },
  });
  assert.equal(c.namespace, 'osm');
  assert.deepEqual(c.clusterDNS, ['10.0.0.10', '10.0.0.11']);
  // main.go adds RotateKubeletServerCertificate=true when absent.
  assert.deepEqual(c.kubeletFeatureGates, { GracefulNodeShutdown: true, RotateKubeletServerCertificate: true });
  assert.equal(c.externalCloudProvider, true);
  assert.deepEqual(c.nodeContainerdRegistryMirrors, ['a=https://x', 'b=https://y']);
  assert.throws(
    () => parseFunctionConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { 'no-such-flag': 'x' } }),
    /unknown config key "no-such-flag"/,
  );
  assert.throws(
    () => parseFunctionConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { 'external-cloud-provider': 'maybe' } }),
    /invalid boolean/,
  );
  assert.throws(
    () => parseFunctionConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { 'node-kubelet-feature-gates': 'Foo' } }),
    /malformed entry/,
  );
  // A gate's name becomes a key: past 16,383 characters V8 hashes it by length (5,800 gates: 57 s).
  const gates = (length: number) => `${'G'.repeat(length - 1)}1=true,${'G'.repeat(length - 1)}2=false`;
  assert.throws(
    () =>
      parseFunctionConfig({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        data: { 'node-kubelet-feature-gates': gates(16_384) },
      }),
    /a gate name of 16384 characters, longer than any key may be/,
  );
  const long = parseFunctionConfig({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    data: { 'node-kubelet-feature-gates': gates(16_383) },
  });
  assert.equal(Object.keys(long.kubeletFeatureGates).length, 3);
});

test("kpt's empty function-input ConfigMap means defaults", () => {
  const c = parseFunctionConfig({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'function-input' },
    data: {},
  });
  assert.equal(c.namespace, 'kube-system');
});
