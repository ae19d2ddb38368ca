// Our own render fixtures for what upstream's goldens do not cover. Each case in testdata/render/cases is a
// ResourceList (plus the shared cluster facts); its whole output is compared with testdata/render/expected.
// Goldens were produced once with UPDATE_GOLDENS=1 and reviewed; the properties below are checked as well.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runOn, findItem } from '../support/runInProcess.ts';
import { lineDiff } from '../support/lineDiff.ts';
import { TESTDATA } from '../support/paths.ts';

const DIR = join(TESTDATA, 'render');
const facts = parse(readFileSync(join(DIR, 'cases/_facts.yaml'), 'utf8')) as unknown[];

function run(file: string) {
  const c = parse(readFileSync(join(DIR, 'cases', file), 'utf8')) as { items: unknown[]; functionConfig: unknown };
  return runOn(
    stringify(
      {
        apiVersion: 'config.kubernetes.io/v1',
        kind: 'ResourceList',
        items: [...c.items, ...facts],
        functionConfig: c.functionConfig,
      },
      { lineWidth: 0 },
    ),
  );
}

const userData = (items: any[], name: string) =>
  Buffer.from(findItem(items, 'Secret', name).data['cloud-config'], 'base64').toString('utf8');

for (const file of readdirSync(join(DIR, 'cases'))
  .filter((f) => !f.startsWith('_'))
  .sort()) {
  test(`render fixture ${file}`, () => {
    const r = run(file);
    assert.equal(r.exitCode, 0, r.stderr);
    const expectedPath = join(DIR, 'expected', file);
    if (process.env.UPDATE_GOLDENS === '1') writeFileSync(expectedPath, r.stdout);
    const expected = readFileSync(expectedPath, 'utf8');
    if (r.stdout !== expected) assert.fail(lineDiff(expected, r.stdout));
  });
}

test('flatcar cloud-init: units in coreos.units, nothing to provision, revision from the MachineDeployment', () => {
  const r = run('flatcar-cloud-init-units.yaml');
  const boot = userData(r.items, 'anexia-workers-kube-system-bootstrap-config');
  assert.ok(boot.includes('coreos:\n  units:\n  - name: "setup.service"\n    enable: true\n    command: start'), boot);
  assert.ok(
    boot.includes('      - name: "10-env.conf"') && boot.includes('  - name: "locksmithd.service"\n    enable: false'),
  );
  assert.ok(boot.includes('hostname: <MACHINE_NAME>'));
  const osc = findItem(r.items, 'OperatingSystemConfig', 'anexia-workers-kube-system-config');
  assert.equal(osc.metadata.annotations['k8c.io/machine-deployment-revision'], '3');
  assert.equal(osc.spec.provisioningUtility, 'cloud-init');
});

test('static network reaches Flatcar templates; Ignition output carries it', () => {
  const r = run('static-network-flatcar.yaml');
  const ign = JSON.parse(userData(r.items, 'vcd-workers-kube-system-bootstrap-config'));
  const net = ign.storage.files.find((f: any) => f.path === '/etc/systemd/network/static.network');
  assert.equal(
    decodeURIComponent(net.contents.source.slice('data:,'.length)),
    '[Match]\nName=ens192\n[Network]\nAddress=192.168.44.10/20\nGateway=192.168.32.1\nDNS=8.8.8.8\nDNS=1.1.1.1\n',
  );
  assert.ok(ign.storage.files.some((f: any) => f.path === '/etc/machine-name'));
});

test('proxies, host CA and cluster DNS reach the templates; an unannotated MachineDeployment passes through', () => {
  const r = run('proxies-and-host-ca.yaml');
  const boot = userData(r.items, 'rocky-workers-kube-system-bootstrap-config');
  assert.ok(boot.includes('package_upgrade: true'));
  const env = /- path: '\/etc\/environment'\n  permissions: '0644'\n  content: \|-\n([\s\S]*?)\n\n/.exec(boot)![1]!;
  // OSM's double rendering: the named template's output is wrapped as "\n{{- define }}\n<output>\n{{- end }}",
  // so the file gets "\n" + "\nHTTP_PROXY=..\nNO_PROXY=.." + its own "\n", then `indent 4` pads every line.
  assert.equal(env, '    \n    \n    HTTP_PROXY=http://proxy.fixture:3128\n    NO_PROXY=.svc,.cluster.local\n    ');
  const prov = userData(r.items, 'rocky-workers-kube-system-provisioning-config');
  assert.ok(
    prov.includes(
      `    ${Buffer.from(readFileSync(join(TESTDATA, 'profiles/cases/test-ca.pem'), 'utf8')).toString('base64')}`,
    ),
  );
  assert.ok(prov.includes('    10.96.0.10 fd00::a '));
  // Without the annotation: passed through unchanged, with a warning naming the config switch, and no output.
  assert.ok(findItem(r.items, 'MachineDeployment', 'unmanaged'));
  assert.ok(!r.items.some((i: any) => String(i.metadata?.name).startsWith('unmanaged-')));
  assert.ok(
    r.results.some(
      (x: any) =>
        x.severity === 'warning' &&
        x.resourceRef?.name === 'unmanaged' &&
        /no k8c.io\/operating-system-profile annotation.*defaultProfiles\.defaultAnnotation/.test(x.message),
    ),
  );
});

test('examples/basic renders to its reviewed golden (named templates, runtime templates, Ignition units)', () => {
  const r = runOn(readFileSync(join(DIR, '../../examples/basic/resourcelist.yaml'), 'utf8'));
  assert.equal(r.exitCode, 0, r.stderr);
  const expectedPath = join(DIR, 'expected', 'examples-basic.yaml');
  if (process.env.UPDATE_GOLDENS === '1') writeFileSync(expectedPath, r.stdout);
  const expected = readFileSync(expectedPath, 'utf8');
  if (r.stdout !== expected) assert.fail(lineDiff(expected, r.stdout));
});
