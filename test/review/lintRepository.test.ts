// `osm-krm lint` on the repository around the profiles (#24 §1, §3): objects Flux would substitute into, where the
// directory is applied by Flux, and bootstrap token expirations that will stop nodes joining.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runLintCommand } from '../../src/cli/lintCommand.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { runCommand, tempDir } from './reviewSupport.ts';

const EXAMPLE_OSP = readFileSync(join(REPO_ROOT, 'examples/kpt/operatingsystemprofile.yaml'), 'utf8');
/** The example OSP with a shell variable in its setup script. */
const OSP_WITH_VARIABLE = EXAMPLE_OSP.replace(
  "set -euo pipefail\n              echo 'kubelet",
  'set -euo pipefail\n              : "${HOME:?}"\n              echo \'kubelet',
);
const T0 = 1796083200; // 2026-12-01T00:00:00Z

function lint(dir: string, env: Record<string, string> = {}) {
  const r = runCommand(runLintCommand, [dir, '--format', 'json'], dir, {
    PATH: process.env.PATH,
    SOURCE_DATE_EPOCH: String(T0),
    ...env,
  });
  return { ...r, report: r.stdout.startsWith('{') ? JSON.parse(r.stdout) : undefined };
}

const fluxConfig = (extra = '') =>
  `apiVersion: osm-krm.dev/v1alpha1\nkind: OperatingSystemManager\nmetadata:\n  name: osm\n  annotations:\n    config.kubernetes.io/local-config: "true"\nspec:\n  gitops:\n    syncAnnotations: [flux]\n${extra}`;

test(
  'flux-substitution: an OSP with ${ where Flux applies the directory, on the line of the ${, with the fix',
  { timeout: 300_000 },
  () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'osp.yaml'), OSP_WITH_VARIABLE);
    // No sign of Flux: no finding (an Argo CD or kpt repository).
    assert.deepEqual(
      lint(dir).report.findings.filter((f: any) => f.check === 'flux-substitution'),
      [],
    );
    writeFileSync(join(dir, 'osm-config.yaml'), fluxConfig());
    const findings = lint(dir).report.findings.filter((f: any) => f.check === 'flux-substitution');
    assert.equal(findings.length, 1);
    assert.equal(findings[0].severity, 'warning');
    assert.equal(findings[0].file, 'osp.yaml');
    assert.equal(findings[0].line, OSP_WITH_VARIABLE.split('\n').findIndex((l) => l.includes('${HOME')) + 1);
    assert.match(
      findings[0].message,
      /kustomize\.toolkit\.fluxcd\.io\/substitute: disabled \(do not escape as \$\$\{\.\.\.\}/,
    );
    // Opted out: no finding.
    writeFileSync(
      join(dir, 'osp.yaml'),
      OSP_WITH_VARIABLE.replace(
        /^metadata:\n/m,
        'metadata:\n  annotations:\n    kustomize.toolkit.fluxcd.io/substitute: disabled\n',
      ),
    );
    assert.deepEqual(
      lint(dir).report.findings.filter((f: any) => f.check === 'flux-substitution'),
      [],
    );
  },
);

test("flux-substitution: a MachineDeployment in hydrate's output whose rendered parts hold ${", () => {
  const dir = tempDir();
  writeFileSync(join(dir, '.osm-krm-hydrate'), '');
  const md = readFileSync(join(REPO_ROOT, 'examples/kpt/machinedeployment-workers-a.yaml'), 'utf8');
  writeFileSync(join(dir, 'md.yaml'), md.replace(/kubelet: .*/, 'kubelet: ${KUBELET_VERSION}'));
  const r = lint(dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const [f] = r.report.findings;
  assert.equal(f.check, 'flux-substitution');
  assert.match(
    f.message,
    /at spec\.template\.spec\.versions\.kubelet of this MachineDeployment after osm-krm rendered its Secrets/,
  );
  assert.equal(f.line, md.split('\n').findIndex((l) => l.includes('kubelet:')) + 1);
});

test('bootstrap-token-expiration: a fixed date passed is an error, within 7 days a warning, later nothing (time from SOURCE_DATE_EPOCH)', () => {
  const dir = tempDir();
  const config = (date: string) =>
    writeFileSync(
      join(dir, 'osm-config.yaml'),
      `apiVersion: osm-krm.dev/v1alpha1\nkind: OperatingSystemManager\nmetadata:\n  name: osm\nspec:\n  cluster:\n    bootstrapTokenKey: {env: OSM_KEY}\n    bootstrapTokenExpiration: "${date}"\n`,
    );
  config('2026-11-30T00:00:00Z');
  let r = lint(dir);
  assert.equal(r.code, 1);
  assert.deepEqual(
    r.report.findings.map((f: any) => [f.severity, f.check, f.line]),
    [['error', 'bootstrap-token-expiration', 8]],
  );
  assert.match(r.report.findings[0].message, /has passed \(time from SOURCE_DATE_EPOCH=1796083200\)/);
  config('2026-12-05T00:00:00Z');
  r = lint(dir);
  assert.equal(r.code, 0);
  assert.deepEqual(
    r.report.findings.map((f: any) => [f.severity, f.message.includes('passes in 96h')]),
    [['warning', true]],
  );
  config('2026-12-31T00:00:00Z');
  assert.deepEqual(lint(dir).report.findings, []);
});

test('bootstrap-token-expiration: committed token Secrets whose newest one for a MachineDeployment has expired', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'kube-system'));
  const secret = (id: string, md: string, expiration: string) =>
    `apiVersion: v1\nkind: Secret\ntype: bootstrap.kubernetes.io/token\nmetadata:\n  name: bootstrap-token-${id}\n  namespace: kube-system\n  labels:\n    machinedeployment.k8s.io/name: ${md}\ndata:\n  token-id: ${Buffer.from(id).toString('base64')}\n  expiration: ${Buffer.from(expiration).toString('base64')}\n`;
  // workers-a: the previous window's token expired, the current one not (a rotation in good order).
  writeFileSync(join(dir, 'kube-system', 'a1.yaml'), secret('aaaaa1', 'kube-system-workers-a', '2026-11-30T00:00:00Z'));
  writeFileSync(join(dir, 'kube-system', 'a2.yaml'), secret('aaaaa2', 'kube-system-workers-a', '2026-12-02T00:00:00Z'));
  // workers-b: nothing rendered since its newest token expired.
  writeFileSync(join(dir, 'kube-system', 'b1.yaml'), secret('bbbbb1', 'kube-system-workers-b', '2026-11-29T00:00:00Z'));
  writeFileSync(join(dir, 'kube-system', 'b2.yaml'), secret('bbbbb2', 'kube-system-workers-b', '2026-11-30T12:00:00Z'));
  const r = lint(dir);
  assert.equal(r.code, 1);
  assert.deepEqual(
    r.report.findings.map((f: any) => [f.severity, f.file]),
    [['error', 'kube-system/b2.yaml']],
  );
  assert.match(
    r.report.findings[0].message,
    /newest bootstrap token Secret for kube-system-workers-b expired at 2026-11-30T12:00:00Z/,
  );
});

test('env-name: a config naming a variable osm-krm will not read is a warning on its line, unless $OSM_KRM_ENV_NAMES lists it', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'osp.yaml'), EXAMPLE_OSP);
  writeFileSync(
    join(dir, 'osm-config.yaml'),
    `apiVersion: osm-krm.dev/v1alpha1\nkind: OperatingSystemManager\nmetadata:\n  name: osm\nspec:\n  cluster:\n    cloudInitGetterToken: {env: OSM_CLOUD_INIT_GETTER_TOKEN}\n    bootstrapToken: {env: GITHUB_TOKEN}\n  rhelSubscription:\n    all:\n      rhelActivationKey: {env: OSM_KRM_SECRETS_DIR}\n`,
  );
  const envNames = (r: ReturnType<typeof lint>) =>
    r.report.findings
      .filter((f: any) => f.check === 'env-name')
      .map((f: any) => [f.severity, f.line, f.message.split(',')[0]]);
  const r = lint(dir);
  assert.equal(r.code, 0);
  assert.deepEqual(envNames(r), [
    ['warning', 8, 'spec.cluster.bootstrapToken.env names environment variable "GITHUB_TOKEN"'],
    ['warning', 11, 'spec.rhelSubscription.all.rhelActivationKey.env names environment variable "OSM_KRM_SECRETS_DIR"'],
  ]);
  assert.deepEqual(envNames(lint(dir, { OSM_KRM_ENV_NAMES: 'GITHUB_TOKEN' })), [
    ['warning', 11, 'spec.rhelSubscription.all.rhelActivationKey.env names environment variable "OSM_KRM_SECRETS_DIR"'],
  ]);
});
