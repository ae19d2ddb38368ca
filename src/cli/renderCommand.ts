// `osm-krm render [PATH]`: what will this node get? Per MachineDeployment, the decoded bootstrap and
// provisioning user-data (files with mode, owner and content; units and drop-ins), secrets masked.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { renderForReview, type MachineDeploymentReview, type ReviewRender } from '../review/renderForReview.ts';
import { readReviewInputs } from '../review/reviewInputs.ts';
import { formatReview, reviewFiles } from '../review/formatReview.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { CommandError, runSubcommand, scanArguments, UsageError, type CommandIO } from './commandIO.ts';
import { describeResult } from './renderManifests.ts';
import { untrustedLine } from './untrustedText.ts';
import { directoryNames } from './fileGate.ts';

export const RENDER_USAGE = `usage: osm-krm render [PATH] [--config FILE] [--md NAME]... [--explain] [--show-secrets] [--out DIR]

Shows, per MachineDeployment, what its nodes get: every file of the bootstrap and provisioning
user-data with path, mode, owner and content, every systemd unit and drop-in (cloud-init and Ignition).
  PATH            a directory as generate/hydrate read it, or a ResourceList (or manifests) file;
                  default: the current directory
  --config FILE   the function config (default: the one found in PATH)
  --md NAME       only this MachineDeployment (NAME or NAMESPACE/NAME); repeatable
  --explain       also where things came from: the profile (embedded or its file), the config fields,
                  the cluster facts and the template data the profile was rendered with (Go's %#v)
  --show-secrets  print tokens and passwords instead of ${'<masked>'}
  --out DIR       also write each MachineDeployment's files as a tree: DIR/NAMESPACE/NAME/{bootstrap,
                  provisioning}/<node path> and a listing per stage (DIR must be new or empty)
Exit 0 when everything rendered, 1 on errors (printed on stderr, as the function reports them).
`;

export interface ReviewCommandOptions {
  path: string;
  /** The root PATH is read in, when the command knows it (diff --git: REV's exported tree). */
  root?: { path: string; label: string };
  config?: string;
  machineDeployments: string[];
  showSecrets: boolean;
}

interface Options extends ReviewCommandOptions {
  explain: boolean;
  out?: string;
}

export function runRenderCommand(args: string[], io: CommandIO): number {
  return runSubcommand('render', RENDER_USAGE, args, io, parseArgs, (opts) => render(opts, io));
}

function parseArgs(args: readonly string[]): Options | 'help' {
  const opts: Options = { path: '.', machineDeployments: [], showSecrets: false, explain: false };
  const positional = scanArguments(args, (name, value) => {
    if (name === '--config') opts.config = value();
    else if (name === '--md') opts.machineDeployments.push(value());
    else if (name === '--out') opts.out = value();
    else if (name === '--explain') opts.explain = true;
    else if (name === '--show-secrets') opts.showSecrets = true;
    else return false;
    return true;
  });
  if (positional === 'help') return 'help';
  if (positional.length > 1) throw new UsageError(`expected at most one PATH, got ${positional.length}`);
  if (positional[0] !== undefined) opts.path = positional[0];
  return opts;
}

function render(opts: Options, io: CommandIO): number {
  const rendered = reviewRender(opts, io);
  const selected = selectReviews(rendered.reviews, opts.machineDeployments);
  if (opts.out !== undefined) writeTree(resolve(io.cwd, opts.out), selected);
  io.stdout(selected.map((r) => formatReview(r, opts.explain ? rendered : undefined)).join('\n'));
  return rendered.exitCode;
}

/** Renders PATH as the function would; results go to stderr (errors included: the exit code says so). */
export function reviewRender(opts: ReviewCommandOptions, io: CommandIO, label = '', previousState?: KrmObject): ReviewRender {
  const { inputs, env } = readReviewInputs(opts.path, io, { command: label === '' ? 'render' : 'diff', ...(opts.config !== undefined ? { config: opts.config } : {}), ...(opts.root !== undefined ? { root: opts.root } : {}) });
  const rendered = renderForReview(inputs, env, { showSecrets: opts.showSecrets, ...(previousState ? { previousState } : {}) });
  for (const r of rendered.results) io.stderr(`osm-krm: ${label}${r.severity}: ${untrustedLine(describeResult(r))}\n`);
  return rendered;
}

/** The reviews named by --md (all when none is named); a name that matches nothing is an error. */
export function selectReviews(reviews: readonly MachineDeploymentReview[], names: readonly string[]): MachineDeploymentReview[] {
  if (names.length === 0) return [...reviews];
  const matches = (r: MachineDeploymentReview, n: string) => (n.includes('/') ? `${r.namespace}/${r.name}` === n : r.name === n);
  for (const n of names) {
    if (!reviews.some((r) => matches(r, n))) throw new CommandError(`no rendered MachineDeployment named ${JSON.stringify(n)}`);
  }
  return reviews.filter((r) => names.some((n) => matches(r, n)));
}

function writeTree(dir: string, reviews: readonly MachineDeploymentReview[]): void {
  let existing: string[] = [];
  try {
    existing = directoryNames(dir);
  } catch {
    // a new directory
  }
  if (existing.length > 0) throw new CommandError(`--out ${dir} is not empty; give a new or empty directory`);
  for (const r of reviews) {
    for (const [rel, content] of reviewFiles(r)) {
      const target = join(dir, r.namespace, r.name, rel);
      mkdirSync(dirname(target), { recursive: true });
      // 'wx': never through a file or link that is already there.
      writeFileSync(target, content, { flag: 'wx' });
    }
  }
}
