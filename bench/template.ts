// Micro-benchmark of the template engine on a real workload: parse and execute every template of the
// upstream osp-ubuntu OSP (bootstrap + provisioning, OSM's two-phase rendering) with realistic data,
// compared with Go's text/template doing the same work in-process (the test oracle's -bench mode).
//
//   node --import tsx bench/template.ts            prints a table
//   import { benchTemplate } from './template.ts'  returns the rows
// Target: under 2 ms per OSP.

import { pathToFileURL } from 'node:url';
import { newTemplate } from '../src/template/index.ts';
import { osmTemplateFuncs } from '../src/sprig/index.ts';
import { benchOracle, runOracle, type OracleCase } from '../test/template/oracle/oracle.ts';
import { goldenCases } from '../test/template/osp/osmTemplateData.ts';
import {
  fileCases,
  loadOspFiles,
  namedCases,
  ospTemplates,
  type ConfigTemplates,
} from '../test/template/osp/ospTemplates.ts';

export interface Row {
  name: string;
  iterations: number;
  /** Whole OSPs rendered per second by our engine. */
  opsPerSec: number;
  msPerOp: number;
  targetMs: number;
  /** Go text/template on the same inputs, in-process. */
  goMsPerOp: number;
  /** ours / Go. */
  ratioToGo: number;
}

const TARGET_MS = 2;

/** One OSP rendered OSM's way by our engine: named templates first, then every file with the defines. */
function renderOspOnce(configs: readonly ConfigTemplates[], data: unknown): number {
  let bytes = 0;
  for (const ct of configs) {
    const outputs = namedCases(ct, data).map((c) => {
      const t = newTemplate(c.name, { funcs: osmTemplateFuncs });
      t.parse(c.template);
      return t.execute(data);
    });
    for (const c of fileCases(ct, data, outputs)) {
      const t = newTemplate(c.name, { funcs: osmTemplateFuncs });
      t.parse(c.template);
      for (const d of c.defines ?? []) t.parse(d);
      bytes += t.execute(data).length;
    }
  }
  return bytes;
}

/** The same work as a flat batch for the Go oracle (defines built from Go's own phase-1 output). */
async function goBatch(configs: readonly ConfigTemplates[], data: unknown): Promise<OracleCase[]> {
  const batch: OracleCase[] = [];
  for (const ct of configs) {
    const named = namedCases(ct, data);
    const outputs = (await runOracle(named)).map((r) => r.output);
    batch.push(...named, ...fileCases(ct, data, outputs));
  }
  return batch;
}

export async function benchTemplate(options: { iterations?: number; warmup?: number } = {}): Promise<Row[]> {
  const iterations = options.iterations ?? 300;
  const warmup = options.warmup ?? 50;
  const osp = loadOspFiles().find((o) => o.name === 'osp-ubuntu');
  if (osp === undefined) throw new Error('osp-ubuntu not found under ../shared/upstream');
  const configs = ospTemplates(osp);
  const data = goldenCases()[0]!.data;

  for (let i = 0; i < warmup; i++) renderOspOnce(configs, data);
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) renderOspOnce(configs, data);
  const ms = Number(process.hrtime.bigint() - start) / 1e6 / iterations;

  const go = await benchOracle(await goBatch(configs, data), iterations);
  const goMs = go.nsPerBatch / 1e6;
  const templates = configs.reduce((n, c) => n + c.named.length + c.files.length, 0);
  return [
    {
      name: `osp-ubuntu: parse+execute ${templates} templates`,
      iterations,
      opsPerSec: 1000 / ms,
      msPerOp: ms,
      targetMs: TARGET_MS,
      goMsPerOp: goMs,
      ratioToGo: ms / goMs,
    },
  ];
}

function printRows(rows: readonly Row[]): void {
  for (const r of rows) {
    console.log(r.name);
    console.log(
      `  ours: ${r.msPerOp.toFixed(3)} ms/OSP (${r.opsPerSec.toFixed(0)} OSPs/s, ${r.iterations} iterations; target < ${r.targetMs} ms: ${r.msPerOp < r.targetMs ? 'met' : 'MISSED'})`,
    );
    console.log(`  Go:   ${r.goMsPerOp.toFixed(3)} ms/OSP`);
    console.log(`  ours/Go: ${r.ratioToGo.toFixed(2)}×`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printRows(await benchTemplate());
}
