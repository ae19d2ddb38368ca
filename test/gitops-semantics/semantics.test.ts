// The GitOps semantics of issue #5 through the function: revisions tracked across renders, OSP immutability,
// management/worker split, sync annotations for immutable Secrets, derived bootstrap tokens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runOn, findItem } from '../support/runInProcess.ts';
import { REPO_ROOT } from '../support/paths.ts';

const base = () => parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'));
const path = (i: any) => String(i.metadata?.annotations?.['internal.config.kubernetes.io/path'] ?? '');
const md = (l: any, name: string) =>
  l.items.find((i: any) => i.kind === 'MachineDeployment' && i.metadata.name === name);

/** Feeds a render's output back as the next input, as kpt does. */
function rerender(previous: any[], mutate: (items: any[]) => void, functionConfig: unknown) {
  const items = structuredClone(previous);
  mutate(items);
  return runOn({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items, functionConfig });
}

test('revisions follow machine-controller across create -> edit -> edit -> roll back, fed by the state', () => {
  const l = base();
  for (const i of l.items)
    if (i.kind === 'MachineDeployment') delete i.metadata.annotations['machinedeployment.clusters.k8s.io/revision'];
  const revision = (r: any) =>
    findItem(r.items, 'Secret', 'ubuntu-workers-kube-system-bootstrap-config').metadata.annotations[
      'k8c.io/machine-deployment-revision'
    ];
  const setAmi = (ami: string) => (items: any[]) =>
    (items.find(
      (i: any) => i.kind === 'MachineDeployment' && i.metadata.name === 'ubuntu-workers',
    ).spec.template.spec.providerSpec.value.cloudProviderSpec.ami = ami);
  const r1 = runOn(l);
  assert.equal(r1.exitCode, 0, r1.stderr);
  const r2 = rerender(r1.items, setAmi('ami-2'), l.functionConfig);
  const r3 = rerender(r2.items, setAmi('ami-3'), l.functionConfig);
  const r4 = rerender(
    r3.items,
    (items) =>
      delete items.find((i: any) => i.kind === 'MachineDeployment' && i.metadata.name === 'ubuntu-workers').spec
        .template.spec.providerSpec.value.cloudProviderSpec.ami,
    l.functionConfig,
  );
  const r5 = rerender(r4.items, () => {}, l.functionConfig);
  assert.deepEqual([r1, r2, r3, r4, r5].map(revision), ['1', '2', '3', '4', '4']);
  // The other MachineDeployment never changed.
  assert.equal(
    findItem(r4.items, 'Secret', 'flatcar-workers-kube-system-bootstrap-config').metadata.annotations[
      'k8c.io/machine-deployment-revision'
    ],
    '1',
  );
});

test('an OSP changed under the same spec.version is refused when the previous render is in the input', () => {
  const l = base();
  const r1 = runOn(l);
  const r2 = rerender(
    r1.items,
    (items) =>
      (items.find(
        (i: any) => i.metadata?.name === 'example-ubuntu',
      ).spec.provisioningConfig.files[0].content.inline.data += '# edited\n'),
    l.functionConfig,
  );
  assert.equal(r2.exitCode, 1);
  assert.ok(
    r2.results.some(
      (x: any) =>
        x.resourceRef?.name === 'example-ubuntu' &&
        x.field?.path === 'spec.version' &&
        /bump spec.version/.test(x.message),
    ),
    JSON.stringify(r2.results),
  );
  const r3 = rerender(
    r1.items,
    (items) => {
      const osp = items.find((i: any) => i.metadata?.name === 'example-ubuntu');
      osp.spec.provisioningConfig.files[0].content.inline.data += '# edited\n';
      osp.spec.version = 'v0.2.0';
    },
    l.functionConfig,
  );
  assert.equal(r3.exitCode, 0, r3.stderr);
  assert.equal(
    findItem(r3.items, 'OperatingSystemConfig', 'ubuntu-workers-kube-system-config').metadata.annotations[
      'k8c.io/osp-version'
    ],
    'v0.2.0',
  );
});

test('management/worker split puts OSCs and Secrets under two trees', () => {
  const l = base();
  l.functionConfig.spec.gitops = { split: true };
  const r = runOn(l);
  assert.equal(r.exitCode, 0, r.stderr);
  const generated = r.items.filter((i: any) => path(i).startsWith('osm-generated/'));
  assert.ok(generated.length > 0);
  for (const i of generated) {
    const expected = i.kind === 'Secret' ? 'osm-generated/worker/' : 'osm-generated/management/';
    assert.ok(path(i).startsWith(expected), `${i.kind} ${i.metadata.name} at ${path(i)}`);
  }
});

test('sync annotations let Argo CD and Flux re-create the immutable Secrets', () => {
  const l = base();
  l.functionConfig.spec.gitops = { syncAnnotations: ['argocd', 'flux'] };
  const r = runOn(l);
  for (const i of r.items.filter(
    (x: any) => path(x).startsWith('osm-generated/') && (x.immutable === true || x.kind === 'OperatingSystemConfig'),
  )) {
    assert.equal(i.metadata.annotations['argocd.argoproj.io/sync-options'], 'Force=true,Replace=true');
    assert.equal(i.metadata.annotations['kustomize.toolkit.fluxcd.io/force'], 'enabled');
  }
  // Without the switch, objects stay exactly as OSM writes them.
  const plain = runOn(base());
  assert.ok(!JSON.stringify(plain.items).includes('sync-options'));
});

test('derived bootstrap tokens: a token Secret per MachineDeployment, stable across renders', () => {
  const l = base();
  l.items = l.items.filter((i: any) => i.type !== 'bootstrap.kubernetes.io/token');
  l.functionConfig.spec.cluster = { bootstrapTokenKey: { env: 'OSM_TOKEN_KEY' } };
  const env = {
    env: (n: string) => (n === 'OSM_TOKEN_KEY' ? 'a-long-enough-secret-key-for-tests' : undefined),
    readFile: () => {
      throw new Error('no');
    },
  };
  const r1 = runOn(l, env);
  assert.equal(r1.exitCode, 0, r1.stderr);
  const tokens = r1.items.filter((i: any) => i.type === 'bootstrap.kubernetes.io/token');
  assert.equal(tokens.length, 2);
  const r2 = runOn({ ...l, items: r1.items }, env);
  assert.equal(r2.stdout, r1.stdout);
  assert.ok(!r1.stderr.includes('a-long-enough-secret-key-for-tests'));
  void md;
});

test('a template error and the version rule are both reported, the template error with its file, line and column', () => {
  const l = base();
  const osp = l.items.find((i: any) => i.metadata?.name === 'example-ubuntu');
  osp.metadata.annotations = { ...(osp.metadata.annotations ?? {}), 'config.kubernetes.io/path': 'osp.yaml' };
  const r1 = runOn(l);
  assert.equal(r1.exitCode, 0, r1.stderr);
  const r2 = rerender(
    r1.items,
    (items) =>
      (items.find(
        (i: any) => i.metadata?.name === 'example-ubuntu',
      ).spec.provisioningConfig.files[0].content.inline.data += 'line\n{{ .Broken \n'),
    l.functionConfig,
  );
  assert.equal(r2.exitCode, 1);
  const errors = r2.results.filter((x: any) => x.severity === 'error');
  assert.ok(
    errors.some((x: any) => x.field?.path === 'spec.version' && /bump spec.version/.test(x.message)),
    JSON.stringify(errors),
  );
  const template = errors.find((x: any) => x.field?.path !== 'spec.version');
  assert.ok(template, JSON.stringify(errors));
  assert.equal(template.resourceRef?.name, 'example-ubuntu');
  assert.equal(template.file?.path, 'osp.yaml');
  assert.match(template.field?.path ?? '', /^spec\.provisioningConfig\.files\[0\]/);
  assert.match(template.message, /:\d+:\d+/, template.message);
});

test('errors in several items are all reported: an invalid MachineDeployment and a template error elsewhere', () => {
  const l = base();
  const flatcar = l.items.find((i: any) => i.kind === 'MachineDeployment' && i.metadata.name === 'flatcar-workers');
  flatcar.spec.template.spec.providerSpec.value.sshPublicKeys = ['not a key\nwith a line break'];
  l.items.find(
    (i: any) => i.metadata?.name === 'example-ubuntu',
  ).spec.provisioningConfig.files[0].content.inline.data += '{{ .Broken \n';
  const r = runOn(l);
  assert.equal(r.exitCode, 1);
  const errors = r.results.filter((x: any) => x.severity === 'error');
  assert.ok(
    errors.some((x: any) => x.resourceRef?.name === 'flatcar-workers'),
    JSON.stringify(errors),
  );
  assert.ok(
    errors.some((x: any) => x.resourceRef?.name === 'example-ubuntu' && /unclosed action/.test(x.message)),
    JSON.stringify(errors),
  );
  // A broken profile: its own error only, not "not found" on the MachineDeployments that name it.
  const m = base();
  m.items.find((i: any) => i.metadata?.name === 'example-ubuntu').spec.osName = 42;
  const broken = runOn(m);
  assert.equal(broken.exitCode, 1);
  assert.ok(
    broken.results.some((x: any) => x.severity === 'error' && x.resourceRef?.name === 'example-ubuntu'),
    JSON.stringify(broken.results),
  );
  assert.ok(!broken.results.some((x: any) => /not found/.test(x.message)), JSON.stringify(broken.results));
});
