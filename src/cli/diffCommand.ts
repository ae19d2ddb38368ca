// `osm-krm diff BASE HEAD` / `osm-krm diff --git REV [PATH]`: what a change (a pull request) does to nodes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { compareReviews, type MachineDeploymentChange } from '../review/compareReviews.ts';
import { isStateObject, STATE_PATH } from '../gitops/renderState.ts';
import { staleCommittedState } from './committedState.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { CommandError, runSubcommand, UsageError, type CommandIO } from './commandIO.ts';
import type { CommandLine } from './commandLine.ts';
import { DIFF_COMMAND } from './commandSpecs.ts';
import { namedRealPath, resolveInside, rootAt, targetKind } from './fileGate.ts';
import { untrustedLine, untrustedText } from './untrustedText.ts';
import { reviewRender, type ReviewCommandOptions } from './renderCommand.ts';
import { describeResult } from './renderManifests.ts';
import type { ReviewRender } from '../review/renderForReview.ts';
import type { Result } from '../krm/results.ts';
import { didYouMean } from '../krm/didYouMean.ts';
import { NodeBudget } from '../krm/inputBounds.ts';
import { SharedRunMeter } from '../template/index.ts';

interface Options {
  base?: string;
  head: string;
  gitRev?: string;
  config?: string;
  machineDeployments: string[];
  showSecrets: boolean;
}

export function runDiffCommand(args: string[], io: CommandIO): number {
  return runSubcommand(
    DIFF_COMMAND,
    args,
    io,
    options,
    (opts, io) => {
      // diff(1)'s convention: 1 means "different", so trouble is 2.
      try {
        return diff(opts, io);
      } catch (e) {
        if (!(e instanceof CommandError)) throw e;
        io.stderr(`osm-krm diff: ${untrustedText(e.message)}\n`);
        return 2;
      }
    },
    (opts) => !opts.showSecrets,
  );
}

function options(cl: CommandLine): Options {
  const config = cl.value('--config');
  const gitRev = cl.value('--git');
  const common = {
    machineDeployments: cl.values('--md'),
    showSecrets: cl.has('--show-secrets'),
    ...(config !== undefined ? { config } : {}),
  };
  if (gitRev !== undefined) {
    // Handed to git: a revision that reads as an option is refused.
    if (gitRev.startsWith('-')) throw new UsageError(`--git needs a revision, got ${gitRev}`);
    return { ...common, gitRev, head: cl.operands[0] ?? '.' };
  }
  return { ...common, base: cl.operands[0]!, head: cl.operands[1]! };
}

// A signal's default action would end the process before `finally` removes REV's tree. While the tree exists,
// the signals that stop a terminal command or a CI job are held instead: the work is synchronous, so a held
// signal would only be handled after it; the run finishes, removes the tree and exits.
const HELD_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const holdSignal = () => {};

function diff(opts: Options, io: CommandIO): number {
  if (opts.gitRev !== undefined) for (const s of HELD_SIGNALS) process.on(s, holdSignal);
  let checkout: Checkout | undefined;
  try {
    if (opts.gitRev !== undefined) checkout = checkoutRevision(opts.gitRev, opts.head, io);
    // One run: both sides are read within one node budget and render on one template meter (each had its own:
    // two or three times the bound).
    const budget = new NodeBudget();
    const templateBudget = new SharedRunMeter();
    const side = (path: string, label: string, previousState?: KrmObject, quiet = false) => {
      const common: ReviewCommandOptions = {
        path,
        machineDeployments: [],
        showSecrets: true,
        budget,
        templateBudget,
        ...(opts.config !== undefined ? { config: opts.config } : {}),
        ...(checkout && label !== 'head' ? { root: { path: checkout.root, label: `${opts.gitRev}:` } } : {}),
      };
      const r = reviewRender(common, io, `${label}: `, previousState, quiet);
      if (r.exitCode !== 0) throw new CommandError(`${label} does not render (errors above)`);
      return r;
    };
    // With --git, PATH may exist on one side only (the pull request adds or removes it): the other side is empty.
    const notice = checkout === undefined ? '' : sideMissingNotice(checkout, opts);
    const base =
      checkout?.missing === 'base'
        ? NOTHING
        : side(checkout?.path ?? opts.base!, checkout ? `base (${opts.gitRev})` : 'base');
    // HEAD starts from the state BASE leaves behind, as if BASE had been applied: revisions move as they would.
    const head = checkout?.missing === 'head' ? NOTHING : side(opts.head, 'head', base.state);
    const mask = (s: string) => (opts.showSecrets ? s : head.mask(base.mask(s)));
    const selected = selectedKeys(opts.machineDeployments, [base, head]);
    const changes = compareReviews(base, head, mask);
    // A state committed with HEAD is what kustomize and Argo CD render from, not the one BASE leaves: say where it lags.
    if (checkout?.missing !== 'head' && head.inputs.some(isStateObject)) {
      addConsequences(changes, committedStateConsequences(head, side(opts.head, 'head', undefined, true)));
    }
    const shown = changes.filter((c) => selected === undefined || selected.has(c.key));
    const warnings = head.results.filter(
      (r) =>
        r.severity === 'warning' &&
        (selected === undefined || !isMachineDeploymentResult(r) || selected.has(resultKey(r))),
    );
    let text = notice;
    if (warnings.length > 0)
      text += `# Warnings\n${warnings.map((r) => `* ${untrustedLine(mask(describeResult(r)))}\n`).join('')}\n`;
    if (shown.length === 0) {
      io.stdout(`${text}osm-krm diff: no node changes\n`);
      return 0;
    }
    // Summary lines start with `* `: inside a ```diff block (the example workflow's comment) a `- ` would read as a removed line.
    for (const c of shown) {
      text += `# MachineDeployment ${untrustedLine(c.key)}\n${c.consequences.map((l) => `* ${untrustedLine(mask(l))}\n`).join('')}${c.diff === '' ? '' : '\n' + c.diff}\n`;
    }
    io.stdout(text);
    return 1;
  } finally {
    if (checkout) rmSync(checkout.root, { recursive: true, force: true });
    for (const s of HELD_SIGNALS) process.off(s, holdSignal);
  }
}

/**
 * Where HEAD's committed render state lags: a MachineDeployment the state gives another revision than the one
 * machine-controller reaches after BASE (`head` starts from BASE's state, `own` from the committed one), or whose
 * entry is older than its template (the next change would repeat a revision).
 */
function committedStateConsequences(head: Pick<ReviewRender, 'reviews'>, own: ReviewRender): Map<string, string> {
  const out = new Map<string, string>();
  const expected = new Map(head.reviews.map((r) => [`${r.namespace}/${r.name}`, r.revision]));
  for (const r of own.reviews) {
    const key = `${r.namespace}/${r.name}`;
    const revision = expected.get(key);
    if (revision !== undefined && revision !== r.revision) {
      out.set(
        key,
        `warning: the render state committed here (${STATE_PATH}) gives revision ${r.revision}, but machine-controller will be at revision ${revision} after the base: kustomize and Argo CD render from the committed state, so these Secrets would carry a revision machine-controller does not use; update the committed state in this change`,
      );
    }
  }
  for (const s of staleCommittedState(own.inputs, own.generated, 'kustomize or Argo CD')) {
    if (!out.has(s.machineDeployment)) out.set(s.machineDeployment, `warning: ${s.message}`);
  }
  return out;
}

/** Adds a consequence line per MachineDeployment, to its change or as a change of its own. */
function addConsequences(changes: MachineDeploymentChange[], lines: ReadonlyMap<string, string>): void {
  for (const [key, line] of lines) {
    const change = changes.find((c) => c.key === key);
    if (change !== undefined) change.consequences.push(line);
    else changes.push({ key, consequences: [line], diff: '' });
  }
  changes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The side a pull request does not have PATH on: nothing rendered, nothing carried over. */
const NOTHING: Pick<ReviewRender, 'reviews' | 'unrendered' | 'results' | 'state' | 'mask' | 'inputs'> = {
  reviews: [],
  unrendered: [],
  results: [],
  state: undefined,
  mask: (s) => s,
  inputs: [],
};

function sideMissingNotice(checkout: Checkout, opts: Options): string {
  if (checkout.missing === 'base')
    return `# ${untrustedLine(opts.head)} does not exist at ${untrustedLine(opts.gitRev!)}: everything in it is added\n\n`;
  if (checkout.missing === 'head')
    return `# ${untrustedLine(opts.head)} does not exist in the working tree: everything it held at ${untrustedLine(opts.gitRev!)} is removed\n\n`;
  return '';
}

const isMachineDeploymentResult = (r: Result) => r.resourceRef?.kind === 'MachineDeployment';
const resultKey = (r: Result) => `${r.resourceRef?.namespace || 'default'}/${r.resourceRef?.name ?? ''}`;

/** The MachineDeployments --md names (undefined: all); a name that matches none on either side is an error. */
function selectedKeys(
  names: readonly string[],
  sides: ReadonlyArray<Pick<ReviewRender, 'reviews' | 'unrendered'>>,
): Set<string> | undefined {
  if (names.length === 0) return undefined;
  const known = [
    ...new Set(sides.flatMap((s) => [...s.reviews, ...s.unrendered].map((r) => `${r.namespace}/${r.name}`))),
  ].sort();
  const selected = new Set<string>();
  for (const n of names) {
    const matches = known.filter((k) => (n.includes('/') ? k === n : k.endsWith(`/${n}`)));
    if (matches.length === 0) {
      const candidates = n.includes('/') ? known : known.map((k) => k.slice(k.indexOf('/') + 1));
      throw new CommandError(
        `--md ${JSON.stringify(n)} matches no MachineDeployment on either side${didYouMean(n, candidates)}`,
      );
    }
    for (const k of matches) selected.add(k);
  }
  return selected;
}

interface Checkout {
  /** The exported tree (removed afterwards). */
  root: string;
  /** PATH inside it. */
  path: string;
  /** The side PATH does not exist on, if one. */
  missing?: 'base' | 'head';
}

/** PATH as committed at REV: the whole tree of REV exported to a temporary directory (kustomizations may reach up). */
function checkoutRevision(rev: string, path: string, io: CommandIO): Checkout {
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const abs = resolve(io.cwd, path);
  // PATH may be gone from the working tree (the pull request removes it): git runs where its nearest ancestor is.
  const existing = nearestExisting(abs);
  const cwd = targetKind(existing) === 'directory' ? existing : dirname(existing);
  // A directory of the checkout holding HEAD, objects/ and refs/ is a bare repository to git, found before the
  // real one: its refs would choose the base. Only the repository a .git leads to is used.
  const git = (args: string[]) =>
    spawnSync('git', ['-c', 'safe.bareRepository=explicit', ...args], {
      cwd,
      env: io.env as NodeJS.ProcessEnv,
      maxBuffer: 1024 * 1024 * 1024,
    });
  const top = git(['rev-parse', '--show-toplevel']);
  if (top.error || top.status !== 0) {
    throw new CommandError(
      `--git: ${path} is not inside a git repository (${top.error ? top.error.message : top.stderr.toString('utf8').trim()})`,
    );
  }
  const root = top.stdout.toString('utf8').trim();
  const verify = git(['-C', root, 'rev-parse', '--verify', '--quiet', `${rev}^{tree}`]);
  if (verify.status !== 0) throw new CommandError(`--git: ${JSON.stringify(rev)} is not a revision of ${root}`);
  const tree = verify.stdout.toString('utf8').trim();
  // From the top: in a subdirectory git archive would export only that subdirectory.
  const archive = git(['-C', root, 'archive', '--format=tar', tree]);
  if (archive.status !== 0)
    throw new CommandError(`--git: git archive ${rev} failed: ${archive.stderr.toString('utf8').trim()}`);
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-diff-'));
  const untar = spawnSync('tar', ['-x', '-f', '-', '-C', dir], { input: archive.stdout, maxBuffer: 64 * 1024 * 1024 });
  if (untar.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new CommandError(
      `--git: cannot unpack ${rev}: ${untar.stderr?.toString('utf8').trim() ?? untar.error?.message}`,
    );
  }
  // PATH in REV's tree, read through the file gate with the tree as its root: a symbolic link there (REV may be
  // anyone's commit) must not lead out of the tree.
  try {
    const tree = rootAt(dir, `${rev}:`);
    const rel = relative(
      namedRealPath(root) ?? root,
      join(namedRealPath(existing) ?? existing, relative(existing, abs)),
    )
      .split(sep)
      .join('/');
    const inRev = resolveInside(tree, tree.real, rel, `${rev}:/${rel}`);
    const atRev = targetKind(inRev) !== 'missing';
    const here = targetKind(abs) !== 'missing';
    if (!atRev && !here) throw new CommandError(`--git: ${path} exists neither at ${rev} nor in the working tree`);
    return {
      root: dir,
      path: inRev,
      ...(atRev ? (here ? {} : { missing: 'head' as const }) : { missing: 'base' as const }),
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** `p` or its closest ancestor that exists. */
function nearestExisting(p: string): string {
  let q = p;
  while (targetKind(q) === 'missing' && dirname(q) !== q) q = dirname(q);
  return q;
}
