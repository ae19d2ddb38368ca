// sprig's list, dict and reflection functions. Go maps iterate in random order; keys and values return
// sorted keys (and their values) instead, so our output is deterministic where Go's is not.
// merge and mergeOverwrite follow dario.cat/mergo 1.0.1 (sprig 3.3.0; sprig 3.2.3 had imdario/mergo
// 0.3, which never replaced a non-empty value by a map: mergeOverwrite of {a: "x"} with {a: {b: 1}}).
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
import { containerType, goNilMap, goNilSlice, goSlice, GoInt, GoKeyedMap, GoPointer, GoStringer, GoStruct, isGoMap, isNilContainer, sameContainerType, type GoMap } from '../go/reflect/value.ts';
import { compareBytes, goTypeName } from '../go/fmt/format.ts';
import { strval } from './strings.ts';
import { empty } from './defaults.ts';
import { toInt64 } from './math.ts';
import { chargeBuilt, chargeNode, chargeRead, ELEMENT_UNITS } from '../go/internal/cost.ts';

const isNil = (v: unknown) => v === null || v === undefined;

/** sprig reflects on a nil list without checking; Go reports the resulting panic like this. */
function nilDeref(): never {
  throw new GoCallError('runtime error: invalid memory address or nil pointer dereference');
}

/** reflect.Kind's name for our values. */
export function goKind(v: unknown): string {
  if (isNil(v)) return 'invalid';
  switch (typeof v) {
    case 'string': return 'string';
    case 'bigint': return 'int';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
  }
  if (v instanceof GoInt) return v.type;
  if (Array.isArray(v) || v instanceof Uint8Array) return 'slice';
  if (isGoMap(v) || v instanceof GoKeyedMap) return 'map';
  if (v instanceof GoPointer) return 'ptr';
  if (v instanceof GoStringer) return goKind(v.value);
  return goTypeName(v).startsWith('*') ? 'ptr' : 'struct';
}

/** The elements of a slice argument; `what` completes sprig's "Cannot <what> type <kind>" error. */
function elements(v: unknown, what: string): unknown[] {
  if (isNil(v)) nilDeref();
  if (Array.isArray(v)) return v;
  if (v instanceof Uint8Array) return Array.from(v, (b) => new GoInt('uint8', BigInt(b)));
  throw new GoCallError(`Cannot ${what} type ${goKind(v)}`);
}

/** reflect.DeepEqual on our values: same kind and type, then deep contents. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return !(typeof a === 'number' && Number.isNaN(a));
  chargeRead(ELEMENT_UNITS);
  if (isNil(a) || isNil(b)) return isNil(a) && isNil(b);
  if (a instanceof GoInt || b instanceof GoInt) return a instanceof GoInt && b instanceof GoInt && a.type === b.type && a.value === b.value;
  // Slices and maps: the same type, both nil or both not, and the same contents.
  if (typeof a === 'object' && typeof b === 'object' && (containerType(a)?.name !== containerType(b)?.name || isNilContainer(a) !== isNilContainer(b))) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (isGoMap(a) && isGoMap(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  if (a instanceof GoKeyedMap && b instanceof GoKeyedMap) {
    return a.size === b.size && a.keys.every((k, i) => {
      const r = b.get(k);
      return r.found && deepEqual(a.values[i], r.value);
    });
  }
  if (a instanceof GoStruct && b instanceof GoStruct) {
    const ka = Object.keys(a.fields);
    return a.typeName === b.typeName && ka.length === Object.keys(b.fields).length && ka.every((k) => deepEqual(a.fields[k], b.fields[k]));
  }
  if (a instanceof GoPointer && b instanceof GoPointer) return a.typeName === b.typeName && deepEqual(a.elem, b.elem);
  if (a instanceof GoStringer && b instanceof GoStringer) return a.typeName === b.typeName && deepEqual(a.value, b.value);
  return false;
}

function setKey(m: GoMap, k: string, v: unknown): void {
  Object.defineProperty(m, k, { value: v, enumerable: true, writable: true, configurable: true });
}

const has = (m: GoMap, k: string) => Object.prototype.hasOwnProperty.call(m, k);

function dict(...kv: unknown[]): GoMap {
  const m: GoMap = {};
  for (let i = 0; i < kv.length; i += 2) setKey(m, strval(kv[i]), i + 1 < kv.length ? kv[i + 1] : '');
  return m;
}

/** copystructure.Copy: maps and slices are copied all the way down, with their types (nil stays nil). */
function deepCopy(v: unknown): unknown {
  chargeNode();
  chargeBuilt(ELEMENT_UNITS);
  if (isNilContainer(v)) return v;
  if (Array.isArray(v)) return sameContainerType(v, v.map(deepCopy));
  if (v instanceof Uint8Array) return v.slice();
  if (isGoMap(v)) {
    const m: GoMap = {};
    for (const k of Object.keys(v)) setKey(m, k, deepCopy(v[k]));
    return sameContainerType(v, m);
  }
  if (v instanceof GoKeyedMap) {
    const m = new GoKeyedMap();
    v.keys.forEach((k, i) => m.set(k, deepCopy(v.values[i])));
    return m;
  }
  return v;
}

/** mergo's isEmptyValue, which looks through pointers (unlike sprig's empty). */
function mergoEmpty(v: unknown): boolean {
  if (v instanceof GoPointer) return v.elem === null || mergoEmpty(v.elem);
  if (v instanceof GoStruct) return false;
  return empty(v);
}

/** mergo.Merge / MergeWithOverwrite of map[string]interface{} values into dst (in place). */
function mergeInto(dst: GoMap, src: GoMap, overwrite: boolean): void {
  for (const k of Object.keys(src)) {
    chargeRead(ELEMENT_UNITS);
    const s = src[k];
    const present = has(dst, k);
    const d = dst[k];
    if (isNil(s)) {
      if (overwrite) setKey(dst, k, null);
      continue;
    }
    if (isGoMap(s)) {
      // A map merges into a map already there; a map there that is not empty is then kept.
      if (present && isGoMap(d)) {
        mergeInto(d, s, overwrite);
        if (!mergoEmpty(d)) continue;
      }
    } else if ((Array.isArray(s) || s instanceof Uint8Array) && present && !mergoEmpty(d) && !overwrite) {
      continue;
    }
    if (overwrite || !present || mergoEmpty(d)) setKey(dst, k, s);
  }
}

function merge(overwrite: boolean, dst: GoMap | null, srcs: Array<GoMap | null>): GoMap {
  const out = dst ?? {};
  for (const s of srcs) if (s !== null && s !== undefined) mergeInto(out, s, overwrite);
  return out;
}

function untilStep(start: bigint, stop: bigint, step: bigint): bigint[] {
  const out: bigint[] = goSlice('int', []);
  const more = stop < start ? (step >= 0n ? () => false : (i: bigint) => i > stop) : step <= 0n ? () => false : (i: bigint) => i < stop;
  for (let i = start; more(i); i += step) {
    out.push(i);
    // A bound of ours on a runaway range.
    if (out.length > 10_000_000) throw new GoCallError('untilStep: too many elements');
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

/** sprig's chunk: its float arithmetic decides the chunk count (and Go's makeslice the errors). */
function chunk(size: bigint, list: unknown): unknown[][] {
  const a = elements(list, 'chunk');
  const l = a.length;
  const sz = Number(size);
  const count = goFloatToInt(Math.floor((l - 1) / sz) + 1);
  const makeslice = (n: number) => {
    if (n < 0 || n > 1e9) throw new GoCallError('runtime error: makeslice: len out of range');
  };
  makeslice(count);
  const out: unknown[][] = goSlice('[]interface {}', []);
  for (let i = 0; i < count; i++) {
    let clen = sz;
    if (i === count - 1) {
      clen = goFloatToInt(Math.floor(l % sz));
      if (clen === 0) clen = sz;
    }
    makeslice(clen);
    const row: unknown[] = [];
    for (let j = 0; j < clen; j++) {
      const ix = i * sz + j;
      if (ix < 0 || ix >= l) throw new GoCallError(`reflect: slice index out of range`);
      row.push(a[ix]);
    }
    out.push(row);
  }
  return out;
}

/** int(f) on amd64: out-of-range and NaN become the minimum int64. */
function goFloatToInt(f: number): number {
  return Number.isNaN(f) || f >= 2 ** 63 || f < -(2 ** 63) ? Number.MIN_SAFE_INTEGER : Math.trunc(f);
}

function slice(l: unknown, ...idx: unknown[]): unknown {
  if (isNil(l)) nilDeref();
  if (!Array.isArray(l) && !(l instanceof Uint8Array)) throw new GoCallError(`list should be type of slice or array but ${goKind(l)}`);
  if (l.length === 0) return null;
  const start = idx.length > 0 ? toInt64(idx[0]) : 0n;
  const end = idx.length > 1 ? toInt64(idx[1]) : BigInt(l.length);
  if (start < 0n || end < start || end > BigInt(l.length)) throw new GoCallError('reflect.Value.Slice: slice index out of bounds');
  // reflect's Slice keeps the list's type.
  return l instanceof Uint8Array ? l.slice(Number(start), Number(end)) : sameContainerType(l, l.slice(Number(start), Number(end)));
}

function typeAssertionPanic(v: unknown, want: string): never {
  throw new GoCallError(`interface conversion: interface {} is ${isNil(v) ? 'nil' : goTypeName(v)}, not ${want}`);
}

function dig(...ps: unknown[]): unknown {
  if (ps.length < 3) throw new GoCallError('dig needs at least three arguments');
  const m = ps[ps.length - 1];
  if (!isGoMap(m)) typeAssertionPanic(m, 'map[string]interface {}');
  const def = ps[ps.length - 2];
  const keys = ps.slice(0, -2).map((k) => (typeof k === 'string' ? k : typeAssertionPanic(k, 'string')));
  let cur: GoMap = m;
  for (let i = 0; ; i++) {
    if (!has(cur, keys[i]!)) return def;
    const step = cur[keys[i]!];
    if (i === keys.length - 1) return step;
    if (!isGoMap(step)) typeAssertionPanic(step, 'map[string]interface {}');
    cur = step;
  }
}

const typeOf = (v: unknown) => (isNil(v) ? '<nil>' : goTypeName(v));

/** The list functions; each panics (plain) or errors (must*) alike, with the same message. */
function listFuncs(): FuncMap {
  const funcs: FuncMap = {
    push: goFunc(['any', 'any'], (l: unknown, v: unknown) => [...elements(l, 'push on'), v]),
    prepend: goFunc(['any', 'any'], (l: unknown, v: unknown) => [v, ...elements(l, 'prepend on')]),
    chunk: goFunc(['int', 'any'], chunk),
    first: goFunc(['any'], (l: unknown) => elements(l, 'find first on')[0] ?? null),
    last: goFunc(['any'], (l: unknown) => elements(l, 'find last on').at(-1) ?? null),
    // An empty list gives a nil slice.
    rest: goFunc(['any'], (l: unknown) => orNil(elements(l, 'find rest on').slice(1), l)),
    initial: goFunc(['any'], (l: unknown) => orNil(elements(l, 'find initial on').slice(0, -1), l)),
    reverse: goFunc(['any'], (l: unknown) => [...elements(l, 'find reverse on')].reverse()),
    compact: goFunc(['any'], (l: unknown) => elements(l, 'compact on').filter((x) => !empty(x))),
    uniq: goFunc(['any'], (l: unknown) => {
      const out: unknown[] = [];
      for (const x of elements(l, 'find uniq on')) if (!out.some((y) => deepEqual(x, y))) out.push(x);
      return out;
    }),
    without: goFunc(['any'], (l: unknown, ...omit: unknown[]) => elements(l, 'find without on').filter((x) => !omit.some((o) => deepEqual(x, o))), 'any'),
    has: goFunc(['any', 'any'], (needle: unknown, l: unknown) => (isNil(l) ? false : elements(l, 'find has on').some((x) => deepEqual(needle, x)))),
    slice: goFunc(['any'], slice, 'any'),
    merge: goFunc(['map[string]any'], (d: GoMap | null, ...s: Array<GoMap | null>) => merge(false, d, s), 'map[string]any'),
    mergeOverwrite: goFunc(['map[string]any'], (d: GoMap | null, ...s: Array<GoMap | null>) => merge(true, d, s), 'map[string]any'),
    deepCopy: goFunc(['any'], (v: unknown) => {
      // copystructure cannot copy an untyped nil.
      if (isNil(v)) throw new GoCallError('reflect: call of reflect.Value.Type on zero Value');
      return deepCopy(v);
    }),
  };
  const out: Record<string, FuncMap[string]> = { ...funcs, append: funcs.push! };
  for (const [name, f] of Object.entries(out)) out[`must${name[0]!.toUpperCase()}${name.slice(1)}`] = f;
  return out;
}

/** The result, or a nil []interface{} when `list` was empty. */
const orNil = (result: unknown[], list: unknown) => ((list as ArrayLike<unknown>).length === 0 ? goNilSlice() : result);

export const collectionFuncs: FuncMap = {
  list: goFunc([], (...v: unknown[]) => v, 'any'),
  tuple: goFunc([], (...v: unknown[]) => v, 'any'),
  ...listFuncs(),
  concat: goFunc([], (...ls: unknown[]) => {
    const out: unknown[] = [];
    for (const l of ls) {
      if (isNil(l)) nilDeref();
      if (!Array.isArray(l) && !(l instanceof Uint8Array)) throw new GoCallError(`Cannot concat type ${goKind(l)} as list`);
      out.push(...elements(l, 'concat'));
    }
    // Nothing appended: still the nil slice it started as.
    return out.length === 0 ? goNilSlice() : out;
  }, 'any'),
  until: goFunc(['int'], (n: bigint) => untilStep(0n, n, n < 0n ? -1n : 1n)),
  untilStep: goFunc(['int', 'int', 'int'], untilStep),
  seq: goFunc([], seq, 'int'),
  dict: goFunc([], dict, 'any'),
  get: goFunc(['map[string]any', 'string'], (m: GoMap | null, k: string) => (m && has(m, k) ? m[k] : '')),
  set: goFunc(['map[string]any', 'string', 'any'], (m: GoMap | null, k: string, v: unknown) => {
    if (m === null || isNilContainer(m)) throw new GoCallError('assignment to entry in nil map');
    setKey(m, k, v);
    return m;
  }),
  unset: goFunc(['map[string]any', 'string'], (m: GoMap | null, k: string) => {
    if (m === null) return goNilMap();
    delete m[k];
    return m;
  }),
  hasKey: goFunc(['map[string]any', 'string'], (m: GoMap | null, k: string) => m !== null && has(m, k)),
  pluck: goFunc(['string'], (k: string, ...ms: Array<GoMap | null>) => ms.filter((m) => m !== null && has(m, k)).map((m) => m![k]), 'map[string]any'),
  keys: goFunc([], (...ms: Array<GoMap | null>) => goSlice('string', ms.flatMap((m) => (m ? Object.keys(m).sort(compareBytes) : []))), 'map[string]any'),
  values: goFunc(['map[string]any'], (m: GoMap | null) => (m ? Object.keys(m).sort(compareBytes).map((k) => m[k]) : [])),
  pick: goFunc(['map[string]any'], (m: GoMap | null, ...ks: string[]) => {
    const out: GoMap = {};
    for (const k of ks) if (m !== null && has(m, k)) setKey(out, k, m[k]);
    return out;
  }, 'string'),
  omit: goFunc(['map[string]any'], (m: GoMap | null, ...ks: string[]) => {
    const out: GoMap = {};
    for (const k of Object.keys(m ?? {})) if (!ks.includes(k)) setKey(out, k, m![k]);
    return out;
  }, 'string'),
  dig: goFunc([], dig, 'any'),
  deepEqual: goFunc(['any', 'any'], deepEqual),
  kindOf: goFunc(['any'], goKind),
  kindIs: goFunc(['string', 'any'], (k: string, v: unknown) => goKind(v) === k),
  typeOf: goFunc(['any'], typeOf),
  typeIs: goFunc(['string', 'any'], (t: string, v: unknown) => t === typeOf(v)),
  typeIsLike: goFunc(['string', 'any'], (t: string, v: unknown) => t === typeOf(v) || '*' + t === typeOf(v)),
};
