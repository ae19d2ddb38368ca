// Upstream's reconciler goldens through the emitters alone: each OSC golden's half in, the matching Secret's
// decoded `cloud-config` out, byte for byte (cloud-init YAML and Ignition 2.3.0 JSON alike).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitCloudInit } from '../../../src/emit/userdata/cloudInit.ts';
import { emitIgnition } from '../../../src/emit/userdata/ignition/index.ts';
import { lineDiff } from '../../support/lineDiff.ts';
import { listSecretFiles, secretGoldens } from './secretGoldens.ts';

const goldens = secretGoldens();

// Ignition is one line of JSON: compare it pretty-printed so that the diff points at the differing field.
const readable = (utility: string, s: string): string =>
  utility === 'ignition' ? JSON.stringify(JSON.parse(s), null, 1) : s;

for (const g of goldens) {
  test(`${g.secretFile} from ${g.oscFile} (${g.utility})`, () => {
    const actual = g.utility === 'ignition' ? emitIgnition(g.input) : emitCloudInit(g.input);
    if (actual !== g.expected)
      assert.fail(
        'user-data differs (- expected, + actual)\n' +
          lineDiff(readable(g.utility, g.expected), readable(g.utility, actual)),
      );
  });
}

test('the goldens cover both utilities, both secret types and a non-AWS bootstrap', () => {
  assert.ok(goldens.length >= 12, `only ${goldens.length} goldens found`);
  assert.ok(goldens.some((g) => g.utility === 'ignition' && g.input.secretType === 'bootstrap'));
  assert.ok(goldens.some((g) => g.utility === 'ignition' && g.input.secretType === 'provisioning'));
  assert.ok(
    goldens.some(
      (g) => g.utility === 'cloud-init' && g.input.secretType === 'bootstrap' && g.input.cloud?.name !== 'aws',
    ),
  );
  assert.ok(
    goldens.some(
      (g) =>
        g.utility === 'cloud-init' &&
        (g.input.config.modules?.yum_repos !== undefined || g.input.config.modules?.rh_subscription !== undefined),
    ),
  );
  // Every Secret golden on disk is used unless it is empty or its OSC golden is missing.
  const used = new Set(goldens.map((g) => g.secretFile));
  assert.deepEqual(
    listSecretFiles().filter((f) => !used.has(f)),
    [],
  );
});
