// A small parser for the plain block YAML that kpt, kustomize and people write in ResourceLists, because
// the full parser (the `yaml` package) costs more at start-up than everything else the function does: about
// 200 M instructions (valgrind) for the 8 KB example, against 20 M here; README.md, Benchmark.
//
// It is a fast path, not a second YAML implementation: it accepts block mappings and sequences, plain and
// quoted one-line scalars, literal block scalars, empty flow collections and comments, and returns undefined
// for anything else (anchors, aliases, tags, flow collections, folded or multi-line scalars, tabs, CRLF,
// duplicate or non-string keys, several documents...), so the caller falls back to the full parser. Plain
// scalars are resolved with the full parser's own schema tags, so `0644`, `1e3` or `~` mean the same in both.
// test/codec/blockYamlFastPath.test.ts checks that both give identical results on every input it accepts.
import { Document, isScalar, type ParseOptions, type DocumentOptions, type SchemaOptions } from 'yaml';
import { MAX_NESTING_DEPTH } from './nestingLimit.ts';
import { NodeLimitReached } from './nodeLimit.ts';

export interface FastParse {
  root: Record<string, unknown>;
  /** Offsets of the `-` of each entry of the root's block sequence `items` (absent for a flow `items`). */
  itemDashes?: number[];
  /** Its YAML nodes, counted by the rule of nodeLimit.ts. */
  nodes: number;
}

/** The parse tree, with the offsets the `yaml` package gives its nodes (see toYamlNodes in clcParse.ts). */
export type BlockNode = BlockMap | BlockSeq | BlockScalar;

export interface BlockScalar {
  kind: 'scalar';
  /** `empty` is an absent value (`key:`), which the `yaml` package reads as an empty plain scalar. */
  style: 'plain' | 'single' | 'double' | 'literal' | 'empty';
  /** The scalar's text (unresolved: `0644` is still a string here). */
  text: string;
  start: number;
  end: number;
}

export interface BlockMap {
  kind: 'map';
  flow: boolean;
  start: number;
  pairs: Array<{ key: BlockScalar; value: BlockNode }>;
}

export interface BlockSeq {
  kind: 'seq';
  flow: boolean;
  start: number;
  items: BlockNode[];
}

class Unsupported extends Error {}

interface Line {
  start: number;
  /** Column of the first non-space character; -1 for a blank line. */
  indent: number;
  text: string;
}

interface ScalarTag {
  default?: boolean | 'key';
  test?: RegExp;
  resolve: (value: string, onError: (message: string) => void, options: unknown) => unknown;
}

/**
 * The tree of a document in the subset, or undefined when the text is anything else. Throws NodeLimitReached
 * as soon as it holds more than `maxNodes` nodes (counted as nodeLimit.ts says, the count the lexer would give).
 */
export function parseBlockYaml(
  text: string,
  maxNodes = Infinity,
): { root: BlockMap; itemDashes?: number[]; nodes: number } | undefined {
  try {
    return new BlockParser(text, maxNodes).parseDocument();
  } catch (e) {
    // Nesting deep enough to exhaust the stack is left to the full parser too (which reports it).
    if (e instanceof Unsupported || e instanceof RangeError) return undefined;
    throw e;
  }
}

/** Plain values with the `yaml` package's resolution of plain scalars under `options` (its schema tags). */
export function createBlockYamlFastPath(
  options: ParseOptions & DocumentOptions & SchemaOptions,
): (text: string, maxNodes?: number) => FastParse | undefined {
  const doc = new Document(undefined, options);
  const tags = (doc.schema as unknown as { tags: ScalarTag[] }).tags.filter(
    (t) => t.default === true && t.test !== undefined,
  );
  const resolveOptions = doc.options;
  const resolvePlain = (value: string): unknown => {
    const tag = tags.find((t) => t.test!.test(value));
    if (tag === undefined) return value;
    let failed = false;
    let result = tag.resolve(value, () => (failed = true), resolveOptions);
    // Some resolvers return a Scalar to keep formatting (`1.50`); its value is what the document holds.
    if (isScalar(result)) result = result.value;
    if (failed || (result !== null && typeof result === 'object')) throw new Unsupported();
    return result;
  };
  const toValue = (node: BlockNode): unknown => {
    if (node.kind === 'seq') return node.items.map(toValue);
    if (node.kind === 'map') {
      const map: Record<string, unknown> = {};
      for (const { key, value } of node.pairs) {
        const k = key.style === 'plain' ? resolvePlain(key.text) : key.text;
        if (typeof k !== 'string') throw new Unsupported();
        map[k] = toValue(value);
      }
      return map;
    }
    return node.style === 'plain' || node.style === 'empty' ? resolvePlain(node.text) : node.text;
  };
  return (text, maxNodes) => {
    const tree = parseBlockYaml(text, maxNodes);
    if (tree === undefined) return undefined;
    try {
      return {
        root: toValue(tree.root) as Record<string, unknown>,
        ...(tree.itemDashes ? { itemDashes: tree.itemDashes } : {}),
        nodes: tree.nodes,
      };
    } catch (e) {
      if (e instanceof Unsupported) return undefined;
      throw e;
    }
  };
}

// Characters that may not start a plain scalar (YAML 1.2 c-indicator), besides `-`, `?` and `:` which may
// when followed by a non-space.
// An implicit key's `:` may be at most this many characters after the key's start (YAML 1.2, 7.4.2); the `yaml`
// package refuses a key past it (KEY_OVER_1024_CHARS), so it is the full parser's to report.
const IMPLICIT_KEY_REACH = 1024;
const PLAIN_FORBIDDEN_START = new Set(['[', ']', '{', '}', ',', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);

const DOUBLE_QUOTE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

class BlockParser {
  // Lines as offsets, their text sliced on use: a Line object per line would cost ~200 bytes each, and an
  // unrelated block scalar of millions of lines would take gigabytes (issue #17).
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly indents: Int32Array;
  private readonly lineCount: number;
  private cachedIndex = -1;
  private cached: Line | undefined;
  private i = 0;
  private itemDashes: number[] | undefined;
  private nodes = 0;

  constructor(
    private readonly source: string,
    private readonly maxNodes: number,
  ) {
    if (source.includes('\r') || source.charCodeAt(0) === 0xfeff) throw new Unsupported();
    let count = 0;
    for (let start = 0; start < source.length; count++) {
      const end = source.indexOf('\n', start);
      start = end < 0 ? source.length : end + 1;
    }
    this.lineCount = count;
    this.starts = new Int32Array(count);
    this.ends = new Int32Array(count);
    this.indents = new Int32Array(count);
    let start = 0;
    for (let k = 0; k < count; k++) {
      let end = source.indexOf('\n', start);
      if (end < 0) end = source.length;
      let indent = 0;
      while (start + indent < end && source.charCodeAt(start + indent) === 32) indent++;
      this.starts[k] = start;
      this.ends[k] = end;
      this.indents[k] = start + indent === end ? -1 : indent;
      start = end + 1;
    }
  }

  // Nesting deeper than the function accepts is left to the full parser, which reports it (inputBounds.ts).
  private depth = 0;
  private enter(): void {
    if (++this.depth >= MAX_NESTING_DEPTH) throw new Unsupported();
  }

  /** One more node (nodeLimit.ts's rule), written at `offset`. */
  private counted<T>(node: T, offset: number): T {
    if (++this.nodes > this.maxNodes) throw new NodeLimitReached(offset);
    return node;
  }

  private line(k: number): Line | undefined {
    if (k >= this.lineCount) return undefined;
    if (k !== this.cachedIndex) {
      this.cached = {
        start: this.starts[k]!,
        indent: this.indents[k]!,
        text: this.source.slice(this.starts[k], this.ends[k]),
      };
      this.cachedIndex = k;
    }
    return this.cached;
  }

  parseDocument(): { root: BlockMap; itemDashes?: number[]; nodes: number } {
    this.skipInsignificant();
    const first = this.line(this.i);
    if (first !== undefined) this.counted(undefined, first.start); // the document
    if (first !== undefined && /^---(?:\s|$)/.test(first.text)) {
      if (!onlySpaces(stripComment(first.text.slice(3)))) throw new Unsupported();
      this.i++;
      this.skipInsignificant();
    }
    const line = this.line(this.i);
    if (line === undefined || line.indent !== 0 || isSequenceEntry(line.text, 0)) throw new Unsupported();
    const root = this.parseMapping(0, 0, true);
    this.skipInsignificant();
    if (this.i < this.lineCount) throw new Unsupported(); // a second document, `...`, or bad indentation
    return { root, ...(this.itemDashes ? { itemDashes: this.itemDashes } : {}), nodes: this.nodes };
  }

  /** Blank lines and comment-only lines; a tab anywhere outside block scalars is left to the full parser. */
  private skipInsignificant(): void {
    while (this.i < this.lineCount) {
      const l = this.line(this.i)!;
      if (l.text.includes('\t')) throw new Unsupported();
      if (l.indent >= 0 && l.text[l.indent] !== '#') return;
      this.i++;
    }
  }

  /**
   * A block mapping whose keys sit at `column`. The first key may start mid-line (`- key: v`), at `offset`
   * of the current line.
   */
  private parseMapping(column: number, offset: number, isRoot = false): BlockMap {
    this.enter();
    const map: BlockMap = { kind: 'map', flow: false, start: this.line(this.i)!.start + offset, pairs: [] };
    const seen = new Set<string>();
    let first = true;
    for (;;) {
      if (!first) {
        this.skipInsignificant();
        const l = this.line(this.i);
        if (l === undefined || l.indent < column) break;
        if (l.indent > column || isSequenceEntry(l.text, column)) throw new Unsupported();
      }
      const line = this.line(this.i)!;
      const at = first ? offset : column;
      first = false;
      const { key, rest } = this.parseKey(line, at);
      // Duplicates are an error or a special case for one parser or the other: not ours.
      if (seen.has(key.text) || key.text === '__proto__' || key.text === '<<') throw new Unsupported();
      seen.add(key.text);
      map.pairs.push({ key, value: this.parseValue(line, rest, column, isRoot && key.text === 'items') });
    }
    this.depth--;
    return map;
  }

  /** The quoted scalar that starts at offset `at` of `line` (counted there), and the offset just after it. */
  private quotedScalar(line: Line, at: number): { node: BlockScalar; end: number } {
    const c = line.text[at];
    const { value, end } = c === '"' ? parseDoubleQuoted(line.text, at) : parseSingleQuoted(line.text, at);
    const node = this.counted<BlockScalar>(
      {
        kind: 'scalar',
        style: c === '"' ? 'double' : 'single',
        text: value,
        start: line.start + at,
        end: line.start + end,
      },
      line.start + at,
    );
    return { node, end };
  }

  /** `key:` at `at`; returns the key and the offset just after the colon. */
  private parseKey(line: Line, at: number): { key: BlockScalar; rest: number } {
    const text = line.text;
    const c = text[at];
    if (c === '"' || c === "'") {
      const { node: key, end } = this.quotedScalar(line, at);
      if (text[end] !== ':' || (end + 1 < text.length && text[end + 1] !== ' ')) throw new Unsupported();
      if (end - at > IMPLICIT_KEY_REACH) throw new Unsupported();
      this.counted(undefined, line.start + end); // the `:`
      return { key, rest: end + 1 };
    }
    if (
      c === undefined ||
      c === '?' ||
      c === ':' ||
      PLAIN_FORBIDDEN_START.has(c) ||
      (c === '-' && isSequenceEntry(text, at))
    )
      throw new Unsupported();
    let colon = text.indexOf(':', at);
    while (colon >= 0 && colon + 1 < text.length && text[colon + 1] !== ' ') colon = text.indexOf(':', colon + 1);
    if (colon < 0 || colon - at > IMPLICIT_KEY_REACH) throw new Unsupported();
    const raw = text.slice(at, colon);
    if (raw === '' || raw.includes(' #') || raw !== trimSpaces(raw)) throw new Unsupported();
    const key = this.counted<BlockScalar>(
      { kind: 'scalar', style: 'plain', text: raw, start: line.start + at, end: line.start + colon },
      line.start + at,
    );
    this.counted(undefined, line.start + colon); // the `:`
    return { key, rest: colon + 1 };
  }

  /**
   * The value after `key:` (or after `- `) on `line` from offset `rest`; `parent` is the column of the key
   * (or dash). Advances past every line the value uses.
   */
  private parseValue(line: Line, rest: number, parent: number, recordDashes = false): BlockNode {
    const text = line.text;
    let p = rest;
    while (text[p] === ' ') p++;
    if (p > rest || p === text.length) {
      // Something follows on this line, unless only a comment does.
      if (p < text.length && text[p] !== '#') {
        this.i++;
        return this.inlineValue(line, p, parent, true);
      }
    } else if (p < text.length) {
      throw new Unsupported(); // `key:value` is one plain scalar, not a pair
    }
    // The `yaml` package puts an absent value after the blanks that follow the indicator.
    const empty: BlockScalar = { kind: 'scalar', style: 'empty', text: '', start: line.start + p, end: line.start + p };
    this.i++;
    // Nothing on the line: the value is the following more-indented block, or a sequence at the key's
    // column (`key:\n- a`), or empty.
    this.skipInsignificant();
    const next = this.line(this.i);
    if (next === undefined) return empty;
    if (next.indent > parent) {
      if (isSequenceEntry(next.text, next.indent)) return this.parseSequence(next.indent, recordDashes);
      return this.parseMapping(next.indent, next.indent);
    }
    if (next.indent === parent && isSequenceEntry(next.text, parent) && !this.inSequenceAt(parent)) {
      return this.parseSequence(parent, recordDashes);
    }
    return empty;
  }

  // A sequence entry at the same column as the current key would belong to an enclosing sequence only
  // when that sequence's dashes are at this column; `- key:\n- x` is such a case and is left to the full parser.
  private readonly sequenceColumns: number[] = [];
  private inSequenceAt(column: number): boolean {
    if (this.sequenceColumns.includes(column)) throw new Unsupported();
    return false;
  }

  private parseSequence(column: number, recordDashes: boolean): BlockSeq {
    this.enter();
    const seq: BlockSeq = { kind: 'seq', flow: false, start: this.line(this.i)!.start + column, items: [] };
    if (recordDashes) this.itemDashes = [];
    this.sequenceColumns.push(column);
    for (;;) {
      this.skipInsignificant();
      const l = this.line(this.i);
      if (l === undefined || l.indent < column) break;
      if (l.indent > column || !isSequenceEntry(l.text, column)) {
        // A key at the dash column ends the sequence (`key:\n- a\nnext: b`); anything else is not ours.
        if (l.indent === column && !isSequenceEntry(l.text, column)) break;
        throw new Unsupported();
      }
      if (recordDashes) this.itemDashes!.push(l.start + column);
      this.counted(undefined, l.start + column);
      seq.items.push(this.parseEntry(l, column));
    }
    this.sequenceColumns.pop();
    this.depth--;
    return seq;
  }

  private parseEntry(line: Line, column: number): BlockNode {
    const text = line.text;
    let p = column + 1;
    while (text[p] === ' ') p++;
    if (p === text.length || text[p] === '#') return this.parseValue(line, column + 1, column);
    if (isSequenceEntry(text, p)) throw new Unsupported(); // `- - x`
    if (startsMapping(text, p)) return this.parseMapping(p, p);
    this.i++;
    return this.inlineValue(line, p, column);
  }

  /** A value that starts at offset `p` of `line` (the line is already consumed). */
  private inlineValue(line: Line, p: number, parent: number, inMapping = false): BlockNode {
    const text = line.text;
    const c = text[p]!;
    let node: BlockNode;
    // Counted where it starts, before its content (a flow sequence's entries), as the lexer counts.
    this.counted(undefined, line.start + p);
    if (c === '|') return this.literalBlock(line, p, parent, inMapping);
    if (c === '"' || c === "'") {
      const { value, end } = c === '"' ? parseDoubleQuoted(text, p) : parseSingleQuoted(text, p);
      if (!onlySpaces(stripComment(text.slice(end))) || (end < text.length && text[end] !== ' '))
        throw new Unsupported();
      node = {
        kind: 'scalar',
        style: c === '"' ? 'double' : 'single',
        text: value,
        start: line.start + p,
        end: line.start + end,
      };
    } else if (c === '{') {
      if (trimSpaces(stripComment(text.slice(p))) !== '{}') throw new Unsupported();
      this.counted(undefined, line.start + p + 1); // the `}`
      node = { kind: 'map', flow: true, start: line.start + p, pairs: [] };
    } else if (c === '[') {
      node = this.flowSequence(line, p);
    } else {
      if (
        PLAIN_FORBIDDEN_START.has(c) ||
        ((c === '-' || c === '?' || c === ':') && (p + 1 >= text.length || text[p + 1] === ' '))
      )
        throw new Unsupported();
      const raw = trimSpaces(stripComment(text.slice(p)));
      if (raw.includes(': ') || raw.endsWith(':')) throw new Unsupported();
      node = { kind: 'scalar', style: 'plain', text: raw, start: line.start + p, end: line.start + p + raw.length };
    }
    // A more-indented line after a one-line scalar would continue it (or be an error): not ours.
    this.skipInsignificant();
    const next = this.line(this.i);
    if (next !== undefined && next.indent > parent) throw new Unsupported();
    return node;
  }

  /** `[a, 'b', "c"]` on one line: scalars only (`clusterDNS: [10.96.0.10]`); nesting and comments inside are not ours. */
  private flowSequence(line: Line, p: number): BlockSeq {
    const text = line.text;
    const seq: BlockSeq = { kind: 'seq', flow: true, start: line.start + p, items: [] };
    let q = p + 1;
    for (;;) {
      while (text[q] === ' ') q++;
      if (text[q] === ']') {
        this.counted(undefined, line.start + q); // also after a trailing comma, which YAML allows
        break;
      }
      const c = text[q];
      if (c === '"' || c === "'") {
        const { node, end } = this.quotedScalar(line, q);
        seq.items.push(node);
        q = end;
      } else {
        let end = q;
        while (end < text.length && !',[]{}#'.includes(text[end]!)) end++;
        const raw = trimSpaces(text.slice(q, end));
        if (raw === '' || PLAIN_FORBIDDEN_START.has(raw[0]!) || /^[-?:](?: |$)/.test(raw) || /:(?: |$)/.test(raw))
          throw new Unsupported();
        seq.items.push(
          this.counted<BlockScalar>(
            {
              kind: 'scalar',
              style: 'plain',
              text: raw,
              start: line.start + q,
              end: line.start + q + raw.length,
            },
            line.start + q,
          ),
        );
        q = end;
      }
      while (text[q] === ' ') q++;
      if (text[q] === ',') this.counted(undefined, line.start + q++);
      else if (text[q] !== ']') throw new Unsupported();
    }
    if (!onlySpaces(stripComment(text.slice(q + 1))) || (q + 1 < text.length && text[q + 1] !== ' '))
      throw new Unsupported();
    return seq;
  }

  /**
   * `|`, `|-` or `|+`: literal lines more indented than the parent, auto-detected indentation; as a mapping
   * value also with an indentation indicator (`|2`, `|2-`...: the key's column plus that), which our own
   * writer uses for text that starts with a space or a blank line.
   */
  private literalBlock(line: Line, p: number, parent: number, inMapping: boolean): BlockScalar {
    const header = /^\|(?:([-+]?)([1-9])|([1-9])?([-+]?))$/.exec(trimSpaces(stripComment(line.text.slice(p))));
    if (header === null) throw new Unsupported();
    const indicator = header[2] ?? header[3];
    if (indicator !== undefined && !inMapping) throw new Unsupported();
    const explicit = indicator === undefined ? undefined : parent + Number(indicator);
    const chompSign = header[1] || header[4];
    const chomp = chompSign === '-' ? 'strip' : chompSign === '+' ? 'keep' : 'clip';
    let lines = 0;
    let indent = -1;
    let trailingBlank = 0;
    let leadingBlankWidth = 0;
    let end = line.start + line.text.length;
    const bodyStart = end + 1;
    let contentEnd = bodyStart;
    let blankEnd = end + 1;
    while (this.i < this.lineCount) {
      const l = this.line(this.i)!;
      if (l.indent < 0) {
        // Blank: spaces beyond the content indentation would be content; leading blank lines wider than the
        // first content line are an error. Either way, not ours.
        if (indent < 0) {
          leadingBlankWidth = Math.max(leadingBlankWidth, l.text.length);
          blankEnd = l.start + l.text.length + 1;
        }
        if (indent >= 0 && l.text.length > indent) throw new Unsupported();
        lines++;
        trailingBlank++;
        this.i++;
        continue;
      }
      if (indent < 0) {
        if (l.indent <= parent) break;
        indent = explicit ?? l.indent;
        if (l.indent < indent) throw new Unsupported(); // less indented than the indicator says: an error
        if (leadingBlankWidth > indent) throw new Unsupported();
        // A tab where the indentation is still being detected is an error for yaml.v3 (CLC): not ours.
        if (l.text[indent] === '\t') throw new Unsupported();
      }
      if (l.indent < indent) break;
      lines++;
      trailingBlank = 0;
      contentEnd = l.start + l.text.length;
      end = contentEnd + 1;
      this.i++;
    }
    // The last line of a file without a final newline has no line break to keep.
    if (this.i === this.lineCount && !this.source.endsWith('\n')) throw new Unsupported();
    if (indent < 0) {
      // No content: the value is empty, or (keep) the blank lines' line breaks; the node spans the blank lines.
      const value = chomp === 'keep' ? '\n'.repeat(lines) : '';
      return {
        kind: 'scalar',
        style: 'literal',
        text: value,
        start: line.start + p,
        end: Math.min(blankEnd, this.source.length),
      };
    }
    // The content lines without their indentation (blank lines within are no wider than it), in one pass
    // over the text instead of a string per line.
    const content = ('\n' + this.source.slice(bodyStart, contentEnd))
      .replace(indentationPattern(indent), '\n')
      .slice(1);
    const value =
      chomp === 'strip' ? content : chomp === 'clip' ? content + '\n' : content + '\n' + '\n'.repeat(trailingBlank);
    return {
      kind: 'scalar',
      style: 'literal',
      text: value,
      start: line.start + p,
      end: Math.min(end, this.source.length),
    };
  }
}

const indentationPatterns: RegExp[] = [];
/** A line break and up to `indent` spaces after it; made once per width. */
function indentationPattern(indent: number): RegExp {
  return (indentationPatterns[indent] ??= new RegExp(`\n {1,${indent}}`, 'g'));
}

function isSequenceEntry(text: string, at: number): boolean {
  return text[at] === '-' && (at + 1 === text.length || text[at + 1] === ' ');
}

/** Whether a mapping key starts at `p` (a plain or quoted key followed by `:` and a space or line end). */
function startsMapping(text: string, p: number): boolean {
  const c = text[p];
  if (c === '"' || c === "'") {
    try {
      const { end } = c === '"' ? parseDoubleQuoted(text, p) : parseSingleQuoted(text, p);
      return text[end] === ':' && (end + 1 === text.length || text[end + 1] === ' ');
    } catch {
      return false;
    }
  }
  const body = stripComment(text.slice(p));
  return /:(?: |$)/.test(body);
}

// YAML's white space is the space and the tab (tabs never reach these), not JavaScript's \s.
function trimSpaces(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 32) end--;
  return s.slice(0, end);
}

function onlySpaces(s: string): boolean {
  return trimSpaces(s) === '';
}

/** The text before a comment: `#` at the start or after a space, outside quotes (callers pass unquoted text). */
function stripComment(s: string): string {
  if (s.startsWith('#')) return '';
  const hash = s.indexOf(' #');
  return hash < 0 ? s : s.slice(0, hash);
}

function parseSingleQuoted(text: string, at: number): { value: string; end: number } {
  let value = '';
  let p = at + 1;
  for (;;) {
    const q = text.indexOf("'", p);
    if (q < 0) throw new Unsupported(); // continues on the next line
    value += text.slice(p, q);
    if (text[q + 1] === "'") {
      value += "'";
      p = q + 2;
      continue;
    }
    return { value, end: q + 1 };
  }
}

function parseDoubleQuoted(text: string, at: number): { value: string; end: number } {
  // Runs between escapes are sliced whole and joined once: a string built a character at a time costs
  // tens of bytes per character for a long scalar.
  const parts: string[] = [];
  let run = at + 1;
  let p = run;
  while (p < text.length) {
    const c = text.charCodeAt(p);
    if (c !== 0x22 && c !== 0x5c) {
      p++;
      continue;
    }
    if (p > run) parts.push(text.slice(run, p));
    if (c === 0x22) return { value: parts.length === 1 ? parts[0]! : parts.join(''), end: p + 1 };
    const e = text[p + 1];
    if (e === undefined) break;
    const simple = DOUBLE_QUOTE_ESCAPES[e];
    if (simple !== undefined) {
      parts.push(simple);
      p += 2;
      run = p;
      continue;
    }
    const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    const hex = text.slice(p + 2, p + 2 + width);
    if (width === 0 || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) throw new Unsupported();
    const code = parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new Unsupported();
    parts.push(String.fromCodePoint(code));
    p += 2 + width;
    run = p;
  }
  throw new Unsupported(); // unterminated on this line
}
