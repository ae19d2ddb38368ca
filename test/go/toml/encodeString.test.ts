// Key and string quoting as BurntSushi/toml v1.6.0 encodes them (checked with Go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tomlKey, tomlKeyPath, tomlString } from '../../../src/go/toml/encodeString.ts';
import { encodeToml } from '../../../src/go/toml/encode.ts';
import { UNMETERED } from '../../../src/go/internal/meter.ts';
import { goSlice } from '../../../src/go/reflect/value.ts';

test('keys are bare only when made of A-Z a-z 0-9 _ -', () => {
  assert.equal(tomlKey('A-z_09'), 'A-z_09');
  assert.equal(tomlKey('a b'), '"a b"');
  assert.equal(tomlKey('a.b'), '"a.b"');
  assert.equal(tomlKey('é'), '"é"');
  assert.equal(tomlKey(''), '""');
  assert.equal(tomlKey('x\n'), '"x\\n"');
  assert.equal(
    tomlKeyPath(['plugins', 'io.containerd.cri.v1.images', 'registry']),
    'plugins."io.containerd.cri.v1.images".registry',
  );
});

test('strings escape quote, backslash, control characters and DEL; everything else is written as is', () => {
  let controls = '';
  for (let c = 0; c < 0x20; c++) controls += String.fromCharCode(c);
  const expected =
    '"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013' +
    '\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\\u007f\u0080\\"\\\\é😀 "';
  assert.equal(tomlString(controls + '\u007f\u0080"\\é😀 '), expected);
  // Text needing no escape is written as is, lone surrogates (raw bytes) included.
  assert.equal(tomlString('a\udc80b'), '"a\udc80b"');
  assert.equal(tomlString('"\udc80'), '"\\"\udc80"');
});

test('string arrays are inline with ", " between items', () => {
  assert.equal(
    encodeToml({ a: goSlice('string', ['pull', 'resolve']), b: goSlice('string', []) }, UNMETERED, ''),
    'a = ["pull", "resolve"]\nb = []\n',
  );
});
