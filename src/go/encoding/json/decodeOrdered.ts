// JSON read the way Go's encoding/json sees it, for decoding registry credentials like OSM's json.Unmarshal:
// objects keep every member in order (duplicates included, since Go applies each one in turn), invalid
// UTF-8 and lone surrogate escapes become U+FFFD, and errors give a byte offset, never the text itself.
// Follows Go 1.26 (OSM's go.mod).
import { decodeRune } from '../../unicode/utf8.ts';

export type GoJsonValue =
  | { kind: 'object'; members: Array<[string, GoJsonValue]> }
  | { kind: 'array'; items: GoJsonValue[] }
  | { kind: 'string'; value: string }
  | { kind: 'number' }
  | { kind: 'bool' }
  | { kind: 'null' };

export class GoJsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
  ) {
    super(`${reason} at byte ${offset}`);
    this.name = 'GoJsonSyntaxError';
  }
}

const MAX_DEPTH = 10000; // Go's decoder limit
/** \" \\ \/ \b \f \n \r \t */
const SIMPLE_ESCAPES: Record<number, number> = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09 };

function codePointsToString(cps: readonly number[]): string {
  let out = '';
  for (let i = 0; i < cps.length; i += 4096) out += String.fromCodePoint(...cps.slice(i, i + 4096));
  return out;
}

class Reader {
  private pos = 0;
  constructor(private readonly b: Uint8Array) {}

  fail(reason: string): never {
    throw new GoJsonSyntaxError(this.pos >= this.b.length ? 'unexpected end of JSON input' : reason, this.pos);
  }

  skipSpace(): void {
    while (this.pos < this.b.length && [0x20, 0x09, 0x0a, 0x0d].includes(this.b[this.pos]!)) this.pos++;
  }

  document(): GoJsonValue {
    const v = this.value();
    this.skipSpace();
    if (this.pos < this.b.length) this.fail('invalid character after top-level value');
    return v;
  }

  private expect(literal: string): void {
    for (let k = 0; k < literal.length; k++) {
      if (this.b[this.pos] !== literal.charCodeAt(k)) this.fail(this.pos >= this.b.length ? 'unexpected end of JSON input' : 'invalid character in literal');
      this.pos++;
    }
  }

  /** `"key":` of an object member, leaving the reader at its value. */
  private memberKey(): string {
    this.skipSpace();
    if (this.b[this.pos] !== 0x22) this.fail('invalid character looking for beginning of object key string');
    const key = this.string();
    this.skipSpace();
    if (this.b[this.pos] !== 0x3a) this.fail('invalid character after object key');
    this.pos++;
    return key;
  }

  /** Iterative, so that nesting is bounded by Go's limit and not by the JS call stack. */
  private value(): GoJsonValue {
    const open: Array<{ node: Extract<GoJsonValue, { kind: 'object' | 'array' }>; key: string }> = [];
    for (;;) {
      // Read the start of a value; containers with content are pushed and their first value read next.
      this.skipSpace();
      const c = this.b[this.pos];
      let done: GoJsonValue;
      if (c === 0x7b || c === 0x5b) {
        if (open.length + 1 > MAX_DEPTH) this.fail('exceeded max depth');
        this.pos++;
        this.skipSpace();
        const node: Extract<GoJsonValue, { kind: 'object' | 'array' }> = c === 0x7b ? { kind: 'object', members: [] } : { kind: 'array', items: [] };
        if (this.b[this.pos] === (c === 0x7b ? 0x7d : 0x5d)) {
          this.pos++;
          done = node;
        } else {
          open.push({ node, key: c === 0x7b ? this.memberKey() : '' });
          continue;
        }
      } else {
        done = this.scalar(c);
      }
      // Attach the finished value to its container, closing containers that end here.
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) return done;
        if (top.node.kind === 'object') top.node.members.push([top.key, done]);
        else top.node.items.push(done);
        this.skipSpace();
        const next = this.b[this.pos++];
        if (next === 0x2c) {
          if (top.node.kind === 'object') top.key = this.memberKey();
          break;
        }
        if (next !== (top.node.kind === 'object' ? 0x7d : 0x5d)) {
          this.pos--;
          this.fail(top.node.kind === 'object' ? 'invalid character after object key:value pair' : 'invalid character after array element');
        }
        open.pop();
        done = top.node;
      }
    }
  }

  private scalar(c: number | undefined): GoJsonValue {
    switch (c) {
      case undefined:
        return this.fail('unexpected end of JSON input');
      case 0x22:
        return { kind: 'string', value: this.string() };
      case 0x74:
        this.expect('true');
        return { kind: 'bool' };
      case 0x66:
        this.expect('false');
        return { kind: 'bool' };
      case 0x6e:
        this.expect('null');
        return { kind: 'null' };
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
        return this.fail('invalid character looking for beginning of value');
    }
  }

  private digits(): number {
    const start = this.pos;
    while (this.pos < this.b.length && this.b[this.pos]! >= 0x30 && this.b[this.pos]! <= 0x39) this.pos++;
    return this.pos - start;
  }

  /** -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? ; what may follow is checked by the caller. */
  private number(): GoJsonValue {
    if (this.b[this.pos] === 0x2d) this.pos++;
    if (this.b[this.pos] === 0x30) this.pos++;
    else if (this.digits() === 0) this.fail('invalid character in numeric literal');
    if (this.b[this.pos] === 0x2e) {
      this.pos++;
      if (this.digits() === 0) this.fail('invalid character after decimal point in numeric literal');
    }
    if (this.b[this.pos] === 0x65 || this.b[this.pos] === 0x45) {
      this.pos++;
      if (this.b[this.pos] === 0x2b || this.b[this.pos] === 0x2d) this.pos++;
      if (this.digits() === 0) this.fail('invalid character in exponent of numeric literal');
    }
    return { kind: 'number' };
  }

  private hex4(at: number): number {
    if (at + 4 > this.b.length) return -1;
    const s = Buffer.from(this.b.subarray(at, at + 4)).toString('latin1');
    return /^[0-9a-fA-F]{4}$/.test(s) ? parseInt(s, 16) : -1;
  }

  private string(): string {
    this.pos++; // opening quote
    const cps: number[] = [];
    for (;;) {
      if (this.pos >= this.b.length) this.fail('unexpected end of JSON input');
      const c = this.b[this.pos]!;
      if (c === 0x22) {
        this.pos++;
        return codePointsToString(cps);
      }
      if (c < 0x20) this.fail('invalid character in string literal');
      if (c !== 0x5c) {
        const [cp, size] = decodeRune(this.b, this.pos);
        cps.push(cp);
        this.pos += size;
        continue;
      }
      const e = this.b[this.pos + 1];
      if (e !== undefined && SIMPLE_ESCAPES[e] !== undefined) {
        cps.push(SIMPLE_ESCAPES[e]!);
        this.pos += 2;
        continue;
      }
      if (e !== 0x75) this.fail('invalid character in string escape code');
      const u = this.hex4(this.pos + 2);
      if (u < 0) this.fail('invalid character in \\u hexadecimal character escape');
      this.pos += 6;
      if (u >= 0xd800 && u < 0xe000) {
        // A high surrogate followed by an escaped low one is a pair; anything else is U+FFFD.
        const low = this.b[this.pos] === 0x5c && this.b[this.pos + 1] === 0x75 ? this.hex4(this.pos + 2) : -1;
        if (u < 0xdc00 && low >= 0xdc00 && low < 0xe000) {
          cps.push(0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00));
          this.pos += 6;
        } else {
          cps.push(0xfffd);
        }
        continue;
      }
      cps.push(u);
    }
  }
}

/** Parses UTF-8 bytes; throws GoJsonSyntaxError. */
export function parseGoJson(bytes: Uint8Array): GoJsonValue {
  return new Reader(bytes).document();
}

/**
 * The key a JSON member name matches a Go struct field by: Go compares names case-insensitively, folding a
 * few non-ASCII letters onto ASCII ones (K Kelvin sign, ſ long s, İ and ı).
 */
export function goFoldedName(name: string): string {
  const special: Record<string, string> = { '\u212a': 'K', '\u017f': 'S', '\u0130': 'I', '\u0131': 'I' };
  let out = '';
  for (const ch of name) out += ch.length === 1 && ch < '\x80' ? ch.toUpperCase() : (special[ch] ?? ch);
  return out;
}
