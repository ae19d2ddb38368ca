// render, diff and lint run in CI on a pull request's bytes: hostile-input cases for the review tools (secrets
// in what they print, text that a terminal or the CI log would interpret, what `diff --git` unpacks).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, stringify } from 'yaml';
import { runDiffCommand } from '../../src/cli/diffCommand.ts';
import { runRenderCommand } from '../../src/cli/renderCommand.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { runCommand, tempDir } from './reviewSupport.ts';

const EXAMPLE_TEXT = readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8');

function exampleList(): any {
  return parse(EXAMPLE_TEXT);
}

function writeList(dir: string, name: string, list: unknown): string {
  writeFileSync(join(dir, name), stringify(list));
  return name;
}

const PASSWORD = 'Sup3rS3cret"pw\\x';

function withRegistryCredentials(list: any): any {
  list.functionConfig.spec.nodeRegistryCredentialsSecret = 'kube-system/registry-credentials';
  list.items.push({
    apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
    metadata: { name: 'registry-credentials', namespace: 'kube-system', annotations: { 'config.kubernetes.io/local-config': 'true' } },
    stringData: { 'registry.example:5000': JSON.stringify({ username: 'puller', password: PASSWORD }) },
  });
  return list;
}

test('a registry password inside the credentials Secret\'s JSON is masked in render and diff (as containerd\'s TOML quotes it)', () => {
  const dir = tempDir();
  const file = writeList(dir, 'creds.yaml', withRegistryCredentials(exampleList()));
  const leaks = (s: string) => s.includes('Sup3rS3cret');
  const masked = runCommand(runRenderCommand, [file], dir);
  assert.equal(masked.code, 0, masked.stderr);
  assert.ok(!leaks(masked.stdout + masked.stderr), 'render prints the registry password');
  assert.match(masked.stdout, /^ {2}\| +password = "<masked>"$/m);
  const shown = runCommand(runRenderCommand, [file, '--show-secrets'], dir);
  assert.ok(shown.stdout.includes('password = "Sup3rS3cret\\"pw\\\\x"'), '--show-secrets shows it');
  writeList(dir, 'plain.yaml', exampleList());
  const diff = runCommand(runDiffCommand, [file, 'plain.yaml'], dir);
  assert.equal(diff.code, 1, diff.stderr);
  assert.ok(!leaks(diff.stdout + diff.stderr), 'diff prints the registry password');
  assert.match(diff.stdout, /^-password = "<masked>"$/m);
});
