// Attacks the parse charge of a template's literals: a string, number or character constant is converted
// when it is parsed (unquoted, read as a number) and the string's value is kept in the parse tree, which the
// run keeps (src/render/templateCache.ts). Charged as one item (256 bytes) whatever its length, a named
// template whose output is `{{"\t\t..."}}` (4 MB), parsed again into 100 files, kept 100 unquoted copies and
// took the bundle out of memory; a long number literal took up to 200 ns a character on a charge of one unit.
// Each literal kind, long, must keep at most BYTES_PER_UNIT of heap per memory unit charged and spend at most
// NS_PER_UNIT of CPU per work unit charged (the calibration's bounds, templateMeterCalibration.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { newTemplate, TemplateError, type Template } from '../../src/template/index.ts';
import { templateMeter } from '../../src/template/cost.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const SEED = 20261128;
const BYTES_PER_UNIT = 4;
const NS_PER_UNIT = 10;
const MEMORY_SLACK = 2 * 1024 * 1024;
const CPU_SLACK_NS = 30e6;

/** A literal of about `n` characters, of each kind the parser converts. */
const literalArb = fc.record({
  kind: fc.constantFrom(
    (n: number) => `"${'\\t'.repeat(n / 2)}"`,
    (n: number) => `"${'\\u00e9'.repeat(n / 6)}"`,
    (n: number) => `"${'é'.repeat(n)}"`,
    (n: number) => `"${'a'.repeat(n)}"`,
    (n: number) => `\`${'\t'.repeat(n)}\``,
    (n: number) => `1.${'1'.repeat(n)}`,
    (n: number) => `1${'_1'.repeat(n / 2)}`,
    (n: number) => `${'1'.repeat(n)}i`,
    (n: number) => `0x0.${'0'.repeat(n)}1p0`,
    (n: number) => `'${'a'.repeat(n)}'`,
  ),
  n: fc.integer({ min: 200_000, max: 1_000_000 }),
});

test('a long literal is charged for what parsing it keeps and spends', () => {
  fc.assert(
    fc.property(literalArb, ({ kind, n }) => {
      // Several copies, as the second pass makes; flat already (a concatenation is flattened on first read,
      // which would count as the parse's).
      const texts = Array.from({ length: 4 }, (_, i) => Buffer.from(`${i}{{${kind(n)}}}`).toString());
      const kept: Template[] = [];
      const meter = templateMeter(1e12, 1e12);
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const start = process.cpuUsage();
      for (const text of texts) {
        const t = newTemplate('lit', {});
        try {
          t.parse(text, meter);
        } catch (e) {
          if (!(e instanceof TemplateError)) throw e;
        }
        kept.push(t);
      }
      const used = process.cpuUsage(start);
      gc();
      const heap = process.memoryUsage().heapUsed - heapBefore;
      const cpuNs = (used.user + used.system) * 1000;
      assert.equal(kept.length, texts.length);
      assert.ok(heap <= BYTES_PER_UNIT * meter.memory + MEMORY_SLACK, `${heap} bytes kept for ${meter.memory} charged`);
      assert.ok(
        cpuNs <= NS_PER_UNIT * meter.work + CPU_SLACK_NS,
        `${(cpuNs / 1e6).toFixed(0)} ms for ${meter.work} units`,
      );
    }),
    {
      seed: SEED,
      numRuns: 20,
      reporter: (r) => {
        if (r.failed)
          throw new Error(
            `seed ${r.seed} path ${r.counterexamplePath}: ${String(r.counterexample?.[0].kind(12))} n=${r.counterexample?.[0].n}: ${String(r.errorInstance).slice(0, 500)}`,
          );
      },
    },
  );
});
