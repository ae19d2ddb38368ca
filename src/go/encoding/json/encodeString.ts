// Go encoding/json string escaping (Go >= 1.22, as OSM is built): HTML-safe (<, >, & as \u003c...),
// U+2028/U+2029 escaped, \b and \f short forms, other control characters as lowercase \u00xx,
// and invalid UTF-16 (lone surrogates, which Go would see as invalid UTF-8) as \ufffd.

import { TextBuilder } from '../../internal/textBuilder.ts';

const HEX = '0123456789abcdef';

// Most strings (paths, data URLs) need no escape: checked with one regular expression, far faster than the loop.
const NEEDS_ESCAPE = /[\x00-\x1f"\\<>&\u2028\u2029\ud800-\udfff]/;

export function goJsonString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  const out = new TextBuilder();
  out.unit(0x22);
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) {
      switch (c) {
        case 0x22:
          rep = '\\"';
          break;
        case 0x5c:
          rep = '\\\\';
          break;
        case 0x0a:
          rep = '\\n';
          break;
        case 0x0d:
          rep = '\\r';
          break;
        case 0x09:
          rep = '\\t';
          break;
        case 0x08:
          rep = '\\b';
          break;
        case 0x0c:
          rep = '\\f';
          break;
        default:
          rep = '\\u00' + HEX[c >> 4] + HEX[c & 0xf];
      }
    } else if (c === 0x2028 || c === 0x2029) {
      rep = c === 0x2028 ? '\\u2028' : '\\u2029';
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      rep = '\\ufffd';
    }
    if (rep !== undefined) {
      if (i > start) out.append(s.slice(start, i));
      out.append(rep);
      start = i + 1;
    }
  }
  if (s.length > start) out.append(s.slice(start));
  out.unit(0x22);
  return out.toString();
}

/** json.Marshal of a map[string]string: keys sorted by byte order, compact. */
export function goJsonStringMap(m: Readonly<Record<string, string>>): string {
  const keys = Object.keys(m).sort(compareUtf8);
  return '{' + keys.map((k) => goJsonString(k) + ':' + goJsonString(m[k]!)).join(',') + '}';
}

/** Go sorts strings by UTF-8 bytes; JS compares UTF-16 code units. They differ only around surrogates. */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return Buffer.compare(ba, bb);
}
