// The Go oracles of test/gitops/go-oracles/main.go, built once into .cache/ (Debian's Go 1.19 and
// golang-github-drone-envsubst-dev, GOPATH mode, no network; scripts/install-test-tools.sh installs both).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

const SOURCE = join(REPO_ROOT, 'test', 'gitops', 'go-oracles', 'main.go');
const BINARY = join(REPO_ROOT, '.cache', 'gitops-go-oracles');

function binary(): string {
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= statSync(SOURCE).mtimeMs) return BINARY;
  mkdirSync(dirname(BINARY), { recursive: true });
  const tmp = `${BINARY}.${process.pid}.tmp`;
  const r = spawnSync('go', ['build', '-o', tmp, '.'], {
    cwd: dirname(SOURCE),
    encoding: 'utf8',
    env: {
      ...process.env,
      GO111MODULE: 'off',
      GOPATH: '/usr/share/gocode',
      GOFLAGS: '',
      GOCACHE: join(REPO_ROOT, '.cache', 'go-build'),
    },
  });
  if (r.error !== undefined || r.status !== 0) {
    rmSync(tmp, { force: true });
    throw new Error(
      `building the GitOps Go oracles failed; they need go and golang-github-drone-envsubst-dev (bash scripts/install-test-tools.sh):\n${r.error ?? r.stderr}`,
    );
  }
  renameSync(tmp, BINARY);
  return BINARY;
}

type Answer = { out: string } | { error: string };

function ask(request: Record<string, unknown>): Answer[] {
  const r = spawnSync(binary(), [], { input: JSON.stringify(request), encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`Go oracle failed: ${r.error ?? r.stderr}`);
  return JSON.parse(r.stdout) as Answer[];
}

/** Go's os.Expand with Argo CD's plugin env mapping (Env.Envsubst): `$$` -> `$`, known names -> value, others -> ''. */
export function expandLikeGo(values: readonly string[], vars: ReadonlyMap<string, string>): string[] {
  if (values.length === 0) return [];
  return ask({ mode: 'expand', vars: Object.fromEntries(vars), values }).map((a) => ('out' in a ? a.out : ''));
}

/**
 * Whether Flux's post-build substitution (strict or not, no variable known) changes or refuses each text. The
 * oracle is drone/envsubst 1.0.3, which fluxcd/pkg envsubst v1.7.0 forked; the fork changed two things (diffed
 * against Debian's copy): strict mode (an unset variable without a default fails instead of becoming empty: either
 * way the text does not stay as it was) and backslash escapes, which it honours only inside `${...}` while drone
 * also turns `\\` and `\/` outside into one character. So backslashes are first replaced by a character that is
 * special nowhere: outside `${` they are plain text to Flux, and inside one the text changes anyway.
 */
export function fluxWouldChange(texts: readonly string[]): boolean[] {
  if (texts.length === 0) return [];
  const neutral = texts.map((t) => t.replaceAll('\\', '\uE000'));
  return ask({ mode: 'envsubst', values: neutral }).map((a, i) => !('out' in a) || a.out !== neutral[i]);
}
