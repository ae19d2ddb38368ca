// `render --explain` (the built bundle) prints the template data's values: a pointer shows what it points to,
// never an address.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, stringify } from 'yaml';
import { EXAMPLES, osmKrm, tempDir } from '../cli/routeSupport.ts';

test('every pointer in the template data prints as & and its value (proxy, network, kubelet settings)', () => {
  const list = parse(readFileSync(join(EXAMPLES, 'basic/resourcelist.yaml'), 'utf8'));
  list.functionConfig.spec.nodeHTTPProxy = 'http://proxy.example:3128';
  const md = list.items.find((i: any) => i.kind === 'MachineDeployment' && i.metadata.name === 'ubuntu-workers');
  md.metadata.annotations['v1.kubelet-config.machine-controller.kubermatic.io/MaxPods'] = '110';
  md.metadata.annotations['v1.kubelet-config.machine-controller.kubermatic.io/KubeReserved'] = 'cpu=200m,memory=200Mi';
  md.spec.template.spec.providerSpec.value.network = { ipFamily: 'IPv4+IPv6' };
  const dir = tempDir();
  writeFileSync(join(dir, 'rl.yaml'), stringify(list, { lineWidth: 0 }));
  const r = osmKrm(['render', 'rl.yaml', '--explain', '--md', 'ubuntu-workers'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /0x[0-9a-f]{6,}/, 'no address');
  assert.match(r.stdout, /^ {2}\.HTTPProxy = &"http:\/\/proxy\.example:3128"$/m);
  assert.match(r.stdout, /^ {2}\.NoProxy = &"\.svc,\.cluster\.local,localhost,127\.0\.0\.1"$/m);
  assert.match(r.stdout, /^ {2}\.MaxPods = &110$/m);
  assert.match(r.stdout, /^ {2}\.KubeReserved = &map\[string\]string\{"cpu":"200m", "memory":"200Mi"\}$/m);
  assert.match(
    r.stdout,
    /^ {2}\.NetworkConfig = &providerconfig\.NetworkConfig\{CIDR:"", Gateway:"", DNS:providerconfig\.DNSConfig\{Servers:\[\]string\(nil\)\}, IPFamily:"IPv4\+IPv6"\}$/m,
  );
  // A nil pointer is still shown as one.
  assert.match(r.stdout, /^ {2}\.SystemReserved = \(\*map\[string\]string\)\(nil\)$/m);
});
