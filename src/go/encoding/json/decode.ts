// encoding/json.Unmarshal into interface{}, map[string]interface{} or []interface{}, with Go's results
// and error texts: the whole input is first checked by a scanner that has Go's states (so a syntax error
// reads "invalid character 'x' after object key", "unexpected end of JSON input", ...), then decoded:
// numbers become float64 (one out of float64 range is an error and decodes as nil), duplicate keys keep
// the last value, a lone surrogate escape becomes U+FFFD, and a top-level value of the wrong kind for a
// map or slice target is an UnmarshalTypeError that leaves the target empty.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).
import { goNilMap, goNilSlice, type GoMap } from '../../reflect/value.ts';
import { canonicalGoString, goBytes } from '../../reflect/byteString.ts';
import { goQuote } from '../../strconv/format.ts';

export type JsonTarget = 'any' | 'map' | 'slice';

export interface JsonDecoded {
  value: unknown;
  /** Go's error text, when Unmarshal returned an error. */
  error?: string;
}

/** The scanner's quoting of an offending byte: strconv.Quote of string(rune(c)), in single quotes. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  return "'" + goQuote(String.fromCharCode(c)).slice(1, -1) + "'";
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

const enum Parse {
  ObjectKey,
  ObjectValue,
  ArrayValue,
}

class SyntaxErr extends Error {}

/** Go's checkValid: returns the syntax error text, or undefined when the input is valid JSON. */
export function jsonSyntaxError(bytes: Uint8Array): string | undefined {
  const stack: Parse[] = [];
  let endTop = false;
  type Step = (c: number) => void;
  const fail = (c: number, context: string): never => {
    throw new SyntaxErr(`invalid character ${quoteChar(c)} ${context}`);
  };
  let step: Step;

  const endValue: Step = (c) => {
    const n = stack.length;
    if (n === 0) {
      endTop = true;
      step = endTopState;
      return endTopState(c);
    }
    if (isSpace(c)) {
      step = endValue;
      return;
    }
    switch (stack[n - 1]) {
      case Parse.ObjectKey:
        if (c === 0x3a) {
          stack[n - 1] = Parse.ObjectValue;
          step = beginValue;
          return;
        }
        return fail(c, 'after object key');
      case Parse.ObjectValue:
        if (c === 0x2c) {
          stack[n - 1] = Parse.ObjectKey;
          step = beginString;
          return;
        }
        if (c === 0x7d) return pop();
        return fail(c, 'after object key:value pair');
      default:
        if (c === 0x2c) {
          step = beginValue;
          return;
        }
        if (c === 0x5d) return pop();
        return fail(c, 'after array element');
    }
  };
  const pop = () => {
    stack.pop();
    if (stack.length === 0) endTop = true;
    step = stack.length === 0 ? endTopState : endValue;
  };
  const endTopState: Step = (c) => {
    if (!isSpace(c)) fail(c, 'after top-level value');
  };
  const beginValueOrEmpty: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x5d) return endValue(c);
    return beginValue(c);
  };
  const beginValue: Step = (c) => {
    if (isSpace(c)) return;
    switch (c) {
      case 0x7b: stack.push(Parse.ObjectKey); step = beginStringOrEmpty; return;
      case 0x5b: stack.push(Parse.ArrayValue); step = beginValueOrEmpty; return;
      case 0x22: step = inString; return;
      case 0x2d: step = neg; return;
      case 0x30: step = zero; return;
      case 0x74: step = literal('true', 1); return;
      case 0x66: step = literal('false', 1); return;
      case 0x6e: step = literal('null', 1); return;
    }
    if (c >= 0x31 && c <= 0x39) {
      step = one;
      return;
    }
    fail(c, 'looking for beginning of value');
  };
  const beginStringOrEmpty: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x7d) {
      stack[stack.length - 1] = Parse.ObjectValue;
      return endValue(c);
    }
    return beginString(c);
  };
  const beginString: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x22) {
      step = inString;
      return;
    }
    fail(c, 'looking for beginning of object key string');
  };
  const inString: Step = (c) => {
    if (c === 0x22) step = endValue;
    else if (c === 0x5c) step = inStringEsc;
    else if (c < 0x20) fail(c, 'in string literal');
  };
  const inStringEsc: Step = (c) => {
    if ([0x62, 0x66, 0x6e, 0x72, 0x74, 0x5c, 0x2f, 0x22].includes(c)) step = inString;
    else if (c === 0x75) step = escU(0);
    else fail(c, 'in string escape code');
  };
  const escU = (k: number): Step => (c) => {
    if (!isHex(c)) fail(c, 'in \\u hexadecimal character escape');
    step = k === 3 ? inString : escU(k + 1);
  };
  const neg: Step = (c) => {
    if (c === 0x30) step = zero;
    else if (c >= 0x31 && c <= 0x39) step = one;
    else fail(c, 'in numeric literal');
  };
  const one: Step = (c) => {
    if (isDigit(c)) return;
    zero(c);
  };
  const zero: Step = (c) => {
    if (c === 0x2e) step = dot;
    else if (c === 0x65 || c === 0x45) step = exp;
    else endValue(c);
  };
  const dot: Step = (c) => {
    if (isDigit(c)) step = dot0;
    else fail(c, 'after decimal point in numeric literal');
  };
  const dot0: Step = (c) => {
    if (isDigit(c)) return;
    if (c === 0x65 || c === 0x45) step = exp;
    else endValue(c);
  };
  const exp: Step = (c) => {
    if (c === 0x2b || c === 0x2d) step = expSign;
    else expSign(c);
  };
  const expSign: Step = (c) => {
    if (isDigit(c)) step = exp0;
    else fail(c, 'in exponent of numeric literal');
  };
  const exp0: Step = (c) => {
    if (!isDigit(c)) endValue(c);
  };
  const literal = (word: string, i: number): Step => (c) => {
    if (c !== word.charCodeAt(i)) fail(c, `in literal ${word} (expecting '${word[i]}')`);
    step = i + 1 === word.length ? endValue : literal(word, i + 1);
  };

  step = beginValue;
  try {
    for (const c of bytes) step(c);
    if (endTop) return undefined;
    step(0x20);
    if (endTop) return undefined;
    return 'unexpected end of JSON input';
  } catch (e) {
    if (e instanceof SyntaxErr) return e.message;
    throw e;
  }
}

/** Decodes text already known to be valid; number range errors are collected like Go's saveError. */
class Decoder {
  private i = 0;
  firstError: string | undefined;

  constructor(private readonly s: string) {}

  private ws(): void {
    while (this.i < this.s.length && ' \t\r\n'.includes(this.s[this.i]!)) this.i++;
  }

  value(): unknown {
    this.ws();
    const c = this.s[this.i]!;
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === 't') return (this.i += 4), true;
    if (c === 'f') return (this.i += 5), false;
    if (c === 'n') return (this.i += 4), null;
    return this.number();
  }

  private object(): GoMap {
    const m: GoMap = {};
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return m;
    }
    for (;;) {
      this.ws();
      const k = this.string();
      this.ws();
      this.i++; // ':'
      const v = this.value();
      Object.defineProperty(m, k, { value: v, enumerable: true, writable: true, configurable: true });
      this.ws();
      if (this.s[this.i++] === '}') return m;
    }
  }

  private array(): unknown[] {
    const a: unknown[] = [];
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return a;
    }
    for (;;) {
      a.push(this.value());
      this.ws();
      if (this.s[this.i++] === ']') return a;
    }
  }

  private string(): string {
    const start = this.i;
    this.i++;
    while (this.s[this.i] !== '"') this.i += this.s[this.i] === '\\' ? 2 : 1;
    this.i++;
    const raw = this.s.slice(start, this.i);
    // JSON.parse keeps lone surrogates from \u escapes; Go replaces them with U+FFFD.
    return (JSON.parse(raw) as string).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  }

  private number(): number | null {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.s.slice(this.i))!;
    this.i += m[0].length;
    const v = Number(m[0]);
    if (!Number.isFinite(v)) {
      this.firstError ??= `json: cannot unmarshal number ${m[0]} into Go value of type float64`;
      return null;
    }
    return v;
  }
}

const KIND_NAMES: Record<string, string> = { '{': 'object', '[': 'array', '"': 'string', t: 'bool', f: 'bool' };

/** json.Unmarshal(text, &target) for a fresh target of the given kind. */
export function goJsonDecode(text: string, target: JsonTarget): JsonDecoded {
  text = canonicalGoString(text);
  // A raw byte inside a string reads as U+FFFD (below), anywhere else it is a syntax error.
  const syntax = jsonSyntaxError(goBytes(text));
  const empty = () => (target === 'map' ? {} : target === 'slice' ? [] : null);
  if (syntax !== undefined) return { value: empty(), error: syntax };
  const first = text.trimStart()[0]!;
  if (target !== 'any' && first !== 'n') {
    const kind = KIND_NAMES[first] ?? 'number';
    const wanted = target === 'map' ? (first === '{' ? undefined : 'map[string]interface {}') : first === '[' ? undefined : '[]interface {}';
    if (wanted !== undefined) return { value: empty(), error: `json: cannot unmarshal ${kind} into Go value of type ${wanted}` };
  }
  const d = new Decoder(text);
  const value = d.value();
  // null into a map or slice makes it nil.
  const out = value === null && target !== 'any' ? (target === 'map' ? goNilMap() : goNilSlice()) : value;
  return d.firstError === undefined ? { value: out } : { value: out, error: d.firstError };
}
