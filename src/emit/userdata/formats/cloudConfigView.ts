// A cloud-config as a node sees it (cloud-init and Flatcar's coreos-cloudinit alike): write_files with their
// encodings decoded, coreos units, every other key as a setting.
import { parse } from 'yaml';
import { PARSE_OPTIONS } from '../../../krm/yamlSchema.ts';
import type { DecodedUserData, NodeFile, NodeUnit } from './userDataFormat.ts';

type Json = Record<string, any>;

export const CLOUD_CONFIG_HEADER = '#cloud-config';

export function sniffCloudConfig(text: string): boolean {
  return text.trimStart().startsWith(CLOUD_CONFIG_HEADER);
}

export function decodeCloudConfig(text: string): DecodedUserData {
  const config = (parse(text, PARSE_OPTIONS) ?? {}) as Json;
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
    .filter(
      (k) => k !== 'write_files' && !(k === 'coreos' && Object.keys(config.coreos ?? {}).every((c) => c === 'units')),
    )
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

export function asArray(v: unknown): any[] {
  return Array.isArray(v) ? v : [];
}

export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}
