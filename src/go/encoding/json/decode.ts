// encoding/json decoding (decode.go): Unmarshal into interface{}, map[string]interface{} or []interface{},
// Decoder.UseNumber, and the view decoding into a struct walks. The whole input is first checked by the
// scanner (scanner.ts), then decoded: numbers become float64 (one out of float64 range is an error and
// decodes as nil) or, with useNumber, a JsonNumber holding the literal; duplicate keys keep the last value;
// strings decode as Go's unquote does (invalid UTF-8 and lone surrogate escapes become U+FFFD); a top-level
// value of the wrong kind for a map or slice target is an UnmarshalTypeError that leaves the target empty.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).
import { isUtf8 } from 'node:buffer';
import { goNilMap, goNilSlice, mapSet, type GoMap } from '../../reflect/value.ts';
import { goBytes } from '../../reflect/byteString.ts';
import { decodeRune } from '../../unicode/utf8.ts';
import { checkValid, type JsonSyntaxError } from './scanner.ts';

export { JsonSyntaxError } from './scanner.ts';

/** What Unmarshal decodes into: interface{}, map[string]interface{} or []interface{}. */
export type JsonTarget = 'any' | 'map' | 'slice';

export interface DecodeOptions {
  /** Decoder.UseNumber: a number decodes as a JsonNumber (its literal), never a float64 or a range error. */
  useNumber?: boolean;
  /**
   * Objects as JsonMembers: every member in order, duplicates included. This is what decoding into a struct
   * walks: Go applies each member in turn to the field whose name goFoldedName matches.
   */
  members?: boolean;
}

/** json.Number: a number's literal text, as Decoder.UseNumber gives it. */
export class JsonNumber {
  constructor(readonly literal: string) {}
}

/** An object's members in input order, duplicates included (see DecodeOptions.members). */
export class JsonMembers {
  constructor(readonly members: Array<[string, unknown]>) {}
}

export interface JsonDecoded {
  value: unknown;
  /** What Unmarshal returned: a *SyntaxError, or an UnmarshalTypeError's text. */
  error?: JsonSyntaxError | string;
}

/** \" \\ \/ \b \f \n \r \t */
const SIMPLE_ESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: '\\',
  0x2f: '/',
  0x62: '\b',
  0x66: '\f',
  0x6e: '\n',
  0x72: '\r',
  0x74: '\t',
};

function codePointsToString(cps: readonly number[]): string {
  let out = '';
  for (let i = 0; i < cps.length; i += 4096) out += String.fromCodePoint(...cps.slice(i, i + 4096));
  return out;
}

type Container =
  { array: unknown[] } | { object: GoMap; key: string } | { members: Array<[string, unknown]>; key: string };

/** Decodes input the scanner found valid; number range errors are kept like Go's saveError. */
class Decoder {
  private i = 0;
  firstError: string | undefined;
  private readonly buf: Buffer;

  constructor(
    private readonly b: Uint8Array,
    private readonly options: DecodeOptions,
  ) {
    this.buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  }

  private ws(): void {
    const b = this.b;
    while (this.i < b.length && (b[this.i] === 0x20 || b[this.i] === 0x09 || b[this.i] === 0x0a || b[this.i] === 0x0d))
      this.i++;
  }

  /** Iterative, so that nesting (bounded by the scanner) never meets the JS call stack's limit. */
  value(): unknown {
    const b = this.b;
    const open: Container[] = [];
    for (;;) {
      this.ws();
      const c = b[this.i]!;
      let done: unknown;
      if (c === 0x7b || c === 0x5b) {
        this.i++;
        this.ws();
        if (c === 0x5b) {
          if (b[this.i] !== 0x5d) {
            open.push({ array: [] });
            continue;
          }
          done = [];
        } else {
          if (b[this.i] !== 0x7d) {
            open.push(this.options.members ? { members: [], key: this.key() } : { object: {}, key: this.key() });
            continue;
          }
          done = this.options.members ? new JsonMembers([]) : {};
        }
        this.i++;
      } else {
        done = this.scalar(c);
      }
      // Attach the finished value to its container, closing every container that ends here.
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) return done;
        if ('array' in top) top.array.push(done);
        else if ('object' in top) mapSet(top.object, top.key, done);
        else top.members.push([top.key, done]);
        this.ws();
        if (b[this.i++] === 0x2c) {
          if (!('array' in top)) top.key = this.key();
          break;
        }
        open.pop();
        done = 'array' in top ? top.array : 'object' in top ? top.object : new JsonMembers(top.members);
      }
    }
  }

  /** `"key":`, leaving the decoder at the member's value. */
  private key(): string {
    this.ws();
    const k = this.string();
    this.ws();
    this.i++;
    return k;
  }

  private scalar(c: number): unknown {
    switch (c) {
      case 0x22:
        return this.string();
      case 0x74:
        this.i += 4;
        return true;
      case 0x66:
        this.i += 5;
        return false;
      case 0x6e:
        this.i += 4;
        return null;
      default:
        return this.number();
    }
  }

  private number(): unknown {
    const b = this.b;
    const start = this.i;
    while (
      this.i < b.length &&
      ((b[this.i]! >= 0x30 && b[this.i]! <= 0x39) ||
        b[this.i] === 0x2d ||
        b[this.i] === 0x2b ||
        b[this.i] === 0x2e ||
        b[this.i] === 0x65 ||
        b[this.i] === 0x45)
    )
      this.i++;
    const literal = this.buf.toString('latin1', start, this.i);
    if (this.options.useNumber) return new JsonNumber(literal);
    const v = Number(literal);
    if (Number.isFinite(v)) return v;
    this.firstError ??= `json: cannot unmarshal number ${literal} into Go value of type float64`;
    return null;
  }

  private string(): string {
    const b = this.b;
    const start = ++this.i;
    let ascii = true;
    for (; b[this.i] !== 0x22 && b[this.i] !== 0x5c; this.i++) if (b[this.i]! >= 0x80) ascii = false;
    if (b[this.i] === 0x22 && (ascii || isUtf8(b.subarray(start, this.i))))
      return this.buf.toString(ascii ? 'latin1' : 'utf8', start, this.i++);
    this.i = start;
    return this.unquote();
  }

  /** Go's unquote: escapes decoded, each invalid UTF-8 byte and each unpaired surrogate escape U+FFFD. */
  private unquote(): string {
    const b = this.b;
    const cps: number[] = [];
    for (;;) {
      const c = b[this.i]!;
      if (c === 0x22) {
        this.i++;
        return codePointsToString(cps);
      }
      if (c !== 0x5c) {
        const [cp, size] = decodeRune(b, this.i);
        cps.push(cp);
        this.i += size;
        continue;
      }
      const e = b[this.i + 1]!;
      if (e !== 0x75) {
        cps.push(SIMPLE_ESCAPES[e]!.charCodeAt(0));
        this.i += 2;
        continue;
      }
      const u = this.hex4(this.i + 2);
      this.i += 6;
      if (u >= 0xd800 && u < 0xe000) {
        // A high surrogate followed by an escaped low one is a pair; anything else is U+FFFD.
        const low = b[this.i] === 0x5c && b[this.i + 1] === 0x75 ? this.hex4(this.i + 2) : -1;
        if (u < 0xdc00 && low >= 0xdc00 && low < 0xe000) {
          cps.push(0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00));
          this.i += 6;
        } else {
          cps.push(0xfffd);
        }
        continue;
      }
      cps.push(u);
    }
  }

  /** The \u escape's four hex digits at `at`, or -1 when there are none. */
  private hex4(at: number): number {
    const s = this.buf.toString('latin1', at, Math.min(at + 4, this.b.length));
    return /^[0-9a-fA-F]{4}$/.test(s) ? parseInt(s, 16) : -1;
  }
}

const KIND_NAMES: Record<number, string> = {
  0x7b: 'object',
  0x5b: 'array',
  0x22: 'string',
  0x74: 'bool',
  0x66: 'bool',
};

/** json.Unmarshal(data, &target) for a fresh target of the given kind, or a json.Decoder's Decode with options. */
export function unmarshal(data: Uint8Array, target: JsonTarget = 'any', options: DecodeOptions = {}): JsonDecoded {
  const syntax = checkValid(data);
  const empty = () => (target === 'map' ? {} : target === 'slice' ? [] : null);
  if (syntax !== undefined) return { value: empty(), error: syntax };
  let at = 0;
  while (data[at] === 0x20 || data[at] === 0x09 || data[at] === 0x0a || data[at] === 0x0d) at++;
  const first = data[at]!;
  if (target !== 'any' && first !== 0x6e) {
    const kind = KIND_NAMES[first] ?? 'number';
    const wanted =
      target === 'map'
        ? first === 0x7b
          ? undefined
          : 'map[string]interface {}'
        : first === 0x5b
          ? undefined
          : '[]interface {}';
    if (wanted !== undefined)
      return { value: empty(), error: `json: cannot unmarshal ${kind} into Go value of type ${wanted}` };
  }
  const d = new Decoder(data, options);
  const value = d.value();
  // null into a map or slice makes it nil.
  const out = value === null && target !== 'any' ? (target === 'map' ? goNilMap() : goNilSlice()) : value;
  return d.firstError === undefined ? { value: out } : { value: out, error: d.firstError };
}

/** json.Unmarshal of a Go string (sprig's fromJson and friends), with Go's error text. */
export function goJsonDecode(text: string, target: JsonTarget): { value: unknown; error?: string } {
  const r = unmarshal(goBytes(text), target);
  return r.error === undefined
    ? { value: r.value }
    : { value: r.value, error: typeof r.error === 'string' ? r.error : r.error.message };
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
