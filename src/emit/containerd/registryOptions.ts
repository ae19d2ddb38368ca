// containerd options from OSM's flags and the registry credentials Secret.
import { ResourceError } from '../../function/results.ts';

export interface RegistryAuth {
  username?: string;
  password?: string;
  auth?: string;
  identityToken?: string;
}

export interface ContainerRuntimeOptions {
  insecureRegistries: string[];
  /** registry -> ordered mirror endpoints */
  registryMirrors: Record<string, string[]>;
  registryCredentials: Record<string, RegistryAuth>;
  sandboxImage: string;
  deviceOwnershipFromSecurityContext: boolean;
}

export class ContainerRuntimeConfigError extends ResourceError {
  constructor(message: string, field?: string) {
    super(message, field);
    this.name = 'ContainerRuntimeConfigError';
  }
}

const REGISTRY_MIRROR = /^([a-zA-Z0-9.-]+)=(.*)$/s;

/** OSM's BuildConfig: the repeatable registry=url flag first, then -node-registry-mirrors (https:// added when no scheme). */
export function parseRegistryFlags(flags: {
  nodeInsecureRegistries?: string;
  nodeRegistryMirrors?: string;
  nodeContainerdRegistryMirrors?: string[];
  pauseImage?: string;
  deviceOwnershipFromSecurityContext?: boolean;
}): ContainerRuntimeOptions {
  const mirrors: Record<string, string[]> = {};
  for (const item of flags.nodeContainerdRegistryMirrors ?? []) {
    const eq = item.indexOf('=');
    if (eq < 0) throw new ContainerRuntimeConfigError(`containerd registry mirror ${JSON.stringify(item)} should have exactly 1 =`, 'spec.nodeContainerdRegistryMirrors');
    (mirrors[item.slice(0, eq)] ??= []).push(item.slice(eq + 1));
  }
  for (const raw of (flags.nodeRegistryMirrors ?? '').split(',')) {
    let mirror = raw.trim();
    if (mirror === '') continue;
    let registry = 'docker.io';
    const m = REGISTRY_MIRROR.exec(mirror);
    if (m) {
      registry = m[1]!;
      mirror = m[2]!;
    }
    if (!mirror.startsWith('http')) mirror = 'https://' + mirror;
    (mirrors[registry] ??= []).push(mirror);
  }
  return {
    insecureRegistries: (flags.nodeInsecureRegistries ?? '').split(',').map((s) => s.trim()).filter((s) => s !== ''),
    registryMirrors: mirrors,
    registryCredentials: {},
    sandboxImage: flags.pauseImage ?? '',
    deviceOwnershipFromSecurityContext: flags.deviceOwnershipFromSecurityContext ?? false,
  };
}

function authOf(v: unknown, where: string): RegistryAuth {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new ContainerRuntimeConfigError(`registry credentials for ${where} must be an object`);
  const o = v as Record<string, unknown>;
  const a: RegistryAuth = {};
  for (const [k, field] of [['username', 'username'], ['password', 'password'], ['auth', 'auth'], ['identitytoken', 'identityToken']] as const) {
    if (o[k] === undefined) continue;
    if (typeof o[k] !== 'string') throw new ContainerRuntimeConfigError(`registry credentials for ${where}: ${k} must be a string`);
    a[field] = o[k] as string;
  }
  return a;
}

/** The -node-registry-credentials-secret Secret: dockerconfigjson auths, or one JSON document per registry key. */
export function parseRegistryCredentials(secret: { type?: string; data?: Record<string, string>; stringData?: Record<string, string> }): Record<string, RegistryAuth> {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(secret.data ?? {})) values[k] = Buffer.from(String(v), 'base64').toString('utf8');
  for (const [k, v] of Object.entries(secret.stringData ?? {})) values[k] = String(v);
  const parse = (text: string, where: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      // Never echo the document: it holds passwords.
      throw new ContainerRuntimeConfigError(`failed to unmarshal registry credentials (${where}): not valid JSON`);
    }
  };
  const out: Record<string, RegistryAuth> = {};
  if (secret.type === 'kubernetes.io/dockerconfigjson') {
    const doc = parse(values['.dockerconfigjson'] ?? '{}', '.dockerconfigjson') as { auths?: Record<string, unknown> };
    for (const [registry, v] of Object.entries(doc?.auths ?? {})) out[registry] = authOf(v, registry);
  } else {
    for (const [registry, text] of Object.entries(values)) out[registry] = authOf(parse(text, registry), registry);
  }
  return out;
}
