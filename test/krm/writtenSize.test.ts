// What an input's values take written back as YAML is bounded (src/krm/inputBounds.ts, boundedToJS): our writer
// indents each line by its depth and writes a multi-line string one indented line per line break, so a few MB of
// deep input became hundreds of MB of output (README.md, Threat model). And aliases resolve to the node the bound's
// walk found, not by the package's scan over every anchor before each alias.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Alias, parseDocument } from 'yaml';
import {
  boundedToJS,
  InputLimitError,
  NodeBudget,
  WRITTEN_ALLOWANCE,
  WRITTEN_PER_BYTE,
  writtenSize,
} from '../../src/krm/inputBounds.ts';
import { readInputYaml } from '../../src/krm/inputYaml.ts';
import { PARSE_OPTIONS } from '../../src/krm/yamlSchema.ts';
import { writeYaml } from '../../src/codec/yamlWriter.ts';
import { parseDocuments } from '../../src/cli/manifestDirectory.ts';

/** The values of `text` read as every input is, and what the budget counted written. */
function read(text: string, budget = new NodeBudget()): { value: unknown; written: number } {
  budget.countText(text, 'the text');
  const doc = parseDocument(text, PARSE_OPTIONS);
  assert.deepEqual(doc.errors, []);
  return { value: boundedToJS(doc, text, 'the text', budget), written: budget.written };
}

const nested = (depth: number, inner: string) => '['.repeat(depth) + inner + ']'.repeat(depth);

test('what the values take written bounds what the writer writes (any JSON value, nested or not)', () => {
  const line = fc.constantFrom('', 'a', 'b c', ' x', '#', '- y');
  const text = fc.oneof(
    fc.string(),
    fc.array(line, { maxLength: 6 }).map((ls) => ls.join('\n')),
  );
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), tie('v'), { maxKeys: 4 }),
    ),
  })).v;
  fc.assert(
    fc.property(value, fc.integer({ min: 0, max: 40 }), (v, depth) => {
      const { value: read_, written } = read(nested(depth, JSON.stringify(v)));
      // Quoting writes a control character as six (`\u0001`): the measure counts it as one.
      assert.ok(writeYaml(read_).length <= 6 * written, `${writeYaml(read_).length} > 6 * ${written}`);
      // The fast path's values are measured alike.
      if (depth === 0) assert.equal(writtenSize(read_).written, written);
    }),
    { numRuns: 300 },
  );
});

test('a deep string of many line breaks, deep short scalars, or a deep alias bomb is refused before it is written', () => {
  const refused = /would take more than osm-krm writes in one run when written back as YAML/;
  // 3 MB: one string of a million line breaks 250 levels deep was written as 500 MB (exit 0, 2.7 GB).
  const lines = JSON.stringify('a\n'.repeat(1_000_000));
  assert.throws(
    () => read(nested(250, lines)),
    (e: Error) => e instanceof InputLimitError && refused.test(e.message),
  );
  // The same string near the top is read: it is written as about what it is.
  assert.equal((read(nested(2, lines)).value as string[][])[0]![0]!.length, 2_000_000);
  // 1.4 MB: 700,000 scalars 250 levels deep were written as 356 MB.
  const scalars = `[${Array(700_000).fill('a').join(',')}]`;
  assert.throws(() => read(nested(250, scalars)), refused);
  // 2.6 KB: aliases of a deep anchor, each within the alias bound, were written as 450 MB.
  const bomb =
    `[&a [${Array(1000).fill('x').join(',')}], &b [${Array(10).fill('*a').join(',')}], ` +
    `&c [${Array(10).fill('*b').join(',')}], [${Array(8).fill('*c').join(',')}]]`;
  assert.throws(() => read(nested(240, bomb)), refused);
});

test("the fast path's values are bounded alike: a deep double-quoted string of `\\n` escapes, a long flow list", () => {
  const deep = (value: string) =>
    Array.from({ length: 240 }, (_, i) => `${' '.repeat(2 * i)}k${i}:\n`).join('') + `${' '.repeat(480)}s: ${value}\n`;
  const refused = /the text would take more than osm-krm writes in one run when written back as YAML/;
  assert.throws(() => readInputYaml(deep(`"${'a\\n'.repeat(1_000_000)}"`), 'the text', new NodeBudget()), refused);
  assert.throws(
    () => readInputYaml(deep(`[${Array(700_000).fill('a').join(', ')}]`), 'the text', new NodeBudget()),
    refused,
  );
  // Near the top, the same string is read.
  const value = readInputYaml(`s: "${'a\\n'.repeat(1_000_000)}"\n`, 'the text', new NodeBudget());
  assert.equal((value as { s: string }).s.length, 2_000_000);
});

test("the allowance is the run's: documents and files read with one budget share it", () => {
  const budget = new NodeBudget();
  // Each document alone is within the allowance; together they are not (a file's documents each had their own).
  const deep = nested(200, JSON.stringify('a\n'.repeat(40_000)));
  const perDocument = read(deep, new NodeBudget()).written;
  const documents = Math.ceil((WRITTEN_ALLOWANCE + WRITTEN_PER_BYTE * 40 * deep.length) / perDocument) + 1;
  assert.ok(documents < 40);
  const text = Array(documents).fill(deep).join('\n---\n');
  assert.throws(() => parseDocuments(text, 'f.yaml', budget), /would take more than osm-krm writes in one run/);
});

test('aliases resolve to the node the walk found: the package never scans the anchors before each alias', () => {
  // The package's own method, called back with its own `this` below.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const resolve = Alias.prototype.resolve;
  let scans = 0;
  Alias.prototype.resolve = function (this: Alias, ...args: Parameters<typeof resolve>) {
    scans++;
    return resolve.apply(this, args);
  };
  try {
    const anchors = Array.from({ length: 2000 }, (_, i) => `&a${i % 100} ${i}`).join(', ');
    const aliases = Array.from({ length: 500 }, (_, i) => `*a${i % 100}`).join(', ');
    const merges = '{<<: *m, k: 1}, {<<: [*m, *n], j: 2}';
    const { value } = read(`[[${anchors}], [${aliases}], &m {k: 0, l: 1}, &n {j: 0, z: 3}, ${merges}]`);
    assert.equal(scans, 0);
    const [, resolved, , , merged1, merged2] = value as unknown[][];
    assert.deepEqual(
      resolved,
      Array.from({ length: 500 }, (_, i) => 1900 + (i % 100)),
    );
    assert.deepEqual(merged1, { k: 1, l: 1 });
    assert.deepEqual(merged2, { k: 0, l: 1, j: 2, z: 3 });
  } finally {
    Alias.prototype.resolve = resolve;
  }
});

test('aliases, anchors redefined and merge keys give the values the package gives (any arrangement)', () => {
  const names = fc.constantFrom('a', 'b', 'c');
  // A flow text whose anchors and aliases come in any order: those before their anchor are refused by both.
  const node = fc.letrec((tie) => ({
    n: fc.oneof(
      { depthSize: 'small' },
      fc.tuple(names, fc.integer({ min: 0, max: 9 })).map(([a, v]) => `&${a} ${v}`),
      names.map((a) => `*${a}`),
      fc.integer({ min: 0, max: 9 }).map(String),
      fc.array(tie('n'), { maxLength: 4 }).map((xs) => `[${xs.join(', ')}]`),
      fc
        .tuple(names, fc.array(tie('n'), { maxLength: 3 }))
        .map(([a, xs]) => `&${a} {${xs.map((x, i) => `k${i}: ${x}`).join(', ')}}`),
      fc
        .tuple(names, fc.array(tie('n'), { maxLength: 3 }))
        .map(([a, xs]) => `{<<: *${a}, ${xs.map((x, i) => `k${i}: ${x}`).join(', ')}}`),
    ),
  })).n;
  fc.assert(
    fc.property(node, (text) => {
      const expected = parseDocument(text, PARSE_OPTIONS);
      let want: unknown;
      try {
        if (expected.errors.length > 0) return;
        want = expected.toJS({ maxAliasCount: -1 });
      } catch {
        // The package refuses an alias before its anchor, or a merge of a non-map: so does the bound, or the values.
        assert.throws(() => read(text));
        return;
      }
      let got: unknown;
      try {
        got = read(text).value;
      } catch (e) {
        // Where the package makes values, only the bound may refuse (an alias inside its own anchor).
        assert.ok(e instanceof InputLimitError, String(e));
        return;
      }
      assert.deepEqual(got, want);
    }),
    { numRuns: 500 },
  );
});
