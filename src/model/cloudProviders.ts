// Every cloud provider osm-krm knows, one descriptor each: the one place a cloud is described. Everything else
// reads it: the OSP schema's enum (scripts/generate-validators.mjs writes it from here), the in-tree CCM and
// cloud-config rules (render/cloudProviderSettings.ts), the user-data size check (render/userDataSizeCheck.ts),
// the special cases of the user-data envelopes (emit/userdata/), the edge script Secret (render/), the webhook
// default (machineDeployment/defaultProfileAnnotation.ts). test/model/cloudProviders.test.ts ties the embedded
// profiles, upstream OSM's CRD and default OSPs and docs/profiles.md to it, and fails on a cloud list kept
// anywhere else.
//
// The names: OSM's CRD enum (pkg/crd/osm/v1alpha1/common_types.go, CloudProvider) plus machine-controller's
// equinixmetal and vultr (providerconfig.AllCloudProviders), which OSM's CRD leaves out (reference/mc.md §1.2).
// machine-controller's legacy `packet` is not one: its webhook rewrites it to equinixmetal before OSM sees it.

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

export interface CloudProvider {
  /** The name in providerSpec.value.cloudProvider, the OSP's supportedCloudProviders and the OSC. */
  readonly name: string;
  /** In OSM's CRD enum: a cluster with OSM's CRDs accepts an OSP or OSC naming it. */
  readonly inOsmCrd: boolean;
  /** OSM's default OSPs that list it (upstream, deploy/osps/default; tested against ../shared/upstream). */
  readonly osmDefaultProfiles: readonly string[];
  /** Our embedded default profiles that list it (a superset of OSM's; tested against src/profiles/). */
  readonly defaultProfiles: readonly string[];
  /**
   * The bootstrap user-data limit the render checks (render/userDataSizeCheck.ts), with its source; null: no
   * check (machine-controller creates no machine there from this user-data).
   */
  readonly userDataLimit: UserDataLimit | null;
  /** Kubernetes had an in-tree cloud provider for it: `.InTreeCCMAvailable` unless externalCloudProvider. */
  readonly inTreeCCM: boolean;
  /**
   * Below Kubernetes 1.29 without externalCloudProvider, OSM generates an INI cloud-config for it
   * ('osm-generates': osm-krm asks for providerSpec.value.overwriteCloudConfig instead), has none to write
   * ('none'), or fails ('unknown': OSM's "failed to fetch cloud-config: unknown cloud provider").
   */
  readonly cloudConfig: 'osm-generates' | 'none' | 'unknown';
  /**
   * The bootstrap user-data names the machine (cloud-init `hostname:` and /etc/machine-name). false on AWS,
   * where kube-proxy needs the hostname to stay the EC2 private DNS name (OSM's generator).
   */
  readonly bootstrapNamesMachine: boolean;
  /**
   * What cloud-init's `hostname:` says: machine-controller's <MACHINE_NAME> placeholder, or (edge, whose
   * machines are set up by hand and named after their MachineDeployment) the MachineDeployment's name, which
   * OSM substitutes into its template text.
   */
  readonly cloudInitMachineName: 'placeholder' | 'machine-deployment-name';
  /** Gets the `edge-provider-script-<md>-<ns>` Secret that machines provisioned by hand fetch (render/edgeProviderScript.ts). */
  readonly edgeScriptSecret: boolean;
  /** OSM's webhook default for Flatcar with provisioningUtility cloud-init is osp-flatcar-cloud-init here. */
  readonly flatcarCloudInitProfileByDefault: boolean;
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

type Descriptor = Omit<CloudProvider, 'name'>;

// The order is OSM's CRD enum, then the clouds it lacks: the OSP schema's enum is written in this order.
const DESCRIPTORS = {
  aws: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-amzn2', 'osp-flatcar', 'osp-rhel', 'osp-rockylinux', 'osp-ubuntu'],
    defaultProfiles: ['osp-amzn2', 'osp-flatcar', 'osp-rhel', 'osp-rockylinux', 'osp-ubuntu'],
    userDataLimit: {
      bytes: 16 * 1024,
      rule: 'EC2 user data is limited to 16 KB in raw form, before base64 encoding',
      source: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-add-user-data.html',
      documented: true,
    },
    inTreeCCM: true,
    cloudConfig: 'osm-generates',
    bootstrapNamesMachine: false,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  azure: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-flatcar', 'osp-rhel', 'osp-rockylinux', 'osp-ubuntu'],
    defaultProfiles: ['osp-flatcar', 'osp-rhel', 'osp-rockylinux', 'osp-ubuntu'],
    userDataLimit: {
      bytes: 65535,
      rule: 'Azure customData decodes to at most 65535 bytes',
      source: 'https://learn.microsoft.com/en-us/javascript/api/@azure/arm-compute/osprofileprovisioningdata',
      documented: true,
    },
    inTreeCCM: true,
    cloudConfig: 'osm-generates',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  digitalocean: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-rockylinux', 'osp-ubuntu'],
    defaultProfiles: ['osp-rockylinux', 'osp-ubuntu'],
    userDataLimit: {
      bytes: 64 * 1024,
      rule: "DigitalOcean limits a Droplet's user_data to 64 KiB",
      source: 'https://docs.digitalocean.com/reference/api/api-reference/#operation/droplets_create (user_data)',
      documented: true,
    },
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  edge: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-ubuntu'],
    defaultProfiles: ['osp-ubuntu'],
    // Edge machines fetch their script themselves.
    userDataLimit: undocumented('machine-controller edge provider: no cloud API receives the user-data'),
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'machine-deployment-name',
    edgeScriptSecret: true,
    flatcarCloudInitProfileByDefault: false,
  },
  gce: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-flatcar', 'osp-ubuntu'],
    defaultProfiles: ['osp-flatcar', 'osp-ubuntu'],
    userDataLimit: {
      bytes: 256 * 1024,
      rule: 'a Compute Engine metadata value (user-data) is at most 262144 bytes (256 KiB)',
      source: 'https://cloud.google.com/compute/docs/reference/rest/v1/instances (Metadata.items[].value)',
      documented: true,
    },
    inTreeCCM: true,
    cloudConfig: 'osm-generates',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  hetzner: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-rockylinux', 'osp-ubuntu'],
    defaultProfiles: ['osp-rockylinux', 'osp-ubuntu'],
    userDataLimit: {
      bytes: 32 * 1024,
      rule: 'Hetzner Cloud limits user_data to 32 KiB',
      source: 'https://docs.hetzner.cloud/#servers-create-a-server (user_data)',
      documented: true,
    },
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  kubevirt: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-flatcar', 'osp-rhel', 'osp-rockylinux', 'osp-ubuntu'],
    defaultProfiles: ['osp-flatcar', 'osp-rhel', 'osp-rockylinux', 'osp-ubuntu'],
    // machine-controller stores the user-data in a Secret in the VM's namespace.
    userDataLimit: {
      bytes: 1024 * 1024,
      rule: 'KubeVirt user data lives in a Kubernetes Secret, which holds at most 1 MiB',
      source: 'https://kubernetes.io/docs/concepts/configuration/secret/#restriction-data-size',
      documented: true,
    },
    inTreeCCM: false,
    cloudConfig: 'osm-generates',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  linode: {
    inOsmCrd: true,
    osmDefaultProfiles: [],
    defaultProfiles: ['osp-ubuntu'],
    userDataLimit: undocumented(
      'https://techdocs.akamai.com/cloud-computing/docs/overview-of-the-metadata-service (no size given)',
    ),
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  nutanix: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-ubuntu'],
    defaultProfiles: ['osp-ubuntu'],
    userDataLimit: undocumented(
      'Nutanix Prism v3 guest_customization.cloud_init.user_data: no size found in its API documentation',
    ),
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  openstack: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-flatcar', 'osp-rhel', 'osp-rockylinux', 'osp-ubuntu'],
    defaultProfiles: ['osp-flatcar', 'osp-rhel', 'osp-rockylinux', 'osp-ubuntu'],
    userDataLimit: {
      // 65535 base64 characters carry floor(65535 / 4) * 3 bytes.
      bytes: 49149,
      rule: 'Nova restricts base64-encoded user data to 65535 bytes, i.e. 49149 bytes before encoding',
      source: 'https://docs.openstack.org/nova/latest/user/metadata.html#user-provided-data',
      documented: true,
    },
    inTreeCCM: false,
    cloudConfig: 'osm-generates',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  vsphere: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-flatcar', 'osp-rhel', 'osp-rockylinux', 'osp-ubuntu'],
    defaultProfiles: ['osp-flatcar', 'osp-rhel', 'osp-rockylinux', 'osp-ubuntu'],
    // machine-controller passes cloud-init's user-data as the guestinfo.userdata property (Ignition as
    // guestinfo.ignition.config.data); VMware documents 512 KiB only for its own cloud-init customization spec.
    userDataLimit: undocumented(
      'https://developer.broadcom.com/xapis/vsphere-automation-api/latest/vcenter/data-structures/Guest_CloudinitConfiguration (not the guestinfo route)',
    ),
    inTreeCCM: true,
    cloudConfig: 'osm-generates',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  fake: {
    inOsmCrd: true,
    osmDefaultProfiles: [],
    defaultProfiles: [],
    // machine-controller's test provider: it creates no machine.
    userDataLimit: null,
    inTreeCCM: false,
    cloudConfig: 'unknown',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  alibaba: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-ubuntu'],
    defaultProfiles: ['osp-ubuntu'],
    userDataLimit: {
      bytes: 32 * 1024,
      rule: 'Alibaba Cloud ECS accepts at most 32 KB of raw user data',
      source: 'https://www.alibabacloud.com/help/en/ecs/developer-reference/api-runinstances (UserData)',
      documented: true,
    },
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  anexia: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-flatcar-cloud-init'],
    defaultProfiles: ['osp-flatcar-cloud-init'],
    userDataLimit: undocumented('Anexia Engine VM deployment script: no size found in its documentation'),
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: true,
  },
  scaleway: {
    inOsmCrd: true,
    osmDefaultProfiles: [],
    defaultProfiles: ['osp-ubuntu'],
    userDataLimit: undocumented('https://www.scaleway.com/en/developers/api/instance/user-data (no size given)'),
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  baremetal: {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-ubuntu'],
    defaultProfiles: ['osp-ubuntu'],
    // Tinkerbell takes the user-data as a workflow template value.
    userDataLimit: undocumented('Tinkerbell workflow template values: no size found in its documentation'),
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  external: {
    inOsmCrd: true,
    osmDefaultProfiles: [],
    defaultProfiles: [],
    // machine-controller does not manage these instances.
    userDataLimit: null,
    inTreeCCM: false,
    cloudConfig: 'unknown',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  'vmware-cloud-director': {
    inOsmCrd: true,
    osmDefaultProfiles: ['osp-flatcar', 'osp-ubuntu'],
    defaultProfiles: ['osp-flatcar', 'osp-ubuntu'],
    userDataLimit: undocumented('VMware Cloud Director vApp guest properties: no size found in its API documentation'),
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  opennebula: {
    inOsmCrd: true,
    osmDefaultProfiles: [],
    defaultProfiles: ['osp-flatcar-cloud-init'],
    userDataLimit: undocumented('OpenNebula CONTEXT USER_DATA: no size found in its documentation'),
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    // OSM's webhook does this for Anexia only; OpenNebula's Flatcar boots with cloud-init too (its only profile).
    flatcarCloudInitProfileByDefault: true,
  },
  equinixmetal: {
    inOsmCrd: false,
    osmDefaultProfiles: [],
    defaultProfiles: ['osp-flatcar', 'osp-rockylinux', 'osp-ubuntu'],
    userDataLimit: undocumented(
      'https://deploy.equinix.com/developers/docs/metal/server-metadata/user-data/ (no size given)',
    ),
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
  vultr: {
    inOsmCrd: false,
    osmDefaultProfiles: [],
    defaultProfiles: ['osp-ubuntu'],
    userDataLimit: undocumented('https://www.vultr.com/api/ (create instance, user_data: no size given)'),
    inTreeCCM: false,
    cloudConfig: 'none',
    bootstrapNamesMachine: true,
    cloudInitMachineName: 'placeholder',
    edgeScriptSecret: false,
    flatcarCloudInitProfileByDefault: false,
  },
} as const satisfies Record<string, Descriptor>;

export type CloudProviderName = keyof typeof DESCRIPTORS;

/** Every cloud provider, in the OSP schema's enum order. */
export const CLOUD_PROVIDERS: readonly CloudProvider[] = Object.freeze(
  Object.entries(DESCRIPTORS).map(([name, d]) => Object.freeze({ name, ...d } as CloudProvider)),
);

/** Every cloud provider's name, in the OSP schema's enum order. */
export const CLOUD_PROVIDER_NAMES: readonly CloudProviderName[] = Object.freeze(
  CLOUD_PROVIDERS.map((c) => c.name as CloudProviderName),
);

const BY_NAME: ReadonlyMap<string, CloudProvider> = new Map(CLOUD_PROVIDERS.map((c) => [c.name, c]));

/** The descriptor of `name`; undefined for a name that is not a cloud provider (own names only, never `toString`). */
export function cloudProvider(name: string): CloudProvider | undefined {
  return BY_NAME.get(name);
}
