// The one reader of a PATH, for every command (generate, hydrate, render, diff; lint reads the same files).
// Each form is read as the user meant it, or refused saying what to pass instead:
// - a directory with a kustomization: built by kustomize on a tree the file gate made (kustomizeBuild.ts); when
//   the kustomization runs osm-krm itself (its config as the last of its `transformers:`), built without that
//   entry and rendered here with that config, as kustomize would have run it; osm-krm under `generators:` or
//   followed by other transformers is refused (what those do to its output cannot be shown);
// - any other directory: its manifest files (manifestDirectory.ts: .krmignore, links inside the root); a
//   ResourceList or v1 List file in it counts as its items; a YAML file that is no manifest (a Helm values
//   file: no apiVersion or kind in any document) is skipped and named on stderr;
// - a file: its objects, or a ResourceList's items and functionConfig;
// - nothing to render (an empty directory, only files that are not manifests) is an error naming what was
//   found. Every read goes through the file gate, inside the root allowedRoots.ts names for the PATH.
import { basename, dirname, resolve } from 'node:path';
import type { KrmObject } from '../krm/resourceList.ts';
import { CommandError, type CommandIO } from './commandIO.ts';
import { inputRoot, type FileBase } from './allowedRoots.ts';
import { chooseFunctionConfig, readConfigFile, type FoundObject } from './functionConfigSource.ts';
import {
  isInside,
  namedRealPath,
  relativeInside,
  resolveInside,
  rootAt,
  shownPath,
  targetKind,
  type Root,
} from './fileGate.ts';
import { kustomizationFileIn, kustomizeBuild } from './kustomizeBuild.ts';
import {
  KUSTOMIZATION_FILES,
  listManifestFiles,
  parseDocuments,
  parseManifests,
  readManifestFile,
  readManifestText,
  statePaths,
} from './manifestDirectory.ts';
import { isOsmConfig } from './renderManifests.ts';
import { isStateObject } from '../gitops/renderState.ts';
import { readTextInside } from './fileGate.ts';
import { untrustedLine } from './untrustedText.ts';
import { NodeBudget } from '../krm/inputBounds.ts';

export interface Inputs {
  /** Where every read of this PATH stays (its repository, or itself). */
  root: Root;
  /** PATH's directory (for a file, the one it is in), relative to the root. */
  dirRel: string;
  layout: 'plain' | 'kustomization' | 'file';
  /** The resources, without the config, in a stable order (file path, then document index). */
  objects: KrmObject[];
  /** The file (relative to PATH's directory) each object was read from, when known. */
  paths: Map<KrmObject, string>;
  config: KrmObject | undefined;
  /** Where the config's relative `{file: ...}` paths start. */
  fileBase: FileBase;
  /** The YAML nodes the run composed from its files, and may still compose (inputBounds.ts): later reads count too. */
  budget: NodeBudget;
}

export interface ReadOptions {
  /** The command, for notes on stderr. */
  command: string;
  /** A config file named on the command line (absolute, or relative to the working directory). */
  config?: string;
  /** How the config path is shown (as the user gave it). */
  configShown?: string;
  /** The config was named by the inputs' side (Argo CD's `config` setting), not by whoever runs osm-krm: it must lie in the root. */
  configInsideRoot?: boolean;
  /** generate: the repository Argo CD unpacked is the root. */
  argoCD?: boolean;
  /** The root, when the command knows it (diff --git: the tree exported from REV). */
  root?: { path: string; label: string };
  /** The run's node budget, when the command reads more than this PATH (diff: both sides); a new one otherwise. */
  budget?: NodeBudget;
}

const ADVICE =
  'pass the directory that holds the OperatingSystemProfiles and MachineDeployments (or a ResourceList file)';

export function readInputs(pathArg: string, io: CommandIO, opts: ReadOptions): Inputs {
  const abs = resolve(io.cwd, pathArg);
  const real = namedRealPath(abs);
  if (real === undefined) throw new CommandError(`${pathArg} does not exist`);
  const root =
    opts.root !== undefined ? rootAt(opts.root.path, opts.root.label) : inputRoot(real, pathArg, io.env, opts.argoCD);
  if (!isInside(real, root.real)) throw new CommandError(`${pathArg} is outside ${root.label}`);
  const kind = targetKind(real);
  if (kind !== 'directory' && kind !== 'file')
    throw new CommandError(`${pathArg} is neither a directory nor a regular file`);
  const dir = kind === 'directory' ? real : dirname(real);
  const dirRel = relativeInside(root, dir);
  const defaultBase: FileBase = { root, dir };
  // Every file this PATH is read from counts against one budget: many small files cost what many small items do.
  const budget = opts.budget ?? new NodeBudget();
  const explicit = opts.config === undefined ? undefined : readExplicitConfig(opts, io, root, dir, budget);
  const explicitReal = explicit?.real;

  if (kind === 'file') {
    const rel = relativeInside(root, real);
    // Objects name the file as it is called in its directory (results then say `(file.yaml)`).
    const read = readManifestFile(root, rel, budget, basename(real));
    if (read.notManifest)
      throw new CommandError(
        `${pathArg} is not a Kubernetes manifest (no document has an apiVersion or a kind); ${ADVICE}`,
      );
    const found = read.objects.map((o) => ({ object: o.object, path: pathArg, real }));
    const candidates =
      read.functionConfig === undefined ? [] : [{ object: read.functionConfig, path: pathArg, real, asIs: true }];
    const chosen = chooseFunctionConfig(pathArg, found, candidates, explicit, defaultBase, basename(real));
    const objects = found.map((f) => f.object).filter((o) => !isOsmConfig(o));
    if (objects.length === 0)
      throw new CommandError(
        `${pathArg} holds no Kubernetes objects${chosen.config ? ' besides the config' : ''}; ${ADVICE}`,
      );
    return {
      root,
      dirRel,
      layout: 'file',
      objects,
      paths: new Map(objects.map((o) => [o, pathArg])),
      config: chosen.config,
      fileBase: chosen.base,
      budget,
    };
  }

  const kustomization = kustomizationFileIn(dir);
  if (kustomization !== undefined) {
    const transformer = osmKrmTransformer(root, dir, kustomization, pathArg, budget);
    const built = parseManifests(
      kustomizeBuild(root, dirRel, io, { budget, ...(transformer ? { dropTransformer: transformer.entry } : {}) }),
      'kustomize build output',
      budget,
    );
    const objects = built.filter((o) => !isOsmConfig(o));
    // kustomize drops local-config resources: a state marked so is read from disk beside the kustomization.
    if (!objects.some(isStateObject)) {
      for (const p of statePaths()) {
        if (targetKind(resolveInside(root, dir, p, shownPath(root, `${dirRel ? `${dirRel}/` : ''}${p}`))) !== 'file')
          continue;
        for (const o of readManifestFile(root, join2(dirRel, p), budget, p).objects) objects.push(o.object);
      }
    }
    const found = scanForConfigs(root, dirRel, [explicitReal, transformer?.config.real], budget);
    const candidates = transformer ? [transformer.config] : [];
    const chosen = chooseFunctionConfig(pathArg, found, candidates, explicit, defaultBase);
    if (objects.length === 0) throw new CommandError(`kustomize build of ${pathArg} gave no objects; ${ADVICE}`);
    return {
      root,
      dirRel,
      layout: 'kustomization',
      objects,
      paths: new Map(),
      config: chosen.config,
      fileBase: chosen.base,
      budget,
    };
  }

  const found: FoundObject[] = [];
  const candidates: FoundObject[] = [];
  const skipped: string[] = [];
  const files = listManifestFiles(root, dirRel);
  for (const rel of files) {
    const fileReal = resolveInside(root, dir, rel);
    if (fileReal === explicitReal) continue;
    if (KUSTOMIZATION_FILES.includes(basename(rel))) continue; // a nested kustomization is not a resource
    const read = readManifestFile(root, join2(dirRel, rel), budget, rel);
    if (read.notManifest) {
      skipped.push(rel);
      continue;
    }
    for (const o of read.objects) found.push({ object: o.object, path: rel, real: fileReal });
    if (read.functionConfig !== undefined)
      candidates.push({ object: read.functionConfig, path: rel, real: fileReal, asIs: true });
  }
  for (const rel of skipped)
    io.stderr(
      `osm-krm ${opts.command}: note: ${untrustedLine(shownPath(root, join2(dirRel, rel)))} is not a Kubernetes manifest (no apiVersion or kind): skipped; list it in .krmignore to say so\n`,
    );
  const chosen = chooseFunctionConfig(pathArg, found, candidates, explicit, defaultBase);
  const inputs = found.filter((f) => !isOsmConfig(f.object));
  if (inputs.length === 0) {
    const why =
      skipped.length > 0
        ? `: ${skipped.map(untrustedLine).join(', ')} ${skipped.length > 1 ? 'are' : 'is'} not a Kubernetes manifest`
        : files.length === 0
          ? ' (no *.yaml or *.yml file)'
          : chosen.config
            ? ' besides the config'
            : '';
    throw new CommandError(`${pathArg} holds no Kubernetes objects${why}; ${ADVICE}`);
  }
  return {
    root,
    dirRel,
    layout: 'plain',
    objects: inputs.map((f) => f.object),
    paths: new Map(inputs.map((f) => [f.object, f.path])),
    config: chosen.config,
    fileBase: chosen.base,
    budget,
  };
}

const join2 = (a: string, b: string) => (a === '' ? b : `${a}/${b}`);

function readExplicitConfig(opts: ReadOptions, io: CommandIO, root: Root, dir: string, budget: NodeBudget) {
  const abs = resolve(io.cwd, opts.config!);
  const shown = opts.configShown ?? opts.config!;
  const read = readConfigFile(abs, shown, root, io.env, budget, opts.configInsideRoot === true);
  const annotateAs = read.real.startsWith(dir + '/') ? read.real.slice(dir.length + 1) : shown;
  return { ...read, annotateAs };
}

/** kustomize drops local-config objects, so look for configs in the files themselves (unreadable ones skipped). */
function scanForConfigs(
  root: Root,
  dirRel: string,
  skip: ReadonlyArray<string | undefined>,
  budget: NodeBudget,
): FoundObject[] {
  const found: FoundObject[] = [];
  for (const rel of listManifestFiles(root, dirRel)) {
    const real = resolveInside(root, root.real, join2(dirRel, rel));
    if (skip.includes(real)) continue;
    let objects;
    try {
      objects = readManifestFile(root, join2(dirRel, rel), budget, rel).objects;
    } catch (e) {
      if (budget.reached) throw e; // the run's bound, not a file of another kind
      continue; // patches and other non-manifest YAML of a kustomization
    }
    for (const o of objects) found.push({ object: o.object, path: rel, real });
  }
  return found;
}

const FUNCTION_ANNOTATIONS = ['config.kubernetes.io/function', 'config.k8s.io/function'];

/** Whether an object is osm-krm's config as kustomize would run it: our kind, or a function annotation naming osm-krm. */
function runsOsmKrm(o: KrmObject): boolean {
  if (isOsmConfig(o)) return true;
  const a = o.metadata?.annotations ?? {};
  return FUNCTION_ANNOTATIONS.some((k) => typeof a[k] === 'string' && /osm-krm/.test(a[k] as string));
}

/**
 * osm-krm as a transformer of the kustomization in `dir`: the entry and its config, when it is the last one.
 * Anywhere else it is refused: a generator gets only its own config from kustomize, and transformers after it
 * would change an output osm-krm cannot show.
 */
function osmKrmTransformer(
  root: Root,
  dir: string,
  file: string,
  pathArg: string,
  budget: NodeBudget,
): { entry: string; config: FoundObject } | undefined {
  const rel = relativeInside(root, `${dir}/${file}`);
  const shown = shownPath(root, rel);
  const doc = parseDocuments(readTextInside(root, rel, shown), shown, budget)[0] as
    Record<string, unknown> | null | undefined;
  if (doc === null || doc === undefined || typeof doc !== 'object') return undefined;
  const ours = (field: string) => {
    const list = doc[field];
    if (!Array.isArray(list)) return [];
    return list.flatMap((entry, index) => {
      if (typeof entry !== 'string' || entry.includes('\n')) return [];
      let real: string;
      try {
        real = resolveInside(root, dir, entry, `${shown}: ${field}[${index}]`);
      } catch {
        return [];
      }
      if (targetKind(real) !== 'file') return [];
      let read;
      try {
        read = readManifestText(readTextInside(root, relativeInside(root, real)), entry, budget);
      } catch (e) {
        if (budget.reached) throw e;
        return [];
      }
      const o = read.objects.find((x) => runsOsmKrm(x.object));
      return o === undefined
        ? []
        : [{ entry, index, last: index === list.length - 1, config: { object: o.object, path: entry, real } }];
    });
  };
  const generator = ours('generators')[0];
  if (generator !== undefined) {
    throw new CommandError(
      `${shown} runs osm-krm under generators: (${generator.entry}), where kustomize gives it only its own config: list it under transformers:, or pass the directory its resources come from with --config ${generator.entry}`,
    );
  }
  const transformer = ours('transformers')[0];
  if (transformer === undefined) return undefined;
  if (!transformer.last) {
    throw new CommandError(
      `${shown} runs osm-krm as a transformer (${transformer.entry}) with others after it, which change its output in ways osm-krm cannot show: run kustomize build --enable-alpha-plugins ${pathArg} instead, or make osm-krm the last transformer`,
    );
  }
  return { entry: transformer.entry, config: transformer.config };
}
