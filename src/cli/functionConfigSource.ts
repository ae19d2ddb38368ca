// Which functionConfig a PATH-based command uses: an explicit file, or else the one `OperatingSystemManager`
// found with the inputs (as a kpt package keeps its configPath file), or a ResourceList's functionConfig, or
// the config osm-krm runs with as a kustomization's transformer. Its file's directory is where its relative
// `{file: ...}` paths start (allowedRoots.ts).
import { dirname, resolve } from 'node:path';
import type { KrmObject } from '../krm/resourceList.ts';
import { CommandError, type CommandIO } from './commandIO.ts';
import { inputRoot, type FileBase } from './allowedRoots.ts';
import { isInside, namedRealPath, relativeInside, resolveInside, targetKind, type Root } from './fileGate.ts';
import { readManifestFile, withSourceAnnotations } from './manifestDirectory.ts';
import { isOsmConfig } from './renderManifests.ts';
import { configLookalike } from './configLookalike.ts';
import type { NodeBudget } from '../krm/inputBounds.ts';

/** An object found with the inputs, with the file it came from (relative to PATH's directory) and that file's real path. */
export interface FoundObject {
  object: KrmObject;
  path: string;
  real: string;
  /** A ResourceList's functionConfig is taken as it is, like its items: no path annotation of ours. */
  asIs?: boolean;
}

export interface ChosenConfig {
  /** undefined: no config anywhere, the function's defaults apply. */
  config: KrmObject | undefined;
  /** Where the config's relative `{file: ...}` paths start. */
  base: FileBase;
}

/**
 * Reads a config file named on the command line (or by Argo CD's `config` setting): exactly one object, a
 * typed OperatingSystemManager or a ConfigMap of OSM flags. Inside the input's root its links must stay inside
 * it, like any file there; a path elsewhere is the user's own choice and is followed, and its own root (its
 * repository, or its directory) holds what it names.
 */
export function readConfigFile(
  path: string,
  shown: string,
  root: Root,
  env: CommandIO['env'],
  budget: NodeBudget,
  insideRoot = false,
): { object: KrmObject; base: FileBase; real: string } {
  const abs = resolve(path);
  let fileRoot = root;
  let real: string;
  if (isInside(abs, root.named) || isInside(abs, root.real)) {
    const from = isInside(abs, root.real) ? root.real : root.named;
    real = resolveInside(root, root.real, abs.slice(from.length + 1), shown);
  } else if (insideRoot) {
    throw new CommandError(
      `config file ${shown} is outside ${root.label}: the plugin setting "config" may only name a file of the application's repository`,
    );
  } else {
    const named = namedRealPath(abs);
    if (named === undefined) throw new CommandError(`config file ${shown} does not exist`);
    fileRoot = inputRoot(named, shown, env);
    real = named;
  }
  if (targetKind(real) === 'missing') throw new CommandError(`config file ${shown} does not exist`);
  const read = readManifestFile(fileRoot, relativeInside(fileRoot, real), budget, shown);
  const objects = read.objects.map((o) => o.object);
  if (objects.length !== 1 || read.functionConfig !== undefined)
    throw new CommandError(`config file ${shown} must hold exactly one object, found ${objects.length}`);
  return { object: objects[0]!, base: { root: fileRoot, dir: dirname(real) }, real };
}

function withoutPath(o: KrmObject): KrmObject {
  return withSourceAnnotations(o, '', 0);
}

/**
 * The config among what was found (every object read with the inputs, and any ResourceList functionConfig),
 * or the explicit one. A look-alike is an error: the user meant a config.
 */
export function chooseFunctionConfig(
  dirShown: string,
  found: readonly FoundObject[],
  candidates: readonly FoundObject[],
  explicit: { object: KrmObject; base: FileBase; annotateAs: string } | undefined,
  defaultBase: FileBase,
  /** How a config found among the objects is named in its annotation (default: its path in the directory). */
  annotateAs?: string,
): ChosenConfig {
  for (const { object, path } of found) {
    const lookalike = isOsmConfig(object) ? undefined : configLookalike(object);
    if (lookalike !== undefined) {
      throw new CommandError(
        `${path}: ${String(object.kind)} ${String(object.metadata?.name ?? '')}: ${lookalike.why} (field ${lookalike.field})`,
      );
    }
  }
  if (explicit !== undefined)
    return { config: withSourceAnnotations(explicit.object, explicit.annotateAs, 0), base: explicit.base };
  const all = [...found.filter((c) => isOsmConfig(c.object)), ...candidates];
  // One file can be found twice (a kustomization's transformer file is also a file of the directory).
  const key = (c: FoundObject) => `${c.real}\n${JSON.stringify(withoutPath(c.object))}`;
  const distinct = all.filter((c, i) => all.findIndex((d) => key(d) === key(c)) === i);
  if (distinct.length > 1) {
    throw new CommandError(
      `several OperatingSystemManager configs in ${dirShown} (${distinct.map((c) => c.path).join(', ')}); name one explicitly`,
    );
  }
  const chosen = distinct[0];
  if (chosen === undefined) return { config: undefined, base: defaultBase };
  // The path annotation lets the function's results name the config's file.
  return {
    config: chosen.asIs ? chosen.object : withSourceAnnotations(chosen.object, annotateAs ?? chosen.path, 0),
    base: { root: defaultBase.root, dir: dirname(chosen.real) },
  };
}
