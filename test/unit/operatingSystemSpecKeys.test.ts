// operatingSystemSpec keys match their field as encoding/json matches them: exactly, else folded (ASCII case,
// and Unicode's ſ for s, ı for i); a later key overwrites an earlier one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeOperatingSystemSpecWithKeys } from '../../src/machineDeployment/operatingSystemSpec.ts';

const distUpgrade = (spec: Record<string, unknown>) => {
  const d = decodeOperatingSystemSpecWithKeys('ubuntu', spec);
  return [d.value.fields['DistUpgradeOnBoot'], d.sourceKeys['DistUpgradeOnBoot']];
};

test('keys match exactly, in any ASCII case, and through Go folding of ſ; later keys win', () => {
  assert.deepEqual(distUpgrade({ distUpgradeOnBoot: true }), [true, 'distUpgradeOnBoot']);
  assert.deepEqual(distUpgrade({ DISTUPGRADEONBOOT: true }), [true, 'DISTUPGRADEONBOOT']);
  assert.deepEqual(distUpgrade({ 'diſtUpgradeOnBoot': true }), [true, 'diſtUpgradeOnBoot']);
  assert.deepEqual(distUpgrade({ 'dıstUpgradeOnBoot': true }), [true, 'dıstUpgradeOnBoot']); // Go's foldName: ToUpper(ToLower(ı)) is I
  assert.deepEqual(distUpgrade({ 'distUpgradeOnBoot\u212a': true }), [false, undefined]);
  assert.deepEqual(distUpgrade({ distUpgradeOnBoot: false, DistUpgradeOnBoot: true }), [true, 'DistUpgradeOnBoot']);
  assert.deepEqual(distUpgrade({ other: true }), [false, undefined]);
});
