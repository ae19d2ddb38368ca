// Go string and rune literal decoding (strconv.Unquote / UnquoteChar) for template constants.

const SIMPLE: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

function decode(body: string, quote: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < body.length; ) {
    const c = body[i]!;
    if (c === quote || c === '\n') throw new Error('invalid syntax');
    if (c !== '\\') {
      const cp = body.codePointAt(i)!;
      out.push(String.fromCodePoint(cp));
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) throw new Error('invalid syntax');
    if (e in SIMPLE) {
      out.push(SIMPLE[e]!);
      i += 2;
    } else if (e === quote) {
      out.push(quote);
      i += 2;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 2, i + 2 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) throw new Error('invalid syntax');
      const v = parseInt(hex, 16);
      if (e === 'x') out.push(String.fromCharCode(v)); // a byte; kept as a Latin-1 code unit
      else {
        if (v > 0x10ffff || (v >= 0xd800 && v < 0xe000)) throw new Error('invalid syntax');
        out.push(String.fromCodePoint(v));
      }
      i += 2 + n;
    } else if (e >= '0' && e <= '7') {
      const oct = body.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) throw new Error('invalid syntax');
      out.push(String.fromCharCode(parseInt(oct, 8)));
      i += 4;
    } else throw new Error('invalid syntax');
  }
  return out;
}

/** strconv.Unquote for "..." literals. `\x` bytes >= 0x80 are mapped to U+0080..U+00FF (not UTF-8 decoded). */
export function unquoteGoString(lit: string): string {
  if (lit.length < 2 || lit[0] !== '"' || lit[lit.length - 1] !== '"') throw new Error('invalid syntax');
  return decode(lit.slice(1, -1), '"').join('');
}

/** A 'x' rune literal's code point. */
export function unquoteGoChar(lit: string): number {
  if (lit.length < 3 || lit[0] !== "'" || lit[lit.length - 1] !== "'") throw new Error('invalid syntax');
  const parts = decode(lit.slice(1, -1), "'");
  if (parts.length !== 1) throw new Error('invalid syntax');
  return parts[0]!.codePointAt(0)!;
}
