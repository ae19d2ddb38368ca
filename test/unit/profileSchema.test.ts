import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { validateOperatingSystemProfile } from '../../src/model/validateProfile.ts';
import { ResourceError } from '../../src/krm/results.ts';
import { UPSTREAM_OSM } from '../support/paths.ts';

const upstream = [
  ...readdirSync(join(UPSTREAM_OSM, 'deploy/osps/default')).map((f) => join(UPSTREAM_OSM, 'deploy/osps/default', f)),
  join(UPSTREAM_OSM, 'pkg/controllers/osc/testdata/osp-rhel-aws-cloud-init-modules.yaml'),
];

test('every upstream OSP is valid under our schema', () => {
  for (const f of upstream) validateOperatingSystemProfile(parse(readFileSync(f, 'utf8')));
});

function errorOf(mutate: (o: any) => void): ResourceError {
  const o = parse(readFileSync(upstream[0]!, 'utf8'));
  mutate(o);
  try {
    validateOperatingSystemProfile(o);
  } catch (e) {
    assert.ok(e instanceof ResourceError);
    return e;
  }
  assert.fail('expected a validation error');
}

test('invalid OSPs are rejected with the field path', () => {
  let e = errorOf((o) => (o.spec.osName = 'windows'));
  assert.equal(e.fieldPath, 'spec.osName');
  assert.match(e.message, /must be one of "flatcar"/);
  e = errorOf((o) => (o.spec.version = '1.0.0'));
  assert.equal(e.fieldPath, 'spec.version');
  e = errorOf((o) => delete o.spec.provisioningConfig.files[1].content.inline);
  assert.equal(e.fieldPath, 'spec.provisioningConfig.files[1].content');
  assert.match(e.message, /missing required field "inline"/);
  e = errorOf((o) => (o.spec.bootstrapConfig.filez = []));
  assert.match(e.message, /unknown field "filez"/);
  e = errorOf((o) => (o.spec.provisioningConfig.files[0].permissions = '0644'));
  assert.equal(e.fieldPath, 'spec.provisioningConfig.files[0].permissions');
});

test("units are refused on non-flatcar profiles, as OSM's webhook does", () => {
  const e = errorOf((o) => (o.spec.bootstrapConfig.units = [{ name: 'x.service' }]));
  assert.match(e.message, /does not support units/);
});
