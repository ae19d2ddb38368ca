// Go's fmt as templates see it (print.go / format.go): Sprint, Sprintln, Sprintf and the printing of every
// value kind of src/go/reflect/value.ts — verbs, flags (+ - # 0 space), width, precision, `*`, argument indexes and the
// error forms (%!d(string=x), %!(EXTRA ...), %!v(MISSING), %!v(BADINDEX), ...).
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).
import {
  containerType,
  GoInt,
  GoKeyedMap,
  goMapSize,
  goUint8,
  GoPointer,
  GoStringer,
  GoStruct,
  isGoMap,
  isNilContainer,
} from '../reflect/value.ts';
import { GoComplex } from '../reflect/complex.ts';
import { callGoFunction, type GoFunction } from '../reflect/func.ts';
import { TextBuilder } from '../internal/textBuilder.ts';
import { canBackquote, formatFloat, goQuote, goQuoteRune, isGoPrintable, type FloatFormat } from '../strconv/format.ts';
import { goBytes, goString } from '../reflect/byteString.ts';
import { ELEMENT_BYTES, ENTRY_UNITS, VISIT_UNITS, type Meter } from '../internal/meter.ts';

export { formatFloat, goQuote } from '../strconv/format.ts';

/** Go's name of a value's dynamic type, as fmt prints it in %T and in %!verb(type=value). */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'bigint':
      return 'int';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    default:
      break;
  }
  if (v instanceof GoInt) return v.type;
  if (v instanceof GoComplex) return 'complex128';
  if (Array.isArray(v)) return containerType(v)?.name ?? '[]interface {}';
  if (v instanceof Uint8Array) return '[]uint8';
  if (v instanceof GoStruct || v instanceof GoPointer || v instanceof GoStringer || v instanceof GoKeyedMap)
    return v.typeName;
  if (isGoMap(v)) return containerType(v)?.name ?? 'map[string]interface {}';
  return 'interface {}';
}

/** fmtsort's order of two interface values: nil first, then by type (as laid out in a Go binary), then by value. */
function compareInterfaces(a: unknown, b: unknown): number {
  const nilA = a === null || a === undefined;
  const nilB = b === null || b === undefined;
  if (nilA || nilB) return nilA === nilB ? 0 : nilA ? -1 : 1;
  const ta = goTypeName(a);
  const tb = goTypeName(b);
  if (ta !== tb) {
    // Go orders types by their address in the binary: named basic types by name, then types with methods.
    const rank = (t: string) => (t.includes('.') ? 1 : 0);
    return rank(ta) - rank(tb) || (ta < tb ? -1 : 1);
  }
  if (typeof a === 'number' && typeof b === 'number') {
    if (a < b) return -1;
    if (a > b) return 1;
    if (a === b) return 0;
    return Number.isNaN(a) && !Number.isNaN(b) ? -1 : !Number.isNaN(a) && Number.isNaN(b) ? 1 : 0;
  }
  const av = a instanceof GoInt ? a.value : a;
  const bv = b instanceof GoInt ? b.value : b;
  if (typeof av === 'bigint' && typeof bv === 'bigint') return av < bv ? -1 : av > bv ? 1 : 0;
  if (typeof av === 'boolean' && typeof bv === 'boolean') return av === bv ? 0 : av ? 1 : -1;
  if (typeof av === 'string' && typeof bv === 'string') return compareBytes(av, bv);
  const sa = stringerText(a) ?? '';
  const sb = stringerText(b) ?? '';
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** The entries of a map[interface{}]interface{} in the order fmt and range visit them. */
export function sortedKeyedEntries(m: GoKeyedMap): Array<[unknown, unknown]> {
  const idx = m.keys.map((_, i) => i).sort((i, j) => compareInterfaces(m.keys[i], m.keys[j]));
  return idx.map((i) => [m.keys[i], m.values[i]]);
}

/**
 * Go's byte-wise string order (fmtsort, sort.Strings): UTF-8, not UTF-16. UTF-16 code units order as UTF-8
 * bytes do up to the first difference unless a surrogate (a character beyond the BMP, or a raw byte) takes
 * part in it: only then are the rest's bytes compared.
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  if ((x < 0xd800 || x > 0xdfff) && (y < 0xd800 || y > 0xdfff)) return x < y ? -1 : 1;
  // From the start of the character the difference is in (the second half of a pair differs).
  if (i > 0 && (a.charCodeAt(i - 1) & 0xfc00) === 0xd800) i--;
  return Buffer.compare(goBytes(a.slice(i)), goBytes(b.slice(i)));
}

/**
 * Sorted keys of a map, as fmt and range visit them (encoding/json and the TOML encoder sort the same way),
 * charged on `meter`: listing them, and the sort's comparisons, which read the keys' characters.
 */
export function sortedKeys(m: Record<string, unknown>, meter: Meter): string[] {
  const n = goMapSize(m, meter);
  meter.spend(n * ENTRY_UNITS);
  meter.build(n * ELEMENT_BYTES);
  return sortedStrings(Object.keys(m), meter);
}

/** Strings in Go's byte order (sort.Strings), charged on `meter`: about log2(n) comparisons each, reading characters. */
export function sortedStrings(keys: string[], meter: Meter): string[] {
  let chars = 0;
  let ascii = true;
  for (const k of keys) {
    chars += k.length;
    // Plain ASCII keys compare the same in UTF-16 and UTF-8: the common case needs no byte conversion.
    if (ascii && !/^[\x00-\x7f]*$/.test(k)) ascii = false;
  }
  meter.spend(
    Math.ceil(Math.log2(keys.length + 1)) * ((ascii ? 1 : SORT_CHAR_UNITS) * chars + SORT_UNITS * keys.length),
  );
  return ascii ? keys.sort() : keys.sort(compareBytes);
}

/** Work of one comparison of a sort, and per character it reads (in JS, for text beyond ASCII). */
const SORT_UNITS = 32;
const SORT_CHAR_UNITS = 4;

/** The text of a value that implements fmt.Stringer (or error), if it does. */
function stringerText(v: unknown): string | undefined {
  if (v instanceof GoStringer) return v.text;
  if (v instanceof GoStruct) return v.stringerText;
  // A pointer's method set includes its element's methods.
  if (v instanceof GoPointer && v.elem !== null) return stringerText(v.elem);
  return undefined;
}

/** A method of a value (a pointer's method set includes its element's). */
function methodOf(v: unknown, name: string): GoFunction | undefined {
  while (v instanceof GoPointer && v.elem !== null) v = v.elem;
  const methods = v instanceof GoStruct || v instanceof GoStringer ? v.methods : undefined;
  return methods !== undefined && Object.prototype.hasOwnProperty.call(methods, name) ? methods[name] : undefined;
}

const FAKE_ADDRESS = 0xc000010000n; // Go prints a real address here, different on every run

const LDIGITS = '0123456789abcdefx';
const UDIGITS = '0123456789ABCDEFX';
const UINT64 = 1n << 64n;
const tooLarge = (x: number) => x > 1e6 || x < -1e6;
/** utf8.RuneCountInString: a surrogate pair is one rune, and so is a raw byte (a lone surrogate). */
const runeCount = (s: string) => {
  let n = s.length;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && (s.charCodeAt(i - 1) & 0xfc00) === 0xd800) n--;
  }
  return n;
};

/** Bound on how much longer quoting makes a text (a raw byte becomes \\xNN: 4 for 1). */
const QUOTE_GROWTH = 10;
/** Work per character of quoting a text (a rune at a time). */
const QUOTE_UNITS = 32;

/**
 * One fmt "pp": a buffer plus the flags of the verb being formatted. What it writes is charged on its meter
 * before it is written: padding, quoted and hex text, and each element of a composite as it is visited (a
 * structure that shares parts can print far larger than it is).
 */
class Printer {
  /** What has been printed (gathered a chunk at a time, not as a rope of tiny strings). */
  private readonly out = new TextBuilder();
  // flags
  widPresent = false;
  precPresent = false;
  minus = false;
  plus = false;
  sharp = false;
  space = false;
  zero = false;
  plusV = false;
  sharpV = false;
  wid = 0;
  prec = 0;
  // state
  private erroring = false;
  private arg: unknown = undefined;
  private argSet = false;
  reordered = false;
  goodArgNum = true;

  constructor(private readonly meter: Meter) {}

  put(s: string): void {
    this.out.append(s);
  }

  text(): string {
    return this.out.toString();
  }

  clearFlags(): void {
    this.widPresent = this.precPresent = this.minus = this.plus = this.sharp = this.space = this.zero = false;
    this.plusV = this.sharpV = false;
    this.wid = this.prec = 0;
  }

  // ---- padding (format.go) ----

  private writePadding(n: number): void {
    if (n <= 0) return;
    this.meter.build(n);
    this.put((this.zero ? '0' : ' ').repeat(n));
  }

  private pad(s: string): void {
    if (!this.widPresent || this.wid === 0) {
      this.put(s);
      return;
    }
    const width = this.wid - runeCount(s);
    if (!this.minus) {
      this.writePadding(width);
      this.put(s);
    } else {
      this.put(s);
      this.writePadding(width);
    }
  }

  private withoutZero(f: () => void): void {
    const old = this.zero;
    this.zero = false;
    f();
    this.zero = old;
  }

  private fmtBoolean(v: boolean): void {
    this.pad(v ? 'true' : 'false');
  }

  private fmtUnicode(u: bigint): void {
    let prec = 4;
    if (this.precPresent && this.prec > 4) prec = this.prec;
    let s = 'U+' + u.toString(16).toUpperCase().padStart(prec, '0');
    if (this.sharp && u <= 0x10ffffn && isGoPrintable(Number(u))) s += ` '${String.fromCodePoint(Number(u))}'`;
    this.withoutZero(() => this.pad(s));
  }

  /** fmtInteger for a signed 64-bit value (our ints are all int64). */
  private fmtInteger(v: bigint, base: number, verb: string, digits: string): void {
    const negative = v < 0n;
    const u = negative ? -v : v;
    let prec = 0;
    if (this.precPresent) {
      prec = this.prec;
      // Precision 0 and value 0 means "print nothing" but the padding.
      if (prec === 0 && u === 0n) {
        this.withoutZero(() => this.writePadding(this.wid));
        return;
      }
    } else if (this.zero && this.widPresent) {
      prec = this.wid;
      if (negative || this.plus || this.space) prec--; // room for the sign
    }
    let s = u.toString(base);
    if (digits === UDIGITS) s = s.toUpperCase();
    if (s.length < prec) {
      this.meter.build(prec);
      s = '0'.repeat(prec - s.length) + s;
    }
    if (this.sharp) {
      if (base === 2) s = '0b' + s;
      else if (base === 8 && s[0] !== '0') s = '0' + s;
      else if (base === 16) s = '0' + digits[16] + s;
    }
    if (verb === 'O') s = '0o' + s;
    if (negative) s = '-' + s;
    else if (this.plus) s = '+' + s;
    else if (this.space) s = ' ' + s;
    this.withoutZero(() => this.pad(s));
  }

  private truncateString(s: string): string {
    if (!this.precPresent) return s;
    let n = this.prec;
    let i = 0;
    for (const ch of s) {
      if (--n < 0) return s.slice(0, i);
      i += ch.length;
    }
    return s;
  }

  private fmtS(s: string): void {
    this.meter.build(s.length);
    this.pad(this.truncateString(s));
  }

  /** %x / %X of a string's (or byte slice's) bytes. */
  private fmtSbx(bytes: Uint8Array, digits: string): void {
    let length = bytes.length;
    if (this.precPresent && this.prec < length) length = this.prec;
    let width = 2 * length;
    if (width > 0) {
      if (this.space) {
        if (this.sharp) width *= 2;
        width += length - 1;
      } else if (this.sharp) width += 2;
    } else {
      if (this.widPresent) this.writePadding(this.wid);
      return;
    }
    if (this.widPresent && this.wid > width && !this.minus) this.writePadding(this.wid - width);
    this.meter.spend(2 * width);
    this.meter.build(width);
    // Written into bytes: a string built a digit at a time would be a rope of tiny pieces.
    const text = Buffer.allocUnsafe(width);
    let n = 0;
    const hexPrefix = () => {
      text[n++] = 0x30;
      text[n++] = digits.charCodeAt(16);
    };
    if (this.sharp) hexPrefix();
    for (let i = 0; i < length; i++) {
      if (this.space && i > 0) {
        text[n++] = 0x20;
        if (this.sharp) hexPrefix();
      }
      const c = bytes[i]!;
      text[n++] = digits.charCodeAt(c >> 4);
      text[n++] = digits.charCodeAt(c & 15);
    }
    this.put(text.toString('latin1', 0, n));
    if (this.widPresent && this.wid > width && this.minus) this.writePadding(this.wid - width);
  }

  private fmtQ(s: string): void {
    s = this.truncateString(s);
    this.meter.spend(QUOTE_UNITS * s.length);
    this.meter.build(QUOTE_GROWTH * s.length + 2);
    if (this.sharp && canBackquote(s)) {
      this.pad('`' + s + '`');
      return;
    }
    this.pad(goQuote(s, this.plus));
  }

  private fmtC(c: bigint): void {
    const u = c < 0n ? c + UINT64 : c;
    let r = u > 0x10ffffn ? 0xfffd : Number(u);
    if (r >= 0xd800 && r <= 0xdfff) r = 0xfffd;
    this.pad(String.fromCodePoint(r));
  }

  private fmtQc(c: bigint): void {
    const u = c < 0n ? c + UINT64 : c;
    this.pad(goQuoteRune(u > 0x10ffffn ? 0xfffd : Number(u), this.plus));
  }

  private fmtFloat(v: number, verb: FloatFormat, prec: number): void {
    if (this.precPresent) prec = this.prec;
    // A float64 has at most 330 digits before a precision's; the text is copied a few times (sign, padding).
    this.meter.build(4 * (Math.max(0, prec) + 330));
    let num = formatFloat(v, verb, prec);
    num = num[0] === '-' || num[0] === '+' ? num : '+' + num;
    if (this.space && num[0] === '+' && !this.plus) num = ' ' + num.slice(1);
    // Infinities and NaN do not look like numbers: no zero padding.
    if (num[1] === 'I' || num[1] === 'N') {
      if (num[1] === 'N' && !this.space && !this.plus) num = num.slice(1);
      this.withoutZero(() => this.pad(num));
      return;
    }
    // # forces a decimal point and keeps trailing zeros.
    if (this.sharp && verb !== 'b') {
      let digits = 0;
      if (verb === 'g' || verb === 'G' || verb === 'x') digits = prec === -1 ? 6 : prec;
      let tail = '';
      let body = num;
      let hasDecimalPoint = false;
      let sawNonzeroDigit = false;
      for (let i = 1; i < body.length; i++) {
        const c = body[i]!;
        if (c === '.') {
          hasDecimalPoint = true;
          continue;
        }
        if (c === 'p' || c === 'P' || ((c === 'e' || c === 'E') && verb !== 'x' && verb !== 'X')) {
          tail = body.slice(i);
          body = body.slice(0, i);
          break;
        }
        if (c !== '0') sawNonzeroDigit = true;
        if (sawNonzeroDigit) digits--;
      }
      if (!hasDecimalPoint) {
        if (body.length === 2 && body[1] === '0') digits--;
        body += '.';
      }
      if (digits > 0) {
        this.meter.build(digits);
        body += '0'.repeat(digits);
      }
      num = body + tail;
    }
    if (this.plus || num[0] !== '+') {
      // Zero padding goes between the sign and the digits.
      if (this.zero && this.widPresent && this.wid > num.length) {
        this.put(num[0]);
        this.writePadding(this.wid - num.length);
        this.put(num.slice(1));
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }

  // ---- print.go ----

  private badVerb(verb: string, value?: { v: unknown }): void {
    this.erroring = true;
    this.put('%!' + verb + '(');
    if (value === undefined && this.argSet && this.arg !== null && this.arg !== undefined) {
      this.put(goTypeName(this.arg) + '=');
      this.printArg(this.arg, 'v');
    } else if (value !== undefined && value.v !== null && value.v !== undefined) {
      this.put(goTypeName(value.v) + '=');
      this.printValue(value.v, 'v', 0);
    } else {
      this.put('<nil>');
    }
    this.put(')');
    this.erroring = false;
  }

  private fmtBool(v: boolean, verb: string, value?: { v: unknown }): void {
    if (verb === 't' || verb === 'v') this.fmtBoolean(v);
    else this.badVerb(verb, value);
  }

  private fmt0x64(v: bigint, leading0x: boolean): void {
    const sharp = this.sharp;
    this.sharp = leading0x;
    this.fmtInteger(v, 16, 'v', LDIGITS);
    this.sharp = sharp;
  }

  private fmtIntegerVerb(v: bigint, verb: string, value?: { v: unknown }, unsigned = false): void {
    switch (verb) {
      case 'v':
        // Go syntax of an unsigned integer is hexadecimal.
        if (this.sharpV && unsigned) this.fmt0x64(v, true);
        else this.fmtInteger(v, 10, verb, LDIGITS);
        return;
      case 'd':
        this.fmtInteger(v, 10, verb, LDIGITS);
        return;
      case 'b':
        this.fmtInteger(v, 2, verb, LDIGITS);
        return;
      case 'o':
      case 'O':
        this.fmtInteger(v, 8, verb, LDIGITS);
        return;
      case 'x':
        this.fmtInteger(v, 16, verb, LDIGITS);
        return;
      case 'X':
        this.fmtInteger(v, 16, verb, UDIGITS);
        return;
      case 'c':
        this.fmtC(v);
        return;
      case 'q':
        this.fmtQc(v);
        return;
      case 'U':
        this.fmtUnicode(v < 0n ? v + UINT64 : v);
        return;
    }
    this.badVerb(verb, value);
  }

  private fmtFloatVerb(v: number, verb: string, value?: { v: unknown }): void {
    switch (verb) {
      case 'v':
        this.fmtFloat(v, 'g', -1);
        return;
      case 'b':
      case 'g':
      case 'G':
      case 'x':
      case 'X':
        this.fmtFloat(v, verb, -1);
        return;
      case 'f':
      case 'e':
      case 'E':
        this.fmtFloat(v, verb, 6);
        return;
      case 'F':
        this.fmtFloat(v, 'f', 6);
        return;
    }
    this.badVerb(verb, value);
  }

  private fmtComplex(v: GoComplex, verb: string, value?: { v: unknown }): void {
    switch (verb) {
      case 'v':
      case 'b':
      case 'g':
      case 'G':
      case 'x':
      case 'X':
      case 'f':
      case 'F':
      case 'e':
      case 'E': {
        const oldPlus = this.plus;
        this.put('(');
        this.fmtFloatVerb(v.re, verb);
        // The imaginary part always has a sign.
        this.plus = true;
        this.fmtFloatVerb(v.im, verb);
        this.put('i)');
        this.plus = oldPlus;
        return;
      }
    }
    this.badVerb(verb, value);
  }

  private fmtString(v: string, verb: string, value?: { v: unknown }): void {
    switch (verb) {
      case 'v':
        if (this.sharpV) this.fmtQ(v);
        else this.fmtS(v);
        return;
      case 's':
        this.fmtS(v);
        return;
      case 'x':
        this.fmtSbx(goBytes(v), LDIGITS);
        return;
      case 'X':
        this.fmtSbx(goBytes(v), UDIGITS);
        return;
      case 'q':
        this.fmtQ(v);
        return;
    }
    this.badVerb(verb, value);
  }

  private fmtBytes(v: Uint8Array, verb: string, typeString: string): void {
    switch (verb) {
      case 'v':
      case 'd':
        // Each byte is a number of its own (up to "255, ": 5 characters; 0x12, : 6 with %#v).
        this.meter.spend(v.length * VISIT_UNITS);
        this.meter.build(6 * v.length);
        if (this.sharpV) {
          this.put(typeString + '{');
          v.forEach((c, i) => {
            if (i > 0) this.put(', ');
            this.fmt0x64(BigInt(c), true);
          });
          this.put('}');
        } else {
          this.put('[');
          v.forEach((c, i) => {
            if (i > 0) this.put(' ');
            this.fmtInteger(BigInt(c), 10, verb, LDIGITS);
          });
          this.put(']');
        }
        return;
      case 's':
        this.fmtS(goString(v));
        return;
      case 'x':
        this.fmtSbx(v, LDIGITS);
        return;
      case 'X':
        this.fmtSbx(v, UDIGITS);
        return;
      case 'q':
        this.fmtQ(goString(v));
        return;
    }
    this.printValue(v, verb, 0);
  }

  private fmtPointer(v: unknown, verb: string): void {
    const isNil = (v instanceof GoPointer && v.elem === null) || isNilContainer(v);
    const isPointerLike =
      v instanceof GoPointer || Array.isArray(v) || v instanceof Uint8Array || isGoMap(v) || v instanceof GoKeyedMap;
    if (!isPointerLike) {
      this.badVerb(verb, { v });
      return;
    }
    const u = isNil ? 0n : FAKE_ADDRESS;
    switch (verb) {
      case 'v':
        if (this.sharpV) {
          this.put('(' + goTypeName(v) + ')(');
          if (u === 0n) this.put('nil');
          else this.fmt0x64(u, true);
          this.put(')');
        } else if (u === 0n) this.pad('<nil>');
        else this.fmt0x64(u, !this.sharp);
        return;
      case 'p':
        this.fmt0x64(u, !this.sharp);
        return;
      case 'b':
      case 'o':
      case 'd':
      case 'x':
      case 'X':
        this.fmtIntegerVerb(u, verb);
        return;
    }
    this.badVerb(verb, { v });
  }

  /** Stringers (and errors) format through their text for the string verbs. */
  private handleMethods(arg: unknown, verb: string): boolean {
    if (this.erroring) return false;
    if (verb === 'w') {
      // Sprintf is not Errorf: %w is always a bad verb here.
      this.arg = arg;
      this.argSet = true;
      this.badVerb(verb);
      return true;
    }
    if (this.sharpV) {
      // A fmt.GoStringer (time.Time) prints itself for %#v.
      const goString = methodOf(arg, 'GoString');
      if (goString === undefined) return false;
      this.fmtS(String(callGoFunction(goString, this.meter, [])));
      return true;
    }
    if (verb === 'v' || verb === 's' || verb === 'x' || verb === 'X' || verb === 'q') {
      const text = stringerText(arg);
      if (text !== undefined) {
        this.fmtString(text, verb);
        return true;
      }
    }
    return false;
  }

  printArg(arg: unknown, verb: string): void {
    this.arg = arg;
    this.argSet = true;
    if (arg === null || arg === undefined) {
      if (verb === 'T' || verb === 'v') this.pad('<nil>');
      else this.badVerb(verb);
      return;
    }
    if (verb === 'T') {
      this.fmtS(goTypeName(arg));
      return;
    }
    if (verb === 'p') {
      this.fmtPointer(arg, 'p');
      return;
    }
    switch (typeof arg) {
      case 'boolean':
        this.fmtBool(arg, verb);
        return;
      case 'number':
        this.fmtFloatVerb(arg, verb);
        return;
      case 'bigint':
        this.fmtIntegerVerb(arg, verb);
        return;
      case 'string':
        this.fmtString(arg, verb);
        return;
      default:
        break;
    }
    if (arg instanceof GoInt) {
      this.fmtIntegerVerb(arg.value, verb, undefined, arg.unsigned);
      return;
    }
    if (arg instanceof Uint8Array) {
      this.fmtBytes(arg, verb, '[]byte');
      return;
    }
    if (arg instanceof GoComplex) {
      this.fmtComplex(arg, verb);
      return;
    }
    if (!this.handleMethods(arg, verb)) this.printValue(arg, verb, 0);
  }

  /** printValue for a value held in an interface{} (slice and map elements): nil prints as <nil>. */
  private printInterface(v: unknown, verb: string, depth: number): void {
    if (v === null || v === undefined) {
      this.put(this.sharpV ? 'interface {}(nil)' : '<nil>');
      return;
    }
    this.printValue(v, verb, depth + 1);
  }

  printValue(v: unknown, verb: string, depth: number): void {
    // An element of a composite: charged as it is printed, so an expanding shared structure stops early.
    if (depth > 0) this.meter.visit();
    if (depth > 0 && v !== null && v !== undefined && this.handleMethods(v, verb)) return;
    this.arg = undefined;
    this.argSet = false;
    const value = { v };
    if (v === null || v === undefined) {
      if (depth === 0) this.put('<invalid reflect.Value>');
      else if (verb === 'v') this.put('<nil>');
      else this.badVerb(verb, value);
      return;
    }
    switch (typeof v) {
      case 'boolean':
        this.fmtBool(v, verb, value);
        return;
      case 'bigint':
        this.fmtIntegerVerb(v, verb, value);
        return;
      case 'number':
        this.fmtFloatVerb(v, verb, value);
        return;
      case 'string':
        this.fmtString(v, verb, value);
        return;
      default:
        break;
    }
    if (v instanceof GoInt) {
      this.fmtIntegerVerb(v.value, verb, value, v.unsigned);
      return;
    }
    if (v instanceof GoComplex) {
      this.fmtComplex(v, verb, value);
      return;
    }
    if (v instanceof GoStringer) {
      // Printed without its String method (%d, or while reporting a bad verb): its underlying value.
      this.printValue(v.value instanceof GoStringer ? v.text : v.value, verb, depth);
      return;
    }
    if (isGoMap(v)) {
      const t = containerType(v);
      if (this.sharpV) {
        this.put(goTypeName(v));
        if (t?.nil === true) {
          this.put('(nil)');
          return;
        }
        this.put('{');
      } else this.put('map[');
      const iface = t === undefined || t.elem === 'interface {}';
      sortedKeys(v, this.meter).forEach((k, i) => {
        if (i > 0) this.put(this.sharpV ? ', ' : ' ');
        this.printValue(k, verb, depth + 1);
        this.put(':');
        if (iface) this.printInterface(v[k], verb, depth + 1);
        else this.printValue(v[k], verb, depth + 1);
      });
      this.put(this.sharpV ? '}' : ']');
      return;
    }
    if (v instanceof GoKeyedMap) {
      this.put(this.sharpV ? v.typeName + '{' : 'map[');
      this.meter.spend(v.size * ENTRY_UNITS);
      sortedKeyedEntries(v).forEach(([k, e], i) => {
        if (i > 0) this.put(this.sharpV ? ', ' : ' ');
        this.printInterface(k, verb, depth + 1);
        this.put(':');
        this.printInterface(e, verb, depth + 1);
      });
      this.put(this.sharpV ? '}' : ']');
      return;
    }
    if (v instanceof GoStruct) {
      if (this.sharpV) this.put(v.typeName);
      this.put('{');
      Object.keys(v.fields).forEach((name, i) => {
        if (i > 0) this.put(this.sharpV ? ', ' : ' ');
        if (this.plusV || this.sharpV) this.put(name + ':');
        const f = v.fields[name];
        if (f === null || f === undefined) this.put(this.sharpV ? 'interface {}(nil)' : '<nil>');
        else this.printValue(f, verb, depth + 1);
      });
      this.put('}');
      return;
    }
    if (v instanceof Uint8Array) {
      if (verb === 's' || verb === 'q' || verb === 'x' || verb === 'X') {
        this.fmtBytes(v, verb, '[]uint8');
        return;
      }
      this.meter.build(v.length * ELEMENT_BYTES);
      this.printList(Array.from(v, goUint8), '[]uint8', verb, depth, false);
      return;
    }
    if (Array.isArray(v)) {
      const t = containerType(v);
      if (t?.nil === true && this.sharpV) {
        this.put(t.name + '(nil)');
        return;
      }
      this.printList(v, goTypeName(v), verb, depth, t === undefined || t.elem === 'interface {}');
      return;
    }
    if (v instanceof GoPointer) {
      // A pointer to a composite prints as &{...} at the top level only.
      if (
        depth === 0 &&
        v.elem !== null &&
        (Array.isArray(v.elem) || isGoMap(v.elem) || v.elem instanceof GoStruct || v.elem instanceof Uint8Array)
      ) {
        this.put('&');
        this.printValue(v.elem, verb, depth + 1);
        return;
      }
      this.fmtPointer(v, verb);
      return;
    }
    this.put('?' + goTypeName(v) + '?');
  }

  private printList(items: readonly unknown[], typeName: string, verb: string, depth: number, iface: boolean): void {
    this.put(this.sharpV ? typeName + '{' : '[');
    items.forEach((e, i) => {
      if (i > 0) this.put(this.sharpV ? ', ' : ' ');
      if (iface) this.printInterface(e, verb, depth + 1);
      else this.printValue(e, verb, depth + 1);
    });
    this.put(this.sharpV ? '}' : ']');
  }
}

// ---------------------------------------------------------------- Sprint, Sprintln, Sprintf

/** fmt.Sprint of one value: what {{.}} prints for a valid value. */
export function formatValue(v: unknown, meter: Meter): string {
  // The common cases print as themselves under %v without flags.
  switch (typeof v) {
    case 'string':
      return v;
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      break;
  }
  const p = new Printer(meter);
  p.printArg(v, 'v');
  return p.text();
}

/** fmt.Sprint: operands separated by a space when neither neighbour is a string. */
export function sprint(args: readonly unknown[], meter: Meter): string {
  const p = new Printer(meter);
  let prevString = false;
  args.forEach((arg, i) => {
    const isString = typeof arg === 'string';
    if (i > 0 && !isString && !prevString) p.put(' ');
    p.printArg(arg, 'v');
    prevString = isString;
  });
  return p.text();
}

/** fmt.Sprintln: operands always separated by a space, then a newline. */
export function sprintln(args: readonly unknown[], meter: Meter): string {
  const p = new Printer(meter);
  args.forEach((arg, i) => {
    if (i > 0) p.put(' ');
    p.printArg(arg, 'v');
  });
  return p.text() + '\n';
}

function parsenum(s: string, start: number, end: number): { num: number; isnum: boolean; newi: number } {
  if (start >= end) return { num: 0, isnum: false, newi: end };
  let num = 0;
  let isnum = false;
  let newi = start;
  for (; newi < end && s.charCodeAt(newi) >= 0x30 && s.charCodeAt(newi) <= 0x39; newi++) {
    if (tooLarge(num)) return { num: 0, isnum: false, newi: end };
    num = num * 10 + (s.charCodeAt(newi) - 0x30);
    isnum = true;
  }
  return { num, isnum, newi };
}

function parseArgNumber(format: string, from: number): { index: number; wid: number; ok: boolean } {
  if (format.length - from < 3) return { index: 0, wid: 1, ok: false };
  for (let i = from + 1; i < format.length; i++) {
    if (format[i] === ']') {
      const r = parsenum(format, from + 1, i);
      if (!r.isnum || r.newi !== i) return { index: 0, wid: i - from + 1, ok: false };
      return { index: r.num - 1, wid: i - from + 1, ok: true };
    }
  }
  return { index: 0, wid: 1, ok: false };
}

function intFromArg(a: readonly unknown[], argNum: number): { num: number; isInt: boolean; newArgNum: number } {
  let num = 0;
  let isInt = false;
  let newArgNum = argNum;
  if (argNum < a.length) {
    const a1 = a[argNum];
    const v = a1 instanceof GoInt ? a1.value : a1;
    if (typeof v === 'bigint' && v >= -(2n ** 63n) && v < 2n ** 63n) {
      num = Number(v);
      isInt = true;
    }
    newArgNum = argNum + 1;
    if (tooLarge(num)) {
      num = 0;
      isInt = false;
    }
  }
  return { num, isInt, newArgNum };
}

/** fmt.Sprintf. */
export function sprintf(format: string, a: readonly unknown[], meter: Meter): string {
  const p = new Printer(meter);
  const end = format.length;
  let argNum = 0;
  let afterIndex = false;
  p.reordered = false;
  const argNumber = (i: number): { argNum: number; i: number; found: boolean } => {
    if (i >= end || format[i] !== '[') return { argNum, i, found: false };
    p.reordered = true;
    const r = parseArgNumber(format, i);
    if (r.ok && r.index >= 0 && r.index < a.length) return { argNum: r.index, i: i + r.wid, found: true };
    p.goodArgNum = false;
    return { argNum, i: i + r.wid, found: r.ok };
  };
  for (let i = 0; i < end;) {
    p.goodArgNum = true;
    const lasti = i;
    while (i < end && format[i] !== '%') i++;
    if (i > lasti) p.put(format.slice(lasti, i));
    if (i >= end) break;
    i++; // the %
    p.clearFlags();
    flags: for (; i < end; i++) {
      switch (format[i]) {
        case '#':
          p.sharp = true;
          break;
        case '0':
          p.zero = !p.minus;
          break; // only pad with zeros on the left
        case '+':
          p.plus = true;
          break;
        case '-':
          p.minus = true;
          p.zero = false;
          break;
        case ' ':
          p.space = true;
          break;
        default:
          break flags;
      }
    }
    let r = argNumber(i);
    argNum = r.argNum;
    i = r.i;
    afterIndex = r.found;
    // width
    if (i < end && format[i] === '*') {
      i++;
      const w = intFromArg(a, argNum);
      p.wid = w.num;
      p.widPresent = w.isInt;
      argNum = w.newArgNum;
      if (!p.widPresent) p.put('%!(BADWIDTH)');
      if (p.wid < 0) {
        p.wid = -p.wid;
        p.minus = true;
        p.zero = false;
      }
      afterIndex = false;
    } else {
      const w = parsenum(format, i, end);
      p.wid = w.num;
      p.widPresent = w.isnum;
      i = w.newi;
      if (afterIndex && p.widPresent) p.goodArgNum = false; // "%[3]2d"
    }
    // precision
    if (i + 1 < end && format[i] === '.') {
      i++;
      if (afterIndex) p.goodArgNum = false; // "%[3].2d"
      r = argNumber(i);
      argNum = r.argNum;
      i = r.i;
      afterIndex = r.found;
      if (i < end && format[i] === '*') {
        i++;
        const pr = intFromArg(a, argNum);
        p.prec = pr.num;
        p.precPresent = pr.isInt;
        argNum = pr.newArgNum;
        if (p.prec < 0) {
          p.prec = 0;
          p.precPresent = false;
        }
        if (!p.precPresent) p.put('%!(BADPREC)');
        afterIndex = false;
      } else {
        const pr = parsenum(format, i, end);
        p.prec = pr.num;
        p.precPresent = pr.isnum;
        i = pr.newi;
        if (!p.precPresent) {
          p.prec = 0;
          p.precPresent = true;
        }
      }
    }
    if (!afterIndex) {
      r = argNumber(i);
      argNum = r.argNum;
      i = r.i;
      afterIndex = r.found;
    }
    if (i >= end) {
      p.put('%!(NOVERB)');
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    if (verb === '%') {
      p.put('%'); // takes no operand; width and precision are ignored
    } else if (!p.goodArgNum) {
      p.put('%!' + verb + '(BADINDEX)');
    } else if (argNum >= a.length) {
      p.put('%!' + verb + '(MISSING)');
    } else {
      if (verb === 'v') {
        // Go syntax (%#v) and struct field names (%+v).
        p.sharpV = p.sharp;
        p.sharp = false;
        p.plusV = p.plus;
        p.plus = false;
      }
      p.printArg(a[argNum], verb);
      argNum++;
    }
  }
  // Unused arguments are reported, unless they were addressed out of order.
  if (!p.reordered && argNum < a.length) {
    p.clearFlags();
    p.put('%!(EXTRA ');
    a.slice(argNum).forEach((arg, k) => {
      if (k > 0) p.put(', ');
      if (arg === null || arg === undefined) p.put('<nil>');
      else {
        p.put(goTypeName(arg) + '=');
        p.printArg(arg, 'v');
      }
    });
    p.put(')');
  }
  return p.text();
}
