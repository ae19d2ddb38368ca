// Go's hash/adler32 (RFC 1950's Adler-32, the same in every Go version): Checksum of a byte sequence.

const MOD = 65521;

/** adler32.Checksum */
export function adler32Checksum(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % MOD;
    b = (b + a) % MOD;
  }
  return ((b << 16) | a) >>> 0;
}
