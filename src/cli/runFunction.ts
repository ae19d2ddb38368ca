// The KRM function as a process: ResourceList on stdin, ResourceList on stdout, exit 1 on error results.
// Diagnostics go to stderr; stdout only ever holds a ResourceList, whatever the input (too big, not UTF-8,
// nested too deeply: an error result, never an empty stdout).
import { readFileSync } from 'node:fs';
import { parseResourceList, ResourceListParseError, serializeResourceList, writeResourceList, type KrmObject } from '../krm/resourceList.ts';
import { decodeUtf8, InputLimitError, InvalidUtf8Error, readAllBounded } from '../krm/inputBounds.ts';
import { processResourceList } from '../function/processResourceList.ts';
import { fileOf, refOf } from '../krm/resultFor.ts';
import { hasErrors, type Result } from '../krm/results.ts';
import type { Environment } from '../cluster/valueSource.ts';
import { untrustedLine } from './untrustedText.ts';
import { systemClock } from './clock.ts';

export interface ProcessIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Environment;
}

export const processEnvironment: Environment = {
  env: (name) => process.env[name],
  readFile: (path) => readFileSync(path, 'utf8'),
  now: systemClock,
};

const INPUT = 'the input';

/** Runs the function on the ResourceList read from a file descriptor (stdin); returns the exit code. */
export function runFunctionOnFd(fd: number, io: ProcessIO): number {
  let bytes: Uint8Array;
  try {
    bytes = readAllBounded(fd, INPUT);
  } catch (e) {
    if (!(e instanceof InputLimitError)) throw e;
    return refuseInput({ severity: 'error', message: e.message }, io);
  }
  return runFunction(bytes, io);
}

/** Runs the function on one ResourceList (text, or bytes that must be UTF-8); returns the exit code. */
export function runFunction(input: string | Uint8Array, io: ProcessIO): number {
  let list;
  try {
    list = parseResourceList(typeof input === 'string' ? input : decodeUtf8(input, INPUT));
  } catch (e) {
    if (e instanceof InvalidUtf8Error) return refuseInput(invalidUtf8Result(e, input as Uint8Array), io);
    const message = e instanceof ResourceListParseError || e instanceof InputLimitError ? e.message : `cannot read input: ${(e as Error).message}`;
    return refuseInput({ severity: 'error', message }, io);
  }
  const out = processResourceList(list, io.env);
  writeResourceList(list, out, io.stdout);
  for (const r of out.results) {
    if (r.severity === 'error') io.stderr(`osm-krm: error: ${untrustedLine(describe(r))}\n`);
  }
  return hasErrors(out.results) ? 1 : 0;
}

function refuseInput(result: Result, io: ProcessIO): number {
  io.stdout(serializeResourceList({ itemIndent: 0 }, { kept: [], generated: [], results: [result] }));
  io.stderr(`osm-krm: ${untrustedLine(describe(result))}\n`);
  return 1;
}

/** The error for bytes that are not UTF-8, naming the item that holds them when the rest can be read. */
function invalidUtf8Result(e: InvalidUtf8Error, bytes: Uint8Array): Result {
  const result: Result = { severity: 'error', message: e.message };
  try {
    // Read once more with the bad bytes as U+FFFD, only to find the item: the first one holding U+FFFD.
    const lossy = parseResourceList(Buffer.from(bytes).toString('utf8'));
    const item = lossy.items.find((i) => JSON.stringify(i.object).includes('\uFFFD'));
    if (item !== undefined) {
      result.resourceRef = refOf(item.object as KrmObject);
      Object.assign(result, fileOf(item.object as KrmObject));
      result.message = `${e.message} (in items[${item.index}])`;
    }
  } catch {
    // Unreadable even so: the line and column are all there is.
  }
  return result;
}

function describe(r: { message: string; resourceRef?: { kind: string; name: string; namespace?: string }; field?: { path: string }; file?: { path: string } }): string {
  const where = [
    r.resourceRef ? `${r.resourceRef.kind} ${r.resourceRef.namespace ? r.resourceRef.namespace + '/' : ''}${r.resourceRef.name}` : '',
    r.field ? r.field.path : '',
    r.file ? `(${r.file.path})` : '',
  ].filter(Boolean).join(' ');
  return where ? `${where}: ${r.message}` : r.message;
}
