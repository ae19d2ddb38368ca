// First mistakes that would otherwise pass without a word: an OSP or a MachineDeployment under another
// apiVersion (passed through, never rendered), a misspelt OSP annotation (the MachineDeployment silently not
// rendered), the function's own config given as an input item instead of as the config or as the only input
// (a kustomize generator), a MachineDeployment without a namespace, and one that names no profile.
import { CONFIG_API_VERSION, CONFIG_KIND } from '../config/operatingSystemManagerConfig.ts';
import type { InputItem, KrmObject } from '../krm/resourceList.ts';
import { ResourceError } from '../krm/results.ts';
import { fileOf } from '../krm/resultFor.ts';
import { MD_API_VERSION, OSP_ANNOTATION, OSP_NAMESPACE_ANNOTATION } from '../machineDeployment/machineDeployment.ts';
import { OSM_API_VERSION } from '../model/operatingSystemProfile.ts';
import { OVERLAY_API_VERSION, OVERLAY_KIND } from '../model/operatingSystemProfileOverlay.ts';

/** Annotation keys that look like the OSP annotation once case and punctuation are ignored. */
function looksLikeProfileAnnotation(key: string): boolean {
  return key
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .includes('operatingsystemprofile');
}

/** Throws for an item that is meant for osm-krm but would be passed through unrendered. */
export function checkNotMisdeclared(o: KrmObject): void {
  const annotations = (o.metadata?.annotations ?? {}) as Record<string, unknown>;
  if (o.kind === 'OperatingSystemProfile' && o.apiVersion !== OSM_API_VERSION) {
    throw new ResourceError(
      `apiVersion ${JSON.stringify(o.apiVersion)} is not OSM's: osm-krm reads OperatingSystemProfiles of ${OSM_API_VERSION} only; set apiVersion: ${OSM_API_VERSION}`,
      'apiVersion',
    );
  }
  if (o.kind === OVERLAY_KIND && o.apiVersion !== OVERLAY_API_VERSION) {
    throw new ResourceError(
      `apiVersion ${JSON.stringify(o.apiVersion)} is not osm-krm's: set apiVersion: ${OVERLAY_API_VERSION}`,
      'apiVersion',
    );
  }
  if (o.kind !== 'MachineDeployment') return;
  if (o.apiVersion !== MD_API_VERSION) {
    if (annotations[OSP_ANNOTATION] === undefined) return; // another project's MachineDeployment (Cluster API): not ours
    throw new ResourceError(
      `apiVersion ${JSON.stringify(o.apiVersion)}: this MachineDeployment names an OperatingSystemProfile, but osm-krm renders machine-controller's MachineDeployments (${MD_API_VERSION}) only; set apiVersion: ${MD_API_VERSION}`,
      'apiVersion',
    );
  }
  for (const key of Object.keys(annotations)) {
    if (key === OSP_ANNOTATION || key === OSP_NAMESPACE_ANNOTATION || !looksLikeProfileAnnotation(key)) continue;
    throw new ResourceError(
      `annotation ${JSON.stringify(key)} is not one osm-krm reads: name the OperatingSystemProfile with ${OSP_ANNOTATION} (and its namespace, if not the config's, with ${OSP_NAMESPACE_ANNOTATION})`,
      `metadata.annotations.${key}`,
    );
  }
}

/**
 * kustomize hands a generator only a copy of its own config: listed under `generators:`, the function would see
 * no MachineDeployment and succeed with nothing generated (unless it is there to emit the default profiles).
 */
export function generatorOnlyConfigError(
  functionConfig: KrmObject | undefined,
  items: readonly InputItem[],
): ResourceError | undefined {
  if (functionConfig === undefined || items.length === 0) return undefined;
  const same = (o: KrmObject) =>
    o.apiVersion === functionConfig.apiVersion &&
    o.kind === functionConfig.kind &&
    o.metadata?.name === functionConfig.metadata?.name;
  if (!items.every((i) => same(i.object))) return undefined;
  return new ResourceError(
    'the only input is the function config itself, as kustomize gives a generator: osm-krm needs the MachineDeployments and OperatingSystemProfiles, so list its config under transformers:, not generators:',
  );
}

/**
 * A rendered MachineDeployment without metadata.namespace is taken to be in `default`,
 * and the generated objects' names depend on it; where it is applied decides otherwise
 * (kubectl's context, Argo CD's destination namespace), so say so.
 */
export function namespaceNotSet(o: KrmObject): { message: string; field: { path: string } } | undefined {
  if (typeof o.metadata?.namespace === 'string' && o.metadata.namespace !== '') return undefined;
  return {
    message:
      'no metadata.namespace: taken to be "default", and the generated objects are named for it; set the namespace the MachineDeployment is applied to (usually kube-system)',
    field: { path: 'metadata.namespace' },
  };
}

/**
 * When a cluster fact is missing and the config came not as an OperatingSystemManager while one is among the
 * items (kpt fn eval without --fn-config, a kustomize resource instead of a transformer): says so.
 */
export function misplacedConfigHint(
  functionConfig: KrmObject | undefined,
  items: readonly InputItem[],
): string | undefined {
  if (functionConfig?.kind === CONFIG_KIND) return undefined;
  const found = items.find((i) => i.object.kind === CONFIG_KIND && i.object.apiVersion === CONFIG_API_VERSION);
  if (found === undefined) return undefined;
  const path = fileOf(found.object).file?.path;
  const where = path !== undefined ? ` (${path})` : '';
  return (
    `the ${CONFIG_KIND} ${String(found.object.metadata?.name ?? '')}${where} is an input item, not the function config: ` +
    "pass it as the config (kpt fn eval --fn-config FILE, the Kptfile's configPath, or list it under kustomize's transformers:)"
  );
}

/**
 * A machine-controller MachineDeployment that names no OperatingSystemProfile gets nothing: its machines get no
 * bootstrap Secret and never join. OSM's webhook would have given it osp-<os>; here that is a config choice.
 */
export function unannotatedMachineDeployment(): { message: string; field: { path: string } } {
  return {
    message:
      `no ${OSP_ANNOTATION} annotation: nothing is rendered for this MachineDeployment, so its machines get no bootstrap ` +
      `or provisioning Secret and never join; name an OperatingSystemProfile with ${OSP_ANNOTATION}, or set ` +
      "spec.defaultProfiles.defaultAnnotation: true in the config to give it osp-<operating system> as OSM's webhook does",
    field: { path: `metadata.annotations.${OSP_ANNOTATION}` },
  };
}
