// Attacks the YAML writer every generated object goes through (src/codec/yamlWriter.ts: the OSC, the Secrets,
// an Ignition profile's Container Linux Config): a multi-line string is written as a literal block, whose
// chomping indicator was chosen with /\n\n+$/. Tried at every line break of a run of blank lines that does not
// end the string, that pattern ran to the run's end and back: a profile file with 80,000 blank lines in the
// middle (an 80 KB profile) took `osm-krm generate` 23 s, 300,000 more than two minutes, outside any budget.
// Whatever runs of line breaks a string holds, writing it is linear and it reads back as itself.
//
// Not a timed test: the bound is per character, hundreds of times what a linear write takes on a loaded machine
// and far below what the quadratic one took at these lengths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from 'yaml';
import { writeYaml } from '../../src/codec/yamlWriter.ts';

const SEED = 20261128;
const NS_PER_CHAR = 2_000;
const SLACK_NS = 50e6;

/** Text, then a long run of line breaks (blank lines, or lines of blanks), then text or more breaks. */
const stringArb = fc
  .record({
    head: fc.constantFrom('a\n', '#!/bin/bash\n', ' indented\n', '\n', 'x'),
    run: fc.constantFrom('\n', '\n\n', ' \n', '\t\n'),
    n: fc.integer({ min: 20_000, max: 120_000 }),
    tail: fc.constantFrom('b\n', 'b', '\n', '\n\n', 'b\n\n\n', ''),
  })
  .map(({ head, run, n, tail }) => head + run.repeat(Math.ceil(n / run.length)) + tail);

test('a string with long runs of line breaks is written in linear time and reads back as itself', () => {
  fc.assert(
    fc.property(stringArb, (s) => {
      const start = process.cpuUsage();
      const text = writeYaml({ content: s });
      const used = process.cpuUsage(start);
      const ns = (used.user + used.system) * 1000;
      assert.ok(ns <= NS_PER_CHAR * s.length + SLACK_NS, `${(ns / 1e6).toFixed(0)} ms for ${s.length} characters`);
      assert.equal((parse(text) as { content: string }).content, s);
    }),
    {
      seed: SEED,
      numRuns: 20,
      reporter: (r) => {
        if (!r.failed) return;
        const s = String(r.counterexample?.[0] ?? '');
        throw new Error(
          `seed ${r.seed} path ${r.counterexamplePath}: ${String(r.errorInstance).slice(0, 300)}; string of ${s.length} characters: ${JSON.stringify(s.slice(0, 40))}...`,
        );
      },
    },
  );
});
