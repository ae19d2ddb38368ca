// sprig's defaults.go: default, empty, coalesce, all, any, ternary, and the JSON functions (fromJson, toJson,
// toPrettyJson, toRawJson and their must* forms) over encoding/json (src/go/encoding/json/).
import { goFunc, GoCallError, meteredFunc, type FuncMap } from '../go/reflect/func.ts';
import { CONSTANT, readsAndBuilds, type CallCost } from '../go/reflect/callCost.ts';
import type { Meter } from '../go/internal/meter.ts';
import { GoPointer } from '../go/reflect/value.ts';
import { isEmptyByKind } from '../go/reflect/kind.ts';
import { goJsonMarshal, withoutHtmlEscapes } from '../go/encoding/json/encode.ts';
import { goJsonDecode } from '../go/encoding/json/decode.ts';

/** sprig's empty: zero values, empty collections, nil. */
export function empty(v: unknown): boolean {
  // A non-nil pointer is not empty, whatever it points to (reflect's IsNil).
  if (v instanceof GoPointer) return v.elem === null;
  return isEmptyByKind(v);
}

/** JSON text -> our values, as json.Unmarshal into interface{}; throws Go's error text. */
function mustFromJson(text: string): unknown {
  const r = goJsonDecode(text, 'any');
  if (r.error !== undefined) throw new GoCallError(r.error);
  return r.value;
}

function swallow(f: () => string): string {
  try {
    return f();
  } catch (e) {
    if (e instanceof GoCallError) return '';
    throw e;
  }
}

/**
 * Decoding JSON: the scanner's and decoder's work per byte, and what it makes per byte of input at most (a
 * `[{},{},...]` makes a map for every three bytes).
 */
export const DECODES_JSON: CallCost = (m, args) => {
  readsAndBuilds(64, 48)(m, args);
  m.spend(NESTING_UNITS * nestingOf(args[0]));
};

/** Work per level of a document's deepest nesting (the decoder's recursion: about a microsecond a level). */
const NESTING_UNITS = 2048;

/** How deep a JSON text's arrays and objects nest at most (brackets in strings counted too: a bound). */
function nestingOf(s: unknown): number {
  if (typeof s !== 'string') return 0;
  let depth = 0;
  let max = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return max;
}

export const defaultsFuncs: FuncMap = {
  default: goFunc(
    ['any'],
    CONSTANT,
    (d: unknown, ...given: unknown[]) => (given.length === 0 || empty(given[0]) ? d : given[0]),
    'any',
  ),
  empty: goFunc(['any'], CONSTANT, empty),
  coalesce: goFunc([], CONSTANT, (...v: unknown[]) => v.find((x) => !empty(x)) ?? null, 'any'),
  all: goFunc([], CONSTANT, (...v: unknown[]) => v.every((x) => !empty(x)), 'any'),
  any: goFunc([], CONSTANT, (...v: unknown[]) => v.some((x) => !empty(x)), 'any'),
  // sprig's fromJson swallows the error (and gives what was decoded: nil after a syntax error).
  fromJson: goFunc(['string'], DECODES_JSON, (s: string) => goJsonDecode(s, 'any').value),
  mustFromJson: goFunc(['string'], DECODES_JSON, mustFromJson),
  // json.Marshal, charged as it encodes; toJson and toPrettyJson swallow the error (""), toRawJson panics with it.
  toJson: meteredFunc(['any'], CONSTANT, (m: Meter, v: unknown) => swallow(() => goJsonMarshal(v, m))),
  mustToJson: meteredFunc(['any'], CONSTANT, (m: Meter, v: unknown) => goJsonMarshal(v, m)),
  toPrettyJson: meteredFunc(['any'], CONSTANT, (m: Meter, v: unknown) => swallow(() => goJsonMarshal(v, m, '  '))),
  mustToPrettyJson: meteredFunc(['any'], CONSTANT, (m: Meter, v: unknown) => goJsonMarshal(v, m, '  ')),
  toRawJson: meteredFunc(['any'], CONSTANT, (m: Meter, v: unknown) => rawJson(goJsonMarshal(v, m), m)),
  mustToRawJson: meteredFunc(['any'], CONSTANT, (m: Meter, v: unknown) => rawJson(goJsonMarshal(v, m), m)),
  ternary: goFunc(['any', 'any', 'bool'], CONSTANT, (a: unknown, b: unknown, c: boolean) => (c ? a : b)),
};

/** The JSON without HTML escapes, a copy (charged). */
function rawJson(json: string, m: Meter): string {
  m.build(json.length);
  return withoutHtmlEscapes(json);
}
