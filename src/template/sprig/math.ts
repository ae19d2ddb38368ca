// sprig's integer and float math. Integers follow Go int64 (wrapping); sprig converts operands with cast.ToInt64.
import { goFunc, GoCallError, type FuncMap } from '../functions.ts';
import { GoStringer } from '../values.ts';

const wrap64 = (x: bigint) => BigInt.asIntN(64, x);

/** cast.ToInt64 as sprig uses it: numbers truncate, strings parse (base 0), bools are 0/1, otherwise 0. */
export function toInt64(v: unknown): bigint {
  if (v instanceof GoStringer) v = v.value;
  switch (typeof v) {
    case 'bigint': return wrap64(v);
    case 'number': return Number.isFinite(v) ? wrap64(BigInt(Math.trunc(v))) : 0n;
    case 'boolean': return v ? 1n : 0n;
    case 'string': {
      const s = v.trim();
      if (/^[+-]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[0-9]+)$/.test(s)) {
        const neg = s.startsWith('-');
        const body = s.replace(/^[+-]/, '');
        const n = /^0[0-7]+$/.test(body) ? BigInt('0o' + body.slice(1)) : BigInt(body);
        return wrap64(neg ? -n : n);
      }
      return 0n;
    }
  }
  return 0n;
}

/** cast.ToFloat64. */
export function toFloat64(v: unknown): number {
  if (v instanceof GoStringer) v = v.value;
  switch (typeof v) {
    case 'bigint': return Number(v);
    case 'number': return v;
    case 'boolean': return v ? 1 : 0;
    case 'string': {
      const n = Number(v.trim());
      return v.trim() !== '' && Number.isFinite(n) ? n : 0;
    }
  }
  return 0;
}

// sprig does float math in shopspring/decimal: exact decimal arithmetic on the shortest decimal form of
// each operand (0.1 + 0.2 is 0.3), division to 16 decimal places.
interface Dec { n: bigint; scale: number }

function toDec(x: number): Dec {
  if (!Number.isFinite(x)) throw new GoCallError(`can't convert ${x} to decimal`);
  const [m, e] = x.toExponential().split('e') as [string, string];
  const digits = m.replace('.', '').replace('-', '');
  const frac = (m.split('.')[1] ?? '').length;
  const scale = frac - Number(e);
  const n = BigInt((x < 0 ? '-' : '') + digits);
  return scale >= 0 ? { n, scale } : { n: n * 10n ** BigInt(-scale), scale: 0 };
}

const align = (a: Dec, b: Dec): [bigint, bigint, number] => {
  const s = Math.max(a.scale, b.scale);
  return [a.n * 10n ** BigInt(s - a.scale), b.n * 10n ** BigInt(s - b.scale), s];
};
const decNum = (d: Dec) => Number(`${d.n}e-${d.scale}`);

function decAdd(a: number, b: number, sign: 1n | -1n): number {
  const [x, y, s] = align(toDec(a), toDec(b));
  return decNum({ n: x + sign * y, scale: s });
}

function decMul(a: number, b: number): number {
  const x = toDec(a);
  const y = toDec(b);
  return decNum({ n: x.n * y.n, scale: x.scale + y.scale });
}

function decDiv(a: number, b: number): number {
  const x = toDec(a);
  const y = toDec(b);
  if (y.n === 0n) throw new GoCallError('decimal division by 0');
  // Quotient to 16 decimal places, rounded half away from zero.
  const num = x.n * 10n ** BigInt(y.scale + 17);
  const den = y.n * 10n ** BigInt(x.scale);
  let q = num / den;
  q = q >= 0n ? (q + 5n) / 10n : (q - 5n) / 10n;
  return decNum({ n: q, scale: 16 });
}

const intOp = (f: (a: bigint, b: bigint) => bigint) => goFunc(['any', 'any'], (a: unknown, b: unknown) => wrap64(f(toInt64(a), toInt64(b))));
const floatOp = (f: (a: number, b: number) => number) => goFunc(['any', 'any'], (a: unknown, b: unknown) => f(toFloat64(a), toFloat64(b)));

function div(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new GoCallError('runtime error: integer divide by zero');
  return a / b;
}

function mod(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new GoCallError('runtime error: integer divide by zero');
  return a % b;
}

export const mathFuncs: FuncMap = {
  add1: goFunc(['any'], (a: unknown) => wrap64(toInt64(a) + 1n)),
  add: goFunc([], (...xs: unknown[]) => xs.reduce<bigint>((s, x) => wrap64(s + toInt64(x)), 0n), 'any'),
  sub: intOp((a, b) => a - b),
  div: intOp(div),
  mod: intOp(mod),
  mul: goFunc(['any'], (a: unknown, ...xs: unknown[]) => xs.reduce<bigint>((s, x) => wrap64(s * toInt64(x)), toInt64(a)), 'any'),
  max: goFunc(['any'], (a: unknown, ...xs: unknown[]) => xs.reduce<bigint>((m, x) => (toInt64(x) > m ? toInt64(x) : m), toInt64(a)), 'any'),
  min: goFunc(['any'], (a: unknown, ...xs: unknown[]) => xs.reduce<bigint>((m, x) => (toInt64(x) < m ? toInt64(x) : m), toInt64(a)), 'any'),
  add1f: goFunc(['any'], (a: unknown) => toFloat64(a) + 1),
  addf: goFunc([], (...xs: unknown[]) => xs.reduce<number>((s, x) => decAdd(s, toFloat64(x), 1n), 0), 'any'),
  subf: goFunc(['any'], (a: unknown, ...xs: unknown[]) => xs.reduce<number>((s, x) => decAdd(s, toFloat64(x), -1n), toFloat64(a)), 'any'),
  mulf: goFunc(['any'], (a: unknown, ...xs: unknown[]) => xs.reduce<number>((s, x) => decMul(s, toFloat64(x)), toFloat64(a)), 'any'),
  divf: goFunc(['any'], (a: unknown, ...xs: unknown[]) => xs.reduce<number>((s, x) => decDiv(s, toFloat64(x)), toFloat64(a)), 'any'),
  maxf: goFunc(['any'], (a: unknown, ...xs: unknown[]) => xs.reduce<number>((m, x) => Math.max(m, toFloat64(x)), toFloat64(a)), 'any'),
  minf: goFunc(['any'], (a: unknown, ...xs: unknown[]) => xs.reduce<number>((m, x) => Math.min(m, toFloat64(x)), toFloat64(a)), 'any'),
  floor: goFunc(['any'], (a: unknown) => Math.floor(toFloat64(a))),
  ceil: goFunc(['any'], (a: unknown) => Math.ceil(toFloat64(a))),
  round: goFunc(['any', 'int'], (a: unknown, p: bigint, ...r: unknown[]) => {
    const f = 10 ** Number(p);
    const half = r.length > 0 ? toFloat64(r[0]) : 0.5;
    const x = toFloat64(a) * f;
    const t = Math.trunc(x);
    return (Math.abs(x - t) >= half ? t + Math.sign(x) : t) / f;
  }, 'any'),
  int: goFunc(['any'], (a: unknown) => toInt64(a)),
  int64: goFunc(['any'], (a: unknown) => toInt64(a)),
  float64: goFunc(['any'], (a: unknown) => toFloat64(a)),
  atoi: goFunc(['string'], (s: string) => (/^[+-]?[0-9]+$/.test(s) ? wrap64(BigInt(s)) : 0n)),
  biggest: goFunc(['any'], (a: unknown, ...xs: unknown[]) => xs.reduce<bigint>((m, x) => (toInt64(x) > m ? toInt64(x) : m), toInt64(a)), 'any'),
};
