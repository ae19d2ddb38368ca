// Go strings are byte sequences, JS strings UTF-16 text. A Go string is held as the JS string of its UTF-8
// text, except that each byte which is not part of valid UTF-8 (as Go's utf8.DecodeRune judges it: one
// invalid byte at a time) is held as the lone surrogate U+DC80..U+DCFF standing for byte 0x80..0xFF
// ("surrogateescape"). Valid text is therefore its ordinary JS string, and every byte sequence has exactly
// one such form; byte-level functions (substr, slice, index, %x, b64dec, ...) go through goBytes/goString.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).
import { isUtf8 } from 'node:buffer';
import { validSequenceLength } from '../unicode/utf8.ts';
import { TextBuilder } from '../internal/textBuilder.ts';

/** A raw byte (a lone surrogate U+DC80..U+DCFF; a surrogate pair never matches in a `u` regexp). */
const RAW_BYTE = /[\uDC80-\uDCFF]/u;
const RAW_BYTES = /[\uDC80-\uDCFF]/gu;

export function hasRawBytes(s: string): boolean {
  return RAW_BYTE.test(s);
}

/** The bytes of a Go string. */
export function goBytes(s: string): Buffer {
  if (!RAW_BYTE.test(s)) return Buffer.from(s, 'utf8');
  // Written in place: UTF-8 takes at most 3 bytes per UTF-16 code unit, a raw byte 1.
  const out = Buffer.allocUnsafe(3 * s.length);
  let n = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc80 || c > 0xdcff) continue;
    // A raw byte is a lone low surrogate: not the second half of a pair.
    if (i > 0 && (s.charCodeAt(i - 1) & 0xfc00) === 0xd800) continue;
    if (i > start) n += out.write(s.slice(start, i), n, 'utf8');
    out[n++] = c - 0xdc00;
    start = i + 1;
  }
  if (start < s.length) n += out.write(s.slice(start), n, 'utf8');
  return out.subarray(0, n);
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
  const whole = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (isUtf8(b)) return whole.toString('utf8');
  // Valid runs are decoded by Node a run at a time; each invalid byte becomes its lone surrogate.
  const out = new TextBuilder();
  let start = 0;
  let i = 0;
  while (i < b.length) {
    if (b[i]! < 0x80) {
      i++;
      continue;
    }
    const n = validSequenceLength(b, i);
    if (n > 0) {
      i += n;
      continue;
    }
    if (i > start) out.append(whole.toString('utf8', start, i));
    out.unit(0xdc00 + b[i]!);
    i++;
    start = i;
  }
  if (i > start) out.append(whole.toString('utf8', start, i));
  return out.toString();
}

/**
 * The one form of a Go string. Joining two Go strings can put raw bytes next to each other that together
 * are valid UTF-8 (the halves of a character cut by substr); the joined string then holds that character.
 */
export function canonicalGoString(s: string): string {
  if (!RAW_BYTE.test(s)) return s;
  // Only a run of raw bytes can hold a character (a real character's bytes are a complete sequence, and
  // continuation bytes are never ASCII nor a lead byte): runs that hold none stay as they are. A lone
  // surrogate that is not a raw byte (no Go string has one) takes the long way.
  const parts: string[] = [];
  let copied = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff) {
      if (i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        i++;
        continue;
      }
      return goString(goBytes(s));
    }
    if (c < 0xdc80 || c > 0xdcff) return goString(goBytes(s));
    let j = i + 1;
    while (j < s.length && s.charCodeAt(j) >= 0xdc80 && s.charCodeAt(j) <= 0xdcff) j++;
    if (j - i >= 2 && holdsLeadByte(s, i, j - 1)) {
      const run = new Uint8Array(j - i);
      for (let k = i; k < j; k++) run[k - i] = s.charCodeAt(k) - 0xdc00;
      const text = goString(run);
      if (text.length !== j - i) {
        parts.push(s.slice(copied, i), text);
        copied = j;
      }
    }
    i = j - 1;
  }
  if (copied === 0) return s;
  parts.push(s.slice(copied));
  return parts.join('');
}

/** Whether raw bytes s[from, to) hold a byte that can start a multi-byte UTF-8 sequence (0xC2..0xF4). */
function holdsLeadByte(s: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const b = s.charCodeAt(k) - 0xdc00;
    if (b >= 0xc2 && b <= 0xf4) return true;
  }
  return false;
}

/** The text as Go's encoders write it for invalid UTF-8: each raw byte becomes U+FFFD. */
export function replaceRawBytes(s: string): string {
  return RAW_BYTE.test(s) ? s.replace(RAW_BYTES, '\ufffd') : s;
}
