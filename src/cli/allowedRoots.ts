// Which directories each route may read (docs/review-tools.md "Files", README "Threat model"). The file gate
// (fileGate.ts) enforces them; this module only names them.
//
// - A PATH (generate's DIR, hydrate's SRC, render/diff/lint's PATH, diff --git's side in the working tree,
//   the KRM function's working directory): the git work tree that holds it (`.git` excluded), as Argo CD's
//   repo server allows a repository's links to reach anywhere inside it and nowhere outside; outside any work
//   tree, the directory itself (a file's directory). Under Argo CD the repository is the directory the sidecar
//   unpacked (the working directory minus ARGOCD_APP_SOURCE_PATH). A repository is what a pull request
//   already shows anyone who reads it; what lies outside (the CI runner, the repo server's other checkouts,
//   mounted credentials) is not.
// - diff --git's base: the tree exported from REV.
// - A `{file: ...}` value source: relative paths from the directory of the file that names them (the config
//   file), inside that file's root; absolute paths only in the secrets directory ($OSM_KRM_SECRETS_DIR, default
//   /var/run/secrets/osm-krm), in the directories of $OSM_KRM_FILE_ROOTS (set by whoever runs osm-krm, never
//   read from Git), or in the naming file's own root. So a config in a pull request cannot name
//   /proc/self/environ, a service-account token or the runner's home (and kernel pseudo file systems are
//   refused everywhere).
import { systemClock } from './clock.ts';
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import type { Environment } from '../cluster/valueSource.ts';
import { CommandError } from './commandIO.ts';
import {
  decodeText,
  FileRefusedError,
  isInside,
  namedRealPath,
  readBytesInside,
  resolveInside,
  rootAt,
  targetKind,
  workTreeOf,
  type Root,
} from './fileGate.ts';
import { secretsDirectory, SECRETS_DIR_ENV } from './clusterSecrets.ts';

export const FILE_ROOTS_ENV = 'OSM_KRM_FILE_ROOTS';

type ProcessEnv = Readonly<Record<string, string | undefined>>;

/**
 * The allowed root of a PATH the user named (`shown` as they wrote it): its git work tree, or itself (a file's
 * directory). `argoCD`: generate's rule, the repository Argo CD unpacked when ARGOCD_APP_SOURCE_PATH says where.
 */
export function inputRoot(path: string, shown: string, env: ProcessEnv, argoCD = false): Root {
  const real = namedRealPath(path);
  if (real === undefined) throw new CommandError(`${shown} does not exist`);
  const dir = targetKind(real) === 'directory' ? real : dirname(real);
  const repo = (argoCD ? argoCDRepository(dir, env) : undefined) ?? workTreeOf(dir);
  if (repo === undefined || repo === dir) return rootAt(dir, targetKind(real) === 'directory' ? shown : dirname(shown));
  if (repo === sep) return rootAt(dir, shown); // a `.git` at / is no repository of anyone's
  return rootAt(repo, `${displayPath(repo, dir, shown)}`);
}

/** How to name a repository above PATH: PATH with `..` added, so messages stay relative to what the user typed. */
function displayPath(repo: string, dir: string, shown: string): string {
  const up = relative(dir, repo);
  return up === '' ? shown : normalize(join(shown, up)) || '.';
}

/** The directory Argo CD's sidecar unpacked the repository into: the working directory minus the app's path. */
function argoCDRepository(dir: string, env: ProcessEnv): string | undefined {
  const app = env.ARGOCD_APP_SOURCE_PATH;
  if (app === undefined || app === '' || isAbsolute(app)) return undefined;
  const parts = normalize(app)
    .split(sep)
    .filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return undefined;
  if (parts.length === 0) return dir;
  const tail = parts.join(sep);
  return dir.endsWith(sep + tail) ? dir.slice(0, -(tail.length + 1)) || sep : undefined;
}

/** The roots an absolute `{file: ...}` may read from besides the naming file's own: the secrets directory and OSM_KRM_FILE_ROOTS. */
export function absoluteFileRoots(env: ProcessEnv): Root[] {
  const roots: Root[] = [];
  const secrets = secretsDirectory(env);
  const add = (p: string, label: string) => {
    if (!isAbsolute(p) || targetKind(p) !== 'directory') return;
    roots.push(rootAt(p, label));
  };
  add(secrets, `$${SECRETS_DIR_ENV} (${secrets})`);
  for (const p of (env[FILE_ROOTS_ENV] ?? '').split(':')) if (p !== '') add(p, `$${FILE_ROOTS_ENV} (${p})`);
  return roots;
}

/** Where relative `{file: ...}` paths start (the naming file's directory, real) and the root they stay in. */
export interface FileBase {
  root: Root;
  dir: string;
}

/** The base for a file that names value sources: its own directory inside its root. */
export function fileBaseOf(root: Root, realFile: string): FileBase {
  return { root, dir: dirname(realFile) };
}

/**
 * The function's view of the process for a route: env vars, and `{file: ...}` sources read through the gate
 * (bounded, regular files only) under the rule at the top.
 */
export function gatedEnvironment(env: ProcessEnv, base: FileBase | undefined): Environment {
  return {
    env: (name) => env[name],
    readFile: (path) => readFileSource(path, env, base),
    now: systemClock,
  };
}

function readFileSource(path: string, env: ProcessEnv, base: FileBase | undefined): string {
  const shown = JSON.stringify(path);
  if (!isAbsolute(path)) {
    if (base === undefined)
      throw new FileRefusedError(
        `${shown} is relative and no directory is known to read it from`,
        'a relative path with no directory to start from',
        'EINVAL',
      );
    const real = resolveInside(base.root, base.dir, path, path);
    return decodeText(readBytesInside(base.root, real, path), path);
  }
  const p = normalize(path);
  const roots = [...(base ? [base.root] : []), ...absoluteFileRoots(env)];
  for (const root of roots) {
    const from = isInside(p, root.real) ? root.real : isInside(p, root.named) ? root.named : undefined;
    if (from === undefined) continue;
    const real = resolveInside(root, root.real, relative(from, p).split(sep).join('/'), path);
    return decodeText(readBytesInside(root, real, path), path);
  }
  const allowed = roots.map((r) => r.label).join(', ');
  throw new FileRefusedError(
    `${path} is outside the directories osm-krm reads files from (${allowed || 'none'}): mount it in $${SECRETS_DIR_ENV} (default /var/run/secrets/osm-krm), add its directory to $${FILE_ROOTS_ENV} where osm-krm runs, or name it relative to the config file`,
    `outside the directories osm-krm reads files from (${allowed || 'none'}); mount it in $${SECRETS_DIR_ENV}, add its directory to $${FILE_ROOTS_ENV} where osm-krm runs, or name it relative to the config file`,
    'EACCES',
  );
}

/** The KRM function on stdin (kustomize, kpt): relative sources from the working directory, in its work tree. */
export function workingDirectoryBase(cwd: string, env: ProcessEnv): FileBase | undefined {
  const real = namedRealPath(resolve(cwd));
  if (real === undefined || real === sep) return undefined; // `/` is no directory to read a relative path from
  const root = inputRoot(real, real, env);
  return { root, dir: real };
}
