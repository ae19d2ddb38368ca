// JSON data for `template --data` and ARGOCD_APP_PARAMETERS, held as the Go values (src/go/reflect/value.ts)
// a Go program decoding with json.Decoder.UseNumber and converting each number would hold:
//   - an integer literal (no fraction, no exponent) within int64 → bigint (Go int), exact at any size;
//   - every other number (and integers outside int64) → number (float64);
//   - objects → plain objects (map[string]interface{}); a duplicate key keeps the last value, as in Go;
//     "__proto__" is an ordinary key and can never change a prototype;
//   - strings: escapes decoded, an unpaired surrogate escape becomes U+FFFD, as Go does.
// Errors give a line and column and what was expected, never the text itself (data may hold secrets).
import { JsonNumber, unmarshal } from '../go/encoding/json/decode.ts';
import { checkValid, type JsonSyntaxError } from '../go/encoding/json/scanner.ts';
import { countJsonValues, JsonValueLimitReached, LONG_KEY } from '../codec/jsonValueCount.ts';
import { MAX_YAML_NODES } from '../codec/nodeLimit.ts';

export class JsonDataError extends Error {
  override name = 'JsonDataError';
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
    what = 'invalid JSON data',
  ) {
    super(`${what} at line ${line}, column ${column}: ${message}`);
  }
}

/**
 * The values (keys included) data may hold: as many as the YAML nodes a run reads. Counted before it is
 * decoded: the decoder keeps a Go value for each (31 million numbers, 60 MB: 48 s and 3.25 GB).
 */
export const MAX_JSON_DATA_VALUES = MAX_YAML_NODES;

/** Line and column (1-based, in characters) of `offset` in `text`. */
function place(text: string, offset: number): [number, number] {
  const before = text.slice(0, offset);
  return [before.split('\n').length, before.length - before.lastIndexOf('\n')];
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function numberValue(n: JsonNumber): bigint | number {
  if (!/[.eE]/.test(n.literal)) {
    const i = BigInt(n.literal);
    if (i >= INT64_MIN && i <= INT64_MAX) return i;
  }
  return Number(n.literal);
}

/** Replaces each JsonNumber in place; iterative, as nesting may be 10000 deep. */
function convertNumbers(root: unknown): unknown {
  if (root instanceof JsonNumber) return numberValue(root);
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const v = pending.pop();
    if (v === null || typeof v !== 'object') continue;
    const record = v as Record<string, unknown>;
    for (const k of Object.keys(record)) {
      const x = record[k];
      if (x instanceof JsonNumber) Object.defineProperty(record, k, { value: numberValue(x) });
      else if (x !== null && typeof x === 'object') pending.push(x);
    }
  }
  return root;
}

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
const NUMBER_BYTES = new Set([...'0123456789.eE+-'].map((c) => c.charCodeAt(0)));

/** Where the string still open at the end of the input began. */
function openingQuote(b: Uint8Array): number {
  let open = -1;
  for (let i = 0; i < b.length; i++) {
    if (open < 0) {
      if (b[i] === 0x22) open = i;
    } else if (b[i] === 0x5c) i++;
    else if (b[i] === 0x22) open = -1;
  }
  return open;
}

/** What was wrong and the byte it is placed at, worded from the scanner's context, never quoting the text. */
function explain(e: JsonSyntaxError, b: Uint8Array): [string, number] {
  const at = e.at;
  const what = at >= b.length ? 'unexpected end of input' : 'unexpected character';
  // A number runs up to the longest valid literal; a number byte right after it makes it malformed.
  const malformedNumber = at < b.length && isDigit(b[at - 1]) && NUMBER_BYTES.has(b[at]!);
  switch (e.context) {
    case 'looking for beginning of value':
      return at >= b.length && b.every((c) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d)
        ? ['the document is empty', at]
        : [`${what}, expected a value`, at];
    case 'looking for beginning of object key string':
      return [`${what}, expected a string key`, at];
    case 'after object key':
      return [`${what}, expected ':' after object key`, at];
    case 'after object key:value pair':
      return malformedNumber ? ['malformed number', at] : [`${what}, expected ',' or '}' in object`, at];
    case 'after array element':
      return malformedNumber ? ['malformed number', at] : [`${what}, expected ',' or ']' in array`, at];
    case 'after top-level value':
      return malformedNumber ? ['malformed number', at] : [`${what} after the top-level value`, at];
    case 'in numeric literal':
    case 'after decimal point in numeric literal':
      return ['malformed number', at - 1];
    case 'in exponent of numeric literal':
      return ['malformed number', b[at - 1] === 0x2b || b[at - 1] === 0x2d ? at - 2 : at - 1];
    case 'in string literal':
      return at >= b.length
        ? ['unterminated string', openingQuote(b)]
        : [`control character U+${b[at]!.toString(16).padStart(4, '0').toUpperCase()} in string`, at];
    case 'in string escape code': {
      const escaped = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8', at, at + 4)[0] ?? '';
      return [`invalid escape ${JSON.stringify('\\' + escaped)} in string`, at - 1];
    }
    case 'in \\u hexadecimal character escape':
      return ['invalid \\u escape in string', b.lastIndexOf(0x5c, at - 1)];
    case 'exceeded max depth':
      return ['nesting deeper than 10000', at];
    default: // in literal true (expecting 'e'): placed where the literal starts
      return [
        'unexpected character, expected a value',
        b.lastIndexOf(e.context.charCodeAt('in literal '.length), at - 1),
      ];
  }
}

function dataError(b: Uint8Array): JsonDataError {
  let message: string;
  let at = 0;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) message = 'a byte order mark is not allowed';
  else {
    // The end scanned as one more byte that no state accepts (NUL): an unfinished document then stops in
    // the context it was in, as an offending character would.
    const ended = new Uint8Array(b.length + 1);
    ended.set(b);
    [message, at] = explain(checkValid(ended)!, b);
  }
  const before = Buffer.from(b.buffer, b.byteOffset, at).toString('utf8');
  return new JsonDataError(message, before.split('\n').length, before.length - before.lastIndexOf('\n'));
}

/**
 * Parses JSON text into Go-convention values; throws JsonDataError (with line and column) on invalid JSON and
 * on data past MAX_JSON_DATA_VALUES.
 */
export function parseJsonData(text: string): unknown {
  try {
    countJsonValues(text, MAX_JSON_DATA_VALUES);
  } catch (e) {
    if (!(e instanceof JsonValueLimitReached)) throw e;
    const [line, column] = place(text, e.offset);
    throw new JsonDataError(
      e.of === 'key'
        ? LONG_KEY
        : `more than ${MAX_JSON_DATA_VALUES} values (keys included), the limit on what one run reads`,
      line,
      column,
      'JSON data past its bound',
    );
  }
  const bytes = new Uint8Array(Buffer.from(text, 'utf8'));
  const r = unmarshal(bytes, 'any', { useNumber: true });
  if (r.error !== undefined) throw dataError(bytes);
  return convertNumbers(r.value);
}
