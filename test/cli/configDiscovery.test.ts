// How `generate` and `hydrate` find their config: a file that looks like one but cannot be read as one is an
// error naming the file and the field; no config at all is said, with the defaults that then apply.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runArgoCDGenerateCommand } from '../../src/cli/argocdGenerateCommand.ts';
import { runHydrateCommand } from '../../src/cli/hydrateCommand.ts';
import { runOn } from '../support/runInProcess.ts';
import { EXAMPLE_SECRETS, EXAMPLES, copyTree, tempDir } from '../gitops/support.ts';

/** The Argo CD example app (its config in osm-config.yaml), with the tokens from the environment. */
function app(): string {
  const dir = copyTree(join(EXAMPLES, 'argocd', 'app'), join(tempDir('osm-krm-config-'), 'app'));
  const config = join(dir, 'osm-config.yaml');
  writeFileSync(
    config,
    readFileSync(config, 'utf8') +
      '  cluster:\n    cloudInitGetterToken: {env: OSM_CLOUD_INIT_GETTER_TOKEN}\n    bootstrapToken: {env: OSM_BOOTSTRAP_TOKEN}\n',
  );
  return dir;
}

const env = { ...EXAMPLE_SECRETS, PATH: process.env.PATH ?? '', OSM_KRM_SECRETS_DIR: '/nonexistent' };

function runBoth(dir: string, args: string[] = []) {
  const out: Record<'generate' | 'hydrate', { code: number; stdout: string; stderr: string }> = {} as any;
  for (const cmd of ['generate', 'hydrate'] as const) {
    let stdout = '';
    let stderr = '';
    const io = { stdout: (s: string) => (stdout += s), stderr: (s: string) => (stderr += s), cwd: dir, env };
    // No SOPS in these configs: hydrate answers synchronously.
    const code =
      cmd === 'generate'
        ? runArgoCDGenerateCommand(['.', ...args], io)
        : (runHydrateCommand(['.', join(tempDir('osm-krm-out-'), 'out'), ...args], io) as number);
    out[cmd] = { code, stdout, stderr };
  }
  return out;
}

function replaceInConfig(dir: string, from: RegExp, to: string) {
  const p = join(dir, 'osm-config.yaml');
  const text = readFileSync(p, 'utf8');
  assert.match(text, from);
  writeFileSync(p, text.replace(from, to));
}

test('a config whose kind or apiVersion is mistyped is an error naming the file and the field', () => {
  for (const [from, to, field] of [
    [/kind: OperatingSystemManager/, 'kind: OperatingSystemManger', 'kind'],
    [/kind: OperatingSystemManager/, 'kind: operatingsystemmanager', 'kind'],
    [/kind: OperatingSystemManager/, 'kind: OSMConfig', 'kind'],
    [/apiVersion: osm-krm.dev\/v1alpha1/, 'apiVersion: osm-krm.dev/v1', 'apiVersion'],
    [/apiVersion: osm-krm.dev\/v1alpha1/, 'apiVersion: operatingsystemmanager.k8c.io/v1alpha1', 'apiVersion'],
  ] as const) {
    const dir = app();
    replaceInConfig(dir, from, to);
    for (const [cmd, r] of Object.entries(runBoth(dir))) {
      assert.notEqual(r.code, 0, `${cmd} ${to}: ${r.stdout}`);
      assert.equal(cmd === 'generate' ? r.stdout : '', '', cmd);
      assert.match(r.stderr, /osm-config\.yaml/, `${cmd} ${to}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`\\b${field}\\b`), `${cmd} ${to}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /token/i, `${cmd} ${to}: ${r.stderr}`);
    }
  }
});

test('a ConfigMap of OSM flag names in the directory that is not the config in use is an error', () => {
  const dir = app();
  rmSync(join(dir, 'osm-config.yaml'));
  writeFileSync(
    join(dir, 'osm-flags.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: osm-flags\ndata:\n  cluster-dns: 10.3.3.3\n  cloud-init-getter-token-env: OSM_CLOUD_INIT_GETTER_TOKEN\n  bootstrap-token-env: OSM_BOOTSTRAP_TOKEN\n',
  );
  for (const [cmd, r] of Object.entries(runBoth(dir))) {
    assert.notEqual(r.code, 0, cmd);
    assert.match(r.stderr, /osm-flags\.yaml.*looks like an osm-krm config.*cluster-dns/s, `${cmd}: ${r.stderr}`);
  }
  // Named as the config, it is read as one; a mistyped key is then an error naming the file and the key.
  for (const [cmd, r] of Object.entries(runBoth(dir, ['--config', 'osm-flags.yaml'])))
    assert.equal(r.code, 0, `${cmd}: ${r.stderr}`);
  writeFileSync(
    join(dir, 'osm-flags.yaml'),
    readFileSync(join(dir, 'osm-flags.yaml'), 'utf8').replace('cluster-dns', 'cluster-dsn'),
  );
  for (const [cmd, r] of Object.entries(runBoth(dir, ['--config', 'osm-flags.yaml']))) {
    assert.notEqual(r.code, 0, cmd);
    assert.match(r.stderr, /osm-flags\.yaml/, `${cmd}: ${r.stderr}`);
    assert.match(r.stderr, /data\.cluster-dsn|"cluster-dsn"/, `${cmd}: ${r.stderr}`);
  }
});

test('--config naming a file that is not a config is an error naming the file and the field', () => {
  const dir = app();
  writeFileSync(join(dir, 'other.yaml'), 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\n');
  for (const [cmd, r] of Object.entries(runBoth(dir, ['--config', 'other.yaml']))) {
    assert.notEqual(r.code, 0, cmd);
    assert.match(r.stderr, /other\.yaml/, `${cmd}: ${r.stderr}`);
    assert.match(r.stderr, /\bkind\b/, `${cmd}: ${r.stderr}`);
  }
});

test('without any config, the run says so and which defaults apply', () => {
  const dir = app();
  rmSync(join(dir, 'osm-config.yaml'));
  writeFileSync(join(dir, 'tokens.yaml'), '');
  for (const [cmd, r] of Object.entries(runBoth(dir))) {
    assert.match(r.stderr, /no function config.*defaults/is, `${cmd}: ${r.stderr}`);
    assert.match(r.stderr, /namespace kube-system/, `${cmd}: ${r.stderr}`);
    assert.match(r.stderr, /cluster DNS 10\.10\.10\.10/, `${cmd}: ${r.stderr}`);
  }
  // The KRM function says it too, as an info result.
  const r = runOn({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: [] });
  assert.equal(r.exitCode, 0);
  assert.ok(
    r.results.some((x: any) => x.severity === 'info' && /no function config/i.test(x.message)),
    JSON.stringify(r.results),
  );
});
