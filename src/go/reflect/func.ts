// Go function values, and so the contract between the template executor and every function map (Go's
// builtins are built into the executor; sprig and OSM's extras, in src/sprig/, are plain GoFunction tables).
// It sits in src/go/ because Go values have methods too (time.Time's, in src/go/time/value.ts).
//
// A Go function is called through reflection, and text/template converts each argument to the declared
// parameter type (evalArg). We declare those types so the executor can do the same checks and produce
// the same errors ("wrong type for value; expected int; got string").
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).
import type { Meter } from '../internal/meter.ts';

/**
 * What a call may spend, charged on `meter` from its arguments before the call (an upper bound of its work and
 * of what it builds); the shapes and the sizes they are made of are in callCost.ts.
 */
export type CallCost = (meter: Meter, args: readonly unknown[]) => void;

/** Parameter types that occur in sprig and OSM's function signatures. */
export type GoParamType =
  | 'any' // interface{}: anything, including nil
  | 'string'
  | 'int' // int; also used for int64/int32 params (value is a bigint)
  | 'float64'
  | 'bool'
  | '[]any' // []interface{}
  | '[]string'
  | 'map[string]any' // map[string]interface{}
  // Parameters of methods on the values of functions (time.Time, semver.Version).
  | '[]byte'
  | 'time.Duration' // an integer constant (bigint) or a time.Duration
  | 'time.Time'
  | '*time.Location'
  | '*semver.Version';

export interface GoFunction {
  /** Fixed parameter types, in order. */
  readonly params: readonly GoParamType[];
  /** Element type of a trailing `...T` parameter, if the function is variadic. */
  readonly variadic?: GoParamType;
  /**
   * What a call may spend (callCost.ts), charged on the caller's meter before the call from the converted
   * arguments. A function map entry without one is charged after the call for what it returned (the template
   * engine's rule for maps that declare no costs; sprig's and OSM's all do).
   */
  readonly cost?: CallCost;
  /** `call` takes the caller's meter as its first argument and charges what its arguments do not bound as it goes. */
  readonly metered?: boolean;
  /**
   * The implementation receives arguments already converted to the declared types (bigint for int,
   * number for float64, ...). It signals Go's `error` return (or a recovered panic) by throwing
   * GoCallError; the executor then reports `error calling <name>: <message>`.
   */
  readonly call: (...args: any[]) => unknown;
  /** A method with more results than a value and an error: calling it is an error, as in Go. */
  readonly results?: number;
}

export type FuncMap = Readonly<Record<string, GoFunction>>;

/** Thrown by a GoFunction to report an error (or a panic) the way Go's template package reports it. */
export class GoCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoCallError';
  }
}

/**
 * Calls a Go function as the template executor does: what it costs charged on `meter` first, and the meter
 * passed to a function that charges as it goes. The one way a method of a value is called (String,
 * MarshalJSON, MarshalText...), so that none runs uncharged.
 */
export function callGoFunction(
  f: Pick<GoFunction, 'cost' | 'metered' | 'call'>,
  meter: Meter,
  args: readonly unknown[],
): unknown {
  f.cost?.(meter, args);
  return f.metered === true ? f.call(meter, ...args) : f.call(...args);
}

/** Declares a function: its parameters, what a call costs, and what it does. */
export function goFunc(
  params: readonly GoParamType[],
  cost: CallCost,
  call: (...args: any[]) => unknown,
  variadic?: GoParamType,
): GoFunction {
  return variadic === undefined ? { params, cost, call } : { params, variadic, cost, call };
}

/** Declares a function whose call takes the caller's meter first, to charge as it goes (printing, encoding, copying). */
export function meteredFunc(
  params: readonly GoParamType[],
  cost: CallCost,
  call: (meter: Meter, ...args: any[]) => unknown,
  variadic?: GoParamType,
): GoFunction {
  return variadic === undefined
    ? { params, cost, metered: true, call }
    : { params, variadic, cost, metered: true, call };
}
