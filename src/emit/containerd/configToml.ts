// /etc/containerd/config.toml exactly as OSM's BurntSushi encoding writes it.
import { tomlKey, tomlString, tomlStringArray } from './toml.ts';
import type { ContainerRuntimeOptions, RegistryAuth } from './registryOptions.ts';

const IMAGES = '[plugins."io.containerd.cri.v1.images"';
const RUNTIME = '[plugins."io.containerd.cri.v1.runtime"';

/** A registry key that parses as a URL with a host is reduced to that host, as OSM does. */
function credentialHost(registry: string): string {
  try {
    const u = new URL(registry);
    if (u.host !== '' && /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(registry)) return u.host;
  } catch {
    // not a URL: used as is
  }
  return registry;
}

function authLines(a: RegistryAuth): string {
  let s = '';
  if (a.username) s += `username = ${tomlString(a.username)}\n`;
  if (a.password) s += `password = ${tomlString(a.password)}\n`;
  if (a.auth) s += `auth = ${tomlString(a.auth)}\n`;
  if (a.identityToken) s += `identitytoken = ${tomlString(a.identityToken)}\n`;
  return s;
}

export function emitContainerdConfigToml(opts: ContainerRuntimeOptions): string {
  let s = 'version = 3\n\n[metrics]\naddress = "127.0.0.1:1338"\n\n[plugins]\n';
  s += `${IMAGES}]\ndiscard_unpacked_layers = false\n`;
  if (opts.sandboxImage !== '') s += `${IMAGES}.pinned_images]\nsandbox = ${tomlString(opts.sandboxImage)}\n`;
  s += `${IMAGES}.registry]\nconfig_path = "/etc/containerd/certs.d"\n`;
  const creds = new Map<string, RegistryAuth>();
  for (const [registry, auth] of Object.entries(opts.registryCredentials)) creds.set(credentialHost(registry), auth);
  if (creds.size > 0) {
    s += `${IMAGES}.registry.configs]\n`;
    for (const host of [...creds.keys()].sort()) {
      const key = `${IMAGES}.registry.configs.${tomlKey(host)}`;
      s += `${key}]\n${key}.auth]\n${authLines(creds.get(host)!)}`;
    }
  }
  s += `${RUNTIME}]\ndevice_ownership_from_security_context = ${opts.deviceOwnershipFromSecurityContext}\n`;
  s += `${RUNTIME}.containerd]\n${RUNTIME}.containerd.runtimes]\n${RUNTIME}.containerd.runtimes.runc]\nruntime_type = "io.containerd.runc.v2"\n`;
  s += `${RUNTIME}.containerd.runtimes.runc.options]\nSystemdCgroup = true\n`;
  s += `${RUNTIME}.cni]\nbin_dirs = ${tomlStringArray(['/opt/cni/bin'])}\nconf_dir = "/etc/cni/net.d"\n`;
  return s;
}
