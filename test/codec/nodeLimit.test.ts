// The node bound counts what a text costs the parsers: whatever the spelling (block, flow, JSON, terse forms
// that write no scalar at all), the nodes the `yaml` package composes are at most three times what the bound
// counts (and the count at most twice the nodes), so refusing past the count refuses past the cost. That the
// fast path counts exactly as the lexer does is checked on its corpus (blockYamlFastPath.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseAllDocuments, stringify, visit } from 'yaml';
import { countYamlNodes, NodeLimitReached } from '../../src/codec/nodeLimit.ts';
import { PARSE_OPTIONS } from '../../src/krm/yamlSchema.ts';

/** Nodes the `yaml` package composes (scalars, maps, sequences, aliases), or undefined when it rejects the text. */
function composed(text: string): number | undefined {
  let nodes = 0;
  for (const doc of parseAllDocuments(text, PARSE_OPTIONS)) {
    if (doc.errors.length > 0) return undefined;
    const count = () => void nodes++;
    visit(doc, { Scalar: count, Map: count, Seq: count, Alias: count });
  }
  return nodes;
}

function assertBounds(text: string): void {
  const nodes = composed(text);
  if (nodes === undefined) return;
  const counted = countYamlNodes(text, Infinity).nodes;
  assert.ok(nodes <= 3 * counted + 1, `${JSON.stringify(text.slice(0, 200))}: ${nodes} nodes, ${counted} counted`);
  assert.ok(counted <= 2 * nodes, `${JSON.stringify(text.slice(0, 200))}: ${counted} counted, ${nodes} nodes`);
}

test('terse forms that write few or no scalars are counted', () => {
  for (const text of [
    'a: [:,:,:,:,:,:]\n',
    'a: [? ,? ,? ,? ]\n',
    'a: {? , b, c}\n',
    'a: [{}, {}, [], [[]], {a: {}}]\n',
    '- \n- \n- \n- \n',
    '-\n  -\n    -\n      - x\n',
    'a:\nb:\nc:\nd:\n',
    'a: &x [1, 2]\nb: [*x, *x, *x, *x]\n',
    '--- \n--- \n--- \n',
    'a: !!map\nb: !!seq\nc: !!str\n',
    '? a\n? b\n? c\n',
    'a: |\nb: >\nc: |-\n',
  ])
    assertBounds(text);
});

test('generated documents in block, flow and JSON spellings: the count bounds the composed nodes', () => {
  const key = fc.string({ maxLength: 4 });
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(null, true, 0, 1.5, '', 'x', '0644', '- a', ': b'),
      fc.string({ maxLength: 6 }),
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    ),
  }));
  fc.assert(
    fc.property(fc.array(value, { minLength: 1, maxLength: 3 }), (docs) => {
      const spellings = [
        docs.map((d) => stringify(d)).join('---\n'),
        docs.map((d) => stringify(d, { collectionStyle: 'flow' })).join('---\n'),
        docs.map((d) => JSON.stringify(d)).join('\n---\n'),
      ];
      for (const text of spellings) assertBounds(text);
    }),
    { seed: 20261128, numRuns: 400 },
  );
});

test('the count stops at the token that passes the limit, with its offset', () => {
  const text = '# head\na: [x, y]\nb:\n  - "z"\n  - *w\n';
  assert.deepEqual(countYamlNodes(text, Infinity), { nodes: 10, aliases: 1 });
  const offsets: number[] = [];
  for (let limit = 0; limit < 10; limit++) {
    try {
      countYamlNodes(text, limit);
      assert.fail(`not stopped at ${limit}`);
    } catch (e) {
      assert.ok(e instanceof NodeLimitReached);
      offsets.push(e.offset);
    }
  }
  // The document, a, [, x, y, b, -, "z", -, *w: each where it is written.
  assert.deepEqual(offsets, [7, 7, 10, 11, 14, 17, 22, 24, 30, 32]);
  // Aliases have a limit of their own.
  assert.throws(
    () => countYamlNodes(text, Infinity, 0),
    (e) => e instanceof NodeLimitReached && e.of === 'aliases' && e.offset === 32,
  );
});
