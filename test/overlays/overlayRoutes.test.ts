// The worked example (examples/overlays) on every route, with the real tools: kpt (Kptfile pipeline, exec),
// kustomize (exec transformer, standalone kustomize v5 where installed; kubectl kustomize with the function
// image), `generate` (Argo CD) and `hydrate` (Flux) give the same manifests, with the overlay's files on the node,
// and never apply the overlay itself (local-config: no cluster has its kind).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import {
  BUNDLE,
  EXAMPLE_IMAGE,
  EXAMPLE_SECRETS,
  EXAMPLES,
  byIdentity,
  copyTree,
  isLocalConfig,
  objectsInFiles,
  parseStream,
  runOk,
  secretText,
  tempDir,
  toolEnv,
} from '../gitops/support.ts';

const EXAMPLE = join(EXAMPLES, 'overlays');
const env = () => toolEnv(EXAMPLE_SECRETS);
const applied = (objects: any[]) =>
  byIdentity(
    objects.filter((o) => !isLocalConfig(o) && o.kind !== 'OperatingSystemManager' && o.kind !== 'Kustomization'),
  );
const FLUX_SUBSTITUTE_KEY = 'kustomize.toolkit.fluxcd.io/substitute';

const EXPECTED = [
  'cluster.k8s.io/v1alpha1/MachineDeployment/kube-system/workers',
  'operatingsystemmanager.k8c.io/v1alpha1/OperatingSystemConfig/kube-system/workers-kube-system-config',
  'v1/Secret/cloud-init-settings/kube-system-workers-kubelet-bootstrap-config',
  'v1/Secret/cloud-init-settings/workers-kube-system-bootstrap-config',
  'v1/Secret/cloud-init-settings/workers-kube-system-provisioning-config',
];

function kptRender(): Record<string, any> {
  const pkg = copyTree(EXAMPLE, join(tempDir(), 'pkg'));
  runOk('kpt', ['fn', 'render', pkg, '--allow-exec'], { env: env() });
  // The overlay's file is kept byte for byte (kpt writes the package back).
  assert.equal(readFileSync(join(pkg, 'overlay.yaml'), 'utf8'), readFileSync(join(EXAMPLE, 'overlay.yaml'), 'utf8'));
  return applied(objectsInFiles(pkg, (rel) => !rel.startsWith('.')));
}

/** A kustomization over a copy of the example: its inputs as resources, osm-krm as a transformer. */
function kustomization(fn: string): string {
  const dir = copyTree(EXAMPLE, join(tempDir(), 'kustomize'));
  const config = readFileSync(join(dir, 'osm-config.yaml'), 'utf8').replace(
    '    config.kubernetes.io/local-config: "true"\n',
    `    config.kubernetes.io/function: |\n${fn
      .split('\n')
      .map((l) => `      ${l}`)
      .join('\n')}\n`,
  );
  writeFileSync(join(dir, 'osm.yaml'), config);
  writeFileSync(
    join(dir, 'kustomization.yaml'),
    'resources:\n  - overlay.yaml\n  - machinedeployment-workers.yaml\n  - cluster-info.yaml\ntransformers:\n  - osm.yaml\n',
  );
  return dir;
}

test('kpt, generate and hydrate give the same manifests; the provisioning config carries the overlay; the overlay is never applied', () => {
  const kpt = kptRender();
  assert.deepEqual(Object.keys(kpt), EXPECTED);
  const provisioning = secretText(Object.values(kpt), 'workers-kube-system-provisioning-config');
  for (const p of [
    '/usr/local/share/ca-certificates/company-ca.crt',
    '/etc/sysctl.d/90-company.conf',
    '/etc/systemd/system/containerd.service.d/50-company.conf',
    '/etc/systemd/system/setup.service.d/overlay-01-ubuntu-company.conf',
  ])
    assert.ok(provisioning.includes(`path: '${p}'`), p);
  assert.match(provisioning, /OOMScoreAdjust=-999/);
  assert.match(
    kpt['operatingsystemmanager.k8c.io/v1alpha1/OperatingSystemConfig/kube-system/workers-kube-system-config'].metadata
      .annotations['k8c.io/osp-version'],
    /^v1\.0\.0\+ov-[0-9a-f]{12}$/,
  );

  const generate = applied(
    parseStream(runOk(process.execPath, [BUNDLE, 'generate'], { cwd: EXAMPLE, env: env() }).stdout),
  );
  assert.deepEqual(generate, kpt, 'generate vs kpt');

  const out = join(tempDir(), 'out');
  runOk(process.execPath, [BUNDLE, 'hydrate', EXAMPLE, out], { env: env() });
  const hydrate = applied(objectsInFiles(out, (rel) => rel !== 'kustomization.yaml'));
  assert.ok(
    !existsSync(join(out, 'inputs', 'kube-system', 'OperatingSystemProfileOverlay_ubuntu-company.yaml')),
    'hydrate writes no overlay for Flux to apply',
  );
  for (const o of Object.values<any>(hydrate)) {
    if (o.kind === 'MachineDeployment') continue;
    assert.equal(o.metadata.annotations[FLUX_SUBSTITUTE_KEY], 'disabled');
    delete o.metadata.annotations[FLUX_SUBSTITUTE_KEY];
    if (Object.keys(o.metadata.annotations).length === 0) delete o.metadata.annotations;
  }
  assert.deepEqual(hydrate, kpt, 'hydrate vs kpt');
});

test('kustomize: the function as a transformer (exec with the standalone kustomize, else the image with kubectl kustomize)', (t) => {
  const kpt = kptRender();
  const standalone = spawnSync('kustomize', ['version'], { encoding: 'utf8' }).status === 0;
  let out: string;
  if (standalone) {
    out = runOk(
      'kustomize',
      ['build', '--enable-alpha-plugins', '--enable-exec', kustomization(`exec:\n  path: ${BUNDLE}`)],
      { env: env() },
    ).stdout;
  } else {
    if (spawnSync('podman', ['image', 'exists', EXAMPLE_IMAGE]).status !== 0)
      return t.skip(`no standalone kustomize, and no ${EXAMPLE_IMAGE} (scripts/test-images.sh)`);
    out = runOk(
      'kubectl',
      [
        'kustomize',
        '--enable-alpha-plugins',
        kustomization(
          `container:\n  image: ${EXAMPLE_IMAGE}\n  envs: [OSM_CLOUD_INIT_GETTER_TOKEN, OSM_BOOTSTRAP_TOKEN]`,
        ),
      ],
      { env: env() },
    ).stdout;
  }
  const objects = parseStream(out);
  // kustomize hands the local-config overlay to the transformer and leaves it out of what it builds.
  assert.ok(!objects.some((o) => o.kind === 'OperatingSystemProfileOverlay'));
  assert.deepEqual(applied(objects), kpt);
});

test('an overlay without local-config fails every route with the fix, and nothing is generated', () => {
  const dir = copyTree(EXAMPLE, join(tempDir(), 'unmarked'));
  const file = join(dir, 'overlay.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('    config.kubernetes.io/local-config: "true"\n', ''));
  const r = spawnSync(process.execPath, [BUNDLE, 'generate'], { cwd: dir, env: env(), encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    /overlay\.yaml.*annotate it config\.kubernetes\.io\/local-config: "true"|annotate it config\.kubernetes\.io\/local-config: "true"/,
  );
});
