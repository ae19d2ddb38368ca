// Our SHA-256 and HMAC-SHA256 against node:crypto: every length around the block and padding boundaries,
// UTF-8 text (lone surrogates included, which both encode as U+FFFD), long inputs and long keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { hmacSha256, jsHmacSha256, jsSha256, sha256Hex } from '../../../src/go/crypto/sha256.ts';

const jsHex = (m: string | Uint8Array) => Buffer.from(jsSha256(m)).toString('hex');
import { rng } from '../../support/rng.ts';

const CHARS = ['a', 'Z', '0', ' ', '\n', 'é', '€', '😀', '\ud800', '\x00', '\u2028'];

function randomText(r: () => number, length: number): string {
  let s = '';
  while (s.length < length) s += CHARS[Math.floor(r() * CHARS.length)];
  return s;
}

test('known vectors (FIPS 180-4 examples, RFC 4231 case 2)', () => {
  assert.equal(jsHex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(jsHex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(
    jsHex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  );
  assert.equal(
    Buffer.from(jsHmacSha256('Jefe', 'what do ya want for nothing?')).toString('hex'),
    '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  );
});

test('every length from 0 to 300 bytes, and long inputs, as node:crypto', () => {
  const r = rng(256);
  for (let n = 0; n <= 300; n++) {
    const bytes = Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256)));
    assert.equal(jsHex(bytes), createHash('sha256').update(bytes).digest('hex'), `length ${n}`);
  }
  for (const n of [1_000, 65_536, 1_000_003]) {
    const text = randomText(r, n);
    assert.equal(jsHex(text), createHash('sha256').update(text).digest('hex'), `text of ${n}`);
  }
});

test('HMAC with short, block-sized and long keys, as node:crypto', () => {
  const r = rng(2104);
  for (const keyLength of [0, 1, 16, 63, 64, 65, 200]) {
    for (const messageLength of [0, 1, 55, 56, 64, 119, 1000]) {
      const key = randomText(r, keyLength);
      const message = randomText(r, messageLength);
      assert.equal(
        Buffer.from(jsHmacSha256(key, message)).toString('hex'),
        createHmac('sha256', key).update(message).digest('hex'),
        `key ${keyLength}, message ${messageLength}`,
      );
    }
  }
});

test('the same digests before and after node:crypto takes over (past 256 KiB hashed)', () => {
  const r = rng(7);
  const samples = Array.from({ length: 20 }, (_, i) => randomText(r, i * 37));
  const before = samples.map((s) => [sha256Hex(s), Buffer.from(hmacSha256('key', s)).toString('hex')]);
  sha256Hex('y'.repeat(300 * 1024)); // crosses the threshold (if earlier tests have not)
  const after = samples.map((s) => [sha256Hex(s), Buffer.from(hmacSha256('key', s)).toString('hex')]);
  assert.deepEqual(after, before);
});
