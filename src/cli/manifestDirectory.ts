// The files of a manifest directory and the objects of one file, read through the file gate (fileGate.ts).
//
// The walk: every *.yaml / *.yml below the directory, sorted; dot-files and dot-directories skipped (so .git,
// .github and kpt's .expected are not read as manifests); `.krmignore` honoured as kpt honours it
// (krmIgnore.ts); symbolic links followed while they stay inside the allowed root, each real directory read
// once (a link loop, or links multiplying a tree, is an error naming the link); a YAML name that is not a
// regular file (a FIFO, a device) is an error.
//
// A file: each document an object carrying kpt's path/index annotations (the function recognises its own
// previous output and state, osm-generated/..., by them, and its results name the file). A `ResourceList` or a
// `v1` `List` is read as its items (and a ResourceList's functionConfig as a config candidate). A file none of
// whose documents has an apiVersion or a kind is not a manifest (a Helm values file): the caller skips it and
// says so; a document with only one of them is an error (a typo would otherwise drop a resource).
import { join } from 'node:path';
import type { Document } from 'yaml';
import { yamlErrorText } from '../krm/parseErrorMessage.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { parseInputDocuments } from '../krm/inputYaml.ts';
import { boundedToJS, InputLimitError, isStackOverflow, nestingError, type NodeBudget } from '../krm/inputBounds.ts';
import { generatedSharedPath } from '../function/generatedPaths.ts';
import { STATE_PATH } from '../gitops/renderState.ts';
import { CommandError } from './commandIO.ts';
import {
  entryKind,
  FileRefusedError,
  listDirectory,
  readTextInside,
  resolveInside,
  shownPath,
  type Root,
} from './fileGate.ts';
import { KPTFILE, KRMIGNORE_FILE, parseKrmIgnore, type KrmIgnore } from './krmIgnore.ts';

export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

const PATH_ANNOTATIONS = ['config.kubernetes.io/path', 'internal.config.kubernetes.io/path'];
const INDEX_ANNOTATIONS = ['config.kubernetes.io/index', 'internal.config.kubernetes.io/index'];

/** Where the function keeps its state, with and without the management/worker split. */
export function statePaths(): string[] {
  const file = STATE_PATH.slice('osm-generated/'.length);
  const probe = { apiVersion: 'v1', kind: 'ConfigMap' };
  return [generatedSharedPath(file, probe, false), generatedSharedPath(file, probe, true)];
}

const join2 = (a: string, b: string) => (a === '' ? b : `${a}/${b}`);

/**
 * The *.yaml / *.yml files below `dirRel` (a directory inside `root`, slash-separated, '' for the root), as
 * sorted paths relative to it, walked as described at the top.
 */
export function listManifestFiles(root: Root, dirRel: string, onProblem?: (message: string) => void): string[] {
  const out: string[] = [];
  const top = resolveInside(root, root.real, dirRel);
  const entered = new Map<string, string>([[top, '.']]); // real directory -> the path it was read as
  const show = (r: string) => shownPath(root, join2(dirRel, r));
  interface Package {
    base: string;
    ignore: KrmIgnore | undefined;
  }
  const packageAt = (real: string, rel: string): Package => {
    const file = join(real, KRMIGNORE_FILE);
    if (entryKind(file) === 'missing') return { base: rel, ignore: undefined };
    const r = join2(dirRel, join2(rel, KRMIGNORE_FILE));
    return { base: rel, ignore: parseKrmIgnore(readTextInside(root, r, shownPath(root, r))) };
  };
  const ignored = (pkg: Package, r: string, isDirectory: boolean) =>
    pkg.ignore !== undefined && pkg.ignore.ignores(pkg.base === '' ? r : r.slice(pkg.base.length + 1), isDirectory);
  // lint goes on past a file it cannot read (and reports it); every other reader stops there.
  const guarded = (step: () => void) => {
    if (onProblem === undefined) return step();
    try {
      step();
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      onProblem(e.message);
    }
  };
  const walk = (real: string, rel: string, pkg: Package) => {
    for (const { name, kind } of listDirectory(root, real, show(rel))) {
      if (name.startsWith('.')) continue;
      guarded(() => entry(real, rel, pkg, name, kind));
    }
  };
  const entry = (real: string, rel: string, pkg: Package, name: string, kind: string): void => {
    const r = join2(rel, name);
    let target = join(real, name);
    let targetKind = kind;
    if (kind === 'link') {
      target = resolveInside(root, real, name, show(r));
      targetKind = entryKind(target);
      if (targetKind === 'missing') return; // a dangling link is not a manifest
    }
    if (targetKind === 'directory') {
      if (ignored(pkg, r, true)) return;
      const seen = entered.get(target);
      if (seen !== undefined) {
        const loop = seen === '.' || r.startsWith(`${seen}/`);
        throw new CommandError(
          `symbolic link ${loop ? 'loop' : 'to a directory read already'}: ${show(r)} leads to ${seen === '.' ? show('') : show(seen)}; refusing to read it twice`,
        );
      }
      entered.set(target, r);
      // A subpackage (a Kptfile) has its own .krmignore; its parent's patterns stop at its top.
      walk(target, r, entryKind(join(target, KPTFILE)) === 'missing' ? pkg : packageAt(target, r));
    } else if (/\.ya?ml$/.test(name)) {
      if (ignored(pkg, r, false)) return;
      if (targetKind !== 'file')
        throw new FileRefusedError(
          `${show(r)} is ${articleOf(targetKind)}, not a regular file: refusing to read it`,
          'not a regular file',
          'EINVAL',
        );
      out.push(r);
    }
  };
  walk(top, '', packageAt(top, ''));
  return out;
}

function articleOf(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

/** One object of a file: its document, and its place in a List/ResourceList when it is an item of one. */
export interface FileObject {
  object: KrmObject;
  documentIndex: number;
  itemIndex?: number;
}

export interface FileManifests {
  objects: FileObject[];
  /** A ResourceList's functionConfig (the file is then a whole function input). */
  functionConfig?: KrmObject;
  /** No document has an apiVersion or a kind: not a manifest file. */
  notManifest: boolean;
}

const NOT_A_MANIFEST = (where: string) => notAnObject(where, 0, '');

/**
 * The objects of a YAML text, as described at the top; `where` names the file in errors. Its nodes count against
 * `budget`, the run's (every file a command reads shares one).
 */
export function readManifestText(text: string, where: string, budget: NodeBudget): FileManifests {
  const docs = parseDocuments(text, where, budget);
  // Documents are counted without the empty ones (kpt's index annotation, and what lint's line mapping counts).
  const values: Array<{ value: Record<string, unknown>; index: number }> = [];
  let other: number | undefined;
  let index = 0;
  for (const value of docs) {
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value) || (!('apiVersion' in value) && !('kind' in value)))
      other ??= index;
    else values.push({ value: value as Record<string, unknown>, index });
    index++;
  }
  if (values.length === 0) return { objects: [], notManifest: other !== undefined };
  if (other !== undefined) throw notAnObject(where, other, '');
  const objects: FileObject[] = [];
  let functionConfig: KrmObject | undefined;
  for (const { value, index } of values) {
    if (typeof value.apiVersion !== 'string' || typeof value.kind !== 'string') throw notAnObject(where, index, '');
    const list = value.kind === 'ResourceList' || (value.kind === 'List' && value.apiVersion === 'v1');
    if (!list) {
      objects.push({ object: value as KrmObject, documentIndex: index });
      continue;
    }
    const items = value.items ?? [];
    if (!Array.isArray(items))
      throw new CommandError(`${where}: document ${index + 1} is a ${value.kind} whose items are not a list`);
    items.forEach((item, itemIndex) => {
      if (
        item === null ||
        typeof item !== 'object' ||
        Array.isArray(item) ||
        typeof item.apiVersion !== 'string' ||
        typeof item.kind !== 'string'
      ) {
        throw notAnObject(where, index, ` items[${itemIndex}]`);
      }
      objects.push({ object: item as KrmObject, documentIndex: index, itemIndex });
    });
    if (value.kind === 'ResourceList' && value.functionConfig !== undefined && value.functionConfig !== null) {
      const fc = value.functionConfig;
      if (typeof fc !== 'object' || Array.isArray(fc))
        throw new CommandError(`${where}: document ${index + 1}'s functionConfig is not an object`);
      if (functionConfig !== undefined)
        throw new CommandError(`${where}: holds more than one ResourceList with a functionConfig; give one`);
      functionConfig = fc as KrmObject;
    }
  }
  return { objects, notManifest: false, ...(functionConfig !== undefined ? { functionConfig } : {}) };
}

function notAnObject(where: string, index: number, item: string): CommandError {
  return new CommandError(
    `${where}: document ${index + 1}${item} is not a Kubernetes object (apiVersion and kind are required)`,
  );
}

/** A file below `root` read through the gate, its objects annotated with its path (relative to `base`). */
export function readManifestFile(root: Root, rel: string, budget: NodeBudget, annotateAs: string = rel): FileManifests {
  let text: string;
  try {
    text = readTextInside(root, rel, annotateAs);
  } catch (e) {
    if (e instanceof InputLimitError) throw new CommandError(e.message);
    throw e;
  }
  const read = readManifestText(text, annotateAs, budget);
  return {
    ...read,
    // The items of a List or ResourceList are taken as they are (as the function takes a ResourceList's items).
    objects: read.objects.map((o) =>
      o.itemIndex === undefined ? { ...o, object: withSourceAnnotations(o.object, annotateAs, o.documentIndex) } : o,
    ),
  };
}

/** Parses a YAML stream of Kubernetes objects; empty documents are skipped, anything else is an error. */
export function parseManifests(text: string, where: string, budget: NodeBudget): KrmObject[] {
  const read = readManifestText(text, where, budget);
  if (read.notManifest) throw NOT_A_MANIFEST(where);
  return read.objects.map((o) => o.object);
}

/** The values of a YAML stream's documents, bounded like every input (size, nodes, nesting, aliases). */
export function parseDocuments(text: string, where: string, budget: NodeBudget): unknown[] {
  let docs: Document.Parsed[];
  try {
    docs = parseInputDocuments(text, where, budget, true);
  } catch (e) {
    if (e instanceof InputLimitError) throw new CommandError(e.message);
    throw e;
  }
  return docs.map((doc, i) => {
    if (doc.errors.length > 0) {
      if (isStackOverflow(doc.errors[0]!.message)) throw new CommandError(nestingError(where).message);
      throw new CommandError(`${where}: document ${i + 1} is not valid YAML at ${yamlErrorText(doc.errors[0]!, text)}`);
    }
    try {
      return boundedToJS(doc, text, `${where}: document ${i + 1}`, budget);
    } catch (e) {
      if (e instanceof InputLimitError) throw new CommandError(e.message);
      throw e;
    }
  });
}

export function withSourceAnnotations(o: KrmObject, path: string, index: number): KrmObject {
  const metadata = { ...(o.metadata ?? {}) };
  const annotations: Record<string, unknown> = { ...(metadata.annotations ?? {}) };
  for (const k of PATH_ANNOTATIONS) annotations[k] = path;
  for (const k of INDEX_ANNOTATIONS) annotations[k] = String(index);
  metadata.annotations = annotations;
  return { ...o, metadata };
}
