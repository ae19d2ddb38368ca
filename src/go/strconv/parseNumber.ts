// strconv.ParseInt / ParseUint (base 0, 64 bits) and ParseFloat (64 bits) as text/template uses them for
// number constants: Go's prefixes (0x, 0o, 0b, legacy leading-0 octal), underscores between digits, hex
// floats with a p exponent.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).

// Go's underscoreOK: '_' only between digits, or between a base prefix and a digit.
function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s[0] === '+' || s[0] === '-') s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1]!)) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

const UINT64_MAX = 0xffff_ffff_ffff_ffffn;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseUint(text, 0, 64) (unsigned) or ParseInt(text, 0, 64); undefined on any error. */
export function parseGoInt(text: string, unsigned: boolean): bigint | undefined {
  let s = text;
  let neg = false;
  if (!unsigned && (s[0] === '+' || s[0] === '-')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '') return undefined;
  let base = 10;
  let digits = s;
  if (s[0] === '0') {
    if (s.length >= 3 && 'bBoOxX'.includes(s[1]!)) {
      base = { b: 2, o: 8, x: 16 }[s[1]!.toLowerCase() as 'b' | 'o' | 'x'];
      digits = s.slice(2);
    } else {
      base = 8;
      digits = s.slice(1);
    }
  }
  let v = 0n;
  let underscores = false;
  let overflow = false;
  const b = BigInt(base);
  // Linear in the digits: once past 64 bits the value is not needed, only the syntax.
  for (let i = 0; i < digits.length; i++) {
    const c = digits.charCodeAt(i);
    if (c === 0x5f) {
      underscores = true;
      continue;
    }
    const d =
      c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x7a ? c - 0x57 : c >= 0x41 && c <= 0x5a ? c - 0x37 : 99;
    if (d >= base) return undefined;
    if (!overflow) {
      v = v * b + BigInt(d);
      overflow = v > UINT64_MAX;
    }
  }
  if (underscores && !underscoreOK(s)) return undefined;
  if (overflow) return undefined;
  if (unsigned) return v;
  if (neg) v = -v;
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

/**
 * strconv.ParseInt(s, 10, 64) of an optionally signed decimal digit string, clamped to the int64 range on
 * overflow (what sprig's atoi and duration make of Go's range error). Linear in the digits.
 */
export function parseClampedInt64(s: string): bigint {
  const neg = s[0] === '-';
  let i = s[0] === '+' || s[0] === '-' ? 1 : 0;
  while (i < s.length - 1 && s[i] === '0') i++;
  // 19 digits hold every int64; more are out of range whatever they are.
  const v = s.length - i > 19 ? INT64_MAX + 1n : BigInt(s.slice(i));
  return neg ? (-v < INT64_MIN ? INT64_MIN : -v) : v > INT64_MAX ? INT64_MAX : v;
}

// Each character has one place to match: `[0-9_]+\.?[0-9_]*` (the point optional between two digit runs)
// backtracks over every split of a digit string that then fails, quadratic in its length.
const DECIMAL = /^[+-]?(?:[0-9_]+(?:\.[0-9_]*)?|\.[0-9_]+)(?:[eE][+-]?[0-9_]+)?$/;
const HEX = /^([+-]?)0[xX]([0-9a-fA-F_]*)(?:\.([0-9a-fA-F_]*))?[pP]([+-]?[0-9_]+)$/;
const SPECIAL = /^([+-]?)(?:inf|infinity|nan)$/i;

/** strconv.ParseFloat(text, 64); undefined for invalid syntax and for overflow (Go's ErrRange). */
export function parseGoFloat(text: string): number | undefined {
  const special = SPECIAL.exec(text);
  if (special) {
    // Go accepts a sign before "inf" but not before "nan".
    if (/nan/i.test(text)) return special[1] === '' ? NaN : undefined;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  if (text.includes('_') && !underscoreOK(text)) return undefined;
  const hex = HEX.exec(text);
  let v: number;
  if (hex) {
    const intPart = hex[2]!.replace(/_/g, '');
    const frac = (hex[3] ?? '').replace(/_/g, '');
    if (intPart === '' && frac === '') return undefined;
    const mant = BigInt('0x' + (intPart + frac || '0'));
    const exp = Number(hex[4]!.replace(/_/g, '')) - 4 * frac.length;
    v = scaleByPowerOfTwo(mant, exp);
    if (hex[1] === '-') v = -v;
  } else {
    if (!DECIMAL.test(text) || !/[0-9]/.test(text)) return undefined;
    v = Number(text.replace(/_/g, ''));
    if (Number.isNaN(v)) return undefined;
  }
  return Number.isFinite(v) ? v : undefined;
}

// mant * 2^exp rounded once, to nearest even, like strconv.
function scaleByPowerOfTwo(mant: bigint, exp: number): number {
  if (mant === 0n) return 0;
  if (exp >= 0) return exp > 2000 ? Infinity : Number(mant << BigInt(exp));
  // Keep enough bits that one final rounding is exact: shift the mantissa into 64+ bits, round by hand.
  const bits = mant.toString(2).length;
  const resultExp = bits + exp; // value in [2^(resultExp-1), 2^resultExp)
  if (resultExp < -1074) return 0;
  // Number of significant bits the double can hold at this magnitude (fewer for subnormals).
  const precision = resultExp - 1 >= -1022 ? 53 : Math.max(0, resultExp + 1074);
  const drop = bits - precision;
  if (drop <= 0) return Number(mant) * 2 ** exp;
  let kept = mant >> BigInt(drop);
  const rest = mant - (kept << BigInt(drop));
  const half = 1n << BigInt(drop - 1);
  if (rest > half || (rest === half && (kept & 1n) === 1n)) kept += 1n;
  return Number(kept) * 2 ** (exp + drop);
}
