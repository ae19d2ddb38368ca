// The revision machine-controller will give a MachineDeployment, which the bootstrap Secret must carry
// (k8c.io/machine-deployment-revision) or machine-controller never uses it.
//
// machine-controller assigns revisions at run time: 1 for a new MachineDeployment, then max+1 on every change
// of spec.template, including a roll back to an older template. In Git we reproduce that count from the
// previous render: same template hash, same revision; different hash, revision + 1. An explicit value wins:
// the real annotation (machinedeployment.clusters.k8s.io/revision) if it is in Git, else osm-krm.dev/revision.
import { ResourceError } from '../krm/results.ts';
import { REVISION_ANNOTATION } from '../machineDeployment/machineDeployment.ts';
import { contentHash, stateKey, type MachineDeploymentState, type RenderState } from './renderState.ts';

export const REVISION_OVERRIDE_ANNOTATION = 'osm-krm.dev/revision';

export interface RevisionDecision {
  revision: string;
  state: MachineDeploymentState;
  source: 'annotation' | 'override' | 'tracked';
}

/** The MachineDeployment's key in the render state, and what the previous render recorded for it. */
export function previousRevision(
  state: RenderState,
  namespace: string,
  name: string,
): { key: string; previous: MachineDeploymentState | undefined } {
  const key = stateKey(namespace, name);
  return { key, previous: state.machineDeployments.get(key) };
}

export function decideRevision(
  annotations: Readonly<Record<string, string>>,
  template: unknown,
  previous: MachineDeploymentState | undefined,
): RevisionDecision {
  const templateHash = contentHash(template ?? null);
  const explicit = annotations[REVISION_ANNOTATION];
  if (explicit !== undefined && explicit !== '')
    return { revision: explicit, state: { revision: explicit, templateHash }, source: 'annotation' };
  const override = annotations[REVISION_OVERRIDE_ANNOTATION];
  if (override !== undefined && override !== '') {
    if (!/^[1-9][0-9]*$/.test(override))
      throw new ResourceError(
        `${REVISION_OVERRIDE_ANNOTATION} must be a positive integer, got ${JSON.stringify(override)}`,
        `metadata.annotations.${REVISION_OVERRIDE_ANNOTATION}`,
      );
    return { revision: override, state: { revision: override, templateHash }, source: 'override' };
  }
  if (previous === undefined) return { revision: '1', state: { revision: '1', templateHash }, source: 'tracked' };
  if (previous.templateHash === templateHash)
    return { revision: previous.revision, state: previous, source: 'tracked' };
  const next = String((/^[0-9]+$/.test(previous.revision) ? Number(previous.revision) : 0) + 1);
  return { revision: next, state: { revision: next, templateHash }, source: 'tracked' };
}
