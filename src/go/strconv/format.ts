// The parts of Go's strconv that fmt and templates print with: FormatFloat (every format, exact rounding,
// round half to even on exact ties), Quote / QuoteToASCII / QuoteRune, CanBackquote and IsPrint.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).
import { TextBuilder } from '../internal/textBuilder.ts';
import { canonicalGoString } from '../reflect/byteString.ts';
import { lazyRegExp } from '../internal/lazyRegExp.ts';

// ---------------------------------------------------------------- IsPrint

const PRINTABLE = lazyRegExp('^[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}]$', 'u');

/** unicode.IsPrint / strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isGoPrintable(cp: number): boolean {
  if (cp < 0x7f) return cp >= 0x20;
  if (cp < 0xa1) return false;
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
  if (cp > 0xffff) return PRINTABLE.test(String.fromCodePoint(cp));
  // A BMP rune's answer is worked out once (a property test per rune is slow on long text).
  printables ??= new Uint8Array(0x10000);
  const known = printables[cp]!;
  if (known !== 0) return known === 2;
  const yes = PRINTABLE.test(String.fromCharCode(cp));
  printables[cp] = yes ? 2 : 1;
  return yes;
}

let printables: Uint8Array | undefined;

// ---------------------------------------------------------------- FormatFloat

interface Digits {
  neg: boolean;
  /** Significant decimal digits without leading or trailing zeros ("" for zero). */
  d: string;
  /** Decimal point position: the value is 0.d × 10^dp. */
  dp: number;
}

interface Bits {
  neg: boolean;
  /** Mantissa with the implicit bit, and binary exponent, as strconv's genericFtoa has them. */
  mant: bigint;
  exp: number;
}

function floatBits(x: number): Bits {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const neg = hi >>> 31 === 1;
  let exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exp === 0)
    exp++; // denormal
  else mant |= 1n << 52n;
  return { neg, mant, exp: exp - 1023 };
}

/** The exact decimal expansion of a finite double. */
function exactDigits(x: number): Digits {
  const { neg, mant, exp } = floatBits(x);
  if (mant === 0n) return { neg, d: '', dp: 0 };
  const e = exp - 52;
  let digits: string;
  let dp: number;
  if (e >= 0) {
    digits = (mant << BigInt(e)).toString();
    dp = digits.length;
  } else {
    digits = (mant * 5n ** BigInt(-e)).toString();
    dp = digits.length + e;
  }
  const trimmed = digits.replace(/0+$/, '');
  return { neg, d: trimmed, dp };
}

/** The shortest digits that read back as x (JS and Go's Ryu both pick the closest such decimal). */
function shortestDigits(x: number): Digits {
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  if (a === 0) return { neg, d: '', dp: 0 };
  const [m, e] = a.toExponential().split('e') as [string, string];
  return { neg, d: m.replace('.', '').replace(/0+$/, ''), dp: Number(e) + 1 };
}

/** Go's decimal.Round(n): to n significant digits, half to even on an exact tie; n < 0 leaves it. */
function roundDigits(dg: Digits, n: number): Digits {
  if (n < 0 || n >= dg.d.length) return dg;
  const keep = dg.d.slice(0, n);
  const rest = dg.d.slice(n);
  let up: boolean;
  if (rest[0]! !== '5' || rest.length > 1) up = rest[0]! >= '5';
  else up = n > 0 && Number(keep[n - 1]) % 2 === 1;
  if (!up) return { neg: dg.neg, d: keep.replace(/0+$/, ''), dp: dg.dp };
  const arr = keep.split('').map(Number);
  let i = arr.length - 1;
  while (i >= 0 && arr[i] === 9) i--;
  if (i < 0) return { neg: dg.neg, d: '1', dp: dg.dp + 1 };
  arr[i]!++;
  return { neg: dg.neg, d: arr.slice(0, i + 1).join(''), dp: dg.dp };
}

/** The digits at positions [from, from + count) of the decimal, zeros outside it (a precision can be a million). */
function digitsRange(dg: Digits, from: number, count: number): string {
  const lead = Math.min(count, Math.max(0, -from));
  const start = Math.max(0, from);
  return ('0'.repeat(lead) + dg.d.slice(start, Math.max(start, from + count))).padEnd(count, '0');
}

function fmtE(dg: Digits, prec: number, e: string): string {
  let s = dg.neg ? '-' : '';
  s += dg.d === '' ? '0' : dg.d[0]!;
  if (prec > 0) s += '.' + digitsRange(dg, 1, prec);
  let exp = dg.d === '' ? 0 : dg.dp - 1;
  s += e + (exp < 0 ? '-' : '+');
  exp = Math.abs(exp);
  return s + (exp < 10 ? '0' + exp : String(exp));
}

function fmtF(dg: Digits, prec: number): string {
  let s = dg.neg ? '-' : '';
  s += dg.dp > 0 ? digitsRange(dg, 0, dg.dp) : '0';
  if (prec > 0) s += '.' + digitsRange(dg, dg.dp, prec);
  return s;
}

function fmtB(b: Bits): string {
  const exp = b.exp - 52;
  return (b.neg ? '-' : '') + b.mant.toString() + 'p' + (exp >= 0 ? '+' : '') + exp;
}

function fmtX(b: Bits, prec: number, verb: 'x' | 'X'): string {
  let mant = b.mant;
  let exp = mant === 0n ? 0 : b.exp;
  // Shift so the leading 1 (if any) is at bit 60.
  mant <<= 8n;
  const bit60 = 1n << 60n;
  while (mant !== 0n && (mant & bit60) === 0n) {
    mant <<= 1n;
    exp--;
  }
  const mask60 = bit60 - 1n;
  if (prec >= 0 && prec < 15) {
    const shift = BigInt(prec * 4);
    const extra = (mant << shift) & mask60;
    mant >>= 60n - shift;
    if ((extra | (mant & 1n)) > 1n << 59n) mant++;
    mant <<= 60n - shift;
    if ((mant & (1n << 61n)) !== 0n) {
      mant >>= 1n;
      exp++;
    }
  }
  const hex = verb === 'X' ? '0123456789ABCDEF' : '0123456789abcdef';
  let s = (b.neg ? '-' : '') + '0' + verb + String((mant >> 60n) & 1n);
  mant = (mant << 4n) & ((1n << 64n) - 1n);
  const nibble = () => {
    const d = hex[Number((mant >> 60n) & 15n)]!;
    mant = (mant << 4n) & ((1n << 64n) - 1n);
    return d;
  };
  if (prec < 0 && mant !== 0n) {
    s += '.';
    while (mant !== 0n) s += nibble();
  } else if (prec > 0) {
    s += '.';
    for (let i = 0; i < prec; i++) s += nibble();
  }
  s += verb === 'X' ? 'P' : 'p';
  s += exp < 0 ? '-' : '+';
  const e = Math.abs(exp);
  return s + (e < 10 ? '0' + e : String(e));
}

export type FloatFormat = 'b' | 'e' | 'E' | 'f' | 'g' | 'G' | 'x' | 'X';

/** strconv.FormatFloat(x, fmt, prec, 64); prec -1 means the shortest representation that reads back. */
export function formatFloat(x: number, fmt: FloatFormat, prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (fmt === 'b') return fmtB(floatBits(x));
  if (fmt === 'x' || fmt === 'X') return fmtX(floatBits(x), prec, fmt);
  const shortest = prec < 0;
  let dg: Digits;
  if (shortest) {
    dg = shortestDigits(x);
    switch (fmt) {
      case 'e':
      case 'E':
        prec = Math.max(dg.d.length - 1, 0);
        break;
      case 'f':
        prec = Math.max(dg.d.length - dg.dp, 0);
        break;
      default:
        prec = dg.d.length;
    }
  } else {
    const exact = exactDigits(x);
    switch (fmt) {
      case 'e':
      case 'E':
        dg = roundDigits(exact, prec + 1);
        break;
      case 'f':
        dg = roundDigits(exact, exact.dp + prec);
        break;
      default:
        if (prec === 0) prec = 1;
        dg = roundDigits(exact, prec);
    }
  }
  switch (fmt) {
    case 'e':
    case 'E':
      return fmtE(dg, prec, fmt);
    case 'f':
      return fmtF(dg, prec);
    default: {
      let eprec = prec;
      if (eprec > dg.d.length && dg.d.length >= dg.dp) eprec = dg.d.length;
      // %e is used if the exponent is < -4 or >= the precision (6 for the shortest form).
      if (shortest) eprec = 6;
      const exp = dg.dp - 1;
      if (exp < -4 || exp >= eprec) {
        if (prec > dg.d.length) prec = dg.d.length;
        return fmtE(dg, prec - 1, fmt === 'g' ? 'e' : 'E');
      }
      if (prec > dg.dp) prec = dg.d.length;
      return fmtF(dg, Math.max(prec - dg.dp, 0));
    }
  }
}

// ---------------------------------------------------------------- quoting

function appendEscapedRune(r: number, quote: number, asciiOnly: boolean): string {
  if (r === quote || r === 0x5c) return '\\' + String.fromCharCode(r);
  if (asciiOnly ? r < 0x80 && isGoPrintable(r) : isGoPrintable(r)) return String.fromCodePoint(r);
  switch (r) {
    case 7:
      return '\\a';
    case 8:
      return '\\b';
    case 12:
      return '\\f';
    case 10:
      return '\\n';
    case 13:
      return '\\r';
    case 9:
      return '\\t';
    case 11:
      return '\\v';
  }
  if (r < 0x20 || r === 0x7f) return '\\x' + r.toString(16).padStart(2, '0');
  if (r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) r = 0xfffd;
  if (r < 0x10000) return '\\u' + r.toString(16).padStart(4, '0');
  return '\\U' + r.toString(16).padStart(8, '0');
}

/** strconv.Quote (asciiOnly: QuoteToASCII); a byte that is not valid UTF-8 is written as \xNN. */
export function goQuote(s: string, asciiOnly = false): string {
  // Printable ASCII but for the quote and the backslash is written as it is.
  if (PLAIN_ASCII.test(s)) return '"' + s + '"';
  s = canonicalGoString(s);
  const out = new TextBuilder();
  out.unit(0x22);
  let run = 0;
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) {
      i++;
      continue;
    }
    if (i > run) out.append(s.slice(run, i));
    let cp = c;
    let w = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      cp = (c - 0xd800) * 0x400 + (s.charCodeAt(i + 1) - 0xdc00) + 0x10000;
      w = 2;
    }
    out.append(
      cp >= 0xdc80 && cp <= 0xdcff ? '\\x' + (cp - 0xdc00).toString(16) : appendEscapedRune(cp, 0x22, asciiOnly),
    );
    i += w;
    run = i;
  }
  if (s.length > run) out.append(s.slice(run));
  out.unit(0x22);
  return out.toString();
}

const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** strconv.QuoteRune (asciiOnly: QuoteRuneToASCII); an invalid rune is quoted as U+FFFD. */
export function goQuoteRune(r: number, asciiOnly = false): string {
  if (r < 0 || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) r = 0xfffd;
  return "'" + appendEscapedRune(r, 0x27, asciiOnly) + "'";
}

/** strconv.CanBackquote: no control characters other than tab, no backquote, no BOM. */
export function canBackquote(s: string): boolean {
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0xfeff || cp === 0x60 || cp === 0x7f || (cp < 0x20 && cp !== 9)) return false;
    if (cp >= 0xd800 && cp <= 0xdfff) return false;
  }
  return true;
}
