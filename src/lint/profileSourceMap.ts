// Where a rendered line comes from in the OSP file: the line of each file template inside the OSP's YAML, and
// an alignment of template lines to rendered lines (lines without actions render as themselves).
import { LineCounter, parseAllDocuments, isMap, isScalar, isSeq, type Node, type Scalar } from 'yaml';
import { DiffBudget, diffLines } from '../review/unifiedDiff.ts';
import { lookupKey } from '../go/internal/hashableKey.ts';

export interface TemplateLocation {
  /** 1-based line in the OSP file of the template's first line. */
  firstLine: number;
  /** Whether the template is a block scalar (then its lines are the file's lines, one for one). */
  block: boolean;
  /** The block scalar's indentation in the file: a column in the template is this much further right. */
  indent: number;
  template: string;
}

/** stage ("bootstrap" | "provisioning") + node path -> where its template sits in the OSP file text. */
export function templateLocations(
  ospText: string,
  documentIndex = 0,
  itemIndex?: number,
  sources: ProfileSources = new ProfileSources(),
): Map<string, TemplateLocation> {
  const out = new Map<string, TemplateLocation>();
  const { docs, lc } = sources.of(ospText);
  const doc = profileNode(docs, documentIndex, itemIndex);
  if (doc === undefined) return out;
  for (const stage of ['bootstrap', 'provisioning'] as const) {
    const runtimes = getIn(doc, ['spec', `${stage}Config`, 'supportedContainerRuntimes']);
    const lists = [
      getIn(doc, ['spec', `${stage}Config`, 'files']),
      ...(isSeq(runtimes) ? runtimes.items.map((r) => getIn(r as Node, ['files'])) : []),
    ];
    for (const f of lists.flatMap((files) => (isSeq(files) ? files.items : []))) {
      const path = getIn(f as Node, ['path']);
      const data = getIn(f as Node, ['content', 'inline', 'data']);
      if (!isScalar(path) || !isScalar(data) || typeof data.value !== 'string') continue;
      const location = scalarLocation(data, lc, ospText);
      if (location !== undefined) out.set(`${stage}:${String(path.value)}`, location);
    }
  }
  return out;
}

/** Where the scalar at a field path (`spec.provisioningConfig.files[2].content.inline.data`) sits in the file. */
export function fieldLocation(
  ospText: string,
  documentIndex: number,
  fieldPath: string,
  itemIndex?: number,
  sources?: ProfileSources,
): TemplateLocation | undefined {
  return fieldLocations(ospText, documentIndex, [fieldPath], itemIndex, sources).get(fieldPath);
}

/** fieldLocation for many paths, the file parsed once; paths that lead to no scalar are left out. */
export function fieldLocations(
  ospText: string,
  documentIndex: number,
  fieldPaths: readonly string[],
  itemIndex?: number,
  sources: ProfileSources = new ProfileSources(),
): Map<string, TemplateLocation> {
  const out = new Map<string, TemplateLocation>();
  const { docs, lc } = sources.of(ospText);
  const root: Node | undefined = profileNode(docs, documentIndex, itemIndex);
  for (const fieldPath of fieldPaths) {
    const node = nodeAt(root, fieldPath);
    const location = isScalar(node) ? scalarLocation(node, lc, ospText) : undefined;
    if (location !== undefined) out.set(fieldPath, location);
  }
  return out;
}

/** The 1-based line where the node at a field path (`spec.files[0]`, scalar or not) starts in the file. */
export function fieldLine(
  text: string,
  documentIndex: number,
  fieldPath: string,
  itemIndex?: number,
  sources: ProfileSources = new ProfileSources(),
): number | undefined {
  const { docs, lc } = sources.of(text);
  const node = nodeAt(profileNode(docs, documentIndex, itemIndex), fieldPath);
  return node?.range ? lc.linePos(node.range[0]).line : undefined;
}

/** The node at a field path (`a.b[0].c`) below `root`. */
function nodeAt(root: Node | undefined, fieldPath: string): Node | undefined {
  let node = root;
  for (const part of fieldPath.split('.').flatMap((p) => p.split(/\[(\d+)\]/).filter((x) => x !== ''))) {
    if (isSeq(node) && /^\d+$/.test(part)) node = node.items[Number(part)] as Node | undefined;
    else node = getIn(node, [part]);
    if (node === undefined) return undefined;
  }
  return node;
}

/** A scalar's place: a block scalar's text starts on the line after its indicator, at the block's indentation. */
function scalarLocation(node: Scalar, lc: LineCounter, text: string): TemplateLocation | undefined {
  if (node.range === undefined || node.range === null) return undefined;
  const block = node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED';
  const line = lc.linePos(node.range[0]).line;
  const firstLine = block ? line + 1 : line;
  const indent = block ? (/^ */.exec(text.split('\n', firstLine)[firstLine - 1] ?? '')?.[0].length ?? 0) : 0;
  return { firstLine, block, indent, template: String(node.value) };
}

/** The profile's node: a document, or an item of a List/ResourceList document. */
function profileNode(docs: Node[], documentIndex: number, itemIndex: number | undefined): Node | undefined {
  const doc = docs[documentIndex];
  if (itemIndex === undefined) return doc;
  const items = getIn(doc, ['items']);
  return isSeq(items) ? (items.items[itemIndex] as Node | undefined) : undefined;
}

/**
 * An OSP file parsed for its lines once however many findings, scenarios and overlay files ask where something
 * sits in it (lint placed each render result by parsing the whole file again). Lint works a profile at a time,
 * so the last file is kept, not all of them (a parse tree is many times its text).
 */
export class ProfileSources {
  private last: { text: string; docs: Node[]; lc: LineCounter } | undefined;

  of(text: string): { docs: Node[]; lc: LineCounter } {
    if (this.last?.text !== text) {
      const lc = new LineCounter();
      this.last = { text, docs: parseDocumentsWithLines(text, lc), lc };
    }
    return this.last;
  }
}

function parseDocumentsWithLines(text: string, lc: LineCounter): Node[] {
  // Keys were checked when the file was read (mapKeys.ts); the package's own check is quadratic.
  return parseAllDocuments(text, { lineCounter: lc, uniqueKeys: false }).flatMap((d) =>
    'contents' in d && d.contents ? [d.contents as Node] : [],
  );
}

function getIn(node: Node | null | undefined, keys: readonly string[]): Node | undefined {
  let cur: Node | null | undefined = node;
  for (const k of keys) {
    if (!isMap(cur)) return undefined;
    const pair = cur.items.find((p) => isScalar(p.key) && p.key.value === k);
    cur = pair?.value as Node | undefined;
  }
  return cur ?? undefined;
}

export type LineAlignment = Array<{ line: number; exact: boolean }>;

/**
 * One run's alignments of rendered files with their templates (lint's findings, bom's items): each pair of texts
 * aligned once however many scenarios or MachineDeployments rendered it, all of them within one diff budget, so
 * that a script is placed on the same lines wherever it appears.
 */
export class RunAlignments {
  private readonly byTemplate = new Map<string, Map<string, LineAlignment>>();
  private readonly budget = new DiffBudget();

  /** How many texts were aligned only as far as the diff's bounds allow (their middle placed coarsely). */
  get bounded(): number {
    return this.budget.bounded;
  }

  of(template: string, rendered: string): LineAlignment {
    // Whole files as keys: a text longer than V8 hashes by content is looked up by its digest (lookupKey).
    const templateKey = lookupKey(template);
    let byRendered = this.byTemplate.get(templateKey);
    if (byRendered === undefined) this.byTemplate.set(templateKey, (byRendered = new Map()));
    const renderedKey = lookupKey(rendered);
    let aligned = byRendered.get(renderedKey);
    if (aligned === undefined)
      byRendered.set(renderedKey, (aligned = alignRenderedLines(template, rendered, this.budget)));
    return aligned;
  }
}

/**
 * For each rendered line (0-based), the template line (0-based) it most likely came from: equal lines map
 * to each other; lines an action produced map to the first line of their changed block that calls a named
 * template, else that holds an action other than a comment, else the block's first line, else the line before.
 */
export function alignRenderedLines(template: string, rendered: string, budget?: DiffBudget): LineAlignment {
  const t = template.split('\n');
  const edits = diffLines(t, rendered.split('\n'), budget);
  const map: Array<{ line: number; exact: boolean }> = [];
  let ti = 0;
  for (let i = 0; i < edits.length;) {
    if (edits[i]!.op === ' ') {
      map.push({ line: ti++, exact: true });
      i++;
      continue;
    }
    const deleted: number[] = [];
    let inserted = 0;
    for (; i < edits.length && edits[i]!.op !== ' '; i++) {
      if (edits[i]!.op === '-') deleted.push(ti++);
      else inserted++;
    }
    // A `template` call writes many lines; other actions a value each.
    const action =
      deleted.find((d) => /\{\{-?\s*(template|include)\b/.test(t[d]!)) ??
      deleted.find((d) => /\{\{/.test(t[d]!) && !/^\s*\{\{-?\s*\/\*/.test(t[d]!));
    const target = action ?? deleted[0] ?? Math.max(0, ti - 1);
    for (let k = 0; k < inserted; k++) map.push({ line: target, exact: false });
  }
  return map;
}
