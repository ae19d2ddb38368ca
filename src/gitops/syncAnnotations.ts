// What `spec.gitops.syncAnnotations` adds to each generated object so Argo CD or Flux applies it right.
//
// Immutable Secrets cannot be updated in place, and their names are fixed (machine-controller reads
// `<md>-<ns>-bootstrap-config`), so content-hashed names are not an option: the objects carry the annotations
// that make Argo CD and Flux delete and re-create them when their content changes. Beyond that, per tool:
// - argocd: every generated object but a MachineDeployment is in sync wave -1, so a sync applies the Secrets (and
//   bootstrap token Secrets) in a wave of their own and goes on to wave 0, where MachineDeployments are, only
//   when they applied (gitops-engine sync_context.go: waves run in order and a failed wave stops the sync;
//   within a wave, kinds are applied group by group but a failed group does not stop the next).
// - flux: every generated object opts out of post-build substitution (fluxSubstitution.ts): our output is full of
//   shell `${...}`, and no value in it is meant for Flux.
import type { KrmObject } from '../krm/resourceList.ts';
import { FLUX_SUBSTITUTE_DISABLED, FLUX_SUBSTITUTE_KEY } from './fluxSubstitution.ts';

export type SyncTool = 'argocd' | 'flux';

export const ARGOCD_SYNC_WAVE = 'argocd.argoproj.io/sync-wave';
/** Before wave 0, where MachineDeployments (and everything unannotated) are. */
export const GENERATED_SYNC_WAVE = '-1';

/** For objects whose change needs a re-create: the immutable Secrets, and the OSC (as OSM replaces it). */
const RECREATE: Record<SyncTool, Record<string, string>> = {
  // kubectl replace --force: delete, then create.
  argocd: { 'argocd.argoproj.io/sync-options': 'Force=true,Replace=true' },
  // kustomize-controller re-creates objects whose immutable fields changed.
  flux: { 'kustomize.toolkit.fluxcd.io/force': 'enabled' },
};

function recreated(o: KrmObject): boolean {
  return o.kind === 'OperatingSystemConfig' || o.immutable === true;
}

/** The annotations `tools` add to the generated object `o` (none for an empty list). */
export function syncAnnotationsFor(o: KrmObject, tools: readonly SyncTool[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const tool of tools) {
    if (recreated(o)) Object.assign(out, RECREATE[tool]);
    if (tool === 'argocd' && o.kind !== 'MachineDeployment') out[ARGOCD_SYNC_WAVE] = GENERATED_SYNC_WAVE;
    if (tool === 'flux') out[FLUX_SUBSTITUTE_KEY] = FLUX_SUBSTITUTE_DISABLED;
  }
  return out;
}

/** `o` with its sync annotations added (itself when there are none). */
export function withSyncAnnotations<T extends Record<string, unknown>>(o: T, tools: readonly SyncTool[]): T {
  const extra = syncAnnotationsFor(o as KrmObject, tools);
  if (Object.keys(extra).length === 0) return o;
  const metadata = (o.metadata ?? {}) as Record<string, unknown>;
  return {
    ...o,
    metadata: {
      ...metadata,
      annotations: { ...((metadata.annotations as Record<string, string> | undefined) ?? {}), ...extra },
    },
  };
}

/** The tools whose re-create annotations an object carries (what `diff` tells a reviewer will happen). */
export function syncToolsOf(annotations: Readonly<Record<string, unknown>> | undefined): SyncTool[] {
  return (Object.keys(RECREATE) as SyncTool[]).filter((t) =>
    Object.entries(RECREATE[t]).every(([k, v]) => annotations?.[k] === v),
  );
}
