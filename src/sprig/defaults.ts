// sprig's defaults, emptiness and control helpers.
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
import { GoInt, GoKeyedMap, GoPointer, GoStruct, isGoMap } from '../go/reflect/value.ts';

/** sprig's empty: zero values, empty collections, nil. */
export function empty(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  // A non-nil pointer is not empty, whatever it points to (reflect's IsNil).
  if (v instanceof GoPointer) return v.elem === null;
  switch (typeof v) {
    case 'string': return v.length === 0;
    case 'boolean': return !v;
    case 'bigint': return v === 0n;
    case 'number': return v === 0;
  }
  if (v instanceof GoInt) return v.value === 0n;
  if (Array.isArray(v) || v instanceof Uint8Array) return v.length === 0;
  if (isGoMap(v)) return Object.keys(v).length === 0;
  if (v instanceof GoKeyedMap) return v.size === 0;
  if (v instanceof GoStruct) return false;
  return false;
}

export const defaultFuncs: FuncMap = {
  default: goFunc(['any'], (d: unknown, ...given: unknown[]) => (given.length === 0 || empty(given[0]) ? d : given[0]), 'any'),
  empty: goFunc(['any'], empty),
  coalesce: goFunc([], (...v: unknown[]) => v.find((x) => !empty(x)) ?? null, 'any'),
  all: goFunc([], (...v: unknown[]) => v.every((x) => !empty(x)), 'any'),
  any: goFunc([], (...v: unknown[]) => v.some((x) => !empty(x)), 'any'),
  ternary: goFunc(['any', 'any', 'bool'], (a: unknown, b: unknown, c: boolean) => (c ? a : b)),
  fail: goFunc(['string'], (msg: string) => {
    throw new GoCallError(msg);
  }),
};
