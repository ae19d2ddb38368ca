// Reviewed goldens of the default profiles for a few representative machines: the bootstrap and provisioning
// user-data, cloud-configs verbatim and Ignition configs as a readable listing (units and decoded files) with
// the exact JSON's size and SHA-256. Regenerate with UPDATE_GOLDENS=1 and review the diff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOn } from '../support/runInProcess.ts';
import { lineDiff } from '../support/lineDiff.ts';
import { validateIgnition23 } from '../support/ignition23.ts';
import { TESTDATA } from '../support/paths.ts';
import {
  TEST_CA,
  functionConfig,
  machineDeployment,
  resourceList,
  userDataOf,
  type MachineDeploymentOptions,
} from './support/profileRuns.ts';

const EXPECTED = join(TESTDATA, 'profiles/expected');
const KUBELET = 'v1.kubelet-config.machine-controller.kubermatic.io/';

interface GoldenCase {
  name: string;
  md: MachineDeploymentOptions;
  config?: Record<string, unknown>;
  extraItems?: unknown[];
}

const CASES: GoldenCase[] = [
  {
    name: 'ubuntu-aws',
    md: { profile: 'osp-ubuntu', osName: 'ubuntu', cloud: 'aws', kubelet: '1.34.3', ipFamily: 'IPv4' },
  },
  {
    // Proxy, host CA, taints, an external CCM, dual-stack and kubelet settings from annotations.
    name: 'ubuntu-hetzner-dualstack-proxy',
    md: {
      profile: 'osp-ubuntu',
      osName: 'ubuntu',
      cloud: 'hetzner',
      kubelet: '1.36.0',
      ipFamily: 'IPv4+IPv6',
      annotations: {
        [KUBELET + 'KubeReserved']: 'cpu=300m,memory=1Gi',
        [KUBELET + 'EvictionHard']: 'memory.available<200Mi',
        [KUBELET + 'MaxPods']: '200',
        [KUBELET + 'ContainerLogMaxSize']: '50Mi',
      },
    },
    config: {
      externalCloudProvider: true,
      nodeHTTPProxy: 'http://proxy.example:3128',
      nodeNoProxy: '.svc,.cluster.local,10.0.0.0/8',
      hostCABundle: TEST_CA,
      initialTaints: 'dedicated=infra:NoSchedule',
      kubeletFeatureGates: { RotateKubeletServerCertificate: true, GracefulNodeShutdown: true },
    },
  },
  {
    name: 'rhel-azure-dualstack',
    md: {
      profile: 'osp-rhel',
      osName: 'rhel',
      cloud: 'azure',
      kubelet: '1.35.1',
      ipFamily: 'IPv4+IPv6',
      operatingSystemSpec: {
        rhelSubscriptionManagerUser: 'rhel-user',
        rhelSubscriptionManagerPassword: 'rhel-pass',
        attachSubscription: true,
      },
    },
  },
  {
    name: 'rockylinux-hetzner-mirrors',
    md: { profile: 'osp-rockylinux', osName: 'rockylinux', cloud: 'hetzner', kubelet: '1.33.7', ipFamily: 'IPv4' },
    config: {
      nodeRegistryMirrors: ['https://mirror.example'],
      nodeInsecureRegistries: ['10.0.0.5:5000'],
      artifacts: { kubernetes: 'https://artifacts.example/dl.k8s.io' },
    },
  },
  {
    name: 'amzn2-aws-credentials',
    md: { profile: 'osp-amzn2', osName: 'amzn2', cloud: 'aws', kubelet: '1.35.1', ipFamily: 'IPv4' },
    config: {
      pauseImage: 'registry.example:5000/pause:3.10',
      nodeRegistryCredentialsSecret: 'kube-system/registry-credentials',
    },
    extraItems: [
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: {
          name: 'registry-credentials',
          namespace: 'kube-system',
          annotations: { 'config.kubernetes.io/local-config': 'true' },
        },
        stringData: { 'registry.example:5000': JSON.stringify({ username: 'puller', password: 'pull-secret' }) },
      },
    ],
  },
  {
    // Static addressing from the MachineDeployment; automatic updates off.
    name: 'flatcar-vsphere-static',
    md: {
      profile: 'osp-flatcar',
      osName: 'flatcar',
      cloud: 'vsphere',
      kubelet: '1.34.3',
      ipFamily: 'IPv4',
      network: { cidr: '192.168.44.10/20', gateway: '192.168.32.1', dns: { servers: ['192.168.32.2', '1.1.1.1'] } },
      operatingSystemSpec: { provisioningUtility: 'ignition', disableAutoUpdate: true },
    },
  },
  {
    name: 'flatcar-vcd-ignition-3.3.0-proxy',
    md: {
      profile: 'osp-flatcar',
      osName: 'flatcar',
      cloud: 'vmware-cloud-director',
      kubelet: '1.36.0',
      ipFamily: 'IPv4',
    },
    config: { ignitionSpec: '3.3.0', nodeHTTPProxy: 'http://user:p%40ss@proxy.example:3128' },
  },
  {
    name: 'flatcar-cloud-init-anexia',
    md: {
      profile: 'osp-flatcar-cloud-init',
      osName: 'flatcar',
      cloud: 'anexia',
      kubelet: '1.35.1',
      ipFamily: 'IPv4',
      provisioningUtility: 'cloud-init',
    },
  },
];

/** Ignition as a reviewable listing; the exact bytes are pinned by their size and SHA-256. */
function ignitionListing(text: string): string {
  const ign = JSON.parse(text);
  const out = [
    `# Ignition ${ign.ignition.version}, ${Buffer.byteLength(text)} bytes, sha256 ${createHash('sha256').update(text).digest('hex')}`,
    `# ssh keys for core: ${JSON.stringify(ign.passwd?.users?.[0]?.sshAuthorizedKeys ?? [])}`,
  ];
  for (const u of ign.systemd?.units ?? [])
    out.push(`=== unit ${u.name} (enabled: ${u.enabled ?? false}${u.mask ? ', masked' : ''})`, u.contents ?? '');
  for (const f of userDataOf({ data: { 'cloud-config': Buffer.from(text).toString('base64') } }).files) {
    out.push(`=== file ${f.path} (mode 0${f.mode.toString(8)})`, f.content);
  }
  return out.join('\n');
}

for (const c of CASES) {
  test(`golden: ${c.name}`, () => {
    const md = machineDeployment({ ...c.md, name: 'workers' });
    const r = runOn(resourceList([md, ...(c.extraItems ?? [])], functionConfig(c.config)));
    assert.equal(r.exitCode, 0, r.stderr);
    for (const phase of ['bootstrap', 'provisioning']) {
      const secret = r.items.find(
        (i: any) => i.kind === 'Secret' && i.metadata.name === `workers-kube-system-${phase}-config`,
      );
      const raw = Buffer.from(secret.data['cloud-config'], 'base64').toString('utf8');
      const ignition = raw.startsWith('{');
      if (ignition && JSON.parse(raw).ignition.version === '2.3.0')
        assert.deepEqual(validateIgnition23(raw), [], `${c.name} ${phase}`);
      const actual = ignition ? ignitionListing(raw) : raw;
      const path = join(EXPECTED, c.name, `${phase}.${ignition ? 'ignition.txt' : 'yaml'}`);
      if (process.env.UPDATE_GOLDENS === '1') {
        mkdirSync(join(EXPECTED, c.name), { recursive: true });
        writeFileSync(path, actual);
      }
      const expected = readFileSync(path, 'utf8');
      if (actual !== expected) assert.fail(`${c.name} ${phase}:\n${lineDiff(expected, actual)}`);
    }
  });
}
