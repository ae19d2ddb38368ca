// Ignition user-data byte for byte against upstream (generator vectors and the Flatcar reconciler goldens),
// and our 3.3.0 variant through the real ignition-validate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { emitIgnition } from '../../../src/emit/userdata/ignition/index.ts';
import { UPSTREAM_OSM } from '../../support/paths.ts';
import { lineDiff } from '../../support/lineDiff.ts';
import { GENERATOR_VECTORS } from './generatorVectors.ts';
import { RECONCILER_CASES, goldenPath, hasGolden } from '../../conformance/upstreamReconcilerCases.ts';

const VECTORS = join(UPSTREAM_OSM, '_extracted/pkg/generator/generator_test');
const pretty = (s: string) => JSON.stringify(JSON.parse(s), null, 1);

for (const [file, { input }] of Object.entries(GENERATOR_VECTORS)) {
  if (!file.endsWith('.json') || file.startsWith('10-')) continue;
  test(`generator vector ${file}`, () => {
    const expected = readFileSync(join(VECTORS, file), 'utf8');
    const actual = emitIgnition(input);
    if (actual !== expected) assert.fail(lineDiff(pretty(expected), pretty(actual)));
  });
}

const flatcar = RECONCILER_CASES.filter((c) => c.os === 'flatcar' && hasGolden(c.goldens.osc));
for (const c of flatcar) {
  for (const type of ['bootstrap', 'provisioning'] as const) {
    test(`reconciler golden ${c.goldens[type]}`, () => {
      const osc = parse(readFileSync(goldenPath(c.goldens.osc), 'utf8'));
      const expected = Buffer.from(parse(readFileSync(goldenPath(c.goldens[type]), 'utf8')).data['cloud-config'], 'base64').toString('utf8');
      const actual = emitIgnition({ config: osc.spec[`${type}Config`], osName: 'flatcar', cloudProviderName: osc.spec.cloudProvider.name, secretType: type, distUpgradeOnBoot: false, machineDeploymentName: c.mdName });
      if (actual !== expected) assert.fail(lineDiff(pretty(expected), pretty(actual)));
    });
  }
}

test('spec 3.3.0 output passes ignition-validate', () => {
  for (const c of flatcar) {
    const osc = parse(readFileSync(goldenPath(c.goldens.osc), 'utf8'));
    for (const type of ['bootstrap', 'provisioning'] as const) {
      const ign = emitIgnition({ config: osc.spec[`${type}Config`], osName: 'flatcar', cloudProviderName: 'azure', secretType: type, distUpgradeOnBoot: false, machineDeploymentName: 'x' }, '3.3.0');
      execFileSync('ignition-validate', ['-'], { input: ign, stdio: ['pipe', 'pipe', 'pipe'] });
    }
  }
});

test('ignition-validate rejects a broken 3.3.0 config (the validator is real)', () => {
  assert.throws(() => execFileSync('ignition-validate', ['-'], { input: '{"ignition":{"version":"3.3.0"},"storage":{"files":[{"path":"relative","contents":{"source":"nope:x"}}]}}', stdio: ['pipe', 'pipe', 'pipe'] }));
});
