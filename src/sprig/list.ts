// sprig's list.go: list, push/append, prepend, chunk, first, last, rest, initial, sortAlpha, reverse, compact,
// uniq, without, has, slice and concat, each with its must* twin (the plain form panics, the must form returns
// the error, with the same message).
import { goFunc, GoCallError, meteredFunc, type FuncMap } from '../go/reflect/func.ts';
import { CONSTANT, type CallCost } from '../go/reflect/callCost.ts';
import { ELEMENT_BYTES, VISIT_UNITS, type Meter } from '../go/internal/meter.ts';
import { goNilSlice, goSlice, goUint8, sameContainerType } from '../go/reflect/value.ts';
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

/** The elements of a list argument (a []byte's bytes are made into uint8 values, an element each). */
const elementCount = (v: unknown): number => (Array.isArray(v) ? v.length : v instanceof Uint8Array ? 2 * v.length : 0);

/** A call that makes a new list of (at most) the elements of its list arguments. */
const COPIES: CallCost = (m, args) => {
  let n = 0;
  for (const a of args) n += elementCount(a) + 1;
  m.spend(n * COPY_UNITS);
  m.build(n * ELEMENT_BYTES);
};
/** Work of copying an element (spread into a new array, measured at about 100 ns on a large list). */
const COPY_UNITS = 32;

/** compact: a new list, and every element's emptiness looked at (a map's, the first time, counted). */
const COMPACTS: CallCost = (m, args) => {
  COPIES(m, args);
  m.spend(elementCount(args[0]) * VISIT_UNITS);
};

/** A call that reads elements of its list arguments one by one (comparisons are charged as they are made). */
const SCANS: CallCost = (m, args) => {
  let n = 0;
  for (const a of args) n += elementCount(a);
  m.spend(n);
};

/** The elements of a slice argument; `what` completes sprig's "Cannot <what> type <kind>" error. */
function elements(v: unknown, what: string): unknown[] {
  if (isNil(v)) nilDeref();
  if (Array.isArray(v)) return v;
  if (v instanceof Uint8Array) return Array.from(v, goUint8);
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
  if (!Array.isArray(l) && !(l instanceof Uint8Array))
    throw new GoCallError(`list should be type of slice or array but ${goKind(l)}`);
  if (l.length === 0) return null;
  const start = idx.length > 0 ? toInt64(idx[0]) : 0n;
  const end = idx.length > 1 ? toInt64(idx[1]) : BigInt(l.length);
  if (start < 0n || end < start || end > BigInt(l.length))
    throw new GoCallError('reflect.Value.Slice: slice index out of bounds');
  // reflect's Slice keeps the list's type.
  return l instanceof Uint8Array
    ? l.slice(Number(start), Number(end))
    : sameContainerType(l, l.slice(Number(start), Number(end)));
}

/** sprig's sortAlpha: a list's strings sorted byte-wise; anything else becomes a one-element list. */
function sortAlpha(m: Meter, v: unknown): string[] {
  if (!(Array.isArray(v) || v instanceof Uint8Array)) return goSlice('string', [strval(v, m)]);
  const strings = toStrings(v, m);
  // n log n comparisons, each reading at most the shorter string.
  let chars = 0;
  for (const s of strings) chars += s.length;
  const log = Math.log2(strings.length + 1);
  m.spend(Math.ceil(log * (chars + SORT_UNITS * strings.length)));
  // sort.Strings sorts a []string in place.
  return strings.sort(compareBytes);
}

/** Work of one comparison of sortAlpha's sort, besides the characters it reads. */
const SORT_UNITS = 64;

/** The result, or a nil []interface{} when `list` was empty. */
const orNil = (result: unknown[], list: unknown) => ((list as ArrayLike<unknown>).length === 0 ? goNilSlice() : result);

/** The functions that have a must* twin. */
function withMustTwins(): FuncMap {
  const funcs: FuncMap = {
    push: goFunc(['any', 'any'], COPIES, (l: unknown, v: unknown) => [...elements(l, 'push on'), v]),
    prepend: goFunc(['any', 'any'], COPIES, (l: unknown, v: unknown) => [v, ...elements(l, 'prepend on')]),
    chunk: goFunc(['int', 'any'], chunkCost, chunk),
    first: goFunc(['any'], CONSTANT, (l: unknown) => element(l, 'find first on', 0)),
    last: goFunc(['any'], CONSTANT, (l: unknown) => element(l, 'find last on', -1)),
    // An empty list gives a nil slice.
    rest: goFunc(['any'], COPIES, (l: unknown) => orNil(elements(l, 'find rest on').slice(1), l)),
    initial: goFunc(['any'], COPIES, (l: unknown) => orNil(elements(l, 'find initial on').slice(0, -1), l)),
    reverse: goFunc(['any'], COPIES, (l: unknown) => [...elements(l, 'find reverse on')].reverse()),
    compact: goFunc(['any'], COMPACTS, (l: unknown) => elements(l, 'compact on').filter((x) => !empty(x))),
    // Each element compared with those kept (quadratic, as in sprig), each comparison charged as it is made.
    uniq: meteredFunc(['any'], COPIES, (m: Meter, l: unknown) => {
      const out: unknown[] = [];
      for (const x of elements(l, 'find uniq on')) if (!out.some((y) => deepEqual(x, y, m))) out.push(x);
      return out;
    }),
    without: meteredFunc(
      ['any'],
      COPIES,
      (m: Meter, l: unknown, ...omit: unknown[]) =>
        elements(l, 'find without on').filter((x) => !omit.some((o) => deepEqual(x, o, m))),
      'any',
    ),
    has: meteredFunc(['any', 'any'], SCANS, (m: Meter, needle: unknown, l: unknown) =>
      isNil(l) ? false : elements(l, 'find has on').some((x) => deepEqual(needle, x, m)),
    ),
    slice: goFunc(['any'], COPIES, slice, 'any'),
  };
  const out: Record<string, FuncMap[string]> = { ...funcs, append: funcs.push! };
  for (const [name, f] of Object.entries(out)) out[`must${name[0]!.toUpperCase()}${name.slice(1)}`] = f;
  return out;
}

/** chunk: the elements, and a list per chunk (at most one per element), an element at a time. */
const chunkCost: CallCost = (m, [, l]) => {
  m.spend(elementCount(l) * 256);
  m.build(2 * (elementCount(l) + 1) * ELEMENT_BYTES);
};

/** first and last: one element (a []byte's as a uint8). */
function element(l: unknown, what: string, at: 0 | -1): unknown {
  if (l instanceof Uint8Array) return l.length === 0 ? null : goUint8(l.at(at)!);
  return elements(l, what).at(at) ?? null;
}

export const listFuncs: FuncMap = {
  list: goFunc([], COPIES, (...v: unknown[]) => v, 'any'),
  ...withMustTwins(),
  sortAlpha: meteredFunc(['any'], COPIES, sortAlpha),
  concat: goFunc(
    [],
    COPIES,
    (...ls: unknown[]) => {
      const out: unknown[] = [];
      for (const l of ls) {
        if (isNil(l)) nilDeref();
        if (!Array.isArray(l) && !(l instanceof Uint8Array))
          throw new GoCallError(`Cannot concat type ${goKind(l)} as list`);
        for (const e of elements(l, 'concat')) out.push(e);
      }
      // Nothing appended: still the nil slice it started as.
      return out.length === 0 ? goNilSlice() : out;
    },
    'any',
  ),
};
