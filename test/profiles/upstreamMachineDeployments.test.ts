// machine-controller's own MachineDeployments (examples, e2e fixtures, the legacy-field conversion fixtures; read
// from ../shared/upstream/mc, never copied) through the function, once with our embedded profiles and once with
// upstream OSM's default OSPs. The outcome of each MachineDeployment is asserted, and everything osm-krm writes
// is validated: cloud-configs with cloud-init's schema (both profile sets), and for our profiles every shell
// script with shellcheck and `bash -n`, every Ignition config (rendered as 3.3.0) with ignition-validate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { runOn } from '../support/runInProcess.ts';
import { REPO_ROOT, SHARED, UPSTREAM_OSM } from '../support/paths.ts';
import { functionConfig, isShellScript, resourceList, userDataOf } from './support/profileRuns.ts';
import { checkConfigs, ignitionValidate, shellcheck } from './support/validators.ts';

const MC = join(SHARED, 'upstream/mc/machine-controller');
const run = promisify(execFile);

// The operating systems machine-controller runs on each cloud: its compatibility matrix
// (docs/compatibility-matrix.md) for the clouds its e2e tests cover, its examples for the community providers.
const MC_OS_MATRIX: Record<string, string[]> = {
  aws: ['ubuntu', 'flatcar', 'amzn2', 'rhel', 'rockylinux'],
  azure: ['ubuntu', 'flatcar', 'rhel', 'rockylinux'],
  digitalocean: ['ubuntu', 'rockylinux'],
  equinixmetal: ['ubuntu', 'flatcar', 'rockylinux'],
  gce: ['ubuntu', 'flatcar'],
  hetzner: ['ubuntu', 'rockylinux'],
  kubevirt: ['ubuntu', 'flatcar', 'rhel', 'rockylinux'],
  nutanix: ['ubuntu'],
  openstack: ['ubuntu', 'flatcar', 'rhel', 'rockylinux'],
  'vmware-cloud-director': ['ubuntu', 'flatcar'],
  vsphere: ['ubuntu', 'flatcar', 'rhel', 'rockylinux'],
  alibaba: ['ubuntu'],
  baremetal: ['ubuntu'],
  linode: ['ubuntu'],
  scaleway: ['ubuntu'],
  vultr: ['ubuntu'],
  anexia: ['flatcar'],
  opennebula: ['flatcar'],
};

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOsmKrmProfileMatrixKey0000000000000000000 e2e';
const NUMERIC = new Set([
  'DISK_SIZE',
  'OS_DISK_SIZE',
  'DATA_DISK_SIZE',
  'IP_OCTET',
  'NUTANIX_PORT',
  'INSTANCE_READY_TIMEOUT',
  'INSTANCE_READY_CHECK_PERIOD',
  'MAX_PRICE',
  'ANEXIA_VLAN_ID',
]);

function substitute(text: string, os: string): string {
  const values: Record<string, string> = {
    OS_NAME: os,
    KUBERNETES_VERSION: '1.34.1',
    YOUR_PUBLIC_KEY: KEY,
    MACHINE_NAME: 'worker',
    PROVISIONING_UTILITY: os === 'flatcar' ? 'ignition' : 'cloud-init',
    DIST_UPGRADE_ON_BOOT: 'false',
    DISABLE_AUTO_UPDATE: 'true',
    RHEL_SUBSCRIPTION_MANAGER_USER: 'rhel-user',
    RHEL_SUBSCRIPTION_MANAGER_PASSWORD: 'rhel-pass',
  };
  return text.replace(
    /<< *([A-Z0-9_]+) *>>/g,
    (_, name: string) =>
      values[name] ?? (NUMERIC.has(name) ? '10' : `placeholder-${name.toLowerCase().replaceAll('_', '-')}`),
  );
}

interface Case {
  name: string;
  source: string;
  os: string;
  cloud: string;
  object: any;
}

const SOURCES = [
  ...readdirSync(join(MC, 'examples'))
    .filter((f) => f.endsWith('-machinedeployment.yaml'))
    .map((f) => `examples/${f}`),
  ...readdirSync(join(MC, 'test/e2e/provisioning/testdata'))
    .filter((f) => /^machinedeployment-.*\.ya?ml$/.test(f))
    .map((f) => `test/e2e/provisioning/testdata/${f}`),
  'sdk/apis/cluster/v1alpha1/conversions/testdata/clusterv1alpha1machineDeploymentWithProviderConfig/hetzner.yaml',
  'sdk/apis/cluster/v1alpha1/conversions/testdata/migrated_clusterv1alpha1machineDeploymentWithProviderConfig/hetzner.yaml',
];

function cases(): Case[] {
  const out: Case[] = [];
  for (const source of SOURCES) {
    const text = readFileSync(join(MC, source), 'utf8');
    const providerValue = (os: string) => {
      const md = parseAllDocuments(substitute(text, os))
        .map((d) => d.toJS())
        .find((o) => o?.kind === 'MachineDeployment');
      return md.spec.template.spec.providerSpec?.value ?? md.spec.template.spec.providerConfig.value;
    };
    const value = providerValue('ubuntu');
    // Some examples mention << OS_NAME >> only in a comment.
    const parameterised = providerValue('flatcar').operatingSystem !== value.operatingSystem;
    const oses = parameterised ? MC_OS_MATRIX[value.cloudProvider]! : [value.operatingSystem];
    for (const os of oses) {
      const object = parseAllDocuments(substitute(text, os))
        .map((d) => d.toJS())
        .find((o) => o?.kind === 'MachineDeployment');
      const stem = basename(source)
        .replace(/\.ya?ml$/, '')
        .replace(/^machinedeployment-/, 'e2e-')
        .replace(/-machinedeployment$/, '');
      const prefix = source.includes('/conversions/') ? (source.includes('migrated_') ? 'migrated-' : 'legacy-') : '';
      const name = `${prefix}${stem}${parameterised ? `-${os}` : ''}`;
      object.metadata.name = name;
      object.metadata.namespace = 'kube-system';
      out.push({ name, source, os, cloud: value.cloudProvider, object });
    }
  }
  return out;
}

const upstreamProfiles = readdirSync(join(UPSTREAM_OSM, 'deploy/osps/default'))
  .sort()
  .map((f) => {
    const osp = parse(readFileSync(join(UPSTREAM_OSM, 'deploy/osps/default', f), 'utf8'));
    osp.metadata.namespace = 'kube-system';
    return osp;
  });

/** What each MachineDeployment must give: the error it must get, or a render (with the warnings listed). */
function expectedOutcome(c: Case, profiles: 'embedded' | 'upstream'): { error?: RegExp; warnings: RegExp[] } {
  if (c.object.spec.template.spec.providerConfig)
    return {
      error:
        /^providerSpec cannot be empty: this MachineDeployment uses the legacy field spec\.template\.spec\.providerConfig/,
      warnings: [],
    };
  if (c.object.spec.template.spec.providerSpec.value.network?.cidr && c.os !== 'flatcar')
    return { error: /^static IP config is not supported with: /, warnings: [] };
  const kubelet = String(c.object.spec.template.spec.versions.kubelet);
  const warnings = /^1\.3[3-6]\./.test(kubelet)
    ? []
    : [/^kubelet v[\d.]+ is outside the supported range: machine-controller supports Kubernetes 1\.33–1\.36/];
  if (profiles === 'upstream') {
    const flatcarCloudInit =
      c.os === 'flatcar' &&
      c.object.spec.template.spec.providerSpec.value.operatingSystemSpec?.provisioningUtility === 'cloud-init';
    const osp = upstreamProfiles.find(
      (p) => p.metadata.name === (flatcarCloudInit ? 'osp-flatcar-cloud-init' : `osp-${c.os}`),
    );
    const clouds = osp.spec.supportedCloudProviders.map((p: any) => p.name);
    if (!clouds.includes(c.cloud))
      return {
        error: new RegExp(
          `^OperatingSystemProfile "${osp.metadata.name}" does not support cloud provider "${c.cloud}" \\(its supportedCloudProviders: [a-z, -]+\\)$`,
        ),
        warnings: [],
      };
  }
  return { warnings };
}

const CASES = cases();

interface SetRun {
  cloudConfigs: Array<{ origin: string; text: string }>;
  scripts: Array<{ origin: string; content: string }>;
  rendered: number;
}

/**
 * One run for the MachineDeployments that must render (the function generates nothing when any result is an
 * error) and one for those that must fail, each result asserted per MachineDeployment.
 */
function runSet(profiles: 'embedded' | 'upstream'): SetRun {
  const config = functionConfig({ defaultProfiles: { defaultAnnotation: true } });
  const osps = profiles === 'upstream' ? upstreamProfiles : [];
  const failing = CASES.filter((c) => expectedOutcome(c, profiles).error);
  const rendering = CASES.filter((c) => !expectedOutcome(c, profiles).error);
  const out: SetRun = { cloudConfigs: [], scripts: [], rendered: 0 };
  // Errors found while reading the inputs stop a run before anything renders, so each failing one runs alone.
  for (const [group, mustFail] of [[rendering, false], ...failing.map((c) => [[c], true] as const)] as const) {
    const r = runOn(resourceList([...osps, ...group.map((c) => c.object)], config));
    assert.equal(r.exitCode, mustFail ? 1 : 0, `${profiles}: ${r.stderr.slice(0, 3000)}`);
    const unexpected = r.results.filter(
      (x: any) => x.severity !== 'info' && !group.some((c) => c.name === x.resourceRef?.name),
    );
    assert.deepEqual(unexpected, [], `${profiles}: results on other resources`);
    for (const c of group) {
      const want = expectedOutcome(c, profiles);
      const mine = r.results.filter((x: any) => x.resourceRef?.name === c.name && x.severity !== 'info');
      const errors = mine.filter((x: any) => x.severity === 'error').map((x: any) => x.message);
      const warnings = mine.filter((x: any) => x.severity === 'warning').map((x: any) => x.message);
      const where = `${profiles}: ${c.name} (${c.source})`;
      if (want.error) {
        assert.equal(errors.length, 1, `${where}: ${JSON.stringify(mine)}`);
        assert.match(errors[0], want.error, where);
        continue;
      }
      assert.deepEqual(errors, [], where);
      assert.equal(warnings.length, want.warnings.length, `${where}: ${JSON.stringify(warnings)}`);
      want.warnings.forEach((w, i) => assert.match(warnings[i], w, where));
      out.rendered++;
      for (const type of ['bootstrap', 'provisioning']) {
        const secret = r.items.find(
          (i: any) => i.kind === 'Secret' && i.metadata.name === `${c.name}-kube-system-${type}-config`,
        );
        assert.ok(secret, `${where}: ${type}`);
        const ud = userDataOf(secret);
        const origin = `${profiles}/${c.name}/${type}`;
        if (ud.format === 'cloud-config') out.cloudConfigs.push({ origin, text: ud.text });
        for (const f of ud.files)
          if (isShellScript(f)) out.scripts.push({ origin: `${origin}${f.path}`, content: f.content });
      }
    }
    if (mustFail)
      assert.equal(
        r.items.filter((i: any) => i.kind === 'Secret' && i.data?.['cloud-config']).length,
        0,
        `${profiles}: nothing is generated when a MachineDeployment fails`,
      );
  }
  return out;
}

/** Distinct contents written to files; returns the paths and the origin of each. */
function writeDistinct(
  items: Array<{ origin: string; content: string }>,
  ext: string,
): { paths: string[]; origin: Map<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-mc-mds-'));
  const seen = new Map<string, string>();
  const origin = new Map<string, string>();
  for (const it of items) {
    if (seen.has(it.content)) continue;
    const path = join(dir, `${seen.size}${ext}`);
    writeFileSync(path, it.content);
    seen.set(it.content, path);
    origin.set(path, it.origin);
  }
  return { paths: [...seen.values()], origin };
}

const report = (problems: Array<{ file: string; message: string }>, origin: Map<string, string>) =>
  problems
    .slice(0, 10)
    .map((p) => `${origin.get(p.file) ?? p.file}: ${p.message}`)
    .join('\n');

test('every machine-controller MachineDeployment: the outcome per profile set, 0 validator findings', async (t) => {
  assert.ok(CASES.length >= 100, `${CASES.length} cases`);
  // Every cloud machine-controller provisions is among them.
  assert.deepEqual([...new Set(CASES.map((c) => c.cloud))].sort(), Object.keys(MC_OS_MATRIX).sort());
  const embedded = runSet('embedded');
  const upstream = runSet('upstream');
  // Our profiles render every MachineDeployment machine-controller can run except the two invalid ones.
  assert.equal(embedded.rendered, CASES.filter((c) => !expectedOutcome(c, 'embedded').error).length);
  t.diagnostic(
    `${CASES.length} MachineDeployments: ${embedded.rendered} rendered with the embedded profiles, ${upstream.rendered} with upstream's`,
  );

  const configs = writeDistinct(
    [...embedded.cloudConfigs, ...upstream.cloudConfigs].map((c) => ({ origin: c.origin, content: c.text })),
    '.yaml',
  );
  const scripts = writeDistinct(embedded.scripts, '.sh');
  const [allConfigProblems, shellProblems] = await Promise.all([
    checkConfigs(configs.paths, []),
    shellcheck(scripts.paths),
  ]);
  // Two RHEL fixtures carry no subscription credentials, and OSM writes rh_subscription with null values then.
  // Upstream's OSPs keep that; our osp-rhel leaves rh_subscription out once it is marked `when-given` (#14).
  const rhelWhenGiven =
    parse(readFileSync(join(REPO_ROOT, 'src/profiles/osp-rhel.yaml'), 'utf8')).metadata.annotations?.[
      'osm-krm.dev/rh-subscription'
    ] === 'when-given';
  const withoutCredentials = new Set(
    CASES.filter(
      (c) =>
        c.os === 'rhel' &&
        !expectedOutcome(c, 'embedded').error &&
        !c.object.spec.template.spec.providerSpec.value.operatingSystemSpec?.rhelSubscriptionManagerUser,
    ).map((c) => c.name),
  );
  assert.deepEqual([...withoutCredentials].sort(), [
    'e2e-aws-ebs-encryption-enabled-rhel',
    'e2e-vsphere-resource-pool-rhel',
  ]);
  const known = (p: { file: string; message: string }) => {
    const [set, md] = configs.origin.get(p.file)!.split('/');
    return (
      withoutCredentials.has(md!) &&
      (set === 'upstream' || !rhelWhenGiven) &&
      /^Cloud config schema errors: rh_subscription\.password: None is not of type 'string', rh_subscription\.username: None is not of type 'string'$/.test(
        p.message,
      )
    );
  };
  const configProblems = allConfigProblems.filter((p) => !known(p));
  assert.deepEqual(configProblems, [], report(configProblems, configs.origin));
  assert.deepEqual(shellProblems, [], report(shellProblems, scripts.origin));
  const syntax: Array<{ file: string; message: string }> = [];
  for (const path of scripts.paths) {
    try {
      await run('bash', ['-n', path]);
    } catch (e) {
      syntax.push({ file: path, message: String((e as { stderr?: string }).stderr ?? e) });
    }
  }
  assert.deepEqual(syntax, [], report(syntax, scripts.origin));
  t.diagnostic(
    `${configs.paths.length} distinct cloud-configs, ${scripts.paths.length} distinct scripts of ours checked`,
  );
});

test('our Flatcar (Ignition) MachineDeployments as Ignition 3.3.0 pass ignition-validate', async () => {
  const config = functionConfig({ defaultProfiles: { defaultAnnotation: true }, ignitionSpec: '3.3.0' });
  const flatcar = CASES.filter(
    (c) =>
      c.os === 'flatcar' &&
      !expectedOutcome(c, 'embedded').error &&
      c.object.spec.template.spec.providerSpec.value.operatingSystemSpec?.provisioningUtility !== 'cloud-init',
  );
  assert.ok(flatcar.length >= 15, `${flatcar.length}`);
  const r = runOn(
    resourceList(
      flatcar.map((c) => c.object),
      config,
    ),
  );
  assert.equal(r.exitCode, 0, r.stderr);
  const ignition = r.items
    .filter((i: any) => i.kind === 'Secret' && i.data?.['cloud-config'])
    .map((s: any) => ({ origin: s.metadata.name, content: userDataOf(s).text }));
  for (const i of ignition)
    assert.ok(i.content.startsWith('{"ignition":{"version":"3.3.0"}'), `${i.origin}: ${i.content.slice(0, 80)}`);
  assert.equal(ignition.length, flatcar.length * 2);
  const files = writeDistinct(ignition, '.ign');
  const problems = await ignitionValidate(files.paths);
  assert.deepEqual(problems, [], report(problems, files.origin));
});
