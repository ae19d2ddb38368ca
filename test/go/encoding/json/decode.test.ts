// encoding/json's scanner and decoder where the sprig corpus does not reach: Go's SyntaxError offsets, the
// nesting limit, UseNumber, the members view. Expected values were produced by Go 1.19's encoding/json.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkValid, JsonSyntaxError } from '../../../../src/go/encoding/json/scanner.ts';
import { goJsonDecode, JsonMembers, JsonNumber, unmarshal } from '../../../../src/go/encoding/json/decode.ts';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

test("syntax errors carry Go's text and Offset", () => {
  const cases: Array<[string, string, number]> = [
    ['', 'unexpected end of JSON input', 0],
    ['  ', 'unexpected end of JSON input', 2],
    ['{"a" 1}', "invalid character '1' after object key", 6],
    ['[1,]', "invalid character ']' looking for beginning of value", 4],
    ['tru', "invalid character ' ' in literal true (expecting 'e')", 3],
    ['"abc\\', "invalid character ' ' in string escape code", 5],
    ['-', "invalid character ' ' in numeric literal", 1],
    ['[1 2]', "invalid character '2' after array element", 4],
    ['{"a":1}x', "invalid character 'x' after top-level value", 8],
    ['"\\u12"', `invalid character '"' in \\u hexadecimal character escape`, 6],
    ['['.repeat(10001), "invalid character '[' exceeded max depth", 10001],
  ];
  for (const [input, message, offset] of cases) {
    const e = checkValid(bytes(input));
    assert.ok(e instanceof JsonSyntaxError, input);
    assert.deepEqual([e.message, e.offset], [message, offset], input);
  }
  assert.equal(checkValid(bytes(' {"a": [1, "x", null]} ')), undefined);
});

test('nesting deeper than 10000 is an error, not a stack overflow; 10000 decodes', () => {
  assert.equal(
    goJsonDecode('['.repeat(10001) + ']'.repeat(10001), 'any').error,
    "invalid character '[' exceeded max depth",
  );
  assert.equal(goJsonDecode('['.repeat(10000) + ']'.repeat(10000), 'any').error, undefined);
});

test('an escaped high surrogate before an invalid byte is U+FFFD twice, not a pair with the byte', () => {
  // Go: Unmarshal([]byte("\"\\ud83d\x80\"")) gives "\ufffd\ufffd"; \udc80 here is the raw byte 0x80.
  assert.deepEqual(goJsonDecode('"\\ud83d\udc80"', 'any'), { value: '\ufffd\ufffd' });
});

test('UseNumber keeps every literal; Unmarshal into interface{} fails on one out of float64 range', () => {
  const r = unmarshal(bytes('{"n":[1,1.5,1e400,-0,12345678901234567890]}'), 'any', { useNumber: true });
  assert.equal(r.error, undefined);
  const literals = ((r.value as Record<string, unknown>).n as JsonNumber[]).map((n) => n.literal);
  assert.deepEqual(literals, ['1', '1.5', '1e400', '-0', '12345678901234567890']);
  assert.equal(unmarshal(bytes('[1e400]')).error, 'json: cannot unmarshal number 1e400 into Go value of type float64');
});

test('the members view keeps order and duplicates, at every level', () => {
  const r = unmarshal(bytes('{"b":1,"a":{"x":null,"x":"y"},"b":[{}]}'), 'any', { members: true, useNumber: true });
  assert.deepEqual(
    r.value,
    new JsonMembers([
      ['b', new JsonNumber('1')],
      [
        'a',
        new JsonMembers([
          ['x', null],
          ['x', 'y'],
        ]),
      ],
      ['b', [new JsonMembers([])]],
    ]),
  );
});
