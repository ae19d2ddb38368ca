// github.com/mitchellh/copystructure v1.2.0 (sprig 3.3.0's deepCopy): Copy of the Go values of
// src/go/reflect/value.ts. Maps and slices are copied all the way down, with their types (nil stays nil).
import { GoCallError } from '../reflect/func.ts';
import { GoKeyedMap, isGoMap, isNilContainer, mapSet, sameContainerType, type GoMap } from '../reflect/value.ts';
import { chargeBuilt, chargeNode, ELEMENT_UNITS } from '../internal/cost.ts';

function copyValue(v: unknown): unknown {
  chargeNode();
  chargeBuilt(ELEMENT_UNITS);
  if (isNilContainer(v)) return v;
  if (Array.isArray(v)) return sameContainerType(v, v.map(copyValue));
  if (v instanceof Uint8Array) return v.slice();
  if (isGoMap(v)) {
    const m: GoMap = {};
    for (const k of Object.keys(v)) mapSet(m, k, copyValue(v[k]));
    return sameContainerType(v, m);
  }
  if (v instanceof GoKeyedMap) {
    const m = new GoKeyedMap();
    v.keys.forEach((k, i) => m.set(k, copyValue(v.values[i])));
    return m;
  }
  return v;
}

/** copystructure.Copy; an untyped nil is reflect's panic. */
export function copystructureCopy(v: unknown): unknown {
  if (v === null || v === undefined) throw new GoCallError('reflect: call of reflect.Value.Type on zero Value');
  return copyValue(v);
}
