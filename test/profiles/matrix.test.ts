// The embedded default profiles x every cloud each supports x kubelet 1.33-1.36 x IPv4 / dual-stack, rendered
// through the function in-process (Flatcar's Ignition both as 2.3.0, the default, and as 3.3.0). Every config
// we emit is validated: cloud-configs with cloud-init's schema, containerd's TOML with a TOML parser, every shell
// script with shellcheck, every Ignition 3.x config with ignition-validate and every 2.3.0 config with our own
// 2.3.0 validator (test/support/ignition23.ts); bootstrap user-data against the
// cloud's size limit. The negative tests prove each validator rejects a broken input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runOn } from '../support/runInProcess.ts';
import { embeddedProfiles } from '../../src/profiles/embeddedProfiles.ts';
import { checkUserDataSize } from '../../src/render/userDataSizeCheck.ts';
import { cloudProvider } from '../../src/model/cloudProviders.ts';
import {
  IP_FAMILIES,
  KUBELET_VERSIONS,
  TEST_TOKEN,
  functionConfig,
  isShellScript,
  machineDeployment,
  resourceList,
  userDataOf,
  type UserData,
} from './support/profileRuns.ts';
import { checkConfigs, ignitionValidate, shellcheck, type Problem } from './support/validators.ts';
import { validateIgnition23 } from '../support/ignition23.ts';

interface Combination {
  profile: string;
  cloud: string;
  kubelet: string;
  ipFamily: string;
  ignitionSpec: string;
  bootstrap: UserData;
  provisioning: UserData;
}

const profiles = embeddedProfiles() as any[];

function renderMatrix(): Combination[] {
  const out: Combination[] = [];
  for (const osp of profiles) {
    const specs = osp.spec.provisioningUtility === 'ignition' ? ['2.3.0', '3.3.0'] : ['2.3.0'];
    for (const ignitionSpec of specs) {
      const mds: any[] = [];
      for (const { name: cloud } of osp.spec.supportedCloudProviders) {
        for (const kubelet of KUBELET_VERSIONS) {
          for (const ipFamily of IP_FAMILIES) {
            mds.push(
              machineDeployment({
                profile: osp.metadata.name,
                osName: osp.spec.osName,
                cloud,
                kubelet,
                ipFamily,
                provisioningUtility: osp.spec.provisioningUtility,
              }),
            );
          }
        }
      }
      const r = runOn(resourceList(mds, functionConfig({ ignitionSpec })));
      assert.equal(r.exitCode, 0, `${osp.metadata.name}: ${r.stderr}`);
      assert.deepEqual(
        r.results.filter((x: any) => x.severity !== 'info'),
        [],
        osp.metadata.name,
      );
      for (const md of mds) {
        const secret = (type: string) =>
          r.items.find(
            (i: any) => i.kind === 'Secret' && i.metadata.name === `${md.metadata.name}-kube-system-${type}-config`,
          );
        const pc = md.spec.template.spec.providerSpec.value;
        out.push({
          profile: osp.metadata.name,
          cloud: pc.cloudProvider,
          kubelet: md.spec.template.spec.versions.kubelet,
          ipFamily: pc.network.ipFamily,
          ignitionSpec,
          bootstrap: userDataOf(secret('bootstrap')),
          provisioning: userDataOf(secret('provisioning')),
        });
      }
    }
  }
  return out;
}

const started = performance.now();
const matrix = renderMatrix();
const renderMs = performance.now() - started;

/** Writes each distinct content once; returns the paths and, per path, where it came from. */
function materialise(
  dir: string,
  items: Array<{ content: string; ext: string; origin: string }>,
): { paths: string[]; origin: Map<string, string> } {
  const origin = new Map<string, string>();
  for (const { content, ext, origin: o } of items) {
    const path = join(dir, createHash('sha256').update(content).digest('hex').slice(0, 16) + ext);
    if (!origin.has(path)) {
      writeFileSync(path, content);
      origin.set(path, o);
    }
  }
  return { paths: [...origin.keys()], origin };
}

const label = (c: Combination, phase: string, path = '') =>
  `${c.profile}/${c.cloud}/${c.kubelet}/${c.ipFamily}${c.ignitionSpec === '3.3.0' ? '/ign-3.3.0' : ''} ${phase}${path ? ' ' + path : ''}`;
const phases = (c: Combination) =>
  [
    ['bootstrap', c.bootstrap],
    ['provisioning', c.provisioning],
  ] as const;
const report = (problems: Problem[], origin: Map<string, string>) =>
  problems.map((p) => `${origin.get(p.file) ?? p.file}: ${p.message}`).join('\n');

test('every default profile renders on each of its clouds, kubelet 1.33-1.36, IPv4 and dual-stack', (t) => {
  const expected = profiles.reduce(
    (n, p) =>
      n +
      p.spec.supportedCloudProviders.length *
        KUBELET_VERSIONS.length *
        IP_FAMILIES.length *
        (p.spec.provisioningUtility === 'ignition' ? 2 : 1),
    0,
  );
  assert.equal(matrix.length, expected);
  assert.ok(matrix.length >= 300, `only ${matrix.length} combinations`);
  t.diagnostic(`${matrix.length} combinations (${matrix.length * 2} user-data) rendered in ${Math.round(renderMs)} ms`);
});

test('every cloud-config passes cloud-init schema, and containerd configs are valid TOML', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-profiles-'));
  const configs: Array<{ content: string; ext: string; origin: string }> = [];
  const tomls: Array<{ content: string; ext: string; origin: string }> = [];
  for (const c of matrix) {
    for (const [phase, ud] of phases(c)) {
      if (ud.format === 'cloud-config') configs.push({ content: ud.text, ext: '.yaml', origin: label(c, phase) });
      for (const f of ud.files)
        if (f.path.endsWith('.toml')) tomls.push({ content: f.content, ext: '.toml', origin: label(c, phase, f.path) });
    }
  }
  const cc = materialise(dir, configs);
  const tt = materialise(dir, tomls);
  const started = performance.now();
  const problems = await checkConfigs(cc.paths, tt.paths);
  t.diagnostic(
    `${cc.paths.length} distinct cloud-configs (of ${configs.length}) and ${tt.paths.length} TOML files checked in ${Math.round(performance.now() - started)} ms`,
  );
  assert.ok(cc.paths.length > 100 && tt.paths.length > 0);
  assert.deepEqual(problems, [], report(problems, new Map([...cc.origin, ...tt.origin])));
});

test('cloud-init schema -c (the CLI) agrees: one combination per cloud-init profile passes, a broken file fails', () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-cli-'));
  const cli = (path: string) =>
    execFileSync('cloud-init', ['schema', '-c', path], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  const seen = new Set<string>();
  for (const c of matrix) {
    if (c.bootstrap.format !== 'cloud-config' || seen.has(c.profile)) continue;
    seen.add(c.profile);
    for (const [phase, ud] of phases(c)) {
      const path = join(dir, `${c.profile}-${phase}.yaml`);
      writeFileSync(path, ud.text);
      assert.match(cli(path), /^Valid cloud-config/, label(c, phase));
    }
  }
  assert.equal(seen.size, 5);
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, '#cloud-config\nwrite_files:\n- path: /x\n  permissions: 0644\n  content: x\n');
  assert.throws(() => cli(bad));
});

test('every shell script in the user-data passes shellcheck at severity warning', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-scripts-'));
  const scripts: Array<{ content: string; ext: string; origin: string }> = [];
  for (const c of matrix) {
    for (const [phase, ud] of phases(c)) {
      for (const f of ud.files)
        if (isShellScript(f)) scripts.push({ content: f.content, ext: '.sh', origin: label(c, phase, f.path) });
    }
  }
  const { paths, origin } = materialise(dir, scripts);
  const started = performance.now();
  const problems = await shellcheck(paths);
  t.diagnostic(
    `${paths.length} distinct scripts (of ${scripts.length}) checked in ${Math.round(performance.now() - started)} ms`,
  );
  // Every profile brings its scripts: bootstrap, setup, downloads, node IP, swap, health monitor, fetch helper.
  assert.ok(paths.length > 50, `only ${paths.length} scripts found`);
  assert.deepEqual(problems, [], report(problems, origin));
});

test('Ignition 2.3.0 stays the default; every 3.3.0 config passes ignition-validate', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-ignition-'));
  const ign3: Array<{ content: string; ext: string; origin: string }> = [];
  for (const c of matrix) {
    for (const [phase, ud] of phases(c)) {
      if (ud.format !== 'ignition') continue;
      assert.equal(JSON.parse(ud.text).ignition.version, c.ignitionSpec, label(c, phase));
      if (c.ignitionSpec === '3.3.0') ign3.push({ content: ud.text, ext: '.ign', origin: label(c, phase) });
    }
  }
  const { paths, origin } = materialise(dir, ign3);
  const started = performance.now();
  const problems = await ignitionValidate(paths);
  t.diagnostic(`${paths.length} Ignition 3.3.0 configs validated in ${Math.round(performance.now() - started)} ms`);
  assert.ok(paths.length >= 100);
  assert.deepEqual(problems, [], report(problems, origin));
});

test('every Ignition 2.3.0 config passes our 2.3.0 validator and describes what its 3.3.0 rendering describes', (t) => {
  const key = (c: Combination) => `${c.profile}/${c.cloud}/${c.kubelet}/${c.ipFamily}`;
  const v33 = new Map(matrix.filter((c) => c.ignitionSpec === '3.3.0').map((c) => [key(c), c]));
  let validated = 0;
  for (const c of matrix) {
    if (c.ignitionSpec !== '2.3.0' || c.bootstrap.format !== 'ignition') continue;
    const other = v33.get(key(c));
    assert.ok(other, `${label(c, '')}: no 3.3.0 rendering`);
    for (const [phase, ud] of phases(c)) {
      assert.deepEqual(validateIgnition23(ud.text), [], label(c, phase));
      validated++;
      assert.deepEqual(
        ignitionContent(ud.text),
        ignitionContent(phase === 'bootstrap' ? other.bootstrap.text : other.provisioning.text),
        `${label(c, phase)}: 2.3.0 and 3.3.0 differ`,
      );
    }
  }
  t.diagnostic(`${validated} Ignition 2.3.0 configs validated and compared with 3.3.0`);
  assert.ok(validated >= 100, `only ${validated}`);
});

/** What a node ends up with from an Ignition config of either spec: users, files (decoded) and units. */
function ignitionContent(text: string): unknown {
  const c = JSON.parse(text);
  return {
    users: (c.passwd?.users ?? []).map((u: any) => ({ name: u.name, keys: u.sshAuthorizedKeys ?? [] })),
    files: (c.storage?.files ?? []).map((f: any) => ({ path: f.path, mode: f.mode, source: f.contents?.source })),
    units: (c.systemd?.units ?? []).map((u: any) => ({
      name: u.name,
      enabled: u.enabled ?? null,
      mask: u.mask ?? false,
      contents: u.contents ?? '',
      dropins: u.dropins ?? [],
    })),
  };
}

test('every bootstrap user-data fits its cloud (size report)', (t) => {
  const largest = new Map<string, { bytes: number; c: Combination }>();
  for (const c of matrix) {
    const bytes = Buffer.byteLength(c.bootstrap.text);
    const key = `${c.profile} on ${c.cloud}${c.ignitionSpec === '3.3.0' ? ' (Ignition 3.3.0)' : ''}`;
    if ((largest.get(key)?.bytes ?? -1) < bytes) largest.set(key, { bytes, c });
    const finding = checkUserDataSize(cloudProvider(c.cloud), bytes);
    assert.equal(finding, undefined, `${label(c, 'bootstrap')}: ${finding?.message}`);
  }
  for (const [key, { bytes, c }] of [...largest].sort()) {
    const limit = cloudProvider(c.cloud)?.userDataLimit;
    t.diagnostic(
      `${key}: ${bytes} bytes${limit ? ` of ${limit.bytes} (${Math.round((bytes / limit.bytes) * 100)} %)` : ' (no documented limit)'}`,
    );
  }
});

test('node behaviour across the matrix: versions, dual-stack, pinned CA, token only in a 0600 file', () => {
  for (const c of matrix) {
    const files = [...c.bootstrap.files, ...c.provisioning.files];
    const file = (path: string) => files.find((f) => f.path === path);
    const minor = c.kubelet.split('.')[1];
    const install = file('/opt/bin/install-kubernetes-binaries')!.content;
    assert.match(
      install,
      new RegExp(`^kube_version='v${c.kubelet.replaceAll('.', '\\.')}'$`, 'm'),
      label(c, 'install'),
    );
    assert.match(install, new RegExp(`^crictl_version='v1\\.${minor}\\.0'$`, 'm'), label(c, 'crictl'));
    const sysctl = file('/etc/sysctl.d/k8s.conf')!.content;
    assert.equal(sysctl.includes('net.ipv6.conf.all.forwarding = 1'), c.ipFamily !== 'IPv4', label(c, 'sysctl'));
    assert.match(
      file('/opt/bin/setup_net_env.sh')!.content,
      new RegExp(`^ip_family='${c.ipFamily.replace('+', '\\+')}'$`, 'm'),
    );
    for (const f of files) {
      const where = label(c, '', f.path);
      assert.ok(!/\bcurl\b[^\n]*(\s-k\b|--insecure)/.test(f.content), `${where}: TLS verification is skipped`);
      if (f.content.includes(TEST_TOKEN)) {
        assert.equal(f.path, '/etc/osm/cloud-init-getter-token', `${where}: the getter token belongs in its own file`);
        assert.equal(f.mode, 0o600, where);
      }
    }
    // The kubelet configuration is well-formed YAML with the settings the node needs.
    const kubeletConfig = parse(file('/etc/kubernetes/kubelet.conf')!.content);
    assert.equal(kubeletConfig.kind, 'KubeletConfiguration', label(c, 'kubelet.conf'));
    assert.deepEqual(kubeletConfig.clusterDNS, ['10.96.0.10']);
    assert.deepEqual(kubeletConfig.featureGates, { RotateKubeletServerCertificate: true });
    assert.equal(kubeletConfig.cgroupDriver, 'systemd');
    assert.equal(kubeletConfig.protectKernelDefaults, true);
    // The API server is reached with the cluster CA the config gave us.
    assert.ok(file('/etc/kubernetes/pki/ca.crt')!.content.includes('BEGIN CERTIFICATE'), label(c, 'ca'));
    assert.match(file('/opt/bin/osm-fetch-secret')!.content, /--cacert "\$\{ca_file\}"/);
    // The bootstrap's own fetch too (Flatcar with cloud-init has no bootstrap script: osm-fetch-secret fetches).
    const bootstrapScript = c.bootstrap.files.find((f) => f.path === '/opt/bin/bootstrap');
    if (c.profile !== 'osp-flatcar-cloud-init')
      assert.match(bootstrapScript!.content, / --cacert \/etc\/kubernetes\/pki\/ca\.crt /, label(c, 'bootstrap'));
  }
});

test('the validators reject broken configs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-negative-'));
  // cloud-init: an unquoted mode is read as the integer 420; runcmd must be a list.
  const badCloudConfig = join(dir, 'bad.yaml');
  writeFileSync(
    badCloudConfig,
    "#cloud-config\nwrite_files:\n- path: /x\n  permissions: 0644\n  content: x\nruncmd: 'not a list'\n",
  );
  const badToml = join(dir, 'bad.toml');
  writeFileSync(badToml, 'version = 3\n[plugins\nx = 1\n');
  const configProblems = await checkConfigs([badCloudConfig], [badToml]);
  assert.equal(configProblems.length, 2, JSON.stringify(configProblems));
  assert.match(configProblems.find((p) => p.file === badCloudConfig)!.message, /permissions.*420|420.*permissions/);

  // shellcheck: an unquoted expansion in rm -rf is a warning (SC2115/SC2086 family).
  const badScript = join(dir, 'bad.sh');
  writeFileSync(badScript, '#!/bin/bash\nfor f in $(ls /tmp); do rm -rf "$dir/"$f; done\n[ $# == 1 ] && echo one\n');
  const scriptProblems = await shellcheck([badScript]);
  assert.ok(scriptProblems.length > 0 && scriptProblems.every((p) => p.file === badScript));

  // ignition-validate: a relative path and a unit without a valid extension.
  const badIgnition = join(dir, 'bad.ign');
  writeFileSync(
    badIgnition,
    JSON.stringify({
      ignition: { version: '3.3.0' },
      storage: { files: [{ path: 'relative/path', mode: 420 }] },
      systemd: { units: [{ name: 'setup', enabled: true }] },
    }),
  );
  const ignitionProblems = await ignitionValidate([badIgnition]);
  assert.equal(ignitionProblems.length, 1);
  assert.match(ignitionProblems[0]!.message, /path not absolute/);
});
