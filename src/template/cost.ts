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

/**
 * A run's templates together (every parse and execution of one render run, or of every render of `lint`) may
 * spend RUN_WORK_FACTOR times an execution's work limit and keep RUN_MEMORY_FACTOR times its memory limit (parse
 * trees, outputs): each template is bounded, and so is the run, however many files, MachineDeployments and
 * second-pass parses multiply them. Measured on the benchmark's input (every default profile and cloud): 1,000
 * MachineDeployments spend 2.9e8 units and keep 26 MB, so 10,000 fit in about 60% of the 5e9 and 50% of the 512 MiB.
 */
export const RUN_WORK_FACTOR = 10;
export const RUN_MEMORY_FACTOR = 2;

/** The meter of a run's templates together: what each parse and execution spends is charged to it too. */
export function runTemplateMeter(maxWork: number, maxMemoryBytes: number): Meter {
  const work = RUN_WORK_FACTOR * maxWork;
  const memory = RUN_MEMORY_FACTOR * maxMemoryBytes;
  return new Meter(work, memory, (limit: MeterLimit): never => {
    throw new LimitError(
      limit === 'work'
        ? `the templates of this run exceeded their total work limit of ${work} units (${RUN_WORK_FACTOR} times spec.templateLimits.maxWork)`
        : `the templates of this run exceeded their total memory limit of ${memory} bytes (parse trees and outputs, kept for the run; ${RUN_MEMORY_FACTOR} times spec.templateLimits.maxMemoryBytes)`,
    );
  });
}

/**
 * The run's template meter when one command renders more than once (lint's matrix, diff's two sides and its
 * second render of HEAD): made by the first render that asks, from that render's limits, and charged by every
 * later one, so the command is bounded as one run is.
 */
export class SharedRunMeter {
  private meter: Meter | undefined;

  for(maxWork: number, maxMemoryBytes: number): Meter {
    return (this.meter ??= runTemplateMeter(maxWork, maxMemoryBytes));
  }
}

/**
 * The meter of one execution within a run: the execution's own limits, its work capped at what the run has
 * left (then the run's limit is the one named).
 */
export function executionMeter(maxWork: number, maxMemoryBytes: number, run: Meter): Meter {
  const left = run.maxWork - run.work;
  if (left >= maxWork) return templateMeter(maxWork, maxMemoryBytes);
  const own = templateMeter(maxWork, maxMemoryBytes);
  return new Meter(Math.max(0, left), maxMemoryBytes, (limit: MeterLimit): never =>
    limit === 'work' ? run.exceeded('work') : own.exceeded(limit),
  );
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
