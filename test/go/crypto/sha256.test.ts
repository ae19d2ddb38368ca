// Our SHA-256 and HMAC-SHA256 (the block function in WebAssembly) against node:crypto: every length around the
// block and padding boundaries and around what the module's memory holds at once, arbitrary bytes, UTF-8 text
// (lone surrogates included, which both encode as U+FFFD), long inputs and long keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { hmacSha256, jsHmacSha256, jsSha256, sha256Hex } from '../../../src/go/crypto/sha256.ts';

const jsHex = (m: string | Uint8Array) => Buffer.from(jsSha256(m)).toString('hex');
import fc from 'fast-check';
import { assembleSha256Blocks, MAX_BLOCKS, SHA256_BLOCKS } from '../../../src/go/crypto/sha256Blocks.ts';
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

test('the shipped WebAssembly module is the one its instructions assemble to, valid, and a digest leaves nothing behind for the next one', () => {
  const assembled = assembleSha256Blocks();
  assert.equal(Buffer.from(assembled).toString('base64'), SHA256_BLOCKS);
  assert.ok(WebAssembly.validate(assembled));
  const first = jsHex('abc');
  jsHex(Buffer.alloc(5000, 0xff));
  assert.equal(jsHex('abc'), first);
});

test('arbitrary bytes of 0 to 5,000 bytes, and lengths at every boundary, as node:crypto', () => {
  const node = (m: Uint8Array) => createHash('sha256').update(m).digest('hex');
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 5000 }), (m) => jsHex(m) === node(m)),
    { numRuns: 2000 },
  );
  const chunk = MAX_BLOCKS * 64;
  const lengths = [55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, chunk - 9, chunk - 8, chunk - 1, chunk, chunk + 1];
  for (const n of [...lengths, chunk + 55, chunk + 64, 2 * chunk, 2 * chunk + 56, 3 * chunk + 100]) {
    const m = Uint8Array.from({ length: n }, (_, i) => (i * 131 + (i >> 8)) & 0xff);
    assert.equal(jsHex(m), node(m), `length ${n}`);
  }
});

test('HMAC of arbitrary keys and messages, as node:crypto', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 3000 }), (key, message) => {
      const ours = Buffer.from(jsHmacSha256(key, message)).toString('hex');
      return ours === createHmac('sha256', key).update(message).digest('hex');
    }),
    { numRuns: 1000 },
  );
});

test('without WebAssembly (node --jitless) node:crypto does the hashing, with the same digests', () => {
  const script = `import { sha256Hex, hmacSha256 } from ${JSON.stringify(new URL('../../../src/go/crypto/sha256.ts', import.meta.url).href)};
    process.stdout.write(JSON.stringify([typeof WebAssembly, sha256Hex('abc'), Buffer.from(hmacSha256('k', 'm')).toString('hex')]));`;
  const r = spawnSync(process.execPath, ['--jitless', '--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [
    'undefined',
    createHash('sha256').update('abc').digest('hex'),
    createHmac('sha256', 'k').update('m').digest('hex'),
  ]);
});
