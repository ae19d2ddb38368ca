// SHA-256's block function (FIPS 180-4, 6.2.2) as a small WebAssembly module, assembled from its instructions
// (assembleSha256Blocks) and shipped as the bytes that makes (SHA256_BLOCKS). A small run hashes a few kilobytes
// once: in JavaScript that is the interpreter's work plus a TurboFan compile the run never uses (5-9 ms of a cold
// start here); compiled WebAssembly does the hashing in microseconds after an instantiation of well under a
// millisecond (README.md, Benchmark). Checked against node:crypto in test/go/crypto/sha256.test.ts.
// The block function of Go's crypto/sha256, which FIPS 180-4 fixes for every Go version.
//
// Memory (one 64 KiB page): the round constants K at 0, the message schedule W at 256, the hash state H at 512
// (eight i32, host byte order), the blocks to hash at 1024 (big-endian bytes, as the message has them).

export const STATE_AT = 512;
export const BLOCKS_AT = 1024;
/** Blocks that fit in the page after BLOCKS_AT. */
export const MAX_BLOCKS = (65536 - BLOCKS_AT) / 64;

const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];

const W_AT = 256;

// Opcodes (WebAssembly core specification 1.0, 5.4).
const BLOCK = 0x02;
const LOOP = 0x03;
const BR = 0x0c;
const BR_IF = 0x0d;
const END = 0x0b;
const VOID = 0x40;
const GET = 0x20;
const SET = 0x21;
const TEE = 0x22;
const LOAD = 0x28;
const STORE = 0x36;
const CONST = 0x41;
const EQZ = 0x45;
const NE = 0x47;
const ADD = 0x6a;
const SUB = 0x6b;
const AND = 0x71;
const OR = 0x72;
const XOR = 0x73;
const SHR_U = 0x76;
const ROTL = 0x77;
const ROTR = 0x78;

// Locals: the parameter (blocks left), then the working variables.
const N = 0;
const P = 1; // the block's address
const I = 2; // a byte offset into K and W
const X = 3; // scratch
const T1 = 4;
const T2 = 5;
const [A, B, C, D, E, F, G, H] = [6, 7, 8, 9, 10, 11, 12, 13];
const LOCALS = 13;

/** Bytes written in order (no intermediate arrays: the module is assembled at every start). */
class Code {
  readonly bytes: number[] = [];
  op(...codes: number[]): this {
    for (let i = 0; i < codes.length; i++) this.bytes.push(codes[i]!);
    return this;
  }
  /** LEB128, signed (for i32.const) or unsigned. */
  leb(n: number, signed = false): this {
    for (;;) {
      const byte = n & 0x7f;
      n = signed ? n >> 7 : n >>> 7;
      const done = signed ? (n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0) : n === 0;
      this.bytes.push(done ? byte : byte | 0x80);
      if (done) return this;
    }
  }
  get(l: number): this {
    return this.op(GET, l);
  }
  set(l: number): this {
    return this.op(SET, l);
  }
  i32(n: number): this {
    return this.op(CONST).leb(n | 0, true);
  }
  load(offset: number): this {
    return this.op(LOAD, 2).leb(offset);
  }
  store(offset: number): this {
    return this.op(STORE, 2).leb(offset);
  }
  /** Sigma or sigma (FIPS 180-4, 4.1.2) of local l: rotr(r1) ^ rotr(r2) ^ (rotr or shr)(r3). */
  sigma(l: number, r1: number, r2: number, r3: number, shift: boolean): this {
    this.get(l).i32(r1).op(ROTR).get(l).i32(r2).op(ROTR, XOR);
    return this.get(l)
      .i32(r3)
      .op(shift ? SHR_U : ROTR, XOR);
  }
  /** `i += 4`, and back to the enclosing loop until i reaches end. */
  nextWord(end: number): this {
    return this.get(I).i32(4).op(ADD, TEE, I).i32(end).op(NE, BR_IF, 0);
  }
  /** A section: its id, its size, then what `write` puts in it. */
  section(id: number, write: (c: Code) => void): this {
    const content = new Code();
    write(content);
    this.op(id).leb(content.bytes.length);
    for (let i = 0; i < content.bytes.length; i++) this.bytes.push(content.bytes[i]!);
    return this;
  }
  name(s: string): this {
    this.op(s.length);
    for (let i = 0; i < s.length; i++) this.bytes.push(s.charCodeAt(i));
    return this;
  }
}

const ROUND_VARS = [A, B, C, D, E, F, G, H];

/** compress(n): runs the block function over n blocks at BLOCKS_AT, updating H. */
function body(c: Code): void {
  c.i32(BLOCKS_AT).set(P);
  c.op(BLOCK, VOID, LOOP, VOID).get(N).op(EQZ, BR_IF, 1);
  // W[0..15]: the block's big-endian words (byte-swapped: rotl 8 and rotr 8, masked).
  c.i32(0).set(I).op(LOOP, VOID);
  c.get(I).get(P).get(I).op(ADD).load(0).op(TEE, X).i32(8).op(ROTL).i32(0x00ff00ff).op(AND);
  c.get(X).i32(8).op(ROTR).i32(0xff00ff00).op(AND, OR).store(W_AT);
  c.nextWord(64).op(END);
  // W[16..63] = sigma1(W[t-2]) + W[t-7] + sigma0(W[t-15]) + W[t-16]; I is 4t, so W[t-k] is at I + W_AT - 4k.
  c.op(LOOP, VOID).get(I);
  c.get(I)
    .load(W_AT - 8)
    .set(X)
    .sigma(X, 17, 19, 10, true);
  c.get(I)
    .load(W_AT - 28)
    .op(ADD);
  c.get(I)
    .load(W_AT - 60)
    .set(X)
    .sigma(X, 7, 18, 3, true)
    .op(ADD);
  c.get(I)
    .load(W_AT - 64)
    .op(ADD)
    .store(W_AT);
  c.nextWord(256).op(END);
  ROUND_VARS.forEach((v, j) =>
    c
      .i32(0)
      .load(STATE_AT + 4 * j)
      .set(v),
  );
  // 64 rounds: T1 = h + Sigma1(e) + Ch(e, f, g) + K[t] + W[t], T2 = Sigma0(a) + Maj(a, b, c).
  c.i32(0).set(I).op(LOOP, VOID);
  c.get(H).sigma(E, 6, 11, 25, false).op(ADD);
  c.get(G).get(E).get(F).get(G).op(XOR, AND, XOR, ADD); // Ch = g ^ (e & (f ^ g))
  c.get(I).load(0).op(ADD).get(I).load(W_AT).op(ADD).set(T1);
  c.sigma(A, 2, 13, 22, false);
  c.get(A).get(B).op(AND).get(C).get(A).get(B).op(OR, AND, OR, ADD).set(T2); // Maj = (a & b) | (c & (a | b))
  c.get(G).set(H).get(F).set(G).get(E).set(F).get(D).get(T1).op(ADD).set(E);
  c.get(C).set(D).get(B).set(C).get(A).set(B).get(T1).get(T2).op(ADD).set(A);
  c.nextWord(256).op(END);
  ROUND_VARS.forEach((v, j) =>
    c
      .i32(0)
      .i32(0)
      .load(STATE_AT + 4 * j)
      .get(v)
      .op(ADD)
      .store(STATE_AT + 4 * j),
  );
  c.get(P).i32(64).op(ADD).set(P).get(N).i32(1).op(SUB).set(N).op(BR, 0, END, END, END);
}

/**
 * The module's bytes: one function `compress(i32)`, its memory exported as `memory`, K in a data segment. The
 * function runs from SHA256_BLOCKS (its output, base64), which test/go/crypto/sha256.test.ts checks is current:
 * assembling costs more at start-up than the hashing it serves.
 */
export function assembleSha256Blocks(): Uint8Array<ArrayBuffer> {
  const m = new Code().op(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00);
  m.section(1, (c) => c.op(1, 0x60, 1, 0x7f, 0)); // type 0: (i32) -> ()
  m.section(3, (c) => c.op(1, 0)); // function 0 has type 0
  m.section(5, (c) => c.op(1, 0x00, 1)); // one memory of one page
  m.section(7, (c) => c.op(2).name('memory').op(0x02, 0).name('compress').op(0x00, 0));
  m.section(10, (c) => {
    const code = new Code().op(1, LOCALS, 0x7f); // one local declaration: LOCALS of i32
    body(code);
    c.op(1).leb(code.bytes.length);
    for (const b of code.bytes) c.bytes.push(b);
  });
  m.section(11, (c) => {
    c.op(1, 0)
      .i32(0)
      .op(END)
      .leb(K.length * 4); // one active segment at address 0: K, little-endian
    for (const v of K) c.op(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24);
  });
  return Uint8Array.from(m.bytes);
}

// prettier-ignore
export const SHA256_BLOCKS =
  'AGFzbQEAAAABBQFgAX8AAwIBAAUDAQABBxUCBm1lbW9yeQIACGNvbXByZXNzAAAK+wMB+AMBDX9BgAghAQJAA0AgAEUNAUEAIQIDQCACIAEgAmooAgAiA0EId0H/gfwHcSADQQh4QYD+g3hxcjYCgAIgAkEEaiICQcAARw0ACwNAIAIgAigC+AEhAyADQRF4IANBE3hzIANBCnZzIAIoAuQBaiACKALEASEDIANBB3ggA0ESeHMgA0EDdnNqIAIoAsABajYCgAIgAkEEaiICQYACRw0AC0EAKAKABCEGQQAoAoQEIQdBACgCiAQhCEEAKAKMBCEJQQAoApAEIQpBACgClAQhC0EAKAKYBCEMQQAoApwEIQ1BACECA0AgDSAKQQZ4IApBC3hzIApBGXhzaiAMIAogCyAMc3FzaiACKAIAaiACKAKAAmohBCAGQQJ4IAZBDXhzIAZBFnhzIAYgB3EgCCAGIAdycXJqIQUgDCENIAshDCAKIQsgCSAEaiEKIAghCSAHIQggBiEHIAQgBWohBiACQQRqIgJBgAJHDQALQQBBACgCgAQgBmo2AoAEQQBBACgChAQgB2o2AoQEQQBBACgCiAQgCGo2AogEQQBBACgCjAQgCWo2AowEQQBBACgCkAQgCmo2ApAEQQBBACgClAQgC2o2ApQEQQBBACgCmAQgDGo2ApgEQQBBACgCnAQgDWo2ApwEIAFBwABqIQEgAEEBayEADAALCwsLhwIBAEEAC4ACmC+KQpFEN3HP+8C1pdu16VvCVjnxEfFZpII/ktVeHKuYqgfYAVuDEr6FMSTDfQxVdF2+cv6x3oCnBtybdPGbwcFpm+SGR77vxp3BD8yhDCRvLOktqoR0StypsFzaiPl2UlE+mG3GMajIJwOwx39Zv/ML4MZHkafVUWPKBmcpKRSFCrcnOCEbLvxtLE0TDThTVHMKZbsKanYuycKBhSxykqHov6JLZhqocItLwqNRbMcZ6JLRJAaZ1oU1DvRwoGoQFsGkGQhsNx5Md0gntbywNLMMHDlKqthOT8qcW/NvLmjugo90b2OleBR4yIQIAseM+v++kOtsUKT3o/m+8nhxxg==';

export interface Sha256Blocks {
  /** The module's memory (one page, never grown). */
  readonly memory: Uint8Array;
  /** Runs the block function over n (at most MAX_BLOCKS) blocks at BLOCKS_AT, updating the state at STATE_AT. */
  readonly compress: (n: number) => void;
}

/**
 * A new instance of the module; undefined where WebAssembly is not available (node --jitless) or V8 cannot reserve
 * the address space of its memory (a RangeError under ulimit -v: V8 reserves guard regions of gigabytes).
 */
export function instantiateSha256Blocks(): Sha256Blocks | undefined {
  if (typeof WebAssembly !== 'object') return undefined;
  let instance: WebAssembly.Instance;
  try {
    instance = new WebAssembly.Instance(
      new WebAssembly.Module(Buffer.from(SHA256_BLOCKS, 'base64') as Uint8Array<ArrayBuffer>),
    );
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
  const exports = instance.exports as { memory: WebAssembly.Memory; compress: (n: number) => void };
  return { memory: new Uint8Array(exports.memory.buffer), compress: exports.compress };
}
