// Issue #23 §1 and §3, through the bundle as users run it: one reader of PATH for every command (render, diff,
// lint, generate, hydrate), each form read as the user meant it or refused saying what to pass instead, and one
// rule for `{file: ...}` sources (relative to the file that names them; absolute ones only where the operator
// said; bounded, regular files only), with the secrets directory read by render and diff as generate reads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import {
  BUNDLE,
  EXAMPLE_SECRETS,
  EXAMPLES,
  byIdentity,
  git,
  parseStream,
  tempDir,
  toolEnv,
} from '../gitops/support.ts';

const APP = join(EXAMPLES, 'argocd', 'app');

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

function osm(args: string[], cwd: string, env: Record<string, string> = {}): Result {
  const r = spawnSync(process.execPath, [BUNDLE, ...args], {
    cwd,
    env: toolEnv(env),
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A directory holding the secrets generate reads (the Argo CD example's config names no token source). */
function secretsDir(): string {
  const d = join(tempDir('osm-krm-secrets-'), 'secrets');
  mkdirSync(d);
  writeFileSync(join(d, 'cloud-init-getter-token'), EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN);
  writeFileSync(join(d, 'bootstrap-token'), EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN);
  return d;
}

type Command = 'render' | 'diff' | 'lint' | 'generate' | 'hydrate';

/** Runs each command on `dir` as a user would (diff against itself, hydrate into a new OUT). */
function everyCommand(dir: string, env: Record<string, string>): Record<Command, Result> {
  const out = join(tempDir('osm-krm-forms-out-'), 'out');
  return {
    render: osm(['render', dir], dir, env),
    diff: osm(['diff', dir, dir], dir, env),
    lint: osm(['lint', dir], dir, env),
    generate: osm(['generate'], dir, env),
    hydrate: osm(['hydrate', dir, out], dir, env),
  };
}

test(
  'a directory holding a ResourceList file is read as its items and its functionConfig, by every command',
  { timeout: 600_000 },
  () => {
    const dir = tempDir('osm-krm-forms-rl-');
    const items: unknown[] = [];
    let functionConfig: unknown;
    for (const f of [
      'operatingsystemprofile.yaml',
      'machinedeployment-workers-a.yaml',
      'machinedeployment-workers-b.yaml',
      'cluster-info.yaml',
      'osm-config.yaml',
    ]) {
      const o = parse(readFileSync(join(APP, f), 'utf8'));
      if (o.kind === 'OperatingSystemManager') functionConfig = o;
      else items.push(o);
    }
    writeFileSync(
      join(dir, 'resourcelist.yaml'),
      stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', functionConfig, items }),
    );
    const r = everyCommand(dir, { OSM_KRM_SECRETS_DIR: secretsDir() });
    assert.equal(r.render.status, 0, r.render.stderr);
    assert.match(r.render.stdout, /^# MachineDeployment kube-system\/workers-a$/m);
    assert.match(r.render.stdout, /^# MachineDeployment kube-system\/workers-b$/m);
    assert.equal(r.diff.status, 0, r.diff.stderr);
    assert.match(r.lint.stdout, /1 profile\(s\)/);
    assert.equal(r.generate.status, 0, r.generate.stderr);
    const generated = parseStream(r.generate.stdout);
    assert.ok(!generated.some((o) => o.kind === 'ResourceList'), 'the ResourceList is not a manifest');
    assert.equal(generated.filter((o) => o.kind === 'OperatingSystemConfig').length, 2);
    assert.equal(r.hydrate.status, 0, r.hydrate.stderr);
  },
);

test('an empty directory, or one holding only a Helm values file, is refused by every command, saying what to pass', () => {
  const empty = tempDir('osm-krm-forms-empty-');
  for (const [cmd, r] of Object.entries(everyCommand(empty, {}))) {
    assert.notEqual(r.status, 0, `${cmd} on an empty directory`);
    assert.match(
      r.stderr,
      cmd === 'lint'
        ? /no OperatingSystemProfile/
        : /holds no Kubernetes objects \(no \*\.yaml or \*\.yml file\); pass the directory that holds the OperatingSystemProfiles and MachineDeployments/,
      cmd,
    );
    assert.equal(r.stdout.includes('no node changes'), false, cmd);
  }
  const helm = tempDir('osm-krm-forms-helm-');
  writeFileSync(join(helm, 'values.yaml'), 'replicaCount: 2\nimage:\n  tag: "1.2"\n');
  for (const [cmd, r] of Object.entries(everyCommand(helm, {}))) {
    assert.notEqual(r.status, 0, `${cmd} on a Helm values file`);
    if (cmd !== 'lint') assert.match(r.stderr, /values\.yaml is not a Kubernetes manifest/, cmd);
  }
});

test('a Helm values file beside the manifests is named on stderr and skipped; .krmignore silences it', () => {
  const app = join(tempDir('osm-krm-forms-'), 'app');
  cpSync(APP, app, { recursive: true });
  writeFileSync(join(app, 'values.yaml'), 'replicaCount: 2\n');
  const env = { OSM_KRM_SECRETS_DIR: secretsDir() };
  const noted = osm(['render', '.'], app, env);
  assert.equal(noted.status, 0, noted.stderr);
  assert.match(
    noted.stderr,
    /^osm-krm render: note: values\.yaml is not a Kubernetes manifest \(no apiVersion or kind\): skipped; list it in \.krmignore to say so$/m,
  );
  writeFileSync(join(app, '.krmignore'), 'values.yaml\n');
  const quiet = osm(['generate'], app, env);
  assert.equal(quiet.status, 0, quiet.stderr);
  assert.doesNotMatch(quiet.stderr, /values\.yaml/);
  // A document with only one of apiVersion and kind is a typo, not another kind of file: an error.
  writeFileSync(join(app, 'typo.yaml'), 'apiVersion: v1\nknd: ConfigMap\nmetadata:\n  name: x\n');
  const typo = osm(['generate'], app, env);
  assert.equal(typo.status, 1);
  assert.match(typo.stderr, /typo\.yaml: document 1 is not a Kubernetes object \(apiVersion and kind are required\)/);
});

test(
  'a kustomization that runs osm-krm as its transformer is rendered with that config; as a generator, or followed by others, it is refused',
  { timeout: 300_000 },
  () => {
    const env = { ...EXAMPLE_SECRETS };
    const exec = join(EXAMPLES, 'kustomize', 'exec');
    const rendered = osm(['render', exec], exec, env);
    assert.equal(rendered.status, 0, rendered.stderr);
    assert.match(rendered.stdout, /^# MachineDeployment kube-system\/workers-a$/m);
    const generated = osm(['generate'], exec, env);
    assert.equal(generated.status, 0, generated.stderr);
    // The same manifests as the plain files with that config (cluster-info, local-config, reached the function).
    const plain = join(tempDir('osm-krm-forms-k-'), 'plain');
    cpSync(join(EXAMPLES, 'kustomize', 'base'), plain, { recursive: true });
    rmSync(join(plain, 'kustomization.yaml'));
    cpSync(join(exec, 'osm.yaml'), join(plain, 'osm.yaml'));
    const fromFiles = osm(['generate'], plain, env);
    assert.equal(fromFiles.status, 0, fromFiles.stderr);
    const strip = (objects: any[]) => objects.map((o) => ({ ...o, metadata: { ...o.metadata, labels: undefined } }));
    assert.deepEqual(
      Object.keys(byIdentity(parseStream(generated.stdout))),
      Object.keys(byIdentity(parseStream(fromFiles.stdout))),
    );
    assert.equal(strip(parseStream(generated.stdout)).filter((o) => o.kind === 'Secret').length, 6);

    const k = join(tempDir('osm-krm-forms-k-'), 'k');
    cpSync(exec, k, { recursive: true });
    cpSync(join(EXAMPLES, 'kustomize', 'base'), join(k, '..', 'base'), { recursive: true });
    writeFileSync(join(k, 'kustomization.yaml'), 'resources:\n  - ../base\ngenerators:\n  - osm.yaml\n');
    const gen = osm(['render', '.'], k, env);
    assert.equal(gen.status, 1);
    assert.match(
      gen.stderr,
      /runs osm-krm under generators: \(osm\.yaml\), where kustomize gives it only its own config: list it under transformers:/,
    );
    writeFileSync(
      join(k, 'labels.yaml'),
      'apiVersion: builtin\nkind: LabelTransformer\nmetadata:\n  name: l\nlabels:\n  team: a\nfieldSpecs:\n  - path: metadata/labels\n    create: true\n',
    );
    writeFileSync(
      join(k, 'kustomization.yaml'),
      'resources:\n  - ../base\ntransformers:\n  - osm.yaml\n  - labels.yaml\n',
    );
    const after = osm(['generate'], k, env);
    assert.equal(after.status, 1);
    assert.match(after.stderr, /runs osm-krm as a transformer \(osm\.yaml\) with others after it/);
  },
);

test(
  'lint: a file holding two profiles (a List) is read, and an odd file is reported without stopping the run',
  { timeout: 300_000 },
  () => {
    const dir = tempDir('osm-krm-forms-lint-');
    const osp = parse(readFileSync(join(APP, 'operatingsystemprofile.yaml'), 'utf8'));
    const second = structuredClone(osp);
    second.metadata.name = 'example-ubuntu-2';
    writeFileSync(join(dir, 'profiles.yaml'), stringify({ apiVersion: 'v1', kind: 'List', items: [osp, second] }));
    writeFileSync(
      join(dir, 'broken.yaml'),
      Buffer.concat([Buffer.from('kind: OperatingSystemProfile\nx: "'), Buffer.from([0xff]), Buffer.from('"\n')]),
    );
    spawnSync('mkfifo', [join(dir, 'pipe.yaml')]);
    const r = osm(['lint', '.'], dir);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /osm-krm lint: 2 profile\(s\)/);
    assert.match(r.stderr, /^osm-krm lint: broken\.yaml is not valid UTF-8/m);
    assert.match(r.stderr, /^osm-krm lint: pipe\.yaml is a fifo, not a regular file: refusing to read it$/m);
  },
);

test(
  'one relative {file: ...} path (relative to the config file) works for generate under Argo CD, hydrate, render and diff --git in CI',
  { timeout: 300_000 },
  () => {
    const repo = join(tempDir('osm-krm-forms-repo-'), 'repo');
    const app = join(repo, 'clusters', 'prod');
    cpSync(APP, app, { recursive: true });
    const info = parse(readFileSync(join(app, 'cluster-info.yaml'), 'utf8'));
    const cluster = parse(info.data.kubeconfig).clusters[0].cluster;
    rmSync(join(app, 'cluster-info.yaml'));
    mkdirSync(join(app, 'pki'));
    writeFileSync(join(app, 'pki', 'ca.crt'), Buffer.from(cluster['certificate-authority-data'], 'base64'));
    writeFileSync(
      join(app, 'osm-config.yaml'),
      readFileSync(join(app, 'osm-config.yaml'), 'utf8') +
        `  cluster:\n    server: ${cluster.server}\n    caCert: {file: pki/ca.crt}\n`,
    );
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'app');
    const env = { OSM_KRM_SECRETS_DIR: secretsDir() };
    const results = {
      generate: osm(['generate'], app, { ...env, ARGOCD_APP_SOURCE_PATH: 'clusters/prod' }),
      hydrate: osm(['hydrate', 'clusters/prod', join(repo, '..', 'out')], repo, env),
      render: osm(['render', 'clusters/prod'], repo, env),
      diff: osm(['diff', '--git', 'HEAD', 'clusters/prod'], repo, env),
      renderFromElsewhere: osm(['render', join(app)], tempDir('osm-krm-forms-cwd-'), env),
    };
    for (const [what, r] of Object.entries(results)) assert.equal(r.status, 0, `${what}: ${r.stderr}`);
    assert.match(results.diff.stdout, /no node changes/);
  },
);

test('render and diff read the secrets directory the way generate does', () => {
  const env = { OSM_KRM_SECRETS_DIR: secretsDir() };
  const render = osm(['render', APP, '--show-secrets'], APP, env);
  assert.equal(render.status, 0, render.stderr);
  assert.ok(render.stdout.includes(EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN));
  assert.equal(osm(['diff', APP, APP], APP, env).status, 0);
  const without = osm(['render', APP], APP, { OSM_KRM_SECRETS_DIR: '/nonexistent' });
  assert.equal(without.status, 1);
});

test(
  '{file: ...} sources: bounded, regular files only, absolute ones only where the operator said; refusals name field and path',
  { timeout: 300_000 },
  () => {
    const app = join(tempDir('osm-krm-forms-'), 'app');
    cpSync(APP, app, { recursive: true });
    const config = readFileSync(join(app, 'osm-config.yaml'), 'utf8');
    const withToken = (file: string) =>
      writeFileSync(
        join(app, 'osm-config.yaml'),
        `${config}  cluster:\n    cloudInitGetterToken: {file: ${file}}\n    bootstrapToken: {env: OSM_BOOTSTRAP_TOKEN}\n`,
      );
    const env = { OSM_BOOTSTRAP_TOKEN: EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN };
    spawnSync('mkfifo', [join(app, 'token-pipe')]);
    const field = 'spec\\.cluster\\.cloudInitGetterToken\\.file';
    const cases: Array<[string, RegExp, Record<string, string>?]> = [
      [
        'token-pipe',
        /cannot read file "token-pipe" \(named by spec\.cluster\.cloudInitGetterToken\.file\): a FIFO, not a regular file/,
      ],
      [
        '/etc/hostname',
        /cannot read file "\/etc\/hostname" \(named by spec\.cluster\.cloudInitGetterToken\.file\): outside the directories osm-krm reads files from/,
      ],
      [
        '/proc/self/environ',
        /cannot read file "\/proc\/self\/environ" \(named by spec\.cluster\.cloudInitGetterToken\.file\): (outside the directories|on a kernel pseudo file system)/,
      ],
      [
        '/proc/self/environ',
        /cannot read file "\/proc\/self\/environ" \(named by spec\.cluster\.cloudInitGetterToken\.file\): on a kernel pseudo file system/,
        { OSM_KRM_FILE_ROOTS: '/proc/self' },
      ],
      [
        '../../../../../../etc/hostname',
        /cannot read file "(\.\.\/)+etc\/hostname" \(named by spec\.cluster\.cloudInitGetterToken\.file\): outside/,
      ],
    ];
    for (const [file, expected, extra] of cases) {
      withToken(file);
      const r = osm(['render', '.'], app, { ...env, ...extra });
      assert.equal(r.status, 1, `${file}: ${r.stdout}`);
      assert.match(r.stderr, expected, file);
      assert.match(r.stderr, new RegExp(field));
    }
    // A mounted secret (the secrets directory) and OSM_KRM_FILE_ROOTS are read; the size bound holds there too.
    const mounted = secretsDir();
    withToken(join(mounted, 'cloud-init-getter-token'));
    assert.equal(osm(['render', '.'], app, { ...env, OSM_KRM_SECRETS_DIR: mounted }).status, 0);
    const roots = tempDir('osm-krm-forms-roots-');
    writeFileSync(join(roots, 'token'), 'a-token-from-the-file-roots');
    withToken(join(roots, 'token'));
    assert.equal(osm(['render', '.'], app, { ...env, OSM_KRM_FILE_ROOTS: roots }).status, 0);
    spawnSync('truncate', ['-s', '100M', join(roots, 'big')]);
    withToken(join(roots, 'big'));
    const big = osm(['render', '.'], app, { ...env, OSM_KRM_FILE_ROOTS: roots });
    assert.equal(big.status, 1);
    assert.match(big.stderr, /\(named by spec\.cluster\.cloudInitGetterToken\.file\): larger than 96 MiB/);
  },
);

test('generate: the plugin setting "config" (from the Application, often in Git) may only name a file of the repository', () => {
  const outside = tempDir('osm-krm-forms-outside-');
  cpSync(join(APP, 'osm-config.yaml'), join(outside, 'osm.yaml'));
  const r = osm(['generate'], APP, { ARGOCD_ENV_CONFIG: join(outside, 'osm.yaml'), OSM_KRM_SECRETS_DIR: secretsDir() });
  assert.equal(r.status, 1);
  assert.match(
    r.stderr,
    /config file \S+osm\.yaml is outside \S+: the plugin setting "config" may only name a file of the application's repository/,
  );
  assert.equal(r.stdout, '');
  // The operator's --config (plugin.yaml's command) is theirs to choose.
  assert.equal(
    osm(['generate', '--config', join(outside, 'osm.yaml')], APP, { OSM_KRM_SECRETS_DIR: secretsDir() }).status,
    0,
  );
});
