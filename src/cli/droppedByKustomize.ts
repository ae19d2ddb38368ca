// A kustomization app's cluster facts kept in local-config files: kustomize drops local-config resources from
// its build, so the function never sees them and would ask for what is right there ("add the cluster-info
// ConfigMap"). Said before rendering, with what to do instead: give the facts in the config.
import type { KrmObject } from '../krm/resourceList.ts';
import { isLocalConfig } from '../krm/localConfig.ts';
import { parseFunctionConfig } from '../config/operatingSystemManagerConfig.ts';
import { CommandError } from './commandIO.ts';
import { listManifestFiles, readManifestFile } from './manifestDirectory.ts';
import type { Inputs } from './readInputs.ts';

interface Fact {
  kind: string;
  namespace: string;
  name: string;
  /** Whether the config gives it itself (then the dropped file does not matter). */
  given(config: ReturnType<typeof parseFunctionConfig>): boolean;
  instead: string;
}

const FACTS: readonly Fact[] = [
  {
    kind: 'ConfigMap',
    namespace: 'kube-public',
    name: 'cluster-info',
    given: (c) => c.cluster.server !== undefined,
    instead: 'spec.cluster.server and spec.cluster.caCert',
  },
  {
    kind: 'Secret',
    namespace: 'cloud-init-settings',
    name: 'cloud-init-getter-token',
    given: (c) => c.cluster.cloudInitGetterToken !== undefined,
    instead: 'spec.cluster.cloudInitGetterToken (env or file)',
  },
];

/** Refuses a kustomization directory whose needed cluster facts sit in local-config files kustomize dropped. */
export function checkFactsNotDropped(input: Inputs, functionConfig: KrmObject | undefined): void {
  if (input.layout !== 'kustomization') return;
  let config;
  try {
    config = parseFunctionConfig(functionConfig);
  } catch {
    return; // the function reports the config's own errors
  }
  const missing = FACTS.filter((f) => !f.given(config) && !input.objects.some((o) => is(o, f)));
  if (missing.length === 0) return;
  // Read as every other file: through the file gate, inside the PATH's root.
  for (const rel of listManifestFiles(input.root, input.dirRel)) {
    let objects: KrmObject[];
    try {
      objects = readManifestFile(
        input.root,
        input.dirRel === '' ? rel : `${input.dirRel}/${rel}`,
        input.budget,
        rel,
      ).objects.map((o) => o.object);
    } catch (e) {
      if (input.budget.reached) throw e; // the run's bound, not a file of another kind
      continue; // patches and other YAML that is not a manifest
    }
    for (const f of missing) {
      if (!objects.some((o) => is(o, f) && isLocalConfig(o))) continue;
      throw new CommandError(
        `${rel} holds the ${f.namespace}/${f.name} ${f.kind}, but it is local-config and kustomize drops local-config resources from its build, ` +
          `so osm-krm never sees it: give ${f.instead} in the config instead`,
      );
    }
  }
}

function is(o: KrmObject, f: Fact): boolean {
  return (
    o.apiVersion === 'v1' &&
    o.kind === f.kind &&
    o.metadata?.name === f.name &&
    (o.metadata?.namespace ?? '') === f.namespace
  );
}
