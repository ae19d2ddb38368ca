// The upstream reconciler golden cases (pkg/controllers/osc/testdata), restated as ResourceLists for our
// function. Inputs come from ../shared/upstream/osm/_extracted/pkg/controllers/osc/testdata.README.md.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { UPSTREAM_OSM } from '../support/paths.ts';

const TESTDATA = join(UPSTREAM_OSM, 'pkg/controllers/osc/testdata');
const EXTRACTED = join(UPSTREAM_OSM, '_extracted/pkg/controllers/osc');
const AWS_SPEC = { availabilityZone: 'eu-central-1b', vpcId: 'e-123f', subnetID: 'test-subnet' };
const KUBELET = 'v1.kubelet-config.machine-controller.kubermatic.io/';

export interface ReconcilerCase {
  name: string;
  ospFile: string;
  mdName: string;
  os: string;
  kubelet: string;
  cloud: string;
  cloudProviderSpec: unknown;
  ipFamily: string;
  externalCloudProvider: boolean;
  extraAnnotations?: Record<string, string>;
  goldens: { osc: string; bootstrap: string; provisioning: string };
}

const osp = (n: string) => join(UPSTREAM_OSM, 'deploy/osps/default', n);

export const RECONCILER_CASES: ReconcilerCase[] = [
  {
    name: 'Ubuntu/AWS/containerd',
    ospFile: osp('osp-ubuntu.yaml'),
    mdName: 'ubuntu-aws',
    os: 'ubuntu',
    kubelet: '1.29.0',
    cloud: 'aws',
    cloudProviderSpec: AWS_SPEC,
    ipFamily: '',
    externalCloudProvider: true,
    goldens: {
      osc: 'osc-ubuntu-aws-containerd.yaml',
      bootstrap: 'secret-ubuntu-aws-containerd-bootstrap.yaml',
      provisioning: 'secret-ubuntu-aws-containerd-provisioning.yaml',
    },
  },
  {
    name: 'Ubuntu/AWS dualstack',
    ospFile: osp('osp-ubuntu.yaml'),
    mdName: 'ubuntu-aws',
    os: 'ubuntu',
    kubelet: '1.29.0',
    cloud: 'aws',
    cloudProviderSpec: AWS_SPEC,
    ipFamily: 'IPv4+IPv6',
    externalCloudProvider: false,
    goldens: {
      osc: 'osc-ubuntu-aws-dualstack.yaml',
      bootstrap: 'secret-ubuntu-aws-dualstack-bootstrap.yaml',
      provisioning: 'secret-ubuntu-aws-dualstack-provisioning.yaml',
    },
  },
  {
    name: 'Ubuntu/AWS dualstack IPv6 primary',
    ospFile: osp('osp-ubuntu.yaml'),
    mdName: 'ubuntu-aws',
    os: 'ubuntu',
    kubelet: '1.29.0',
    cloud: 'aws',
    cloudProviderSpec: AWS_SPEC,
    ipFamily: 'IPv6+IPv4',
    externalCloudProvider: false,
    goldens: {
      osc: 'osc-ubuntu-aws-dualstack-IPv6+IPv4.yaml',
      bootstrap: 'secret-ubuntu-aws-dualstack-IPv6+IPv4-bootstrap.yaml',
      provisioning: 'secret-ubuntu-aws-dualstack-IPv6+IPv4-provisioning.yaml',
    },
  },
  {
    name: 'Ubuntu/OpenStack',
    ospFile: osp('osp-ubuntu.yaml'),
    mdName: 'ubuntu-openstack',
    os: 'ubuntu',
    kubelet: '1.31.0',
    cloud: 'openstack',
    cloudProviderSpec: {},
    ipFamily: '',
    externalCloudProvider: true,
    goldens: {
      osc: 'osc-ubuntu-openstack-containerd.yaml',
      bootstrap: 'secret-ubuntu-openstack-containerd-bootstrap.yaml',
      provisioning: 'secret-ubuntu-openstack-containerd-provisioning.yaml',
    },
  },
  {
    name: 'Flatcar/AWS (ignition)',
    ospFile: osp('osp-flatcar.yaml'),
    mdName: 'flatcar-aws-containerd',
    os: 'flatcar',
    kubelet: '1.31.0',
    cloud: 'aws',
    cloudProviderSpec: AWS_SPEC,
    ipFamily: '',
    externalCloudProvider: false,
    goldens: {
      osc: 'osc-flatcar-aws-containerd.yaml',
      bootstrap: 'secret-flatcar-aws-containerd-bootstrap.yaml',
      provisioning: 'secret-flatcar-aws-containerd-provisioning.yaml',
    },
  },
  {
    name: 'RHEL/AWS custom OSP',
    ospFile: join(TESTDATA, 'osp-rhel-aws-cloud-init-modules.yaml'),
    mdName: 'osp-rhel-aws',
    os: 'rhel',
    kubelet: '1.31.0',
    cloud: 'aws',
    cloudProviderSpec: AWS_SPEC,
    ipFamily: '',
    externalCloudProvider: false,
    goldens: {
      osc: 'osc-rhel-8.x-cloud-init-modules.yaml',
      bootstrap: 'secret-osc-rhel-8.x-cloud-init-modules-bootstrap.yaml',
      provisioning: 'secret-osc-rhel-8.x-cloud-init-modules-provisioning.yaml',
    },
  },
  {
    name: 'RHEL/Azure',
    ospFile: osp('osp-rhel.yaml'),
    mdName: 'osp-rhel-azure',
    os: 'rhel',
    kubelet: '1.31.0',
    cloud: 'azure',
    cloudProviderSpec: { securityGroupName: 'fake-sg' },
    ipFamily: '',
    externalCloudProvider: false,
    goldens: {
      osc: 'osc-rhel-8.x-azure-containerd.yaml',
      bootstrap: 'secret-rhel-8.x-azure-containerd-bootstrap.yaml',
      provisioning: 'secret-rhel-8.x-azure-containerd-provisioning.yaml',
    },
  },
  {
    name: 'Kubelet config annotations',
    ospFile: osp('osp-ubuntu.yaml'),
    mdName: 'kubelet-configuration',
    os: 'ubuntu',
    kubelet: '1.31.0',
    cloud: 'aws',
    cloudProviderSpec: AWS_SPEC,
    ipFamily: '',
    externalCloudProvider: false,
    extraAnnotations: {
      [KUBELET + 'ContainerLogMaxSize']: '300Mi',
      [KUBELET + 'ContainerLogMaxFiles']: '30',
      [KUBELET + 'MaxPods']: '110',
      [KUBELET + 'SystemReserved']: 'ephemeral-storage=30Gi,cpu=30m',
      [KUBELET + 'KubeReserved']: 'ephemeral-storage=30Gi,cpu=30m',
      [KUBELET + 'EvictionHard']: 'memory.available<30Mi',
    },
    goldens: {
      osc: 'osc-kubelet-configuration-containerd.yaml',
      bootstrap: 'secret-kubelet-configuration-containerd-bootstrap.yaml',
      provisioning: 'secret-kubelet-configuration-containerd-provisioning.yaml',
    },
  },
];

export function goldenPath(file: string): string {
  return join(TESTDATA, file);
}

/** A golden is usable only if present and non-empty (upstream keeps some stale 0-byte files). */
export function hasGolden(file: string): boolean {
  return existsSync(goldenPath(file)) && readFileSync(goldenPath(file)).length > 0;
}

/** `pinClusterCA: false` is OSM's behaviour (`curl -k`); the goldens are checked with it. */
export function resourceListFor(c: ReconcilerCase, options: { pinClusterCA: boolean }): unknown {
  const ospObject = parse(readFileSync(c.ospFile, 'utf8'));
  ospObject.metadata.namespace = 'kube-system';
  const md = {
    apiVersion: 'cluster.k8s.io/v1alpha1',
    kind: 'MachineDeployment',
    metadata: {
      name: c.mdName,
      namespace: 'kube-system',
      annotations: {
        'machinedeployment.clusters.k8s.io/revision': '1',
        'k8c.io/operating-system-profile': ospObject.metadata.name,
        ...(c.extraAnnotations ?? {}),
      },
    },
    spec: {
      template: {
        spec: {
          providerSpec: {
            value: {
              sshPublicKeys: ['ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAACAQDdOIhYmzCK5DSVLu3c'],
              caPublicKey: '',
              cloudProvider: c.cloud,
              cloudProviderSpec: c.cloudProviderSpec,
              operatingSystem: c.os,
              operatingSystemSpec: null,
              network: { ipFamily: c.ipFamily },
            },
          },
          versions: { kubelet: c.kubelet },
        },
      },
    },
  };
  const clusterInfo = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'cluster-info',
      namespace: 'kube-public',
      annotations: { 'config.kubernetes.io/local-config': 'true' },
    },
    data: { kubeconfig: readFileSync(join(EXTRACTED, 'cluster-info-kubeconfig.yaml'), 'utf8') },
  };
  const getterToken = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'cloud-init-getter-token',
      namespace: 'cloud-init-settings',
      annotations: { 'config.kubernetes.io/local-config': 'true' },
    },
    stringData: { token: 'top-secret' },
  };
  const bootstrapToken = {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'bootstrap.kubernetes.io/token',
    metadata: {
      name: 'bootstrap-token',
      namespace: 'kube-system',
      labels: { 'machinedeployment.k8s.io/name': `kube-system-${c.mdName}` },
      annotations: { 'config.kubernetes.io/local-config': 'true' },
    },
    stringData: { 'token-id': 'test', 'token-secret': 'test' },
  };
  const config = {
    apiVersion: 'osm-krm.dev/v1alpha1',
    kind: 'OperatingSystemManager',
    metadata: { name: 'osm' },
    spec: {
      namespace: 'kube-system',
      containerRuntime: 'containerd',
      externalCloudProvider: c.externalCloudProvider,
      clusterDNS: ['10.0.0.0'],
      kubeletFeatureGates: { GracefulNodeShutdown: true, IdentifyPodOS: false },
      nodeHTTPProxy: 'http://test-http-proxy.com',
      nodeNoProxy: 'http://test-no-proxy.com',
      nodeInsecureRegistries: ['192.168.100.100:5000', '10.0.0.1:5000'],
      pauseImage: '192.168.100.100:5000/kubernetes/pause:v3.1',
      nodeRegistryMirrors: ['https://registry.docker-cn.com'],
      // The upstream test passes the PEM as a Go string literal without a final newline (the goldens show the
      // template's own newline only); the extracted file ends with one, as files do.
      kubernetesCABundle: readFileSync(join(EXTRACTED, 'dummy-ca.pem'), 'utf8').replace(/\n$/, ''),
      pinClusterCA: options.pinClusterCA,
    },
  };
  return {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: [ospObject, md, clusterInfo, getterToken, bootstrapToken],
    functionConfig: config,
  };
}
