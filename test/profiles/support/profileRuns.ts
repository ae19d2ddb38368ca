// Building ResourceLists for the embedded default profiles and taking their output apart: MachineDeployments
// per cloud / kubelet version / IP family, the cluster facts, and the files inside each user-data Secret.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { TESTDATA } from '../../support/paths.ts';
import { clusterFactItems } from '../../../src/lint/lintScenarios.ts';

export const KUBELET_VERSIONS = ['1.33.7', '1.34.3', '1.35.1', '1.36.0'] as const;
export const IP_FAMILIES = ['IPv4', 'IPv4+IPv6'] as const;

/** A syntactically real (self-signed, throwaway) CA, so scripts that look for a PEM find one. */
export const TEST_CA = readFileSync(join(TESTDATA, 'profiles/cases/test-ca.pem'), 'utf8');

export interface MachineDeploymentOptions {
  profile: string;
  osName: string;
  cloud: string;
  kubelet: string;
  ipFamily: string;
  /** Flatcar's operatingSystemSpec.provisioningUtility. */
  provisioningUtility?: string;
  name?: string;
  annotations?: Record<string, string>;
  network?: Record<string, unknown>;
  operatingSystemSpec?: Record<string, unknown>;
  sshPublicKeys?: string[];
}

export function machineDeployment(o: MachineDeploymentOptions): Record<string, unknown> {
  const name =
    o.name ?? `${o.profile}-${o.cloud}-${o.kubelet.replaceAll('.', '-')}-${o.ipFamily === 'IPv4' ? 'v4' : 'ds'}`;
  const osSpec =
    o.operatingSystemSpec ??
    // RHEL without subscription data (cloud repositories): osp-rhel then writes no rh_subscription.
    (o.osName === 'flatcar' ? { provisioningUtility: o.provisioningUtility ?? 'ignition' } : {});
  return {
    apiVersion: 'cluster.k8s.io/v1alpha1',
    kind: 'MachineDeployment',
    metadata: {
      name,
      namespace: 'kube-system',
      annotations: {
        'k8c.io/operating-system-profile': o.profile,
        'machinedeployment.clusters.k8s.io/revision': '1',
        ...(o.annotations ?? {}),
      },
    },
    spec: {
      template: {
        spec: {
          providerSpec: {
            value: {
              sshPublicKeys: o.sshPublicKeys ?? [
                'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOsmKrmProfileMatrixKey0000000000000000000 matrix',
              ],
              cloudProvider: o.cloud,
              cloudProviderSpec: {},
              operatingSystem: o.osName,
              operatingSystemSpec: osSpec,
              network: o.network ?? { ipFamily: o.ipFamily },
            },
          },
          versions: { kubelet: o.kubelet },
        },
      },
    },
  };
}

/** A getter token as long as a real service-account token (RS256, 2048-bit key), so sizes are realistic. */
export const TEST_TOKEN = [
  Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'profile-matrix' })).toString('base64url'),
  Buffer.from(
    JSON.stringify({
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': 'cloud-init-settings',
      'kubernetes.io/serviceaccount/secret.name': 'cloud-init-getter-token',
      'kubernetes.io/serviceaccount/service-account.name': 'cloud-init-getter',
      'kubernetes.io/serviceaccount/service-account.uid': '7d3c1a2e-5b6f-4c8d-9e0f-1a2b3c4d5e6f',
      sub: 'system:serviceaccount:cloud-init-settings:cloud-init-getter',
    }),
  ).toString('base64url'),
  'S'.repeat(342),
].join('.');

/** Cluster facts (cluster-info, getter token) as local-config items, with a real PEM as the cluster CA. */
export function clusterFacts(): Record<string, unknown>[] {
  return clusterFactItems('https://api.profiles.example:6443', TEST_CA, TEST_TOKEN);
}

export function functionConfig(spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'osm-krm.dev/v1alpha1',
    kind: 'OperatingSystemManager',
    metadata: { name: 'osm' },
    spec: { clusterDNS: ['10.96.0.10'], cluster: { bootstrapToken: 'abcdef.0123456789abcdef' }, ...spec },
  };
}

export function resourceList(
  items: unknown[],
  config: Record<string, unknown> = functionConfig(),
): Record<string, unknown> {
  return {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: [...items, ...clusterFacts()],
    functionConfig: config,
  };
}

export interface UserDataFile {
  path: string;
  mode: number;
  content: string;
}

export interface UserData {
  format: 'cloud-config' | 'ignition';
  text: string;
  files: UserDataFile[];
}

/** The user-data of a cloud-config Secret, as machine-controller hands it to the cloud. */
export function userDataOf(secret: any): UserData {
  const raw = Buffer.from(secret.data['cloud-config'], 'base64').toString('utf8');
  // machine-controller substitutes the Machine's name before the cloud sees the user-data.
  const text = raw.split('<MACHINE_NAME>').join('worker-0').split('%3CMACHINE_NAME%3E').join('worker-0');
  if (text.startsWith('{')) {
    const ign = JSON.parse(text);
    const files = (ign.storage?.files ?? []).map((f: any) => ({
      path: f.path,
      mode: f.mode,
      content: decodeDataUrl(f.contents.source),
    }));
    return { format: 'ignition', text, files };
  }
  // cloud-init reads YAML 1.1; modes are quoted octal strings.
  const doc = parse(text, { version: '1.1' }) as {
    write_files?: Array<{ path: string; permissions: string; encoding?: string; content: string }>;
  };
  const files = (doc.write_files ?? []).map((f) => ({
    path: f.path,
    mode: parseInt(f.permissions, 8),
    content: f.encoding === 'b64' ? Buffer.from(f.content, 'base64').toString('utf8') : String(f.content ?? ''),
  }));
  return { format: 'cloud-config', text, files };
}

function decodeDataUrl(source: string): string {
  if (!source.startsWith('data:,')) throw new Error(`not a plain data URL: ${source.slice(0, 40)}`);
  return decodeURIComponent(source.slice('data:,'.length));
}

/** Shell scripts among the files: a `#!` line naming a shell, or a `.sh` name. */
export function isShellScript(f: UserDataFile): boolean {
  return /^#!\s*\/(usr\/)?bin\/(env\s+)?(ba|da|k)?sh\b/.test(f.content) || f.path.endsWith('.sh');
}
