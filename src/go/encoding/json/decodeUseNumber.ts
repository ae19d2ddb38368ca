// Decodes JSON template data into the JS representation of Go values (see src/go/reflect/value.ts), the way a Go
// program decoding with json.Decoder.UseNumber and converting numbers would see it:
//   - an integer literal (no fraction, no exponent) within int64 → bigint (Go int), exact at any size;
//   - every other number (and integers outside int64) → number (float64);
//   - objects → plain objects (map[string]interface{}); a duplicate key keeps the last value, as in Go;
//   - strings: escapes decoded, an unpaired surrogate escape becomes U+FFFD, as Go does.
// Keys are defined as own properties, so "__proto__" is an ordinary key and can never change a prototype.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).

export class JsonDataError extends Error {
  override name = 'JsonDataError';
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`invalid JSON data at line ${line}, column ${column}: ${message}`);
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Go's encoding/json refuses documents nested deeper than this. */
const MAX_DEPTH = 10000;

class Parser {
  private pos = 0;
  constructor(private readonly text: string) {}

  fail(message: string, at = this.pos): never {
    const before = this.text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    throw new JsonDataError(message, line, column);
  }

  // Never the character itself: a token written without quotes starts right there.
  private describe(at: number): string {
    return at >= this.text.length ? 'unexpected end of input' : 'unexpected character';
  }

  skipSpace(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.pos++;
      else return;
    }
  }

  document(): unknown {
    if (this.text.charCodeAt(0) === 0xfeff) this.fail('a byte order mark is not allowed', 0);
    this.skipSpace();
    if (this.pos >= this.text.length) this.fail('the document is empty');
    const v = this.value();
    this.skipSpace();
    if (this.pos < this.text.length) this.fail(`${this.describe(this.pos)} after the top-level value`);
    return v;
  }

  /** Parses one value. Containers use an explicit stack, so deep nesting cannot overflow the JS stack. */
  value(): unknown {
    const stack: Array<{ arr: unknown[] } | { obj: Record<string, unknown>; key: string }> = [];
    for (;;) {
      this.skipSpace();
      let v: unknown;
      const c = this.text[this.pos];
      if (c === '{' || c === '[') {
        if (stack.length >= MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH}`);
        this.pos++;
        this.skipSpace();
        if (c === '[') {
          if (this.text[this.pos] !== ']') {
            stack.push({ arr: [] });
            continue;
          }
          this.pos++;
          v = [];
        } else {
          if (this.text[this.pos] !== '}') {
            stack.push({ obj: {}, key: this.key() });
            continue;
          }
          this.pos++;
          v = {};
        }
      } else {
        v = this.scalar();
      }
      // Attach the finished value to its parents, closing every container that ends here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return v;
        if ('arr' in top) top.arr.push(v);
        else Object.defineProperty(top.obj, top.key, { value: v, enumerable: true, writable: true, configurable: true });
        this.skipSpace();
        const d = this.text[this.pos];
        const close = 'arr' in top ? ']' : '}';
        if (d === ',') {
          this.pos++;
          if (!('arr' in top)) top.key = this.key();
          break;
        }
        if (d !== close) this.fail(`${this.describe(this.pos)}, expected ',' or '${close}' in ${'arr' in top ? 'array' : 'object'}`);
        this.pos++;
        stack.pop();
        v = 'arr' in top ? top.arr : top.obj;
      }
    }
  }

  /** An object key and its colon. */
  private key(): string {
    this.skipSpace();
    if (this.text[this.pos] !== '"') this.fail(`${this.describe(this.pos)}, expected a string key`);
    const key = this.string();
    this.skipSpace();
    if (this.text[this.pos] !== ':') this.fail(`${this.describe(this.pos)}, expected ':' after object key`);
    this.pos++;
    return key;
  }

  private scalar(): unknown {
    const c = this.text[this.pos];
    switch (c) {
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      default:
        if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
        return this.fail(`${this.describe(this.pos)}, expected a value`);
    }
  }

  literal(word: string, v: unknown): unknown {
    if (!this.text.startsWith(word, this.pos)) this.fail(`${this.describe(this.pos)}, expected a value`);
    this.pos += word.length;
    return v;
  }

  number(): bigint | number {
    const re = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (m === null) this.fail(`malformed number`);
    const lit = m[0];
    // "01" or "1." would leave a digit or dot right after the match.
    const next = this.text[this.pos + lit.length];
    if (next !== undefined && /[0-9.eE+-]/.test(next)) this.fail('malformed number', this.pos + lit.length);
    this.pos += lit.length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = BigInt(lit);
      if (n >= INT64_MIN && n <= INT64_MAX) return n;
    }
    return Number(lit);
  }

  string(): string {
    const start = this.pos;
    this.pos++; // opening quote
    let out = '';
    let chunk = this.pos;
    for (;;) {
      if (this.pos >= this.text.length) this.fail('unterminated string', start);
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x22) {
        out += this.text.slice(chunk, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.fail(`control character U+${c.toString(16).padStart(4, '0').toUpperCase()} in string`);
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += this.text.slice(chunk, this.pos);
      const e = this.text[this.pos + 1];
      this.pos += 2;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': out += this.unicodeEscape(); break;
        default:
          this.fail(`invalid escape ${JSON.stringify('\\' + (e ?? ''))} in string`, this.pos - 2);
      }
      chunk = this.pos;
    }
  }

  private hex4(at: number): number | null {
    const h = this.text.slice(at, at + 4);
    return /^[0-9a-fA-F]{4}$/.test(h) ? parseInt(h, 16) : null;
  }

  /** Called after "\u"; returns the decoded text, pairing surrogates as Go does. */
  private unicodeEscape(): string {
    const u = this.hex4(this.pos);
    if (u === null) this.fail('invalid \\u escape in string', this.pos - 2);
    this.pos += 4;
    if (u >= 0xd800 && u <= 0xdbff && this.text.startsWith('\\u', this.pos)) {
      const low = this.hex4(this.pos + 2);
      if (low !== null && low >= 0xdc00 && low <= 0xdfff) {
        this.pos += 6;
        return String.fromCharCode(u, low);
      }
    }
    if (u >= 0xd800 && u <= 0xdfff) return '\ufffd';
    return String.fromCharCode(u);
  }
}

/** Parses JSON text into Go-convention values; throws JsonDataError (with line and column) on invalid JSON. */
export function parseGoJson(text: string): unknown {
  return new Parser(text).document();
}
