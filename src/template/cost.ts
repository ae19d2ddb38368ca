// The template side of cost accounting (the meter itself is src/go/internal/cost.ts): each function call is
// charged for the size of what it reads (its arguments) and builds (its result); a limit stops the execution
// with a LimitError.
import { activeMeter, CostMeter, ELEMENT_UNITS } from '../go/internal/cost.ts';
import { LimitError } from './errors.ts';

export { metered } from '../go/internal/cost.ts';

/** A meter whose limits stop the execution as the other template limits do. */
export function templateCostMeter(maxWork: number, maxMemoryBytes: number): CostMeter {
  return new CostMeter(maxWork, maxMemoryBytes, (message) => {
    throw new LimitError(message);
  });
}

/** Reports that a JS engine limit (string or array length) was hit while building a value, as our memory limit. */
export function engineLimitExceeded(): never {
  const m = activeMeter();
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
  const m = activeMeter();
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
