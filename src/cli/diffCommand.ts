// `osm-krm diff BASE HEAD` / `osm-krm diff --git REV [PATH]`: what a change (a pull request) does to nodes.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { compareReviews } from '../review/compareReviews.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { CommandError, runSubcommand, UsageError, type CommandIO } from './commandIO.ts';
import type { CommandLine } from './commandLine.ts';
import { DIFF_COMMAND } from './commandSpecs.ts';
import { isDirectory } from './manifestDirectory.ts';
import { containedPath } from './containedPath.ts';
import { untrustedLine, untrustedText } from './untrustedText.ts';
import { reviewRender, selectReviews, type ReviewCommandOptions } from './renderCommand.ts';

interface Options {
  base?: string;
  head: string;
  gitRev?: string;
  config?: string;
  machineDeployments: string[];
  showSecrets: boolean;
}

export function runDiffCommand(args: string[], io: CommandIO): number {
  return runSubcommand(DIFF_COMMAND, args, io, options, (opts) => {
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

function options(cl: CommandLine): Options {
  const config = cl.value('--config');
  const gitRev = cl.value('--git');
  const common = { machineDeployments: cl.values('--md'), showSecrets: cl.has('--show-secrets'), ...(config !== undefined ? { config } : {}) };
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
  let checkout: { root: string; path: string } | undefined;
  try {
    if (opts.gitRev !== undefined) checkout = checkoutRevision(opts.gitRev, opts.head, io);
    const side = (path: string, label: string, previousState?: KrmObject) => {
      const common: ReviewCommandOptions = { path, machineDeployments: [], showSecrets: true, ...(opts.config !== undefined ? { config: opts.config } : {}) };
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
  const cwd = isDirectory(abs) ? abs : dirname(abs);
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
  // PATH in REV's tree: a symbolic link there (REV may be anyone's commit) must not lead out of the tree.
  try {
    return { root: dir, path: containedPath(dir, relative(realpathSync(root), realpathSync(abs)), `${rev}:`) };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
