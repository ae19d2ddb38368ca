// The template side of cost accounting: each execution has its own meter (src/go/internal/meter.ts), made here
// from the template's limits and passed by the executor to every function it calls. A function charges
// before it runs, from its arguments, what its cost declares (GoFunction.cost: the function map's own
// business, src/sprig/ for sprig and OSM's functions, builtins.ts for Go's builtins); walks whose size their
// arguments do not bound charge as they go. A charge that does not fit in what is left stops the execution
// with a LimitError, before anything is built.
import { Meter, type MeterLimit } from '../go/internal/meter.ts';
import { sizeOf } from '../go/reflect/callCost.ts';
import { LimitError } from './errors.ts';

/** Work charged per step of the executor (a node visited: measured at under 500 ns, the slowest kind). */
export const STEP_UNITS = 64;

/** A meter whose limits stop the execution as the other template limits do, naming the setting to raise. */
export function templateMeter(maxWork: number, maxMemoryBytes: number): Meter {
  return new Meter(maxWork, maxMemoryBytes, (limit: MeterLimit): never => {
    throw new LimitError(
      limit === 'work'
        ? `template execution exceeded its work limit of ${maxWork} units (spec.templateLimits.maxWork)`
        : `template execution exceeded its memory limit of ${maxMemoryBytes} bytes (spec.templateLimits.maxMemoryBytes)`,
    );
  });
}

/** Reports that a JS engine limit (string or array length) was hit while building a value, as our memory limit. */
export function engineLimitExceeded(meter: Meter): never {
  meter.exceeded('memory');
}

/**
 * A call of a function that declares no cost (a function map other than ours): charged after the call for
 * what it returned, unless that is one of its arguments, and for reading its arguments.
 */
export function chargeUndeclared(meter: Meter, args: readonly unknown[], result: unknown): void {
  let read = 0;
  for (let i = 0; i < args.length; i++) read += sizeOf(args[i]);
  meter.spend(read);
  if (!args.includes(result)) meter.build(sizeOf(result));
}
