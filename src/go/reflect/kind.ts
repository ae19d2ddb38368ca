// reflect.Kind: the name of a value's kind (Value.Kind().String()), for the Go values of value.ts.
// Follows Go 1.26 (OSM's go.mod).
import { GoInt, GoKeyedMap, GoPointer, GoStringer, isGoMap } from './value.ts';
import { goTypeName } from '../fmt/format.ts';

/** reflect.ValueOf(v).Kind().String(); an untyped nil is "invalid". */
export function goKind(v: unknown): string {
  if (v === null || v === undefined) return 'invalid';
  switch (typeof v) {
    case 'string': return 'string';
    case 'bigint': return 'int';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
  }
  if (v instanceof GoInt) return v.type;
  if (Array.isArray(v) || v instanceof Uint8Array) return 'slice';
  if (isGoMap(v) || v instanceof GoKeyedMap) return 'map';
  if (v instanceof GoPointer) return 'ptr';
  if (v instanceof GoStringer) return goKind(v.value);
  return goTypeName(v).startsWith('*') ? 'ptr' : 'struct';
}
