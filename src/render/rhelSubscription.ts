// RHEL: OSM writes a cloud-init rh_subscription module from the MachineDeployment's operatingSystemSpec.
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import { decodeOperatingSystemSpec } from './operatingSystemSpec.ts';

export function rhSubscription(md: MachineDeployment): Record<string, string> {
  const f = decodeOperatingSystemSpec('rhel', md.providerConfig.operatingSystemSpec).fields as Record<string, any>;
  if (f.RHELUseSatelliteServer) {
    return {
      org: f.RHELOrganizationName,
      'activation-key': f.RHELActivationKey,
      'server-hostname': f.RHELSatelliteServer,
      'rhsm-baseurl': `https://${f.RHELSatelliteServer}/pulp/repos`,
    };
  }
  return { username: f.RHELSubscriptionManagerUser, password: f.RHELSubscriptionManagerPassword, 'auto-attach': String(f.AttachSubscription) };
}
