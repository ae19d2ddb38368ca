// Facts and state that would do harm, reported on every route (the built bundle, kubectl kustomize, kpt):
// - cluster facts that are not local-config would be applied over the cluster's own kube-public/cluster-info
//   (or the cloud-init-getter token Secret): an error naming the object and the annotation;
// - a render state committed by hand (kustomize, Argo CD) that is older than its templates: the next template
//   change would repeat a revision machine-controller already used (machine-controller gives every applied
//   template change the next revision: pkg/controller/machinedeployment/sync.go, getNewMachineSet). A warning
//   under kustomize and generate; in diff a warning line, and a second one where the committed state gives
//   another revision than machine-controller reaches after the base. kpt and hydrate write the state back:
//   nothing to say there.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { EXAMPLE_SECRETS, copyExample, mkdirp, osmKrm, run, tempDir } from './routeSupport.ts';

const NOT_LOCAL =
  /the kube-public\/cluster-info ConfigMap is not local-config: it would be applied over the cluster's own \(which kubeadm's bootstrap signer maintains and nodes join with\) and pruned with this app; mark it config\.kubernetes\.io\/local-config: "true"/;

function withoutLocalConfig(file: string): void {
  const text = readFileSync(file, 'utf8');
  const without = text.replace(/^ {2}annotations:\n {4}config\.kubernetes\.io\/local-config: "true"\n/m, '');
  assert.notEqual(without, text);
  writeFileSync(file, without);
}

function secretsDir(): string {
  const dir = mkdirp(join(tempDir(), 'secrets'));
  writeFileSync(join(dir, 'cloud-init-getter-token'), EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN);
  writeFileSync(join(dir, 'bootstrap-token'), EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN);
  return dir;
}

test('cluster-info that is not local-config is an error on every route, naming the object and the annotation', () => {
  const app = copyExample('flux/source');
  withoutLocalConfig(join(app, 'cluster-info.yaml'));
  // The function on stdin: an error result on the ConfigMap itself, nothing generated.
  const list = {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: ['cluster-info', 'operatingsystemprofile', 'machinedeployment-workers-a'].map((f) =>
      parse(readFileSync(join(app, `${f}.yaml`), 'utf8')),
    ),
    functionConfig: parse(readFileSync(join(app, 'osm-config.yaml'), 'utf8')),
  };
  const fn = osmKrm([], { input: JSON.stringify(list), env: EXAMPLE_SECRETS });
  assert.equal(fn.code, 1);
  const result = (parse(fn.stdout).results as any[]).find((r) => r.severity === 'error');
  assert.deepEqual(
    [result.resourceRef.kind, result.resourceRef.name, result.field.path],
    ['ConfigMap', 'cluster-info', 'metadata.annotations.config.kubernetes.io/local-config'],
  );
  assert.match(result.message, NOT_LOCAL);
  assert.ok(!(parse(fn.stdout).items as any[]).some((i) => i.kind === 'Secret'), 'nothing generated');
  // generate, hydrate, render.
  const generate = osmKrm(['generate'], { cwd: app, env: { ...EXAMPLE_SECRETS, OSM_KRM_SECRETS_DIR: secretsDir() } });
  assert.equal(generate.code, 1);
  assert.equal(generate.stdout, '');
  assert.match(generate.stderr, NOT_LOCAL);
  const out = join(tempDir(), 'out');
  const hydrate = osmKrm(['hydrate', app, out], { env: EXAMPLE_SECRETS });
  assert.equal(hydrate.code, 1);
  assert.match(hydrate.stderr, NOT_LOCAL);
  assert.ok(!existsSync(join(out, 'inputs/kube-public/configmap_cluster-info.yaml')));
  const render = osmKrm(['render', app], { env: EXAMPLE_SECRETS });
  assert.equal(render.code, 1);
  assert.match(render.stderr, NOT_LOCAL);
  // kubectl kustomize: the build fails with it.
  const k = copyExample('kustomize');
  withoutLocalConfig(join(k, 'base/cluster-info.yaml'));
  const kustomize = run('kubectl', ['kustomize', '--enable-alpha-plugins', join(k, 'container')], {
    env: EXAMPLE_SECRETS,
  });
  assert.notEqual(kustomize.code, 0);
  assert.equal(kustomize.stdout, '');
  assert.match(kustomize.stderr, NOT_LOCAL);
});

test('a cloud-init-getter token Secret holding a token that is not local-config is an error; one without a token is not', () => {
  const app = copyExample('flux/source');
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'cloud-init-getter-token', namespace: 'cloud-init-settings' },
    stringData: { token: 'in-git-token' },
  };
  writeFileSync(join(app, 'token.yaml'), JSON.stringify(secret));
  const r = osmKrm(['render', app], { env: EXAMPLE_SECRETS });
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /Secret cloud-init-settings\/cloud-init-getter-token \(token\.yaml\): the cloud-init-settings\/cloud-init-getter-token Secret holds a token and is not local-config: it would be applied over the cloud-init-getter ServiceAccount's token Secret in the cluster/,
  );
  // A ServiceAccount token Secret for the cluster to fill in (no token in Git) is the user's to apply.
  writeFileSync(
    join(app, 'token.yaml'),
    JSON.stringify({
      ...secret,
      type: 'kubernetes.io/service-account-token',
      stringData: undefined,
      metadata: { ...secret.metadata, annotations: { 'kubernetes.io/service-account.name': 'cloud-init-getter' } },
    }),
  );
  assert.equal(osmKrm(['render', app], { env: EXAMPLE_SECRETS }).code, 0);
});

/** A copy of `dir` (plain manifests) with the render state committed beside its manifests, as README says. */
function withCommittedState(dir: string): string {
  const out = join(tempDir(), 'out');
  const r = osmKrm(['hydrate', dir, out], { env: EXAMPLE_SECRETS });
  assert.equal(r.code, 0, r.stderr);
  mkdirp(join(dir, 'osm-generated/state'));
  cpSync(join(out, 'osm-generated/state/osm-krm-state.yaml'), join(dir, 'osm-generated/state/osm-krm-state.yaml'));
  return dir;
}

const kubelet = (file: string, version: string) =>
  writeFileSync(file, readFileSync(file, 'utf8').replace(/kubelet: [0-9.]+/, `kubelet: ${version}`));
const STALE = (route: string, revision: number) =>
  new RegExp(
    `the committed render state \\(osm-generated/state/osm-krm-state\\.yaml\\) records revision ${revision - 1} for another spec\\.template: this render gives revision ${revision}, and ${route} never writes the state back; commit the state this render computes with this change, or the next change of spec\\.template gives revision ${revision} again, which machine-controller will already have used`,
  );

test('kustomize: a committed state older than a template is a warning on the MachineDeployment (stderr)', () => {
  const k = copyExample('kustomize');
  // README's way to make the state for a kustomize base: kpt fn eval with the function, then copy it.
  const out = join(tempDir(), 'kpt-out');
  const eval_ = run(
    'kpt',
    ['fn', 'eval', join(k, 'base'), '--exec', 'osm-krm', '--fn-config', join(k, 'container/osm.yaml'), '-o', out],
    { env: EXAMPLE_SECRETS },
  );
  assert.equal(eval_.code, 0, eval_.stderr);
  mkdirp(join(k, 'base/osm-generated/state'));
  cpSync(join(out, 'osm-generated/state/osm-krm-state.yaml'), join(k, 'base/osm-generated/state/osm-krm-state.yaml'));
  writeFileSync(
    join(k, 'base/kustomization.yaml'),
    readFileSync(join(k, 'base/kustomization.yaml'), 'utf8') + '  - osm-generated/state/osm-krm-state.yaml\n',
  );
  const clean = run('kubectl', ['kustomize', '--enable-alpha-plugins', join(k, 'container')], { env: EXAMPLE_SECRETS });
  assert.equal(clean.code, 0, clean.stderr);
  assert.doesNotMatch(clean.stderr, /committed render state/, 'a current state says nothing');
  kubelet(join(k, 'base/machinedeployment-workers-a.yaml'), '1.35.0');
  const r = run('kubectl', ['kustomize', '--enable-alpha-plugins', join(k, 'container')], { env: EXAMPLE_SECRETS });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /osm-krm: warning: MachineDeployment kube-system\/workers-a spec\.template: /);
  assert.match(r.stderr, STALE('kustomize', 2));
  assert.doesNotMatch(r.stderr, /workers-b.*committed render state/);
});

test('generate (Argo CD): the same warning on stderr; kpt and hydrate, which write the state back, say nothing', () => {
  const app = withCommittedState(copyExample('flux/source'));
  kubelet(join(app, 'machinedeployment-workers-a.yaml'), '1.35.0');
  const generate = osmKrm(['generate'], { cwd: app, env: { ...EXAMPLE_SECRETS, OSM_KRM_SECRETS_DIR: secretsDir() } });
  assert.equal(generate.code, 0, generate.stderr);
  assert.match(generate.stderr, /^osm-krm: warning: MachineDeployment kube-system\/workers-a: /m);
  assert.match(generate.stderr, STALE('Argo CD', 2));
  const hydrate = osmKrm(['hydrate', app, join(tempDir(), 'out')], { env: EXAMPLE_SECRETS });
  assert.equal(hydrate.code, 0, hydrate.stderr);
  assert.doesNotMatch(hydrate.stderr, /committed render state/);
  const pkg = copyExample('kpt');
  assert.equal(run('kpt', ['fn', 'render', pkg, '--allow-exec'], { env: EXAMPLE_SECRETS }).code, 0);
  kubelet(join(pkg, 'machinedeployment-workers-a.yaml'), '1.35.0');
  const kpt = run('kpt', ['fn', 'render', pkg, '--allow-exec'], { env: EXAMPLE_SECRETS });
  assert.equal(kpt.code, 0, kpt.stderr);
  assert.doesNotMatch(kpt.stdout + kpt.stderr, /committed render state/);
});

test('diff: a pull request that changes a template without the state, and a committed state that gives another revision than machine-controller reaches', () => {
  const base = withCommittedState(copyExample('flux/source'));
  const head = join(tempDir(), 'head');
  cpSync(base, head, { recursive: true });
  kubelet(join(head, 'machinedeployment-workers-a.yaml'), '1.35.0');
  const r = osmKrm(['diff', base, head], { env: EXAMPLE_SECRETS });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^\* revision 1 -> 2$/m);
  assert.match(r.stdout, new RegExp(`^\\* warning: ${STALE('kustomize or Argo CD', 2).source}$`, 'm'));
  // The base already lagged (its template changed without the state): the committed state now gives 2 where
  // machine-controller, after the base, is at 3.
  const later = join(tempDir(), 'later');
  cpSync(head, later, { recursive: true });
  kubelet(join(later, 'machinedeployment-workers-a.yaml'), '1.36.0');
  const lag = osmKrm(['diff', head, later], { env: EXAMPLE_SECRETS });
  assert.equal(lag.code, 1, lag.stderr);
  assert.match(lag.stdout, /^\* revision 2 -> 3$/m);
  assert.match(
    lag.stdout,
    /^\* warning: the render state committed here \(osm-generated\/state\/osm-krm-state\.yaml\) gives revision 2, but machine-controller will be at revision 3 after the base: kustomize and Argo CD render from the committed state, so these Secrets would carry a revision machine-controller does not use; update the committed state in this change$/m,
  );
  // With the state updated in the same change, nothing is said.
  const fixed = join(tempDir(), 'fixed');
  cpSync(head, fixed, { recursive: true });
  mkdirSync(join(fixed, 'osm-generated/state'), { recursive: true });
  const hydrated = join(tempDir(), 'hydrated');
  assert.equal(osmKrm(['hydrate', base, hydrated], { env: EXAMPLE_SECRETS }).code, 0);
  assert.equal(osmKrm(['hydrate', head, hydrated], { env: EXAMPLE_SECRETS }).code, 0);
  cpSync(
    join(hydrated, 'osm-generated/state/osm-krm-state.yaml'),
    join(fixed, 'osm-generated/state/osm-krm-state.yaml'),
  );
  const ok = osmKrm(['diff', base, fixed], { env: EXAMPLE_SECRETS });
  assert.equal(ok.code, 1);
  assert.doesNotMatch(ok.stdout, /render state/);
});
