// Overlays through the KRM function: what the resulting profile renders, its version, the order rules, and every
// conflict as an error result on the overlay (resourceRef, field.path, file) naming both sides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runOn, findItem } from '../support/runInProcess.ts';
import { UPSTREAM_OSM } from '../support/paths.ts';
import { machineDeployment, resourceList, userDataOf, TEST_CA } from '../profiles/support/profileRuns.ts';
import { embeddedProfile } from '../../src/profiles/embeddedProfiles.ts';
import { companyOverlay, DROP_IN, overlay, SYSCTL } from './support.ts';

const md = (profile: string, cloud = 'aws', name = 'workers', osName = 'ubuntu') =>
  machineDeployment({ profile, osName, cloud, kubelet: '1.34.3', ipFamily: 'IPv4', name });
const files = (items: any[], name: string, stage = 'provisioning') =>
  userDataOf(findItem(items, 'Secret', `${name}-kube-system-${stage}-config`)).files;
const file = (items: any[], name: string, path: string, stage = 'provisioning') =>
  files(items, name, stage).find((f) => f.path === path);
const version = (items: any[], name: string) =>
  findItem(items, 'OperatingSystemConfig', `${name}-kube-system-config`).metadata.annotations['k8c.io/osp-version'];
// cloud-config's `content: |-` drops the one newline a file ends with (OSM's bytes).
const asWritten = (s: string) => (s.endsWith('\n') ? s.slice(0, -1) : s);
const errors = (r: { results: any[] }) => r.results.filter((x) => x.severity === 'error');

function oneError(items: unknown[]): any {
  const r = runOn(resourceList(items));
  assert.equal(r.exitCode, 1, r.stdout);
  const e = errors(r);
  assert.equal(e.length, 1, JSON.stringify(e, null, 1));
  assert.ok(!r.items.some((i: any) => i.kind === 'OperatingSystemConfig'), 'nothing generated');
  return e[0];
}

test('the company overlay on osp-ubuntu: its CA, sysctl, containerd drop-in and setup commands, and every file of the base unchanged', () => {
  const r = runOn(resourceList([companyOverlay(), md('ubuntu-company')]));
  const base = runOn(resourceList([md('osp-ubuntu')]));
  assert.equal(r.exitCode, 0, r.stderr + JSON.stringify(r.results));
  assert.equal(
    file(r.items, 'workers', '/usr/local/share/ca-certificates/company-ca.crt')!.content,
    asWritten(TEST_CA),
  );
  assert.equal(file(r.items, 'workers', '/etc/sysctl.d/90-company.conf')!.content, asWritten(SYSCTL));
  const dropIn = file(r.items, 'workers', '/etc/systemd/system/containerd.service.d/50-company.conf')!;
  assert.equal(dropIn.content, asWritten(DROP_IN));
  assert.equal(dropIn.mode, 0o644);
  assert.match(
    file(r.items, 'workers', '/opt/bin/overlay-ubuntu-company-before-setup')!.content,
    /\nupdate-ca-certificates$/,
  );
  assert.equal(
    file(r.items, 'workers', '/etc/systemd/system/setup.service.d/overlay-01-ubuntu-company.conf')!.content,
    '[Service]\nExecStartPre=/opt/bin/overlay-ubuntu-company-before-setup',
  );
  // The base's files are there, in the base's order, with the base's content, then the overlay's.
  const plain = files(base.items, 'workers');
  const withOverlay = files(r.items, 'workers');
  assert.deepEqual(
    withOverlay.map((f) => f.path).filter((p) => plain.some((f) => f.path === p)),
    plain.map((f) => f.path),
  );
  for (const p of plain)
    assert.deepEqual(
      withOverlay.find((f) => f.path === p.path),
      p,
      p.path,
    );
  assert.deepEqual(
    files(r.items, 'workers', 'bootstrap'),
    files(base.items, 'workers', 'bootstrap'),
    "the bootstrap stays as small as the base's",
  );
  // Its own name and version: the base's, with the content hash as build metadata.
  assert.match(version(r.items, 'workers'), /^v1\.0\.0\+ov-[0-9a-f]{12}$/);
  assert.equal(version(base.items, 'workers'), 'v1.0.0');
});

test('a MachineDeployment on the base renders byte for byte as without the overlay', () => {
  const without = runOn(resourceList([md('osp-ubuntu')]));
  const withOverlay = runOn(resourceList([companyOverlay(), md('osp-ubuntu')]));
  const generated = (r: any) =>
    r.items.filter((i: any) =>
      String(i.metadata?.annotations?.['config.kubernetes.io/path'] ?? '').startsWith('osm-generated/kube-system/'),
    );
  assert.deepEqual(generated(withOverlay), generated(without));
});

test('same inputs, same bytes, whatever their order; the overlay passes through as it was', () => {
  const o2 = overlay('ubuntu-company-gpu', {
    base: 'ubuntu-company',
    files: [{ path: '/etc/modules-load.d/gpu.conf', content: { literal: 'nvidia\n' } }],
  });
  const items = [companyOverlay(), o2, md('ubuntu-company-gpu', 'aws', 'gpu'), md('ubuntu-company', 'gce', 'cpu')];
  const a = runOn(resourceList(items));
  const b = runOn(resourceList([...items].reverse()));
  assert.equal(a.exitCode, 0, JSON.stringify(a.results));
  assert.equal(a.stdout.replace(/index: '\d+'/g, ''), b.stdout.replace(/index: '\d+'/g, ''));
  assert.deepEqual(findItem(a.items, 'OperatingSystemProfileOverlay', 'ubuntu-company'), companyOverlay());
});

test('stacked overlays: each applies on the one below, and the setup drop-ins run in stack order', () => {
  const o2 = overlay('ubuntu-company-gpu', { base: 'ubuntu-company', commands: { afterSetup: ['echo gpu'] } });
  const r = runOn(resourceList([o2, companyOverlay(), md('ubuntu-company-gpu')]));
  assert.equal(r.exitCode, 0, JSON.stringify(r.results));
  assert.equal(file(r.items, 'workers', '/etc/sysctl.d/90-company.conf')!.content, asWritten(SYSCTL));
  const dropIns = files(r.items, 'workers')
    .filter((f) => f.path.startsWith('/etc/systemd/system/setup.service.d/'))
    .map((f) => f.path);
  assert.deepEqual(dropIns, [
    '/etc/systemd/system/setup.service.d/overlay-01-ubuntu-company.conf',
    '/etc/systemd/system/setup.service.d/overlay-02-ubuntu-company-gpu.conf',
  ]);
});

test('the version changes with the base and with the overlay, and only then', () => {
  const upstream = parse(readFileSync(join(UPSTREAM_OSM, 'deploy/osps/default/osp-ubuntu.yaml'), 'utf8'));
  upstream.metadata.name = 'company-base';
  upstream.metadata.namespace = 'kube-system';
  const on = (base: any, o: any) => version(runOn(resourceList([base, o, md('ubuntu-company')])).items, 'workers');
  const o = { ...companyOverlay(), spec: { ...companyOverlay().spec, base: 'company-base', commands: undefined } };
  const first = on(upstream, o);
  assert.equal(on(upstream, structuredClone(o)), first);
  const edited = structuredClone(upstream);
  edited.spec.version = 'v1.1.0';
  edited.spec.provisioningConfig.files[0].content.inline.data += '\n# fixed\n';
  const afterBase = on(edited, o);
  assert.match(afterBase, /^v1\.1\.0\+ov-/);
  assert.notEqual(afterBase.split('+')[1], first.split('+')[1]);
  const o3 = structuredClone(o);
  o3.spec.files[1].content.literal = 'vm.max_map_count = 1\n';
  assert.notEqual(on(upstream, o3), first);
});

test('per cloud: a change limited to clouds reaches only their MachineDeployments', () => {
  const o = overlay('ubuntu-aws', {
    base: 'osp-ubuntu',
    files: [{ path: '/etc/aws-only', clouds: ['aws'], content: { template: 'cloud={{ .CloudProviderName }}\n' } }],
  });
  const r = runOn(resourceList([o, md('ubuntu-aws', 'aws', 'a'), md('ubuntu-aws', 'gce', 'g')]));
  assert.equal(r.exitCode, 0, JSON.stringify(r.results));
  assert.equal(file(r.items, 'a', '/etc/aws-only')!.content, 'cloud=aws');
  assert.equal(file(r.items, 'g', '/etc/aws-only'), undefined);
  assert.equal(version(r.items, 'a'), version(r.items, 'g'));
});

test("a literal is written as it is, {{ included; a template gets the base's data", () => {
  const o = overlay('ubuntu-lit', {
    base: 'osp-ubuntu',
    files: [
      { path: '/etc/lit', content: { literal: 'a {{ .ServerURL }} }} {{- b\n' } },
      { path: '/etc/tpl', permissions: 600, content: { template: '{{ .ServerURL }} {{ .CloudProviderName }}\n' } },
    ],
  });
  const r = runOn(resourceList([o, md('ubuntu-lit')]));
  assert.equal(r.exitCode, 0, JSON.stringify(r.results));
  assert.equal(file(r.items, 'workers', '/etc/lit')!.content, 'a {{ .ServerURL }} }} {{- b');
  assert.equal(file(r.items, 'workers', '/etc/tpl')!.content, 'https://api.profiles.example:6443 aws');
  assert.equal(file(r.items, 'workers', '/etc/tpl')!.mode, 0o600);
});

test('replace: a base file replaced in place (permissions kept unless given), in bootstrap when asked', () => {
  const o = overlay('ubuntu-r', {
    base: 'osp-ubuntu',
    files: [
      {
        path: '/etc/systemd/journald.conf.d/max_disk_use.conf',
        replace: true,
        content: { literal: '[Journal]\nSystemMaxUse=1G\n' },
      },
      { path: '/etc/bootstrap-marker', config: 'bootstrap', content: { literal: 'x\n' } },
    ],
  });
  const r = runOn(resourceList([o, md('ubuntu-r'), md('osp-ubuntu', 'aws', 'plain')]));
  assert.equal(r.exitCode, 0, JSON.stringify(r.results));
  const paths = (n: string) => files(r.items, n).map((f) => f.path);
  assert.deepEqual(paths('workers'), paths('plain'), 'same files, same order');
  assert.equal(
    file(r.items, 'workers', '/etc/systemd/journald.conf.d/max_disk_use.conf')!.content,
    '[Journal]\nSystemMaxUse=1G',
  );
  assert.equal(file(r.items, 'workers', '/etc/systemd/journald.conf.d/max_disk_use.conf')!.mode, 0o644);
  assert.equal(file(r.items, 'workers', '/etc/bootstrap-marker', 'bootstrap')!.content, 'x');
});

test("Flatcar: units and drop-ins become the profile's units; commands a drop-in on its setup.service unit", () => {
  const o = overlay('flatcar-company', {
    base: 'osp-flatcar',
    units: [
      {
        name: 'company-agent.service',
        enable: true,
        content:
          '[Unit]\nDescription=agent\n[Service]\nExecStart=/usr/bin/true\n[Install]\nWantedBy=multi-user.target\n',
      },
      { name: 'containerd.service', dropIns: [{ name: '50-company.conf', content: DROP_IN }] },
    ],
    commands: { afterSetup: ['echo done'] },
  });
  const r = runOn(
    resourceList([
      o,
      machineDeployment({
        profile: 'flatcar-company',
        osName: 'flatcar',
        cloud: 'aws',
        kubelet: '1.34.3',
        ipFamily: 'IPv4',
        name: 'fc',
      }),
    ]),
  );
  assert.equal(r.exitCode, 0, JSON.stringify(r.results));
  const units = findItem(r.items, 'OperatingSystemConfig', 'fc-kube-system-config').spec.provisioningConfig
    .units as any[];
  assert.deepEqual(units.find((u) => u.name === 'company-agent.service').enable, true);
  assert.deepEqual(units.find((u) => u.name === 'containerd.service').dropIns, [
    { name: '50-company.conf', content: DROP_IN },
  ]);
  assert.deepEqual(
    units.find((u) => u.name === 'setup.service').dropIns.map((d: any) => d.name),
    ['overlay-01-flatcar-company.conf'],
  );
  const ign = JSON.parse(
    Buffer.from(
      findItem(r.items, 'Secret', 'fc-kube-system-provisioning-config').data['cloud-config'],
      'base64',
    ).toString(),
  );
  assert.ok(ign.systemd.units.some((u: any) => u.name === 'company-agent.service' && u.enabled === true));
});

test('named templates: a new one used by a new file; replacing one the base defines changes every file using it', () => {
  const upstream = parse(readFileSync(join(UPSTREAM_OSM, 'deploy/osps/default/osp-ubuntu.yaml'), 'utf8'));
  const o = overlay('up-company', {
    base: 'osp-ubuntu',
    templates: [
      { name: 'configureHostCABundle', replace: true, template: 'echo company CA bundle' },
      { name: 'companyBanner', template: 'Welcome to {{ .CloudProviderName }}' },
    ],
    files: [{ path: '/etc/motd', content: { template: '{{ template "companyBanner" }}\n' } }],
  });
  const r = runOn(resourceList([upstream, o, md('up-company')]));
  assert.equal(r.exitCode, 0, JSON.stringify(r.results));
  // As OSM runs named templates: their output is wrapped in {{ define }} after a line break.
  assert.equal(file(r.items, 'workers', '/etc/motd')!.content, '\nWelcome to aws');
  assert.ok(files(r.items, 'workers').some((f) => f.content.includes('echo company CA bundle')));
  assert.ok(!files(r.items, 'workers').some((f) => f.content.includes('update-ca-certificates')));
});

test('the bootstrap user-data limit holds: an overlay that puts too much into the bootstrap fails on aws', () => {
  const o = overlay('ubuntu-big', {
    base: 'osp-ubuntu',
    files: [{ path: '/etc/big', config: 'bootstrap', content: { literal: 'x'.repeat(20000) + '\n' } }],
  });
  const r = runOn(resourceList([o, md('ubuntu-big')]));
  assert.equal(r.exitCode, 1);
  assert.match(
    errors(r)
      .map((e) => e.message)
      .join('\n'),
    /user-data/,
  );
});

// Conflicts and mistakes: one error each, on the overlay, at the field, naming both sides.

test('a replaced file the base does not have: did you mean', () => {
  const e = oneError([
    overlay('ubuntu-typo', {
      base: 'osp-ubuntu',
      files: [{ path: '/etc/sysctl.d/k8s.cnf', replace: true, content: { literal: 'x' } }],
    }),
    md('ubuntu-typo'),
  ]);
  assert.equal(e.resourceRef.kind, 'OperatingSystemProfileOverlay');
  assert.equal(e.resourceRef.name, 'ubuntu-typo');
  assert.equal(e.field.path, 'spec.files[0]');
  assert.match(
    e.message,
    /base osp-ubuntu v1\.0\.0 has no such file in provisioningConfig \(did you mean "\/etc\/sysctl\.d\/k8s\.conf"\?\)/,
  );
});

test('a replaced file that is in the other config says so', () => {
  const e = oneError([
    overlay('ubuntu-cfg', {
      base: 'osp-ubuntu',
      files: [{ path: '/opt/bin/bootstrap', replace: true, content: { literal: 'x' } }],
    }),
  ]);
  assert.match(e.message, /it has it in bootstrapConfig: set config: bootstrap/);
});

test('adding a file the base has asks for replace', () => {
  const e = oneError([
    overlay('ubuntu-add', {
      base: 'osp-ubuntu',
      files: [{ path: '/etc/sysctl.d/k8s.conf', content: { literal: 'x' } }],
    }),
  ]);
  assert.match(e.message, /already has it in provisioningConfig: set replace: true/);
});

test('two overlays of a stack changing the same file: both named', () => {
  const o2 = overlay('ubuntu-company-2', {
    base: 'ubuntu-company',
    files: [{ path: '/etc/sysctl.d/90-company.conf', replace: true, content: { literal: 'x' } }],
  });
  const e = oneError([companyOverlay(), o2, md('ubuntu-company-2')]);
  assert.equal(e.resourceRef.name, 'ubuntu-company-2');
  assert.equal(e.field.path, 'spec.files[0]');
  assert.match(
    e.message,
    /file \/etc\/sysctl\.d\/90-company\.conf is replaced by this overlay and was already added by overlay kube-system\/ubuntu-company \(spec\.files\[1\]\)/,
  );
});

test('one overlay changing a file twice: both fields named', () => {
  const e = oneError([
    overlay('ubuntu-twice', {
      base: 'osp-ubuntu',
      files: [
        { path: '/etc/a', content: { literal: 'x' } },
        { path: '/etc/a', content: { literal: 'y' } },
      ],
    }),
  ]);
  assert.equal(e.field.path, 'spec.files[1]');
  assert.match(e.message, /file \/etc\/a is changed twice by this overlay: at spec\.files\[0\] and here/);
});

test('a cycle of overlays is an error on each', () => {
  const r = runOn(resourceList([overlay('a', { base: 'b' }), overlay('b', { base: 'a' }), md('a')]));
  assert.equal(r.exitCode, 1);
  const e = errors(r);
  assert.deepEqual(e.map((x) => x.resourceRef.name).sort(), ['a', 'b']);
  assert.ok(e.every((x) => x.field.path === 'spec.base'));
  assert.ok(
    e.every((x) =>
      /overlays form a cycle: kube-system\/(a -> kube-system\/b -> kube-system\/a|b -> kube-system\/a -> kube-system\/b)/.test(
        x.message,
      ),
    ),
    JSON.stringify(e),
  );
});

test('a base that does not exist: did you mean', () => {
  const e = oneError([overlay('ubuntu-x', { base: 'osp-ubunt' })]);
  assert.equal(e.field.path, 'spec.base');
  assert.match(
    e.message,
    /base profile "osp-ubunt" not found in namespace "kube-system" \(did you mean "osp-ubuntu"\?\)/,
  );
});

test('a base OperatingSystemProfile with an error of its own: the overlay says so, the error is on the base', () => {
  const base = structuredClone(embeddedProfile('osp-ubuntu')) as any;
  base.metadata.name = 'company-base';
  base.spec.unknownField = true;
  const r = runOn(resourceList([base, overlay('ubuntu-x', { base: 'company-base' })]));
  assert.equal(r.exitCode, 1);
  assert.deepEqual(
    errors(r)
      .map((e) => [e.resourceRef.kind, e.field?.path])
      .sort(),
    [
      ['OperatingSystemProfile', 'spec'],
      ['OperatingSystemProfileOverlay', 'spec.base'],
    ],
  );
  assert.match(
    errors(r).find((e) => e.resourceRef.kind === 'OperatingSystemProfileOverlay').message,
    /its base, OperatingSystemProfile kube-system\/company-base, has an error \(reported on it\)/,
  );
});

test('an overlay named like a profile is refused (it would hide it)', () => {
  const e = oneError([overlay('osp-rhel', { base: 'osp-ubuntu' })]);
  assert.match(e.message, /has the name of an embedded default profile/);
});

test("an overlay's own template that does not parse", () => {
  const e = oneError([
    overlay('ubuntu-t', {
      base: 'osp-ubuntu',
      files: [{ path: '/etc/t', content: { template: '{{ if .ServerURL }}x\n' } }],
    }),
  ]);
  assert.equal(e.field.path, 'spec.files[0].content.template');
  assert.match(e.message, /does not parse/);
});

test("a base file that no longer parses with a replaced named template: on the overlay, naming the base's file", () => {
  const upstream = parse(readFileSync(join(UPSTREAM_OSM, 'deploy/osps/default/osp-ubuntu.yaml'), 'utf8'));
  const o = overlay('up-broken', {
    base: 'osp-ubuntu',
    templates: [{ name: 'configureHostCABundle', replace: true, template: '{{ "{{ if" }}' }],
  });
  const e = oneError([upstream, o, md('up-broken')]);
  assert.equal(e.resourceRef.kind, 'OperatingSystemProfileOverlay');
  assert.match(
    e.message,
    /base osp-ubuntu v[0-9.]+, spec\.provisioningConfig\.files\[\d+\]\.content\.inline\.data, does not render with the overlays' changes: .*parse/,
  );
});

test('a template of the overlay that fails at render points at its field', () => {
  const e = oneError([
    overlay('ubuntu-exec', {
      base: 'osp-ubuntu',
      files: [{ path: '/etc/t', content: { template: '{{ template "missing" }}' } }],
    }),
    md('ubuntu-exec'),
  ]);
  assert.equal(e.resourceRef.name, 'ubuntu-exec');
  assert.equal(e.field.path, 'spec.files[0]');
  assert.match(e.message, /brought by overlay kube-system\/ubuntu-exec, spec\.files\[0\]/);
});

test('a cloud the profile does not support', () => {
  const e = oneError([
    overlay('ubuntu-c', {
      base: 'osp-ubuntu',
      files: [{ path: '/etc/c', clouds: ['awz'], content: { literal: 'x' } }],
    }),
  ]);
  assert.equal(e.field.path, 'spec.files[0].clouds[0]');
  const e2 = oneError([
    overlay('ubuntu-c', {
      base: 'osp-ubuntu',
      supportedCloudProviders: ['aws'],
      files: [{ path: '/etc/c', clouds: ['gce'], content: { literal: 'x' } }],
    }),
  ]);
  assert.match(e2.message, /cloud "gce" is not among the profile's supportedCloudProviders \(aws\)/);
});

test("supportedCloudProviders and osVersion replace the base's", () => {
  const r = runOn(
    resourceList([
      overlay('ubuntu-aws-only', { base: 'osp-ubuntu', supportedCloudProviders: ['aws'], osVersion: '24.04.1' }),
      md('ubuntu-aws-only', 'gce'),
    ]),
  );
  assert.equal(r.exitCode, 1);
  assert.match(errors(r)[0].message, /does not support cloud provider "gce" \(its supportedCloudProviders: aws\)/);
  const ok = runOn(
    resourceList([
      overlay('ubuntu-aws-only', { base: 'osp-ubuntu', supportedCloudProviders: ['aws'], osVersion: '24.04.1' }),
      md('ubuntu-aws-only'),
    ]),
  );
  assert.equal(findItem(ok.items, 'OperatingSystemConfig', 'workers-kube-system-config').spec.osVersion, '24.04.1');
});

test('commands need a setup.service in the base', () => {
  const base = structuredClone(embeddedProfile('osp-ubuntu')) as any;
  base.metadata.name = 'no-setup';
  base.spec.provisioningConfig.files = base.spec.provisioningConfig.files.filter(
    (f: any) => f.path !== '/etc/systemd/system/setup.service',
  );
  const e = oneError([base, overlay('ubuntu-cmd', { base: 'no-setup', commands: { beforeSetup: ['true'] } })]);
  assert.equal(e.field.path, 'spec.commands');
  assert.match(e.message, /base no-setup v1\.0\.0 has no setup\.service/);
});

test('schema: an unknown field, content with both forms, a command with a line break', () => {
  assert.match(
    oneError([overlay('o', { base: 'osp-ubuntu', filez: [] })]).message,
    /invalid OperatingSystemProfileOverlay: spec has unknown field "filez"/,
  );
  assert.equal(
    oneError([overlay('o', { base: 'osp-ubuntu', files: [{ path: '/a', content: { literal: 'a', template: 'b' } }] })])
      .field.path,
    'spec.files[0].content',
  );
  assert.equal(
    oneError([overlay('o', { base: 'osp-ubuntu', commands: { afterSetup: ['a\nb'] } })]).field.path,
    'spec.commands.afterSetup[0]',
  );
  assert.equal(
    oneError([overlay('o', { base: 'osp-ubuntu', files: [{ path: 'etc/a', content: { literal: 'a' } }] })]).field.path,
    'spec.files[0].path',
  );
  assert.equal(
    oneError([overlay('o', { base: 'osp-ubuntu', units: [{ name: '../x.service', content: 'a' }] })]).field.path,
    'spec.units[0].name',
  );
});

test('an overlay that is not local-config is refused: no cluster knows its kind', () => {
  const o = companyOverlay();
  delete o.metadata.annotations;
  const e = oneError([o]);
  assert.match(e.message, /annotate it config\.kubernetes\.io\/local-config: "true"/);
});

test('an overlay kind under another apiVersion is an error, never passed through unread', () => {
  const o = companyOverlay();
  o.apiVersion = 'osm-krm.dev/v1beta1';
  assert.equal(oneError([o]).field.path, 'apiVersion');
});

test('the MachineDeployments of a broken overlay are not rendered, the others are', () => {
  const r = runOn(
    resourceList([overlay('bad', { base: 'nope' }), md('bad', 'aws', 'b'), md('osp-ubuntu', 'aws', 'good')]),
  );
  assert.equal(r.exitCode, 1);
  assert.deepEqual(
    errors(r).map((e) => e.resourceRef.name),
    ['bad'],
  );
});

test("the state records the overlay's profile version", () => {
  const r = runOn(resourceList([companyOverlay(), md('ubuntu-company')]));
  const state = findItem(r.items, 'ConfigMap', 'osm-krm-state');
  assert.match(JSON.parse(state.data['osp.kube-system/ubuntu-company']).version, /^v1\.0\.0\+ov-/);
});

test("an overlay whose name or namespace the API server would refuse is an error on it, and no profile's key", () => {
  // Names are keys of the run's profile maps: 16,384-character ones collided (V8 hashes them by length).
  for (const name of [`x${'a'.repeat(16_383)}`, 'Ubuntu_X']) {
    const e = oneError([overlay(name, { base: 'osp-ubuntu' })]);
    assert.equal(e.field.path, 'metadata.name');
  }
  const e = oneError([overlay('ubuntu-x', { base: 'osp-ubuntu' }, { namespace: 'n'.repeat(64) })]);
  assert.equal(e.field.path, 'metadata.namespace');
  assert.match(e.message, /metadata\.namespace is not a valid namespace/);
});
