// sprig's string functions (the hermetic ones), with Go's semantics. Several of them work on the UTF-8
// bytes rather than on characters, exactly like sprig: substr, trunc, abbrev, abbrevboth, wrap and
// wrapWith slice bytes (a cut inside a multi-byte character leaves raw bytes, see src/go/reflect/byteString.ts), and
// initials and nospace read each byte as a character of its own (so non-ASCII text comes out as Latin-1
// mojibake, as in Go). Case mappings are Go's one-rune-to-one-rune mappings.
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
import { elemType, goMap, goSlice, GoStringer, GoStruct } from '../go/reflect/value.ts';
import { compareBytes, formatValue, goQuote } from '../go/fmt/format.ts';
import { isLetter, isDigit, isLower, isSpace, isTitle, isUpper, latin1OfUtf8, mapRunes, toLower, toTitle, toUpper } from '../go/unicode/unicode.ts';
import { toKebabCase, toPascalCase, toSnakeCase } from '../go/xstrings/caseConversion.ts';
import { canonicalGoString, goBytes, goString, hasRawBytes } from '../go/reflect/byteString.ts';

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

/** goutils.AbbreviateFull on bytes; its errors (width too small) give "". */
function abbreviateFull(s: Uint8Array, offset: number, maxWidth: number): string {
  if (s.length === 0) return '';
  if (maxWidth < 4) return '';
  if (s.length <= maxWidth) return text(s);
  if (offset > s.length) offset = s.length;
  if (s.length - offset < maxWidth - 3) offset = s.length - (maxWidth - 3);
  if (offset <= 4) return text(s.subarray(0, maxWidth - 3)) + '...';
  if (maxWidth < 7) return '';
  if (offset + maxWidth - 3 < s.length) return '...' + abbreviateFull(s.subarray(offset), 0, maxWidth - 3);
  return '...' + text(s.subarray(s.length - (maxWidth - 3)));
}

const toWidth = (n: bigint) => (n > 0x7fffffffn ? 0x7fffffff : n < -0x7fffffffn ? -0x7fffffff : Number(n));

function abbrev(width: bigint, s: string): string {
  if (width < 4n) return s;
  return abbreviateFull(utf8(s), 0, toWidth(width));
}

function abbrevboth(left: bigint, right: bigint, s: string): string {
  if (right < 4n || (left > 0n && right < 7n)) return s;
  return abbreviateFull(utf8(s), toWidth(left), toWidth(right));
}

/** goutils.WrapCustom, on bytes: breaks at the last space that fits; newlines in the input are not special. */
function wrapCustom(s: string, width: bigint, newLine: string, wrapLongWords: boolean): string {
  if (s === '') return '';
  if (newLine === '') newLine = '\n';
  const w = width < 1n ? 1 : toWidth(width);
  const b = utf8(s);
  const nl = utf8(newLine);
  const out: Uint8Array[] = [];
  let offset = 0;
  const lastSpace = (from: number, to: number) => {
    for (let i = to - 1; i >= from; i--) if (b[i] === 0x20) return i;
    return -1;
  };
  while (b.length - offset > w) {
    if (b[offset] === 0x20) {
      offset++;
      continue;
    }
    const at = lastSpace(offset, w + offset + 1);
    if (at >= offset) {
      out.push(b.subarray(offset, at), nl);
      offset = at + 1;
    } else if (wrapLongWords) {
      out.push(b.subarray(offset, w + offset), nl);
      offset += w;
    } else {
      const next = b.indexOf(0x20, w + offset);
      if (next < 0) {
        out.push(b.subarray(offset));
        offset = b.length;
      } else {
        out.push(b.subarray(offset, next), nl);
        offset = next + 1;
      }
    }
  }
  out.push(b.subarray(offset));
  return text(Buffer.concat(out));
}

/** strings.Title: the first letter of each word in title case; words are separated as Go's isSeparator says. */
function title(s: string): string {
  const isSeparator = (r: number) => {
    if (r <= 0x7f) return !((r >= 0x30 && r <= 0x39) || (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a) || r === 0x5f);
    if (isLetter(r) || isDigit(r)) return false;
    return isSpace(r);
  };
  let prev = 0x20;
  return mapRunes(s, (r) => {
    const out = isSeparator(prev) ? toTitle(r) : r;
    prev = r;
    return out;
  });
}

/** goutils.Uncapitalize: lower-cases the first rune of each whitespace-separated word. */
function untitle(s: string): string {
  let next = true;
  return mapRunes(s, (r) => {
    if (isSpace(r)) {
      next = true;
      return r;
    }
    if (next) {
      next = false;
      return toLower(r);
    }
    return r;
  });
}

/** goutils.SwapCase: upper and title to lower; lower to title at a word start, else to upper. */
function swapCase(s: string): string {
  let whitespace = true;
  return mapRunes(s, (r) => {
    if (isUpper(r) || isTitle(r)) {
      whitespace = false;
      return toLower(r);
    }
    if (isLower(r)) {
      const out = whitespace ? toTitle(r) : toUpper(r);
      whitespace = false;
      return out;
    }
    whitespace = isSpace(r);
    return r;
  });
}

/** goutils.Initials: reads bytes as runes; words are separated by whitespace. */
function initials(s: string): string {
  let out = '';
  let gap = true;
  for (const b of utf8(s)) {
    if (isSpace(b)) gap = true;
    else if (gap) {
      out += String.fromCharCode(b);
      gap = false;
    }
  }
  return out;
}

/** goutils.DeleteWhiteSpace: drops whitespace bytes; if it dropped any, the rest is rebuilt byte by byte. */
function deleteWhiteSpace(s: string): string {
  const b = utf8(s);
  const kept = b.filter((x) => !isSpace(x));
  return kept.length === b.length ? s : latin1OfUtf8(kept);
}

/** A rune as Go decodes it: a raw byte (src/go/reflect/byteString.ts) is utf8.RuneError. */
const runeOf = (x: string) => {
  const c = x.codePointAt(0)!;
  return c >= 0xdc80 && c <= 0xdcff ? 0xfffd : c;
};

const trimFunc = (s: string, cut: (c: number) => boolean, left: boolean, right: boolean): string => {
  const r = [...canonicalGoString(s)];
  let a = 0;
  let z = r.length;
  if (left) while (a < z && cut(runeOf(r[a]!))) a++;
  if (right) while (z > a && cut(runeOf(r[z - 1]!))) z--;
  return r.slice(a, z).join('');
};

const trimCutset = (cutset: string, s: string) => {
  const set = new Set([...canonicalGoString(cutset)].map(runeOf));
  return trimFunc(s, (c) => set.has(c), true, true);
};

// Go searches strings bytewise. Searching UTF-16 text agrees with that unless raw bytes take part.
const rawBytes = (a: string, b: string) => hasRawBytes(a) || hasRawBytes(b);

function startsWith(s: string, prefix: string): boolean {
  if (!rawBytes(s, prefix)) return s.startsWith(prefix);
  const b = goBytes(s);
  const p = goBytes(prefix);
  return b.length >= p.length && b.subarray(0, p.length).equals(p);
}

function endsWith(s: string, suffix: string): boolean {
  if (!rawBytes(s, suffix)) return s.endsWith(suffix);
  const b = goBytes(s);
  const p = goBytes(suffix);
  return b.length >= p.length && b.subarray(b.length - p.length).equals(p);
}

function trimPrefix(prefix: string, s: string): string {
  if (!startsWith(s, prefix)) return s;
  return rawBytes(s, prefix) ? goString(goBytes(s).subarray(goBytes(prefix).length)) : s.slice(prefix.length);
}

function trimSuffix(suffix: string, s: string): string {
  if (!endsWith(s, suffix)) return s;
  if (!rawBytes(s, suffix)) return s.slice(0, s.length - suffix.length);
  const b = goBytes(s);
  return goString(b.subarray(0, b.length - goBytes(suffix).length));
}

/** The parts of s between the occurrences of a non-empty sep. */
function splitAll(s: string, sep: string): string[] {
  if (!rawBytes(s, sep)) return s.split(sep);
  const b = goBytes(s);
  const p = goBytes(sep);
  const out: string[] = [];
  let i = 0;
  for (let j = b.indexOf(p, i); j >= 0; j = b.indexOf(p, i)) {
    out.push(goString(b.subarray(i, j)));
    i = j + p.length;
  }
  out.push(goString(b.subarray(i)));
  return out;
}

/** Go's explode: one string per rune, a raw byte on its own. */
const explode = (s: string) => [...canonicalGoString(s)];

function indent(spaces: bigint, v: string): string {
  if (spaces < 0n) throw new GoCallError('strings: negative Repeat count');
  const pad = ' '.repeat(Number(spaces));
  return pad + v.split('\n').join('\n' + pad);
}

/** strings.Replace(s, old, new, -1): an empty old inserts new around every rune. */
function replace(old: string, nw: string, s: string): string {
  if (old === '') return nw + explode(s).join(nw) + (s === '' ? '' : nw);
  return splitAll(s, old).join(nw);
}

/** strings.SplitN. */
function splitN(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  const parts = sep === '' ? explode(s) : splitAll(s, sep);
  if (n < 0 || parts.length <= n) return parts;
  if (sep === '') return [...parts.slice(0, n - 1), parts.slice(n - 1).join('')];
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

function indexMap(parts: string[]): Record<string, string> {
  const m: Record<string, string> = goMap('string', {});
  parts.forEach((p, i) => Object.defineProperty(m, '_' + i, { value: p, enumerable: true, writable: true, configurable: true }));
  return m;
}

const MAX_REPEAT_OUTPUT = 64n * 1024n * 1024n;

/** sprig's sortAlpha: a list's strings sorted byte-wise; anything else becomes a one-element list. */
function sortAlpha(v: unknown): string[] {
  // sort.Strings sorts a []string in place.
  if (Array.isArray(v) || v instanceof Uint8Array) return toStrings(v).sort(compareBytes);
  return goSlice('string', [strval(v)]);
}

/** sprig drops nil arguments (a typed nil pointer is not nil and stays). */
const nonNil = (v: unknown[]) => v.filter((x) => !isNil(x));

export const stringFuncs: FuncMap = {
  upper: goFunc(['string'], (s: string) => mapRunes(s, toUpper)),
  lower: goFunc(['string'], (s: string) => mapRunes(s, toLower)),
  title: goFunc(['string'], title),
  untitle: goFunc(['string'], untitle),
  substr: goFunc(['int', 'int', 'string'], substring),
  repeat: goFunc(['int', 'string'], (n: bigint, s: string) => {
    if (n < 0n) throw new GoCallError('strings: negative Repeat count');
    // A bound of ours: Go would try to allocate it.
    if (BigInt(utf8(s).length) * n > MAX_REPEAT_OUTPUT) throw new GoCallError('strings: Repeat output too large');
    return s.repeat(Number(n));
  }),
  trim: goFunc(['string'], (s: string) => trimFunc(s, isSpace, true, true)),
  trimAll: goFunc(['string', 'string'], trimCutset),
  trimall: goFunc(['string', 'string'], trimCutset),
  trimPrefix: goFunc(['string', 'string'], trimPrefix),
  trimSuffix: goFunc(['string', 'string'], trimSuffix),
  nospace: goFunc(['string'], (s: string) => (s === '' ? s : deleteWhiteSpace(s))),
  trunc: goFunc(['int', 'string'], trunc),
  abbrev: goFunc(['int', 'string'], abbrev),
  abbrevboth: goFunc(['int', 'int', 'string'], abbrevboth),
  initials: goFunc(['string'], initials),
  wrap: goFunc(['int', 'string'], (w: bigint, s: string) => wrapCustom(s, w, '', false)),
  wrapWith: goFunc(['int', 'string', 'string'], (w: bigint, sep: string, s: string) => wrapCustom(s, w, sep, true)),
  contains: goFunc(['string', 'string'], (sub: string, s: string) => (rawBytes(s, sub) ? goBytes(s).includes(goBytes(sub)) : s.includes(sub))),
  hasPrefix: goFunc(['string', 'string'], (p: string, s: string) => startsWith(s, p)),
  hasSuffix: goFunc(['string', 'string'], (p: string, s: string) => endsWith(s, p)),
  quote: goFunc([], (...v: unknown[]) => nonNil(v).map((x) => goQuote(strval(x))).join(' '), 'any'),
  squote: goFunc([], (...v: unknown[]) => nonNil(v).map((x) => `'${formatValue(x)}'`).join(' '), 'any'),
  cat: goFunc([], (...v: unknown[]) => nonNil(v).map((x) => formatValue(x)).join(' '), 'any'),
  indent: goFunc(['int', 'string'], indent),
  nindent: goFunc(['int', 'string'], (n: bigint, v: string) => '\n' + indent(n, v)),
  replace: goFunc(['string', 'string', 'string'], replace),
  plural: goFunc(['string', 'string', 'int'], (one: string, many: string, n: bigint) => (n === 1n ? one : many)),
  snakecase: goFunc(['string'], toSnakeCase),
  kebabcase: goFunc(['string'], toKebabCase),
  camelcase: goFunc(['string'], toPascalCase),
  swapcase: goFunc(['string'], (s: string) => (s === '' ? s : swapCase(s))),
  hello: goFunc([], () => 'Hello!'),
  toString: goFunc(['any'], strval),
  toStrings: goFunc(['any'], toStrings),
  split: goFunc(['string', 'string'], (sep: string, s: string) => indexMap(splitN(s, sep, -1))),
  splitList: goFunc(['string', 'string'], (sep: string, s: string) => goSlice('string', splitN(s, sep, -1))),
  splitn: goFunc(['string', 'int', 'string'], (sep: string, n: bigint, s: string) => indexMap(splitN(s, sep, toWidth(n)))),
  join: goFunc(['string', 'any'], (sep: string, v: unknown) => toStrings(v).join(sep)),
  sortAlpha: goFunc(['any'], sortAlpha),
};
