// `npm run bench`: whole-process figures for the bundled function, plus the template micro-benchmark.
//
// For 1, 10, 100, 1,000 and 10,000 MachineDeployments: median wall time of the whole process, peak RSS
// (GNU time), and two ratios measured in the same run: against `node -e 0` (start-up floor) and against the
// IO floor (the same ResourceList parsed and the same output serialized, without rendering). Each ratio
// compares two commands run in turn, so machine-speed drift cancels out.
// Also the cold start on examples/basic, the cost per MachineDeployment at 10,000, and the bootstrap user-data
// bytes per default profile and cloud against upstream OSM's (bootstrapSizes.ts; alone: `node --import tsx bench/bootstrapSizes.ts`).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { benchResourceList } from './inputs.ts';
import { benchTemplate } from './template.ts';
import { bootstrapSizes, bootstrapSizeTable } from './bootstrapSizes.ts';

const ROOT = join(import.meta.dirname, '..');
const CACHE = join(ROOT, '.cache', 'bench');
const BUNDLE = join(ROOT, 'dist', 'osm-krm.cjs');
const IO_FLOOR = join(CACHE, 'bench-io-floor.mjs');
const SIZES = (process.env.BENCH_SIZES ?? '1,10,100,1000,10000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);

interface Measure {
  wallMs: number;
  rssMiB: number;
}

/**
 * The generated items of an output ResourceList, one JSON object per line: the output is split at its items
 * (all at the first item's column, as our writer puts them), never read as one string.
 */
function writeGeneratedItems(output: Buffer, file: string): void {
  const fd = openSync(file, 'w');
  let at = output.indexOf('\nitems:\n') + '\nitems:\n'.length;
  const end = output.indexOf('\nresults:\n') >= 0 ? output.indexOf('\nresults:\n') + 1 : output.length;
  let column = 0;
  while (output[at + column] === 0x20) column++;
  const boundary = '\n' + ' '.repeat(column) + '- ';
  while (at < end) {
    let next = output.indexOf(boundary, at);
    next = next < 0 || next >= end ? end : next + 1;
    const [item] = parse(output.subarray(at, next).toString('utf8')) as Array<{
      metadata?: { annotations?: Record<string, string> };
    }>;
    if ((item?.metadata?.annotations?.['internal.config.kubernetes.io/path'] ?? '').startsWith('osm-generated/'))
      writeSync(fd, JSON.stringify(item) + '\n');
    at = next;
  }
  closeSync(fd);
}

/** Runs `cmd` with stdin from a file under GNU time (stdout to /dev/null); returns wall time and max RSS. */
function measure(args: string[], stdinFile: string | undefined, env?: NodeJS.ProcessEnv): Measure {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', ...args], {
    input: stdinFile ? readFileSync(stdinFile) : undefined,
    env: env ?? process.env,
    stdio: ['pipe', 'ignore', 'pipe'],
    encoding: 'buffer',
  });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const stderr = r.stderr.toString();
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}): ${stderr.slice(0, 2000)}`);
  const kb = Number(stderr.trim().split('\n').pop());
  return { wallMs, rssMiB: kb / 1024 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function runs(n: number): number {
  return n <= 100 ? 9 : n <= 1000 ? 5 : 3;
}

const summary = (ms: Measure[]): Measure => ({
  wallMs: median(ms.map((m) => m.wallMs)),
  rssMiB: Math.max(...ms.map((m) => m.rssMiB)),
});

/**
 * Two commands run in turn, `count` times each, so that a ratio of their medians compares them over the same
 * minutes: on a shared machine the speed drifts by tens of percent between one series and the next.
 */
function paired(
  a: { args: string[]; stdin?: string; env?: NodeJS.ProcessEnv },
  b: { args: string[]; stdin?: string; env?: NodeJS.ProcessEnv },
  count: number,
): [Measure, Measure] {
  measure(a.args, a.stdin, a.env); // warm the page cache
  measure(b.args, b.stdin, b.env);
  const as: Measure[] = [];
  const bs: Measure[] = [];
  for (let i = 0; i < count; i++) {
    as.push(measure(a.args, a.stdin, a.env));
    bs.push(measure(b.args, b.stdin, b.env));
  }
  return [summary(as), summary(bs)];
}

async function main(): Promise<void> {
  mkdirSync(CACHE, { recursive: true });
  await build({
    entryPoints: [join(ROOT, 'bench/ioFloor.ts')],
    outfile: IO_FLOOR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });

  const rows: string[] = [];
  const [nodeFloor, basic] = paired(
    { args: ['node', '-e', '0'] },
    { args: ['node', BUNDLE], stdin: join(ROOT, 'examples/basic/resourcelist.yaml') },
    30,
  );
  rows.push(
    `| examples/basic (cold start) | ${basic.wallMs.toFixed(1)} | ${basic.rssMiB.toFixed(0)} | ${(basic.wallMs / nodeFloor.wallMs).toFixed(2)}x | – |`,
  );
  // NODE_EXTRA_CA_CERTS makes every Node.js process parse those certificates at start-up (most of `node -e 0`'s
  // work when it names a system bundle), which moves the ratio: the cold start is measured without it as well.
  let withoutExtraCAs = '';
  if (process.env.NODE_EXTRA_CA_CERTS) {
    const env = { ...process.env };
    delete env.NODE_EXTRA_CA_CERTS;
    const [floor, cold] = paired(
      { args: ['node', '-e', '0'], env },
      { args: ['node', BUNDLE], stdin: join(ROOT, 'examples/basic/resourcelist.yaml'), env },
      30,
    );
    withoutExtraCAs = `Without NODE_EXTRA_CA_CERTS (set here to ${process.env.NODE_EXTRA_CA_CERTS}): \`node -e 0\` ${floor.wallMs.toFixed(1)} ms, examples/basic ${cold.wallMs.toFixed(1)} ms = ${(cold.wallMs / floor.wallMs).toFixed(2)}x.`;
  }

  let perMd = '';
  for (const n of SIZES) {
    const input = join(CACHE, `input-${n}.yaml`);
    writeFileSync(input, benchResourceList(n));
    // The IO floor serializes exactly what the real run outputs (hundreds of MB at 10,000: kept in files).
    const outputFile = join(CACHE, `output-${n}.yaml`);
    const out = openSync(outputFile, 'w');
    const real = spawnSync('node', [BUNDLE], { input: readFileSync(input), stdio: ['pipe', out, 'pipe'] });
    closeSync(out);
    if (real.status !== 0) throw new Error(`function failed on ${n} MDs: ${real.stderr.toString().slice(0, 2000)}`);
    const generatedFile = join(CACHE, `generated-${n}.jsonl`);
    writeGeneratedItems(readFileSync(outputFile), generatedFile);
    const [fn, io] = paired(
      { args: ['node', BUNDLE], stdin: input },
      { args: ['node', IO_FLOOR, generatedFile], stdin: input },
      runs(n),
    );
    rows.push(
      `| ${n} MachineDeployments | ${fn.wallMs.toFixed(1)} | ${fn.rssMiB.toFixed(0)} | ${(fn.wallMs / nodeFloor.wallMs).toFixed(2)}x | ${(fn.wallMs / io.wallMs).toFixed(2)}x (IO floor ${io.wallMs.toFixed(1)} ms) |`,
    );
    if (n === Math.max(...SIZES)) {
      perMd = `Cost per MachineDeployment at ${n}: ${((fn.wallMs - nodeFloor.wallMs) / n).toFixed(3)} ms and ${((fn.rssMiB * 1024) / n).toFixed(1)} KiB of peak RSS.`;
    }
  }

  console.log(
    `\nosm-krm whole-process benchmark (node ${process.version}, ${process.env.BENCH_MACHINE ?? 'this machine'})`,
  );
  console.log(`Start-up floor \`node -e 0\`: ${nodeFloor.wallMs.toFixed(1)} ms, ${nodeFloor.rssMiB.toFixed(0)} MiB\n`);
  console.log('| input | wall ms (median) | peak RSS MiB | vs node -e 0 | vs IO floor |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  console.log(`\n${perMd}`);
  if (withoutExtraCAs) console.log(withoutExtraCAs);

  console.log(
    "\nBootstrap user-data per default profile and cloud, ours against upstream OSM's default OSP (bytes):\n",
  );
  for (const line of bootstrapSizeTable(bootstrapSizes())) console.log(line);

  console.log('\nTemplate engine (osp-ubuntu, parse + execute of every template):');
  for (const r of await benchTemplate()) {
    console.log(
      `  ${r.name}: ${r.msPerOp.toFixed(3)} ms/OSP (${r.opsPerSec.toFixed(0)} ops/s, target < ${r.targetMs} ms); Go ${r.goMsPerOp.toFixed(3)} ms; ours/Go ${r.ratioToGo.toFixed(2)}`,
    );
  }
}

await main();
