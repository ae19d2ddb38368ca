// Attacks what the bill of materials makes of the commands it followed (src/bom/billOfMaterials.ts): the
// evaluator's budget bounded following the scripts, but not reading them into items afterwards. A quoted
// here-document of package sources, written in loops (or written once and moved into place in loops), cost one
// command each to follow and made an item per line each time: 1,000 lines in 900 passes made 900,000 items,
// took 18 s and 1.2 GB, and ended in "internal error: Maximum call stack size exceeded" (the items spread into
// one call). Whatever the scripts write, install or move, the bill ends within the budget with a result or the
// budget's error, never a RangeError, and holds a bounded number of items.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { renderForReview } from '../../src/review/renderForReview.ts';
import { machineDeploymentBoms } from '../../src/bom/machineDeploymentBoms.ts';
import { MAX_EVALUATION_WORK, NODE_UNITS } from '../../src/bom/scriptEvaluation.ts';
import { BASE_CONFIG, itemsWithProvisioningConfig } from './inputCorpus.ts';

const SEED = 20261128;
const L = 'a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D';

const deb = (n: number, k: string) =>
  Array.from({ length: n }, (_, i) => `deb http://r${i}${k}.example/ubuntu noble main`).join('\n');
const yumRepo = (n: number) =>
  `[r]\n${Array.from({ length: n }, (_, i) => `baseurl=http://y${i}.example/`).join('\n')}`;

/** Script pieces whose commands each make many items (or copy many), run `passes` times by nested loops. */
const pieceArb = fc
  .tuple(
    fc.constantFrom(
      (n: number) => `cat > /etc/apt/sources.list.d/a.list <<'EOF'\n${deb(n, '')}\nEOF`,
      (n: number) => `cat > /etc/apt/sources.list.d/a.list <<EOF\n${deb(n, '$a$b')}\nEOF`,
      (n: number) => `cat > /etc/yum.repos.d/a.repo <<'EOF'\n${yumRepo(n)}\nEOF`,
      (_n: number) => `mv /tmp/s /etc/apt/sources.list.d/b.list`,
      (n: number) => `echo '${deb(n, '')}' | tee /etc/apt/sources.list.d/c.list`,
      (n: number) => `apt-get install -y ${Array.from({ length: n }, (_, i) => `p${i}`).join(' ')}`,
      (n: number) => `curl -o /opt/x https://d.example/$a/$b/${n}`,
    ),
    fc.integer({ min: 10, max: 2000 }),
    fc.integer({ min: 0, max: 2 }),
  )
  .map(([piece, n, loops]) => {
    const open = [`for a in ${L}; do`, `for b in ${L}; do`].slice(0, loops).join(' ');
    return `${open}\n${piece(n)}\n${'done\n'.repeat(loops)}`;
  });

const scriptArb = fc
  .array(pieceArb, { minLength: 1, maxLength: 4 })
  .map((pieces) => `#!/bin/bash\ncat > /tmp/s <<'EOF'\n${deb(1000, 'm')}\nEOF\n${pieces.join('\n')}\n`);

function bomOf(script: string) {
  const items = itemsWithProvisioningConfig({
    files: [{ path: '/opt/bin/hostile', permissions: 755, content: { inline: { data: script } } }],
    modules: { runcmd: ['/opt/bin/hostile'] },
  });
  items.splice(2, 1); // one MachineDeployment
  const env = { env: () => undefined, readFile: () => '' };
  const rendered = renderForReview({ objects: items, functionConfig: BASE_CONFIG } as any, env as any);
  assert.equal(rendered.reviews.length, 1, JSON.stringify(rendered.results).slice(0, 500));
  return machineDeploymentBoms(rendered, rendered.reviews, { arch: ['amd64', 'arm64'] })[0]!;
}

test('whatever the scripts write, move or install, the bill ends within its budget with a bounded number of items', () => {
  fc.assert(
    fc.property(scriptArb, (script) => {
      const start = process.cpuUsage();
      const bom = bomOf(script);
      const used = process.cpuUsage(start);
      // Each item is charged like a command followed: at most the budget's worth per architecture.
      assert.ok(bom.items.length <= (2 * MAX_EVALUATION_WORK) / NODE_UNITS + 100, `${bom.items.length} items`);
      assert.ok(bom.incomplete === undefined || /budget/.test(bom.incomplete), bom.incomplete);
      // A guard against a hang, not a speed target: two evaluations of about a second each, on a busy machine.
      assert.ok(used.user + used.system < 30e6, `${(used.user + used.system) / 1e6} s of CPU`);
    }),
    {
      seed: SEED,
      numRuns: 12,
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

test('a here-document of 1,000 package sources written 900 times is an error at the budget, not a RangeError', () => {
  const bom = bomOf(
    `#!/bin/bash\nfor a in ${L}; do for b in ${L}; do\ncat > /etc/apt/sources.list.d/a.list <<'EOF'\n${deb(1000, '')}\nEOF\ndone; done\n`,
  );
  assert.match(bom.incomplete ?? '', /budget/);
  assert.ok(bom.items.some((i) => i.name === 'http://r999.example/ubuntu'));
});
