// Go's builtin template functions (text/template funcs.go) over our value model. Arguments arrive as the
// executor passes them: for `value` parameters (Go's reflect.Value) `undefined` is the invalid value and
// `null` a nil interface. A Go error return, or a panic Go's safeCall recovers, is thrown as GoCallError
// with Go's text. `and` and `or` are evaluated by the executor (they short-circuit).
import { GoCallError, type GoParamType } from '../go/reflect/func.ts';
import { CONSTANT, lengthOf, type CallCost } from '../go/reflect/callCost.ts';
import { TextBuilder } from '../go/internal/textBuilder.ts';
import { forEachRune } from '../go/unicode/unicode.ts';
import { ELEMENT_BYTES, type Meter } from '../go/internal/meter.ts';
import {
  elemType,
  GoInt,
  GoKeyedMap,
  goMapSize,
  goUint8,
  GoPointer,
  GoStringer,
  GoStruct,
  isGoMap,
  isNilContainer,
  mapGet,
  sameContainerType,
  zeroValue,
} from '../go/reflect/value.ts';
import { compareBytes, goTypeName, sprint, sprintf, sprintln } from '../go/fmt/format.ts';
import { canonicalGoString, goByteLength, goBytes, goString, hasRawBytes } from '../go/reflect/byteString.ts';
import { isGoPrintable } from '../go/strconv/format.ts';
import { GoComplex } from '../go/reflect/complex.ts';

/** A reflect.Value parameter: the function sees the value as is, invalid and nil included. */
export type BuiltinParam = 'value';

/** A builtin, declared like a GoFunction (src/go/reflect/func.ts): what a call costs is charged before it. */
export interface Builtin {
  readonly params: readonly (BuiltinParam | GoParamType)[];
  readonly variadic?: BuiltinParam | GoParamType;
  readonly cost: CallCost;
  /** `call` takes the execution's meter first and charges as it goes. */
  readonly metered?: boolean;
  readonly call: (...args: any[]) => unknown;
}

// ---------------------------------------------------------------- truth

/** Go's isTrue after indirectInterface: zero values, empty collections and nil are false; structs are true. */
export function isTrue(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  switch (typeof v) {
    case 'string':
      return v.length > 0;
    case 'boolean':
      return v;
    case 'bigint':
      return v !== 0n;
    case 'number':
      return v !== 0;
    default:
      break;
  }
  if (v instanceof GoInt) return v.value !== 0n;
  if (Array.isArray(v) || v instanceof Uint8Array) return v.length > 0;
  if (v instanceof GoPointer) return v.elem !== null;
  if (v instanceof GoStruct) return true;
  if (v instanceof GoStringer) return isTrue(v.value);
  if (v instanceof GoComplex) return v.re !== 0 || v.im !== 0;
  if (isGoMap(v)) return goMapSize(v) > 0;
  if (v instanceof GoKeyedMap) return v.size > 0;
  return true;
}

/** The truth of a value as `if`, `and`, `or` and `not` see it (kept under this name for function maps). */
export const truth = isTrue;

// ---------------------------------------------------------------- comparison

const enum Kind {
  Invalid,
  Bool,
  Complex,
  Int,
  Uint,
  Float,
  String,
}

// Values implementing fmt.Stringer compare by their underlying value (src/go/reflect/value.ts).
const comparisonValue = (v: unknown) => (v === null ? undefined : v instanceof GoStringer ? v.value : v);

function basicKind(v: unknown): Kind {
  switch (typeof v) {
    case 'boolean':
      return Kind.Bool;
    case 'bigint':
      return Kind.Int;
    case 'number':
      return Kind.Float;
    case 'string':
      return Kind.String;
    default:
      break;
  }
  if (v instanceof GoInt) return v.unsigned ? Kind.Uint : Kind.Int;
  return v instanceof GoComplex ? Kind.Complex : Kind.Invalid;
}

/** The value of an integer of any type (signed and unsigned integers compare by value in Go's eq and lt). */
const intValue = (v: unknown) => (v instanceof GoInt ? v.value : (v as bigint));

type ReflectKind = 'invalid' | 'slice' | 'map' | 'struct' | 'ptr' | 'other';

function reflectKind(v: unknown): ReflectKind {
  if (v === undefined) return 'invalid';
  if (Array.isArray(v) || v instanceof Uint8Array) return 'slice';
  if (v instanceof GoPointer) return 'ptr';
  if (v instanceof GoStruct) return 'struct';
  if (isGoMap(v) || v instanceof GoKeyedMap) return 'map';
  return 'other';
}

function isNilValue(v: unknown): boolean {
  return v === undefined || (v instanceof GoPointer && v.elem === null) || isNilContainer(v);
}

function comparableType(v: unknown): boolean {
  const k = reflectKind(v);
  if (k === 'slice' || k === 'map') return false;
  if (v instanceof GoStruct)
    return Object.values(v.fields).every((f) => f === null || f === undefined || comparableType(f));
  return true;
}

function valuesEqual(a: unknown, b: unknown): boolean {
  if (a instanceof GoPointer && b instanceof GoPointer) return a.elem === b.elem && a.typeName === b.typeName;
  if (a instanceof GoInt && b instanceof GoInt) return a.type === b.type && a.value === b.value;
  if (a instanceof GoStruct && b instanceof GoStruct) {
    if (a.typeName !== b.typeName) return false;
    const keys = Object.keys(a.fields);
    return keys.every((k) => valuesEqual(a.fields[k], b.fields[k]));
  }
  return a === b;
}

/** eq: arg1 == arg2 || arg1 == arg3 || ... (values named in an error are printed on the meter). */
export function eq(m: Meter, arg1: unknown, ...arg2: unknown[]): boolean {
  arg1 = comparisonValue(arg1);
  if (arg2.length === 0) throw new GoCallError('missing argument for comparison');
  const k1 = basicKind(arg1);
  for (let arg of arg2) {
    arg = comparisonValue(arg);
    const k2 = basicKind(arg);
    let t = false;
    if (k1 !== k2) {
      if ((k1 === Kind.Int && k2 === Kind.Uint) || (k1 === Kind.Uint && k2 === Kind.Int))
        t = intValue(arg1) === intValue(arg);
      else if (arg1 !== undefined && arg !== undefined) throw new GoCallError('incompatible types for comparison');
    } else if (k1 === Kind.Int || k1 === Kind.Uint) {
      t = intValue(arg1) === intValue(arg);
    } else if (k1 === Kind.Complex) {
      t = (arg1 as GoComplex).re === (arg as GoComplex).re && (arg1 as GoComplex).im === (arg as GoComplex).im;
    } else if (k1 === Kind.String) {
      t = arg1 === arg || sameBytes(arg1 as string, arg as string);
    } else if (k1 !== Kind.Invalid) {
      t = arg1 === arg;
    } else {
      const r1 = reflectKind(arg1);
      const r2 = reflectKind(arg);
      if (r1 !== r2 && r1 !== 'invalid' && r2 !== 'invalid') {
        throw new GoCallError(
          `non-comparable types ${sprintf('%s', [arg1], m)}: ${goTypeName(arg1)}, ${goTypeName(arg)}: ${sprintf('%v', [arg], m)}`,
        );
      }
      if (isNilValue(arg1) || isNilValue(arg)) t = isNilValue(arg1) === isNilValue(arg);
      else {
        if (!comparableType(arg))
          throw new GoCallError(`non-comparable type ${sprintf('%s', [arg], m)}: ${goTypeName(arg)}`);
        if (!comparableType(arg1))
          throw new GoCallError(`runtime error: comparing uncomparable type ${goTypeName(arg1)}`);
        t = valuesEqual(arg1, arg);
      }
    }
    if (t) return true;
  }
  return false;
}

export function ne(m: Meter, arg1: unknown, arg2: unknown): boolean {
  return !eq(m, arg1, arg2);
}

export function lt(arg1: unknown, arg2: unknown): boolean {
  arg1 = comparisonValue(arg1);
  const k1 = basicKind(arg1);
  if (k1 === Kind.Invalid) throw new GoCallError('invalid type for comparison');
  arg2 = comparisonValue(arg2);
  const k2 = basicKind(arg2);
  if (k2 === Kind.Invalid) throw new GoCallError('invalid type for comparison');
  const ints = (k1 === Kind.Int || k1 === Kind.Uint) && (k2 === Kind.Int || k2 === Kind.Uint);
  if (k1 !== k2 && !ints) throw new GoCallError('incompatible types for comparison');
  if (k1 === Kind.Bool || k1 === Kind.Complex) throw new GoCallError('invalid type for comparison');
  if (k1 === Kind.String) return compareStrings(arg1 as string, arg2 as string) < 0;
  if (ints) return intValue(arg1) < intValue(arg2);
  return (arg1 as number) < (arg2 as number);
}

/** Go compares strings bytewise (UTF-8), which differs from UTF-16 order above the BMP. */
const compareStrings = compareBytes;

/** Two different JS strings can hold the same bytes when raw bytes were joined into characters. */
function sameBytes(a: string, b: string): boolean {
  return (hasRawBytes(a) || hasRawBytes(b)) && canonicalGoString(a) === canonicalGoString(b);
}

export function le(m: Meter, arg1: unknown, arg2: unknown): boolean {
  return lt(arg1, arg2) || eq(m, arg1, arg2);
}

export function gt(m: Meter, arg1: unknown, arg2: unknown): boolean {
  return !le(m, arg1, arg2);
}

export function ge(arg1: unknown, arg2: unknown): boolean {
  return !lt(arg1, arg2);
}

export function not(arg: unknown): boolean {
  return !isTrue(arg);
}

// ---------------------------------------------------------------- len, index, slice

/** Go's indirect: follows pointers (and interfaces); stops at a nil one. */
function indirect(v: unknown): { v: unknown; isNil: boolean } {
  if (v === null) return { v, isNil: true };
  while (v instanceof GoPointer) {
    if (v.elem === null) return { v, isNil: true };
    v = v.elem;
  }
  return { v, isNil: false };
}

export function len(item: unknown): bigint {
  const r = indirect(item);
  if (r.isNil) throw new GoCallError('len of nil pointer');
  const v = r.v;
  if (v === undefined) throw new GoCallError('reflect: call of reflect.Value.Type on zero Value');
  if (typeof v === 'string') return BigInt(goByteLength(v));
  if (Array.isArray(v) || v instanceof Uint8Array) return BigInt(v.length);
  if (isGoMap(v)) return BigInt(goMapSize(v));
  if (v instanceof GoKeyedMap) return BigInt(v.size);
  throw new GoCallError(`len of type ${goTypeName(v)}`);
}

/** Go's indexArg: an integer index in [0, cap]. */
function indexArg(index: unknown, cap: number): number {
  let x: bigint;
  if (typeof index === 'bigint') x = index;
  else if (index instanceof GoInt) x = index.value;
  else if (index === undefined) throw new GoCallError('cannot index slice/array with nil');
  else throw new GoCallError(`cannot index slice/array with type ${goTypeName(index)}`);
  if (x < 0n || x > BigInt(cap)) throw new GoCallError(`index out of range: ${x}`);
  return Number(x);
}

/** index: each string indexed is read up to its bytes (charged before). */
export function index(m: Meter, item: unknown, ...indexes: unknown[]): unknown {
  if (item === null) item = undefined;
  if (item === undefined) throw new GoCallError('index of untyped nil');
  for (let idx of indexes) {
    if (idx === null) idx = undefined;
    const r = indirect(item);
    if (r.isNil) throw new GoCallError('index of nil pointer');
    const v = r.v;
    if (typeof v === 'string') {
      m.build(3 * v.length);
      const bytes = goBytes(v);
      const x = indexArg(idx, bytes.length);
      // indexArg allows x == len; reflect's Index then panics.
      if (x === bytes.length) throw new GoCallError('reflect: string index out of range');
      item = goUint8(bytes[x]!);
    } else if (Array.isArray(v) || v instanceof Uint8Array) {
      const x = indexArg(idx, v.length);
      if (x === v.length) throw new GoCallError('reflect: slice index out of range');
      item = v instanceof Uint8Array ? goUint8(v[x]!) : v[x];
    } else if (isGoMap(v)) {
      if (idx === undefined) throw new GoCallError('value is nil; should be of type string');
      if (typeof idx !== 'string') throw new GoCallError(`value has type ${goTypeName(idx)}; should be string`);
      const m = mapGet(v, idx);
      // A missing key gives the element type's zero value (nil for interface{}).
      item = m.found ? m.value : zeroValue(elemType(v));
    } else if (v instanceof GoKeyedMap) {
      // Any key converts to interface{}; a missing one gives nil.
      item = v.get(idx === undefined ? null : idx).value;
    } else {
      throw new GoCallError(`can't index item of type ${goTypeName(v)}`);
    }
  }
  return item;
}

/** Work per character of slicing a string (to bytes and back). */
const SLICE_STRING_UNITS = 16;

/** slice: a string's bytes, or the elements kept, are copied (charged before). */
export function slice(m: Meter, item: unknown, ...indexes: unknown[]): unknown {
  if (item === null) item = undefined;
  if (item === undefined) throw new GoCallError('slice of untyped nil');
  if (indexes.length > 3) throw new GoCallError(`too many slice indexes: ${indexes.length}`);
  let cap: number;
  let bytes: Buffer | undefined;
  if (typeof item === 'string') {
    if (indexes.length === 3) throw new GoCallError('cannot 3-index slice a string');
    // Its bytes made, and the slice of them made text again.
    m.spend(SLICE_STRING_UNITS * item.length);
    m.build(6 * item.length);
    bytes = goBytes(item);
    cap = bytes.length;
  } else if (Array.isArray(item) || item instanceof Uint8Array) {
    cap = item.length;
  } else {
    throw new GoCallError(`can't slice item of type ${goTypeName(item)}`);
  }
  const idx = [0, cap, cap];
  indexes.forEach((x, i) => {
    idx[i] = indexArg(x === null ? undefined : x, cap);
  });
  if (idx[0]! > idx[1]!) throw new GoCallError(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (indexes.length === 3 && idx[1]! > idx[2]!) throw new GoCallError(`invalid slice index: ${idx[1]} > ${idx[2]}`);
  if (bytes !== undefined) return goString(bytes.subarray(idx[0], idx[1]));
  m.build((idx[1]! - idx[0]!) * (item instanceof Uint8Array ? 1 : ELEMENT_BYTES));
  if (item instanceof Uint8Array) return item.slice(idx[0], idx[1]);
  // Slicing keeps the slice's type; slicing a nil slice to nothing keeps it nil.
  if (isNilContainer(item)) return item;
  return sameContainerType(item as unknown[], (item as unknown[]).slice(idx[0], idx[1]));
}

// ---------------------------------------------------------------- call

export function call(fn: unknown): never {
  if (fn === null || fn === undefined) throw new GoCallError('call of nil');
  // Template data holds no Go functions, so there is nothing else it could call.
  throw new GoCallError(`non-function of type ${goTypeName(fn)}`);
}

// ---------------------------------------------------------------- escaping

/**
 * html/js/urlquery's evalArgs: one string as is, otherwise fmt.Sprint of the printable values; then the
 * escaped text, at most `growth` times longer, is charged before it is made.
 */
function evalArgs(args: unknown[], m: Meter, growth: number, units: number): string {
  const s =
    args.length === 1 && typeof args[0] === 'string'
      ? args[0]
      : sprint(
          args.map((a) => {
            let v = a;
            if (v instanceof GoPointer) v = indirect(v).v;
            return v === null || v === undefined ? '<no value>' : v;
          }),
          m,
        );
  m.spend(units * s.length);
  m.build(growth * s.length);
  return s;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '\0': '\uFFFD',
  '"': '&#34;',
  "'": '&#39;',
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
};

export function html(m: Meter, ...args: unknown[]): string {
  const s = evalArgs(args, m, 6, 16);
  if (!/[\0"'&<>]/.test(s)) return s;
  const out = new TextBuilder();
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const e = HTML_ESCAPES[s[i]!];
    if (e === undefined) continue;
    if (i > run) out.append(s.slice(run, i));
    out.append(e);
    run = i + 1;
  }
  if (s.length > run) out.append(s.slice(run));
  return out.toString();
}

const JS_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  "'": "\\'",
  '"': '\\"',
  '<': '\\u003C',
  '>': '\\u003E',
  '&': '\\u0026',
  '=': '\\u003D',
};

export function js(m: Meter, ...args: unknown[]): string {
  const s = canonicalGoString(evalArgs(args, m, 12, 32));
  const out = new TextBuilder();
  forEachRune(s, (cp, next) => {
    const ch = s.slice(next - (cp > 0xffff ? 2 : 1), next);
    const e = cp < 0x80 ? JS_ESCAPES[ch] : undefined;
    if (e !== undefined) out.append(e);
    // A raw byte decodes as U+FFFD, which is printable: the byte is written as it is.
    else if (cp === 0xfffd && ch !== '\ufffd') out.append(ch);
    else if (cp < 0x20) out.append('\\u00' + cp.toString(16).toUpperCase().padStart(2, '0'));
    else if (cp < 0x80 || isGoPrintable(cp)) out.append(ch);
    else out.append('\\u' + cp.toString(16).toUpperCase().padStart(4, '0'));
  });
  return out.toString();
}

const URL_SAFE = Uint8Array.from({ length: 256 }, (_, b) =>
  (b >= 0x30 && b <= 0x39) ||
  (b >= 0x41 && b <= 0x5a) ||
  (b >= 0x61 && b <= 0x7a) ||
  b === 0x2d ||
  b === 0x5f ||
  b === 0x2e ||
  b === 0x7e
    ? 1
    : 0,
);
const HEX_UPPER = '0123456789ABCDEF';

export function urlquery(m: Meter, ...args: unknown[]): string {
  // url.QueryEscape: letters, digits and -_.~ stay; space becomes '+'; every other byte is %XX.
  const bytes = goBytes(evalArgs(args, m, 12, 32));
  const out = Buffer.allocUnsafe(3 * bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (URL_SAFE[b] === 1) out[n++] = b;
    else if (b === 0x20) out[n++] = 0x2b;
    else {
      out[n++] = 0x25;
      out[n++] = HEX_UPPER.charCodeAt(b >> 4);
      out[n++] = HEX_UPPER.charCodeAt(b & 15);
    }
  }
  return out.toString('latin1', 0, n);
}

// ---------------------------------------------------------------- the table

const unreachable = () => {
  throw new Error('and/or are evaluated by the executor');
};

/** Comparisons read their string operands (and print the operands of a non-comparable error, charged). */
const COMPARES: CallCost = (m, args) => {
  let n = 0;
  for (let i = 0; i < args.length; i++) n += lengthOf(args[i]);
  m.spend(COMPARE_UNITS * n);
};
const COMPARE_UNITS = 4;

/** len reads a string's bytes (Go's UTF-8 length); a slice's or a map's length is at hand. */
const LEN: CallCost = (m, [v]) => {
  m.spend(lengthOf(v));
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && isGoMap(v)) goMapSize(v, m);
};

/** The printing builtins read their format; fmt charges what it prints as it prints it. */
const PRINTS: CallCost = (m, args) => m.spend(lengthOf(args[0]));

const metered = (
  params: Builtin['params'],
  cost: CallCost,
  call: Builtin['call'],
  variadic?: Builtin['variadic'],
): Builtin =>
  variadic === undefined ? { params, cost, metered: true, call } : { params, variadic, cost, metered: true, call };

export const BUILTINS: Readonly<Record<string, Builtin>> = Object.freeze({
  and: { params: ['value'], variadic: 'value', cost: CONSTANT, call: unreachable },
  call: { params: ['value'], variadic: 'value', cost: CONSTANT, call },
  html: metered([], CONSTANT, html, 'any'),
  index: metered(['value'], CONSTANT, index, 'value'),
  slice: metered(['value'], CONSTANT, slice, 'value'),
  js: metered([], CONSTANT, js, 'any'),
  len: { params: ['value'], cost: LEN, call: len },
  not: { params: ['value'], cost: CONSTANT, call: not },
  or: { params: ['value'], variadic: 'value', cost: CONSTANT, call: unreachable },
  print: metered([], PRINTS, (m: Meter, ...a: unknown[]) => sprint(a, m), 'any'),
  printf: metered(['string'], PRINTS, (m: Meter, f: string, ...a: unknown[]) => sprintf(f, a, m), 'any'),
  println: metered([], PRINTS, (m: Meter, ...a: unknown[]) => sprintln(a, m), 'any'),
  urlquery: metered([], CONSTANT, urlquery, 'any'),
  eq: metered(['value'], COMPARES, eq, 'value'),
  ge: { params: ['value', 'value'], cost: COMPARES, call: ge },
  gt: metered(['value', 'value'], COMPARES, gt),
  le: metered(['value', 'value'], COMPARES, le),
  lt: { params: ['value', 'value'], cost: COMPARES, call: lt },
  ne: metered(['value', 'value'], COMPARES, ne),
});
