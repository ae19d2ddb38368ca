// `osm-krm render [PATH]`: what will this node get? Per MachineDeployment, the decoded bootstrap and
// provisioning user-data (files with mode, owner and content; units and drop-ins), secrets masked.
import type { NodeBudget } from '../krm/inputBounds.ts';
import type { SharedRunMeter } from '../template/index.ts';
import { resolve } from 'node:path';
import { renderForReview, type MachineDeploymentReview, type ReviewRender } from '../review/renderForReview.ts';
import { readReviewInputs } from '../review/reviewInputs.ts';
import { formatReview, reviewFiles } from '../review/formatReview.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { CommandError, runSubcommand, type CommandIO } from './commandIO.ts';
import type { CommandLine } from './commandLine.ts';
import { RENDER_COMMAND } from './commandSpecs.ts';
import { describeResult } from './renderManifests.ts';
import { untrustedLine } from './untrustedText.ts';
import { didYouMean } from '../krm/didYouMean.ts';
import { writeNewDirectoryTree } from './newDirectoryTree.ts';

export interface ReviewCommandOptions {
  path: string;
  /** The root PATH is read in, when the command knows it (diff --git: REV's exported tree). */
  root?: { path: string; label: string };
  config?: string;
  machineDeployments: string[];
  showSecrets: boolean;
  /** The run's node budget, shared by what one command reads (diff: both sides). */
  budget?: NodeBudget;
  /** The run's template meter, shared by what one command renders (diff: both sides, HEAD twice). */
  templateBudget?: SharedRunMeter;
}

interface Options extends ReviewCommandOptions {
  explain: boolean;
  out?: string;
}

export function runRenderCommand(args: string[], io: CommandIO): number {
  return runSubcommand(
    RENDER_COMMAND,
    args,
    io,
    options,
    (opts, io) => render(opts, io),
    (opts) => !opts.showSecrets,
  );
}

function options(cl: CommandLine): Options {
  const out = cl.value('--out');
  const config = cl.value('--config');
  return {
    path: cl.operands[0] ?? '.',
    machineDeployments: cl.values('--md'),
    showSecrets: cl.has('--show-secrets'),
    explain: cl.has('--explain'),
    ...(config !== undefined ? { config } : {}),
    ...(out !== undefined ? { out } : {}),
  };
}

function render(opts: Options, io: CommandIO): number {
  const rendered = reviewRender(opts, io);
  const selected = selectReviews(rendered, opts.machineDeployments);
  if (opts.out !== undefined) writeTree(resolve(io.cwd, opts.out), selected);
  // An empty page would read as "renders to nothing": say there was nothing to render.
  if (selected.length === 0) io.stdout(`osm-krm render: ${nothingRendered(rendered, opts.path)}\n`);
  io.stdout(selected.map((r) => formatReview(r, opts.explain ? rendered : undefined)).join('\n'));
  return rendered.exitCode;
}

/** What a review command says when PATH rendered no MachineDeployment (with no --md, which would have failed). */
export function nothingRendered(rendered: Pick<ReviewRender, 'unrendered'>, path: string): string {
  const not = rendered.unrendered.length;
  return `no MachineDeployment rendered from ${untrustedLine(path)}${not > 0 ? ` (${not} not rendered: the results above say why)` : ''}`;
}

/**
 * Renders PATH as the function would; results go to stderr (errors included: the exit code says so), unless
 * `quiet` (a second render of inputs whose results were printed already).
 */
export function reviewRender(
  opts: ReviewCommandOptions,
  io: CommandIO,
  label = '',
  previousState?: KrmObject,
  quiet = false,
): ReviewRender {
  const { inputs, env } = readReviewInputs(opts.path, io, {
    command: label === '' ? 'render' : 'diff',
    ...(opts.config !== undefined ? { config: opts.config } : {}),
    ...(opts.root !== undefined ? { root: opts.root } : {}),
    ...(opts.budget !== undefined ? { budget: opts.budget } : {}),
  });
  const rendered = renderForReview(inputs, env, {
    showSecrets: opts.showSecrets,
    ...(io.secrets ? { secrets: io.secrets } : {}),
    ...(previousState ? { previousState } : {}),
    ...(opts.templateBudget !== undefined ? { templateBudget: opts.templateBudget } : {}),
  });
  if (!quiet)
    for (const r of rendered.results)
      io.stderr(`osm-krm: ${label}${r.severity}: ${untrustedLine(describeResult(r))}\n`);
  return rendered;
}

/**
 * The reviews named by --md (all when none is named). A name that matches nothing is an error: one that names a
 * MachineDeployment nothing was rendered for says why, any other the closest names.
 */
export function selectReviews(
  rendered: Pick<ReviewRender, 'reviews' | 'unrendered'>,
  names: readonly string[],
): MachineDeploymentReview[] {
  const { reviews } = rendered;
  if (names.length === 0) return [...reviews];
  const matches = (r: { namespace: string; name: string }, n: string) =>
    n.includes('/') ? `${r.namespace}/${r.name}` === n : r.name === n;
  for (const n of names) {
    if (reviews.some((r) => matches(r, n))) continue;
    const unrendered = rendered.unrendered.find((r) => matches(r, n));
    if (unrendered !== undefined)
      throw new CommandError(
        `MachineDeployment ${unrendered.namespace}/${unrendered.name} is not rendered: ${unrendered.reason}`,
      );
    const known = [...reviews, ...rendered.unrendered].map((r) =>
      n.includes('/') ? `${r.namespace}/${r.name}` : r.name,
    );
    throw new CommandError(`no MachineDeployment named ${JSON.stringify(n)}${didYouMean(n, known)}`);
  }
  return reviews.filter((r) => names.some((n) => matches(r, n)));
}

/** Each MachineDeployment's files under DIR/<ns>/<name>/, all or nothing (newDirectoryTree.ts). */
function writeTree(dir: string, reviews: readonly MachineDeploymentReview[]): void {
  const files = new Map<string, string>();
  for (const r of reviews)
    for (const [rel, content] of reviewFiles(r)) files.set(`${r.namespace}/${r.name}/${rel}`, content);
  writeNewDirectoryTree(dir, '--out', files);
}
