// Argo CD route: plugin.yaml's `generate` command run the way argocd-cmp-server runs it (working directory the
// app path, the Application's plugin env and parameters as ARGOCD_ENV_* / ARGOCD_APP_PARAMETERS / PARAM_*,
// the sidecar's env with the mounted secrets), plus the sidecar Dockerfile and the repo-server patch.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/paths.ts';
import { normaliseName, readPluginSettings, TYPED_SETTING_NAMES } from '../../src/cli/argocdParameters.ts';
import { runArgoCDGenerateCommand } from '../../src/cli/argocdGenerateCommand.ts';
import { CMP_IMAGE, EXAMPLE_MANIFESTS, EXAMPLE_SECRETS, EXAMPLES, ORCHESTRATOR_ANNOTATION, byIdentity, copyTree, exampleStateText, identity, isLocalConfig, mkdirp, parseStream, run, runOk, secretRevision, secretText, tempDir, toolEnv } from './support.ts';

const ARGOCD = join(EXAMPLES, 'argocd');
const plugin = parse(readFileSync(join(REPO_ROOT, 'plugin.yaml'), 'utf8'));
const application = parse(readFileSync(join(ARGOCD, 'application.yaml'), 'utf8'));

/** A mounted Secret as the sidecar patch mounts it: one file per key. */
function secretsDir(keys: Record<string, string> = { 'cloud-init-getter-token': EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN, 'bootstrap-token': EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN }): string {
  const d = tempDir('osm-krm-secrets-');
  for (const [k, v] of Object.entries(keys)) writeFileSync(join(d, k), v);
  return d;
}

const paramEnvName = (name: string) => `PARAM_${name.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`;

/** The environment argocd-cmp-server gives `generate` for an Application (reposerver getPluginEnvs). */
function pluginEnv(app: any, sidecar: Record<string, string>): Record<string, string> {
  const src = app.spec.source;
  const env: Record<string, string> = {
    ...sidecar,
    ARGOCD_APP_NAME: app.metadata.name,
    ARGOCD_APP_NAMESPACE: app.spec.destination.namespace ?? '',
    ARGOCD_APP_PROJECT_NAME: app.spec.project,
    ARGOCD_APP_REVISION: '0123456789abcdef0123456789abcdef01234567',
    ARGOCD_APP_REVISION_SHORT: '0123456',
    ARGOCD_APP_REVISION_SHORT_8: '01234567',
    ARGOCD_APP_SOURCE_PATH: src.path,
    ARGOCD_APP_SOURCE_REPO_URL: src.repoURL,
    ARGOCD_APP_SOURCE_TARGET_REVISION: src.targetRevision,
    KUBE_VERSION: '1.34.2',
    KUBE_API_VERSIONS: 'v1,apps/v1,cluster.k8s.io/v1alpha1,operatingsystemmanager.k8c.io/v1alpha1',
  };
  for (const e of src.plugin.env ?? []) env[`ARGOCD_ENV_${e.name}`] = e.value;
  const params = src.plugin.parameters ?? [];
  if (params.length > 0) env.ARGOCD_APP_PARAMETERS = JSON.stringify(params);
  for (const p of params) {
    if (p.string !== undefined) env[paramEnvName(p.name)] = p.string;
    (p.array ?? []).forEach((v: string, i: number) => (env[`${paramEnvName(p.name)}_${i}`] = v));
    for (const [k, v] of Object.entries(p.map ?? {})) env[`${paramEnvName(p.name)}_${k.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`] = v as string;
  }
  return env;
}

/** Runs plugin.yaml's generate command in `appDir`, as argocd-cmp-server does. */
function generate(appDir: string, opts: { app?: any; secrets?: string; extraEnv?: Record<string, string> } = {}) {
  const [cmd, ...args] = [...plugin.spec.generate.command, ...(plugin.spec.generate.args ?? [])];
  const sidecar = toolEnv({ OSM_KRM_SECRETS_DIR: opts.secrets ?? secretsDir(), ...(opts.extraEnv ?? {}) });
  return run(cmd, args, { cwd: appDir, env: pluginEnv(opts.app ?? application, sidecar) });
}

function appCopy(): string {
  return copyTree(join(ARGOCD, 'app'), join(tempDir('osm-krm-argocd-'), 'app'));
}

/** The example app without cluster-info (kustomize would drop it): server and CA come from the config. */
function appWithFactsInConfig(): string {
  const app = appCopy();
  const info = parse(readFileSync(join(app, 'cluster-info.yaml'), 'utf8'));
  const kubeconfig = parse(info.data.kubeconfig);
  writeFileSync(join(app, 'ca.crt'), Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64'));
  rmSync(join(app, 'cluster-info.yaml'));
  const config = join(app, 'osm-config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8') + `  cluster:\n    server: ${kubeconfig.clusters[0].cluster.server}\n    caCert:\n      file: ca.crt\n`);
  return app;
}

function assertOnlyManifests(stdout: string): any[] {
  const objects = parseStream(stdout);
  for (const o of objects) {
    assert.ok(typeof o.apiVersion === 'string' && typeof o.kind === 'string' && typeof o.metadata?.name === 'string', `not a Kubernetes object: ${JSON.stringify(o).slice(0, 200)}`);
    assert.ok(!isLocalConfig(o), `${identity(o)} is local-config`);
    assert.notEqual(o.kind, 'OperatingSystemManager');
    for (const k of Object.keys(o.metadata.annotations ?? {})) assert.doesNotMatch(k, ORCHESTRATOR_ANNOTATION, `${identity(o)} keeps ${k}`);
  }
  // Argo CD reads the stream with sigs.k8s.io/yaml (YAML 1.1): every value must read back the same.
  assert.deepEqual(parseStream(stdout), parse(`[${stdout.split(/^---$/m).map((d) => JSON.stringify(parse(d, { version: '1.1' }))).join(',')}]`));
  return objects;
}

test('plugin.yaml is a ConfigManagementPlugin v2 whose settings generate understands', () => {
  assert.equal(plugin.apiVersion, 'argoproj.io/v1alpha1');
  assert.equal(plugin.kind, 'ConfigManagementPlugin');
  assert.equal(plugin.metadata.name, 'osm-krm');
  assert.deepEqual(plugin.spec.generate.command, ['osm-krm', 'generate']);
  assert.equal(plugin.spec.lockRepo, undefined, 'lockRepo is for the removed argocd-cm plugins');
  assert.equal(plugin.spec.discover, undefined, 'Applications name the plugin');
  // The example Application names this plugin (no spec.version, so the bare name).
  assert.equal(application.spec.source.plugin.name, plugin.metadata.name);
  for (const p of plugin.spec.parameters.static) {
    assert.ok(p.name === 'config' || TYPED_SETTING_NAMES.includes(normaliseName(p.name)), `announced parameter ${p.name} is not a generate setting`);
  }
});

test('generate, as Argo CD runs it on the example app, prints only the manifests', () => {
  const r = generate(join(ARGOCD, 'app'));
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const objects = assertOnlyManifests(r.stdout);
  assert.deepEqual(objects.map(identity).sort(), EXAMPLE_MANIFESTS);
  // Secrets from the mounted files.
  assert.match(secretText(objects, 'workers-b-kube-system-bootstrap-config'), /Bearer example-cloud-init-getter-token/);
  assert.match(secretText(objects, 'kube-system-workers-b-kubelet-bootstrap-config'), /token: abcdef\.0123456789abcdef/);
  // ARGOCD_ENV_GITOPS_SYNC_ANNOTATIONS=argocd from the Application's plugin env.
  const secret = objects.find((o) => o.metadata.name === 'workers-a-kube-system-bootstrap-config');
  assert.equal(secret.metadata.annotations['argocd.argoproj.io/sync-options'], 'Force=true,Replace=true');
});

test('parameters override the config file, and win over plugin env entries of the same name', () => {
  const app = structuredClone(application);
  app.spec.source.plugin.parameters = [{ name: 'cluster-dns', array: ['10.0.0.10', '10.0.0.11'] }];
  app.spec.source.plugin.env = [{ name: 'CLUSTER_DNS', value: '10.9.9.9' }];
  const r = generate(join(ARGOCD, 'app'), { app });
  assert.equal(r.status, 0, r.stderr);
  const osc = parseStream(r.stdout).find((o) => o.kind === 'OperatingSystemConfig');
  assert.match(JSON.stringify(osc.spec.provisioningConfig), /cluster DNS 10\.0\.0\.10,10\.0\.0\.11/);
  // Without ARGOCD_APP_PARAMETERS (older Argo CD), PARAM_<NAME> is read.
  const scalar = run(plugin.spec.generate.command[0], plugin.spec.generate.command.slice(1), {
    cwd: join(ARGOCD, 'app'),
    env: toolEnv({ OSM_KRM_SECRETS_DIR: secretsDir(), PARAM_CLUSTER_DNS: '10.1.1.1' }),
  });
  assert.equal(scalar.status, 0, scalar.stderr);
  assert.match(scalar.stdout, /cluster DNS 10\.1\.1\.1'/);
});

test('an unknown plugin setting fails with a message naming it', () => {
  const app = structuredClone(application);
  app.spec.source.plugin.env = [{ name: 'CLUSTERDNS', value: '10.0.0.10' }];
  const r = generate(join(ARGOCD, 'app'), { app });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /ARGOCD_ENV_CLUSTERDNS: "clusterdns" cannot be set/);
});

test('a function error: exit 1, nothing on stdout, the reason on stderr', () => {
  const app = appCopy();
  const md = join(app, 'machinedeployment-workers-a.yaml');
  writeFileSync(md, readFileSync(md, 'utf8').replace('operating-system-profile: example-ubuntu', 'operating-system-profile: no-such-profile'));
  const r = generate(app);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /MachineDeployment kube-system\/workers-a .*\(machinedeployment-workers-a\.yaml\): .*no-such-profile/);
  assert.match(r.stderr, /osm-krm generate: no manifests printed/);
});

test('without the mounted secrets generate fails instead of rendering without them', () => {
  const r = generate(join(ARGOCD, 'app'), { secrets: join(tempDir(), 'missing') });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /missing cluster fact: the cloud-init-getter token/);
});

test('cluster secrets in Git are refused: a token Secret in the app, an inline token, a relative token file', () => {
  const withSecret = appCopy();
  writeFileSync(join(withSecret, 'token.yaml'), 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: cloud-init-getter-token\n  namespace: cloud-init-settings\n  annotations:\n    config.kubernetes.io/local-config: "true"\nstringData:\n  token: in-git\n');
  const inline = appCopy();
  const config = join(inline, 'osm-config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8') + '  cluster:\n    cloudInitGetterToken: in-git\n');
  const relativeFile = appCopy();
  writeFileSync(join(relativeFile, 'osm-config.yaml'), readFileSync(join(relativeFile, 'osm-config.yaml'), 'utf8') + '  cluster:\n    bootstrapToken:\n      file: token.txt\n');
  for (const [dir, message] of [
    [withSecret, /Secret cloud-init-settings\/cloud-init-getter-token \(token\.yaml\) puts a cluster secret in Git/],
    [inline, /spec\.cluster\.cloudInitGetterToken is given inline, i\.e\. from Git/],
    [relativeFile, /spec\.cluster\.bootstrapToken\.file "token\.txt" is relative/],
  ] as const) {
    const r = generate(dir);
    assert.equal(r.status, 1, r.stdout);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message);
  }
});

test('a kustomization app is built with kustomize (kubectl kustomize here) and gives the same manifests', () => {
  const app = appWithFactsInConfig();
  writeFileSync(join(app, 'kustomization.yaml'), 'resources:\n  - operatingsystemprofile.yaml\n  - machinedeployment-workers-a.yaml\n  - machinedeployment-workers-b.yaml\ncommonLabels:\n  team: platform\n');
  const r = generate(app);
  assert.equal(r.status, 0, r.stderr);
  const objects = assertOnlyManifests(r.stdout);
  assert.deepEqual(objects.map(identity).sort(), EXAMPLE_MANIFESTS);
  // kustomize ran (its label is on the inputs) and the generated Secrets are those of the plain app.
  assert.equal(objects.find((o) => o.kind === 'MachineDeployment').metadata.labels.team, 'platform');
  const plain = byIdentity(parseStream(generate(join(ARGOCD, 'app')).stdout));
  const built = byIdentity(objects);
  for (const id of EXAMPLE_MANIFESTS.filter((i) => i.includes('/Secret/'))) assert.deepEqual(built[id], plain[id], id);
});

test('a kustomization app reads the committed state: revisions from it reach the Secrets', () => {
  const app = appWithFactsInConfig();
  mkdirp(join(app, 'osm-generated', 'state'));
  writeFileSync(join(app, 'osm-generated', 'state', 'osm-krm-state.yaml'), exampleStateText('3'));
  // Listed or not, the state reaches the function once (kustomize drops it from the build as local-config;
  // one written without that annotation comes through the build).
  const statePath = join(app, 'osm-generated', 'state', 'osm-krm-state.yaml');
  for (const [listed, localConfig] of [[false, true], [true, true], [true, false]]) {
    if (!localConfig) writeFileSync(statePath, readFileSync(statePath, 'utf8').replace(/\n  annotations:\n    config.kubernetes.io\/local-config: "true"/, ''));
    writeFileSync(join(app, 'kustomization.yaml'), `resources:\n  - operatingsystemprofile.yaml\n  - machinedeployment-workers-a.yaml\n  - machinedeployment-workers-b.yaml\n${listed ? '  - osm-generated/state/osm-krm-state.yaml\n' : ''}`);
    const r = generate(app);
    assert.equal(r.status, 0, r.stderr);
    const objects = assertOnlyManifests(r.stdout);
    assert.ok(!objects.some((o) => o.metadata.name === 'osm-krm-state'), 'the state is never applied');
    assert.equal(secretRevision(objects, 'workers-a-kube-system-bootstrap-config'), '3', `listed: ${listed}`);
    assert.equal(secretRevision(objects, 'workers-b-kube-system-bootstrap-config'), '1', `listed: ${listed}`);
  }
});

test('settings without a config file, or over a ConfigMap of OSM flags named by the `config` setting', () => {
  const noConfig = appCopy();
  rmSync(join(noConfig, 'osm-config.yaml'));
  const cmConfig = appCopy();
  rmSync(join(cmConfig, 'osm-config.yaml'));
  mkdirSync(join(cmConfig, 'settings'));
  writeFileSync(join(cmConfig, 'settings', 'osm-flags.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: osm-flags\n  annotations:\n    config.kubernetes.io/local-config: "true"\ndata:\n  cluster-dns: 10.3.3.3\n');
  for (const [dir, env, dns] of [
    [noConfig, { ARGOCD_ENV_CLUSTER_DNS: '10.2.2.2' }, '10.2.2.2'],
    [cmConfig, { PARAM_CONFIG: 'settings/osm-flags.yaml' }, '10.3.3.3'],
    [cmConfig, { PARAM_CONFIG: 'settings/osm-flags.yaml', ARGOCD_ENV_CLUSTER_DNS: '10.4.4.4' }, '10.4.4.4'],
  ] as const) {
    let stdout = '';
    let stderr = '';
    const code = runArgoCDGenerateCommand([], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: dir, env: { ...toolEnv({ OSM_KRM_SECRETS_DIR: secretsDir() }), ...env } });
    assert.equal(code, 0, stderr);
    const objects = assertOnlyManifests(stdout);
    assert.deepEqual(objects.map(identity).sort(), EXAMPLE_MANIFESTS);
    assert.ok(stdout.includes(`cluster DNS ${dns}'`), `cluster DNS ${dns} expected`);
  }
});

test('plugin settings: ARGOCD_APP_PARAMETERS wins over PARAM_*, names are normalised, maps are refused', () => {
  const s = readPluginSettings({
    ARGOCD_ENV_cluster_dns: '1.1.1.1',
    ARGOCD_ENV_NAMESPACE: 'osm',
    PARAM_CLUSTER_DNS_0: 'ignored',
    ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: 'cluster-dns', array: ['10.0.0.1', '10.0.0.2'] }, { name: 'Pause Image', string: 'p:1' }]),
  });
  assert.deepEqual([...s.values()].map((v) => [v.name, v.value]).sort(), [['cluster-dns', '10.0.0.1,10.0.0.2'], ['namespace', 'osm'], ['pause-image', 'p:1']]);
  assert.throws(() => readPluginSettings({ ARGOCD_APP_PARAMETERS: '[{"name":"x","map":{"a":"b"}}]' }), /map parameters are not supported/);
  assert.throws(() => readPluginSettings({ ARGOCD_APP_PARAMETERS: '{' }), /not JSON/);
});

// --- the sidecar image ---------------------------------------------------------------------------------

interface Stage {
  from: string;
  name?: string;
  copies: Array<{ src: string; dst: string; chmod?: string }>;
  user?: string;
  entrypoint?: string[];
  env: Record<string, string>;
}

function dockerfileStages(): Stage[] {
  const lines = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [instr, ...rest] = line.trim().split(/\s+/);
    const stage = stages[stages.length - 1]!;
    switch (instr) {
      case 'FROM':
        stages.push({ from: rest[0]!, ...(rest[1]?.toUpperCase() === 'AS' ? { name: rest[2]! } : {}), copies: [], env: { ...(stages.find((s) => s.name === rest[0])?.env ?? {}) } });
        break;
      case 'COPY': {
        const chmod = rest.find((a) => a.startsWith('--chmod='))?.slice('--chmod='.length);
        const [src, dst] = rest.filter((a) => !a.startsWith('--'));
        stage.copies.push({ src: src!, dst: dst!, ...(chmod ? { chmod } : {}) });
        break;
      }
      case 'USER':
        stage.user = rest[0]!;
        break;
      case 'ENV': {
        const [name, ...value] = rest.join(' ').split('=');
        stage.env[name!] = value.join('=');
        break;
      }
      case 'ENTRYPOINT':
        stage.entrypoint = JSON.parse(rest.join(' '));
        break;
      default:
        throw new Error(`Dockerfile instruction ${instr} is not covered by this test`);
    }
  }
  return stages;
}

test('Dockerfile: pinned node base, copies files that exist after the build, sidecar entrypoint and user as Argo CD documents', () => {
  const stages = dockerfileStages();
  const sidecar = stages[stages.length - 1]!;
  const fn = stages.find((s) => s.name === 'function')!;
  assert.ok(fn, 'a "function" stage');
  // Pinned: an exact node 20 release (the bundle targets node20) or a digest.
  assert.match(fn.from, /^node:20\.\d+\.\d+(-[a-z0-9.-]+)?(@sha256:[0-9a-f]{64})?$|^node(:[^@]+)?@sha256:[0-9a-f]{64}$/);
  assert.equal(fn.from.split(':')[1]!.split('.')[0], process.versions.node.split('.')[0], 'the base image runs the Node major the tests run');
  // The default target (last stage) is the sidecar.
  assert.equal(sidecar.name, 'argocd-cmp');
  assert.deepEqual(sidecar.entrypoint, ['/var/run/argocd/argocd-cmp-server']);
  assert.equal(sidecar.user, '999');
  assert.ok(sidecar.copies.some((c) => c.src === 'plugin.yaml' && c.dst === '/home/argocd/cmp-server/config/plugin.yaml'));
  // Each image says which it is: the function's tells a missing variable that only passed-in ones are seen.
  assert.equal(fn.env.OSM_KRM_IMAGE, 'function');
  assert.equal(sidecar.env.OSM_KRM_IMAGE, 'argocd-cmp');
  // Every COPY source exists (npm run build made dist/) and passes .dockerignore's allow-list.
  const allowed = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n').filter((l) => l.startsWith('!')).map((l) => l.slice(1));
  for (const c of stages.flatMap((s) => s.copies)) {
    assert.ok(readFileSync(join(REPO_ROOT, c.src)).length > 0, `${c.src} is missing`);
    assert.ok(allowed.includes(c.src), `${c.src} is excluded by .dockerignore`);
  }
  // The sidecar patch runs the same entrypoint as the same user.
  const container = parse(readFileSync(join(ARGOCD, 'argocd-repo-server-patch.yaml'), 'utf8')).spec.template.spec.containers[0];
  assert.deepEqual(container.command, sidecar.entrypoint);
  assert.equal(String(container.securityContext.runAsUser), sidecar.user);
});

/** The sidecar as the repo-server patch runs it: its user, its env, the cluster secrets mounted where it says. */
function sidecarContainer() {
  const container = parse(readFileSync(join(ARGOCD, 'argocd-repo-server-patch.yaml'), 'utf8')).spec.template.spec.containers[0];
  const env: Record<string, string> = Object.fromEntries(container.env.map((e: any) => [e.name, e.value]));
  const secretsMount = container.volumeMounts.find((m: any) => m.name === 'osm-krm-secrets');
  return { user: String(container.securityContext.runAsUser), env, secretsMount };
}

/** Runs the argocd-cmp image's plugin.yaml `generate` as argocd-cmp-server does, and returns its output. */
function generateInImage(app: string, secrets: string, application_: any = application) {
  const sidecar = sidecarContainer();
  assert.equal(sidecar.secretsMount.readOnly, true);
  // argocd-cmp-server runs the plugin's command in the app's directory below its own temp dir.
  const appPath = '/tmp/_cmp_server/0f1e2d3c/examples/argocd/app';
  const env = pluginEnv(application_, sidecar.env);
  const [cmd, ...args] = [...plugin.spec.generate.command, ...(plugin.spec.generate.args ?? [])];
  const podmanArgs = ['run', '--rm', '-i', '--network', 'none', '--read-only', '--tmpfs', '/tmp', '--user', sidecar.user,
    '-v', `${app}:${appPath}:ro`, '-v', `${secrets}:${sidecar.secretsMount.mountPath}:ro`, '-w', appPath,
    ...Object.keys(env).flatMap((k) => ['-e', k]), '--entrypoint', cmd!, CMP_IMAGE, ...args];
  return { container: run('podman', podmanArgs, { env: { ...toolEnv(), ...env } }), env };
}

test('the argocd-cmp image: plugin.yaml\'s generate, as user 999 with the app read-only and the secrets mounted, prints the bundle\'s bytes', () => {
  // The image holds this plugin.yaml where argocd-cmp-server reads it.
  const baked = run('podman', ['run', '--rm', '--network', 'none', '--entrypoint', 'cat', CMP_IMAGE, '/home/argocd/cmp-server/config/plugin.yaml']);
  assert.equal(baked.stdout, readFileSync(join(REPO_ROOT, 'plugin.yaml'), 'utf8'));
  // Mounted Secret volumes are world-readable files (defaultMode 0644) in a directory the sidecar's user can enter.
  const secrets = secretsDir();
  chmodSync(secrets, 0o755);
  const app = appCopy();
  chmodSync(join(app, '..'), 0o755);
  // A parameter the config file does not hold, to see ARGOCD_APP_PARAMETERS reach the container.
  const withParams = structuredClone(application);
  withParams.spec.source.plugin.parameters = [{ name: 'cluster-dns', array: ['10.0.0.10'] }];
  const { container } = generateInImage(app, secrets, withParams);
  assert.equal(container.status, 0, container.stderr);
  assert.equal(container.stderr, '');
  assert.deepEqual(parseStream(container.stdout).map(identity).sort(), EXAMPLE_MANIFESTS);
  assert.match(container.stdout, /cluster DNS 10\.0\.0\.10'/);
  const host = generate(app, { secrets, app: withParams });
  assert.equal(host.status, 0, host.stderr);
  assert.equal(container.stdout, host.stdout);
  // Both secrets came from the mounted files, the sync annotations from ARGOCD_ENV_GITOPS_SYNC_ANNOTATIONS.
  assert.match(secretText(parseStream(container.stdout), 'workers-b-kube-system-bootstrap-config'), /Bearer example-cloud-init-getter-token/);
  assert.match(container.stdout, /argocd\.argoproj\.io\/sync-options: Force=true,Replace=true/);
});

test('the argocd-cmp image: without the mounted secrets generate fails with the reason, nothing on stdout', () => {
  const empty = tempDir('osm-krm-secrets-');
  chmodSync(empty, 0o755);
  const app = appCopy();
  chmodSync(join(app, '..'), 0o755);
  const { container } = generateInImage(app, empty);
  assert.equal(container.status, 1);
  assert.equal(container.stdout, '');
  assert.match(container.stderr, /missing cluster fact: the cloud-init-getter token/);
});

test('the repo-server patch applies (kubectl patch --local) and mounts what the plugin needs', () => {
  const dir = mkdirp(join(tempDir(), 'deploy'));
  const deployment = join(dir, 'argocd-repo-server.yaml');
  // The parts of Argo CD's install manifest the patch relies on: the var-files and plugins volumes.
  writeFileSync(deployment, `apiVersion: apps/v1
kind: Deployment
metadata:
  name: argocd-repo-server
  namespace: argocd
spec:
  selector:
    matchLabels: {app.kubernetes.io/name: argocd-repo-server}
  template:
    metadata:
      labels: {app.kubernetes.io/name: argocd-repo-server}
    spec:
      containers:
        - name: argocd-repo-server
          image: quay.io/argoproj/argocd:v3.1.0
      volumes:
        - {name: var-files, emptyDir: {}}
        - {name: plugins, emptyDir: {}}
`);
  const r = runOk('kubectl', ['patch', '--local', '-f', deployment, '--type', 'strategic', '--patch-file', join(ARGOCD, 'argocd-repo-server-patch.yaml'), '-o', 'yaml']);
  const spec = parse(r.stdout).spec.template.spec;
  assert.deepEqual(spec.containers.map((c: any) => c.name).sort(), ['argocd-repo-server', 'osm-krm']);
  const sidecar = spec.containers.find((c: any) => c.name === 'osm-krm');
  const volumes = new Set(spec.volumes.map((v: any) => v.name));
  const mounts = Object.fromEntries(sidecar.volumeMounts.map((m: any) => [m.mountPath, m.name]));
  for (const m of sidecar.volumeMounts) assert.ok(volumes.has(m.name), `volume ${m.name} is not defined`);
  assert.equal(mounts['/var/run/argocd'], 'var-files');
  assert.equal(mounts['/home/argocd/cmp-server/plugins'], 'plugins');
  assert.ok(mounts['/tmp'] && mounts['/tmp'] !== 'var-files', 'a private /tmp');
  const secretsEnv = sidecar.env.find((e: any) => e.name === 'OSM_KRM_SECRETS_DIR').value;
  assert.equal(spec.volumes.find((v: any) => v.name === mounts[secretsEnv]).secret.secretName, 'osm-krm-cluster-secrets');
  assert.equal(sidecar.securityContext.runAsNonRoot, true);
});
