// /etc/containerd/certs.d/<dir>/hosts.toml files, as OSM's Containerd.RegistryHostConfigs() builds them from
// registry mirrors and insecure registries: a hostsTomlConfig struct per file, encoded by BurntSushi/toml
// v1.6.0's Encoder with Indent "".
import { encodeToml } from '../../go/toml/encode.ts';
import { UNMETERED } from '../../go/internal/meter.ts';
import { goMap, goSlice } from '../../go/reflect/value.ts';
import { containerruntimeStruct } from './goStruct.ts';
import { compareGoStrings } from '../../go/strings/strings.ts';
import { parseMirrorEndpoint, type MirrorEndpoint } from './mirrorEndpoint.ts';
import type { ContainerRuntimeOptions } from './registryOptions.ts';

const DOCKER_HUB = 'https://registry-1.docker.io';

interface RegistryHosts {
  endpoints: MirrorEndpoint[];
  insecure: boolean;
}

function registryHostConfigs(opts: ContainerRuntimeOptions): Map<string, RegistryHosts> {
  const configs = new Map<string, RegistryHosts>();
  // docker.io always gets a file; mirrors configured for it replace this default endpoint.
  configs.set('docker.io', { endpoints: [{ url: DOCKER_HUB, overridePath: false }], insecure: false });
  for (const [registry, mirrors] of Object.entries(opts.registryMirrors)) {
    configs.set(registry, { endpoints: mirrors.map(parseMirrorEndpoint), insecure: false });
  }
  for (const registry of opts.insecureRegistries) {
    const c = configs.get(registry);
    if (c) c.insecure = true;
    else configs.set(registry, { endpoints: [], insecure: true });
  }
  return configs;
}

/** certs.d directory and `server` of a registry: the host before any subpath; `*` and `_default` are the catch-all. */
function placement(registry: string): { dir: string; server: string } {
  const slash = registry.indexOf('/');
  const dir = slash < 0 ? registry : registry.slice(0, slash);
  if (dir === 'docker.io') return { dir, server: DOCKER_HUB };
  if (dir === '*' || dir === '_default') return { dir: '_default', server: '' };
  return { dir, server: registry };
}

interface HostEntry {
  skipVerify: boolean;
  overridePath: boolean;
}

const hostEntryConfig = (h: HostEntry) =>
  containerruntimeStruct(
    'hostEntryConfig',
    { Capabilities: goSlice('string', ['pull', 'resolve']), SkipVerify: h.skipVerify, OverridePath: h.overridePath },
    {
      Capabilities: 'toml:"capabilities"',
      SkipVerify: 'toml:"skip_verify,omitempty"',
      OverridePath: 'toml:"override_path,omitempty"',
    },
  );

function hostsToml(server: string, hosts: Map<string, HostEntry>): string {
  // fromEntries defines own keys: a mirror URL may be anything, "__proto__" included.
  const host = Object.fromEntries([...hosts].map(([url, h]) => [url, hostEntryConfig(h)]));
  const cfg = containerruntimeStruct(
    'hostsTomlConfig',
    { Server: server, Host: goMap('containerruntime.hostEntryConfig', host) },
    { Server: 'toml:"server,omitempty"', Host: 'toml:"host,omitempty"' },
  );
  // As OSM does: drop the empty parent table the encoder writes for the map.
  return encodeToml(cfg, UNMETERED, '').replaceAll('[host]\n', '');
}

export function emitRegistryHostFiles(opts: ContainerRuntimeOptions): Array<{ path: string; content: string }> {
  const configs = registryHostConfigs(opts);
  const files = new Map<string, string>();
  // Registries sharing a directory (`*` and `_default`, `r.io` and `r.io/sub`) overwrite each other in
  // this order, the later name winning, as in OSM.
  for (const registry of [...configs.keys()].sort(compareGoStrings)) {
    const c = configs.get(registry)!;
    if (c.endpoints.length === 0 && !c.insecure) continue; // nothing containerd's defaults lack
    const { dir, server } = placement(registry);
    const hosts = new Map<string, HostEntry>();
    // Two mirrors with the same URL after stripping the sideband: the later one's options win.
    for (const e of c.endpoints) hosts.set(e.url, { skipVerify: c.insecure, overridePath: e.overridePath });
    // An insecure registry without mirrors points at itself.
    if (c.endpoints.length === 0) hosts.set(server, { skipVerify: true, overridePath: false });
    files.set(`/etc/containerd/certs.d/${dir}/hosts.toml`, hostsToml(server, hosts));
  }
  return [...files.keys()].sort(compareGoStrings).map((path) => ({ path, content: files.get(path)! }));
}
