// github.com/spf13/cast v1.7.0 (sprig 3.3.0's), ToInt64 and ToFloat64 on Go values: pointers are followed,
// strings parse with Go's base-0 integer syntax after dropping a ".0" suffix (ToFloat64: strconv.ParseFloat),
// floats truncate (out of range gives the minimum int64, as int64(f) does on amd64), and anything
// unconvertible is 0 (sprig ignores cast's errors).
import { GoInt, GoPointer, GoStringer } from '../reflect/value.ts';
import { parseGoFloat, parseGoInt } from '../strconv/parseNumber.ts';

const INT64_MIN = -(1n << 63n);
const wrap64 = (x: bigint) => BigInt.asIntN(64, x);

/** int64(f) on amd64. */
function floatToInt64(f: number): bigint {
  if (Number.isNaN(f) || f >= 2 ** 63 || f < -(2 ** 63)) return INT64_MIN;
  return BigInt(Math.trunc(f));
}

/** cast 1.7.0's trimZeroDecimal: "5.0" and "5.00" are "5"; "5.5" is left alone. */
function trimZeroDecimal(s: string): string {
  let foundZero = false;
  for (let i = s.length; i > 0; i--) {
    const c = s[i - 1];
    if (c === '.') {
      if (foundZero) return s.slice(0, i - 1);
    } else if (c === '0') foundZero = true;
    else return s;
  }
  return s;
}

const indirect = (v: unknown): unknown => {
  while (v instanceof GoPointer && v.elem !== null) v = v.elem;
  if (v instanceof GoStringer) v = v.value;
  return v instanceof GoInt ? v.value : v;
};

/** cast.ToInt64. */
export function toInt64(v: unknown): bigint {
  v = indirect(v);
  switch (typeof v) {
    case 'bigint':
      return wrap64(v);
    case 'number':
      return floatToInt64(v);
    case 'boolean':
      return v ? 1n : 0n;
    case 'string':
      return parseGoInt(trimZeroDecimal(v), false) ?? 0n;
    default:
      break;
  }
  return 0n;
}

/** cast.ToFloat64. */
export function toFloat64(v: unknown): number {
  v = indirect(v);
  switch (typeof v) {
    case 'bigint':
      return Number(v);
    case 'number':
      return v;
    case 'boolean':
      return v ? 1 : 0;
    case 'string':
      return parseGoFloat(v) ?? 0;
    default:
      break;
  }
  return 0;
}
