// The inputs of `render` and `diff`: PATH read by the one reader every command uses (src/cli/readInputs.ts: a
// directory, plain or a kustomization, its config found there or named; or a file, a ResourceList or a stream
// of manifests), the mounted secrets applied as `generate` applies them, and the function's view of the
// process with `{file: ...}` sources read through the file gate from the config file's directory.
import type { Environment } from '../cluster/valueSource.ts';
import type { CommandIO } from '../cli/commandIO.ts';
import { readInputs, type Inputs, type ReadOptions } from '../cli/readInputs.ts';
import { applyMountedSecrets } from '../cli/clusterSecrets.ts';
import { gatedEnvironment } from '../cli/allowedRoots.ts';
import { checkFactsNotDropped } from '../cli/droppedByKustomize.ts';
import type { ReviewInputs } from './renderForReview.ts';
import { readTextInside } from '../cli/fileGate.ts';
import { posix } from 'node:path';

/** An input file's text by its path annotation (relative to PATH's directory), through the file gate; undefined when it cannot be read. */
function readSource(read: Inputs, rel: string): string | undefined {
  if (read.layout !== 'plain') return undefined;
  try {
    return readTextInside(read.root, posix.join(read.dirRel, rel));
  } catch {
    return undefined;
  }
}

export function readReviewInputs(
  path: string,
  io: CommandIO,
  opts: ReadOptions,
): { inputs: ReviewInputs; env: Environment; read: Inputs } {
  const read = readInputs(path, io, opts);
  const functionConfig = applyMountedSecrets(read.config, io.env);
  checkFactsNotDropped(read, functionConfig);
  return {
    inputs: { objects: read.objects, functionConfig, sourceText: (rel) => readSource(read, rel) },
    env: gatedEnvironment(io.env, read.fileBase),
    read,
  };
}
