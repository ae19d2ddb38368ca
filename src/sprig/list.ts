// sprig's list.go: list, push/append, prepend, chunk, first, last, rest, initial, sortAlpha, reverse, compact,
// uniq, without, has, slice and concat, each with its must* twin (the plain form panics, the must form returns
// the error, with the same message).
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
import { goNilSlice, goSlice, GoInt, sameContainerType } from '../go/reflect/value.ts';
import { compareBytes } from '../go/fmt/format.ts';
import { goKind } from '../go/reflect/kind.ts';
import { deepEqual } from '../go/reflect/deepEqual.ts';
import { toInt64 } from '../go/cast/cast.ts';
import { strval, toStrings } from './strings.ts';
import { empty } from './defaults.ts';

const isNil = (v: unknown) => v === null || v === undefined;

/** sprig reflects on a nil list without checking; Go reports the resulting panic like this. */
function nilDeref(): never {
  throw new GoCallError('runtime error: invalid memory address or nil pointer dereference');
}

/** The elements of a slice argument; `what` completes sprig's "Cannot <what> type <kind>" error. */
function elements(v: unknown, what: string): unknown[] {
  if (isNil(v)) nilDeref();
  if (Array.isArray(v)) return v;
  if (v instanceof Uint8Array) return Array.from(v, (b) => new GoInt('uint8', BigInt(b)));
  throw new GoCallError(`Cannot ${what} type ${goKind(v)}`);
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

/** sprig's sortAlpha: a list's strings sorted byte-wise; anything else becomes a one-element list. */
function sortAlpha(v: unknown): string[] {
  // sort.Strings sorts a []string in place.
  if (Array.isArray(v) || v instanceof Uint8Array) return toStrings(v).sort(compareBytes);
  return goSlice('string', [strval(v)]);
}

/** The result, or a nil []interface{} when `list` was empty. */
const orNil = (result: unknown[], list: unknown) => ((list as ArrayLike<unknown>).length === 0 ? goNilSlice() : result);

/** The functions that have a must* twin. */
function withMustTwins(): FuncMap {
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
  };
  const out: Record<string, FuncMap[string]> = { ...funcs, append: funcs.push! };
  for (const [name, f] of Object.entries(out)) out[`must${name[0]!.toUpperCase()}${name.slice(1)}`] = f;
  return out;
}

export const listFuncs: FuncMap = {
  list: goFunc([], (...v: unknown[]) => v, 'any'),
  ...withMustTwins(),
  sortAlpha: goFunc(['any'], sortAlpha),
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
};
