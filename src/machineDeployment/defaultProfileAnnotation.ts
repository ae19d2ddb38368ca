// OSM's mutating webhook default for a MachineDeployment without the OSP annotation (opt-in here).
import { provisioningUtilityOf, type MachineDeployment } from './machineDeployment.ts';

const DEFAULTED_OS = new Set(['ubuntu', 'flatcar', 'amzn2', 'rockylinux', 'rhel']);

/** The profile OSM's webhook would choose, or undefined for an OS it rejects. */
export function defaultProfileName(md: MachineDeployment): string | undefined {
  const { cloudProvider, operatingSystem } = md.providerConfig;
  // OSM's webhook does this for Anexia only; OpenNebula's Flatcar also boots with cloud-init (its only profile).
  if ((cloudProvider === 'anexia' || cloudProvider === 'opennebula') && operatingSystem === 'flatcar' && provisioningUtilityOf(md) === 'cloud-init') return 'osp-flatcar-cloud-init';
  return DEFAULTED_OS.has(operatingSystem) ? `osp-${operatingSystem}` : undefined;
}
