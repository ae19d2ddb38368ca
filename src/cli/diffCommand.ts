// `osm-krm diff BASE HEAD` / `osm-krm diff --git REV [PATH]`: what a change (a pull request) does to nodes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { compareReviews } from '../review/compareReviews.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { CommandError, runSubcommand, scanArguments, UsageError, type CommandIO } from './commandIO.ts';
import { namedRealPath, resolveInside, rootAt, targetKind } from './fileGate.ts';
import { untrustedLine, untrustedText } from './untrustedText.ts';
import { reviewRender, selectReviews, type ReviewCommandOptions } from './renderCommand.ts';

export const DIFF_USAGE = `usage: osm-krm diff BASE HEAD [--config FILE] [--md NAME]... [--show-secrets]
       osm-krm diff --git REV [PATH] [--config FILE] [--md NAME]... [--show-secrets]

Renders two versions of the same inputs and prints, per MachineDeployment, a unified diff of what its
nodes get (decoded files, units, settings) and what the change does in the cluster: revisions, machines
that roll, immutable Secrets that are re-created.
  BASE HEAD       two directories (or ResourceList files) as render reads them
  --git REV       BASE is PATH (default: the current directory) as committed at REV in its git
                  repository, HEAD is PATH in the working tree
  --config FILE   the function config for both sides (default: the one found in each)
  --md NAME       only this MachineDeployment (NAME or NAMESPACE/NAME); repeatable
  --show-secrets  print tokens and passwords instead of <masked>
Exit 0 when no node changes, 1 when some node does, 2 on errors (either side fails to render).
`;

interface Options {
  base?: string;
  head: string;
  gitRev?: string;
  config?: string;
  machineDeployments: string[];
  showSecrets: boolean;
}

export function runDiffCommand(args: string[], io: CommandIO): number {
  return runSubcommand('diff', DIFF_USAGE, args, io, parseArgs, (opts) => {
    // diff(1)'s convention: 1 means "different", so trouble is 2.
    try {
      return diff(opts, io);
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      io.stderr(`osm-krm diff: ${untrustedText(e.message)}\n`);
      return 2;
    }
  });
}

function parseArgs(args: readonly string[]): Options | 'help' {
  const opts: Options = { head: '.', machineDeployments: [], showSecrets: false };
  const positional = scanArguments(args, (name, value) => {
    if (name === '--git') opts.gitRev = value();
    else if (name === '--config') opts.config = value();
    else if (name === '--md') opts.machineDeployments.push(value());
    else if (name === '--show-secrets') opts.showSecrets = true;
    else return false;
    return true;
  });
  if (positional === 'help') return 'help';
  if (opts.gitRev !== undefined) {
    if (opts.gitRev.startsWith('-')) throw new UsageError(`--git needs a revision, got ${opts.gitRev}`);
    if (positional.length > 1) throw new UsageError(`with --git, expected at most one PATH, got ${positional.length}`);
    opts.head = positional[0] ?? '.';
    return opts;
  }
  if (positional.length !== 2) throw new UsageError(`expected BASE and HEAD, got ${positional.length} argument(s)`);
  opts.base = positional[0]!;
  opts.head = positional[1]!;
  return opts;
}

// A signal's default action would end the process before `finally` removes REV's tree. While the tree exists,
// the signals that stop a terminal command or a CI job are held instead: the work is synchronous, so a held
// signal would only be handled after it; the run finishes, removes the tree and exits.
const HELD_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const holdSignal = () => {};

function diff(opts: Options, io: CommandIO): number {
  if (opts.gitRev !== undefined) for (const s of HELD_SIGNALS) process.on(s, holdSignal);
  let checkout: { root: string; path: string } | undefined;
  try {
    if (opts.gitRev !== undefined) checkout = checkoutRevision(opts.gitRev, opts.head, io);
    const side = (path: string, label: string, previousState?: KrmObject) => {
      const common: ReviewCommandOptions = { path, machineDeployments: [], showSecrets: true, ...(opts.config !== undefined ? { config: opts.config } : {}), ...(checkout && label !== 'head' ? { root: { path: checkout.root, label: `${opts.gitRev}:` } } : {}) };
      const r = reviewRender(common, io, `${label}: `, previousState);
      if (r.exitCode !== 0) throw new CommandError(`${label} does not render (errors above)`);
      return r;
    };
    const base = side(checkout?.path ?? opts.base!, checkout ? `base (${opts.gitRev})` : 'base');
    // HEAD starts from the state BASE leaves behind, as if BASE had been applied: revisions move as they would.
    const head = side(opts.head, 'head', base.state);
    const mask = (s: string) => (opts.showSecrets ? s : head.mask(base.mask(s)));
    const changes = compareReviews(selectReviews(base.reviews, []), selectReviews(head.reviews, []), mask).filter(
      (c) => opts.machineDeployments.length === 0 || opts.machineDeployments.some((n) => (n.includes('/') ? c.key === n : c.key.endsWith(`/${n}`))),
    );
    if (changes.length === 0) {
      io.stdout('osm-krm diff: no node changes\n');
      return 0;
    }
    for (const c of changes) {
      io.stdout(`# MachineDeployment ${untrustedLine(c.key)}\n${c.consequences.map((l) => `- ${untrustedLine(mask(l))}\n`).join('')}${c.diff === '' ? '' : '\n' + c.diff}\n`);
    }
    return 1;
  } finally {
    if (checkout) rmSync(checkout.root, { recursive: true, force: true });
    for (const s of HELD_SIGNALS) process.off(s, holdSignal);
  }
}

/** PATH as committed at REV: the whole tree of REV exported to a temporary directory (kustomizations may reach up). */
function checkoutRevision(rev: string, path: string, io: CommandIO): { root: string; path: string } {
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const abs = resolve(io.cwd, path);
  const cwd = targetKind(abs) === 'directory' ? abs : dirname(abs);
  // A directory of the checkout holding HEAD, objects/ and refs/ is a bare repository to git, found before the
  // real one: its refs would choose the base. Only the repository a .git leads to is used.
  const git = (args: string[]) => spawnSync('git', ['-c', 'safe.bareRepository=explicit', ...args], { cwd, env: io.env as NodeJS.ProcessEnv, maxBuffer: 1024 * 1024 * 1024 });
  const top = git(['rev-parse', '--show-toplevel']);
  if (top.error || top.status !== 0) {
    throw new CommandError(`--git: ${path} is not inside a git repository (${top.error ? top.error.message : top.stderr.toString('utf8').trim()})`);
  }
  const root = top.stdout.toString('utf8').trim();
  const verify = git(['-C', root, 'rev-parse', '--verify', '--quiet', `${rev}^{tree}`]);
  if (verify.status !== 0) throw new CommandError(`--git: ${JSON.stringify(rev)} is not a revision of ${root}`);
  const tree = verify.stdout.toString('utf8').trim();
  // From the top: in a subdirectory git archive would export only that subdirectory.
  const archive = git(['-C', root, 'archive', '--format=tar', tree]);
  if (archive.status !== 0) throw new CommandError(`--git: git archive ${rev} failed: ${archive.stderr.toString('utf8').trim()}`);
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-diff-'));
  const untar = spawnSync('tar', ['-x', '-f', '-', '-C', dir], { input: archive.stdout, maxBuffer: 64 * 1024 * 1024 });
  if (untar.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new CommandError(`--git: cannot unpack ${rev}: ${untar.stderr?.toString('utf8').trim() ?? untar.error?.message}`);
  }
  // PATH in REV's tree, read through the file gate with the tree as its root: a symbolic link there (REV may be
  // anyone's commit) must not lead out of the tree.
  try {
    const tree = rootAt(dir, `${rev}:`);
    const rel = relative(namedRealPath(root) ?? root, namedRealPath(abs) ?? abs).split('\\').join('/');
    return { root: dir, path: resolveInside(tree, tree.real, rel, `${rev}:/${rel}`) };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
