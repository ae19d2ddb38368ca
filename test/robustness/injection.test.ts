// Values from MachineDeployments cannot break out of the scripts and cloud-config they end up in: hostile
// values are refused with an error naming the field, and nothing is generated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { runFunction } from '../../src/cli/runFunction.ts';
import { noEnvironment } from '../support/runInProcess.ts';
import { BASE_CONFIG, baseItems, machineDeployment, resourceList, SMALL_OSP } from './inputCorpus.ts';

function run(items: unknown[]) {
  let stdout = '';
  const code = runFunction(resourceList(items), { stdout: (s) => (stdout += s), stderr: () => {}, env: noEnvironment });
  return { code, out: parse(stdout) };
}

const HOSTILE = ['$(reboot)', '`id`', "a'b", 'a"b', 'line\nbreak', 'x; rm -rf /', 'a b'];

function expectRefused(md: any, field: RegExp, label: string): void {
  const r = run([...baseItems(), md]);
  assert.equal(r.code, 1, `${label}: accepted`);
  const errors = r.out.results.filter((x: any) => x.severity === 'error');
  assert.ok(
    errors.some((e: any) => field.test(e.field?.path ?? '')),
    `${label}: ${JSON.stringify(errors)}`,
  );
  assert.ok(
    !r.out.items.some((i: any) =>
      String(i.metadata?.annotations?.['internal.config.kubernetes.io/path'] ?? '').startsWith('osm-generated/'),
    ),
  );
}

test('hostile names and namespaces', () => {
  for (const v of HOSTILE) {
    expectRefused(
      { ...machineDeployment('x'), metadata: { ...machineDeployment('x').metadata, name: v } },
      /^metadata\.name$/,
      `name ${JSON.stringify(v)}`,
    );
    expectRefused(
      { ...machineDeployment('x'), metadata: { ...machineDeployment('x').metadata, namespace: v } },
      /^metadata\.namespace$/,
      `namespace ${JSON.stringify(v)}`,
    );
  }
});

test('hostile SSH keys', () => {
  // Keys sit in '...' in cloud-config and unquoted in the Ignition CLC: quotes, line breaks and YAML
  // indicators would change the document. ($(...) or backticks in a comment are inert there.)
  for (const v of [
    "ssh-ed25519 AAAAC3Nza a'b",
    'ssh-ed25519 AAAAC3Nza line\nbreak',
    'ssh-rsa AAAA\n- evil',
    "ssh-rsa AAAA'\nruncmd: [reboot]",
    'ssh-rsa AAAA comment #hidden',
    'ssh-rsa AAAA x: y',
  ]) {
    expectRefused(machineDeployment('x', { sshPublicKeys: [v] }), /sshPublicKeys\[0\]$/, `key ${JSON.stringify(v)}`);
  }
});

test('hostile kubelet annotations and network values', () => {
  const withAnnotation = (k: string, v: string) => {
    const md = machineDeployment('x');
    md.metadata.annotations[`v1.kubelet-config.machine-controller.kubermatic.io/${k}`] = v;
    return md;
  };
  expectRefused(withAnnotation('KubeReserved', 'cpu=1$(reboot)'), /KubeReserved$/, 'KubeReserved');
  expectRefused(withAnnotation('EvictionHard', 'memory.available<1Gi\nx: y'), /EvictionHard$/, 'EvictionHard');
  expectRefused(withAnnotation('ContainerLogMaxSize', '100Mi"; reboot'), /ContainerLogMaxSize$/, 'ContainerLogMaxSize');
  expectRefused(withAnnotation('MaxPods', '110 && reboot'), /MaxPods$/, 'MaxPods');
  expectRefused(machineDeployment('x', { network: { ipFamily: 'IPv4; reboot' } }), /network\.ipFamily$/, 'ipFamily');
  expectRefused(
    machineDeployment('x', { network: { dns: { servers: ['8.8.8.8\nDNS=evil'] } } }),
    /network\.dns\.servers\[0\]$/,
    'dns',
  );
});

test('legitimate values still render', () => {
  const md = machineDeployment('ok-md.v2');
  md.metadata.annotations['v1.kubelet-config.machine-controller.kubermatic.io/KubeReserved'] =
    'cpu=200m,memory=1Gi,ephemeral-storage=1Gi';
  md.metadata.annotations['v1.kubelet-config.machine-controller.kubermatic.io/EvictionHard'] =
    'memory.available<100Mi,nodefs.available<10%';
  const r = run([...baseItems(), md]);
  assert.equal(r.code, 0, JSON.stringify(r.out.results));
});

// issue 17: encoding/json matches operatingSystemSpec keys case-insensitively, so a check that reads only the
// lower-case key let `RHELSubscriptionManagerUser` carry a line break into the unquoted rh_subscription module.
test('a differently-cased operatingSystemSpec key is checked like the canonical one', () => {
  const rhelOsp = structuredClone(SMALL_OSP);
  rhelOsp.metadata.name = 'osp-rhel-small';
  rhelOsp.spec.osName = 'rhel';
  for (const key of ['RHELSubscriptionManagerUser', 'rhelsubscriptionmanageruser', 'RhelSubscriptionManagerUser']) {
    const md = machineDeployment('x', {
      operatingSystem: 'rhel',
      operatingSystemSpec: { [key]: 'user\nruncmd: [reboot]' },
    });
    md.metadata.annotations['k8c.io/operating-system-profile'] = 'osp-rhel-small';
    const r = run([...baseItems(), rhelOsp, md]);
    const provisioning = r.out.items.find(
      (i: any) => i.kind === 'Secret' && i.metadata?.name === 'x-kube-system-provisioning-config',
    );
    const userData = provisioning ? Buffer.from(provisioning.data['cloud-config'], 'base64').toString() : '';
    assert.ok(!/^runcmd:/m.test(userData), `${key}: runcmd injected:\n${userData}`);
    assert.equal(r.code, 1, `${key}: accepted`);
    const errors = r.out.results.filter((x: any) => x.severity === 'error');
    assert.ok(
      errors.some((e: any) => e.field?.path === `spec.template.spec.providerSpec.value.operatingSystemSpec.${key}`),
      `${key}: ${JSON.stringify(errors)}`,
    );
  }
});

// issue 17 §1 corpus: one case per class and target syntax, each with its exit code and the field and file its
// result names (or, when accepted, what cloud-init reads back).
interface CorpusCase {
  name: string;
  items: () => any[];
  config?: (c: any) => void;
  field?: string;
  file?: string;
  /** Accepted: the provisioning cloud-config holds this text (the value encoded so it reads back exactly). */
  written?: string;
}

const withPath = <T extends { metadata: any }>(o: T, path: string): T => {
  o.metadata.annotations = { ...(o.metadata.annotations ?? {}), 'config.kubernetes.io/path': path };
  return o;
};
const ospWith = (edit: (spec: any) => void) => {
  const osp = withPath(structuredClone(SMALL_OSP) as any, 'osp.yaml');
  edit(osp.spec);
  return osp;
};
const mdWith = (extra: Record<string, unknown>) => withPath(machineDeployment('x', extra), 'md.yaml');
const flatcarOsp = (data: string) =>
  ospWith((s) => {
    Object.assign(s, { osName: 'flatcar', provisioningUtility: 'ignition' });
    s.provisioningConfig.files[0].content.inline.data = data;
  });

const CORPUS: CorpusCase[] = [
  {
    name: 'LS in an SSH key comment',
    items: () => [mdWith({ sshPublicKeys: ['ssh-ed25519 AAAAC3Nza x\u2028runcmd: [reboot]'] })],
    field: `${'spec.template.spec.providerSpec.value'}.sshPublicKeys[0]`,
    file: 'md.yaml',
  },
  {
    name: 'NEL in the HTTP proxy',
    items: () => [mdWith({})],
    config: (c) => (c.spec.nodeHTTPProxy = 'http://p:3128\u0085runcmd: [reboot]'),
    field: 'spec.nodeHTTPProxy',
  },
  {
    name: 'shell metacharacters in the initial taints',
    items: () => [mdWith({})],
    config: (c) => (c.spec.initialTaints = 'a=b:NoSchedule;reboot'),
    field: 'spec.initialTaints',
  },
  {
    name: 'PS in overwriteCloudConfig',
    items: () => [mdWith({ overwriteCloudConfig: '[Global]\u2029runcmd: [reboot]' })],
    field: 'spec.template.spec.providerSpec.value.overwriteCloudConfig',
    file: 'md.yaml',
  },
  {
    name: 'LS in an OSP file path',
    items: () => [ospWith((s) => (s.provisioningConfig.files[0].path = '/opt/x\u2028runcmd: [reboot]')), mdWith({})],
    field: 'spec.provisioningConfig.files[0].path',
    file: 'osp.yaml',
  },
  {
    name: 'a line break in an OSP unit name',
    items: () => [
      ospWith((s) =>
        Object.assign(s, {
          osName: 'flatcar',
          provisioningUtility: 'ignition',
          provisioningConfig: { ...s.provisioningConfig, units: [{ name: 'a.service\n  - name: evil.service' }] },
        }),
      ),
      mdWith({ operatingSystem: 'flatcar', operatingSystemSpec: {} }),
    ],
    field: 'spec.provisioningConfig.units[0].name',
    file: 'osp.yaml',
  },
  {
    name: 'a lone NEL in Ignition content',
    items: () => [
      flatcarOsp('x\u0085  - path: /root/.ssh/authorized_keys'),
      mdWith({ operatingSystem: 'flatcar', operatingSystemSpec: {} }),
    ],
    file: 'md.yaml',
  },
  {
    name: 'a line break in the getter token',
    items: () => [
      mdWith({}),
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: 'cloud-init-getter-token',
          namespace: 'cloud-init-settings',
          annotations: { 'config.kubernetes.io/local-config': 'true' },
        },
        stringData: { token: 'tok\nruncmd: [reboot]' },
      },
    ],
    field: 'spec.cluster.cloudInitGetterToken',
  },
  {
    name: 'LS in an OSP runcmd entry: double-quoted',
    items: () => [
      ospWith((s) => (s.provisioningConfig.modules = { runcmd: ['echo a\u2028runcmd: [reboot]'] })),
      mdWith({}),
    ],
    written: '\nruncmd:\n- "echo a\\u2028runcmd: [reboot]"\n',
  },
  {
    name: 'LS in rendered file content: base64',
    items: () => [
      ospWith((s) => (s.provisioningConfig.files[0].content.inline.data = 'x\u2028runcmd: [reboot]\n')),
      mdWith({}),
    ],
    written: `  encoding: 'b64'\n  content: |-\n    ${Buffer.from('x\u2028runcmd: [reboot]\n').toString('base64')}\n`,
  },
];

test('hostile-input corpus for values reaching cloud-config, Ignition, scripts, units and paths', () => {
  for (const c of CORPUS) {
    const config = structuredClone(BASE_CONFIG) as any;
    c.config?.(config);
    let stdout = '';
    const items = c.items();
    const osp = items.some((i) => i.kind === 'OperatingSystemProfile') ? [] : [SMALL_OSP];
    const secrets = items.some((i) => i.kind === 'Secret') ? [] : baseItems().filter((i) => i.kind === 'Secret');
    const code = runFunction(resourceList([...secrets, ...osp, ...items], config), {
      stdout: (s) => (stdout += s),
      stderr: () => {},
      env: noEnvironment,
    });
    const out = parse(stdout);
    const errors = (out.results ?? []).filter((r: any) => r.severity === 'error');
    if (c.written !== undefined) {
      assert.equal(code, 0, `${c.name}: ${JSON.stringify(errors)}`);
      const secret = out.items.find((i: any) => i.metadata?.name === 'x-kube-system-provisioning-config');
      assert.ok(Buffer.from(secret.data['cloud-config'], 'base64').toString('utf8').includes(c.written), c.name);
      continue;
    }
    assert.equal(code, 1, `${c.name}: accepted`);
    assert.ok(!errors.some((e: any) => /duplicate/.test(e.message)), c.name);
    const match = errors.find(
      (e: any) =>
        (c.field === undefined || e.field?.path === c.field) && (c.file === undefined || e.file?.path === c.file),
    );
    assert.ok(match, `${c.name}: ${JSON.stringify(errors)}`);
    assert.ok(
      !out.items.some((i: any) => i.metadata?.name === 'x-kube-system-provisioning-config'),
      `${c.name}: generated anyway`,
    );
  }
});
