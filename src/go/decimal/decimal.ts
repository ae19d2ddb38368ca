// github.com/shopspring/decimal v1.4.0 (sprig 3.3.0's), as far as sprig's float functions use it: each operand
// becomes the shortest decimal of its float64 (NewFromFloat), sums and products are exact, quotients have 16
// decimals (DivisionPrecision), and Float64 gives back the nearest float.
import { GoCallError } from '../reflect/func.ts';

/** n × 10^-scale */
export interface Decimal {
  n: bigint;
  scale: number;
}

/** decimal.NewFromFloat: the shortest decimal that reads back as the float; NaN and ±Inf panic. */
export function decimalFromFloat(x: number): Decimal {
  if (!Number.isFinite(x))
    throw new GoCallError(`Cannot create a Decimal from ${x > 0 ? '+Inf' : x < 0 ? '-Inf' : 'NaN'}`);
  if (x === 0) return { n: 0n, scale: 0 };
  const [m, e] = x.toExponential().split('e') as [string, string];
  const digits = m.replace('.', '').replace('-', '');
  const scale = (m.split('.')[1] ?? '').length - Number(e);
  const n = BigInt((x < 0 ? '-' : '') + digits);
  return scale >= 0 ? { n, scale } : { n: n * 10n ** BigInt(-scale), scale: 0 };
}

const pow10 = (k: number) => 10n ** BigInt(k);

function addSigned(a: Decimal, b: Decimal, sign: 1n | -1n): Decimal {
  const s = Math.max(a.scale, b.scale);
  return { n: a.n * pow10(s - a.scale) + sign * b.n * pow10(s - b.scale), scale: s };
}

/** Decimal.Add */
export const decimalAdd = (a: Decimal, b: Decimal): Decimal => addSigned(a, b, 1n);

/** Decimal.Sub */
export const decimalSub = (a: Decimal, b: Decimal): Decimal => addSigned(a, b, -1n);

/** Decimal.Mul */
export const decimalMul = (a: Decimal, b: Decimal): Decimal => ({ n: a.n * b.n, scale: a.scale + b.scale });

/** Decimal.Div: DivRound to 16 places, half away from zero. */
export function decimalDiv(a: Decimal, b: Decimal): Decimal {
  if (b.n === 0n) throw new GoCallError('decimal division by 0');
  const num = a.n * pow10(b.scale + 16);
  const den = b.n * pow10(a.scale);
  let q = num / den;
  const r = num - q * den;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  if (2n * abs(r) >= abs(den)) q += num < 0n !== den < 0n ? -1n : 1n;
  return { n: q, scale: 16 };
}

/** Decimal.Float64: the float nearest to the exact value. */
export const decimalFloat64 = (d: Decimal): number => Number(`${d.n}e-${d.scale}`);
