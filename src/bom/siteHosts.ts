// What is inside an air-gapped site, from the function config: the hosts of the artifact mirrors
// (spec.artifacts), of the registry mirrors (nodeRegistryMirrors, nodeContainerdRegistryMirrors), the insecure
// registries the nodes are told to use, and the cluster's API server; plus any host the user names (--site).
import type { OsmConfig } from '../config/operatingSystemManagerConfig.ts';

export interface SiteHost {
  host: string;
  /** The config field (or option) that names it. */
  from: string;
}

export function siteHostsOf(config: OsmConfig | undefined, extra: readonly string[] = []): SiteHost[] {
  const out: SiteHost[] = [];
  const add = (value: string, from: string) => {
    const host = hostOf(value);
    if (host === undefined) return;
    const seen = out.find((s) => s.host === host);
    if (seen === undefined) out.push({ host, from });
    else if (!seen.from.split(', ').includes(from)) seen.from += `, ${from}`;
  };
  for (const [key, url] of Object.entries(config?.artifacts ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)))
    add(url, `spec.artifacts.${key}`);
  for (const m of config?.nodeRegistryMirrors ?? [])
    add(m.includes('=') ? m.slice(m.indexOf('=') + 1) : m, 'spec.nodeRegistryMirrors');
  for (const m of config?.nodeContainerdRegistryMirrors ?? [])
    add(m.slice(m.indexOf('=') + 1), 'spec.nodeContainerdRegistryMirrors');
  for (const r of config?.nodeInsecureRegistries ?? []) add(r, 'spec.nodeInsecureRegistries');
  if (config?.cluster?.server) add(config.cluster.server, 'the API server');
  for (const e of extra) add(e, '--site');
  return out;
}

/** host[:port] of a URL or of a bare host[:port]; undefined when it is neither. */
export function hostOf(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    return u.protocol === 'file:' ? undefined : u.host;
  } catch {
    return undefined;
  }
}
