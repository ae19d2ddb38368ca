// Reading and writing the KRM ResourceList.
//
// Items the function does not own are written back as their exact input text whenever the input is
// block-style YAML (what kpt and kustomize send), so comments, key order, quoting and `0644` survive
// byte for byte. Flow-style or JSON input is re-serialized from its values.
//
// One reader per syntax: JSON is YAML 1.2, so a JSON ResourceList is read by the same YAML reader with the same
// bounds (size, nesting, aliases), the same refusal of repeated keys, and errors that give line, column and the
// kind of problem, never the text (a JSON parser of its own would take the last of two keys and quote the input).
import { isAlias, isMap, isSeq, visit, type Document, type Node } from 'yaml';
import { boundedToJS, NodeBudget } from './inputBounds.ts';
import { MalformedYamlError, parseInputDocument, readBlockYaml } from './inputYaml.ts';
import { writeYaml } from '../codec/yamlWriter.ts';
import type { Result } from './results.ts';
import { escapeIllFormed, illFormedPath } from '../codec/wellFormedUnicode.ts';

export interface KrmObject {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: {
    name?: unknown;
    namespace?: unknown;
    annotations?: Record<string, unknown>;
    labels?: Record<string, unknown>;
  } & Record<string, unknown>;
  [key: string]: unknown;
}

export interface InputItem {
  /** Position in the input `items`. */
  readonly index: number;
  readonly object: KrmObject;
  /** Exact input text of the sequence entry, from its `-` to the end of the item, when available. */
  readonly sourceText?: string;
}

export interface ResourceList {
  readonly items: InputItem[];
  readonly functionConfig: KrmObject | undefined;
  /** Column of the `-` of input items, reused for generated ones so the output stays consistent. */
  readonly itemIndent: number;
  /** Its `results`, as read (a function's output read back). */
  readonly results?: unknown;
}

export class ResourceListParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResourceListParseError';
  }
}

/**
 * The ResourceList of `text`, its nodes counted against `budget` (a run's) before they are composed: a new one,
 * unless the text was made from objects counted already.
 */
export function parseResourceList(text: string, budget: NodeBudget = new NodeBudget()): ResourceList {
  if (text.trim() === '') throw new ResourceListParseError('empty input: expected a ResourceList on stdin');
  const fast = readBlockYaml(text, 'the input', budget);
  const { root, itemDashes, notSelfContained }: LibraryParse = fast ?? parseWithYamlLibrary(text, budget);
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    throw new ResourceListParseError('input is not a ResourceList: expected a YAML mapping');
  }
  const { kind, items: rawItems, functionConfig: fc, results } = root as Record<string, unknown>;
  if (kind !== 'ResourceList' && kind !== 'List') {
    throw new ResourceListParseError(`input is not a ResourceList: kind is ${JSON.stringify(kind ?? null)}`);
  }
  const functionConfig = fc === undefined || fc === null ? undefined : asObject(fc, 'functionConfig');
  const withResults = results === undefined ? {} : { results };
  if (rawItems === undefined || rawItems === null) return { items: [], functionConfig, itemIndent: 0, ...withResults };
  if (!Array.isArray(rawItems)) throw new ResourceListParseError('ResourceList.items must be a list');
  const texts =
    itemDashes !== undefined && itemDashes.length === rawItems.length && itemDashes.length > 0
      ? itemTexts(text, itemDashes)
      : undefined;
  const items = rawItems.map((o, index): InputItem => {
    const object = asObject(o, `items[${index}]`);
    return texts === undefined || notSelfContained?.has(index)
      ? { index, object }
      : { index, object, sourceText: texts[index]! };
  });
  const itemIndent = texts === undefined ? 0 : itemDashes![0]! - lineStart(text, itemDashes![0]!);
  return { items, functionConfig, itemIndent, ...withResults };
}

interface LibraryParse {
  root: unknown;
  itemDashes?: number[];
  /** Items holding an alias whose anchor lies outside them: their text alone would not be valid YAML. */
  notSelfContained?: Set<number>;
}

/** The full parser, for whatever the fast path leaves: the root as plain values and the items' dashes. */
function parseWithYamlLibrary(text: string, budget: NodeBudget): LibraryParse {
  let doc: Document.Parsed;
  try {
    doc = parseInputDocument(text, 'the input', budget);
  } catch (e) {
    if (e instanceof MalformedYamlError) throw new ResourceListParseError(e.message);
    throw e;
  }
  const values = () => boundedToJS(doc, text, 'the input', budget);
  const root = doc.contents;
  if (!isMap(root)) return { root: values() };
  const itemsNode = root.get('items', true) as Node | undefined;
  if (itemsNode === undefined || !isSeq(itemsNode) || itemsNode.flow) return { root: values() };
  const itemDashes: number[] = [];
  for (const node of itemsNode.items) {
    const range = (node as Node).range;
    const dash = range ? dashPosition(text, range[0]) : undefined;
    if (dash === undefined) return { root: values() };
    itemDashes.push(dash);
  }
  return { root: values(), itemDashes, notSelfContained: itemsWithOutsideAliases(doc, itemsNode.items as Node[]) };
}

/** Indexes of the items that use an anchor defined outside themselves (in another item, or the functionConfig). */
function itemsWithOutsideAliases(doc: Document, items: readonly Node[]): Set<number> {
  const found = new Set<number>();
  const ranges = items.map((item) => item.range ?? [0, 0, 0]);
  /** The item whose text holds `offset`, or -1. */
  const itemAt = (offset: number): number => {
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (offset < ranges[mid]![0]) hi = mid - 1;
      else if (offset >= ranges[mid]![2]) lo = mid + 1;
      else return mid;
    }
    return -1;
  };
  // One walk in document order: an alias names the last node with its anchor before it (as the `yaml` package
  // resolves it, which would walk the document again for each alias).
  const anchors = new Map<string, Node>();
  visit(doc, {
    Node(_, node) {
      if (isAlias(node)) {
        const index = itemAt(node.range?.[0] ?? -1);
        const target = anchors.get(node.source)?.range;
        if (index >= 0 && (target == null || itemAt(target[0]) !== index)) found.add(index);
      } else if (node.anchor !== undefined) {
        anchors.set(node.anchor, node);
      }
    },
  });
  return found;
}

/**
 * Each item's exact input text: from the line of its `-` to the line of the next item's `-` (comments and
 * blank lines between belong to the item before); the last one runs to the next key of the ResourceList,
 * without the comment lines right before that key.
 */
function itemTexts(text: string, dashes: readonly number[]): string[] {
  const starts = dashes.map((d) => lineStart(text, d));
  const column = dashes[0]! - starts[0]!;
  const texts: string[] = [];
  for (let i = 0; i + 1 < dashes.length; i++) texts.push(text.slice(starts[i], starts[i + 1]));
  const lastLine = text.indexOf('\n', dashes[dashes.length - 1]!);
  let end = lastLine === -1 ? text.length : lastLine + 1;
  for (let p = end; p < text.length;) {
    const next = text.indexOf('\n', p);
    const stop = next === -1 ? text.length : next + 1;
    const line = text.slice(p, stop);
    const indent = line.length - line.trimStart().length;
    const blank = line.trim() === '';
    if (!blank && indent <= column && line[indent] !== '#') break;
    // Blank lines count: they may be the kept final lines of a `|+` scalar.
    if (blank || indent > column) end = stop;
    p = stop;
  }
  texts.push(text.slice(starts[starts.length - 1], end));
  return texts;
}

function asObject(v: unknown, where: string): KrmObject {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new ResourceListParseError(`${where} is not an object`);
  }
  return v as KrmObject;
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}

/** Find the `-` that opens the sequence entry whose node starts at `nodeStart`. */
function dashPosition(text: string, nodeStart: number): number | undefined {
  let ls = lineStart(text, nodeStart);
  let prefix = text.slice(ls, nodeStart);
  for (;;) {
    const m = /^(\s*)-(?:\s|$)/.exec(prefix);
    if (m) return ls + m[1]!.length;
    if (ls === 0) return undefined;
    // Walk up over blank and comment lines (a head comment can sit between `-` and the node).
    if (prefix.trim() !== '' && !prefix.trim().startsWith('#') && ls !== lineStart(text, nodeStart)) return undefined;
    ls = lineStart(text, ls - 1);
    prefix = text.slice(ls, text.indexOf('\n', ls));
  }
}

export interface OutputList {
  readonly kept: readonly InputItem[];
  /** Generated items, each already written as a sequence entry by `generatedEntry`. */
  readonly generated: readonly string[];
  readonly results: readonly Result[];
}

/**
 * A generated object as an entry of the output's `items`. Written as soon as an object is made, so a run
 * holds the output text of its objects but not the objects themselves (10,000 MachineDeployments).
 */
export function generatedEntry(input: Pick<ResourceList, 'itemIndent'>, obj: object): string {
  return asSequenceEntry(writeYaml(obj), ' '.repeat(input.itemIndent));
}

/**
 * Write the output ResourceList in pieces: kept input items (verbatim when possible), then generated ones,
 * then results. Pieces, because the whole text can be hundreds of megabytes.
 */
export function writeResourceList(
  input: Pick<ResourceList, 'itemIndent'>,
  out: OutputList,
  write: (text: string) => void,
): void {
  const pad = ' '.repeat(input.itemIndent);
  let pending = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n';
  pending += out.kept.length === 0 && out.generated.length === 0 ? 'items: []\n' : 'items:\n';
  // Small pieces are batched so that a run makes a few large writes rather than many small ones.
  const put = (text: string) => {
    pending += text;
    if (pending.length >= 1 << 16) {
      write(pending);
      pending = '';
    }
  };
  for (const item of out.kept) {
    if (item.sourceText !== undefined) put(item.sourceText.endsWith('\n') ? item.sourceText : item.sourceText + '\n');
    else put(asSequenceEntry(writeYaml(item.object), pad));
  }
  for (const entry of out.generated) put(entry);
  // Results are our text: a lone surrogate quoted from the inputs is shown as an escape, never a crash.
  if (out.results.length > 0) put('results:\n' + writeYaml(out.results.map(writableResult)));
  if (pending !== '') write(pending);
}

function writableResult(r: Result): Result {
  const escape = (v: unknown): unknown =>
    typeof v === 'string'
      ? escapeIllFormed(v)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, e]) => [escapeIllFormed(k), escape(e)]))
        : v;
  return illFormedPath(r) === undefined ? r : (escape(r) as Result);
}

/** The whole output ResourceList as one string (small outputs, tests). */
export function serializeResourceList(input: Pick<ResourceList, 'itemIndent'>, out: OutputList): string {
  const parts: string[] = [];
  writeResourceList(input, out, (text) => parts.push(text));
  return parts.join('');
}

function asSequenceEntry(body: string, pad: string): string {
  const lines = body.endsWith('\n') ? body.slice(0, -1).split('\n') : body.split('\n');
  return lines.map((l, i) => (i === 0 ? `${pad}- ${l}` : l === '' ? '' : `${pad}  ${l}`)).join('\n') + '\n';
}
