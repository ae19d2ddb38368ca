// The CLC fast paths (decoding our block parser's tree directly, or nodes built from it where that gives
// up) must be invisible next to the `yaml` package: the same decoded config, positions included, and the
// same errors. Checked on upstream's generator vectors, on
// every Flatcar profile of ours rendered for each of its clouds, and on seeded random contents, paths, unit
// names and SSH keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineCounter, parse } from 'yaml';
import { decodeBlockTree } from '../../../src/emit/userdata/ignition/clcBlockDecode.ts';
import { prepareForParser } from '../../../src/go/yaml.v3/resolvePlain.ts';
import { parseContainerLinuxConfig } from '../../../src/emit/userdata/ignition/clcParse.ts';
import { renderContainerLinuxConfig } from '../../../src/emit/userdata/ignition/clc.ts';
import type { UserDataInput } from '../../../src/emit/userdata/input.ts';
import { parseBlockYaml } from '../../../src/codec/blockYamlFastPath.ts';
import { GENERATOR_VECTORS } from './generatorVectors.ts';
import { clusterFacts, functionConfig, machineDeployment, resourceList } from '../../profiles/support/profileRuns.ts';
import { runOn } from '../../support/runInProcess.ts';
import { embeddedProfiles } from '../../../src/profiles/embeddedProfiles.ts';
import { rng } from '../../support/rng.ts';

function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (e) {
    return { error: String((e as Error).message) };
  }
}

let fastPathTaken = 0;
let blockDecoded = 0;

/** Whether the config decodes straight from the block tree (no `yaml` nodes built at all). */
function decodesFromBlockTree(text: string): boolean {
  const prepared = prepareForParser(text);
  if (!prepared.ok) return false;
  const tree = parseBlockYaml(prepared.text);
  if (tree === undefined) return false;
  const lines = new LineCounter();
  lines.addNewLine(0);
  for (let at = prepared.text.indexOf('\n'); at >= 0; at = prepared.text.indexOf('\n', at + 1))
    lines.addNewLine(at + 1);
  return decodeBlockTree(tree.root, prepared.text, lines) !== undefined;
}

function assertSame(input: UserDataInput, label: string): void {
  const text = renderContainerLinuxConfig(input);
  const fast = outcome(() => parseContainerLinuxConfig(text));
  const full = outcome(() => parseContainerLinuxConfig(text, { fastPath: false }));
  assert.deepEqual(fast, full, `${label}\n${text}`);
  if (parseBlockYaml(text.replace(/\r\n?|\u0085/g, '\n')) !== undefined) fastPathTaken++;
  if (decodesFromBlockTree(text)) blockDecoded++;
}

test('upstream generator vectors', () => {
  let n = 0;
  for (const [file, vector] of Object.entries(GENERATOR_VECTORS)) {
    if (vector.utility !== 'ignition') continue;
    assertSame(vector.input, file);
    n++;
  }
  assert.ok(n > 0);
});

test('our Flatcar profiles, every cloud: same config, and every one takes the fast path', () => {
  const flatcar = embeddedProfiles().find((p: any) => p.metadata.name === 'osp-flatcar') as any;
  const mds = (flatcar.spec.supportedCloudProviders as Array<{ name: string }>).map((c) =>
    machineDeployment({
      profile: 'osp-flatcar',
      osName: 'flatcar',
      cloud: c.name,
      kubelet: '1.35.1',
      ipFamily: 'IPv4+IPv6',
    }),
  );
  const r = runOn(resourceList([...mds, ...clusterFacts()], functionConfig()));
  assert.equal(r.exitCode, 0, r.stderr);
  const before = fastPathTaken;
  const decodedBefore = blockDecoded;
  let configs = 0;
  for (const osc of r.items.filter((i: any) => i.kind === 'OperatingSystemConfig')) {
    for (const secretType of ['bootstrap', 'provisioning'] as const) {
      const config = osc.spec[`${secretType}Config`];
      const input: UserDataInput = {
        config,
        osName: 'flatcar',
        cloudProviderName: osc.spec.cloudProvider.name,
        secretType,
        distUpgradeOnBoot: false,
        machineDeploymentName: osc.metadata.name,
      };
      assertSame(input, `${osc.metadata.name} ${secretType}`);
      configs++;
    }
  }
  assert.ok(configs >= 14);
  assert.equal(fastPathTaken - before, configs);
  assert.equal(
    blockDecoded - decodedBefore,
    configs,
    'every config of our profiles decodes straight from the block tree',
  );
});

const LINES = [
  'echo hi',
  '',
  '',
  '  indented',
  '\tTab',
  '   ',
  '\t',
  '#!/bin/bash',
  '# comment',
  '---',
  '...',
  'key: value',
  '- item',
  '|',
  '>',
  "'q'",
  '"q"',
  'é ü',
  '\u00a0nbsp',
  'a\rb',
  'a\u0085b',
  'a\u2028b',
  'a\u0001b',
  '😀',
  'x #y',
  '[Unit]',
  'A=b',
  '%',
  '@',
  '- x',
  'k: |',
  '   trailing   ',
];
const NAMES = [
  '/opt/bin/setup',
  '/etc/a b',
  "/etc/it's",
  '/etc/#x',
  '/etc/a: b',
  '/etc/ok',
  '',
  '/etc/x #y',
  '/etc/[a]',
  "/etc/''",
];
const UNIT_NAMES = [
  'a.service',
  'b.service',
  'x #c.service',
  'y: z',
  "'q'.service",
  '',
  'c.service',
  '[x]',
  '{}',
  '- a',
  'yes',
  '~',
  '0644',
  '"d".service',
  'a:b',
];
const KEYS = ['ssh-ed25519 AAAA k', 'ssh-rsa AAA user@host', 'ssh-rsa A #c', 'a: b', "'q'", '[k]', '- k', ''];

function content(r: () => number): string {
  const n = Math.floor(r() * 5);
  const lines = Array.from({ length: n }, () => LINES[Math.floor(r() * LINES.length)]!);
  const tail = ['', '\n', '\n\n'][Math.floor(r() * 3)]!;
  return lines.join('\n') + tail;
}

test('seeded random contents, paths and unit names: same config or same error', () => {
  const r = rng(Number(process.env.FUZZ_SEED ?? 11));
  const before = fastPathTaken;
  const decodedBefore = blockDecoded;
  for (let n = 0; n < Number(process.env.FUZZ_COUNT ?? 1500); n++) {
    const files = Array.from({ length: Math.floor(r() * 4) }, () => ({
      path: NAMES[Math.floor(r() * NAMES.length)]!,
      permissions: [644, 755, 600, 0][Math.floor(r() * 4)]!,
      content: { inline: { data: content(r) } },
    }));
    const units = Array.from({ length: Math.floor(r() * 3) }, () => ({
      name: UNIT_NAMES[Math.floor(r() * UNIT_NAMES.length)]!,
      enable: r() < 0.5,
      content: content(r),
      dropIns: r() < 0.3 ? [{ name: '10-x.conf', content: content(r) }] : [],
    }));
    const input: UserDataInput = {
      config: {
        files,
        units,
        userSSHKeys: r() < 0.4 ? [KEYS[Math.floor(r() * KEYS.length)]!, KEYS[Math.floor(r() * KEYS.length)]!] : [],
      } as any,
      osName: 'flatcar',
      cloudProviderName: 'vsphere',
      secretType: r() < 0.5 ? 'bootstrap' : 'provisioning',
      distUpgradeOnBoot: false,
      machineDeploymentName: 'md',
    };
    assertSame(input, `random #${n}: ${JSON.stringify(parse(JSON.stringify(input.config)))}`);
  }
  assert.ok(fastPathTaken - before > 300, `the fast path took only ${fastPathTaken - before} random configs`);
  // Both ways out of the block tree are exercised: decoded directly, and given up (then decoded from nodes).
  const decoded = blockDecoded - decodedBefore;
  assert.ok(
    decoded > 200 && decoded < fastPathTaken - before,
    `decoded straight from the block tree: ${decoded} of ${fastPathTaken - before}`,
  );
});

test('hand-written configs at the edges of the direct decoding: same config or same error', () => {
  const file = (body: string) =>
    `passwd:\nstorage:\n  files:\n  - path: '/etc/a'\n${body}systemd:\n  units:\n  - name: a.service\n    enabled: true\n    mask: false\n`;
  const texts = [
    file('    mode: 0644\n    mode: 0600\n    filesystem: root\n    contents:\n        inline: |\n          x\n'), // duplicate key
    file('    mode: 0644\n    user: root\n    contents:\n        inline: x\n'), // unmodelled key
    file('    mode: 0x1A4\n    contents:\n        inline: x\n'),
    file('    mode: 420.9\n    contents:\n        inline: x\n'),
    file('    mode: "0644"\n    contents:\n        inline: x\n'), // a string where ct wants an int
    file('    mode: ~\n    contents:\n'),
    file('    mode: 0644\n    contents:\n        inline:\n'),
    file('    mode: 0644\n    unknown_field: 1\n    contents:\n        inline: x\n'),
    'passwd:\n  users:\n  - name: core\n    ssh_authorized_keys:\n    - ~\n    - "k"\n    - \'q\'\nstorage:\n  files: []\n',
    'passwd:\n  users:\n  - ~\n  - name: core\nsystemd:\n  units:\n  - name: a.service\n    enabled: yes\n    mask: off\n  - name: b.service\n    enabled: null\n    mask: 1\n',
    'systemd:\n  units:\n  - name: a.service\n    dropins:\n    - name: x.conf\n      contents: |\n        [Service]\n    - ~\n',
    'storage:\n  files:\n  - path: /a\n    contents:\n      inline: |\n        \tTab first\n',
    '~: x\nstorage:\n',
    'version: 1\n',
  ];
  let decoded = 0;
  for (const text of texts) {
    const fast = outcome(() => parseContainerLinuxConfig(text));
    const full = outcome(() => parseContainerLinuxConfig(text, { fastPath: false }));
    assert.deepEqual(fast, full, text);
    if (decodesFromBlockTree(text)) decoded++;
  }
  assert.ok(
    decoded >= 5 && decoded < texts.length,
    `decoded straight from the block tree: ${decoded} of ${texts.length}`,
  );
});
