import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapTokenSecret, deriveBootstrapToken } from '../../src/cluster/derivedBootstrapToken.ts';

test('derived tokens are deterministic, per MachineDeployment and per key, in the bootstrap token format', () => {
  const a = deriveBootstrapToken('0123456789abcdef-key', 'kube-system-workers');
  assert.deepEqual(deriveBootstrapToken('0123456789abcdef-key', 'kube-system-workers'), a);
  assert.match(a.token, /^[a-z0-9]{6}\.[a-z0-9]{16}$/);
  assert.notEqual(deriveBootstrapToken('0123456789abcdef-key', 'kube-system-other').token, a.token);
  assert.notEqual(deriveBootstrapToken('another-secret-key-0', 'kube-system-workers').token, a.token);
  assert.notEqual(deriveBootstrapToken('0123456789abcdef-key', 'kube-system-workers', 1).token, a.token);
});

test('the token Secret is what kube-apiserver expects of a bootstrap token', () => {
  const t = deriveBootstrapToken('0123456789abcdef-key', 'kube-system-workers');
  const s = bootstrapTokenSecret(t, 'kube-system-workers', '2030-01-01T00:00:00Z') as any;
  assert.equal(s.type, 'bootstrap.kubernetes.io/token');
  assert.equal(s.metadata.name, `bootstrap-token-${t.id}`);
  assert.equal(s.metadata.namespace, 'kube-system');
  assert.equal(s.metadata.labels['machinedeployment.k8s.io/name'], 'kube-system-workers');
  const d = (k: string) => Buffer.from(s.data[k], 'base64').toString();
  assert.equal(d('token-id'), t.id);
  assert.equal(d('token-secret'), t.secret);
  assert.equal(d('usage-bootstrap-authentication'), 'true');
  assert.equal(d('auth-extra-groups'), 'system:bootstrappers:machine-controller:default-node-token');
  assert.equal(d('expiration'), '2030-01-01T00:00:00Z');
});
