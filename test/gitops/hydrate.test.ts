// Flux route: `osm-krm hydrate SRC OUT` writes the rendered manifests (one file per resource and a
// kustomization.yaml) that a Flux Kustomization applies. Checked with the real kubectl kustomize (what
// Flux's kustomize-controller runs, plugins disabled) and the built bundle.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/paths.ts';
import { runHydrateCommand } from '../../src/cli/hydrateCommand.ts';
import {
  BUNDLE,
  EXAMPLE_MANIFESTS,
  EXAMPLE_SECRETS,
  EXAMPLES,
  ORCHESTRATOR_ANNOTATION,
  changedPaths,
  copyTree,
  identity,
  isLocalConfig,
  parseStream,
  run,
  runOk,
  snapshot,
  tempDir,
  toolEnv,
} from './support.ts';

const FLUX = join(EXAMPLES, 'flux');

/** In-process: the command as main.ts calls it, with its own environment and working directory. */
function hydrate(
  args: string[],
  env: Record<string, string | undefined> = { ...toolEnv(), ...EXAMPLE_SECRETS },
  cwd = REPO_ROOT,
) {
  let stdout = '';
  let stderr = '';
  const code = runHydrateCommand(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env, cwd });
  return { code, stdout, stderr };
}

function source(): string {
  return copyTree(join(FLUX, 'source'), join(tempDir('osm-krm-hydrate-'), 'source'));
}

function hydrateOk(src: string, out: string): void {
  const r = hydrate([src, out]);
  assert.equal(r.code, 0, r.stderr);
}

test('hydrate writes one file per resource and a kustomization.yaml; a second run changes nothing', () => {
  const src = source();
  const out = join(src, '..', 'out');
  const first = hydrate([src, out]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stderr, '');
  const once = snapshot(out);
  const kustomization = parse(once.get('kustomization.yaml')!);
  assert.deepEqual(
    [...once.keys()].sort(),
    [
      '.osm-krm-hydrate',
      'kustomization.yaml',
      'osm-generated/state/osm-krm-state.yaml',
      ...kustomization.resources,
    ].sort(),
  );
  const listed = kustomization.resources.flatMap((f: string) => parseStream(once.get(f)!));
  assert.equal(listed.length, kustomization.resources.length, 'one resource per file');
  assert.deepEqual(listed.map(identity).sort(), EXAMPLE_MANIFESTS);
  for (const o of listed) {
    assert.ok(!isLocalConfig(o) && o.kind !== 'OperatingSystemManager', identity(o));
    for (const k of Object.keys(o.metadata.annotations ?? {})) assert.doesNotMatch(k, ORCHESTRATOR_ANNOTATION);
  }
  assert.match(first.stdout, /13 file\(s\) in .*: 13 written, 0 removed, 0 unchanged/);

  const second = hydrate([src, out]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /0 written, 0 removed, 13 unchanged/);
  assert.deepEqual(changedPaths(once, snapshot(out)), []);
});

test('the hydrated directory builds with kustomize as Flux builds it (no plugins), without the state', () => {
  const src = source();
  const out = join(src, '..', 'out');
  hydrateOk(src, out);
  const built = parseStream(runOk('kubectl', ['kustomize', out]).stdout);
  assert.deepEqual(built.map(identity).sort(), EXAMPLE_MANIFESTS);
  // With the config's syncAnnotations: [flux], Flux re-creates changed immutable Secrets.
  for (const o of built.filter((x) => x.kind === 'Secret' && x.immutable))
    assert.equal(o.metadata.annotations['kustomize.toolkit.fluxcd.io/force'], 'enabled');
});

test("a deleted MachineDeployment's files are removed, with the directories they leave empty", () => {
  const src = source();
  const out = join(src, '..', 'out');
  hydrateOk(src, out);
  const before = snapshot(out);
  rmSync(join(src, 'machinedeployment-workers-b.yaml'));
  const r = hydrate([src, out]);
  assert.equal(r.code, 0, r.stderr);
  const after = snapshot(out);
  const removed = [...before.keys()].filter((p) => !after.has(p)).sort();
  assert.deepEqual(
    removed,
    [
      'inputs/kube-system/machinedeployment_workers-b.yaml',
      ...[...before.keys()].filter((p) => p.startsWith('osm-generated/kube-system/workers-b/')).sort(),
    ].sort(),
  );
  assert.match(r.stdout, /5 removed/);
  assert.ok(!existsSync(join(out, 'osm-generated/kube-system/workers-b')));
  assert.ok(!parse(after.get('kustomization.yaml')!).resources.some((f: string) => f.includes('workers-b')));
  assert.ok(!readFileSync(join(out, '.osm-krm-hydrate'), 'utf8').includes('workers-b'));
});

test('the state in OUT carries MachineDeployment revisions from run to run', () => {
  const src = source();
  const out = join(src, '..', 'out');
  hydrateOk(src, out);
  const md = join(src, 'machinedeployment-workers-a.yaml');
  writeFileSync(md, readFileSync(md, 'utf8').replace('kubelet: 1.34.2', 'kubelet: 1.34.3'));
  hydrateOk(src, out);
  const osc = (name: string) =>
    parse(
      readFileSync(
        join(out, `osm-generated/kube-system/${name}/operatingsystemconfig_${name}-kube-system-config.yaml`),
        'utf8',
      ),
    );
  assert.equal(osc('workers-a').metadata.annotations['k8c.io/machine-deployment-revision'], '2');
  assert.equal(osc('workers-b').metadata.annotations['k8c.io/machine-deployment-revision'], '1');
  const once = snapshot(out);
  hydrateOk(src, out);
  assert.deepEqual(changedPaths(once, snapshot(out)), []);
});

test('files hydrate did not write are never overwritten or deleted', () => {
  const src = source();
  const out = join(src, '..', 'out');
  hydrateOk(src, out);
  writeFileSync(join(out, 'README.md'), 'ours\n');
  writeFileSync(
    join(out, 'inputs', 'kube-system', 'extra.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n',
  );
  rmSync(join(src, 'machinedeployment-workers-b.yaml'));
  hydrateOk(src, out);
  assert.equal(readFileSync(join(out, 'README.md'), 'utf8'), 'ours\n');
  assert.ok(existsSync(join(out, 'inputs', 'kube-system', 'extra.yaml')));

  // A directory with a kustomization.yaml of someone else's: refused, nothing written.
  const foreign = join(src, '..', 'foreign');
  mkdirSync(foreign);
  writeFileSync(join(foreign, 'kustomization.yaml'), 'resources: []\n');
  const r = hydrate([src, foreign]);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /refusing to overwrite 1 file\(s\) in .* that osm-krm hydrate did not write: kustomization\.yaml/,
  );
  assert.deepEqual([...snapshot(foreign).keys()], ['kustomization.yaml']);
});

test('a function error writes nothing and exits 1 with the reason on stderr', () => {
  const src = source();
  const out = join(src, '..', 'out');
  hydrateOk(src, out);
  const before = snapshot(out);
  const r = hydrate([src, out], { ...toolEnv(), OSM_BOOTSTRAP_TOKEN: EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /OSM_CLOUD_INIT_GETTER_TOKEN .* is not set/);
  assert.match(r.stderr, /nothing written/);
  assert.deepEqual(changedPaths(before, snapshot(out)), []);
});

test('OUT inside SRC, a missing SRC and wrong arguments are refused', () => {
  const src = source();
  assert.match(hydrate([src, join(src, 'out')]).stderr, /must not be SRC or lie inside it/);
  assert.equal(hydrate([src, src]).code, 1);
  assert.match(hydrate([join(src, 'nope'), join(src, '..', 'out')]).stderr, /is not a directory/);
  const usage = hydrate([src]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /expected SRC and OUT/);
  assert.match(usage.stderr, /^usage: osm-krm hydrate SRC OUT/m);
  assert.equal(hydrate(['--help']).code, 0);
});

test('a kustomization SRC is built first; --config names the config explicitly', () => {
  const src = source();
  const config = join(src, '..', 'osm-config.yaml');
  // kustomize drops local-config resources: the cluster facts come from the config.
  const info = parse(readFileSync(join(src, 'cluster-info.yaml'), 'utf8'));
  const cluster = parse(info.data.kubeconfig).clusters[0].cluster;
  writeFileSync(join(src, '..', 'ca.crt'), Buffer.from(cluster['certificate-authority-data'], 'base64'));
  writeFileSync(
    config,
    readFileSync(join(src, 'osm-config.yaml'), 'utf8').replace(
      '  cluster:\n',
      `  cluster:\n    server: ${cluster.server}\n    caCert:\n      file: ${join(src, '..', 'ca.crt')}\n`,
    ),
  );
  rmSync(join(src, 'osm-config.yaml'));
  writeFileSync(
    join(src, 'kustomization.yaml'),
    'resources:\n  - operatingsystemprofile.yaml\n  - machinedeployment-workers-a.yaml\n  - machinedeployment-workers-b.yaml\n',
  );
  const viaKustomize = join(src, '..', 'out-k');
  const r = hydrate([src, viaKustomize, '--config', relative(REPO_ROOT, config)]);
  assert.equal(r.code, 0, r.stderr);
  const plain = join(src, '..', 'out-plain');
  hydrateOk(join(FLUX, 'source'), plain);
  // Same files with the same objects (kustomize re-orders keys, so the text of inputs, and the hashes of the
  // marker, may differ).
  const withoutHashes = (text: string) => text.replace(/^[0-9a-f]{64} {2}/gm, '');
  const [a, b] = [plain, viaKustomize].map((d) =>
    [...snapshot(d)].map(([rel, text]) => [rel, rel.endsWith('.yaml') ? parseStream(text) : withoutHashes(text)]),
  );
  assert.deepEqual(b, a);
});

test('the committed Flux example is up to date: hydrating its source again changes nothing', () => {
  const deploy = copyTree(join(FLUX, 'deploy'), join(tempDir('osm-krm-flux-'), 'deploy'));
  // The CLI, as CI runs it.
  const r = run(process.execPath, [BUNDLE, 'hydrate', join(FLUX, 'source'), deploy], { env: toolEnv(EXAMPLE_SECRETS) });
  assert.equal(r.status, 0, r.stderr);
  const stale = changedPaths(snapshot(join(FLUX, 'deploy')), snapshot(deploy));
  assert.deepEqual(
    stale,
    [],
    `examples/flux/deploy is stale; review and regenerate it with examples/flux/README.md's command`,
  );
  assert.match(r.stdout, /0 written, 0 removed, 13 unchanged/);
});

test('the Flux Kustomization points at the hydrated directory of its GitRepository', () => {
  const [repo, kustomization] = parseStream(readFileSync(join(FLUX, 'flux-system', 'osm-workers.yaml'), 'utf8'));
  assert.equal(repo.kind, 'GitRepository');
  assert.equal(kustomization.kind, 'Kustomization');
  assert.deepEqual(kustomization.spec.sourceRef, { kind: 'GitRepository', name: repo.metadata.name });
  assert.equal(kustomization.metadata.namespace, repo.metadata.namespace);
  // spec.path is relative to the repository root: this repository's layout.
  const path = join(REPO_ROOT, kustomization.spec.path);
  assert.equal(path, join(FLUX, 'deploy'));
  assert.ok(existsSync(join(path, 'kustomization.yaml')));
});
