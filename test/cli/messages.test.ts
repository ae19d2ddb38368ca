// Messages that point the right way (the built bundle, and the function image under kubectl kustomize):
// - in the function's container only the variables passed in are seen: said, with how to pass one;
// - cluster facts in a kustomization app's local-config files, which kustomize drops: said instead of "add it";
// - a token file with a line break at its end: named once, with the file;
// - a read-only destination (hydrate's OUT, render --out): the reason, not an internal error;
// - a file hydrate wrote and the user then edited: said so, not "did not write".
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, stringify } from 'yaml';
import { BUNDLE, EXAMPLE_SECRETS, EXAMPLES, copyExample, mkdirp, osmKrm, tempDir } from './routeSupport.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { run as runTool, toolEnv } from '../gitops/support.ts';

const CONTAINER_NOTE =
  /environment variable OSM_BOOTSTRAP_TOKEN \(named by spec\.cluster\.bootstrapToken\.env\) is not set; the function runs in a container, which sees only the variables passed into it: list it under envs: of the function's container \(kustomize's config\.kubernetes\.io\/function\), or pass -e OSM_BOOTSTRAP_TOKEN to kpt fn eval --image \(a Kptfile's image: function gets none; use exec: there\)/;

test('a variable the function image does not see: the error says only variables passed in are seen, and how', () => {
  assert.match(
    readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'),
    /FROM node:\S+ AS function\n(?:.*\n)*?ENV OSM_KRM_IMAGE=function\n/,
    'the function image says where it runs',
  );
  const list = readFileSync(join(EXAMPLES, 'basic/resourcelist.yaml'), 'utf8').replace(
    '  spec:\n    namespace: kube-system\n',
    '  spec:\n    namespace: kube-system\n    cluster:\n      bootstrapToken: {env: OSM_BOOTSTRAP_TOKEN}\n',
  );
  const inImage = osmKrm([], { input: list, env: { OSM_KRM_IMAGE: 'function' } });
  assert.equal(inImage.code, 1);
  assert.match(inImage.stderr, CONTAINER_NOTE);
  // Outside the image (exec, the CLI) the variable is simply not set.
  const outside = osmKrm([], { input: list });
  assert.match(
    outside.stderr,
    /environment variable OSM_BOOTSTRAP_TOKEN \(named by spec\.cluster\.bootstrapToken\.env\) is not set\n/,
  );
});

test('the real function image under kubectl kustomize, a variable missing from envs:', () => {
  const dir = copyExample('kustomize');
  const osm = join(dir, 'container/osm.yaml');
  writeFileSync(osm, readFileSync(osm, 'utf8').replace(/^ {10}- OSM_BOOTSTRAP_TOKEN\n/m, ''));
  // Set in kustomize's environment, but not passed into the container.
  const r = runTool('kubectl', ['kustomize', '--enable-alpha-plugins', join(dir, 'container')], {
    env: toolEnv(EXAMPLE_SECRETS),
  });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, CONTAINER_NOTE);
});

/** The flux example's source as a kustomization app, its config naming the secrets mounted in a directory. */
function kustomizationApp(): string {
  const app = copyExample('flux/source');
  writeFileSync(
    join(app, 'kustomization.yaml'),
    'resources:\n  - operatingsystemprofile.yaml\n  - machinedeployment-workers-a.yaml\n  - machinedeployment-workers-b.yaml\n  - cluster-info.yaml\n',
  );
  return app;
}

test("cluster-info in a kustomization app's local-config file: kustomize dropped it, give it in the config", () => {
  const app = kustomizationApp();
  const expected =
    /cluster-info\.yaml holds the kube-public\/cluster-info ConfigMap, but it is local-config and kustomize drops local-config resources from its build, so osm-krm never sees it: give spec\.cluster\.server and spec\.cluster\.caCert in the config instead/;
  const generate = osmKrm(['generate', '--config', 'osm-config.yaml'], { cwd: app, env: EXAMPLE_SECRETS });
  assert.equal(generate.code, 1);
  assert.match(generate.stderr, expected);
  assert.doesNotMatch(generate.stderr, /add the kube-public\/cluster-info ConfigMap/);
  const hydrate = osmKrm(['hydrate', app, join(tempDir(), 'out'), '--config', join(app, 'osm-config.yaml')], {
    env: EXAMPLE_SECRETS,
  });
  assert.equal(hydrate.code, 1);
  assert.match(hydrate.stderr, expected);
  // With the facts in the config, it renders.
  const kubeconfig = parse(parse(readFileSync(join(app, 'cluster-info.yaml'), 'utf8')).data.kubeconfig);
  const config = parse(readFileSync(join(app, 'osm-config.yaml'), 'utf8'));
  config.spec.cluster.server = kubeconfig.clusters[0].cluster.server;
  config.spec.cluster.caCert = Buffer.from(
    kubeconfig.clusters[0].cluster['certificate-authority-data'],
    'base64',
  ).toString('utf8');
  writeFileSync(join(app, 'osm-config.yaml'), stringify(config));
  const ok = osmKrm(['generate', '--config', 'osm-config.yaml'], { cwd: app, env: EXAMPLE_SECRETS });
  assert.equal(ok.code, 0, ok.stderr);
});

test('a token file with a line break at its end is named once, with the file', () => {
  const app = copyExample('argocd/app');
  const secrets = mkdirp(join(tempDir(), 'secrets'));
  writeFileSync(join(secrets, 'cloud-init-getter-token'), EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN);
  writeFileSync(join(secrets, 'bootstrap-token'), `${EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN}\n`);
  const bootstrap = osmKrm(['generate'], { cwd: app, env: { OSM_KRM_SECRETS_DIR: secrets } });
  assert.equal(bootstrap.code, 1);
  const line = bootstrap.stderr.split('\n').find((l) => l.includes('is not a bootstrap token'))!;
  assert.equal(
    line,
    `osm-krm: error: OperatingSystemManager osm spec.cluster.bootstrapToken (osm-config.yaml): file ${join(secrets, 'bootstrap-token')} is not a bootstrap token: it ends with a line break (write it with printf %s, not echo)`,
  );
  assert.equal(line.split('spec.cluster.bootstrapToken').length - 1, 1, 'the field once');
  // The getter token: one error (not one per MachineDeployment), naming the file.
  writeFileSync(join(secrets, 'bootstrap-token'), EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN);
  writeFileSync(join(secrets, 'cloud-init-getter-token'), `${EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN}\n`);
  const getter = osmKrm(['generate'], { cwd: app, env: { OSM_KRM_SECRETS_DIR: secrets } });
  assert.equal(getter.code, 1);
  const errors = getter.stderr.split('\n').filter((l) => l.startsWith('osm-krm: error:'));
  assert.deepEqual(errors, [
    `osm-krm: error: OperatingSystemManager osm spec.cluster.cloudInitGetterToken (osm-config.yaml): file ${join(secrets, 'cloud-init-getter-token')} is not a token as it is: it ends with a line break (write it with printf %s, not echo)`,
  ]);
});

test('a read-only destination: hydrate and render --out say why, exit 1, no internal error', (t) => {
  if (process.getuid?.() !== 0 || spawnSync('unshare', ['--mount', 'true']).status !== 0) {
    t.skip('needs root and unshare to mount a read-only tmpfs (CI runs as root)');
    return;
  }
  const root = tempDir();
  const src = copyExample('flux/source', root);
  mkdirSync(join(root, 'ro'));
  const script = `mount -t tmpfs -o ro,size=64k tmpfs "$RO"
"$NODE" "$BUNDLE" hydrate "$SRC" "$RO/out" 2> "$ROOT/hydrate.err"; echo $? > "$ROOT/hydrate.status"
"$NODE" "$BUNDLE" render "$SRC" --out "$RO/tree" > /dev/null 2> "$ROOT/render.err"; echo $? > "$ROOT/render.status"
`;
  const r = spawnSync('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script], {
    env: {
      PATH: process.env.PATH,
      ...EXAMPLE_SECRETS,
      RO: join(root, 'ro'),
      SRC: src,
      ROOT: root,
      BUNDLE,
      NODE: process.execPath,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr);
  const read = (f: string) => readFileSync(join(root, f), 'utf8');
  assert.equal(read('hydrate.status').trim(), '1');
  assert.equal(
    read('hydrate.err'),
    `osm-krm hydrate: cannot create ${join(root, 'ro/out')}: EROFS: read-only file system\n`,
  );
  assert.equal(read('render.status').trim(), '1');
  assert.equal(
    read('render.err'),
    `osm-krm render: cannot create --out ${join(root, 'ro/tree')}: EROFS: read-only file system\n`,
  );
});

test('a file hydrate wrote and the user then edited is said to be edited, not one hydrate did not write', () => {
  const src = copyExample('flux/source');
  const out = join(tempDir(), 'out');
  assert.equal(osmKrm(['hydrate', src, out], { env: EXAMPLE_SECRETS }).code, 0);
  appendFileSync(join(out, 'inputs/kube-system/machinedeployment_workers-a.yaml'), '# edited\n');
  writeFileSync(join(out, 'inputs/kube-system/configmap_mine.yaml'), 'apiVersion: v1\nkind: ConfigMap\n');
  const md = join(src, 'machinedeployment-workers-a.yaml');
  writeFileSync(md, readFileSync(md, 'utf8').replace('kubelet: 1.34.2', 'kubelet: 1.35.0'));
  writeFileSync(
    join(src, 'configmap-mine.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mine\n  namespace: kube-system\n',
  );
  const r = osmKrm(['hydrate', src, out], { env: EXAMPLE_SECRETS });
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    `osm-krm hydrate: refusing to overwrite 1 file(s) in ${out} that osm-krm hydrate did not write: inputs/kube-system/configmap_mine.yaml; and 1 file(s) in ${out} that were edited after osm-krm hydrate wrote them: inputs/kube-system/machinedeployment_workers-a.yaml (hydrate writes OUT from SRC: make the change in SRC, and restore these files)\n`,
  );
});
