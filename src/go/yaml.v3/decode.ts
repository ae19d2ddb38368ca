// yaml.Unmarshal (gopkg.in/yaml.v3) into a map[string]interface{} or a []interface{}, as OSM's fromYaml and
// fromYamlArray call it: the first document of the input becomes a node tree (anchors and aliases resolved
// by name), whose scalars resolve as yaml.v3 resolves them (YAML 1.2 booleans and null, ints that fit an int
// else uint64, 0b/0o/0x and 1_000, floats, timestamps as time.Time, !!binary as its bytes) and which is
// decoded with yaml.v3's rules: duplicate keys, "<<" merges, string keys for a map[string]interface{} and
// map[interface{}]interface{} for other keys, and its error texts ("yaml: line N: ...", "yaml: unmarshal
// errors:\n  line N: cannot unmarshal ...").
// Follows gopkg.in/yaml.v3 v3.0.1 (its latest release, and the differential oracle's).
import { ELEMENT_BYTES, ENTRY_BYTES, ENTRY_UNITS, type Meter } from '../internal/meter.ts';
import { GoCallError } from '../reflect/func.ts';
import { goString, goBytes } from '../reflect/byteString.ts';
import { parseGoFloat, parseGoInt } from '../strconv/parseNumber.ts';
import { LOCAL, parseGoTime, UTC } from '../time/time.ts';
import { goTimeValue } from '../time/value.ts';
import { sprintf } from '../fmt/format.ts';
import { GoInt, GoKeyedMap, goNilMap, goNilSlice, interfaceKey, mapHas, mapSet, type GoMap } from '../reflect/value.ts';
import { base64Decode } from '../encoding/base64.ts';
import { ErrorKind, ScalarStyle } from './scan.ts';
import { Ev, EVENT_NAMES, Parser, type YamlEvent } from './parse.ts';
import { lookupKey } from '../internal/hashableKey.ts';

/** Memory of a duplicate key's error text, besides the key (quoted: at most twice its length). */
const DUPLICATE_ERROR_BYTES = 96;
/**
 * Work per character of a node's text read again through an alias: resolved (resolve's patterns and number
 * parsers pass over it several times) and, as a key, joined and hashed twice to find duplicates. The charge on
 * the input counts each text once; an alias reads its anchor's texts again.
 */
const REREAD_UNITS = 8;
/** Memory per character read again: resolving it makes strings (matches, substrings) as it goes. */
const REREAD_BYTES = 2;
/** !!binary decoded: as sprig's b64dec is charged (work per character, and what its string holds). */
const BINARY_UNITS = 2;
const BINARY_BYTES = 4;

/** yaml.v3's failf: an error that ends Unmarshal. */
export class YamlError extends Error {}

const fail = (msg: string): never => {
  throw new YamlError(`yaml: ${msg}`);
};

// ---------------------------------------------------------------- nodes

const enum Kind {
  Document = 1,
  Sequence = 2,
  Mapping = 4,
  Scalar = 8,
  Alias = 16,
}

const STYLE_DOUBLE = 2;
const STYLE_SINGLE = 4;
const STYLE_LITERAL = 8;
const STYLE_FOLDED = 16;

interface Node {
  kind: Kind;
  tag: string;
  value: string;
  style: number;
  line: number;
  content: Node[];
  alias?: Node;
}

const STR = '!!str';
const SEQ = '!!seq';
const MAP = '!!map';
const NULL = '!!null';
const MERGE = '!!merge';
const BINARY = '!!binary';
const LONG_PREFIX = 'tag:yaml.org,2002:';

function shortTag(tag: string): string {
  return tag.startsWith(LONG_PREFIX) ? '!!' + tag.slice(LONG_PREFIX.length) : tag;
}

const text = (b: number[] | undefined) => (b === undefined ? '' : goString(Uint8Array.from(b)));

/** The node tree of the first document, as yaml.v3's parser builds it. */
class NodeBuilder {
  private readonly p: Parser;
  private event: YamlEvent = { typ: Ev.None, start: { index: 0, line: 0, column: 0 } };
  private readonly anchors = new Map<string, Node>();

  constructor(input: Uint8Array, meter: Meter) {
    this.p = new Parser(input.length === 0 ? Uint8Array.of(0x0a) : input, meter);
  }

  /** p.fail(): the problem, after the line of the context (or problem) mark. */
  private fail(): never {
    const err = this.p.err;
    let line = 0;
    if (err.contextMark.line !== 0) line = err.contextMark.line + (err.kind === ErrorKind.Scanner ? 1 : 0);
    else if (err.problemMark.line !== 0) line = err.problemMark.line + (err.kind === ErrorKind.Scanner ? 1 : 0);
    const where = line !== 0 ? `line ${line}: ` : '';
    return fail(where + (err.problem !== '' ? err.problem : 'unknown problem parsing YAML content'));
  }

  private next(): void {
    const e = this.p.parse();
    if (e === undefined) this.fail();
    this.event = e;
  }

  private expect(typ: Ev): void {
    if (this.event.typ === Ev.None) this.next();
    if (this.event.typ === Ev.StreamEnd) fail('attempted to go past the end of stream; corrupted value?');
    if (this.event.typ !== typ) {
      this.p.err.problem = `expected ${EVENT_NAMES[typ]} event but got ${EVENT_NAMES[this.event.typ]}`;
      this.fail();
    }
    this.event = { typ: Ev.None, start: this.event.start };
  }

  private peek(): Ev {
    if (this.event.typ !== Ev.None) return this.event.typ;
    const e = this.p.parse();
    if (e === undefined || this.p.err.kind !== ErrorKind.None) this.fail();
    this.event = e;
    return e.typ;
  }

  private node(kind: Kind, defaultTag: string, tag: string, value: string): Node {
    let style = 0;
    if (tag !== '' && tag !== '!') {
      tag = shortTag(tag);
      style = 1;
    } else if (defaultTag !== '') tag = defaultTag;
    else if (kind === Kind.Scalar) tag = resolve('', value).tag;
    return { kind, tag, value, style, line: this.event.start.line + 1, content: [] };
  }

  private anchor(n: Node, anchor: number[] | undefined): void {
    if (anchor !== undefined) this.anchors.set(lookupKey(text(anchor)), n);
  }

  /** The first document (undefined for an empty stream). */
  parse(): Node | undefined {
    this.expect(Ev.StreamStart);
    return this.parseNode();
  }

  private parseNode(): Node | undefined {
    switch (this.peek()) {
      case Ev.Scalar:
        return this.scalar();
      case Ev.Alias:
        return this.alias();
      case Ev.MappingStart:
        return this.mapping();
      case Ev.SequenceStart:
        return this.sequence();
      case Ev.DocumentStart:
        return this.document();
      case Ev.StreamEnd:
        return undefined;
      default:
        break;
    }
    throw new GoCallError(
      `internal error: attempted to parse unknown event (please report): ${EVENT_NAMES[this.event.typ]}`,
    );
  }

  private child(parent: Node): Node {
    const c = this.parseNode()!;
    parent.content.push(c);
    return c;
  }

  private document(): Node {
    const n = this.node(Kind.Document, '', '', '');
    this.expect(Ev.DocumentStart);
    this.child(n);
    this.peek();
    this.expect(Ev.DocumentEnd);
    return n;
  }

  private alias(): Node {
    const n = this.node(Kind.Alias, '', '', text(this.event.anchor));
    const target = this.anchors.get(lookupKey(n.value));
    if (target === undefined) fail(`unknown anchor '${n.value}' referenced`);
    n.alias = target;
    this.expect(Ev.Alias);
    return n;
  }

  private scalar(): Node {
    const e = this.event;
    const style =
      e.style === ScalarStyle.DoubleQuoted
        ? STYLE_DOUBLE
        : e.style === ScalarStyle.SingleQuoted
          ? STYLE_SINGLE
          : e.style === ScalarStyle.Literal
            ? STYLE_LITERAL
            : e.style === ScalarStyle.Folded
              ? STYLE_FOLDED
              : 0;
    const value = text(e.value);
    const defaultTag = style === 0 ? (value === '<<' ? MERGE : '') : STR;
    const n = this.node(Kind.Scalar, defaultTag, text(e.tag), value);
    n.style |= style;
    this.anchor(n, e.anchor);
    this.expect(Ev.Scalar);
    return n;
  }

  private sequence(): Node {
    const n = this.node(Kind.Sequence, SEQ, text(this.event.tag), '');
    this.anchor(n, this.event.anchor);
    this.expect(Ev.SequenceStart);
    while (this.peek() !== Ev.SequenceEnd) this.child(n);
    this.expect(Ev.SequenceEnd);
    return n;
  }

  private mapping(): Node {
    const n = this.node(Kind.Mapping, MAP, text(this.event.tag), '');
    this.anchor(n, this.event.anchor);
    this.expect(Ev.MappingStart);
    while (this.peek() !== Ev.MappingEnd) {
      this.child(n);
      this.child(n);
    }
    this.expect(Ev.MappingEnd);
    return n;
  }
}

// ---------------------------------------------------------------- resolve

const RESOLVE_MAP: ReadonlyMap<string, { tag: string; value: unknown }> = new Map<
  string,
  { tag: string; value: unknown }
>([
  ...['true', 'True', 'TRUE'].map((s) => [s, { tag: '!!bool', value: true }] as const),
  ...['false', 'False', 'FALSE'].map((s) => [s, { tag: '!!bool', value: false }] as const),
  ...['', '~', 'null', 'Null', 'NULL'].map((s) => [s, { tag: NULL, value: null }] as const),
  ...['.nan', '.NaN', '.NAN'].map((s) => [s, { tag: '!!float', value: NaN }] as const),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((s) => [s, { tag: '!!float', value: Infinity }] as const),
  ...['-.inf', '-.Inf', '-.INF'].map((s) => [s, { tag: '!!float', value: -Infinity }] as const),
  ['<<', { tag: MERGE, value: '<<' }],
]);

const RESOLVABLE = new Set(['', STR, '!!bool', '!!int', '!!float', NULL, '!!timestamp']);
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const TIMESTAMP_LAYOUTS = [
  '2006-1-2T15:4:5.999999999Z07:00',
  '2006-1-2t15:4:5.999999999Z07:00',
  '2006-1-2 15:4:5.999999999',
  '2006-1-2',
];

/** An int that fits an int, else... on a 64-bit platform every int64 fits. */
const int = (v: bigint) => v;
const uint64 = (v: bigint) => new GoInt('uint64', v);

function hintOf(s: string): string {
  if (s === '') return 'N';
  const c = s[0]!;
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return '';
}

function parseTimestamp(s: string): unknown {
  // All layouts start with four digits and a dash.
  if (!/^[0-9]{4}-/.test(s)) return undefined;
  for (const layout of TIMESTAMP_LAYOUTS) {
    const t = parseGoTime(layout, s, UTC, LOCAL);
    if (t !== undefined) return goTimeValue(t);
  }
  return undefined;
}

function resolvePlain(tag: string, s: string): { tag: string; value: unknown } {
  const hint = hintOf(s);
  if (hint === '' || tag === STR || tag === BINARY) return { tag: STR, value: s };
  const known = RESOLVE_MAP.get(s);
  if (known !== undefined) return known;
  if (hint === '.') {
    const f = parseGoFloat(s);
    if (f !== undefined) return { tag: '!!float', value: f };
  } else if (hint === 'D' || hint === 'S') {
    if (tag === '' || tag === '!!timestamp') {
      const t = parseTimestamp(s);
      if (t !== undefined) return { tag: '!!timestamp', value: t };
    }
    const plain = s.replace(/_/g, '');
    const i = parseGoInt(plain, false);
    if (i !== undefined) return { tag: '!!int', value: int(i) };
    const u = parseGoInt(plain, true);
    if (u !== undefined) return { tag: '!!int', value: uint64(u) };
    if (YAML_STYLE_FLOAT.test(plain)) {
      const f = parseGoFloat(plain);
      if (f !== undefined) return { tag: '!!float', value: f };
    }
    const based = (sign: string, digits: string, radix: 2 | 8): { tag: string; value: unknown } | undefined => {
      const n = parseRadix(digits, radix);
      if (n === undefined) return undefined;
      const v = sign === '-' ? -n : n;
      if (v >= -(2n ** 63n) && v < 2n ** 63n) return { tag: '!!int', value: int(v) };
      return sign === '' && v < 2n ** 64n ? { tag: '!!int', value: uint64(v) } : undefined;
    };
    const m = /^(-?)0([bo])(.*)$/.exec(plain);
    if (m) {
      const r = based(m[1]!, m[3]!, m[2] === 'b' ? 2 : 8);
      if (r !== undefined) return r;
    }
  }
  return { tag: STR, value: s };
}

/** strconv.ParseInt/ParseUint of digits in base 2 or 8 (no sign, no prefix, no underscores). */
function parseRadix(digits: string, radix: 2 | 8): bigint | undefined {
  if (!(radix === 2 ? /^[01]+$/ : /^[0-7]+$/).test(digits)) return undefined;
  return BigInt((radix === 2 ? '0b' : '0o') + digits);
}

/** yaml.v3's resolve: the tag a scalar resolves to and its value; an explicit tag must match. */
export function resolve(tag: string, s: string): { tag: string; value: unknown } {
  tag = shortTag(tag);
  if (!RESOLVABLE.has(tag)) return { tag, value: s };
  const r = resolvePlain(tag, s);
  if (tag === '' || tag === r.tag || tag === STR || tag === BINARY) return r;
  if (tag === '!!float' && r.tag === '!!int')
    return { tag: '!!float', value: Number(r.value instanceof GoInt ? r.value.value : (r.value as bigint)) };
  return fail(`cannot decode ${shortTag(r.tag)} \`${s}\` as a ${shortTag(tag)}`);
}

// ---------------------------------------------------------------- decode

/** Where a decoded value goes: an interface{}, a string (a map key), a map being filled, or the caller's slice. */
type Target =
  | { kind: 'iface'; set(v: unknown): void }
  | { kind: 'string'; set(v: string): void }
  | { kind: 'map'; map: GoMap; setNil(): void }
  | { kind: 'keyed'; map: GoKeyedMap }
  | { kind: 'slice'; set(v: unknown[]): void };

const TYPE_NAMES = {
  iface: 'interface {}',
  string: 'string',
  map: 'map[string]interface {}',
  keyed: 'map[interface {}]interface {}',
  slice: '[]interface {}',
} as const;

const indicatedString = (n: Node) =>
  n.kind === Kind.Scalar &&
  (shortTag(n.tag) === STR ||
    ((n.tag === '' || n.tag === '!') &&
      (n.style & (STYLE_DOUBLE | STYLE_SINGLE | STYLE_LITERAL | STYLE_FOLDED)) !== 0));

function nodeShortTag(n: Node): string {
  if (indicatedString(n)) return STR;
  if (n.tag === '' || n.tag === '!') {
    switch (n.kind) {
      case Kind.Mapping:
        return MAP;
      case Kind.Sequence:
        return SEQ;
      case Kind.Alias:
        return n.alias !== undefined ? nodeShortTag(n.alias) : '';
      case Kind.Scalar:
        return resolve('', n.value).tag;
      default:
        break;
    }
    return '';
  }
  return shortTag(n.tag);
}

const isMerge = (n: Node) =>
  n.kind === Kind.Scalar && n.value === '<<' && (n.tag === '' || n.tag === '!' || shortTag(n.tag) === MERGE);

const ALIAS_RATIO_LOW = 400000;
const ALIAS_RATIO_HIGH = 4000000;

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_LOW) return 0.99;
  if (decodeCount >= ALIAS_RATIO_HIGH) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - ALIAS_RATIO_LOW) / (ALIAS_RATIO_HIGH - ALIAS_RATIO_LOW));
}

/** A key as a Go map key is hashed; a slice or map cannot be one. */
function hashKey(k: unknown): string {
  if (Array.isArray(k)) throw new GoCallError('runtime error: hash of unhashable type []interface {}');
  if (k instanceof GoKeyedMap)
    throw new GoCallError('runtime error: hash of unhashable type map[interface {}]interface {}');
  if (k !== null && typeof k === 'object' && Object.getPrototypeOf(k) === Object.prototype)
    throw new GoCallError('runtime error: hash of unhashable type map[string]interface {}');
  return interfaceKey(k);
}

const put = mapSet;

/**
 * Charged on its meter as it goes: each node decoded (aliases decode their anchor's node again, so a small
 * document can decode into millions of values before yaml.v3's aliasing ratio stops it), each collection made,
 * and the pairs of keys yaml.v3 compares to find a duplicate.
 */
class Decoder {
  readonly terrors: string[] = [];

  constructor(private readonly meter: Meter) {}

  private readonly aliases = new Set<Node>();
  private decodeCount = 0;
  private aliasCount = 0;
  private aliasDepth = 0;
  private mergedFields: Set<string> | undefined;

  private terror(n: Node, tag: string, out: Target): void {
    if (n.tag !== '') tag = n.tag;
    let value = '';
    if (tag !== SEQ && tag !== MAP) {
      const bytes = goBytes(n.value);
      value = bytes.length > 10 ? ' `' + goString(bytes.subarray(0, 7)) + '...`' : ' `' + n.value + '`';
    }
    this.terrors.push(`line ${n.line}: cannot unmarshal ${shortTag(tag)}${value} into ${TYPE_NAMES[out.kind]}`);
  }

  unmarshal(n: Node, out: Target): boolean {
    this.meter.visit();
    this.reread(n);
    this.decodeCount++;
    if (this.aliasDepth > 0) this.aliasCount++;
    if (
      this.aliasCount > 100 &&
      this.decodeCount > 1000 &&
      this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)
    ) {
      fail('document contains excessive aliasing');
    }
    switch (n.kind) {
      case Kind.Document:
        if (n.content.length !== 1) return false;
        this.unmarshal(n.content[0]!, out);
        return true;
      case Kind.Alias: {
        if (this.aliases.has(n)) fail(`anchor '${n.value}' value contains itself`);
        this.aliases.add(n);
        this.aliasDepth++;
        const good = this.unmarshal(n.alias!, out);
        this.aliasDepth--;
        this.aliases.delete(n);
        return good;
      }
      case Kind.Scalar:
        return this.scalar(n, out);
      case Kind.Mapping:
        return this.mapping(n, out);
      case Kind.Sequence:
        return this.sequence(n, out);
    }
    return fail(`cannot decode node with unknown kind ${n.kind}`);
  }

  /** Charges reading a node's text again when an alias decodes it. */
  private reread(n: Node): void {
    if (this.aliasDepth === 0) return;
    this.meter.spend(REREAD_UNITS * n.value.length);
    this.meter.build(REREAD_BYTES * n.value.length);
  }

  private null(out: Target): boolean {
    switch (out.kind) {
      case 'iface':
        out.set(null);
        return true;
      case 'map':
        out.setNil();
        return true;
      case 'slice':
        out.set(goNilSlice());
        return true;
      default:
        break;
    }
    return false;
  }

  private scalar(n: Node, out: Target): boolean {
    let tag: string;
    let resolved: unknown;
    if (indicatedString(n)) {
      tag = STR;
      resolved = n.value;
    } else {
      ({ tag, value: resolved } = resolve(n.tag, n.value));
      if (tag === BINARY) {
        const encoded = resolved as string;
        this.meter.spend(BINARY_UNITS * encoded.length);
        this.meter.build(BINARY_BYTES * encoded.length);
        try {
          resolved = goString(base64Decode(encoded));
        } catch {
          fail('!!binary value contains invalid base64 data');
        }
      }
    }
    if (resolved === null) return this.null(out);
    switch (out.kind) {
      case 'iface':
        out.set(resolved);
        return true;
      case 'string':
        out.set(typeof resolved === 'string' ? resolved : n.value);
        return true;
      default:
        break;
    }
    this.terror(n, tag, out);
    return false;
  }

  private sequence(n: Node, out: Target): boolean {
    if (out.kind !== 'iface' && out.kind !== 'slice') {
      this.terror(n, SEQ, out);
      return false;
    }
    this.meter.build(n.content.length * ELEMENT_BYTES);
    const items: unknown[] = [];
    for (const c of n.content) {
      let v: unknown = null;
      if (this.unmarshal(c, { kind: 'iface', set: (x) => (v = x) })) items.push(v);
    }
    out.set(items);
    return true;
  }

  private mapping(n: Node, out: Target): boolean {
    const l = n.content.length;
    const before = this.terrors.length;
    // yaml.v3 compares every key with every later one; the same errors, in the same order, from keys grouped
    // by kind and value (a group's later keys are the later equal ones).
    this.meter.spend((l / 2) * ENTRY_UNITS);
    this.meter.build((l / 2) * ENTRY_BYTES);
    // Grouped by the key's own text (a string hashes once; a text joined to its kind would be hashed anew on
    // every decode, which an alias repeats).
    const byKind = new Map<Kind, Map<string, number[]>>();
    const groupOf: number[][] = [];
    for (let i = 0; i < l; i += 2) {
      const ni = n.content[i]!;
      this.reread(ni);
      let byValue = byKind.get(ni.kind);
      if (byValue === undefined) byKind.set(ni.kind, (byValue = new Map()));
      const key = lookupKey(ni.value);
      let g = byValue.get(key);
      if (g === undefined) byValue.set(key, (g = []));
      g.push(i);
      groupOf.push(g);
    }
    const place = new Map<number, number>();
    for (const byValue of byKind.values()) for (const g of byValue.values()) g.forEach((i, at) => place.set(i, at));
    for (let i = 0; i < l; i += 2) {
      const ni = n.content[i]!;
      const g = groupOf[i / 2]!;
      for (let at = place.get(i)! + 1; at < g.length; at++) {
        const nj = n.content[g[at]!]!;
        // The error's text, kept until the decoder reports them all.
        this.meter.build(DUPLICATE_ERROR_BYTES + 2 * nj.value.length);
        this.terrors.push(
          `line ${nj.line}: mapping key ${sprintf('%#v', [nj.value], this.meter)} already defined at line ${ni.line}`,
        );
      }
    }
    if (this.terrors.length > before) return false;
    if (out.kind === 'iface') {
      // Without a type to decode into: map[string]interface{} when every key is a string.
      if (n.content.every((c, i) => i % 2 === 1 || [STR, MERGE].includes(nodeShortTag(c)))) {
        const m: GoMap = {};
        out.set(m);
        out = { kind: 'map', map: m, setNil: () => {} };
      } else {
        const m = new GoKeyedMap();
        out.set(m);
        out = { kind: 'keyed', map: m };
      }
    }
    if (out.kind !== 'map' && out.kind !== 'keyed') {
      this.terror(n, MAP, out);
      return false;
    }
    const into = out;
    const has = (k: unknown) => (into.kind === 'map' ? mapHas(into.map, k as string) : into.map.get(k).found);
    const set = (k: unknown, v: unknown) => (into.kind === 'map' ? put(into.map, k as string, v) : into.map.set(k, v));
    const mergedFields = this.mergedFields;
    this.mergedFields = undefined;
    let mergeNode: Node | undefined;
    for (let i = 0; i < l; i += 2) {
      const keyNode = n.content[i]!;
      if (isMerge(keyNode)) {
        mergeNode = n.content[i + 1];
        continue;
      }
      let k: unknown = into.kind === 'map' ? '' : null;
      const keyTarget: Target =
        into.kind === 'map' ? { kind: 'string', set: (x) => (k = x) } : { kind: 'iface', set: (x) => (k = x) };
      if (!this.unmarshal(keyNode, keyTarget)) continue;
      if (mergedFields !== undefined) {
        const hk = lookupKey(hashKey(k));
        if (mergedFields.has(hk)) continue;
        mergedFields.add(hk);
      }
      if (
        Array.isArray(k) ||
        k instanceof GoKeyedMap ||
        (k !== null && typeof k === 'object' && Object.getPrototypeOf(k) === Object.prototype)
      ) {
        fail(`invalid map key: ${sprintf('%#v', [k], this.meter)}`);
      }
      const valueNode = n.content[i + 1]!;
      let e: unknown = null;
      // A null value is set unless the key is there already (from a merge).
      if (
        this.unmarshal(valueNode, { kind: 'iface', set: (x) => (e = x) }) ||
        (nodeShortTag(valueNode) === NULL && !has(k))
      )
        set(k, e);
    }
    this.mergedFields = mergedFields;
    if (mergeNode !== undefined) this.merge(n, mergeNode, into);
    return true;
  }

  /** "<<": the merged mappings fill the same map, without replacing the keys the mapping has itself. */
  private merge(parent: Node, merge: Node, out: Target): void {
    const mergedFields = this.mergedFields;
    if (mergedFields === undefined) {
      const fields = new Set<string>();
      this.mergedFields = fields;
      for (let i = 0; i < parent.content.length; i += 2) {
        let k: unknown = null;
        if (this.unmarshal(parent.content[i]!, { kind: 'iface', set: (x) => (k = x) }))
          fields.add(lookupKey(hashKey(k)));
      }
    }
    const wantMap = () => fail('map merge requires map or sequence of maps as the value');
    switch (merge.kind) {
      case Kind.Mapping:
        this.unmarshal(merge, out);
        break;
      case Kind.Alias:
        if (merge.alias !== undefined && merge.alias.kind !== Kind.Mapping) wantMap();
        this.unmarshal(merge, out);
        break;
      case Kind.Sequence:
        for (const ni of merge.content) {
          if (ni.kind === Kind.Alias) {
            if (ni.alias !== undefined && ni.alias.kind !== Kind.Mapping) wantMap();
          } else if (ni.kind !== Kind.Mapping) wantMap();
          this.unmarshal(ni, out);
        }
        break;
      default:
        wantMap();
    }
    this.mergedFields = mergedFields;
  }
}

export type YamlTarget = 'map' | 'slice';

/** yaml.Unmarshal(text, &target) into a fresh empty map or slice: the value and Go's error text, if any. */
export function decodeYaml(input: string, target: YamlTarget, meter: Meter): { value: unknown; error?: string } {
  const d = new Decoder(meter);
  let value: unknown = target === 'map' ? {} : [];
  const out: Target =
    target === 'map'
      ? { kind: 'map', map: value as GoMap, setNil: () => (value = goNilMap()) }
      : { kind: 'slice', set: (v) => (value = v) };
  try {
    const node = new NodeBuilder(goBytes(input), meter).parse();
    if (node !== undefined) d.unmarshal(node, out);
  } catch (e) {
    if (e instanceof YamlError) return { value, error: e.message };
    throw e;
  }
  if (d.terrors.length > 0) return { value, error: `yaml: unmarshal errors:\n  ${d.terrors.join('\n  ')}` };
  return { value };
}
