// The user-data size check: nothing below 90 % of a cloud's limit, a warning from there, an error above it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkUserDataSize, USER_DATA_LIMITS, WARNING_RATIO } from '../../src/render/userDataSizeCheck.ts';

test('AWS: 16384 bytes of raw user-data, warning from 90 %', () => {
  assert.equal(checkUserDataSize('aws', 8687), undefined);
  assert.equal(checkUserDataSize('aws', 14745), undefined);
  const near = checkUserDataSize('aws', 14746);
  assert.equal(near?.severity, 'warning');
  assert.match(near!.message, /^bootstrap user-data is close to the aws limit: 14746 bytes, 90 % of the 16384-byte limit \(EC2 user data is limited to 16 KB/);
  assert.equal(checkUserDataSize('aws', 16384)?.severity, 'warning');
  const over = checkUserDataSize('aws', 16385);
  assert.equal(over?.severity, 'error');
  assert.match(over!.message, /too large for aws: 16385 bytes, 100 % of the 16384-byte limit.*the machine cannot be created$/);
});

test('every documented limit follows the same rule', () => {
  for (const [cloud, limit] of Object.entries(USER_DATA_LIMITS)) {
    const warnFrom = Math.ceil(limit.bytes * WARNING_RATIO);
    assert.equal(checkUserDataSize(cloud, warnFrom - 1), undefined, cloud);
    assert.equal(checkUserDataSize(cloud, warnFrom)?.severity, 'warning', cloud);
    assert.equal(checkUserDataSize(cloud, limit.bytes)?.severity, 'warning', cloud);
    assert.equal(checkUserDataSize(cloud, limit.bytes + 1)?.severity, 'error', cloud);
    assert.match(limit.source, /^https:\/\//, cloud);
  }
  assert.equal(USER_DATA_LIMITS.openstack!.bytes, Math.floor(65535 / 4) * 3);
});

test('clouds without a documented limit, and odd names, get no finding', () => {
  for (const cloud of ['vsphere', 'anexia', 'edge', 'baremetal', 'nutanix', 'vmware-cloud-director', 'toString', '__proto__', '']) {
    assert.equal(checkUserDataSize(cloud, 10 * 1024 * 1024), undefined, cloud);
  }
});
