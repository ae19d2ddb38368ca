// A MachineDeployment without k8c.io/operating-system-profile gets nothing rendered: its machines never join.
// That is a warning naming spec.defaultProfiles.defaultAnnotation on every route (the function's results and
// stderr, kubectl kustomize, kpt, generate, hydrate, render, diff), and `diff` counts it as a node change.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { EXAMPLE_SECRETS, EXAMPLES, copyExample, mkdirp, osmKrm, run, tempDir } from './routeSupport.ts';

const WARNING =
  /warning: MachineDeployment kube-system\/workers-c [^:]*\(machinedeployment-workers-c\.yaml\): no k8c\.io\/operating-system-profile annotation: nothing is rendered for this MachineDeployment, so its machines get no bootstrap or provisioning Secret and never join; .*spec\.defaultProfiles\.defaultAnnotation: true/;

/** workers-b, renamed workers-c, without the profile annotation. */
function unannotated(): string {
  const b = readFileSync(join(EXAMPLES, 'kpt/machinedeployment-workers-b.yaml'), 'utf8');
  const c = b
    .replaceAll('workers-b', 'workers-c')
    .replace(/^ {2}annotations:\n {4}k8c\.io\/operating-system-profile: .*\n/m, '');
  assert.doesNotMatch(c, /operating-system-profile/);
  return c;
}

test('the function (stdin): a warning result on the MachineDeployment, and the same line on stderr', () => {
  const list = parse(readFileSync(join(EXAMPLES, 'basic/resourcelist.yaml'), 'utf8'));
  const md = parse(unannotated());
  md.metadata.annotations = { 'config.kubernetes.io/path': 'machinedeployment-workers-c.yaml' };
  list.items.push(md);
  const r = osmKrm([], { input: JSON.stringify(list) });
  assert.equal(r.code, 0, r.stderr);
  const results = parse(r.stdout).results as any[];
  const result = results.find((x) => x.resourceRef?.name === 'workers-c');
  assert.equal(result?.severity, 'warning');
  assert.equal(result.field.path, 'metadata.annotations.k8c.io/operating-system-profile');
  assert.match(r.stderr, WARNING);
});

test("kubectl kustomize shows it (kustomize prints a function's stderr, never its results)", () => {
  const dir = copyExample('kustomize');
  writeFileSync(join(dir, 'base/machinedeployment-workers-c.yaml'), unannotated());
  writeFileSync(
    join(dir, 'base/kustomization.yaml'),
    readFileSync(join(dir, 'base/kustomization.yaml'), 'utf8') + '  - machinedeployment-workers-c.yaml\n',
  );
  const r = run('kubectl', ['kustomize', '--enable-alpha-plugins', join(dir, 'container')], { env: EXAMPLE_SECRETS });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /osm-krm: warning: MachineDeployment kube-system\/workers-c [^:]*: no k8c\.io\/operating-system-profile annotation: .*spec\.defaultProfiles\.defaultAnnotation/,
  );
});

test("kpt fn render shows it among the function's results", () => {
  const pkg = copyExample('kpt');
  writeFileSync(join(pkg, 'machinedeployment-workers-c.yaml'), unannotated());
  const r = run('kpt', ['fn', 'render', pkg, '--allow-exec'], { env: EXAMPLE_SECRETS });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout + r.stderr,
    /\[warning\] [^ ]*MachineDeployment\/kube-system\/workers-c .*no k8c\.io\/operating-system-profile annotation/,
  );
});

test('generate, hydrate and render print it on stderr', () => {
  const app = copyExample('flux/source');
  writeFileSync(join(app, 'machinedeployment-workers-c.yaml'), unannotated());
  const secrets = mkdirp(join(tempDir(), 'secrets'));
  writeFileSync(join(secrets, 'cloud-init-getter-token'), EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN);
  writeFileSync(join(secrets, 'bootstrap-token'), EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN);
  const generate = osmKrm(['generate'], { cwd: app, env: { ...EXAMPLE_SECRETS, OSM_KRM_SECRETS_DIR: secrets } });
  assert.equal(generate.code, 0, generate.stderr);
  assert.match(generate.stderr, WARNING);
  const hydrate = osmKrm(['hydrate', app, join(tempDir(), 'out')], { env: EXAMPLE_SECRETS });
  assert.equal(hydrate.code, 0, hydrate.stderr);
  assert.match(hydrate.stderr, WARNING);
  const render = osmKrm(['render', app], { env: EXAMPLE_SECRETS });
  assert.equal(render.code, 0, render.stderr);
  assert.match(render.stderr, WARNING);
});

test('diff: a pull request adding an unannotated MachineDeployment is a node change (exit 1), named in the output', () => {
  const base = copyExample('flux/source');
  const head = copyExample('flux/source');
  writeFileSync(join(head, 'machinedeployment-workers-c.yaml'), unannotated());
  const r = osmKrm(['diff', base, head], { env: EXAMPLE_SECRETS });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    /^# Warnings\n\* MachineDeployment kube-system\/workers-c \(machinedeployment-workers-c\.yaml\): no k8c\.io\/operating-system-profile annotation/m,
  );
  assert.match(
    r.stdout,
    /^# MachineDeployment kube-system\/workers-c\n\* new, not rendered \(no k8c\.io\/operating-system-profile annotation\): machine-controller makes its machines, and they get no Secrets and never join$/m,
  );
  // Its template changing later is a node change too: machines roll, and the new ones get nothing.
  const later = copyExample('flux/source');
  writeFileSync(
    join(later, 'machinedeployment-workers-c.yaml'),
    unannotated().replace('kubelet: 1.34.2', 'kubelet: 1.35.0'),
  );
  const changed = osmKrm(['diff', head, later], { env: EXAMPLE_SECRETS });
  assert.equal(changed.code, 1, changed.stdout + changed.stderr);
  assert.match(
    changed.stdout,
    /^\* not rendered \(no k8c\.io\/operating-system-profile annotation\); spec\.template changed: machine-controller rolls the machines, and the new ones get no Secrets and never join$/m,
  );
  // Removing the annotation from a rendered one: it is no longer rendered, and says why.
  const dropped = copyExample('flux/source');
  writeFileSync(
    join(dropped, 'machinedeployment-workers-b.yaml'),
    readFileSync(join(dropped, 'machinedeployment-workers-b.yaml'), 'utf8').replace(
      /^ {2}annotations:\n {4}k8c\.io\/operating-system-profile: .*\n/m,
      '',
    ),
  );
  const gone = osmKrm(['diff', base, dropped], { env: EXAMPLE_SECRETS });
  assert.equal(gone.code, 1);
  assert.match(
    gone.stdout,
    /^\* no longer rendered \(no k8c\.io\/operating-system-profile annotation\): its OperatingSystemConfig and Secrets are removed from the output/m,
  );
  // Unchanged on both sides: listed among the warnings, no node change.
  const same = osmKrm(['diff', head, head], { env: EXAMPLE_SECRETS });
  assert.equal(same.code, 0);
  assert.match(
    same.stdout,
    /^# Warnings\n\* MachineDeployment kube-system\/workers-c .*\n\nosm-krm diff: no node changes\n$/,
  );
});
