// The Ignition 2.3.0 validator: it accepts OSM's own 2.3.0 goldens and a config using every part of the
// spec, and each rule rejects a config broken in just that way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dataUrlError, validateIgnition23 } from './ignition23.ts';
import { secretGoldens } from '../emit/userdata/secretGoldens.ts';
import { rng } from './rng.ts';
import { emitIgnition } from '../../src/emit/userdata/ignition/index.ts';
import { UserDataError } from '../../src/emit/userdata/errors.ts';
import type { UserDataInput } from '../../src/emit/userdata/input.ts';
import type { OSCConfig } from '../../src/model/operatingSystemProfile.ts';
import { CLOUD_PROVIDER_NAMES } from '../../src/model/cloudProviders.ts';
import { cloudProvider } from '../../src/model/cloudProviders.ts';

const UNIT = '[Unit]\nDescription=x\n[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n';
const HASH = `sha512-${'a'.repeat(128)}`;

/** Valid, and touching every section of the spec. */
function full(): any {
  return {
    ignition: {
      config: {
        append: [{ source: 'https://example.com/a.ign', verification: { hash: HASH } }],
        replace: { source: 'data:,%7B%7D' },
      },
      security: { tls: { certificateAuthorities: [{ source: 'data:text/plain;charset=utf-8;base64,Q0E=' }] } },
      timeouts: { httpResponseHeaders: 10, httpTotal: 60 },
      version: '2.3.0',
    },
    networkd: {
      units: [
        {
          name: '10-eth0.network',
          contents: '[Match]\nName=eth0\n',
          dropins: [{ name: 'dns.conf', contents: '[Network]\nDNS=1.1.1.1\n' }],
        },
      ],
    },
    passwd: {
      users: [{ name: 'core', sshAuthorizedKeys: ['ssh-ed25519 AAAA x'], groups: ['sudo'], uid: 1000 }],
      groups: [{ name: 'ops', gid: 2000 }],
    },
    storage: {
      disks: [
        {
          device: '/dev/sdb',
          wipeTable: true,
          partitions: [
            { number: 1, label: 'data', startMiB: 0, sizeMiB: 100, typeGuid: '0FC63DAF-8483-4772-8E79-3D69D8477DE4' },
          ],
        },
      ],
      raid: [{ name: 'md0', level: 'raid1', devices: ['/dev/sdc', '/dev/sdd'], spares: 1 }],
      filesystems: [
        { name: 'data', mount: { device: '/dev/sdb1', format: 'ext4', label: 'DATA', wipeFilesystem: true } },
      ],
      files: [
        {
          filesystem: 'root',
          path: '/etc/a',
          mode: 0o644,
          contents: { source: 'data:,hello%20world%0A', verification: {} },
        },
        {
          filesystem: 'data',
          path: '/b',
          mode: 0o600,
          append: true,
          user: { id: 0 },
          group: { name: 'ops' },
          contents: { compression: 'gzip', source: 'https://example.com/b.gz', verification: { hash: HASH } },
        },
      ],
      directories: [{ filesystem: 'root', path: '/opt/x', mode: 0o755 }],
      links: [{ filesystem: 'root', path: '/opt/y', target: '/opt/x', hard: false }],
    },
    systemd: {
      units: [
        {
          name: 'a.service',
          enabled: true,
          contents: UNIT,
          dropins: [{ name: '10-env.conf', contents: '[Service]\nEnvironment=A=1\n' }],
        },
        { name: 'b.timer', mask: true },
      ],
    },
  };
}

function problemsOf(mutate: (c: any) => void): string[] {
  const c = full();
  mutate(c);
  return validateIgnition23(JSON.stringify(c)).map((p) => `${p.at}: ${p.message}`);
}

test('a config using every part of the spec is valid', () => {
  assert.deepEqual(validateIgnition23(JSON.stringify(full())), []);
});

test("OSM's own 2.3.0 goldens are valid", () => {
  const goldens = secretGoldens().filter((g) => g.utility === 'ignition');
  assert.ok(goldens.length >= 2);
  for (const g of goldens) assert.deepEqual(validateIgnition23(g.expected), [], g.secretFile);
});

// Each case breaks one rule; the validator must report it, at that place, and nothing else.
const NEGATIVE: Array<[string, (c: any) => void, RegExp]> = [
  ['not JSON', () => {}, /^\$: not JSON/],
  ['unknown key', (c) => (c.storage.files[0].contens = {}), /^\$\.storage\.files\[0\]\.contens: unrecognized key$/],
  ['wrong type: string', (c) => (c.storage.files[0].path = 5), /files\[0\]\.path: expected string/],
  ['wrong type: int', (c) => (c.storage.files[0].mode = '0644'), /files\[0\]\.mode: expected an integer/],
  ['wrong type: fraction', (c) => (c.ignition.timeouts.httpTotal = 1.5), /timeouts\.httpTotal: expected an integer/],
  ['wrong type: bool', (c) => (c.systemd.units[0].enabled = 'yes'), /units\[0\]\.enabled: expected bool/],
  ['wrong type: list', (c) => (c.passwd.users = {}), /passwd\.users: expected a list/],
  ['version missing', (c) => delete c.ignition.version, /ignition\.version: invalid config version/],
  ['version 3', (c) => (c.ignition.version = '3.3.0'), /ignition\.version: unsupported config version "3\.3\.0"/],
  [
    'config reference without source',
    (c) => (c.ignition.config.append[0].source = ''),
    /append\[0\]\.source: source is required/,
  ],
  [
    'bad hash function',
    (c) => (c.ignition.config.append[0].verification.hash = `md5-${'a'.repeat(32)}`),
    /append\[0\]\.verification\.hash: unrecognized hash function/,
  ],
  [
    'malformed hash',
    (c) => (c.storage.files[1].contents.verification.hash = 'abc'),
    /files\[1\]\.contents\.verification\.hash: malformed hash specifier/,
  ],
  [
    'hash size',
    (c) => (c.storage.files[1].contents.verification.hash = 'sha512-abc'),
    /hash: incorrect size for hash sum/,
  ],
  ['negative timeout', (c) => (c.ignition.timeouts.httpTotal = -1), /timeouts\.httpTotal: negative timeout/],
  ['relative file path', (c) => (c.storage.files[0].path = 'etc/a'), /files\[0\]\.path: path not absolute/],
  ['no filesystem', (c) => (c.storage.files[0].filesystem = ''), /files\[0\]\.filesystem: no filesystem specified/],
  [
    'unknown filesystem',
    (c) => (c.storage.directories[0].filesystem = 'nope'),
    /directories\[0\]\.filesystem: Directory "\/opt\/x" references nonexistent filesystem "nope"/,
  ],
  ['mode unset', (c) => delete c.storage.files[0].mode, /files\[0\]\.mode: permissions unset/],
  ['mode too large', (c) => (c.storage.directories[0].mode = 0o10000), /directories\[0\]\.mode: illegal file mode/],
  ['negative mode', (c) => (c.storage.files[0].mode = -1), /files\[0\]\.mode: illegal file mode/],
  [
    'append and overwrite',
    (c) => (c.storage.files[1].overwrite = true),
    /files\[1\]: cannot set both append and overwrite/,
  ],
  ['user id and name', (c) => (c.storage.files[1].user.name = 'root'), /files\[1\]\.user: cannot set both id and name/],
  [
    'compression',
    (c) => (c.storage.files[1].contents.compression = 'bzip2'),
    /compression: invalid compression method/,
  ],
  [
    'url scheme',
    (c) => (c.storage.files[1].contents.source = 'ftp://example.com/b'),
    /files\[1\]\.contents\.source: invalid url .*invalid url scheme/,
  ],
  ['no url scheme', (c) => (c.storage.files[1].contents.source = '/local/path'), /invalid url scheme/],
  [
    's3 version id',
    (c) => (c.storage.files[1].contents.source = 's3://bucket/key?versionId='),
    /invalid s3 object version id/,
  ],
  [
    'data url: space',
    (c) => (c.storage.files[0].contents.source = 'data:,hello world'),
    /files\[0\]\.contents\.source: invalid data url: invalid data character/,
  ],
  [
    'data url: non-ASCII',
    (c) => (c.storage.files[0].contents.source = 'data:,grüße'),
    /invalid data url: invalid data character/,
  ],
  [
    'data url: bad escape',
    (c) => (c.storage.files[0].contents.source = 'data:,100%'),
    /invalid data url: invalid percent escape/,
  ],
  [
    'data url: no comma',
    (c) => (c.storage.files[0].contents.source = 'data:text/plain'),
    /invalid data url: missing comma/,
  ],
  [
    'data url: bad base64',
    (c) => (c.storage.files[0].contents.source = 'data:;base64,abc'),
    /invalid data url: invalid base64 data/,
  ],
  [
    'data url: media type',
    (c) => (c.storage.files[0].contents.source = 'data:bogus/x,a'),
    /invalid data url: invalid media type/,
  ],
  ['link without target', (c) => (c.storage.links[0].target = ''), /links\[0\]\.target: link target is required/],
  ['disk without device', (c) => (c.storage.disks[0].device = ''), /disks\[0\]\.device: disk device is required/],
  ['relative disk device', (c) => (c.storage.disks[0].device = 'sdb'), /disks\[0\]\.device: path not absolute/],
  [
    'partition numbers',
    (c) => c.storage.disks[0].partitions.push({ number: 1 }),
    /partitions\[1\]\.number: partition numbers collide/,
  ],
  [
    'partition units',
    (c) => (c.storage.disks[0].partitions[0].start = 2048),
    /partitions\[0\]: cannot mix sectors and MiB/,
  ],
  [
    'partition label',
    (c) => (c.storage.disks[0].partitions[0].label = 'x'.repeat(37)),
    /partitions\[0\]\.label: partition labels may not exceed 36/,
  ],
  [
    'partition guid',
    (c) => (c.storage.disks[0].partitions[0].typeGuid = 'linux'),
    /partitions\[0\]\.typeGuid: doesn't match the form/,
  ],
  ['raid level', (c) => (c.storage.raid[0].level = 'raid7'), /raid\[0\]\.level: unrecognized raid level/],
  ['raid spares', (c) => (c.storage.raid[0].level = 'raid0'), /raid\[0\]\.spares: spares unsupported/],
  ['raid device', (c) => (c.storage.raid[0].devices[0] = 'sdc'), /raid\[0\]\.devices\[0\]: path not absolute/],
  [
    'filesystem format',
    (c) => (c.storage.filesystems[0].mount.format = 'ntfs'),
    /filesystems\[0\]\.mount\.format: invalid filesystem format/,
  ],
  [
    'filesystem label',
    (c) => (c.storage.filesystems[0].mount.label = 'x'.repeat(17)),
    /mount\.label: filesystem label too long for ext4/,
  ],
  [
    'filesystem without mount or path',
    (c) => delete c.storage.filesystems[0].mount,
    /filesystems\[0\]: filesystem is missing mount or path/,
  ],
  [
    'filesystem path relative',
    (c) => (c.storage.filesystems[0] = { name: 'data', path: 'mnt' }),
    /filesystems\[0\]\.path: filesystem "data": path not absolute/,
  ],
  [
    'filesystem shadows',
    (c) => (c.storage.filesystems[0].name = 'root'),
    /filesystems\[0\]\.name: Filesystem "root" shadows/,
  ],
  [
    'mount device relative',
    (c) => (c.storage.filesystems[0].mount.device = 'sdb1'),
    /mount\.device: path not absolute/,
  ],
  [
    'create and wipe',
    (c) => (c.storage.filesystems[0].mount.create = { force: true }),
    /filesystems\[0\]\.mount: cannot use both create object and wipeFilesystem/,
  ],
  [
    'unit extension',
    (c) => (c.systemd.units[0].name = 'a.conf'),
    /systemd\.units\[0\]\.name: invalid systemd unit extension/,
  ],
  [
    'unit without name',
    (c) => delete c.systemd.units[1].name,
    /systemd\.units\[1\]\.name: invalid systemd unit extension/,
  ],
  ['unit content', (c) => (c.systemd.units[0].contents = '[Unit\nx=1\n'), /units\[0\]\.contents: invalid unit content/],
  [
    'enabled without install',
    (c) => (c.systemd.units[0].contents = '[Service]\nExecStart=/bin/true\n'),
    /units\[0\]\.contents: unit "a\.service" is enabled, but has no install section/,
  ],
  [
    'deprecated enable',
    (c) => (c.systemd.units[0].enable = true),
    /units\[0\]\.enable: the enable field has been deprecated/,
  ],
  [
    'drop-in extension',
    (c) => (c.systemd.units[0].dropins[0].name = '10-env'),
    /dropins\[0\]\.name: invalid systemd drop-in extension/,
  ],
  [
    'drop-in content',
    (c) => (c.systemd.units[0].dropins[0].contents = '[Service\n'),
    /dropins\[0\]\.contents: invalid unit content/,
  ],
  [
    'networkd extension',
    (c) => (c.networkd.units[0].name = 'eth0.service'),
    /networkd\.units\[0\]\.name: invalid networkd unit extension/,
  ],
  [
    'networkd content',
    (c) => (c.networkd.units[0].contents = '[Match\n'),
    /networkd\.units\[0\]\.contents: invalid unit content/,
  ],
  [
    'networkd drop-in',
    (c) => (c.networkd.units[0].dropins[0].name = 'dns'),
    /networkd\.units\[0\]\.dropins\[0\]\.name: invalid networkd drop-in extension/,
  ],
  ['user without name', (c) => (c.passwd.users[0].name = ''), /users\[0\]\.name: user name is required/],
  [
    'deprecated create',
    (c) => (c.passwd.users[0].create = {}),
    /users\[0\]\.create: the create object has been deprecated/,
  ],
  [
    'create and user-level fields',
    (c) => (c.passwd.users[0].create = { shell: '/bin/sh' }),
    /users\[0\]\.uid: cannot use both the create object/,
  ],
  ['group without name', (c) => (c.passwd.groups[0].name = ''), /groups\[0\]\.name: group name is required/],
];

for (const [name, mutate, expected] of NEGATIVE) {
  test(`rejects: ${name}`, () => {
    const problems =
      name === 'not JSON' ? validateIgnition23('{"ignition":').map((p) => `${p.at}: ${p.message}`) : problemsOf(mutate);
    assert.ok(
      problems.some((p) => expected.test(p)),
      `${name}: ${JSON.stringify(problems)}`,
    );
  });
}

test('data URLs: what the emitter writes and RFC 2397 forms pass', () => {
  for (const ok of [
    'data:,',
    "data:,%23!%2F~*'()",
    'data:;base64,',
    'data:;base64,aGk=',
    'data:text/plain;charset="utf-8",x',
    'data:application/x-sh,a%0Ab',
    'data:x-custom/y,a',
  ]) {
    assert.equal(dataUrlError(ok), undefined, ok);
  }
});

test('whatever the emitter accepts, the validator accepts: seeded random files, modes, units and keys', (t) => {
  const random = rng(2303);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const text = () =>
    Array.from({ length: Math.floor(random() * 40) }, () =>
      pick(['a', ' ', '\n', '%', '#', '"', '\\', '{', 'ü', '€', '\u{1F600}', '<', '&', '\t', ':', '-', '0']),
    ).join('');
  let accepted = 0;
  for (let i = 0; i < 300; i++) {
    const files = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, j) => ({
      path: `/${pick(['etc', 'opt/bin', 'var/lib/x y', 'ü'])}/f${j}`,
      ...(random() < 0.8 ? { permissions: pick([0, 600, 644, 755, 1777, 4755, 7777, 10000, 800]) } : {}),
      content: { inline: { data: text() } },
    }));
    const units = Array.from({ length: Math.floor(random() * 3) }, (_, j) => ({
      name: `u${j}${pick(['.service', '.timer', '.mount', '.txt'])}`,
      ...(random() < 0.5 ? { enable: true } : {}),
      ...(random() < 0.2 ? { mask: true } : {}),
      content: pick([
        '',
        '[Unit]\nDescription=x\n[Install]\nWantedBy=multi-user.target\n',
        '[Service]\nExecStart=/bin/true\n',
        '# comment only\n',
        `[Service]\nEnvironment=${text().replace(/\n/g, '')}\n`,
      ]),
      ...(random() < 0.3 ? { dropIns: [{ name: pick(['10-a.conf', 'b.txt']), content: '[Service]\nX=y\n' }] } : {}),
    }));
    const input: UserDataInput = {
      config: { files, units, userSSHKeys: random() < 0.5 ? [`ssh-ed25519 AAAA${i} c`] : [] } as OSCConfig,
      osName: 'flatcar',
      cloud: cloudProvider(pick(CLOUD_PROVIDER_NAMES)),
      secretType: pick(['bootstrap', 'provisioning'] as const),
      distUpgradeOnBoot: false,
      machineDeploymentName: 'md',
    };
    let out: string;
    try {
      out = emitIgnition(input);
    } catch (e) {
      if (e instanceof UserDataError) continue; // refused at render time, as OSM would
      throw e;
    }
    accepted++;
    assert.deepEqual(validateIgnition23(out), [], `case ${i}: ${out.slice(0, 300)}`);
  }
  assert.ok(accepted > 50, `only ${accepted} of 300 emitted`);
  t.diagnostic(`${accepted} of 300 random configs emitted and validated`);
});
