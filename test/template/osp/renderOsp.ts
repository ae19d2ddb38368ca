// Renders OSP templates OSM's way (two phases, see ospTemplates.ts) through the Go oracle and through
// an engine, each side building its define blocks from its own phase-1 outputs.

import type { Engine, Mismatch, Outcome } from '../harness.ts';
import { compareOutcome } from '../harness.ts';
import { runOracle, type OracleCase, type OracleResult } from '../oracle/oracle.ts';
import { fileCases, namedCases, type ConfigTemplates } from './ospTemplates.ts';

export interface Job {
  label: string;
  ct: ConfigTemplates;
  data: unknown;
}

export interface JobResult {
  job: Job;
  /** Phase-1 and phase-2 cases with Go's and our outcomes (ours null when phase 1 failed on our side). */
  cases: { kase: OracleCase; go: OracleResult; ours: Outcome | null }[];
}

/** Go's rendering of every file of every job (two oracle batches for all jobs together). */
export async function renderWithGo(
  jobs: readonly Job[],
): Promise<{ named: OracleResult[][]; files: OracleResult[][]; fileCases: OracleCase[][] }> {
  const named = jobs.map((j) => namedCases(j.ct, j.data));
  const namedResults = await runOracle(named.flat());
  let k = 0;
  const namedByJob = named.map((cs) => cs.map(() => namedResults[k++]!));
  const files = jobs.map((j, i) =>
    fileCases(
      j.ct,
      j.data,
      namedByJob[i]!.map((r) => r.output),
    ),
  );
  const fileResults = await runOracle(files.flat());
  k = 0;
  return { named: namedByJob, files: files.map((cs) => cs.map(() => fileResults[k++]!)), fileCases: files };
}

export async function compareJobs(
  jobs: readonly Job[],
  engine: Engine,
): Promise<{ mismatches: (Mismatch & { label: string })[]; total: number; goErrors: string[] }> {
  const go = await renderWithGo(jobs);
  const mismatches: (Mismatch & { label: string })[] = [];
  const goErrors: string[] = [];
  let total = 0;
  jobs.forEach((job, i) => {
    const label = `${job.ct.osp} ${job.ct.config} | ${job.label}`;
    const named = namedCases(job.ct, job.data);
    const ourNamed: string[] = [];
    let namedOk = true;
    named.forEach((kase, j) => {
      total++;
      const g = go.named[i]![j]!;
      if (g.error !== null) goErrors.push(`${label}: ${g.error}`);
      const ours = engine(kase);
      const reason = compareOutcome(g, ours);
      if (reason !== null) mismatches.push({ label, kase, go: g, ours, reason });
      if (ours.kind === 'output') ourNamed.push(ours.output);
      else namedOk = false;
    });
    const ourFiles = namedOk ? fileCases(job.ct, job.data, ourNamed) : null;
    go.fileCases[i]!.forEach((goCase, j) => {
      total++;
      const g = go.files[i]![j]!;
      if (g.error !== null) goErrors.push(`${label}: ${g.error}`);
      if (ourFiles === null) return; // already reported through the named template that failed
      const ours = engine(ourFiles[j]!);
      const reason = compareOutcome(g, ours);
      if (reason !== null) mismatches.push({ label, kase: goCase, go: g, ours, reason });
    });
  });
  return { mismatches, total, goErrors };
}
