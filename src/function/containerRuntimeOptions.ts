// containerd options from the config flags plus the registry credentials Secret named by the config.
import type { OsmConfig } from '../config/operatingSystemManagerConfig.ts';
import type { InputItem } from '../krm/resourceList.ts';
import {
  parseRegistryCredentials,
  parseRegistryFlags,
  type ContainerRuntimeOptions,
} from '../emit/containerd/registryOptions.ts';
import { ResourceError } from '../krm/results.ts';
import type { SecretRegistry } from '../krm/redactSecrets.ts';

/** `secrets`: the credentials are registered as decoded (the Secret's values are whole JSON documents). */
export function buildContainerRuntimeOptions(
  config: OsmConfig,
  items: readonly InputItem[],
  secrets: SecretRegistry,
): ContainerRuntimeOptions {
  const opts = parseRegistryFlags({
    nodeInsecureRegistries: config.nodeInsecureRegistries.join(','),
    nodeRegistryMirrors: config.nodeRegistryMirrors.join(','),
    nodeContainerdRegistryMirrors: config.nodeContainerdRegistryMirrors,
    pauseImage: config.pauseImage,
    deviceOwnershipFromSecurityContext: config.deviceOwnershipFromSecurityContext,
  });
  if (config.nodeRegistryCredentialsSecret !== '') {
    const [namespace, name] = config.nodeRegistryCredentialsSecret.split('/') as [string, string];
    const secret = items.find(
      (i) =>
        i.object.apiVersion === 'v1' &&
        i.object.kind === 'Secret' &&
        i.object.metadata?.name === name &&
        i.object.metadata?.namespace === namespace,
    );
    if (secret === undefined) {
      throw new ResourceError(
        `registry credentials Secret ${namespace}/${name} (spec.nodeRegistryCredentialsSecret) is not in the inputs`,
        'spec.nodeRegistryCredentialsSecret',
      );
    }
    opts.registryCredentials = parseRegistryCredentials(
      secret.object as { type?: string; data?: Record<string, string> },
    );
    for (const auth of Object.values(opts.registryCredentials)) {
      secrets.add(auth.password);
      secrets.add(auth.identityToken);
      secrets.add(auth.auth);
      // `auth` is base64 of user:password; containerd decodes it the same way.
      const decoded = auth.auth === undefined ? undefined : Buffer.from(auth.auth, 'base64').toString('utf8');
      secrets.add(decoded);
      secrets.add(decoded?.slice(decoded.indexOf(':') + 1));
    }
  }
  return opts;
}
