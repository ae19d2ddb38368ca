// Go's encoding/base32 StdEncoding as sprig calls it (Go 1.19, the differential oracle): decoding with its "illegal
// base32 data at input byte N" errors (line breaks removed first) and encoding.
import { goBytes } from '../reflect/byteString.ts';
import { CorruptInputError, decodeMap, PAD } from './base64.ts';

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B32_MAP = decodeMap(B32);

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
