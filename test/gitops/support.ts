// Shared pieces of the GitOps end-to-end tests: the built bundle, a bin directory with `osm-krm` and the
// `docker`/`podman` wrapper (the real podman, logging) in front of PATH, temp directories, process runs, directory snapshots, manifest parsing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { after } from 'node:test';
import { parseAllDocuments, stringify } from 'yaml';
import { REPO_ROOT } from '../support/paths.ts';

export const BUNDLE = join(REPO_ROOT, 'dist', 'osm-krm.cjs');
export const EXAMPLES = join(REPO_ROOT, 'examples');
export const RUNTIME_SHIM = join(REPO_ROOT, 'test', 'gitops', 'shims', 'container-runtime.mjs');
/** The image the examples name for the container route: the Dockerfile's `function` target (scripts/test-images.sh). */
export const EXAMPLE_IMAGE = 'localhost/osm-krm:0.1.0';
/** The Dockerfile's `argocd-cmp` target (scripts/test-images.sh). */
export const CMP_IMAGE = 'localhost/osm-krm-argocd-cmp:0.1.0';
/** The secrets the examples read from the environment (example values). */
export const EXAMPLE_SECRETS = {
  OSM_CLOUD_INIT_GETTER_TOKEN: 'example-cloud-init-getter-token',
  OSM_BOOTSTRAP_TOKEN: 'abcdef.0123456789abcdef',
} as const;

const temps: string[] = [];
after(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

export function tempDir(prefix = 'osm-krm-gitops-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  temps.push(d);
  return d;
}

let bin: string | undefined;

/** A directory holding `osm-krm` (the bundle, as `npm link` or the image installs it) and `docker`/`podman` (the wrapper). */
export function toolBin(): string {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run \`npm run build\` first (npm test does)`);
  if (bin !== undefined) return bin;
  bin = tempDir('osm-krm-bin-');
  chmodSync(RUNTIME_SHIM, 0o755);
  symlinkSync(BUNDLE, join(bin, 'osm-krm'));
  symlinkSync(RUNTIME_SHIM, join(bin, 'docker'));
  symlinkSync(RUNTIME_SHIM, join(bin, 'podman'));
  return bin;
}

/** The test process's environment with the tool bin first on PATH, without any example secret, plus `extra`. */
export function toolEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v !== undefined &&
      !(k in EXAMPLE_SECRETS) &&
      !k.startsWith('ARGOCD_') &&
      !k.startsWith('PARAM_') &&
      !k.startsWith('OSM_KRM_')
    )
      env[k] = v;
  }
  env.PATH = `${toolBin()}:${process.env.PATH ?? ''}`;
  return { ...env, ...extra };
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function run(
  cmd: string,
  args: readonly string[],
  opts: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): RunResult {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd ?? REPO_ROOT,
    env: opts.env ?? toolEnv(),
    input: opts.input ?? '',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs and asserts exit 0, with the output in the message otherwise. */
export function runOk(cmd: string, args: readonly string[], opts: Parameters<typeof run>[2] = {}): RunResult {
  const r = run(cmd, args, opts);
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  return r;
}

export function copyTree(src: string, dst: string): string {
  cpSync(src, dst, { recursive: true });
  return dst;
}

/** The bytes (latin1) of every regular file below `dir`, concatenated; '' when there is none. */
export function treeText(dir: string): string {
  if (!existsSync(dir)) return '';
  let out = '';
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const p = join(e.parentPath, e.name);
    if (lstatSync(p).isFile()) out += readFileSync(p, 'latin1');
  }
  return out;
}

/** Every file below `dir` (not .git) -> its content. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      if (name === '.git') continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p).split(sep).join('/'), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

/** Paths whose content differs between two snapshots (added, removed or changed). */
export function changedPaths(before: Map<string, string>, afterSnap: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...afterSnap.keys()]);
  return [...keys].filter((k) => before.get(k) !== afterSnap.get(k)).sort();
}

export function git(dir: string, ...args: string[]): string {
  return runOk(
    'git',
    [
      '-c',
      'user.name=osm-krm test',
      '-c',
      'user.email=test@osm-krm.invalid',
      '-c',
      'commit.gpgsign=false',
      '-c',
      'core.autocrlf=false',
      ...args,
    ],
    { cwd: dir, env: toolEnv({ GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' }) },
  ).stdout;
}

export function mkdirp(p: string): string {
  mkdirSync(p, { recursive: true });
  return p;
}

/** The objects of a YAML stream; throws on invalid YAML. */
export function parseStream(text: string): any[] {
  const out: any[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors[0]!.message}`);
    const v = doc.toJS();
    if (v !== null && v !== undefined) out.push(v);
  }
  return out;
}

export function identity(o: any): string {
  return `${o.apiVersion}/${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
}

/** Objects keyed and sorted by identity, for comparing what two routes produce. */
export function byIdentity(objects: readonly any[]): Record<string, any> {
  const entries = objects.map((o) => [identity(o), o] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const out: Record<string, any> = {};
  for (const [k, o] of entries) {
    if (k in out) throw new Error(`duplicate object ${k}`);
    out[k] = o;
  }
  return out;
}

/** Every YAML object in the files of a directory (as kubectl apply -f DIR -R would read them). */
export function objectsInFiles(dir: string, filter: (rel: string) => boolean = () => true): any[] {
  return [...snapshot(dir)]
    .filter(([rel]) => /\.ya?ml$/.test(rel) && filter(rel))
    .flatMap(([, text]) => parseStream(text));
}

export const ORCHESTRATOR_ANNOTATION =
  /^(internal\.config\.kubernetes\.io\/|config\.kubernetes\.io\/(path|index)$|config\.k8s\.io\/id$|kustomize\.config\.k8s\.io\/)/;

export function isLocalConfig(o: any): boolean {
  const v = o?.metadata?.annotations?.['config.kubernetes.io/local-config'];
  return v !== undefined && v !== 'false';
}

/** What the example renders: its inputs (minus local-config) and, per MachineDeployment, an OSC and three Secrets. */
export const EXAMPLE_MANIFESTS = [
  'cluster.k8s.io/v1alpha1/MachineDeployment/kube-system/workers-a',
  'cluster.k8s.io/v1alpha1/MachineDeployment/kube-system/workers-b',
  'operatingsystemmanager.k8c.io/v1alpha1/OperatingSystemConfig/kube-system/workers-a-kube-system-config',
  'operatingsystemmanager.k8c.io/v1alpha1/OperatingSystemConfig/kube-system/workers-b-kube-system-config',
  'operatingsystemmanager.k8c.io/v1alpha1/OperatingSystemProfile/kube-system/example-ubuntu',
  'v1/Secret/cloud-init-settings/kube-system-workers-a-kubelet-bootstrap-config',
  'v1/Secret/cloud-init-settings/kube-system-workers-b-kubelet-bootstrap-config',
  'v1/Secret/cloud-init-settings/workers-a-kube-system-bootstrap-config',
  'v1/Secret/cloud-init-settings/workers-a-kube-system-provisioning-config',
  'v1/Secret/cloud-init-settings/workers-b-kube-system-bootstrap-config',
  'v1/Secret/cloud-init-settings/workers-b-kube-system-provisioning-config',
];

/** A Secret's data, decoded, with the b64-encoded files of a cloud-config decoded too. */
export function secretText(objects: readonly any[], name: string): string {
  const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === name);
  assert.ok(secret, `no Secret ${name}`);
  const text = Object.values(secret.data as Record<string, string>)
    .map((v) => Buffer.from(v, 'base64').toString('utf8'))
    .join('\n');
  return text.replace(/encoding: 'b64'\n\s+content: \|-\n\s+(\S+)/g, (_m, b64: string) =>
    Buffer.from(b64, 'base64').toString('utf8'),
  );
}

/** The examples' committed state (from the Flux example: same inputs), with workers-a's revision set to `revision`. */
export function exampleStateText(revision: string): string {
  const state = parseStream(
    readFileSync(join(EXAMPLES, 'flux', 'deploy', 'osm-generated', 'state', 'osm-krm-state.yaml'), 'utf8'),
  )[0];
  const key = 'md.kube-system.workers-a';
  state.data[key] = JSON.stringify({ ...JSON.parse(state.data[key]), revision });
  return stringify(state);
}

/** The k8c.io/machine-deployment-revision of a generated Secret. */
export function secretRevision(objects: readonly any[], name: string): string {
  const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === name);
  assert.ok(secret, `no Secret ${name}`);
  return secret.metadata.annotations['k8c.io/machine-deployment-revision'];
}
