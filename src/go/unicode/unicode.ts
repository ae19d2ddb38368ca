// Go's per-rune Unicode predicates and simple case mappings (package unicode), which sprig's string
// functions use. JavaScript's toUpperCase/toLowerCase apply full (multi-character, context-dependent)
// mappings: "ß" becomes "SS" and a final "Σ" becomes "ς". Go maps one rune to one rune, so we map code
// point by code point and fall back to the simple mapping where JS's would be multi-character.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).

import { canonicalGoString } from '../reflect/byteString.ts';
import { lazyRegExp } from '../internal/lazyRegExp.ts';
import { TextBuilder } from '../internal/textBuilder.ts';

const SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]);
const UPPER = lazyRegExp('^\\p{Lu}$', 'u');
const LOWER = lazyRegExp('^\\p{Ll}$', 'u');
const TITLE = lazyRegExp('^\\p{Lt}$', 'u');
const LETTER = lazyRegExp('^\\p{L}$', 'u');
const DIGIT = lazyRegExp('^\\p{Nd}$', 'u');
const NUMBER = lazyRegExp('^\\p{N}$', 'u');
const PUNCT = lazyRegExp('^\\p{P}$', 'u');

const ch = (c: number) => String.fromCodePoint(c);

/** unicode.IsSpace: unlike JS's \s and String.prototype.trim, NEL (U+0085) is a space and BOM (U+FEFF) is not. */
export const isSpace = (c: number) => (c < 0x100 ? SPACE_BYTES[c] === 1 : SPACE.has(c) || (c >= 0x2000 && c <= 0x200a));

const SPACE_BYTES = Uint8Array.from({ length: 0x100 }, (_, c) => (SPACE.has(c) ? 1 : 0));

/** unicode.IsSpace(rune(b)) for a byte (what code that reads a string's bytes as runes asks). */
export const isSpaceByte = (b: number) => SPACE_BYTES[b] === 1;

// The categories of a BMP rune, worked out the first time it is asked about (a Unicode property test makes
// a string and runs a regular expression; text is read a rune at a time, again and again).
const KNOWN = 0x80;
const UPPER_BIT = 1;
const LOWER_BIT = 2;
const TITLE_BIT = 4;
const LETTER_BIT = 8;
const DIGIT_BIT = 16;
const NUMBER_BIT = 32;
const PUNCT_BIT = 64;
let categories: Uint8Array | undefined;

function categoriesOf(c: number): number {
  if (c > 0xffff) return categoriesNow(c);
  categories ??= new Uint8Array(0x10000);
  let k = categories[c]!;
  if (k === 0) categories[c] = k = KNOWN | categoriesNow(c);
  return k;
}

function categoriesNow(c: number): number {
  const x = ch(c);
  return (
    (UPPER.test(x) ? UPPER_BIT : 0) |
    (LOWER.test(x) ? LOWER_BIT : 0) |
    (TITLE.test(x) ? TITLE_BIT : 0) |
    (LETTER.test(x) ? LETTER_BIT : 0) |
    (DIGIT.test(x) ? DIGIT_BIT : 0) |
    (NUMBER.test(x) ? NUMBER_BIT : 0) |
    (PUNCT.test(x) ? PUNCT_BIT : 0)
  );
}

const isAsciiUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isAsciiLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isAsciiDigit = (c: number) => c >= 0x30 && c <= 0x39;
export const isUpper = (c: number) => (c < 0x80 ? isAsciiUpper(c) : (categoriesOf(c) & UPPER_BIT) !== 0);
export const isLower = (c: number) => (c < 0x80 ? isAsciiLower(c) : (categoriesOf(c) & LOWER_BIT) !== 0);
export const isTitle = (c: number) => c >= 0x80 && (categoriesOf(c) & TITLE_BIT) !== 0;
export const isLetter = (c: number) =>
  c < 0x80 ? isAsciiUpper(c) || isAsciiLower(c) : (categoriesOf(c) & LETTER_BIT) !== 0;
export const isDigit = (c: number) => (c < 0x80 ? isAsciiDigit(c) : (categoriesOf(c) & DIGIT_BIT) !== 0);
export const isNumber = (c: number) => (c < 0x80 ? isAsciiDigit(c) : (categoriesOf(c) & NUMBER_BIT) !== 0);
export const isPunct = (c: number) => (categoriesOf(c) & PUNCT_BIT) !== 0;

function single(s: string): number | undefined {
  const cp = s.codePointAt(0);
  return cp !== undefined && s.length === (cp > 0xffff ? 2 : 1) ? cp : undefined;
}

// Runes whose JS uppercase is several characters but whose simple uppercase is one rune (the Greek
// letters with ypogegrammeni: U+1F80 -> U+1F88, ...), found as the runes that lower-case to them.
let upperFallback: Map<number, number> | undefined;
function simpleUpperFallback(c: number): number | undefined {
  if (upperFallback === undefined) {
    upperFallback = new Map();
    for (let x = 0x1f80; x <= 0x1fff; x++) {
      const l = single(ch(x).toLowerCase());
      if (l !== undefined && l !== x && single(ch(l).toUpperCase()) === undefined) upperFallback.set(l, x);
    }
  }
  return upperFallback.get(c);
}

// The case mappings of BMP runes, each worked out the first time it is asked for (0: not yet).
let uppers: Int32Array | undefined;
let lowers: Int32Array | undefined;

/** unicode.ToUpper. */
export function toUpper(c: number): number {
  if (c < 0x80) return c >= 0x61 && c <= 0x7a ? c - 32 : c;
  if (c > 0xffff) return upperNow(c);
  uppers ??= new Int32Array(0x10000);
  return uppers[c] || (uppers[c] = upperNow(c));
}

const upperNow = (c: number) => single(ch(c).toUpperCase()) ?? simpleUpperFallback(c) ?? c;

/** unicode.ToLower. */
export function toLower(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 32 : c;
  if (c > 0xffff) return lowerNow(c);
  lowers ??= new Int32Array(0x10000);
  return lowers[c] || (lowers[c] = lowerNow(c));
}

const lowerNow = (c: number) => (c === 0x130 ? 0x69 : (single(ch(c).toLowerCase()) ?? c));

// Titlecase differs from uppercase for the DŽ/LJ/NJ/DZ digraphs, and Georgian Mkhedruli letters are
// their own titlecase (their uppercase is Mtavruli).
const TITLE_DIGRAPHS: ReadonlyMap<number, number> = new Map([
  [0x1c4, 0x1c5],
  [0x1c5, 0x1c5],
  [0x1c6, 0x1c5],
  [0x1c7, 0x1c8],
  [0x1c8, 0x1c8],
  [0x1c9, 0x1c8],
  [0x1ca, 0x1cb],
  [0x1cb, 0x1cb],
  [0x1cc, 0x1cb],
  [0x1f1, 0x1f2],
  [0x1f2, 0x1f2],
  [0x1f3, 0x1f2],
]);

/** unicode.ToTitle. */
export function toTitle(c: number): number {
  const d = TITLE_DIGRAPHS.get(c);
  if (d !== undefined) return d;
  if ((c >= 0x10d0 && c <= 0x10fa) || (c >= 0x10fd && c <= 0x10ff)) return c;
  return toUpper(c);
}

/**
 * Calls `f` with each rune of a Go string (already in its one form, canonicalGoString) and the offset after
 * it: a raw byte (src/go/reflect/byteString.ts) is utf8.RuneError.
 */
export function forEachRune(s: string, f: (c: number, next: number) => void): void {
  for (let i = 0; i < s.length;) {
    let c = s.charCodeAt(i++);
    if (c >= 0xd800 && c <= 0xdbff && i < s.length) {
      const d = s.charCodeAt(i);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
        i++;
      }
    } else if (c >= 0xdc80 && c <= 0xdcff) c = 0xfffd;
    f(c, i);
  }
}

/** []rune(s) in Go: a raw byte (src/go/reflect/byteString.ts) is utf8.RuneError. */
export function goRunes(s: string): Int32Array {
  s = canonicalGoString(s);
  const out = new Int32Array(s.length);
  let n = 0;
  forEachRune(s, (c) => (out[n++] = c));
  return out.subarray(0, n);
}

/** strings.Map with a one-rune mapping: raw bytes come out as U+FFFD, as in Go. */
export const mapRunes = (s: string, f: (c: number) => number): string => {
  const out = new TextBuilder();
  forEachRune(canonicalGoString(s), (c) => out.push(f(c)));
  return out.toString();
};

/** Text of ASCII characters only (the mappings and predicates above are trivial on it). */
export const isAsciiText = (s: string): boolean => /^[\x00-\x7f]*$/.test(s);

/** The bytes of s's UTF-8 encoding, each read as a rune (what Go code does with `rune(str[i])`). */
export function latin1OfUtf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
