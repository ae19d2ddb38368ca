// Where a rendered line comes from in the OSP file: the line of each file template inside the OSP's YAML, and
// an alignment of template lines to rendered lines (lines without actions render as themselves).
import { LineCounter, parseAllDocuments, isMap, isScalar, isSeq, type Node } from 'yaml';
import { diffLines } from '../review/unifiedDiff.ts';

export interface TemplateLocation {
  /** 1-based line in the OSP file of the template's first line. */
  firstLine: number;
  /** Whether the template is a block scalar (then its lines are the file's lines, one for one). */
  block: boolean;
  template: string;
}

/** stage ("bootstrap" | "provisioning") + node path -> where its template sits in the OSP file text. */
export function templateLocations(ospText: string, documentIndex = 0): Map<string, TemplateLocation> {
  const out = new Map<string, TemplateLocation>();
  const lc = new LineCounter();
  const docs = parseDocumentsWithLines(ospText, lc);
  const doc = docs[documentIndex];
  if (doc === undefined) return out;
  for (const stage of ['bootstrap', 'provisioning'] as const) {
    const files = getIn(doc, ['spec', `${stage}Config`, 'files']);
    if (!isSeq(files)) continue;
    for (const f of files.items) {
      const path = getIn(f as Node, ['path']);
      const data = getIn(f as Node, ['content', 'inline', 'data']);
      if (!isScalar(path) || !isScalar(data) || typeof data.value !== 'string' || data.range === undefined || data.range === null) continue;
      const block = data.type === 'BLOCK_LITERAL' || data.type === 'BLOCK_FOLDED';
      const line = lc.linePos(data.range[0]).line;
      out.set(`${stage}:${String(path.value)}`, { firstLine: block ? line + 1 : line, block, template: data.value });
    }
  }
  return out;
}

function parseDocumentsWithLines(text: string, lc: LineCounter): Node[] {
  return parseAllDocuments(text, { lineCounter: lc }).flatMap((d) => ('contents' in d && d.contents ? [d.contents as Node] : []));
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

/**
 * For each rendered line (0-based), the template line (0-based) it most likely came from: equal lines map
 * to each other; a line an action produced maps to the last template line before it that is not kept.
 */
export function alignRenderedLines(template: string, rendered: string): number[] {
  const t = template.split('\n');
  const r = rendered.split('\n');
  const map: number[] = [];
  let ti = 0;
  let pendingTemplate = -1;
  for (const e of diffLines(t, r)) {
    if (e.op === ' ') {
      map.push(ti);
      ti++;
      pendingTemplate = -1;
    } else if (e.op === '-') {
      if (pendingTemplate < 0) pendingTemplate = ti;
      ti++;
    } else {
      map.push(pendingTemplate >= 0 ? pendingTemplate : Math.max(0, ti - 1));
    }
  }
  return map;
}
