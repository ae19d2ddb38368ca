// The JSON value count is what a parser builds: for any JSON text, however it is spaced, it is exactly the
// objects, arrays, strings (keys included), numbers and literals JSON.parse makes, so refusing past the count
// refuses past the cost; for any text at all it ends and counts at most one value a character.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { countJsonValues, JsonValueLimitReached } from '../../src/codec/jsonValueCount.ts';

/** What JSON.parse builds for `v`: each value, and each key of an object. */
function built(v: unknown): number {
  if (Array.isArray(v)) return 1 + v.reduce((n: number, x) => n + built(x), 0);
  if (v !== null && typeof v === 'object') return 1 + Object.entries(v).reduce((n, [, x]) => n + 1 + built(x), 0);
  return 1;
}

test('the count of any JSON text is what JSON.parse builds from it', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.constantFrom(undefined, 0, 2, '\t'), (v, space) => {
      const text = JSON.stringify(v, null, space);
      assert.equal(countJsonValues(text, Infinity), built(JSON.parse(text)), text);
    }),
    { numRuns: 2000 },
  );
});

test('any text is counted in one pass, at most one value a character', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...'{}[]",:\\ -0e.+tx\n') }), (text) => {
      assert.ok(countJsonValues(text, Infinity) <= text.length);
    }),
    { numRuns: 2000 },
  );
});

test('past the limit it throws at the value past it', () => {
  assert.equal(countJsonValues('[{},{}]', 3), 3);
  assert.throws(
    () => countJsonValues('[{}, {}, {}]', 3),
    (e: unknown) => e instanceof JsonValueLimitReached && e.offset === 9 && e.limit === 3,
  );
  assert.throws(() => countJsonValues('{"a":"b}"}', 2), JsonValueLimitReached);
  assert.equal(countJsonValues('{"a\\"}":"b"}', 3), 3);
});

test('a key longer than 16,383 characters once decoded is refused where it begins; a value of any length is not', () => {
  // `template --data` with such a key ended in "internal error" (the Go map refused it after decoding).
  const key = (length: number, escaped: boolean) =>
    JSON.stringify('k'.repeat(length)).replace(/k/g, (k, at: number) => (escaped && at % 2 ? '\\u006b' : k));
  for (const escaped of [false, true]) {
    for (const [length, refused] of [
      [16_383, false],
      [16_384, true],
    ] as const) {
      const text = `{"a": 1,\n ${key(length, escaped)}\t : 2}`;
      let caught: unknown;
      try {
        countJsonValues(text, Infinity);
      } catch (e) {
        caught = e;
      }
      if (refused) {
        assert.ok(caught instanceof JsonValueLimitReached && caught.of === 'key', `${length} ${escaped}`);
        assert.equal(caught.offset, text.indexOf('\n') + 2);
      } else assert.equal(caught, undefined, `${length} ${escaped}`);
    }
  }
  assert.equal(countJsonValues(`{"a": ${JSON.stringify('v'.repeat(40_000))}}`, Infinity), 3);
  assert.equal(countJsonValues(`[${JSON.stringify('v'.repeat(40_000))}]`, Infinity), 2);
});
