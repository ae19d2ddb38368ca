// What a user-data emitter needs (one half of an OSC and where it goes), and the normalised file and unit
// lists both envelopes are written from: OSM builds the same lists before running either template.
import type { OSCConfig, SecretType } from '../../model/operatingSystemProfile.ts';
import { goTrimSpace } from '../../go/strings/strings.ts';
import type { CloudProvider } from '../../model/cloudProviders.ts';
import { UserDataError } from './errors.ts';

export interface UserDataInput {
  config: OSCConfig;
  osName: string;
  /** The cloud's descriptor (src/model/cloudProviders.ts); undefined for a cloud without one. */
  cloud: CloudProvider | undefined;
  secretType: SecretType;
  distUpgradeOnBoot: boolean;
  /** Replaces <MACHINE_NAME> in the cloud-init envelope for `edge`, whose machines are named after their MachineDeployment. */
  machineDeploymentName: string;
  /**
   * Leave `ssh_authorized_keys` out of a cloud-config when there are no keys. OSM writes the key with a null
   * value, which cloud-init's schema rejects and its ssh module fails on (skipping the cloud's own keys too);
   * the function always sets this. Unset, the emitter writes OSM's bytes (upstream's generator vector 08).
   */
  omitEmptySSHKeys?: boolean;
}

export interface EnvelopeFile {
  path: string;
  /** OSM's permission string, e.g. "0644" (see permissionString). */
  permissions: string;
  /** Passed through untouched; only "b64" means anything, and only to cloud-init. */
  encoding: string;
  content: string;
}

export interface EnvelopeDropIn {
  name: string;
  content: string;
}

export interface EnvelopeUnit {
  name: string;
  enable: boolean;
  mask: boolean;
  /** "" when the OSC has none. */
  content: string;
  dropIns: EnvelopeDropIn[];
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * `fmt.Sprintf("%v", permissions)` of the CRD's int32, "0"-prefixed only when exactly three characters
 * long: 644 → "0644", 1777 → "1777", 44 → "44", -12 → "0-12" (OSM's rule, quirks included).
 */
export function permissionString(permissions: number | undefined, path: string): string {
  const p = permissions ?? 0;
  if (!Number.isInteger(p) || p < INT32_MIN || p > INT32_MAX) {
    throw new UserDataError(
      `file ${JSON.stringify(path)}: permissions must be a 32-bit integer, got ${String(permissions)}`,
    );
  }
  const s = String(p);
  return s.length === 3 ? '0' + s : s;
}

/** SSH keys trimmed (Go's TrimSpace), empty ones dropped, the first of duplicates kept, order preserved. */
export function deduplicateSSHKeys(keys: readonly string[] | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const key of keys ?? []) {
    const trimmed = goTrimSpace(key);
    if (trimmed === '' || seen.has(trimmed)) continue;
    seen.add(trimmed);
    out.push(trimmed);
  }
  return out;
}

/** sprig's `indent`: every line padded, empty lines and a trailing empty line included. */
export function sprigIndent(spaces: number, text: string): string {
  const pad = ' '.repeat(spaces);
  return pad + text.replaceAll('\n', '\n' + pad);
}

/**
 * Only bootstrap user-data names the machine, and only where the cloud lets it (not on AWS: the cloud's
 * descriptor says). machine-controller substitutes <MACHINE_NAME> when it creates the instance.
 */
export function writesMachineName(input: UserDataInput): boolean {
  return input.secretType === 'bootstrap' && (input.cloud?.bootstrapNamesMachine ?? true);
}

/** The file list as OSM prepares it; cloud-init gets `b64` files base64-encoded, Ignition never does. */
export function envelopeFiles(config: OSCConfig, encodeBase64: boolean): EnvelopeFile[] {
  return (config.files ?? []).map((file) => {
    const inline = file.content?.inline;
    // OSM dereferences content.inline unconditionally and crashes without it.
    if (inline === undefined || inline === null)
      throw new UserDataError(`file ${JSON.stringify(file.path)} has no content.inline`);
    const encoding = inline.encoding ?? '';
    const data = inline.data ?? '';
    return {
      path: file.path,
      permissions: permissionString(file.permissions, file.path),
      encoding,
      content: encoding === 'b64' && encodeBase64 ? Buffer.from(data, 'utf8').toString('base64') : data,
    };
  });
}

/** The unit list as OSM prepares it: unset enable/mask are false, unset content is "". */
export function envelopeUnits(config: OSCConfig): EnvelopeUnit[] {
  return (config.units ?? []).map((unit) => ({
    name: unit.name,
    enable: unit.enable === true,
    mask: unit.mask === true,
    content: unit.content ?? '',
    dropIns: (unit.dropIns ?? []).map((d) => ({ name: d.name, content: d.content ?? '' })),
  }));
}
