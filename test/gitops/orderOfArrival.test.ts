// Order of arrival (#24 §4). machine-controller (kubermatic/machine-controller v1.66.2,
// pkg/controller/machine/controller.go ensureInstanceExistsForMachine) creates an instance only once the Secret
// cloud-init-settings/<md>-<ns>-bootstrap-config exists with k8c.io/machine-deployment-revision equal to the
// MachineSet's revision: missing, it requeues every 3 s ("cloud config is not ready yet"); of another revision, it
// returns an error and backs off. So each route must apply a MachineDeployment's Secrets first, from the same render:
// - Argo CD: generated objects in sync wave -1 (gitops-engine runs waves in order and stops at a failed one);
// - Flux, one Kustomization: kustomize-controller's ApplyAllStaged dry-runs every object before applying any,
//   in kind order (Secrets before custom resources), so nothing comes before the Secrets;
// - Flux, the split layout: the MachineDeployments' Kustomization dependsOn the worker Secrets' one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { BUNDLE, EXAMPLE_SECRETS, EXAMPLES, identity, parseStream, runOk, tempDir, toolEnv } from './support.ts';

const REVISION = 'machinedeployment.clusters.k8s.io/revision';
const SECRET_REVISION = 'k8c.io/machine-deployment-revision';

/** Each rendered MachineDeployment's bootstrap Secret, found in `objects` with the revision it will have. */
function assertSecretsBeside(objects: any[], where: string): void {
  const mds = objects.filter(
    (o) => o.kind === 'MachineDeployment' && o.metadata.annotations?.['k8c.io/operating-system-profile'],
  );
  assert.ok(mds.length > 0, `${where}: MachineDeployments`);
  for (const md of mds) {
    const secret = objects.find(
      (o) =>
        o.kind === 'Secret' &&
        o.metadata.namespace === 'cloud-init-settings' &&
        o.metadata.name === `${md.metadata.name}-${md.metadata.namespace}-bootstrap-config`,
    );
    assert.ok(secret, `${where}: the bootstrap Secret of ${md.metadata.name} is in the same output`);
    assert.equal(
      secret.metadata.annotations[SECRET_REVISION],
      md.metadata.annotations[REVISION] ?? '1',
      `${where}: ${md.metadata.name}'s revision`,
    );
  }
}

// gitops-engine/pkg/sync/sync_tasks.go kindOrder (argo-cd v3.5.1): the kinds it knows, in apply order; others after.
const KIND_ORDER = [
  'Namespace',
  'NetworkPolicy',
  'ResourceQuota',
  'LimitRange',
  'PodSecurityPolicy',
  'PodDisruptionBudget',
  'ServiceAccount',
  'Secret',
  'SecretList',
  'ConfigMap',
];
const wave = (o: any) => Number(o.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? '0');

test('Argo CD: with gitops-sync-annotations argocd, every Secret a MachineDeployment needs is a wave before it', () => {
  const env = toolEnv({ ...EXAMPLE_SECRETS, ARGOCD_ENV_GITOPS_SYNC_ANNOTATIONS: 'argocd' });
  // The example app, with its cluster secrets from the environment as generate takes them from the config.
  const app = join(EXAMPLES, 'kpt');
  const objects = parseStream(runOk(process.execPath, [BUNDLE, 'generate'], { cwd: app, env }).stdout);
  assertSecretsBeside(objects, 'generate');
  // The order gitops-engine syncs in: by wave, then by kind (sync_context.go: waves one after another).
  const order = [...objects].sort((a, b) => wave(a) - wave(b) || kindRank(a) - kindRank(b));
  for (const md of objects.filter((o) => o.kind === 'MachineDeployment')) {
    for (const s of objects.filter((o) => o.kind === 'Secret')) {
      assert.ok(wave(s) < wave(md), `${identity(s)} (wave ${wave(s)}) before ${identity(md)} (wave ${wave(md)})`);
      assert.ok(order.indexOf(s) < order.indexOf(md));
    }
  }
  // Without the setting, nothing is added (OSM's bytes).
  const plain = parseStream(
    runOk(process.execPath, [BUNDLE, 'generate'], { cwd: app, env: toolEnv(EXAMPLE_SECRETS) }).stdout,
  );
  assert.ok(plain.every((o) => o.metadata.annotations?.['argocd.argoproj.io/sync-wave'] === undefined));
});

function kindRank(o: any): number {
  const i = KIND_ORDER.indexOf(o.kind);
  return i < 0 ? KIND_ORDER.length : i;
}

test('Flux, one Kustomization (examples/flux): the MachineDeployments and their Secrets are in the same build', () => {
  const built = parseStream(runOk('kubectl', ['kustomize', join(EXAMPLES, 'flux', 'deploy')]).stdout);
  assertSecretsBeside(built, 'examples/flux/deploy');
});

test("Flux, the split layout: the MachineDeployments' Kustomization dependsOn the worker Secrets', from the same render", () => {
  const out = join(tempDir(), 'deploy');
  runOk(
    process.execPath,
    [
      BUNDLE,
      'hydrate',
      join(EXAMPLES, 'flux', 'source'),
      out,
      '--config',
      join(EXAMPLES, 'flux', 'split', 'osm-config.yaml'),
    ],
    { env: toolEnv(EXAMPLE_SECRETS) },
  );
  const kustomizations = parseAllDocuments(
    readFileSync(join(EXAMPLES, 'flux', 'split', 'flux-system.yaml'), 'utf8'),
  ).map((d) => d.toJS());
  const sets = new Map<string, { ks: any; objects: any[] }>();
  for (const ks of kustomizations) {
    assert.equal(ks.apiVersion, 'kustomize.toolkit.fluxcd.io/v1');
    // Each path is a directory hydrate wrote with a kustomization of its own.
    const objects = parseStream(
      runOk('kubectl', ['kustomize', join(out, ks.spec.path.replace(/^\.\/deploy\//, ''))]).stdout,
    );
    assert.ok(objects.length > 0, ks.metadata.name);
    sets.set(ks.metadata.name, { ks, objects });
  }
  const holding = (pred: (o: any) => boolean) =>
    [...sets.values()].filter((s) => s.objects.some(pred)).map((s) => s.ks.metadata.name);
  const [mdSet] = holding((o) => o.kind === 'MachineDeployment');
  const [secretSet] = holding((o) => o.kind === 'Secret');
  const [oscSet] = holding((o) => o.kind === 'OperatingSystemConfig');
  assert.ok(
    mdSet && secretSet && oscSet && new Set([mdSet, secretSet, oscSet]).size === 3,
    `${mdSet} ${secretSet} ${oscSet}`,
  );
  const md = sets.get(mdSet)!.ks;
  const secrets = sets.get(secretSet)!.ks;
  assert.deepEqual(md.spec.dependsOn, [{ name: secretSet }]);
  // Same source: Flux waits for the dependency's last applied revision to be the source's (checkDependencies).
  assert.deepEqual(md.spec.sourceRef, secrets.spec.sourceRef);
  // Both in the worker cluster; the OSCs in the management cluster.
  assert.deepEqual(md.spec.kubeConfig, secrets.spec.kubeConfig);
  assert.equal(sets.get(oscSet)!.ks.spec.kubeConfig, undefined);
  // The Secrets the MachineDeployments need are in the set they depend on.
  assertSecretsBeside([...sets.get(mdSet)!.objects, ...sets.get(secretSet)!.objects], 'split');
  assert.ok(sets.get(mdSet)!.objects.every((o) => o.kind === 'MachineDeployment'));
});
