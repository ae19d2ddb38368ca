// RHEL subscription secrets supplied by the config (spec.rhelSubscription) instead of the MachineDeployment in
// Git: resolved from env, files or local-config Secrets, injected into the user-data and into a generated copy
// of the MachineDeployment (the one the cluster gets), never into the user's file; every misuse is an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runOn, findItem } from '../support/runInProcess.ts';
import type { Environment } from '../../src/cluster/valueSource.ts';
import { functionConfig, machineDeployment, resourceList, userDataOf } from '../profiles/support/profileRuns.ts';

const PASSWORD = 'rhsm-pa55word-from-env';
const USER = 'rhsm-user-from-file';
const OFFLINE = 'offline-token-from-secret';
const PATH_ANNOTATION = 'internal.config.kubernetes.io/path';
const LOCAL = 'config.kubernetes.io/local-config';

const env = (vars: Record<string, string>, files: Record<string, string> = {}): Environment => ({
  env: (n) => vars[n],
  readFile: (p) => {
    if (p in files) return files[p]!;
    throw Object.assign(new Error(p), { code: 'ENOENT' });
  },
});
const ENV = env({ OSM_RHSM_PASSWORD: PASSWORD }, { '/run/secrets/rhsm-user': `${USER}\n` });

function rhelMachineDeployment(
  name: string,
  operatingSystemSpec: Record<string, unknown> = { attachSubscription: true },
  annotations: Record<string, string> = {},
): any {
  const md = machineDeployment({
    profile: 'osp-rhel',
    osName: 'rhel',
    cloud: 'aws',
    kubelet: '1.35.1',
    ipFamily: 'IPv4',
    name,
    operatingSystemSpec,
  }) as any;
  Object.assign(md.metadata.annotations, annotations);
  delete md.metadata.annotations['machinedeployment.clusters.k8s.io/revision'];
  return md;
}

const rhsmSecret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'rhsm', namespace: 'osm-config', annotations: { [LOCAL]: 'true' } },
  data: { 'offline-token': Buffer.from(OFFLINE).toString('base64') },
};

const ALL = {
  rhelSubscriptionManagerUser: { file: '/run/secrets/rhsm-user' },
  rhelSubscriptionManagerPassword: { env: 'OSM_RHSM_PASSWORD' },
  rhsmOfflineToken: { secretKeyRef: { namespace: 'osm-config', name: 'rhsm', key: 'offline-token' } },
};

const osSpecOf = (md: any) => md.spec.template.spec.providerSpec.value.operatingSystemSpec;
const machineDeployments = (items: any[]) => items.filter((i) => i.kind === 'MachineDeployment');

test('config-supplied secrets reach the user-data, the OSC and the MachineDeployment the function outputs', () => {
  const source = rhelMachineDeployment('workers');
  const r = runOn(resourceList([source, rhsmSecret], functionConfig({ rhelSubscription: { all: ALL } })), ENV);
  assert.equal(r.exitCode, 0, r.stderr);
  // One MachineDeployment (kustomize would refuse two of one identity): the source, with the values injected.
  const [md, ...more] = machineDeployments(r.items);
  assert.equal(more.length, 0);
  assert.deepEqual(osSpecOf(md), {
    attachSubscription: true,
    rhelSubscriptionManagerUser: USER,
    rhelSubscriptionManagerPassword: PASSWORD,
    rhsmOfflineToken: OFFLINE,
  });
  assert.equal(
    md.metadata.annotations[PATH_ANNOTATION],
    'osm-generated/kube-system/workers/machinedeployment_workers.yaml',
  );
  assert.deepEqual(md.spec.template.spec.versions, source.spec.template.spec.versions);
  for (const type of ['bootstrap', 'provisioning']) {
    const text = userDataOf(findItem(r.items, 'Secret', `workers-kube-system-${type}-config`)).text;
    assert.match(
      text,
      new RegExp(`\\nrh_subscription:\\n {4}auto-attach: true\\n {4}password: ${PASSWORD}\\n {4}username: ${USER}\\n`),
      type,
    );
  }
  assert.equal(
    findItem(r.items, 'OperatingSystemConfig', 'workers-kube-system-config').spec.provisioningConfig.modules
      .rh_subscription.password,
    PASSWORD,
  );
  // The local-config Secret that held the offline token is passed through (kustomize and kpt drop or keep it).
  assert.ok(findItem(r.items, 'Secret', 'rhsm'));
});

test('the ConfigMap form names the same sources with OSM-style flags', () => {
  const config = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'osm' },
    data: {
      'cluster-dns': '10.96.0.10',
      'bootstrap-token-env': 'OSM_BOOTSTRAP',
      'rhel-subscription-manager-password-env': 'OSM_RHSM_PASSWORD',
      'rhel-subscription-manager-user-file': '/run/secrets/rhsm-user',
      'rhel-activation-key-env': 'OSM_RHSM_KEY',
    },
  };
  const r = runOn(
    resourceList([rhelMachineDeployment('workers')], config),
    env(
      { OSM_RHSM_PASSWORD: PASSWORD, OSM_RHSM_KEY: 'activation-key-1', OSM_BOOTSTRAP: 'abcdef.0123456789abcdef' },
      { '/run/secrets/rhsm-user': USER },
    ),
  );
  assert.equal(r.exitCode, 0, r.stderr);
  assert.deepEqual(osSpecOf(machineDeployments(r.items)[0]), {
    attachSubscription: true,
    rhelSubscriptionManagerUser: USER,
    rhelSubscriptionManagerPassword: PASSWORD,
    rhelActivationKey: 'activation-key-1',
  });
});

test('a per-MachineDeployment entry replaces `all`; an empty entry keeps the MachineDeployment as it is', () => {
  const own = { rhelActivationKey: { env: 'OSM_KEY_B' } };
  const mds = [
    rhelMachineDeployment('a'),
    rhelMachineDeployment('b', {
      rhelUseSatelliteServer: true,
      rhelSatelliteServer: 'satellite.example',
      rhelOrganizationName: 'org',
    }),
    rhelMachineDeployment('c', {
      rhelSubscriptionManagerUser: 'inline-user',
      rhelSubscriptionManagerPassword: 'inline-password',
    }),
  ];
  const config = functionConfig({
    rhelSubscription: {
      all: { rhelSubscriptionManagerPassword: { env: 'OSM_RHSM_PASSWORD' } },
      machineDeployments: { 'kube-system/b': own, 'kube-system/c': {} },
    },
  });
  const r = runOn(resourceList(mds, config), env({ OSM_RHSM_PASSWORD: PASSWORD, OSM_KEY_B: 'activation-key-b' }));
  assert.equal(r.exitCode, 0, r.stderr);
  const byName = (n: string) => machineDeployments(r.items).find((m) => m.metadata.name === n);
  assert.equal(osSpecOf(byName('a')).rhelSubscriptionManagerPassword, PASSWORD);
  assert.deepEqual(osSpecOf(byName('b')), {
    rhelUseSatelliteServer: true,
    rhelSatelliteServer: 'satellite.example',
    rhelOrganizationName: 'org',
    rhelActivationKey: 'activation-key-b',
  });
  assert.match(
    userDataOf(findItem(r.items, 'Secret', 'b-kube-system-bootstrap-config')).text,
    /activation-key: activation-key-b\n/,
  );
  // c: passed through untouched (no generated copy), rendered from its inline values.
  assert.equal(byName('c').metadata.annotations[PATH_ANNOTATION], undefined);
  assert.equal(osSpecOf(byName('c')).rhelSubscriptionManagerPassword, 'inline-password');
});

test('a source that is written back (kpt) stays byte for byte; only local-config sources are accepted there', () => {
  const source = rhelMachineDeployment(
    'workers',
    { attachSubscription: true },
    {
      [LOCAL]: 'true',
      [PATH_ANNOTATION]: 'workers.yaml',
      'config.kubernetes.io/path': 'workers.yaml',
      'example.com/team': 'a',
    },
  );
  const config = functionConfig({
    rhelSubscription: {
      all: {
        rhelSubscriptionManagerPassword: { env: 'OSM_RHSM_PASSWORD' },
        rhelSubscriptionManagerUser: { file: '/run/secrets/rhsm-user' },
      },
    },
  });
  const r = runOn(resourceList([source], config), ENV);
  assert.equal(r.exitCode, 0, r.stderr);
  const [kept, copy] = machineDeployments(r.items);
  assert.deepEqual(kept, source);
  assert.equal(
    copy.metadata.annotations[PATH_ANNOTATION],
    'osm-generated/kube-system/workers/machinedeployment_workers.yaml',
  );
  assert.equal(copy.metadata.annotations[LOCAL], undefined);
  assert.equal(copy.metadata.annotations['example.com/team'], 'a');
  assert.equal(osSpecOf(copy).rhelSubscriptionManagerPassword, PASSWORD);
  assert.ok(!JSON.stringify(kept).includes(PASSWORD));
  // The annotations hash is over the annotations the cluster's MachineDeployment has: the copy's.
  const withoutLocal = runOn(
    resourceList(
      [
        {
          ...source,
          metadata: { ...source.metadata, annotations: { ...source.metadata.annotations, [LOCAL]: 'false' } },
        },
      ],
      config,
    ),
    ENV,
  );
  assert.equal(withoutLocal.exitCode, 1);
  assert.match(
    withoutLocal.results[0].message,
    /its source workers\.yaml is kept without them: mark the source config\.kubernetes\.io\/local-config: "true"/,
  );

  // Rendering again with the previous output among the inputs (kpt's next render) gives the same output.
  const again = runOn({ ...(resourceList([], config) as any), items: r.items }, ENV);
  assert.equal(again.exitCode, 0, again.stderr);
  assert.deepEqual(again.items, r.items);
});

test('the revision follows the template the cluster gets: a changed secret is a new revision', () => {
  const config = functionConfig({
    rhelSubscription: { all: { rhelSubscriptionManagerPassword: { env: 'OSM_RHSM_PASSWORD' } } },
  });
  const first = runOn(resourceList([rhelMachineDeployment('workers')], config), env({ OSM_RHSM_PASSWORD: PASSWORD }));
  const state = findItem(first.items, 'ConfigMap', 'osm-krm-state');
  const revision = (r: any) =>
    findItem(r.items, 'Secret', 'workers-kube-system-bootstrap-config').metadata.annotations[
      'k8c.io/machine-deployment-revision'
    ];
  assert.equal(revision(first), '1');
  const same = runOn(
    resourceList([rhelMachineDeployment('workers'), state], config),
    env({ OSM_RHSM_PASSWORD: PASSWORD }),
  );
  assert.equal(revision(same), '1');
  const rotated = runOn(
    resourceList([rhelMachineDeployment('workers'), state], config),
    env({ OSM_RHSM_PASSWORD: 'rotated-password' }),
  );
  assert.equal(revision(rotated), '2');
});

test('errors: inline and config-supplied at once, a missing source (named), a non-local-config Secret, an unknown MachineDeployment', () => {
  const cases: Array<{
    name: string;
    items: any[];
    all?: any;
    machineDeployments?: any;
    env?: Environment;
    message: RegExp;
    field?: string;
  }> = [
    {
      name: 'both',
      items: [rhelMachineDeployment('workers', { rhelSubscriptionManagerPassword: 'inline-secret-value' })],
      all: { rhelSubscriptionManagerPassword: { env: 'OSM_RHSM_PASSWORD' } },
      message:
        /operatingSystemSpec\.rhelSubscriptionManagerPassword given inline while spec\.rhelSubscription supplies/,
      field: 'spec.template.spec.providerSpec.value.operatingSystemSpec.rhelSubscriptionManagerPassword',
    },
    {
      name: 'both, Go spelling',
      items: [rhelMachineDeployment('workers', { RHSMOfflineToken: 'inline-secret-value' })],
      all: { rhelSubscriptionManagerPassword: { env: 'OSM_RHSM_PASSWORD' } },
      message: /operatingSystemSpec\.RHSMOfflineToken given inline/,
    },
    {
      name: 'env unset',
      items: [rhelMachineDeployment('workers')],
      all: { rhelSubscriptionManagerPassword: { env: 'OSM_UNSET_VAR' } },
      message:
        /environment variable OSM_UNSET_VAR \(named by spec\.rhelSubscription\.all\.rhelSubscriptionManagerPassword\.env\) is not set/,
    },
    {
      name: 'file missing',
      items: [rhelMachineDeployment('workers')],
      machineDeployments: { 'kube-system/workers': { rhelActivationKey: { file: '/nope' } } },
      message:
        /cannot read file "\/nope" \(named by spec\.rhelSubscription\.machineDeployments\.kube-system\/workers\.rhelActivationKey\.file\)/,
    },
    {
      name: 'empty value',
      items: [rhelMachineDeployment('workers')],
      all: { rhelSubscriptionManagerPassword: { env: 'OSM_EMPTY' } },
      env: env({ OSM_EMPTY: '' }),
      message:
        /^environment variable OSM_EMPTY \(named by spec\.rhelSubscription\.all\.rhelSubscriptionManagerPassword\.env\) is set but empty$/,
    },
    {
      name: 'no Secret',
      items: [rhelMachineDeployment('workers')],
      all: { rhsmOfflineToken: ALL.rhsmOfflineToken },
      message:
        /Secret osm-config\/rhsm \(named by spec\.rhelSubscription\.all\.rhsmOfflineToken\.secretKeyRef\) is not among the inputs/,
    },
    {
      name: 'Secret not local-config',
      items: [rhelMachineDeployment('workers'), { ...rhsmSecret, metadata: { name: 'rhsm', namespace: 'osm-config' } }],
      all: { rhsmOfflineToken: ALL.rhsmOfflineToken },
      message: /Secret osm-config\/rhsm .* must be marked config\.kubernetes\.io\/local-config/,
    },
    {
      name: 'no key',
      items: [rhelMachineDeployment('workers'), rhsmSecret],
      all: { rhsmOfflineToken: { secretKeyRef: { namespace: 'osm-config', name: 'rhsm', key: 'other' } } },
      message: /has no key "other"/,
    },
    {
      name: 'unknown MachineDeployment',
      items: [rhelMachineDeployment('workers')],
      machineDeployments: { 'kube-system/wrokers': {} },
      message: /names kube-system\/wrokers, which is not a rendered RHEL MachineDeployment/,
    },
    {
      name: 'not a plain scalar',
      items: [rhelMachineDeployment('workers')],
      all: { rhelSubscriptionManagerPassword: { env: 'OSM_BAD' } },
      env: env({ OSM_BAD: 'pass: word' }),
      message: /cannot carry .*\(the value comes from spec\.rhelSubscription\)/,
    },
  ];
  for (const c of cases) {
    const r = runOn(
      resourceList(
        c.items,
        functionConfig({
          rhelSubscription: {
            ...(c.all ? { all: c.all } : {}),
            ...(c.machineDeployments ? { machineDeployments: c.machineDeployments } : {}),
          },
        }),
      ),
      c.env ?? ENV,
    );
    assert.equal(r.exitCode, 1, c.name);
    const errors = r.results.filter((x: any) => x.severity === 'error');
    assert.equal(errors.length, 1, `${c.name}: ${JSON.stringify(errors)}`);
    assert.match(errors[0].message, c.message, c.name);
    if (c.field) assert.equal(errors[0].field.path, c.field, c.name);
    // Nothing generated; every input kept as it was.
    assert.deepEqual(
      r.items.map((i: any) => i.kind).sort(),
      c.items
        .map((i: any) => i.kind)
        .concat('ConfigMap', 'Secret')
        .sort(),
      c.name,
    );
    assert.ok(
      !JSON.stringify(r.results).includes('pass: word') && !JSON.stringify(r.results).includes('inline-secret-value'),
      `${c.name}: a value reached the results`,
    );
  }
});

test('inline values in the config are refused by its schema, in both forms', () => {
  for (const source of ['inline-password', { value: 'inline-password' }]) {
    const r = runOn(
      resourceList(
        [rhelMachineDeployment('workers')],
        functionConfig({ rhelSubscription: { all: { rhelSubscriptionManagerPassword: source } } }),
      ),
      ENV,
    );
    assert.equal(r.exitCode, 1);
    assert.match(r.results[0].message, /rhelSubscription/);
  }
});

test('every config-supplied value is redacted from results, whatever reports it', () => {
  const osp = {
    apiVersion: 'operatingsystemmanager.k8c.io/v1alpha1',
    kind: 'OperatingSystemProfile',
    metadata: { name: 'leaky', namespace: 'kube-system' },
    spec: {
      osName: 'rhel',
      osVersion: '9',
      version: 'v1.0.0',
      supportedCloudProviders: [{ name: 'aws' }],
      bootstrapConfig: {
        files: [
          {
            path: '/x',
            content: {
              inline: {
                data: '{{ fail (printf "user %s password %s token %s" .RhelConfig.RHELSubscriptionManagerUser .RhelConfig.RHELSubscriptionManagerPassword .RhelConfig.RHSMOfflineToken) }}',
              },
            },
          },
        ],
      },
      provisioningConfig: {},
    },
  };
  const md = rhelMachineDeployment('workers');
  md.metadata.annotations['k8c.io/operating-system-profile'] = 'leaky';
  const r = runOn(resourceList([osp, md, rhsmSecret], functionConfig({ rhelSubscription: { all: ALL } })), ENV);
  assert.equal(r.exitCode, 1);
  const text = JSON.stringify(r.results) + r.stderr;
  assert.match(text, /user \[redacted\] password \[redacted\] token \[redacted\]/);
  for (const v of [USER, PASSWORD, OFFLINE]) assert.ok(!text.includes(v), v);
});

test('with the management/worker split the MachineDeployment goes with the Secrets to the worker cluster', () => {
  const config = functionConfig({
    gitops: { split: true },
    rhelSubscription: { all: { rhelSubscriptionManagerPassword: { env: 'OSM_RHSM_PASSWORD' } } },
  });
  const r = runOn(resourceList([rhelMachineDeployment('workers')], config), ENV);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(
    machineDeployments(r.items)[0].metadata.annotations[PATH_ANNOTATION],
    'osm-generated/worker/kube-system/workers/machinedeployment_workers.yaml',
  );
});

test('dropping the config for a generated MachineDeployment whose source is local-config is an error, not a silent prune', () => {
  const source = rhelMachineDeployment('workers', { attachSubscription: true }, { [LOCAL]: 'true' });
  const config = functionConfig({
    rhelSubscription: { all: { rhelSubscriptionManagerPassword: { env: 'OSM_RHSM_PASSWORD' } } },
  });
  const first = runOn(resourceList([source], config), ENV);
  assert.equal(first.exitCode, 0, first.stderr);
  const state = findItem(first.items, 'ConfigMap', 'osm-krm-state');
  assert.match(state.data['md.kube-system.workers'], /"generated":true/);

  const without = runOn(resourceList([source, state]), ENV);
  assert.equal(without.exitCode, 1);
  assert.match(without.results[0].message, /previous render output this MachineDeployment .* would be pruned/);
  assert.deepEqual(without.results[0].resourceRef, {
    apiVersion: 'cluster.k8s.io/v1alpha1',
    kind: 'MachineDeployment',
    name: 'workers',
    namespace: 'kube-system',
  });

  // Unmarked, the source itself is applied again: fine, and the state forgets the copy.
  const unmarked = rhelMachineDeployment('workers', {
    rhelSubscriptionManagerUser: 'inline-user',
    rhelSubscriptionManagerPassword: 'inline-password',
  });
  const r = runOn(resourceList([unmarked, state]), ENV);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.doesNotMatch(findItem(r.items, 'ConfigMap', 'osm-krm-state').data['md.kube-system.workers'], /generated/);
});
