// Go's encoding/base32 StdEncoding as sprig calls it (Go 1.19, the differential oracle): decoding with its "illegal
// base32 data at input byte N" errors (line breaks removed first) and encoding.
import { goBytes } from '../reflect/byteString.ts';
import { CorruptInputError, decodeMap, PAD } from './base64.ts';

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B32_MAP = decodeMap(B32);

/** base32.StdEncoding.DecodeString (line breaks are removed first, so error offsets count without them). */
export function base32Decode(s: string): Uint8Array {
  const all = goBytes(s);
  const src = new Uint8Array(all.length);
  let olen = 0;
  for (let i = 0; i < all.length; i++) if (all[i] !== 0x0a && all[i] !== 0x0d) src[olen++] = all[i]!;
  // Written in place: at most 5 bytes per 8 of input.
  const out = new Uint8Array(Math.ceil(olen / 8) * 5);
  let o = 0;
  let p = 0;
  let end = false;
  const dbuf = new Array<number>(8);
  while (p < olen && !end) {
    dbuf.fill(0);
    let dlen = 8;
    for (let j = 0; j < 8;) {
      if (p === olen) throw new CorruptInputError('base32', olen - (olen - p) - j);
      const c = src[p++]!;
      const rest = olen - p;
      if (c === PAD && j >= 2 && rest < 8) {
        if (rest + j < 7) throw new CorruptInputError('base32', olen);
        for (let k = 0; k < 7 - j; k++)
          if (rest > k && src[p + k] !== PAD) throw new CorruptInputError('base32', olen - rest + k - 1);
        dlen = j;
        end = true;
        if (dlen === 1 || dlen === 3 || dlen === 6) throw new CorruptInputError('base32', olen - rest - 1);
        break;
      }
      const v = B32_MAP[c]!;
      if (v < 0) throw new CorruptInputError('base32', olen - rest - 1);
      dbuf[j++] = v;
    }
    const n = DECODED_BYTES[dlen] ?? 0;
    if (n > 0) out[o++] = ((dbuf[0]! << 3) | (dbuf[1]! >> 2)) & 0xff;
    if (n > 1) out[o++] = ((dbuf[1]! << 6) | (dbuf[2]! << 1) | (dbuf[3]! >> 4)) & 0xff;
    if (n > 2) out[o++] = ((dbuf[3]! << 4) | (dbuf[4]! >> 1)) & 0xff;
    if (n > 3) out[o++] = ((dbuf[4]! << 7) | (dbuf[5]! << 2) | (dbuf[6]! >> 3)) & 0xff;
    if (n > 4) out[o++] = ((dbuf[6]! << 5) | dbuf[7]!) & 0xff;
  }
  return out.slice(0, o);
}

const DECODED_BYTES: Readonly<Record<number, number>> = { 8: 5, 7: 4, 5: 3, 4: 2, 2: 1 };
const B32_CODES = Uint8Array.from(B32, (c) => c.charCodeAt(0));

/** base32.StdEncoding.EncodeToString. */
export function base32Encode(bytes: Uint8Array): string {
  const out = Buffer.allocUnsafe(Math.ceil(bytes.length / 5) * 8);
  let o = 0;
  for (let i = 0; i < bytes.length; i += 5) {
    const len = Math.min(5, bytes.length - i);
    // 40 bits, exact in a double.
    const b = (k: number) => (k < len ? bytes[i + k]! : 0);
    const v40 = b(0) * 2 ** 32 + (((b(1) << 24) | (b(2) << 16) | (b(3) << 8) | b(4)) >>> 0);
    const chars = Math.ceil((len * 8) / 5);
    for (let k = 0; k < 8; k++) {
      const v = Math.floor(v40 / 2 ** (35 - 5 * k)) & 31;
      out[o++] = k < chars ? B32_CODES[v]! : PAD;
    }
  }
  return out.toString('latin1', 0, o);
}
