// Argo CD plugin settings as `osm-krm generate` receives them, and how they overlay the function config.
//
// What reaches a sidecar plugin (argoproj/argo-cd v3.5.1 reposerver/repository/repository.go getPluginEnvs and
// getPluginParamEnvs, pkg/apis/application/v1alpha1/types.go Env.Envsubst and
// ApplicationSourcePluginParameters.Environ, util/cmp/stream.go toEnvEntry, cmpserver/plugin/plugin.go environ):
// - an Application's `spec.source.plugin.env` entry NAME=VALUE arrives as ARGOCD_ENV_NAME (since v2.4), its value
//   first run through os.Expand against the build env: `$X`/`${X}` become that variable or, unknown, nothing, and
//   `$$` becomes `$`. An empty value is dropped before v3.0 (PR 22096). A value holding `=` was dropped by v2.2
//   and v2.3 sidecars (issue 8792, `strings.Split`), passed since v2.4 (PR 8793, `SplitN`).
// - `spec.source.plugin.parameters` arrive verbatim (no expansion, empty values too) as the JSON list in
//   ARGOCD_APP_PARAMETERS (since v2.6; `null` when the Application names the plugin without parameters), and
//   as PARAM_<NAME>, PARAM_<NAME>_<i>, PARAM_<NAME>_<KEY> (names upper-cased, other characters `_`).
// So parameters are the lossless channel: an array parameter keeps each item whole (a mirror `registry=URL`, a
// URL with a comma), and nothing in them is expanded. Names are matched after normalising both forms to OSM's
// flag spelling (`CLUSTER_DNS`, `cluster-dns` -> cluster-dns); parameters win over env entries of the same name.
// Nothing is dropped silently: two settings of one channel with the same name, an empty value where the
// setting needs one, an array for a one-value setting, or an item the flag form would split are errors.
import {
  CONFIG_API_VERSION,
  CONFIG_KIND,
  RHEL_SUBSCRIPTION_SECRET_FIELDS,
  rhelSubscriptionFlag,
} from '../config/operatingSystemManagerConfig.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { CommandError } from './commandIO.ts';
import { JsonDataError, parseJsonData } from './jsonData.ts';

export interface PluginSetting {
  /** Normalised name, e.g. `cluster-dns`. */
  name: string;
  /** A string (env entries, string parameters), or an array parameter's items. */
  value: string | readonly string[];
  /** Where it came from, for messages (`PARAM_CLUSTER_DNS`, `ARGOCD_ENV_CLUSTER_DNS`). */
  source: string;
}

const ENV_PREFIX = 'ARGOCD_ENV_';
const PARAM_PREFIX = 'PARAM_';

export function normaliseName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Every plugin env entry and parameter, by normalised name. */
export function readPluginSettings(env: Readonly<Record<string, string | undefined>>): Map<string, PluginSetting> {
  const settings = new Map<string, PluginSetting>();
  const channel = (entries: Array<{ raw: string; value: string | readonly string[]; source: string }>) => {
    const seen = new Map<string, string>();
    for (const { raw, value, source } of entries) {
      const name = normaliseName(raw);
      if (name === '') continue;
      const other = seen.get(name);
      if (other !== undefined)
        throw new CommandError(
          `${other} and ${source} both set ${JSON.stringify(name)}: keep one (only one value could be used)`,
        );
      seen.set(name, source);
      settings.set(name, { name, value, source });
    }
  };
  const keys = Object.keys(env).sort();
  channel(
    keys
      .filter((k) => k.startsWith(ENV_PREFIX) && env[k] !== undefined)
      .map((k) => ({ raw: k.slice(ENV_PREFIX.length), value: env[k]!, source: k })),
  );
  const json = env.ARGOCD_APP_PARAMETERS;
  if (json !== undefined && json.trim() !== '') {
    channel(
      parseParametersJson(json).map((p) => ({
        raw: p.name,
        value: p.value,
        source: `parameter ${JSON.stringify(p.name)}`,
      })),
    );
  } else {
    channel(
      keys
        .filter((k) => k.startsWith(PARAM_PREFIX) && env[k] !== undefined)
        .map((k) => ({ raw: k.slice(PARAM_PREFIX.length), value: env[k]!, source: k })),
    );
  }
  for (const s of settings.values()) checkNotEmpty(s);
  return settings;
}

/**
 * Settings whose empty value means "none" (as OSM's flags); for every other one an empty value is an error, never
 * the default: it is what Argo CD makes of a `$NAME` it does not know in an env entry.
 */
const EMPTY_MEANS_NONE = new Set([
  'pause-image',
  'initial-taints',
  'node-http-proxy',
  'node-no-proxy',
  'node-insecure-registries',
  'node-registry-mirrors',
  'node-containerd-registry-mirrors',
  'node-registry-credentials-secret',
  'node-kubelet-feature-gates',
  'gitops-sync-annotations',
  'kubernetes-ca-bundle',
  'host-ca-bundle',
  'override-bootstrap-kubelet-apiserver',
]);

function checkNotEmpty(s: PluginSetting): void {
  const empty = typeof s.value === 'string' ? s.value.trim() === '' : s.value.length === 0;
  if (!empty || EMPTY_MEANS_NONE.has(s.name)) return;
  const why = s.source.startsWith(ENV_PREFIX)
    ? ' (Argo CD expands $NAME and ${NAME} in plugin env values from its build environment: an unknown name becomes nothing, write $$ for a $; or pass it as a parameter, which Argo CD passes verbatim)'
    : '';
  throw new CommandError(`${s.source} is empty, but ${JSON.stringify(s.name)} needs a value${why}`);
}

function jsonErrorPlace(json: string): string {
  try {
    parseJsonData(json);
  } catch (e) {
    if (e instanceof JsonDataError) return e.message.replace(/^invalid JSON data /, '');
  }
  return 'syntax error';
}

function parseParametersJson(json: string): Array<{ name: string; value: string | readonly string[] }> {
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    // V8's message quotes the text around the error, where a secret may sit: place it by line and column.
    throw new CommandError(`ARGOCD_APP_PARAMETERS is not JSON: ${jsonErrorPlace(json)}`);
  }
  // Argo CD marshals an Application's absent parameter list as null.
  if (list === null) return [];
  if (!Array.isArray(list)) throw new CommandError('ARGOCD_APP_PARAMETERS must be a JSON list');
  return list.map((p: any) => {
    if (typeof p?.name !== 'string') throw new CommandError('ARGOCD_APP_PARAMETERS: every parameter needs a name');
    if (typeof p.string === 'string') return { name: p.name, value: p.string };
    if (Array.isArray(p.array) && p.array.every((v: unknown) => typeof v === 'string'))
      return { name: p.name, value: p.array as string[] };
    if (p.map !== undefined)
      throw new CommandError(`parameter ${JSON.stringify(p.name)}: map parameters are not supported`);
    throw new CommandError(`parameter ${JSON.stringify(p.name)} has neither a string nor an array of strings`);
  });
}

type Setter = (spec: Record<string, any>, setting: PluginSetting) => void;

/** A one-value setting's value; an array parameter is refused (which item would it be?). */
export function one(s: PluginSetting): string {
  if (typeof s.value === 'string') return s.value;
  throw new CommandError(
    `${s.source} is an array parameter, but ${JSON.stringify(s.name)} takes one value: give it as a string parameter`,
  );
}

/**
 * A list: an array parameter's items as they are; a string split at the flag's separator (`,`; one entry a line
 * for node-containerd-registry-mirrors, whose URLs may hold commas), as OSM's flags are.
 */
function items(s: PluginSetting): string[] {
  if (typeof s.value !== 'string') return [...s.value];
  return s.value
    .split(listSeparator(s.name))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

const listSeparator = (name: string) => (name === 'node-containerd-registry-mirrors' ? '\n' : ',');

const text =
  (...path: string[]): Setter =>
  (spec, s) =>
    setPath(spec, path, one(s));
const list =
  (...path: string[]): Setter =>
  (spec, s) =>
    setPath(spec, path, items(s));
const bool =
  (...path: string[]): Setter =>
  (spec, s) =>
    setPath(spec, path, parseGoBool(one(s), s.source));
const clusterSource =
  (field: string, kind: 'env' | 'file'): Setter =>
  (spec, s) =>
    setPath(spec, ['cluster', field], { [kind]: one(s) });

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
  'node-containerd-registry-mirrors': list('nodeContainerdRegistryMirrors'),
  'node-registry-credentials-secret': text('nodeRegistryCredentialsSecret'),
  'cluster-server': text('cluster', 'server'),
  'cluster-ca-cert-file': clusterSource('caCert', 'file'),
  'cloud-init-getter-token-env': clusterSource('cloudInitGetterToken', 'env'),
  'cloud-init-getter-token-file': clusterSource('cloudInitGetterToken', 'file'),
  'bootstrap-token-env': clusterSource('bootstrapToken', 'env'),
  'bootstrap-token-file': clusterSource('bootstrapToken', 'file'),
  'bootstrap-token-key-env': clusterSource('bootstrapTokenKey', 'env'),
  'bootstrap-token-key-file': clusterSource('bootstrapTokenKey', 'file'),
  'bootstrap-token-expiration': text('cluster', 'bootstrapTokenExpiration'),
  'bootstrap-token-rotation-period': text('cluster', 'bootstrapTokenRotation', 'period'),
  'bootstrap-token-rotation-overlap': text('cluster', 'bootstrapTokenRotation', 'overlap'),
  ...Object.fromEntries(
    RHEL_SUBSCRIPTION_SECRET_FIELDS.flatMap((field) =>
      (['env', 'file'] as const).map((kind) => [
        `${rhelSubscriptionFlag(field)}-${kind}`,
        ((spec, s) => setPath(spec, ['rhelSubscription', 'all', field], { [kind]: one(s) })) as Setter,
      ]),
    ),
  ),
  'gitops-split': bool('gitops', 'split'),
  'gitops-sync-annotations': list('gitops', 'syncAnnotations'),
};

export const TYPED_SETTING_NAMES: readonly string[] = Object.keys(TYPED_SETTERS);

/**
 * A setting as the ConfigMap form's value: an array parameter's items joined with the flag's separator, refused
 * when an item holds that separator (the flag parser would split it into two).
 */
function flagValue(s: PluginSetting): string {
  if (typeof s.value === 'string') return s.value;
  const sep = listSeparator(s.name);
  s.value.forEach((v, i) => {
    if (v.includes(sep)) {
      throw new CommandError(
        `${s.source}: item ${i} holds ${sep === ',' ? 'a comma' : 'a line break'}, which the ConfigMap form of ${JSON.stringify(s.name)} splits on: use a typed OperatingSystemManager config (its lists keep each item whole)`,
      );
    }
  });
  return s.value.join(sep);
}

/**
 * Lays settings over the config. Without a config they become a ConfigMap of OSM flags (every flag is
 * accepted there, and the function validates them); over a ConfigMap they are added to its data; over a
 * typed OperatingSystemManager only the names in TYPED_SETTERS apply.
 */
export function applySettings(
  config: KrmObject | undefined,
  settings: readonly PluginSetting[],
): KrmObject | undefined {
  if (settings.length === 0) return config;
  if (config === undefined) {
    return {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'osm-krm-plugin-parameters' },
      data: Object.fromEntries(settings.map((s) => [s.name, flagValue(s)])),
    };
  }
  if (config.apiVersion === 'v1' && config.kind === 'ConfigMap') {
    const data = { ...((config.data as Record<string, unknown> | undefined) ?? {}) };
    for (const s of settings) data[s.name] = flagValue(s);
    return { ...config, data };
  }
  if (config.apiVersion === CONFIG_API_VERSION && config.kind === CONFIG_KIND) {
    const clone = structuredClone(config) as KrmObject & { spec?: Record<string, any> };
    const spec = (clone.spec ??= {});
    for (const s of settings) {
      const set = TYPED_SETTERS[s.name];
      if (set === undefined) {
        throw new CommandError(
          `${s.source}: ${JSON.stringify(s.name)} cannot be set over an OperatingSystemManager config; known names: ${TYPED_SETTING_NAMES.join(', ')}`,
        );
      }
      set(spec, s);
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

const GO_BOOLS: Record<string, boolean> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

function parseGoBool(v: string, source: string): boolean {
  const b = GO_BOOLS[v.trim()];
  if (b === undefined) throw new CommandError(`${source}: invalid boolean ${JSON.stringify(v)}`);
  return b;
}
