// Benchmark inputs: N MachineDeployments spread over the default profiles and their clouds, with the
// config and cluster facts a real setup has. Deterministic for a given N.
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { embeddedProfiles } from '../src/profiles/embeddedProfiles.ts';

// Every (default profile, supported cloud) pair, taken in turn: Ubuntu, RHEL, Rocky Linux, Amazon Linux 2 and
// Flatcar (Ignition and cloud-init), as the function embeds them (the MachineDeployments name them; the
// profiles themselves are not in the input, as in a real repository).
const COMBOS: Array<{ profile: string; os: string; cloud: string; osSpec: Record<string, unknown> }> =
  embeddedProfiles().flatMap((p: any) =>
    (p.spec.supportedCloudProviders as Array<{ name: string }>).map((c) => ({
      profile: p.metadata.name as string,
      os: p.spec.osName as string,
      cloud: c.name,
      osSpec:
        p.spec.osName === 'flatcar'
          ? { provisioningUtility: p.spec.provisioningUtility ?? 'ignition', disableAutoUpdate: true }
          : p.spec.osName === 'rhel'
            ? {
                rhelSubscriptionManagerUser: 'bench-user',
                rhelSubscriptionManagerPassword: 'bench-pass',
                attachSubscription: true,
              }
            : { distUpgradeOnBoot: false },
    })),
  );

// CA inputs must be real certificates: the test CA.
const CA = Buffer.from(
  readFileSync(new URL('../testdata/profiles/cases/test-ca.pem', import.meta.url), 'utf8'),
).toString('base64');

export function benchResourceList(n: number): string {
  const items: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const c = COMBOS[i % COMBOS.length]!;
    items.push({
      apiVersion: 'cluster.k8s.io/v1alpha1',
      kind: 'MachineDeployment',
      metadata: {
        name: `md-${String(i).padStart(5, '0')}`,
        namespace: 'kube-system',
        annotations: {
          'k8c.io/operating-system-profile': c.profile,
          'machinedeployment.clusters.k8s.io/revision': '1',
        },
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: { md: `md-${i}` } },
        template: {
          metadata: { labels: { md: `md-${i}` } },
          spec: {
            providerSpec: {
              value: {
                sshPublicKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBenchKey bench'],
                cloudProvider: c.cloud,
                cloudProviderSpec: { region: 'r1', instanceType: 'm5.large' },
                operatingSystem: c.os,
                operatingSystemSpec: c.osSpec,
              },
            },
            versions: { kubelet: ['1.33.5', '1.34.2', '1.35.0', '1.36.1'][i % 4] },
          },
        },
      },
    });
  }
  items.push(
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'cluster-info',
        namespace: 'kube-public',
        annotations: { 'config.kubernetes.io/local-config': 'true' },
      },
      data: {
        kubeconfig: `apiVersion: v1\nkind: Config\nclusters:\n- name: ""\n  cluster:\n    server: https://api.bench.example:6443\n    certificate-authority-data: ${CA}\n`,
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'cloud-init-getter-token',
        namespace: 'cloud-init-settings',
        annotations: { 'config.kubernetes.io/local-config': 'true' },
      },
      stringData: { token: 'bench-token' },
    },
  );
  const functionConfig = {
    apiVersion: 'osm-krm.dev/v1alpha1',
    kind: 'OperatingSystemManager',
    metadata: { name: 'osm' },
    spec: { cluster: { bootstrapTokenKey: 'bench-bootstrap-token-key-0123456789' }, externalCloudProvider: true },
  };
  return stringify(
    { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items, functionConfig },
    { lineWidth: 0, aliasDuplicateObjects: false },
  );
}
