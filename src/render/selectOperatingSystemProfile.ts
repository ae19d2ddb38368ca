// Which OSP renders a MachineDeployment, and OSM's compatibility checks between the two.
import { ResourceError } from '../krm/results.ts';
import { didYouMean } from '../krm/didYouMean.ts';
import {
  OSP_ANNOTATION,
  OSP_NAMESPACE_ANNOTATION,
  provisioningUtilityOf,
  type MachineDeployment,
} from '../machineDeployment/machineDeployment.ts';
import type { ProfileEntry } from '../model/profileEntry.ts';

export function selectOperatingSystemProfile(
  md: MachineDeployment,
  profiles: ReadonlyMap<string, ProfileEntry>,
): ProfileEntry {
  const { name, namespace, key } = md.profile;
  const osp = profiles.get(key);
  if (osp === undefined) {
    const elsewhere = [...profiles.values()]
      .filter((p) => p.name === name)
      .map((p) => JSON.stringify(p.namespace))
      .sort();
    const inNamespace = [...profiles.values()].filter((p) => p.namespace === namespace).map((p) => p.name);
    const hint =
      elsewhere.length > 0
        ? ` (the inputs have it in namespace ${elsewhere.join(', ')}: move it, or name its namespace with ${OSP_NAMESPACE_ANNOTATION})`
        : didYouMean(name, inNamespace);
    throw new ResourceError(
      `OperatingSystemProfile ${JSON.stringify(name)} not found in namespace ${JSON.stringify(namespace)}${hint}`,
      `metadata.annotations.${OSP_ANNOTATION}`,
    );
  }
  const pc = md.providerConfig;
  if (osp.spec.osName !== pc.operatingSystem) {
    throw new ResourceError(
      `OperatingSystemProfile ${JSON.stringify(name)} does not support operating system ${JSON.stringify(pc.operatingSystem)}`,
      'spec.template.spec.providerSpec.value.operatingSystem',
    );
  }
  if (!(osp.spec.supportedCloudProviders ?? []).some((c) => c?.name === pc.cloudProvider)) {
    throw new ResourceError(
      `OperatingSystemProfile ${JSON.stringify(name)} does not support cloud provider ${JSON.stringify(pc.cloudProvider)} (its supportedCloudProviders: ${(osp.spec.supportedCloudProviders ?? []).map((c) => c?.name).join(', ')})`,
      'spec.template.spec.providerSpec.value.cloudProvider',
    );
  }
  // Decoded here, not with the MachineDeployment: a flatcar spec that does not decode is an error only for a
  // MachineDeployment osm-krm renders, and only once its profile is found.
  const wanted = provisioningUtilityOf(md);
  if (osp.spec.provisioningUtility && osp.spec.provisioningUtility !== wanted) {
    throw new ResourceError(
      `specified provisioning utility ${JSON.stringify(osp.spec.provisioningUtility)} is not supported by the OperatingSystemProfile (the MachineDeployment asks for ${JSON.stringify(wanted)})`,
      'spec.template.spec.providerSpec.value.operatingSystemSpec.provisioningUtility',
    );
  }
  return osp;
}
