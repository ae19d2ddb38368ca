// The differential tooling itself: the oracle's value convention, outcome comparison, the corpus
// loader's validation and the fuzz shrinker.

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadCorpus } from './corpus.ts';
import { render, type Node } from './fuzz/generator.ts';
import { shrink } from './fuzz/shrink.ts';
import { compareOutcome } from './harness.ts';
import { goJsonStringify } from './oracle/goJsonStringify.ts';
import { runOracle } from './oracle/oracle.ts';

test('the oracle sees bigint as Go int and number as float64, exactly', async () => {
  const data = { i: 9007199254740993n, f: 2, g: 0.1, neg: -0, l: [1n, 1.5], m: { k: null } };
  assert.equal(goJsonStringify(data), '{"i":9007199254740993,"f":2.0,"g":0.1,"neg":-0.0,"l":[1,1.5],"m":{"k":null}}');
  const [r] = await runOracle([
    {
      name: 'types',
      template: '{{ printf "%T=%v %T=%v %T %v %T %T" .i .i .f .f .g .neg (index .l 0) (index .l 1) }}',
      data,
    },
  ]);
  assert.deepEqual(r, { output: 'int=9007199254740993 float64=2 float64 -0 int float64', error: null });
});

test("the oracle reports parse and exec errors with Go's text, and partial output", async () => {
  const rs = await runOracle([
    { name: 'p', template: '{{ nope }}' },
    { name: 'e', template: 'ab{{ index .l 1 }}', data: { l: [] } },
    { name: 'sprig', template: '{{ upper "x" }}', funcs: 'sprig' },
    { name: 'osm', template: '{{ toYaml (list 1) }}', funcs: 'osm' },
    { name: 'hermetic', template: '{{ now }}', funcs: 'osm' },
    { name: 'defines', template: '{{ template "d" }}', defines: ['{{ define "d" }}D{{ end }}'] },
  ]);
  assert.deepEqual(rs, [
    { output: '', error: 'template: p:1: function "nope" not defined' },
    {
      output: 'ab',
      error: 'template: e:1:5: executing "e" at <index .l 1>: error calling index: index out of range: 1',
    },
    { output: 'X', error: null },
    { output: '- 1', error: null },
    { output: '', error: 'template: hermetic:1: function "now" not defined' },
    { output: 'D', error: null },
  ]);
});

test('outcomes agree only on identical output, or on failure with identical message', () => {
  const ok = { output: 'x', error: null };
  const err = { output: 'partial', error: 'template: t:1: boom' };
  assert.equal(compareOutcome(ok, { kind: 'output', output: 'x' }), null);
  assert.equal(compareOutcome(ok, { kind: 'output', output: 'x ' }), 'outputs differ');
  assert.equal(compareOutcome(ok, { kind: 'error', message: 'e' }), 'Go rendered, we failed');
  assert.equal(compareOutcome(err, { kind: 'error', message: 'template: t:1: boom' }), null);
  assert.equal(compareOutcome(err, { kind: 'error', message: 'template: t:1: Boom' }), 'error messages differ');
  assert.equal(compareOutcome(err, { kind: 'output', output: 'partial' }), 'Go failed, we rendered');
  assert.match(compareOutcome(ok, { kind: 'crash', message: 'TypeError' }) ?? '', /not a TemplateError/);
});

test('the corpus loads: at least 300 uniquely named cases with valid function maps', () => {
  const cases = loadCorpus();
  assert.ok(cases.length >= 300);
  assert.equal(new Set(cases.map((c) => c.name)).size, cases.length);
  const c = cases.find((x) => x.name === 'fields/whole float value');
  assert.deepEqual(c?.data, { f: 2 });
  assert.equal(typeof cases.find((x) => x.name === 'fields/big int value')?.data, 'object');
});

test('the corpus loader rejects stored expectations and unknown function maps', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corpus-'));
  writeFileSync(join(dir, 'a.yaml'), '- name: x\n  template: "{{ 1 }}"\n  expected: "1"\n');
  assert.throws(() => loadCorpus(dir), /unknown key expected/);
  writeFileSync(join(dir, 'a.yaml'), 'funcs: helm\ncases: []\n');
  assert.throws(() => loadCorpus(dir), /unknown funcs helm/);
  writeFileSync(join(dir, 'a.yaml'), '- name: x\n  template: a\n- name: x\n  template: b\n');
  assert.throws(() => loadCorpus(dir), /duplicate case name x/);
});

test('the shrinker reduces a failing tree to the node that matters', async () => {
  const tree: Node[] = [
    { t: 'text', s: 'hello ' },
    {
      t: 'if',
      arms: [
        {
          pipe: '.a',
          body: [
            { t: 'text', s: 'x' },
            { t: 'action', pipe: 'BUG', trim: 0 },
          ],
        },
      ],
      els: [{ t: 'text', s: 'no' }],
      trim: 0,
    },
    { t: 'range', pipe: '.l', body: [{ t: 'action', pipe: '.', trim: 3 }], els: null, trim: 0 },
  ];
  const fails = async (cands: Node[][]): Promise<number> => cands.findIndex((c) => render(c).includes('BUG'));
  const min = await shrink(tree, fails);
  assert.equal(render(min), '{{ BUG }}');
});
