// Runs every calibration case (meterCalibrationCases.ts) and prints one JSON line per case: the work and memory
// the meter charged, the CPU time spent (process CPU time, the least of several runs) and the peak heap growth
// (the most the heap held above where it started, read at every garbage collection and at the end). Run by
// templateMeterCalibration.test.ts as a bundle, in a process of its own, with --expose-gc and a small young
// generation (so that garbage is collected, and the peak read, promptly).
import v8 from 'node:v8';
import { Meter } from '../../../src/go/internal/meter.ts';
import { callGoFunction } from '../../../src/go/reflect/func.ts';
import { GoCallError } from '../../../src/go/reflect/func.ts';
import { MapKeyTooLongError } from '../../../src/go/reflect/value.ts';
import { osmTemplateFuncs } from '../../../src/sprig/index.ts';
import { BUILTINS } from '../../../src/template/builtins.ts';
import { DEFAULT_LIMITS, newTemplate } from '../../../src/template/template.ts';
import { TemplateError } from '../../../src/template/errors.ts';
import { BUILTIN_CASES, caseKey, EXECUTOR_CASES, functionCases, type Case } from './meterCalibrationCases.ts';

declare const gc: () => void;

class Stopped extends Error {}

export interface Measurement {
  kind: 'function' | 'builtin' | 'executor';
  name: string;
  label: string;
  work: number;
  memory: number;
  cpuNs: number;
  peakBytes: number;
  /** CPU time per character of the reference loop, measured just before the case. */
  referenceNs: number;
  /** 'ok', 'refused' (a limit stopped it, before building), 'error' (Go's error) or 'crash: ...'. */
  outcome: string;
}

const REPEAT = Number(process.env.CALIBRATION_REPEAT ?? 2);

const heapNow = () => {
  const h = v8.getHeapStatistics();
  return h.used_heap_size + h.external_memory;
};

function newMeter(): Meter {
  return new Meter(DEFAULT_LIMITS.maxWork, DEFAULT_LIMITS.maxMemoryBytes, () => {
    throw new Stopped();
  });
}

/** Runs `run` once on a fresh meter; the outcome and the meter. */
function once(run: (m: Meter) => unknown): { meter: Meter; outcome: string; result: unknown } {
  const meter = newMeter();
  try {
    return { meter, outcome: 'ok', result: run(meter) };
  } catch (e) {
    if (e instanceof Stopped) return { meter, outcome: 'refused', result: undefined };
    if (e instanceof TemplateError && e.limit) return { meter, outcome: 'refused', result: undefined };
    // A key too long for any map: refused at once, as the executor reports it (a limit).
    if (e instanceof MapKeyTooLongError) return { meter, outcome: 'refused', result: undefined };
    if (e instanceof GoCallError || e instanceof TemplateError) return { meter, outcome: 'error', result: undefined };
    // Anything else (a JS stack overflow, an engine limit) is a failure of the function.
    return { meter, outcome: `crash: ${e instanceof Error ? e.message : String(e)}`, result: undefined };
  }
}

function measure(prepare: () => (m: Meter) => unknown): Omit<Measurement, 'kind' | 'name' | 'label' | 'referenceNs'> {
  // Warm-up (the JIT), then the CPU time: the least of REPEAT runs.
  once(prepare());
  let cpuNs = Infinity;
  let meter: Meter | undefined;
  let outcome = '';
  for (let i = 0; i < REPEAT; i++) {
    const run = prepare();
    gc();
    const t = process.cpuUsage();
    const r = once(run);
    const d = process.cpuUsage(t);
    cpuNs = Math.min(cpuNs, (d.user + d.system) * 1000);
    meter = r.meter;
    outcome = r.outcome;
  }
  // The peak heap growth of one more run.
  const run = prepare();
  gc();
  gc();
  const base = heapNow();
  const profiler = new v8.GCProfiler();
  profiler.start();
  const r = once(run);
  const end = heapNow();
  const stats = profiler.stop();
  let peak = end;
  for (const s of stats.statistics)
    peak = Math.max(peak, s.beforeGC.heapStatistics.usedHeapSize + s.beforeGC.heapStatistics.externalMemory);
  // The result is kept until the heap has been read.
  if (r.result === Symbol.for('never')) console.log('');
  return { work: meter!.work, memory: meter!.memory, cpuNs, peakBytes: Math.max(0, peak - base), outcome };
}

function runCase(
  kind: Measurement['kind'],
  name: string,
  [label, args]: Case,
  call: (m: Meter, a: unknown[]) => unknown,
): void {
  if (onlyCases !== undefined && !onlyCases.has(caseKey({ kind, name, label }))) return;
  const referenceNs = reference();
  const m = measure(() => {
    const a = args();
    // Strings made with repeat are ropes; a template's data is flat text (a regular expression flattens it).
    for (const x of a) if (typeof x === 'string') /[^]/.test(x);
    return (meter) => call(meter, a);
  });
  console.log(JSON.stringify({ kind, name, label, ...m, referenceNs } satisfies Measurement));
}

/**
 * The reference: a loop that reads a flat 1 MiB string a character at a time (one work unit per character,
 * the meter's unit by definition), run just before each case and measured like it (the least of several
 * runs). The test compares a case's CPU time per charged unit with the reference's per character, so that its
 * bound holds on a slower or busier machine.
 */
const REFERENCE_TEXT = 'x'.repeat(1 << 20);
/[^]/.test(REFERENCE_TEXT);
let referenceSink = 0;
function readReference(): void {
  let h = 0;
  for (let i = 0; i < REFERENCE_TEXT.length; i++) h = (h * 31 + REFERENCE_TEXT.charCodeAt(i)) | 0;
  referenceSink ^= h;
}
function reference(): number {
  readReference();
  let best = Infinity;
  for (let i = 0; i < 2 * REPEAT; i++) {
    const t = process.cpuUsage();
    readReference();
    const d = process.cpuUsage(t);
    best = Math.min(best, (d.user + d.system) * 1000);
  }
  return best / REFERENCE_TEXT.length;
}

const only = process.env.CALIBRATION_ONLY ? process.env.CALIBRATION_ONLY.split(',') : undefined;
const wanted = (name: string) => only === undefined || only.includes(name);
/** CALIBRATION_CASES: a JSON list of caseKey()s, the only cases run (the test measures a case again this way). */
const onlyCases = process.env.CALIBRATION_CASES
  ? new Set(JSON.parse(process.env.CALIBRATION_CASES) as string[])
  : undefined;

// A function the map holds under two names (sprig's must* list functions are the plain ones) runs once.
const measured = new Set<unknown>();
for (const name of Object.keys(osmTemplateFuncs)) {
  if (!wanted(name)) continue;
  const f = osmTemplateFuncs[name]!;
  if (measured.has(f)) continue;
  measured.add(f);
  for (const c of functionCases(name) ?? []) runCase('function', name, c, (m, a) => callGoFunction(f, m, a));
}
for (const name of Object.keys(BUILTINS)) {
  if (!wanted(name)) continue;
  const f = BUILTINS[name]!;
  for (const c of BUILTIN_CASES[name] ?? []) runCase('builtin', name, c, (m, a) => callGoFunction(f, m, a));
}
for (const [label, text, data] of EXECUTOR_CASES) {
  if (!wanted('executor')) continue;
  const t = newTemplate('t', { funcs: osmTemplateFuncs }).parse(text);
  runCase('executor', 'executor', [label, () => [data()]], (m, a) => t.execute(a[0], m));
}
if (referenceSink === 0.5) console.log('');
