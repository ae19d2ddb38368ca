// The data OSP templates are executed with: OSM's `filesData` struct, field for field and type for type
// (pointers stay pointers so `{{ if .HTTPProxy }}` and printing behave as in Go).
import { goMap, goNilMap, goNilSlice, GoPointer, goSlice, GoStringer, GoStruct } from '../go/reflect/value.ts';
import { ResourceError } from '../krm/results.ts';
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import {
  decodeOperatingSystemSpec,
  decodeOperatingSystemSpecWithKeys,
  OS_CONFIG_FIELDS,
} from '../machineDeployment/operatingSystemSpec.ts';
import type { KubeletVersion } from './kubeletVersion.ts';
import type { CloudProviderSettings } from './cloudProviderSettings.ts';
import { parseIP } from '../go/net/parseIP.ts';
import { scriptValue, type ValueKind } from '../model/scriptValues.ts';

export const FILES_DATA_TYPE = 'resources.filesData';

/** The values of the template data that are the same for every MachineDeployment of a run. */
export interface RunTemplateValues {
  clusterDNS: readonly string[];
  kubernetesCACert: string;
  hostCACert: string;
  containerRuntime: string;
  initialTaints: string;
  nodeHTTPProxy: string;
  nodeNoProxy: string;
  pauseImage: string;
  kubeletFeatureGates: Readonly<Record<string, boolean>>;
  containerRuntimeConfig: string;
  serverURL: string;
  /** osm-krm addition: artifact base URLs for the default profiles (`.Artifacts.<key>`). */
  artifacts: Readonly<Record<string, string>>;
}

export interface TemplateDataInput extends RunTemplateValues {
  md: MachineDeployment;
  kubelet: KubeletVersion;
  cloud: CloudProviderSettings;
  bootstrapKubeconfig: string;
  token: string;
  provisioningSecretName: string;
  bootstrapKubeconfigSecretName: string;
  /** What checkRunTemplateValues found for the run (checked once), thrown for each MachineDeployment. */
  runValuesError?: Error;
}

const PROVIDER = 'spec.template.spec.providerSpec.value';

/** The MachineDeployment's strings the templates see, each through the choke point, then the run's (checked once). */
function checkTemplateValues(input: TemplateDataInput): void {
  const pc = input.md.providerConfig;
  scriptValue(pc.cloudProvider, 'word', `${PROVIDER}.cloudProvider`);
  scriptValue(input.cloud.cloudConfig, 'text', `${PROVIDER}.overwriteCloudConfig`);
  const e = input.runValuesError;
  if (e !== undefined) throw e instanceof ResourceError ? new ResourceError(e.message, e.fieldPath) : e;
}

/**
 * The config's strings the templates see (with the cloud-init getter token `token`), each through the choke
 * point: the error for the first unsafe one, undefined when all are safe. They are the same for every
 * MachineDeployment of a run, so the run checks them once, when it is planned.
 */
export function checkRunTemplateValues(values: RunTemplateValues, token: string): Error | undefined {
  const checks: Array<[value: string, kind: ValueKind, field: string, label?: string]> = [
    [values.initialTaints, 'word', 'functionConfig spec.initialTaints'],
    [values.nodeHTTPProxy, 'word', 'functionConfig spec.nodeHTTPProxy'],
    [values.nodeNoProxy, 'word', 'functionConfig spec.nodeNoProxy'],
    [values.pauseImage, 'word', 'functionConfig spec.pauseImage'],
    [values.containerRuntime, 'word', 'functionConfig spec.containerRuntime'],
    [
      token,
      'word',
      'functionConfig spec.cluster.cloudInitGetterToken',
      'the cloud-init-getter token (spec.cluster.cloudInitGetterToken or its Secret)',
    ],
    [
      values.serverURL,
      'word',
      'functionConfig spec.cluster.server (or cluster-info, or spec.overrideBootstrapKubeletAPIServer)',
    ],
    [values.kubernetesCACert, 'text', 'functionConfig spec.kubernetesCABundle'],
    [values.hostCACert, 'text', 'functionConfig spec.hostCABundle'],
    ...Object.keys(values.kubeletFeatureGates).map((k): [string, ValueKind, string] => [
      k,
      'word',
      'functionConfig spec.kubeletFeatureGates',
    ]),
    ...Object.entries(values.artifacts).flatMap(([k, v]): Array<[string, ValueKind, string]> => [
      [k, 'word', 'functionConfig spec.artifacts'],
      [v, 'word', `functionConfig spec.artifacts.${k}`],
    ]),
  ];
  try {
    for (const [value, kind, field, label] of checks)
      scriptValue(value, kind, field.replace(/^functionConfig /, ''), label ?? field);
  } catch (e) {
    if (e instanceof Error) return e;
    throw e;
  }
  return undefined;
}

/** Strings of a decoded operatingSystemSpec: one line each (RHEL passwords may hold any printable character). */
function checkOperatingSystemSpec(config: GoStruct, sourceKeys: Record<string, string>): void {
  for (const [goName, v] of Object.entries(config.fields)) {
    if (typeof v === 'string' && sourceKeys[goName] !== undefined) {
      const field = `${PROVIDER}.operatingSystemSpec.${sourceKeys[goName]}`;
      scriptValue(v, goName === 'ProvisioningUtility' ? 'word' : 'line', field);
    }
  }
}

export function buildTemplateData(input: TemplateDataInput): GoPointer {
  const { md } = input;
  checkTemplateValues(input);
  const pc = md.providerConfig;
  const network = pc.network;
  const isStatic = !!network && (!!network.cidr || !!network.gateway || (network.dns?.servers?.length ?? 0) > 0);
  if (isStatic && pc.operatingSystem !== 'flatcar') {
    throw new ResourceError(
      `static IP config is not supported with: ${pc.operatingSystem}`,
      'spec.template.spec.providerSpec.value.network',
    );
  }
  const osConfigs: Record<string, GoStruct> = {};
  for (const [os, field] of Object.entries(OS_CONFIG_FIELDS)) {
    const { value, sourceKeys } = decodeOperatingSystemSpecWithKeys(
      os,
      os === pc.operatingSystem ? pc.operatingSystemSpec : null,
    );
    checkOperatingSystemSpec(value, sourceKeys);
    osConfigs[field] = value;
  }
  if (!(pc.operatingSystem in OS_CONFIG_FIELDS)) decodeOperatingSystemSpec(pc.operatingSystem, null);

  const fields: Record<string, unknown> = {
    KubeVersion: input.kubelet.text,
    KubeletConfiguration: '',
    KubeletSystemdUnit: '',
    BootstrapKubeconfig: input.bootstrapKubeconfig,
    InTreeCCMAvailable: input.cloud.inTreeCCMAvailable,
    CNIVersion: '',
    ClusterDNSIPs: goSlice(
      'net.IP',
      input.clusterDNS.map((ip, i) => {
        const parsed = parseIP(ip);
        if (parsed === undefined)
          throw new ResourceError(`invalid cluster DNS IP ${JSON.stringify(ip)}`, `spec.clusterDNS[${i}]`);
        return new GoStringer('net.IP', parsed);
      }),
    ),
    KubernetesCACert: input.kubernetesCACert,
    HostCACert: input.hostCACert,
    ServerAddress: '',
    CloudConfig: input.cloud.cloudConfig,
    ContainerRuntime: input.containerRuntime,
    CloudProviderName: pc.cloudProvider,
    NetworkConfig: network
      ? new GoPointer(
          '*providerconfig.NetworkConfig',
          new GoStruct('providerconfig.NetworkConfig', {
            CIDR: network.cidr ?? '',
            Gateway: network.gateway ?? '',
            DNS: new GoStruct('providerconfig.DNSConfig', {
              Servers: network.dns?.servers ? goSlice('string', [...network.dns.servers]) : goNilSlice('string'),
            }),
            IPFamily: network.ipFamily ?? '',
          }),
        )
      : new GoPointer('*providerconfig.NetworkConfig', null),
    ExternalCloudProvider: input.cloud.externalCloudProvider,
    InitialTaints: input.initialTaints,
    HTTPProxy: new GoPointer('*string', input.nodeHTTPProxy === '' ? null : input.nodeHTTPProxy),
    NoProxy: new GoPointer('*string', input.nodeNoProxy === '' ? null : input.nodeNoProxy),
    ContainerRuntimeConfig: input.containerRuntimeConfig,
    ContainerRuntimeAuthConfig: '',
    KubeletFeatureGates: goMap('bool', { ...input.kubeletFeatureGates }),
    RHSubscription: goNilMap('string'), // never set by OSM
    NetworkIPFamily: network?.ipFamily ?? '',
    PauseImage: input.pauseImage,
    ...md.kubelet,
    ...osConfigs,
    Token: input.token,
    ServerURL: input.serverURL,
    SecretName: input.provisioningSecretName,
    BootstrapKubeconfigSecretName: input.bootstrapKubeconfigSecretName,
    Artifacts: goMap('string', { ...input.artifacts }),
  };
  return new GoPointer('*' + FILES_DATA_TYPE, new GoStruct(FILES_DATA_TYPE, fields));
}
