// Attacks the bill of materials' shell evaluator (src/bom/scriptEvaluation.ts), which follows what a profile's
// scripts run: whatever a script multiplies (a function calling itself several times, loops inside loops, a
// variable doubled, many variables forked at many conditions, here-documents and `bash -c` in loops, blocks,
// substitutions and quotes nested deep), following it ends within its budget, with EvaluationBudgetError or a
// result, never a RangeError or a hang, and spends no more CPU time per charged unit than the budget's meaning
// allows. Through the command: a hostile profile makes `osm-krm bom` exit 2 with the error, in bounded time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { MAX_EVALUATION_WORK, ScriptEvaluator, type ScriptFile } from '../../src/bom/scriptEvaluation.ts';
import { evaluateHostileScript } from './evaluateHostileScript.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { BASE_CONFIG, itemsWithProvisioningConfig } from './inputCorpus.ts';

const SEED = 20261128;
/** A small budget, so each case ends fast; the units' cost is what is checked. */
const TEST_BUDGET = 4_000_000;
/** CPU per unit allowed: the budget's units are about a nanosecond (measured 1-5 ns); 25 for a busy machine. */
const NS_PER_UNIT = 25;
const SLACK_NS = 150e6;

const L = 'a b c d e f g h i j k l m n o p q r s t u v w x y z';
const FETCH = 'curl -fsSL -o /opt/x https://dl.example/$a/$x';

/** Script pieces that multiply the evaluator's work or depth, each sized by the generator. */
const pieceArb: fc.Arbitrary<string> = fc.oneof(
  // A function calling itself `k` times (the depth bound alone lets k^24 calls through).
  fc.integer({ min: 2, max: 12 }).map((k) => `f() { ${'f; '.repeat(k)}${FETCH}; }\nf`),
  // Loops inside loops over known words.
  fc
    .integer({ min: 2, max: 8 })
    .map(
      (d) =>
        `${Array.from({ length: d }, (_, i) => `for v${i} in ${L}; do`).join(' ')} ${FETCH}; ${'done; '.repeat(d)}`,
    ),
  // A variable doubled, known or computed on the node.
  fc
    .tuple(fc.integer({ min: 10, max: 40 }), fc.boolean())
    .map(([m, node]) => `x=${node ? '$(hostname)' : '0123456789'}\n${'x=$x$x\n'.repeat(m)}${FETCH}`),
  // Many variables, copied at every condition whose value is not known.
  fc
    .tuple(fc.integer({ min: 100, max: 3000 }), fc.integer({ min: 100, max: 3000 }))
    .map(
      ([v, i]) =>
        `${Array.from({ length: v }, (_, k) => `v${k}=${k}`).join('\n')}\n${'if [ -f /x ]; then y=1; fi\n'.repeat(i)}`,
    ),
  // A here-document and a `bash -c` text, long, followed in nested loops.
  fc
    .tuple(fc.integer({ min: 1000, max: 200000 }), fc.integer({ min: 1, max: 4 }))
    .map(
      ([n, d]) =>
        `${`for w in ${L}; do `.repeat(d)}cat <<EOF\n${'$a '.repeat(n / 3)}\nEOF\nbash -c '${'echo y; '.repeat(n / 8)}'\n${'done\n'.repeat(d)}`,
    ),
  // Blocks, conditions, substitutions, quoted substitutions and expansions nested deep.
  fc
    .tuple(
      fc.constantFrom(
        ['{ ', '}; '],
        ['if true; then ', 'fi; '],
        ['while true; do ', 'done; '],
        ['echo $( ', ') '],
        ['echo "$( ', ')" '],
        ['echo ${a:-', '}'],
        ['case x in x) ', ';; esac; '],
        ['f() { ', '}; f; '],
      ),
      fc.integer({ min: 50, max: 20000 }),
    )
    .map(([[open, close], n]) => `${open.repeat(n)}${FETCH}; ${close.repeat(n)}`),
);

const scriptArb = fc
  .tuple(fc.array(pieceArb, { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([pieces, inFunction]) => {
    const body = pieces.join('\n');
    // Wrapped in a function called from a loop, every piece runs once per item.
    return `#!/bin/bash\n${inFunction ? `g() {\n${body}\n}\nfor a in ${L}; do g; done\n` : body}\n`;
  });

// Found by the lead's probe after the attacks: a script that sourced itself overflowed the stack ("internal
// error: Maximum call stack size exceeded") before the nesting bound was reached.
test('a script that runs itself again (source, ., bash -c, bash PATH, a function) ends as a function recursion does', () => {
  const self = [
    'source /opt/bin/hostile',
    '. /opt/bin/hostile',
    'bash /opt/bin/hostile',
    `bash -c 'source /opt/bin/hostile'`,
    'f() { source /opt/bin/hostile; f; }; f',
    'f() { . /opt/bin/hostile; bash -c f; }; f',
  ];
  for (const line of self) {
    const r = evaluateHostileScript(`#!/bin/bash\n${line}\n${FETCH}\n`, MAX_EVALUATION_WORK);
    assert.ok(r.work <= MAX_EVALUATION_WORK + 1e6, `${line}: ${r.work} units`);
    assert.ok(r.outcome === 'followed' || /budget|nest/.test(r.outcome), `${line}: ${r.outcome.slice(0, 200)}`);
  }
});

test('whatever a script multiplies, following it ends within its budget at the budget unit cost', () => {
  fc.assert(
    fc.property(scriptArb, (content) => {
      const r = evaluateHostileScript(content, TEST_BUDGET);
      // Counted: what was spent and the charge that stopped it (refused before its work, at most what came before).
      assert.ok(r.work <= 2 * TEST_BUDGET + 4 * content.length, `${r.work} units counted`);
      assert.ok(
        r.cpuNs <= NS_PER_UNIT * r.work + SLACK_NS,
        `${(r.cpuNs / 1e6).toFixed(0)} ms of CPU for ${r.work} units (${r.outcome.slice(0, 120)})`,
      );
    }),
    {
      seed: SEED,
      numRuns: 60,
      // The scripts are large: report the failure and where, not the whole script.
      reporter: (run) => {
        if (!run.failed) return;
        const script = String(run.counterexample?.[0] ?? '');
        throw new Error(
          `seed ${run.seed}, path ${run.counterexamplePath}: ${String(run.errorInstance).slice(0, 600)}\nscript (${script.length} characters): ${JSON.stringify(script.slice(0, 300))}`,
        );
      },
    },
  );
});

test('nesting deeper than the stack allows is an evaluation stop naming the script, not a RangeError', () => {
  for (const [open, close] of [
    ['{ ', '}; '],
    ['echo "$( ', ')" '],
    ['f() { if true; then ', 'fi; }; '],
  ] as const) {
    const r = evaluateHostileScript(`${open.repeat(50000)}true; ${close.repeat(50000)}\n`, MAX_EVALUATION_WORK);
    assert.match(r.outcome, /nested more than 256 levels deep .*at provisioning \/opt\/bin\/hostile/, open);
  }
  const recursion = evaluateHostileScript(
    `f() { ${'if true; then '.repeat(250)}f; ${'fi; '.repeat(250)}}\nf\n`,
    MAX_EVALUATION_WORK,
  );
  assert.match(recursion.outcome, /nests commands more than 1024 levels deep/);
});

test('the default profiles spend at most 5% of the budget per MachineDeployment and architecture', async () => {
  const { benchResourceList } = await import('../../bench/inputs.ts');
  const { parse } = await import('yaml');
  const { renderForReview } = await import('../../src/review/renderForReview.ts');
  const { machineDeploymentBoms } = await import('../../src/bom/machineDeploymentBoms.ts');
  const list = parse(benchResourceList(24)) as { items: any[]; functionConfig: any };
  const env = { env: () => undefined, readFile: () => '' };
  const rendered = renderForReview({ objects: list.items, functionConfig: list.functionConfig } as any, env);
  let most = 0;
  const charge = (ScriptEvaluator.prototype as any).charge;
  (ScriptEvaluator.prototype as any).charge = function (this: ScriptEvaluator, units: number, s: ScriptFile) {
    charge.call(this, units, s);
    most = Math.max(most, this.workSpent);
  };
  try {
    const boms = machineDeploymentBoms(rendered, rendered.reviews, { arch: ['amd64', 'arm64'] });
    assert.ok(boms.length >= 20, `${boms.length} bills`);
    assert.deepEqual(
      boms.filter((b) => b.incomplete !== undefined).map((b) => b.name),
      [],
    );
  } finally {
    (ScriptEvaluator.prototype as any).charge = charge;
  }
  assert.ok(most > 0 && most <= 0.05 * MAX_EVALUATION_WORK, `${most} units at most`);
});

test('osm-krm bom on a hostile profile exits 2 naming the MachineDeployment and script, in bounded time', () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-bom-budget-'));
  try {
    const items = itemsWithProvisioningConfig({
      files: [
        {
          path: '/opt/bin/hostile',
          permissions: 755,
          content: { inline: { data: `#!/bin/bash\nf() { ${'f; '.repeat(8)}${FETCH}; }\nf\n` } },
        },
      ],
      modules: { runcmd: ['/opt/bin/hostile'] },
    });
    writeFileSync(join(dir, 'items.yaml'), items.map((i) => stringify(i)).join('---\n'));
    const config = {
      ...BASE_CONFIG,
      metadata: { ...BASE_CONFIG.metadata, annotations: { 'config.kubernetes.io/local-config': 'true' } },
    };
    writeFileSync(join(dir, 'config.yaml'), stringify(config));
    const r = spawnSync(
      '/usr/bin/time',
      [
        '-f',
        '%U %S',
        process.execPath,
        join(REPO_ROOT, 'dist/osm-krm.cjs'),
        'bom',
        dir,
        '--config',
        join(dir, 'config.yaml'),
      ],
      // A guard against a hang, not a speed target.
      { encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' },
    );
    const lines = r.stderr.trim().split('\n');
    const [user, sys] = lines[lines.length - 1]!.split(' ').map(Number) as [number, number];
    assert.equal(r.status, 2, r.stderr.slice(-2000));
    assert.match(
      r.stderr,
      /osm-krm bom: error: MachineDeployment kube-system\/workers-a: following the scripts took more than the evaluation's budget .* at provisioning \/opt\/bin\/hostile/,
    );
    assert.match(r.stdout, /unresolved/);
    // Four evaluations (two MachineDeployments, two architectures) at about a second each on a busy machine.
    assert.ok(user + sys < 40, `${user + sys} s of CPU`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
