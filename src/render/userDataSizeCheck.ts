// Does a bootstrap user-data fit the cloud's user-data limit? The bootstrap Secret is what machine-controller
// hands to the cloud API when it creates the machine, so a config over the limit only fails there, at scale-up
// time. We check it when rendering instead: a warning from 90 % of the limit, an error above it.
//
// `bytes` is the size of the user-data as the Secret holds it (UTF-8), uncompressed. machine-controller gzips
// the user-data on AWS except for Flatcar (reference/mc.md §2.3), so for cloud-init systems on AWS the real
// payload is smaller; we still check the raw size, on purpose: Flatcar's Ignition config goes to AWS raw, and a
// bootstrap that fits uncompressed does not depend on how a particular machine-controller version encodes it.
// machine-controller also replaces the `<MACHINE_NAME>` placeholder (twice on clouds other than AWS), which
// can add a few dozen bytes; the warning margin covers that.

export interface UserDataLimit {
  /** Largest accepted user-data, in bytes of the raw (decoded) content. */
  bytes: number;
  /** What the provider documents, for the message and the docs. */
  rule: string;
  /** Where it is documented; for clouds without a documented limit, where we looked. */
  source: string;
  /** false: the cloud documents no limit and `bytes` is our default, checked with a warning only. */
  documented: boolean;
}

/**
 * Clouds that document no user-data limit are held to this: 32 KiB, what Hetzner and Alibaba allow and half of
 * what DigitalOcean, Azure and OpenStack allow. Exceeding it gives a warning, never an error (nothing says the
 * cloud refuses it). It is above upstream's largest bootstrap (Flatcar with cloud-init on Anexia, 19.7 KB).
 */
export const DEFAULT_UNDOCUMENTED_LIMIT = 32 * 1024;

const undocumented = (source: string): UserDataLimit => ({
  bytes: DEFAULT_UNDOCUMENTED_LIMIT,
  rule: `no documented limit; osm-krm's default is ${DEFAULT_UNDOCUMENTED_LIMIT} bytes`,
  source,
  documented: false,
});

/** User-data limits, one per machine-controller cloud provider (providerconfig.AllCloudProviders, less fake/external). */
export const USER_DATA_LIMITS: Readonly<Record<string, UserDataLimit>> = Object.freeze({
  aws: {
    bytes: 16 * 1024,
    rule: 'EC2 user data is limited to 16 KB in raw form, before base64 encoding',
    source: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-add-user-data.html',
    documented: true,
  },
  azure: {
    bytes: 65535,
    rule: 'Azure customData decodes to at most 65535 bytes',
    source: 'https://learn.microsoft.com/en-us/javascript/api/@azure/arm-compute/osprofileprovisioningdata',
    documented: true,
  },
  gce: {
    bytes: 256 * 1024,
    rule: 'a Compute Engine metadata value (user-data) is at most 262144 bytes (256 KiB)',
    source: 'https://cloud.google.com/compute/docs/reference/rest/v1/instances (Metadata.items[].value)',
    documented: true,
  },
  openstack: {
    // 65535 base64 characters carry floor(65535 / 4) * 3 bytes.
    bytes: 49149,
    rule: 'Nova restricts base64-encoded user data to 65535 bytes, i.e. 49149 bytes before encoding',
    source: 'https://docs.openstack.org/nova/latest/user/metadata.html#user-provided-data',
    documented: true,
  },
  hetzner: {
    bytes: 32 * 1024,
    rule: 'Hetzner Cloud limits user_data to 32 KiB',
    source: 'https://docs.hetzner.cloud/#servers-create-a-server (user_data)',
    documented: true,
  },
  digitalocean: {
    bytes: 64 * 1024,
    rule: 'DigitalOcean limits a Droplet\'s user_data to 64 KiB',
    source: 'https://docs.digitalocean.com/reference/api/api-reference/#operation/droplets_create (user_data)',
    documented: true,
  },
  alibaba: {
    bytes: 32 * 1024,
    rule: 'Alibaba Cloud ECS accepts at most 32 KB of raw user data',
    source: 'https://www.alibabacloud.com/help/en/ecs/developer-reference/api-runinstances (UserData)',
    documented: true,
  },
  kubevirt: {
    // machine-controller stores the user-data in a Secret in the VM's namespace.
    bytes: 1024 * 1024,
    rule: 'KubeVirt user data lives in a Kubernetes Secret, which holds at most 1 MiB',
    source: 'https://kubernetes.io/docs/concepts/configuration/secret/#restriction-data-size',
    documented: true,
  },
  // machine-controller passes cloud-init's user-data as the guestinfo.userdata property (Ignition as
  // guestinfo.ignition.config.data); VMware documents 512 KiB only for its own cloud-init customization spec.
  vsphere: undocumented('https://developer.broadcom.com/xapis/vsphere-automation-api/latest/vcenter/data-structures/Guest_CloudinitConfiguration (not the guestinfo route)'),
  'vmware-cloud-director': undocumented('VMware Cloud Director vApp guest properties: no size found in its API documentation'),
  nutanix: undocumented('Nutanix Prism v3 guest_customization.cloud_init.user_data: no size found in its API documentation'),
  anexia: undocumented('Anexia Engine VM deployment script: no size found in its documentation'),
  equinixmetal: undocumented('https://deploy.equinix.com/developers/docs/metal/server-metadata/user-data/ (no size given)'),
  linode: undocumented('https://techdocs.akamai.com/cloud-computing/docs/overview-of-the-metadata-service (no size given)'),
  scaleway: undocumented('https://www.scaleway.com/en/developers/api/instance/user-data (no size given)'),
  vultr: undocumented('https://www.vultr.com/api/ (create instance, user_data: no size given)'),
  opennebula: undocumented('OpenNebula CONTEXT USER_DATA: no size found in its documentation'),
  // Tinkerbell takes the user-data as a workflow template value; edge machines fetch their script themselves.
  baremetal: undocumented('Tinkerbell workflow template values: no size found in its documentation'),
  edge: undocumented('machine-controller edge provider: no cloud API receives the user-data'),
});

/** Share of the limit from which a warning is given. */
export const WARNING_RATIO = 0.9;

export interface UserDataSizeFinding {
  severity: 'warning' | 'error';
  message: string;
}

/**
 * A warning when `bytes` is at 90 % of the cloud's user-data limit or more, an error when it is over a documented
 * limit (a warning over our default for clouds without one), nothing otherwise or for unknown clouds.
 */
export function checkUserDataSize(cloudProvider: string, bytes: number): UserDataSizeFinding | undefined {
  const limit = Object.prototype.hasOwnProperty.call(USER_DATA_LIMITS, cloudProvider) ? USER_DATA_LIMITS[cloudProvider] : undefined;
  if (limit === undefined) return undefined;
  const share = `${bytes} bytes, ${Math.round((bytes / limit.bytes) * 100)} % of the ${limit.bytes}-byte limit`;
  if (bytes > limit.bytes && limit.documented) {
    return { severity: 'error', message: `bootstrap user-data is too large for ${cloudProvider}: ${share} (${limit.rule}); the machine cannot be created` };
  }
  if (bytes > limit.bytes) {
    return { severity: 'warning', message: `bootstrap user-data is larger than osm-krm's default limit for ${cloudProvider}: ${share} (${limit.rule}); keep it smaller if the cloud refuses it` };
  }
  if (bytes >= Math.ceil(limit.bytes * WARNING_RATIO)) {
    return { severity: 'warning', message: `bootstrap user-data is close to the ${cloudProvider} limit: ${share} (${limit.rule})` };
  }
  return undefined;
}
