// `generate` (Argo CD) without the cluster secrets mounted: besides the function's missing-fact error, stderr
// names the secrets directory and the files it lacks, and never a secret's value.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runArgoCDGenerateCommand } from '../../src/cli/argocdGenerateCommand.ts';
import { EXAMPLE_SECRETS, EXAMPLES, copyTree, tempDir } from '../gitops/support.ts';

function generate(secretsDir: string): { code: number; stdout: string; stderr: string } {
  const dir = copyTree(join(EXAMPLES, 'argocd', 'app'), join(tempDir('osm-krm-hint-'), 'app'));
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (s: string) => (stdout += s),
    stderr: (s: string) => (stderr += s),
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', OSM_KRM_SECRETS_DIR: secretsDir },
  };
  return { code: runArgoCDGenerateCommand([], io), stdout, stderr };
}

test('generate without mounted secrets: the note names the directory and the missing files', () => {
  const r = generate('/nonexistent/osm-krm-secrets');
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /missing cluster fact: the cloud-init-getter token/);
  assert.match(
    r.stderr,
    /\nosm-krm generate: note: \/nonexistent\/osm-krm-secrets \(\$OSM_KRM_SECRETS_DIR\) has no file cloud-init-getter-token, bootstrap-token \(or bootstrap-token-key\) and the config names no source for them: mount the cluster secrets there \(examples\/argocd\/argocd-repo-server-patch\.yaml\)\n/,
  );
});

test('generate with only the getter token mounted: the note names the bootstrap token alone, without any value', () => {
  const secrets = join(tempDir('osm-krm-secrets-'), 's');
  mkdirSync(secrets);
  writeFileSync(join(secrets, 'cloud-init-getter-token'), EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN);
  const r = generate(secrets);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /has no file bootstrap-token \(or bootstrap-token-key\) and the config names no source for it:/,
  );
  assert.ok(!r.stderr.includes(EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN));
});

test('generate with both mounted renders and prints no note', () => {
  const secrets = join(tempDir('osm-krm-secrets-'), 's');
  mkdirSync(secrets);
  writeFileSync(join(secrets, 'cloud-init-getter-token'), EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN);
  writeFileSync(join(secrets, 'bootstrap-token'), EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN);
  const r = generate(secrets);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /note:/);
});
