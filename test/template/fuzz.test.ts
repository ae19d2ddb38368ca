// Property test: random, mostly valid templates and data (seeded) must render exactly as in Go.
//   FUZZ_SEED=<n> reproduces a run (FUZZ_SEED=random picks a new seed); FUZZ_COUNT=<n> sets the number of
//   cases (default 400); FUZZ_TIME_MS bounds the time spent in our engine (default 8000).
// The default seed is fixed so the suite is deterministic; failures print the seed and shrunk cases.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatFuzzReport, runFuzz, type FuzzOptions } from './fuzz/runFuzz.ts';
import { ourEngine } from './ourEngine.ts';

const DEFAULT_SEED = 20240829;

function seedFromEnv(): number {
  const v = process.env.FUZZ_SEED;
  if (v === undefined || v === '') return DEFAULT_SEED;
  if (v === 'random') return Math.floor(Math.random() * 2 ** 31);
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`FUZZ_SEED must be an integer or "random", got ${v}`);
  return n;
}

const opts: FuzzOptions = {
  seed: seedFromEnv(),
  count: Number(process.env.FUZZ_COUNT ?? 400),
  budgetMs: Number(process.env.FUZZ_TIME_MS ?? 8000),
  shrinkLimit: 3,
};

test(`random templates render as in Go (seed ${opts.seed}, ${opts.count} cases)`, async (t) => {
  const rep = await runFuzz(ourEngine, opts);
  t.diagnostic(
    `seed ${opts.seed}: ${rep.ran} cases run, ${rep.goErrors} of them Go errors, ${rep.mismatches.length} mismatches`,
  );
  // Guard against a generator that drifts into producing mostly errors.
  assert.ok(rep.goErrors < rep.ran / 2, `${rep.goErrors} of ${rep.ran} generated templates fail in Go`);
  // reflect's own "slice index out of range" panic text appears where Go's JSON-decoded lists have spare capacity,
  // which our lists never have.
  // Likewise Debian's sprig 3.2.3 brings an older Masterminds/semver whose errors are capitalised; OSM pins
  // v3.4.0, whose texts ("invalid semantic version") our semver module follows.
  const goVersionQuirk = (m: (typeof rep.mismatches)[number]) =>
    (m.go.error ?? '').includes('reflect: slice index out of range') ||
    (m.ours.kind === 'error' &&
      m.go.error !== null &&
      m.go.error.replace('Invalid Semantic Version', 'invalid semantic version') === m.ours.message);
  const real = rep.mismatches.filter((m) => !goVersionQuirk(m));
  t.diagnostic(`${rep.mismatches.length - real.length} mismatches are Go 1.19's capacity-bounded index`);
  if (real.length > 0) assert.fail(formatFuzzReport({ ...rep, mismatches: real }, opts));
});
