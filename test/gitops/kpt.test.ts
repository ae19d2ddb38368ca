// kpt route, end to end with the real kpt: the example package's Kptfile pipeline (`exec: osm-krm`, the
// bundle on PATH) with `kpt fn render --allow-exec`, and the same function imperatively with `kpt fn eval --exec`.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import {
  BUNDLE,
  EXAMPLE_IMAGE,
  EXAMPLE_SECRETS,
  EXAMPLES,
  changedPaths,
  copyTree,
  run,
  runOk,
  snapshot,
  tempDir,
  toolEnv,
} from './support.ts';

const env = toolEnv(EXAMPLE_SECRETS);

function examplePackage(): string {
  return copyTree(join(EXAMPLES, 'kpt'), join(tempDir('osm-krm-kpt-'), 'pkg'));
}

function render(pkg: string): void {
  runOk('kpt', ['fn', 'render', pkg, '--allow-exec'], { env });
}

const OUTPUTS_A = [
  'osm-generated/kube-system/workers-a/operatingsystemconfig_workers-a-kube-system-config.yaml',
  'osm-generated/kube-system/workers-a/secret_kube-system-workers-a-kubelet-bootstrap-config.yaml',
  'osm-generated/kube-system/workers-a/secret_workers-a-kube-system-bootstrap-config.yaml',
  'osm-generated/kube-system/workers-a/secret_workers-a-kube-system-provisioning-config.yaml',
];
const STATE = 'osm-generated/state/osm-krm-state.yaml';

test('render adds only osm-generated/ files, keeps every input byte for byte, and a second render changes nothing', () => {
  const pkg = examplePackage();
  const before = snapshot(pkg);
  render(pkg);
  const once = snapshot(pkg);
  const changed = changedPaths(before, once);
  assert.ok(changed.length > 0);
  assert.deepEqual(
    changed.filter((p) => !p.startsWith('osm-generated/')),
    [],
    'an input file changed',
  );
  assert.ok(
    changed.every((p) => !before.has(p)),
    'only new files',
  );
  assert.ok(OUTPUTS_A.every((p) => once.has(p)) && once.has(STATE));
  // Comments in inputs survive (they are byte-identical, checked above; this shows there were some).
  assert.match(once.get('osm-config.yaml')!, /^# The osm-krm function config/);

  render(pkg);
  assert.deepEqual(changedPaths(once, snapshot(pkg)), []);
});

test('editing one MachineDeployment changes only its own outputs (and its line of the state)', () => {
  const pkg = examplePackage();
  render(pkg);
  const before = snapshot(pkg);
  const md = join(pkg, 'machinedeployment-workers-a.yaml');
  writeFileSync(md, readFileSync(md, 'utf8').replace('kubelet: 1.34.2', 'kubelet: 1.34.3'));
  render(pkg);
  const after = snapshot(pkg);
  assert.deepEqual(
    changedPaths(before, after),
    ['machinedeployment-workers-a.yaml', ...OUTPUTS_A.filter((p) => !p.includes('kubelet-bootstrap')), STATE].sort(),
  );
  // The template changed, so machine-controller's revision moves on to 2; workers-b keeps its state entry.
  const osc = parse(after.get(OUTPUTS_A[0]!)!);
  assert.equal(osc.metadata.annotations['k8c.io/machine-deployment-revision'], '2');
  const [stateBefore, stateAfter] = [before, after].map((s) => parse(s.get(STATE)!).data);
  assert.equal(stateAfter['md.kube-system.workers-b'], stateBefore['md.kube-system.workers-b']);
  assert.notEqual(stateAfter['md.kube-system.workers-a'], stateBefore['md.kube-system.workers-a']);
});

test('deleting a MachineDeployment removes its generated files on the next render', () => {
  const pkg = examplePackage();
  render(pkg);
  const before = snapshot(pkg);
  rmSync(join(pkg, 'machinedeployment-workers-b.yaml'));
  render(pkg);
  const after = snapshot(pkg);
  const removed = [...before.keys()].filter((p) => !after.has(p));
  assert.deepEqual(
    removed.filter((p) => !p.startsWith('osm-generated/kube-system/workers-b/')),
    ['machinedeployment-workers-b.yaml'],
  );
  assert.equal(removed.length, 1 + 4);
  assert.ok(OUTPUTS_A.every((p) => after.get(p) === before.get(p)));
});

// kpt passes different orchestrator annotations to render (package-path) and eval; none may reach the output.
test('kpt fn eval --exec writes exactly what the pipeline writes', () => {
  const rendered = examplePackage();
  render(rendered);
  const evaluated = examplePackage();
  runOk('kpt', ['fn', 'eval', evaluated, '--exec', BUNDLE, '--fn-config', join(evaluated, 'osm-config.yaml')], { env });
  assert.deepEqual(snapshot(evaluated), snapshot(rendered));
});

test('kpt fn eval -i (the image, KPT_FN_RUNTIME=podman) with -e writes what the pipeline writes', () => {
  const rendered = examplePackage();
  render(rendered);
  const evaluated = examplePackage();
  runOk(
    'kpt',
    [
      'fn',
      'eval',
      evaluated,
      '-i',
      EXAMPLE_IMAGE,
      '--fn-config',
      join(evaluated, 'osm-config.yaml'),
      '-e',
      'OSM_CLOUD_INIT_GETTER_TOKEN',
      '-e',
      'OSM_BOOTSTRAP_TOKEN',
    ],
    {
      env: { ...env, KPT_FN_RUNTIME: 'podman' },
    },
  );
  assert.deepEqual(snapshot(evaluated), snapshot(rendered));
});

test('without --allow-exec kpt refuses the pipeline and writes nothing', () => {
  const pkg = examplePackage();
  const before = snapshot(pkg);
  const r = run('kpt', ['fn', 'render', pkg], { env });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--allow-exec/);
  assert.deepEqual(changedPaths(before, snapshot(pkg)), []);
});

// Derived bootstrap tokens (spec.cluster.bootstrapTokenKey) emit a bootstrap token Secret into osm-generated/;
// on the next render it comes back as an input and must not be taken for a user-supplied token.
test('re-rendering with key-derived bootstrap tokens changes nothing', () => {
  const pkg = examplePackage();
  const config = join(pkg, 'osm-config.yaml');
  writeFileSync(
    config,
    readFileSync(config, 'utf8').replace(
      /bootstrapToken:\n(\s+)env: OSM_BOOTSTRAP_TOKEN/,
      'bootstrapTokenKey:\n$1env: OSM_BOOTSTRAP_TOKEN_KEY',
    ),
  );
  const keyEnv = toolEnv({
    OSM_CLOUD_INIT_GETTER_TOKEN: EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN,
    OSM_BOOTSTRAP_TOKEN_KEY: 'example-bootstrap-token-key-0123456789',
  });
  runOk('kpt', ['fn', 'render', pkg, '--allow-exec'], { env: keyEnv });
  const once = snapshot(pkg);
  assert.ok([...once.keys()].some((p) => /secret_bootstrap-token-/.test(p)));
  runOk('kpt', ['fn', 'render', pkg, '--allow-exec'], { env: keyEnv });
  assert.deepEqual(changedPaths(once, snapshot(pkg)), []);
});
