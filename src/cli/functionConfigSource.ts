// Which functionConfig a directory-based command uses: an explicit file, or else the one
// `OperatingSystemManager` object found in the directory (as a kpt package keeps its configPath file).
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { KrmObject } from '../io/resourceList.ts';
import { CommandError } from './commandIO.ts';
import { listYamlFiles, readManifestFile, type ManifestDirectory } from './manifestDirectory.ts';
import { isOsmConfig, pathAnnotationOf } from './renderManifests.ts';

export interface ChosenConfig {
  /** undefined: no config anywhere, the function's defaults apply. */
  config: KrmObject | undefined;
  /** The directory's objects without any OperatingSystemManager (it is never a manifest). */
  objects: KrmObject[];
}

/** Reads a config file: exactly one object, a typed OperatingSystemManager or a ConfigMap of OSM flags. */
export function readConfigFile(path: string): KrmObject {
  if (!existsSync(path)) throw new CommandError(`config file ${path} does not exist`);
  const dir = resolve(path, '..');
  const objects = readManifestFile(dir, relative(dir, path));
  if (objects.length !== 1) throw new CommandError(`config file ${path} must hold exactly one object, found ${objects.length}`);
  return objects[0]!;
}

export function chooseFunctionConfig(dir: string, input: ManifestDirectory, explicitFile: string | undefined): ChosenConfig {
  const objects = input.objects.filter((o) => !isOsmConfig(o));
  if (explicitFile !== undefined) return { config: readConfigFile(explicitFile), objects };
  const candidates = input.layout === 'plain' ? input.objects.filter(isOsmConfig) : scanForConfigs(dir);
  if (candidates.length > 1) {
    const where = candidates.map((c) => pathAnnotationOf(c) ?? '?').join(', ');
    throw new CommandError(`several OperatingSystemManager configs in ${dir} (${where}); name one explicitly`);
  }
  return { config: candidates[0], objects };
}

/** kustomize drops local-config objects, so look for the config in the files themselves. */
function scanForConfigs(dir: string): KrmObject[] {
  const found: KrmObject[] = [];
  for (const rel of listYamlFiles(dir)) {
    let objects: KrmObject[];
    try {
      objects = readManifestFile(dir, rel);
    } catch {
      continue; // patches and other non-manifest YAML of a kustomization
    }
    found.push(...objects.filter(isOsmConfig));
  }
  return found;
}
