// The go-systemd unit lexer Ignition 2.3 validates units with (as vendored by ct v0.9.4). Expectations were
// taken from that Go code run on the same inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUnitContent } from '../../../src/emit/userdata/ignition/systemdUnit.ts';

function options(content: string): Array<[string, string]> {
  const r = parseUnitContent(content);
  if (!r.ok) assert.fail(`unexpected error: ${r.error}`);
  return r.options.map((o) => [o.section, o.name]);
}

function error(content: string): string {
  const r = parseUnitContent(content);
  if (r.ok) assert.fail('expected an error');
  return r.error;
}

test('sections and option names; text before the first section is skipped, comments anywhere there', () => {
  assert.deepEqual(options(''), []);
  assert.deepEqual(options('Foo=bar\n[Unit]\nA=b\n'), [['Unit', 'A']]);
  assert.deepEqual(options('[Unit]\nDescription=x\n\n[Install]\nWantedBy=multi-user.target\n'), [
    ['Unit', 'Description'],
    ['Install', 'WantedBy'],
  ]);
  assert.deepEqual(options('# c\n; c\n[Service]\nExecStart=/bin/sh -c \\\n  "echo"\nX=1'), [
    ['Service', 'ExecStart'],
    ['Service', 'X'],
  ]);
  assert.deepEqual(options('junk # comment\n[Unit]\n'), []);
  assert.deepEqual(options('[Un\nit]\nA=b\n'), [['Un\nit', 'A']]);
  assert.deepEqual(options('[Unit]\r\nA=b\r\n'), [['Unit', 'A']]);
  assert.deepEqual(options('[Unit]\n  A = b  \n\u00a0B=c\n'), [
    ['Unit', 'A'],
    ['Unit', 'B'],
  ]);
});

test("errors, with go-systemd's texts", () => {
  assert.equal(error('[Unit] x\n'), 'found garbage after section name : [120]');
  assert.equal(error('[Unit'), 'unable to find end of section');
  assert.equal(error('[Unit]\nFoo\n'), 'unexpected newline encountered while parsing option name');
  assert.equal(error('[Unit]\nFoo'), 'EOF');
});

test('"line too long" depends on how much a 4096-byte bufio.Reader happens to hold at each lexer step', () => {
  assert.equal(error('[Unit]\n' + 'x'.repeat(2047) + '\n'), 'unexpected newline encountered while parsing option name');
  assert.equal(error('[Unit]\n' + 'x'.repeat(2048) + '\n'), 'line too long (max 2048 bytes)');
  assert.deepEqual(options('[Unit]\nA=' + 'x'.repeat(2045) + '\n'), [['Unit', 'A']]);
  assert.equal(error('[Unit]\n#' + 'c'.repeat(3000) + '\nA=b\n'), 'line too long (max 2048 bytes)');
  assert.equal(error('x'.repeat(5000) + '[Unit]\nA=b\n'), 'line too long (max 2048 bytes)');
  assert.equal(options(('[S]\nE=' + 'y'.repeat(2040) + '\n').repeat(3)).length, 3);
  // The same 2102-byte line fails or passes depending on where it starts.
  const longLineAfter = (n: number) => '[Unit]\n' + 'A=b\n'.repeat(n) + 'B=' + 'y'.repeat(2100) + '\n';
  assert.equal(error(longLineAfter(510)), 'line too long (max 2048 bytes)');
  assert.equal(options(longLineAfter(511)).length, 512);
  assert.equal(options(longLineAfter(600)).length, 601);
  assert.equal(error(longLineAfter(1100)), 'line too long (max 2048 bytes)');
});
