// The KRM function as a process: ResourceList on stdin, ResourceList on stdout, exit 1 on error results.
// Diagnostics go to stderr; stdout only ever holds a ResourceList, whatever the input (too big, not UTF-8,
// nested too deeply: an error result, never an empty stdout).
import {
  parseResourceList,
  ResourceListParseError,
  serializeResourceList,
  writeResourceList,
  type KrmObject,
} from '../krm/resourceList.ts';
import { decodeUtf8, InputLimitError, InvalidUtf8Error, type NodeBudget } from '../krm/inputBounds.ts';
import { readDescriptor } from './fileGate.ts';
import { gatedEnvironment, workingDirectoryBase } from './allowedRoots.ts';
import { processResourceList } from '../function/processResourceList.ts';
import { resultAbout } from '../krm/resultFor.ts';
import { hasErrors, type Result } from '../krm/results.ts';
import type { Environment } from '../cluster/valueSource.ts';
import { untrustedLine } from './untrustedText.ts';
import { SecretRegistry } from '../krm/redactSecrets.ts';
import { illFormedPath } from '../codec/wellFormedUnicode.ts';
import { systemClock } from './clock.ts';

export interface ProcessIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Environment;
  /** The mask stderr is printed through, filled by the run (CommandIO.secrets); a new one when not given. */
  secrets?: SecretRegistry;
}

/**
 * The process as the KRM function sees it under kustomize and kpt: its environment, and `{file: ...}` sources
 * read through the file gate (relative ones from the working directory, inside its work tree; absolute ones in
 * the secrets directory or OSM_KRM_FILE_ROOTS: allowedRoots.ts).
 */
export function processEnvironment(): Environment {
  let base: ReturnType<typeof workingDirectoryBase> | null = null;
  return {
    env: (name) => process.env[name],
    readFile: (path) => {
      if (base === null) base = workingDirectoryBase(process.cwd(), process.env);
      return gatedEnvironment(process.env, base).readFile(path);
    },
    // The Dockerfile's function image says so (OSM_KRM_IMAGE): kustomize and kpt pass in only the variables named.
    inFunctionContainer: process.env.OSM_KRM_IMAGE === 'function',
    now: systemClock,
  };
}

const INPUT = 'the input';

/** Runs the function on the ResourceList read from a file descriptor (stdin); returns the exit code. */
export function runFunctionOnFd(fd: number, io: ProcessIO): number {
  let bytes: Uint8Array;
  try {
    bytes = readDescriptor(fd, INPUT);
  } catch (e) {
    if (!(e instanceof InputLimitError)) throw e;
    return refuseInput({ severity: 'error', message: e.message }, io);
  }
  return runFunction(bytes, io);
}

/**
 * What the function prints on stderr besides its ResourceList: errors and warnings. kustomize shows a function's
 * stderr but never its results, so a warning only there would be lost (kpt shows both).
 */
const STDERR_SEVERITIES: ReadonlySet<string> = new Set(['error', 'warning']);

/**
 * Runs the function on one ResourceList (text, or bytes that must be UTF-8); returns the exit code. `printed`:
 * the severities whose results go to stderr (a caller that prints the rest itself passes its own). `budget`:
 * the YAML nodes the input may hold (inputBounds.ts; a new budget when not given); a command passes its own
 * when it made the input from objects it read and counted.
 */
export function runFunction(
  input: string | Uint8Array,
  rawIO: ProcessIO,
  printed: ReadonlySet<string> = STDERR_SEVERITIES,
  budget?: NodeBudget,
): number {
  const secrets = rawIO.secrets ?? new SecretRegistry([untrustedLine]);
  const io = { ...rawIO, secrets, stderr: (s: string) => rawIO.stderr(secrets.redact(s)) };
  let list;
  try {
    list = parseResourceList(typeof input === 'string' ? input : decodeUtf8(input, INPUT), budget);
  } catch (e) {
    if (e instanceof InvalidUtf8Error) return refuseInput(invalidUtf8Result(e, input as Uint8Array), io);
    const message =
      e instanceof ResourceListParseError || e instanceof InputLimitError
        ? e.message
        : `cannot read input: ${(e as Error).message}`;
    return refuseInput({ severity: 'error', message }, io);
  }
  // An item that is written back from its values (not its text) cannot hold invalid Unicode: UTF-8 has no
  // bytes for it. The whole input is refused, naming the item and field, rather than the item mangled.
  for (const item of list.items) {
    const bad = item.sourceText === undefined ? illFormedPath(item.object) : undefined;
    if (bad === undefined) continue;
    return refuseInput(
      resultAbout(
        item.object,
        'error',
        `items[${item.index}] ${bad}: not valid Unicode (a lone surrogate, e.g. from a "\\ud800" escape): it cannot be written back, and is never written as U+FFFD`,
        bad,
      ),
      io,
    );
  }
  const out = processResourceList(list, io.env, undefined, secrets);
  writeResourceList(list, out, io.stdout);
  for (const r of out.results) {
    if (printed.has(r.severity)) io.stderr(`osm-krm: ${r.severity}: ${untrustedLine(describe(r))}\n`);
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
  try {
    // Read once more with the bad bytes as U+FFFD, only to find the item: the first one holding U+FFFD.
    const lossy = parseResourceList(Buffer.from(bytes).toString('utf8'));
    const item = lossy.items.find((i) => JSON.stringify(i.object).includes('\uFFFD'));
    if (item !== undefined)
      return resultAbout(item.object as KrmObject, 'error', `${e.message} (in items[${item.index}])`);
  } catch {
    // Unreadable even so: the line and column are all there is.
  }
  return resultAbout(undefined, 'error', e.message);
}

function describe(r: {
  message: string;
  resourceRef?: { kind: string; name: string; namespace?: string };
  field?: { path: string };
  file?: { path: string };
}): string {
  const where = [
    r.resourceRef
      ? `${r.resourceRef.kind} ${r.resourceRef.namespace ? r.resourceRef.namespace + '/' : ''}${r.resourceRef.name}`
      : '',
    r.field ? r.field.path : '',
    r.file ? `(${r.file.path})` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return where ? `${where}: ${r.message}` : r.message;
}
