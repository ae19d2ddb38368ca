// Runs table-driven cases against the function maps directly (no template engine): each case is a
// function name, its arguments in our Go value representation, and what Go printed for the call (or the
// error text Go reported after "error calling <name>: ").
import assert from 'node:assert/strict';
import { osmTemplateFuncs } from '../../src/sprig/index.ts';
import { callGoFunction, GoCallError } from '../../src/go/reflect/func.ts';
import { formatValue } from '../../src/go/fmt/format.ts';
import { Meter, UNMETERED } from '../../src/go/internal/meter.ts';

export type SprigCase = [name: string, args: unknown[], expected: { out: string } | { err: string }];

/** Go's %v of a function result, as text/template prints it ("<no value>" for a nil interface). */
export function printed(v: unknown): string {
  if (v === null || v === undefined) return '<no value>';
  return formatValue(v, UNMETERED);
}

export function call(name: string, ...args: unknown[]): unknown {
  const f = osmTemplateFuncs[name];
  assert.ok(f !== undefined, `${name} is in the function map`);
  // Charged as the executor charges it, on a meter without limits.
  const meter = new Meter(Infinity, Infinity, () => {
    throw new Error('unreachable');
  });
  return callGoFunction(f, meter, args);
}

function show(a: unknown): string {
  return JSON.stringify(a, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(a);
}

export function checkCases(cases: readonly SprigCase[]): void {
  const failures: string[] = [];
  for (const [name, args, expected] of cases) {
    const label = `${name}(${args.map(show).join(', ')})`;
    let got: { out: string } | { err: string };
    try {
      got = { out: printed(call(name, ...args)) };
    } catch (e) {
      if (!(e instanceof GoCallError)) throw new Error(`${label} threw ${String(e)}`);
      got = { err: e.message };
    }
    if (JSON.stringify(got) !== JSON.stringify(expected))
      failures.push(`${label}\n    go:   ${JSON.stringify(expected)}\n    ours: ${JSON.stringify(got)}`);
  }
  assert.equal(
    failures.length,
    0,
    `${failures.length} of ${cases.length} cases differ from Go:\n  ${failures.join('\n  ')}`,
  );
}
