// sprig's strings.go: b64enc/b64dec, b32enc/b32dec, abbrev, abbrevboth, initials, untitle, substr, trunc, quote,
// squote, cat, indent, nindent, replace, plural, toString (strval), toStrings (strslice), join, split and
// splitn, on Go's semantics. Several work on the UTF-8 bytes rather than on characters, exactly like sprig:
// substr, trunc, abbrev and abbrevboth slice bytes (a cut inside a multi-byte character leaves raw bytes, see
// src/go/reflect/byteString.ts), and initials reads each byte as a character of its own (goutils, src/go/goutils/).
import { goFunc, GoCallError, meteredFunc, type FuncMap } from '../go/reflect/func.ts';
import { CONSTANT, lengthOf, readsAndBuilds, type CallCost } from '../go/reflect/callCost.ts';
import { ELEMENT_BYTES, ENTRY_BYTES, type Meter } from '../go/internal/meter.ts';
import { elemType, goMap, goSlice, GoStringer, GoStruct, mapSet } from '../go/reflect/value.ts';
import { formatValue, goQuote } from '../go/fmt/format.ts';
import { goByteLength, goBytes, goString, hasRawBytes } from '../go/reflect/byteString.ts';
import { goReplaceAll, goSplitN } from '../go/strings/strings.ts';
import { searchUnits, TextSearch } from '../go/strings/search.ts';
import { abbreviateFull } from '../go/goutils/stringUtils.ts';
import { initials, uncapitalize } from '../go/goutils/wordUtils.ts';
import { base64Decode, CorruptInputError } from '../go/encoding/base64.ts';
import { base32Decode, base32Encode } from '../go/encoding/base32.ts';

// What the string functions cost per character of their arguments (units of src/go/internal/meter.ts).
/** Work per character of a function that works on bytes or UTF-16 code units (a search, a copy, an encoding). */
export const BYTE_UNITS = 2;
/** Work per character of a function that decodes code points and handles them one by one. */
export const RUNE_UNITS = 24;
/** A one-rune-to-one-rune mapping (upper, lower, title, swapcase, untitle). */
export const RUNE_MAPPING: CallCost = readsAndBuilds(RUNE_UNITS, 2);
/** xstrings' word splitting (snakecase, kebabcase, camelcase): Unicode classes per rune; a separator per word. */
export const WORD_SPLITTING: CallCost = readsAndBuilds(4 * RUNE_UNITS, 4);

/**
 * At least the occurrences of `sub` in s that Go finds (counted on the text, before a result that grows with
 * them is built; raw bytes can only split text into more parts where the text has them too): every rune and
 * one more for an empty `sub`.
 */
export function countOf(s: string, sub: string): number {
  if (sub === '' || hasRawBytes(sub) || hasRawBytes(s)) return s.length + 1;
  const search = new TextSearch(sub);
  let n = 0;
  for (let i = search.indexIn(s); i >= 0; i = search.indexIn(s, i + sub.length)) n++;
  return n;
}

/** b32enc: every byte of the text's UTF-8 read, eight characters written for five bytes (a few copies). */
const ENCODES_BYTES: CallCost = (m, [s]) => {
  const n = goByteLength(s as string);
  m.spend(16 * n);
  m.build(8 * n);
};

/** A part of a split in a list: a new string (a slice of the text or a copy of a short one) and its place. */
export const PART_BYTES = 64;

/** contains: a search (search.ts), on Go's bytes when raw bytes take part. */
export const SEARCHES: CallCost = (m, [sub, s]) => {
  const text = s as string;
  const needle = sub as string;
  m.spend(BYTE_UNITS * searchUnits(text.length, needle.length));
  if (hasRawBytes(text) || hasRawBytes(needle)) m.build(3 * (text.length + needle.length));
};

/** split, splitn, splitList: one part per separator found (per rune for an empty one), each `perPart` bytes. */
export function splitCost(perPart: number): CallCost {
  return (m, args) => {
    const sep = lengthOf(args[0]);
    const s = args[args.length - 1] as string;
    // Counting the parts, then finding them.
    m.spend(2 * BYTE_UNITS * searchUnits(s.length, sep));
    const parts = countOf(s, args[0] as string) + 1;
    m.build(parts * perPart + 4 * s.length);
  };
}

/**
 * sprig's strval: strings as is, []byte as text, Stringers through String(), the rest through fmt's %v (charged
 * on the meter as it prints).
 */
export function strval(v: unknown, m: Meter): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) {
    m.build(3 * v.length);
    return goString(v);
  }
  if (v instanceof GoStringer) return v.text;
  if (v instanceof GoStruct && v.stringerText !== undefined) return v.stringerText;
  return formatValue(v === undefined ? null : v, m);
}

const utf8 = goBytes;
const text = goString;
const isNil = (v: unknown) => v === null || v === undefined;

/** sprig's strslice: a list's non-nil elements as a []string (a []string as it is); nil is empty; anything else is one string. */
/** Work of making an element of a list a string (strval's type switch, besides what it prints). */
const TO_STRING_UNITS = 256;

export function toStrings(v: unknown, m: Meter): string[] {
  if (Array.isArray(v) && elemType(v) === 'string') return v as string[];
  if (Array.isArray(v)) {
    // Each element printed (strval charges what it prints) and its string kept.
    m.spend(v.length * TO_STRING_UNITS);
    m.build(v.length * ELEMENT_BYTES);
    return goSlice(
      'string',
      v.filter((e) => !isNil(e)).map((e) => strval(e, m)),
    );
  }
  if (v instanceof Uint8Array) {
    m.build(v.length * 2 * ELEMENT_BYTES);
    return goSlice(
      'string',
      Array.from(v, (b) => String(b)),
    );
  }
  if (isNil(v)) return goSlice('string', []);
  return goSlice('string', [strval(v, m)]);
}

/** A Go string slice expression's panic, as text/template reports it. */
function sliceBounds(detail: string): never {
  throw new GoCallError(`runtime error: slice bounds out of range ${detail}`);
}

function substring(start: bigint, end: bigint, s: string): string {
  const b = utf8(s);
  const len = BigInt(b.length);
  if (start < 0n) {
    if (end < 0n) sliceBounds(`[:${end}]`);
    if (end > len) sliceBounds(`[:${end}] with length ${len}`);
    return text(b.subarray(0, Number(end)));
  }
  if (end < 0n || end > len) {
    if (start > len) sliceBounds(`[${start}:${len}]`);
    return text(b.subarray(Number(start)));
  }
  if (start > end) sliceBounds(`[${start}:${end}]`);
  return text(b.subarray(Number(start), Number(end)));
}

function trunc(c: bigint, s: string): string {
  const b = utf8(s);
  const len = BigInt(b.length);
  if (c < 0n && len + c > 0n) return text(b.subarray(Number(len + c)));
  if (c >= 0n && len > c) return text(b.subarray(0, Number(c)));
  return s;
}

/** A template int as the Go int width goutils takes. */
export const toWidth = (n: bigint) => (n > 0x7fffffffn ? 0x7fffffff : n < -0x7fffffffn ? -0x7fffffff : Number(n));

function abbrev(width: bigint, s: string): string {
  if (width < 4n) return s;
  return abbreviateFull(utf8(s), 0, toWidth(width));
}

function abbrevboth(left: bigint, right: bigint, s: string): string {
  if (right < 4n || (left > 0n && right < 7n)) return s;
  return abbreviateFull(utf8(s), toWidth(left), toWidth(right));
}

/** indent and nindent: the padding on every line. */
const indentCost: CallCost = (m, [spaces, v]) => {
  const s = v as string;
  m.spend(4 * BYTE_UNITS * s.length);
  const pad = spaces as bigint;
  if (pad > 0n) m.build(Number(pad) * (countOf(s, '\n') + 1) + s.length + 1);
};

function indent(spaces: bigint, v: string): string {
  if (spaces < 0n) throw new GoCallError('strings: negative Repeat count');
  const pad = ' '.repeat(Number(spaces));
  return pad + v.split('\n').join('\n' + pad);
}

function indexMap(parts: string[]): Record<string, string> {
  const m: Record<string, string> = goMap('string', {});
  parts.forEach((p, i) => mapSet(m, '_' + i, p));
  return m;
}

/** replace: the new text once per occurrence of the old one (around every rune for an empty one). */
const replaceCost: CallCost = (m, [old, nw, s]) => {
  const text = s as string;
  m.spend(2 * BYTE_UNITS * searchUnits(text.length, lengthOf(old)));
  if (lengthOf(old) === 0) m.spend(2 * RUNE_UNITS * text.length);
  m.build(text.length + countOf(text, old as string) * lengthOf(nw));
};

/** The functions that print their arguments: each top-level text charged, composites as they are printed. */
const PRINTS: CallCost = (m, args) => m.spend(BYTE_UNITS * args.reduce<number>((n, a) => n + lengthOf(a), 0));
/** join: each element made a string (charged as printed) and its place in the result found. */
const JOINS: CallCost = (m, [sep, v]) => {
  PRINTS(m, [sep, v]);
  if (Array.isArray(v)) m.spend(v.length * JOIN_UNITS);
};
const JOIN_UNITS = 32;

/** Bound on how much longer strconv.Quote makes a text (a raw byte becomes \\xNN). */
const QUOTE_GROWTH = 10;

/** sprig drops nil arguments (a typed nil pointer is not nil and stays). */
const nonNil = (v: unknown[]) => v.filter((x) => !isNil(x));

/** sprig's base64decode/base32decode: the decoded text, or the error's text. */
function decodeOr(decode: (s: string) => Uint8Array, s: string): string {
  try {
    return goString(decode(s));
  } catch (e) {
    if (e instanceof CorruptInputError) return e.message;
    throw e;
  }
}

export const stringsFuncs: FuncMap = {
  b64enc: goFunc(['string'], readsAndBuilds(BYTE_UNITS, 8), (s: string) => goBytes(s).toString('base64')),
  b64dec: goFunc(['string'], readsAndBuilds(BYTE_UNITS, 4), (s: string) => decodeOr(base64Decode, s)),
  b32enc: goFunc(['string'], ENCODES_BYTES, (s: string) => base32Encode(goBytes(s))),
  b32dec: goFunc(['string'], readsAndBuilds(BYTE_UNITS, 4), (s: string) => decodeOr(base32Decode, s)),
  abbrev: goFunc(['int', 'string'], readsAndBuilds(BYTE_UNITS, 4), abbrev),
  abbrevboth: goFunc(['int', 'int', 'string'], readsAndBuilds(BYTE_UNITS, 4), abbrevboth),
  initials: goFunc(['string'], readsAndBuilds(4 * BYTE_UNITS, 4), initials),
  untitle: goFunc(['string'], RUNE_MAPPING, uncapitalize),
  substr: goFunc(['int', 'int', 'string'], readsAndBuilds(8 * BYTE_UNITS, 4), substring),
  trunc: goFunc(['int', 'string'], readsAndBuilds(BYTE_UNITS, 4), trunc),
  quote: meteredFunc(
    [],
    PRINTS,
    (m: Meter, ...v: unknown[]) =>
      joined(
        nonNil(v).map((x) => quoted(strval(x, m), m)),
        ' ',
        m,
      ),
    'any',
  ),
  squote: meteredFunc(
    [],
    PRINTS,
    (m: Meter, ...v: unknown[]) =>
      joined(
        nonNil(v).map((x) => `'${printed(x, m)}'`),
        ' ',
        m,
      ),
    'any',
  ),
  cat: meteredFunc(
    [],
    PRINTS,
    (m: Meter, ...v: unknown[]) =>
      joined(
        nonNil(v).map((x) => printed(x, m)),
        ' ',
        m,
      ),
    'any',
  ),
  indent: goFunc(['int', 'string'], indentCost, indent),
  nindent: goFunc(['int', 'string'], indentCost, (n: bigint, v: string) => '\n' + indent(n, v)),
  replace: goFunc(['string', 'string', 'string'], replaceCost, (old: string, nw: string, s: string) =>
    goReplaceAll(s, old, nw),
  ),
  plural: goFunc(['string', 'string', 'int'], CONSTANT, (one: string, many: string, n: bigint) =>
    n === 1n ? one : many,
  ),
  toString: meteredFunc(['any'], PRINTS, (m: Meter, v: unknown) => strval(v, m)),
  toStrings: meteredFunc(['any'], CONSTANT, (m: Meter, v: unknown) => toStrings(v, m)),
  join: meteredFunc(['string', 'any'], JOINS, (m: Meter, sep: string, v: unknown) => joined(toStrings(v, m), sep, m)),
  split: goFunc(['string', 'string'], splitCost(ENTRY_BYTES), (sep: string, s: string) =>
    indexMap(goSplitN(s, sep, -1)),
  ),
  splitn: goFunc(['string', 'int', 'string'], splitCost(ENTRY_BYTES), (sep: string, n: bigint, s: string) =>
    indexMap(goSplitN(s, sep, toWidth(n))),
  ),
};

/** A text quoted as strconv.Quote does it, charged before. */
function quoted(s: string, m: Meter): string {
  m.spend(2 * RUNE_UNITS * s.length);
  m.build(QUOTE_GROWTH * s.length + 2);
  return goQuote(s);
}

/** fmt's %v of a value (a string as it is). */
function printed(v: unknown, m: Meter): string {
  return typeof v === 'string' ? v : formatValue(v, m);
}

/** strings.Join, charged before: every part and a separator between each two. */
function joined(parts: readonly string[], sep: string, m: Meter): string {
  let n = Math.max(0, parts.length - 1) * sep.length;
  for (const p of parts) n += p.length;
  m.build(n);
  return parts.join(sep);
}
