// What a change does to nodes: two renders compared per MachineDeployment, as unified diffs of the decoded
// files and units, plus what follows in the cluster (revision, machines rolling, Secrets re-created).
import { isDeepStrictEqual } from 'node:util';
import type { MachineDeploymentReview, ReviewRender, UnrenderedMachineDeployment } from './renderForReview.ts';
import type { SyncTool } from '../gitops/syncAnnotations.ts';
import { STAGES } from './formatReview.ts';
import type { NodeConfigView } from './nodeConfigView.ts';
import { BOUNDED_DIFF_NOTE, DiffBudget, unifiedDiff } from './unifiedDiff.ts';
import { untrustedLine } from '../cli/untrustedText.ts';

export interface MachineDeploymentChange {
  key: string;
  /** One line each: what happens in the cluster. */
  consequences: string[];
  /** Unified diffs of the decoded user-data, masked, input text escaped (untrustedText.ts). */
  diff: string;
}

/** One side of a diff: what was rendered, and the MachineDeployments nothing was rendered for. */
export type ReviewSide = Pick<ReviewRender, 'reviews' | 'unrendered'>;

export function compareReviews(
  base: ReviewSide,
  head: ReviewSide,
  mask: (s: string) => string,
): MachineDeploymentChange[] {
  const byKey = <T extends { namespace: string; name: string }>(rs: readonly T[]) =>
    new Map(rs.map((r) => [`${r.namespace}/${r.name}`, r]));
  const a = byKey(base.reviews);
  const b = byKey(head.reviews);
  const aOut = byKey(base.unrendered);
  const bOut = byKey(head.unrendered);
  const keys = [...new Set([...a.keys(), ...b.keys(), ...aOut.keys(), ...bOut.keys()])].sort();
  const changes: MachineDeploymentChange[] = [];
  // Every MachineDeployment's diffs search within one budget: no number of files or MachineDeployments multiplies it.
  const budget = new DiffBudget();
  for (const key of keys) {
    const before = a.get(key);
    const after = b.get(key);
    const notRendered = bOut.get(key);
    if (before === undefined && after === undefined) {
      const change = unrenderedChange(aOut.get(key), notRendered);
      if (change !== undefined) changes.push({ key, consequences: [change], diff: '' });
      continue;
    }
    if (before === undefined) {
      const was = aOut.has(key) ? 'now rendered' : 'new';
      changes.push({
        key,
        consequences: [
          `${was}: rendered with ${after!.profile.name} ${after!.profile.version}, revision ${after!.revision}; its Secrets are created`,
        ],
        diff: viewDiff(undefined, after!, mask, budget),
      });
      continue;
    }
    if (after === undefined) {
      const consequence =
        notRendered === undefined
          ? 'no longer rendered: its OperatingSystemConfig and Secrets are removed from the output'
          : `no longer rendered (${shortReason(notRendered.reason)}): its OperatingSystemConfig and Secrets are removed from the output, and machines made from now on get none and never join`;
      changes.push({ key, consequences: [consequence], diff: '' });
      continue;
    }
    const coarse: string[] = [];
    const diff = viewDiff(before, after, mask, budget, coarse);
    const consequences: string[] = [];
    const templateChanged = !isDeepStrictEqual(before.template, after.template);
    if (templateChanged) consequences.push('spec.template changed: machine-controller rolls the machines');
    if (before.revision !== after.revision) consequences.push(`revision ${before.revision} -> ${after.revision}`);
    else if (templateChanged) {
      consequences.push(
        `warning: the revision stays ${after.revision} because Git sets it (machinedeployment.clusters.k8s.io/revision or osm-krm.dev/revision): machine-controller will move to a new revision and ignore these Secrets until that annotation is updated`,
      );
    }
    if (before.profile.name !== after.profile.name || before.profile.version !== after.profile.version) {
      consequences.push(
        `profile ${before.profile.name} ${before.profile.version} -> ${after.profile.name} ${after.profile.version}`,
      );
    }
    const overlayLine = overlayChange(before, after, diff !== '');
    if (overlayLine !== undefined) consequences.push(overlayLine);
    for (const stage of STAGES) {
      if (!sameView(before[stage], after[stage]))
        consequences.push(immutableSecretChange(stage, after.recreatedBy[stage]));
    }
    if (!templateChanged && diff !== '')
      consequences.push(
        'existing machines keep their configuration: only new machines (scale-up, replacement) get the new one',
      );
    // How the diff below is shown, when a search stopped at its bound: still a correct diff, a coarser one.
    if (coarse.length > 0) consequences.push(`diff of ${coarse.join(', ')}: ${BOUNDED_DIFF_NOTE}`);
    if (consequences.length > 0 || diff !== '') changes.push({ key, consequences, diff });
  }
  return changes;
}

/** When nodes change under an overlay's profile: which overlays, and whether its base moved. */
function overlayChange(
  before: MachineDeploymentReview,
  after: MachineDeploymentReview,
  nodesChange: boolean,
): string | undefined {
  const a = before.profile.overlay;
  const b = after.profile.overlay;
  if (!nodesChange || (a === undefined && b === undefined)) return undefined;
  if (b === undefined) return `no longer through overlay ${a!.overlays.join(', ')}`;
  const base =
    a === undefined
      ? `base ${b.base}`
      : a.base === b.base
        ? `base ${b.base}, unchanged`
        : `base ${a.base} -> ${b.base}`;
  return `through overlay ${[...b.overlays].reverse().join(' on ')}, on ${base}`;
}

const TOOL_NAMES: Record<SyncTool, string> = { argocd: 'Argo CD', flux: 'Flux' };

/** A changed immutable Secret: re-created where the sync annotations say so, else the apply fails. */
function immutableSecretChange(stage: string, recreatedBy: readonly SyncTool[]): string {
  if (recreatedBy.length > 0) {
    return `the ${stage} Secret changes: it is immutable, so ${recreatedBy.map((t) => TOOL_NAMES[t]).join(' or ')} deletes and re-creates it (its sync annotation)`;
  }
  return `the ${stage} Secret changes: it is immutable and has no sync annotation, so applying it fails ("field is immutable") until it is deleted by hand; set spec.gitops.syncAnnotations (argocd, flux) to have it re-created`;
}

/** A MachineDeployment that is not rendered on the head side, or was not on the base side and is gone. */
function unrenderedChange(
  before: UnrenderedMachineDeployment | undefined,
  after: UnrenderedMachineDeployment | undefined,
): string | undefined {
  if (after === undefined)
    return before === undefined ? undefined : 'removed (it was not rendered): machine-controller deletes its machines';
  const why = shortReason(after.reason);
  if (before === undefined)
    return `new, not rendered (${why}): machine-controller makes its machines, and they get no Secrets and never join`;
  if (!isDeepStrictEqual(before.template, after.template))
    return `not rendered (${why}); spec.template changed: machine-controller rolls the machines, and the new ones get no Secrets and never join`;
  return undefined;
}

/** The first clause of a result's message (`no k8c.io/operating-system-profile annotation`). */
function shortReason(message: string): string {
  const i = message.indexOf(': ');
  return i > 0 ? message.slice(0, i) : message;
}

function sameView(a: NodeConfigView, b: NodeConfigView): boolean {
  return isDeepStrictEqual({ ...a, bytes: 0 }, { ...b, bytes: 0 });
}

/** The node's files as `stage/path` -> text (a header line with mode and owner, then the content). */
function flatten(r: MachineDeploymentReview | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (r === undefined) return out;
  for (const stage of STAGES) {
    const v = r[stage];
    const settings = v.settings.map((s) => `${s.key}: ${s.value}\n`).join('');
    if (settings !== '') out.set(`${stage}/(settings)`, settings);
    for (const f of v.files)
      out.set(
        `${stage}${f.path.startsWith('/') ? '' : '/'}${f.path}`,
        `# mode ${f.mode || '(default)'} owner ${f.owner || '(default)'}\n${f.content}`,
      );
    for (const u of v.units) {
      out.set(`${stage}/(unit) ${u.name}`, `# ${u.state || 'not enabled'}\n${u.content}`);
      for (const d of u.dropIns) out.set(`${stage}/(unit) ${u.name}.d/${d.name}`, d.content);
    }
  }
  return out;
}

function viewDiff(
  before: MachineDeploymentReview | undefined,
  after: MachineDeploymentReview | undefined,
  mask: (s: string) => string,
  budget: DiffBudget,
  coarse: string[] = [],
): string {
  const a = flatten(before);
  const b = flatten(after);
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  let out = '';
  for (const p of paths) {
    const x = a.get(p);
    const y = b.get(p);
    // Compared as rendered (a changed token still differs), printed masked, then escaped.
    const shown = (line: string) => untrustedLine(mask(line));
    const bounded = budget.bounded;
    out += unifiedDiff(
      x ?? '',
      y ?? '',
      x === undefined ? '/dev/null' : `a/${shown(p)}`,
      y === undefined ? '/dev/null' : `b/${shown(p)}`,
      3,
      shown,
      budget,
    );
    if (budget.bounded > bounded) coarse.push(p);
  }
  return out;
}
