// parseJsonData: JSON template data in the Go-value convention (int → bigint, other numbers → number).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsonDataError, parseJsonData } from '../../src/cli/jsonData.ts';

test('integers become bigint (Go int), other numbers float64', () => {
  assert.deepEqual(
    parseJsonData('{"i": 42, "neg": -7, "zero": 0, "negzero": -0, "f": 1.0, "e": 1e3, "E": 2E-2, "half": 0.5}'),
    {
      i: 42n,
      neg: -7n,
      zero: 0n,
      negzero: 0n,
      f: 1,
      e: 1000,
      E: 0.02,
      half: 0.5,
    },
  );
});

test('integers are exact across the whole int64 range and float64 beyond it', () => {
  const v = parseJsonData(
    '[9007199254740993, 9223372036854775807, -9223372036854775808, 9223372036854775808, -9223372036854775809]',
  ) as unknown[];
  assert.deepEqual(v.slice(0, 3), [9007199254740993n, 9223372036854775807n, -9223372036854775808n]);
  assert.equal(typeof v[3], 'number');
  assert.equal(v[3], 9223372036854775808);
  assert.equal(v[4], -9223372036854775809);
});

test('scalars, nesting and whitespace', () => {
  assert.deepEqual(parseJsonData(' \t\r\n{"a": [true, false, null, "s", {"b": []}], "c": {}}\n'), {
    a: [true, false, null, 's', { b: [] }],
    c: {},
  });
  assert.equal(parseJsonData('"top"'), 'top');
  assert.equal(parseJsonData('null'), null);
  assert.equal(parseJsonData('12'), 12n);
});

test('string escapes, including surrogate pairs; an unpaired surrogate becomes U+FFFD as in Go', () => {
  assert.equal(parseJsonData(String.raw`"q\"b\\s\/\b\f\n\r\t\u00e9\u2028"`), 'q"b\\s/\b\f\n\r\t\u00e9\u2028');
  assert.equal(parseJsonData(String.raw`"\ud83d\ude00"`), '😀');
  assert.equal(parseJsonData(String.raw`"\ud800x\udc00"`), '\ufffdx\ufffd');
  assert.equal(parseJsonData('"日本 ✓"'), '日本 ✓');
});

test('a duplicate key keeps the last value, as Go does', () => {
  assert.deepEqual(parseJsonData('{"a": 1, "a": 2}'), { a: 2n });
});

test('"__proto__" and other special names are ordinary own keys and pollute nothing', () => {
  const v = parseJsonData('{"__proto__": {"polluted": 1}, "constructor": "c", "toString": 2}') as Record<
    string,
    unknown
  >;
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.deepEqual(Object.keys(v), ['__proto__', 'constructor', 'toString']);
  assert.ok(Object.prototype.hasOwnProperty.call(v, '__proto__'));
  assert.deepEqual(Object.getOwnPropertyDescriptor(v, '__proto__')?.value, { polluted: 1n });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal((v as { polluted?: unknown }).polluted, undefined);
});

test('invalid JSON is rejected with a positioned, readable error', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /line 1, column 1: the document is empty/],
    ['{"a": 1,}', /column 9: unexpected character, expected a string key/],
    ['[1 2]', /column 4: unexpected character, expected ',' or '\]' in array/],
    ['{"a" 1}', /expected ':' after object key/],
    ['01', /malformed number/],
    ['1.', /malformed number/],
    ['.5', /expected a value/],
    ['NaN', /expected a value/],
    ["{'a': 1}", /expected a string key/],
    ['"tab\there"', /control character U\+0009 in string/],
    ['"bad \\x escape"', /invalid escape "\\\\x"/],
    ['"\\u12"', /invalid \\u escape/],
    ['"open', /unterminated string/],
    ['{} {}', /after the top-level value/],
    ['\ufeff{}', /byte order mark/],
    ['{\n  "a": [1,\n  ]\n}', /line 3, column 3: unexpected character, expected a value/],
    ['[', /unexpected end of input/],
    ['tru', /expected a value/],
  ];
  for (const [text, re] of cases) {
    assert.throws(
      () => parseJsonData(text),
      (e: unknown) => e instanceof JsonDataError && re.test(e.message),
      `${JSON.stringify(text)} should fail with ${re}`,
    );
  }
});

test('nesting is bounded like Go (10000 levels), without a stack overflow', () => {
  assert.deepEqual(parseJsonData('[[[[1]]]]'), [[[[1n]]]]);
  const deep = '['.repeat(10001) + ']'.repeat(10001);
  assert.throws(() => parseJsonData(deep), JsonDataError);
  const ok = '['.repeat(10000) + ']'.repeat(10000);
  assert.doesNotThrow(() => parseJsonData(ok));
});
