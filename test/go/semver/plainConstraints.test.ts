// Plain constraints (`~1.33.0`, `<1.29`) are read without Masterminds' regexps; for every text the result (or
// the error) must be the grammar's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseConstraints, parseConstraintsByGrammar } from '../../../src/go/semver/semver.ts';
import { UNMETERED } from '../../../src/go/internal/meter.ts';

function outcome(parse: (text: string) => unknown, text: string): unknown {
  try {
    return parse(text);
  } catch (e) {
    return { error: (e as Error).message };
  }
}

const OPERATORS = ['', '=', '!=', '>', '<', '>=', '=>', '<=', '=<', '~', '~>', '^', '==', '>>', '~=', '^=', '!'];
const number = fc.oneof(
  fc.constantFrom('0', '1', '00', '07', '29', '18446744073709551615', '18446744073709551616', 'x', '*'),
  fc.nat().map(String),
);
const plainLike = fc
  .tuple(
    fc.constantFrom(...OPERATORS),
    fc.array(number, { minLength: 1, maxLength: 4 }),
    fc.constantFrom('', ' ', 'v', '-rc.1', '+b', ' || 2', ', <3', ' - 4'),
  )
  .map(([op, parts, extra]) => (extra === 'v' ? `${op}v${parts.join('.')}` : `${op}${parts.join('.')}${extra}`));
const anyText = fc.string({
  unit: fc.constantFrom('0', '1', '9', '.', '<', '>', '=', '!', '~', '^', 'v', 'x', ' ', '-', '|', ','),
  maxLength: 12,
});

test('plain constraints parse as the grammar parses them, errors included', () => {
  fc.assert(
    fc.property(fc.oneof(plainLike, anyText), (text) => {
      assert.deepEqual(
        outcome((t) => parseConstraints(t, UNMETERED), text),
        outcome((t) => parseConstraintsByGrammar(t, UNMETERED), text),
        text,
      );
    }),
    { numRuns: 4000, seed: 33 },
  );
});

test("the embedded profiles' constraints take the plain path and mean what they say", () => {
  for (const text of ['<1.29', '>=1.34.0', '~1.33.0'])
    assert.deepEqual(parseConstraints(text, UNMETERED), parseConstraintsByGrammar(text, UNMETERED));
  const { groups } = parseConstraints('~1.33.0', UNMETERED);
  assert.equal(groups[0]![0]!.op, '~');
  assert.equal(groups[0]![0]!.con.minor, 33n);
});
