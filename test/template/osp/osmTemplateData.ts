// Realistic OSM template data (osm.md §2.6) as JSON-like Go values, for rendering the default OSPs.
// Values follow the inputs of upstream's reconciler golden tests (testdata.README.md): token
// `top-secret`, server `https://foo.bar:6443`, the dummy CA, proxy and feature-gate settings.
//
// Go renders OSM's data as a struct with pointer fields (HTTPProxy *string, ...). As a JSON map, a nil
// pointer is null and a set pointer its value, which prints and tests the same way for every field
// the default OSPs reference.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { upstreamOsm } from './ospTemplates.ts';
import { cloudProvider } from '../../../src/model/cloudProviders.ts';

export type TemplateData = Record<string, unknown>;

const testdata = join(upstreamOsm, 'pkg/controllers/osc/testdata');

/** The test CA of upstream's reconciler tests; upstream holds it without a trailing newline. */
export function dummyCaPem(): string {
  return readFileSync(join(upstreamOsm, '_extracted/pkg/controllers/osc/dummy-ca.pem'), 'utf8').replace(/\n$/, '');
}

/** The containerd config.toml of upstream's "simple" golden (the part before the hosts.toml files). */
export function simpleContainerdConfig(): string {
  const golden = readFileSync(
    join(upstreamOsm, 'pkg/containerruntime/testdata/TestContainerd_Configs-simple.golden'),
    'utf8',
  );
  return golden.slice(golden.indexOf('\n') + 1, golden.indexOf('\n---\n') + 1);
}

export interface MdInput {
  mdName: string;
  namespace?: string;
  os: 'ubuntu' | 'flatcar' | 'rhel' | 'rockylinux' | 'amzn2';
  kubelet: string; // already normalised, e.g. "v1.31.0"
  cloud: string;
  externalCloudProvider: boolean;
  ipFamily?: string;
}

function md(input: MdInput): TemplateData {
  const ns = input.namespace ?? 'kube-system';
  const inTree = cloudProvider(input.cloud)?.inTreeCCM === true && !input.externalCloudProvider;
  return {
    KubeVersion: input.kubelet,
    InTreeCCMAvailable: inTree,
    ExternalCloudProvider: input.externalCloudProvider,
    CloudProviderName: input.cloud,
    NetworkIPFamily: input.ipFamily ?? '',
    NetworkConfig: input.ipFamily ? { CIDR: '', Gateway: '', DNS: { Servers: null }, IPFamily: input.ipFamily } : null,
    SecretName: `${input.mdName}-${ns}-provisioning-config`,
    BootstrapKubeconfigSecretName: `${ns}-${input.mdName}-kubelet-bootstrap-config`,
    AmazonLinuxConfig: { DistUpgradeOnBoot: false },
    FlatcarConfig: {
      DisableAutoUpdate: false,
      DisableLocksmithD: false,
      DisableUpdateEngine: false,
      ProvisioningUtility: '',
    },
    RhelConfig: {
      DistUpgradeOnBoot: false,
      RHELSubscriptionManagerUser: '',
      RHELSubscriptionManagerPassword: '',
      RHSMOfflineToken: '',
      AttachSubscription: false,
      RHELUseSatelliteServer: false,
      RHELSatelliteServer: '',
      RHELOrganizationName: '',
      RHELActivationKey: '',
    },
    UbuntuConfig: { DistUpgradeOnBoot: false },
    RockyLinuxConfig: { DistUpgradeOnBoot: false },
  };
}

/** Data as upstream's reconciler tests build it for one MachineDeployment. */
export function upstreamTestData(input: MdInput, containerRuntimeConfig = simpleContainerdConfig()): TemplateData {
  return {
    KubeletConfiguration: '',
    KubeletSystemdUnit: '',
    BootstrapKubeconfig: 'apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://foo.bar:6443\n',
    CNIVersion: '',
    ClusterDNSIPs: ['10.0.0.0'],
    KubernetesCACert: dummyCaPem(),
    HostCACert: '',
    ServerAddress: '',
    CloudConfig: '',
    ContainerRuntime: 'containerd',
    InitialTaints: '',
    HTTPProxy: 'http://test-http-proxy.com',
    NoProxy: 'http://test-no-proxy.com',
    ContainerRuntimeConfig: containerRuntimeConfig,
    ContainerRuntimeAuthConfig: '',
    KubeletFeatureGates: { GracefulNodeShutdown: true, IdentifyPodOS: false },
    RHSubscription: null,
    PauseImage: '192.168.100.100:5000/kubernetes/pause:v3.1',
    KubeReserved: null,
    SystemReserved: null,
    EvictionHard: null,
    MaxPods: null,
    ContainerLogMaxSize: null,
    ContainerLogMaxFiles: null,
    ImageGCHighThresholdPercent: null,
    ImageGCLowThresholdPercent: null,
    ImageMinimumGCAge: null,
    ImageMaximumGCAge: null,
    Token: 'top-secret',
    ServerURL: 'https://foo.bar:6443',
    ...md(input),
  };
}

/** The kubelet-config annotations of upstream's "Kubelet config annotations" case. */
export const kubeletAnnotationData: TemplateData = {
  ContainerLogMaxSize: '300Mi',
  ContainerLogMaxFiles: '30',
  MaxPods: 110n,
  SystemReserved: { 'ephemeral-storage': '30Gi', cpu: '30m' },
  KubeReserved: { 'ephemeral-storage': '30Gi', cpu: '30m' },
  EvictionHard: { 'memory.available': '30Mi' },
};

export interface GoldenCase {
  /** Golden OSC file under pkg/controllers/osc/testdata. */
  golden: string;
  osp: string;
  data: TemplateData;
}

/** The ContainerRuntimeConfig a golden OSC was rendered with: its /etc/containerd/config.toml is `{{ .ContainerRuntimeConfig }}`. */
function containerdConfigOf(golden: string): string {
  const files = goldenFiles(golden);
  const f = files.find((x) => x.path === '/etc/containerd/config.toml');
  if (f === undefined) throw new Error(`${golden}: no /etc/containerd/config.toml`);
  // The file template is "{{ .ContainerRuntimeConfig }}\n".
  return f.data.replace(/\n$/, '');
}

/** Every rendered file of a golden OSC, bootstrap then provisioning, in order. */
export function goldenFiles(golden: string): { config: string; path: string; data: string }[] {
  const doc = parse(readFileSync(join(testdata, golden), 'utf8')) as {
    spec: Record<string, { files?: { path: string; content: { inline: { data: string } } }[] }>;
  };
  return (['bootstrapConfig', 'provisioningConfig'] as const).flatMap((config) =>
    (doc.spec[config]?.files ?? []).map((f) => ({ config, path: f.path, data: f.content.inline.data })),
  );
}

/** Upstream golden OSCs rendered from the default OSPs, with the data that produced them. */
export function goldenCases(): GoldenCase[] {
  const mk = (golden: string, osp: string, input: MdInput, extra: TemplateData = {}): GoldenCase => ({
    golden,
    osp,
    data: { ...upstreamTestData(input, containerdConfigOf(golden)), ...extra },
  });
  return [
    mk('osc-ubuntu-aws-containerd.yaml', 'osp-ubuntu', {
      mdName: 'ubuntu-aws',
      os: 'ubuntu',
      kubelet: 'v1.29.0',
      cloud: 'aws',
      externalCloudProvider: true,
    }),
    mk('osc-ubuntu-aws-dualstack.yaml', 'osp-ubuntu', {
      mdName: 'ubuntu-aws',
      os: 'ubuntu',
      kubelet: 'v1.29.0',
      cloud: 'aws',
      externalCloudProvider: false,
      ipFamily: 'IPv4+IPv6',
    }),
    mk('osc-ubuntu-openstack-containerd.yaml', 'osp-ubuntu', {
      mdName: 'ubuntu-openstack',
      os: 'ubuntu',
      kubelet: 'v1.31.0',
      cloud: 'openstack',
      externalCloudProvider: true,
    }),
    mk('osc-flatcar-aws-containerd.yaml', 'osp-flatcar', {
      mdName: 'flatcar-aws-containerd',
      os: 'flatcar',
      kubelet: 'v1.31.0',
      cloud: 'aws',
      externalCloudProvider: false,
    }),
    mk(
      'osc-kubelet-configuration-containerd.yaml',
      'osp-ubuntu',
      { mdName: 'kubelet-configuration', os: 'ubuntu', kubelet: 'v1.31.0', cloud: 'aws', externalCloudProvider: false },
      kubeletAnnotationData,
    ),
  ];
}

export interface Variant {
  label: string;
  data: TemplateData;
}

/** Data variants every default OSP is rendered with: clouds, proxy on/off, dual-stack, kubelet versions, kubelet settings. */
export function dataVariants(): Variant[] {
  const base = (input: Partial<MdInput> & Pick<MdInput, 'os'>, extra: TemplateData = {}): TemplateData => ({
    ...upstreamTestData({ mdName: 'md-1', kubelet: 'v1.34.2', cloud: 'aws', externalCloudProvider: false, ...input }),
    ...extra,
  });
  const noProxy = { HTTPProxy: null, NoProxy: null };
  return [
    { label: 'ubuntu/aws 1.33 proxy', data: base({ os: 'ubuntu', kubelet: 'v1.33.4' }) },
    {
      label: 'ubuntu/aws 1.34 no proxy external',
      data: base({ os: 'ubuntu', kubelet: 'v1.34.0', externalCloudProvider: true }, noProxy),
    },
    {
      label: 'ubuntu/azure 1.35 dual-stack v6 first',
      data: base({ os: 'ubuntu', cloud: 'azure', kubelet: 'v1.35.1', ipFamily: 'IPv6+IPv4' }),
    },
    {
      label: 'ubuntu/hetzner 1.36 IPv6',
      data: base({ os: 'ubuntu', cloud: 'hetzner', kubelet: 'v1.36.0', ipFamily: 'IPv6' }, noProxy),
    },
    {
      label: 'ubuntu/kubevirt 1.28 (old) cloud-config',
      data: base(
        { os: 'ubuntu', cloud: 'kubevirt', kubelet: 'v1.28.7' },
        { CloudConfig: '[global]\nkubeconfig = "x"\n' },
      ),
    },
    {
      label: 'flatcar/vsphere 1.35 static network, updates disabled',
      data: base(
        { os: 'flatcar', cloud: 'vsphere', kubelet: 'v1.35.0' },
        {
          NetworkConfig: {
            CIDR: '192.168.1.10/24',
            Gateway: '192.168.1.1',
            DNS: { Servers: ['8.8.8.8', '1.1.1.1'] },
            IPFamily: '',
          },
          FlatcarConfig: {
            DisableAutoUpdate: true,
            DisableLocksmithD: true,
            DisableUpdateEngine: true,
            ProvisioningUtility: 'ignition',
          },
        },
      ),
    },
    {
      label: 'flatcar/vmware-cloud-director 1.36 static network no proxy',
      data: base(
        { os: 'flatcar', cloud: 'vmware-cloud-director', kubelet: 'v1.36.2' },
        {
          ...noProxy,
          NetworkConfig: { CIDR: '10.1.0.5/16', Gateway: '10.1.0.1', DNS: { Servers: ['10.1.0.2'] }, IPFamily: '' },
        },
      ),
    },
    { label: 'flatcar/anexia 1.34 (cloud-init)', data: base({ os: 'flatcar', cloud: 'anexia', kubelet: 'v1.34.1' }) },
    {
      label: 'rhel/openstack 1.33 kubelet settings, host CA, taints',
      data: base(
        { os: 'rhel', cloud: 'openstack', kubelet: 'v1.33.0', externalCloudProvider: true },
        {
          ...kubeletAnnotationData,
          ImageGCHighThresholdPercent: 85n,
          ImageGCLowThresholdPercent: 60n,
          ImageMinimumGCAge: '2m0s',
          ImageMaximumGCAge: '168h0m0s',
          HostCACert: dummyCaPem(),
          InitialTaints: 'key1=value1:NoSchedule',
          ClusterDNSIPs: ['10.10.10.10', 'fd00::a'],
        },
      ),
    },
    {
      label: 'rockylinux/digitalocean 1.36',
      data: base({ os: 'rockylinux', cloud: 'digitalocean', kubelet: 'v1.36.1' }),
    },
    {
      label: 'amzn2/aws 1.35 gates',
      data: base(
        { os: 'amzn2', kubelet: 'v1.35.3' },
        { KubeletFeatureGates: { RotateKubeletServerCertificate: true, Zeta: false, Alpha: true } },
      ),
    },
    {
      label: 'ubuntu/gce 1.37 (fallback) empty reserved',
      data: base(
        { os: 'ubuntu', cloud: 'gce', kubelet: 'v1.37.0' },
        { KubeReserved: {}, SystemReserved: {}, EvictionHard: {} },
      ),
    },
  ];
}
