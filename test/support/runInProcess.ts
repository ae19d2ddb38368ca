// Runs the KRM function in-process on a ResourceList and returns its output, parsed.
import { parse, stringify } from 'yaml';
import { runFunction } from '../../src/cli/runFunction.ts';
import type { Environment } from '../../src/cluster/valueSource.ts';

export interface FunctionRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  items: any[];
  results: any[];
}

export const noEnvironment: Environment = {
  env: () => undefined,
  readFile: (p) => {
    throw Object.assign(new Error(`no such file ${p}`), { code: 'ENOENT' });
  },
};

export function runOn(resourceList: unknown, env: Environment = noEnvironment): FunctionRun {
  const text = typeof resourceList === 'string' ? resourceList : stringify(resourceList, { lineWidth: 0 });
  let stdout = '';
  let stderr = '';
  const exitCode = runFunction(text, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env });
  const out = parse(stdout) as { items?: any[]; results?: any[] };
  return { exitCode, stdout, stderr, items: out.items ?? [], results: out.results ?? [] };
}

export function findItem(items: any[], kind: string, name: string): any {
  return items.find((i) => i.kind === kind && i.metadata?.name === name);
}

/** The object as OSM would have it: without the kpt path annotations we add for file placement. */
export function withoutPathAnnotations(obj: any): any {
  const copy = structuredClone(obj);
  const a = copy.metadata?.annotations;
  if (a) {
    for (const k of Object.keys(a))
      if (k.endsWith('kubernetes.io/path') || k.endsWith('kubernetes.io/index')) delete a[k];
    if (Object.keys(a).length === 0) delete copy.metadata.annotations;
  }
  return copy;
}
