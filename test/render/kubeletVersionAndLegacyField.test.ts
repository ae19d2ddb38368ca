// Things OSM renders or refuses without a word: a kubelet version outside the supported range (a warning
// naming the field and the range), and the legacy providerConfig field (an error that says how to move it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runOn } from '../support/runInProcess.ts';
import { machineDeployment, resourceList } from '../profiles/support/profileRuns.ts';

const ubuntu = (kubelet: string, name: string) =>
  machineDeployment({ profile: 'osp-ubuntu', osName: 'ubuntu', cloud: 'hetzner', kubelet, ipFamily: 'IPv4', name });

test('kubelet outside 1.33–1.36: rendered, with a warning on spec.template.spec.versions.kubelet naming the range', () => {
  const r = runOn(
    resourceList([
      ubuntu('1.11.6', 'old'),
      ubuntu('1.37.0', 'new'),
      ubuntu('1.33.0', 'low'),
      ubuntu('v1.36.9', 'high'),
    ]),
  );
  assert.equal(r.exitCode, 0, r.stderr);
  const warnings = r.results.filter((x: any) => x.severity === 'warning');
  assert.deepEqual(warnings.map((w: any) => [w.resourceRef.name, w.field.path]).sort(), [
    ['new', 'spec.template.spec.versions.kubelet'],
    ['old', 'spec.template.spec.versions.kubelet'],
  ]);
  assert.match(
    warnings.find((w: any) => w.resourceRef.name === 'old').message,
    /kubelet v1\.11\.6 is outside the supported range: machine-controller supports Kubernetes 1\.33–1\.36 and the embedded profile osp-ubuntu is made for 1\.33–1\.36/,
  );
  for (const name of ['old', 'new', 'low', 'high']) {
    assert.ok(
      r.items.some((i: any) => i.kind === 'Secret' && i.metadata.name === `${name}-kube-system-bootstrap-config`),
      name,
    );
  }
});

test("an OSP from the inputs: only machine-controller's range is named", () => {
  const osp = structuredClone(
    runOn(
      resourceList([], {
        apiVersion: 'osm-krm.dev/v1alpha1',
        kind: 'OperatingSystemManager',
        metadata: { name: 'osm' },
        spec: { defaultProfiles: { emit: true }, cluster: { bootstrapToken: 'abcdef.0123456789abcdef' } },
      }),
    ).items.find((i: any) => i.kind === 'OperatingSystemProfile' && i.metadata.name === 'osp-ubuntu'),
  );
  osp.metadata.name = 'my-ubuntu';
  delete osp.metadata.annotations;
  const md = machineDeployment({
    profile: 'my-ubuntu',
    osName: 'ubuntu',
    cloud: 'hetzner',
    kubelet: '1.32.4',
    ipFamily: 'IPv4',
  });
  const r = runOn(resourceList([osp, md]));
  assert.equal(r.exitCode, 0, r.stderr);
  const [w] = r.results.filter((x: any) => x.severity === 'warning');
  assert.equal(w.field.path, 'spec.template.spec.versions.kubelet');
  assert.match(
    w.message,
    /^kubelet v1\.32\.4 is outside the supported range: machine-controller supports Kubernetes 1\.33–1\.36;/,
  );
});

test('the legacy providerConfig field: an error naming it and saying how to move it', () => {
  const md: any = ubuntu('1.34.1', 'legacy');
  md.spec.template.spec.providerConfig = md.spec.template.spec.providerSpec;
  delete md.spec.template.spec.providerSpec;
  const r = runOn(resourceList([md]));
  assert.equal(r.exitCode, 1);
  const [e] = r.results.filter((x: any) => x.severity === 'error');
  assert.equal(e.field.path, 'spec.template.spec.providerConfig');
  assert.match(
    e.message,
    /^providerSpec cannot be empty: this MachineDeployment uses the legacy field spec\.template\.spec\.providerConfig; rename it to spec\.template\.spec\.providerSpec/,
  );
  assert.equal(r.items.filter((i: any) => i.kind === 'Secret' && i.metadata.name.startsWith('legacy')).length, 0);
});
