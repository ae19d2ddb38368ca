// sprig's strings.go: b64enc/b64dec, b32enc/b32dec, abbrev, abbrevboth, initials, untitle, substr, trunc, quote,
// squote, cat, indent, nindent, replace, plural, toString (strval), toStrings (strslice), join, split and
// splitn, on Go's semantics. Several work on the UTF-8 bytes rather than on characters, exactly like sprig:
// substr, trunc, abbrev and abbrevboth slice bytes (a cut inside a multi-byte character leaves raw bytes, see
// src/go/reflect/byteString.ts), and initials reads each byte as a character of its own (goutils, src/go/goutils/).
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
import { elemType, goMap, goSlice, GoStringer, GoStruct } from '../go/reflect/value.ts';
import { formatValue, goQuote } from '../go/fmt/format.ts';
import { goBytes, goString } from '../go/reflect/byteString.ts';
import { goReplaceAll, goSplitN } from '../go/strings/strings.ts';
import { abbreviateFull } from '../go/goutils/stringUtils.ts';
import { initials, uncapitalize } from '../go/goutils/wordUtils.ts';
import { base64Decode, CorruptInputError } from '../go/encoding/base64.ts';
import { base32Decode, base32Encode } from '../go/encoding/base32.ts';

/** sprig's strval: strings as is, []byte as text, Stringers through String(), the rest through fmt's %v. */
export function strval(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return goString(v);
  if (v instanceof GoStringer) return v.text;
  if (v instanceof GoStruct && v.stringerText !== undefined) return v.stringerText;
  return formatValue(v === undefined ? null : v);
}

const utf8 = goBytes;
const text = goString;
const isNil = (v: unknown) => v === null || v === undefined;

/** sprig's strslice: a list's non-nil elements as a []string (a []string as it is); nil is empty; anything else is one string. */
export function toStrings(v: unknown): string[] {
  if (Array.isArray(v) && elemType(v) === 'string') return v as string[];
  if (Array.isArray(v)) return goSlice('string', v.filter((e) => !isNil(e)).map(strval));
  if (v instanceof Uint8Array) return goSlice('string', Array.from(v, (b) => String(b)));
  if (isNil(v)) return goSlice('string', []);
  return goSlice('string', [strval(v)]);
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

function indent(spaces: bigint, v: string): string {
  if (spaces < 0n) throw new GoCallError('strings: negative Repeat count');
  const pad = ' '.repeat(Number(spaces));
  return pad + v.split('\n').join('\n' + pad);
}

function indexMap(parts: string[]): Record<string, string> {
  const m: Record<string, string> = goMap('string', {});
  parts.forEach((p, i) => Object.defineProperty(m, '_' + i, { value: p, enumerable: true, writable: true, configurable: true }));
  return m;
}

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
  b64enc: goFunc(['string'], (s: string) => goBytes(s).toString('base64')),
  b64dec: goFunc(['string'], (s: string) => decodeOr(base64Decode, s)),
  b32enc: goFunc(['string'], (s: string) => base32Encode(goBytes(s))),
  b32dec: goFunc(['string'], (s: string) => decodeOr(base32Decode, s)),
  abbrev: goFunc(['int', 'string'], abbrev),
  abbrevboth: goFunc(['int', 'int', 'string'], abbrevboth),
  initials: goFunc(['string'], initials),
  untitle: goFunc(['string'], uncapitalize),
  substr: goFunc(['int', 'int', 'string'], substring),
  trunc: goFunc(['int', 'string'], trunc),
  quote: goFunc([], (...v: unknown[]) => nonNil(v).map((x) => goQuote(strval(x))).join(' '), 'any'),
  squote: goFunc([], (...v: unknown[]) => nonNil(v).map((x) => `'${formatValue(x)}'`).join(' '), 'any'),
  cat: goFunc([], (...v: unknown[]) => nonNil(v).map((x) => formatValue(x)).join(' '), 'any'),
  indent: goFunc(['int', 'string'], indent),
  nindent: goFunc(['int', 'string'], (n: bigint, v: string) => '\n' + indent(n, v)),
  replace: goFunc(['string', 'string', 'string'], (old: string, nw: string, s: string) => goReplaceAll(s, old, nw)),
  plural: goFunc(['string', 'string', 'int'], (one: string, many: string, n: bigint) => (n === 1n ? one : many)),
  toString: goFunc(['any'], strval),
  toStrings: goFunc(['any'], toStrings),
  join: goFunc(['string', 'any'], (sep: string, v: unknown) => toStrings(v).join(sep)),
  split: goFunc(['string', 'string'], (sep: string, s: string) => indexMap(goSplitN(s, sep, -1))),
  splitn: goFunc(['string', 'int', 'string'], (sep: string, n: bigint, s: string) => indexMap(goSplitN(s, sep, toWidth(n)))),
};
