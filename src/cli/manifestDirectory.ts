// Reading a directory of manifests (an Argo CD app path, the SRC of `hydrate`) into KRM objects.
//
// Two layouts, decided by the top directory alone:
// - plain: every *.yaml / *.yml file below it (dot-files and dot-directories skipped, as kpt and Argo CD skip
//   .git and .expected), each document an object carrying kpt's path/index annotations: the function
//   recognises its own previous output and state (osm-generated/...) by them, and its results name the file.
//   (It ignores such in-flight annotations when hashing a MachineDeployment's annotations; the output never
//   carries them.)
// - kustomization: `kustomize build` (or `kubectl kustomize`) of the directory. kustomize drops
//   local-config resources from its output, so the state file is read from disk beside it.
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { yamlErrorText } from '../krm/parseErrorMessage.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { PARSE_OPTIONS } from '../krm/yamlSchema.ts';
import { boundedToJS, checkFullParserSize, decodeUtf8, InputLimitError, isStackOverflow, nestingError, parseWithinStack, readTextFileBounded } from '../krm/inputBounds.ts';
import { containedPath, errnoReason, followLink } from './containedPath.ts';
import { generatedSharedPath } from '../function/generatedPaths.ts';
import { isStateObject, STATE_PATH } from '../gitops/renderState.ts';
import { CommandError, type CommandIO } from './commandIO.ts';

export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

const PATH_ANNOTATIONS = ['config.kubernetes.io/path', 'internal.config.kubernetes.io/path'];
const INDEX_ANNOTATIONS = ['config.kubernetes.io/index', 'internal.config.kubernetes.io/index'];

export interface ManifestDirectory {
  layout: 'plain' | 'kustomization';
  /** The resources, in a stable order (file path, then document index). */
  objects: KrmObject[];
  /** The file (relative to the directory) each object was read from, when known. */
  paths: Map<KrmObject, string>;
}

export function isKustomizationDirectory(dir: string): boolean {
  return KUSTOMIZATION_FILES.some((f) => existsSync(join(dir, f)));
}

/** Reads `dir`; `skipFiles` (absolute paths) are left out, e.g. the config file when it lies inside `dir`. */
export function readManifestDirectory(dir: string, io: CommandIO, skipFiles: readonly string[] = []): ManifestDirectory {
  if (!isDirectory(dir)) throw new CommandError(`${dir} is not a directory`);
  const objects: KrmObject[] = [];
  const paths = new Map<KrmObject, string>();
  const add = (rel: string) => {
    for (const o of readManifestFile(dir, rel)) {
      objects.push(o);
      paths.set(o, rel);
    }
  };
  if (isKustomizationDirectory(dir)) {
    objects.push(...parseManifests(kustomizeBuild(dir, io), 'kustomize build output'));
    // A state without the local-config annotation survives the build: then it is already here.
    if (!objects.some(isStateObject)) for (const p of statePaths()) if (existsSync(join(dir, p))) add(p);
    return { layout: 'kustomization', objects, paths };
  }
  const skip = new Set(skipFiles.map((f) => resolve(f)));
  for (const rel of listYamlFiles(dir)) {
    if (skip.has(resolve(dir, rel))) continue;
    if (KUSTOMIZATION_FILES.includes(rel.split('/').pop()!)) continue; // a nested kustomization is not a resource
    add(rel);
  }
  return { layout: 'plain', objects, paths };
}

/** Where the function keeps its state, with and without the management/worker split. */
export function statePaths(): string[] {
  const file = STATE_PATH.slice('osm-generated/'.length);
  const probe = { apiVersion: 'v1', kind: 'ConfigMap' };
  return [generatedSharedPath(file, probe, false), generatedSharedPath(file, probe, true)];
}

/**
 * Every *.yaml / *.yml below `dir`, as sorted slash-separated relative paths; dot-entries are skipped.
 * Symbolic links are followed while they stay inside `dir`; each real directory is read once, so a link
 * loop (or links multiplying a tree) ends in an error naming the link instead of a walk without end.
 */
export function listYamlFiles(dir: string): string[] {
  const out: string[] = [];
  const root = realpathSync(dir);
  const entered = new Map<string, string>([[root, '.']]); // real directory -> the path it was read as
  const walk = (abs: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(abs).sort();
    } catch (e) {
      throw new CommandError(`cannot read directory ${abs}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const p = join(abs, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue; // gone meanwhile
      }
      let real = p;
      if (st.isSymbolicLink()) {
        try {
          st = statSync(p);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // a dangling symlink is not a manifest
        }
        real = followLink(p, `${dir}/${r}`, root, dir);
      }
      if (st.isDirectory()) {
        const seen = entered.get(real);
        if (seen !== undefined) {
          const loop = seen === '.' || r.startsWith(`${seen}/`);
          throw new CommandError(`symbolic link ${loop ? 'loop' : 'to a directory read already'}: ${dir}/${r} leads to ${seen === '.' ? dir : `${dir}/${seen}`}; refusing to read it twice`);
        }
        entered.set(real, r);
        walk(p, r);
      } else if (st.isFile() && /\.ya?ml$/.test(name)) out.push(r);
    }
  };
  walk(dir, '');
  return out;
}

/** The objects of one file, annotated with its path (relative to `root`) and their index in it. */
export function readManifestFile(root: string, rel: string): KrmObject[] {
  const path = containedPath(root, rel, root);
  let text: string;
  try {
    text = readTextFileBounded(path, rel);
  } catch (e) {
    if (e instanceof InputLimitError) throw new CommandError(e.message);
    throw new CommandError(`cannot read ${rel}: ${errnoReason(e)}`);
  }
  return parseManifests(text, rel).map((o, index) => withSourceAnnotations(o, rel, index));
}

/** Parses a YAML stream of Kubernetes objects; empty documents are skipped, anything else is an error. */
export function parseManifests(text: string, where: string): KrmObject[] {
  const objects: KrmObject[] = [];
  let docs: ReturnType<typeof parseAllDocuments>;
  try {
    checkFullParserSize(text, where);
    docs = parseWithinStack(() => parseAllDocuments(text, PARSE_OPTIONS), where);
  } catch (e) {
    if (e instanceof InputLimitError) throw new CommandError(e.message);
    throw e;
  }
  docs.forEach((doc, i) => {
    if (doc.errors.length > 0) {
      if (isStackOverflow(doc.errors[0]!.message)) throw new CommandError(nestingError(where).message);
      throw new CommandError(`${where}: document ${i + 1} is not valid YAML at ${yamlErrorText(doc.errors[0]!, text)}`);
    }
    let value: unknown;
    try {
      value = boundedToJS(doc, text.length, `${where}: document ${i + 1}`);
    } catch (e) {
      if (e instanceof InputLimitError) throw new CommandError(e.message);
      throw e;
    }
    if (value === null || value === undefined) return;
    const o = value as KrmObject;
    if (typeof o !== 'object' || Array.isArray(o) || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string') {
      throw new CommandError(`${where}: document ${i + 1} is not a Kubernetes object (apiVersion and kind are required)`);
    }
    objects.push(o);
  });
  return objects;
}

export function withSourceAnnotations(o: KrmObject, path: string, index: number): KrmObject {
  const metadata = { ...(o.metadata ?? {}) };
  const annotations: Record<string, unknown> = { ...(metadata.annotations ?? {}) };
  for (const k of PATH_ANNOTATIONS) annotations[k] = path;
  for (const k of INDEX_ANNOTATIONS) annotations[k] = String(index);
  metadata.annotations = annotations;
  return { ...o, metadata };
}

/** `kustomize build DIR`, or `kubectl kustomize DIR` when only kubectl is installed. */
function kustomizeBuild(dir: string, io: CommandIO): string {
  const tool = findOnPath('kustomize', io.env) ?? findOnPath('kubectl', io.env);
  if (tool === undefined) {
    throw new CommandError(`${dir} holds a kustomization, but neither kustomize nor kubectl is on PATH to build it`);
  }
  const args = tool.endsWith('kustomize') ? ['build', dir] : ['kustomize', dir];
  // Loaded on use: only `generate` on a kustomization runs a tool, and child_process costs start-up time.
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const r = spawnSync(tool, args, { cwd: io.cwd, env: io.env as NodeJS.ProcessEnv, maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw new CommandError(`cannot run ${tool}: ${r.error.message}`);
  if (r.status !== 0) {
    throw new CommandError(`${[tool.split('/').pop(), ...args].join(' ')} failed (exit ${r.status ?? r.signal}):\n${r.stderr.toString('utf8').trimEnd()}`);
  }
  try {
    return decodeUtf8(r.stdout, 'kustomize build output');
  } catch (e) {
    throw new CommandError((e as Error).message);
  }
}

function findOnPath(name: string, env: CommandIO['env']): string | undefined {
  for (const d of (env.PATH ?? '').split(delimiter)) {
    if (d === '') continue;
    const p = join(d, name);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
