// SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104) of a string's UTF-8 bytes, with the block function in
// WebAssembly (sha256Blocks.ts): the hashes a small render needs are of a few kilobytes, and loading node:crypto
// costs 7–10 ms of a start here (README.md, Benchmark). Once a run has hashed more than NATIVE_AFTER bytes it is
// a large run, and node:crypto takes over; it also does all the hashing where WebAssembly is not available
// (node --jitless) or cannot reserve its memory (an address-space limit, ulimit -v). Checked against node:crypto in test/go/crypto/sha256.test.ts.
// Stands in for Go's crypto/sha256 and crypto/hmac: FIPS 180-4 and RFC 2104 fix the digests for every Go version.
import { BLOCKS_AT, instantiateSha256Blocks, MAX_BLOCKS, STATE_AT, type Sha256Blocks } from './sha256Blocks.ts';

const NATIVE_AFTER = 256 * 1024;
let hashedBytes = 0;
let native: typeof import('node:crypto') | undefined;

function loadNative(): typeof import('node:crypto') {
  return (native ??= process.getBuiltinModule('node:crypto') as typeof import('node:crypto'));
}

function nativeCrypto(bytes: number): typeof import('node:crypto') | undefined {
  if (native === undefined && (hashedBytes += bytes) > NATIVE_AFTER) loadNative();
  return native;
}

const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

// null: no WebAssembly here (node --jitless), or no address space for its memory (ulimit -v).
let blocks: Sha256Blocks | null | undefined;

function digestBytes(message: Uint8Array): Uint8Array {
  if (blocks === undefined) blocks = instantiateSha256Blocks() ?? null;
  if (blocks === null) return loadNative().createHash('sha256').update(message).digest();
  const { memory, compress } = blocks;
  const state = new DataView(memory.buffer, STATE_AT, 32);
  for (let i = 0; i < 8; i++) state.setInt32(i * 4, INITIAL[i]!, true);
  const full = message.length - (message.length % 64);
  for (let at = 0; at < full; at += MAX_BLOCKS * 64) {
    const n = Math.min(MAX_BLOCKS, (full - at) / 64);
    memory.set(message.subarray(at, at + n * 64), BLOCKS_AT);
    compress(n);
  }
  // The last block(s): the rest of the message, 0x80, zeros, and the bit length (big-endian, 64 bits).
  const rest = message.length - full;
  const tail = rest < 56 ? 64 : 128;
  memory.fill(0, BLOCKS_AT, BLOCKS_AT + tail);
  memory.set(message.subarray(full), BLOCKS_AT);
  memory[BLOCKS_AT + rest] = 0x80;
  const bits = message.length * 8;
  const view = new DataView(memory.buffer, BLOCKS_AT, tail);
  view.setUint32(tail - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(tail - 4, bits >>> 0);
  compress(tail / 64);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setInt32(i * 4, state.getInt32(i * 4, true));
  return out;
}

const utf8 = (s: string | Uint8Array) => (typeof s === 'string' ? Buffer.from(s, 'utf8') : s);

export function sha256(message: string | Uint8Array): Uint8Array {
  const crypto = nativeCrypto(message.length);
  if (crypto !== undefined) return crypto.createHash('sha256').update(message).digest();
  return jsSha256(message);
}

/** Our implementation, not node:crypto's, wherever WebAssembly runs (the tests compare the two). */
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

/** Our implementation, not node:crypto's, wherever WebAssembly runs (the tests compare the two). */
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
