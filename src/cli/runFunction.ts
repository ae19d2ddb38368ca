// The KRM function as a process: ResourceList on stdin, ResourceList on stdout, exit 1 on error results.
// Diagnostics go to stderr; stdout only ever holds a ResourceList.
import { readFileSync } from 'node:fs';
import { parseResourceList, ResourceListParseError, serializeResourceList, writeResourceList } from '../krm/resourceList.ts';
import { processResourceList } from '../function/processResourceList.ts';
import { hasErrors } from '../krm/results.ts';
import type { Environment } from '../cluster/valueSource.ts';

export interface ProcessIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Environment;
}

export const processEnvironment: Environment = {
  env: (name) => process.env[name],
  readFile: (path) => readFileSync(path, 'utf8'),
};

/** Runs the function on one ResourceList text; returns the exit code. */
export function runFunction(input: string, io: ProcessIO): number {
  let list;
  try {
    list = parseResourceList(input);
  } catch (e) {
    const message = e instanceof ResourceListParseError ? e.message : `cannot read input: ${(e as Error).message}`;
    io.stdout(serializeResourceList({ itemIndent: 0 }, { kept: [], generated: [], results: [{ severity: 'error', message }] }));
    io.stderr(`osm-krm: ${message}\n`);
    return 1;
  }
  const out = processResourceList(list, io.env);
  writeResourceList(list, out, io.stdout);
  for (const r of out.results) {
    if (r.severity === 'error') io.stderr(`osm-krm: error: ${describe(r)}\n`);
  }
  return hasErrors(out.results) ? 1 : 0;
}

function describe(r: { message: string; resourceRef?: { kind: string; name: string; namespace?: string }; field?: { path: string }; file?: { path: string } }): string {
  const where = [
    r.resourceRef ? `${r.resourceRef.kind} ${r.resourceRef.namespace ? r.resourceRef.namespace + '/' : ''}${r.resourceRef.name}` : '',
    r.field ? r.field.path : '',
    r.file ? `(${r.file.path})` : '',
  ].filter(Boolean).join(' ');
  return where ? `${where}: ${r.message}` : r.message;
}
