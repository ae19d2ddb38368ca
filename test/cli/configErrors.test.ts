// Every config error of a run, not the first only, each a result on its own field, with "did you mean" for a
// mistyped field, ConfigMap key or profile name (through the bundle: the function, generate, render).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { EXAMPLE_SECRETS, copyExample, osmKrm } from './routeSupport.ts';

const resultsOf = (stdout: string) => (parse(stdout).results ?? []) as any[];
const errors = (stdout: string) =>
  resultsOf(stdout)
    .filter((r) => r.severity === 'error')
    .map((r) => [r.field?.path, r.message]);

test('every error of an OperatingSystemManager config in one run, each on its field, with the closest field name', () => {
  const list = {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: [],
    functionConfig: {
      apiVersion: 'osm-krm.dev/v1alpha1',
      kind: 'OperatingSystemManager',
      metadata: { name: 'osm' },
      spec: {
        namespce: 'kube-system',
        clusterDNS: ['10.0.0.300'],
        ignitionSpec: '3.0',
        cluster: {
          sever: 'https://api.example.com',
          caCert: 5,
          cloudInitGetterToken: { enf: 'X' },
          bootstrapToken: { env: 'A', file: '/b' },
        },
        defaultProfiles: { defaultAnnotations: true },
      },
    },
  };
  const r = osmKrm([], { input: JSON.stringify(list) });
  assert.equal(r.code, 1);
  assert.deepEqual(
    errors(r.stdout),
    [
      ['spec.clusterDNS[0]', 'invalid cluster DNS IP "10.0.0.300": give IPv4 or IPv6 addresses'],
      [
        'spec.cluster.bootstrapToken',
        'invalid functionConfig: spec.cluster.bootstrapToken must give only one of value, env, file',
      ],
      ['spec.cluster.caCert', 'invalid functionConfig: spec.cluster.caCert must be string or object'],
      [
        'spec.cluster.cloudInitGetterToken.enf',
        'invalid functionConfig: spec.cluster.cloudInitGetterToken has unknown field "enf"; did you mean "env"?',
      ],
      ['spec.cluster.sever', 'invalid functionConfig: spec.cluster has unknown field "sever"; did you mean "server"?'],
      [
        'spec.defaultProfiles.defaultAnnotations',
        'invalid functionConfig: spec.defaultProfiles has unknown field "defaultAnnotations"; did you mean "defaultAnnotation"?',
      ],
      ['spec.ignitionSpec', 'invalid functionConfig: spec.ignitionSpec must be one of "2.3.0", "3.3.0"'],
      ['spec.namespce', 'invalid functionConfig: spec has unknown field "namespce"; did you mean "namespace"?'],
    ].sort((a, b) => (a[1]! < b[1]! ? -1 : 1)),
  );
  // And on stderr, one line each.
  assert.equal(r.stderr.split('\n').filter((l) => l.startsWith('osm-krm: error:')).length, 8);
});

test('every error of a ConfigMap config (OSM flag names) in one run, with the closest key', () => {
  const list = {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: [],
    functionConfig: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'osm' },
      data: {
        'cluster-dsn': '10.0.0.1',
        'pin-cluster-ca': 'maybe',
        'nodes-http-proxy': 'http://p:3128',
        'gitops-sync-annotations': 'argo',
      },
    },
  };
  const r = osmKrm([], { input: JSON.stringify(list) });
  assert.equal(r.code, 1);
  assert.deepEqual(
    errors(r.stdout),
    [
      ['data.cluster-dsn', 'unknown config key "cluster-dsn"; did you mean "cluster-dns"?'],
      ['data.gitops-sync-annotations', 'gitops-sync-annotations: unknown tool "argo" (argocd, flux)'],
      ['data.nodes-http-proxy', 'unknown config key "nodes-http-proxy"; did you mean "node-http-proxy"?'],
      ['data.pin-cluster-ca', 'pin-cluster-ca: invalid boolean "maybe"'],
    ].sort((a, b) => (a[1]! < b[1]! ? -1 : 1)),
  );
});

test('every value source the config names that cannot be read, in one run (generate)', () => {
  const app = copyExample('flux/source');
  // Neither token variable is set: both are named.
  const r = osmKrm(['generate'], { cwd: app, env: { OSM_KRM_SECRETS_DIR: join(app, 'no-such-dir') } });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    /environment variable OSM_CLOUD_INIT_GETTER_TOKEN \(named by spec\.cluster\.cloudInitGetterToken\.env\) is not set/,
  );
  assert.match(
    r.stderr,
    /environment variable OSM_BOOTSTRAP_TOKEN \(named by spec\.cluster\.bootstrapToken\.env\) is not set/,
  );
});

test('a profile name that matches no OperatingSystemProfile names the closest one (render)', () => {
  const app = copyExample('flux/source');
  const md = join(app, 'machinedeployment-workers-a.yaml');
  writeFileSync(
    md,
    readFileSync(md, 'utf8').replace(
      'k8c.io/operating-system-profile: example-ubuntu',
      'k8c.io/operating-system-profile: exmaple-ubuntu',
    ),
  );
  const r = osmKrm(['render', app], { env: EXAMPLE_SECRETS });
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /MachineDeployment kube-system\/workers-a \(machinedeployment-workers-a\.yaml\): OperatingSystemProfile "exmaple-ubuntu" not found in namespace "kube-system"; did you mean "example-ubuntu"\?/,
  );
  // The embedded defaults are candidates too.
  writeFileSync(md, readFileSync(md, 'utf8').replace('exmaple-ubuntu', 'osp-ubunut'));
  assert.match(
    osmKrm(['render', app], { env: EXAMPLE_SECRETS }).stderr,
    /OperatingSystemProfile "osp-ubunut" not found in namespace "kube-system"; did you mean "osp-ubuntu"\?/,
  );
});
