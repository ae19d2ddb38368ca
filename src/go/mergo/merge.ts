// dario.cat/mergo v1.0.1 (sprig 3.3.0's): Merge and MergeWithOverwrite of one map[string]interface{} into
// another, as sprig's merge and mergeOverwrite call them. sprig 3.2.3 had imdario/mergo 0.3, which never
// replaced a non-empty value by a map (mergeOverwrite of {a: "x"} with {a: {b: 1}}).
import { GoPointer, goMapSize, isGoMap, mapHas, mapSet, type GoMap } from '../reflect/value.ts';
import { isEmptyByKind } from '../reflect/kind.ts';
import { ENTRY_BYTES, ENTRY_UNITS, type Meter } from '../internal/meter.ts';

const isNil = (v: unknown) => v === null || v === undefined;

/** mergo's isEmptyValue, which looks through pointers. */
function isEmptyValue(v: unknown): boolean {
  if (v instanceof GoPointer) return v.elem === null || isEmptyValue(v.elem);
  return isEmptyByKind(v);
}

/**
 * mergo.Merge (overwrite false) or mergo.MergeWithOverwrite of src into dst, in place. Charged per map as it
 * goes: each entry of src read and, at most, added to dst.
 */
export function mergoMerge(dst: GoMap, src: GoMap, overwrite: boolean, meter: Meter): void {
  const n = goMapSize(src, meter);
  meter.spend(n * ENTRY_UNITS);
  meter.build(n * ENTRY_BYTES);
  for (const k of Object.keys(src)) {
    meter.visit();
    const s = src[k];
    const present = mapHas(dst, k);
    const d = dst[k];
    if (isNil(s)) {
      if (overwrite) mapSet(dst, k, null);
      continue;
    }
    if (isGoMap(s)) {
      // A map merges into a map already there; a map there that is not empty is then kept.
      if (present && isGoMap(d)) {
        mergoMerge(d, s, overwrite, meter);
        if (!isEmptyValue(d)) continue;
      }
    } else if ((Array.isArray(s) || s instanceof Uint8Array) && present && !isEmptyValue(d) && !overwrite) {
      continue;
    }
    if (overwrite || !present || isEmptyValue(d)) mapSet(dst, k, s);
  }
}
