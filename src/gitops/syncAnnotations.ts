// Immutable Secrets cannot be updated in place, and their names are fixed (machine-controller reads
// `<md>-<ns>-bootstrap-config`), so content-hashed names are not an option. Instead the objects can carry
// the annotations that make Argo CD and Flux delete and re-create them when their content changes.
export type SyncTool = 'argocd' | 'flux';

const ANNOTATIONS: Record<SyncTool, Record<string, string>> = {
  // kubectl replace --force: delete, then create.
  argocd: { 'argocd.argoproj.io/sync-options': 'Force=true,Replace=true' },
  // kustomize-controller re-creates objects whose immutable fields changed.
  flux: { 'kustomize.toolkit.fluxcd.io/force': 'enabled' },
};

export function syncAnnotations(tools: readonly SyncTool[]): Record<string, string> {
  return Object.assign({}, ...tools.map((t) => ANNOTATIONS[t]));
}

/** The tools whose re-create annotations an object carries (what `diff` tells a reviewer will happen). */
export function syncToolsOf(annotations: Readonly<Record<string, unknown>> | undefined): SyncTool[] {
  return (Object.keys(ANNOTATIONS) as SyncTool[]).filter((t) => Object.entries(ANNOTATIONS[t]).every(([k, v]) => annotations?.[k] === v));
}
