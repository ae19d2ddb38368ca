// Go string semantics that OSM's containerd code relies on and JavaScript does not share: Unicode
// White_Space trimming (unicode.IsSpace) and byte-order comparison. Go strings are bytes, so the URL and
// JSON code works on "byte strings" (one char per byte, 0-255) converted at its edges.
// Follows Go 1.26 (OSM's go.mod).
import { isSpace } from '../unicode/unicode.ts';

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
