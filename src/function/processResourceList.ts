// The function itself: a pure step from a parsed ResourceList to output items and results.
// parse config -> classify items -> collect cluster facts -> per MachineDeployment: select OSP, decide the
// revision, render, emit -> check name collisions -> output (+ the render state for the next run).
// Any error: no generated output, every input item kept as it was.
import { noConfigNotice, parseFunctionConfig, type OsmConfig } from '../config/operatingSystemManagerConfig.ts';
import { clusterFactsNotLocalConfig, collectClusterFacts, MissingClusterFactError } from '../cluster/clusterFacts.ts';
import type { Environment } from '../cluster/valueSource.ts';
import { generatedEntry, type InputItem, type KrmObject, type OutputList, type ResourceList } from '../krm/resourceList.ts';
import { MD_API_VERSION, OSP_ANNOTATION, OSP_NAMESPACE_ANNOTATION, REVISION_ANNOTATION, parseMachineDeployment, type MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import { defaultProfileName } from '../machineDeployment/defaultProfileAnnotation.ts';
import { validateMachineDeploymentValues } from '../machineDeployment/validateValues.ts';
import { OSM_API_VERSION } from '../model/operatingSystemProfile.ts';
import { validateOperatingSystemProfile } from '../model/validateProfile.ts';
import { profileKey, selectOperatingSystemProfile, type ProfileEntry } from '../render/selectOperatingSystemProfile.ts';
import { containerRuntimeOutputs, renderMachineDeployment, type RenderInputs } from '../render/renderMachineDeployment.ts';
import { TemplateCache } from '../render/templateCache.ts';
import { EMBEDDED_PROFILE_NAMES, embeddedProfile } from '../profiles/embeddedProfiles.ts';
import type { OperatingSystemProfileSpec } from '../model/operatingSystemProfile.ts';
import { osmTemplateFuncs } from '../sprig/index.ts';
import { decideRevision } from '../gitops/machineDeploymentRevision.ts';
import { checkProfileImmutable } from '../gitops/profileImmutability.ts';
import { emptyState, isStateObject, readState, stateKey, stateObject, staleStateEntries, staleStateMessage, STATE_NAME, STATE_PATH, type MachineDeploymentState, type RenderState } from '../gitops/renderState.ts';
import { REVISION_OVERRIDE_ANNOTATION } from '../gitops/machineDeploymentRevision.ts';
import { syncAnnotations } from '../gitops/syncAnnotations.ts';
import { buildContainerRuntimeOptions } from './containerRuntimeOptions.ts';
import { ResourceError, type Result } from '../krm/results.ts';
import { fileOf, refOf, toResult, toResults } from '../krm/resultFor.ts';
import { generatedPath, generatedSharedPath, isOwnedItem, withPathAnnotations } from './generatedPaths.ts';
import { compareItems, identityOf } from '../krm/itemOrder.ts';
import { isFromKustomize, kustomize4Hint } from './kustomizeInputs.ts';
import { checkNotMisdeclared, generatorOnlyConfigError, misplacedConfigHint, namespaceNotSet, unannotatedMachineDeployment } from './inputMistakes.ts';
import { registerInputSecrets, SecretRegistry } from '../krm/redactSecrets.ts';
import { resolveRhelSubscriptions, type RhelSubscriptionValues } from '../cluster/rhelSubscriptionSecrets.ts';
import { injectRhelSubscription } from '../machineDeployment/rhelSubscriptionInjection.ts';
import { LOCAL_CONFIG_ANNOTATION, isLocalConfig } from '../krm/localConfig.ts';

interface Classified {
  kept: InputItem[];
  profiles: Map<string, ProfileEntry>;
  machineDeployments: Array<{ item: InputItem; md: MachineDeployment }>;
  previousState: RenderState;
  /** Profiles (namespace/name) whose item had an error: their MachineDeployments are not rendered. */
  brokenProfiles: Set<string>;
  /** The state came through kustomize, which never writes it back: a stale one is said (staleStateEntries). */
  stateFromKustomize: boolean;
}

/**
 * What `render --explain` and `diff` want to see of a run besides its output; the function itself passes none.
 * Called synchronously while the run renders.
 */
export interface RenderObserver {
  /** The run's secret registry (filled as the run resolves tokens): what a review must mask. */
  secrets?(registry: SecretRegistry): void;
  config?(config: OsmConfig, facts: RenderInputs['facts'] | undefined): void;
  /** One MachineDeployment about to be rendered: the profile chosen and the template data built for it. */
  templateData?(md: MachineDeployment, profile: ProfileEntry, data: unknown): void;
}

export function processResourceList(list: ResourceList, env: Environment, observer?: RenderObserver): OutputList {
  const plan = planRender(list, env, observer);
  if (!isRenderPlan(plan)) return plan;
  const outcomes = plan.machineDeployments.map((_, i) => renderMachineDeploymentAt(plan, i));
  return finishRender(plan, outcomes);
}

/**
 * Everything a run decides before rendering: config, classified items, cluster facts. Rendering one
 * MachineDeployment then depends on the plan alone (the render of one never sees another's).
 */
interface RenderPlan {
  list: ResourceList;
  config: OsmConfig;
  classified: Classified;
  inputs: RenderInputs | undefined;
  secrets: SecretRegistry;
  results: Result[];
  nextState: RenderState;
  generated: GeneratedOutput;
  machineDeployments: ReadonlyArray<{ item: InputItem; md: MachineDeployment }>;
  /** Config-supplied RHEL subscription secrets by `<namespace>/<name>`. */
  rhelSubscriptions: ReadonlyMap<string, RhelSubscriptionValues>;
}

/** What rendering one MachineDeployment gives: output entries (identity + text), results, its revision state. */
interface MachineDeploymentOutcome {
  objects: Array<{ id: string; entry: string }>;
  results: Result[];
  state?: { key: string; value: MachineDeploymentState };
  /** The input MachineDeployment stays in the output beside its generated copy (see rhelSubscriptionInjection). */
  keepSource?: boolean;
}

function isRenderPlan(p: RenderPlan | OutputList): p is RenderPlan {
  return 'classified' in p;
}

/** Config, classification, profile checks and cluster facts; an OutputList when that already failed. */
function planRender(list: ResourceList, env: Environment, observer: RenderObserver | undefined): RenderPlan | OutputList {
  const secrets = new SecretRegistry();
  observer?.secrets?.(secrets);
  registerInputSecrets(secrets, list.items);
  const results: Result[] = [];
  const configRef = list.functionConfig ? refOf(list.functionConfig) : undefined;
  const configFile = list.functionConfig ? fileOf(list.functionConfig) : undefined;
  const failed = () => failedOutput(list, results, secrets);

  let config: OsmConfig;
  if (list.functionConfig === undefined) results.push({ severity: 'info', message: noConfigNotice() });
  try {
    config = parseFunctionConfig(list.functionConfig);
  } catch (e) {
    results.push(...toResults(e, configRef, configFile));
    return failed();
  }

  const asGenerator = config.defaultProfiles.emit ? undefined : generatorOnlyConfigError(list.functionConfig, list.items);
  if (asGenerator !== undefined) {
    results.push(toResult(asGenerator, configRef, configFile));
    return failed();
  }

  // Errors in some items do not stop the run: the others are still checked and rendered, so one run reports
  // every error it can find. A MachineDeployment whose profile is broken is left out (its error is the OSP's).
  const c = classify(list, config, results);
  c.machineDeployments = c.machineDeployments.filter(({ md }) => !c.brokenProfiles.has(profileKey(md.annotations[OSP_NAMESPACE_ANNOTATION] || config.namespace, md.annotations[OSP_ANNOTATION]!)));

  const nextState = emptyState();
  const generated = new GeneratedOutput(list);
  addEmbeddedProfiles(c.profiles, config, generated);
  for (const [k, p] of c.profiles) {
    if (p.origin.builtin) continue;
    try {
      nextState.profiles.set(k, checkProfileImmutable(p.name, p.spec.version, p.spec, c.previousState.profiles.get(k)));
    } catch (e) {
      const o = list.items[p.origin.itemIndex!]!.object;
      results.push(toResult(e, refOf(o), fileOf(o)));
    }
  }
  // An immutability error does not stop the run: rendering may find more (a template error in that very
  // change), and every error found is reported; finishRender then outputs nothing generated.

  let inputs: RenderInputs | undefined;
  let rhelSubscriptions: ReadonlyMap<string, RhelSubscriptionValues> = new Map();
  if (c.machineDeployments.length > 0 || config.rhelSubscription.machineDeployments !== undefined) {
    try {
      rhelSubscriptions = resolveRhelSubscriptions(config, c.machineDeployments.map((m) => m.md), c.kept, env);
      for (const values of rhelSubscriptions.values()) for (const v of Object.values(values)) secrets.add(v);
    } catch (e) {
      results.push(toResult(e, configRef, configFile));
      return failed();
    }
  }
  if (c.machineDeployments.length > 0) {
    try {
      // Only inputs count as facts: our own previous output (e.g. derived token Secrets) must not feed back.
      const facts = collectClusterFacts(config, c.kept, env);
      for (const f of clusterFactsNotLocalConfig(c.kept)) {
        results.push({ severity: 'error', message: f.message, resourceRef: refOf(f.item.object), field: { path: `metadata.annotations.${LOCAL_CONFIG_ANNOTATION}` }, ...fileOf(f.item.object) });
      }
      secrets.add(facts.cloudInitGetterToken);
      secrets.add(facts.bootstrapTokenKey);
      const containerRuntime = buildContainerRuntimeOptions(config, c.kept);
      // The Secret's values are whole JSON documents; the node's containerd config holds the fields inside.
      for (const auth of Object.values(containerRuntime.registryCredentials)) {
        secrets.add(auth.password);
        secrets.add(auth.auth);
        secrets.add(auth.identityToken);
      }
      const templates = new TemplateCache(osmTemplateFuncs, config.templateLimits);
      inputs = { config, facts, templates, containerRuntime, containerRuntimeOutputs: containerRuntimeOutputs(containerRuntime), secrets };
      if (observer?.templateData) inputs.onTemplateData = observer.templateData;
    } catch (e) {
      const r = toResults(e, configRef, configFile);
      if (e instanceof MissingClusterFactError) {
        for (const hint of [kustomize4Hint(c.kept), misplacedConfigHint(list.functionConfig, c.kept)]) if (hint !== undefined) r[0]!.message += `; ${hint}`;
      }
      results.push(...r);
      return failed();
    }
  }
  observer?.config?.(config, inputs?.facts);
  return { list, config, classified: c, inputs, secrets, results, nextState, generated, machineDeployments: c.machineDeployments, rhelSubscriptions };
}

/** Renders the plan's MachineDeployment `index`; depends on nothing but the plan. */
function renderMachineDeploymentAt(plan: RenderPlan, index: number): MachineDeploymentOutcome {
  const { item, md } = plan.machineDeployments[index]!;
  const outcome: MachineDeploymentOutcome = { objects: [], results: [] };
  const rendered = renderOne(item, md, plan, outcome);
  for (const obj of rendered) {
    const annotated = withPathAnnotations(obj, generatedPath(md, obj as KrmObject, plan.config.gitops.split));
    outcome.objects.push({ id: identityOf(annotated as KrmObject), entry: generatedEntry(plan.list, annotated) });
  }
  return outcome;
}

/** Collision checks, the render state and the output, from every MachineDeployment's outcome in plan order. */
function finishRender(plan: RenderPlan, outcomes: readonly MachineDeploymentOutcome[]): OutputList {
  const { list, config, classified: c, results, nextState, generated } = plan;
  const owners = new Map<string, string>();
  const keptSources = new Set<InputItem>();
  outcomes.forEach((outcome, i) => {
    const { item, md } = plan.machineDeployments[i]!;
    if (outcome.keepSource) keptSources.add(item);
    results.push(...outcome.results);
    if (outcome.state) nextState.machineDeployments.set(outcome.state.key, outcome.state.value);
    for (const { id, entry } of outcome.objects) {
      const owner = owners.get(id);
      if (owner !== undefined) {
        results.push(toResult(new ResourceError(`${id} would be generated for both ${owner} and ${md.namespace}/${md.name}`, 'metadata.name'), refOf(item.object), fileOf(item.object)));
        continue;
      }
      owners.set(id, `${md.namespace}/${md.name}`);
      generated.addEntry(id, entry);
    }
  });
  if (c.stateFromKustomize) results.push(...staleStateWarnings(plan, nextState));
  if (hasError(results)) return failedOutput(list, results, plan.secrets);

  if (c.machineDeployments.length > 0 || nextState.profiles.size > 0) {
    const state = stateObject(config.namespace, nextState);
    generated.add(withPathAnnotations(state, generatedSharedPath(STATE_PATH.slice('osm-generated/'.length), state as KrmObject, config.gitops.split)));
  }
  // Generated objects replace input items of the same identity (kustomize/kpt upsert semantics).
  const kept = c.kept.filter((i) => keptSources.has(i) || !generated.ids.has(identityOf(i.object)));
  return { kept: kept.sort(compareItems), generated: generated.entries, results: plan.secrets.redactResults(sortResults(results)) };
}

/** Under kustomize the committed state is never written back: where it lags behind a template, say so. */
function staleStateWarnings(plan: RenderPlan, nextState: RenderState): Result[] {
  const items = new Map(plan.machineDeployments.map(({ item, md }) => [stateKey(md.namespace, md.name), { item, md }] as const));
  const tracked = (key: string) => {
    const a = items.get(key)?.md.annotations ?? {};
    return !a[REVISION_ANNOTATION] && !a[REVISION_OVERRIDE_ANNOTATION];
  };
  return staleStateEntries(plan.classified.previousState, nextState, tracked).map((e) => {
    const o = items.get(e.key)!.item.object;
    return { severity: 'warning' as const, message: staleStateMessage(e, 'kustomize'), resourceRef: refOf(o), field: { path: 'spec.template' }, ...fileOf(o) };
  });
}

function failedOutput(list: ResourceList, results: Result[], secrets: SecretRegistry): OutputList {
  return { kept: [...list.items].sort(compareItems), generated: [], results: secrets.redactResults(sortResults(results)) };
}

/** Generated objects, written out as soon as they are made: a run keeps their text and identities only. */
class GeneratedOutput {
  readonly entries: string[] = [];
  readonly ids = new Set<string>();

  constructor(private readonly list: ResourceList) {}

  add(obj: Record<string, unknown>): void {
    this.addEntry(identityOf(obj as KrmObject), generatedEntry(this.list, obj));
  }

  addEntry(id: string, entry: string): void {
    this.ids.add(id);
    this.entries.push(entry);
  }
}

function classify(list: ResourceList, config: OsmConfig, results: Result[]): Classified {
  const out: Classified = { kept: [], profiles: new Map(), machineDeployments: [], previousState: emptyState(), brokenProfiles: new Set(), stateFromKustomize: false };
  let stateItem: KrmObject | undefined;
  for (const item of list.items) {
    const o = item.object;
    if (isStateObject(o)) {
      // The previous render's state, from kpt's write-back, hydrate, or a file committed for kustomize/Argo CD.
      if (stateItem !== undefined) {
        results.push(toResult(new ResourceError(`more than one osm-krm-state ConfigMap in the inputs (${describeState(stateItem)} and ${describeState(o)}): keep one`, 'metadata.name'), refOf(o), fileOf(o)));
        continue;
      }
      stateItem = o;
      out.stateFromKustomize = isFromKustomize(o);
      try {
        out.previousState = readState(o);
      } catch (e) {
        results.push(toResult(e, refOf(o), fileOf(o)));
      }
      continue;
    }
    // Our previous output: regenerated below (or dropped when its MachineDeployment is gone).
    if (isOwnedItem(o)) continue;
    out.kept.push(item);
    try {
      checkNotMisdeclared(o);
      if (o.apiVersion === OSM_API_VERSION && o.kind === 'OperatingSystemProfile') {
        const entry = profileEntry(o, item.index, config.namespace);
        const k = profileKey(entry.namespace, entry.name);
        if (out.profiles.has(k)) throw new ResourceError(`duplicate OperatingSystemProfile ${k}`, 'metadata.name');
        out.profiles.set(k, entry);
      } else if (o.apiVersion === MD_API_VERSION && o.kind === 'MachineDeployment') {
        const md = parseMachineDeployment(o);
        validateMachineDeploymentValues(md);
        if (withProfileAnnotation(md, config)) {
          out.machineDeployments.push({ item, md });
          const unset = namespaceNotSet(o);
          if (unset !== undefined) results.push({ severity: 'warning', ...unset, resourceRef: refOf(o), ...fileOf(o) });
        }
        else results.push({ severity: 'warning', ...unannotatedMachineDeployment(), resourceRef: refOf(o), ...fileOf(o) });
      }
    } catch (e) {
      results.push(toResult(e, refOf(o), fileOf(o)));
      if (o.kind === 'OperatingSystemProfile') out.brokenProfiles.add(profileKey(profileNamespace(o, config.namespace), String(o.metadata?.name ?? '')));
    }
  }
  out.machineDeployments.sort((a, b) => compareStrings(`${a.md.namespace}/${a.md.name}`, `${b.md.namespace}/${b.md.name}`));
  return out;
}

function describeState(o: KrmObject): string {
  const file = fileOf(o).file?.path;
  return `${o.metadata?.namespace ?? ''}/${STATE_NAME}${file ? ` in ${file}` : ''}`;
}

/** Applies OSM's webhook default when enabled; false when the MachineDeployment is not ours to render. */
function withProfileAnnotation(md: MachineDeployment, config: OsmConfig): boolean {
  if ((md.annotations[OSP_ANNOTATION] ?? '') !== '') return true;
  if (!config.defaultProfiles.defaultAnnotation) return false;
  const fallback = defaultProfileName(md);
  if (fallback === undefined) {
    throw new ResourceError(`failed to populate OSP annotation for machinedeployment with unsupported Operating System ${md.providerConfig.operatingSystem}`, 'spec.template.spec.providerSpec.value.operatingSystem');
  }
  // Like OSM's webhook, the default becomes part of the annotations (and so of the annotations hash).
  md.annotations = { ...md.annotations, [OSP_ANNOTATION]: fallback };
  return true;
}

/**
 * Embedded default profiles fill in names the inputs do not define; optionally they are emitted too. Each
 * is parsed and validated when a MachineDeployment first selects it.
 */
function addEmbeddedProfiles(profiles: Map<string, ProfileEntry>, config: OsmConfig, generated: GeneratedOutput): void {
  for (const name of EMBEDDED_PROFILE_NAMES) {
    const k = profileKey(config.namespace, name);
    if (profiles.has(k)) continue; // an OSP of the same name in the inputs wins
    let spec: OperatingSystemProfileSpec | undefined;
    profiles.set(k, {
      name,
      namespace: config.namespace,
      origin: { builtin: true },
      get annotations() {
        return stringMap(embeddedProfile(name).metadata?.annotations);
      },
      get spec() {
        return (spec ??= validateOperatingSystemProfile(embeddedProfile(name)));
      },
    });
    if (config.defaultProfiles.emit) {
      const obj = structuredClone(embeddedProfile(name)) as Record<string, any>;
      obj.metadata = { ...obj.metadata, namespace: config.namespace };
      generated.add(withPathAnnotations(obj, generatedSharedPath(`profiles/${name}.yaml`, obj as KrmObject, config.gitops.split)));
    }
  }
}

function renderOne(item: InputItem, md: MachineDeployment, plan: RenderPlan, outcome: MachineDeploymentOutcome): Record<string, unknown>[] {
  const { list, classified: c } = plan;
  const inputs = plan.inputs!;
  const { config } = inputs;
  let osp: ProfileEntry;
  try {
    osp = selectOperatingSystemProfile(md, c.profiles, config.namespace);
    const subscription = plan.rhelSubscriptions.get(`${md.namespace}/${md.name}`);
    const injected = subscription !== undefined ? injectRhelSubscription(item.object, md, subscription) : undefined;
    if (injected?.keepSource) outcome.keepSource = true;
    const applied = injected?.md ?? md;
    const key = stateKey(md.namespace, md.name);
    // machine-controller counts revisions of the template the cluster gets, injected secrets included.
    const template = (injected?.object ?? (item.object as any)).spec?.template;
    const previous = c.previousState.machineDeployments.get(key);
    if (injected === undefined && previous?.generated && isLocalConfig(item.object)) throw droppedGeneratedMachineDeployment(md);
    const decision = decideRevision(applied.annotations, template, previous);
    const { revision, templateHash } = decision.state;
    outcome.state = { key, value: { revision, templateHash, ...(injected !== undefined ? { generated: true as const } : {}) } };
    // What OSM would see in the cluster: the Git annotations plus machine-controller's revision.
    const inCluster: MachineDeployment = { ...applied, annotations: { ...applied.annotations, [REVISION_ANNOTATION]: decision.revision } };
    const rendered = renderMachineDeployment(inCluster, osp, inputs);
    for (const f of rendered.findings) {
      outcome.results.push({ severity: f.severity, message: f.message, resourceRef: refOf(item.object), field: { path: f.field }, ...fileOf(item.object) });
    }
    if (rendered.findings.some((f) => f.severity === 'error')) return [];
    const objects = injected !== undefined ? [injected.object, ...rendered.objects] : rendered.objects;
    const extra = syncAnnotations(config.gitops.syncAnnotations);
    if (Object.keys(extra).length === 0) return objects;
    return objects.map((o: any) => (o.kind === 'OperatingSystemConfig' || o.immutable === true ? { ...o, metadata: { ...o.metadata, annotations: { ...(o.metadata.annotations ?? {}), ...extra } } } : o));
  } catch (e) {
    // Template errors belong to the profile; everything else to the MachineDeployment.
    const onProfile = e instanceof ResourceError && /^spec\.(bootstrap|provisioning)Config\./.test(e.fieldPath ?? '');
    const idx = onProfile ? osp!.origin.itemIndex : undefined;
    const target = idx !== undefined && idx >= 0 ? list.items[idx]!.object : item.object;
    const r = toResult(e, refOf(target), fileOf(target));
    if (target !== item.object) r.message = `rendering MachineDeployment ${md.namespace}/${md.name}: ${r.message}`;
    outcome.results.push(r);
    return [];
  }
}

/**
 * The last render output this MachineDeployment as a generated copy; now its source (local-config) would be all
 * that is left, so the MachineDeployment would vanish from what is applied and be pruned with its machines.
 */
function droppedGeneratedMachineDeployment(md: MachineDeployment): ResourceError {
  return new ResourceError(
    `the previous render output this MachineDeployment with RHEL subscription secrets from spec.rhelSubscription, which now gives none: its source is local-config, so nothing would apply it and the MachineDeployment (with its machines) would be pruned; restore spec.rhelSubscription for ${md.namespace}/${md.name}, or remove config.kubernetes.io/local-config from the source`,
    `metadata.annotations.${LOCAL_CONFIG_ANNOTATION}`,
  );
}

function profileEntry(o: KrmObject, index: number, defaultNamespace: string): ProfileEntry {
  const name = o.metadata?.name;
  if (typeof name !== 'string' || name === '') throw new ResourceError('OperatingSystemProfile has no metadata.name', 'metadata.name');
  const spec = validateOperatingSystemProfile(o);
  return { name, namespace: profileNamespace(o, defaultNamespace), spec, annotations: stringMap(o.metadata?.annotations), origin: { itemIndex: index } };
}

/** An OSP without a namespace is in the config namespace, where OSM looks for them. */
function profileNamespace(o: KrmObject, defaultNamespace: string): string {
  return typeof o.metadata?.namespace === 'string' && o.metadata.namespace !== '' ? o.metadata.namespace : defaultNamespace;
}

function stringMap(v: unknown): Record<string, string> {
  if (v === null || typeof v !== 'object') return {};
  return Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')) as Record<string, string>;
}

function hasError(results: readonly Result[]): boolean {
  return results.some((r) => r.severity === 'error');
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortResults(results: Result[]): Result[] {
  const key = (r: Result) => `${r.file?.path ?? ''}\u0000${r.resourceRef?.namespace ?? ''}/${r.resourceRef?.name ?? ''}\u0000${r.message}`;
  return results.sort((a, b) => compareStrings(key(a), key(b)));
}
