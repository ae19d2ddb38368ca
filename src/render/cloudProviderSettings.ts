// Values OSM derives from the cloud provider: whether an in-tree CCM exists, and the cloud-config file. Both
// rules are the cloud's descriptor's (src/model/cloudProviders.ts).
import { ResourceError } from '../krm/results.ts';
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import { atLeast, type KubeletVersion } from './kubeletVersion.ts';

export interface CloudProviderSettings {
  inTreeCCMAvailable: boolean;
  externalCloudProvider: boolean;
  cloudConfig: string;
}

export function cloudProviderSettings(
  md: Pick<MachineDeployment, 'providerConfig' | 'cloud'>,
  kubelet: KubeletVersion,
  external: boolean,
): CloudProviderSettings {
  const { providerConfig: pc, cloud } = md;
  const inTreeCCMAvailable = cloud?.inTreeCCM === true ? !external : false;
  let cloudConfig = '';
  if (pc.overwriteCloudConfig !== undefined) {
    cloudConfig = pc.overwriteCloudConfig;
  } else if (!external && !atLeast(kubelet, 1, 29) && cloud?.cloudConfig !== 'none') {
    // Deliberate difference: OSM generates an in-tree INI cloud-config for Kubernetes < 1.29, which
    // machine-controller no longer supports; we ask for it explicitly instead of guessing.
    throw new ResourceError(
      cloud?.cloudConfig === 'osm-generates'
        ? `kubelet ${kubelet.text} with the in-tree ${pc.cloudProvider} cloud provider needs a cloud-config, which osm-krm does not generate: set providerSpec.value.overwriteCloudConfig, enable externalCloudProvider, or use Kubernetes >= 1.29`
        : `failed to fetch cloud-config: unknown cloud provider ${JSON.stringify(pc.cloudProvider)}`,
      'spec.template.spec.providerSpec.value.cloudProvider',
    );
  }
  return { inTreeCCMAvailable, externalCloudProvider: external, cloudConfig };
}
