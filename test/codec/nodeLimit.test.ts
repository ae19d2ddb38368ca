// The node bound counts what a text costs the parsers: whatever the spelling (block, flow, JSON, terse forms
// that write no scalar at all), the nodes the `yaml` package composes are at most three times what the bound
// counts (and the count at most three times the nodes: a fair count). Whatever the text, well-formed or not,
// what the parser composes (documents, errors, warnings, nodes) is at most six times the nodes counted, and
// its CST at most ten times the nodes and layout tokens, so refusing past the counts refuses past the cost.
// That the fast path counts exactly as the lexer does is checked on its corpus (blockYamlFastPath.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Parser, parseAllDocuments, stringify, visit } from 'yaml';
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
  assert.ok(counted <= 3 * nodes + 1, `${JSON.stringify(text.slice(0, 200))}: ${counted} counted, ${nodes} nodes`);
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
  assert.deepEqual(countYamlNodes(text, Infinity), { nodes: 14, aliases: 1, layout: 12 });
  const offsets: number[] = [];
  for (let limit = 0; limit < 14; limit++) {
    try {
      countYamlNodes(text, limit);
      assert.fail(`not stopped at ${limit}`);
    } catch (e) {
      assert.ok(e instanceof NodeLimitReached);
      offsets.push(e.offset);
    }
  }
  // The document, a, :, [, x, ",", y, ], b, :, -, "z", -, *w: each where it is written.
  assert.deepEqual(offsets, [7, 7, 8, 10, 11, 12, 14, 15, 17, 18, 22, 24, 30, 32]);
  // Aliases and layout have limits of their own.
  assert.throws(
    () => countYamlNodes(text, Infinity, 0),
    (e) => e instanceof NodeLimitReached && e.of === 'aliases' && e.offset === 32,
  );
  assert.throws(
    () => countYamlNodes(text, Infinity, Infinity, 2),
    (e) => e instanceof NodeLimitReached && e.of === 'layout' && e.offset === 9,
  );
});

/**
 * What the `yaml` package builds for `text`: `composed`, its documents, errors, warnings and nodes (pairs too),
 * each far costlier than a token; `tokens`, every object of its CST, one or a few for each token.
 */
function built(text: string): { composed: number; tokens: number } {
  const objects = (value: unknown, seen: Set<unknown>): number => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return 0;
    seen.add(value);
    let n = 1;
    for (const v of Object.values(value as object)) n += objects(v, seen);
    return n;
  };
  let tokens = 0;
  for (const token of new Parser().parse(text)) tokens += objects(token, new Set());
  let composed = 0;
  for (const doc of parseAllDocuments(text, PARSE_OPTIONS)) {
    composed += 1 + doc.errors.length + doc.warnings.length;
    const count = () => void composed++;
    visit(doc, { Scalar: count, Map: count, Seq: count, Alias: count, Pair: count });
  }
  return { composed, tokens };
}

// Pieces of YAML, well-formed or not, each repeated: a piece the count missed would build objects that grow
// with the repeats while the count stays put. A list of what counts missed empty documents (`---` lines), stray
// `]`, unknown directives, `?` keys and blank lines: 2 million of any of them reached 2-3 GB (README.md, Threat
// model); counting the lexer's every token but a counted token's own parts leaves no piece out.
const PIECES = [
  '---\n',
  '...\n',
  '%FOO\n',
  '%YAML 1.2\n',
  ']\n',
  '}\n',
  ']',
  '? ',
  '?\n',
  ': ',
  ':\n',
  ', ',
  '- ',
  '-\n',
  '&a ',
  '&a\n',
  '!t ',
  '!!str\n',
  '*a ',
  '{',
  '[',
  '#c\n',
  ' ',
  '\n',
  '\t',
  'a',
  "'q'",
  '"x" ',
  '|\n',
  '>\n',
  'k: v\n',
  '  ',
  '\ufeff',
  '\r\n',
  '`',
  '@',
];

test('whatever the text, what the parser composes is at most six times the nodes counted, its CST ten times the tokens', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }),
      fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 2 }),
      fc.integer({ min: 1, max: 60 }),
      (head, piece, repeats) => {
        const text = head.join('') + piece.join('').repeat(repeats);
        const { nodes, layout } = countYamlNodes(text, Infinity);
        const { composed, tokens } = built(text);
        const about = `${JSON.stringify(text.slice(0, 80))}: ${composed} composed, ${tokens} CST objects, ${nodes} nodes, ${layout} layout`;
        assert.ok(composed <= 6 * nodes + 1, about);
        assert.ok(tokens <= 10 * (nodes + layout + 1), about);
      },
    ),
    { seed: 20261129, numRuns: 3000 },
  );
});
