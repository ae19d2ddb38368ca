// Go's per-rune Unicode predicates and simple case mappings (package unicode), which sprig's string
// functions use. JavaScript's toUpperCase/toLowerCase apply full (multi-character, context-dependent)
// mappings: "ß" becomes "SS" and a final "Σ" becomes "ς". Go maps one rune to one rune, so we map code
// point by code point and fall back to the simple mapping where JS's would be multi-character.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).

import { canonicalGoString } from '../reflect/byteString.ts';
import { lazyRegExp } from '../internal/lazyRegExp.ts';

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
export const isSpace = (c: number) => SPACE.has(c) || (c >= 0x2000 && c <= 0x200a);
export const isUpper = (c: number) => UPPER.test(ch(c));
export const isLower = (c: number) => LOWER.test(ch(c));
export const isTitle = (c: number) => TITLE.test(ch(c));
export const isLetter = (c: number) => LETTER.test(ch(c));
export const isDigit = (c: number) => DIGIT.test(ch(c));
export const isNumber = (c: number) => NUMBER.test(ch(c));
export const isPunct = (c: number) => PUNCT.test(ch(c));

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

/** unicode.ToUpper. */
export function toUpper(c: number): number {
  if (c < 0x80) return c >= 0x61 && c <= 0x7a ? c - 32 : c;
  return single(ch(c).toUpperCase()) ?? simpleUpperFallback(c) ?? c;
}

/** unicode.ToLower. */
export function toLower(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 32 : c;
  if (c === 0x130) return 0x69;
  return single(ch(c).toLowerCase()) ?? c;
}

// Titlecase differs from uppercase for the DŽ/LJ/NJ/DZ digraphs, and Georgian Mkhedruli letters are
// their own titlecase (their uppercase is Mtavruli).
const TITLE_DIGRAPHS: ReadonlyMap<number, number> = new Map([
  [0x1c4, 0x1c5], [0x1c5, 0x1c5], [0x1c6, 0x1c5], [0x1c7, 0x1c8], [0x1c8, 0x1c8], [0x1c9, 0x1c8],
  [0x1ca, 0x1cb], [0x1cb, 0x1cb], [0x1cc, 0x1cb], [0x1f1, 0x1f2], [0x1f2, 0x1f2], [0x1f3, 0x1f2],
]);

/** unicode.ToTitle. */
export function toTitle(c: number): number {
  const d = TITLE_DIGRAPHS.get(c);
  if (d !== undefined) return d;
  if ((c >= 0x10d0 && c <= 0x10fa) || (c >= 0x10fd && c <= 0x10ff)) return c;
  return toUpper(c);
}

/** []rune(s) in Go: a raw byte (src/go/reflect/byteString.ts) is utf8.RuneError. */
export function goRunes(s: string): number[] {
  const out: number[] = [];
  for (const x of canonicalGoString(s)) {
    const c = x.codePointAt(0)!;
    out.push(c >= 0xdc80 && c <= 0xdcff ? 0xfffd : c);
  }
  return out;
}

/** strings.Map with a one-rune mapping: raw bytes come out as U+FFFD, as in Go. */
export const mapRunes = (s: string, f: (c: number) => number): string => {
  let out = '';
  for (const c of goRunes(s)) out += ch(f(c));
  return out;
};

/** The bytes of s's UTF-8 encoding, each read as a rune (what Go code does with `rune(str[i])`). */
export function latin1OfUtf8(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += String.fromCharCode(b);
  return out;
}
