// Small pieces of Go's standard library that sprig calls directly: encoding/base64 and encoding/base32
// StdEncoding decoding (with their "illegal ... data at input byte N" errors and their handling of
// padding and line breaks) and package path (Base, Dir, Ext, Clean; filepath is the same on Linux).

import { goBytes } from '../reflect/byteString.ts';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const decodeMap = (alphabet: string) => {
  const m = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i++) m[alphabet.charCodeAt(i)] = i;
  return m;
};
const B64_MAP = decodeMap(B64);
const B32_MAP = decodeMap(B32);
const PAD = 0x3d;

export class CorruptInputError extends Error {
  constructor(kind: 'base64' | 'base32', at: number) {
    super(`illegal ${kind} data at input byte ${at}`);
  }
}

/** base64.StdEncoding.DecodeString. */
export function base64Decode(s: string): Uint8Array {
  const src = goBytes(s);
  const out: number[] = [];
  let si = 0;
  while (si < src.length) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let trailingError: number | undefined;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Uint8Array.from(out);
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
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    out.push(...bytes.slice(0, dlen - 1));
    if (trailingError !== undefined) throw new CorruptInputError('base64', trailingError);
    if (dlen < 4) break;
  }
  return Uint8Array.from(out);
}

/** base32.StdEncoding.DecodeString (line breaks are removed first, so error offsets count without them). */
export function base32Decode(s: string): Uint8Array {
  const src = goBytes(s).filter((c) => c !== 0x0a && c !== 0x0d);
  const olen = src.length;
  const out: number[] = [];
  let p = 0;
  let end = false;
  while (p < olen && !end) {
    const dbuf = new Array<number>(8).fill(0);
    let dlen = 8;
    for (let j = 0; j < 8; ) {
      if (p === olen) throw new CorruptInputError('base32', olen - (olen - p) - j);
      const c = src[p++]!;
      const rest = olen - p;
      if (c === PAD && j >= 2 && rest < 8) {
        if (rest + j < 7) throw new CorruptInputError('base32', olen);
        for (let k = 0; k < 7 - j; k++) if (rest > k && src[p + k] !== PAD) throw new CorruptInputError('base32', olen - rest + k - 1);
        dlen = j;
        end = true;
        if (dlen === 1 || dlen === 3 || dlen === 6) throw new CorruptInputError('base32', olen - rest - 1);
        break;
      }
      const v = B32_MAP[c]!;
      if (v < 0) throw new CorruptInputError('base32', olen - rest - 1);
      dbuf[j++] = v;
    }
    const b = [
      ((dbuf[0]! << 3) | (dbuf[1]! >> 2)) & 0xff,
      ((dbuf[1]! << 6) | (dbuf[2]! << 1) | (dbuf[3]! >> 4)) & 0xff,
      ((dbuf[3]! << 4) | (dbuf[4]! >> 1)) & 0xff,
      ((dbuf[4]! << 7) | (dbuf[5]! << 2) | (dbuf[6]! >> 3)) & 0xff,
      ((dbuf[6]! << 5) | dbuf[7]!) & 0xff,
    ];
    const n = { 8: 5, 7: 4, 5: 3, 4: 2, 2: 1 }[dlen] ?? 0;
    out.push(...b.slice(0, n));
  }
  return Uint8Array.from(out);
}

/** base32.StdEncoding.EncodeToString. */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 5) {
    const chunk = bytes.subarray(i, i + 5);
    let bits = 0n;
    for (let k = 0; k < 5; k++) bits = (bits << 8n) | BigInt(chunk[k] ?? 0);
    const chars = Math.ceil((chunk.length * 8) / 5);
    for (let k = 0; k < 8; k++) out += k < chars ? B32[Number((bits >> BigInt(35 - 5 * k)) & 31n)] : '=';
  }
  return out;
}

// --- package path ------------------------------------------------------------------------------------

/** path.Clean: the shortest equivalent path, lexically. */
export function pathClean(p: string): string {
  if (p === '') return '.';
  const rooted = p[0] === '/';
  const n = p.length;
  let out = rooted ? '/' : '';
  let r = rooted ? 1 : 0;
  let dotdot = rooted ? 1 : 0;
  while (r < n) {
    if (p[r] === '/') r++;
    else if (p[r] === '.' && (r + 1 === n || p[r + 1] === '/')) r++;
    else if (p[r] === '.' && p[r + 1] === '.' && (r + 2 === n || p[r + 2] === '/')) {
      r += 2;
      if (out.length > dotdot) {
        let w = out.length - 1;
        while (w > dotdot && out[w] !== '/') w--;
        out = out.slice(0, w);
      } else if (!rooted) {
        if (out.length > 0) out += '/';
        out += '..';
        dotdot = out.length;
      }
    } else {
      if ((rooted && out.length !== 1) || (!rooted && out.length !== 0)) out += '/';
      for (; r < n && p[r] !== '/'; r++) out += p[r];
    }
  }
  return out === '' ? '.' : out;
}

/** path.Base. */
export function pathBase(p: string): string {
  if (p === '') return '.';
  p = p.replace(/\/+$/, '');
  if (p === '') return '/';
  return p.slice(p.lastIndexOf('/') + 1);
}

/** path.Dir: Clean of everything up to the last slash. */
export function pathDir(p: string): string {
  return pathClean(p.slice(0, p.lastIndexOf('/') + 1));
}

/** path.Ext: from the last dot of the last element. */
export function pathExt(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}
