// Each error of issue #3 gets an error result naming the resource and field, exit code 1 and no generated output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runOn } from '../support/runInProcess.ts';
import { REPO_ROOT } from '../support/paths.ts';

const base = () => parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'));
const md = (l: any, name: string) =>
  l.items.find((i: any) => i.kind === 'MachineDeployment' && i.metadata.name === name);
const osp = (l: any, name: string) =>
  l.items.find((i: any) => i.kind === 'OperatingSystemProfile' && i.metadata.name === name);

function expectError(
  mutate: (l: any) => void,
  check: { kind: string; name?: string; field?: RegExp; message: RegExp },
): void {
  const l = base();
  // Give every input item a file, as kpt does, to check results point at it.
  l.items.forEach((i: any, n: number) => {
    i.metadata.annotations = {
      ...(i.metadata.annotations ?? {}),
      'internal.config.kubernetes.io/path': `in/${n}.yaml`,
    };
  });
  mutate(l);
  const r = runOn(l);
  assert.equal(r.exitCode, 1, 'exit code');
  const errors = r.results.filter((x: any) => x.severity === 'error');
  const e = errors.find(
    (x: any) =>
      x.resourceRef?.kind === check.kind &&
      (check.name === undefined || x.resourceRef?.name === check.name) &&
      check.message.test(x.message),
  );
  assert.ok(e, `no matching error in ${JSON.stringify(errors, null, 1)}`);
  if (check.field) assert.match(e.field?.path ?? '', check.field);
  if (check.kind !== 'OperatingSystemManager') assert.match(e.file?.path ?? '', /^in\/\d+\.yaml$/);
  assert.ok(
    !r.items.some((i: any) =>
      String(i.metadata?.annotations?.['internal.config.kubernetes.io/path'] ?? '').startsWith('osm-generated/'),
    ),
    'generated output on error',
  );
  assert.equal(r.items.length, l.items.length, 'every input item is kept');
}

test('unknown OSP', () =>
  expectError((l) => (md(l, 'ubuntu-workers').metadata.annotations['k8c.io/operating-system-profile'] = 'nope'), {
    kind: 'MachineDeployment',
    name: 'ubuntu-workers',
    field: /operating-system-profile/,
    message: /OperatingSystemProfile "nope" not found/,
  }));

test('OSP for another OS', () =>
  expectError(
    (l) => (md(l, 'ubuntu-workers').metadata.annotations['k8c.io/operating-system-profile'] = 'example-flatcar'),
    { kind: 'MachineDeployment', field: /operatingSystem$/, message: /does not support operating system "ubuntu"/ },
  ));

test('OSP for another cloud', () =>
  expectError((l) => (md(l, 'ubuntu-workers').spec.template.spec.providerSpec.value.cloudProvider = 'gce'), {
    kind: 'MachineDeployment',
    field: /cloudProvider$/,
    message: /does not support cloud provider "gce"/,
  }));

test('template parse error names the OSP, the template path and the line', () =>
  expectError(
    (l) => (osp(l, 'example-ubuntu').spec.provisioningConfig.files[0].content.inline.data = 'line1\n{{ if }}'),
    {
      kind: 'OperatingSystemProfile',
      name: 'example-ubuntu',
      field: /^spec\.provisioningConfig\.files\[0\]\.content\.inline\.data$/,
      message: /template: \/opt\/bin\/setup:2: missing value for if/,
    },
  ));

test('template execution error names the line and column', () =>
  expectError(
    (l) => (osp(l, 'example-ubuntu').spec.provisioningConfig.files[0].content.inline.data = 'a\n  {{ .NoSuchField }}'),
    {
      kind: 'OperatingSystemProfile',
      message:
        /template: \/opt\/bin\/setup:2:5: executing "\/opt\/bin\/setup" at <\.NoSuchField>: can't evaluate field NoSuchField in type \*resources\.filesData/,
    },
  ));

test('invalid providerSpec: unknown top-level key, strictly like OSM', () =>
  expectError((l) => (md(l, 'ubuntu-workers').spec.template.spec.providerSpec.value.unknownKey = 1), {
    kind: 'MachineDeployment',
    field: /providerSpec\.value\.unknownKey$/,
    message: /unknown field "unknownKey"/,
  }));

test('missing cluster facts', () =>
  expectError((l) => (l.items = l.items.filter((i: any) => i.metadata.name !== 'cloud-init-getter-token')), {
    kind: 'OperatingSystemManager',
    message: /missing cluster fact: the cloud-init-getter token/,
  }));

test('wrong apiVersion of the config', () =>
  expectError((l) => (l.functionConfig.apiVersion = 'osm-krm.dev/v2'), {
    kind: 'OperatingSystemManager',
    field: /^apiVersion$/,
    message: /unsupported functionConfig/,
  }));

test('two MachineDeployments that would produce the same object name', () =>
  expectError(
    (l) => {
      // "a-b" in "kube-system" and "a" in "b-kube-system" both give OSC "a-b-kube-system-config".
      const one = md(l, 'ubuntu-workers');
      const two = structuredClone(one);
      one.metadata.name = 'a-b';
      two.metadata.name = 'a';
      two.metadata.namespace = 'b-kube-system';
      l.items.push(two);
      l.items.push({
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'bootstrap.kubernetes.io/token',
        metadata: {
          name: 'bootstrap-token-x',
          namespace: 'kube-system',
          labels: { 'machinedeployment.k8s.io/name': 'b-kube-system-a' },
        },
        stringData: { 'token-id': 'xxxxxx', 'token-secret': 'xxxxxxxxxxxxxxxx' },
      });
      l.items.push({
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'bootstrap.kubernetes.io/token',
        metadata: {
          name: 'bootstrap-token-y',
          namespace: 'kube-system',
          labels: { 'machinedeployment.k8s.io/name': 'kube-system-a-b' },
        },
        stringData: { 'token-id': 'yyyyyy', 'token-secret': 'yyyyyyyyyyyyyyyy' },
      });
    },
    {
      kind: 'MachineDeployment',
      message: /OperatingSystemConfig\/kube-system\/a-b-kube-system-config would be generated for both/,
    },
  ));

test('malformed YAML is an error result, not a crash', () => {
  const r = runOn('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- a: [\n');
  assert.equal(r.exitCode, 1);
  assert.match(r.results[0].message, /malformed YAML/);
  void stringify;
});

// A newcomer's first mistakes: each an error naming the item and field and saying what to do, never an item
// passed through unrendered without a word.
test('a misspelt OSP annotation is an error naming it, not an info "nothing rendered"', () =>
  expectError(
    (l) => {
      const a = md(l, 'ubuntu-workers').metadata.annotations;
      a['k8c.io/operatingsystemprofile'] = a['k8c.io/operating-system-profile'];
      delete a['k8c.io/operating-system-profile'];
    },
    {
      kind: 'MachineDeployment',
      name: 'ubuntu-workers',
      field: /^metadata\.annotations\.k8c\.io\/operatingsystemprofile$/,
      message:
        /annotation "k8c\.io\/operatingsystemprofile" is not one osm-krm reads: name the OperatingSystemProfile with k8c\.io\/operating-system-profile/,
    },
  ));

test('a MachineDeployment naming an OSP under another apiVersion (Cluster API) is an error on apiVersion', () =>
  expectError((l) => (md(l, 'ubuntu-workers').apiVersion = 'cluster.x-k8s.io/v1beta1'), {
    kind: 'MachineDeployment',
    name: 'ubuntu-workers',
    field: /^apiVersion$/,
    message:
      /"cluster\.x-k8s\.io\/v1beta1": this MachineDeployment names an OperatingSystemProfile, but osm-krm renders machine-controller's MachineDeployments \(cluster\.k8s\.io\/v1alpha1\) only/,
  }));

test('an OSP with another apiVersion is an error on apiVersion (and its MachineDeployments add no "not found")', () => {
  expectError((l) => (osp(l, 'example-ubuntu').apiVersion = 'operatingsystemmanager.k8c.io/v1'), {
    kind: 'OperatingSystemProfile',
    name: 'example-ubuntu',
    field: /^apiVersion$/,
    message: /osm-krm reads OperatingSystemProfiles of operatingsystemmanager\.k8c\.io\/v1alpha1 only/,
  });
  const l = base();
  osp(l, 'example-ubuntu').apiVersion = 'operatingsystemmanager.k8c.io/v1';
  assert.ok(!runOn(l).results.some((x: any) => /not found/.test(x.message)));
});

test('a Cluster API MachineDeployment without the OSP annotation is not ours: passed through, no error', () => {
  const l = base();
  const capi = structuredClone(md(l, 'ubuntu-workers'));
  capi.apiVersion = 'cluster.x-k8s.io/v1beta1';
  capi.metadata.name = 'capi';
  delete capi.metadata.annotations['k8c.io/operating-system-profile'];
  l.items.push(capi);
  const r = runOn(l);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.ok(r.items.some((i: any) => i.metadata.name === 'capi'));
});

test('kubelet version written as a YAML number: says it was read as a number and to quote it', () =>
  expectError((l) => (md(l, 'ubuntu-workers').spec.template.spec.versions.kubelet = 1.3), {
    kind: 'MachineDeployment',
    field: /^spec\.template\.spec\.versions\.kubelet$/,
    message:
      /^kubelet version must be a string: YAML reads this one as the number 1\.3; quote it and give the patch version, e\.g\. "1\.34\.2"$/,
  }));

test('OSP in another namespace: the error says where it is and how to name it', () =>
  expectError((l) => (osp(l, 'example-ubuntu').metadata.namespace = 'default'), {
    kind: 'MachineDeployment',
    name: 'ubuntu-workers',
    message:
      /not found in namespace "kube-system" \(the inputs have it in namespace "default": move it, or name its namespace with k8c\.io\/operating-system-profile-namespace\)/,
  }));

test('a cloud provider the OSP does not list: the error lists those it does', () =>
  expectError((l) => (md(l, 'ubuntu-workers').spec.template.spec.providerSpec.value.cloudProvider = 'AWS'), {
    kind: 'MachineDeployment',
    field: /cloudProvider$/,
    message: /does not support cloud provider "AWS" \(its supportedCloudProviders: aws\)$/,
  }));

test('the config as an input item (kpt fn eval without --fn-config): the missing-fact error says to pass it as the config', () => {
  const l = base();
  const config = {
    ...l.functionConfig,
    metadata: {
      ...l.functionConfig.metadata,
      annotations: { 'internal.config.kubernetes.io/path': 'osm-config.yaml' },
    },
  };
  delete l.functionConfig;
  l.items = l.items.filter((i: any) => i.kind !== 'Secret');
  l.items.push(config);
  const r = runOn(l);
  assert.equal(r.exitCode, 1);
  const [e] = r.results.filter((x: any) => x.severity === 'error');
  assert.match(
    e.message,
    /^missing cluster fact: .*; the OperatingSystemManager osm \(osm-config\.yaml\) is an input item, not the function config: pass it as the config \(kpt fn eval --fn-config FILE, the Kptfile's configPath, or list it under kustomize's transformers:\)$/,
  );
  // With the config given as the config, the same input is told nothing of the kind.
  const given = base();
  given.items = given.items.filter((i: any) => i.kind !== 'Secret');
  given.items.push(structuredClone(config));
  assert.ok(!runOn(given).results.some((x: any) => /is an input item/.test(x.message)));
});

test("a bad cluster DNS IP is an error on the config's field, not on every MachineDeployment", () => {
  expectError((l) => (l.functionConfig.spec.clusterDNS = ['10.96.0.10', '10.96.0.300']), {
    kind: 'OperatingSystemManager',
    field: /^spec\.clusterDNS\[1\]$/,
    message: /^invalid cluster DNS IP "10\.96\.0\.300": give IPv4 or IPv6 addresses$/,
  });
  const l = base();
  l.functionConfig = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'osm' },
    data: { 'cluster-dns': '10.96.0.10,fd00::a,dns.local' },
  };
  const r = runOn(l);
  assert.equal(r.exitCode, 1);
  assert.deepEqual(
    r.results
      .filter((x: any) => x.severity === 'error')
      .map((x: any) => [x.resourceRef?.kind, x.field?.path, x.message]),
    [['ConfigMap', 'data.cluster-dns', 'invalid cluster DNS IP "dns.local": give IPv4 or IPv6 addresses']],
  );
});

test('a rendered MachineDeployment without a namespace: a warning on metadata.namespace (taken as "default")', () => {
  const l = base();
  delete md(l, 'ubuntu-workers').metadata.namespace;
  const r = runOn(l);
  const w = r.results.filter((x: any) => x.severity === 'warning' && x.field?.path === 'metadata.namespace');
  assert.deepEqual(
    w.map((x: any) => [x.resourceRef.name, x.message]),
    [
      [
        'ubuntu-workers',
        'no metadata.namespace: taken to be "default", and the generated objects are named for it; set the namespace the MachineDeployment is applied to (usually kube-system)',
      ],
    ],
  );
});

test('run as a kustomize generator (only its own config as input): an error saying to list it under transformers', () => {
  const l = base();
  const copy = structuredClone(l.functionConfig);
  copy.metadata.annotations = { 'config.kubernetes.io/local-config': 'true' };
  l.items = [copy];
  const r = runOn(l);
  assert.equal(r.exitCode, 1);
  const [e] = r.results.filter((x: any) => x.severity === 'error');
  assert.equal(e.resourceRef.kind, 'OperatingSystemManager');
  assert.match(
    e.message,
    /^the only input is the function config itself, as kustomize gives a generator: .* list its config under transformers:, not generators:$/,
  );
  // An empty input is no such mistake: nothing to do, no error.
  assert.equal(runOn({ ...base(), items: [] }).exitCode, 0);
});

test('only its own config as input, with defaultProfiles.emit: the default profiles are emitted, no error', () => {
  const l = base();
  l.functionConfig.spec.defaultProfiles = { emit: true };
  l.items = [structuredClone(l.functionConfig)];
  const r = runOn(l);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.ok(r.items.some((i: any) => i.kind === 'OperatingSystemProfile' && i.metadata.name === 'osp-ubuntu'));
});

test('a malformed bootstrap token, or an empty env var, is refused on the config field without quoting the value', () => {
  const withToken = (token: unknown, env: Record<string, string> = {}, files: Record<string, string> = {}) => {
    const l = base();
    l.functionConfig.spec.cluster = { bootstrapToken: token };
    return runOn(l, {
      env: (n) => env[n],
      readFile: (p) =>
        files[p] ??
        (() => {
          throw Object.assign(new Error('x'), { code: 'ENOENT' });
        })(),
    });
  };
  const errorOf = (r: any) => r.results.find((x: any) => x.severity === 'error');
  const bad = withToken({ env: 'OSM_TOKEN' }, { OSM_TOKEN: 'Not-A-Token-9f8e7d' });
  assert.equal(bad.exitCode, 1);
  assert.equal(errorOf(bad).field.path, 'spec.cluster.bootstrapToken');
  assert.equal(
    errorOf(bad).message,
    "environment variable OSM_TOKEN is not a bootstrap token: expected kubeadm's format [a-z0-9]{6}.[a-z0-9]{16}",
  );
  assert.ok(!bad.stdout.includes('Not-A-Token-9f8e7d') && !bad.stderr.includes('Not-A-Token-9f8e7d'));
  const newline = withToken({ file: '/run/token' }, {}, { '/run/token': 'abcdef.0123456789abcdef\n' });
  assert.equal(
    errorOf(newline).message,
    'file /run/token is not a bootstrap token: it ends with a line break (write it with printf %s, not echo)',
  );
  const empty = withToken({ env: 'OSM_TOKEN' }, { OSM_TOKEN: '' });
  assert.deepEqual(
    [errorOf(empty).field.path, errorOf(empty).message],
    [
      'spec.cluster.bootstrapToken.env',
      'environment variable OSM_TOKEN (named by spec.cluster.bootstrapToken.env) is set but empty',
    ],
  );
  assert.equal(withToken({ env: 'OSM_TOKEN' }, { OSM_TOKEN: 'abcdef.0123456789abcdef' }).exitCode, 0);
});

test('an OSP whose name or namespace the API server would refuse is an error on that field, never a map key', () => {
  // 3,000 OSPs named with 16,384 characters took 53 s (the profiles map and the render state keyed on them).
  for (const [field, value, message] of [
    ['name', `x${'a'.repeat(16_383)}`, /metadata\.name is not a valid Kubernetes name/],
    ['name', 'Example_Ubuntu', /metadata\.name is not a valid Kubernetes name/],
    ['namespace', 'a'.repeat(64), /metadata\.namespace is not a valid namespace/],
  ] as const) {
    expectError((l) => (osp(l, 'example-ubuntu').metadata[field] = value), {
      kind: 'OperatingSystemProfile',
      field: new RegExp(`^metadata\\.${field}$`),
      message,
    });
  }
});

test('an OSP file path longer than Linux writes, or a unit name longer than systemd takes, is an error on that field', () => {
  // A path is a key of every map of files (the template cache, overlays, lint, bom): 2,000 paths of 16,384
  // characters took 88 s for 50 MachineDeployments.
  const cases: Array<[string, (o: any) => void, RegExp, RegExp]> = [
    [
      'example-flatcar',
      (o) => (o.spec.provisioningConfig.files[0].path = `/${'d/'.repeat(2100)}f`),
      /files\[0\]\.path$/,
      /at most 4,096 bytes/,
    ],
    [
      'example-flatcar',
      (o) => (o.spec.provisioningConfig.files[0].path = `/etc/${'n'.repeat(256)}`),
      /files\[0\]\.path$/,
      /255 in each name/,
    ],
    [
      'example-flatcar',
      (o) => (o.spec.provisioningConfig.units = [{ name: `${'u'.repeat(252)}.service` }]),
      /units\[0\]\.name$/,
      /at most 255/,
    ],
  ];
  for (const [name, mutate, field, message] of cases)
    expectError((l) => mutate(osp(l, name)), { kind: 'OperatingSystemProfile', field, message });
});
