// Template cost accounting; no Go counterpart (Go has no such meter). One step can call a function on a huge
// value, or print a shared structure that expands exponentially, so walks that expand structures (printing,
// encoders, deep copies) charge per element as they go and stop before their output exists. Two budgets:
//   work:   units read and built (about a byte each; a slice or map element counts ELEMENT_UNITS), bounding time;
//   memory: bytes of new values built, which bounds what the execution can hold.
// Charging is synchronous and per execution: the template executor installs its meter while it runs; the Go
// ports here only charge it, so nothing is charged outside a template.

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
    /** Throws the caller's limit error; never returns. */
    private readonly fail: (message: string) => never,
  ) {}

  workExceeded(): never {
    return this.fail(`template execution exceeded its work limit of ${this.maxWork} units (spec.templateLimits.maxWork)`);
  }

  memoryExceeded(): never {
    return this.fail(`template execution exceeded its memory limit of ${this.maxMemoryBytes} bytes (spec.templateLimits.maxMemoryBytes)`);
  }
}

let active: CostMeter | undefined;

/** The meter of the execution running now, if any. */
export function activeMeter(): CostMeter | undefined {
  return active;
}

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
