// SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104) of a string's UTF-8 bytes, in JavaScript: the hashes a
// small render needs are of a few kilobytes, and loading node:crypto costs 7–10 ms of a start here
// (README.md, Benchmark). Once a run has hashed more than NATIVE_AFTER bytes it is a large run, and
// node:crypto (4x faster per byte) takes over. Checked against node:crypto in test/go/crypto/sha256.test.ts.
// Stands in for Go's crypto/sha256 and crypto/hmac: FIPS 180-4 and RFC 2104 fix the digests for every Go version.

const NATIVE_AFTER = 256 * 1024;
let hashedBytes = 0;
let native: typeof import('node:crypto') | undefined;

function nativeCrypto(bytes: number): typeof import('node:crypto') | undefined {
  if (native === undefined && (hashedBytes += bytes) > NATIVE_AFTER)
    native = process.getBuiltinModule('node:crypto') as typeof import('node:crypto');
  return native;
}

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const w = new Int32Array(64);

function compress(h: Int32Array, bytes: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++, at += 4)
    w[i] = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = h[0]!,
    b = h[1]!,
    c = h[2]!,
    d = h[3]!,
    e = h[4]!,
    f = h[5]!,
    g = h[6]!,
    k = h[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + k) | 0;
}

function digestBytes(message: Uint8Array): Uint8Array {
  const h = Int32Array.from(INITIAL);
  const full = message.length - (message.length % 64);
  for (let at = 0; at < full; at += 64) compress(h, message, at);
  // The last block(s): the rest of the message, 0x80, zeros, and the bit length (big-endian, 64 bits).
  const tail = new Uint8Array(message.length % 64 < 56 ? 64 : 128);
  tail.set(message.subarray(full));
  tail[message.length - full] = 0x80;
  const bits = message.length * 8;
  const view = new DataView(tail.buffer);
  view.setUint32(tail.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(tail.length - 4, bits >>> 0);
  for (let at = 0; at < tail.length; at += 64) compress(h, tail, at);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setInt32(i * 4, h[i]!);
  return out;
}

const utf8 = (s: string | Uint8Array) => (typeof s === 'string' ? Buffer.from(s, 'utf8') : s);

export function sha256(message: string | Uint8Array): Uint8Array {
  const crypto = nativeCrypto(message.length);
  if (crypto !== undefined) return crypto.createHash('sha256').update(message).digest();
  return jsSha256(message);
}

/** The JavaScript implementation alone (the tests compare it with node:crypto). */
export function jsSha256(message: string | Uint8Array): Uint8Array {
  return digestBytes(utf8(message));
}

export function sha256Hex(message: string | Uint8Array): string {
  return Buffer.from(sha256(message)).toString('hex');
}

export function hmacSha256(key: string | Uint8Array, message: string | Uint8Array): Uint8Array {
  const crypto = nativeCrypto(key.length + message.length);
  if (crypto !== undefined) return crypto.createHmac('sha256', key).update(message).digest();
  return jsHmacSha256(key, message);
}

/** The JavaScript implementation alone (the tests compare it with node:crypto). */
export function jsHmacSha256(key: string | Uint8Array, message: string | Uint8Array): Uint8Array {
  let k = utf8(key);
  if (k.length > 64) k = digestBytes(k);
  const inner = new Uint8Array(64);
  const outer = new Uint8Array(64);
  for (let i = 0; i < 64; i++) {
    inner[i] = (k[i] ?? 0) ^ 0x36;
    outer[i] = (k[i] ?? 0) ^ 0x5c;
  }
  const m = utf8(message);
  const innerInput = new Uint8Array(64 + m.length);
  innerInput.set(inner);
  innerInput.set(m, 64);
  const innerHash = digestBytes(innerInput);
  const outerInput = new Uint8Array(96);
  outerInput.set(outer);
  outerInput.set(innerHash, 64);
  return digestBytes(outerInput);
}
