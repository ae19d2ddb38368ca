// A small parser for the plain block YAML that kpt, kustomize and people write in ResourceLists, because
// the full parser (the `yaml` package) costs more at start-up than everything else the function does: about
// 200 M instructions for the 8 KB example, against 20 M here (bench/README.md).
//
// It is a fast path, not a second YAML implementation: it accepts block mappings and sequences, plain and
// quoted one-line scalars, literal block scalars, empty flow collections and comments, and returns undefined
// for anything else (anchors, aliases, tags, flow collections, folded or multi-line scalars, tabs, CRLF,
// duplicate or non-string keys, several documents...), so the caller falls back to the full parser. Plain
// scalars are resolved with the full parser's own schema tags, so `0644`, `1e3` or `~` mean the same in both.
// test/unit/blockYamlFastPath.test.ts checks that both give identical results on every input it accepts.
import { Document, isScalar, type ParseOptions, type DocumentOptions, type SchemaOptions } from 'yaml';

export interface FastParse {
  root: Record<string, unknown>;
  /** Offsets of the `-` of each entry of the root's block sequence `items` (absent for a flow `items`). */
  itemDashes?: number[];
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

export function createBlockYamlFastPath(options: ParseOptions & DocumentOptions & SchemaOptions): (text: string) => FastParse | undefined {
  const doc = new Document(undefined, options);
  const tags = (doc.schema as unknown as { tags: ScalarTag[] }).tags.filter((t) => t.default === true && t.test !== undefined);
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
  return (text) => {
    try {
      return new BlockParser(text, resolvePlain).parseDocument();
    } catch (e) {
      if (e instanceof Unsupported) return undefined;
      throw e;
    }
  };
}

// Characters that may not start a plain scalar (YAML 1.2 c-indicator), besides `-`, `?` and `:` which may
// when followed by a non-space.
const PLAIN_FORBIDDEN_START = new Set(['[', ']', '{', '}', ',', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);

const DOUBLE_QUOTE_ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ',
  '"': '"', '/': '/', '\\': '\\', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029',
};

class BlockParser {
  private readonly lines: Line[] = [];
  private i = 0;
  private itemDashes: number[] | undefined;

  constructor(
    private readonly source: string,
    private readonly resolvePlain: (value: string) => unknown,
  ) {
    if (source.includes('\r') || source.charCodeAt(0) === 0xfeff) throw new Unsupported();
    let start = 0;
    while (start < source.length) {
      let end = source.indexOf('\n', start);
      if (end < 0) end = source.length;
      const text = source.slice(start, end);
      let indent = 0;
      while (text.charCodeAt(indent) === 32) indent++;
      this.lines.push({ start, indent: indent === text.length ? -1 : indent, text });
      start = end + 1;
    }
  }

  parseDocument(): FastParse {
    this.skipInsignificant();
    const first = this.lines[this.i];
    if (first !== undefined && /^---(?:\s|$)/.test(first.text)) {
      if (!onlySpaces(stripComment(first.text.slice(3)))) throw new Unsupported();
      this.i++;
      this.skipInsignificant();
    }
    const line = this.lines[this.i];
    if (line === undefined || line.indent !== 0 || isSequenceEntry(line.text, 0)) throw new Unsupported();
    const root = this.parseMapping(0, 0, true);
    this.skipInsignificant();
    if (this.i < this.lines.length) throw new Unsupported(); // a second document, `...`, or bad indentation
    return { root, ...(this.itemDashes ? { itemDashes: this.itemDashes } : {}) };
  }

  /** Blank lines and comment-only lines; a tab anywhere outside block scalars is left to the full parser. */
  private skipInsignificant(): void {
    while (this.i < this.lines.length) {
      const l = this.lines[this.i]!;
      if (l.text.includes('\t')) throw new Unsupported();
      if (l.indent >= 0 && l.text[l.indent] !== '#') return;
      this.i++;
    }
  }

  /**
   * A block mapping whose keys sit at `column`. The first key may start mid-line (`- key: v`), at `offset`
   * of the current line.
   */
  private parseMapping(column: number, offset: number, isRoot = false): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    let first = true;
    for (;;) {
      if (!first) {
        this.skipInsignificant();
        const l = this.lines[this.i];
        if (l === undefined || l.indent < column) break;
        if (l.indent > column || isSequenceEntry(l.text, column)) throw new Unsupported();
      }
      const line = this.lines[this.i]!;
      const at = first ? offset : column;
      first = false;
      const { key, rest } = this.parseKey(line.text, at);
      if (Object.prototype.hasOwnProperty.call(map, key) || key === '__proto__' || key === '<<') throw new Unsupported();
      map[key] = this.parseValue(line, rest, column, isRoot && key === 'items');
    }
    return map;
  }

  /** `key:` at `at`; returns the key and the offset just after the colon. */
  private parseKey(text: string, at: number): { key: string; rest: number } {
    const c = text[at];
    if (c === '"' || c === "'") {
      const { value, end } = c === '"' ? parseDoubleQuoted(text, at) : parseSingleQuoted(text, at);
      if (text[end] !== ':' || (end + 1 < text.length && text[end + 1] !== ' ')) throw new Unsupported();
      return { key: value, rest: end + 1 };
    }
    if (c === undefined || c === '?' || PLAIN_FORBIDDEN_START.has(c) || (c === '-' && isSequenceEntry(text, at))) throw new Unsupported();
    let colon = text.indexOf(':', at);
    while (colon >= 0 && colon + 1 < text.length && text[colon + 1] !== ' ') colon = text.indexOf(':', colon + 1);
    if (colon < 0) throw new Unsupported();
    const raw = text.slice(at, colon);
    if (raw.includes(' #') || raw !== trimSpaces(raw)) throw new Unsupported();
    const key = this.resolvePlain(raw);
    if (typeof key !== 'string') throw new Unsupported();
    return { key, rest: colon + 1 };
  }

  /**
   * The value after `key:` (or after `- `) on `line` from offset `rest`; `parent` is the column of the key
   * (or dash). Advances past every line the value uses.
   */
  private parseValue(line: Line, rest: number, parent: number, recordDashes = false): unknown {
    const text = line.text;
    let p = rest;
    while (text[p] === ' ') p++;
    if (p > rest || p === text.length) {
      // Something follows on this line, unless only a comment does.
      if (p < text.length && text[p] !== '#') {
        this.i++;
        return this.inlineValue(line, p, parent);
      }
    } else if (p < text.length) {
      throw new Unsupported(); // `key:value` is one plain scalar, not a pair
    }
    this.i++;
    // Nothing on the line: the value is the following more-indented block, or a sequence at the key's
    // column (`key:\n- a`), or null.
    this.skipInsignificant();
    const next = this.lines[this.i];
    if (next === undefined) return null;
    if (next.indent > parent) {
      if (isSequenceEntry(next.text, next.indent)) return this.parseSequence(next.indent, recordDashes);
      return this.parseMapping(next.indent, next.indent);
    }
    if (next.indent === parent && isSequenceEntry(next.text, parent) && !this.inSequenceAt(parent)) {
      return this.parseSequence(parent, recordDashes);
    }
    return null;
  }

  // A sequence entry at the same column as the current key would belong to an enclosing sequence only
  // when that sequence's dashes are at this column; `- key:\n- x` is such a case and is left to the full parser.
  private readonly sequenceColumns: number[] = [];
  private inSequenceAt(column: number): boolean {
    if (this.sequenceColumns.includes(column)) throw new Unsupported();
    return false;
  }

  private parseSequence(column: number, recordDashes: boolean): unknown[] {
    const seq: unknown[] = [];
    if (recordDashes) this.itemDashes = [];
    this.sequenceColumns.push(column);
    for (;;) {
      this.skipInsignificant();
      const l = this.lines[this.i];
      if (l === undefined || l.indent < column) break;
      if (l.indent > column || !isSequenceEntry(l.text, column)) {
        // A key at the dash column ends the sequence (`key:\n- a\nnext: b`); anything else is not ours.
        if (l.indent === column && !isSequenceEntry(l.text, column)) break;
        throw new Unsupported();
      }
      if (recordDashes) this.itemDashes!.push(l.start + column);
      seq.push(this.parseEntry(l, column));
    }
    this.sequenceColumns.pop();
    return seq;
  }

  private parseEntry(line: Line, column: number): unknown {
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
  private inlineValue(line: Line, p: number, parent: number): unknown {
    const text = line.text;
    const c = text[p]!;
    let value: unknown;
    let end: number;
    if (c === '|') return this.literalBlock(text, p, parent);
    if (c === '"' || c === "'") {
      ({ value, end } = c === '"' ? parseDoubleQuoted(text, p) : parseSingleQuoted(text, p));
      if (!onlySpaces(stripComment(text.slice(end))) || (end < text.length && text[end] !== ' ')) throw new Unsupported();
    } else if (c === '{') {
      if (trimSpaces(stripComment(text.slice(p))) !== '{}') throw new Unsupported();
      value = {};
    } else if (c === '[') {
      value = this.flowSequence(text, p);
    } else {
      if (PLAIN_FORBIDDEN_START.has(c) || ((c === '-' || c === '?' || c === ':') && (p + 1 >= text.length || text[p + 1] === ' '))) throw new Unsupported();
      const raw = trimSpaces(stripComment(text.slice(p)));
      if (raw.includes(': ') || raw.endsWith(':')) throw new Unsupported();
      value = this.resolvePlain(raw);
    }
    // A more-indented line after a one-line scalar would continue it (or be an error): not ours.
    this.skipInsignificant();
    const next = this.lines[this.i];
    if (next !== undefined && next.indent > parent) throw new Unsupported();
    return value;
  }

  /** `[a, 'b', "c"]` on one line: scalars only (`clusterDNS: [10.96.0.10]`); nesting and comments inside are not ours. */
  private flowSequence(text: string, p: number): unknown[] {
    const values: unknown[] = [];
    let q = p + 1;
    for (;;) {
      while (text[q] === ' ') q++;
      if (text[q] === ']') break; // also after a trailing comma, which YAML allows
      const c = text[q];
      if (c === '"' || c === "'") {
        const { value, end } = c === '"' ? parseDoubleQuoted(text, q) : parseSingleQuoted(text, q);
        values.push(value);
        q = end;
      } else {
        let end = q;
        while (end < text.length && !',[]{}#'.includes(text[end]!)) end++;
        const raw = trimSpaces(text.slice(q, end));
        if (raw === '' || PLAIN_FORBIDDEN_START.has(raw[0]!) || /^[-?:](?: |$)/.test(raw) || /:(?: |$)/.test(raw)) throw new Unsupported();
        values.push(this.resolvePlain(raw));
        q = end;
      }
      while (text[q] === ' ') q++;
      if (text[q] === ',') q++;
      else if (text[q] !== ']') throw new Unsupported();
    }
    if (!onlySpaces(stripComment(text.slice(q + 1))) || (q + 1 < text.length && text[q + 1] !== ' ')) throw new Unsupported();
    return values;
  }

  /** `|`, `|-` or `|+`: literal lines more indented than the parent, auto-detected indentation. */
  private literalBlock(text: string, p: number, parent: number): string {
    const header = trimSpaces(stripComment(text.slice(p)));
    const chomp = header === '|' ? 'clip' : header === '|-' ? 'strip' : header === '|+' ? 'keep' : undefined;
    if (chomp === undefined) throw new Unsupported();
    const body: string[] = [];
    let indent = -1;
    let trailingBlank = 0;
    while (this.i < this.lines.length) {
      const l = this.lines[this.i]!;
      if (l.indent < 0) {
        // Blank: spaces beyond the content indentation are content, as are leading ones that would fix it.
        if (indent < 0 && l.text.length > parent + 1) throw new Unsupported();
        if (indent >= 0 && l.text.length > indent) throw new Unsupported();
        body.push('');
        trailingBlank++;
        this.i++;
        continue;
      }
      if (indent < 0) {
        if (l.indent <= parent) break;
        indent = l.indent;
      }
      if (l.indent < indent) break;
      body.push(l.text.slice(indent));
      trailingBlank = 0;
      this.i++;
    }
    if (indent < 0) throw new Unsupported(); // empty block scalar: chomping corner cases
    // The last line of a file without a final newline has no line break to keep.
    if (this.i === this.lines.length && !this.source.endsWith('\n')) throw new Unsupported();
    const content = body.slice(0, body.length - trailingBlank);
    const joined = content.join('\n');
    if (chomp === 'strip') return joined;
    if (chomp === 'clip') return joined + '\n';
    return joined + '\n' + '\n'.repeat(trailingBlank);
  }
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
  let value = '';
  let p = at + 1;
  while (p < text.length) {
    const c = text[p]!;
    if (c === '"') return { value, end: p + 1 };
    if (c !== '\\') {
      value += c;
      p++;
      continue;
    }
    const e = text[p + 1];
    if (e === undefined) break;
    const simple = DOUBLE_QUOTE_ESCAPES[e];
    if (simple !== undefined) {
      value += simple;
      p += 2;
      continue;
    }
    const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    const hex = text.slice(p + 2, p + 2 + width);
    if (width === 0 || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) throw new Unsupported();
    const code = parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new Unsupported();
    value += String.fromCodePoint(code);
    p += 2 + width;
  }
  throw new Unsupported(); // unterminated on this line
}
