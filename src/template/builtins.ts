// Go's builtin template functions (text/template funcs.go) over our value model. `and`, `or` and `call`
// are handled by the executor (they short-circuit or need it); everything here throws GoCallError with
// Go's message on failure.
import { GoCallError } from './functions.ts';
import { GoPointer, GoStringer, GoStruct, isGoMap, mapGet } from './values.ts';
import { goTypeName, sprint, sprintf, sprintln } from './goFormat.ts';

/** Go's truth: zero values, empty collections and nil are false; structs are true. */
export function truth(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  switch (typeof v) {
    case 'string': return v.length > 0;
    case 'boolean': return v;
    case 'bigint': return v !== 0n;
    case 'number': return v !== 0;
  }
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Uint8Array) return v.length > 0;
  if (v instanceof GoPointer) return v.elem !== null;
  if (v instanceof GoStruct) return true;
  if (v instanceof GoStringer) return truth(v.value);
  if (isGoMap(v)) return Object.keys(v).length > 0;
  return true;
}

type Kind = 'bool' | 'int' | 'float' | 'string' | 'other' | 'invalid';

function basicKind(v: unknown): Kind {
  if (v === undefined) return 'invalid';
  switch (typeof v) {
    case 'boolean': return 'bool';
    case 'bigint': return 'int';
    case 'number': return 'float';
    case 'string': return 'string';
  }
  if (v instanceof GoStringer) return basicKind(v.value);
  return 'other';
}

const unwrapStringer = (v: unknown) => (v instanceof GoStringer ? v.value : v);

function isNilValue(v: unknown): boolean {
  return v === null || (v instanceof GoPointer && v.elem === null);
}

function comparable(v: unknown): boolean {
  return !(Array.isArray(v) || isGoMap(v) || v instanceof Uint8Array);
}

// A nil interface is indirected to the invalid value before comparing, as Go's indirectInterface does.
const invalidIfNil = (v: unknown) => (v === null ? undefined : v);

export function eq(arg1: unknown, ...rest: unknown[]): boolean {
  if (rest.length === 0) throw new GoCallError('missing argument for comparison');
  arg1 = invalidIfNil(unwrapStringer(arg1));
  const k1 = basicKind(arg1);
  for (let arg of rest) {
    arg = invalidIfNil(unwrapStringer(arg));
    const k2 = basicKind(arg);
    let t = false;
    if (k1 !== k2) {
      if (arg1 !== undefined && arg !== undefined && !(isNilValue(arg1) || isNilValue(arg))) {
        throw new GoCallError('incompatible types for comparison');
      }
      if (k1 === 'other' && k2 === 'other') t = isNilValue(arg1) === isNilValue(arg);
      else if ((k1 === 'other' && isNilValue(arg1)) || (k2 === 'other' && isNilValue(arg))) {
        if (arg1 !== undefined && arg !== undefined) throw new GoCallError('incompatible types for comparison');
      }
    } else {
      switch (k1) {
        case 'bool': case 'int': case 'float': case 'string': t = arg1 === arg; break;
        case 'invalid': t = true; break;
        default:
          if (!comparable(arg1)) throw new GoCallError(`non-comparable type ${describe(arg1)}: ${goTypeName(arg1)}`);
          if (!comparable(arg)) throw new GoCallError(`non-comparable type ${describe(arg)}: ${goTypeName(arg)}`);
          if (isNilValue(arg1) || isNilValue(arg)) t = isNilValue(arg1) === isNilValue(arg);
          else t = arg1 === arg || (arg1 instanceof GoPointer && arg instanceof GoPointer && arg1.elem === arg.elem);
      }
    }
    if (t) return true;
  }
  return false;
}

function describe(v: unknown): string {
  // Go formats the reflect.Value with %s, so elements show as %!s(int=1).
  return v === null ? '<nil>' : v === undefined ? '<invalid reflect.Value>' : sprintf('%s', [v]);
}

export function ne(a: unknown, b: unknown): boolean {
  return !eq(a, b);
}

export function lt(a: unknown, b: unknown): boolean {
  a = unwrapStringer(a);
  b = unwrapStringer(b);
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === 'other' || k1 === 'invalid' || k2 === 'other' || k2 === 'invalid') throw new GoCallError('invalid type for comparison');
  if (k1 !== k2) throw new GoCallError('incompatible types for comparison');
  if (k1 === 'bool') throw new GoCallError('invalid type for comparison');
  return (a as number) < (b as number);
}

export function le(a: unknown, b: unknown): boolean {
  return lt(a, b) || eq(a, b);
}

export function gt(a: unknown, b: unknown): boolean {
  return !le(a, b);
}

export function ge(a: unknown, b: unknown): boolean {
  return !lt(a, b);
}

export function not(a: unknown): boolean {
  return !truth(a);
}

function indirect(v: unknown): unknown {
  while (v instanceof GoPointer && v.elem !== null) v = v.elem;
  return v;
}

export function len(item: unknown): bigint {
  if (item === undefined) throw new GoCallError('reflect: call of reflect.Value.Type on zero Value');
  const v = indirect(item);
  if (v === undefined || v === null || (v instanceof GoPointer && v.elem === null)) throw new GoCallError('len of nil pointer');
  if (typeof v === 'string') return BigInt(Buffer.byteLength(v, 'utf8'));
  if (Array.isArray(v) || v instanceof Uint8Array) return BigInt(v.length);
  if (isGoMap(v)) return BigInt(Object.keys(v).length);
  throw new GoCallError(`len of type ${goTypeName(v)}`);
}

function indexArg(index: unknown, cap: number): number {
  index = unwrapStringer(index);
  let x: bigint;
  if (typeof index === 'bigint') x = index;
  else if (index === undefined || index === null) throw new GoCallError('cannot index slice/array with nil');
  else throw new GoCallError(`cannot index slice/array with type ${goTypeName(index)}`);
  if (x < 0n || x >= BigInt(cap)) throw new GoCallError(`index out of range: ${x}`);
  return Number(x);
}

export function index(item: unknown, ...indexes: unknown[]): unknown {
  let v = indirect(item);
  if (v === undefined || v === null) throw new GoCallError('index of untyped nil');
  for (const idx of indexes) {
    v = indirect(v);
    if (typeof v === 'string') {
      v = BigInt(Buffer.from(v, 'utf8')[indexArg(idx, Buffer.byteLength(v, 'utf8'))]!);
    } else if (v instanceof Uint8Array) {
      v = BigInt(v[indexArg(idx, v.length)]!);
    } else if (Array.isArray(v)) {
      v = v[indexArg(idx, v.length)];
    } else if (isGoMap(v)) {
      const key = unwrapStringer(idx);
      if (key === undefined || key === null) throw new GoCallError('value is nil; should be of type string');
      if (typeof key !== 'string') throw new GoCallError(`value has type ${goTypeName(key)}; should be string`);
      const r = mapGet(v, key);
      // A missing key yields the zero value of the element type: nil for interface{}.
      v = r.found ? r.value : null;
    } else if (v === null) {
      throw new GoCallError('index of nil pointer');
    } else {
      throw new GoCallError(`can't index item of type ${goTypeName(v)}`);
    }
  }
  return v;
}

export function slice(item: unknown, ...indexes: unknown[]): unknown {
  const v = indirect(item);
  if (v === undefined || v === null) throw new GoCallError('slice of untyped nil');
  if (indexes.length > 3) throw new GoCallError(`too many slice indexes: ${indexes.length}`);
  let cap: number;
  if (typeof v === 'string') {
    if (indexes.length === 3) throw new GoCallError('cannot 3-index slice a string');
    cap = Buffer.byteLength(v, 'utf8');
  } else if (Array.isArray(v) || v instanceof Uint8Array) cap = v.length;
  else throw new GoCallError(`can't slice item of type ${goTypeName(v)}`);
  const idx = [0, cap];
  indexes.forEach((x, i) => {
    idx[i] = indexArg(x, cap + 1);
  });
  if (idx[0]! > idx[1]!) throw new GoCallError(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (indexes.length === 3 && idx[1]! > idx[2]!) throw new GoCallError(`invalid slice index: ${idx[1]} > ${idx[2]}`);
  if (typeof v === 'string') return Buffer.from(v, 'utf8').subarray(idx[0], idx[1]).toString('utf8');
  return v.slice(idx[0], idx[1]);
}

/** Arguments of html/js/urlquery: a single string as is, otherwise fmt.Sprint of all. */
function evalArgs(args: unknown[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  // Go's printableValue: nil prints as <no value>, pointers are followed.
  return sprint(args.map((a) => {
    let v = a;
    while (v instanceof GoPointer && v.elem !== null) v = v.elem;
    return v === null || v === undefined ? '<no value>' : v;
  }));
}

export function html(...args: unknown[]): string {
  return evalArgs(args).replace(/[\0"'&<>]/g, (c) => ({ '\0': '\uFFFD', '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

export function js(...args: unknown[]): string {
  let out = '';
  for (const ch of evalArgs(args)) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '\\': out += '\\\\'; continue;
      case "'": out += "\\'"; continue;
      case '"': out += '\\"'; continue;
      case '<': out += '\\u003C'; continue;
      case '>': out += '\\u003E'; continue;
      case '&': out += '\\u0026'; continue;
      case '=': out += '\\u003D'; continue;
    }
    if (cp < 0x20 || cp === 0x7f || cp === 0x2028 || cp === 0x2029) {
      out += '\\u' + cp.toString(16).toUpperCase().padStart(4, '0');
    } else out += ch;
  }
  return out;
}

export function urlquery(...args: unknown[]): string {
  // url.QueryEscape: unreserved bytes stay, space becomes '+', the rest %XX (uppercase).
  let out = '';
  for (const b of Buffer.from(evalArgs(args), 'utf8')) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

export function print(...args: unknown[]): string {
  return sprint(args);
}

export function println(...args: unknown[]): string {
  return sprintln(args);
}

export function printf(format: string, ...args: unknown[]): string {
  return sprintf(format, args);
}
