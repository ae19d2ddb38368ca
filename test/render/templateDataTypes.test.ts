// The template data keeps OSM's Go types (filesData in reference/osm.md §2.6), so what a template can see of
// them (%T, %#v, JSON nulls) is what Go shows: []net.IP, map[string]bool, a nil map[string]string, []string
// (expected texts as printed by Go 1.19 for the same values).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { findItem, runOn } from '../support/runInProcess.ts';
import { REPO_ROOT } from '../support/paths.ts';

function renderedFile(osp: string, md: string, template: string, mutate: (l: any) => void = () => {}): string {
  const list = parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'));
  list.items
    .find((i: any) => i.kind === 'OperatingSystemProfile' && i.metadata.name === osp)
    .spec.provisioningConfig.files.push({
      path: '/opt/types',
      permissions: 644,
      content: { inline: { data: template } },
    });
  mutate(list);
  const r = runOn(list);
  assert.equal(r.exitCode, 0, r.stderr);
  const osc = findItem(r.items, 'OperatingSystemConfig', `${md}-kube-system-config`);
  return osc.spec.provisioningConfig.files.find((f: any) => f.path === '/opt/types').content.inline.data;
}

test("filesData's typed fields print their Go types", () => {
  const out = renderedFile(
    'example-ubuntu',
    'ubuntu-workers',
    '{{ printf "%T|%T|%#v|%T|%T|%v" .ClusterDNSIPs .KubeletFeatureGates .RHSubscription .Artifacts .KubeReserved .KubeReserved }}',
    (l) => {
      const md = l.items.find((i: any) => i.kind === 'MachineDeployment' && i.metadata.name === 'ubuntu-workers');
      md.metadata.annotations['v1.kubelet-config.machine-controller.kubermatic.io/KubeReserved'] =
        'cpu=100m,memory=1Gi';
    },
  );
  assert.equal(
    out,
    '[]net.IP|map[string]bool|map[string]string(nil)|map[string]string|*map[string]string|&map[cpu:100m memory:1Gi]',
  );
});

test('toJson of the typed fields: IPs as strings, a nil map as null', () => {
  const out = renderedFile(
    'example-ubuntu',
    'ubuntu-workers',
    '{{ toJson .ClusterDNSIPs }} {{ toJson .RHSubscription }} {{ len .KubeletFeatureGates }}',
  );
  assert.equal(out, '["10.96.0.10"] null 1');
});

test('static network DNS servers are a []string, and a nil one when absent', () => {
  const network = (dns: unknown) => (l: any) => {
    const md = l.items.find((i: any) => i.kind === 'MachineDeployment' && i.metadata.name === 'flatcar-workers');
    md.spec.template.spec.providerSpec.value.network = {
      cidr: '192.168.1.10/24',
      gateway: '192.168.1.1',
      ...(dns === undefined ? {} : { dns }),
    };
  };
  const template = '{{ printf "%T %#v" .NetworkConfig.DNS.Servers .NetworkConfig.DNS.Servers }}';
  assert.equal(
    renderedFile('example-flatcar', 'flatcar-workers', template, network({ servers: ['8.8.8.8'] })),
    '[]string []string{"8.8.8.8"}',
  );
  assert.equal(
    renderedFile('example-flatcar', 'flatcar-workers', template, network(undefined)),
    '[]string []string(nil)',
  );
});
