// /etc/containerd/certs.d/<registry>/hosts.toml files, as OSM builds them from mirrors and insecure registries.
import { tomlKey, tomlString, tomlStringArray } from './toml.ts';
import type { ContainerRuntimeOptions } from './registryOptions.ts';

interface Endpoint {
  url: string;
  overridePath: boolean;
}

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** Go's url.QueryEscape. */
function queryEscape(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : c === ' ' ? '+' : '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function queryUnescape(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The `kubermatic` query parameter carries per-endpoint options (override_path) and is removed from the URL. */
function parseEndpoint(mirror: string): Endpoint {
  const q = mirror.indexOf('?');
  if (q < 0) return { url: mirror, overridePath: false };
  const [base, rest] = [mirror.slice(0, q), mirror.slice(q + 1)];
  const hashAt = rest.indexOf('#');
  const raw = hashAt < 0 ? rest : rest.slice(0, hashAt);
  const fragment = hashAt < 0 ? '' : rest.slice(hashAt);
  const pairs = raw.split(/[&]/).filter((p) => p !== '').map((p) => {
    const eq = p.indexOf('=');
    return [queryUnescape(eq < 0 ? p : p.slice(0, eq)) ?? '', queryUnescape(eq < 0 ? '' : p.slice(eq + 1)) ?? ''] as [string, string];
  });
  if (!pairs.some(([k]) => k === 'kubermatic')) return { url: mirror, overridePath: false };
  let overridePath = false;
  const km = pairs.find(([k]) => k === 'kubermatic')![1];
  const inner = queryUnescape(km);
  if (inner !== undefined) {
    const v = inner.split('&').map((p) => p.split('=')).find(([k]) => queryUnescape(k ?? '') === 'override_path');
    overridePath = GO_TRUE.has(queryUnescape(v?.[1] ?? '') ?? '');
  }
  // url.Values.Encode: sorted by key, values in order.
  const kept = pairs.filter(([k]) => k !== 'kubermatic').sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const query = kept.map(([k, v]) => `${queryEscape(k)}=${queryEscape(v)}`).join('&');
  return { url: base + (query !== '' ? '?' + query : '') + fragment, overridePath };
}

export function emitRegistryHostFiles(opts: ContainerRuntimeOptions): Array<{ path: string; content: string }> {
  const configs = new Map<string, { endpoints: Endpoint[]; insecure: boolean }>();
  configs.set('docker.io', { endpoints: [{ url: 'https://registry-1.docker.io', overridePath: false }], insecure: false });
  for (const [registry, mirrors] of Object.entries(opts.registryMirrors)) {
    configs.set(registry, { endpoints: mirrors.map(parseEndpoint), insecure: configs.get(registry)?.insecure ?? false });
  }
  for (const registry of opts.insecureRegistries) {
    const c = configs.get(registry) ?? { endpoints: [], insecure: false };
    c.insecure = true;
    configs.set(registry, c);
  }
  const files: Array<{ path: string; content: string }> = [];
  for (const registry of [...configs.keys()].sort()) {
    const c = configs.get(registry)!;
    if (c.endpoints.length === 0 && !c.insecure) continue;
    let dir = registry.includes('/') ? registry.slice(0, registry.indexOf('/')) : registry;
    let server = '';
    if (dir === 'docker.io') server = 'https://registry-1.docker.io';
    else if (dir === '*' || dir === '_default') dir = '_default';
    else server = registry;
    const hosts = new Map<string, { skipVerify: boolean; overridePath: boolean }>();
    for (const e of c.endpoints) hosts.set(e.url, { skipVerify: c.insecure, overridePath: e.overridePath });
    if (c.endpoints.length === 0 && c.insecure) hosts.set(server, { skipVerify: true, overridePath: false });
    let s = server !== '' ? `server = ${tomlString(server)}\n\n` : '';
    for (const url of [...hosts.keys()].sort()) {
      const h = hosts.get(url)!;
      s += `[host.${tomlKey(url)}]\ncapabilities = ${tomlStringArray(['pull', 'resolve'])}\n`;
      if (h.skipVerify) s += 'skip_verify = true\n';
      if (h.overridePath) s += 'override_path = true\n';
    }
    files.push({ path: `/etc/containerd/certs.d/${dir}/hosts.toml`, content: s });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
