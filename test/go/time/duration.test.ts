// Expectations produced by Go 1.19's time.ParseDuration / Duration.String on the same inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatGoDuration, parseGoDuration } from '../../../src/go/time/duration.ts';

const OK: Array<[string, string]> = [
  ['2m', '2m0s'],
  ['90s', '1m30s'],
  ['1h30m', '1h30m0s'],
  ['1.5h', '1h30m0s'],
  ['100ms', '100ms'],
  ['1us', '1µs'],
  ['1µs', '1µs'],
  ['3ns', '3ns'],
  ['0', '0s'],
  ['-2m', '-2m0s'],
  ['2h0m5s', '2h0m5s'],
  ['0.5s', '500ms'],
  ['1m0.25s', '1m0.25s'],
  ['36h', '36h0m0s'],
];

test('parse and print durations like Go', () => {
  for (const [input, printed] of OK) assert.equal(formatGoDuration(parseGoDuration(input)), printed, input);
});

test('reject malformed durations with Go messages', () => {
  assert.throws(() => parseGoDuration('abc'), /^Error: time: invalid duration "abc"$/);
  assert.throws(() => parseGoDuration('5'), /time: missing unit in duration "5"/);
  assert.throws(() => parseGoDuration('1x'), /time: unknown unit "x" in duration "1x"/);
  assert.throws(() => parseGoDuration(''), /time: invalid duration ""/);
});
