// A validator of our own for Ignition spec 2.3.0 (the default for Flatcar): Debian's ignition-validate knows
// spec 3.x only. Written from the spec (coreos/ignition config/v2_3: the types in schema.go and their
// Validate methods), it checks what Ignition 2.x would refuse or warn about, plus a few stricter rules that
// hold for every config we emit (marked "stricter" below). Ignition warnings count as problems: OSM refuses a
// config whose report has any entry.
//
// It lives in the tests, not in the function: the function already runs Ignition's validation report on
// what it converts (src/emit/userdata/ignition/transpile.ts) and writes the JSON from typed values, so a
// second pass at run time would check our serializer against itself on every render; here it is an
// independent oracle over the JSON text, as ignition-validate is for 3.3.0.
import { parseUnitContent } from '../../src/emit/userdata/ignition/systemdUnit.ts';

export interface Problem {
  /** JSON path, e.g. $.storage.files[2].mode */
  at: string;
  message: string;
}

type Type = 'string' | 'bool' | 'int' | { object: Record<string, Type> } | { array: Type };

const obj = (fields: Record<string, Type>): Type => ({ object: fields });
const arr = (t: Type): Type => ({ array: t });

const VERIFICATION = obj({ hash: 'string' });
const REFERENCE = obj({ source: 'string', verification: VERIFICATION });
const NODE = {
  filesystem: 'string',
  group: obj({ id: 'int', name: 'string' }),
  overwrite: 'bool',
  path: 'string',
  user: obj({ id: 'int', name: 'string' }),
} as const;
const DROPIN = obj({ contents: 'string', name: 'string' });
const USER_FIELDS = {
  gecos: 'string',
  groups: arr('string'),
  homeDir: 'string',
  noCreateHome: 'bool',
  noLogInit: 'bool',
  noUserGroup: 'bool',
  primaryGroup: 'string',
  shell: 'string',
  system: 'bool',
  uid: 'int',
} as const;

/** schema.go of config/v2_3/types, as JSON keys and types. */
const CONFIG: Type = obj({
  ignition: obj({
    config: obj({ append: arr(REFERENCE), replace: REFERENCE }),
    security: obj({ tls: obj({ certificateAuthorities: arr(REFERENCE) }) }),
    timeouts: obj({ httpResponseHeaders: 'int', httpTotal: 'int' }),
    version: 'string',
  }),
  networkd: obj({ units: arr(obj({ contents: 'string', dropins: arr(DROPIN), name: 'string' })) }),
  passwd: obj({
    groups: arr(obj({ gid: 'int', name: 'string', passwordHash: 'string', system: 'bool' })),
    users: arr(
      obj({
        ...USER_FIELDS,
        create: obj({ ...USER_FIELDS, groups: arr('string') }),
        name: 'string',
        passwordHash: 'string',
        sshAuthorizedKeys: arr('string'),
      }),
    ),
  }),
  storage: obj({
    directories: arr(obj({ ...NODE, mode: 'int' })),
    disks: arr(
      obj({
        device: 'string',
        partitions: arr(
          obj({
            guid: 'string',
            label: 'string',
            number: 'int',
            shouldExist: 'bool',
            size: 'int',
            sizeMiB: 'int',
            start: 'int',
            startMiB: 'int',
            typeGuid: 'string',
            wipePartitionEntry: 'bool',
          }),
        ),
        wipeTable: 'bool',
      }),
    ),
    files: arr(
      obj({
        ...NODE,
        append: 'bool',
        contents: obj({ compression: 'string', source: 'string', verification: VERIFICATION }),
        mode: 'int',
      }),
    ),
    filesystems: arr(
      obj({
        mount: obj({
          create: obj({ force: 'bool', options: arr('string') }),
          device: 'string',
          format: 'string',
          label: 'string',
          options: arr('string'),
          uuid: 'string',
          wipeFilesystem: 'bool',
        }),
        name: 'string',
        path: 'string',
      }),
    ),
    links: arr(obj({ ...NODE, hard: 'bool', target: 'string' })),
    raid: arr(obj({ devices: arr('string'), level: 'string', name: 'string', options: arr('string'), spares: 'int' })),
  }),
  systemd: obj({
    units: arr(
      obj({ contents: 'string', dropins: arr(DROPIN), enable: 'bool', enabled: 'bool', mask: 'bool', name: 'string' }),
    ),
  }),
});

const SYSTEMD_EXTENSIONS = [
  '.service',
  '.socket',
  '.device',
  '.mount',
  '.automount',
  '.swap',
  '.target',
  '.path',
  '.timer',
  '.snapshot',
  '.slice',
  '.scope',
];
const NETWORKD_EXTENSIONS = ['.link', '.netdev', '.network'];
const FORMATS: Record<string, number> = { ext4: 16, btrfs: 256, xfs: 12, swap: 15, vfat: 11 }; // label length limits
const RAID_LEVELS = [
  'linear',
  'raid0',
  '0',
  'stripe',
  'raid1',
  '1',
  'mirror',
  'raid4',
  '4',
  'raid5',
  '5',
  'raid6',
  '6',
  'raid10',
  '10',
];
const GUID = /^(|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})$/;

export function validateIgnition23(text: string): Problem[] {
  const problems: Problem[] = [];
  const add = (at: string, message: string) => problems.push({ at, message });
  let config: any;
  try {
    config = JSON.parse(text);
  } catch (e) {
    return [{ at: '$', message: `not JSON: ${(e as Error).message}` }];
  }
  checkTypes(config, CONFIG, '$', add);
  if (problems.length > 0) return problems; // Ignition stops at a decoding error

  const version = config.ignition?.version;
  if (version !== '2.3.0')
    add(
      '$.ignition.version',
      version === undefined || version === ''
        ? "invalid config version (couldn't parse)"
        : `unsupported config version ${JSON.stringify(version)}: this validator is for 2.3.0`,
    );
  const refs: Array<[any, string]> = [
    ...(config.ignition?.config?.append ?? []).map((r: any, i: number) => [r, `$.ignition.config.append[${i}]`]),
    ...(config.ignition?.config?.replace ? [[config.ignition.config.replace, '$.ignition.config.replace']] : []),
    ...(config.ignition?.security?.tls?.certificateAuthorities ?? []).map((r: any, i: number) => [
      r,
      `$.ignition.security.tls.certificateAuthorities[${i}]`,
    ]),
  ];
  for (const [r, at] of refs) {
    if (!r.source) add(`${at}.source`, 'source is required'); // stricter: an empty reference fetches nothing
    checkUrl(r.source ?? '', `${at}.source`, add);
    checkVerification(r.verification, `${at}.verification`, add);
  }
  for (const [k, v] of Object.entries(config.ignition?.timeouts ?? {}))
    if (typeof v === 'number' && v < 0) add(`$.ignition.timeouts.${k}`, 'negative timeout'); // stricter

  const storage = config.storage ?? {};
  const filesystems = new Set(['root']);
  (storage.filesystems ?? []).forEach((f: any, i: number) => {
    const at = `$.storage.filesystems[${i}]`;
    if (!f.name) add(`${at}.name`, 'filesystem name is required'); // stricter: nodes refer to it by name
    if (filesystems.has(f.name))
      add(`${at}.name`, `Filesystem ${JSON.stringify(f.name)} shadows exising filesystem definition`);
    filesystems.add(f.name);
    if (!f.mount && f.path === undefined) add(at, 'filesystem is missing mount or path');
    if (f.mount && f.path !== undefined) add(at, 'filesystem must use either mount or path, not both');
    if (f.path !== undefined && !isAbsolute(f.path))
      add(`${at}.path`, `filesystem ${JSON.stringify(f.name ?? '')}: path not absolute`);
    const m = f.mount;
    if (m) {
      if (!isAbsolute(m.device ?? '')) add(`${at}.mount.device`, 'path not absolute');
      const limit = FORMATS[m.format];
      if (limit === undefined) add(`${at}.mount.format`, 'invalid filesystem format');
      else if (m.label !== undefined && m.label.length > limit)
        add(`${at}.mount.label`, `filesystem label too long for ${m.format} (${limit} characters at most)`);
      if (m.create) {
        add(`${at}.mount.create`, 'the create field has been deprecated in favor of wipeFilesystem');
        if (m.wipeFilesystem) add(`${at}.mount`, 'cannot use both create object and wipeFilesystem field');
        if ((m.options ?? []).length > 0)
          add(`${at}.mount`, 'cannot use both create object and mount-level options field');
      }
    }
  });
  const node = (n: any, at: string, kind: string) => {
    if (!n.filesystem) add(`${at}.filesystem`, 'no filesystem specified');
    else if (!filesystems.has(n.filesystem))
      add(
        `${at}.filesystem`,
        `${kind} ${JSON.stringify(n.path)} references nonexistent filesystem ${JSON.stringify(n.filesystem)}`,
      );
    if (!isAbsolute(n.path ?? '')) add(`${at}.path`, 'path not absolute');
    for (const who of ['user', 'group'])
      if (n[who]?.id !== undefined && n[who]?.name) add(`${at}.${who}`, 'cannot set both id and name');
  };
  const mode = (m: any, at: string) => {
    if (m === undefined) add(at, 'permissions unset, defaulting to 0000');
    else if (m < 0 || m > 0o7777) add(at, 'illegal file mode');
  };
  (storage.files ?? []).forEach((f: any, i: number) => {
    const at = `$.storage.files[${i}]`;
    node(f, at, 'File');
    mode(f.mode, `${at}.mode`);
    if (f.append && f.overwrite === true) add(at, 'cannot set both append and overwrite to true');
    const c = f.contents ?? {};
    if (c.compression !== undefined && c.compression !== '' && c.compression !== 'gzip')
      add(`${at}.contents.compression`, 'invalid compression method');
    checkUrl(c.source ?? '', `${at}.contents.source`, add);
    checkVerification(c.verification, `${at}.contents.verification`, add);
  });
  (storage.directories ?? []).forEach((d: any, i: number) => {
    node(d, `$.storage.directories[${i}]`, 'Directory');
    mode(d.mode, `$.storage.directories[${i}].mode`);
  });
  (storage.links ?? []).forEach((l: any, i: number) => {
    node(l, `$.storage.links[${i}]`, 'Link');
    if (!l.target) add(`$.storage.links[${i}].target`, 'link target is required'); // stricter
  });
  (storage.disks ?? []).forEach((d: any, i: number) => {
    const at = `$.storage.disks[${i}]`;
    if (!d.device) add(`${at}.device`, 'disk device is required');
    else if (!isAbsolute(d.device)) add(`${at}.device`, 'path not absolute');
    const numbers = new Set<number>();
    (d.partitions ?? []).forEach((p: any, j: number) => {
      const pat = `${at}.partitions[${j}]`;
      if (p.number) {
        if (numbers.has(p.number)) add(`${pat}.number`, 'partition numbers collide');
        numbers.add(p.number);
      }
      if ((p.start !== undefined || p.size !== undefined) && (p.startMiB !== undefined || p.sizeMiB !== undefined))
        add(pat, 'cannot mix sectors and MiB for partition sizes and starts');
      if (p.label !== undefined && p.label.length > 36)
        add(`${pat}.label`, 'partition labels may not exceed 36 characters');
      if (p.label?.includes(':'))
        add(`${pat}.label`, 'partition label will be truncated to text before the first colon');
      for (const k of ['guid', 'typeGuid'])
        if (p[k] !== undefined && !GUID.test(p[k]))
          add(`${pat}.${k}`, 'doesn\'t match the form "01234567-89AB-CDEF-EDCB-A98765432101"');
      if (p.start !== undefined && (p.start & 2047) !== 0) add(`${pat}.start`, 'partitions are misaligned');
    });
  });
  (storage.raid ?? []).forEach((r: any, i: number) => {
    const at = `$.storage.raid[${i}]`;
    if (!r.name) add(`${at}.name`, 'raid name is required'); // stricter
    if (!RAID_LEVELS.includes(r.level)) add(`${at}.level`, 'unrecognized raid level');
    else if (['linear', 'raid0', '0', 'stripe'].includes(r.level) && r.spares)
      add(`${at}.spares`, 'spares unsupported for arrays with a level greater than 0');
    (r.devices ?? []).forEach((dev: string, j: number) => {
      if (!isAbsolute(dev)) add(`${at}.devices[${j}]`, 'path not absolute');
    });
  });

  (config.systemd?.units ?? []).forEach((u: any, i: number) => {
    const at = `$.systemd.units[${i}]`;
    if (!SYSTEMD_EXTENSIONS.includes(pathExt(u.name ?? ''))) add(`${at}.name`, 'invalid systemd unit extension');
    const sections = unitSections(u.contents ?? '', `${at}.contents`, add);
    if ((u.enable || u.enabled === true) && u.contents && sections !== null && !sections.includes('Install')) {
      add(
        `${at}.contents`,
        `unit ${JSON.stringify(u.name)} is enabled, but has no install section so enable does nothing`,
      );
    }
    if (u.enable) add(`${at}.enable`, 'the enable field has been deprecated in favor of enabled');
    dropins(u.dropins, at, add);
  });
  (config.networkd?.units ?? []).forEach((u: any, i: number) => {
    const at = `$.networkd.units[${i}]`;
    if (!NETWORKD_EXTENSIONS.includes(pathExt(u.name ?? ''))) add(`${at}.name`, 'invalid networkd unit extension');
    unitSections(u.contents ?? '', `${at}.contents`, add);
    dropins(u.dropins, at, add);
  });

  (config.passwd?.users ?? []).forEach((u: any, i: number) => {
    const at = `$.passwd.users[${i}]`;
    if (!u.name) add(`${at}.name`, 'user name is required'); // stricter
    if (u.create !== undefined) {
      add(`${at}.create`, 'the create object has been deprecated in favor of user-level options');
      for (const k of Object.keys(USER_FIELDS))
        if (u[k] !== undefined && u[k] !== '' && u[k] !== false && !(Array.isArray(u[k]) && u[k].length === 0))
          add(`${at}.${k}`, `cannot use both the create object and the user-level ${k} field`);
    }
  });
  (config.passwd?.groups ?? []).forEach((g: any, i: number) => {
    if (!g.name) add(`$.passwd.groups[${i}].name`, 'group name is required'); // stricter
  });
  return problems;
}

/** Go's json.Unmarshal into the spec's types; unknown keys are refused (Ignition warns about them). */
function checkTypes(v: unknown, t: Type, at: string, add: (at: string, m: string) => void): void {
  if (v === null) return; // Go leaves the zero value
  if (t === 'string' || t === 'bool') {
    if (typeof v !== (t === 'string' ? 'string' : 'boolean')) add(at, `expected ${t}, got ${JSON.stringify(v)}`);
  } else if (t === 'int') {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) add(at, `expected an integer, got ${JSON.stringify(v)}`);
  } else if ('array' in t) {
    if (!Array.isArray(v)) add(at, 'expected a list');
    else v.forEach((e, i) => checkTypes(e, t.array, `${at}[${i}]`, add));
  } else {
    if (typeof v !== 'object' || Array.isArray(v)) {
      add(at, 'expected an object');
      return;
    }
    for (const [k, e] of Object.entries(v as Record<string, unknown>)) {
      const ft = t.object[k];
      if (ft === undefined) add(`${at}.${k}`, 'unrecognized key');
      else checkTypes(e, ft, `${at}.${k}`, add);
    }
  }
}

function dropins(list: any[] | undefined, at: string, add: (at: string, m: string) => void): void {
  (list ?? []).forEach((d, j) => {
    if (pathExt(d.name ?? '') !== '.conf')
      add(
        `${at}.dropins[${j}].name`,
        `invalid ${at.startsWith('$.networkd') ? 'networkd' : 'systemd'} drop-in extension`,
      );
    unitSections(d.contents ?? '', `${at}.dropins[${j}].contents`, add);
  });
}

/** The sections of a unit's options, or null when it has none; a parse error is a problem. */
function unitSections(contents: string, at: string, add: (at: string, m: string) => void): string[] | null {
  const parsed = parseUnitContent(contents);
  if (!parsed.ok) {
    add(at, `invalid unit content: ${parsed.error}`);
    return null;
  }
  return parsed.options.length > 0 ? parsed.options.map((o) => o.section) : null;
}

function checkVerification(v: any, at: string, add: (at: string, m: string) => void): void {
  if (v?.hash === undefined) return;
  const dash = v.hash.indexOf('-');
  if (dash < 0) add(`${at}.hash`, 'malformed hash specifier');
  else if (v.hash.slice(0, dash) !== 'sha512') add(`${at}.hash`, 'unrecognized hash function');
  else if (!/^[0-9a-fA-F]{128}$/.test(v.hash.slice(dash + 1))) add(`${at}.hash`, 'incorrect size for hash sum');
}

/** validateURL of v2_3: empty, http(s), oem, tftp, s3 (non-empty versionId) or a data URL that decodes. */
function checkUrl(s: string, at: string, add: (at: string, m: string) => void): void {
  if (s === '') return;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(s)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    add(at, `invalid url ${JSON.stringify(s.slice(0, 40))}: invalid url scheme`);
    return;
  }
  if (['http', 'https', 'oem', 'tftp'].includes(scheme)) return;
  if (scheme === 's3') {
    if (/[?&]versionId=(&|$)/.test(s)) add(at, 'invalid s3 object version id');
    return;
  }
  if (scheme !== 'data') {
    add(at, `invalid url ${JSON.stringify(s.slice(0, 40))}: invalid url scheme`);
    return;
  }
  const error = dataUrlError(s);
  if (error !== undefined) add(at, `invalid data url: ${error}`);
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/; // RFC 2045 token: printable ASCII without tspecials
const URL_CHAR = /^[!$%&'()*+,\-./0-9:;=?@A-Z_a-z~]*$/; // ASCII without controls, space, <>#"{}|\^[]`
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** RFC 2397 as vincent-petithory/dataurl reads it: data:[type/subtype][;attr=value]*[;base64],data */
export function dataUrlError(s: string): string | undefined {
  if (!s.startsWith('data:')) return 'missing data prefix';
  const comma = s.indexOf(',');
  if (comma < 0) return 'missing comma before data';
  const params = s.slice(5, comma).split(';');
  const mediaType = params.shift()!;
  if (mediaType !== '') {
    const [type, subtype, extra] = mediaType.split('/');
    if (extra !== undefined || subtype === undefined || !TOKEN.test(type!) || !TOKEN.test(subtype))
      return 'invalid media type';
    if (!/^(text|image|audio|video|application|message|multipart|x-)/i.test(type!)) return 'invalid media type';
  }
  let base64 = false;
  params.forEach((p, i) => {
    if (p === 'base64' && i === params.length - 1) base64 = true;
  });
  for (const p of base64 ? params.slice(0, -1) : params) {
    const eq = p.indexOf('=');
    if (
      eq <= 0 ||
      !TOKEN.test(p.slice(0, eq)) ||
      !(TOKEN.test(p.slice(eq + 1)) || /^"[\x20-\x7e]*"$/.test(p.slice(eq + 1)))
    )
      return 'invalid parameter';
  }
  const data = s.slice(comma + 1);
  if (base64) return BASE64.test(data) ? undefined : 'invalid base64 data';
  if (!URL_CHAR.test(data)) return 'invalid data character';
  if (/%(?![0-9A-Fa-f]{2})/.test(data)) return 'invalid percent escape';
  return undefined;
}

function isAbsolute(p: string): boolean {
  return p.startsWith('/');
}

/** Go's path.Ext. */
function pathExt(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}
