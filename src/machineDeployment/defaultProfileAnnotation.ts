// OSM's mutating webhook default for a MachineDeployment without the OSP annotation (opt-in here).
import { provisioningUtilityOf, type ParsedMachineDeployment as MachineDeployment } from './machineDeployment.ts';
import { cloudProvider as cloudProviderDescriptor } from '../model/cloudProviders.ts';

const DEFAULTED_OS = new Set(['ubuntu', 'flatcar', 'amzn2', 'rockylinux', 'rhel']);

/** The profile OSM's webhook would choose, or undefined for an OS it rejects. */
export function defaultProfileName(md: MachineDeployment): string | undefined {
  const { cloudProvider, operatingSystem } = md.providerConfig;
  // OSM's webhook does this for Anexia only; the cloud's descriptor says where we do it too.
  if (
    cloudProviderDescriptor(cloudProvider)?.flatcarCloudInitProfileByDefault &&
    operatingSystem === 'flatcar' &&
    provisioningUtilityOrError(md) === 'cloud-init'
  )
    return 'osp-flatcar-cloud-init';
  return DEFAULTED_OS.has(operatingSystem) ? `osp-${operatingSystem}` : undefined;
}

// OSM's webhook ignores a spec it cannot decode here and falls through to the general rule.
function provisioningUtilityOrError(md: MachineDeployment): string | undefined {
  try {
    return provisioningUtilityOf(md);
  } catch {
    return undefined;
  }
}
