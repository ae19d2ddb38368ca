// Go's strings package where JavaScript's differs. For OSM's containerd code: Unicode White_Space trimming
// (unicode.IsSpace) and byte-order comparison; Go strings are bytes, so the URL and JSON code works on "byte
// strings" (one char per byte, 0-255) converted at its edges. For sprig: Title, TrimFunc, Trim, HasPrefix,
// HasSuffix, TrimPrefix, TrimSuffix, Contains, Split, SplitN and Replace on Go strings as
// src/go/reflect/byteString.ts holds them (searches go bytewise where raw bytes take part).
// Follows Go 1.26 (OSM's go.mod).
import { isDigit, isLetter, isSpace, mapRunes, toTitle } from '../unicode/unicode.ts';
import { canonicalGoString, goBytes, goString, hasRawBytes } from '../reflect/byteString.ts';

/** strings.TrimSpace */
export function goTrimSpace(s: string): string {
  const cps = [...s];
  let start = 0;
  let end = cps.length;
  while (start < end && isSpace(cps[start]!.codePointAt(0)!)) start++;
  while (end > start && isSpace(cps[end - 1]!.codePointAt(0)!)) end--;
  return cps.slice(start, end).join('');
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

/** A rune as Go decodes it: a raw byte (src/go/reflect/byteString.ts) is utf8.RuneError. */
const runeOf = (x: string) => {
  const c = x.codePointAt(0)!;
  return c >= 0xdc80 && c <= 0xdcff ? 0xfffd : c;
};

/** strings.TrimFunc (left and right), TrimLeftFunc (left only) or TrimRightFunc (right only). */
export function goTrimFunc(s: string, cut: (c: number) => boolean, left = true, right = true): string {
  const r = [...canonicalGoString(s)];
  let a = 0;
  let z = r.length;
  if (left) while (a < z && cut(runeOf(r[a]!))) a++;
  if (right) while (z > a && cut(runeOf(r[z - 1]!))) z--;
  return r.slice(a, z).join('');
}

/** strings.Trim(s, cutset) */
export function goTrim(s: string, cutset: string): string {
  const set = new Set([...canonicalGoString(cutset)].map(runeOf));
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

/** strings.Contains */
export function goContains(s: string, substr: string): boolean {
  return rawBytes(s, substr) ? goBytes(s).includes(goBytes(substr)) : s.includes(substr);
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

/** strings.Replace(s, old, new, -1): an empty old inserts new around every rune. */
export function goReplaceAll(s: string, old: string, nw: string): string {
  if (old === '') return nw + explode(s).join(nw) + (s === '' ? '' : nw);
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
