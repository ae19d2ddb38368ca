// RHEL subscription secrets from the config on every route that outputs the MachineDeployment: the applied
// MachineDeployment carries them (machine-controller needs them to unregister a machine), the user's file never
// does, and with kpt and hydrate they are written only under osm-generated/.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  BUNDLE,
  EXAMPLE_IMAGE,
  EXAMPLE_SECRETS,
  EXAMPLES,
  ORCHESTRATOR_ANNOTATION,
  byIdentity,
  changedPaths,
  isLocalConfig,
  mkdirp,
  objectsInFiles,
  parseStream,
  run,
  runOk,
  snapshot,
  tempDir,
  toolEnv,
} from './support.ts';

const PASSWORD = 'rhsm-route-password-7f3a';
const USER = 'rhsm-route-user';
const MD_ID = 'cluster.k8s.io/v1alpha1/MachineDeployment/kube-system/rhel-workers';
const COPY = 'osm-generated/kube-system/rhel-workers/machinedeployment_rhel-workers.yaml';

const SOURCE_MD = `# RHEL workers; the subscription secrets come from the osm-krm config, never from this file.
apiVersion: cluster.k8s.io/v1alpha1
kind: MachineDeployment
metadata:
  name: rhel-workers
  namespace: kube-system
  annotations:
    k8c.io/operating-system-profile: osp-rhel
    config.kubernetes.io/local-config: "true" # the applied copy is generated
spec:
  replicas: 1
  template:
    spec:
      providerSpec:
        value:
          cloudProvider: aws
          cloudProviderSpec: {region: eu-central-1}
          operatingSystem: rhel
          operatingSystemSpec:
            attachSubscription: true
      versions:
        kubelet: 1.34.2
`;

function config(secretFile: string): string {
  return `apiVersion: osm-krm.dev/v1alpha1
kind: OperatingSystemManager
metadata:
  name: osm
  annotations:
    config.kubernetes.io/local-config: "true"
spec:
  clusterDNS: [10.96.0.10]
  cluster:
    cloudInitGetterToken: {env: OSM_CLOUD_INIT_GETTER_TOKEN}
    bootstrapToken: {env: OSM_BOOTSTRAP_TOKEN}
  rhelSubscription:
    all:
      rhelSubscriptionManagerUser: {env: OSM_RHSM_USER}
      rhelSubscriptionManagerPassword: {file: ${secretFile}}
`;
}

/** A package directory: the kpt example's Kptfile and cluster facts, a RHEL MachineDeployment, the config. */
function fixture(): { dir: string; secrets: string } {
  const root = tempDir('osm-krm-rhel-');
  const secrets = mkdirp(join(root, 'secrets'));
  writeFileSync(join(secrets, 'rhel-subscription-manager-password'), `${PASSWORD}\n`);
  const dir = mkdirp(join(root, 'pkg'));
  for (const f of ['Kptfile', 'cluster-info.yaml']) cpSync(join(EXAMPLES, 'kpt', f), join(dir, f));
  writeFileSync(join(dir, 'machinedeployment-rhel.yaml'), SOURCE_MD);
  writeFileSync(join(dir, 'osm-config.yaml'), config(join(secrets, 'rhel-subscription-manager-password')));
  return { dir, secrets };
}

// The secret file lies outside the package: absolute {file:} paths are read only from the directories named
// where osm-krm runs (OSM_KRM_FILE_ROOTS, or the secrets directory).
const ENV = (secrets?: string) =>
  toolEnv({
    ...EXAMPLE_SECRETS,
    OSM_RHSM_USER: USER,
    ...(secrets !== undefined ? { OSM_KRM_FILE_ROOTS: secrets } : {}),
  });

/** The applied objects have exactly one MachineDeployment, with the secrets; returns it. */
function checkApplied(objects: any[], route: string): any {
  const applied = objects.filter((o) => !isLocalConfig(o) && o.kind !== 'OperatingSystemManager');
  const mds = applied.filter((o) => o.kind === 'MachineDeployment');
  assert.equal(mds.length, 1, `${route}: ${mds.length} MachineDeployments applied`);
  const spec = mds[0].spec.template.spec.providerSpec.value.operatingSystemSpec;
  assert.deepEqual(
    spec,
    { attachSubscription: true, rhelSubscriptionManagerUser: USER, rhelSubscriptionManagerPassword: PASSWORD },
    route,
  );
  const secret = applied.find(
    (o) => o.kind === 'Secret' && o.metadata.name === 'rhel-workers-kube-system-bootstrap-config',
  );
  assert.match(
    Buffer.from(secret.data['cloud-config'], 'base64').toString(),
    new RegExp(`password: ${PASSWORD}\\n`),
    route,
  );
  return byIdentity(applied);
}

/** No file outside osm-generated/ holds a secret. */
function checkNoSecretInUserFiles(dir: string, route: string): void {
  for (const [rel, text] of snapshot(dir)) {
    if (rel.startsWith('osm-generated/')) continue;
    assert.ok(!text.includes(PASSWORD) && !text.includes(USER), `${route}: ${rel} holds a subscription secret`);
  }
}

test('kpt fn render: the source stays byte for byte, the copy with the secrets lands under osm-generated/, a second render changes nothing', () => {
  const { dir, secrets } = fixture();
  const before = snapshot(dir);
  runOk('kpt', ['fn', 'render', dir, '--allow-exec'], { env: ENV(secrets) });
  const after = snapshot(dir);
  assert.equal(after.get('machinedeployment-rhel.yaml'), SOURCE_MD);
  assert.ok(
    changedPaths(before, after).every((p) => p.startsWith('osm-generated/')),
    changedPaths(before, after).join(', '),
  );
  assert.ok(after.get(COPY)!.includes(PASSWORD));
  checkNoSecretInUserFiles(dir, 'kpt');
  const kpt = checkApplied(
    objectsInFiles(dir, (rel) => !rel.startsWith('.')),
    'kpt',
  );
  assert.ok(!isLocalConfig(kpt[MD_ID]));

  runOk('kpt', ['fn', 'render', dir, '--allow-exec'], { env: ENV(secrets) });
  assert.deepEqual(changedPaths(after, snapshot(dir)), []);
});

test('generate (Argo CD): one MachineDeployment with the secrets; a mounted secret file works, Git sources are refused', () => {
  const { dir, secrets } = fixture();
  const objects = parseStream(runOk(process.execPath, [BUNDLE, 'generate'], { cwd: dir, env: ENV(secrets) }).stdout);
  const applied = checkApplied(objects, 'generate');
  for (const k of Object.keys(applied[MD_ID].metadata.annotations)) assert.doesNotMatch(k, ORCHESTRATOR_ANNOTATION);
  assert.equal(objects.length, Object.keys(applied).length, 'generate prints only applied manifests');

  // The password from the sidecar's mounted Secret (OSM_KRM_SECRETS_DIR), with no source in the config.
  writeFileSync(join(dir, 'osm-config.yaml'), config('x').replace(/\n {6}rhelSubscriptionManagerPassword: .*\n/, '\n'));
  const mounted = parseStream(
    runOk(process.execPath, [BUNDLE, 'generate'], { cwd: dir, env: { ...ENV(secrets), OSM_KRM_SECRETS_DIR: secrets } })
      .stdout,
  );
  checkApplied(mounted, 'generate, mounted file');

  // A relative file is a file in Git.
  writeFileSync(join(dir, 'osm-config.yaml'), config('secrets/password'));
  const relative = run(process.execPath, [BUNDLE, 'generate'], { cwd: dir, env: ENV(secrets) });
  assert.notEqual(relative.status, 0);
  assert.equal(relative.stdout, '');
  assert.match(
    relative.stderr,
    /spec\.rhelSubscription\.all\.rhelSubscriptionManagerPassword\.file "secrets\/password" is relative, i\.e\. a file in Git/,
  );

  // A Secret in the app directory is in Git too.
  writeFileSync(
    join(dir, 'osm-config.yaml'),
    config('x').replace('{file: x}', '{secretKeyRef: {namespace: osm, name: rhsm, key: password}}'),
  );
  const fromSecret = run(process.execPath, [BUNDLE, 'generate'], { cwd: dir, env: ENV(secrets) });
  assert.notEqual(fromSecret.status, 0);
  assert.match(
    fromSecret.stderr,
    /spec\.rhelSubscription\.all\.rhelSubscriptionManagerPassword\.secretKeyRef names a Secret in the app directory, i\.e\. in Git/,
  );
});

test('hydrate (Flux): the copy is written under osm-generated/ and listed, the source is not written, kustomize builds one MachineDeployment', () => {
  const { dir, secrets } = fixture();
  const out = join(tempDir(), 'out');
  runOk(process.execPath, [BUNDLE, 'hydrate', dir, out], { env: ENV(secrets) });
  const files = snapshot(out);
  assert.ok(files.get(COPY)!.includes(PASSWORD));
  assert.ok(
    ![...files.keys()].some((rel) => rel.startsWith('inputs/') && rel.includes('machinedeployment')),
    [...files.keys()].join(', '),
  );
  checkNoSecretInUserFiles(out, 'hydrate');
  checkNoSecretInUserFiles(dir, 'hydrate SRC');
  checkApplied(parseStream(runOk('kubectl', ['kustomize', out]).stdout), 'hydrate + kustomize');
  runOk(process.execPath, [BUNDLE, 'hydrate', dir, out], { env: ENV(secrets) });
  assert.deepEqual(changedPaths(files, snapshot(out)), []);
});

test('the function on stdin/stdout: the output ResourceList holds the injected MachineDeployment, once', () => {
  const { dir, secrets } = fixture();
  const items = [SOURCE_MD, readFileSync(join(dir, 'cluster-info.yaml'), 'utf8')].flatMap(parseStream);
  const fnConfig = parseStream(readFileSync(join(dir, 'osm-config.yaml'), 'utf8'))[0];
  const input = JSON.stringify({
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items,
    functionConfig: fnConfig,
  });
  const out = parseStream(runOk(process.execPath, [BUNDLE], { env: ENV(secrets), input }).stdout)[0];
  checkApplied(out.items, 'stdin/stdout');
  assert.ok(!JSON.stringify(out.results ?? []).includes(PASSWORD));
});

test('kustomize (container transformer): the MachineDeployment in the build output carries the secrets, once', () => {
  const { dir, secrets } = fixture();
  rmSync(join(dir, 'Kptfile'));
  const fn = readFileSync(join(dir, 'osm-config.yaml'), 'utf8')
    .replace(
      '    config.kubernetes.io/local-config: "true"\n',
      `    config.kubernetes.io/function: |
      container:
        image: ${EXAMPLE_IMAGE}
        envs: [OSM_CLOUD_INIT_GETTER_TOKEN, OSM_BOOTSTRAP_TOKEN, OSM_RHSM_USER, OSM_RHSM_PASSWORD]
`,
    )
    .replace(/\{file: [^}]*\}/, '{env: OSM_RHSM_PASSWORD}');
  writeFileSync(join(dir, 'osm.yaml'), fn);
  rmSync(join(dir, 'osm-config.yaml'));
  writeFileSync(
    join(dir, 'kustomization.yaml'),
    'resources: [cluster-info.yaml, machinedeployment-rhel.yaml]\ntransformers: [osm.yaml]\n',
  );
  const env = { ...ENV(secrets), OSM_RHSM_PASSWORD: PASSWORD, OSM_KRM_SHIM_IMAGE: EXAMPLE_IMAGE };
  const objects = parseStream(runOk('kubectl', ['kustomize', '--enable-alpha-plugins', dir], { env }).stdout);
  const applied = checkApplied(objects, 'kustomize');
  for (const k of Object.keys(applied[MD_ID].metadata.annotations)) assert.doesNotMatch(k, ORCHESTRATOR_ANNOTATION);
  assert.ok(!objects.some(isLocalConfig));

  // An unmarked source (kustomize writes nothing back) is replaced by the copy just the same.
  writeFileSync(join(dir, 'machinedeployment-rhel.yaml'), SOURCE_MD.replace(/\n.*local-config.*\n/, '\n'));
  checkApplied(
    parseStream(runOk('kubectl', ['kustomize', '--enable-alpha-plugins', dir], { env }).stdout),
    'kustomize, unmarked source',
  );
});
