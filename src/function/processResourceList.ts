// The function itself: a pure step from a parsed ResourceList to output items and results. It orchestrates the
// run: plan (config, classified items, profile checks, cluster facts, the render run) -> render each
// MachineDeployment (src/render/renderMachineDeployment.ts decides its outcome) -> finish (name collisions, the
// render state for the next run, the output). Any error: no generated output, every input item kept as it was.
import { noConfigNotice, parseFunctionConfig, type OsmConfig } from '../config/operatingSystemManagerConfig.ts';
import { MissingClusterFactError, type ClusterFacts } from '../cluster/clusterFacts.ts';
import { readRunClusterFacts, type RunClusterFacts } from '../cluster/runClusterFacts.ts';
import type { Environment } from '../cluster/valueSource.ts';
import type { InputItem, KrmObject, OutputList, ResourceList } from '../krm/resourceList.ts';
import { failedOutputList, GeneratedOutput, type GeneratedEntry } from '../krm/generatedOutput.ts';
import { REVISION_ANNOTATION, type MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import { decodeInputItem } from '../model/decodeInputItem.ts';
import { embeddedProfileEntry, profileKey, profileNamespace, type ProfileEntry } from '../model/profileEntry.ts';
import { isNamespaceName, isObjectName } from '../model/kubernetesNames.ts';
import { renderMachineDeployment, type MachineDeploymentOutcome } from '../render/renderMachineDeployment.ts';
import { newRenderRun, type RenderRun } from '../render/renderRun.ts';
import type { SharedRunMeter } from '../template/index.ts';
import { EMBEDDED_PROFILE_NAMES, embeddedProfile } from '../profiles/embeddedProfiles.ts';
import {
  emptyState,
  isStateObject,
  nextProfileStates,
  readState,
  stateKey,
  stateObject,
  staleStateEntries,
  staleStateMessage,
  STATE_NAME,
  STATE_PATH,
  type RenderState,
} from '../gitops/renderState.ts';
import { REVISION_OVERRIDE_ANNOTATION } from '../gitops/machineDeploymentRevision.ts';
import { withSyncAnnotations } from '../gitops/syncAnnotations.ts';
import { fluxSubstitutionFindings } from '../gitops/fluxSubstitution.ts';
import { isLocalConfig, LOCAL_CONFIG_ANNOTATION } from '../krm/localConfig.ts';
import { OVERLAY_KIND } from '../model/operatingSystemProfileOverlay.ts';
import { resolveOverlays, type InputOverlay } from '../model/overlayProfiles.ts';
import { buildContainerRuntimeOptions } from './containerRuntimeOptions.ts';
import { ResourceError, type Result } from '../krm/results.ts';
import { errorsAbout, fileOf, resultAbout } from '../krm/resultFor.ts';
import { generatedPath, generatedSharedPath, isOwnedItem, withPathAnnotations } from './generatedPaths.ts';
import { isFromKustomize, kustomize4Hint } from './kustomizeInputs.ts';
import {
  checkNotMisdeclared,
  generatorOnlyConfigError,
  misplacedConfigHint,
  namespaceNotSet,
  unannotatedMachineDeployment,
} from './inputMistakes.ts';
import { registerSecretObject, SecretRegistry } from '../krm/redactSecrets.ts';
import { maskInputSecrets } from '../model/inputSecrets.ts';
import { unhonouredSopsSetting } from './routeSettings.ts';
import { illFormedPath, InvalidUnicodeError, invalidUnicodeMessage } from '../codec/wellFormedUnicode.ts';

interface Classified {
  kept: InputItem[];
  profiles: Map<string, ProfileEntry>;
  machineDeployments: Array<{ item: InputItem; md: MachineDeployment }>;
  previousState: RenderState;
  /** Profiles (namespace/name) whose item had an error: their MachineDeployments are not rendered. */
  brokenProfiles: Set<string>;
  /** OperatingSystemProfileOverlays, decoded; their profiles are made once the plain profiles are known. */
  overlays: InputOverlay[];
  /** The state came through kustomize, which never writes it back: a stale one is said (staleStateEntries). */
  stateFromKustomize: boolean;
}

/**
 * What `render --explain` and `diff` want to see of a run besides its output; the function itself passes none.
 * Called synchronously while the run renders.
 */
export interface RenderObserver {
  config?(config: OsmConfig, facts: ClusterFacts | undefined): void;
  /** One MachineDeployment about to be rendered: the profile chosen and the template data built for it. */
  templateData?: (md: MachineDeployment, profile: ProfileEntry, data: unknown) => void;
}

/**
 * `secrets`: the mask the caller prints through (the process's, so that stderr and internal errors are masked
 * too); every secret the run reads or derives is registered there before anything is printed.
 */
export function processResourceList(
  list: ResourceList,
  env: Environment,
  observer?: RenderObserver,
  secrets = new SecretRegistry(),
  /** The meter of several runs' templates together (lint's matrix, diff's sides); each run has its own otherwise. */
  templateBudget?: SharedRunMeter,
): OutputList {
  const plan = planRender(list, env, observer, secrets, templateBudget);
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
  /** Unset when there is no MachineDeployment to render. */
  run: RenderRun | undefined;
  secrets: SecretRegistry;
  results: Result[];
  nextState: RenderState;
  generated: GeneratedOutput;
  machineDeployments: ReadonlyArray<{ item: InputItem; md: MachineDeployment }>;
}

function isRenderPlan(p: RenderPlan | OutputList): p is RenderPlan {
  return 'classified' in p;
}

/** Config, classification, profile checks and cluster facts; an OutputList when that already failed. */
function planRender(
  list: ResourceList,
  env: Environment,
  observer: RenderObserver | undefined,
  secrets: SecretRegistry,
  templateBudget: SharedRunMeter | undefined,
): RenderPlan | OutputList {
  maskInputSecrets(secrets, list.items);
  const results: Result[] = [];
  const configObject = list.functionConfig; // what a config error is about (none without a config)
  const failed = () => failedOutput(list, results, secrets);

  let config: OsmConfig;
  if (list.functionConfig === undefined) results.push({ severity: 'info', message: noConfigNotice() });
  try {
    config = parseFunctionConfig(list.functionConfig);
  } catch (e) {
    for (const r of errorsAbout(e, configObject)) results.push(r);
    return failed();
  }

  const sopsHere = unhonouredSopsSetting(list.functionConfig);
  if (sopsHere !== undefined) {
    for (const r of errorsAbout(sopsHere, configObject)) results.push(r);
    return failed();
  }

  const asGenerator = config.defaultProfiles.emit
    ? undefined
    : generatorOnlyConfigError(list.functionConfig, list.items);
  if (asGenerator !== undefined) {
    for (const r of errorsAbout(asGenerator, configObject)) results.push(r);
    return failed();
  }

  // Errors in some items do not stop the run: the others are still checked and rendered, so one run reports
  // every error it can find. A MachineDeployment whose profile is broken is left out (its error is the OSP's).
  const c = classify(list, config, results);
  if (config.gitops.syncAnnotations.includes('flux')) for (const w of fluxSubstitutionWarnings(c.kept)) results.push(w);

  const nextState = emptyState();
  const generated = new GeneratedOutput(list);
  addEmbeddedProfiles(c.profiles, config, generated);
  addOverlayProfiles(c, list, results, config);
  c.machineDeployments = c.machineDeployments.filter(({ md }) => !c.brokenProfiles.has(md.profile.key));
  const inputProfiles = [...c.profiles].filter(([, p]) => !p.origin.builtin);
  for (const { key, error } of nextProfileStates(nextState, c.previousState, inputProfiles)) {
    for (const r of errorsAbout(error, list.items[c.profiles.get(key)!.origin.itemIndex!]!.object)) results.push(r);
  }
  // An immutability error does not stop the run: rendering may find more (a template error in that very
  // change), and every error found is reported; finishRender then outputs nothing generated.

  let run: RenderRun | undefined;
  if (c.machineDeployments.length > 0 || config.rhelSubscription.machineDeployments !== undefined) {
    let read: RunClusterFacts;
    try {
      // Only inputs count as facts: our own previous output (e.g. derived token Secrets) must not feed back.
      read = readRunClusterFacts(
        config,
        c.machineDeployments.map((m) => m.md),
        c.kept,
        env,
        secrets,
      );
    } catch (e) {
      const r = errorsAbout(e, configObject);
      if (e instanceof MissingClusterFactError) {
        for (const hint of [kustomize4Hint(c.kept), misplacedConfigHint(list.functionConfig, c.kept)])
          if (hint !== undefined) r[0]!.message += `; ${hint}`;
      }
      for (const x of r) results.push(x);
      return failed();
    }
    if (read.cluster !== undefined) {
      const { facts, notLocalConfig, lifetime } = read.cluster;
      for (const f of notLocalConfig)
        results.push(resultAbout(f.item.object, 'error', f.message, `metadata.annotations.${LOCAL_CONFIG_ANNOTATION}`));
      for (const f of lifetime) results.push(resultAbout(configObject, 'warning', f.message, f.field));
      try {
        const containerRuntime = buildContainerRuntimeOptions(config, c.kept, secrets);
        run = newRenderRun({
          config,
          facts,
          items: list.items,
          profiles: c.profiles,
          previousState: c.previousState,
          rhelSubscriptions: read.rhelSubscriptions,
          containerRuntime,
          secrets,
          ...(observer?.templateData ? { onTemplateData: observer.templateData } : {}),
          ...(templateBudget !== undefined ? { templateBudget } : {}),
        });
      } catch (e) {
        for (const r of errorsAbout(e, configObject)) results.push(r);
        return failed();
      }
    }
  }
  observer?.config?.(config, run?.facts);
  return {
    list,
    config,
    classified: c,
    run,
    secrets,
    results,
    nextState,
    generated,
    machineDeployments: c.machineDeployments,
  };
}

/** One MachineDeployment's outcome, its objects already output entries (their file annotated, serialized). */
interface OutcomeEntries {
  outcome: MachineDeploymentOutcome;
  entries: GeneratedEntry[];
}

/** Renders the plan's MachineDeployment `index` and gives each object its file and output text. */
function renderMachineDeploymentAt(plan: RenderPlan, index: number): OutcomeEntries {
  const { item, md } = plan.machineDeployments[index]!;
  const outcome = renderMachineDeployment(item, md, plan.run!);
  const entries: OutcomeEntries['entries'] = [];
  for (const obj of outcome.objects) {
    // A Secret we make is masked by value like an input one (a new kind of token Secret needs no edit here).
    registerSecretObject(plan.secrets, obj, true);
    const annotated = withPathAnnotations(obj, generatedPath(md, obj as KrmObject, plan.config.gitops.split));
    try {
      entries.push(plan.generated.entryOf(annotated));
    } catch (e) {
      // The YAML writer is the choke point: a string that is not valid Unicode is refused there.
      if (!(e instanceof InvalidUnicodeError)) throw e;
      const what = `the generated ${String((obj as KrmObject).kind)} ${String((obj as KrmObject).metadata?.name)}`;
      outcome.results.push(resultAbout(item.object, 'error', invalidUnicodeMessage(what, illFormedPath(obj))));
      return { outcome: { ...outcome, objects: [] }, entries: [] };
    }
  }
  return { outcome, entries };
}

/** Collision checks, the render state and the output, from every MachineDeployment's outcome in plan order. */
function finishRender(plan: RenderPlan, outcomes: readonly OutcomeEntries[]): OutputList {
  const { list, config, classified: c, results, nextState, generated } = plan;
  const owners = new Map<string, string>();
  const keptSources = new Set<InputItem>();
  outcomes.forEach(({ outcome, entries }, i) => {
    const { item, md } = plan.machineDeployments[i]!;
    if (outcome.keepSource) keptSources.add(item);
    for (const r of outcome.results) results.push(r);
    if (outcome.state) nextState.machineDeployments.set(outcome.state.key, outcome.state.value);
    for (const { id, entry } of entries) {
      const owner = owners.get(id);
      if (owner !== undefined) {
        results.push(
          resultAbout(
            item.object,
            'error',
            `${id} would be generated for both ${owner} and ${md.namespace}/${md.name}`,
            'metadata.name',
          ),
        );
        continue;
      }
      owners.set(id, `${md.namespace}/${md.name}`);
      generated.addEntry({ id, entry });
    }
  });
  if (c.stateFromKustomize) for (const w of staleStateWarnings(plan, nextState)) results.push(w);
  if (hasError(results)) return failedOutput(list, results, plan.secrets);

  if (c.machineDeployments.length > 0 || nextState.profiles.size > 0) {
    const state = stateObject(config.namespace, nextState);
    generated.add(
      withPathAnnotations(
        state,
        generatedSharedPath(STATE_PATH.slice('osm-generated/'.length), state as KrmObject, config.gitops.split),
      ),
    );
  }
  return generated.outputList(c.kept, plan.secrets.redactResults(sortResults(results)), keptSources);
}

/** Under kustomize the committed state is never written back: where it lags behind a template, say so. */
function staleStateWarnings(plan: RenderPlan, nextState: RenderState): Result[] {
  const items = new Map(
    plan.machineDeployments.map(({ item, md }) => [stateKey(md.namespace, md.name), { item, md }] as const),
  );
  const tracked = (key: string) => {
    const a = items.get(key)?.md.annotations ?? {};
    return !a[REVISION_ANNOTATION] && !a[REVISION_OVERRIDE_ANNOTATION];
  };
  return staleStateEntries(plan.classified.previousState, nextState, tracked).map((e) =>
    resultAbout(items.get(e.key)!.item.object, 'warning', staleStateMessage(e, 'kustomize'), 'spec.template'),
  );
}

function failedOutput(list: ResourceList, results: Result[], secrets: SecretRegistry): OutputList {
  return failedOutputList(list.items, secrets.redactResults(sortResults(results)));
}

function classify(list: ResourceList, config: OsmConfig, results: Result[]): Classified {
  const out: Classified = {
    kept: [],
    profiles: new Map(),
    machineDeployments: [],
    previousState: emptyState(),
    brokenProfiles: new Set(),
    overlays: [],
    stateFromKustomize: false,
  };
  let stateItem: KrmObject | undefined;
  for (const item of list.items) {
    const o = item.object;
    if (isStateObject(o)) {
      // The previous render's state, from kpt's write-back, hydrate, or a file committed for kustomize/Argo CD.
      if (stateItem !== undefined) {
        results.push(
          resultAbout(
            o,
            'error',
            `more than one osm-krm-state ConfigMap in the inputs (${describeState(stateItem)} and ${describeState(o)}): keep one`,
            'metadata.name',
          ),
        );
        continue;
      }
      stateItem = o;
      out.stateFromKustomize = isFromKustomize(o);
      try {
        out.previousState = readState(o);
      } catch (e) {
        for (const r of errorsAbout(e, o)) results.push(r);
      }
      continue;
    }
    // Our previous output: regenerated below (or dropped when its MachineDeployment is gone).
    if (isOwnedItem(o)) continue;
    out.kept.push(item);
    try {
      checkNotMisdeclared(o);
      const decoded = decodeInputItem(o, item.index, config.namespace, config.defaultProfiles.defaultAnnotation);
      if (decoded.kind === 'profile') {
        const k = profileKey(decoded.entry.namespace, decoded.entry.name);
        if (out.profiles.has(k)) throw new ResourceError(`duplicate OperatingSystemProfile ${k}`, 'metadata.name');
        out.profiles.set(k, decoded.entry);
      } else if (decoded.kind === 'overlay') {
        out.overlays.push({ overlay: decoded.overlay, itemIndex: item.index });
      } else if (decoded.kind === 'machineDeployment') {
        if (decoded.annotated) {
          out.machineDeployments.push({ item, md: decoded.md });
          const unset = namespaceNotSet(o);
          if (unset !== undefined) results.push(resultAbout(o, 'warning', unset.message, unset.field.path));
        } else {
          const { message, field } = unannotatedMachineDeployment();
          results.push(resultAbout(o, 'warning', message, field.path));
        }
      }
    } catch (e) {
      for (const r of errorsAbout(e, o)) results.push(r);
      // A profile whose name no MachineDeployment can name validly is in no set (it has its own error).
      const name = String(o.metadata?.name ?? '');
      const namespace = profileNamespace(o, config.namespace);
      if (
        (o.kind === 'OperatingSystemProfile' || o.kind === OVERLAY_KIND) &&
        isObjectName(name) &&
        isNamespaceName(namespace)
      )
        out.brokenProfiles.add(profileKey(namespace, name));
    }
  }
  out.machineDeployments.sort((a, b) =>
    compareStrings(`${a.md.namespace}/${a.md.name}`, `${b.md.namespace}/${b.md.name}`),
  );
  return out;
}

/** The applied inputs osm-krm reads that Flux's post-build substitution would change (the output is for Flux). */
function fluxSubstitutionWarnings(kept: readonly InputItem[]): Result[] {
  const applied = kept.map((i) => i.object).filter((o) => !isLocalConfig(o));
  return fluxSubstitutionFindings(applied).map((f) => resultAbout(f.object, 'warning', f.message, f.field));
}

function describeState(o: KrmObject): string {
  const file = fileOf(o).file?.path;
  return `${o.metadata?.namespace ?? ''}/${STATE_NAME}${file ? ` in ${file}` : ''}`;
}

/**
 * Embedded default profiles fill in names the inputs do not define; optionally they are emitted too. Each
 * is parsed and validated when a MachineDeployment first selects it.
 */
function addEmbeddedProfiles(profiles: Map<string, ProfileEntry>, config: OsmConfig, generated: GeneratedOutput): void {
  for (const name of EMBEDDED_PROFILE_NAMES) {
    const k = profileKey(config.namespace, name);
    if (profiles.has(k)) continue; // an OSP of the same name in the inputs wins
    profiles.set(k, embeddedProfileEntry(name, config.namespace));
    if (config.defaultProfiles.emit) {
      const obj = structuredClone(embeddedProfile(name)) as Record<string, any>;
      obj.metadata = { ...obj.metadata, namespace: config.namespace };
      generated.add(
        withPathAnnotations(
          withSyncAnnotations(obj, config.gitops.syncAnnotations),
          generatedSharedPath(`profiles/${name}.yaml`, obj as KrmObject, config.gitops.split),
        ),
      );
    }
  }
}

/**
 * The profiles the overlays make, on the plain profiles (inputs and embedded) and each other; an overlay with an
 * error, and every overlay on it, renders nothing (its error is on its item).
 */
function addOverlayProfiles(c: Classified, list: ResourceList, results: Result[], config: OsmConfig): void {
  if (c.overlays.length === 0) return;
  const usable = c.overlays.filter((o) => !c.brokenProfiles.has(profileKey(o.overlay.namespace, o.overlay.name)));
  const resolved = resolveOverlays(usable, c.profiles, c.brokenProfiles, config.templateLimits);
  for (const { itemIndex, error } of resolved.errors)
    for (const r of errorsAbout(error, list.items[itemIndex]!.object)) results.push(r);
  for (const k of resolved.broken) c.brokenProfiles.add(k);
  for (const [k, entry] of resolved.entries) c.profiles.set(k, entry);
}

function hasError(results: readonly Result[]): boolean {
  return results.some((r) => r.severity === 'error');
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortResults(results: Result[]): Result[] {
  const key = (r: Result) =>
    `${r.file?.path ?? ''}\u0000${r.resourceRef?.namespace ?? ''}/${r.resourceRef?.name ?? ''}\u0000${r.message}`;
  return results.sort((a, b) => compareStrings(key(a), key(b)));
}
