// Expectations from Go 1.19's net.ParseIP(...).String().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseIP } from '../../../src/go/net/parseIP.ts';

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

test('IP syntax as Go parses it (net.ParseIP: no zones; one :: for at least one group; IPv4 only in the last 32 bits)', () => {
  for (const bad of [
    '',
    '1.2.3.4.5',
    '256.1.1.1',
    '1.2.3.04',
    '::1%eth0',
    '1::2::3',
    '1:2:3:4:5:6:7:8::',
    '1:2:3:4:5:6:7',
    '1.2.3.4::',
    '::1.2.3.4:5',
    '12345::',
    ':1:2:3:4:5:6:7',
    'g::1',
    '1:2:3:4:5:6:1.2.3.4:5',
  ]) {
    assert.equal(parseIP(bad), undefined, bad);
  }
  assert.equal(parseIP('1:2:3:4:5:6:1.2.3.4'), '1:2:3:4:5:6:102:304');
  assert.equal(parseIP('::1.2.3.4'), '::102:304');
  assert.equal(parseIP('0.0.0.0'), '0.0.0.0');
  assert.equal(parseIP('1:0:0:0:0:0:0:0'), '1::');
});
