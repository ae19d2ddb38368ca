// What an execution costs, beyond its step count: one step can call a function on a huge value, or print a
// shared structure that expands exponentially. Each call is charged for the size of what it reads (its
// arguments) and builds (its result); walks that expand structures (printing, encoders, deep copies and
// comparisons) charge per element as they go, so they stop before their output exists. Two budgets:
//   work:   units read and built (about a byte each; a slice or map element counts ELEMENT_UNITS), bounding time;
//   memory: bytes of new values built, which bounds what the execution can hold (it holds nothing it did not build
//           or receive). Values passed through unchanged are not built.
// Charging is synchronous and per execution: the executor installs its meter while it runs.
import { LimitError } from './errors.ts';

/** A slice or map element: a reference, and usually a small boxed value. */
export const ELEMENT_UNITS = 16;
/** One element visited by a walk that prints or encodes (measured: microseconds each, against ns per byte). */
const NODE_UNITS = 4096;

export class CostMeter {
  work = 0;
  memory = 0;

  constructor(
    readonly maxWork: number,
    readonly maxMemoryBytes: number,
  ) {}

  workExceeded(): never {
    throw new LimitError(`template execution exceeded its work limit of ${this.maxWork} units (spec.templateLimits.maxWork)`);
  }

  memoryExceeded(): never {
    throw new LimitError(`template execution exceeded its memory limit of ${this.maxMemoryBytes} bytes (spec.templateLimits.maxMemoryBytes)`);
  }
}

let active: CostMeter | undefined;

/** Runs `fn` charging `meter` (restoring the meter of an enclosing execution afterwards). */
export function metered<T>(meter: CostMeter, fn: () => T): T {
  const outer = active;
  active = meter;
  try {
    return fn();
  } finally {
    active = outer;
  }
}

/** Charges reading `units`. */
export function chargeRead(units: number): void {
  const m = active;
  if (m !== undefined && (m.work += units) > m.maxWork) m.workExceeded();
}

/** Charges visiting one element of a structure being printed, encoded or copied. */
export function chargeNode(): void {
  const m = active;
  if (m !== undefined && (m.work += NODE_UNITS) > m.maxWork) m.workExceeded();
}

/** Charges building `bytes` of new values (work and memory). */
export function chargeBuilt(bytes: number): void {
  const m = active;
  if (m === undefined) return;
  if ((m.memory += bytes) > m.maxMemoryBytes) m.memoryExceeded();
  if ((m.work += bytes) > m.maxWork) m.workExceeded();
}

/** Reports that a JS engine limit (string or array length) was hit while building a value, as our memory limit. */
export function engineLimitExceeded(): never {
  const m = active;
  if (m !== undefined) m.memoryExceeded();
  throw new LimitError('template execution built a value larger than the engine can hold');
}

/** The size of a value itself, not of what it refers to: a string's length, a slice's elements. */
export function shallowSize(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (typeof v !== 'object' || v === null) return 0;
  if (Array.isArray(v)) return v.length * ELEMENT_UNITS;
  if (v instanceof Uint8Array) return v.length;
  return 0;
}

/**
 * A call: its arguments are read (unless its work does not depend on their sizes: index, len, get...), its
 * result built unless it is one of the arguments (passed through).
 */
export function chargeCall(name: string, args: readonly unknown[], result: unknown): void {
  const m = active;
  if (m === undefined) return;
  let read = 0;
  for (let i = 0; i < args.length; i++) read += shallowSize(args[i]);
  let built = shallowSize(result);
  // Small amounts are charged as they are: only a big one is worth a look-up (the common call stays cheap).
  if (read >= BIG && CONSTANT_COST_FUNCTIONS.has(name)) read = 0;
  if (built >= BIG && args.includes(result)) built = 0;
  if ((m.memory += built) > m.maxMemoryBytes) m.memoryExceeded();
  if ((m.work += read + built) > m.maxWork) m.workExceeded();
}

const BIG = 4096;

/**
 * Functions whose cost does not grow with their arguments' sizes (Go reads only an element, a length or a key,
 * or passes a value through).
 */
const CONSTANT_COST_FUNCTIONS: ReadonlySet<string> = new Set([
  'index', 'len', 'slice', 'and', 'or', 'not',
  'first', 'mustFirst', 'last', 'mustLast', 'get', 'hasKey', 'set', 'unset', 'dig',
  'default', 'ternary', 'coalesce', 'empty', 'list', 'tuple', 'dict',
  'kindOf', 'kindIs', 'typeOf', 'typeIs', 'typeIsLike',
]);
