// Each error of issue #3 gets an error result naming the resource and field, exit code 1 and no generated output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runOn } from '../support/runInProcess.ts';
import { REPO_ROOT } from '../support/paths.ts';

const base = () => parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'));
const md = (l: any, name: string) => l.items.find((i: any) => i.kind === 'MachineDeployment' && i.metadata.name === name);
const osp = (l: any, name: string) => l.items.find((i: any) => i.kind === 'OperatingSystemProfile' && i.metadata.name === name);

function expectError(mutate: (l: any) => void, check: { kind: string; name?: string; field?: RegExp; message: RegExp }): void {
  const l = base();
  // Give every input item a file, as kpt does, to check results point at it.
  l.items.forEach((i: any, n: number) => {
    i.metadata.annotations = { ...(i.metadata.annotations ?? {}), 'internal.config.kubernetes.io/path': `in/${n}.yaml` };
  });
  mutate(l);
  const r = runOn(l);
  assert.equal(r.exitCode, 1, 'exit code');
  const errors = r.results.filter((x: any) => x.severity === 'error');
  const e = errors.find((x: any) => x.resourceRef?.kind === check.kind && (check.name === undefined || x.resourceRef?.name === check.name) && check.message.test(x.message));
  assert.ok(e, `no matching error in ${JSON.stringify(errors, null, 1)}`);
  if (check.field) assert.match(e.field?.path ?? '', check.field);
  if (check.kind !== 'OperatingSystemManager') assert.match(e.file?.path ?? '', /^in\/\d+\.yaml$/);
  assert.ok(!r.items.some((i: any) => String(i.metadata?.annotations?.['internal.config.kubernetes.io/path'] ?? '').startsWith('osm-generated/')), 'generated output on error');
  assert.equal(r.items.length, l.items.length, 'every input item is kept');
}

test('unknown OSP', () =>
  expectError((l) => (md(l, 'ubuntu-workers').metadata.annotations['k8c.io/operating-system-profile'] = 'nope'), { kind: 'MachineDeployment', name: 'ubuntu-workers', field: /operating-system-profile/, message: /OperatingSystemProfile "nope" not found/ }));

test('OSP for another OS', () =>
  expectError((l) => (md(l, 'ubuntu-workers').metadata.annotations['k8c.io/operating-system-profile'] = 'example-flatcar'), { kind: 'MachineDeployment', field: /operatingSystem$/, message: /does not support operating system "ubuntu"/ }));

test('OSP for another cloud', () =>
  expectError((l) => (md(l, 'ubuntu-workers').spec.template.spec.providerSpec.value.cloudProvider = 'gce'), { kind: 'MachineDeployment', field: /cloudProvider$/, message: /does not support cloud provider "gce"/ }));

test('template parse error names the OSP, the template path and the line', () =>
  expectError((l) => (osp(l, 'example-ubuntu').spec.provisioningConfig.files[0].content.inline.data = 'line1\n{{ if }}'), { kind: 'OperatingSystemProfile', name: 'example-ubuntu', field: /^spec\.provisioningConfig\.files\[0\]\.content\.inline\.data$/, message: /template: \/opt\/bin\/setup:2: missing value for if/ }));

test('template execution error names the line and column', () =>
  expectError((l) => (osp(l, 'example-ubuntu').spec.provisioningConfig.files[0].content.inline.data = 'a\n  {{ .NoSuchField }}'), { kind: 'OperatingSystemProfile', message: /template: \/opt\/bin\/setup:2:5: executing "\/opt\/bin\/setup" at <\.NoSuchField>: can't evaluate field NoSuchField in type \*resources\.filesData/ }));

test('invalid providerSpec: unknown top-level key, strictly like OSM', () =>
  expectError((l) => (md(l, 'ubuntu-workers').spec.template.spec.providerSpec.value.unknownKey = 1), { kind: 'MachineDeployment', field: /providerSpec\.value\.unknownKey$/, message: /unknown field "unknownKey"/ }));

test('missing cluster facts', () =>
  expectError((l) => (l.items = l.items.filter((i: any) => i.metadata.name !== 'cloud-init-getter-token')), { kind: 'OperatingSystemManager', message: /missing cluster fact: the cloud-init-getter token/ }));

test('wrong apiVersion of the config', () =>
  expectError((l) => (l.functionConfig.apiVersion = 'osm-krm.dev/v2'), { kind: 'OperatingSystemManager', field: /^apiVersion$/, message: /unsupported functionConfig/ }));

test('two MachineDeployments that would produce the same object name', () =>
  expectError((l) => {
    // "a-b" in "kube-system" and "a" in "b-kube-system" both give OSC "a-b-kube-system-config".
    const one = md(l, 'ubuntu-workers');
    const two = structuredClone(one);
    one.metadata.name = 'a-b';
    two.metadata.name = 'a';
    two.metadata.namespace = 'b-kube-system';
    l.items.push(two);
    l.items.push({ apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.kubernetes.io/token', metadata: { name: 'bootstrap-token-x', namespace: 'kube-system', labels: { 'machinedeployment.k8s.io/name': 'b-kube-system-a' } }, stringData: { 'token-id': 'xxxxxx', 'token-secret': 'xxxxxxxxxxxxxxxx' } });
    l.items.push({ apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.kubernetes.io/token', metadata: { name: 'bootstrap-token-y', namespace: 'kube-system', labels: { 'machinedeployment.k8s.io/name': 'kube-system-a-b' } }, stringData: { 'token-id': 'yyyyyy', 'token-secret': 'yyyyyyyyyyyyyyyy' } });
  }, { kind: 'MachineDeployment', message: /OperatingSystemConfig\/kube-system\/a-b-kube-system-config would be generated for both/ }));

test('malformed YAML is an error result, not a crash', () => {
  const r = runOn('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- a: [\n');
  assert.equal(r.exitCode, 1);
  assert.match(r.results[0].message, /malformed YAML/);
  void stringify;
});
