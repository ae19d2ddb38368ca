// github.com/mitchellh/copystructure v1.2.0 (sprig 3.3.0's deepCopy): Copy of the Go values of
// src/go/reflect/value.ts. Maps and slices are copied all the way down, with their types (nil stays nil).
import { GoCallError } from '../reflect/func.ts';
import {
  GoKeyedMap,
  goMapSize,
  isGoMap,
  isNilContainer,
  mapSet,
  sameContainerType,
  type GoMap,
} from '../reflect/value.ts';
import { ELEMENT_BYTES, ENTRY_BYTES, ENTRY_UNITS, type Meter } from '../internal/meter.ts';

/** Charged per element as it goes: a structure that shares parts copies far larger than it is. */
function copyValue(v: unknown, meter: Meter): unknown {
  meter.visit();
  if (isNilContainer(v)) return v;
  if (Array.isArray(v)) {
    meter.build(v.length * ELEMENT_BYTES);
    return sameContainerType(
      v,
      v.map((e) => copyValue(e, meter)),
    );
  }
  if (v instanceof Uint8Array) {
    meter.build(v.length);
    return v.slice();
  }
  if (isGoMap(v)) {
    const n = goMapSize(v, meter);
    meter.spend(n * ENTRY_UNITS);
    meter.build(n * ENTRY_BYTES);
    const keys = Object.keys(v);
    const m: GoMap = {};
    for (const k of keys) mapSet(m, k, copyValue(v[k], meter));
    return sameContainerType(v, m);
  }
  if (v instanceof GoKeyedMap) {
    meter.build(v.size * ENTRY_BYTES);
    const m = new GoKeyedMap();
    v.keys.forEach((k, i) => m.set(k, copyValue(v.values[i], meter)));
    return m;
  }
  return v;
}

/** copystructure.Copy; an untyped nil is reflect's panic. */
export function copystructureCopy(v: unknown, meter: Meter): unknown {
  if (v === null || v === undefined) throw new GoCallError('reflect: call of reflect.Value.Type on zero Value');
  return copyValue(v, meter);
}
