// What a call of a Go function may spend (GoFunction.cost), in the units of src/go/internal/meter.ts: charged
// before the call from its arguments, as an upper bound of the work it does and of what it builds, so that a
// call whose result would not fit in what is left is refused before it is built. Here are the sizes of Go
// values those bounds are made of and the common shapes; a function with a shape of its own declares it where
// it is defined (src/sprig/, src/template/builtins.ts, the methods of src/go/time/ and src/sprig/semver.ts).
import { ELEMENT_BYTES, ENTRY_BYTES, type Meter } from '../internal/meter.ts';
import { GoKeyedMap, goMapSize, isGoMap } from './value.ts';

export type CallCost = (meter: Meter, args: readonly unknown[]) => void;

/**
 * The size of a value itself, not of what it refers to, in memory units: a string's length, a byte slice's
 * bytes, ELEMENT_BYTES per slice element and ENTRY_BYTES per map entry.
 */
export function sizeOf(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (typeof v !== 'object' || v === null) return 0;
  if (Array.isArray(v)) return v.length * ELEMENT_BYTES;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof GoKeyedMap) return v.size * ENTRY_BYTES;
  if (isGoMap(v)) return goMapSize(v) * ENTRY_BYTES;
  return 0;
}

/** The sizes of all arguments. */
export function argsSize(args: readonly unknown[]): number {
  let n = 0;
  for (let i = 0; i < args.length; i++) n += sizeOf(args[i]);
  return n;
}

/** A string argument's length (0 for anything else: a nil []string, a number). */
export const lengthOf = (v: unknown): number => (typeof v === 'string' ? v.length : 0);

/** A call whose work does not grow with its arguments (an element, a length or a key looked up, a number). */
export const CONSTANT: CallCost = () => {};

/** A call that reads its arguments: `k` units of work per unit of their size. */
export function reads(k: number): CallCost {
  return (m, args) => m.spend(k * argsSize(args));
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
 * A call that reads its arguments (`k` units of work per unit of their size) and builds a result of at most
 * `b` memory units per unit of their size (transient values included).
 */
export function readsAndBuilds(k: number, b: number): CallCost {
  return (m, args) => {
    const n = argsSize(args);
    m.spend(k * n);
    m.build(b * n);
  };
}
