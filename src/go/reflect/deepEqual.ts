// reflect.DeepEqual on the Go values of value.ts: same kind and type, then deep contents.
// Follows Go 1.26 (OSM's go.mod).
import { containerType, GoInt, GoKeyedMap, GoPointer, GoStringer, GoStruct, isGoMap, isNilContainer } from './value.ts';
import { chargeRead, ELEMENT_UNITS } from '../internal/cost.ts';

const isNil = (v: unknown) => v === null || v === undefined;

/** reflect.DeepEqual */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return !(typeof a === 'number' && Number.isNaN(a));
  chargeRead(ELEMENT_UNITS);
  if (isNil(a) || isNil(b)) return isNil(a) && isNil(b);
  if (a instanceof GoInt || b instanceof GoInt) return a instanceof GoInt && b instanceof GoInt && a.type === b.type && a.value === b.value;
  // Slices and maps: the same type, both nil or both not, and the same contents.
  if (typeof a === 'object' && typeof b === 'object' && (containerType(a)?.name !== containerType(b)?.name || isNilContainer(a) !== isNilContainer(b))) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (isGoMap(a) && isGoMap(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  if (a instanceof GoKeyedMap && b instanceof GoKeyedMap) {
    return a.size === b.size && a.keys.every((k, i) => {
      const r = b.get(k);
      return r.found && deepEqual(a.values[i], r.value);
    });
  }
  if (a instanceof GoStruct && b instanceof GoStruct) {
    const ka = Object.keys(a.fields);
    return a.typeName === b.typeName && ka.length === Object.keys(b.fields).length && ka.every((k) => deepEqual(a.fields[k], b.fields[k]));
  }
  if (a instanceof GoPointer && b instanceof GoPointer) return a.typeName === b.typeName && deepEqual(a.elem, b.elem);
  if (a instanceof GoStringer && b instanceof GoStringer) return a.typeName === b.typeName && deepEqual(a.value, b.value);
  return false;
}
