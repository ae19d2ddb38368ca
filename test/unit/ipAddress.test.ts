// Expectations from Go 1.19's net.ParseIP(...).String().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseIP } from '../../src/render/ipAddress.ts';

test('IPs print like Go net.IP', () => {
  assert.equal(parseIP('10.0.0.10'), '10.0.0.10');
  assert.equal(parseIP('fd00::10'), 'fd00::10');
  assert.equal(parseIP('FD00:0:0:0:0:0:0:a'), 'fd00::a');
  assert.equal(parseIP('::ffff:10.0.0.1'), '10.0.0.1');
  assert.equal(parseIP('2001:db8:0:0:1:0:0:1'), '2001:db8::1:0:0:1');
  assert.equal(parseIP('::'), '::');
  assert.equal(parseIP('010.0.0.1'), undefined);
  assert.equal(parseIP('1.2.3'), undefined);
});
