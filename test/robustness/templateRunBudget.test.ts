// Attacks the bound of a whole run, not of one template: each template execution has its own budget
// (hostileTemplateCost.test.ts), so a profile that stays under it in every file multiplies it by its files, by
// the MachineDeployments that use it, and by OSM's second pass (a named template's output is parsed again into
// every file). Generated profiles do all three; whatever they do, the run's templates together spend at most
// RUN_WORK_FACTOR times maxWork (each parse and execution charged to the run's meter) and keep at most
// RUN_MEMORY_FACTOR times maxMemoryBytes, the files of one MachineDeployment at most maxOutputBytes together, and
// the run ends with an error result naming the limit, never an internal error, within CPU time proportional
// to that budget. Small limits (spec.templateLimits) keep each case fast; the units are the engine's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { REPO_ROOT } from '../support/paths.ts';
import { runOn } from '../support/runInProcess.ts';
import { BASE_CONFIG, itemsWithProvisioningConfig, machineDeployment, SMALL_OSP } from './inputCorpus.ts';
import { RUN_WORK_FACTOR } from '../../src/template/cost.ts';
import { runDiffCommand } from '../../src/cli/diffCommand.ts';
import { runRenderCommand } from '../../src/cli/renderCommand.ts';
import { runCommand } from '../review/reviewSupport.ts';
import { CLOUD_PROVIDERS } from '../../src/model/cloudProviders.ts';

const SEED = 20261128;
const LIMITS = { maxWork: 4_000_000, maxMemoryBytes: 2 * 1024 * 1024, maxOutputBytes: 512 * 1024 };
/** CPU allowed per unit of the run's budget: the engine's units are calibrated at about 10 ns. */
const NS_PER_UNIT = 40;
const SLACK_NS = 1.5e9;

/** A file body that stays just under one execution's limits, in one of the ways that cost. */
const bodyArb = fc.oneof(
  // Work: a comparison over a list, in a loop.
  fc
    .integer({ min: 1, max: 7 })
    .map((n) => `{{ $l := until 2000 }}{{ range ${n} }}{{ if has -1 $l }}{{ end }}{{ end }}x`),
  // Output: text kept in the emitted objects.
  fc.integer({ min: 1000, max: 400_000 }).map((n) => `{{ repeat ${n} "a" }}`),
  // Steps.
  fc.integer({ min: 1000, max: 40_000 }).map((n) => `{{ range ${n} }}{{ end }}y`),
);

/** A named template's output, parsed again into every file: dense in actions. */
const namedArb = fc.option(
  fc.integer({ min: 100, max: 100_000 }).map((n) => `{{ repeat ${n} "{{1}}" }}`),
  { nil: undefined },
);

const caseArb = fc.record({
  files: fc.integer({ min: 1, max: 40 }),
  machineDeployments: fc.integer({ min: 0, max: 30 }),
  body: bodyArb,
  named: namedArb,
});

function resourceListOf(c: { files: number; machineDeployments: number; body: string; named: string | undefined }) {
  const items = itemsWithProvisioningConfig({
    ...(c.named !== undefined ? { templates: { named: c.named } } : {}),
    files: Array.from({ length: c.files }, (_, i) => ({ path: `/f${i}`, content: { inline: { data: c.body } } })),
  });
  for (let i = 0; i < c.machineDeployments; i++) items.push(machineDeployment(`w${i}`));
  return {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items,
    functionConfig: { ...BASE_CONFIG, spec: { ...BASE_CONFIG.spec, templateLimits: LIMITS } },
  };
}

test('files x MachineDeployments x second-pass parses: the run ends within its budget, naming the limit', () => {
  fc.assert(
    fc.property(caseArb, (c) => {
      const start = process.cpuUsage();
      const run = runOn(resourceListOf(c));
      const used = process.cpuUsage(start);
      const cpuNs = (used.user + used.system) * 1000;
      assert.doesNotMatch(run.stderr, /internal error|RangeError|Invalid string length/);
      const errors = run.results.filter((r) => r.severity === 'error').map((r) => String(r.message));
      for (const message of errors)
        assert.match(message, /limit of \d+ (units|bytes)|exceed \d+ bytes together|template output exceeds/);
      if (errors.length > 0) assert.notEqual(run.exitCode, 0);
      const budget = RUN_WORK_FACTOR * LIMITS.maxWork;
      assert.ok(
        cpuNs <= NS_PER_UNIT * budget + SLACK_NS,
        `${(cpuNs / 1e6).toFixed(0)} ms of CPU (allowed ${((NS_PER_UNIT * budget + SLACK_NS) / 1e6).toFixed(0)} ms)`,
      );
    }),
    {
      seed: SEED,
      numRuns: 12,
      reporter: (r) => {
        if (r.failed)
          throw new Error(
            `seed ${r.seed} path ${r.counterexamplePath}: ${JSON.stringify(r.counterexample)}: ${String(r.errorInstance).slice(0, 800)}`,
          );
      },
    },
  );
});

test('a run whose files each fit stops at the run limit, naming it, and the MachineDeployments it did not reach fail at once', () => {
  const run = runOn(
    resourceListOf({
      files: 12,
      machineDeployments: 6,
      body: '{{ $l := until 2000 }}{{ range 6 }}{{ if has -1 $l }}{{ end }}{{ end }}x',
      named: undefined,
    }),
  );
  assert.equal(run.exitCode, 1);
  const messages = run.results.map((r) => String(r.message));
  assert.ok(
    messages.some((m) =>
      m.includes(
        `total work limit of ${RUN_WORK_FACTOR * LIMITS.maxWork} units (${RUN_WORK_FACTOR} times spec.templateLimits.maxWork)`,
      ),
    ),
    messages.join('\n').slice(0, 2000),
  );
});

test("one MachineDeployment's files together are bounded by maxOutputBytes (a Secret holds 1 MiB), naming the field", () => {
  const run = runOn(
    resourceListOf({ files: 6, machineDeployments: 0, body: '{{ repeat 200000 "a" }}', named: undefined }),
  );
  assert.equal(run.exitCode, 1);
  const result = run.results.find((r) => /exceed 524288 bytes together/.test(String(r.message)));
  assert.ok(result, JSON.stringify(run.results).slice(0, 2000));
  assert.match(result.field.path, /^spec\.provisioningConfig\.files\[2\]\.content\.inline\.data$/);
});

test('a named template whose output is dense in actions is parsed on the run meter, not for free in every file', () => {
  const run = runOn(
    resourceListOf({ files: 3, machineDeployments: 0, body: 'x', named: '{{ repeat 100000 "{{1}}" }}' }),
  );
  assert.equal(run.exitCode, 1);
  assert.ok(
    run.results.some((r) => /total (memory|work) limit of \d+/.test(String(r.message))),
    JSON.stringify(run.results).slice(0, 2000),
  );
});

test('diff: both sides render on one run meter, so two sides of about 67% each are refused together, each renders alone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-diff-budget-'));
  try {
    // 4 files x 2 MachineDeployments, each execution about 3.3e6 units: 2.7e7 of the run's 4e7.
    const body = '{{ $l := until 2000 }}{{ range 6 }}{{ if has -1 $l }}{{ end }}{{ end }}x';
    const list = resourceListOf({ files: 4, machineDeployments: 0, body, named: undefined });
    writeFileSync(join(dir, 'base.yaml'), stringify(list));
    list.items[0].spec.provisioningConfig.files[0].content.inline.data = `${body}y`;
    writeFileSync(join(dir, 'head.yaml'), stringify(list));
    for (const side of ['base.yaml', 'head.yaml']) {
      const alone = runCommand(runRenderCommand, [side], dir);
      assert.equal(alone.code, 0, alone.stderr.slice(0, 2000));
    }
    const both = runCommand(runDiffCommand, ['base.yaml', 'head.yaml'], dir);
    assert.notEqual(both.code, 0);
    assert.match(
      both.stderr,
      new RegExp(
        `head: error: .*total work limit of ${RUN_WORK_FACTOR * LIMITS.maxWork} units \\(${RUN_WORK_FACTOR} times spec\\.templateLimits\\.maxWork\\)`,
      ),
    );
    assert.match(both.stderr, /head does not render/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('lint: every render of its matrix charges one meter, and a cloud listed twice is rendered once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-lint-budget-'));
  try {
    // Nine clouds OSM's Ubuntu profile serves (from the descriptors: no list of clouds outside them).
    const clouds = CLOUD_PROVIDERS.filter((c) => c.osmDefaultProfiles.includes('osp-ubuntu') && !c.edgeScriptSecret)
      .slice(0, 9)
      .map((c) => c.name);
    assert.equal(clouds.length, 9);
    const osp = structuredClone(SMALL_OSP) as any;
    osp.spec.supportedCloudProviders = [...clouds, ...clouds, ...clouds].map((name) => ({ name }));
    // Each file just under one execution's default work limit (5e8 units); 27 renders of 8 files would be
    // 216 executions, about 1e11 units, if each render had a budget of its own.
    osp.spec.provisioningConfig.files = Array.from({ length: 8 }, (_, i) => ({
      path: `/opt/bin/f${i}`,
      content: { inline: { data: '{{ $l := until 100000 }}{{ range 18 }}{{ if has -1 $l }}{{ end }}{{ end }}x' } },
    }));
    writeFileSync(join(dir, 'osp.yaml'), stringify(osp));
    const r = spawnSync(
      '/usr/bin/time',
      ['-f', '%U %S', process.execPath, join(REPO_ROOT, 'dist/osm-krm.cjs'), 'lint', dir],
      {
        encoding: 'utf8',
        // A guard against a hang, not a speed target.
        timeout: 300_000,
        killSignal: 'SIGKILL',
      },
    );
    const lines = r.stderr.trim().split('\n');
    const [user, sys] = lines[lines.length - 1]!.split(' ').map(Number) as [number, number];
    const out = r.stdout + r.stderr;
    assert.notEqual(r.status, 0, out.slice(-2000));
    assert.match(out, /total work limit of 5000000000 units \(10 times spec\.templateLimits\.maxWork\)/);
    assert.doesNotMatch(out, /internal error/);
    // Lint's own work (shellcheck, the validators) comes on top of the templates' budget.
    assert.ok(user + sys < 120, `${user + sys} s of CPU`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
