// User-data as a node sees it: the files it writes (path, mode, owner, content), the systemd units and
// drop-ins it installs, and its other settings, for cloud-init, Flatcar's coreos-cloudinit and Ignition 2.x/3.x
// alike. What `render` prints and `diff` compares; it reads the Secret's bytes, not the OSC, because the
// user-data is what machine-controller hands to the cloud.
import { parse } from 'yaml';
import { PARSE_OPTIONS } from '../krm/yamlSchema.ts';

export type UserDataFormat = 'cloud-init' | 'ignition' | 'unknown';

export interface NodeFile {
  path: string;
  /** Octal text, e.g. "0644"; "" when the config does not say. */
  mode: string;
  /** "user:group"; "" when the config does not say (cloud-init and Ignition then use root). */
  owner: string;
  content: string;
}

export interface NodeUnit {
  name: string;
  /** "enabled", "disabled", "masked" or "" (not said). */
  state: string;
  /** "" when the config only enables or masks the unit. */
  content: string;
  dropIns: Array<{ name: string; content: string }>;
}

export interface NodeConfigView {
  format: UserDataFormat;
  bytes: number;
  files: NodeFile[];
  units: NodeUnit[];
  /** Every other top-level setting (ssh keys, hostname, runcmd, modules ...), as YAML-ish `key: value` text. */
  settings: Array<{ key: string; value: string }>;
  /** Set when the user-data could not be read: the view then holds the raw text as one pseudo-file. */
  unreadable?: string;
}

export function viewUserData(text: string): NodeConfigView {
  const bytes = Buffer.byteLength(text, 'utf8');
  const trimmed = text.trimStart();
  try {
    if (trimmed.startsWith('{')) return { format: 'ignition', bytes, ...viewIgnition(JSON.parse(text)) };
    if (trimmed.startsWith('#cloud-config')) return { format: 'cloud-init', bytes, ...viewCloudConfig(parse(text, PARSE_OPTIONS)) };
  } catch (e) {
    return rawView(text, bytes, (e as Error).name === 'SyntaxError' || (e as Error).name === 'YAMLParseError' ? 'not valid JSON or YAML' : (e as Error).message);
  }
  return rawView(text, bytes, 'neither #cloud-config nor Ignition JSON');
}

function rawView(text: string, bytes: number, why: string): NodeConfigView {
  return { format: 'unknown', bytes, files: [{ path: '(user-data)', mode: '', owner: '', content: text }], units: [], settings: [], unreadable: why };
}

type Json = Record<string, any>;

function viewCloudConfig(doc: unknown): Omit<NodeConfigView, 'format' | 'bytes'> {
  const config = (doc ?? {}) as Json;
  const files: NodeFile[] = [];
  for (const f of asArray(config.write_files)) {
    files.push({
      path: String(f?.path ?? ''),
      mode: f?.permissions === undefined ? '' : String(f.permissions),
      owner: f?.owner === undefined ? '' : String(f.owner),
      content: decodeCloudInitContent(f?.content, f?.encoding),
    });
  }
  const units: NodeUnit[] = [];
  for (const u of asArray(config.coreos?.units)) {
    units.push({
      name: String(u?.name ?? ''),
      state: u?.mask === true ? 'masked' : u?.enable === true ? 'enabled' : '',
      content: typeof u?.content === 'string' ? u.content : '',
      dropIns: asArray(u?.drop_ins).map((d) => ({ name: String(d?.name ?? ''), content: String(d?.content ?? '') })),
    });
  }
  const settings = Object.keys(config)
    .filter((k) => k !== 'write_files' && !(k === 'coreos' && Object.keys(config.coreos ?? {}).every((c) => c === 'units')))
    .map((key) => ({ key, value: describeValue(config[key]) }));
  return { files, units, settings };
}

function decodeCloudInitContent(content: unknown, encoding: unknown): string {
  const text = content === null || content === undefined ? '' : String(content);
  const enc = typeof encoding === 'string' ? encoding.toLowerCase() : '';
  if (enc === 'b64' || enc === 'base64') return Buffer.from(text, 'base64').toString('utf8');
  if (enc === 'gz+b64' || enc === 'gzip+base64' || enc === 'gz+base64' || enc === 'gzip+b64') {
    const { gunzipSync } = process.getBuiltinModule('node:zlib');
    return gunzipSync(Buffer.from(text, 'base64')).toString('utf8');
  }
  return text;
}

function viewIgnition(config: Json): Omit<NodeConfigView, 'format' | 'bytes'> {
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
        state: u?.mask === true ? 'masked' : u?.enabled === true || u?.enable === true ? 'enabled' : u?.enabled === false ? 'disabled' : '',
        content: typeof u?.contents === 'string' ? u.contents : '',
        dropIns: asArray(u?.dropins).map((d) => ({ name: String(d?.name ?? ''), content: String(d?.contents ?? '') })),
      });
    }
  };
  addUnits(config.systemd?.units, '');
  addUnits(config.networkd?.units, 'networkd: ');
  const settings: Array<{ key: string; value: string }> = [];
  if (config.ignition?.version !== undefined) settings.push({ key: 'ignition.version', value: String(config.ignition.version) });
  for (const u of asArray(config.passwd?.users)) {
    settings.push({ key: `passwd.users[${String(u?.name ?? '')}]`, value: describeValue(u) });
  }
  return { files, units, settings };
}

function ownerOf(user: any, group: any): string {
  const name = (x: any) => (x?.name ?? (x?.id !== undefined ? String(x.id) : ''));
  const u = name(user);
  const g = name(group);
  return u === '' && g === '' ? '' : `${u || 'root'}:${g || 'root'}`;
}

/** RFC 2397 data URLs as Ignition reads them: percent-encoded text or base64, optionally gzip-compressed. */
export function decodeDataUrl(url: string, compression?: unknown): string {
  const m = /^data:([^,]*),(.*)$/s.exec(url);
  if (m === null) return url; // a remote source: show where it comes from
  const bytes = m[1]!.split(';').includes('base64') ? Buffer.from(m[2]!, 'base64') : Buffer.from(decodeURIComponent(m[2]!), 'utf8');
  if (compression === 'gzip') return process.getBuiltinModule('node:zlib').gunzipSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}

function asArray(v: unknown): any[] {
  return Array.isArray(v) ? v : [];
}

function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}
