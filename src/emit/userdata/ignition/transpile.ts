// CLC YAML -> Ignition config. Parses the CLC like yaml.v3 (plain 0755 is octal) and builds Ignition 2.3.0
// (what OSM emits, via ct v0.9.4) or 3.3.0, serialized like Go's encoding/json in struct field order.
import { parseDocument } from 'yaml';
import { PARSE_OPTIONS } from '../../../io/yamlSchema.ts';
import { goJsonString } from '../../../encoding/goJson.ts';
import { UserDataError } from '../errors.ts';
import { dataUrl } from './dataUrl.ts';

interface ClcFile { path: string; mode: number; contents: string }
interface ClcUnit { name: string; enabled: boolean; mask: boolean; contents?: string; dropins: Array<{ name: string; contents: string }> }
interface Clc { users: string[]; files: ClcFile[]; units: ClcUnit[] }

const UNIT_TYPES = /\.(service|socket|device|mount|automount|swap|target|path|timer|snapshot|slice|scope)$/;

export function parseContainerLinuxConfig(text: string): Clc {
  const doc = parseDocument(text, PARSE_OPTIONS);
  if (doc.errors.length > 0) throw new UserDataError(`failed to validate coreos cloud config: ${doc.errors[0]!.message}`);
  const v = doc.toJS() as any;
  const users = (v?.passwd?.users?.[0]?.ssh_authorized_keys ?? []).map(String);
  const files: ClcFile[] = (v?.storage?.files ?? []).map((f: any) => {
    if (typeof f.path !== 'string' || !f.path.startsWith('/')) throw new UserDataError(`failed to convert container linux config to ignition: path not absolute: ${f.path}`);
    if (typeof f.mode !== 'number') throw new UserDataError(`failed to convert container linux config to ignition: invalid mode for ${f.path}`);
    return { path: f.path, mode: f.mode, contents: String(f.contents?.inline ?? '') };
  });
  const units: ClcUnit[] = (v?.systemd?.units ?? []).map((u: any) => {
    const name = String(u.name);
    if (!UNIT_TYPES.test(name)) throw new UserDataError(`failed to convert container linux config to ignition: invalid systemd unit extension: ${name}`);
    return {
      name,
      enabled: u.enabled === true,
      mask: u.mask === true,
      ...(typeof u.contents === 'string' ? { contents: u.contents } : {}),
      dropins: (u.dropins ?? []).map((d: any) => ({ name: String(d.name), contents: String(d.contents ?? '') })),
    };
  });
  return { users, files, units };
}

const str = goJsonString;
const list = (xs: string[]) => '[' + xs.join(',') + ']';

export function ignition23(c: Clc): string {
  const passwd = c.users.length > 0 ? `{"users":[{"name":"core","sshAuthorizedKeys":${list(c.users.map(str))}}]}` : '{}';
  const files = c.files.map((f) => `{"filesystem":"root","path":${str(f.path)},"contents":{"source":${str(dataUrl(f.contents))},"verification":{}},"mode":${f.mode}}`);
  const storage = files.length > 0 ? `{"files":${list(files)}}` : '{}';
  const units = c.units.map((u) => {
    const parts: string[] = [];
    if (u.contents) parts.push(`"contents":${str(u.contents)}`);
    if (u.dropins.length > 0) parts.push(`"dropins":${list(u.dropins.map((d) => `{"contents":${str(d.contents)},"name":${str(d.name)}}`))}`);
    parts.push(`"enabled":${u.enabled}`);
    if (u.mask) parts.push('"mask":true');
    parts.push(`"name":${str(u.name)}`);
    return '{' + parts.join(',') + '}';
  });
  const systemd = units.length > 0 ? `{"units":${list(units)}}` : '{}';
  return `{"ignition":{"config":{},"security":{"tls":{}},"timeouts":{},"version":"2.3.0"},"networkd":{},"passwd":${passwd},"storage":${storage},"systemd":${systemd}}`;
}

/** Ignition spec 3.3.0 with the same content (our addition; validated with ignition-validate). */
export function ignition33(c: Clc): string {
  const out: Record<string, unknown> = { ignition: { version: '3.3.0' } };
  if (c.users.length > 0) out.passwd = { users: [{ name: 'core', sshAuthorizedKeys: c.users }] };
  if (c.files.length > 0) out.storage = { files: c.files.map((f) => ({ path: f.path, contents: { source: dataUrl(f.contents) }, mode: f.mode, overwrite: true })) };
  if (c.units.length > 0) {
    out.systemd = {
      units: c.units.map((u) => ({
        name: u.name,
        enabled: u.enabled,
        ...(u.mask ? { mask: true } : {}),
        ...(u.contents ? { contents: u.contents } : {}),
        ...(u.dropins.length > 0 ? { dropins: u.dropins } : {}),
      })),
    };
  }
  return JSON.stringify(out);
}
