// The per-OS `operatingSystemSpec`, decoded like OSM: non-strict JSON into the OS's struct (unknown keys
// ignored, wrong types rejected), null or absent meaning all zero values.
import { GoStruct } from '../go/reflect/value.ts';
import { ResourceError } from '../krm/results.ts';

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
  if (def === undefined) throw new ResourceError('failed to add operating system spec: unknown OperatingSystem', 'spec.template.spec.providerSpec.value.operatingSystem');
  const fields: Record<string, unknown> = {};
  const sourceKeys: Record<string, string> = {};
  for (const [goName, , type] of def.fields) fields[goName] = type === 'bool' ? false : '';
  if (spec === null || spec === undefined) return { value: new GoStruct(def.goType, fields), sourceKeys };
  if (typeof spec !== 'object' || Array.isArray(spec)) {
    throw new ResourceError(`failed to add operating system spec: json: cannot unmarshal ${Array.isArray(spec) ? 'array' : typeof spec} into Go value of type ${def.goType}`, FIELD);
  }
  for (const [key, v] of Object.entries(spec as Record<string, unknown>)) {
    const field = def.fields.find(([, jsonName]) => jsonName === key) ?? foldedField(def.fields, key);
    if (field === undefined) continue;
    const [goName, jsonName, type] = field;
    if (v === null) continue;
    const ok = type === 'bool' ? typeof v === 'boolean' : typeof v === 'string';
    if (!ok) {
      const got = Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;
      throw new ResourceError(`failed to add operating system spec: json: cannot unmarshal ${got} into Go struct field Config.${jsonName} of type ${type}`, `${FIELD}.${key}`);
    }
    fields[goName] = v;
    sourceKeys[goName] = key;
  }
  return { value: new GoStruct(def.goType, fields), sourceKeys };
}

/** The field whose JSON name matches `key` case-insensitively, as Go folds names (only when no name matches exactly). */
function foldedField<F extends readonly [string, string, ...unknown[]]>(fields: readonly F[], key: string): F | undefined {
  const folded = goFoldName(key);
  return fields.find(([, jsonName]) => goFoldName(jsonName) === folded);
}

/** encoding/json's foldName: each rune through unicode.ToUpper(unicode.ToLower(r)), so "ſ" matches "s" and "K" (Kelvin) "k". */
function goFoldName(name: string): string {
  if (/^[\x00-\x7f]*$/.test(name)) return name.toUpperCase(); // the same, rune for rune
  let out = '';
  for (const ch of name) {
    const lower = ch.toLowerCase();
    const l = [...lower].length === 1 ? lower : ch;
    const upper = l.toUpperCase();
    out += [...upper].length === 1 ? upper : l;
  }
  return out;
}

export function zeroOperatingSystemConfig(os: string): GoStruct {
  return decodeOperatingSystemSpec(os, null);
}
