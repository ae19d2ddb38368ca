// Go's strings package where JavaScript's differs. For OSM's containerd code: Unicode White_Space trimming
// (unicode.IsSpace) and byte-order comparison; Go strings are bytes, so the URL and JSON code works on "byte
// strings" (one char per byte, 0-255) converted at its edges. For sprig: Title, TrimFunc, Trim, HasPrefix,
// HasSuffix, TrimPrefix, TrimSuffix, Contains, Split, SplitN and Replace on Go strings as
// src/go/reflect/byteString.ts holds them (searches go bytewise where raw bytes take part).
// Follows Go 1.26 (OSM's go.mod).
import { forEachRune, isDigit, isLetter, isSpace, mapRunes, toTitle } from '../unicode/unicode.ts';
import { canonicalGoString, goBytes, goString, hasRawBytes } from '../reflect/byteString.ts';
import { ByteSearch, SHORT_NEEDLE, TextSearch } from './search.ts';
import { TextBuilder } from '../internal/textBuilder.ts';

/** strings.TrimSpace */
export function goTrimSpace(s: string): string {
  return trimRunes(s, isSpace, true, true);
}

/** Go compares strings by their UTF-8 bytes (sort.Strings); JS compares UTF-16 code units. */
export function compareGoStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** A JS string as its UTF-8 bytes, one char per byte. */
export function toByteString(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1');
}

/** Inverse of toByteString; invalid UTF-8 (which Go would keep as raw bytes) becomes U+FFFD. */
export function fromByteString(b: string): string {
  return Buffer.from(b, 'latin1').toString('utf8');
}

/** strings.Title: the first letter of each word in title case; words are separated as Go's isSeparator says. */
export function goTitle(s: string): string {
  const isSeparator = (r: number) => {
    if (r <= 0x7f)
      return !((r >= 0x30 && r <= 0x39) || (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a) || r === 0x5f);
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

/** The rune at offset i of a Go string in its one form, and its UTF-16 length (a raw byte is utf8.RuneError). */
function runeAt(s: string, i: number): [number, number] {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return [(c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000, 2];
  }
  return [c >= 0xdc80 && c <= 0xdcff ? 0xfffd : c, 1];
}

/** The rune that ends at offset i, and its UTF-16 length. */
function runeBefore(s: string, i: number): [number, number] {
  const d = s.charCodeAt(i - 1);
  if (d >= 0xdc00 && d <= 0xdfff && i >= 2) {
    const c = s.charCodeAt(i - 2);
    if (c >= 0xd800 && c <= 0xdbff) return [(c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000, 2];
  }
  return [d >= 0xdc80 && d <= 0xdcff ? 0xfffd : d, 1];
}

/** strings.TrimFunc (left and right), TrimLeftFunc (left only) or TrimRightFunc (right only). */
export function goTrimFunc(s: string, cut: (c: number) => boolean, left = true, right = true): string {
  return trimRunes(canonicalGoString(s), cut, left, right);
}

function trimRunes(s: string, cut: (c: number) => boolean, left: boolean, right: boolean): string {
  let a = 0;
  let z = s.length;
  if (left) {
    while (a < z) {
      const [c, w] = runeAt(s, a);
      if (!cut(c)) break;
      a += w;
    }
  }
  if (right) {
    while (z > a) {
      const [c, w] = runeBefore(s, z);
      if (!cut(c)) break;
      z -= w;
    }
  }
  return s.slice(a, z);
}

/** strings.Trim(s, cutset) */
export function goTrim(s: string, cutset: string): string {
  const set = new Set<number>();
  forEachRune(canonicalGoString(cutset), (c) => set.add(c));
  return goTrimFunc(s, (c) => set.has(c));
}

// Go searches strings bytewise. Searching UTF-16 text agrees with that unless raw bytes take part.
const rawBytes = (a: string, b: string) => hasRawBytes(a) || hasRawBytes(b);

/** strings.HasPrefix */
export function goHasPrefix(s: string, prefix: string): boolean {
  if (!rawBytes(s, prefix)) return s.startsWith(prefix);
  const b = goBytes(s);
  const p = goBytes(prefix);
  return b.length >= p.length && b.subarray(0, p.length).equals(p);
}

/** strings.HasSuffix */
export function goHasSuffix(s: string, suffix: string): boolean {
  if (!rawBytes(s, suffix)) return s.endsWith(suffix);
  const b = goBytes(s);
  const p = goBytes(suffix);
  return b.length >= p.length && b.subarray(b.length - p.length).equals(p);
}

/** strings.TrimPrefix */
export function goTrimPrefix(s: string, prefix: string): string {
  if (!goHasPrefix(s, prefix)) return s;
  return rawBytes(s, prefix) ? goString(goBytes(s).subarray(goBytes(prefix).length)) : s.slice(prefix.length);
}

/** strings.TrimSuffix */
export function goTrimSuffix(s: string, suffix: string): string {
  if (!goHasSuffix(s, suffix)) return s;
  if (!rawBytes(s, suffix)) return s.slice(0, s.length - suffix.length);
  const b = goBytes(s);
  return goString(b.subarray(0, b.length - goBytes(suffix).length));
}

/** strings.Contains (in linear time, search.ts). */
export function goContains(s: string, substr: string): boolean {
  return rawBytes(s, substr)
    ? new ByteSearch(goBytes(substr)).indexIn(goBytes(s)) >= 0
    : new TextSearch(substr).indexIn(s) >= 0;
}

/** The parts of s between the occurrences of a non-empty sep. */
function splitAll(s: string, sep: string): string[] {
  if (!rawBytes(s, sep)) {
    if (sep.length <= SHORT_NEEDLE) return s.split(sep);
    const search = new TextSearch(sep);
    const parts: string[] = [];
    let i = 0;
    for (let j = search.indexIn(s, i); j >= 0; j = search.indexIn(s, i)) {
      parts.push(s.slice(i, j));
      i = j + sep.length;
    }
    parts.push(s.slice(i));
    return parts;
  }
  const b = goBytes(s);
  const p = goBytes(sep);
  const search = new ByteSearch(p);
  const out: string[] = [];
  let i = 0;
  for (let j = search.indexIn(b, i); j >= 0; j = search.indexIn(b, i)) {
    out.push(goString(b.subarray(i, j)));
    i = j + p.length;
  }
  out.push(goString(b.subarray(i)));
  return out;
}

/** Go's explode: one string per rune, a raw byte on its own. */
const explode = (s: string): string[] => {
  const out: string[] = [];
  const c = canonicalGoString(s);
  let at = 0;
  forEachRune(c, (_, next) => {
    out.push(c.slice(at, next));
    at = next;
  });
  return out;
};

/** strings.Replace(s, old, new, -1): an empty old inserts new around every rune. */
export function goReplaceAll(s: string, old: string, nw: string): string {
  if (old === '') {
    const c = canonicalGoString(s);
    const out = new TextBuilder();
    out.append(nw);
    let at = 0;
    forEachRune(c, (_, next) => {
      for (let i = at; i < next; i++) out.unit(c.charCodeAt(i));
      out.append(nw);
      at = next;
    });
    return out.toString();
  }
  return splitAll(s, old).join(nw);
}

/** strings.SplitN (n < 0: strings.Split). */
export function goSplitN(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  const parts = sep === '' ? explode(s) : splitAll(s, sep);
  if (n < 0 || parts.length <= n) return parts;
  if (sep === '') return [...parts.slice(0, n - 1), parts.slice(n - 1).join('')];
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}
