// What a run knows of its cluster, read once where the run is planned: the RHEL subscription secrets the config
// gives (rhelSubscriptionSecrets.ts) and, when there is a MachineDeployment to render, the facts
// (clusterFacts.ts), the inputs that hold one but would be applied (they should be local-config), and the
// warnings about the bootstrap token's lifetime (bootstrapTokenLifetime.ts).
import type { OsmConfig } from '../config/operatingSystemManagerConfig.ts';
import type { InputItem } from '../krm/resourceList.ts';
import type { SecretRegistry } from '../krm/redactSecrets.ts';
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import { clusterFactsNotLocalConfig, collectClusterFacts, type ClusterFacts } from './clusterFacts.ts';
import { bootstrapTokenLifetimeFindings, type LifetimeFinding } from './bootstrapTokenLifetime.ts';
import { resolveRhelSubscriptions, type RhelSubscriptionValues } from './rhelSubscriptionSecrets.ts';
import type { Environment } from './valueSource.ts';

export interface RunClusterFacts {
  /** Config-supplied RHEL subscription secrets by `<namespace>/<name>`. */
  rhelSubscriptions: ReadonlyMap<string, RhelSubscriptionValues>;
  /** Unset when there is no MachineDeployment to render. */
  cluster?: {
    facts: ClusterFacts;
    /** Inputs holding a cluster fact that are not local-config. */
    notLocalConfig: Array<{ item: InputItem; message: string }>;
    /** Warnings about the config's bootstrap token lifetime, each naming its config field. */
    lifetime: LifetimeFinding[];
  };
}

/**
 * `items`: the inputs (never the run's own previous output, which must not feed back). Throws the first
 * RHEL subscription error, or what collecting the facts throws (a missing or unreadable fact).
 */
export function readRunClusterFacts(
  config: OsmConfig,
  machineDeployments: readonly MachineDeployment[],
  items: readonly InputItem[],
  env: Environment,
  secrets: SecretRegistry,
): RunClusterFacts {
  const rhelSubscriptions = resolveRhelSubscriptions(config, machineDeployments, items, env, secrets);
  if (machineDeployments.length === 0) return { rhelSubscriptions };
  const facts = collectClusterFacts(config, items, env, secrets);
  return {
    rhelSubscriptions,
    cluster: {
      facts,
      notLocalConfig: clusterFactsNotLocalConfig(items),
      lifetime: bootstrapTokenLifetimeFindings(config, facts, env),
    },
  };
}
