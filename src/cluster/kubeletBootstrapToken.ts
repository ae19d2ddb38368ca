// Which bootstrap token a MachineDeployment's kubelet joins with, and the token Secrets that go with it:
// a fixed token (config or inputs), a derived one (spec.cluster.bootstrapTokenKey, with an optional fixed
// expiration), or, with spec.cluster.bootstrapTokenRotation, the current window's derived token, emitted with the
// previous window's so that a node which fetched its kubeconfig just before this render still joins.
import { ResourceError } from '../krm/results.ts';
import type { OsmConfig } from '../config/operatingSystemManagerConfig.ts';
import type { ClusterFacts } from './clusterFacts.ts';
import { bootstrapTokenSecret, deriveBootstrapToken, deriveWindowToken } from './derivedBootstrapToken.ts';
import { rfc3339 } from './renderTime.ts';

export interface KubeletBootstrapToken {
  token: string;
  /** bootstrap.kubernetes.io/token Secrets to emit (kube-system), newest first. */
  secrets: Record<string, unknown>[];
}

export function kubeletBootstrapToken(
  machineDeploymentKey: string,
  facts: ClusterFacts,
  config: OsmConfig,
): KubeletBootstrapToken {
  const given = facts.bootstrapTokenFor(machineDeploymentKey);
  const rotation = facts.bootstrapTokenRotation;
  if (given !== undefined && rotation !== undefined) {
    throw new ResourceError(
      `spec.cluster.bootstrapTokenRotation is set, but the inputs hold a bootstrap token Secret labelled machinedeployment.k8s.io/name=${machineDeploymentKey}, which nothing would rotate: remove that Secret (the rotation emits this MachineDeployment's token Secrets)`,
      'metadata.name',
    );
  }
  if (given !== undefined) return { token: given, secrets: [] };
  const key = facts.bootstrapTokenKey;
  if (key === undefined) {
    throw new ResourceError(
      `missing cluster fact: no kubelet bootstrap token for ${machineDeploymentKey}; set spec.cluster.bootstrapToken or spec.cluster.bootstrapTokenKey, or add a kube-system bootstrap token Secret labelled machinedeployment.k8s.io/name=${machineDeploymentKey}`,
      'metadata.name',
    );
  }
  if (rotation === undefined) {
    const derived = deriveBootstrapToken(key, machineDeploymentKey);
    return {
      token: derived.token,
      secrets: [bootstrapTokenSecret(derived, machineDeploymentKey, config.cluster.bootstrapTokenExpiration)],
    };
  }
  const current = deriveWindowToken(key, machineDeploymentKey, rotation, rotation.current);
  const previous = deriveWindowToken(key, machineDeploymentKey, rotation, rotation.previous);
  return {
    token: current.token,
    secrets: [
      bootstrapTokenSecret(current, machineDeploymentKey, rfc3339(rotation.current.expires)),
      bootstrapTokenSecret(previous, machineDeploymentKey, rfc3339(rotation.previous.expires)),
    ],
  };
}
