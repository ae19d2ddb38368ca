// A meter: the work and memory a computation may spend, charged before they are spent. Ours: no Go counterpart
// (Go has none); internal to src/go/, like Go's internal packages. Whoever runs a computation on untrusted input
// makes a meter and passes it to what it runs; the Go ports whose work their arguments do not bound (printing,
// the encoders, deep copies and comparisons, regexp runs) take it as a parameter and charge as they go, each
// piece before they build it. Callers on trusted input pass UNMETERED, so the choice is visible at the call.
//
// Units (measured, not assumed: test/robustness/templateMeterCalibration.test.ts fails when a function spends
// more CPU per work unit than 8 times a loop reading a character, about 10 ns here, or holds more than 4 bytes
// of heap per memory unit):
//   work:   about a nanosecond of CPU (a byte read or written is one; slower work is charged more per byte);
//   memory: about a byte of new values (a string's length, ELEMENT_BYTES per slice element, ENTRY_BYTES per
//           map entry), counted when built and never given back, so it bounds what a computation can hold.

/** Memory of one slice element: a reference, and a share of a small boxed value (a bigint, a GoInt). */
export const ELEMENT_BYTES = 32;
/**
 * One map entry made: memory (V8 keeps a large object as a dictionary: key, value and details per entry), and
 * the work of adding a property, which is most of it (about a microsecond on a large object).
 */
export const ENTRY_BYTES = 512;
/** Work of reading one map entry: listing a large object's keys costs V8 a sort by insertion order. */
export const ENTRY_UNITS = 128;
/** Work of visiting one element of a structure being printed, encoded, compared or copied. */
export const VISIT_UNITS = 256;

export type MeterLimit = 'work' | 'memory';

export class Meter {
  /** Units of work charged so far. */
  work = 0;
  /** Bytes of memory charged so far. */
  memory = 0;

  constructor(
    readonly maxWork: number,
    readonly maxMemory: number,
    /** Stops the computation (throws the owner's limit error); never returns. */
    private readonly stop: (limit: MeterLimit) => never,
  ) {}

  /** Charges `units` of work (reading, comparing, computing). */
  spend(units: number): void {
    if ((this.work += units) > this.maxWork) this.stop('work');
  }

  /** Charges building `bytes` of new values: memory, and as much work. */
  build(bytes: number): void {
    if ((this.memory += bytes) > this.maxMemory) this.stop('memory');
    if ((this.work += bytes) > this.maxWork) this.stop('work');
  }

  /** Charges visiting one element of a structure being printed, encoded, compared or copied. */
  visit(): void {
    if ((this.work += VISIT_UNITS) > this.maxWork) this.stop('work');
  }

  /** Stops the computation as if a limit had been reached (a JS engine limit hit while building a value). */
  exceeded(limit: MeterLimit): never {
    return this.stop(limit);
  }
}

class Unmetered extends Meter {
  constructor() {
    super(Infinity, Infinity, () => {
      throw new Error('an unmetered computation has no limit to exceed');
    });
  }
  override spend(): void {}
  override build(): void {}
  override visit(): void {}
}

/** For callers whose input is trusted (the emitters, our own data): nothing is counted or limited. */
export const UNMETERED: Meter = new Unmetered();
Object.freeze(UNMETERED);
