// Does a bootstrap user-data fit the cloud's user-data limit? The bootstrap Secret is what machine-controller
// hands to the cloud API when it creates the machine, so a config over the limit only fails there, at scale-up
// time. We check it when rendering instead: a warning from 90 % of the limit, an error above it.
//
// `bytes` is the size of the user-data as the Secret holds it (UTF-8), uncompressed. machine-controller gzips
// the user-data on AWS except for Flatcar (reference/mc.md §2.3), so for cloud-init systems on AWS the real
// payload is smaller; we still check the raw size, on purpose: Flatcar's Ignition config goes to AWS raw, and a
// bootstrap that fits uncompressed does not depend on how a particular machine-controller version encodes it.
// machine-controller also replaces the `<MACHINE_NAME>` placeholder (twice on clouds other than AWS), which
// can add a few dozen bytes; the warning margin covers that. Each cloud's limit, with its source, is in its
// descriptor (src/model/cloudProviders.ts).

import type { CloudProvider } from '../model/cloudProviders.ts';

/** Share of the limit from which a warning is given. */
export const WARNING_RATIO = 0.9;

export interface UserDataSizeFinding {
  severity: 'warning' | 'error';
  message: string;
}

/**
 * A warning when `bytes` is at 90 % of the cloud's user-data limit or more, an error when it is over a documented
 * limit (a warning over our default for clouds without one), nothing otherwise or for a cloud without a descriptor.
 */
export function checkUserDataSize(provider: CloudProvider | undefined, bytes: number): UserDataSizeFinding | undefined {
  const limit = provider?.userDataLimit;
  const cloud = provider?.name;
  if (limit === undefined || limit === null) return undefined;
  const share = `${bytes} bytes, ${Math.round((bytes / limit.bytes) * 100)} % of the ${limit.bytes}-byte limit`;
  if (bytes > limit.bytes && limit.documented) {
    return {
      severity: 'error',
      message: `bootstrap user-data is too large for ${cloud}: ${share} (${limit.rule}); the machine cannot be created`,
    };
  }
  if (bytes > limit.bytes) {
    return {
      severity: 'warning',
      message: `bootstrap user-data is larger than osm-krm's default limit for ${cloud}: ${share} (${limit.rule}); keep it smaller if the cloud refuses it`,
    };
  }
  if (bytes >= Math.ceil(limit.bytes * WARNING_RATIO)) {
    return {
      severity: 'warning',
      message: `bootstrap user-data is close to the ${cloud} limit: ${share} (${limit.rule})`,
    };
  }
  return undefined;
}
