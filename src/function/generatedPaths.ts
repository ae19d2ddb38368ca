// Where generated resources go when kpt writes them back, and how we recognise our previous output.
// Every generated file lives under one folder, so re-rendering replaces it and a deleted MachineDeployment's
// files disappear, without adding any marker to the objects themselves (they stay byte-identical to OSM's).
import type { KrmObject } from '../krm/resourceList.ts';
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';

export const GENERATED_PATH_PREFIX = 'osm-generated/';

const PATH = 'internal.config.kubernetes.io/path';
const LEGACY_PATH = 'config.kubernetes.io/path';

/**
 * With the management/worker split, OSCs, OSPs and our state go to management/, Secrets (and MachineDeployments
 * with injected secrets, which machine-controller reads in the worker cluster) to worker/.
 */
export function outputSet(obj: KrmObject): 'management' | 'worker' {
  return obj.kind === 'Secret' || obj.kind === 'MachineDeployment' ? 'worker' : 'management';
}

export function generatedPath(md: MachineDeployment, obj: KrmObject, split: boolean): string {
  const set = split ? `${outputSet(obj)}/` : '';
  return `${GENERATED_PATH_PREFIX}${set}${md.namespace}/${md.name}/${String(obj.kind).toLowerCase()}_${String(obj.metadata?.name)}.yaml`;
}

export function generatedSharedPath(file: string, obj: KrmObject, split: boolean): string {
  return `${GENERATED_PATH_PREFIX}${split ? `${outputSet(obj)}/` : ''}${file}`;
}

export function isOwnedItem(o: KrmObject): boolean {
  const a = o.metadata?.annotations;
  const p = a?.[PATH] ?? a?.[LEGACY_PATH];
  return typeof p === 'string' && p.startsWith(GENERATED_PATH_PREFIX);
}

export function withPathAnnotations(obj: Record<string, unknown>, path: string): Record<string, unknown> {
  const meta = obj.metadata as Record<string, unknown>;
  const annotations = {
    ...((meta.annotations as Record<string, string> | undefined) ?? {}),
    [PATH]: path,
    [LEGACY_PATH]: path,
  };
  return { ...obj, metadata: { ...meta, annotations } };
}
