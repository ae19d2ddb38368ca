// Start-up of the function inside its image, with and without the V8 code cache (README, Benchmark):
//   podman run --rm --network none --tmpfs /tmp -v "$PWD/bench/imageStartup.mjs:/bench.mjs:ro" \
//     -v "$PWD/examples/basic/resourcelist.yaml:/in.yaml:ro" --entrypoint node localhost/osm-krm:0.1.0 /bench.mjs /in.yaml
// Runs the installed /usr/local/bin/osm-krm (cache beside it) and a copy in /tmp (no cache beside it) in turn,
// so drift cancels out, and prints the median wall times and whether V8 accepted the cache.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';

const [input = '/in.yaml', runs = '21'] = process.argv.slice(2);
const installed = '/usr/local/bin/osm-krm';
const uncached = '/tmp/osm-krm-uncached.cjs';
copyFileSync(installed, uncached);
const stdin = readFileSync(input);
const time = (bin) => {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin], { input: stdin, stdio: ['pipe', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`${bin} exited ${r.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const withCache = [];
const without = [];
for (let i = 0; i < Number(runs); i++) {
  withCache.push(time(installed));
  without.push(time(uncached));
}
// The loader's own report: each section it compiled, and whether V8 took the section's cache.
const report = spawnSync(process.execPath, [installed], {
  input: stdin,
  env: { ...process.env, OSM_KRM_CODE_CACHE_REPORT: '1' },
  stdio: ['pipe', 'ignore', 'pipe'],
});
const { codeCache } = JSON.parse(report.stderr.toString().trim().split('\n').pop());
const cacheRejected = Object.values(codeCache).some((state) => state !== 'accepted');
process.stdout.write(
  JSON.stringify({
    node: process.version,
    cacheRejected,
    codeCache,
    medianMs: { withCache: median(withCache), withoutCache: median(without) },
    runs: Number(runs),
  }) + '\n',
);
