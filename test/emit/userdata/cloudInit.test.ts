// cloud-init user-data byte for byte: upstream's generator vectors, then the envelope's edge cases. The
// edge-case expectations were checked against OSM's generator run with Go (text/template + sprig indent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { emitCloudInit } from '../../../src/emit/userdata/cloudInit.ts';
import { UserDataError } from '../../../src/emit/userdata/errors.ts';
import type { UserDataInput } from '../../../src/emit/userdata/input.ts';
import type { OSCConfig } from '../../../src/model/operatingSystemProfile.ts';
import { lineDiff } from '../../support/lineDiff.ts';
import { GENERATOR_VECTORS, VECTOR_DIR, expectedOutput, undescribedVectorFiles } from './generatorVectors.ts';
import { cloudProvider } from '../../../src/model/cloudProviders.ts';

function assertBytes(actual: string, expected: string): void {
  if (actual !== expected) assert.fail('user-data differs (- expected, + actual)\n' + lineDiff(expected, actual));
}

for (const [file, vector] of Object.entries(GENERATOR_VECTORS)) {
  if (vector.utility !== 'cloud-init') continue;
  const expected = expectedOutput(file);
  test(
    `generator vector ${file}`,
    { skip: expected === undefined ? 'expected output not extracted from upstream' : false },
    () => {
      assertBytes(emitCloudInit(vector.input), expected!);
    },
  );
}

test('every extracted generator vector has an input fixture', () => {
  assert.deepEqual(undescribedVectorFiles(readdirSync(VECTOR_DIR)), []);
});

const HEAD = '#cloud-config\n\nssh_pwauth: false\n\nssh_authorized_keys:\n';

function provisioning(config: OSCConfig, over: Partial<UserDataInput> = {}): UserDataInput {
  return {
    config,
    osName: 'ubuntu',
    cloud: cloudProvider('aws'),
    secretType: 'provisioning',
    distUpgradeOnBoot: false,
    machineDeploymentName: 'md',
    ...over,
  };
}
const inline = (path: string, data: string, permissions?: number, encoding?: string) => ({
  path,
  ...(permissions === undefined ? {} : { permissions }),
  content: { inline: { data, ...(encoding === undefined ? {} : { encoding }) } },
});

test('permissions: only a three-character string gets a leading 0', () => {
  const out = emitCloudInit(
    provisioning({
      files: [inline('/a', 'x', 1777), inline('/b', 'x', 44), inline('/c', 'x'), inline('/d', 'x', -12)],
    }),
  );
  assertBytes(
    out,
    HEAD +
      "write_files:\n- path: '/a'\n  permissions: '1777'\n  content: |-\n    x\n\n- path: '/b'\n  permissions: '44'\n  content: |-\n    x\n\n" +
      "- path: '/c'\n  permissions: '0'\n  content: |-\n    x\n\n- path: '/d'\n  permissions: '0-12'\n  content: |-\n    x\n",
  );
});

test('encoding: b64 base64-encodes the data, any other value is written but changes nothing; empty lines are padded', () => {
  const out = emitCloudInit(
    provisioning({
      files: [
        inline('/a', 'héllo <&>\n', 644, 'b64'),
        inline('/b', 'plain\n', 600, 'gzip'),
        inline('/e', '', 600),
        inline('/f', 'a\n\nb\n', 600),
      ],
    }),
  );
  assertBytes(
    out,
    HEAD +
      "write_files:\n- path: '/a'\n  permissions: '0644'\n  encoding: 'b64'\n  content: |-\n    aMOpbGxvIDwmPgo=\n\n" +
      "- path: '/b'\n  permissions: '0600'\n  encoding: 'gzip'\n  content: |-\n    plain\n    \n\n" +
      "- path: '/e'\n  permissions: '0600'\n  content: |-\n    \n\n" +
      "- path: '/f'\n  permissions: '0600'\n  content: |-\n    a\n    \n    b\n    \n",
  );
});

test('coreos units (osp-flatcar-cloud-init): command only when enabled, drop-ins, and write_files glued to coreos without files', () => {
  const out = emitCloudInit(
    provisioning(
      {
        units: [
          {
            name: 'setup.service',
            enable: true,
            content: '[Unit]\nA=b\n',
            dropIns: [{ name: '10-a.conf', content: '[Service]\nX=y' }],
          },
          { name: 'off.service', mask: true },
        ],
        modules: { runcmd: ['echo hi'] },
      },
      { osName: 'flatcar', cloud: cloudProvider('anexia') },
    ),
  );
  assertBytes(
    out,
    HEAD +
      'write_files:coreos:\n  units:\n  - name: "setup.service"\n    enable: true\n    command: start\n    mask: false\n\n' +
      '    content: |\n      [Unit]\n      A=b\n      \n\n    drop_ins:\n      - name: "10-a.conf"\n        content: |\n          [Service]\n          X=y\n' +
      '  - name: "off.service"\n    enable: false\n    \n    mask: true\n\n\nruncmd:\n- echo hi\n',
  );
});

test('edge: the MachineDeployment name replaces <MACHINE_NAME> in the envelope only; SSH keys trimmed the Go way and de-duplicated', () => {
  const out = emitCloudInit(
    provisioning(
      {
        userSSHKeys: [' ssh-rsa K1 ', 'ssh-rsa K1', '', '  ', '\u0085ssh-rsa K2', '\ufeffssh-rsa K3'],
        files: [inline('/etc/x', '<MACHINE_NAME>', 644)],
      },
      { cloud: cloudProvider('edge'), secretType: 'bootstrap', machineDeploymentName: 'edge-pool' },
    ),
  );
  assertBytes(
    out,
    "#cloud-config\nhostname: edge-pool\n\nssh_pwauth: false\n\nssh_authorized_keys:\n- 'ssh-rsa K1'\n- 'ssh-rsa K2'\n- '\ufeffssh-rsa K3'\n" +
      "write_files:\n- path: '/etc/x'\n  permissions: '0644'\n  content: |-\n    <MACHINE_NAME>\n\n" +
      "- path: /etc/machine-name\n  permissions: '0600'\n  content: |-\n        edge-pool\n",
  );
});

// A value that would not stay one plain scalar (here ": " and " #") is double-quoted where OSM would write a
// different config; ordinary values stay unquoted.
test('modules: empty lists and maps are skipped, maps sorted by bytes, plain values unquoted, yum_repo_dir last without newline', () => {
  const out = emitCloudInit(
    provisioning(
      {
        modules: {
          runcmd: [],
          rh_subscription: { username: 'u', Org: 'o', password: 'p: w #x' },
          yum_repo_dir: '/etc/yum.repos.d',
        },
      },
      { osName: 'rhel', cloud: cloudProvider('azure') },
    ),
  );
  assertBytes(
    out,
    HEAD +
      'write_files:\nrh_subscription:\n    Org: o\n    password: "p: w #x"\n    username: u\n\nyum_repo_dir: /etc/yum.repos.d',
  );
  assertBytes(emitCloudInit(provisioning({ modules: {} })), HEAD + 'write_files:');
});

test('distUpgradeOnBoot and the bootstrap hostname are independent of the modules', () => {
  const out = emitCloudInit(
    provisioning({}, { secretType: 'bootstrap', cloud: cloudProvider('openstack'), distUpgradeOnBoot: true }),
  );
  assertBytes(
    out,
    '#cloud-config\nhostname: <MACHINE_NAME>\n\npackage_upgrade: true\npackage_reboot_if_required: true\nssh_pwauth: false\n\nssh_authorized_keys:\n' +
      "write_files:\n- path: /etc/machine-name\n  permissions: '0600'\n  content: |-\n        <MACHINE_NAME>\n",
  );
});

test('a file without content.inline (OSM would crash) and non-int32 permissions are typed errors', () => {
  assert.throws(
    () => emitCloudInit(provisioning({ files: [{ path: '/x', content: {} }] })),
    (e) => e instanceof UserDataError && /"\/x" has no content.inline/.test(e.message),
  );
  assert.throws(
    () => emitCloudInit(provisioning({ files: [inline('/y', 'x', 6.5)] })),
    (e) => e instanceof UserDataError && /permissions must be a 32-bit integer/.test(e.message),
  );
  assert.throws(() => emitCloudInit(provisioning({ files: [inline('/y', 'x', 2 ** 31)] })), UserDataError);
});
