// The images a node's containerd pulls on its own (the pod sandbox, "pause", image) and the hosts it contacts
// for each, read from the containerd configuration the user-data writes: config.toml's sandbox image and
// registry config_path, and each registry's hosts.toml. containerd tries a registry's `[host."..."]` entries
// in order, then its `server` (the registry itself when hosts.toml names none; a directory `_default` serves
// registries without their own): containerd's docs/hosts.md ("server field"), read at containerd 00945926.
import type { NodeFile } from '../emit/userdata/formats/userDataFormat.ts';

export interface ImageHosts {
  reference: string;
  /** The hosts containerd contacts for it, in order, with the role of each. */
  hosts: Array<{ url: string; role: 'mirror' | 'registry' }>;
  /** Where the reference is set (a file of the user-data) and the 0-based line. */
  file: string;
  line: number;
}

export interface ContainerdImages {
  images: ImageHosts[];
  /** config.toml sets no sandbox image: containerd's compiled-in default applies (file and line of config.toml). */
  defaultSandbox?: { file: string; line: number };
}

const CONFIG_TOML = /(^|\/)containerd\/config\.toml$/;

export function containerdImages(files: readonly NodeFile[]): ContainerdImages | undefined {
  const config = files.find((f) => CONFIG_TOML.test(f.path));
  if (config === undefined) return undefined;
  const lines = config.content.split('\n');
  const sandboxLine = lines.findIndex((l) => /^\s*(sandbox_image|sandbox)\s*=/.test(l));
  // Blanks at a line start are spaces and tabs (TOML's): `^\s*` under the `m` flag ran over every line break after
  // each line start (quadratic: 100 KB of empty lines took 40 s).
  const configPath = /^[ \t]*config_path\s*=\s*["']([^"']*)["']/m.exec(config.content)?.[1] ?? '';
  if (sandboxLine < 0) return { images: [], defaultSandbox: { file: config.path, line: 0 } };
  const reference = /=\s*["']([^"']+)["']/.exec(lines[sandboxLine]!)?.[1] ?? '';
  return {
    images: [{ reference, hosts: registryHosts(reference, files, configPath), file: config.path, line: sandboxLine }],
  };
}

/** The registry (host[:port]) of an image reference, as containerd names it (Docker Hub: docker.io). */
export function registryOf(reference: string): string {
  const first = reference.split('/')[0]!;
  return reference.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost')
    ? first
    : 'docker.io';
}

function registryHosts(reference: string, files: readonly NodeFile[], configPath: string): ImageHosts['hosts'] {
  const registry = registryOf(reference);
  const upstream = registry === 'docker.io' ? 'https://registry-1.docker.io' : `https://${registry}`;
  const dirs = configPath.split(':').filter(Boolean);
  const hostsToml =
    files.find((f) => dirs.some((d) => f.path === `${d.replace(/\/$/, '')}/${registry}/hosts.toml`)) ??
    files.find((f) => dirs.some((d) => f.path === `${d.replace(/\/$/, '')}/_default/hosts.toml`));
  if (hostsToml === undefined) return [{ url: upstream, role: 'registry' }];
  const server = /^[ \t]*server\s*=\s*["']([^"']+)["']/m.exec(hostsToml.content)?.[1] ?? upstream;
  const mirrors = [...hostsToml.content.matchAll(/^[ \t]*\[host\.["']([^"']+)["']\]/gm)].map((m) => m[1]!);
  return [
    ...mirrors.filter((m) => m !== server).map((url) => ({ url, role: 'mirror' as const })),
    { url: server, role: 'registry' as const },
  ];
}
