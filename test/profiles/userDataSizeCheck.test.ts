// The user-data size check: nothing below 90 % of a cloud's limit, a warning from there, an error above it.
// The limits themselves are the clouds' descriptors' (src/model/cloudProviders.ts, tested there).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkUserDataSize, WARNING_RATIO } from '../../src/render/userDataSizeCheck.ts';
import { CLOUD_PROVIDERS, DEFAULT_UNDOCUMENTED_LIMIT, cloudProvider } from '../../src/model/cloudProviders.ts';

test('AWS: 16384 bytes of raw user-data, warning from 90 %', () => {
  assert.equal(checkUserDataSize(cloudProvider('aws'), 8687), undefined);
  assert.equal(checkUserDataSize(cloudProvider('aws'), 14745), undefined);
  const near = checkUserDataSize(cloudProvider('aws'), 14746);
  assert.equal(near?.severity, 'warning');
  assert.match(
    near!.message,
    /^bootstrap user-data is close to the aws limit: 14746 bytes, 90 % of the 16384-byte limit \(EC2 user data is limited to 16 KB/,
  );
  assert.equal(checkUserDataSize(cloudProvider('aws'), 16384)?.severity, 'warning');
  const over = checkUserDataSize(cloudProvider('aws'), 16385);
  assert.equal(over?.severity, 'error');
  assert.match(
    over!.message,
    /too large for aws: 16385 bytes, 100 % of the 16384-byte limit.*the machine cannot be created$/,
  );
});

test('every documented limit follows the same rule', () => {
  const documented = CLOUD_PROVIDERS.filter((c) => c.userDataLimit?.documented);
  assert.ok(documented.length >= 8);
  for (const { name, userDataLimit: limit } of documented) {
    const warnFrom = Math.ceil(limit!.bytes * WARNING_RATIO);
    assert.equal(checkUserDataSize(cloudProvider(name), warnFrom - 1), undefined, name);
    assert.equal(checkUserDataSize(cloudProvider(name), warnFrom)?.severity, 'warning', name);
    assert.equal(checkUserDataSize(cloudProvider(name), limit!.bytes)?.severity, 'warning', name);
    assert.equal(checkUserDataSize(cloudProvider(name), limit!.bytes + 1)?.severity, 'error', name);
  }
  assert.equal(cloudProvider('openstack')!.userDataLimit!.bytes, Math.floor(65535 / 4) * 3);
});

test('clouds without a documented limit: a warning over the 32 KiB default, never an error', () => {
  const undocumented = CLOUD_PROVIDERS.filter((c) => c.userDataLimit !== null && !c.userDataLimit.documented);
  assert.ok(undocumented.length >= 8);
  for (const { name } of undocumented) {
    assert.equal(
      checkUserDataSize(cloudProvider(name), Math.ceil(DEFAULT_UNDOCUMENTED_LIMIT * WARNING_RATIO) - 1),
      undefined,
      name,
    );
    const over = checkUserDataSize(cloudProvider(name), 10 * 1024 * 1024);
    assert.equal(over?.severity, 'warning', name);
    assert.match(
      over!.message,
      new RegExp(`larger than osm-krm's default limit for ${name}: .*no documented limit`),
      name,
    );
  }
});

test('clouds with no limit to check, and names that are no cloud (no descriptor), get no finding', () => {
  const unchecked = CLOUD_PROVIDERS.filter((c) => c.userDataLimit === null).map((c) => c.name);
  for (const cloud of ['toString', '__proto__', '', 'packet', ...unchecked])
    assert.equal(checkUserDataSize(cloudProvider(cloud), 10 * 1024 * 1024), undefined, cloud);
});
