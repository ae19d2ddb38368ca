// SHA-256's block function (FIPS 180-4, 6.2.2) as a small WebAssembly module, assembled here from its
// instructions. A small run hashes a few kilobytes once: in JavaScript that is the interpreter's work (plus a
// TurboFan compile the run never uses), 5–9 ms of a cold start here; compiled WebAssembly does it in microseconds
// and costs well under a millisecond to instantiate (README.md, Benchmark). Checked against node:crypto in
// test/go/crypto/sha256.test.ts.
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

/** LEB128, signed (for i32.const) or unsigned. */
function leb(n: number, signed: boolean): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n = signed ? n >> 7 : n >>> 7;
    const done = signed ? (n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0) : n === 0;
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

// Locals: the parameter (blocks left), then the working variables.
const N = 0;
const P = 1; // the block's address
const I = 2; // a byte offset into K and W
const X = 3; // scratch
const T1 = 4;
const T2 = 5;
const [A, B, C, D, E, F, G, H] = [6, 7, 8, 9, 10, 11, 12, 13];
const LOCALS = 13;

const get = (l: number) => [GET, l];
const set = (l: number) => [SET, l];
const i32 = (n: number) => [CONST, ...leb(n | 0, true)];
const load = (offset: number) => [LOAD, 2, ...leb(offset, false)];
const store = (offset: number) => [STORE, 2, ...leb(offset, false)];
const rotr = (l: number, by: number) => [...get(l), ...i32(by), ROTR];

/** Σ or σ of local l: rotr(r1) ^ rotr(r2) ^ (rotr or shr)(r3). */
function sigma(l: number, r1: number, r2: number, r3: number, shift: boolean): number[] {
  return [...rotr(l, r1), ...rotr(l, r2), XOR, ...get(l), ...i32(r3), shift ? SHR_U : ROTR, XOR];
}

/** `i += 4`, and back to the enclosing loop until i reaches end. */
const nextWord = (end: number) => [...get(I), ...i32(4), ADD, TEE, I, ...i32(end), NE, BR_IF, 0];

/** compress(n): runs the block function over n blocks at BLOCKS_AT, updating H. */
function body(): number[] {
  const roundVars = [A, B, C, D, E, F, G, H];
  return [
    ...i32(BLOCKS_AT),
    ...set(P),
    BLOCK,
    VOID,
    LOOP,
    VOID,
    ...get(N),
    EQZ,
    BR_IF,
    1,
    // W[0..15]: the block's big-endian words.
    ...i32(0),
    ...set(I),
    LOOP,
    VOID,
    ...get(I),
    ...get(P),
    ...get(I),
    ADD,
    ...load(0),
    TEE,
    X,
    ...i32(8),
    ROTL,
    ...i32(0x00ff00ff),
    AND,
    ...get(X),
    ...i32(8),
    ROTR,
    ...i32(0xff00ff00),
    AND,
    OR,
    ...store(W_AT),
    ...nextWord(64),
    END,
    // W[16..63] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16]; I is 4t, so W[t-k] is at I + W_AT - 4k.
    LOOP,
    VOID,
    ...get(I),
    ...get(I),
    ...load(W_AT - 8),
    ...set(X),
    ...sigma(X, 17, 19, 10, true),
    ...get(I),
    ...load(W_AT - 28),
    ADD,
    ...get(I),
    ...load(W_AT - 60),
    ...set(X),
    ...sigma(X, 7, 18, 3, true),
    ADD,
    ...get(I),
    ...load(W_AT - 64),
    ADD,
    ...store(W_AT),
    ...nextWord(256),
    END,
    ...roundVars.flatMap((v, j) => [...i32(0), ...load(STATE_AT + 4 * j), ...set(v)]),
    ...i32(0),
    ...set(I),
    // 64 rounds: T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t], T2 = Σ0(a) + Maj(a, b, c).
    LOOP,
    VOID,
    ...get(H),
    ...sigma(E, 6, 11, 25, false),
    ADD,
    ...get(G),
    ...get(E),
    ...get(F),
    ...get(G),
    XOR,
    AND,
    XOR, // Ch = g ^ (e & (f ^ g))
    ADD,
    ...get(I),
    ...load(0),
    ADD,
    ...get(I),
    ...load(W_AT),
    ADD,
    ...set(T1),
    ...sigma(A, 2, 13, 22, false),
    ...get(A),
    ...get(B),
    AND,
    ...get(C),
    ...get(A),
    ...get(B),
    OR,
    AND,
    OR, // Maj = (a & b) | (c & (a | b))
    ADD,
    ...set(T2),
    ...get(G),
    ...set(H),
    ...get(F),
    ...set(G),
    ...get(E),
    ...set(F),
    ...get(D),
    ...get(T1),
    ADD,
    ...set(E),
    ...get(C),
    ...set(D),
    ...get(B),
    ...set(C),
    ...get(A),
    ...set(B),
    ...get(T1),
    ...get(T2),
    ADD,
    ...set(A),
    ...nextWord(256),
    END,
    ...roundVars.flatMap((v, j) => [
      ...i32(0),
      ...i32(0),
      ...load(STATE_AT + 4 * j),
      ...get(v),
      ADD,
      ...store(STATE_AT + 4 * j),
    ]),
    ...get(P),
    ...i32(64),
    ADD,
    ...set(P),
    ...get(N),
    ...i32(1),
    SUB,
    ...set(N),
    BR,
    0,
    END,
    END,
    END,
  ];
}

const section = (id: number, content: number[]) => [id, ...leb(content.length, false), ...content];
const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

/** The module's bytes: one function `compress(i32)`, its memory exported as `memory`, K in a data segment. */
export function sha256BlocksModule(): Uint8Array<ArrayBuffer> {
  const code = [1, LOCALS, 0x7f, ...body()]; // one local declaration: LOCALS of i32
  const k = K.flatMap((v) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24]); // little-endian
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 1, 0x7f, 0]), // type 0: (i32) -> ()
    ...section(3, [1, 0]), // function 0 has type 0
    ...section(5, [1, 0x00, 1]), // one memory of one page
    ...section(7, [2, ...name('memory'), 0x02, 0, ...name('compress'), 0x00, 0]),
    ...section(10, [1, ...leb(code.length, false), ...code]),
    ...section(11, [1, 0, ...i32(0), END, ...leb(k.length, false), ...k]), // K at address 0
  ]);
}

export interface Sha256Blocks {
  /** The module's memory (one page, never grown). */
  readonly memory: Uint8Array;
  /** Runs the block function over n (at most MAX_BLOCKS) blocks at BLOCKS_AT, updating the state at STATE_AT. */
  readonly compress: (n: number) => void;
}

/** A new instance of the module (undefined where WebAssembly is not available, as under --jitless). */
export function instantiateSha256Blocks(): Sha256Blocks | undefined {
  if (typeof WebAssembly !== 'object') return undefined;
  const instance = new WebAssembly.Instance(new WebAssembly.Module(sha256BlocksModule()));
  const exports = instance.exports as { memory: WebAssembly.Memory; compress: (n: number) => void };
  return { memory: new Uint8Array(exports.memory.buffer), compress: exports.compress };
}
