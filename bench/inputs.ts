// Benchmark inputs: N MachineDeployments spread over the default profiles and their clouds, with the
// config and cluster facts a real setup has. Deterministic for a given N.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

// Until osm-krm embeds default profiles, the benchmark uses the example profiles (examples/basic).
const EXAMPLE = parse(readFileSync(join(import.meta.dirname, '..', 'examples/basic/resourcelist.yaml'), 'utf8')) as { items: any[] };
const PROFILES = EXAMPLE.items.filter((i) => i.kind === 'OperatingSystemProfile');

const COMBOS: Array<{ profile: string; os: string; cloud: string; osSpec: Record<string, unknown> }> = [
  { profile: 'example-ubuntu', os: 'ubuntu', cloud: 'aws', osSpec: { distUpgradeOnBoot: false } },
  { profile: 'example-flatcar', os: 'flatcar', cloud: 'vsphere', osSpec: { disableAutoUpdate: true } },
];

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIBbench\n-----END CERTIFICATE-----\n').toString('base64');

export function benchResourceList(n: number): string {
  const items: unknown[] = [...PROFILES];
  for (let i = 0; i < n; i++) {
    const c = COMBOS[i % COMBOS.length]!;
    items.push({
      apiVersion: 'cluster.k8s.io/v1alpha1',
      kind: 'MachineDeployment',
      metadata: {
        name: `md-${String(i).padStart(5, '0')}`,
        namespace: 'kube-system',
        annotations: { 'k8c.io/operating-system-profile': c.profile, 'machinedeployment.clusters.k8s.io/revision': '1' },
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: { md: `md-${i}` } },
        template: {
          metadata: { labels: { md: `md-${i}` } },
          spec: {
            providerSpec: { value: { sshPublicKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBenchKey bench'], cloudProvider: c.cloud, cloudProviderSpec: { region: 'r1', instanceType: 'm5.large' }, operatingSystem: c.os, operatingSystemSpec: c.osSpec } },
            versions: { kubelet: ['1.33.5', '1.34.2', '1.35.0', '1.36.1'][i % 4] },
          },
        },
      },
    });
  }
  items.push(
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cluster-info', namespace: 'kube-public', annotations: { 'config.kubernetes.io/local-config': 'true' } }, data: { kubeconfig: `apiVersion: v1\nkind: Config\nclusters:\n- name: ""\n  cluster:\n    server: https://api.bench.example:6443\n    certificate-authority-data: ${CA}\n` } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'cloud-init-getter-token', namespace: 'cloud-init-settings', annotations: { 'config.kubernetes.io/local-config': 'true' } }, stringData: { token: 'bench-token' } },
  );
  const functionConfig = {
    apiVersion: 'osm-krm.dev/v1alpha1', kind: 'OperatingSystemManager', metadata: { name: 'osm' },
    spec: { cluster: { bootstrapTokenKey: 'bench-bootstrap-token-key-0123456789' }, externalCloudProvider: true },
  };
  return stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items, functionConfig }, { lineWidth: 0, aliasDuplicateObjects: false });
}
