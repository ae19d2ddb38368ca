// An Ignition config (spec 2.x or 3.x) as a node sees it: storage files with their data URLs decoded, systemd
// (and 2.x networkd) units, the version and users as settings.
import type { DecodedUserData, NodeFile, NodeUnit } from './userDataFormat.ts';
import { asArray, describeValue } from './cloudConfigView.ts';

type Json = Record<string, any>;

/** An Ignition config is a JSON object; the spec's major version is in ignition.version. */
export function sniffIgnition(text: string, major: 2 | 3): boolean {
  if (!text.trimStart().startsWith('{')) return false;
  const three = /"version":\s*"3\./.test(text);
  return major === 3 ? three : !three;
}

export function decodeIgnition(text: string): DecodedUserData {
  const config = JSON.parse(text) as Json;
  const files: NodeFile[] = asArray(config.storage?.files).map((f) => ({
    path: String(f?.path ?? ''),
    mode: typeof f?.mode === 'number' ? '0' + f.mode.toString(8) : '',
    owner: ownerOf(f?.user, f?.group),
    content: decodeDataUrl(String(f?.contents?.source ?? ''), f?.contents?.compression),
  }));
  const units: NodeUnit[] = [];
  const addUnits = (list: unknown, prefix: string) => {
    for (const u of asArray(list)) {
      units.push({
        name: prefix + String(u?.name ?? ''),
        state:
          u?.mask === true
            ? 'masked'
            : u?.enabled === true || u?.enable === true
              ? 'enabled'
              : u?.enabled === false
                ? 'disabled'
                : '',
        content: typeof u?.contents === 'string' ? u.contents : '',
        dropIns: asArray(u?.dropins).map((d) => ({ name: String(d?.name ?? ''), content: String(d?.contents ?? '') })),
      });
    }
  };
  addUnits(config.systemd?.units, '');
  addUnits(config.networkd?.units, 'networkd: ');
  const settings: Array<{ key: string; value: string }> = [];
  if (config.ignition?.version !== undefined)
    settings.push({ key: 'ignition.version', value: String(config.ignition.version) });
  for (const u of asArray(config.passwd?.users)) {
    settings.push({ key: `passwd.users[${String(u?.name ?? '')}]`, value: describeValue(u) });
  }
  return { files, units, settings };
}

function ownerOf(user: any, group: any): string {
  const name = (x: any) => x?.name ?? (x?.id !== undefined ? String(x.id) : '');
  const u = name(user);
  const g = name(group);
  return u === '' && g === '' ? '' : `${u || 'root'}:${g || 'root'}`;
}

/** RFC 2397 data URLs as Ignition reads them: percent-encoded text or base64, optionally gzip-compressed. */
export function decodeDataUrl(url: string, compression?: unknown): string {
  const m = /^data:([^,]*),(.*)$/s.exec(url);
  if (m === null) return url; // a remote source: show where it comes from
  const bytes = m[1]!.split(';').includes('base64')
    ? Buffer.from(m[2]!, 'base64')
    : Buffer.from(decodeURIComponent(m[2]!), 'utf8');
  if (compression === 'gzip') return process.getBuiltinModule('node:zlib').gunzipSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}
