// Go string semantics that OSM's containerd code relies on and JavaScript does not share: Unicode
// White_Space trimming, byte-order comparison and strconv.ParseBool. Go strings are bytes, so the URL and
// JSON code works on "byte strings" (one char per byte, 0-255) converted at its edges.
// Follows Go 1.26 (OSM's go.mod).

const GO_SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]);

/** unicode.IsSpace: unlike String.prototype.trim, NEL (U+0085) is a space and BOM (U+FEFF) is not. */
export function isGoSpace(cp: number): boolean {
  return GO_SPACE.has(cp) || (cp >= 0x2000 && cp <= 0x200a);
}

/** strings.TrimSpace */
export function goTrimSpace(s: string): string {
  const cps = [...s];
  let start = 0;
  let end = cps.length;
  while (start < end && isGoSpace(cps[start]!.codePointAt(0)!)) start++;
  while (end > start && isGoSpace(cps[end - 1]!.codePointAt(0)!)) end--;
  return cps.slice(start, end).join('');
}

/** Go compares strings by their UTF-8 bytes (sort.Strings); JS compares UTF-16 code units. */
export function compareGoStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const PARSE_BOOL_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** strconv.ParseBool with the error dropped, as OSM does: anything but a true spelling is false. */
export function goParseBoolOrFalse(s: string): boolean {
  return PARSE_BOOL_TRUE.has(s);
}

/** A JS string as its UTF-8 bytes, one char per byte. */
export function toByteString(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1');
}

/** Inverse of toByteString; invalid UTF-8 (which Go would keep as raw bytes) becomes U+FFFD. */
export function fromByteString(b: string): string {
  return Buffer.from(b, 'latin1').toString('utf8');
}
