// A render state committed by hand (Argo CD apps, `diff`'s view of a pull request) that lags behind the templates:
// the same check the function makes under kustomize (gitops/renderState.ts staleStateEntries), for the commands
// that read the state from Git and never write it back.
import type { KrmObject } from '../krm/resourceList.ts';
import { isStateObject, readState, staleStateEntries, staleStateMessage, stateKey } from '../gitops/renderState.ts';
import { REVISION_OVERRIDE_ANNOTATION } from '../gitops/machineDeploymentRevision.ts';
import { MD_API_VERSION, REVISION_ANNOTATION } from '../machineDeployment/machineDeployment.ts';

export interface StaleState {
  /** namespace/name */
  machineDeployment: string;
  message: string;
}

/**
 * The MachineDeployments whose entry in the inputs' state is older than their template, comparing it with the
 * state the render output (`outputs`); none when the inputs hold no state. `where`: the route, for the message.
 */
export function staleCommittedState(
  inputs: readonly KrmObject[],
  outputs: readonly KrmObject[],
  where: string,
): StaleState[] {
  const committed = inputs.find(isStateObject);
  const next = outputs.find(isStateObject);
  if (committed === undefined || next === undefined) return [];
  let before;
  try {
    before = readState(committed);
  } catch {
    return []; // a malformed state is the function's error
  }
  const names = new Map<string, string>();
  const pinned = new Set<string>();
  for (const o of inputs) {
    if (o.apiVersion !== MD_API_VERSION || o.kind !== 'MachineDeployment') continue;
    const namespace =
      typeof o.metadata?.namespace === 'string' && o.metadata.namespace !== '' ? o.metadata.namespace : 'default';
    const key = stateKey(namespace, String(o.metadata?.name ?? ''));
    names.set(key, `${namespace}/${String(o.metadata?.name ?? '')}`);
    const a = (o.metadata?.annotations ?? {}) as Record<string, unknown>;
    if (a[REVISION_ANNOTATION] || a[REVISION_OVERRIDE_ANNOTATION]) pinned.add(key);
  }
  return staleStateEntries(before, readState(next), (key) => names.has(key) && !pinned.has(key)).map((e) => ({
    machineDeployment: names.get(e.key)!,
    message: staleStateMessage(e, where),
  }));
}
