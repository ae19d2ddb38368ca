// RHEL: OSM writes a cloud-init rh_subscription module from the MachineDeployment's operatingSystemSpec.
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import { decodeOperatingSystemSpec } from '../machineDeployment/operatingSystemSpec.ts';

/**
 * A profile annotated `osm-krm.dev/rh-subscription: when-given` gets the module only when the
 * MachineDeployment gives subscription data (OSM writes it always, with empty values cloud-init's schema
 * rejects). Our osp-rhel carries it: RHEL images with cloud-provided repositories (RHUI) need no subscription.
 */
export const RH_SUBSCRIPTION_ANNOTATION = 'osm-krm.dev/rh-subscription';

export function rhSubscription(
  md: MachineDeployment,
  profileAnnotations: Readonly<Record<string, string>> = {},
): Record<string, string> | undefined {
  const f = decodeOperatingSystemSpec('rhel', md.providerConfig.operatingSystemSpec).fields as Record<string, any>;
  if (f.RHELUseSatelliteServer) {
    return {
      org: f.RHELOrganizationName,
      'activation-key': f.RHELActivationKey,
      'server-hostname': f.RHELSatelliteServer,
      'rhsm-baseurl': `https://${f.RHELSatelliteServer}/pulp/repos`,
    };
  }
  const given = f.RHELSubscriptionManagerUser !== '' || f.RHELSubscriptionManagerPassword !== '';
  if (!given && profileAnnotations[RH_SUBSCRIPTION_ANNOTATION] === 'when-given') return undefined;
  return {
    username: f.RHELSubscriptionManagerUser,
    password: f.RHELSubscriptionManagerPassword,
    'auto-attach': String(f.AttachSubscription),
  };
}
