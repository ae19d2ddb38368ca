// cloud-init user-data byte for byte against upstream: the generator vectors and the reconciler Secret goldens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { emitCloudInit } from '../../../src/emit/userdata/cloudInit.ts';
import { UPSTREAM_OSM } from '../../support/paths.ts';
import { lineDiff } from '../../support/lineDiff.ts';
import { GENERATOR_VECTORS } from './generatorVectors.ts';
import { RECONCILER_CASES, goldenPath, hasGolden } from '../../conformance/upstreamReconcilerCases.ts';

const VECTORS = join(UPSTREAM_OSM, '_extracted/pkg/generator/generator_test');

for (const [file, input] of Object.entries(GENERATOR_VECTORS)) {
  if (!file.endsWith('.yaml')) continue;
  test(`generator vector ${file}`, () => {
    const expected = readFileSync(join(VECTORS, file), 'utf8');
    const actual = emitCloudInit(input);
    if (actual !== expected) assert.fail(lineDiff(expected, actual));
  });
}

for (const c of RECONCILER_CASES) {
  if (c.os === 'flatcar' || !hasGolden(c.goldens.osc)) continue;
  for (const type of ['bootstrap', 'provisioning'] as const) {
    const golden = c.goldens[type];
    if (!hasGolden(golden)) continue;
    test(`reconciler golden ${golden} from ${c.goldens.osc}`, () => {
      const osc = parse(readFileSync(goldenPath(c.goldens.osc), 'utf8'));
      const expected = Buffer.from(parse(readFileSync(goldenPath(golden), 'utf8')).data['cloud-config'], 'base64').toString('utf8');
      const actual = emitCloudInit({ config: osc.spec[`${type}Config`], osName: osc.spec.osName, cloudProviderName: osc.spec.cloudProvider.name, secretType: type, distUpgradeOnBoot: false, machineDeploymentName: c.mdName });
      if (actual !== expected) assert.fail(lineDiff(expected, actual));
    });
  }
}

test('edge: the MachineDeployment name replaces <MACHINE_NAME>', () => {
  const input = { ...GENERATOR_VECTORS['06-generated-bootstrap-cloud-init-for-ubuntu.expected.yaml']!, cloudProviderName: 'edge', machineDeploymentName: 'edge-md' };
  const out = emitCloudInit(input);
  assert.ok(out.includes('hostname: edge-md\n') && out.includes('        edge-md\n') && !out.includes('<MACHINE_NAME>'));
});

test('units render for Flatcar cloud-init (coreos-cloudinit)', () => {
  const out = emitCloudInit({
    config: { units: [{ name: 'a.service', enable: true, content: '[Unit]\nX=1', dropIns: [{ name: '10-x.conf', content: '[Service]' }] }, { name: 'b.service', mask: true }] },
    osName: 'flatcar', cloudProviderName: 'anexia', secretType: 'provisioning', distUpgradeOnBoot: false, machineDeploymentName: 'x',
  });
  assert.equal(out.slice(out.indexOf('coreos:')), 'coreos:\n  units:\n  - name: "a.service"\n    enable: true\n    command: start\n    mask: false\n\n    content: |\n      [Unit]\n      X=1\n\n    drop_ins:\n      - name: "10-x.conf"\n        content: |\n          [Service]\n  - name: "b.service"\n    enable: false\n    \n    mask: true\n\n');
  void existsSync;
});
