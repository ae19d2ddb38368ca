// Go's fmt package as templates see it: Sprint, Sprintln, Sprintf and %v printing of every value kind,
// with Go's exact float formatting (shortest digits, %e/%f switch, round-half-even on exact ties).
import { GoPointer, GoStringer, GoStruct, isGoMap } from './values.ts';

/** Go's name of a value's dynamic type, as fmt prints it in %T and in %!verb(type=value). */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  switch (typeof v) {
    case 'string': return 'string';
    case 'bigint': return 'int';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
  }
  if (Array.isArray(v)) return '[]interface {}';
  if (v instanceof Uint8Array) return '[]uint8';
  if (v instanceof GoStruct || v instanceof GoPointer || v instanceof GoStringer) return v.typeName;
  if (isGoMap(v)) return 'map[string]interface {}';
  return 'interface {}';
}

// ---------------------------------------------------------------- floats

interface Digits {
  neg: boolean;
  d: string; // significant digits, no leading/trailing zeros ("" for zero)
  dp: number; // decimal point position: value = 0.d * 10^dp
}

/** The exact decimal expansion of a finite double. */
function exactDigits(x: number): Digits {
  const neg = x < 0 || Object.is(x, -0);
  x = Math.abs(x);
  if (x === 0) return { neg, d: '', dp: 0 };
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const expBits = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (expBits === 0) e = -1074;
  else {
    mant |= 1n << 52n;
    e = expBits - 1075;
  }
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
  const lead = trimmed.length - trimmed.replace(/^0+/, '').length;
  return { neg, d: trimmed.slice(lead), dp: dp - lead };
}

/** Shortest digits that round-trip (what Go's 'g'/-1 and %v use); JS's algorithm agrees with Go's. */
function shortestDigits(x: number): Digits {
  const neg = x < 0 || Object.is(x, -0);
  x = Math.abs(x);
  if (x === 0) return { neg, d: '', dp: 0 };
  const [m, exp] = x.toExponential().split('e') as [string, string];
  const d = m.replace('.', '').replace(/0+$/, '');
  return { neg, d, dp: Number(exp) + 1 };
}

/** Round to `n` significant digits (n >= 0), half to even on an exact tie, as strconv does. */
function roundDigits(dg: Digits, n: number): Digits {
  if (n < 0 || dg.d.length <= n) return dg;
  const keep = dg.d.slice(0, n);
  const rest = dg.d.slice(n);
  let up: boolean;
  if (rest[0]! > '5') up = true;
  else if (rest[0]! < '5') up = false;
  else if (/[1-9]/.test(rest.slice(1))) up = true;
  else up = n > 0 && (Number(keep[n - 1]) % 2 === 1); // exact half: to even (zero digits: down)
  if (!up) return { neg: dg.neg, d: keep.replace(/0+$/, ''), dp: dg.dp };
  // Propagate the carry.
  const arr = keep.split('').map(Number);
  let i = arr.length - 1;
  while (i >= 0 && arr[i] === 9) {
    arr[i] = 0;
    i--;
  }
  if (i < 0) return { neg: dg.neg, d: '1', dp: dg.dp + 1 };
  arr[i]!++;
  return { neg: dg.neg, d: arr.join('').replace(/0+$/, ''), dp: dg.dp };
}

function fmtE(dg: Digits, prec: number, e: 'e' | 'E'): string {
  const first = dg.d[0] ?? '0';
  let s = first;
  if (prec > 0) s += '.' + (dg.d.slice(1) + '0'.repeat(prec)).slice(0, prec);
  let exp = dg.d === '' ? 0 : dg.dp - 1;
  const sign = exp < 0 ? '-' : '+';
  exp = Math.abs(exp);
  return s + e + sign + (exp < 10 ? '0' + exp : String(exp));
}

function fmtF(dg: Digits, prec: number): string {
  let intPart: string;
  if (dg.dp > 0) intPart = (dg.d + '0'.repeat(Math.max(0, dg.dp - dg.d.length))).slice(0, dg.dp);
  else intPart = '0';
  intPart = intPart.replace(/^0+(?=\d)/, '') || '0';
  if (prec <= 0) return intPart;
  let frac = '';
  for (let i = 0; i < prec; i++) {
    const idx = dg.dp + i;
    frac += idx >= 0 && idx < dg.d.length ? dg.d[idx] : '0';
  }
  return intPart + '.' + frac;
}

/** strconv.FormatFloat(x, fmt, prec, 64) for fmt in e, E, f, g, G (prec -1 = shortest). */
export function formatFloat(x: number, verb: 'e' | 'E' | 'f' | 'g' | 'G', prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  const shortest = prec < 0;
  let dg: Digits;
  if (shortest) dg = shortestDigits(x);
  else {
    const exact = exactDigits(x);
    if (verb === 'f') dg = roundDigits(exact, Math.max(0, exact.dp + prec));
    else if (verb === 'e' || verb === 'E') dg = roundDigits(exact, prec + 1);
    else dg = roundDigits(exact, prec === 0 ? 1 : prec);
  }
  const sign = dg.neg ? '-' : '';
  switch (verb) {
    case 'e': case 'E':
      return sign + fmtE(dg, shortest ? Math.max(dg.d.length - 1, 0) : prec, verb);
    case 'f':
      return sign + fmtF(dg, shortest ? Math.max(dg.d.length - dg.dp, 0) : prec);
    case 'g': case 'G': {
      let p = shortest ? dg.d.length : prec === 0 ? 1 : prec;
      let eprec = p;
      if (eprec > dg.d.length && dg.d.length >= dg.dp) eprec = dg.d.length;
      if (shortest) eprec = 6;
      const exp = dg.dp - 1;
      if (dg.d !== '' && (exp < -4 || exp >= eprec)) {
        if (p > dg.d.length) p = dg.d.length;
        return sign + fmtE(dg, Math.max(p - 1, 0), verb === 'g' ? 'e' : 'E');
      }
      if (dg.d === '') return sign + '0';
      if (p > dg.dp) p = dg.d.length;
      return sign + fmtF(dg, Math.max(p - dg.dp, 0));
    }
  }
}

// ---------------------------------------------------------------- strings

const isPrintableRune = (cp: number) =>
  !(cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp === 0xad || (cp >= 0xd800 && cp <= 0xdfff) || cp === 0xfffe || cp === 0xffff || cp === 0x2028 || cp === 0x2029 || (cp >= 0xe000 && cp <= 0xf8ff) || /\p{Cn}|\p{Zl}|\p{Zp}|\p{Cf}/u.test(String.fromCodePoint(cp))) || cp === 0x20;

function quoteRuneBody(cp: number, quote: number, asciiOnly: boolean): string {
  if (cp === quote || cp === 0x5c) return '\\' + String.fromCharCode(cp);
  if (asciiOnly ? cp < 0x7f && cp >= 0x20 : isPrintableRune(cp)) return String.fromCodePoint(cp);
  switch (cp) {
    case 7: return '\\a';
    case 8: return '\\b';
    case 12: return '\\f';
    case 10: return '\\n';
    case 13: return '\\r';
    case 9: return '\\t';
    case 11: return '\\v';
  }
  if (cp < 0x20 || cp === 0x7f) return '\\x' + cp.toString(16).padStart(2, '0');
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\\ufffd';
  if (cp < 0x10000) return '\\u' + cp.toString(16).padStart(4, '0');
  return '\\U' + cp.toString(16).padStart(8, '0');
}

/** strconv.Quote (asciiOnly: QuoteToASCII). */
export function goQuote(s: string, asciiOnly = false): string {
  let out = '"';
  for (const ch of s) out += quoteRuneBody(ch.codePointAt(0)!, 0x22, asciiOnly);
  return out + '"';
}

function goQuoteRune(cp: number, asciiOnly: boolean): string {
  return "'" + quoteRuneBody(cp, 0x27, asciiOnly) + "'";
}

function canBackquote(s: string): boolean {
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x60 || cp === 0xfeff) return false;
    if (cp < 0x20 && cp !== 9) return false;
    if (cp === 0x7f) return false;
  }
  return true;
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');

// ---------------------------------------------------------------- values

/** %v of any value (depth > 0 inside composites: Stringers print via String, nil as <nil>). */
export function formatValue(v: unknown, plus = false): string {
  if (v === null || v === undefined) return '<nil>';
  switch (typeof v) {
    case 'string': return v;
    case 'bigint': return v.toString();
    case 'number': return formatFloat(v, 'g', -1);
    case 'boolean': return v ? 'true' : 'false';
  }
  if (v instanceof GoStringer) return v.text;
  if (v instanceof Uint8Array) return '[' + Array.from(v).join(' ') + ']';
  if (Array.isArray(v)) return '[' + v.map((e) => formatValue(e, plus)).join(' ') + ']';
  if (v instanceof GoStruct) {
    if (v.stringerText !== undefined) return v.stringerText;
    return '{' + Object.entries(v.fields).map(([k, f]) => (plus ? `${k}:` : '') + formatValue(f, plus)).join(' ') + '}';
  }
  if (v instanceof GoPointer) {
    if (v.elem === null) return '<nil>';
    if (v.elem instanceof GoStruct) return '&' + formatValue(v.elem, plus);
    return '0xc000010000'; // an address in Go; never stable there either
  }
  if (isGoMap(v)) {
    const keys = Object.keys(v).sort(compareBytes);
    return 'map[' + keys.map((k) => `${k}:${formatValue(v[k], plus)}`).join(' ') + ']';
  }
  return String(v);
}

export function compareBytes(a: string, b: string): number {
  return a === b ? 0 : Buffer.compare(utf8(a), utf8(b));
}

/** fmt.Sprint: operands separated by a space when neither side is a string. */
export function sprint(args: readonly unknown[]): string {
  let out = '';
  for (let i = 0; i < args.length; i++) {
    const isString = typeof args[i] === 'string';
    if (i > 0 && !isString && typeof args[i - 1] !== 'string') out += ' ';
    out += formatValue(args[i]);
  }
  return out;
}

/** fmt.Sprintln: always spaces, then a newline. */
export function sprintln(args: readonly unknown[]): string {
  return args.map((a) => formatValue(a)).join(' ') + '\n';
}

// ---------------------------------------------------------------- Sprintf

interface Flags {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  width?: number;
  prec?: number;
}

function pad(s: string, f: Flags, zeroOk: boolean): string {
  if (f.width === undefined) return s;
  const len = [...s].length;
  if (len >= f.width) return s;
  const n = f.width - len;
  if (f.minus) return s + ' '.repeat(n);
  if (f.zero && zeroOk) {
    const signLen = s[0] === '-' || s[0] === '+' || s[0] === ' ' ? 1 : 0;
    return s.slice(0, signLen) + '0'.repeat(n) + s.slice(signLen);
  }
  return ' '.repeat(n) + s;
}

function badVerb(verb: string, v: unknown, f?: Flags): string {
  if (v === null || v === undefined) return `%!${verb}(<nil>)`;
  // Go prints the value with %v under the same flags and width.
  const shown = f ? fmtArg(v, 'v', f) : formatValue(v);
  return `%!${verb}(${goTypeName(v)}=${shown})`;
}

function fmtInteger(v: bigint, verb: string, f: Flags): string {
  const neg = v < 0n;
  let u = neg ? -v : v;
  let digits: string;
  let prefix = '';
  switch (verb) {
    case 'd': case 'v': digits = u.toString(10); break;
    case 'b': digits = u.toString(2); if (f.sharp) prefix = '0b'; break;
    case 'o': digits = u.toString(8); if (f.sharp) prefix = '0'; break;
    case 'O': digits = u.toString(8); prefix = '0o'; break;
    case 'x': digits = u.toString(16); if (f.sharp) prefix = '0x'; break;
    case 'X': digits = u.toString(16).toUpperCase(); if (f.sharp) prefix = '0X'; break;
    case 'c': return pad(String.fromCodePoint(Number(u)), f, false);
    case 'q': return pad(goQuoteRune(Number(u), f.plus), f, false);
    case 'U': {
      let s = 'U+' + u.toString(16).toUpperCase().padStart(4, '0');
      if (f.sharp && u <= 0x10ffffn && isPrintableRune(Number(u))) s += ` '${String.fromCodePoint(Number(u))}'`;
      return pad(s, f, false);
    }
    default:
      return badVerb(verb, v, f);
  }
  if (f.prec !== undefined) {
    if (f.prec === 0 && u === 0n) digits = '';
    digits = digits.padStart(f.prec, '0');
  } else if (f.zero && !f.minus && f.width !== undefined) {
    const signLen = neg || f.plus || f.space ? 1 : 0;
    digits = digits.padStart(f.width - signLen - prefix.length, '0');
  }
  if (verb === 'o' && f.sharp && digits.startsWith('0')) prefix = '';
  const sign = neg ? '-' : f.plus ? '+' : f.space ? ' ' : '';
  u = 0n;
  return pad(sign + prefix + digits, { ...f, zero: false }, false);
}

function fmtFloatVerb(v: number, verb: string, f: Flags): string {
  let s: string;
  const prec = f.prec ?? -1;
  switch (verb) {
    case 'v': case 'g': s = formatFloat(v, 'g', prec); break;
    case 'G': s = formatFloat(v, 'G', prec); break;
    case 'e': case 'E': s = formatFloat(v, verb, f.prec ?? 6); break;
    case 'f': case 'F': s = formatFloat(v, 'f', f.prec ?? 6); break;
    default: return badVerb(verb, v, f);
  }
  if (f.plus && !s.startsWith('-') && !s.startsWith('+')) s = '+' + s;
  else if (f.space && !s.startsWith('-')) s = ' ' + s;
  if (s === '+Inf' && !f.plus) s = f.space ? ' Inf' : '+Inf';
  const special = /Inf|NaN/.test(s);
  return pad(s, f, !special);
}

function fmtString(s: string, verb: string, f: Flags): string {
  switch (verb) {
    case 'v': case 's':
      if (f.prec !== undefined) s = [...s].slice(0, f.prec).join('');
      return pad(s, f, true);
    case 'q':
      if (f.prec !== undefined) s = [...s].slice(0, f.prec).join('');
      return pad(f.sharp && canBackquote(s) ? '`' + s + '`' : goQuote(s, f.plus), f, true);
    case 'x': case 'X': {
      let bytes = utf8(s);
      if (f.prec !== undefined) bytes = bytes.subarray(0, f.prec);
      const hex = Array.from(bytes).map((b) => b.toString(16).padStart(2, '0'));
      let out = f.space ? hex.map((h) => (f.sharp ? '0x' + h : h)).join(' ') : (f.sharp && hex.length ? '0x' : '') + hex.join('');
      if (verb === 'X') out = out.toUpperCase();
      return pad(out, f, true);
    }
    default:
      return badVerb(verb, s, f);
  }
}

/** %#v: a Go-syntax representation. */
function goSyntax(v: unknown, top = true): string {
  if (v === null || v === undefined) return top ? '<nil>' : 'interface {}(nil)';
  switch (typeof v) {
    case 'string': return goQuote(v);
    case 'bigint': return v.toString();
    case 'number': return formatFloat(v, 'g', -1);
    case 'boolean': return String(v);
  }
  if (Array.isArray(v)) return '[]interface {}{' + v.map((e) => goSyntax(e, false)).join(', ') + '}';
  if (isGoMap(v)) return 'map[string]interface {}{' + Object.keys(v).sort(compareBytes).map((k) => `${goQuote(k)}:${goSyntax(v[k], false)}`).join(', ') + '}';
  if (v instanceof GoStruct) return v.typeName + '{' + Object.entries(v.fields).map(([k, x]) => `${k}:${goSyntax(x, false)}`).join(', ') + '}';
  return formatValue(v);
}

function fmtArg(v: unknown, verb: string, f: Flags): string {
  if (verb === 'T') return pad(goTypeName(v), f, false);
  if (verb === 'v' && f.sharp) return pad(goSyntax(v), f, false);
  if (v === null || v === undefined) return verb === 'v' ? pad('<nil>', f, false) : badVerb(verb, v);
  if (v instanceof GoStringer && 'vsxXq'.includes(verb)) return fmtString(v.text, verb, f);
  if (v instanceof GoStruct && v.stringerText !== undefined && 'vsxXq'.includes(verb)) return fmtString(v.stringerText, verb, f);
  switch (typeof v) {
    case 'boolean':
      return verb === 'v' || verb === 't' ? pad(v ? 'true' : 'false', f, false) : badVerb(verb, v, f);
    case 'bigint':
      return fmtInteger(v, verb, f);
    case 'number':
      return fmtFloatVerb(v, verb, f);
    case 'string':
      return fmtString(v, verb, f);
  }
  if (v instanceof Uint8Array && 'sqxX'.includes(verb)) return fmtString(Buffer.from(v).toString('latin1'), verb, f);
  if (verb === 'v') return pad(f.sharp ? goSyntax(v) : formatValue(v, f.plus), f, false);
  if (Array.isArray(v) || isGoMap(v) || v instanceof GoStruct) {
    // fmt applies the verb, flags and width element-wise to composites.
    const inner = (e: unknown) => fmtArg(e, verb, f);
    if (Array.isArray(v)) return '[' + v.map(inner).join(' ') + ']';
    if (v instanceof GoStruct) return '{' + Object.values(v.fields).map(inner).join(' ') + '}';
    const keys = Object.keys(v).sort(compareBytes);
    return 'map[' + keys.map((k) => `${fmtArg(k, verb, f)}:${inner(v[k])}`).join(' ') + ']';
  }
  return badVerb(verb, v);
}

/** fmt.Sprintf with Go's verbs, flags, width/precision (incl. `*` and `[n]` indexes) and error forms. */
export function sprintf(format: string, args: readonly unknown[]): string {
  let out = '';
  let argNum = 0;
  let reordered = false;
  let goodArgNum = true;
  const n = format.length;
  let i = 0;
  const parseIndex = (): number | undefined => {
    // [n] argument index, 1-based
    if (format[i] !== '[') return undefined;
    reordered = true;
    const close = format.indexOf(']', i);
    const m = close > i ? /^[0-9]+$/.exec(format.slice(i + 1, close)) : null;
    if (!m) {
      goodArgNum = false;
      i = close > i ? close + 1 : n;
      return undefined;
    }
    const idx = Number(m[0]) - 1;
    i = close + 1;
    if (idx < 0 || idx >= args.length) {
      goodArgNum = false;
      return undefined;
    }
    return idx;
  };
  const intArg = (): number | undefined => {
    if (argNum >= args.length) return undefined;
    const a = args[argNum];
    argNum++;
    if (typeof a === 'bigint' && a >= -1000000n && a <= 1000000n) return Number(a);
    return undefined;
  };

  while (i < n) {
    const pct = format.indexOf('%', i);
    if (pct < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, pct);
    i = pct + 1;
    const f: Flags = { plus: false, minus: false, sharp: false, space: false, zero: false };
    flags: for (; i < n; i++) {
      switch (format[i]) {
        case '#': f.sharp = true; break;
        case '0': f.zero = !f.minus; break;
        case '+': f.plus = true; break;
        case '-': f.minus = true; f.zero = false; break;
        case ' ': f.space = true; break;
        default: break flags;
      }
    }
    goodArgNum = true;
    let idx = parseIndex();
    if (idx !== undefined) argNum = idx;
    // width
    if (format[i] === '*') {
      i++;
      const w = intArg();
      if (w === undefined) out += '%!(BADWIDTH)';
      else {
        f.width = Math.abs(w);
        if (w < 0) {
          f.minus = true;
          f.zero = false;
        }
      }
    } else {
      const m = /^[0-9]+/.exec(format.slice(i));
      if (m) {
        f.width = Number(m[0]);
        i += m[0].length;
      }
    }
    // precision
    if (format[i] === '.') {
      i++;
      idx = parseIndex();
      if (idx !== undefined) argNum = idx;
      if (format[i] === '*') {
        i++;
        const p = intArg();
        if (p === undefined || p < 0) out += '%!(BADPREC)';
        else f.prec = p;
      } else {
        const m = /^[0-9]+/.exec(format.slice(i));
        f.prec = m ? Number(m[0]) : 0;
        if (m) i += m[0].length;
      }
    }
    idx = parseIndex();
    if (idx !== undefined) argNum = idx;
    if (i >= n) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (!goodArgNum) {
      out += `%!${verb}(BADINDEX)`;
      continue;
    }
    if (argNum >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const arg = args[argNum++];
    if (verb === 'w') {
      out += badVerb(verb, arg);
      continue;
    }
    out += fmtArg(arg, verb, f);
  }
  if (!reordered && argNum < args.length) {
    out += '%!(EXTRA ' + args.slice(argNum).map((a) => (a === null || a === undefined ? '<nil>' : `${goTypeName(a)}=${formatValue(a)}`)).join(', ') + ')';
  }
  return out;
}
