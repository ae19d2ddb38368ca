// Argo CD plugin settings as `osm-krm generate` receives them, and how they overlay the function config.
//
// An Application's `spec.source.plugin.env` entries arrive as ARGOCD_ENV_<NAME>; its `parameters` as the
// JSON in ARGOCD_APP_PARAMETERS (and, derived from it, PARAM_<NAME>, with names upper-cased and every other
// character turned into `_`). Names are matched after normalising both forms to OSM's flag spelling
// (`CLUSTER_DNS`, `cluster-dns` -> cluster-dns). Parameters win over env entries of the same name.
import { CONFIG_API_VERSION, CONFIG_KIND, RHEL_SUBSCRIPTION_SECRET_FIELDS, rhelSubscriptionFlag } from '../config/operatingSystemManagerConfig.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { CommandError } from './commandIO.ts';
import { JsonDataError, parseJsonData } from './jsonData.ts';

export interface PluginSetting {
  /** Normalised name, e.g. `cluster-dns`. */
  name: string;
  value: string;
  /** Where it came from, for messages (`PARAM_CLUSTER_DNS`, `ARGOCD_ENV_CLUSTER_DNS`). */
  source: string;
}

const ENV_PREFIX = 'ARGOCD_ENV_';
const PARAM_PREFIX = 'PARAM_';

export function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/** Every plugin env entry and parameter, by normalised name. */
export function readPluginSettings(env: Readonly<Record<string, string | undefined>>): Map<string, PluginSetting> {
  const settings = new Map<string, PluginSetting>();
  const put = (raw: string, value: string, source: string) => {
    const name = normaliseName(raw);
    if (name !== '') settings.set(name, { name, value, source });
  };
  for (const key of Object.keys(env).sort()) {
    if (key.startsWith(ENV_PREFIX) && env[key] !== undefined) put(key.slice(ENV_PREFIX.length), env[key]!, key);
  }
  const json = env.ARGOCD_APP_PARAMETERS;
  if (json !== undefined && json.trim() !== '') {
    for (const p of parseParametersJson(json)) put(p.name, p.value, `parameter ${JSON.stringify(p.name)}`);
  } else {
    for (const key of Object.keys(env).sort()) {
      if (key.startsWith(PARAM_PREFIX) && env[key] !== undefined) put(key.slice(PARAM_PREFIX.length), env[key]!, key);
    }
  }
  return settings;
}

function jsonErrorPlace(json: string): string {
  try {
    parseJsonData(json);
  } catch (e) {
    if (e instanceof JsonDataError) return e.message.replace(/^invalid JSON data /, '');
  }
  return 'syntax error';
}

function parseParametersJson(json: string): Array<{ name: string; value: string }> {
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    // V8's message quotes the text around the error, where a secret may sit: place it by line and column.
    throw new CommandError(`ARGOCD_APP_PARAMETERS is not JSON: ${jsonErrorPlace(json)}`);
  }
  if (!Array.isArray(list)) throw new CommandError('ARGOCD_APP_PARAMETERS must be a JSON list');
  return list.map((p: any) => {
    if (typeof p?.name !== 'string') throw new CommandError('ARGOCD_APP_PARAMETERS: every parameter needs a name');
    if (typeof p.string === 'string') return { name: p.name, value: p.string };
    // Lists are comma-separated in OSM's flags; an array parameter is the same list.
    if (Array.isArray(p.array) && p.array.every((v: unknown) => typeof v === 'string')) return { name: p.name, value: p.array.join(',') };
    if (p.map !== undefined) throw new CommandError(`parameter ${JSON.stringify(p.name)}: map parameters are not supported`);
    return { name: p.name, value: '' };
  });
}

type Setter = (spec: Record<string, any>, value: string, source: string) => void;

const text = (field: string): Setter => (spec, v) => (spec[field] = v);
const list = (...path: string[]): Setter => (spec, v) => setPath(spec, path, v.split(',').map((s) => s.trim()).filter((s) => s !== ''));
const bool = (...path: string[]): Setter => (spec, v, source) => setPath(spec, path, parseGoBool(v, source));
const clusterSource = (field: string, kind: 'env' | 'file'): Setter => (spec, v) => setPath(spec, ['cluster', field], { [kind]: v });

/** The OSM flag names that can be laid over a typed OperatingSystemManager config. */
const TYPED_SETTERS: Record<string, Setter> = {
  namespace: text('namespace'),
  'cluster-dns': list('clusterDNS'),
  'external-cloud-provider': bool('externalCloudProvider'),
  'pause-image': text('pauseImage'),
  'initial-taints': text('initialTaints'),
  'node-http-proxy': text('nodeHTTPProxy'),
  'node-no-proxy': text('nodeNoProxy'),
  'node-insecure-registries': list('nodeInsecureRegistries'),
  'node-registry-mirrors': list('nodeRegistryMirrors'),
  'node-registry-credentials-secret': text('nodeRegistryCredentialsSecret'),
  'cluster-server': (spec, v) => setPath(spec, ['cluster', 'server'], v),
  'cluster-ca-cert-file': clusterSource('caCert', 'file'),
  'cloud-init-getter-token-env': clusterSource('cloudInitGetterToken', 'env'),
  'cloud-init-getter-token-file': clusterSource('cloudInitGetterToken', 'file'),
  'bootstrap-token-env': clusterSource('bootstrapToken', 'env'),
  'bootstrap-token-file': clusterSource('bootstrapToken', 'file'),
  'bootstrap-token-key-env': clusterSource('bootstrapTokenKey', 'env'),
  'bootstrap-token-key-file': clusterSource('bootstrapTokenKey', 'file'),
  ...Object.fromEntries(RHEL_SUBSCRIPTION_SECRET_FIELDS.flatMap((field) => (['env', 'file'] as const).map((kind) => [
    `${rhelSubscriptionFlag(field)}-${kind}`, ((spec, v) => setPath(spec, ['rhelSubscription', 'all', field], { [kind]: v })) as Setter,
  ]))),
  'gitops-split': bool('gitops', 'split'),
  'gitops-sync-annotations': list('gitops', 'syncAnnotations'),
};

export const TYPED_SETTING_NAMES: readonly string[] = Object.keys(TYPED_SETTERS);

/**
 * Lays settings over the config. Without a config they become a ConfigMap of OSM flags (every flag is
 * accepted there, and the function validates them); over a ConfigMap they are added to its data; over a
 * typed OperatingSystemManager only the names in TYPED_SETTERS apply.
 */
export function applySettings(config: KrmObject | undefined, settings: readonly PluginSetting[]): KrmObject | undefined {
  if (settings.length === 0) return config;
  if (config === undefined) {
    return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'osm-krm-plugin-parameters' }, data: Object.fromEntries(settings.map((s) => [s.name, s.value])) };
  }
  if (config.apiVersion === 'v1' && config.kind === 'ConfigMap') {
    const data = { ...((config.data as Record<string, unknown> | undefined) ?? {}) };
    for (const s of settings) data[s.name] = s.value;
    return { ...config, data };
  }
  if (config.apiVersion === CONFIG_API_VERSION && config.kind === CONFIG_KIND) {
    const clone = structuredClone(config) as KrmObject & { spec?: Record<string, any> };
    const spec = (clone.spec ??= {});
    for (const s of settings) {
      const set = TYPED_SETTERS[s.name];
      if (set === undefined) {
        throw new CommandError(`${s.source}: ${JSON.stringify(s.name)} cannot be set over an OperatingSystemManager config; known names: ${TYPED_SETTING_NAMES.join(', ')}`);
      }
      set(spec, s.value, s.source);
    }
    return clone;
  }
  // Not a config we know: the function reports it.
  return config;
}

function setPath(obj: Record<string, any>, path: readonly string[], value: unknown): void {
  let o = obj;
  for (const k of path.slice(0, -1)) {
    if (o[k] === undefined || o[k] === null || typeof o[k] !== 'object') o[k] = {};
    o = o[k];
  }
  o[path[path.length - 1]!] = value;
}

const GO_BOOLS: Record<string, boolean> = { '1': true, t: true, T: true, TRUE: true, true: true, True: true, '0': false, f: false, F: false, FALSE: false, false: false, False: false };

function parseGoBool(v: string, source: string): boolean {
  const b = GO_BOOLS[v.trim()];
  if (b === undefined) throw new CommandError(`${source}: invalid boolean ${JSON.stringify(v)}`);
  return b;
}
