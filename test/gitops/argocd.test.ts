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
import { deriveWindowToken, rotationWindows } from '../../src/cluster/derivedBootstrapToken.ts';
import { ARGOCD_LATEST, argocdPluginEnv, type ArgoCDVersion } from './argocdPluginEnv.ts';
import {
  CMP_IMAGE,
  EXAMPLE_MANIFESTS,
  EXAMPLE_SECRETS,
  EXAMPLES,
  ORCHESTRATOR_ANNOTATION,
  byIdentity,
  copyTree,
  exampleStateText,
  identity,
  isLocalConfig,
  mkdirp,
  parseStream,
  run,
  runOk,
  secretRevision,
  secretText,
  tempDir,
  toolEnv,
} from './support.ts';

const ARGOCD = join(EXAMPLES, 'argocd');
const plugin = parse(readFileSync(join(REPO_ROOT, 'plugin.yaml'), 'utf8'));
const application = parse(readFileSync(join(ARGOCD, 'application.yaml'), 'utf8'));

/** A mounted Secret as the sidecar patch mounts it: one file per key. */
function secretsDir(
  keys: Record<string, string> = {
    'cloud-init-getter-token': EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN,
    'bootstrap-token': EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN,
  },
): string {
  const d = tempDir('osm-krm-secrets-');
  for (const [k, v] of Object.entries(keys)) writeFileSync(join(d, k), v);
  return d;
}

/** The environment argocd-cmp-server gives `generate` for an Application (test/gitops/argocdPluginEnv.ts). */
function pluginEnv(
  app: any,
  sidecar: Record<string, string>,
  version: ArgoCDVersion = ARGOCD_LATEST,
): Record<string, string> {
  return argocdPluginEnv(app, sidecar, version);
}

/** Runs plugin.yaml's generate command in `appDir`, as argocd-cmp-server does. */
function generate(
  appDir: string,
  opts: { app?: any; secrets?: string; extraEnv?: Record<string, string>; version?: ArgoCDVersion } = {},
) {
  const [cmd, ...args] = [...plugin.spec.generate.command, ...(plugin.spec.generate.args ?? [])];
  const sidecar = toolEnv({ OSM_KRM_SECRETS_DIR: opts.secrets ?? secretsDir(), ...(opts.extraEnv ?? {}) });
  return run(cmd, args, { cwd: appDir, env: pluginEnv(opts.app ?? application, sidecar, opts.version) });
}

function appCopy(): string {
  return copyTree(join(ARGOCD, 'app'), join(tempDir('osm-krm-argocd-'), 'app'));
}

/** The example app without cluster-info (kustomize would drop it): server and CA come from the config. */
function appWithFactsInConfig(): string {
  const app = appCopy();
  const info = parse(readFileSync(join(app, 'cluster-info.yaml'), 'utf8'));
  const kubeconfig = parse(info.data.kubeconfig);
  writeFileSync(
    join(app, 'ca.crt'),
    Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64'),
  );
  rmSync(join(app, 'cluster-info.yaml'));
  const config = join(app, 'osm-config.yaml');
  writeFileSync(
    config,
    readFileSync(config, 'utf8') +
      `  cluster:\n    server: ${kubeconfig.clusters[0].cluster.server}\n    caCert:\n      file: ca.crt\n`,
  );
  return app;
}

function assertOnlyManifests(stdout: string): any[] {
  const objects = parseStream(stdout);
  for (const o of objects) {
    assert.ok(
      typeof o.apiVersion === 'string' && typeof o.kind === 'string' && typeof o.metadata?.name === 'string',
      `not a Kubernetes object: ${JSON.stringify(o).slice(0, 200)}`,
    );
    assert.ok(!isLocalConfig(o), `${identity(o)} is local-config`);
    assert.notEqual(o.kind, 'OperatingSystemManager');
    for (const k of Object.keys(o.metadata.annotations ?? {}))
      assert.doesNotMatch(k, ORCHESTRATOR_ANNOTATION, `${identity(o)} keeps ${k}`);
  }
  // Argo CD reads the stream with sigs.k8s.io/yaml (YAML 1.1): every value must read back the same.
  assert.deepEqual(
    parseStream(stdout),
    parse(
      `[${stdout
        .split(/^---$/m)
        .map((d) => JSON.stringify(parse(d, { version: '1.1' })))
        .join(',')}]`,
    ),
  );
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
    assert.ok(
      p.name === 'config' || TYPED_SETTING_NAMES.includes(normaliseName(p.name)),
      `announced parameter ${p.name} is not a generate setting`,
    );
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
  assert.match(
    secretText(objects, 'kube-system-workers-b-kubelet-bootstrap-config'),
    /token: abcdef\.0123456789abcdef/,
  );
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
  writeFileSync(
    md,
    readFileSync(md, 'utf8').replace(
      'operating-system-profile: example-ubuntu',
      'operating-system-profile: no-such-profile',
    ),
  );
  const r = generate(app);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    /MachineDeployment kube-system\/workers-a .*\(machinedeployment-workers-a\.yaml\): .*no-such-profile/,
  );
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
  writeFileSync(
    join(withSecret, 'token.yaml'),
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: cloud-init-getter-token\n  namespace: cloud-init-settings\n  annotations:\n    config.kubernetes.io/local-config: "true"\nstringData:\n  token: in-git\n',
  );
  const inline = appCopy();
  const config = join(inline, 'osm-config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8') + '  cluster:\n    cloudInitGetterToken: in-git\n');
  const relativeFile = appCopy();
  writeFileSync(
    join(relativeFile, 'osm-config.yaml'),
    readFileSync(join(relativeFile, 'osm-config.yaml'), 'utf8') +
      '  cluster:\n    bootstrapToken:\n      file: token.txt\n',
  );
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
  writeFileSync(
    join(app, 'kustomization.yaml'),
    'resources:\n  - operatingsystemprofile.yaml\n  - machinedeployment-workers-a.yaml\n  - machinedeployment-workers-b.yaml\ncommonLabels:\n  team: platform\n',
  );
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
  for (const [listed, localConfig] of [
    [false, true],
    [true, true],
    [true, false],
  ]) {
    if (!localConfig)
      writeFileSync(
        statePath,
        readFileSync(statePath, 'utf8').replace(/\n  annotations:\n    config.kubernetes.io\/local-config: "true"/, ''),
      );
    writeFileSync(
      join(app, 'kustomization.yaml'),
      `resources:\n  - operatingsystemprofile.yaml\n  - machinedeployment-workers-a.yaml\n  - machinedeployment-workers-b.yaml\n${listed ? '  - osm-generated/state/osm-krm-state.yaml\n' : ''}`,
    );
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
  writeFileSync(
    join(cmConfig, 'settings', 'osm-flags.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: osm-flags\n  annotations:\n    config.kubernetes.io/local-config: "true"\ndata:\n  cluster-dns: 10.3.3.3\n',
  );
  for (const [dir, env, dns] of [
    [noConfig, { ARGOCD_ENV_CLUSTER_DNS: '10.2.2.2' }, '10.2.2.2'],
    [cmConfig, { PARAM_CONFIG: 'settings/osm-flags.yaml' }, '10.3.3.3'],
    [cmConfig, { PARAM_CONFIG: 'settings/osm-flags.yaml', ARGOCD_ENV_CLUSTER_DNS: '10.4.4.4' }, '10.4.4.4'],
  ] as const) {
    let stdout = '';
    let stderr = '';
    const code = runArgoCDGenerateCommand([], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      cwd: dir,
      env: { ...toolEnv({ OSM_KRM_SECRETS_DIR: secretsDir() }), ...env },
    });
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
    ARGOCD_APP_PARAMETERS: JSON.stringify([
      { name: 'cluster-dns', array: ['10.0.0.1', '10.0.0.2'] },
      { name: 'Pause Image', string: 'p:1' },
    ]),
  });
  assert.deepEqual([...s.values()].map((v) => [v.name, v.value]).sort(), [
    ['cluster-dns', ['10.0.0.1', '10.0.0.2']],
    ['namespace', 'osm'],
    ['pause-image', 'p:1'],
  ]);
  assert.throws(
    () => readPluginSettings({ ARGOCD_APP_PARAMETERS: '[{"name":"x","map":{"a":"b"}}]' }),
    /map parameters are not supported/,
  );
  assert.throws(() => readPluginSettings({ ARGOCD_APP_PARAMETERS: '{' }), /not JSON/);
});

// --- values on the way into the sidecar (#24 §2) ---------------------------------------------------------

/** `openssl rand -base64 32`'s shape: ends in `=`. */
const BASE64_KEY = 'q8Vd1m7Z3oKx9YbT0c2LwE5hR4uN6sJfA1pQgH8iXyU=';
/** A mirror item (`registry=URL`) whose URL holds another `=` and a comma. */
const MIRROR = 'docker.io=https://mirror.example.com:5000/v2/library?ns=docker.io,quay.io';
const ROTATION_TIME = '1796083200';

/** An Application whose settings hold `=`, commas and an empty string, each in the form the README gives. */
function appWithHardValues(): any {
  const app = structuredClone(application);
  app.spec.source.plugin.env = [{ name: 'GITOPS_SYNC_ANNOTATIONS', value: 'argocd' }];
  app.spec.source.plugin.parameters = [
    { name: 'cluster-dns', array: ['10.96.0.10'] },
    { name: 'node-containerd-registry-mirrors', array: [MIRROR, 'quay.io=https://mirror.example.com:5000'] },
    { name: 'pause-image', string: '' },
    { name: 'bootstrap-token-rotation-period', string: '24h' },
    { name: 'bootstrap-token-rotation-overlap', string: '24h' },
  ];
  return app;
}

/** The mounted Secret with a derived-token key (base64, ending in `=`) instead of a fixed token. */
const keySecrets = () =>
  secretsDir({
    'cloud-init-getter-token': EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN,
    'bootstrap-token-key': BASE64_KEY,
  });

function assertHardValuesArrived(stdout: string): void {
  const objects = assertOnlyManifests(stdout);
  // The mirror item whole, `=` and comma included, in the containerd hosts.toml of the OSC.
  assert.ok(
    JSON.stringify(objects.find((o) => o.kind === 'OperatingSystemConfig').spec).includes(
      'https://mirror.example.com:5000/v2/library?ns=docker.io,quay.io',
    ),
    'the mirror URL arrived whole',
  );
  // The key arrived whole (its trailing `=` too): the kubelet's token is the one derived from it.
  const expected = deriveWindowToken(
    BASE64_KEY,
    'kube-system-workers-a',
    { periodSeconds: 86400, overlapSeconds: 86400 },
    rotationWindows({ periodSeconds: 86400, overlapSeconds: 86400 }, Number(ROTATION_TIME)).current,
  ).token;
  assert.match(
    secretText(objects, 'kube-system-workers-a-kubelet-bootstrap-config'),
    new RegExp(`token: ${expected.replace('.', '\\.')}`),
  );
  // Order of arrival: what generate made (Secrets, OSCs) in wave -1, the MachineDeployments in wave 0.
  for (const o of objects.filter((x) => x.kind !== 'OperatingSystemProfile'))
    assert.equal(
      o.metadata.annotations?.['argocd.argoproj.io/sync-wave'],
      o.kind === 'MachineDeployment' ? undefined : '-1',
      identity(o),
    );
}

test('values with `=`, commas and an empty string reach generate whole, as Argo CD 3.5 and 2.14 pass them', () => {
  for (const version of [ARGOCD_LATEST, { major: 2, minor: 14 }]) {
    const r = generate(join(ARGOCD, 'app'), {
      app: appWithHardValues(),
      secrets: keySecrets(),
      extraEnv: { SOURCE_DATE_EPOCH: ROTATION_TIME },
      version,
    });
    assert.equal(r.status, 0, r.stderr);
    assertHardValuesArrived(r.stdout);
  }
});

test('Argo CD sends ARGOCD_APP_PARAMETERS=null for an Application without parameters: no parameters, not an error', () => {
  const app = structuredClone(application);
  delete app.spec.source.plugin.parameters;
  const env = pluginEnv(app, {});
  assert.equal(env.ARGOCD_APP_PARAMETERS, 'null');
  const r = generate(join(ARGOCD, 'app'), { app });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /cluster DNS 10\.96\.0\.10'/);
});

test('a setting lost on the way is an error naming it, never a default', () => {
  const cases: Array<[(app: any) => void, RegExp]> = [
    // Argo CD expands $NAME in env values from its build env: an unknown name becomes nothing.
    [
      (app) => (app.spec.source.plugin.env = [{ name: 'NAMESPACE', value: '$NAMESPACE_FROM_GIT' }]),
      /ARGOCD_ENV_NAMESPACE is empty, but "namespace" needs a value \(Argo CD expands \$NAME/,
    ],
    [
      (app) => (app.spec.source.plugin.parameters = [{ name: 'namespace', string: '' }]),
      /parameter "namespace" is empty, but "namespace" needs a value/,
    ],
    [
      (app) =>
        (app.spec.source.plugin.env = [
          { name: 'CLUSTER_DNS', value: '10.0.0.1' },
          { name: 'cluster_dns', value: '10.0.0.2' },
        ]),
      /ARGOCD_ENV_CLUSTER_DNS and ARGOCD_ENV_cluster_dns both set "cluster-dns"/,
    ],
    [
      (app) => (app.spec.source.plugin.parameters = [{ name: 'namespace', array: ['a', 'b'] }]),
      /parameter "namespace" is an array parameter, but "namespace" takes one value/,
    ],
    [
      (app) => (app.spec.source.plugin.parameters = [{ name: 'config', string: '' }]),
      /parameter "config" is empty, but "config" needs a value/,
    ],
  ];
  for (const [edit, message] of cases) {
    const app = structuredClone(application);
    edit(app);
    const r = generate(join(ARGOCD, 'app'), { app });
    assert.equal(r.status, 1, `${message}: ${r.stdout.slice(0, 200)}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message);
  }
  // Over a ConfigMap of OSM flags, an array item the flag form would split is refused.
  const cm = appCopy();
  rmSync(join(cm, 'osm-config.yaml'));
  const app = structuredClone(application);
  app.spec.source.plugin.parameters = [
    { name: 'cluster-dns', array: ['10.96.0.10'] },
    { name: 'node-registry-mirrors', array: ['https://a.example/x,y'] },
  ];
  const r = generate(cm, { app });
  assert.equal(r.status, 1);
  assert.match(
    r.stderr,
    /parameter "node-registry-mirrors": item 0 holds a comma, which the ConfigMap form of "node-registry-mirrors" splits on/,
  );
});

test("before Argo CD 3.0 an empty env entry never arrives, an empty string parameter does (the README's form)", () => {
  // The config file asks for Argo CD's sync annotations; the Application clears the setting.
  const app = appCopy();
  const config = join(app, 'osm-config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8') + '  gitops:\n    syncAnnotations: [argocd]\n');
  const clear = (form: 'env' | 'parameter') => {
    const a = structuredClone(application);
    if (form === 'env') a.spec.source.plugin.env = [{ name: 'GITOPS_SYNC_ANNOTATIONS', value: '' }];
    else {
      a.spec.source.plugin.env = [];
      a.spec.source.plugin.parameters = [
        ...a.spec.source.plugin.parameters,
        { name: 'gitops-sync-annotations', string: '' },
      ];
    }
    return a;
  };
  const annotated = (version: ArgoCDVersion, form: 'env' | 'parameter') => {
    const r = generate(app, { app: clear(form), version });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.includes('argocd.argoproj.io/sync-options');
  };
  assert.equal(
    annotated({ major: 2, minor: 14 }, 'env'),
    true,
    'Argo CD 2.x dropped the empty env entry (cmpserver environ, before PR 22096)',
  );
  assert.equal(annotated({ major: 2, minor: 14 }, 'parameter'), false);
  assert.equal(annotated(ARGOCD_LATEST, 'env'), false);
  assert.equal(annotated(ARGOCD_LATEST, 'parameter'), false);
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
  const lines = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [instr, ...rest] = line.trim().split(/\s+/);
    const stage = stages[stages.length - 1]!;
    switch (instr) {
      case 'FROM':
        stages.push({
          from: rest[0]!,
          ...(rest[1]?.toUpperCase() === 'AS' ? { name: rest[2]! } : {}),
          copies: [],
          env: { ...(stages.find((s) => s.name === rest[0])?.env ?? {}) },
        });
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
  assert.match(
    fn.from,
    /^node:20\.\d+\.\d+(-[a-z0-9.-]+)?(@sha256:[0-9a-f]{64})?$|^node(:[^@]+)?@sha256:[0-9a-f]{64}$/,
  );
  assert.equal(
    fn.from.split(':')[1]!.split('.')[0],
    process.versions.node.split('.')[0],
    'the base image runs the Node major the tests run',
  );
  // The default target (last stage) is the sidecar.
  assert.equal(sidecar.name, 'argocd-cmp');
  assert.deepEqual(sidecar.entrypoint, ['/var/run/argocd/argocd-cmp-server']);
  assert.equal(sidecar.user, '999');
  assert.ok(
    sidecar.copies.some((c) => c.src === 'plugin.yaml' && c.dst === '/home/argocd/cmp-server/config/plugin.yaml'),
  );
  // Each image says which it is: the function's tells a missing variable that only passed-in ones are seen.
  assert.equal(fn.env.OSM_KRM_IMAGE, 'function');
  assert.equal(sidecar.env.OSM_KRM_IMAGE, 'argocd-cmp');
  // Every COPY source exists (npm run build made dist/) and passes .dockerignore's allow-list.
  const allowed = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('!'))
    .map((l) => l.slice(1));
  for (const c of stages.flatMap((s) => s.copies)) {
    assert.ok(readFileSync(join(REPO_ROOT, c.src)).length > 0, `${c.src} is missing`);
    assert.ok(allowed.includes(c.src), `${c.src} is excluded by .dockerignore`);
  }
  // The sidecar patch runs the same entrypoint as the same user.
  const container = parse(readFileSync(join(ARGOCD, 'argocd-repo-server-patch.yaml'), 'utf8')).spec.template.spec
    .containers[0];
  assert.deepEqual(container.command, sidecar.entrypoint);
  assert.equal(String(container.securityContext.runAsUser), sidecar.user);
});

/** The sidecar as the repo-server patch runs it: its user, its env, the cluster secrets mounted where it says. */
function sidecarContainer() {
  const container = parse(readFileSync(join(ARGOCD, 'argocd-repo-server-patch.yaml'), 'utf8')).spec.template.spec
    .containers[0];
  const env: Record<string, string> = Object.fromEntries(container.env.map((e: any) => [e.name, e.value]));
  const secretsMount = container.volumeMounts.find((m: any) => m.name === 'osm-krm-secrets');
  return { user: String(container.securityContext.runAsUser), env, secretsMount };
}

/** Runs the argocd-cmp image's plugin.yaml `generate` as argocd-cmp-server does, and returns its output. */
function generateInImage(
  app: string,
  secrets: string,
  application_: any = application,
  extraEnv: Record<string, string> = {},
) {
  const sidecar = sidecarContainer();
  assert.equal(sidecar.secretsMount.readOnly, true);
  // argocd-cmp-server runs the plugin's command in the app's directory below its own temp dir.
  const appPath = '/tmp/_cmp_server/0f1e2d3c/examples/argocd/app';
  const env = pluginEnv(application_, { ...sidecar.env, ...extraEnv });
  const [cmd, ...args] = [...plugin.spec.generate.command, ...(plugin.spec.generate.args ?? [])];
  const podmanArgs = [
    'run',
    '--rm',
    '-i',
    '--network',
    'none',
    '--read-only',
    '--tmpfs',
    '/tmp',
    '--user',
    sidecar.user,
    '-v',
    `${app}:${appPath}:ro`,
    '-v',
    `${secrets}:${sidecar.secretsMount.mountPath}:ro`,
    '-w',
    appPath,
    ...Object.keys(env).flatMap((k) => ['-e', k]),
    '--entrypoint',
    cmd!,
    CMP_IMAGE,
    ...args,
  ];
  return { container: run('podman', podmanArgs, { env: { ...toolEnv(), ...env } }), env };
}

test("the argocd-cmp image: plugin.yaml's generate, as user 999 with the app read-only and the secrets mounted, prints the bundle's bytes", () => {
  // The image holds this plugin.yaml where argocd-cmp-server reads it.
  const baked = run('podman', [
    'run',
    '--rm',
    '--network',
    'none',
    '--entrypoint',
    'cat',
    CMP_IMAGE,
    '/home/argocd/cmp-server/config/plugin.yaml',
  ]);
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
  assert.match(
    secretText(parseStream(container.stdout), 'workers-b-kube-system-bootstrap-config'),
    /Bearer example-cloud-init-getter-token/,
  );
  assert.match(container.stdout, /argocd\.argoproj\.io\/sync-options: Force=true,Replace=true/);
});

test('the argocd-cmp image: values with `=`, commas and an empty string, and a key ending in `=`, arrive whole', () => {
  const secrets = keySecrets();
  chmodSync(secrets, 0o755);
  const app = appCopy();
  chmodSync(join(app, '..'), 0o755);
  const { container } = generateInImage(app, secrets, appWithHardValues(), { SOURCE_DATE_EPOCH: ROTATION_TIME });
  assert.equal(container.status, 0, container.stderr);
  assertHardValuesArrived(container.stdout);
  const host = generate(app, { app: appWithHardValues(), secrets, extraEnv: { SOURCE_DATE_EPOCH: ROTATION_TIME } });
  assert.equal(container.stdout, host.stdout);
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
  writeFileSync(
    deployment,
    `apiVersion: apps/v1
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
`,
  );
  const r = runOk('kubectl', [
    'patch',
    '--local',
    '-f',
    deployment,
    '--type',
    'strategic',
    '--patch-file',
    join(ARGOCD, 'argocd-repo-server-patch.yaml'),
    '-o',
    'yaml',
  ]);
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
  assert.equal(
    spec.volumes.find((v: any) => v.name === mounts[secretsEnv]).secret.secretName,
    'osm-krm-cluster-secrets',
  );
  assert.equal(sidecar.securityContext.runAsNonRoot, true);
});
