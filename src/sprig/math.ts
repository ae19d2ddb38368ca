// sprig's integer and float math. Integers are Go int64 (wrapping); operands are converted the way
// spf13/cast 1.7.0 (sprig 3.3.0) does: strings parse with Go's base-0 integer syntax after dropping a
// ".0" suffix, floats truncate (out of range gives the minimum int64, as int64(f) does on amd64), and
// anything unconvertible is 0. The float functions compute in shopspring/decimal: each operand becomes
// the shortest decimal of its float64, sums and products are exact, quotients have 16 decimals.
// Results have sprig's Go types: int64 for the integer arithmetic, int for int and atoi.
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
import { GoInt, GoPointer, GoStringer } from '../go/reflect/value.ts';
import { formatValue } from '../go/fmt/format.ts';
import { parseGoFloat, parseGoInt } from '../go/strconv/parseNumber.ts';

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

const int64 = (v: bigint) => new GoInt('int64', v);

/** cast.ToInt64. */
export function toInt64(v: unknown): bigint {
  v = indirect(v);
  switch (typeof v) {
    case 'bigint': return wrap64(v);
    case 'number': return floatToInt64(v);
    case 'boolean': return v ? 1n : 0n;
    case 'string': return parseGoInt(trimZeroDecimal(v), false) ?? 0n;
  }
  return 0n;
}

/** cast.ToFloat64. */
export function toFloat64(v: unknown): number {
  v = indirect(v);
  switch (typeof v) {
    case 'bigint': return Number(v);
    case 'number': return v;
    case 'boolean': return v ? 1 : 0;
    case 'string': return parseGoFloat(v) ?? 0;
  }
  return 0;
}

// --- shopspring/decimal ---------------------------------------------------------------------------

interface Dec {
  n: bigint;
  scale: number;
}

/** decimal.NewFromFloat: the shortest decimal that reads back as the float. */
function toDec(x: number): Dec {
  if (!Number.isFinite(x)) throw new GoCallError(`Cannot create a Decimal from ${x > 0 ? '+Inf' : x < 0 ? '-Inf' : 'NaN'}`);
  if (x === 0) return { n: 0n, scale: 0 };
  const [m, e] = x.toExponential().split('e') as [string, string];
  const digits = m.replace('.', '').replace('-', '');
  const scale = (m.split('.')[1] ?? '').length - Number(e);
  const n = BigInt((x < 0 ? '-' : '') + digits);
  return scale >= 0 ? { n, scale } : { n: n * 10n ** BigInt(-scale), scale: 0 };
}

const pow10 = (k: number) => 10n ** BigInt(k);

function decAdd(a: Dec, b: Dec, sign: 1n | -1n): Dec {
  const s = Math.max(a.scale, b.scale);
  return { n: a.n * pow10(s - a.scale) + sign * b.n * pow10(s - b.scale), scale: s };
}

const decMul = (a: Dec, b: Dec): Dec => ({ n: a.n * b.n, scale: a.scale + b.scale });

/** Decimal.Div: DivRound to 16 places, half away from zero. */
function decDiv(a: Dec, b: Dec): Dec {
  if (b.n === 0n) throw new GoCallError('decimal division by 0');
  const num = a.n * pow10(b.scale + 16);
  const den = b.n * pow10(a.scale);
  let q = num / den;
  const r = num - q * den;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  if (2n * abs(r) >= abs(den)) q += (num < 0n) !== (den < 0n) ? -1n : 1n;
  return { n: q, scale: 16 };
}

/** Decimal.Float64: the float nearest to the exact value. */
const decFloat = (d: Dec) => Number(`${d.n}e-${d.scale}`);

const decimalOp = (f: (a: Dec, b: Dec) => Dec) => (a: unknown, ...xs: unknown[]) => decFloat(xs.reduce<Dec>((acc, x) => f(acc, toDec(toFloat64(x))), toDec(toFloat64(a))));

function intDiv(a: bigint, b: bigint, op: (a: bigint, b: bigint) => bigint): bigint {
  if (b === 0n) throw new GoCallError('runtime error: integer divide by zero');
  return wrap64(op(a, b));
}

/** sprig's round: Modf's fraction (signed) against roundOn decides between Ceil and Floor. */
function round(a: unknown, p: bigint, ...opt: number[]): number {
  const roundOn = opt.length > 0 ? opt[0]! : 0.5;
  const pow = 10 ** Number(p);
  const digit = pow * toFloat64(a);
  const frac = Number.isFinite(digit) ? digit - Math.trunc(digit) : NaN;
  return (frac >= roundOn ? Math.ceil(digit) : Math.floor(digit)) / pow;
}

const maxInt = (a: unknown, ...xs: unknown[]) => int64(xs.reduce<bigint>((m, x) => (toInt64(x) > m ? toInt64(x) : m), toInt64(a)));
const minInt = (a: unknown, ...xs: unknown[]) => int64(xs.reduce<bigint>((m, x) => (toInt64(x) < m ? toInt64(x) : m), toInt64(a)));

export const mathFuncs: FuncMap = {
  add1: goFunc(['any'], (a: unknown) => int64(wrap64(toInt64(a) + 1n))),
  add: goFunc([], (...xs: unknown[]) => int64(xs.reduce<bigint>((s, x) => wrap64(s + toInt64(x)), 0n)), 'any'),
  sub: goFunc(['any', 'any'], (a: unknown, b: unknown) => int64(wrap64(toInt64(a) - toInt64(b)))),
  div: goFunc(['any', 'any'], (a: unknown, b: unknown) => int64(intDiv(toInt64(a), toInt64(b), (x, y) => x / y))),
  mod: goFunc(['any', 'any'], (a: unknown, b: unknown) => int64(intDiv(toInt64(a), toInt64(b), (x, y) => x % y))),
  mul: goFunc(['any'], (a: unknown, ...xs: unknown[]) => int64(xs.reduce<bigint>((s, x) => wrap64(s * toInt64(x)), toInt64(a))), 'any'),
  max: goFunc(['any'], maxInt, 'any'),
  biggest: goFunc(['any'], maxInt, 'any'),
  min: goFunc(['any'], minInt, 'any'),
  add1f: goFunc(['any'], (a: unknown) => decimalOp((x, y) => decAdd(x, y, 1n))(a, 1n)),
  addf: goFunc([], (...xs: unknown[]) => decimalOp((x, y) => decAdd(x, y, 1n))(0, ...xs), 'any'),
  subf: goFunc(['any'], decimalOp((x, y) => decAdd(x, y, -1n)), 'any'),
  mulf: goFunc(['any'], decimalOp(decMul), 'any'),
  divf: goFunc(['any'], decimalOp(decDiv), 'any'),
  maxf: goFunc(['any'], (a: unknown, ...xs: unknown[]) => xs.reduce<number>((m, x) => Math.max(m, toFloat64(x)), toFloat64(a)), 'any'),
  minf: goFunc(['any'], (a: unknown, ...xs: unknown[]) => xs.reduce<number>((m, x) => Math.min(m, toFloat64(x)), toFloat64(a)), 'any'),
  floor: goFunc(['any'], (a: unknown) => Math.floor(toFloat64(a))),
  ceil: goFunc(['any'], (a: unknown) => Math.ceil(toFloat64(a))),
  round: goFunc(['any', 'int'], round, 'float64'),
  int: goFunc(['any'], toInt64),
  int64: goFunc(['any'], (v: unknown) => int64(toInt64(v))),
  float64: goFunc(['any'], toFloat64),
  // strconv.Atoi: decimal only; out of range gives the clamped value (sprig ignores the error).
  atoi: goFunc(['string'], (s: string) => {
    if (!/^[+-]?[0-9]+$/.test(s)) return 0n;
    const v = BigInt(s);
    return v < INT64_MIN ? INT64_MIN : v > -INT64_MIN - 1n ? -INT64_MIN - 1n : v;
  }),
  // strconv.ParseInt(fmt.Sprint(v), 8, 64), 0 on error.
  toDecimal: goFunc(['any'], (v: unknown) => {
    const s = formatValue(v === undefined ? null : v);
    const m = /^([+-]?)([0-7]+)$/.exec(s);
    if (!m) return int64(0n);
    const n = BigInt('0o' + m[2]) * (m[1] === '-' ? -1n : 1n);
    return int64(n < INT64_MIN || n > -INT64_MIN - 1n ? 0n : n);
  }),
};
