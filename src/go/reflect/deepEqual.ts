// reflect.DeepEqual on the Go values of value.ts: same kind and type, then deep contents. Charged on the meter
// per element compared, as it goes (two structures that share parts compare far longer than they are).
// Follows Go 1.26 (OSM's go.mod).
import {
  containerType,
  GoInt,
  GoKeyedMap,
  goMapSize,
  GoPointer,
  GoStringer,
  GoStruct,
  isGoMap,
  isNilContainer,
  mapHas,
} from './value.ts';
import { ELEMENT_BYTES, ENTRY_UNITS, type Meter } from '../internal/meter.ts';

const isNil = (v: unknown) => v === null || v === undefined;

/** Work of comparing two strings, besides their characters. */
const COMPARE_UNITS = 64;

/** reflect.DeepEqual */
export function deepEqual(a: unknown, b: unknown, meter: Meter): boolean {
  if (typeof a === 'string' && typeof b === 'string') {
    meter.spend(COMPARE_UNITS + 2 * Math.min(a.length, b.length));
    return a === b;
  }
  if (a === b) return !(typeof a === 'number' && Number.isNaN(a));
  meter.visit();
  if (isNil(a) || isNil(b)) return isNil(a) && isNil(b);
  if (a instanceof GoInt || b instanceof GoInt)
    return a instanceof GoInt && b instanceof GoInt && a.type === b.type && a.value === b.value;
  // Slices and maps: the same type, both nil or both not, and the same contents.
  if (
    typeof a === 'object' &&
    typeof b === 'object' &&
    (containerType(a)?.name !== containerType(b)?.name || isNilContainer(a) !== isNilContainer(b))
  )
    return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i], meter));
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    meter.spend(Math.min(a.length, b.length));
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (isGoMap(a) && isGoMap(b)) {
    if (goMapSize(a, meter) !== goMapSize(b, meter)) return false;
    meter.spend(goMapSize(a, meter) * ENTRY_UNITS);
    // The list of a's keys.
    meter.build(goMapSize(a, meter) * ELEMENT_BYTES);
    return Object.keys(a).every((k) => mapHas(b, k) && deepEqual(a[k], b[k], meter));
  }
  if (a instanceof GoKeyedMap && b instanceof GoKeyedMap) {
    meter.spend(a.size * ENTRY_UNITS);
    return (
      a.size === b.size &&
      a.keys.every((k, i) => {
        const r = b.get(k);
        return r.found && deepEqual(a.values[i], r.value, meter);
      })
    );
  }
  if (a instanceof GoStruct && b instanceof GoStruct) {
    const ka = Object.keys(a.fields);
    return (
      a.typeName === b.typeName &&
      ka.length === Object.keys(b.fields).length &&
      ka.every((k) => deepEqual(a.fields[k], b.fields[k], meter))
    );
  }
  if (a instanceof GoPointer && b instanceof GoPointer)
    return a.typeName === b.typeName && deepEqual(a.elem, b.elem, meter);
  if (a instanceof GoStringer && b instanceof GoStringer)
    return a.typeName === b.typeName && deepEqual(a.value, b.value, meter);
  return false;
}
