// github.com/Masterminds/goutils v1.1.1 (sprig 3.3.0's), stringutils.go: AbbreviateFull and DeleteWhiteSpace,
// which work on a string's bytes (so a cut inside a multi-byte character leaves raw bytes, and non-ASCII text
// rebuilt byte by byte comes out as Latin-1 mojibake, as in Go).
import { isSpaceByte, latin1OfUtf8 } from '../unicode/unicode.ts';
import { goBytes, goString } from '../reflect/byteString.ts';

/** goutils.AbbreviateFull on bytes; its errors (width too small) give "". */
export function abbreviateFull(s: Uint8Array, offset: number, maxWidth: number): string {
  if (s.length === 0) return '';
  if (maxWidth < 4) return '';
  if (s.length <= maxWidth) return goString(s);
  if (offset > s.length) offset = s.length;
  if (s.length - offset < maxWidth - 3) offset = s.length - (maxWidth - 3);
  if (offset <= 4) return goString(s.subarray(0, maxWidth - 3)) + '...';
  if (maxWidth < 7) return '';
  if (offset + maxWidth - 3 < s.length) return '...' + abbreviateFull(s.subarray(offset), 0, maxWidth - 3);
  return '...' + goString(s.subarray(s.length - (maxWidth - 3)));
}

/** goutils.DeleteWhiteSpace: drops whitespace bytes; if it dropped any, the rest is rebuilt byte by byte. */
export function deleteWhiteSpace(s: string): string {
  const b = goBytes(s);
  const kept = new Uint8Array(b.length);
  let n = 0;
  for (let i = 0; i < b.length; i++) if (!isSpaceByte(b[i]!)) kept[n++] = b[i]!;
  return n === b.length ? s : latin1OfUtf8(kept.subarray(0, n));
}
