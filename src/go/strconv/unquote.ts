// Go's strconv.UnquoteChar / Unquote for template string, raw string and character constants.
// A `\xNN` or octal escape is a byte in Go, so "\xe6\x97\xa5" is "日" and "\xff" a raw byte (src/go/reflect/byteString.ts).
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).
import { canonicalGoString, hasRawBytes } from '../reflect/byteString.ts';

export class GoSyntaxError extends Error {
  constructor() {
    super('invalid syntax');
    this.name = 'GoSyntaxError';
  }
}

const SIMPLE: Readonly<Record<string, number>> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 0x5c };

function hexValue(s: string): number | undefined {
  return /^[0-9a-fA-F]+$/.test(s) ? parseInt(s, 16) : undefined;
}

/**
 * strconv.UnquoteChar on s from index i: the code point and the index after it; `byte` when it is a
 * \x or octal escape, which stands for one byte rather than a character.
 */
export function unquoteChar(s: string, i: number, quote: string): { value: number; next: number; byte?: boolean } {
  if (i >= s.length) throw new GoSyntaxError();
  const c = s[i]!;
  if (c === quote && (quote === "'" || quote === '"')) throw new GoSyntaxError();
  if (c !== '\\') {
    const cp = s.codePointAt(i)!;
    // A raw byte decodes as utf8.RuneError.
    return { value: cp >= 0xdc80 && cp <= 0xdcff ? 0xfffd : cp, next: i + (cp > 0xffff ? 2 : 1) };
  }
  if (i + 1 >= s.length) throw new GoSyntaxError();
  const e = s[i + 1]!;
  let p = i + 2;
  const simple = SIMPLE[e];
  if (simple !== undefined) return { value: simple, next: p };
  switch (e) {
    case 'x':
    case 'u':
    case 'U': {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const v = hexValue(s.slice(p, p + n));
      if (v === undefined || s.slice(p, p + n).length < n) throw new GoSyntaxError();
      if (e !== 'x' && (v > 0x10ffff || (v >= 0xd800 && v < 0xe000))) throw new GoSyntaxError();
      return e === 'x' ? { value: v, next: p + n, byte: true } : { value: v, next: p + n };
    }
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7': {
      const oct = s.slice(p - 1, p + 2);
      if (!/^[0-7]{3}$/.test(oct)) throw new GoSyntaxError();
      const v = parseInt(oct, 8);
      if (v > 255) throw new GoSyntaxError();
      p += 2;
      return { value: v, next: p, byte: true };
    }
    case "'":
    case '"':
      if (e !== quote) throw new GoSyntaxError();
      return { value: e.charCodeAt(0), next: p };
    default:
      throw new GoSyntaxError();
  }
}

/** strconv.Unquote for "..." and `...` literals. */
export function unquoteGoString(lit: string): string {
  if (lit.length < 2) throw new GoSyntaxError();
  const q = lit[0]!;
  if (q === '`') {
    if (lit[lit.length - 1] !== '`' || lit.indexOf('`', 1) !== lit.length - 1) throw new GoSyntaxError();
    return lit.slice(1, -1).replace(/\r/g, '');
  }
  if (q !== '"') throw new GoSyntaxError();
  const body = lit.slice(1, -1);
  if (lit[lit.length - 1] === '"' && !/["\\\n]/.test(body) && !hasRawBytes(body)) return body;
  // Joined once: a string grown a character at a time is a rope of one node per character (about 30 bytes
  // each), and a parse tree keeps it.
  const parts: string[] = [];
  let bytes = false;
  let i = 1;
  while (i < lit.length && lit[i] !== q) {
    if (lit[i] === '\n') throw new GoSyntaxError();
    const r = unquoteChar(lit, i, q);
    if (r.byte === true && r.value >= 0x80) {
      parts.push(String.fromCharCode(0xdc00 + r.value));
      bytes = true;
    } else parts.push(String.fromCodePoint(r.value));
    i = r.next;
  }
  if (i !== lit.length - 1) throw new GoSyntaxError();
  const out = parts.join('');
  // Escaped bytes may spell characters.
  return bytes ? canonicalGoString(out) : out;
}

/**
 * A 'x' character constant, as text/template reads it: UnquoteChar after the opening quote, then exactly
 * the closing quote must remain (otherwise "malformed character constant").
 */
export function unquoteGoChar(lit: string): { value: number } | { malformed: true } {
  const r = unquoteChar(lit, 1, "'");
  if (lit.slice(r.next) !== "'") return { malformed: true };
  return { value: r.value };
}
