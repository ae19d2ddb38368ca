// reflect.Kind: the name of a value's kind (Value.Kind().String()), and emptiness by kind, for the Go values of
// value.ts.
// Follows Go 1.26 (OSM's go.mod).
import { GoInt, GoKeyedMap, goMapSize, GoPointer, GoStringer, isGoMap } from './value.ts';
import { goTypeName } from '../fmt/format.ts';

const PREDECLARED = new Set(['string', 'bigint', 'number', 'boolean']);

/** reflect.ValueOf(v).Kind().String(); an untyped nil is "invalid". */
export function goKind(v: unknown): string {
  if (v === null || v === undefined) return 'invalid';
  // A predeclared type's name is its kind.
  if (PREDECLARED.has(typeof v) || v instanceof GoInt) return goTypeName(v);
  if (Array.isArray(v) || v instanceof Uint8Array) return 'slice';
  if (isGoMap(v) || v instanceof GoKeyedMap) return 'map';
  if (v instanceof GoPointer) return 'ptr';
  if (v instanceof GoStringer) return goKind(v.value);
  return goTypeName(v).startsWith('*') ? 'ptr' : 'struct';
}

/**
 * Emptiness by kind, as sprig's empty and mergo's isEmptyValue both test a value that is not a pointer: nil,
 * false, a zero number, a zero length (string, slice, map); a struct (or anything else) is not empty.
 */
export function isEmptyByKind(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  switch (typeof v) {
    case 'string':
      return v.length === 0;
    case 'boolean':
      return !v;
    case 'bigint':
      return v === 0n;
    case 'number':
      return v === 0;
    default:
      break;
  }
  if (v instanceof GoInt) return v.value === 0n;
  if (Array.isArray(v) || v instanceof Uint8Array) return v.length === 0;
  if (isGoMap(v)) return goMapSize(v) === 0;
  if (v instanceof GoKeyedMap) return v.size === 0;
  return false;
}
