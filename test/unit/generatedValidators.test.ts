// The committed schemas and standalone validators must be current: the OSP schema's cloud provider enum is the
// clouds' descriptors', and each validator is its schema compiled (regenerate: node --import tsx
// scripts/generate-validators.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';
// @ts-expect-error plain ESM script without types
import { generate, schemaText, TARGETS } from '../../scripts/generate-validators.mjs';

for (const [schema, out] of TARGETS as Array<[string, string]>) {
  test(`${schema} and ${out} are current`, () => {
    process.chdir(REPO_ROOT);
    assert.equal(
      readFileSync(join(REPO_ROOT, schema), 'utf8'),
      schemaText(schema),
      'run: node --import tsx scripts/generate-validators.mjs',
    );
    assert.equal(
      readFileSync(join(REPO_ROOT, out), 'utf8'),
      generate(schema),
      'run: node --import tsx scripts/generate-validators.mjs',
    );
  });
}
