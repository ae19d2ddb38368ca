// The default profiles as files and as embedded objects: the generated module is current, matches the YAML
// as the function reads input, passes the OSP schema, covers OSM's operating systems, versions and clouds,
// keeps the files the profiles share identical, and takes every download location from .Artifacts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { embeddedProfiles } from '../../src/profiles/embeddedProfiles.ts';
import {
  ARTIFACT_DEFAULTS,
  ARTIFACT_URL_PATTERN,
  checkArtifactOverrides,
} from '../../src/profiles/artifactDefaults.ts';
import { PARSE_OPTIONS } from '../../src/krm/yamlSchema.ts';
import { validateOperatingSystemProfile } from '../../src/model/validateProfile.ts';
import { REPO_ROOT, UPSTREAM_OSM } from '../support/paths.ts';

const PROFILES_DIR = join(REPO_ROOT, 'src/profiles');
const GENERATOR = join(REPO_ROOT, 'scripts/generate-embedded-profiles.mjs');
const files = readdirSync(PROFILES_DIR)
  .filter((f) => /^osp-.*\.yaml$/.test(f))
  .sort();
const texts = new Map(files.map((f) => [f, readFileSync(join(PROFILES_DIR, f), 'utf8')]));
const embedded = embeddedProfiles() as any[];
const byName = new Map(embedded.map((p) => [p.metadata.name as string, p]));

test('the generated module is up to date with src/profiles/*.yaml', () => {
  try {
    execFileSync(process.execPath, [GENERATOR, '--check'], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    assert.fail(`${(e as { stderr?: Buffer }).stderr?.toString() ?? e}`);
  }
});

test('the generator notices a changed profile and refuses authoring mistakes', async () => {
  const { generate, profileFiles } = (await import(pathToFileURL(GENERATOR).href)) as {
    generate: (files: Array<{ name: string; text: string }>) => string;
    profileFiles: () => Array<{ name: string; text: string }>;
  };
  const current = readFileSync(join(PROFILES_DIR, 'generated/embeddedProfiles.generated.ts'), 'utf8');
  assert.equal(generate(profileFiles()), current);
  const changed = profileFiles().map((f) =>
    f.name === 'osp-ubuntu.yaml' ? { ...f, text: f.text.replace('SystemMaxUse=5G', 'SystemMaxUse=4G') } : f,
  );
  assert.notEqual(generate(changed), current);
  const ubuntu = texts.get('osp-ubuntu.yaml')!;
  assert.throws(
    () => generate([{ name: 'osp-ubuntu.yaml', text: ubuntu.replace('permissions: 755', 'permissions: 0755') }]),
    /0755 reads as 493 in YAML 1.1/,
  );
  assert.throws(
    () => generate([{ name: 'osp-other.yaml', text: ubuntu }]),
    /expected an OperatingSystemProfile named osp-other/,
  );
  assert.throws(
    () =>
      generate([
        {
          name: 'osp-ubuntu.yaml',
          text: ubuntu.replace('  osVersion: "24.04"\n', '  osVersion: "24.04"\n  osVersion: "22.04"\n'),
        },
      ]),
    /osp-ubuntu\.yaml/,
  );
});

test('the embedded objects are the YAML files as the function reads its input', () => {
  assert.deepEqual(
    embedded.map((p) => `${p.metadata.name}.yaml`),
    files,
  );
  for (const [file, text] of texts)
    assert.deepEqual(parse(text, PARSE_OPTIONS), byName.get(file.replace(/\.yaml$/, '')), file);
});

test('every profile passes the OSP schema and OSM webhook rules', () => {
  for (const p of embedded) {
    const spec = validateOperatingSystemProfile(p);
    assert.match(spec.version, /^v1\.\d+\.\d+$/);
    assert.equal(p.metadata.namespace, 'kube-system');
  }
});

// Which clouds each profile lists, ours and OSM's, is the clouds' descriptors' business (test/model/cloudProviders.test.ts);
// here: every cloud OSM's profile lists, ours lists too.
test("same operating systems, versions and provisioning utilities as OSM default profiles, and at least OSM's clouds", () => {
  const dir = join(UPSTREAM_OSM, 'deploy/osps/default');
  const upstream = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => parse(readFileSync(join(dir, f), 'utf8')));
  assert.deepEqual(
    embedded.map((p) => p.metadata.name),
    upstream.map((p) => p.metadata.name),
  );
  for (const u of upstream) {
    const ours = byName.get(u.metadata.name)!;
    const clouds = (p: any) => p.spec.supportedCloudProviders.map((c: any) => c.name).sort();
    assert.deepEqual(
      { osName: ours.spec.osName, osVersion: ours.spec.osVersion, utility: ours.spec.provisioningUtility },
      { osName: u.spec.osName, osVersion: u.spec.osVersion, utility: u.spec.provisioningUtility },
      u.metadata.name,
    );
    assert.deepEqual(
      clouds(u).filter((c: string) => !clouds(ours).includes(c)),
      [],
      u.metadata.name,
    );
    assert.deepEqual(
      ours.spec.provisioningConfig.supportedContainerRuntimes?.map((r: any) => r.name) ??
        ours.spec.bootstrapConfig.supportedContainerRuntimes.map((r: any) => r.name),
      ['containerd'],
    );
  }
});

/** Every file of a profile, by path, from both configs and the containerd runtime entry. */
function filesOf(p: any): Map<string, string> {
  const out = new Map<string, string>();
  for (const half of [p.spec.bootstrapConfig, p.spec.provisioningConfig]) {
    for (const f of [...(half.files ?? []), ...(half.supportedContainerRuntimes?.[0]?.files ?? [])])
      out.set(f.path, f.content.inline.data);
  }
  return out;
}

test('files the profiles share stay identical (a fix in one reaches all)', () => {
  const shared = [
    '/opt/bin/supervise.sh',
    '/opt/bin/osm-fetch-secret',
    '/etc/osm/cloud-init-getter-token',
    '/etc/kubernetes/pki/ca.crt',
    '/etc/osm/proxy.env',
    '/etc/osm/host-ca.pem',
    '/etc/modules-load.d/k8s.conf',
    '/etc/sysctl.d/k8s.conf',
    '/etc/systemd/journald.conf.d/max_disk_use.conf',
    '/etc/profile.d/opt-bin-path.sh',
    '/opt/bin/disable-swap.sh',
    '/opt/bin/health-monitor.sh',
    '/etc/kubernetes/cloud-config',
    '/etc/systemd/system/kubelet-healthcheck.service',
    '/opt/bin/install-kubernetes-binaries',
    '/etc/kubernetes/kubelet.conf',
  ];
  // Deliberate differences, normalised away: Amazon Linux 2's CNI release, resolv.conf only where systemd-resolved
  // runs, and comments kept out of the user-data as template comments where a bootstrap carries the script.
  const normalise = (path: string, raw: string) => {
    const text = raw
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => l.replace(/^(\s*)\{\{- \/\* (.*) \*\/\}\}$/, '$1# $2'))
      .join('\n');
    if (path === '/opt/bin/install-kubernetes-binaries')
      return text.replace(/\n *# Amazon Linux 2 stays[^\n]*\n *cni_version='v1\.7\.1'/, "\ncni_version='v1.9.1'");
    if (path === '/etc/kubernetes/kubelet.conf')
      return text.replace('resolvConf: /run/systemd/resolve/resolv.conf\n', '');
    return text;
  };
  const reference = filesOf(byName.get('osp-ubuntu'));
  for (const p of embedded) {
    const mine = filesOf(p);
    for (const path of shared) {
      assert.ok(mine.has(path), `${p.metadata.name} lacks ${path}`);
      assert.equal(
        normalise(path, mine.get(path)!),
        normalise(path, reference.get(path)!),
        `${p.metadata.name} ${path} differs from osp-ubuntu`,
      );
    }
  }
  // The proxy merge the provisioning runs before setup (Flatcar with cloud-init merges within its setup script).
  for (const p of embedded.filter((e) => e.metadata.name !== 'osp-flatcar-cloud-init')) {
    assert.equal(
      filesOf(p).get('/opt/bin/merge-proxy-environment'),
      reference.get('/opt/bin/merge-proxy-environment'),
      p.metadata.name,
    );
  }
  // The RPM profiles share their package manager's repair (Ubuntu has dpkg's, Flatcar none).
  const rpmRepair = filesOf(byName.get('osp-rhel')).get('/opt/bin/recover-package-manager');
  assert.ok(rpmRepair?.includes('rpm --rebuilddb'));
  for (const name of ['osp-rockylinux', 'osp-amzn2'])
    assert.equal(filesOf(byName.get(name)).get('/opt/bin/recover-package-manager'), rpmRepair, name);
  // The two Flatcar profiles share their Flatcar-specific files too.
  const flatcar = filesOf(byName.get('osp-flatcar'));
  const flatcarCloudInit = filesOf(byName.get('osp-flatcar-cloud-init'));
  for (const path of [
    '/opt/bin/setup_net_env.sh',
    '/etc/systemd/system/update-engine.service.d/50-proxy.conf',
    '/etc/ssh/sshd_config',
    '/etc/systemd/network/static.network',
    '/etc/systemd/system/containerd.service.d/10-custom.conf',
  ]) {
    assert.equal(normalise(path, flatcarCloudInit.get(path)!), normalise(path, flatcar.get(path)!), path);
  }
});

test('no download location is written into a profile: each comes from .Artifacts', () => {
  const defaultHosts = Object.values(ARTIFACT_DEFAULTS).map((u) => new URL(u).host);
  for (const [file, text] of texts) {
    for (const host of defaultHosts) assert.ok(!text.includes(host), `${file} names ${host}; use .Artifacts`);
    // The only literal URLs with a host: the kubelet's local health endpoint and documentation links.
    const urls = [...text.matchAll(/\bhttps?:\/\/[A-Za-z0-9.-]+[^\s'"]*/g)].map((m) => m[0]);
    for (const url of urls)
      assert.ok(
        url === 'http://127.0.0.1:10248/healthz' || url.startsWith('https://kubernetes.io/docs/'),
        `${file}: literal URL ${url}`,
      );
  }
});

test('artifact defaults are plain URLs, and the same rule the profiles apply refuses unsafe overrides', () => {
  assert.deepEqual(checkArtifactOverrides(ARTIFACT_DEFAULTS), []);
  assert.deepEqual(
    checkArtifactOverrides({ cni: 'https://mirror.example/cni', kubernetes: 'file:///srv/mirror/k8s' }),
    [],
  );
  const problems = checkArtifactOverrides({
    cni: "https://mirror.example/cni'; reboot; '",
    crictl: 'https://mirror.example/$(id)',
    kubernetes: 'ftp://old.example',
  });
  assert.equal(problems.length, 3);
  assert.match(problems[0]!, /^spec\.artifacts\.cni must be a plain/);
  // The profiles carry the same expression (Go regexp syntax) in their templates.
  const source = ARTIFACT_URL_PATTERN.source.replaceAll('\\/', '/');
  for (const [file, text] of texts) {
    const inTemplates = [...text.matchAll(/regexMatch "([^"]+)" (?:\.Artifacts|\(index)/g)].map((m) => m[1]);
    assert.ok(inTemplates.length > 0, file);
    for (const re of inTemplates) assert.equal(re, source, file);
  }
});

test('shellcheck exclusions in the profiles come with a reason', () => {
  for (const [file, text] of texts) {
    for (const m of text.matchAll(/#\s*shellcheck\s+disable=\S+(.*)$/gm))
      assert.match(m[1]!, /#\s*\S/, `${file}: "${m[0].trim()}" needs a reason`);
  }
});
