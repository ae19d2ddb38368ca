// Spec 3.3.0 (our addition): the same content as OSM's 2.3.0 output, accepted by the real ignition-validate
// (Debian's Ignition 2.14), and refusals where spec 3.3.0 cannot say what 2.3.0 said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { emitIgnition } from '../../../src/emit/userdata/ignition/index.ts';
import { UserDataError } from '../../../src/emit/userdata/errors.ts';
import type { UserDataInput } from '../../../src/emit/userdata/input.ts';
import type { OSCConfig } from '../../../src/model/operatingSystemProfile.ts';
import { secretGoldens } from './secretGoldens.ts';
import { cloudProvider } from '../../../src/model/cloudProviders.ts';

function ignitionValidate(config: string): { status: number | null; output: string } {
  const r = spawnSync('ignition-validate', ['-'], { input: config, encoding: 'utf8' });
  if (r.error)
    throw new Error(
      `ignition-validate could not run (is the ignition-validate package installed?): ${r.error.message}`,
    );
  return { status: r.status, output: (r.stdout + r.stderr).trim() };
}

function assertValid(config: string): void {
  const r = ignitionValidate(config);
  assert.equal(r.status, 0, `ignition-validate rejected the config:\n${r.output}\n${config.slice(0, 500)}`);
  assert.equal(r.output, '', `ignition-validate reported:\n${r.output}`);
}

interface Content {
  users: unknown;
  files: Array<{ path: string; source: string; mode: number }>;
  units: Array<{ name: string; enabled?: boolean; mask?: boolean; contents?: string; dropins?: unknown }>;
}

/** What a node ends up with, whichever spec carried it. */
function content(json: string): Content {
  const c = JSON.parse(json);
  return {
    users: c.passwd?.users ?? [],
    files: (c.storage?.files ?? []).map((f: any) => ({ path: f.path, source: f.contents.source, mode: f.mode })),
    units: (c.systemd?.units ?? []).map((u: any) => ({
      name: u.name,
      enabled: u.enabled,
      mask: u.mask,
      contents: u.contents,
      dropins: u.dropins,
    })),
  };
}

const flatcarGoldens = secretGoldens().filter((g) => g.utility === 'ignition');

test('the Flatcar goldens exist for both secret types', () => {
  assert.deepEqual(flatcarGoldens.map((g) => g.input.secretType).sort(), ['bootstrap', 'provisioning']);
});

for (const g of flatcarGoldens) {
  for (const cloud of ['aws', 'azure']) {
    test(`3.3.0 of ${g.secretFile} on ${cloud}: valid, same files, units and users as 2.3.0`, () => {
      const input = { ...g.input, cloud: cloudProvider(cloud) };
      const v33 = emitIgnition(input, '3.3.0');
      assertValid(v33);
      const c = JSON.parse(v33);
      assert.equal(c.ignition.version, '3.3.0');
      for (const f of c.storage.files) assert.equal(f.overwrite, true);
      assert.deepEqual(content(v33), content(emitIgnition(input)));
    });
  }
}

function flatcar(config: OSCConfig): UserDataInput {
  return {
    config,
    osName: 'flatcar',
    cloud: cloudProvider('azure'),
    secretType: 'bootstrap',
    distUpgradeOnBoot: false,
    machineDeploymentName: 'md',
  };
}
const inline = (path: string, data: string, permissions: number) => ({
  path,
  permissions,
  content: { inline: { data } },
});

test('3.3.0 layout: no filesystem, overwrite, data URL source, mode, users, units with enabled, mask and drop-ins', () => {
  const out = emitIgnition(
    flatcar({
      userSSHKeys: ['ssh-ed25519 AAA me'],
      files: [inline('/opt/bin/x', '#!/bin/sh\n', 755)],
      units: [
        {
          name: 'a.service',
          enable: true,
          content: '[Service]\nExecStart=/opt/bin/x\n[Install]\nWantedBy=multi-user.target\n',
          dropIns: [{ name: '10-env.conf', content: '[Service]\nEnvironment=A=<b>' }],
        },
        { name: 'b.service', mask: true },
      ],
    }),
    '3.3.0',
  );
  assert.equal(
    out,
    '{"ignition":{"version":"3.3.0"},"passwd":{"users":[{"name":"core","sshAuthorizedKeys":["ssh-ed25519 AAA me"]}]},' +
      '"storage":{"files":[{"overwrite":true,"path":"/etc/machine-name","contents":{"source":"data:,%3CMACHINE_NAME%3E"},"mode":384},' +
      '{"overwrite":true,"path":"/opt/bin/x","contents":{"source":"data:,%23!%2Fbin%2Fsh%0A"},"mode":493}]},' +
      '"systemd":{"units":[{"contents":"[Service]\\nExecStart=/opt/bin/x\\n[Install]\\nWantedBy=multi-user.target\\n","dropins":[{"contents":"[Service]\\nEnvironment=A=\\u003cb\\u003e\\n","name":"10-env.conf"}],"enabled":true,"name":"a.service"},' +
      '{"enabled":false,"mask":true,"name":"b.service"}]}}',
  );
  assertValid(out);
  // Nothing to configure: only the version.
  const empty = emitIgnition({ ...flatcar({}), cloud: cloudProvider('aws') }, '3.3.0');
  assert.equal(empty, '{"ignition":{"version":"3.3.0"}}');
  assertValid(empty);
});

test('3.3.0 refuses what it cannot express: duplicate paths, units or drop-ins, and setuid/setgid/sticky bits', () => {
  const refused = (config: OSCConfig, pattern: RegExp) =>
    assert.throws(
      () => emitIgnition(flatcar(config), '3.3.0'),
      (e) => e instanceof UserDataError && pattern.test(e.message),
    );
  refused({ files: [inline('/a', 'x', 644), inline('/a', 'y', 644)] }, /duplicate entries.*file path "\/a"/);
  refused({ units: [{ name: 'a.service' }, { name: 'a.service', mask: true }] }, /duplicate entries.*unit "a.service"/);
  refused(
    {
      units: [
        {
          name: 'a.service',
          dropIns: [
            { name: 'x.conf', content: '' },
            { name: 'x.conf', content: '' },
          ],
        },
      ],
    },
    /duplicate entries.*drop-in/,
  );
  // 1777 is read as decimal, i.e. mode 03361: spec 2.3.0 applies those bits, Ignition 3.3 would drop them.
  refused({ files: [inline('/tmp/x', 'x', 1777)] }, /setuid\/setgid\/sticky.*mode 03361/);
  // 2.3.0 takes all of these as OSM does.
  assert.doesNotThrow(() =>
    emitIgnition(flatcar({ files: [inline('/a', 'x', 644), inline('/a', 'y', 644), inline('/tmp/x', 'x', 1777)] })),
  );
});

test('ignition-validate really validates (a relative path and a bad source are rejected)', () => {
  const r = ignitionValidate(
    '{"ignition":{"version":"3.3.0"},"storage":{"files":[{"path":"relative","contents":{"source":"nope:x"}}]}}',
  );
  assert.notEqual(r.status, 0);
  assert.match(r.output, /error/);
});
