// The per-OS `operatingSystemSpec`, decoded like OSM: non-strict JSON into the OS's struct (unknown keys
// ignored, wrong types rejected), null or absent meaning all zero values.
import { GoStruct } from '../go/reflect/value.ts';
import { ResourceError } from '../krm/results.ts';
import { goFoldedName } from '../go/encoding/json/decode.ts';
import { RHEL_SUBSCRIPTION_SECRET_FIELDS } from '../config/operatingSystemManagerConfig.ts';

type FieldType = 'bool' | 'string';
interface StructDef {
  goType: string;
  fields: ReadonlyArray<readonly [goName: string, jsonName: string, type: FieldType]>;
}

const DIST_UPGRADE: StructDef['fields'][number] = ['DistUpgradeOnBoot', 'distUpgradeOnBoot', 'bool'];

const STRUCTS: Record<string, StructDef> = {
  ubuntu: { goType: 'ubuntu.Config', fields: [DIST_UPGRADE] },
  amzn2: { goType: 'amzn2.Config', fields: [DIST_UPGRADE] },
  rockylinux: { goType: 'rockylinux.Config', fields: [DIST_UPGRADE] },
  rhel: {
    goType: 'rhel.Config',
    fields: [
      DIST_UPGRADE,
      ['RHELSubscriptionManagerUser', 'rhelSubscriptionManagerUser', 'string'],
      ['RHELSubscriptionManagerPassword', 'rhelSubscriptionManagerPassword', 'string'],
      ['RHSMOfflineToken', 'rhsmOfflineToken', 'string'],
      ['AttachSubscription', 'attachSubscription', 'bool'],
      ['RHELUseSatelliteServer', 'rhelUseSatelliteServer', 'bool'],
      ['RHELSatelliteServer', 'rhelSatelliteServer', 'string'],
      ['RHELOrganizationName', 'rhelOrganizationName', 'string'],
      ['RHELActivationKey', 'rhelActivationKey', 'string'],
    ],
  },
  flatcar: {
    goType: 'flatcar.Config',
    fields: [
      ['DisableAutoUpdate', 'disableAutoUpdate', 'bool'],
      ['DisableLocksmithD', 'disableLocksmithD', 'bool'],
      ['DisableUpdateEngine', 'disableUpdateEngine', 'bool'],
      ['ProvisioningUtility', 'provisioningUtility', 'string'],
    ],
  },
};

/** Go struct field names of every OS config in the template data, in OSM's order. */
export const OS_CONFIG_FIELDS: Record<string, string> = {
  amzn2: 'AmazonLinuxConfig',
  flatcar: 'FlatcarConfig',
  rhel: 'RhelConfig',
  ubuntu: 'UbuntuConfig',
  rockylinux: 'RockyLinuxConfig',
};

const FIELD = 'spec.template.spec.providerSpec.value.operatingSystemSpec';

export interface DecodedOperatingSystemSpec {
  value: GoStruct;
  /** For each Go field set from the input: the key as written, whatever its case. */
  sourceKeys: Record<string, string>;
}

/** Decode `spec` for `os`; `undefined` spec (or another OS) gives the zero value. */
export function decodeOperatingSystemSpec(os: string, spec: unknown): GoStruct {
  return decodeOperatingSystemSpecWithKeys(os, spec).value;
}

/**
 * Decoded as encoding/json does: each key of the object, in order, sets the field whose JSON name it matches
 * exactly or, failing that, case-insensitively (Go's folding); a later key overwrites an earlier one.
 */
export function decodeOperatingSystemSpecWithKeys(os: string, spec: unknown): DecodedOperatingSystemSpec {
  const def = STRUCTS[os];
  if (def === undefined)
    throw new ResourceError(
      'failed to add operating system spec: unknown OperatingSystem',
      'spec.template.spec.providerSpec.value.operatingSystem',
    );
  const fields: Record<string, unknown> = {};
  const sourceKeys: Record<string, string> = {};
  for (const [goName, , type] of def.fields) fields[goName] = type === 'bool' ? false : '';
  if (spec === null || spec === undefined) return { value: new GoStruct(def.goType, fields), sourceKeys };
  if (typeof spec !== 'object' || Array.isArray(spec)) {
    throw new ResourceError(
      `failed to add operating system spec: json: cannot unmarshal ${Array.isArray(spec) ? 'array' : typeof spec} into Go value of type ${def.goType}`,
      FIELD,
    );
  }
  for (const [key, v] of Object.entries(spec as Record<string, unknown>)) {
    const field = def.fields.find(([, jsonName]) => jsonName === key) ?? foldedField(def.fields, key);
    if (field === undefined) continue;
    const [goName, jsonName, type] = field;
    if (v === null) continue;
    const ok = type === 'bool' ? typeof v === 'boolean' : typeof v === 'string';
    if (!ok) {
      const got = Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;
      throw new ResourceError(
        `failed to add operating system spec: json: cannot unmarshal ${got} into Go struct field Config.${jsonName} of type ${type}`,
        `${FIELD}.${key}`,
      );
    }
    fields[goName] = v;
    sourceKeys[goName] = key;
  }
  return { value: new GoStruct(def.goType, fields), sourceKeys };
}

/** The field whose JSON name matches `key` as Go folds names (only when no name matches exactly). */
function foldedField<F extends readonly [string, string, ...unknown[]]>(
  fields: readonly F[],
  key: string,
): F | undefined {
  const folded = goFoldedName(key);
  return fields.find(([, jsonName]) => goFoldedName(jsonName) === folded);
}

/**
 * The RHEL subscription secrets a MachineDeployment gives, under every key machine-controller and OSM would read
 * them from: they decode providerSpec.value with encoding/json, which matches keys case-insensitively and folds
 * ſ to s, K (Kelvin) to k, İ and ı to i (goFoldedName). Every value given is returned, not only the one that
 * wins, and whatever the operating system: each is in the input, so each is masked.
 */
export function secretSpecValues(providerSpecValue: unknown): string[] {
  const out: string[] = [];
  for (const spec of foldedMembers(providerSpecValue, 'operatingSystemSpec')) {
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) continue;
    for (const [k, v] of Object.entries(spec)) {
      if (!SECRET_FIELDS.has(goFoldedName(k))) continue;
      if (typeof v === 'string') out.push(v);
      else if (typeof v === 'number' || typeof v === 'bigint') out.push(String(v));
    }
  }
  return out;
}

const SECRET_FIELDS = new Set(RHEL_SUBSCRIPTION_SECRET_FIELDS.map(goFoldedName));

/** Whether Go would decode the operatingSystemSpec key `key` into a RHEL subscription secret field. */
export function isSecretSpecKey(key: string): boolean {
  return SECRET_FIELDS.has(goFoldedName(key));
}

/** The members of `o` whose key encoding/json would decode into the field `field`, in order. */
function foldedMembers(o: unknown, field: string): unknown[] {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return [];
  const folded = goFoldedName(field);
  return Object.entries(o)
    .filter(([k]) => goFoldedName(k) === folded)
    .map(([, v]) => v);
}

export function zeroOperatingSystemConfig(os: string): GoStruct {
  return decodeOperatingSystemSpec(os, null);
}
