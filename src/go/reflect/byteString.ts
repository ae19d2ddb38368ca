// Go strings are byte sequences, JS strings UTF-16 text. A Go string is held as the JS string of its UTF-8
// text, except that each byte which is not part of valid UTF-8 (as Go's utf8.DecodeRune judges it: one
// invalid byte at a time) is held as the lone surrogate U+DC80..U+DCFF standing for byte 0x80..0xFF
// ("surrogateescape"). Valid text is therefore its ordinary JS string, and every byte sequence has exactly
// one such form; byte-level functions (substr, slice, index, %x, b64dec, ...) go through goBytes/goString.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).
import { isUtf8 } from 'node:buffer';
import { validSequenceLength } from '../unicode/utf8.ts';

/** A raw byte (a lone surrogate U+DC80..U+DCFF; a surrogate pair never matches in a `u` regexp). */
const RAW_BYTE = /[\uDC80-\uDCFF]/u;
const RAW_BYTES = /[\uDC80-\uDCFF]/gu;

export function hasRawBytes(s: string): boolean {
  return RAW_BYTE.test(s);
}

/** The bytes of a Go string. */
export function goBytes(s: string): Buffer {
  if (!RAW_BYTE.test(s)) return Buffer.from(s, 'utf8');
  const parts: Buffer[] = [];
  let start = 0;
  for (const m of s.matchAll(RAW_BYTES)) {
    const i = m.index!;
    if (i > start) parts.push(Buffer.from(s.slice(start, i), 'utf8'));
    parts.push(Buffer.of(s.charCodeAt(i) - 0xdc00));
    start = i + 1;
  }
  if (start < s.length) parts.push(Buffer.from(s.slice(start), 'utf8'));
  return Buffer.concat(parts);
}

/** len(s) in Go: its byte count. */
export function goByteLength(s: string): number {
  const n = Buffer.byteLength(s, 'utf8');
  if (!RAW_BYTE.test(s)) return n;
  // Node counts a lone surrogate as the 3 bytes of U+FFFD; a raw byte is 1.
  let raw = 0;
  for (const _ of s.matchAll(RAW_BYTES)) raw++;
  return n - 2 * raw;
}

/** The Go string of some bytes (string(b) in Go). */
export function goString(b: Uint8Array): string {
  if (isUtf8(b)) return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  let out = '';
  let start = 0;
  let i = 0;
  while (i < b.length) {
    const n = validSequenceLength(b, i);
    if (n > 0) {
      i += n;
      continue;
    }
    if (i > start) out += Buffer.from(b.buffer, b.byteOffset + start, i - start).toString('utf8');
    out += String.fromCharCode(0xdc00 + b[i]!);
    i++;
    start = i;
  }
  if (i > start) out += Buffer.from(b.buffer, b.byteOffset + start, i - start).toString('utf8');
  return out;
}

/**
 * The one form of a Go string. Joining two Go strings can put raw bytes next to each other that together
 * are valid UTF-8 (the halves of a character cut by substr); the joined string then holds that character.
 */
export function canonicalGoString(s: string): string {
  return RAW_BYTE.test(s) ? goString(goBytes(s)) : s;
}

/** The text as Go's encoders write it for invalid UTF-8: each raw byte becomes U+FFFD. */
export function replaceRawBytes(s: string): string {
  return RAW_BYTE.test(s) ? s.replace(RAW_BYTES, '\ufffd') : s;
}
