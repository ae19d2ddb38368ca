// MachineDeployment (cluster.k8s.io/v1alpha1): the parts OSM reads, decoded as strictly as OSM does.
import { ResourceError } from '../krm/results.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { decodeOperatingSystemSpec } from './operatingSystemSpec.ts';
import type { KubeletSettings } from './kubeletAnnotations.ts';
import type { CloudProvider } from '../model/cloudProviders.ts';

export const MD_API_VERSION = 'cluster.k8s.io/v1alpha1';
export const OSP_ANNOTATION = 'k8c.io/operating-system-profile';
export const OSP_NAMESPACE_ANNOTATION = 'k8c.io/operating-system-profile-namespace';
export const REVISION_ANNOTATION = 'machinedeployment.clusters.k8s.io/revision';

export interface NetworkConfig {
  cidr?: string;
  gateway?: string;
  dns?: { servers?: string[] };
  ipFamily?: string;
}

/** machine-controller's providerconfig.Config, the JSON in providerSpec.value. */
export interface ProviderConfig {
  sshPublicKeys?: string[];
  caPublicKey?: string;
  cloudProvider: string;
  cloudProviderSpec: unknown;
  operatingSystem: string;
  operatingSystemSpec: unknown;
  network?: NetworkConfig;
  overwriteCloudConfig?: string;
}

export interface MachineDeployment {
  name: string;
  namespace: string;
  /** OSM's key for its bootstrap token and kubelet bootstrap kubeconfig Secret (machineDeploymentKey). */
  key: string;
  annotations: Record<string, string>;
  kubeletVersion: string;
  providerConfig: ProviderConfig;
  /** The kubelet configuration its annotations give (kubeletAnnotations.ts), read once its values are checked. */
  kubelet: KubeletSettings;
  /** Its cloud's descriptor (src/model/cloudProviders.ts); undefined for a cloud osm-krm has none for. */
  cloud: CloudProvider | undefined;
  /** The profile it names (OSP_ANNOTATION, in OSP_NAMESPACE_ANNOTATION or the config's namespace), with its key in a run's profiles. */
  profile: ProfileReference;
}

export interface ProfileReference {
  namespace: string;
  name: string;
  key: string;
}

/** A MachineDeployment as decoded, before its values are checked (decodeMachineDeployment.ts). */
export type ParsedMachineDeployment = Omit<MachineDeployment, 'kubelet' | 'cloud' | 'profile'>;

const PROVIDER_SPEC_PATH = 'spec.template.spec.providerSpec.value';

type Checker = (v: unknown, path: string) => void;

const str: Checker = (v, path) => {
  if (typeof v !== 'string') throw decodeError(v, path, 'string');
};
const strList: Checker = (v, path) => {
  if (v === null) return;
  if (!Array.isArray(v)) throw decodeError(v, path, '[]string');
  v.forEach((e, i) => {
    if (typeof e !== 'string') throw decodeError(e, `${path}[${i}]`, 'string');
  });
};
const anyValue: Checker = () => {};

function strictObject(fields: Record<string, Checker>): Checker {
  return (v, path) => {
    if (v === null) return;
    if (typeof v !== 'object' || Array.isArray(v)) throw decodeError(v, path, 'object');
    for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
      const check = fields[k];
      if (check === undefined)
        throw new ResourceError(`failed to decode provider configs: json: unknown field "${k}"`, `${path}.${k}`);
      check(val, `${path}.${k}`);
    }
  };
}

const checkProviderConfig = strictObject({
  sshPublicKeys: strList,
  caPublicKey: str,
  cloudProvider: str,
  cloudProviderSpec: anyValue,
  operatingSystem: str,
  operatingSystemSpec: anyValue,
  network: strictObject({ cidr: str, gateway: str, dns: strictObject({ servers: strList }), ipFamily: str }),
  overwriteCloudConfig: (v, p) => (v === null ? undefined : str(v, p)),
});

function goTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v;
}

function decodeError(v: unknown, path: string, want: string): ResourceError {
  return new ResourceError(
    `failed to decode provider configs: json: cannot unmarshal ${goTypeOf(v)} into field ${path.split('.').pop()} of type ${want}`,
    path,
  );
}

export function parseMachineDeployment(obj: KrmObject): ParsedMachineDeployment {
  const meta = (obj.metadata ?? {}) as Record<string, unknown>;
  const name = meta.name;
  if (typeof name !== 'string' || name === '')
    throw new ResourceError('MachineDeployment has no metadata.name', 'metadata.name');
  const namespace = typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : 'default';
  const annotations = clusterVisible(stringMap(meta.annotations, 'metadata.annotations'));
  const spec = (obj.spec ?? {}) as Record<string, any>;
  const kubelet = spec?.template?.spec?.versions?.kubelet;
  if (typeof kubelet === 'number') {
    // `kubelet: 1.30` is the number 1.3 to YAML: say what was read, not that nothing was.
    throw new ResourceError(
      `kubelet version must be a string: YAML reads this one as the number ${kubelet}; quote it and give the patch version, e.g. "1.34.2"`,
      'spec.template.spec.versions.kubelet',
    );
  }
  if (typeof kubelet !== 'string' || kubelet === '') {
    throw new ResourceError('kubelet version must be set', 'spec.template.spec.versions.kubelet');
  }
  const value = spec?.template?.spec?.providerSpec?.value;
  if (value === undefined || value === null || (typeof value === 'object' && Object.keys(value).length === 0)) {
    const legacy = spec?.template?.spec?.providerConfig;
    if (legacy !== undefined && legacy !== null) {
      // machine-controller's conversion moves it the same way (sdk/apis/cluster/v1alpha1/conversions).
      throw new ResourceError(
        'providerSpec cannot be empty: this MachineDeployment uses the legacy field spec.template.spec.providerConfig; ' +
          'rename it to spec.template.spec.providerSpec (its value stays under .value)',
        'spec.template.spec.providerConfig',
      );
    }
    throw new ResourceError('providerSpec cannot be empty', PROVIDER_SPEC_PATH);
  }
  checkProviderConfig(value, PROVIDER_SPEC_PATH);
  const pc = value as Record<string, unknown>;
  const providerConfig: ProviderConfig = {
    cloudProvider: (pc.cloudProvider as string | undefined) ?? '',
    cloudProviderSpec: pc.cloudProviderSpec ?? null,
    operatingSystem: (pc.operatingSystem as string | undefined) ?? '',
    operatingSystemSpec: pc.operatingSystemSpec ?? null,
  };
  if (Array.isArray(pc.sshPublicKeys)) providerConfig.sshPublicKeys = pc.sshPublicKeys as string[];
  if (typeof pc.caPublicKey === 'string') providerConfig.caPublicKey = pc.caPublicKey;
  if (pc.network !== undefined && pc.network !== null) providerConfig.network = pc.network as NetworkConfig;
  if (typeof pc.overwriteCloudConfig === 'string') providerConfig.overwriteCloudConfig = pc.overwriteCloudConfig;
  return {
    name,
    namespace,
    key: machineDeploymentKey({ name, namespace }),
    annotations,
    kubeletVersion: kubelet,
    providerConfig,
  };
}

// Annotations kpt and kustomize add while a resource is in flight and strip before it is written or applied:
// the MachineDeployment in the cluster never has them, so they must not change the annotations hash.
const ORCHESTRATOR_ANNOTATION =
  /^(?:internal\.config\.kubernetes\.io\/|config\.kubernetes\.io\/(?:path|index)$|config\.k8s\.io\/id$|kustomize\.config\.k8s\.io\/)/;

export function clusterVisible(annotations: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(annotations)) if (!ORCHESTRATOR_ANNOTATION.test(k)) out[k] = v;
  return out;
}

function stringMap(v: unknown, path: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new ResourceError(`${path} must be a map of strings`, path);
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (typeof val !== 'string')
      throw new ResourceError(`${path}.${k} must be a string, got ${goTypeOf(val)}`, `${path}.${k}`);
    out[k] = val;
  }
  return out;
}

/** The key OSM uses for the bootstrap token and kubelet bootstrap kubeconfig Secret. */
export function machineDeploymentKey(md: Pick<MachineDeployment, 'name' | 'namespace'>): string {
  const key = `${md.namespace}-${md.name}`;
  return key.length >= 63 ? md.name : key;
}

/** Provisioning utility the MD asks for: flatcar's operatingSystemSpec.provisioningUtility (default ignition); cloud-init elsewhere. */
export function provisioningUtilityOf(md: Pick<MachineDeployment, 'providerConfig'>): string {
  if (md.providerConfig.operatingSystem !== 'flatcar') return 'cloud-init';
  const pu = decodeOperatingSystemSpec('flatcar', md.providerConfig.operatingSystemSpec).fields.ProvisioningUtility;
  return typeof pu === 'string' && pu !== '' ? pu : 'ignition';
}
