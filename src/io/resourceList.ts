// Reading and writing the KRM ResourceList.
//
// Items the function does not own are written back as their exact input text whenever the input is
// block-style YAML (what kpt and kustomize send), so comments, key order, quoting and `0644` survive
// byte for byte. Flow-style or JSON input is re-serialized from its values.
import { isMap, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { PARSE_OPTIONS } from './yamlSchema.ts';
import { writeYaml } from './yamlWriter.ts';
import type { Result } from '../function/results.ts';

export interface KrmObject {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; namespace?: unknown; annotations?: Record<string, unknown>; labels?: Record<string, unknown> } & Record<string, unknown>;
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
}

export class ResourceListParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResourceListParseError';
  }
}

export function parseResourceList(text: string): ResourceList {
  if (text.trim() === '') throw new ResourceListParseError('empty input: expected a ResourceList on stdin');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) return fromJson(trimmed);
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, PARSE_OPTIONS);
  } catch (e) {
    throw new ResourceListParseError(`malformed YAML: ${(e as Error).message}`);
  }
  if (doc.errors.length > 0) throw new ResourceListParseError(`malformed YAML: ${doc.errors[0]!.message}`);
  const root = doc.contents;
  if (!isMap(root)) throw new ResourceListParseError('input is not a ResourceList: expected a YAML mapping');
  const kind = root.get('kind') as unknown;
  if (kind !== 'ResourceList' && kind !== 'List') {
    throw new ResourceListParseError(`input is not a ResourceList: kind is ${JSON.stringify(kind ?? null)}`);
  }
  const itemsNode = root.get('items', true) as Node | undefined;
  const fcNode = root.get('functionConfig', true) as Node | undefined;
  const functionConfig = fcNode ? asObject(fcNode.toJS(doc), 'functionConfig') : undefined;
  if (itemsNode === undefined || (itemsNode as { value?: unknown }).value === null) {
    return { items: [], functionConfig, itemIndent: 0 };
  }
  if (!isSeq(itemsNode)) throw new ResourceListParseError('ResourceList.items must be a list');
  const block = !itemsNode.flow;
  const items: InputItem[] = [];
  let itemIndent = 0;
  itemsNode.items.forEach((node, index) => {
    const object = asObject((node as Node).toJS(doc), `items[${index}]`);
    let sourceText: string | undefined;
    if (block) {
      const range = (node as Node).range;
      if (range) {
        const start = dashPosition(text, range[0]);
        if (start !== undefined) {
          if (index === 0) itemIndent = start - lineStart(text, start);
          sourceText = text.slice(lineStart(text, start), lineEnd(text, range[2]));
        }
      }
    }
    items.push(sourceText === undefined ? { index, object } : { index, object, sourceText });
  });
  return { items, functionConfig, itemIndent };
}

function fromJson(text: string): ResourceList {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ResourceListParseError(`malformed JSON: ${(e as Error).message}`);
  }
  const root = asObject(value, 'input');
  if (root.kind !== 'ResourceList' && root.kind !== 'List') {
    throw new ResourceListParseError(`input is not a ResourceList: kind is ${JSON.stringify(root.kind ?? null)}`);
  }
  const rawItems = root.items ?? [];
  if (!Array.isArray(rawItems)) throw new ResourceListParseError('ResourceList.items must be a list');
  return {
    items: rawItems.map((o, index) => ({ index, object: asObject(o, `items[${index}]`) })),
    functionConfig: root.functionConfig === undefined || root.functionConfig === null ? undefined : asObject(root.functionConfig, 'functionConfig'),
    itemIndent: 0,
  };
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

function lineEnd(text: string, pos: number): number {
  // The item's range ends where its content ends; keep through the end of that line (trailing comment).
  let p = pos;
  if (p > 0 && text[p - 1] === '\n') return p;
  const nl = text.indexOf('\n', p);
  return nl === -1 ? text.length : nl + 1;
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
  readonly generated: readonly object[];
  readonly results: readonly Result[];
}

/** Serialize the output ResourceList: kept input items (verbatim when possible), then generated ones. */
export function serializeResourceList(input: Pick<ResourceList, 'itemIndent'>, out: OutputList): string {
  const pad = ' '.repeat(input.itemIndent);
  const parts: string[] = ['apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n'];
  if (out.kept.length === 0 && out.generated.length === 0) parts.push('items: []\n');
  else parts.push('items:\n');
  for (const item of out.kept) {
    if (item.sourceText !== undefined) {
      parts.push(item.sourceText.endsWith('\n') ? item.sourceText : item.sourceText + '\n');
    } else {
      parts.push(asSequenceEntry(writeYaml(item.object), pad));
    }
  }
  for (const obj of out.generated) parts.push(asSequenceEntry(writeYaml(obj), pad));
  if (out.results.length > 0) parts.push('results:\n' + writeYaml(out.results));
  return parts.join('');
}

function asSequenceEntry(body: string, pad: string): string {
  const lines = body.endsWith('\n') ? body.slice(0, -1).split('\n') : body.split('\n');
  return lines.map((l, i) => (i === 0 ? `${pad}- ${l}` : l === '' ? '' : `${pad}  ${l}`)).join('\n') + '\n';
}
