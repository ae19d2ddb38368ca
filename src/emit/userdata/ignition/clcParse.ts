// ct's config.Parse for the Container Linux Config we render: YAML → ct's config types, decoded with
// gopkg.in/yaml.v3's rules (see ./yamlV3.ts) and failing where it fails, with its error texts where we can
// reproduce them. Only the fields our CLC uses are modelled; the positions kept are the ones Ignition's
// validation report points at.
import {
  Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  Pair,
  parseAllDocuments,
  Scalar,
  YAMLMap,
  YAMLSeq,
  type Node,
} from 'yaml';
import { parseBlockYaml, type BlockNode } from '../../../codec/blockYamlFastPath.ts';
import { goQuote } from '../../../go/strconv/format.ts';
import { UserDataError } from '../errors.ts';
import { yamlErrorText } from '../../../krm/parseErrorMessage.ts';
import {
  blockScalarTabError,
  goBoolOf,
  goInt64Of,
  prepareForParser,
  resolvePlain,
  type Resolved,
} from '../../../go/yaml.v3/resolvePlain.ts';
import { decodeBlockTree, DOUBLE_QUOTED, SINGLE_QUOTED } from './clcBlockDecode.ts';
import {
  decodeClcConfig,
  UNMODELLED,
  type ClcConfig,
  type ClcDecoder,
  type Position,
  type StructKind,
} from './clcSchema.ts';

export type { ClcConfig, ClcDropIn, ClcFile, ClcUnit, ClcUser, Position } from './clcSchema.ts';

const PARSE_ERROR = 'failed to validate coreos cloud config';

class Decoder implements ClcDecoder<Node> {
  readonly errors: string[] = [];

  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
    private readonly text: string,
  ) {}

  at(node: Node): Position {
    let offset = node.range![0];
    // yaml.v3 places an empty value right after its ':' or '-'; the `yaml` package after the blanks that follow.
    if (isScalar(node) && node.range![1] === offset) {
      while (offset > 0 && (this.text[offset - 1] === ' ' || this.text[offset - 1] === '\t')) offset--;
    }
    const p = this.lines.linePos(offset);
    return { line: p.line, column: p.col };
  }

  position(node: Node): Position {
    return this.at(this.deref(node));
  }

  /** Aliases decode as the node they point at. */
  deref(node: Node): Node {
    let n = node;
    for (let i = 0; isAlias(n) && i < 100; i++) {
      const target = n.resolve(this.doc);
      if (target === undefined)
        throw new UserDataError(`${PARSE_ERROR}: error: yaml: unknown anchor '${n.source}' referenced`);
      n = target as Node;
    }
    return n;
  }

  // Explicit tags never get here (see checkLibyamlRestrictions): a node's tag is its resolved one.
  isNull(node: Node): boolean {
    return isScalar(node) && node.type === Scalar.PLAIN && resolvePlain(String(node.value)).tag === '!!null';
  }

  /** yaml.v3's tag of a node as its error messages show it. */
  private tagOf(node: Node): string {
    if (isMap(node)) return '!!map';
    if (isSeq(node)) return '!!seq';
    if (isScalar(node) && node.type === Scalar.PLAIN) return resolvePlain(String(node.value)).tag;
    return '!!str';
  }

  typeError(node: Node, goType: string): void {
    const tag = this.tagOf(node);
    let value = '';
    if (tag !== '!!map' && tag !== '!!seq') {
      const bytes = Buffer.from(String((node as Scalar).value), 'utf8');
      value =
        bytes.length > 10 ? ' `' + bytes.subarray(0, 7).toString('utf8') + '...`' : ' `' + bytes.toString('utf8') + '`';
    }
    this.errors.push(`line ${this.at(node).line}: cannot unmarshal ${tag}${value} into ${goType}`);
  }

  /**
   * A struct: calls `field` for each key in document order. Returns false (nothing decoded) when yaml.v3
   * would not decode it: null, a non-mapping (a type error), or duplicate keys.
   */
  struct(node: Node, goType: string, kind: StructKind, field: (key: string, value: Node) => void): boolean {
    const n = this.deref(node);
    if (this.isNull(n)) return false;
    if (!isMap(n)) {
      this.typeError(n, goType);
      return false;
    }
    const keys = n.items.map((pair) => ({ key: this.deref(pair.key as Node), value: pair.value as Node | null }));
    const before = this.errors.length;
    for (let i = 0; i < keys.length; i++) {
      for (let j = i + 1; j < keys.length; j++) {
        const a = keys[i]!.key;
        const b = keys[j]!.key;
        if (isScalar(a) && isScalar(b) && String(a.value) === String(b.value)) {
          this.errors.push(
            `line ${this.at(b).line}: mapping key ${goQuote(String(b.value))} already defined at line ${this.at(a).line}`,
          );
        }
      }
    }
    if (this.errors.length > before) return false;
    for (const { key, value } of keys) {
      if (!isScalar(key) || this.isNull(key)) continue;
      const name = String(key.value);
      if (UNMODELLED[kind]!.includes(name)) {
        throw new UserDataError(
          `${PARSE_ERROR}: the rendered Container Linux Config has an unexpected "${name}" at line ${this.at(key).line} (a name or content broke its YAML structure)`,
        );
      }
      if (value !== null) field(name, value);
    }
    return true;
  }

  /** A slice: items that do not decode (nulls included) are dropped, as yaml.v3 does. */
  slice<T>(node: Node, goType: string, item: (n: Node) => T | undefined): T[] {
    const n = this.deref(node);
    if (this.isNull(n)) return [];
    if (!isSeq(n)) {
      this.typeError(n, goType);
      return [];
    }
    const out: T[] = [];
    for (const child of n.items) {
      const v = item(child as Node);
      if (v !== undefined) out.push(v);
    }
    return out;
  }

  /** A Go string: any non-null scalar's text; undefined (not decoded) for null or a collection. */
  string(node: Node): string | undefined {
    const n = this.deref(node);
    if (this.isNull(n)) return undefined;
    if (!isScalar(n)) {
      this.typeError(n, 'string');
      return undefined;
    }
    return String(n.value);
  }

  private resolved(n: Scalar): Resolved {
    return n.type === Scalar.PLAIN ? resolvePlain(String(n.value)) : { tag: '!!str' };
  }

  /** A Go int (64-bit) from an int or a float, as yaml.v3 converts them. */
  int(node: Node): bigint | undefined {
    const n = this.deref(node);
    if (this.isNull(n)) return undefined;
    const v = isScalar(n) ? goInt64Of(this.resolved(n)) : undefined;
    if (v === undefined) this.typeError(n, 'int');
    return v;
  }

  /** A Go bool, with yaml.v3's YAML 1.1 spellings (yes, on, ...) accepted for typed bools. */
  bool(node: Node): boolean | undefined {
    const n = this.deref(node);
    if (this.isNull(n)) return undefined;
    const v = isScalar(n) ? goBoolOf(this.resolved(n), String(n.value)) : undefined;
    if (v === undefined) this.typeError(n, 'bool');
    return v;
  }
}

/** libyaml's anchor and alias names: ASCII letters, digits, '-' and '_'. */
const ANCHOR_NAME = /^[0-9A-Za-z_-]+$/;
/**
 * What yaml.v3 refuses (or reads otherwise) and the `yaml` package accepts: entries without a key, a tab
 * where a block scalar's indentation is being detected, anchor names outside [0-9A-Za-z_-]. Quoted scalars
 * that are unterminated or span lines, and tags, are refused outright rather than modelled: only a path,
 * key or name holding a quote, a line break or a leading "!" gets there.
 */
function checkLibyamlRestrictions(node: Node | null, text: string, lines: LineCounter): void {
  if (node === null) return;
  const fail = (problem: string): never => {
    throw new UserDataError(`${PARSE_ERROR}: error: yaml: ${problem}`);
  };
  if (node.anchor !== undefined && !ANCHOR_NAME.test(node.anchor))
    fail('did not find expected alphabetic or numeric character');
  // Only a key or name starting with "!" gets a tag here; yaml.v3's tag rules differ too much to follow.
  if (node.tag !== undefined) fail(`a value starts with the YAML tag ${node.tag}, which is not supported`);
  if (isAlias(node)) {
    if (!ANCHOR_NAME.test(node.source)) fail('did not find expected alphabetic or numeric character');
    return;
  }
  if (isMap(node)) {
    for (const pair of node.items) {
      // The `yaml` package reads a line starting with ": " as an entry with an empty (zero-width) key.
      const key = pair.key as Node | null;
      if (key === null || (isScalar(key) && key.range![0] === key.range![1])) fail('did not find expected key');
      checkLibyamlRestrictions(key, text, lines);
      checkLibyamlRestrictions(pair.value as Node | null, text, lines);
    }
    return;
  }
  if (isSeq(node)) {
    for (const item of node.items) checkLibyamlRestrictions(item as Node, text, lines);
    return;
  }
  if (!isScalar(node)) return;
  const source = text.slice(node.range![0], node.range![1]);
  if (node.type === Scalar.QUOTE_SINGLE && !SINGLE_QUOTED.test(source))
    fail(`unsupported single-quoted value ${source.split('\n')[0]} (unterminated or spanning lines)`);
  if (node.type === Scalar.QUOTE_DOUBLE && !DOUBLE_QUOTED.test(source))
    fail(`unsupported double-quoted value ${source.split('\n')[0]} (unterminated or spanning lines)`);
  if (node.type !== Scalar.BLOCK_LITERAL && node.type !== Scalar.BLOCK_FOLDED) return;
  const start = node.range![0];
  const headerEnd = text.indexOf('\n', start);
  if (headerEnd < 0 || /[1-9]/.test(text.slice(start, headerEnd).replace(/#.*/, ''))) return; // explicit indentation
  // yaml.v3 reports the line of the block scalar's header.
  const error = blockScalarTabError(text.slice(headerEnd + 1, node.range![2]));
  if (error !== undefined) fail(`line ${lines.linePos(start).line}: ${error}`);
}

/** `fastPath: false` (tests) parses with the `yaml` package even where the fast path applies. */
export function parseContainerLinuxConfig(clc: string, options: { fastPath: boolean } = { fastPath: true }): ClcConfig {
  const prepared = prepareForParser(clc);
  if (!prepared.ok) throw new UserDataError(`${PARSE_ERROR}: error: ${prepared.error}`);
  const text = prepared.text;
  let parsed: ParsedClc | undefined;
  if (options.fastPath) {
    const tree = parseBlockYaml(text);
    if (tree !== undefined) {
      const lines = lineCounter(text);
      const decoded = decodeBlockTree(tree.root, text, lines);
      if (decoded !== undefined) return decoded;
      parsed = yamlNodesOf(tree.root, lines);
    }
  }
  parsed ??= parseWithYamlPackage(text);
  if (parsed === undefined) return { users: [], files: [], units: [] };
  const { doc, contents, lines } = parsed;
  checkLibyamlRestrictions(contents, text, lines);

  if (contents === null) return { users: [], files: [], units: [] };
  const d = new Decoder(doc, lines, text);
  const config = decodeClcConfig(d, contents);
  if (d.errors.length > 0)
    throw new UserDataError(`${PARSE_ERROR}: error: yaml: unmarshal errors:\n  ${d.errors.join('\n  ')}`);
  return config;
}

interface ParsedClc {
  doc: Document;
  contents: Node | null;
  lines: LineCounter;
}

function parseWithYamlPackage(text: string): ParsedClc | undefined {
  const lines = new LineCounter();
  // Strings only (yaml.v3's resolution is applied while decoding); duplicate keys are checked like yaml.v3.
  const docs = parseAllDocuments(text, {
    schema: 'failsafe',
    uniqueKeys: false,
    lineCounter: lines,
    prettyErrors: false,
  });
  if (!Array.isArray(docs) || docs.length === 0) return undefined;
  // Only reachable through a CR or NEL in content putting `---` or `...` at the start of a line. yaml.v3
  // would then read the first document only and silently drop the rest of the config (or fail on it,
  // depending on how far its scanner looked ahead): refused instead.
  if (docs.length > 1)
    throw new UserDataError(
      `${PARSE_ERROR}: error: yaml: a line break in content turns a "---" or "..." into a YAML document marker (line ${lines.linePos(docs[1]!.range[0]).line})`,
    );
  const doc = docs[0]!;
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    // The config holds tokens: the position and the kind of problem, never the text there.
    throw new UserDataError(`${PARSE_ERROR}: error: yaml: ${yamlErrorText(e, text)}`);
  }
  return { doc, contents: doc.contents as Node | null, lines };
}

const STYLES = {
  plain: Scalar.PLAIN,
  empty: Scalar.PLAIN,
  single: Scalar.QUOTE_SINGLE,
  double: Scalar.QUOTE_DOUBLE,
  literal: Scalar.BLOCK_LITERAL,
} as const;
let emptyDocument: Document | undefined;

function lineCounter(text: string): LineCounter {
  const lines = new LineCounter();
  lines.addNewLine(0);
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines.addNewLine(at + 1);
  return lines;
}

/**
 * The `yaml` package's nodes for a CLC in the plain block subset (src/io/blockYamlFastPath.ts), built
 * directly, for the general decoder where clcBlockDecode.ts gave up. Same values, styles and offsets as the
 * package gives (test/emit/userdata/clcFastPath.test.ts); undefined for anything else (flow collections),
 * which the package then parses.
 */
function yamlNodesOf(root: BlockNode, lines: LineCounter): ParsedClc | undefined {
  const build = (n: BlockNode): Node | undefined => {
    if (n.kind === 'scalar') {
      const scalar = new Scalar(n.text);
      scalar.type = STYLES[n.style];
      scalar.range = [n.start, n.end, n.end];
      return scalar;
    }
    if (n.flow) return undefined;
    if (n.kind === 'seq') {
      const seq = new YAMLSeq();
      for (const item of n.items) {
        const node = build(item);
        if (node === undefined) return undefined;
        seq.items.push(node);
      }
      seq.range = [n.start, n.start, n.start];
      return seq;
    }
    const map = new YAMLMap();
    for (const pair of n.pairs) {
      const key = build(pair.key);
      const value = build(pair.value);
      if (key === undefined || value === undefined) return undefined;
      map.items.push(new Pair(key, value));
    }
    map.range = [n.start, n.start, n.start];
    return map;
  };
  const contents = build(root);
  if (contents === undefined) return undefined;
  emptyDocument ??= new Document();
  return { doc: emptyDocument, contents, lines };
}
