// The MachineDeployments lint renders an OSP with: every cloud the OSP lists, each at both ends of the
// kubelet versions machine-controller supports, IPv4 without a proxy, dual-stack with one and IPv6 alone (the
// proxy is a config flag, so each variant is a run), and Flatcar's Ignition also as 3.3.0. Cluster facts are
// stand-ins: a throwaway CA and fake tokens.
import type { KrmObject } from '../krm/resourceList.ts';
import { LINT_CLUSTER_CA } from './lintClusterCA.ts';
import { userDataFormat, userDataFormatFor, type UserDataFormatId } from '../emit/userdata/formats/index.ts';
import { DEFAULT_CONFIG } from '../config/operatingSystemManagerConfig.ts';
import type { ProvisioningUtility } from '../model/operatingSystemProfile.ts';

export const LINT_KUBELET_VERSIONS = { oldest: '1.33.0', newest: '1.36.0' } as const;

export interface LintRun {
  label: string;
  objects: KrmObject[];
  functionConfig: KrmObject;
}

export interface ScenarioProfile {
  name: string;
  namespace: string;
  osName: string;
  clouds: string[];
  provisioningUtility: string;
}

/** The renders of one profile (`ospObject`: an OSP or an overlay, rendered with `companions`: the profiles beside it). */
export function lintRuns(
  profile: ScenarioProfile,
  ospObject: KrmObject,
  companions: readonly KrmObject[] = [],
): LintRun[] {
  const variants: Array<{ label: string; kubelet: string; ipFamily: string; proxy: boolean; ignitionSpec?: string }> = [
    {
      label: `kubelet ${LINT_KUBELET_VERSIONS.oldest}, IPv4, no proxy`,
      kubelet: LINT_KUBELET_VERSIONS.oldest,
      ipFamily: 'IPv4',
      proxy: false,
    },
    {
      label: `kubelet ${LINT_KUBELET_VERSIONS.newest}, IPv4+IPv6, proxy`,
      kubelet: LINT_KUBELET_VERSIONS.newest,
      ipFamily: 'IPv4+IPv6',
      proxy: true,
    },
    {
      label: `kubelet ${LINT_KUBELET_VERSIONS.newest}, IPv6, no proxy`,
      kubelet: LINT_KUBELET_VERSIONS.newest,
      ipFamily: 'IPv6',
      proxy: false,
    },
  ];
  // A format without an external validator whose content another format carries (Ignition 2.3.0, OSM's, as
  // 3.3.0 for ignition-validate) is also emitted as that one.
  let checkedAs: string | undefined;
  try {
    const format = userDataFormatFor({
      provisioningUtility: (profile.provisioningUtility || 'cloud-init') as ProvisioningUtility,
      osName: profile.osName,
      ignitionSpec: DEFAULT_CONFIG.ignitionSpec,
    });
    checkedAs = (format.validator as { checkedAs?: string }).checkedAs;
  } catch {
    // A provisioning utility no format serves: the profile fails validation, which the render reports.
  }
  const ignitionSpec =
    checkedAs === undefined ? undefined : userDataFormat(checkedAs as UserDataFormatId).selectedBy.ignitionSpec;
  if (ignitionSpec !== undefined) {
    variants.push({
      label: `kubelet ${LINT_KUBELET_VERSIONS.oldest}, IPv4, no proxy, Ignition ${ignitionSpec}`,
      kubelet: LINT_KUBELET_VERSIONS.oldest,
      ipFamily: 'IPv4',
      proxy: false,
      ignitionSpec,
    });
  }
  return variants.map((h) => ({
    label: h.label,
    objects: [
      ospObject,
      ...companions,
      ...profile.clouds.map((cloud) => machineDeployment(profile, cloud, h.kubelet, h.ipFamily)),
      ...clusterFacts(),
    ],
    functionConfig: {
      apiVersion: 'osm-krm.dev/v1alpha1',
      kind: 'OperatingSystemManager',
      metadata: { name: 'osm-krm-lint' },
      spec: {
        namespace: profile.namespace,
        clusterDNS:
          h.ipFamily === 'IPv4'
            ? ['10.96.0.10']
            : h.ipFamily === 'IPv6'
              ? ['fd00:10:96::a']
              : ['10.96.0.10', 'fd00:10:96::a'],
        ...(h.ignitionSpec ? { ignitionSpec: h.ignitionSpec } : {}),
        cluster: { bootstrapToken: 'abcdef.0123456789abcdef' },
        ...(h.proxy
          ? { nodeHTTPProxy: 'http://proxy.lint.example:3128', nodeNoProxy: '.svc,.cluster.local,localhost,127.0.0.1' }
          : {}),
      },
    },
  }));
}

function machineDeployment(p: ScenarioProfile, cloud: string, kubelet: string, ipFamily: string): KrmObject {
  const osSpec =
    p.osName === 'flatcar'
      ? { provisioningUtility: p.provisioningUtility || 'ignition' }
      : p.osName === 'rhel'
        ? {
            rhelSubscriptionManagerUser: 'lint-user',
            rhelSubscriptionManagerPassword: 'lint-password',
            attachSubscription: true,
          }
        : {};
  return {
    apiVersion: 'cluster.k8s.io/v1alpha1',
    kind: 'MachineDeployment',
    metadata: {
      name: `lint-${cloud}`,
      namespace: 'kube-system',
      annotations: {
        'k8c.io/operating-system-profile': p.name,
        'k8c.io/operating-system-profile-namespace': p.namespace,
      },
    },
    spec: {
      template: {
        spec: {
          providerSpec: {
            value: {
              sshPublicKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOsmKrmLintKey000000000000000000000000000 lint'],
              cloudProvider: cloud,
              cloudProviderSpec: {},
              operatingSystem: p.osName,
              operatingSystemSpec: osSpec,
              network: { ipFamily },
            },
          },
          versions: { kubelet },
        },
      },
    },
  };
}

/** The cluster facts a render needs (cluster-info with its CA, the getter token), as local-config items. */
export function clusterFactItems(server: string, caPem: string, getterToken: string): KrmObject[] {
  const local = { 'config.kubernetes.io/local-config': 'true' };
  const kubeconfig = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: ""',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${Buffer.from(caPem).toString('base64')}`,
    '',
  ].join('\n');
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cluster-info', namespace: 'kube-public', annotations: local },
      data: { kubeconfig },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'cloud-init-getter-token', namespace: 'cloud-init-settings', annotations: local },
      stringData: { token: getterToken },
    },
  ];
}

const clusterFacts = () =>
  clusterFactItems('https://api.lint.example:6443', LINT_CLUSTER_CA, 'lint.getter.token-0000000000000000');
