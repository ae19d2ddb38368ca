// Compares our template engine with the Go oracle, case by case, and formats readable diffs.
//
// Comparison rules: on success the outputs must be byte-identical (both are Go strings in the form of
// src/go/reflect/byteString.ts, in which equal bytes are equal strings); on error both sides must fail and
// the messages must be identical. No normalisation is applied: both engines are given the same template
// name, so even the "template: NAME:LINE:COL: executing ..." prefix must match. Go's partial output on
// an execution error is not compared (our execute returns nothing when it throws).

import { goJsonStringify } from './oracle/goJsonStringify.ts';
import type { OracleCase, OracleResult } from './oracle/oracle.ts';

/** What our engine did with a case: rendered, failed with a TemplateError, or crashed with anything else. */
export type Outcome =
  { kind: 'output'; output: string } | { kind: 'error'; message: string } | { kind: 'crash'; message: string };

export type Engine = (c: OracleCase) => Outcome;

export interface Mismatch {
  kase: OracleCase;
  go: OracleResult;
  ours: Outcome;
  reason: string;
}

/** Returns why our outcome differs from Go's, or null when they agree. */
export function compareOutcome(go: OracleResult, ours: Outcome): string | null {
  if (ours.kind === 'crash') return 'our engine threw something that is not a TemplateError';
  if (go.error === null) {
    if (ours.kind === 'error') return 'Go rendered, we failed';
    return ours.output === go.output ? null : 'outputs differ';
  }
  if (ours.kind === 'output') return 'Go failed, we rendered';
  return ours.message === go.error ? null : 'error messages differ';
}

export function compareAll(
  cases: readonly OracleCase[],
  goResults: readonly OracleResult[],
  engine: Engine,
): Mismatch[] {
  const out: Mismatch[] = [];
  cases.forEach((kase, i) => {
    const go = goResults[i]!;
    const ours = engine(kase);
    const reason = compareOutcome(go, ours);
    if (reason !== null) out.push({ kase, go, ours, reason });
  });
  return out;
}

function show(s: string): string {
  return JSON.stringify(s);
}

/** Data as the oracle receives it: ints as plain numbers, floats always with a fraction or exponent. */
function showData(v: unknown): string {
  try {
    return goJsonStringify(v);
  } catch {
    return String(v);
  }
}

/** Where two strings first differ, with a little context, for long outputs. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 30);
  const line = a.slice(0, i).split('\n').length;
  return `first difference at offset ${i} (line ${line}):\n      go:   …${show(a.slice(from, i + 40))}\n      ours: …${show(b.slice(from, i + 40))}`;
}

export function formatMismatch(m: Mismatch): string {
  const lines = [`✗ ${m.kase.name} — ${m.reason}`, `    template: ${show(m.kase.template)}`];
  if (m.kase.data !== undefined) lines.push(`    data:     ${showData(m.kase.data)}`);
  if (m.kase.funcs !== undefined) lines.push(`    funcs:    ${m.kase.funcs}`);
  if (m.kase.defines !== undefined) lines.push(`    defines:  ${m.kase.defines.length} block(s)`);
  lines.push(m.go.error === null ? `    go:       ${show(m.go.output)}` : `    go err:   ${m.go.error}`);
  if (m.ours.kind === 'output') lines.push(`    ours:     ${show(m.ours.output)}`);
  else lines.push(`    ours ${m.ours.kind === 'error' ? 'err' : 'CRASH'}: ${m.ours.message}`);
  if (m.go.error === null && m.ours.kind === 'output' && m.go.output.length + m.ours.output.length > 160) {
    lines.push(`    ${firstDifference(m.go.output, m.ours.output)}`);
  }
  return lines.join('\n');
}

export function formatReport(mismatches: readonly Mismatch[], total: number): string {
  return `${mismatches.length} of ${total} cases differ from Go:\n\n${mismatches.map(formatMismatch).join('\n\n')}`;
}
