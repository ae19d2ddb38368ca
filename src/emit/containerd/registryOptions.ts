// containerd options from OSM's flags (containerruntime.BuildConfig) and the registry credentials Secret.
import { ContainerRuntimeConfigError } from './errors.ts';
import { parseGoUrl, GoUrlError } from '../../go/net/url/url.ts';
import { goTrimSpace, toByteString } from '../../go/strings/strings.ts';
import type { RegistryAuth } from './registryCredentials.ts';

export { ContainerRuntimeConfigError } from './errors.ts';
export { parseRegistryCredentials, type RegistryAuth, type RegistryCredentialsSecret } from './registryCredentials.ts';

export interface ContainerRuntimeOptions {
  insecureRegistries: string[];
  /** registry -> ordered mirror endpoints (docker.io's default endpoint is added by the hosts.toml emitter) */
  registryMirrors: Record<string, string[]>;
  registryCredentials: Record<string, RegistryAuth>;
  /** -pause-image */
  sandboxImage: string;
  deviceOwnershipFromSecurityContext: boolean;
}

export interface RegistryFlags {
  /** -node-insecure-registries: comma list */
  nodeInsecureRegistries?: string;
  /** -node-registry-mirrors: comma list of `url` (for docker.io) or `registry=url` */
  nodeRegistryMirrors?: string;
  /** -node-containerd-registry-mirrors, once per `registry=url` */
  nodeContainerdRegistryMirrors?: string[];
  /** -pause-image */
  pauseImage?: string;
  /** -device-ownership-from-security-context */
  deviceOwnershipFromSecurityContext?: boolean;
}

// Go's RE2 `.` stops at \n only, so the URL part is everything up to the first line break.
const REGISTRY_PREFIX = /^([a-zA-Z0-9.-]+)=([^\n]*)/;

/** Comma list items, each strings.TrimSpace'd, empty ones dropped. */
function commaList(s: string | undefined): string[] {
  return (s ?? '')
    .split(',')
    .map(goTrimSpace)
    .filter((item) => item !== '');
}

/**
 * BuildConfig's merge of the two mirror flags. The repeatable -node-containerd-registry-mirrors is parsed
 * first (by its flag.Value while the command line is read): split at the first `=`, nothing trimmed,
 * the URL taken as given. -node-registry-mirrors items are then appended to the same lists: an item is
 * `registry=url` only when the part before `=` is a plain host name ([a-zA-Z0-9.-]+), else the whole item
 * is a docker.io mirror; `https://` is prepended when the URL does not start with "http", and the URL
 * must then parse (url.Parse), which is the only check either flag gets.
 */
function mergeMirrors(flags: RegistryFlags): Map<string, string[]> {
  const mirrors = new Map<string, string[]>();
  const add = (registry: string, url: string) => {
    const list = mirrors.get(registry);
    if (list) list.push(url);
    else mirrors.set(registry, [url]);
  };
  (flags.nodeContainerdRegistryMirrors ?? []).forEach((item, i) => {
    const eq = item.indexOf('=');
    if (eq < 0)
      throw new ContainerRuntimeConfigError(
        `nodeContainerdRegistryMirrors[${i}] must be registry=url (it has no "=")`,
        'spec.nodeContainerdRegistryMirrors',
      );
    add(item.slice(0, eq), item.slice(eq + 1));
  });
  commaList(flags.nodeRegistryMirrors).forEach((item, i) => {
    let registry = 'docker.io';
    let url = item;
    const m = REGISTRY_PREFIX.exec(item);
    if (m) {
      registry = m[1]!;
      url = m[2]!;
    }
    if (!url.startsWith('http')) url = 'https://' + url;
    try {
      parseGoUrl(toByteString(url));
    } catch (e) {
      if (!(e instanceof GoUrlError)) throw e;
      throw new ContainerRuntimeConfigError(
        `incorrect mirror provided (nodeRegistryMirrors item ${i + 1}): ${e.reason}`,
        'spec.nodeRegistryMirrors',
      );
    }
    add(registry, url);
  });
  return mirrors;
}

export function parseRegistryFlags(flags: RegistryFlags): ContainerRuntimeOptions {
  const registryMirrors: Record<string, string[]> = {};
  // defineProperty: a registry may be named anything, "__proto__" included.
  for (const [registry, urls] of mergeMirrors(flags)) {
    Object.defineProperty(registryMirrors, registry, {
      value: urls,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return {
    insecureRegistries: commaList(flags.nodeInsecureRegistries),
    registryMirrors,
    registryCredentials: {},
    sandboxImage: flags.pauseImage ?? '',
    deviceOwnershipFromSecurityContext: flags.deviceOwnershipFromSecurityContext ?? false,
  };
}
