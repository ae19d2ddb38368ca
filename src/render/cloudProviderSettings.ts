// Values OSM derives from the cloud provider: whether an in-tree CCM exists, and the cloud-config file.
import { ResourceError } from '../function/results.ts';
import type { ProviderConfig } from '../machineDeployment/machineDeployment.ts';
import { atLeast, type KubeletVersion } from './kubeletVersion.ts';

const IN_TREE_CCM = new Set(['aws', 'azure', 'gce', 'vsphere']);
const NO_CLOUD_CONFIG = new Set([
  'alibaba', 'anexia', 'digitalocean', 'hetzner', 'linode', 'scaleway', 'nutanix', 'vmware-cloud-director', 'opennebula', 'edge', 'baremetal',
  // machine-controller providers OSM does not know; neither has an in-tree cloud provider.
  'equinixmetal', 'vultr',
]);

export interface CloudProviderSettings {
  inTreeCCMAvailable: boolean;
  externalCloudProvider: boolean;
  cloudConfig: string;
}

export function cloudProviderSettings(pc: ProviderConfig, kubelet: KubeletVersion, external: boolean): CloudProviderSettings {
  const inTreeCCMAvailable = IN_TREE_CCM.has(pc.cloudProvider) ? !external : false;
  let cloudConfig = '';
  if (pc.overwriteCloudConfig !== undefined) {
    cloudConfig = pc.overwriteCloudConfig;
  } else if (!external && !atLeast(kubelet, 1, 29) && !NO_CLOUD_CONFIG.has(pc.cloudProvider)) {
    // Deliberate difference: OSM generates an in-tree INI cloud-config for Kubernetes < 1.29, which
    // machine-controller no longer supports; we ask for it explicitly instead of guessing.
    const known = ['aws', 'azure', 'gce', 'kubevirt', 'openstack', 'vsphere'].includes(pc.cloudProvider);
    throw new ResourceError(
      known
        ? `kubelet ${kubelet.text} with the in-tree ${pc.cloudProvider} cloud provider needs a cloud-config, which osm-krm does not generate: set providerSpec.value.overwriteCloudConfig, enable externalCloudProvider, or use Kubernetes >= 1.29`
        : `failed to fetch cloud-config: unknown cloud provider ${JSON.stringify(pc.cloudProvider)}`,
      'spec.template.spec.providerSpec.value.cloudProvider',
    );
  }
  return { inTreeCCMAvailable, externalCloudProvider: external, cloudConfig };
}
