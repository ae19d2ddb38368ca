// sprig's defaults.go: default, empty, coalesce, all, any, ternary, and the JSON functions (fromJson, toJson,
// toPrettyJson, toRawJson and their must* forms) over encoding/json (src/go/encoding/json/).
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
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

export const defaultsFuncs: FuncMap = {
  default: goFunc(['any'], (d: unknown, ...given: unknown[]) => (given.length === 0 || empty(given[0]) ? d : given[0]), 'any'),
  empty: goFunc(['any'], empty),
  coalesce: goFunc([], (...v: unknown[]) => v.find((x) => !empty(x)) ?? null, 'any'),
  all: goFunc([], (...v: unknown[]) => v.every((x) => !empty(x)), 'any'),
  any: goFunc([], (...v: unknown[]) => v.some((x) => !empty(x)), 'any'),
  // sprig's fromJson swallows the error (and gives what was decoded: nil after a syntax error).
  fromJson: goFunc(['string'], (s: string) => goJsonDecode(s, 'any').value),
  mustFromJson: goFunc(['string'], mustFromJson),
  // json.Marshal; toJson and toPrettyJson swallow the error (""), toRawJson panics with it.
  toJson: goFunc(['any'], (v: unknown) => swallow(() => goJsonMarshal(v))),
  mustToJson: goFunc(['any'], (v: unknown) => goJsonMarshal(v)),
  toPrettyJson: goFunc(['any'], (v: unknown) => swallow(() => goJsonMarshal(v, '  '))),
  mustToPrettyJson: goFunc(['any'], (v: unknown) => goJsonMarshal(v, '  ')),
  toRawJson: goFunc(['any'], (v: unknown) => withoutHtmlEscapes(goJsonMarshal(v))),
  mustToRawJson: goFunc(['any'], (v: unknown) => withoutHtmlEscapes(goJsonMarshal(v))),
  ternary: goFunc(['any', 'any', 'bool'], (a: unknown, b: unknown, c: boolean) => (c ? a : b)),
};
