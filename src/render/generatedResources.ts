// The Kubernetes objects OSM writes for one MachineDeployment, named and annotated as OSM names them.
import { sha256Hex } from '../go/crypto/sha256.ts';
import { goJsonStringMap } from '../go/encoding/json/encodeString.ts';
import { OSM_API_VERSION, type OperatingSystemConfigSpec } from '../model/operatingSystemProfile.ts';
import { REVISION_ANNOTATION, type MachineDeployment } from '../machineDeployment/machineDeployment.ts';

export const CLOUD_INIT_SETTINGS_NAMESPACE = 'cloud-init-settings';
export const ANNOTATION_MD_REVISION = 'k8c.io/machine-deployment-revision';
export const ANNOTATION_MD_HASH = 'k8c.io/mdannotations-hash';
export const ANNOTATION_OSP_VERSION = 'k8c.io/osp-version';

export const oscName = (md: MachineDeployment) => `${md.name}-${md.namespace}-config`;
export const cloudConfigSecretName = (md: MachineDeployment, type: 'bootstrap' | 'provisioning') =>
  `${md.name}-${md.namespace}-${type}-config`;
export const kubeletBootstrapSecretName = (md: MachineDeployment) => `${md.key}-kubelet-bootstrap-config`;

/** sha256 of Go's json.Marshal(md.metadata.annotations), lowercase hex. */
export function annotationsHash(annotations: Readonly<Record<string, string>>): string {
  return sha256Hex(goJsonStringMap(annotations));
}

export function rotationAnnotations(md: MachineDeployment, ospVersion: string): Record<string, string> {
  return {
    [ANNOTATION_MD_REVISION]: md.annotations[REVISION_ANNOTATION] ?? '',
    [ANNOTATION_MD_HASH]: annotationsHash(md.annotations),
    [ANNOTATION_OSP_VERSION]: ospVersion,
  };
}

export function operatingSystemConfigObject(
  md: MachineDeployment,
  namespace: string,
  annotations: Record<string, string>,
  spec: OperatingSystemConfigSpec,
): Record<string, unknown> {
  return {
    apiVersion: OSM_API_VERSION,
    kind: 'OperatingSystemConfig',
    metadata: { annotations: { ...annotations }, name: oscName(md), namespace },
    spec,
  };
}

export function cloudConfigSecretObject(
  md: MachineDeployment,
  type: 'bootstrap' | 'provisioning',
  annotations: Record<string, string>,
  userData: string,
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    data: { 'cloud-config': Buffer.from(userData, 'utf8').toString('base64') },
    immutable: true,
    kind: 'Secret',
    metadata: {
      annotations: { ...annotations },
      name: cloudConfigSecretName(md, type),
      namespace: CLOUD_INIT_SETTINGS_NAMESPACE,
    },
    type: 'Opaque',
  };
}

export function kubeletBootstrapSecretObject(md: MachineDeployment, kubeconfig: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    data: { kubeconfig: Buffer.from(kubeconfig, 'utf8').toString('base64') },
    kind: 'Secret',
    metadata: { name: kubeletBootstrapSecretName(md), namespace: CLOUD_INIT_SETTINGS_NAMESPACE },
    type: 'Opaque',
  };
}
