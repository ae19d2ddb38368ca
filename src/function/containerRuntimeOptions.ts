// containerd options from the config flags plus the registry credentials Secret named by the config.
import type { OsmConfig } from '../config/operatingSystemManagerConfig.ts';
import type { InputItem } from '../krm/resourceList.ts';
import { parseRegistryCredentials, parseRegistryFlags, type ContainerRuntimeOptions } from '../emit/containerd/registryOptions.ts';
import { ResourceError } from '../krm/results.ts';

export function buildContainerRuntimeOptions(config: OsmConfig, items: readonly InputItem[]): ContainerRuntimeOptions {
  const opts = parseRegistryFlags({
    nodeInsecureRegistries: config.nodeInsecureRegistries.join(','),
    nodeRegistryMirrors: config.nodeRegistryMirrors.join(','),
    nodeContainerdRegistryMirrors: config.nodeContainerdRegistryMirrors,
    pauseImage: config.pauseImage,
    deviceOwnershipFromSecurityContext: config.deviceOwnershipFromSecurityContext,
  });
  if (config.nodeRegistryCredentialsSecret !== '') {
    const [namespace, name] = config.nodeRegistryCredentialsSecret.split('/') as [string, string];
    const secret = items.find((i) => i.object.apiVersion === 'v1' && i.object.kind === 'Secret' && i.object.metadata?.name === name && i.object.metadata?.namespace === namespace);
    if (secret === undefined) {
      throw new ResourceError(`registry credentials Secret ${namespace}/${name} (spec.nodeRegistryCredentialsSecret) is not in the inputs`, 'spec.nodeRegistryCredentialsSecret');
    }
    opts.registryCredentials = parseRegistryCredentials(secret.object as { type?: string; data?: Record<string, string> });
  }
  return opts;
}
