// Our addition: the same converted config as Ignition spec 3.3.0, for nodes whose Ignition no longer
// reads 2.x. Spec 3 has no `filesystem` on files and does not overwrite existing files unless told, so every
// file says `overwrite: true` (2.x always overwrote). Spec 3 also rejects duplicate entries that 2.3.0
// accepted in order, and Ignition before spec 3.4.0 ignores setuid/setgid/sticky bits that 2.3.0 applied:
// both are refused here with a clear message rather than changed silently.
// Keys follow the Go struct order of Ignition's v3_3 types, empty fields left out.
import { goJsonString as str } from '../../../go/encoding/json/encodeString.ts';
import { UserDataError } from '../errors.ts';
import type { Ignition23Config } from './types23.ts';

function object(fields: Array<[string, string | undefined]>): string {
  return (
    '{' +
    fields
      .filter((f): f is [string, string] => f[1] !== undefined)
      .map(([k, v]) => `${str(k)}:${v}`)
      .join(',') +
    '}'
  );
}

function list<T>(items: readonly T[], each: (item: T) => string): string | undefined {
  return items.length === 0 ? undefined : '[' + items.map(each).join(',') + ']';
}

const omitEmpty = (s: string): string | undefined => (s === '' ? undefined : str(s));

function refuseDuplicates(what: string, names: readonly string[]): void {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n))
      throw new UserDataError(
        `Ignition 3.3.0 does not allow duplicate entries, but ${what} ${JSON.stringify(n)} appears more than once (spec 2.3.0 accepts it)`,
      );
    seen.add(n);
  }
}

export function marshalIgnition33(config: Ignition23Config): string {
  const { passwd, storage, systemd } = config;
  refuseDuplicates(
    'user',
    passwd.users.map((u) => u.name),
  );
  for (const u of passwd.users) refuseDuplicates(`an SSH key of user ${JSON.stringify(u.name)},`, u.sshAuthorizedKeys);
  refuseDuplicates(
    'the file path',
    storage.files.map((f) => f.path),
  );
  for (const f of storage.files) {
    if (f.mode > 0o777) {
      throw new UserDataError(
        `Ignition 3.3.0 ignores setuid/setgid/sticky bits, but file ${JSON.stringify(f.path)} has mode 0${f.mode.toString(8)} (spec 2.3.0 applies it)`,
      );
    }
  }
  refuseDuplicates(
    'the unit',
    systemd.units.map((u) => u.name),
  );
  for (const u of systemd.units)
    refuseDuplicates(
      `a drop-in of unit ${JSON.stringify(u.name)},`,
      u.dropins.map((d) => d.name),
    );

  const users = list(passwd.users, (u) =>
    object([
      ['name', str(u.name)],
      ['sshAuthorizedKeys', list(u.sshAuthorizedKeys, str)],
    ]),
  );
  const files = list(storage.files, (f) =>
    object([
      ['overwrite', 'true'],
      ['path', str(f.path)],
      ['contents', object([['source', str(f.source)]])],
      ['mode', String(f.mode)],
    ]),
  );
  const units = list(systemd.units, (u) =>
    object([
      ['contents', omitEmpty(u.contents)],
      [
        'dropins',
        list(u.dropins, (d) =>
          object([
            ['contents', omitEmpty(d.contents)],
            ['name', str(d.name)],
          ]),
        ),
      ],
      ['enabled', u.enabled === null ? undefined : String(u.enabled)],
      ['mask', u.mask ? 'true' : undefined],
      ['name', str(u.name)],
    ]),
  );
  return object([
    ['ignition', '{"version":"3.3.0"}'],
    ['passwd', users === undefined ? undefined : object([['users', users]])],
    ['storage', files === undefined ? undefined : object([['files', files]])],
    ['systemd', units === undefined ? undefined : object([['units', units]])],
  ]);
}
