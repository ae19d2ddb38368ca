// Facts OSM reads from the live cluster, taken here from the config (inline, env or file) or from
// local-config resources in the ResourceList: the cluster-info ConfigMap, the cloud-init-getter token
// Secret and bootstrap token Secrets.
import { ResourceError } from '../krm/results.ts';
import { bootstrapTokenRotation, type BootstrapTokenRotation, type OsmConfig, type ValueSource } from '../config/operatingSystemManagerConfig.ts';
import { rotationWindows, type TokenWindow } from './derivedBootstrapToken.ts';
import { renderTime, type RenderTime } from './renderTime.ts';
import { checkCACertificates } from './caCertificates.ts';
import type { InputItem } from '../krm/resourceList.ts';
import { readClusterInfoKubeconfig, type KubeconfigCluster } from './kubeconfig.ts';
import { resolveValue, type Environment } from './valueSource.ts';

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
  return items.find((i) => i.object.kind === kind && i.object.apiVersion === 'v1' && i.object.metadata?.name === name && (i.object.metadata?.namespace ?? '') === namespace);
}

export function collectClusterFacts(config: OsmConfig, items: readonly InputItem[], env: Environment): ClusterFacts {
  const clusterInfo = find(items, 'ConfigMap', 'kube-public', 'cluster-info');
  let cluster: KubeconfigCluster | undefined;
  const infoText = (clusterInfo?.object as any)?.data?.kubeconfig;
  if (typeof infoText === 'string') cluster = readClusterInfoKubeconfig(infoText, 'data.kubeconfig');
  const caOverride = resolveValue(config.cluster.caCert, 'spec.cluster.caCert', env);
  if (caOverride !== undefined) checkCACertificates(caOverride, sourceName('spec.cluster.caCert', config.cluster.caCert), 'spec.cluster.caCert');
  else if (cluster?.certificateAuthorityData !== undefined) {
    checkCACertificates(Buffer.from(cluster.certificateAuthorityData, 'base64').toString('utf8'), "the kube-public/cluster-info ConfigMap's certificate-authority-data", 'spec.cluster.caCert');
  }
  if (config.cluster.server !== undefined || caOverride !== undefined) {
    const server = config.cluster.server ?? cluster?.server;
    if (server === undefined) throw new MissingClusterFactError('missing cluster fact: the API server URL (spec.cluster.server or a kube-public/cluster-info ConfigMap)', 'spec.cluster.server');
    const fields: Record<string, unknown> = { ...(cluster?.fields ?? {}), server };
    if (caOverride !== undefined) fields['certificate-authority-data'] = Buffer.from(caOverride, 'utf8').toString('base64');
    cluster = { server, fields, ...(typeof fields['certificate-authority-data'] === 'string' ? { certificateAuthorityData: fields['certificate-authority-data'] as string } : {}) };
  }
  if (cluster === undefined) {
    throw new MissingClusterFactError('missing cluster fact: the API server URL; set spec.cluster.server or add the kube-public/cluster-info ConfigMap (local-config) to the inputs', 'spec.cluster.server');
  }

  let token = resolveValue(config.cluster.cloudInitGetterToken, 'spec.cluster.cloudInitGetterToken', env);
  if (token === undefined) {
    const s = find(items, 'Secret', 'cloud-init-settings', 'cloud-init-getter-token');
    token = s ? secretValue(s.object, 'token') : undefined;
  }
  if (token === undefined || token === '') {
    throw new MissingClusterFactError('missing cluster fact: the cloud-init-getter token; set spec.cluster.cloudInitGetterToken (env or file) or add the cloud-init-settings/cloud-init-getter-token Secret (local-config) to the inputs', 'spec.cluster.cloudInitGetterToken');
  }

  let kubernetesCACert = resolveValue(config.kubernetesCABundle, 'spec.kubernetesCABundle', env);
  if (kubernetesCACert !== undefined) checkCACertificates(kubernetesCACert, sourceName('spec.kubernetesCABundle', config.kubernetesCABundle), 'spec.kubernetesCABundle');
  if (kubernetesCACert === undefined && cluster.certificateAuthorityData !== undefined) {
    kubernetesCACert = Buffer.from(cluster.certificateAuthorityData, 'base64').toString('utf8');
  }
  if (kubernetesCACert === undefined) {
    throw new MissingClusterFactError('missing cluster fact: the Kubernetes CA certificate; set spec.kubernetesCABundle or give the cluster-info kubeconfig a certificate-authority-data', 'spec.kubernetesCABundle');
  }
  // An inline empty string is OSM's default: no host CA. From a file or the environment it must hold one.
  const inlineNone = config.hostCABundle === '' || (typeof config.hostCABundle === 'object' && config.hostCABundle?.value === '');
  const hostCACert = inlineNone ? '' : resolveValue(config.hostCABundle, 'spec.hostCABundle', env) ?? '';
  if (!inlineNone && config.hostCABundle !== undefined) checkCACertificates(hostCACert, sourceName('spec.hostCABundle', config.hostCABundle), 'spec.hostCABundle');
  // Checked above: cluster-info's or spec.cluster.caCert's PEM, else the Kubernetes CA.
  const apiServerCACert = cluster.certificateAuthorityData !== undefined ? Buffer.from(cluster.certificateAuthorityData, 'base64').toString('utf8') : kubernetesCACert;

  const fixedBootstrapToken = resolveValue(config.cluster.bootstrapToken, 'spec.cluster.bootstrapToken', env);
  if (fixedBootstrapToken !== undefined && !BOOTSTRAP_TOKEN_FORMAT.test(fixedBootstrapToken)) {
    // A malformed token renders fine and fails only at the node's join: refuse it here, without quoting it.
    const why = BOOTSTRAP_TOKEN_FORMAT.test(fixedBootstrapToken.trim()) ? 'it has surrounding white space or a line break (write the file with printf %s, not echo)' : 'expected kubeadm\'s format [a-z0-9]{6}.[a-z0-9]{16}';
    throw new ResourceError(`${sourceName('spec.cluster.bootstrapToken', config.cluster.bootstrapToken)} is not a bootstrap token: ${why}`, 'spec.cluster.bootstrapToken');
  }
  const bootstrapTokenKey = resolveValue(config.cluster.bootstrapTokenKey, 'spec.cluster.bootstrapTokenKey', env);
  if (bootstrapTokenKey !== undefined && bootstrapTokenKey.length < 16) {
    throw new ResourceError('spec.cluster.bootstrapTokenKey must be at least 16 characters long', 'spec.cluster.bootstrapTokenKey');
  }
  let rotation: ClusterFacts['bootstrapTokenRotation'];
  if (config.cluster.bootstrapTokenRotation !== undefined) {
    if (bootstrapTokenKey === undefined) throw new ResourceError('spec.cluster.bootstrapTokenRotation derives each window\'s tokens from spec.cluster.bootstrapTokenKey, which is not set', 'spec.cluster.bootstrapTokenKey');
    if (fixedBootstrapToken !== undefined) throw new ResourceError('spec.cluster.bootstrapToken is one fixed token, which spec.cluster.bootstrapTokenRotation cannot rotate: drop it (the rotation derives the tokens from spec.cluster.bootstrapTokenKey)', 'spec.cluster.bootstrapToken');
    const r = bootstrapTokenRotation(config.cluster.bootstrapTokenRotation);
    const time = renderTime(env, 'spec.cluster.bootstrapTokenRotation');
    rotation = { ...r, time, ...rotationWindows(r, time.seconds) };
  }
  const tokenSecrets = items.filter((i) => i.object.kind === 'Secret' && i.object.apiVersion === 'v1' && (i.object as any).type === 'bootstrap.kubernetes.io/token' && (i.object.metadata?.namespace ?? '') === 'kube-system');
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
      const matches = tokenSecrets.filter((s) => (s.object.metadata?.labels as Record<string, unknown> | undefined)?.[BOOTSTRAP_TOKEN_LABEL] === key);
      if (matches.length > 1) throw new ResourceError(`more than one bootstrap token Secret is labelled ${BOOTSTRAP_TOKEN_LABEL}=${key}`, 'metadata.labels');
      if (matches.length === 0) return undefined;
      const id = secretValue(matches[0]!.object, 'token-id');
      const secret = secretValue(matches[0]!.object, 'token-secret');
      if (!id || !secret) throw new ResourceError(`bootstrap token Secret ${String(matches[0]!.object.metadata?.name)} lacks token-id or token-secret`, 'data');
      return `${id}.${secret}`;
    },
  };
}

/** How an input was given, for messages: the field and, for env and file, where the value came from. */
function sourceName(field: string, src: ValueSource | undefined): string {
  if (typeof src === 'object' && src.file !== undefined) return `${field} (file ${src.file})`;
  if (typeof src === 'object' && src.env !== undefined) return `${field} (env ${src.env})`;
  return field;
}
