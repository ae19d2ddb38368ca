// sprig's numeric.go: int, int64 and float64 (spf13/cast's conversions, src/go/cast/), max/biggest, min, maxf,
// minf, floor, ceil, round, until, untilStep, seq, toDecimal, and execDecimalOp, which the float arithmetic of
// functions.go (addf, mulf...) computes with in shopspring/decimal (src/go/decimal/). Results have sprig's Go
// types: int64 for int64, max and min, int for int.
import { goFunc, GoCallError, meteredFunc, type FuncMap } from '../go/reflect/func.ts';
import { readsStrings, type CallCost } from '../go/reflect/callCost.ts';
import { ELEMENT_BYTES, type Meter } from '../go/internal/meter.ts';
import { goSlice, GoInt } from '../go/reflect/value.ts';
import { formatValue } from '../go/fmt/format.ts';
import { toFloat64, toInt64 } from '../go/cast/cast.ts';
import { decimalFloat64, decimalFromFloat, type Decimal } from '../go/decimal/decimal.ts';

export const INT64_MIN = -(1n << 63n);

/** An int64 result. */
export const int64 = (v: bigint) => new GoInt('int64', v);

/** sprig's execDecimalOp: the operands as decimals, folded with `f`, back to a float64. */
export const decimalOp =
  (f: (a: Decimal, b: Decimal) => Decimal) =>
  (a: unknown, ...xs: unknown[]) =>
    decimalFloat64(
      xs.reduce<Decimal>((acc, x) => f(acc, decimalFromFloat(toFloat64(x))), decimalFromFloat(toFloat64(a))),
    );

/** sprig's round: Modf's fraction (signed) against roundOn decides between Ceil and Floor. */
function round(a: unknown, p: bigint, ...opt: number[]): number {
  const roundOn = opt.length > 0 ? opt[0]! : 0.5;
  const pow = 10 ** Number(p);
  const digit = pow * toFloat64(a);
  const frac = Number.isFinite(digit) ? digit - Math.trunc(digit) : NaN;
  return (frac >= roundOn ? Math.ceil(digit) : Math.floor(digit)) / pow;
}

const maxInt = (a: unknown, ...xs: unknown[]) =>
  int64(xs.reduce<bigint>((m, x) => (toInt64(x) > m ? toInt64(x) : m), toInt64(a)));
const minInt = (a: unknown, ...xs: unknown[]) =>
  int64(xs.reduce<bigint>((m, x) => (toInt64(x) < m ? toInt64(x) : m), toInt64(a)));

/** The number of elements untilStep makes (at most one more than the bound it stops at). */
function untilCount(start: bigint, stop: bigint, step: bigint): number {
  if (stop < start ? step >= 0n : step <= 0n) return 0;
  const n = (stop - start + step + (step > 0n ? -1n : 1n)) / step;
  return n > BigInt(MAX_RANGE) ? MAX_RANGE + 1 : Number(n);
}

const MAX_RANGE = 10_000_000;

/** until, untilStep: an element each (a bigint made and added). */
const untilCost: CallCost = (m, args) => {
  const [start, stop, step] =
    args.length === 1 ? [0n, args[0] as bigint, (args[0] as bigint) < 0n ? -1n : 1n] : (args as bigint[]);
  const n = untilCount(start!, stop!, step!);
  m.spend(n * BIGINT_UNITS);
  m.build(n * ELEMENT_BYTES);
};

/** Work of making a bigint and doing arithmetic with it. */
const BIGINT_UNITS = 128;

/** seq: the numbers, printed (at most 20 characters each) and joined. */
const seqCost: CallCost = (m, args) => {
  const p = args as bigint[];
  let n = 0;
  if (p.length === 1 || p.length === 2) {
    const start = p.length === 2 ? p[0]! : 1n;
    const end = p[p.length - 1]!;
    const step = end < start ? -1n : 1n;
    n = untilCount(start, end + step, step);
  } else if (p.length === 3) n = untilCount(p[0]!, p[2]! + (p[2]! < p[0]! ? -1n : 1n), p[1]!);
  m.spend(n * 2 * BIGINT_UNITS);
  m.build(n * (ELEMENT_BYTES + 2 * 21));
};

function untilStep(start: bigint, stop: bigint, step: bigint): bigint[] {
  const out: bigint[] = goSlice('int', []);
  const more =
    stop < start
      ? step >= 0n
        ? () => false
        : (i: bigint) => i > stop
      : step <= 0n
        ? () => false
        : (i: bigint) => i < stop;
  for (let i = start; more(i); i += step) {
    out.push(i);
    // A bound of ours on a runaway range.
    if (out.length > MAX_RANGE) throw new GoCallError('untilStep: too many elements');
  }
  return out;
}

function seq(...p: bigint[]): string {
  let start = 1n;
  let end: bigint;
  let step: bigint;
  if (p.length === 1 || p.length === 2) {
    if (p.length === 2) start = p[0]!;
    end = p[p.length - 1]!;
    step = end < start ? -1n : 1n;
    return untilStep(start, end + step, step).join(' ');
  }
  if (p.length === 3) {
    start = p[0]!;
    step = p[1]!;
    end = p[2]!;
    const inc = end < start ? -1n : 1n;
    if (end < start && step > 0n) return '';
    return untilStep(start, end + inc, step).join(' ');
  }
  return '';
}

/** The conversions read their operands (a numeric string is parsed; maxf and minf take any number of them). */
const CONVERTS: CallCost = (m, args) => {
  readsStrings(16)(m, args);
  m.spend(args.length * OPERAND_UNITS);
};
/** Work of converting an operand (spf13/cast's type switch, measured at about a microsecond). */
const OPERAND_UNITS = 1024;

export const numericFuncs: FuncMap = {
  int: goFunc(['any'], CONVERTS, toInt64),
  int64: goFunc(['any'], CONVERTS, (v: unknown) => int64(toInt64(v))),
  float64: goFunc(['any'], CONVERTS, toFloat64),
  max: goFunc(['any'], CONVERTS, maxInt, 'any'),
  biggest: goFunc(['any'], CONVERTS, maxInt, 'any'),
  min: goFunc(['any'], CONVERTS, minInt, 'any'),
  maxf: goFunc(
    ['any'],
    CONVERTS,
    (a: unknown, ...xs: unknown[]) => xs.reduce<number>((m, x) => Math.max(m, toFloat64(x)), toFloat64(a)),
    'any',
  ),
  minf: goFunc(
    ['any'],
    CONVERTS,
    (a: unknown, ...xs: unknown[]) => xs.reduce<number>((m, x) => Math.min(m, toFloat64(x)), toFloat64(a)),
    'any',
  ),
  floor: goFunc(['any'], CONVERTS, (a: unknown) => Math.floor(toFloat64(a))),
  ceil: goFunc(['any'], CONVERTS, (a: unknown) => Math.ceil(toFloat64(a))),
  round: goFunc(['any', 'int'], CONVERTS, round, 'float64'),
  until: goFunc(['int'], untilCost, (n: bigint) => untilStep(0n, n, n < 0n ? -1n : 1n)),
  untilStep: goFunc(['int', 'int', 'int'], untilCost, untilStep),
  seq: goFunc([], seqCost, seq, 'int'),
  // strconv.ParseInt(fmt.Sprint(v), 8, 64), 0 on error.
  toDecimal: meteredFunc(['any'], readsStrings(16), (meter: Meter, v: unknown) => {
    const s = formatValue(v === undefined ? null : v, meter);
    const m = /^([+-]?)([0-7]+)$/.exec(s);
    if (!m) return int64(0n);
    // Octal digits are 3 bits each: more than 22 are out of range (leading zeros aside).
    const digits = m[2]!.replace(/^0+(?=.)/, '');
    if (digits.length > 22) return int64(0n);
    const n = BigInt('0o' + digits) * (m[1] === '-' ? -1n : 1n);
    return int64(n < INT64_MIN || n > -INT64_MIN - 1n ? 0n : n);
  }),
};
