// Registry credentials from the Secret named by -node-registry-credentials-secret, decoded as OSM's
// GetContainerdAuthConfig does with encoding/json: a kubernetes.io/dockerconfigjson Secret gives the `auths`
// of its .dockerconfigjson; any other type has one registry per data key, each value a JSON AuthConfig.
// Messages name keys and byte offsets only: the values are secrets.
import { ContainerRuntimeConfigError } from './errors.ts';
import { goFoldedName, JsonMembers, JsonSyntaxError, unmarshal } from '../../go/encoding/json/decode.ts';

export interface RegistryAuth {
  username?: string;
  password?: string;
  auth?: string;
  identityToken?: string;
}

export interface RegistryCredentialsSecret {
  type?: string;
  /** base64, as in a Secret */
  data?: Record<string, string>;
  /** plain text, applied over `data` as the API server does */
  stringData?: Record<string, string>;
}

const DOCKER_CONFIG_JSON = 'kubernetes.io/dockerconfigjson';
const AUTH_FIELDS: Record<string, keyof RegistryAuth> = {
  USERNAME: 'username',
  PASSWORD: 'password',
  AUTH: 'auth',
  IDENTITYTOKEN: 'identityToken',
};
const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const fail = (message: string): never => {
  throw new ContainerRuntimeConfigError(`registry credentials Secret: ${message}`);
};

/** A record that may hold any key, "__proto__" included. */
function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

function stringMap(v: unknown, field: string): Array<[string, string]> {
  if (v === undefined || v === null) return [];
  if (typeof v !== 'object' || Array.isArray(v)) return fail(`${field} must be a map of strings`);
  return Object.entries(v as Record<string, unknown>).map(([k, s]) =>
    typeof s === 'string' ? [k, s] : fail(`${field}.${k} must be a string`),
  );
}

/** data (base64, line breaks ignored as Go's decoder does) overlaid with stringData. */
function secretValues(secret: RegistryCredentialsSecret): Map<string, Uint8Array> {
  const values = new Map<string, Uint8Array>();
  for (const [key, encoded] of stringMap(secret.data, 'data')) {
    const compact = encoded.replace(/[\r\n]/g, '');
    if (!STD_BASE64.test(compact)) fail(`data.${key} is not valid base64`);
    values.set(key, new Uint8Array(Buffer.from(compact, 'base64')));
  }
  for (const [key, text] of stringMap(secret.stringData, 'stringData'))
    values.set(key, new Uint8Array(Buffer.from(text, 'utf8')));
  return values;
}

/**
 * What was wrong and where, worded from where Go's scanner stopped and never from Go's message, which quotes
 * the offending character: an error in an escape is placed at its backslash, any other one at the end of
 * the input is "unexpected end of JSON input".
 */
function syntaxReason(e: JsonSyntaxError, bytes: Uint8Array): string {
  if (e.context === 'in string escape code') return `invalid character in string escape code at byte ${e.at - 1}`;
  if (e.context === 'in \\u hexadecimal character escape')
    return `invalid character in \\u hexadecimal character escape at byte ${bytes.lastIndexOf(0x5c, e.at - 1)}`;
  if (e.at >= bytes.length) return `unexpected end of JSON input at byte ${bytes.length}`;
  if (e.context === 'exceeded max depth') return `exceeded max depth at byte ${e.at}`;
  if (e.context.startsWith('in literal ')) return `invalid character in literal at byte ${e.at}`;
  return `invalid character ${e.context} at byte ${e.at}`;
}

/** The document as decoding into a struct sees it: objects as their members in order, duplicates included. */
function parseJson(bytes: Uint8Array, where: string): unknown {
  const r = unmarshal(bytes, 'any', { members: true, useNumber: true });
  if (r.error instanceof JsonSyntaxError) return fail(`${where} is not valid JSON (${syntaxReason(r.error, bytes)})`);
  return r.value;
}

/** json.Unmarshal into AuthConfig: fields matched case-insensitively, later members win, null changes nothing. */
function decodeAuth(v: unknown, where: string): RegistryAuth {
  const auth: RegistryAuth = {};
  if (v === null) return auth;
  if (!(v instanceof JsonMembers)) return fail(`${where} must be a JSON object`);
  for (const [name, value] of v.members) {
    const field = AUTH_FIELDS[goFoldedName(name)];
    if (field === undefined || value === null) continue;
    if (typeof value !== 'string') return fail(`${where}: ${name} must be a string`);
    if (value === '') delete auth[field];
    else auth[field] = value;
  }
  return auth;
}

/** json.Unmarshal into {auths map[string]AuthConfig}: a second `auths` member adds to the first, null clears it. */
function decodeDockerConfig(doc: unknown): Record<string, RegistryAuth> {
  let auths: Record<string, RegistryAuth> = {};
  if (doc === null) return auths;
  if (!(doc instanceof JsonMembers)) return fail('.dockerconfigjson must be a JSON object');
  for (const [name, value] of doc.members) {
    if (goFoldedName(name) !== 'AUTHS') continue;
    if (value === null) {
      auths = {};
      continue;
    }
    if (!(value instanceof JsonMembers)) return fail('.dockerconfigjson: auths must be a JSON object');
    for (const [registry, entry] of value.members)
      setOwn(auths, registry, decodeAuth(entry, `.dockerconfigjson auths[${JSON.stringify(registry)}]`));
  }
  return auths;
}

export function parseRegistryCredentials(secret: RegistryCredentialsSecret): Record<string, RegistryAuth> {
  if (secret === null || typeof secret !== 'object') return fail('not an object');
  const values = secretValues(secret);
  if (secret.type === DOCKER_CONFIG_JSON) {
    const doc = values.get('.dockerconfigjson');
    if (doc === undefined) return fail(`type ${DOCKER_CONFIG_JSON} but no .dockerconfigjson key`);
    return decodeDockerConfig(parseJson(doc, '.dockerconfigjson'));
  }
  const out: Record<string, RegistryAuth> = {};
  for (const [registry, bytes] of values)
    setOwn(
      out,
      registry,
      decodeAuth(parseJson(bytes, `data[${JSON.stringify(registry)}]`), `data[${JSON.stringify(registry)}]`),
    );
  return out;
}
