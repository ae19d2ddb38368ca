// The longest string that may be a key. Ours: no Go counterpart. V8 hashes a string of more than 16,383
// characters by its length alone (String::kMaxHashCalcLength, V8 11.3 in Node 20), so distinct keys of one such
// length collide in every object, Map, Set and in V8's string table: n of them cost n² times their length
// (measured: 2,000 annotation keys of 16,384 characters that differ at their end, 7.8 s; of 16,383, 1.4 s). A
// string that long is kept as a value only: the input readers refuse it as a map key or an anchor, Go's maps in
// templates refuse it as a key (src/go/reflect/value.ts), and a registry keyed by values keys it by digest.
import { sha256Hex } from '../crypto/sha256.ts';

export const MAX_KEY_LENGTH = 16_383;

/** Whether `key` is short enough for V8 to hash it by its content. */
export function isHashableKey(key: string): boolean {
  return key.length <= MAX_KEY_LENGTH;
}

/**
 * What stands for `s` as a key of a lookup table (a Map or a Set the program keeps for itself and never shows):
 * `s` itself when V8 hashes it by content, else `\0#` and the SHA-256 of its UTF-16 code units. A short string
 * that starts with `\0` is written `\0\0...`, so no two strings share a lookup key.
 */
export function lookupKey(s: string): string {
  if (s.length < MAX_KEY_LENGTH) return s.charCodeAt(0) === 0 ? `\0${s}` : s;
  return `\0#${sha256Hex(Buffer.from(s, 'utf16le'))}`;
}
