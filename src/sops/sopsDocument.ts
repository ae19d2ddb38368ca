// A Kubernetes object as a SOPS document (github.com/getsops/sops v3 format, as Flux's kustomize-controller
// decrypts it): every value under a key named in `encrypted_regex` becomes
// ENC[AES256_GCM,data:...,iv:...,tag:...,type:str|int|bool] (AES-256-GCM, 32-byte IV, the value's key path
// "data:token:" as associated data); the MAC is SHA-512 over every value of the document in order (sops'
// ToBytes; nulls are skipped, as sops' walk skips them), encrypted with the data key and `lastmodified` as
// associated data. Follows sops v3.13.2's aes/cipher.go and sops.go (Tree.Encrypt, shouldBeEncrypted: a value
// is encrypted when any key on its path matches).
//
// Deterministic: hydrate holds no private key, so it cannot read its previous output to see whether anything
// changed. Instead the data key is derived from a secret seed and the object's whole plaintext
// (HMAC-SHA256(seed, label | path | plaintext)), and each IV from the data key, the value's path and the value.
// The same plaintext therefore gives the same ciphertext, and a different plaintext a different data key, so
// no (key, IV) pair ever encrypts two different values (GCM's one requirement). Without the seed nobody can
// compute a data key from a guessed plaintext (unlike convergent encryption, keyed by the plaintext alone); what
// the ciphertext shows is only what Git shows anyway: whether an object changed. Only the age wrapping of the
// data key is random; encryptManifests keeps the previous wrapping when everything else is identical.
import type * as NodeCrypto from 'node:crypto';

// node:crypto takes milliseconds to load; only this mode needs it.
const crypto = () => process.getBuiltinModule('node:crypto') as typeof NodeCrypto;

/** The sops file format these documents follow. */
export const SOPS_VERSION = '3.9.0';
/** The MAC's associated data. A fixed value: the output depends on the input only. */
export const SOPS_LAST_MODIFIED = '1970-01-01T00:00:00Z';

export class SopsError extends Error {
  override name = 'SopsError';
}

export interface SealedObject {
  /** The object with the values under its encrypted keys encrypted (key order kept). */
  body: Record<string, unknown>;
  /** sops' encrypted_regex: `^(key|key...)$`. */
  encryptedRegex: string;
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

/** Go's regexp.QuoteMeta. */
const quoteMeta = (s: string) => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');

/** sops' encrypted_regex for exactly these key names, in the order given. */
export function encryptedRegexFor(keys: readonly string[]): string {
  return `^(${keys.map(quoteMeta).join('|')})$`;
}

/**
 * `plaintext` is the object's manifest text as it would be written, `path` its file: both bind the data key.
 * Every value with a key of `encryptedKeys` on its path is encrypted.
 */
export function sealObject(
  object: Record<string, unknown>,
  plaintext: string,
  path: string,
  seed: string,
  encryptedKeys: readonly string[],
): SealedObject {
  const dataKey = hmac(seed, 'osm-krm sops data key v1', path, plaintext);
  const mac = crypto().createHash('sha512');
  const keys = new Set(encryptedKeys);
  const body = walk(object, [], keys, false, dataKey, mac) as Record<string, unknown>;
  const macText = mac.digest('hex').toUpperCase();
  return {
    body,
    encryptedRegex: encryptedRegexFor(encryptedKeys),
    mac: encrypt(macText, dataKey, SOPS_LAST_MODIFIED, hmac(dataKey, 'mac iv', macText)),
    dataKey,
  };
}

/** sops' walkBranch: maps extend the path, lists keep it; every leaf is hashed, the encrypted ones replaced. */
function walk(
  v: unknown,
  path: string[],
  keys: ReadonlySet<string>,
  encrypted: boolean,
  key: Buffer,
  mac: NodeCrypto.Hash,
): unknown {
  if (Array.isArray(v)) return v.map((e) => walk(e, path, keys, encrypted, key, mac));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v)) out[k] = walk(e, [...path, k], keys, encrypted || keys.has(k), key, mac);
    return out;
  }
  if (v === null) return v; // sops' walk leaves nil alone: neither hashed nor encrypted
  const plain = plainBytes(v, path);
  mac.update(plain.text, 'utf8');
  if (!encrypted) return v;
  const aad = path.join(':') + ':';
  // A string's IV is what it has always been, so files written before other types were supported keep their bytes.
  const iv =
    plain.type === 'str' ? hmac(key, 'value iv', aad, plain.text) : hmac(key, 'value iv', aad, plain.type, plain.text);
  return encrypt(plain.text, key, aad, iv, plain.type);
}

/** sops' ToBytes, and the type its cipher records: strings, ints and booleans (as sops writes them). */
function plainBytes(v: unknown, path: string[]): { text: string; type: string } {
  if (typeof v === 'string') return { text: v, type: 'str' };
  if (typeof v === 'boolean') return { text: v ? 'True' : 'False', type: 'bool' };
  if (typeof v === 'number' && Number.isSafeInteger(v)) return { text: String(v), type: 'int' };
  throw new SopsError(`${path.join('.')} holds a value sops cannot hash here`);
}

/** sops' aes.Cipher.Encrypt (an empty string stays empty, as sops writes it). */
function encrypt(plaintext: string, key: Buffer, aad: string, iv: Buffer, type = 'str'): string {
  if (plaintext === '' && type === 'str') return '';
  const c = crypto().createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad, 'utf8'));
  const data = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return `ENC[AES256_GCM,data:${data.toString('base64')},iv:${iv.toString('base64')},tag:${c.getAuthTag().toString('base64')},type:${type}]`;
}

/** The whole document: the sealed body and the sops metadata, with the data key wrapped for each recipient. */
export function sopsDocument(
  sealed: SealedObject,
  wrapped: ReadonlyArray<{ recipient: string; enc: string }>,
): Record<string, unknown> {
  return {
    ...sealed.body,
    sops: {
      age: wrapped.map((w) => ({ recipient: w.recipient, enc: w.enc })),
      lastmodified: SOPS_LAST_MODIFIED,
      mac: sealed.mac,
      encrypted_regex: sealed.encryptedRegex,
      version: SOPS_VERSION,
    },
  };
}
