// sprig's crypto.go, its hermetic part: digests of a string's bytes, and decryptAES (AES-256-CBC with
// the IV in front, as encryptAES writes it; encryptAES itself draws a random IV and is left out).
// node:crypto is loaded on a template's first call of one of these, not at every start.
const crypto = () => process.getBuiltinModule('node:crypto') as typeof import('node:crypto');
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
import { readsAndBuilds } from '../go/reflect/callCost.ts';
import { base64Decode, CorruptInputError } from '../go/encoding/base64.ts';
import { goBytes, goString } from '../go/reflect/byteString.ts';
import { adler32Checksum } from '../go/hash/adler32.ts';

/** A digest reads the text's bytes (a copy of them is made first). */
const DIGESTS = readsAndBuilds(4, 4);

const digest = (algorithm: string) =>
  goFunc(['string'], DIGESTS, (s: string) => crypto().createHash(algorithm).update(goBytes(s)).digest('hex'));

/** sprig's decryptAES, with the runtime panics Go reports for malformed input. */
function decryptAES(password: string, crypt64: string): string {
  const key = Buffer.alloc(32);
  goBytes(password).copy(key, 0, 0, 32);
  let crypt: Uint8Array;
  try {
    crypt = base64Decode(crypt64);
  } catch (e) {
    if (e instanceof CorruptInputError) throw new GoCallError(e.message);
    throw e;
  }
  if (crypt.length < 16)
    throw new GoCallError(`runtime error: slice bounds out of range [:16] with capacity ${crypt.length}`);
  const body = crypt.subarray(16);
  if (body.length % 16 !== 0) throw new GoCallError('crypto/cipher: input not full blocks');
  const decipher = crypto().createDecipheriv('aes-256-cbc', key, crypt.subarray(0, 16));
  decipher.setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(body), decipher.final()]);
  if (plain.length === 0) throw new GoCallError('runtime error: index out of range [-1]');
  const end = plain.length - plain[plain.length - 1]!;
  if (end < 0) throw new GoCallError(`runtime error: slice bounds out of range [:${end}]`);
  return goString(plain.subarray(0, end));
}

export const cryptoFuncs: FuncMap = {
  sha1sum: digest('sha1'),
  sha256sum: digest('sha256'),
  sha512sum: digest('sha512'),
  adler32sum: goFunc(['string'], DIGESTS, (s: string) => String(adler32Checksum(goBytes(s)))),
  decryptAES: goFunc(['string', 'string'], readsAndBuilds(8, 8), decryptAES),
};
