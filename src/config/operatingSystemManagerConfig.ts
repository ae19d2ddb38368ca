// The function's configuration: a typed `OperatingSystemManager` (osm-krm.dev/v1alpha1) or, kpt style, a
// ConfigMap whose keys are OSM's controller flag names. Both become one OsmConfig with OSM's defaults.
import { isHashableKey } from '../go/internal/hashableKey.ts';
import { fieldTree, validate } from './generated/validateOperatingSystemManager.generated.js';
import { ResourceError, ResourceErrors, throwAll } from '../krm/results.ts';
import { schemaErrors } from '../krm/schemaError.ts';
import { didYouMean } from '../krm/didYouMean.ts';
import { parseIP } from '../go/net/parseIP.ts';
import { parseGoDuration } from '../go/time/duration.ts';

export const CONFIG_API_VERSION = 'osm-krm.dev/v1alpha1';
export const CONFIG_KIND = 'OperatingSystemManager';

/**
 * Where a `{env}` or `{file}` source was written when that is not FIELD.env or FIELD.file: the ConfigMap key
 * (`data.bootstrap-token-env`), so errors point at what the user wrote.
 */
interface WrittenAt {
  at?: string;
}

/** A value inline, or read at run time from an environment variable or file. */
export type ValueSource = string | ({ value?: string; env?: string; file?: string } & WrittenAt);

/** A secret from the environment, a file or a key of a local-config Secret among the inputs; never inline. */
export type SecretSource =
  | ({ env: string } & WrittenAt)
  | ({ file: string } & WrittenAt)
  | { secretKeyRef: { namespace: string; name: string; key: string } };

/** The operatingSystemSpec fields of a RHEL MachineDeployment that hold secrets. */
export const RHEL_SUBSCRIPTION_SECRET_FIELDS = [
  'rhelSubscriptionManagerUser',
  'rhelSubscriptionManagerPassword',
  'rhsmOfflineToken',
  'rhelActivationKey',
] as const;
export type RhelSubscriptionSecretField = (typeof RHEL_SUBSCRIPTION_SECRET_FIELDS)[number];
export type RhelSubscriptionSecrets = Partial<Record<RhelSubscriptionSecretField, SecretSource>>;

export interface RhelSubscriptionConfig {
  all?: RhelSubscriptionSecrets;
  /** Keyed `<namespace>/<name>`; an entry replaces `all`. */
  machineDeployments?: Record<string, RhelSubscriptionSecrets>;
}

export interface ClusterFactsConfig {
  server?: string;
  caCert?: ValueSource;
  cloudInitGetterToken?: ValueSource;
  bootstrapToken?: ValueSource;
  bootstrapTokenKey?: ValueSource;
  bootstrapTokenExpiration?: string;
  bootstrapTokenRotation?: BootstrapTokenRotationConfig;
}

/** spec.cluster.bootstrapTokenRotation as written: two Go durations. */
export interface BootstrapTokenRotationConfig {
  period: string;
  overlap: string;
}

/** The rotation in whole seconds. */
export interface BootstrapTokenRotation {
  periodSeconds: number;
  overlapSeconds: number;
}

const MIN_ROTATION_PERIOD_SECONDS = 600;

/** Validates and converts the rotation's durations (field paths as in the typed config). */
export function bootstrapTokenRotation(
  r: BootstrapTokenRotationConfig,
  fields = TYPED_ROTATION_FIELDS,
): BootstrapTokenRotation {
  const seconds = (v: string, field: string): number => {
    let ns: bigint;
    try {
      ns = parseGoDuration(v);
    } catch (e) {
      throw new ResourceError(`${field}: ${(e as Error).message}`, field);
    }
    if (ns % 1_000_000_000n !== 0n)
      throw new ResourceError(`${field} must be whole seconds, got ${JSON.stringify(v)}`, field);
    return Number(ns / 1_000_000_000n);
  };
  const periodSeconds = seconds(r.period, fields.period);
  const overlapSeconds = seconds(r.overlap, fields.overlap);
  if (periodSeconds < MIN_ROTATION_PERIOD_SECONDS)
    throw new ResourceError(`${fields.period} must be at least 10m, got ${JSON.stringify(r.period)}`, fields.period);
  if (overlapSeconds <= 0 || overlapSeconds > periodSeconds) {
    throw new ResourceError(
      `${fields.overlap} must be more than 0 and at most the period (${r.period}), got ${JSON.stringify(r.overlap)}: only the current and the previous window's tokens are emitted`,
      fields.overlap,
    );
  }
  return { periodSeconds, overlapSeconds };
}

const TYPED_ROTATION_FIELDS = {
  period: 'spec.cluster.bootstrapTokenRotation.period',
  overlap: 'spec.cluster.bootstrapTokenRotation.overlap',
};
const FLAG_ROTATION_FIELDS = {
  period: 'data.bootstrap-token-rotation-period',
  overlap: 'data.bootstrap-token-rotation-overlap',
};

/** hydrate's SOPS mode (src/sops/). */
export interface SopsConfig {
  ageRecipients: string[];
  dataKeySeed: ValueSource;
}

export interface GitOpsConfig {
  split: boolean;
  syncAnnotations: Array<'argocd' | 'flux'>;
}

export interface OsmConfig {
  namespace: string;
  containerRuntime: 'containerd';
  externalCloudProvider: boolean;
  clusterDNS: string[];
  pauseImage: string;
  initialTaints: string;
  kubeletFeatureGates: Record<string, boolean>;
  nodeHTTPProxy: string;
  nodeNoProxy: string;
  nodeInsecureRegistries: string[];
  nodeRegistryMirrors: string[];
  nodeContainerdRegistryMirrors: string[];
  nodeRegistryCredentialsSecret: string;
  deviceOwnershipFromSecurityContext: boolean;
  overrideBootstrapKubeletAPIServer: string;
  kubernetesCABundle?: ValueSource;
  hostCABundle?: ValueSource;
  cluster: ClusterFactsConfig;
  rhelSubscription: RhelSubscriptionConfig;
  artifacts: Record<string, string>;
  defaultProfiles: { defaultAnnotation: boolean; emit: boolean };
  ignitionSpec: '2.3.0' | '3.3.0';
  /** Replace `curl -k` towards the API server by `--cacert` with the cluster CA (off = OSM's output). */
  pinClusterCA: boolean;
  gitops: GitOpsConfig;
  sops?: SopsConfig;
  templateLimits: Partial<{
    maxDepth: number;
    maxOutputBytes: number;
    maxRangeIterations: number;
    maxSteps: number;
    maxWork: number;
    maxMemoryBytes: number;
  }>;
}

export const DEFAULT_CONFIG: Readonly<OsmConfig> = Object.freeze({
  namespace: 'kube-system',
  containerRuntime: 'containerd',
  externalCloudProvider: false,
  clusterDNS: ['10.10.10.10'],
  pauseImage: '',
  initialTaints: '',
  kubeletFeatureGates: { RotateKubeletServerCertificate: true },
  nodeHTTPProxy: '',
  nodeNoProxy: '.svc,.cluster.local,localhost,127.0.0.1',
  nodeInsecureRegistries: [],
  nodeRegistryMirrors: [],
  nodeContainerdRegistryMirrors: [],
  nodeRegistryCredentialsSecret: '',
  deviceOwnershipFromSecurityContext: false,
  overrideBootstrapKubeletAPIServer: '',
  cluster: {},
  rhelSubscription: {},
  artifacts: {},
  defaultProfiles: { defaultAnnotation: false, emit: false },
  ignitionSpec: '2.3.0',
  pinClusterCA: true,
  gitops: { split: false, syncAnnotations: [] },
  templateLimits: {},
});

/** Parse and validate the functionConfig. `undefined` (no config at all) means all defaults. */
export function parseFunctionConfig(fc: unknown): OsmConfig {
  if (fc === undefined || fc === null) return { ...DEFAULT_CONFIG, cluster: {}, rhelSubscription: {} };
  const obj = fc as { apiVersion?: unknown; kind?: unknown; data?: unknown; spec?: unknown };
  if (obj.kind === 'ConfigMap' && obj.apiVersion === 'v1') return fromFlagConfigMap(obj.data);
  if (obj.kind !== CONFIG_KIND || obj.apiVersion !== CONFIG_API_VERSION) {
    throw new ResourceError(
      `unsupported functionConfig ${String(obj.apiVersion)}/${String(obj.kind)}: expected ${CONFIG_API_VERSION}/${CONFIG_KIND} or a v1 ConfigMap with OSM flag names`,
      obj.kind !== CONFIG_KIND ? 'kind' : 'apiVersion',
    );
  }
  const clean = fc;
  // Every problem of the config in one run: the schema's, and the checks beyond it.
  const errors: ResourceError[] = [];
  if (!validate(clean)) {
    const e = schemaErrors('functionConfig', validate.errors, fieldTree);
    for (const x of e instanceof ResourceErrors ? e.errors : [e]) errors.push(x);
  }
  const spec = ((clean as { spec?: Partial<OsmConfig> }).spec ?? {}) as Partial<OsmConfig>;
  if (Array.isArray(spec.clusterDNS))
    spec.clusterDNS.forEach((ip, i) =>
      collect(errors, () => typeof ip === 'string' && checkClusterDNS(ip, `spec.clusterDNS[${i}]`)),
    );
  // Its fields' types are the schema's to check first.
  if (errors.length === 0) collect(errors, () => checkBootstrapTokenLifetime(spec.cluster ?? {}, 'spec.cluster'));
  throwAll(errors);
  return {
    ...DEFAULT_CONFIG,
    ...spec,
    cluster: { ...(spec.cluster ?? {}) },
    rhelSubscription: { ...(spec.rhelSubscription ?? {}) },
    defaultProfiles: { ...DEFAULT_CONFIG.defaultProfiles, ...(spec.defaultProfiles ?? {}) },
    gitops: { ...DEFAULT_CONFIG.gitops, ...(spec.gitops ?? {}) },
  } as OsmConfig;
}

/** Sets what one ConfigMap key says; `at` is the key's field path (data.KEY). */
type FlagHandler = (c: OsmConfig, v: string, at: string) => void;

const FLAG_KEYS: Record<string, FlagHandler> = {
  namespace: (c, v) => (c.namespace = v),
  'container-runtime': (c, v) => {
    if (v !== 'containerd')
      throw new ResourceError(
        `container-runtime ${JSON.stringify(v)} is not supported: only containerd`,
        'data.container-runtime',
      );
  },
  'external-cloud-provider': (c, v) => (c.externalCloudProvider = parseFlagBool(v, 'external-cloud-provider')),
  'cluster-dns': (c, v) => {
    c.clusterDNS = splitList(v);
    for (const ip of c.clusterDNS) checkClusterDNS(ip, 'data.cluster-dns');
  },
  'pause-image': (c, v) => (c.pauseImage = v),
  'initial-taints': (c, v) => (c.initialTaints = v),
  'node-kubelet-feature-gates': (c, v) => (c.kubeletFeatureGates = parseFeatureGates(v)),
  'node-http-proxy': (c, v) => (c.nodeHTTPProxy = v),
  'node-no-proxy': (c, v) => (c.nodeNoProxy = v),
  'node-insecure-registries': (c, v) => (c.nodeInsecureRegistries = splitList(v)),
  'node-registry-mirrors': (c, v) => (c.nodeRegistryMirrors = splitList(v)),
  // A repeatable flag upstream (split only at its own boundaries): one entry per line here, since URLs may hold commas.
  'node-containerd-registry-mirrors': (c, v) =>
    (c.nodeContainerdRegistryMirrors = v.split('\n').filter((s) => s.trim() !== '')),
  'node-registry-credentials-secret': (c, v) => {
    if (v !== '' && !/^[^/]+\/[^/]+$/.test(v))
      throw new ResourceError(
        `node-registry-credentials-secret must be namespace/name, got ${JSON.stringify(v)}`,
        'data.node-registry-credentials-secret',
      );
    c.nodeRegistryCredentialsSecret = v;
  },
  'device-ownership-from-security-context': (c, v) =>
    (c.deviceOwnershipFromSecurityContext = parseFlagBool(v, 'device-ownership-from-security-context')),
  'override-bootstrap-kubelet-apiserver': (c, v) => (c.overrideBootstrapKubeletAPIServer = v),
  // Upstream these two flags are file paths; so they are here.
  // An empty flag means none, as upstream.
  'kubernetes-ca-bundle': (c, v, at) => (c.kubernetesCABundle = v === '' ? undefined : { file: v, at }),
  'host-ca-bundle': (c, v, at) => (c.hostCABundle = v === '' ? '' : { file: v, at }),
  // Cluster facts (not OSM flags): `<fact>`, `<fact>-env` or `<fact>-file`.
  'cluster-server': (c, v) => (c.cluster.server = v),
  'cluster-ca-cert-file': (c, v, at) => (c.cluster.caCert = { file: v, at }),
  'cloud-init-getter-token-env': (c, v, at) => (c.cluster.cloudInitGetterToken = { env: v, at }),
  'cloud-init-getter-token-file': (c, v, at) => (c.cluster.cloudInitGetterToken = { file: v, at }),
  'bootstrap-token-env': (c, v, at) => (c.cluster.bootstrapToken = { env: v, at }),
  'bootstrap-token-file': (c, v, at) => (c.cluster.bootstrapToken = { file: v, at }),
  'bootstrap-token-key-env': (c, v, at) => (c.cluster.bootstrapTokenKey = { env: v, at }),
  'bootstrap-token-key-file': (c, v, at) => (c.cluster.bootstrapTokenKey = { file: v, at }),
  'bootstrap-token-expiration': (c, v) => {
    if (!RFC3339_SECONDS.test(v))
      throw new ResourceError(
        `bootstrap-token-expiration must be an RFC 3339 time like 2027-01-31T00:00:00Z, got ${JSON.stringify(v)}`,
        'data.bootstrap-token-expiration',
      );
    c.cluster.bootstrapTokenExpiration = v;
  },
  'bootstrap-token-rotation-period': (c, v) =>
    (c.cluster.bootstrapTokenRotation = { overlap: '', ...c.cluster.bootstrapTokenRotation, period: v }),
  'bootstrap-token-rotation-overlap': (c, v) =>
    (c.cluster.bootstrapTokenRotation = { period: '', ...c.cluster.bootstrapTokenRotation, overlap: v }),
  // RHEL subscription secrets for every RHEL MachineDeployment: `<operatingSystemSpec field in kebab case>-env|-file`.
  ...rhelSubscriptionFlags(),
  'pin-cluster-ca': (c, v) => (c.pinClusterCA = parseFlagBool(v, 'pin-cluster-ca')),
  'gitops-split': (c, v) => (c.gitops = { ...c.gitops, split: parseFlagBool(v, 'gitops-split') }),
  'gitops-sync-annotations': (c, v) => {
    const tools = splitList(v);
    for (const t of tools)
      if (t !== 'argocd' && t !== 'flux')
        throw new ResourceError(
          `gitops-sync-annotations: unknown tool ${JSON.stringify(t)} (argocd, flux)`,
          'data.gitops-sync-annotations',
        );
    c.gitops = { ...c.gitops, syncAnnotations: tools as Array<'argocd' | 'flux'> };
  },
  'sops-age-recipients': (c, v) => {
    const recipients = splitList(v);
    for (const r of recipients)
      if (!AGE_RECIPIENT.test(r))
        throw new ResourceError(
          `sops-age-recipients: ${JSON.stringify(r)} is not an age recipient (age1...)`,
          'data.sops-age-recipients',
        );
    c.sops = { dataKeySeed: '', ...c.sops, ageRecipients: recipients };
  },
  'sops-data-key-seed-env': (c, v, at) => (c.sops = { ageRecipients: [], ...c.sops, dataKeySeed: { env: v, at } }),
  'sops-data-key-seed-file': (c, v, at) => (c.sops = { ageRecipients: [], ...c.sops, dataKeySeed: { file: v, at } }),
};

/** The flag-style name of a RHEL subscription field: rhelSubscriptionManagerPassword -> rhel-subscription-manager-password. */
export function rhelSubscriptionFlag(field: RhelSubscriptionSecretField): string {
  return field.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`);
}

function rhelSubscriptionFlags(): Record<string, FlagHandler> {
  const out: Record<string, FlagHandler> = {};
  for (const field of RHEL_SUBSCRIPTION_SECRET_FIELDS) {
    const flag = rhelSubscriptionFlag(field);
    const set = (c: OsmConfig, source: SecretSource) =>
      (c.rhelSubscription = { ...c.rhelSubscription, all: { ...c.rhelSubscription.all, [field]: source } });
    out[`${flag}-env`] = (c, v, at) => set(c, { env: v, at });
    out[`${flag}-file`] = (c, v, at) => set(c, { file: v, at });
  }
  return out;
}

/** The ConfigMap form's keys: OSM's flag names plus our cluster facts. */
export const FLAG_NAMES: readonly string[] = Object.keys(FLAG_KEYS);

/** What a run without any config uses, said in a result so that a missing config is never silent. */
export function noConfigNotice(): string {
  const d = DEFAULT_CONFIG;
  return (
    `no function config: OSM's defaults apply (namespace ${d.namespace}, cluster DNS ${d.clusterDNS.join(',')}, ${d.containerRuntime}, ` +
    `no proxy or registry mirrors, pinClusterCA ${d.pinClusterCA}, Ignition ${d.ignitionSpec}; cluster facts and tokens only from local-config inputs)`
  );
}

const AGE_RECIPIENT = /^age1[02-9ac-hj-np-z]{58}$/;

const isSopsKey = (key: string) => key.replace(/^-+/, '').startsWith('sops-');

/** Where a function config sets SOPS mode (`spec.sops`, or the ConfigMap's first `sops-` key), if it does. */
export function sopsSettingField(
  functionConfig: { kind?: unknown; spec?: unknown; data?: unknown } | undefined,
): string | undefined {
  if (functionConfig?.kind === 'ConfigMap') {
    const key = Object.keys((functionConfig.data as object | null) ?? {}).find(isSopsKey);
    return key === undefined ? undefined : `data.${key}`;
  }
  const spec = functionConfig?.spec as Record<string, unknown> | null | undefined;
  return spec !== null && typeof spec === 'object' && spec.sops !== undefined ? 'spec.sops' : undefined;
}

/** The function config without its SOPS settings: what hydrate, which does the encrypting, hands the function. */
export function withoutSopsSettings<T extends { kind?: unknown; spec?: unknown; data?: unknown }>(
  functionConfig: T,
): T {
  if (sopsSettingField(functionConfig) === undefined) return functionConfig;
  if (functionConfig.kind === 'ConfigMap') {
    return {
      ...functionConfig,
      data: Object.fromEntries(Object.entries(functionConfig.data as object).filter(([k]) => !isSopsKey(k))),
    };
  }
  const { sops: _sops, ...spec } = functionConfig.spec as Record<string, unknown>;
  return { ...functionConfig, spec };
}

function fromFlagConfigMap(data: unknown): OsmConfig {
  const config: OsmConfig = {
    ...DEFAULT_CONFIG,
    kubeletFeatureGates: { ...DEFAULT_CONFIG.kubeletFeatureGates },
    cluster: {},
    rhelSubscription: {},
  };
  if (data === undefined || data === null) return config;
  if (typeof data !== 'object' || Array.isArray(data))
    throw new ResourceError('ConfigMap data must be a map of strings', 'data');
  // Every key is checked, so one run reports every problem.
  const errors: ResourceError[] = [];
  for (const [key, raw] of Object.entries(data as Record<string, unknown>)) {
    const apply = FLAG_KEYS[key.replace(/^-+/, '')];
    if (apply === undefined) {
      const hint = didYouMean(key.replace(/^-+/, ''), FLAG_NAMES);
      errors.push(
        new ResourceError(
          `unknown config key ${JSON.stringify(key)}${hint !== '' ? hint : `; known keys: ${FLAG_NAMES.join(', ')}`}`,
          `data.${key}`,
        ),
      );
      continue;
    }
    if (typeof raw !== 'string') {
      errors.push(new ResourceError(`config key ${key} must be a string`, `data.${key}`));
      continue;
    }
    collect(errors, () => apply(config, raw.trim(), `data.${key}`));
  }
  const rotation = config.cluster.bootstrapTokenRotation;
  if (rotation !== undefined && (rotation.period === '' || rotation.overlap === '')) {
    errors.push(
      new ResourceError(
        'bootstrap-token-rotation-period and bootstrap-token-rotation-overlap must be set together',
        `data.bootstrap-token-rotation-${rotation.period === '' ? 'period' : 'overlap'}`,
      ),
    );
  } else {
    collect(errors, () => checkBootstrapTokenLifetime(config.cluster, 'data'));
  }
  if (config.sops !== undefined) {
    if (config.sops.ageRecipients.length === 0)
      errors.push(
        new ResourceError(
          'sops-age-recipients must name at least one age recipient when a sops-data-key-seed key is set',
          'data.sops-age-recipients',
        ),
      );
    if (config.sops.dataKeySeed === '')
      errors.push(
        new ResourceError(
          'sops-data-key-seed-env or sops-data-key-seed-file must be set with sops-age-recipients',
          'data.sops-data-key-seed-env',
        ),
      );
  }
  throwAll(errors);
  return config;
}

/** Runs a check, keeping its error (a ResourceError) with the others instead of stopping at it. */
function collect(errors: ResourceError[], check: () => unknown): void {
  try {
    check();
  } catch (e) {
    if (!(e instanceof ResourceError)) throw e;
    for (const x of e instanceof ResourceErrors ? e.errors : [e]) errors.push(x);
  }
}

const RFC3339_SECONDS = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2})$/;

/** A fixed expiration and a rotation exclude each other; a rotation's durations are checked here, once. */
function checkBootstrapTokenLifetime(cluster: ClusterFactsConfig, at: 'spec.cluster' | 'data'): void {
  const rotation = cluster.bootstrapTokenRotation;
  if (rotation === undefined) return;
  const name = (typed: string, flag: string) => (at === 'data' ? `data.${flag}` : `spec.cluster.${typed}`);
  bootstrapTokenRotation(rotation, at === 'data' ? FLAG_ROTATION_FIELDS : TYPED_ROTATION_FIELDS);
  if (cluster.bootstrapTokenExpiration !== undefined) {
    throw new ResourceError(
      `${name('bootstrapTokenExpiration', 'bootstrap-token-expiration')} and ${name('bootstrapTokenRotation', 'bootstrap-token-rotation-period')} exclude each other: a rotation sets each token's expiration from its window`,
      name('bootstrapTokenExpiration', 'bootstrap-token-expiration'),
    );
  }
}

/** As OSM's -cluster-dns flag parse: refused in the config, not later on each MachineDeployment. */
function checkClusterDNS(ip: string, field: string): void {
  if (parseIP(ip) === undefined)
    throw new ResourceError(`invalid cluster DNS IP ${JSON.stringify(ip)}: give IPv4 or IPv6 addresses`, field);
}

function splitList(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const GO_BOOL = new Map<string, boolean>([
  ['1', true],
  ['t', true],
  ['T', true],
  ['TRUE', true],
  ['true', true],
  ['True', true],
  ['0', false],
  ['f', false],
  ['F', false],
  ['FALSE', false],
  ['false', false],
  ['False', false],
]);

function parseFlagBool(v: string, key: string): boolean {
  const b = GO_BOOL.get(v);
  if (b === undefined) throw new ResourceError(`${key}: invalid boolean ${JSON.stringify(v)}`, `data.${key}`);
  return b;
}

/** OSM's -node-kubelet-feature-gates: `k=v,k=v` with strconv.ParseBool; RotateKubeletServerCertificate=true added if absent. */
export function parseFeatureGates(v: string): Record<string, boolean> {
  const gates: Record<string, boolean> = {};
  for (const pair of v.split(',')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    if (eq < 0)
      throw new ResourceError(
        `node-kubelet-feature-gates: malformed entry ${JSON.stringify(pair)}, expected name=bool`,
        'data.node-kubelet-feature-gates',
      );
    const name = pair.slice(0, eq).trim();
    // A name becomes a key (src/go/internal/hashableKey.ts); no feature gate is named with thousands of characters.
    if (!isHashableKey(name))
      throw new ResourceError(
        `node-kubelet-feature-gates: a gate name of ${name.length} characters, longer than any key may be (16,383)`,
        'data.node-kubelet-feature-gates',
      );
    gates[name] = parseFlagBool(pair.slice(eq + 1).trim(), 'node-kubelet-feature-gates');
  }
  if (!('RotateKubeletServerCertificate' in gates)) gates.RotateKubeletServerCertificate = true;
  return gates;
}
