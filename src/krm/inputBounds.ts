// Bounds on what any input may cost before it becomes values: its size, its bytes (UTF-8 only), its nesting,
// its YAML nodes (a run's, over all its inputs) and what its YAML aliases expand to. Every reader (the KRM function's stdin, every file read through the
// file gate, src/cli/fileGate.ts, which does the reading) goes through these, so hostile input ends in a clear
// error instead of a crash or a silent rewrite.
import { constants } from 'node:buffer';
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';
import { lineAndColumn } from './parseErrorMessage.ts';
import { MAX_NESTING_DEPTH } from '../codec/nestingLimit.ts';
import { countYamlNodes, MAX_YAML_LAYOUT, MAX_YAML_NODES, NodeLimitReached } from '../codec/nodeLimit.ts';

/**
 * The most osm-krm reads from one input (stdin, a file): reading costs up to ~12 times the input's size
 * (a block scalar of millions of lines, measured: README.md, Threat model), so this keeps a run within its
 * 2 GiB memory target. It is also far below what one JavaScript string holds (V8: 2^29 - 24 characters),
 * so a bigger input ends in this error, not a crash.
 */
export const MAX_INPUT_BYTES = Math.min(96 * 1024 * 1024, constants.MAX_STRING_LENGTH);
/** The `yaml` package needs up to ~25 times the text: input beyond the fast path is bounded lower. */
export const MAX_FULL_PARSER_BYTES = 64 * 1024 * 1024;
/** What aliases may add beyond the input's own size: the input once more, plus this. */
export const ALIAS_EXPANSION_ALLOWANCE = 16 * 1024 * 1024;
/**
 * The most aliases a run reads: the `yaml` package resolves each alias by a scan over the anchors and aliases
 * before it (yaml 2.9.1, nodes/Alias.js), so n aliases cost n * n / 2 steps (1,000,000 of them: hours).
 */
export const MAX_ALIASES = 10_000;

/** An input refused by one of the bounds; readers turn it into their own error (KRM result, command error). */
export class InputLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputLimitError';
  }
}

const MiB = (n: number) => `${Math.floor(n / (1024 * 1024))} MiB`;

/**
 * Bytes as text, refusing anything that is not UTF-8: a decoder would replace it by U+FFFD, and the output
 * would silently carry a rewritten copy of the user's resource.
 */
export function decodeUtf8(bytes: Uint8Array, where: string): string {
  const { isUtf8 } = process.getBuiltinModule('node:buffer');
  if (isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const at = firstInvalidUtf8(bytes);
  throw new InvalidUtf8Error(where, at, bytes);
}

/** Not UTF-8: where the first bad byte is, as line and column (1-based, columns in bytes). */
export class InvalidUtf8Error extends InputLimitError {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  constructor(where: string, offset: number, bytes: Uint8Array) {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const column = offset - lineStart + 1;
    super(
      `${where} is not valid UTF-8: byte 0x${bytes[offset]!.toString(16).padStart(2, '0')} at line ${line}, column ${column}; osm-krm refuses to rewrite it`,
    );
    this.offset = offset;
    this.line = line;
    this.column = column;
  }
}

function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    let n: number;
    let min: number;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) [n, min] = [1, 0x80];
    else if (c >= 0xe0 && c <= 0xef) [n, min] = [2, 0x800];
    else if (c >= 0xf0 && c <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const cc = b[i + k];
      if (cc === undefined || (cc & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return b.length;
}

/** Text for the `yaml` package: at most MAX_FULL_PARSER_BYTES (UTF-16 units, which is at most its bytes). */
export function checkFullParserSize(text: string, where: string): void {
  if (text.length > MAX_FULL_PARSER_BYTES) {
    throw new InputLimitError(
      `${where} is larger than ${MiB(MAX_FULL_PARSER_BYTES)} and not plain block YAML (anchors, flow collections, folded or multi-line scalars, tags...), which osm-krm reads only up to that size (to stay within 2 GiB of memory)`,
    );
  }
}

/**
 * Every parse by the `yaml` package runs here. A parse that overflowed the stack was nested too deeply; anything
 * else is passed on. The package makes an Error object for every error and warning in the text (a stray `]`,
 * an unknown directive), and each would capture a stack trace it never shows: a million stray `]` took 1.4 GB
 * with traces, 0.4 GB without, so the parse captures none.
 */
export function parseWithinStack<T>(parse: () => T, where: string): T {
  const traces = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return parse();
  } catch (e) {
    if (e instanceof RangeError && isStackOverflow(e.message)) throw nestingError(where);
    throw e;
  } finally {
    Error.stackTraceLimit = traces;
  }
}

/** The `yaml` package reports a stack overflow as a parse error of the document. */
export function isStackOverflow(message: string): boolean {
  return /maximum call stack/i.test(message);
}

export function nestingError(where: string): InputLimitError {
  return new InputLimitError(`${where} is nested more than ${MAX_NESTING_DEPTH} levels deep`);
}

/**
 * What a run's values may take written back as block YAML (kept items, the command's ResourceList for the
 * function, hydrate's and generate's files), beyond the full parser's texts themselves: WRITTEN_PER_BYTE times
 * their bytes plus this, for the whole run. Our writer indents every line by its depth (two spaces a level) and
 * writes a multi-line string as a literal block, one indented line per line break, so a 3 MB JSON file of one
 * string of a million `\n` escapes 250 levels deep was written as 500 MB: `render` 50 s, `generate` and
 * `hydrate` 66-68 s at 2.7 GB, exit 0 (README.md, Threat model).
 */
export const WRITTEN_ALLOWANCE = 32 * 1024 * 1024;
/** See WRITTEN_ALLOWANCE: compact JSON of Kubernetes objects written as YAML takes up to ~3 times its bytes. */
export const WRITTEN_PER_BYTE = 4;

/** What a node measures: `size` as the alias bound counts, `height`, and its text written at depth 0 and lines. */
interface Measure {
  size: number;
  height: number;
  /** Characters it takes written as block YAML at depth 0; at depth d, 2 * d * `lines` more. */
  written: number;
  lines: number;
}

/**
 * Checks a parsed YAML document before it becomes values: nesting at most MAX_NESTING_DEPTH (aliases counted
 * as what they expand to), an expanded size (characters of scalars plus one per node, each alias counted
 * as its anchor's whole content) of at most twice the text plus ALIAS_EXPANSION_ALLOWANCE, and what the values
 * take written as block YAML (indentation and aliases expanded) within the run's `budget`. Hand-written files
 * with many aliases pass; an alias bomb is refused after one walk over its (small) tree, before expansion.
 * Then the values, with no limit on the alias count (the size was bounded instead), each alias resolved to the
 * node this walk found for it: the `yaml` package would scan every anchor and alias before each alias (10,000
 * aliases after 450,000 anchors: over 120 s).
 */
export function boundedToJS(doc: Document, text: string, where: string, budget: NodeBudget): unknown {
  const limit = 2 * text.length + ALIAS_EXPANSION_ALLOWANCE;
  // An alias's name is input text (a token written unquoted after `*`): its place is named instead.
  const at = (n: Node) => {
    const { line, column } = lineAndColumn(text, n.range?.[0] ?? 0);
    return `line ${line}, column ${column}`;
  };
  const measured = new Map<Node, Measure>();
  const inProgress = new Set<Node>();
  // Each anchor's node, as the walk (in document order) meets it: an alias names the last one before it.
  const anchors = new Map<string, Node>();
  const EMPTY: Measure = { size: 1, height: 0, written: 5, lines: 1 };
  const measure = (node: unknown, depth: number): Measure => {
    if (node === null || node === undefined) return EMPTY;
    if (depth > MAX_NESTING_DEPTH) throw nestingError(where);
    const n = node as Node;
    const known = measured.get(n);
    if (known !== undefined) {
      if (depth + known.height > MAX_NESTING_DEPTH) throw nestingError(where);
      return known;
    }
    let result: Measure;
    if (!isAlias(n) && n.anchor !== undefined) anchors.set(n.anchor, n);
    if (isScalar(n)) {
      const v = n.value;
      result = { size: 1 + (typeof v === 'string' ? v.length : 8), height: 0, ...scalarWritten(v) };
    } else if (isAlias(n)) {
      const target = anchors.get(n.source);
      if (target === undefined)
        throw new InputLimitError(`${where}: the alias at ${at(n)} refers to no anchor before it`);
      if (inProgress.has(target))
        throw new InputLimitError(`${where}: the alias at ${at(n)} refers to a node that contains it`);
      result = measure(target, depth);
      // What the package's own resolution (Alias.resolve, called by its toJS and merge keys) would find.
      Object.defineProperty(n, 'resolve', { value: () => target, configurable: true });
    } else if (isMap(n) || isSeq(n)) {
      inProgress.add(n);
      let size = 1;
      let height = 0;
      let written = 4;
      let lines = 0;
      for (const item of n.items as unknown[]) {
        const parts = isPair(item) ? [item.key, item.value] : [item];
        for (const part of parts) {
          const m = measure(part, depth + 1);
          size += m.size;
          height = Math.max(height, m.height + 1);
          // One level deeper than this node; an entry that is a collection may take a line of its own (`-`).
          const entryLine = isPair(item) || m.height === 0 ? 0 : 1;
          written += m.written + 2 * (m.lines + entryLine);
          lines += m.lines + entryLine;
        }
        if (size > limit) throw expansionError(where, limit);
      }
      inProgress.delete(n);
      result = { size, height, written, lines: Math.max(1, lines) };
    } else {
      result = { size: 1, height: 0, written: 5, lines: 1 };
    }
    measured.set(n, result);
    return result;
  };
  const total = parseWithinStack(() => measure(doc.contents, 0), where);
  if (total.size > limit) throw expansionError(where, limit);
  budget.spendWritten(total.written, where);
  return doc.toJS({ maxAliasCount: -1 });
}

/** A scalar written at depth 0: a multi-line string is a literal block, a line (indented) per line break. */
function scalarWritten(v: unknown): { written: number; lines: number } {
  const length = typeof v === 'string' ? v.length : 8;
  const lines = typeof v === 'string' ? 1 + lineBreaks(v) : 1;
  return { written: 4 + length + 2 * lines, lines };
}

/**
 * What plain values (a tree: the fast path's, which has no aliases) take written as block YAML at depth 0, by
 * boundedToJS's measure; the fast path's text holds the indentation of its lines, but not of the lines a
 * one-line flow sequence or a double-quoted string's `\n` escapes become.
 */
export function writtenSize(value: unknown): { written: number; lines: number } {
  if (value === null || typeof value !== 'object') return scalarWritten(value);
  let written = 4;
  let lines = 0;
  const isArray = Array.isArray(value);
  for (const [key, item] of Object.entries(value)) {
    const m = writtenSize(item);
    const collection = item !== null && typeof item === 'object' && Object.keys(item).length > 0;
    // As boundedToJS: a key is a scalar of its own; a sequence entry that is a collection may take a line.
    const parts = isArray ? (collection ? 1 : 0) : 0;
    const k = isArray ? { written: 0, lines: 0 } : scalarWritten(key);
    written += k.written + 2 * k.lines + m.written + 2 * (m.lines + parts);
    lines += k.lines + m.lines + parts;
  }
  return { written, lines: Math.max(1, lines) };
}

/** How many `\n` a string holds. */
function lineBreaks(s: string): number {
  let count = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) count++;
  return count;
}

function expansionError(where: string, limit: number): InputLimitError {
  return new InputLimitError(
    `${where}: its aliases expand to more than ${MiB(limit)} (twice the input plus ${MiB(ALIAS_EXPANSION_ALLOWANCE)}); refusing it as an alias bomb`,
  );
}

/**
 * The YAML nodes a run may compose, over every input it reads (stdin, or every file of a PATH): counted by
 * nodeLimit.ts's rule before they are composed, so many small items cost at most what this many do. `spent`
 * is what the run's inputs counted so far.
 */
export class NodeBudget {
  spent = 0;
  /** The aliases read so far (at most MAX_ALIASES). */
  aliases = 0;
  /** The layout tokens (spaces, line breaks, comments) the full parser read so far. */
  layout = 0;
  /** The characters of the texts read so far (what their values may take written grows with them). */
  bytes = 0;
  /** What the values read by the full parser so far take written as block YAML (boundedToJS measures it). */
  written = 0;
  /** The limit was reached: every later read of the run is refused too (callers that skip unreadable files stop). */
  reached = false;
  /** `scope`: what the limits are for, in errors ("in one run"). */
  constructor(
    readonly limit: number = MAX_YAML_NODES,
    readonly layoutLimit: number = MAX_YAML_LAYOUT,
    readonly scope = 'in one run',
  ) {}

  /** How many more nodes the run may compose. */
  get left(): number {
    return this.limit - this.spent;
  }

  /**
   * Counts, with the lexer, a text's nodes, aliases and layout before the full parser reads it; refuses it
   * past a limit.
   */
  countText(text: string, where: string): void {
    try {
      const counted = countYamlNodes(text, this.left, MAX_ALIASES - this.aliases, this.layoutLimit - this.layout);
      this.spent += counted.nodes;
      this.aliases += counted.aliases;
      this.layout += counted.layout;
      this.credit(text);
    } catch (e) {
      if (!(e instanceof NodeLimitReached)) throw e;
      if (e.of === 'nodes') throw this.exceeded(text, e.offset, where);
      const { line, column } = lineAndColumn(text, e.offset);
      if (e.of === 'name')
        throw new InputLimitError(
          `${where} has an anchor, an alias or a tag longer than 16,383 characters (with its & * or !) at line ${line}, column ${column} (longer ones would all share one hash)`,
        );
      this.reached = true;
      throw new InputLimitError(
        e.of === 'aliases'
          ? `${where} holds more YAML aliases than osm-krm reads ${this.scope}: the limit of ${MAX_ALIASES.toLocaleString('en-US')} (the YAML reader resolves each alias by a scan over those before it) is reached at line ${line}, column ${column}`
          : `${where} holds more spaces, line breaks and comments than osm-krm reads ${this.scope} outside plain block YAML: the limit of ${this.layoutLimit.toLocaleString('en-US')} (the full YAML reader keeps an object for each; to stay within 2 GiB of memory) is reached at line ${line}, column ${column}`,
      );
    }
  }

  /** What the run's values may still take written as block YAML (WRITTEN_ALLOWANCE). */
  get writtenLeft(): number {
    if (this.limit === Infinity) return Infinity;
    return WRITTEN_ALLOWANCE + WRITTEN_PER_BYTE * this.bytes - this.written;
  }

  /** Adds a text the run reads (once, whatever its documents): what its values may take written grows with it. */
  credit(text: string): void {
    this.bytes += text.length;
  }

  /** Adds what a document's values take written; refuses them past the run's allowance. */
  spendWritten(written: number, where: string): void {
    if (written > this.writtenLeft) throw this.writtenExceeded(where);
    this.written += written;
  }

  /** The error for values that would take more written than the run's allowance. */
  writtenExceeded(where: string): InputLimitError {
    this.reached = true;
    return new InputLimitError(
      `${where} would take more than osm-krm writes ${this.scope} when written back as YAML: ${WRITTEN_PER_BYTE} times the size of the inputs plus ${MiB(WRITTEN_ALLOWANCE)} (every line is indented by its depth, a multi-line string is written one indented line per line break, and aliases are written expanded; to stay within 2 GiB of memory)`,
    );
  }

  /**
   * For a text the run made itself from objects whose nodes were counted when they were read (a command's
   * ResourceList for the function, the function's output read back): not counted again.
   */
  static countedAlready(): NodeBudget {
    return new NodeBudget(Infinity, Infinity);
  }

  /** The error for a text whose nodes made the run's count pass the limit at `offset`. */
  exceeded(text: string, offset: number, where: string): InputLimitError {
    this.reached = true;
    const { line, column } = lineAndColumn(text, offset);
    const others = this.spent > 0 ? ` (with ${this.spent.toLocaleString('en-US')} in the inputs read before it)` : '';
    return new InputLimitError(
      `${where} holds more YAML nodes than osm-krm reads ${this.scope}: the limit of ${this.limit.toLocaleString('en-US')} (every scalar, alias, anchor, tag, indicator, bracket, directive and document marker; to stay within 2 GiB of memory) is reached at line ${line}, column ${column}${others}`,
    );
  }
}
