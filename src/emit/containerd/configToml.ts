// /etc/containerd/config.toml as OSM's Containerd.Config() makes it: the value Go builds (its structs with
// their fields in declaration order and their toml tags, map[string]any for the plugins), encoded by
// BurntSushi/toml v1.6.0's Encoder with Indent "".
import { encodeToml } from '../../go/toml/encode.ts';
import { UNMETERED } from '../../go/internal/meter.ts';
import { GoPointer, type GoStruct, goMap, goNilMap, goSlice } from '../../go/reflect/value.ts';
import { GoUrlError, parseGoUrl } from '../../go/net/url/url.ts';
import { compareGoStrings, fromByteString, toByteString } from '../../go/strings/strings.ts';
import { containerruntimeStruct as struct, pointerTo as pointer } from './goStruct.ts';
import type { ContainerRuntimeOptions, RegistryAuth } from './registryOptions.ts';

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

const authConfig = (auth: RegistryAuth) =>
  struct(
    'AuthConfig',
    {
      Username: auth.username ?? '',
      Password: auth.password ?? '',
      Auth: auth.auth ?? '',
      IdentityToken: auth.identityToken ?? '',
    },
    {
      Username: 'toml:"username,omitempty"',
      Password: 'toml:"password,omitempty"',
      Auth: 'toml:"auth,omitempty"',
      IdentityToken: 'toml:"identitytoken,omitempty"',
    },
  );

/** criRegistry.Configs: nil without credentials, else host -> {Auth: &auth}. */
function registryConfigs(credentials: Record<string, RegistryAuth>): Record<string, unknown> {
  const registries = Object.keys(credentials);
  if (registries.length === 0) return goNilMap('containerruntime.containerdRegistryConfig');
  // Two keys reducing to the same host collide; OSM's map iteration makes that random, we let the
  // later key in byte order win so the output is stable.
  const byHost = new Map<string, GoStruct>();
  for (const registry of registries.sort(compareGoStrings)) {
    byHost.set(
      credentialHost(registry),
      struct(
        'containerdRegistryConfig',
        { Auth: pointer(authConfig(credentials[registry]!)) },
        { Auth: 'toml:"auth,omitempty"' },
      ),
    );
  }
  // fromEntries defines own keys: a host may be named anything, "__proto__" included.
  return goMap('containerruntime.containerdRegistryConfig', Object.fromEntries(byHost));
}

export function emitContainerdConfigToml(opts: ContainerRuntimeOptions): string {
  const criRegistry = struct(
    'containerdCRIRegistry',
    { ConfigPath: '/etc/containerd/certs.d', Configs: registryConfigs(opts.registryCredentials) },
    { ConfigPath: 'toml:"config_path"', Configs: 'toml:"configs,omitempty"' },
  );
  const pinnedImages =
    opts.sandboxImage === ''
      ? new GoPointer('*containerruntime.containerdPinnedImages', null)
      : pointer(
          struct('containerdPinnedImages', { Sandbox: opts.sandboxImage }, { Sandbox: 'toml:"sandbox,omitempty"' }),
        );
  const criImagesPlugin = struct(
    'containerdCRIImagesPlugin',
    { DiscardUnpackedLayers: false, PinnedImages: pinnedImages, Registry: pointer(criRegistry) },
    {
      DiscardUnpackedLayers: 'toml:"discard_unpacked_layers"',
      PinnedImages: 'toml:"pinned_images,omitempty"',
      Registry: 'toml:"registry"',
    },
  );
  const runc = struct(
    'containerdCRIRuntime',
    {
      RuntimeType: 'io.containerd.runc.v2',
      Options: struct('containerdCRIRuncOptions', { SystemdCgroup: true }, { SystemdCgroup: 'toml:"SystemdCgroup"' }),
    },
    { RuntimeType: 'toml:"runtime_type"', Options: 'toml:"options"' },
  );
  const criRuntimePlugin = struct(
    'containerdCRIRuntimePlugin',
    {
      Containerd: pointer(
        struct(
          'containerdCRISettings',
          { Runtimes: goMap('containerruntime.containerdCRIRuntime', { runc }) },
          { Runtimes: 'toml:"runtimes"' },
        ),
      ),
      DeviceOwnershipFromSecurityContext: opts.deviceOwnershipFromSecurityContext,
      CNI: pointer(
        struct(
          'containerdCRICNIConfig',
          { BinDirs: goSlice('string', ['/opt/cni/bin']), ConfDir: '/etc/cni/net.d' },
          { BinDirs: 'toml:"bin_dirs"', ConfDir: 'toml:"conf_dir"' },
        ),
      ),
    },
    {
      Containerd: 'toml:"containerd"',
      DeviceOwnershipFromSecurityContext: 'toml:"device_ownership_from_security_context"',
      CNI: 'toml:"cni"',
    },
  );
  const cfg = struct(
    'containerdConfigManifest',
    {
      Version: 3n,
      Metrics: pointer(struct('containerdMetrics', { Address: '127.0.0.1:1338' }, { Address: 'toml:"address"' })),
      Plugins: { 'io.containerd.cri.v1.images': criImagesPlugin, 'io.containerd.cri.v1.runtime': criRuntimePlugin },
    },
    { Version: 'toml:"version"', Metrics: 'toml:"metrics"', Plugins: 'toml:"plugins"' },
  );
  return encodeToml(cfg, UNMETERED, '');
}
