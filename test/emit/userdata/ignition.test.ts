// Ignition user-data byte for byte: upstream's generator vectors, the Container Linux Config text, and the
// edge cases of OSM's CLC → ct → Ignition 2.3.0 path. Edge-case expectations (outputs and error texts)
// were checked against OSM's generator with ct v0.9.4 and gopkg.in/yaml.v3 v3.0.1 run with Go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitIgnition } from '../../../src/emit/userdata/ignition/index.ts';
import { renderContainerLinuxConfig } from '../../../src/emit/userdata/ignition/clc.ts';
import { UserDataError } from '../../../src/emit/userdata/errors.ts';
import type { UserDataInput } from '../../../src/emit/userdata/input.ts';
import type { OSCConfig } from '../../../src/model/operatingSystemProfile.ts';
import { lineDiff } from '../../support/lineDiff.ts';
import { GENERATOR_VECTORS, expectedOutput } from './generatorVectors.ts';
import { cloudProvider } from '../../../src/model/cloudProviders.ts';

const pretty = (json: string): string => {
  try {
    return JSON.stringify(JSON.parse(json), null, 1);
  } catch {
    return json;
  }
};

function assertBytes(actual: string, expected: string): void {
  if (actual !== expected)
    assert.fail(
      'Ignition differs (- expected, + actual, pretty-printed)\n' + lineDiff(pretty(expected), pretty(actual)),
    );
}

for (const [file, vector] of Object.entries(GENERATOR_VECTORS)) {
  if (vector.utility !== 'ignition') continue;
  const expected = expectedOutput(file);
  test(
    `generator vector ${file}`,
    { skip: expected === undefined ? 'expected output not extracted from upstream' : false },
    () => {
      assertBytes(emitIgnition(vector.input), expected!);
    },
  );
}

function flatcar(config: OSCConfig, over: Partial<UserDataInput> = {}): UserDataInput {
  return {
    config,
    osName: 'flatcar',
    cloud: cloudProvider('azure'),
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
const HEAD = '{"ignition":{"config":{},"security":{"tls":{}},"timeouts":{},"version":"2.3.0"},"networkd":{}';
const fileJson = (path: string, source: string, mode: number) =>
  `{"filesystem":"root","path":"${path}","contents":{"source":"data:,${source}","verification":{}},"mode":${mode}}`;
const filesOnly = (...files: string[]) => `${HEAD},"passwd":{},"storage":{"files":[${files.join(',')}]},"systemd":{}}`;

function assertUserDataError(run: () => unknown, message: string): void {
  assert.throws(run, (e: unknown) => {
    assert.ok(e instanceof UserDataError, `expected a UserDataError, got ${String(e)}`);
    assert.equal(e.message, message);
    return true;
  });
}

test('the Container Linux Config text is the one OSM renders (machine-name entry, keys, files, units, drop-ins)', () => {
  const clc = renderContainerLinuxConfig(
    flatcar(
      {
        userSSHKeys: ['ssh-rsa K1', 'ssh-rsa K1 '],
        files: [inline('/opt/bin/x', '#!/bin/sh\necho hi\n', 755)],
        units: [
          {
            name: 'a.service',
            enable: true,
            content: '[Unit]\nA=b\n[Install]\nWantedBy=multi-user.target',
            dropIns: [{ name: '10-x.conf', content: '[Service]\nX=y' }],
          },
          { name: 'b.service', mask: true },
        ],
      },
      { secretType: 'bootstrap' },
    ),
  );
  assert.equal(
    clc,
    'passwd:\n  users:\n    - name: core\n      ssh_authorized_keys:\n        - ssh-rsa K1\n        \nstorage:\n  files:\n' +
      "  - path: /etc/machine-name\n    mode: 0600\n    filesystem: root\n    contents:\n        inline: '<MACHINE_NAME>'\n\n\n" +
      "  - path: '/opt/bin/x'\n    mode: 0755\n    filesystem: root\n    contents:\n        inline: |\n          #!/bin/sh\n          echo hi\n          \n" +
      'systemd:\n  units:\n  - name: a.service\n    enabled: true\n    mask: false\n\n    contents: |\n      [Unit]\n      A=b\n      [Install]\n      WantedBy=multi-user.target\n\n' +
      '    dropins:\n      - name: 10-x.conf\n        contents: |\n          [Service]\n          X=y\n  - name: b.service\n    enabled: false\n    mask: true\n\n\n',
  );
  // Bootstrap on AWS leaves only a blank line where the machine-name entry would be.
  assert.equal(
    renderContainerLinuxConfig(flatcar({}, { secretType: 'bootstrap', cloud: cloudProvider('aws') })),
    'passwd:\nstorage:\n  files:\n\nsystemd:\n  units:\n',
  );
});

test('units: enabled, masked, contents and drop-ins as Go marshals them; nothing configured gives empty objects', () => {
  const out = emitIgnition(
    flatcar(
      {
        userSSHKeys: ['ssh-rsa K1', 'ssh-rsa K1 '],
        files: [inline('/opt/bin/x', '#!/bin/sh\necho hi\n', 755)],
        units: [
          {
            name: 'a.service',
            enable: true,
            content: '[Unit]\nA=b\n[Install]\nWantedBy=multi-user.target',
            dropIns: [{ name: '10-x.conf', content: '[Service]\nX=y' }],
          },
          { name: 'b.service', mask: true },
        ],
      },
      { secretType: 'bootstrap' },
    ),
  );
  assertBytes(
    out,
    `${HEAD},"passwd":{"users":[{"name":"core","sshAuthorizedKeys":["ssh-rsa K1"]}]},"storage":{"files":[` +
      `${fileJson('/etc/machine-name', '%3CMACHINE_NAME%3E', 384)},${fileJson('/opt/bin/x', '%23!%2Fbin%2Fsh%0Aecho%20hi%0A', 493)}]},` +
      '"systemd":{"units":[{"contents":"[Unit]\\nA=b\\n[Install]\\nWantedBy=multi-user.target\\n","dropins":[{"contents":"[Service]\\nX=y\\n","name":"10-x.conf"}],"enabled":true,"name":"a.service"},' +
      '{"enabled":false,"mask":true,"name":"b.service"}]}}',
  );
  assertBytes(
    emitIgnition(flatcar({}, { secretType: 'bootstrap', cloud: cloudProvider('aws') })),
    `${HEAD},"passwd":{},"storage":{},"systemd":{}}`,
  );
});

test('mode: the permission string read as YAML by yaml.v3 (0644 octal, 1777 decimal, 0800 via float, 0 when unset)', () => {
  const out = emitIgnition(
    flatcar({
      files: [
        inline('/a', 'x', 1777),
        inline('/b', 'x', 644),
        inline('/c', 'x', 0),
        inline('/d', 'x', 800),
        inline('/e', 'x', 44),
        inline('/f', 'x'),
      ],
    }),
  );
  assertBytes(
    out,
    filesOnly(
      fileJson('/a', 'x%0A', 1777),
      fileJson('/b', 'x%0A', 420),
      fileJson('/c', 'x%0A', 0),
      fileJson('/d', 'x%0A', 800),
      fileJson('/e', 'x%0A', 44),
      fileJson('/f', 'x%0A', 0),
    ),
  );
});

test('mode errors: out of range (Ignition report with position) and not a number (yaml.v3 unmarshal error)', () => {
  assertUserDataError(
    () => emitIgnition(flatcar({ files: [inline('/a', 'x', 10000)] })),
    'failed to convert container linux config to ignition: error at line 5, column 11\nillegal file mode',
  );
  assertUserDataError(
    () => emitIgnition(flatcar({ files: [inline('/a', 'x', -12)] })),
    'failed to validate coreos cloud config: error: yaml: unmarshal errors:\n  line 5: cannot unmarshal !!str `0-12` into int',
  );
});

test('contents through the literal block: exactly one final newline, common indentation stripped, CRLF read as LF, b64 ignored', () => {
  const out = emitIgnition(
    flatcar({
      files: [
        inline('/a', 'a'),
        inline('/b', 'a\n\n\n'),
        inline('/c', ''),
        inline('/d', '\n\n'),
        inline('/e', '  a\n  b\n    c'),
        inline('/f', 'a\r\nb\r\n'),
        inline('/g', 'plain <&> "q" #$%/é\n', 644, 'b64'),
      ],
    }),
  );
  assertBytes(
    out,
    filesOnly(
      fileJson('/a', 'a%0A', 0),
      fileJson('/b', 'a%0A', 0),
      fileJson('/c', '', 0),
      fileJson('/d', '', 0),
      fileJson('/e', 'a%0Ab%0A%20%20c%0A', 0),
      fileJson('/f', 'a%0Ab%0A', 0),
      fileJson('/g', 'plain%20%3C%26%3E%20%22q%22%20%23%24%25%2F%C3%A9%0A', 420),
    ),
  );
});

test('contents that break the YAML fail like ct: a less indented later line, a leading tab, control characters', () => {
  assert.throws(
    () => emitIgnition(flatcar({ files: [inline('/a', '  a\nb')] })),
    (e) =>
      e instanceof UserDataError && e.message.startsWith('failed to validate coreos cloud config: error: yaml: line '),
  );
  assertUserDataError(
    () => emitIgnition(flatcar({ files: [inline('/a', '\ta')] })),
    'failed to validate coreos cloud config: error: yaml: line 8: found a tab character where an indentation space is expected',
  );
  assertUserDataError(
    () => emitIgnition(flatcar({ files: [inline('/a', 'a\u001b')] })),
    'failed to validate coreos cloud config: error: yaml: control characters are not allowed',
  );
});

test('<MACHINE_NAME> stays a placeholder, escaped as %3CMACHINE_NAME%3E, even for edge', () => {
  const out = emitIgnition(
    flatcar(
      { files: [inline('/etc/x', '<MACHINE_NAME>', 600)] },
      { cloud: cloudProvider('edge'), secretType: 'bootstrap', machineDeploymentName: 'edge-pool' },
    ),
  );
  assertBytes(
    out,
    filesOnly(
      fileJson('/etc/machine-name', '%3CMACHINE_NAME%3E', 384),
      fileJson('/etc/x', '%3CMACHINE_NAME%3E%0A', 384),
    ),
  );
});

// OSM writes keys as plain YAML, so a " #" would cut a key short and "null" drop it: a key that does not read
// back as written is refused (validateValues refuses such MachineDeployment keys before they get here).
test('SSH keys are plain YAML: one that does not read back as written is refused; JSON escapes <, > and &', () => {
  const out = emitIgnition(
    flatcar(
      { userSSHKeys: ['ssh-rsa AAA user@host', ' ssh-rsa AAA user@host ', 'ssh-ed25519 <B&B>'] },
      { cloud: cloudProvider('aws'), secretType: 'bootstrap' },
    ),
  );
  assertBytes(
    out,
    `${HEAD},"passwd":{"users":[{"name":"core","sshAuthorizedKeys":["ssh-rsa AAA user@host","ssh-ed25519 \\u003cB\\u0026B\\u003e"]}]},"storage":{},"systemd":{}}`,
  );
  for (const key of ['ssh-rsa AAA user@host #comment', 'null']) {
    assert.throws(
      () => emitIgnition(flatcar({ userSSHKeys: [key] })),
      (e) => e instanceof UserDataError && /SSH key 1 does not read back/.test(e.message),
      key,
    );
  }
});

test("units: any report entry fails, warnings included, with ct's positions and order", () => {
  // Enabled without an [Install] section: a warning, which OSM treats as fatal.
  assertUserDataError(
    () =>
      emitIgnition(
        flatcar({ units: [{ name: 'a.service', enable: true, content: '[Service]\nExecStart=/bin/true\n' }] }),
      ),
    'failed to convert container linux config to ignition: warning at line 10, column 15\nunit "a.service" is enabled, but has no install section so enable does nothing',
  );
  // No options at all: go-systemd reports none, so no warning.
  assert.match(
    emitIgnition(flatcar({ units: [{ name: 'd.service', enable: true, content: '# only a comment\n' }] })),
    /"contents":"# only a comment\\n","enabled":true,"name":"d.service"/,
  );
  assertUserDataError(
    () =>
      emitIgnition(
        flatcar({
          units: [
            { name: 'a.txt', content: '[Unit] x\n', dropIns: [{ name: 'd.txt', content: '[Unit\n' }] },
            { name: 'b.service', content: 'Foo' },
          ],
        }),
      ),
    'failed to convert container linux config to ignition: error at line 10, column 15\ninvalid unit content: found garbage after section name : [120]\n' +
      'error at line 15, column 9\ninvalid unit content: unable to find end of section\nerror at line 15, column 9\ninvalid systemd drop-in extension\n' +
      'error at line 6, column 11\ninvalid systemd unit extension',
  );
  assertUserDataError(
    () =>
      emitIgnition(
        flatcar({ units: [{ name: 'a.service', content: '[Service]\nExecStart=' + 'x'.repeat(2040) + '\n' }] }),
      ),
    'failed to convert container linux config to ignition: error at line 10, column 15\ninvalid unit content: line too long (max 2048 bytes)',
  );
});

test("a relative path is refused by Ignition's validation", () => {
  assertUserDataError(
    () => emitIgnition(flatcar({ files: [inline('relative/path', 'x', 644)] })),
    'failed to convert container linux config to ignition: error at line 4, column 11\npath not absolute',
  );
});

test('inputs ct reads differently from any YAML library we could use are refused, not guessed', () => {
  // A CR in content would put "..." at the start of a line (yaml.v3 would silently drop the rest of the config):
  // a lone CR or NEL never reaches the parser.
  assert.throws(
    () => emitIgnition(flatcar({ files: [inline('/p', 'a\r...'), inline('/q', 'b')] })),
    (e) => e instanceof UserDataError && /lone CR or NEL/.test(e.message),
  );
  assert.throws(
    () => emitIgnition(flatcar({ userSSHKeys: ['!tagged'] })),
    (e) => e instanceof UserDataError && /YAML tag/.test(e.message),
  );
  assert.throws(() => emitIgnition(flatcar({ files: [inline("/it's", 'x', 644)] })), UserDataError);
  assert.throws(
    () => emitIgnition(flatcar({ files: [inline('/a', 'x\u2028y')] })),
    (e) => e instanceof UserDataError && /U\+2028/.test(e.message),
  );
});

// issue 17: yaml.v3 breaks lines at CR and NEL too, and sprig's indent only indents after "\n".
test('a lone CR or NEL cannot end a block and add a file; CR LF stays one line break', () => {
  for (const br of ['\r', '\u0085']) {
    const injected = `x${br}  - path: /root/.ssh/authorized_keys${br}    filesystem: root${br}    contents:${br}        inline: evil`;
    assert.throws(
      () => emitIgnition(flatcar({ files: [inline('/etc/a', injected, 644)] })),
      (e) => e instanceof UserDataError && /file "\/etc\/a"/.test(e.message),
      JSON.stringify(br),
    );
    assert.throws(
      () => emitIgnition(flatcar({ units: [{ name: `a${br}.service`, content: '[Unit]\n' }] })),
      (e) => e instanceof UserDataError && /unit name/.test(e.message),
      JSON.stringify(br),
    );
  }
  assert.match(
    emitIgnition(flatcar({ files: [inline('/etc/a', 'a\r\nb\r\n', 644)] })),
    /"path":"\/etc\/a","contents":{"source":"data:,a%0Ab%0A"/,
  );
});
