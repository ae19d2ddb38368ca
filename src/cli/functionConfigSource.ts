// Which functionConfig a directory-based command uses: an explicit file, or else the one
// `OperatingSystemManager` object found in the directory (as a kpt package keeps its configPath file).
import { existsSync, realpathSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { isInside } from './containedPath.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { CommandError } from './commandIO.ts';
import { listYamlFiles, readManifestFile, withSourceAnnotations, type ManifestDirectory } from './manifestDirectory.ts';
import { isOsmConfig } from './renderManifests.ts';
import { configLookalike } from './configLookalike.ts';

export interface ChosenConfig {
  /** undefined: no config anywhere, the function's defaults apply. */
  config: KrmObject | undefined;
  /** The directory's objects without any OperatingSystemManager (it is never a manifest). */
  objects: KrmObject[];
}

/**
 * Reads a config file: exactly one object, a typed OperatingSystemManager or a ConfigMap of OSM flags. Inside
 * the directory being read (`within`: SRC, the app directory) its links must stay inside it, like any file
 * there; a path elsewhere is the user's own choice and is followed.
 */
export function readConfigFile(path: string, within?: string): KrmObject {
  if (!existsSync(path)) throw new CommandError(`config file ${path} does not exist`);
  const inside = within !== undefined && isInside(resolve(path), resolve(within));
  const real = inside ? path : realpathSync(path);
  const dir = inside ? within : dirname(real);
  const objects = readManifestFile(dir, relative(dir, real).split(sep).join('/'));
  if (objects.length !== 1) throw new CommandError(`config file ${path} must hold exactly one object, found ${objects.length}`);
  return objects[0]!;
}

export function chooseFunctionConfig(dir: string, input: ManifestDirectory, explicitFile: string | undefined): ChosenConfig {
  const found =
    input.layout === 'plain'
      ? input.objects.map((object) => ({ object, path: input.paths.get(object) ?? '?' }))
      : scanFiles(dir, explicitFile);
  // A look-alike is never a manifest to pass on silently: the user meant a config.
  for (const { object, path } of found) {
    const lookalike = isOsmConfig(object) ? undefined : configLookalike(object);
    if (lookalike !== undefined) {
      throw new CommandError(`${path}: ${String(object.kind)} ${String(object.metadata?.name ?? '')}: ${lookalike.why} (field ${lookalike.field})`);
    }
  }
  const objects = input.objects.filter((o) => !isOsmConfig(o));
  if (explicitFile !== undefined) {
    return { config: withSourceAnnotations(readConfigFile(explicitFile, dir), relative(dir, explicitFile).split(sep).join('/'), 0), objects };
  }
  const candidates = found.filter((c) => isOsmConfig(c.object));
  if (candidates.length > 1) {
    throw new CommandError(`several OperatingSystemManager configs in ${dir} (${candidates.map((c) => c.path).join(', ')}); name one explicitly`);
  }
  const chosen = candidates[0];
  // The path annotation lets the function's results name the config's file.
  return { config: chosen === undefined ? undefined : withSourceAnnotations(chosen.object, chosen.path, 0), objects };
}

/** kustomize drops local-config objects, so look for configs in the files themselves (but the named one). */
function scanFiles(dir: string, skipFile: string | undefined): Array<{ object: KrmObject; path: string }> {
  const found: Array<{ object: KrmObject; path: string }> = [];
  for (const rel of listYamlFiles(dir)) {
    if (skipFile !== undefined && resolve(dir, rel) === resolve(skipFile)) continue;
    let objects: KrmObject[];
    try {
      objects = readManifestFile(dir, rel);
    } catch {
      continue; // patches and other non-manifest YAML of a kustomization
    }
    for (const object of objects) found.push({ object, path: rel });
  }
  return found;
}
