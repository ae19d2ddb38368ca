// The user-data size check: nothing below 90 % of a cloud's limit, a warning from there, an error above it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkUserDataSize, DEFAULT_UNDOCUMENTED_LIMIT, USER_DATA_LIMITS, WARNING_RATIO } from '../../src/render/userDataSizeCheck.ts';

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
  for (const [cloud, limit] of Object.entries(USER_DATA_LIMITS).filter(([, l]) => l.documented)) {
    const warnFrom = Math.ceil(limit.bytes * WARNING_RATIO);
    assert.equal(checkUserDataSize(cloud, warnFrom - 1), undefined, cloud);
    assert.equal(checkUserDataSize(cloud, warnFrom)?.severity, 'warning', cloud);
    assert.equal(checkUserDataSize(cloud, limit.bytes)?.severity, 'warning', cloud);
    assert.equal(checkUserDataSize(cloud, limit.bytes + 1)?.severity, 'error', cloud);
    assert.match(limit.source, /^https:\/\//, cloud);
  }
  assert.equal(USER_DATA_LIMITS.openstack!.bytes, Math.floor(65535 / 4) * 3);
});

test('clouds without a documented limit: a warning over the 32 KiB default, never an error', () => {
  const undocumented = Object.entries(USER_DATA_LIMITS).filter(([, l]) => !l.documented).map(([c]) => c).sort();
  assert.deepEqual(undocumented, ['anexia', 'baremetal', 'edge', 'equinixmetal', 'linode', 'nutanix', 'opennebula', 'scaleway', 'vmware-cloud-director', 'vsphere', 'vultr']);
  for (const cloud of undocumented) {
    assert.equal(USER_DATA_LIMITS[cloud]!.bytes, DEFAULT_UNDOCUMENTED_LIMIT, cloud);
    assert.equal(checkUserDataSize(cloud, Math.ceil(DEFAULT_UNDOCUMENTED_LIMIT * WARNING_RATIO) - 1), undefined, cloud);
    const over = checkUserDataSize(cloud, 10 * 1024 * 1024);
    assert.equal(over?.severity, 'warning', cloud);
    assert.match(over!.message, new RegExp(`larger than osm-krm's default limit for ${cloud}: .*no documented limit`), cloud);
  }
});

test('every machine-controller cloud has an entry; odd names get no finding', () => {
  const mcClouds = ['aws', 'azure', 'digitalocean', 'equinixmetal', 'gce', 'hetzner', 'kubevirt', 'linode', 'nutanix', 'openstack', 'vsphere', 'vmware-cloud-director', 'edge', 'alibaba', 'anexia', 'scaleway', 'baremetal', 'vultr', 'opennebula'];
  assert.deepEqual(Object.keys(USER_DATA_LIMITS).sort(), [...mcClouds].sort());
  for (const cloud of ['toString', '__proto__', '', 'fake', 'external']) assert.equal(checkUserDataSize(cloud, 10 * 1024 * 1024), undefined, cloud);
});
