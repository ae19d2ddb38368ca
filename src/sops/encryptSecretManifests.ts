// hydrate's SOPS mode: every v1 Secret manifest it is about to write becomes a SOPS document encrypted for the
// configured age recipients (Flux's kustomize-controller decrypts it with `spec.decryption.provider: sops`).
// A Secret that already carries SOPS metadata is written as it came. When the previous file holds the same
// document but for the random age wrapping of its data key (same plaintext, seed and recipients), the
// previous file is kept byte for byte, so a re-render of unchanged input shows no diff in Git.
import { parse } from 'yaml';
import { PARSE_OPTIONS, stringifyForOutput } from '../krm/yamlSchema.ts';
import { sealSecret, sopsDocument, SopsError } from './sopsSecret.ts';

export interface SopsSettings {
  ageRecipients: readonly string[];
  /** The secret the data keys are derived from (never written, never logged). */
  dataKeySeed: string;
}

/** `files`: path in OUT -> manifest text; `previous(path)`: that file's current text, if hydrate owns it. */
export async function encryptSecretManifests(
  files: ReadonlyMap<string, string>,
  previous: (path: string) => string | undefined,
  settings: SopsSettings,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [path, text] of files) {
    const obj = parse(text, PARSE_OPTIONS) as Record<string, unknown> | null;
    if (!isPlainSecret(obj)) {
      out.set(path, text);
      continue;
    }
    let sealed;
    try {
      sealed = sealSecret(obj, text, path, settings.dataKeySeed);
    } catch (e) {
      if (e instanceof SopsError) throw new SopsError(`cannot encrypt ${path}: ${e.message}`);
      throw e;
    }
    const kept = reusable(previous(path), sopsDocument(sealed, settings.ageRecipients.map((recipient) => ({ recipient, enc: '' }))));
    if (kept !== undefined) {
      out.set(path, kept);
      continue;
    }
    const wrapped = [];
    for (const recipient of settings.ageRecipients) wrapped.push({ recipient, enc: await wrapDataKey(sealed.dataKey, recipient) });
    out.set(path, stringifyForOutput(sopsDocument(sealed, wrapped)));
  }
  return out;
}

function isPlainSecret(o: Record<string, unknown> | null): o is Record<string, unknown> {
  return o !== null && typeof o === 'object' && o.apiVersion === 'v1' && o.kind === 'Secret' && !('sops' in o);
}

/** The previous text, if it is `expected` with the same recipients in order and only `enc` differing. */
function reusable(previousText: string | undefined, expected: Record<string, unknown>): string | undefined {
  if (previousText === undefined) return undefined;
  let prev: Record<string, unknown> | null;
  try {
    prev = parse(previousText, PARSE_OPTIONS) as Record<string, unknown> | null;
  } catch {
    return undefined;
  }
  const age = (prev?.sops as { age?: unknown } | undefined)?.age;
  if (!Array.isArray(age) || age.some((a) => typeof a?.enc !== 'string' || a.enc === '')) return undefined;
  const withoutEnc = { ...prev, sops: { ...(prev!.sops as object), age: age.map((a) => ({ recipient: a.recipient, enc: '' })) } };
  return stringifyForOutput(withoutEnc) === stringifyForOutput(expected) ? previousText : undefined;
}

/** The data key as an armored age file for one recipient (what sops stores in `enc`). */
async function wrapDataKey(dataKey: Uint8Array, recipient: string): Promise<string> {
  // Loaded only in this mode: the function's start-up does not pay for it.
  const age = await import('age-encryption');
  const e = new age.Encrypter();
  e.addRecipient(recipient);
  return age.armor.encode(await e.encrypt(dataKey));
}
