// The four routes give the same manifests for the same inputs: kustomize (container transformer), kpt
// (Kptfile pipeline), Argo CD (`osm-krm generate`) and Flux (`osm-krm hydrate`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  BUNDLE,
  EXAMPLE_MANIFESTS,
  EXAMPLE_SECRETS,
  EXAMPLES,
  byIdentity,
  copyTree,
  isLocalConfig,
  objectsInFiles,
  parseStream,
  runOk,
  tempDir,
  toolEnv,
} from './support.ts';

const FLUX_SUBSTITUTE_KEY = 'kustomize.toolkit.fluxcd.io/substitute';

function withoutFluxOptOut(objects: Record<string, any>): Record<string, any> {
  return Object.fromEntries(
    Object.entries(objects).map(([id, o]) => {
      const c = structuredClone(o);
      delete c.metadata.annotations?.[FLUX_SUBSTITUTE_KEY];
      if (c.metadata.annotations !== undefined && Object.keys(c.metadata.annotations).length === 0)
        delete c.metadata.annotations;
      return [id, c];
    }),
  );
}

const INPUT_FILES = [
  'operatingsystemprofile.yaml',
  'machinedeployment-workers-a.yaml',
  'machinedeployment-workers-b.yaml',
  'cluster-info.yaml',
];
const INPUT_DIRS = ['kpt', 'kustomize/base', 'argocd/app', 'flux/source'];

test('the examples share the same input files', () => {
  for (const f of INPUT_FILES) {
    const reference = readFileSync(join(EXAMPLES, 'kpt', f), 'utf8');
    for (const d of INPUT_DIRS)
      assert.equal(
        readFileSync(join(EXAMPLES, d, f), 'utf8'),
        reference,
        `examples/${d}/${f} differs from examples/kpt/${f}`,
      );
  }
});

test('kustomize, kpt, generate and hydrate produce the same manifests', () => {
  const env = toolEnv(EXAMPLE_SECRETS);
  const applied = (objects: any[]) =>
    byIdentity(objects.filter((o) => !isLocalConfig(o) && o.kind !== 'OperatingSystemManager'));

  const kustomize = applied(
    parseStream(
      runOk('kubectl', ['kustomize', '--enable-alpha-plugins', join(EXAMPLES, 'kustomize', 'container')], { env })
        .stdout,
    ),
  );

  const pkg = copyTree(join(EXAMPLES, 'kpt'), join(tempDir(), 'pkg'));
  runOk('kpt', ['fn', 'render', pkg, '--allow-exec'], { env });
  const kpt = applied(objectsInFiles(pkg, (rel) => !rel.startsWith('.')));

  const generate = applied(
    parseStream(runOk(process.execPath, [BUNDLE, 'generate'], { cwd: join(EXAMPLES, 'kpt'), env }).stdout),
  );

  const out = join(tempDir(), 'out');
  runOk(process.execPath, [BUNDLE, 'hydrate', join(EXAMPLES, 'kpt'), out], { env });
  const hydrate = applied(objectsInFiles(out, (rel) => rel !== 'kustomization.yaml'));

  assert.deepEqual(Object.keys(kpt), EXAMPLE_MANIFESTS);
  assert.deepEqual(kustomize, kpt, 'kustomize vs kpt');
  assert.deepEqual(generate, kpt, 'generate vs kpt');
  // hydrate's output is for Flux: what it generates and the OSPs it copies opt out of Flux's substitution; the
  // MachineDeployments it copies are the user's, as they are.
  for (const [id, o] of Object.entries<any>(hydrate)) {
    assert.equal(
      o.metadata.annotations?.[FLUX_SUBSTITUTE_KEY],
      o.kind === 'MachineDeployment' ? undefined : 'disabled',
      id,
    );
  }
  assert.deepEqual(withoutFluxOptOut(hydrate), kpt, 'hydrate vs kpt');
});
