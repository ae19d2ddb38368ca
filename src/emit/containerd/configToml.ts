// /etc/containerd/config.toml exactly as OSM's Containerd.Config() encodes it with BurntSushi/toml v1.6.0
// (Indent ""): a table's plain keys before its sub-tables, map keys sorted, a blank line only before
// top-level tables.
import { tomlKeyPath, tomlString, tomlStringArray } from '../../go/toml/encodeString.ts';
import { GoUrlError, parseGoUrl } from '../../go/net/url/url.ts';
import { compareGoStrings, fromByteString, toByteString } from '../../go/strings/strings.ts';
import type { ContainerRuntimeOptions, RegistryAuth } from './registryOptions.ts';

const IMAGES = ['plugins', 'io.containerd.cri.v1.images'];
const RUNTIME = ['plugins', 'io.containerd.cri.v1.runtime'];

const header = (keys: readonly string[]): string => `[${tomlKeyPath(keys)}]\n`;

/**
 * containerd wants a host[:port] as the auth key while docker config files use URLs ("https://gcr.io"):
 * a key that Go parses as a URL with a host becomes that host, anything else stays as it is.
 */
export function credentialHost(registry: string): string {
  try {
    const u = parseGoUrl(toByteString(registry));
    if (u.host !== '') return fromByteString(u.host);
  } catch (e) {
    if (!(e instanceof GoUrlError)) throw e; // not a URL: the key stays
  }
  return registry;
}

function authTable(host: string, auth: RegistryAuth): string {
  const configKeys = [...IMAGES, 'registry', 'configs', host];
  // v1.6.0 writes the `auth` table even when every field is empty (the pointer is not nil).
  let s = header(configKeys) + header([...configKeys, 'auth']);
  const fields: Array<[string, string | undefined]> = [
    ['username', auth.username],
    ['password', auth.password],
    ['auth', auth.auth],
    ['identitytoken', auth.identityToken],
  ];
  for (const [key, value] of fields) if (value) s += `${key} = ${tomlString(value)}\n`;
  return s;
}

export function emitContainerdConfigToml(opts: ContainerRuntimeOptions): string {
  // Two keys reducing to the same host collide; OSM's map iteration makes that random, we let the
  // later key in byte order win so the output is stable.
  const creds = new Map<string, RegistryAuth>();
  for (const registry of Object.keys(opts.registryCredentials).sort(compareGoStrings)) {
    creds.set(credentialHost(registry), opts.registryCredentials[registry]!);
  }

  let s = 'version = 3\n\n' + header(['metrics']) + 'address = "127.0.0.1:1338"\n\n' + header(['plugins']);
  s += header(IMAGES) + 'discard_unpacked_layers = false\n';
  if (opts.sandboxImage !== '') s += header([...IMAGES, 'pinned_images']) + `sandbox = ${tomlString(opts.sandboxImage)}\n`;
  s += header([...IMAGES, 'registry']) + 'config_path = "/etc/containerd/certs.d"\n';
  if (creds.size > 0) {
    s += header([...IMAGES, 'registry', 'configs']);
    for (const host of [...creds.keys()].sort(compareGoStrings)) s += authTable(host, creds.get(host)!);
  }
  s += header(RUNTIME) + `device_ownership_from_security_context = ${opts.deviceOwnershipFromSecurityContext}\n`;
  s += header([...RUNTIME, 'containerd']) + header([...RUNTIME, 'containerd', 'runtimes']);
  s += header([...RUNTIME, 'containerd', 'runtimes', 'runc']) + 'runtime_type = "io.containerd.runc.v2"\n';
  s += header([...RUNTIME, 'containerd', 'runtimes', 'runc', 'options']) + 'SystemdCgroup = true\n';
  s += header([...RUNTIME, 'cni']) + `bin_dirs = ${tomlStringArray(['/opt/cni/bin'])}\nconf_dir = "/etc/cni/net.d"\n`;
  return s;
}
