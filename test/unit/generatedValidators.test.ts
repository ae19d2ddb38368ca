// The committed standalone validators must match their schemas (regenerate: node scripts/generate-validators.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';
// @ts-expect-error plain ESM script without types
import { generate } from '../../scripts/generate-validators.mjs';

for (const [schema, out] of [
  ['src/config/operatingSystemManager.schema.json', 'src/config/generated/validateOperatingSystemManager.generated.js'],
  ['src/model/operatingSystemProfile.schema.json', 'src/model/generated/validateOperatingSystemProfile.generated.js'],
]) {
  test(`${out} is current`, () => {
    process.chdir(REPO_ROOT);
    assert.equal(readFileSync(join(REPO_ROOT, out!), 'utf8'), generate(schema), 'run: node scripts/generate-validators.mjs');
  });
}
