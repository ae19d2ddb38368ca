// The inputs of `render` and `diff`: what `generate`/`hydrate` read from a directory (plain or kustomization,
// config found there or named), or a file: a ResourceList (what kpt and kustomize send the function) or a
// stream of manifests.
import { statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { CommandError, type CommandIO } from '../cli/commandIO.ts';
import { chooseFunctionConfig, readConfigFile } from '../cli/functionConfigSource.ts';
import { readManifestDirectory, readManifestFile } from '../cli/manifestDirectory.ts';
import { isOsmConfig } from '../cli/renderManifests.ts';
import type { ReviewInputs } from './renderForReview.ts';
import { containedPath } from '../cli/containedPath.ts';
import { readTextFileBounded } from '../krm/inputBounds.ts';

/** A file below `root` (an input's path annotation), read within the input bounds; undefined when it cannot be. */
function readContained(root: string, rel: string): string | undefined {
  try {
    return readTextFileBounded(containedPath(root, rel, 'PATH'), rel);
  } catch {
    return undefined;
  }
}

export function readReviewInputs(path: string, io: CommandIO, configFile?: string): ReviewInputs {
  const abs = resolve(io.cwd, path);
  const config = configFile === undefined ? undefined : resolve(io.cwd, configFile);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new CommandError(`${path} does not exist`);
  }
  if (st.isDirectory()) {
    const input = readManifestDirectory(abs, io, config === undefined ? [] : [config]);
    const chosen = chooseFunctionConfig(abs, input, config);
    return { objects: chosen.objects, functionConfig: chosen.config, sourceText: (rel) => readContained(abs, rel) };
  }
  const objects = readManifestFile(dirname(abs), relative(dirname(abs), abs));
  const list = objects.length === 1 && objects[0]!.kind === 'ResourceList' ? objects[0]! : undefined;
  if (list !== undefined) {
    const items = Array.isArray(list.items) ? (list.items as ReviewInputs['objects']) : [];
    const fc = config === undefined ? (list.functionConfig as ReviewInputs['functionConfig']) : readConfigFile(config);
    return { objects: items, functionConfig: fc ?? undefined };
  }
  const fc = config === undefined ? objects.find(isOsmConfig) : readConfigFile(config);
  return { objects: objects.filter((o) => !isOsmConfig(o)), functionConfig: fc };
}
