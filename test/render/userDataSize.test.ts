// The function reports bootstrap user-data near (warning) or over (error, nothing generated) the cloud's limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runOn } from '../support/runInProcess.ts';
import { BASE_CONFIG, baseItems, SMALL_OSP } from '../robustness/inputCorpus.ts';

function withBootstrapBytes(n: number) {
  const items = baseItems();
  items[0] = {
    ...SMALL_OSP,
    spec: {
      ...SMALL_OSP.spec,
      bootstrapConfig: { files: [{ path: '/big', content: { inline: { data: 'x'.repeat(n) } } }] },
    },
  };
  return runOn({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items, functionConfig: BASE_CONFIG });
}

test('small bootstrap user-data: no size result', () => {
  const r = withBootstrapBytes(1000);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.ok(!r.results.some((x: any) => /user-data/.test(x.message)));
});

test('near the AWS limit: a warning on the MachineDeployment, output still generated', () => {
  const r = withBootstrapBytes(15500);
  assert.equal(r.exitCode, 0, r.stderr);
  const w = r.results.filter((x: any) => x.severity === 'warning' && /user-data/.test(x.message));
  assert.equal(w.length, 2, JSON.stringify(r.results));
  assert.ok(w.every((x: any) => x.resourceRef.kind === 'MachineDeployment'));
});

test('over the AWS limit: an error, exit 1, nothing generated', () => {
  const r = withBootstrapBytes(17000);
  assert.equal(r.exitCode, 1);
  assert.ok(r.results.some((x: any) => x.severity === 'error' && /too large for aws/.test(x.message)));
  assert.ok(
    !r.items.some((i: any) =>
      String(i.metadata?.annotations?.['internal.config.kubernetes.io/path'] ?? '').startsWith('osm-generated/'),
    ),
  );
});
