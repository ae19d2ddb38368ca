// One MachineDeployment -> its outcome: the objects it produces, the results about it and the revision state
// the next run starts from. Everything that decides what one MachineDeployment produces is behind
// renderMachineDeployment: profile selection, RHEL subscription injection, the revision, the guards, the
// generated objects, sync annotations and where an error points.
import type { InputItem } from '../krm/resourceList.ts';
import { REVISION_ANNOTATION, type MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import { injectRhelSubscription } from '../machineDeployment/rhelSubscriptionInjection.ts';
import { LOCAL_CONFIG_ANNOTATION, isLocalConfig } from '../krm/localConfig.ts';
import { ResourceError, type Result } from '../krm/results.ts';
import { fileOf, refOf, resultAbout, toResult } from '../krm/resultFor.ts';
import { decideRevision, previousRevision } from '../gitops/machineDeploymentRevision.ts';
import type { MachineDeploymentState } from '../gitops/renderState.ts';
import { withSyncAnnotations } from '../gitops/syncAnnotations.ts';
import type { ProfileEntry } from '../model/profileEntry.ts';
import { overlayOriginOf } from '../model/overlayProfiles.ts';
import { selectOperatingSystemProfile } from './selectOperatingSystemProfile.ts';
import { renderGeneratedObjects, type RenderFinding } from './renderGeneratedObjects.ts';
import type { RenderRun } from './renderRun.ts';

/** What rendering one MachineDeployment gives: output objects, results, its revision state. */
export interface MachineDeploymentOutcome {
  objects: Record<string, unknown>[];
  results: Result[];
  state?: { key: string; value: MachineDeploymentState };
  /** The input MachineDeployment stays in the output beside its generated copy (see rhelSubscriptionInjection). */
  keepSource?: boolean;
}

/**
 * Renders one MachineDeployment of the run; depends on nothing but the run. What goes wrong is a result, made
 * in one place (errorResult).
 */
export function renderMachineDeployment(
  item: InputItem,
  md: MachineDeployment,
  run: RenderRun,
): MachineDeploymentOutcome {
  const outcome: MachineDeploymentOutcome = { objects: [], results: [] };
  let profile: ProfileEntry | undefined;
  try {
    profile = selectOperatingSystemProfile(md, run.profiles);
    const subscription = run.rhelSubscriptions.get(`${md.namespace}/${md.name}`);
    const injected = subscription !== undefined ? injectRhelSubscription(item.object, md, subscription) : undefined;
    if (injected?.keepSource) outcome.keepSource = true;
    const applied = injected?.md ?? md;
    const { key, previous } = previousRevision(run.previousState, md.namespace, md.name);
    // machine-controller counts revisions of the template the cluster gets, injected secrets included.
    const template = (injected?.object ?? (item.object as any)).spec?.template;
    if (injected === undefined && previous?.generated && isLocalConfig(item.object))
      throw droppedGeneratedMachineDeployment(md);
    const decision = decideRevision(applied.annotations, template, previous);
    const { revision, templateHash } = decision.state;
    outcome.state = {
      key,
      value: { revision, templateHash, ...(injected !== undefined ? { generated: true as const } : {}) },
    };
    // What OSM would see in the cluster: the Git annotations plus machine-controller's revision.
    const inCluster: MachineDeployment = {
      ...applied,
      annotations: { ...applied.annotations, [REVISION_ANNOTATION]: decision.revision },
    };
    const rendered = renderGeneratedObjects(inCluster, profile, run);
    for (const f of rendered.findings) outcome.results.push(findingResult(f, item));
    if (rendered.findings.some((f) => f.severity === 'error')) return outcome;
    const objects = injected !== undefined ? [injected.object, ...rendered.objects] : rendered.objects;
    outcome.objects = objects.map((o) => withSyncAnnotations(o, run.config.gitops.syncAnnotations));
  } catch (e) {
    outcome.results.push(errorResult(e, item, md, profile, run));
  }
  return outcome;
}

/** A finding of the render (kubelet version support, user-data size) as a result about the MachineDeployment. */
function findingResult(f: RenderFinding, item: InputItem): Result {
  return resultAbout(item.object, f.severity, f.message, f.field);
}

/** The one place an error of this MachineDeployment's render becomes a result: template errors belong to the profile (when it is an input item), everything else to the MachineDeployment. */
function errorResult(
  e: unknown,
  item: InputItem,
  md: MachineDeployment,
  profile: ProfileEntry | undefined,
  run: RenderRun,
): Result {
  const onProfile = e instanceof ResourceError && /^spec\.(bootstrap|provisioning)Config\./.test(e.fieldPath ?? '');
  const onOverlay =
    onProfile && profile?.overlay
      ? overlayRenderError(e as ResourceError, profile, md.providerConfig.cloudProvider)
      : undefined;
  if (onOverlay !== undefined) e = onOverlay.error;
  const idx = onOverlay?.itemIndex ?? (onProfile ? profile?.origin.itemIndex : undefined);
  const target = idx !== undefined && idx >= 0 ? run.items[idx]!.object : item.object;
  const r = toResult(e, refOf(target), fileOf(target)); // one result: the message is prefixed below
  if (target !== item.object) r.message = `rendering MachineDeployment ${md.namespace}/${md.name}: ${r.message}`;
  return r;
}

/**
 * A template error in an overlay's profile, on the overlay: at the field that brought the failing file or named
 * template, or (a file of the base that fails with what the overlay changed) naming the base's file.
 */
function overlayRenderError(
  e: ResourceError,
  profile: ProfileEntry,
  cloud: string,
): { error: ResourceError; itemIndex: number } {
  const stack = profile.overlay!;
  const origin = overlayOriginOf(stack.layered(cloud), e.fieldPath);
  if (origin !== undefined)
    return {
      error: new ResourceError(`${e.message} (brought by overlay ${origin.overlay}, ${origin.field})`, origin.field),
      itemIndex: origin.itemIndex,
    };
  const bottom = stack.base;
  return {
    error: new ResourceError(
      `base ${bottom.name} ${bottom.version}, ${e.fieldPath}, does not render with the overlays' changes: ${e.message}`,
      'spec.base',
    ),
    itemIndex: profile.origin.itemIndex!,
  };
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
