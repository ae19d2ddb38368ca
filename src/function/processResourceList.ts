// The function itself: a pure step from a parsed ResourceList to output items and results.
// parse config -> classify items -> collect cluster facts -> per MachineDeployment: select OSP, render,
// emit -> check name collisions -> output. Any error: no generated output, every input item kept.
import { parseFunctionConfig, type OsmConfig } from '../config/operatingSystemManagerConfig.ts';
import { collectClusterFacts, type ClusterFacts } from '../cluster/clusterFacts.ts';
import type { Environment } from '../cluster/valueSource.ts';
import type { InputItem, KrmObject, OutputList, ResourceList } from '../io/resourceList.ts';
import { MD_API_VERSION, OSP_ANNOTATION, parseMachineDeployment, type MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import { OSM_API_VERSION, type OperatingSystemProfileSpec } from '../model/operatingSystemProfile.ts';
import { profileKey, selectOperatingSystemProfile, type ProfileEntry } from '../render/selectOperatingSystemProfile.ts';
import { renderMachineDeployment } from '../render/renderMachineDeployment.ts';
import { osmTemplateFuncs } from '../template/sprig/index.ts';
import { buildContainerRuntimeOptions } from './containerRuntimeOptions.ts';
import { ResourceError, type Result } from './results.ts';
import { fileOf, refOf, toResult } from './resultFor.ts';
import { GENERATED_PATH_PREFIX, generatedPath, isOwnedItem, withPathAnnotations } from './generatedPaths.ts';
import { compareItems, identityOf } from './itemOrder.ts';
import { EMBEDDED_PROFILES } from '../profiles/embeddedProfiles.ts';
import { defaultProfileName } from '../machineDeployment/defaultProfileAnnotation.ts';

export function processResourceList(list: ResourceList, env: Environment): OutputList {
  const results: Result[] = [];
  const fail = (): OutputList => ({ kept: [...list.items].sort(compareItems), generated: [], results: sortResults(results) });

  let config: OsmConfig;
  try {
    config = parseFunctionConfig(list.functionConfig);
  } catch (e) {
    results.push(toResult(e, list.functionConfig ? refOf(list.functionConfig) : undefined, list.functionConfig ? fileOf(list.functionConfig) : undefined));
    return fail();
  }

  const profiles = new Map<string, ProfileEntry>();
  const machineDeployments: Array<{ item: InputItem; md: MachineDeployment }> = [];
  const kept: InputItem[] = [];
  for (const item of list.items) {
    const o = item.object;
    if (isOwnedItem(o)) continue; // regenerated below (or dropped when its MachineDeployment is gone)
    kept.push(item);
    if (o.apiVersion === OSM_API_VERSION && o.kind === 'OperatingSystemProfile') {
      try {
        const entry = profileEntry(o, item.index, config.namespace);
        const k = profileKey(entry.namespace, entry.name);
        if (profiles.has(k)) throw new ResourceError(`duplicate OperatingSystemProfile ${k}`, 'metadata.name');
        profiles.set(k, entry);
      } catch (e) {
        results.push(toResult(e, refOf(o), fileOf(o)));
      }
    } else if (o.apiVersion === MD_API_VERSION && o.kind === 'MachineDeployment') {
      try {
        const md = parseMachineDeployment(o);
        if ((md.annotations[OSP_ANNOTATION] ?? '') === '') {
          const fallback = config.defaultProfiles.defaultAnnotation ? defaultProfileName(md) : undefined;
          if (config.defaultProfiles.defaultAnnotation && fallback === undefined) {
            throw new ResourceError(`failed to populate OSP annotation for machinedeployment with unsupported Operating System ${md.providerConfig.operatingSystem}`, 'spec.template.spec.providerSpec.value.operatingSystem');
          }
          if (fallback === undefined) {
            results.push({ severity: 'info', message: `no ${OSP_ANNOTATION} annotation: nothing rendered for this MachineDeployment`, resourceRef: refOf(o), ...fileOf(o) });
            continue;
          }
          // Like OSM's webhook, the default becomes part of the annotations (and so of the annotations hash).
          md.annotations = { ...md.annotations, [OSP_ANNOTATION]: fallback };
        }
        machineDeployments.push({ item, md });
      } catch (e) {
        results.push(toResult(e, refOf(o), fileOf(o)));
      }
    }
  }
  if (results.some((r) => r.severity === 'error')) return fail();
  const emittedProfiles: Record<string, unknown>[] = [];
  for (const embedded of EMBEDDED_PROFILES) {
    const entry = profileEntry(embedded, -1, config.namespace);
    entry.namespace = config.namespace;
    entry.origin = { builtin: true };
    const k = profileKey(entry.namespace, entry.name);
    if (!profiles.has(k)) profiles.set(k, entry); // an OSP of the same name in the inputs wins
    if (config.defaultProfiles.emit && profiles.get(k) === entry) {
      const obj = structuredClone(embedded) as Record<string, any>;
      obj.metadata = { ...obj.metadata, namespace: config.namespace };
      emittedProfiles.push(withPathAnnotations(obj, `${GENERATED_PATH_PREFIX}profiles/${entry.name}.yaml`));
    }
  }
  if (machineDeployments.length === 0) {
    return { kept: kept.sort(compareItems), generated: emittedProfiles, results: sortResults(results) };
  }

  let facts: ClusterFacts;
  let containerRuntime;
  try {
    facts = collectClusterFacts(config, list.items, env);
    containerRuntime = buildContainerRuntimeOptions(config, list.items);
  } catch (e) {
    results.push(toResult(e, list.functionConfig ? refOf(list.functionConfig) : undefined, list.functionConfig ? fileOf(list.functionConfig) : undefined));
    return fail();
  }

  const generated: Record<string, unknown>[] = [...emittedProfiles];
  const owners = new Map<string, string>();
  machineDeployments.sort((a, b) => (a.md.namespace + '/' + a.md.name < b.md.namespace + '/' + b.md.name ? -1 : 1));
  for (const { item, md } of machineDeployments) {
    let osp: ProfileEntry;
    try {
      osp = selectOperatingSystemProfile(md, profiles, config.namespace);
    } catch (e) {
      results.push(toResult(e, refOf(item.object), fileOf(item.object)));
      continue;
    }
    try {
      const rendered = renderMachineDeployment(md, osp, { config, facts, funcs: osmTemplateFuncs, containerRuntime });
      for (const obj of rendered.objects) {
        const id = identityOf(obj as KrmObject);
        const other = owners.get(id);
        if (other !== undefined) {
          throw new ResourceError(`${id} would be generated for both ${other} and ${md.namespace}/${md.name}`, 'metadata.name');
        }
        owners.set(id, `${md.namespace}/${md.name}`);
        generated.push(withPathAnnotations(obj, generatedPath(md, obj as KrmObject)));
      }
    } catch (e) {
      // Template errors belong to the profile; everything else to the MachineDeployment.
      const onProfile = e instanceof ResourceError && /^spec\.(bootstrap|provisioning)Config\./.test(e.fieldPath ?? '');
      const target = onProfile && osp.origin.itemIndex !== undefined && osp.origin.itemIndex >= 0 ? list.items[osp.origin.itemIndex]!.object : item.object;
      const r = toResult(e, refOf(target), fileOf(target));
      if (onProfile) r.message = `rendering MachineDeployment ${md.namespace}/${md.name}: ${r.message}`;
      results.push(r);
    }
  }
  if (results.some((r) => r.severity === 'error')) return fail();
  // Generated objects replace input items of the same identity (kustomize/kpt upsert semantics).
  const generatedIds = new Set(generated.map((g) => identityOf(g as KrmObject)));
  const finalKept = kept.filter((i) => !generatedIds.has(identityOf(i.object)));
  return { kept: finalKept.sort(compareItems), generated, results: sortResults(results) };
}

function profileEntry(o: KrmObject, index: number, defaultNamespace: string): ProfileEntry {
  const name = o.metadata?.name;
  if (typeof name !== 'string' || name === '') throw new ResourceError('OperatingSystemProfile has no metadata.name', 'metadata.name');
  const ns = typeof o.metadata?.namespace === 'string' && o.metadata.namespace !== '' ? o.metadata.namespace : defaultNamespace;
  const spec = o.spec as OperatingSystemProfileSpec | undefined;
  if (spec === undefined || spec === null || typeof spec !== 'object') throw new ResourceError('OperatingSystemProfile has no spec', 'spec');
  return { name, namespace: ns, spec, origin: { itemIndex: index } };
}

function sortResults(results: Result[]): Result[] {
  const key = (r: Result) => `${r.file?.path ?? ''}\u0000${r.resourceRef?.namespace ?? ''}/${r.resourceRef?.name ?? ''}\u0000${r.message}`;
  return results.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export { GENERATED_PATH_PREFIX };
