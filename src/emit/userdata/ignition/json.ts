// Go's json.Marshal of an Ignition 2.3.0 config (flatcar/ignition v2_3 types): compact, struct field order,
// `omitempty` dropping empty strings, false, nil pointers and empty slices but never structs (hence
// "config":{}, "networkd":{}, "verification":{}), strings escaped as Go does (<, > and & as \u003c...).
import { goJsonString as str } from '../../../go/encoding/json/encodeString.ts';
import type { Ignition23Config, Ignition23DropIn, Ignition23File, Ignition23Unit, Ignition23User } from './types23.ts';

type Field = [key: string, json: string | undefined];

function object(fields: Field[]): string {
  return (
    '{' +
    fields
      .filter((f): f is [string, string] => f[1] !== undefined)
      .map(([k, v]) => `${str(k)}:${v}`)
      .join(',') +
    '}'
  );
}

/** An omitempty slice: absent when empty. */
function list<T>(items: readonly T[], each: (item: T) => string): string | undefined {
  return items.length === 0 ? undefined : '[' + items.map(each).join(',') + ']';
}

const omitEmptyString = (s: string): string | undefined => (s === '' ? undefined : str(s));

function user(u: Ignition23User): string {
  return object([
    ['name', str(u.name)],
    ['sshAuthorizedKeys', list(u.sshAuthorizedKeys, str)],
  ]);
}

// Node (filesystem, group, overwrite, path, user) is embedded before FileEmbedded1 (append, contents, mode).
function file(f: Ignition23File): string {
  return object([
    ['filesystem', str(f.filesystem)],
    ['path', str(f.path)],
    [
      'contents',
      object([
        ['source', omitEmptyString(f.source)],
        ['verification', '{}'],
      ]),
    ],
    ['mode', String(f.mode)],
  ]);
}

function dropIn(d: Ignition23DropIn): string {
  return object([
    ['contents', omitEmptyString(d.contents)],
    ['name', str(d.name)],
  ]);
}

function unit(u: Ignition23Unit): string {
  return object([
    ['contents', omitEmptyString(u.contents)],
    ['dropins', list(u.dropins, dropIn)],
    ['enabled', u.enabled === null ? undefined : String(u.enabled)],
    ['mask', u.mask ? 'true' : undefined],
    ['name', str(u.name)],
  ]);
}

export function marshalIgnition23(config: Ignition23Config): string {
  return object([
    ['ignition', '{"config":{},"security":{"tls":{}},"timeouts":{},"version":"2.3.0"}'],
    ['networkd', '{}'],
    ['passwd', object([['users', list(config.passwd.users, user)]])],
    ['storage', object([['files', list(config.storage.files, file)]])],
    ['systemd', object([['units', list(config.systemd.units, unit)]])],
  ]);
}
