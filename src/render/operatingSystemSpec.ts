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

/** Decode `spec` for `os`; `undefined` spec (or another OS) gives the zero value. */
export function decodeOperatingSystemSpec(os: string, spec: unknown): GoStruct {
  const def = STRUCTS[os];
  if (def === undefined) throw new ResourceError('failed to add operating system spec: unknown OperatingSystem', 'spec.template.spec.providerSpec.value.operatingSystem');
  const fields: Record<string, unknown> = {};
  for (const [goName, , type] of def.fields) fields[goName] = type === 'bool' ? false : '';
  if (spec === null || spec === undefined) return new GoStruct(def.goType, fields);
  if (typeof spec !== 'object' || Array.isArray(spec)) {
    throw new ResourceError(`failed to add operating system spec: json: cannot unmarshal ${Array.isArray(spec) ? 'array' : typeof spec} into Go value of type ${def.goType}`, FIELD);
  }
  const raw = spec as Record<string, unknown>;
  for (const [goName, jsonName, type] of def.fields) {
    // encoding/json matches keys case-insensitively when no exact match exists.
    const key = jsonName in raw ? jsonName : Object.keys(raw).find((k) => k.toLowerCase() === jsonName.toLowerCase());
    if (key === undefined) continue;
    const v = raw[key];
    if (v === null) continue;
    const ok = type === 'bool' ? typeof v === 'boolean' : typeof v === 'string';
    if (!ok) {
      const got = Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;
      throw new ResourceError(`failed to add operating system spec: json: cannot unmarshal ${got} into Go struct field Config.${jsonName} of type ${type}`, `${FIELD}.${key}`);
    }
    fields[goName] = v;
  }
  return new GoStruct(def.goType, fields);
}

export function zeroOperatingSystemConfig(os: string): GoStruct {
  return decodeOperatingSystemSpec(os, null);
}
