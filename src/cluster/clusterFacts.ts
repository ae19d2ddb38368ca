// Facts OSM reads from the live cluster, taken here from the config (inline, env or file) or from
// local-config resources in the ResourceList: the cluster-info ConfigMap, the cloud-init-getter token
// Secret and bootstrap token Secrets.
import { ResourceError, throwAll } from '../krm/results.ts';
import {
  bootstrapTokenRotation,
  type BootstrapTokenRotation,
  type OsmConfig,
  type ValueSource,
} from '../config/operatingSystemManagerConfig.ts';
import { rotationWindows, type TokenWindow } from './derivedBootstrapToken.ts';
import { renderTime, type RenderTime } from './renderTime.ts';
import { checkCACertificates } from './caCertificates.ts';
import type { InputItem } from '../krm/resourceList.ts';
import { isLocalConfig, LOCAL_CONFIG_ANNOTATION } from '../krm/localConfig.ts';
import { readClusterInfoKubeconfig, type KubeconfigCluster } from './kubeconfig.ts';
import { resolveValue, type Environment } from './valueSource.ts';
import { resolveSecretValue } from './secretValue.ts';
import { addBootstrapToken, type SecretRegistry } from '../krm/redactSecrets.ts';

export interface ClusterFacts {
  cluster: KubeconfigCluster;
  /** The cloud-init-getter ServiceAccount token embedded in bootstrap user-data. */
  cloudInitGetterToken: string;
  kubernetesCACert: string;
  /** What a node verifies the API server with: the CA the kubelet's bootstrap kubeconfig trusts. */
  apiServerCACert: string;
  hostCACert: string;
  /** Key for derived (HMAC) bootstrap tokens, when configured. */
  bootstrapTokenKey?: string;
  /** spec.cluster.bootstrapTokenRotation with the render's windows, when configured. */
  bootstrapTokenRotation?: BootstrapTokenRotation & { time: RenderTime; current: TokenWindow; previous: TokenWindow };
  /** Bootstrap token for a MachineDeployment key from the config or the inputs, or undefined. */
  bootstrapTokenFor(key: string): string | undefined;
}

export const BOOTSTRAP_TOKEN_LABEL = 'machinedeployment.k8s.io/name';

/** A fact neither the config nor the inputs give. */
/** kubeadm's bootstrap token: `<token-id>.<token-secret>`. */
const BOOTSTRAP_TOKEN_FORMAT = /^[a-z0-9]{6}\.[a-z0-9]{16}$/;

export class MissingClusterFactError extends ResourceError {
  override name = 'MissingClusterFactError';
}

function secretValue(obj: any, key: string): string | undefined {
  const sd = obj?.stringData?.[key];
  if (typeof sd === 'string') return sd;
  const d = obj?.data?.[key];
  if (typeof d === 'string') return Buffer.from(d, 'base64').toString('utf8');
  return undefined;
}

function find(items: readonly InputItem[], kind: string, namespace: string, name: string): InputItem | undefined {
  return items.find(
    (i) =>
      i.object.kind === kind &&
      i.object.apiVersion === 'v1' &&
      i.object.metadata?.name === name &&
      (i.object.metadata?.namespace ?? '') === namespace,
  );
}

/** `secrets`: every secret fact is registered there as it is read. */
export function collectClusterFacts(
  config: OsmConfig,
  items: readonly InputItem[],
  env: Environment,
  secrets: SecretRegistry,
): ClusterFacts {
  // Every value the config names (env, file) is read first, so one run reports every source that fails.
  const values = resolveConfigValues(config, env, secrets);
  const clusterInfo = find(items, 'ConfigMap', 'kube-public', 'cluster-info');
  let cluster: KubeconfigCluster | undefined;
  const infoText = (clusterInfo?.object as any)?.data?.kubeconfig;
  if (typeof infoText === 'string') {
    try {
      cluster = readClusterInfoKubeconfig(infoText, 'data.kubeconfig');
    } catch (e) {
      // About the ConfigMap's field, not the config the run's cluster facts are reported on.
      if (e instanceof ResourceError && e.about === undefined)
        throw new ResourceError(e.message, e.fieldPath, clusterInfo!.object);
      throw e;
    }
  }
  const caOverride = values.caCert;
  if (caOverride !== undefined)
    checkCACertificates(caOverride, sourceName('spec.cluster.caCert', config.cluster.caCert), 'spec.cluster.caCert');
  else if (cluster?.certificateAuthorityData !== undefined) {
    checkCACertificates(
      Buffer.from(cluster.certificateAuthorityData, 'base64').toString('utf8'),
      "the kube-public/cluster-info ConfigMap's certificate-authority-data",
      'spec.cluster.caCert',
    );
  }
  if (config.cluster.server !== undefined || caOverride !== undefined) {
    const server = config.cluster.server ?? cluster?.server;
    if (server === undefined)
      throw new MissingClusterFactError(
        'missing cluster fact: the API server URL (spec.cluster.server or a kube-public/cluster-info ConfigMap)',
        'spec.cluster.server',
      );
    const fields: Record<string, unknown> = { ...(cluster?.fields ?? {}), server };
    if (caOverride !== undefined)
      fields['certificate-authority-data'] = Buffer.from(caOverride, 'utf8').toString('base64');
    cluster = {
      server,
      fields,
      ...(typeof fields['certificate-authority-data'] === 'string'
        ? { certificateAuthorityData: fields['certificate-authority-data'] as string }
        : {}),
    };
  }
  if (cluster === undefined) {
    throw new MissingClusterFactError(
      'missing cluster fact: the API server URL; set spec.cluster.server or add the kube-public/cluster-info ConfigMap (local-config) to the inputs',
      'spec.cluster.server',
    );
  }

  let token = values.cloudInitGetterToken;
  if (token === undefined) {
    const s = find(items, 'Secret', 'cloud-init-settings', 'cloud-init-getter-token');
    token = s ? secretValue(s.object, 'token') : undefined;
    secrets.add(token);
  }
  if (token !== undefined && token !== '' && token.trim() !== token) {
    // Found once here, naming where it came from; the check of script values would refuse it per MachineDeployment.
    const where =
      values.cloudInitGetterToken !== undefined
        ? valueOrigin(config.cluster.cloudInitGetterToken)
        : "the cloud-init-settings/cloud-init-getter-token Secret's token";
    throw new ResourceError(
      `${where} is not a token as it is: ${whiteSpaceAround(token)}`,
      'spec.cluster.cloudInitGetterToken',
    );
  }
  if (token === undefined || token === '') {
    throw new MissingClusterFactError(
      'missing cluster fact: the cloud-init-getter token; set spec.cluster.cloudInitGetterToken (env or file) or add the cloud-init-settings/cloud-init-getter-token Secret (local-config) to the inputs',
      'spec.cluster.cloudInitGetterToken',
    );
  }

  let kubernetesCACert = values.kubernetesCABundle;
  if (kubernetesCACert !== undefined)
    checkCACertificates(
      kubernetesCACert,
      sourceName('spec.kubernetesCABundle', config.kubernetesCABundle),
      'spec.kubernetesCABundle',
    );
  if (kubernetesCACert === undefined && cluster.certificateAuthorityData !== undefined) {
    kubernetesCACert = Buffer.from(cluster.certificateAuthorityData, 'base64').toString('utf8');
  }
  if (kubernetesCACert === undefined) {
    throw new MissingClusterFactError(
      'missing cluster fact: the Kubernetes CA certificate; set spec.kubernetesCABundle or give the cluster-info kubeconfig a certificate-authority-data',
      'spec.kubernetesCABundle',
    );
  }
  // An inline empty string is OSM's default: no host CA. From a file or the environment it must hold one.
  const inlineNone =
    config.hostCABundle === '' || (typeof config.hostCABundle === 'object' && config.hostCABundle?.value === '');
  const hostCACert = inlineNone ? '' : (values.hostCABundle ?? '');
  if (!inlineNone && config.hostCABundle !== undefined)
    checkCACertificates(hostCACert, sourceName('spec.hostCABundle', config.hostCABundle), 'spec.hostCABundle');
  // Checked above: cluster-info's or spec.cluster.caCert's PEM, else the Kubernetes CA.
  const apiServerCACert =
    cluster.certificateAuthorityData !== undefined
      ? Buffer.from(cluster.certificateAuthorityData, 'base64').toString('utf8')
      : kubernetesCACert;

  const fixedBootstrapToken = values.bootstrapToken;
  addBootstrapToken(secrets, fixedBootstrapToken?.trim());
  if (fixedBootstrapToken !== undefined && !BOOTSTRAP_TOKEN_FORMAT.test(fixedBootstrapToken)) {
    // A malformed token renders fine and fails only at the node's join: refuse it here, without quoting it.
    // The field is the result's own; the message names where the value came from (once).
    const why = BOOTSTRAP_TOKEN_FORMAT.test(fixedBootstrapToken.trim())
      ? whiteSpaceAround(fixedBootstrapToken)
      : "expected kubeadm's format [a-z0-9]{6}.[a-z0-9]{16}";
    throw new ResourceError(
      `${valueOrigin(config.cluster.bootstrapToken)} is not a bootstrap token: ${why}`,
      'spec.cluster.bootstrapToken',
    );
  }
  const bootstrapTokenKey = values.bootstrapTokenKey;
  if (bootstrapTokenKey !== undefined && bootstrapTokenKey.length < 16) {
    throw new ResourceError(
      'spec.cluster.bootstrapTokenKey must be at least 16 characters long',
      'spec.cluster.bootstrapTokenKey',
    );
  }
  let rotation: ClusterFacts['bootstrapTokenRotation'];
  if (config.cluster.bootstrapTokenRotation !== undefined) {
    if (bootstrapTokenKey === undefined)
      throw new ResourceError(
        "spec.cluster.bootstrapTokenRotation derives each window's tokens from spec.cluster.bootstrapTokenKey, which is not set",
        'spec.cluster.bootstrapTokenKey',
      );
    if (fixedBootstrapToken !== undefined)
      throw new ResourceError(
        'spec.cluster.bootstrapToken is one fixed token, which spec.cluster.bootstrapTokenRotation cannot rotate: drop it (the rotation derives the tokens from spec.cluster.bootstrapTokenKey)',
        'spec.cluster.bootstrapToken',
      );
    const r = bootstrapTokenRotation(config.cluster.bootstrapTokenRotation);
    const time = renderTime(env, 'spec.cluster.bootstrapTokenRotation');
    rotation = { ...r, time, ...rotationWindows(r, time.seconds) };
  }
  const tokenSecrets = items.filter(
    (i) =>
      i.object.kind === 'Secret' &&
      i.object.apiVersion === 'v1' &&
      (i.object as any).type === 'bootstrap.kubernetes.io/token' &&
      (i.object.metadata?.namespace ?? '') === 'kube-system',
  );
  // Each token the inputs hold is masked as the kubeconfig writes it (`<id>.<secret>`) once read, whichever
  // MachineDeployment asks for it later.
  for (const s of tokenSecrets) {
    const id = secretValue(s.object, 'token-id');
    const secret = secretValue(s.object, 'token-secret');
    if (id && secret) addBootstrapToken(secrets, `${id}.${secret}`);
  }
  return {
    cluster,
    cloudInitGetterToken: token,
    kubernetesCACert,
    apiServerCACert,
    hostCACert,
    ...(bootstrapTokenKey !== undefined ? { bootstrapTokenKey } : {}),
    ...(rotation !== undefined ? { bootstrapTokenRotation: rotation } : {}),
    bootstrapTokenFor(key: string): string | undefined {
      if (fixedBootstrapToken !== undefined) return fixedBootstrapToken;
      const matches = tokenSecrets.filter(
        (s) => (s.object.metadata?.labels as Record<string, unknown> | undefined)?.[BOOTSTRAP_TOKEN_LABEL] === key,
      );
      if (matches.length > 1)
        throw new ResourceError(
          `more than one bootstrap token Secret is labelled ${BOOTSTRAP_TOKEN_LABEL}=${key}`,
          'metadata.labels',
        );
      if (matches.length === 0) return undefined;
      const id = secretValue(matches[0]!.object, 'token-id');
      const secret = secretValue(matches[0]!.object, 'token-secret');
      if (!id || !secret)
        throw new ResourceError(
          `bootstrap token Secret ${String(matches[0]!.object.metadata?.name)} lacks token-id or token-secret`,
          'data',
        );
      return `${id}.${secret}`;
    },
  };
}

type ConfigValue =
  'caCert' | 'cloudInitGetterToken' | 'kubernetesCABundle' | 'hostCABundle' | 'bootstrapToken' | 'bootstrapTokenKey';

/** The config's value sources, each read once; every one that cannot be read is reported together. */
const SECRET_VALUES: ReadonlySet<ConfigValue> = new Set([
  'cloudInitGetterToken',
  'bootstrapToken',
  'bootstrapTokenKey',
]);

/** The config's value sources, read; the secret ones registered with `secrets` as they are read. */
function resolveConfigValues(
  config: OsmConfig,
  env: Environment,
  secrets: SecretRegistry,
): Partial<Record<ConfigValue, string>> {
  const sources: Array<[ConfigValue, ValueSource | undefined, string]> = [
    ['caCert', config.cluster.caCert, 'spec.cluster.caCert'],
    ['cloudInitGetterToken', config.cluster.cloudInitGetterToken, 'spec.cluster.cloudInitGetterToken'],
    ['kubernetesCABundle', config.kubernetesCABundle, 'spec.kubernetesCABundle'],
    ['hostCABundle', config.hostCABundle, 'spec.hostCABundle'],
    ['bootstrapToken', config.cluster.bootstrapToken, 'spec.cluster.bootstrapToken'],
    ['bootstrapTokenKey', config.cluster.bootstrapTokenKey, 'spec.cluster.bootstrapTokenKey'],
  ];
  const values: Partial<Record<ConfigValue, string>> = {};
  const errors: ResourceError[] = [];
  for (const [key, source, field] of sources) {
    // An inline empty host CA is OSM's default (none), not a value to read.
    if (key === 'hostCABundle' && (source === '' || (typeof source === 'object' && source?.value === ''))) continue;
    try {
      const v = SECRET_VALUES.has(key)
        ? resolveSecretValue(source, field, env, secrets)
        : resolveValue(source, field, env);
      if (v !== undefined) values[key] = v;
    } catch (e) {
      if (!(e instanceof ResourceError)) throw e;
      errors.push(e);
    }
  }
  throwAll(errors);
  return values;
}

/**
 * Cluster facts among the inputs that are not local-config: every route applies them (kustomize's output, kpt
 * live apply, generate, hydrate), over the cluster's own objects, which this app would then own and prune.
 */
export function clusterFactsNotLocalConfig(items: readonly InputItem[]): Array<{ item: InputItem; message: string }> {
  const out: Array<{ item: InputItem; message: string }> = [];
  const mark = `mark it ${LOCAL_CONFIG_ANNOTATION}: "true" (osm-krm reads it either way)`;
  const info = find(items, 'ConfigMap', 'kube-public', 'cluster-info');
  if (info !== undefined && !isLocalConfig(info.object)) {
    out.push({
      item: info,
      message: `the kube-public/cluster-info ConfigMap is not local-config: it would be applied over the cluster's own (which kubeadm's bootstrap signer maintains and nodes join with) and pruned with this app; ${mark}`,
    });
  }
  const token = find(items, 'Secret', 'cloud-init-settings', 'cloud-init-getter-token');
  if (token !== undefined && !isLocalConfig(token.object) && secretValue(token.object, 'token') !== undefined) {
    out.push({
      item: token,
      message: `the cloud-init-settings/cloud-init-getter-token Secret holds a token and is not local-config: it would be applied over the cloud-init-getter ServiceAccount's token Secret in the cluster; ${mark}, or take the token from the environment or a file (spec.cluster.cloudInitGetterToken)`,
    });
  }
  return out;
}

/** Where a value came from, for messages on its field: `file /run/token`, `environment variable X`, `the inline value`. */
function valueOrigin(src: ValueSource | undefined): string {
  if (typeof src === 'object' && src.file !== undefined) return `file ${src.file}`;
  if (typeof src === 'object' && src.env !== undefined) return `environment variable ${src.env}`;
  return 'the inline value';
}

/** What is around a value that is right once trimmed: a line break at its end (echo's), or other white space. */
function whiteSpaceAround(value: string): string {
  return /^[^\s]+\r?\n$/.test(value)
    ? 'it ends with a line break (write it with printf %s, not echo)'
    : 'it has white space around it';
}

/** How an input was given, for messages: the field and, for env and file, where the value came from. */
function sourceName(field: string, src: ValueSource | undefined): string {
  if (typeof src === 'object' && src.file !== undefined) return `${field} (file ${src.file})`;
  if (typeof src === 'object' && src.env !== undefined) return `${field} (env ${src.env})`;
  return field;
}
