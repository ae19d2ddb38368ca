// Go's encoding/base64 StdEncoding decoding as sprig calls it (Go 1.19, the differential oracle): its "illegal base64
// data at input byte N" errors and its handling of padding and line breaks.

import { goBytes } from '../reflect/byteString.ts';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
export const decodeMap = (alphabet: string) => {
  const m = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i++) m[alphabet.charCodeAt(i)] = i;
  return m;
};
const B64_MAP = decodeMap(B64);
export const PAD = 0x3d;

export class CorruptInputError extends Error {
  constructor(kind: 'base64' | 'base32', at: number) {
    super(`illegal ${kind} data at input byte ${at}`);
  }
}

/** base64.StdEncoding.DecodeString. */
export function base64Decode(s: string): Uint8Array {
  const src = goBytes(s);
  // Written in place: at most 3 bytes per 4 of input.
  const out = new Uint8Array(Math.ceil(src.length / 4) * 3);
  let n = 0;
  let si = 0;
  const dbuf = [0, 0, 0, 0];
  while (si < src.length) {
    dbuf[0] = dbuf[1] = dbuf[2] = dbuf[3] = 0;
    let dlen = 4;
    let trailingError: number | undefined;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return out.slice(0, n);
        throw new CorruptInputError('base64', si - j);
      }
      const c = src[si++]!;
      const v = B64_MAP[c]!;
      if (v >= 0) {
        dbuf[j] = v;
        continue;
      }
      if (c === 0x0a || c === 0x0d) {
        j--;
        continue;
      }
      if (c !== PAD) throw new CorruptInputError('base64', si - 1);
      if (j < 2) throw new CorruptInputError('base64', si - 1);
      if (j === 2) {
        while (si < src.length && (src[si] === 0x0a || src[si] === 0x0d)) si++;
        if (si === src.length) throw new CorruptInputError('base64', src.length);
        if (src[si] !== PAD) throw new CorruptInputError('base64', si - 1);
        si++;
      }
      while (si < src.length && (src[si] === 0x0a || src[si] === 0x0d)) si++;
      if (si < src.length) trailingError = si;
      dlen = j;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    if (dlen > 1) out[n++] = (val >> 16) & 0xff;
    if (dlen > 2) out[n++] = (val >> 8) & 0xff;
    if (dlen > 3) out[n++] = val & 0xff;
    if (trailingError !== undefined) throw new CorruptInputError('base64', trailingError);
    if (dlen < 4) break;
  }
  return out.slice(0, n);
}
