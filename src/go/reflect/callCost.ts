// What a call of a Go function may spend (GoFunction.cost), in the units of src/go/internal/meter.ts: charged
// before the call from its arguments, as an upper bound of the work it does and of what it builds, so that a
// call whose result would not fit in what is left is refused before it is built. Here are the sizes of Go
// values those bounds are made of and the common shapes; a function with a shape of its own declares it where
// it is defined (src/sprig/, src/template/builtins.ts, the methods of src/go/time/ and src/sprig/semver.ts).
// Ours: no Go counterpart (Go charges nothing).
import { ELEMENT_BYTES, ENTRY_BYTES, type Meter } from '../internal/meter.ts';
import { GoKeyedMap, goMapSize, isGoMap } from './value.ts';
import { hasRawBytes } from './byteString.ts';
import type { CallCost } from './func.ts';

export type { CallCost } from './func.ts';

/**
 * The size of a value itself, not of what it refers to, in memory units: a string's length, a byte slice's
 * bytes, ELEMENT_BYTES per slice element and ENTRY_BYTES per map entry (a map's count, when first made, charged
 * on `meter`).
 */
export function sizeOf(v: unknown, meter?: Meter): number {
  if (typeof v === 'string') return v.length;
  if (typeof v !== 'object' || v === null) return 0;
  if (Array.isArray(v)) return v.length * ELEMENT_BYTES;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof GoKeyedMap) return v.size * ENTRY_BYTES;
  if (isGoMap(v)) return goMapSize(v, meter) * ENTRY_BYTES;
  return 0;
}

/** The sizes of all arguments. */
export function argsSize(args: readonly unknown[], meter?: Meter): number {
  let n = 0;
  for (let i = 0; i < args.length; i++) n += sizeOf(args[i], meter);
  return n;
}

/** A string argument's length (0 for anything else: a nil []string, a number). */
export const lengthOf = (v: unknown): number => (typeof v === 'string' ? v.length : 0);

/**
 * A call whose work does not grow with its arguments (an element, a length or a key looked up, a number, a
 * map's emptiness), but for the first count of a map's entries (value.ts's goMapSize).
 */
export const CONSTANT: CallCost = (m, args) => {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (typeof a === 'object' && a !== null && !Array.isArray(a) && isGoMap(a)) goMapSize(a, m);
  }
};

/** A call that reads its arguments: `k` units of work per unit of their size. */
export function reads(k: number): CallCost {
  return (m, args) => m.spend(k * argsSize(args, m));
}

/** A call that reads its string arguments only: `k` units of work per character. */
export function readsStrings(k: number): CallCost {
  return (m, args) => {
    let n = 0;
    for (let i = 0; i < args.length; i++) n += lengthOf(args[i]);
    m.spend(k * n);
  };
}

/**
 * A call that reads its string arguments as Go's bytes: `k` units of work per character, and, when raw bytes
 * take part (byteString.ts), the bytes themselves (up to 3 per character) are made to be searched byte-wise.
 */
export function readsBytes(k: number): CallCost {
  return (m, args) => {
    let n = 0;
    let raw = false;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (typeof a !== 'string') continue;
      n += a.length;
      raw ||= hasRawBytes(a);
    }
    m.spend(k * n);
    if (raw) m.build(3 * n);
  };
}

/**
 * readsAndBuilds for functions of Go strings that go through bytes when raw bytes take part (byteString.ts):
 * then every character is converted to bytes and back, RAW_BYTES_UNITS each.
 */
export function readsAndBuildsBytes(k: number, b: number): CallCost {
  const plain = readsAndBuilds(k, b);
  return (m, args) => {
    plain(m, args);
    let raw = false;
    for (let i = 0; i < args.length && !raw; i++) raw = typeof args[i] === 'string' && hasRawBytes(args[i] as string);
    if (raw) m.spend(RAW_BYTES_UNITS * argsSize(args, m));
  };
}
const RAW_BYTES_UNITS = 32;

/**
 * A call that reads its arguments (`k` units of work per unit of their size) and builds a result of at most
 * `b` memory units per unit of their size (transient values included).
 */
export function readsAndBuilds(k: number, b: number): CallCost {
  return (m, args) => {
    const n = argsSize(args, m);
    m.spend(k * n);
    m.build(b * n);
  };
}
