// Attacks the reading of Go number syntax (strconv.ParseFloat's port), reached from a template's number
// literals (an imaginary literal is read as a float first, then as the whole token), from sprig's conversions
// and from the YAML decoder: each charges about one unit per character, so each must be linear. A long digit
// string that then fails to match (`{{111...1i}}`) was quadratic in a backtracking pattern: 100,000 digits
// took 6 s to parse, charged 113,000 units (56,000 ns per unit); the 96 MiB an input may hold, days.
//
// Not a timed test: the bound is per character, 100 times what a linear reading takes on a loaded machine
// and hundreds of times less than the quadratic one took at this length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseGoFloat } from '../../src/go/strconv/parseNumber.ts';
import { newTemplate, TemplateError } from '../../src/template/index.ts';
import { templateMeter } from '../../src/template/cost.ts';

const SEED = 20261128;
const LENGTH = 60_000;
const NS_PER_CHAR = 1_000;
const SLACK_NS = 20e6;

/** A long run of what a decimal mantissa may hold, then what makes the whole fail (or not). */
const numberArb = fc.record({
  body: fc.constantFrom('1', '9', '_1', '1_', '0', '.1'),
  head: fc.constantFrom('', '1', '1.', '.', '+1', '-'),
  tail: fc.constantFrom('i', 'x', '.', '..', 'e', 'e+', 'e1x', '_', 'p1', ''),
});

function cpuNs(f: () => void): number {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) * 1000;
}

const params: fc.Parameters<[{ body: string; head: string; tail: string }]> = {
  seed: SEED,
  numRuns: 25,
  reporter: (r) => {
    if (r.failed)
      throw new Error(
        `seed ${r.seed} path ${r.counterexamplePath}: ${JSON.stringify(r.counterexample)}: ${String(r.errorInstance).slice(0, 500)}`,
      );
  },
};

test('strconv.ParseFloat reads any string in time linear in its length', () => {
  fc.assert(
    fc.property(numberArb, ({ body, head, tail }) => {
      const text = head + body.repeat(Math.ceil(LENGTH / body.length)) + tail;
      const ns = cpuNs(() => parseGoFloat(text));
      assert.ok(ns <= NS_PER_CHAR * text.length + SLACK_NS, `${(ns / 1e6).toFixed(0)} ms for ${text.length} chars`);
    }),
    params,
  );
});

test("a template's number literal is parsed within the CPU its charge allows", () => {
  fc.assert(
    fc.property(numberArb, ({ body, head, tail }) => {
      const text = `{{${head.replace('.', '')}${body.replace('.', '')}${body.replace('.', '').repeat(LENGTH)}${tail}}}`;
      const meter = templateMeter(5e9, 5e9);
      const ns = cpuNs(() => {
        try {
          newTemplate('n', {}).parse(text, meter);
        } catch (e) {
          if (!(e instanceof TemplateError)) throw e;
        }
      });
      assert.ok(ns <= NS_PER_CHAR * meter.work + SLACK_NS, `${(ns / 1e6).toFixed(0)} ms for ${meter.work} units`);
    }),
    params,
  );
});
