// sprig's list and dict functions.
import { goFunc, GoCallError, type FuncMap } from '../functions.ts';
import { isGoMap, type GoMap } from '../values.ts';
import { compareBytes, goTypeName } from '../goFormat.ts';
import { strval } from './strings.ts';
import * as builtins from '../builtins.ts';

function asList(v: unknown, fn: string): unknown[] {
  if (v === null || v === undefined) nilDeref();
  if (Array.isArray(v)) return v;
  if (v instanceof Uint8Array) return Array.from(v, (b) => BigInt(b));
  throw new GoCallError(`Cannot ${fn} on type ${goKind(v)}`);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isGoMap(a) && isGoMap(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

// sprig reflects on a nil list without checking; Go reports the resulting panic like this.
function nilDeref(): never {
  throw new GoCallError('runtime error: invalid memory address or nil pointer dereference');
}

function newMap(): GoMap {
  return {};
}

function setKey(m: GoMap, k: string, v: unknown): void {
  Object.defineProperty(m, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function dict(...kv: unknown[]): GoMap {
  const m = newMap();
  for (let i = 0; i < kv.length; i += 2) setKey(m, strval(kv[i]), i + 1 < kv.length ? kv[i + 1] : '');
  return m;
}

function deepCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(deepCopy);
  if (isGoMap(v)) {
    const m = newMap();
    for (const k of Object.keys(v)) setKey(m, k, deepCopy(v[k]));
    return m;
  }
  return v;
}

function merge(overwrite: boolean, dst: GoMap, ...srcs: GoMap[]): GoMap {
  const mergeInto = (d: GoMap, s: GoMap) => {
    for (const k of Object.keys(s)) {
      const has = Object.prototype.hasOwnProperty.call(d, k);
      if (has && isGoMap(d[k]) && isGoMap(s[k])) mergeInto(d[k] as GoMap, s[k] as GoMap);
      else if (!has || overwrite || d[k] === null || builtins.truth(d[k]) === false) setKey(d, k, deepCopy(s[k]));
    }
  };
  for (const s of srcs) if (isGoMap(s)) mergeInto(dst, s);
  return dst;
}

function seq(...params: bigint[]): string {
  const n = params.map(Number);
  let [start, step, end] = [1, 1, 0];
  if (n.length === 1) end = n[0]!;
  else if (n.length === 2) [start, end] = [n[0]!, n[1]!];
  else if (n.length === 3) [start, step, end] = [n[0]!, n[1]!, n[2]!];
  else if (n.length === 0) return '';
  else throw new GoCallError('seq: too many arguments');
  if (n.length < 3 && end < start) step = -1;
  const out: number[] = [];
  if (step === 0) return '';
  for (let i = start; step > 0 ? i <= end : i >= end; i += step) {
    out.push(i);
    if (out.length > 1_000_000) throw new GoCallError('seq: too many elements');
  }
  return out.join(' ');
}

function untilStep(start: bigint, stop: bigint, step: bigint): bigint[] {
  const out: bigint[] = [];
  if (step === 0n) return out;
  for (let i = start; step > 0n ? i < stop : i > stop; i += step) {
    out.push(i);
    if (out.length > 1_000_000) throw new GoCallError('untilStep: too many elements');
  }
  return out;
}

export const collectionFuncs: FuncMap = {
  list: goFunc([], (...v: unknown[]) => v, 'any'),
  tuple: goFunc([], (...v: unknown[]) => v, 'any'),
  first: goFunc(['any'], (l: unknown) => (l === null || l === undefined ? nilDeref() : asList(l, 'find first')[0] ?? null)),
  rest: goFunc(['any'], (l: unknown) => (l === null || l === undefined ? nilDeref() : asList(l, 'find rest').slice(1))),
  last: goFunc(['any'], (l: unknown) => (l === null || l === undefined ? nilDeref() : asList(l, 'find last').at(-1) ?? null)),
  initial: goFunc(['any'], (l: unknown) => (l === null || l === undefined ? nilDeref() : asList(l, 'find initial').slice(0, -1))),
  append: goFunc(['any', 'any'], (l: unknown, v: unknown) => [...asList(l, 'push'), v]),
  push: goFunc(['any', 'any'], (l: unknown, v: unknown) => [...asList(l, 'push'), v]),
  prepend: goFunc(['any', 'any'], (l: unknown, v: unknown) => [v, ...asList(l, 'prepend')]),
  concat: goFunc([], (...ls: unknown[]) => ls.flatMap((l) => (l === null || l === undefined ? [] : asList(l, 'concat'))), 'any'),
  reverse: goFunc(['any'], (l: unknown) => [...asList(l, 'find reverse')].reverse()),
  uniq: goFunc(['any'], (l: unknown) => asList(l, 'find uniq').filter((x, i, a) => a.findIndex((y) => deepEqual(x, y)) === i)),
  without: goFunc(['any'], (l: unknown, ...omit: unknown[]) => asList(l, 'find without').filter((x) => !omit.some((o) => deepEqual(x, o))), 'any'),
  has: goFunc(['any', 'any'], (needle: unknown, l: unknown) => (l === null || l === undefined ? false : asList(l, 'find has').some((x) => deepEqual(x, needle)))),
  compact: goFunc(['any'], (l: unknown) => asList(l, 'compact').filter((x) => builtins.truth(x))),
  chunk: goFunc(['int', 'any'], (size: bigint, l: unknown) => {
    const a = asList(l, 'chunk');
    if (size <= 0n) throw new GoCallError('runtime error: makeslice: len out of range');
    const out: unknown[][] = [];
    for (let i = 0; i < a.length; i += Number(size)) out.push(a.slice(i, i + Number(size)));
    return out;
  }),
  until: goFunc(['int'], (n: bigint) => untilStep(0n, n, n < 0n ? -1n : 1n)),
  untilStep: goFunc(['int', 'int', 'int'], untilStep),
  seq: goFunc([], seq, 'int'),
  dict: goFunc([], dict, 'any'),
  get: goFunc(['map[string]any', 'string'], (m: GoMap | null, k: string) => (m && Object.prototype.hasOwnProperty.call(m, k) ? m[k] : '')),
  set: goFunc(['map[string]any', 'string', 'any'], (m: GoMap, k: string, v: unknown) => (setKey(m, k, v), m)),
  unset: goFunc(['map[string]any', 'string'], (m: GoMap, k: string) => (delete m[k], m)),
  hasKey: goFunc(['map[string]any', 'string'], (m: GoMap | null, k: string) => !!m && Object.prototype.hasOwnProperty.call(m, k)),
  pluck: goFunc(['string'], (k: string, ...ms: Array<GoMap | null>) => ms.filter((m) => m && Object.prototype.hasOwnProperty.call(m, k)).map((m) => m![k]), 'map[string]any'),
  keys: goFunc([], (...ms: Array<GoMap | null>) => ms.flatMap((m) => (m ? Object.keys(m).sort(compareBytes) : [])), 'map[string]any'),
  values: goFunc(['map[string]any'], (m: GoMap | null) => (m ? Object.keys(m).sort(compareBytes).map((k) => m[k]) : [])),
  pick: goFunc(['map[string]any'], (m: GoMap, ...ks: string[]) => {
    const out = newMap();
    for (const k of ks) if (Object.prototype.hasOwnProperty.call(m, k)) setKey(out, k, m[k]);
    return out;
  }, 'string'),
  omit: goFunc(['map[string]any'], (m: GoMap, ...ks: string[]) => {
    const out = newMap();
    for (const k of Object.keys(m)) if (!ks.includes(k)) setKey(out, k, m[k]);
    return out;
  }, 'string'),
  merge: goFunc(['map[string]any'], (d: GoMap, ...s: GoMap[]) => merge(false, d, ...s), 'map[string]any'),
  mergeOverwrite: goFunc(['map[string]any'], (d: GoMap, ...s: GoMap[]) => merge(true, d, ...s), 'map[string]any'),
  deepCopy: goFunc(['any'], deepCopy),
  dig: goFunc(['any'], (...args: unknown[]) => {
    if (args.length < 3) throw new GoCallError('dig needs at least three arguments');
    const m = args[args.length - 1];
    const d = args[args.length - 2];
    let cur: unknown = m;
    for (const k of args.slice(0, -2)) {
      // sprig asserts each level is a map[string]interface{}.
      if (!isGoMap(cur)) throw new GoCallError(`interface conversion: interface {} is ${cur === null || cur === undefined ? 'nil' : goTypeName(cur)}, not map[string]interface {}`);
      if (!Object.prototype.hasOwnProperty.call(cur, strval(k))) return d;
      cur = cur[strval(k)];
    }
    return cur;
  }, 'any'),
  deepEqual: goFunc(['any', 'any'], deepEqual),
  // sprig's slice replaces the builtin for lists (and refuses strings).
  slice: goFunc(['any'], (l: unknown, ...idx: unknown[]) => {
    if (!Array.isArray(l)) throw new GoCallError(`list should be type of slice or array but ${goKind(l)}`);
    if (l.length === 0) return null;
    const n = idx.map((x) => Number(typeof x === 'bigint' ? x : 0));
    const start = n[0] ?? 0;
    const end = n.length > 1 ? n[1]! : l.length;
    if (start < 0 || end > l.length || start > end) throw new GoCallError(`runtime error: slice bounds out of range [${start}:${end}] with capacity ${l.length}`);
    return l.slice(start, end);
  }, 'any'),
  kindOf: goFunc(['any'], (v: unknown) => goKind(v)),
  kindIs: goFunc(['string', 'any'], (k: string, v: unknown) => goKind(v) === k),
  typeOf: goFunc(['any'], (v: unknown) => (v === null || v === undefined ? '<nil>' : goTypeName(v))),
  typeIs: goFunc(['string', 'any'], (t: string, v: unknown) => t === (v === null || v === undefined ? '<nil>' : goTypeName(v))),
  typeIsLike: goFunc(['string', 'any'], (t: string, v: unknown) => {
    const n = v === null || v === undefined ? '<nil>' : goTypeName(v);
    return t === n || t === '*' + n;
  }),
};

/** reflect.Kind names of our values. */
function goKind(v: unknown): string {
  if (v === null || v === undefined) return 'invalid';
  switch (typeof v) {
    case 'string': return 'string';
    case 'bigint': return 'int';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
  }
  if (Array.isArray(v) || v instanceof Uint8Array) return 'slice';
  if (isGoMap(v)) return 'map';
  return goTypeName(v).startsWith('*') ? 'ptr' : 'struct';
}
