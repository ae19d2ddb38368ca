// Go strings as bytes (src/go/reflect/byteString.ts): which bytes Go's utf8.DecodeRune refuses (each such byte
// is one raw byte), and that every byte sequence round-trips through its one JS form.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canonicalGoString,
  goByteLength,
  goBytes,
  goString,
  hasRawBytes,
  replaceRawBytes,
} from '../../../src/go/reflect/byteString.ts';

const raw = (...bytes: number[]) => bytes.map((b) => String.fromCharCode(0xdc00 + b)).join('');

test('valid UTF-8 is its ordinary text', () => {
  for (const s of ['', 'abc', 'é日本', '😀x', '\u{10ffff}', '\ufffd']) {
    assert.equal(goString(goBytes(s)), s);
    assert.equal(hasRawBytes(s), false);
    assert.equal(goByteLength(s), Buffer.byteLength(s));
  }
});

test('each byte Go cannot decode is one raw byte', () => {
  // A cut character, a lone continuation byte, an overlong form, a UTF-16 surrogate, beyond U+10FFFF.
  assert.equal(goString(Buffer.from([0xe6, 0x97])), raw(0xe6, 0x97));
  assert.equal(goString(Buffer.from([0x61, 0x97, 0x62])), 'a' + raw(0x97) + 'b');
  assert.equal(goString(Buffer.from([0xc0, 0x80])), raw(0xc0, 0x80));
  assert.equal(goString(Buffer.from([0xed, 0xa0, 0x80])), raw(0xed, 0xa0, 0x80));
  assert.equal(goString(Buffer.from([0xf4, 0x90, 0x80, 0x80])), raw(0xf4, 0x90, 0x80, 0x80));
  // After a bad lead byte, decoding starts again at the next byte.
  assert.equal(goString(Buffer.from([0xe6, 0xe6, 0x97, 0xa5])), raw(0xe6) + '日');
});

test('bytes round-trip, and joined halves become the character', () => {
  const bytes = Buffer.from([0xff, 0x61, 0xe6, 0x97, 0xa5, 0xe6, 0x97, 0x80]);
  assert.deepEqual(goBytes(goString(bytes)), bytes);
  assert.equal(goByteLength(goString(bytes)), bytes.length);
  const joined = raw(0xe6) + raw(0x97, 0xa5);
  assert.deepEqual(goBytes(joined), Buffer.from('日'));
  assert.equal(canonicalGoString(joined), '日');
  assert.equal(canonicalGoString('x' + raw(0xff)), 'x' + raw(0xff));
});

test("a surrogate pair is never a raw byte; Go's encoders write U+FFFD for each raw byte", () => {
  assert.equal(hasRawBytes('\ud83d\udc80'), false);
  assert.equal(hasRawBytes(raw(0x80)), true);
  assert.equal(replaceRawBytes('a' + raw(0xe6, 0x97) + '😀'), 'a\ufffd\ufffd😀');
});
