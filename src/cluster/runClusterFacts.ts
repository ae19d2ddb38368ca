// What a run knows of its cluster, read once where the run is planned: the facts (clusterFacts.ts), the inputs
// that hold one but would be applied (they should be local-config), and the warnings about the bootstrap
// token's lifetime (bootstrapTokenLifetime.ts).
import type { OsmConfig } from '../config/operatingSystemManagerConfig.ts';
import type { InputItem } from '../krm/resourceList.ts';
import type { SecretRegistry } from '../krm/redactSecrets.ts';
import { clusterFactsNotLocalConfig, collectClusterFacts, type ClusterFacts } from './clusterFacts.ts';
import { bootstrapTokenLifetimeFindings, type LifetimeFinding } from './bootstrapTokenLifetime.ts';
import type { Environment } from './valueSource.ts';

export interface RunClusterFacts {
  facts: ClusterFacts;
  /** Inputs holding a cluster fact that are not local-config. */
  notLocalConfig: Array<{ item: InputItem; message: string }>;
  /** Warnings about the config's bootstrap token lifetime, each naming its config field. */
  lifetime: LifetimeFinding[];
}

/** Throws what collecting the facts throws (a missing or unreadable fact). */
export function readRunClusterFacts(
  config: OsmConfig,
  items: readonly InputItem[],
  env: Environment,
  secrets: SecretRegistry,
): RunClusterFacts {
  const facts = collectClusterFacts(config, items, env, secrets);
  return {
    facts,
    notLocalConfig: clusterFactsNotLocalConfig(items),
    lifetime: bootstrapTokenLifetimeFindings(config, facts, env),
  };
}
