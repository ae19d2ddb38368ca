// Inputs for the robustness suite: a valid base ResourceList (a small OSP of our own, two MachineDeployments,
// cluster facts with recognisable test secrets) and seeded mutations of it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { TESTDATA } from '../support/paths.ts';

const TEST_CA = readFileSync(join(TESTDATA, 'profiles/cases/test-ca.pem'), 'utf8');

export const TEST_SECRETS = [
  'getter-token-7f3a9c1e5b',
  'bootstrapsecret4',
  'Rhel-Passw0rd-Secret',
  'registry-pass-99x',
];

export const SMALL_OSP = {
  apiVersion: 'operatingsystemmanager.k8c.io/v1alpha1',
  kind: 'OperatingSystemProfile',
  metadata: { name: 'osp-small', namespace: 'kube-system' },
  spec: {
    osName: 'ubuntu',
    osVersion: '24.04',
    version: 'v1.0.0',
    provisioningUtility: 'cloud-init',
    supportedCloudProviders: [{ name: 'aws' }, { name: 'openstack' }],
    bootstrapConfig: {
      files: [
        {
          path: '/opt/bin/bootstrap',
          permissions: 755,
          content: {
            inline: {
              encoding: 'b64',
              data: "#!/bin/bash\ncurl -s --header 'Authorization: Bearer {{ .Token }}' {{ .ServerURL }}/api/v1/namespaces/cloud-init-settings/secrets/{{ .SecretName }}\n",
            },
          },
        },
      ],
      modules: { runcmd: ['systemctl restart bootstrap.service'] },
    },
    provisioningConfig: {
      files: [
        {
          path: '/opt/bin/setup',
          permissions: 755,
          content: {
            inline: {
              data: '#!/bin/bash\necho {{ .KubeVersion }} {{ .CloudProviderName }}\n{{- range .ClusterDNSIPs }}\necho {{ . }}{{ end }}\n',
            },
          },
        },
      ],
    },
  },
};

export function machineDeployment(name: string, extra: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'cluster.k8s.io/v1alpha1',
    kind: 'MachineDeployment',
    metadata: { name, namespace: 'kube-system', annotations: { 'k8c.io/operating-system-profile': 'osp-small' } },
    spec: {
      template: {
        spec: {
          providerSpec: {
            value: {
              sshPublicKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIRobust robust'],
              cloudProvider: 'aws',
              cloudProviderSpec: {},
              operatingSystem: 'ubuntu',
              operatingSystemSpec: {},
              ...extra,
            },
          },
          versions: { kubelet: '1.34.1' },
        },
      },
    },
  };
}

export function baseItems(): any[] {
  return [
    SMALL_OSP,
    machineDeployment('workers-a'),
    machineDeployment('workers-b'),
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'unrelated',
        namespace: 'default',
        annotations: { 'config.kubernetes.io/path': 'unrelated.yaml' },
      },
      data: { keep: 'me' },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'cloud-init-getter-token',
        namespace: 'cloud-init-settings',
        annotations: { 'config.kubernetes.io/local-config': 'true' },
      },
      stringData: { token: TEST_SECRETS[0] },
    },
  ];
}

/** baseItems() with the small OSP's provisioningConfig replaced (a hostile profile's files). */
export function itemsWithProvisioningConfig(provisioningConfig: unknown): any[] {
  const items = baseItems();
  items[0] = { ...SMALL_OSP, spec: { ...SMALL_OSP.spec, provisioningConfig } };
  return items;
}

export const BASE_CONFIG = {
  apiVersion: 'osm-krm.dev/v1alpha1',
  kind: 'OperatingSystemManager',
  metadata: { name: 'osm' },
  spec: {
    clusterDNS: ['10.96.0.10'],
    kubernetesCABundle: TEST_CA,
    cluster: { server: 'https://api.robust.example:6443', bootstrapToken: `abcdef.${TEST_SECRETS[1]}` },
  },
};

export function resourceList(items: unknown[], functionConfig: unknown = BASE_CONFIG): string {
  return stringify(
    { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items, functionConfig },
    { lineWidth: 0 },
  );
}

export { rng } from '../support/rng.ts';
