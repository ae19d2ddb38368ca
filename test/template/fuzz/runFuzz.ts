// Drives one fuzz run: generate cases from a seed, run them through Go (one batch) and our engine,
// and shrink the first few mismatches to minimal templates.

import { compareOutcome, formatMismatch, type Engine, type Mismatch } from '../harness.ts';
import { runOracle, type OracleCase } from '../oracle/oracle.ts';
import { generateCase, render, type FuzzCase, type Node } from './generator.ts';
import { Random } from './random.ts';
import { shrink } from './shrink.ts';

export interface FuzzOptions {
  seed: number;
  count: number;
  /** Stop running our engine on further cases after this long (the oracle batch is not interrupted). */
  budgetMs: number;
  /** How many mismatches to shrink and report in full. */
  shrinkLimit: number;
}

export interface FuzzReport {
  ran: number;
  mismatches: Mismatch[];
  /** Shrunk versions of the first `shrinkLimit` mismatches. */
  minimal: Mismatch[];
  goErrors: number;
}

function toOracleCase(
  seed: number,
  i: number,
  c: FuzzCase,
  nodes: Node[] = c.nodes,
  data: unknown = c.data,
): OracleCase {
  return { name: `fuzz-${seed}-${i}`, template: render(nodes), data, funcs: c.funcs };
}

/** Drops top-level data keys one at a time while the case keeps failing. */
async function shrinkData(
  data: unknown,
  stillFails: (candidates: Record<string, unknown>[]) => Promise<number>,
): Promise<unknown> {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  let current = data as Record<string, unknown>;
  for (;;) {
    const candidates = Object.keys(current).map((k) => {
      const { [k]: _dropped, ...rest } = current;
      return rest;
    });
    if (candidates.length === 0) return current;
    const i = await stillFails(candidates);
    if (i < 0) return current;
    current = candidates[i]!;
  }
}

export async function runFuzz(engine: Engine, opts: FuzzOptions): Promise<FuzzReport> {
  const r = new Random(opts.seed);
  const fuzzCases = Array.from({ length: opts.count }, () => generateCase(r));
  const cases = fuzzCases.map((c, i) => toOracleCase(opts.seed, i, c));
  const go = await runOracle(cases);

  const start = Date.now();
  const mismatches: Mismatch[] = [];
  const failingIndexes: number[] = [];
  let ran = 0;
  for (let i = 0; i < cases.length && Date.now() - start < opts.budgetMs; i++, ran++) {
    const ours = engine(cases[i]!);
    const reason = compareOutcome(go[i]!, ours);
    if (reason !== null) {
      mismatches.push({ kase: cases[i]!, go: go[i]!, ours, reason });
      failingIndexes.push(i);
    }
  }

  const minimal: Mismatch[] = [];
  for (const i of failingIndexes.slice(0, opts.shrinkLimit)) {
    const fc = fuzzCases[i]!;
    // Shrinking keeps the same kind of disagreement, so it does not wander off to a different bug.
    const reason = compareOutcome(go[i]!, engine(cases[i]!));
    const firstFailing = async (candidates: Node[][]): Promise<number> => {
      const cs = candidates.map((nodes) => toOracleCase(opts.seed, i, fc, nodes));
      const gs = await runOracle(cs);
      return cs.findIndex((c, j) => compareOutcome(gs[j]!, engine(c)) === reason);
    };
    const nodes = await shrink(fc.nodes, firstFailing);
    const data = await shrinkData(fc.data, async (candidates) => {
      const cs = candidates.map((d) => toOracleCase(opts.seed, i, fc, nodes, d));
      const gs = await runOracle(cs);
      return cs.findIndex((c, j) => compareOutcome(gs[j]!, engine(c)) === reason);
    });
    const kase = toOracleCase(opts.seed, i, fc, nodes, data);
    const [g] = await runOracle([kase]);
    const ours = engine(kase);
    minimal.push({ kase, go: g!, ours, reason: compareOutcome(g!, ours) ?? 'no longer fails' });
  }
  return { ran, mismatches, minimal, goErrors: go.slice(0, ran).filter((g) => g.error !== null).length };
}

export function formatFuzzReport(rep: FuzzReport, opts: FuzzOptions): string {
  const lines = [
    `fuzz: ${rep.mismatches.length} of ${rep.ran} random templates differ from Go (FUZZ_SEED=${opts.seed} FUZZ_COUNT=${opts.count} reproduces this run)`,
    '',
    `minimal versions of the first ${rep.minimal.length}:`,
    '',
    ...rep.minimal.map((m) => formatMismatch(m) + '\n'),
  ];
  const rest = rep.mismatches.slice(rep.minimal.length, rep.minimal.length + 10);
  if (rest.length > 0)
    lines.push('further failing cases (unshrunk):', '', ...rest.map((m) => formatMismatch(m) + '\n'));
  return lines.join('\n');
}
