// hydrate's SOPS mode: nothing secret is written in clear. Every manifest about to be written is checked
// against the run's mask (src/krm/redactSecrets.ts, every secret value the run read or made): an object that
// holds one becomes a SOPS document for the configured age recipients, encrypting the keys whose values hold
// secrets (every v1 Secret's data and stringData, whatever they hold). Flux's kustomize-controller decrypts any
// resource that carries SOPS metadata with a MAC (internal/decryptor/decryptor.go, isSOPSEncryptedResource,
// since v0.24), so the decrypted objects are the plain render's. A secret sops cannot encrypt where it sits
// (apiVersion, kind, metadata, a map key: Flux and kustomize read them before decrypting) is refused, and so
// is any registered value left in clear after encryption: the run writes nothing.
// An object that already carries SOPS metadata is written as it came. When the previous file holds the same
// document but for the random age wrapping of its data key, it is kept byte for byte, so a re-render of
// unchanged input shows no diff in Git.
import { parse } from 'yaml';
import { PARSE_OPTIONS, stringifyForOutput } from '../krm/yamlSchema.ts';
import { readInputYaml } from '../krm/inputYaml.ts';
import { NodeBudget } from '../krm/inputBounds.ts';
import type { SecretRegistry } from '../krm/redactSecrets.ts';
import { sealObject, sopsDocument, SopsError } from './sopsDocument.ts';
import { encryptForRecipient } from './ageRecipient.ts';

export interface SopsSettings {
  ageRecipients: readonly string[];
  /** The secret the data keys are derived from (never written, never logged). */
  dataKeySeed: string;
}

/** Keys Flux and kustomize read before decrypting: never encrypted, so never a place for a secret. */
const READ_BEFORE_DECRYPTION = new Set(['apiVersion', 'kind', 'metadata']);
const SECRET_KEYS = ['data', 'stringData'];

/**
 * `files`: path in OUT -> manifest text; `previous(path)`: that file's current text, if hydrate owns it. OUT's
 * previous files are input, all of them read within `previousBudget`, one run's bounds: a file past it, or one
 * that is not YAML, is not reused (written anew, as if it were not there), and `unreadable` is told why.
 */
export function encryptManifests(
  files: ReadonlyMap<string, string>,
  previous: (path: string) => string | undefined,
  settings: SopsSettings,
  secrets: SecretRegistry,
  previousBudget: NodeBudget = new NodeBudget(),
  unreadable: (path: string, reason: string) => void = () => {},
): Map<string, string> {
  const out = new Map<string, string>();
  const previousValue = (path: string): PreviousFile | undefined => {
    const text = previous(path);
    return text === undefined ? undefined : { text, budget: previousBudget, unreadable: (r) => unreadable(path, r) };
  };
  for (const [path, text] of files) {
    let written: string;
    try {
      written = encryptManifest(path, text, previousValue, settings, secrets);
      checkNothingInClear(written, secrets);
    } catch (e) {
      if (e instanceof SopsError) throw new SopsError(`cannot write ${path} in SOPS mode: ${e.message}`);
      throw e;
    }
    out.set(path, written);
  }
  return out;
}

/** A previous file of OUT, and the budget every previous file of the run is read within. */
interface PreviousFile {
  text: string;
  budget: NodeBudget;
  unreadable: (reason: string) => void;
}

function encryptManifest(
  path: string,
  text: string,
  previous: (path: string) => PreviousFile | undefined,
  settings: SopsSettings,
  secrets: SecretRegistry,
): string {
  const obj = parse(text, PARSE_OPTIONS) as unknown;
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj) || 'sops' in obj) return text;
  const keys = encryptedKeys(obj as Record<string, unknown>, secrets);
  if (keys.length === 0) return text;
  const sealed = sealObject(obj as Record<string, unknown>, text, path, settings.dataKeySeed, keys);
  const kept = reusable(
    previous(path),
    sopsDocument(
      sealed,
      settings.ageRecipients.map((recipient) => ({ recipient, enc: '' })),
    ),
  );
  if (kept !== undefined) return kept;
  const wrapped = settings.ageRecipients.map((recipient) => ({
    recipient,
    enc: encryptForRecipient(sealed.dataKey, recipient),
  }));
  return stringifyForOutput(sopsDocument(sealed, wrapped));
}

/**
 * The keys to encrypt: a v1 Secret's data and stringData, and the key right above every value that holds a
 * registered secret and is not under a key already chosen (a list's values count under the list's key).
 * Sorted, after data and stringData.
 */
function encryptedKeys(o: Record<string, unknown>, secrets: SecretRegistry): string[] {
  const isSecret = o.apiVersion === 'v1' && o.kind === 'Secret';
  const found = new Set<string>(isSecret ? SECRET_KEYS : []);
  const visit = (v: unknown, path: readonly string[]): void => {
    if (Array.isArray(v)) return v.forEach((e) => visit(e, path));
    if (v !== null && typeof v === 'object') {
      for (const [k, e] of Object.entries(v)) {
        const key = secrets.check(k);
        if (key !== 'clear')
          throw new SopsError(`a key in ${[...path, '…'].join('.')} ${holding(key)}, and sops never encrypts keys`);
        visit(e, [...path, k]);
      }
      return;
    }
    const value = typeof v === 'string' || typeof v === 'number' ? secrets.check(String(v)) : 'clear';
    if (value !== 'clear') {
      if (path.length === 0 || READ_BEFORE_DECRYPTION.has(path[0]!)) {
        throw new SopsError(
          `${path.join('.')} ${holding(value)}, and sops cannot encrypt it there (Flux and kustomize read apiVersion, kind and metadata before they decrypt)`,
        );
      }
      if (!path.some((k) => found.has(k))) found.add(path[path.length - 1]!);
    }
  };
  visit(o, []);
  const keys = [
    ...(isSecret ? SECRET_KEYS : []),
    ...[...found].filter((k) => !isSecret || !SECRET_KEYS.includes(k)).sort(),
  ];
  // A key name is encrypted wherever it occurs: it must not occur where Flux reads before decrypting.
  const hit = keys.find((k) => READ_BEFORE_DECRYPTION.has(k) || k === 'sops' || keyNames(o.metadata).has(k));
  if (hit !== undefined)
    throw new SopsError(
      `a secret value sits under the key ${JSON.stringify(hit)}, which also names a field Flux and kustomize read before decrypting (apiVersion, kind, metadata)`,
    );
  return keys;
}

function keyNames(v: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((e) => keyNames(e, into));
  else if (v !== null && typeof v === 'object') {
    for (const [k, e] of Object.entries(v)) {
      into.add(k);
      keyNames(e, into);
    }
  }
  return into;
}

/** What is left of a written file once its ciphertexts (values, MAC, wrapped data keys) are taken out. */
function clearText(written: string): string {
  return written
    .replace(/ENC\[AES256_GCM,[^\]]*\]/g, '')
    .replace(/-----BEGIN AGE ENCRYPTED FILE-----[^]*?-----END AGE ENCRYPTED FILE-----/g, '');
}

/** The last check before a byte is written: no registered secret value (in any form) outside a ciphertext. */
function checkNothingInClear(written: string, secrets: SecretRegistry): void {
  const clear = secrets.check(clearText(written));
  if (clear !== 'clear') {
    throw new SopsError(
      clear === 'unchecked'
        ? `what would be written in clear ${holding(clear)}, so it is not written`
        : 'a secret value would be written in clear (it sits where no encrypted key reaches, e.g. in a comment or an object that already carries sops metadata)',
    );
  }
}

/** What the mask found in a text, said as a verb phrase. */
function holding(found: 'secret' | 'unchecked'): string {
  return found === 'secret'
    ? 'holds a secret value'
    : "could not be checked for secrets within the mask's bound (many secret values share a long prefix that it repeats)";
}

/** The previous text, if it is `expected` with the same recipients in order and only `enc` differing. */
function reusable(previous: PreviousFile | undefined, expected: Record<string, unknown>): string | undefined {
  if (previous === undefined) return undefined;
  const previousText = previous.text;
  let prev: Record<string, unknown> | null;
  try {
    // OUT is in Git: the previous file is input, read within the input bounds (a malformed or oversized one is
    // simply not reused).
    prev = readInputYaml(previousText, 'the previous output file', previous.budget) as Record<string, unknown> | null;
  } catch (e) {
    previous.unreadable(e instanceof Error ? e.message : String(e));
    return undefined;
  }
  const age = (prev?.sops as { age?: unknown } | undefined)?.age;
  if (!Array.isArray(age) || age.some((a) => typeof a?.enc !== 'string' || a.enc === '')) return undefined;
  const withoutEnc = {
    ...prev,
    sops: { ...(prev!.sops as object), age: age.map((a) => ({ recipient: a.recipient, enc: '' })) },
  };
  return stringifyForOutput(withoutEnc) === stringifyForOutput(expected) ? previousText : undefined;
}
