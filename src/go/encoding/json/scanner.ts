// encoding/json's scanner (scanner.go): the state machine that checks a whole input is one JSON value before
// anything is decoded, with Go's states, its nesting limit (10000) and its errors: a *SyntaxError whose text
// quotes the offending byte ("invalid character 'x' after object key") and whose Offset counts the bytes read.
// At the end of the input Go steps one more space through the state the input stopped in, so an unfinished
// literal reads "invalid character ' ' in literal true (expecting 'e')" and anything else unfinished
// "unexpected end of JSON input".
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).
import { goQuote } from '../../strconv/format.ts';

/** Go's *SyntaxError, and for callers that word their own messages, what the scanner was reading and where. */
export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
  constructor(
    message: string,
    /** Go's Offset: bytes read before the error, the offending one included (the input's length at its end). */
    readonly offset: number,
    /** Go's words for where the offending byte stood ("after object key", "in string literal"), '' for an unexpected end. */
    readonly context: string,
    /** Index of the offending byte; the input's length when the error was found at its end. */
    readonly at: number,
  ) {
    super(message);
  }
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

/** Go's maxNestingDepth. */
const MAX_NESTING_DEPTH = 10000;

class Stop {
  constructor(
    readonly c: number,
    readonly context: string,
  ) {}
}

/** Go's checkValid: the syntax error, or undefined when the input is exactly one JSON value. */
export function checkValid(data: Uint8Array): JsonSyntaxError | undefined {
  const stack: Parse[] = [];
  let endTop = false;
  type Step = (c: number) => void;
  const fail = (c: number, context: string): never => {
    throw new Stop(c, context);
  };
  let step: Step;

  const push = (c: number, state: Parse, next: Step) => {
    stack.push(state);
    if (stack.length > MAX_NESTING_DEPTH) fail(c, 'exceeded max depth');
    step = next;
  };
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
      case 0x7b:
        return push(c, Parse.ObjectKey, beginStringOrEmpty);
      case 0x5b:
        return push(c, Parse.ArrayValue, beginValueOrEmpty);
      case 0x22:
        step = inString;
        return;
      case 0x2d:
        step = neg;
        return;
      case 0x30:
        step = zero;
        return;
      case 0x74:
        step = literal('true', 1);
        return;
      case 0x66:
        step = literal('false', 1);
        return;
      case 0x6e:
        step = literal('null', 1);
        return;
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
  const escU =
    (k: number): Step =>
    (c) => {
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
  const literal =
    (word: string, i: number): Step =>
    (c) => {
      if (c !== word.charCodeAt(i)) fail(c, `in literal ${word} (expecting '${word[i]}')`);
      step = i + 1 === word.length ? endValue : literal(word, i + 1);
    };

  step = beginValue;
  let i = 0;
  try {
    for (; i < data.length; i++) step(data[i]!);
    if (endTop) return undefined;
    step(0x20);
    if (endTop) return undefined;
    return new JsonSyntaxError('unexpected end of JSON input', data.length, '', data.length);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    const offset = i < data.length ? i + 1 : data.length;
    return new JsonSyntaxError(`invalid character ${quoteChar(e.c)} ${e.context}`, offset, e.context, i);
  }
}
