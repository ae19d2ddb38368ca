// The output formats, one module each, and the questions the layers ask them: which format a render gets
// (userDataFormatFor), which format a text is (sniffUserData), and each format by its id. Adding a format: a
// module in this folder and its line here (docs/architecture.md, Where to add).
import type { ProvisioningUtility } from '../../../model/operatingSystemProfile.ts';
import { cloudInit } from './cloudInit.ts';
import { coreosCloudinit } from './coreosCloudinit.ts';
import { ignition23 } from './ignition23.ts';
import { ignition33 } from './ignition33.ts';
import type { UserDataFormat } from './userDataFormat.ts';

/** Every format; sniffing tries them in this order. */
export const USER_DATA_FORMATS = [
  cloudInit,
  coreosCloudinit,
  ignition23,
  ignition33,
] as const satisfies readonly UserDataFormat[];

export type UserDataFormatId = (typeof USER_DATA_FORMATS)[number]['id'];

const BY_ID: ReadonlyMap<string, UserDataFormat> = new Map(USER_DATA_FORMATS.map((f) => [f.id, f]));

export function userDataFormat(id: UserDataFormatId): UserDataFormat {
  return BY_ID.get(id)!;
}

export interface FormatSelection {
  provisioningUtility: ProvisioningUtility;
  osName: string;
  ignitionSpec: string;
}

/**
 * The format a render with these settings gets: of the formats whose `selectedBy` all match, the one that
 * names the most settings (Flatcar's coreos-cloudinit before cloud-init). Every combination has exactly one
 * (test/emit/userdata/formats.test.ts).
 */
export function userDataFormatFor(s: FormatSelection): UserDataFormat {
  let best: UserDataFormat | undefined;
  let bestScore = -1;
  for (const f of USER_DATA_FORMATS as readonly UserDataFormat[]) {
    const sel = f.selectedBy;
    if (sel.provisioningUtility !== s.provisioningUtility) continue;
    if (sel.osName !== undefined && sel.osName !== s.osName) continue;
    if (sel.ignitionSpec !== undefined && sel.ignitionSpec !== s.ignitionSpec) continue;
    const score = (sel.osName !== undefined ? 1 : 0) + (sel.ignitionSpec !== undefined ? 1 : 0);
    if (score > bestScore) [best, bestScore] = [f, score];
  }
  if (best === undefined)
    throw new Error(`no user-data format for provisioning utility ${JSON.stringify(s.provisioningUtility)}`);
  return best;
}

/** The format `text` is, by its header: `expected` when it matches, else the first that does. */
export function sniffUserData(text: string, expected?: UserDataFormat): UserDataFormat | undefined {
  if (expected?.sniff(text)) return expected;
  return (USER_DATA_FORMATS as readonly UserDataFormat[]).find((f) => f.sniff(text));
}
