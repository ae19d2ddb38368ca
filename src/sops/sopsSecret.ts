// A Kubernetes Secret as a SOPS document (github.com/getsops/sops v3 format, as Flux's kustomize-controller
// decrypts it): every value under `data`/`stringData` becomes ENC[AES256_GCM,data:...,iv:...,tag:...,type:str]
// (AES-256-GCM, 32-byte IV, the value's key path "data:token:" as associated data), the MAC is SHA-512 over
// every value of the document in order (sops' ToBytes), encrypted with the data key and `lastmodified` as
// associated data.
//
// Deterministic: hydrate holds no private key, so it cannot read its previous output to see whether anything
// changed. Instead the data key is derived from a secret seed and the Secret's whole plaintext
// (HMAC-SHA256(seed, label | path | plaintext)), and each IV from the data key, the value's path and the value.
// The same plaintext therefore gives the same ciphertext, and a different plaintext a different data key, so
// no (key, IV) pair ever encrypts two different values (GCM's one requirement). Without the seed nobody can
// compute a data key from a guessed plaintext (unlike convergent encryption, keyed by the plaintext alone); what
// the ciphertext shows is only what Git shows anyway: whether a Secret changed. Only the age wrapping of the
// data key is random; encryptSecretManifests keeps the previous wrapping when everything else is identical.
import type * as NodeCrypto from 'node:crypto';

// node:crypto takes milliseconds to load; only this mode needs it.
const crypto = () => process.getBuiltinModule('node:crypto') as typeof NodeCrypto;

export const SOPS_ENCRYPTED_REGEX = '^(data|stringData)$';
const ENCRYPTED_KEY = /^(data|stringData)$/;
/** The sops file format these documents follow. */
export const SOPS_VERSION = '3.9.0';
/** The MAC's associated data. A fixed value: the output depends on the input only. */
export const SOPS_LAST_MODIFIED = '1970-01-01T00:00:00Z';

export class SopsError extends Error {
  override name = 'SopsError';
}

export interface SealedSecret {
  /** The Secret with its data/stringData values encrypted (key order kept). */
  body: Record<string, unknown>;
  /** The encrypted MAC. */
  mac: string;
  /** The data key, to be wrapped for each age recipient. */
  dataKey: Uint8Array;
}

const hmac = (key: NodeCrypto.BinaryLike, ...parts: string[]) => {
  const h = crypto().createHmac('sha256', key);
  for (const p of parts) h.update(p, 'utf8').update('\0');
  return h.digest();
};

/** `plaintext` is the Secret's manifest text as it would be written, `path` its file: both bind the data key. */
export function sealSecret(secret: Record<string, unknown>, plaintext: string, path: string, seed: string): SealedSecret {
  const dataKey = hmac(seed, 'osm-krm sops data key v1', path, plaintext);
  const mac = crypto().createHash('sha512');
  const body = walk(secret, [], false, dataKey, mac) as Record<string, unknown>;
  const macText = mac.digest('hex').toUpperCase();
  return { body, mac: encrypt(macText, dataKey, SOPS_LAST_MODIFIED, hmac(dataKey, 'mac iv', macText)), dataKey };
}

/** sops' walkBranch: maps extend the path, lists keep it; every leaf is hashed, the encrypted ones replaced. */
function walk(v: unknown, path: string[], encrypted: boolean, key: Buffer, mac: NodeCrypto.Hash): unknown {
  if (Array.isArray(v)) return v.map((e) => walk(e, path, encrypted, key, mac));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v)) out[k] = walk(e, [...path, k], encrypted || ENCRYPTED_KEY.test(k), key, mac);
    return out;
  }
  mac.update(macBytes(v, path), 'utf8');
  if (!encrypted) return v;
  if (typeof v !== 'string') throw new SopsError(`${path.join('.')} is not a string`);
  const aad = path.join(':') + ':';
  return encrypt(v, key, aad, hmac(key, 'value iv', aad, v));
}

/** sops' ToBytes. */
function macBytes(v: unknown, path: string[]): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (v === null) return '';
  throw new SopsError(`${path.join('.')} holds a value sops cannot hash here`);
}

/** sops' aes.Cipher.Encrypt of a string (an empty one stays empty, as sops writes it). */
function encrypt(plaintext: string, key: Buffer, aad: string, iv: Buffer): string {
  if (plaintext === '') return '';
  const c = crypto().createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad, 'utf8'));
  const data = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return `ENC[AES256_GCM,data:${data.toString('base64')},iv:${iv.toString('base64')},tag:${c.getAuthTag().toString('base64')},type:str]`;
}

/** The whole document: the sealed body and the sops metadata, with the data key wrapped for each recipient. */
export function sopsDocument(sealed: SealedSecret, wrapped: ReadonlyArray<{ recipient: string; enc: string }>): Record<string, unknown> {
  return {
    ...sealed.body,
    sops: {
      age: wrapped.map((w) => ({ recipient: w.recipient, enc: w.enc })),
      lastmodified: SOPS_LAST_MODIFIED,
      mac: sealed.mac,
      encrypted_regex: SOPS_ENCRYPTED_REGEX,
      version: SOPS_VERSION,
    },
  };
}
