// The CLC fast path (nodes built by our block parser instead of the `yaml` package) must be invisible: the
// same decoded config, positions included, and the same errors. Checked on upstream's generator vectors, on
// every Flatcar profile of ours rendered for each of its clouds, and on seeded random contents, paths, unit
// names and SSH keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { parseContainerLinuxConfig } from '../../../src/emit/userdata/ignition/clcParse.ts';
import { renderContainerLinuxConfig } from '../../../src/emit/userdata/ignition/clc.ts';
import type { UserDataInput } from '../../../src/emit/userdata/input.ts';
import { parseBlockYaml } from '../../../src/io/blockYamlFastPath.ts';
import { GENERATOR_VECTORS } from './generatorVectors.ts';
import { clusterFacts, functionConfig, machineDeployment, resourceList } from '../../profiles/support/profileRuns.ts';
import { runOn } from '../../support/runInProcess.ts';
import { EMBEDDED_PROFILES } from '../../../src/profiles/embeddedProfiles.ts';
import { rng } from '../../support/rng.ts';

function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (e) {
    return { error: String((e as Error).message) };
  }
}

let fastPathTaken = 0;

function assertSame(input: UserDataInput, label: string): void {
  const text = renderContainerLinuxConfig(input);
  const fast = outcome(() => parseContainerLinuxConfig(text));
  const full = outcome(() => parseContainerLinuxConfig(text, { fastPath: false }));
  assert.deepEqual(fast, full, `${label}\n${text}`);
  if (parseBlockYaml(text.replace(/\r\n?|\u0085/g, '\n')) !== undefined) fastPathTaken++;
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
  const flatcar = EMBEDDED_PROFILES.find((p: any) => p.metadata.name === 'osp-flatcar') as any;
  const mds = (flatcar.spec.supportedCloudProviders as Array<{ name: string }>).map((c) =>
    machineDeployment({ profile: 'osp-flatcar', osName: 'flatcar', cloud: c.name, kubelet: '1.35.1', ipFamily: 'IPv4+IPv6' }));
  const r = runOn(resourceList([...mds, ...clusterFacts()], functionConfig()));
  assert.equal(r.exitCode, 0, r.stderr);
  const before = fastPathTaken;
  let configs = 0;
  for (const osc of r.items.filter((i: any) => i.kind === 'OperatingSystemConfig')) {
    for (const secretType of ['bootstrap', 'provisioning'] as const) {
      const config = osc.spec[`${secretType}Config`];
      const input: UserDataInput = { config, osName: 'flatcar', cloudProviderName: osc.spec.cloudProvider.name, secretType, distUpgradeOnBoot: false, machineDeploymentName: osc.metadata.name };
      assertSame(input, `${osc.metadata.name} ${secretType}`);
      configs++;
    }
  }
  assert.ok(configs >= 14);
  assert.equal(fastPathTaken - before, configs);
});

const LINES = ['echo hi', '', '', '  indented', '\tTab', '   ', '\t', '#!/bin/bash', '# comment', '---', '...', 'key: value', '- item', '|', '>', "'q'", '"q"',
  'é ü', '\u00a0nbsp', 'a\rb', 'a\u0085b', 'a\u2028b', 'a\u0001b', '😀', 'x #y', '[Unit]', 'A=b', '%', '@', '- x', 'k: |', '   trailing   '];
const NAMES = ['/opt/bin/setup', '/etc/a b', "/etc/it's", '/etc/#x', '/etc/a: b', '/etc/ok', '', '/etc/x #y', '/etc/[a]', "/etc/''"];
const UNIT_NAMES = ['a.service', 'b.service', 'x #c.service', 'y: z', "'q'.service", '', 'c.service', '[x]', '{}', '- a', 'yes', '~', '0644', '"d".service', 'a:b'];
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
  for (let n = 0; n < Number(process.env.FUZZ_COUNT ?? 1500); n++) {
    const files = Array.from({ length: Math.floor(r() * 4) }, () => ({
      path: NAMES[Math.floor(r() * NAMES.length)]!, permissions: [644, 755, 600, 0][Math.floor(r() * 4)]!, content: { inline: { data: content(r) } },
    }));
    const units = Array.from({ length: Math.floor(r() * 3) }, () => ({
      name: UNIT_NAMES[Math.floor(r() * UNIT_NAMES.length)]!, enable: r() < 0.5, content: content(r),
      dropIns: r() < 0.3 ? [{ name: '10-x.conf', content: content(r) }] : [],
    }));
    const input: UserDataInput = { config: { files, units, userSSHKeys: r() < 0.4 ? [KEYS[Math.floor(r() * KEYS.length)]!, KEYS[Math.floor(r() * KEYS.length)]!] : [] } as any, osName: 'flatcar', cloudProviderName: 'vsphere',
      secretType: r() < 0.5 ? 'bootstrap' : 'provisioning', distUpgradeOnBoot: false, machineDeploymentName: 'md' };
    assertSame(input, `random #${n}: ${JSON.stringify(parse(JSON.stringify(input.config)))}`);
  }
  assert.ok(fastPathTaken - before > 300, `the fast path took only ${fastPathTaken - before} random configs`);
});
