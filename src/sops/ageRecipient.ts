// A SOPS data key encrypted for an age X25519 recipient (age-encryption.org/v1), ASCII-armored as sops
// stores it in `sops.age[].enc`. Written on node:crypto alone and synchronously: the age-encryption package
// read its own output back through `Response`, which loads Node's HTTP client and its WebAssembly parser, and
// that fails under an address-space limit (`ulimit -v`) with a trace. Debian's `age` CLI reads what this
// writes (test/gitops/hydrateSops.test.ts).
import type * as NodeCrypto from 'node:crypto';
import { SopsError } from './sopsDocument.ts';

const crypto = () => process.getBuiltinModule('node:crypto') as typeof NodeCrypto;

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
// An X25519 public key as SubjectPublicKeyInfo DER: this prefix, then the 32 raw bytes.
const X25519_SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');

/** The 32-byte public key of an `age1...` recipient (bech32, checksum verified). */
export function recipientKey(recipient: string): Buffer {
  const sep = recipient.lastIndexOf('1');
  const hrp = recipient.slice(0, sep);
  const values = [...recipient.slice(sep + 1)].map((c) => BECH32_CHARSET.indexOf(c));
  if (
    hrp !== 'age' ||
    values.length < 6 ||
    values.some((v) => v < 0) ||
    bech32Polymod([...hrpExpand(hrp), ...values]) !== 1
  ) {
    throw new SopsError(`${recipient} is not an age X25519 recipient (its bech32 checksum does not match)`);
  }
  // 5-bit groups to bytes; the checksum's 6 groups are not data.
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const v of values.slice(0, -6)) {
    acc = (acc << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  if (bytes.length !== 32 || (acc & ((1 << bits) - 1)) !== 0)
    throw new SopsError(`${recipient} is not an age X25519 recipient (not a 32-byte key)`);
  return Buffer.from(bytes);
}

function hrpExpand(hrp: string): number[] {
  const codes = [...hrp].map((c) => c.charCodeAt(0));
  return [...codes.map((c) => c >> 5), 0, ...codes.map((c) => c & 31)];
}

function bech32Polymod(values: readonly number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= gen[i]!;
  }
  return chk;
}

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64').replace(/=+$/, '');
const hkdf = (ikm: Uint8Array, salt: Uint8Array, info: string) =>
  Buffer.from(crypto().hkdfSync('sha256', ikm, salt, info, 32));

function chacha20poly1305(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array): Buffer {
  const c = crypto().createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
  return Buffer.concat([c.update(plaintext), c.final(), c.getAuthTag()]);
}

/** `plaintext` (the data key) as an armored age file that the recipient's identity decrypts. */
export function encryptForRecipient(plaintext: Uint8Array, recipient: string): string {
  const c = crypto();
  const theirs = recipientKey(recipient);
  const fileKey = c.randomBytes(16);

  // The X25519 stanza: an ephemeral share, and the file key wrapped with a key from the shared secret.
  const ephemeral = c.generateKeyPairSync('x25519');
  const share = ephemeral.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const shared = c.diffieHellman({
    privateKey: ephemeral.privateKey,
    publicKey: c.createPublicKey({ key: Buffer.concat([X25519_SPKI_PREFIX, theirs]), format: 'der', type: 'spki' }),
  });
  if (shared.every((b) => b === 0))
    throw new SopsError(`${recipient} is not a usable X25519 key (it gives an all-zero shared secret)`);
  const wrapKey = hkdf(shared, Buffer.concat([share, theirs]), 'age-encryption.org/v1/X25519');
  const body = chacha20poly1305(wrapKey, Buffer.alloc(12), fileKey);

  let header = `age-encryption.org/v1\n-> X25519 ${b64(share)}\n${b64(body)}\n---`;
  const mac = c
    .createHmac('sha256', hkdf(fileKey, Buffer.alloc(0), 'header'))
    .update(header, 'utf8')
    .digest();
  header += ` ${b64(mac)}\n`;

  // The payload: one STREAM chunk (the last, flag 1), keyed from the file key and a random nonce.
  const nonce = c.randomBytes(16);
  const chunkNonce = Buffer.alloc(12);
  chunkNonce[11] = 1;
  const payload = chacha20poly1305(hkdf(fileKey, nonce, 'payload'), chunkNonce, plaintext);
  return armor(Buffer.concat([Buffer.from(header, 'utf8'), nonce, payload]));
}

/** age's ASCII armor: standard base64 (padded) in lines of 64 characters between the two markers. */
function armor(file: Buffer): string {
  const text = file.toString('base64');
  let out = '-----BEGIN AGE ENCRYPTED FILE-----\n';
  for (let i = 0; i < text.length; i += 64) out += text.slice(i, i + 64) + '\n';
  return out + '-----END AGE ENCRYPTED FILE-----\n';
}
