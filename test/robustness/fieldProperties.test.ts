// issue 17 §1, generatively and end to end: every MachineDeployment and config field that reaches a node's
// configuration gets hostile strings (every Unicode line break, quotes, YAML indicators, `#`, `:`, shell
// metacharacters, control bytes). Each run either fails with an error naming that field, or its cloud-configs
// are read by cloud-init's own readers (PyYAML, cloud-init's schema), its scripts by `bash -n` and its units by
// `systemd-analyze verify` (where the machine has it) exactly as
// the value was given: the files holding the value say exactly it, and no key, file, command or line is added.
// The readers run once for all documents (one Python process).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { runFunction } from '../../src/cli/runFunction.ts';
import { noEnvironment } from '../support/runInProcess.ts';
import { BASE_CONFIG, baseItems, machineDeployment, resourceList } from './inputCorpus.ts';
import { literalBlockReadBack, readBack, type ReaderKind } from './support/readBack.ts';
import { hostileString } from './support/hostileStrings.ts';

const SEED = Number(process.env.PROPERTY_SEED ?? 2026);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 12);

// A profile that places the value as OSP authors do: bare in a script, in a unit's Environment=, and as the
// whole of a file's content.
function profile(osName: string, expr: string, cloud: string, shellExpr = expr): any {
  return {
    apiVersion: 'operatingsystemmanager.k8c.io/v1alpha1',
    kind: 'OperatingSystemProfile',
    metadata: { name: 'osp-values', namespace: 'kube-system' },
    spec: {
      osName,
      osVersion: '1',
      version: 'v1.0.0',
      provisioningUtility: 'cloud-init',
      supportedCloudProviders: [{ name: cloud }],
      bootstrapConfig: {
        files: [
          {
            path: '/opt/bin/bootstrap',
            permissions: 755,
            content: { inline: { data: '#!/bin/bash\necho bootstrap\n' } },
          },
        ],
        modules: { runcmd: ['systemctl start bootstrap.service'] },
      },
      provisioningConfig: {
        files: [
          {
            path: '/opt/bin/use-value',
            permissions: 755,
            content: { inline: { data: `#!/bin/bash\nset -eu\nvalue=${shellExpr}\necho ${shellExpr}\n` } },
          },
          {
            path: '/etc/systemd/system/use-value.service',
            permissions: 644,
            content: { inline: { data: `[Service]\nEnvironment=VALUE=${expr}\nExecStart=/bin/true\n` } },
          },
          { path: '/etc/osm/value', permissions: 600, content: { inline: { data: `${expr}` } } },
        ],
        modules: { runcmd: ['systemctl start use-value.service'] },
      },
    },
  };
}

interface Field {
  name: string;
  /** Where an error about the value must point. */
  path: RegExp;
  expr: string;
  osName?: string;
  apply(value: string, md: any, config: any): void;
  /** Free text (a password) that no profile places bare into a shell: the script gets a fixed word instead. */
  notInShell?: boolean;
  /** rh_subscription key the value is written under. */
  rh?: string;
}

const FIELDS: Field[] = [
  {
    name: 'cloudProvider',
    path: /^spec\.template\.spec\.providerSpec\.value\.cloudProvider$/,
    expr: '{{ .CloudProviderName }}',
    apply: (v, md) => (md.spec.template.spec.providerSpec.value.cloudProvider = v),
  },
  {
    name: 'overwriteCloudConfig',
    path: /overwriteCloudConfig$/,
    expr: '{{ .CloudConfig }}',
    notInShell: true,
    apply: (v, md) => (md.spec.template.spec.providerSpec.value.overwriteCloudConfig = v),
  },
  {
    name: 'initialTaints',
    path: /^spec\.initialTaints$/,
    expr: '{{ .InitialTaints }}',
    apply: (v, _md, c) => (c.spec.initialTaints = v),
  },
  {
    name: 'nodeHTTPProxy',
    path: /^spec\.nodeHTTPProxy$/,
    expr: '{{ with .HTTPProxy }}{{ . }}{{ end }}',
    apply: (v, _md, c) => (c.spec.nodeHTTPProxy = v),
  },
  {
    name: 'nodeNoProxy',
    path: /^spec\.nodeNoProxy$/,
    expr: '{{ with .NoProxy }}{{ . }}{{ end }}',
    apply: (v, _md, c) => (c.spec.nodeNoProxy = v),
  },
  {
    name: 'pauseImage',
    path: /^spec\.pauseImage$/,
    expr: '{{ .PauseImage }}',
    apply: (v, _md, c) => (c.spec.pauseImage = v),
  },
  {
    name: 'artifacts',
    path: /^spec\.artifacts\.mirror$/,
    expr: '{{ .Artifacts.mirror }}',
    apply: (v, _md, c) => (c.spec.artifacts = { mirror: v }),
  },
  {
    name: 'rhel user (any key case)',
    path: /operatingSystemSpec\.rhelsubscriptionmanageruser$/i,
    osName: 'rhel',
    expr: '{{ .RhelConfig.RHELSubscriptionManagerUser }}',
    notInShell: true,
    rh: 'username',
    apply: (v, md) =>
      Object.assign(md.spec.template.spec.providerSpec.value, {
        operatingSystem: 'rhel',
        operatingSystemSpec: { RHELSUBSCRIPTIONMANAGERUSER: v, rhelSubscriptionManagerPassword: 'pw' },
      }),
  },
  {
    name: 'rhel password',
    path: /operatingSystemSpec\.rhelSubscriptionManagerPassword$/,
    osName: 'rhel',
    expr: '{{ .RhelConfig.RHELSubscriptionManagerPassword }}',
    notInShell: true,
    rh: 'password',
    apply: (v, md) =>
      Object.assign(md.spec.template.spec.providerSpec.value, {
        operatingSystem: 'rhel',
        operatingSystemSpec: { rhelSubscriptionManagerUser: 'user', rhelSubscriptionManagerPassword: v },
      }),
  },
  {
    name: 'sshPublicKeys',
    path: /sshPublicKeys\[0\]$/,
    expr: 'fixed',
    apply: (v, md) =>
      (md.spec.template.spec.providerSpec.value.sshPublicKeys = [`ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 ${v}`]),
  },
  {
    name: 'KubeReserved',
    path: /KubeReserved$/,
    expr: '{{ range $k, $v := .KubeReserved }}{{ $k }}={{ $v }}{{ end }}',
    apply: (v, md) =>
      (md.metadata.annotations['v1.kubelet-config.machine-controller.kubermatic.io/KubeReserved'] = `cpu=${v}`),
  },
];

interface Run {
  field: Field;
  value: string;
  code: number;
  out: any;
}

function render(field: Field, value: string): Run {
  const md = machineDeployment('workers');
  md.metadata.annotations['k8c.io/operating-system-profile'] = 'osp-values';
  const config = structuredClone(BASE_CONFIG) as any;
  field.apply(value, md, config);
  // The OSP schema allows only known clouds: a MachineDeployment naming another one matches no profile.
  const items = [
    profile(field.osName ?? 'ubuntu', field.expr, 'aws', field.notInShell ? 'fixed' : field.expr),
    md,
    ...baseItems().filter((i) => i.kind === 'Secret'),
  ];
  let stdout = '';
  const code = runFunction(resourceList(items, config), {
    stdout: (s) => (stdout += s),
    stderr: () => {},
    env: noEnvironment,
  });
  return { field, value, code, out: parse(stdout) };
}

const userData = (out: any) => {
  const secret = out.items.find(
    (i: any) => i.kind === 'Secret' && i.metadata.name === 'workers-kube-system-provisioning-config',
  );
  return secret ? Buffer.from(secret.data['cloud-config'], 'base64').toString('utf8') : undefined;
};

/** `systemd-analyze verify` on every one-line unit at once, where the machine has it: not a word of complaint. */
function verifyUnits(units: string[]): void {
  if (spawnSync('systemd-analyze', ['--version']).status !== 0 || units.length === 0) return;
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-units-'));
  try {
    const files = units.map((text, i) => {
      const file = join(dir, `use-value-${i}.service`);
      writeFileSync(file, text);
      return file;
    });
    const r = spawnSync('systemd-analyze', ['verify', '--man=no', ...files], { encoding: 'utf8', timeout: 60_000 });
    const complaints = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.includes(dir));
    assert.deepEqual(
      complaints,
      [],
      complaints.map((l) => units[Number(/use-value-(\d+)/.exec(l)?.[1])]).join('\n---\n'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("every field that reaches a node: read back exactly by cloud-init's readers and bash, or refused naming the field", () => {
  const runs: Run[] = [];
  for (const field of FIELDS) {
    fc.assert(
      fc.property(hostileString({ minLength: 1 }), (value) => {
        const run = render(field, value);
        if (run.code !== 0) {
          const errors = (run.out.results ?? []).filter((r: any) => r.severity === 'error');
          assert.ok(
            errors.some((e: any) => field.path.test(e.field?.path ?? '')),
            `${field.name} ${JSON.stringify(value)}: error not naming the field: ${JSON.stringify(errors)}`,
          );
          assert.equal(userData(run.out), undefined, 'nothing generated');
        }
        runs.push(run);
      }),
      {
        seed: SEED,
        numRuns: RUNS,
        includeErrorInReport: true,
        examples: [['a\nruncmd: [reboot]'], ['a\u2028runcmd: [reboot]'], ['a\u0085b'], ['$(reboot)'], ['plain-value']],
      },
    );
  }

  const accepted = runs.filter((r) => r.code === 0);
  const docs: Array<{ kind: ReaderKind; text: string }> = [];
  for (const r of accepted)
    docs.push({ kind: 'yaml', text: userData(r.out)! }, { kind: 'schema', text: userData(r.out)! });
  const read = readBack(docs);
  const scripts: Array<{ kind: ReaderKind; text: string }> = [];
  const units: string[] = [];
  accepted.forEach((r, n) => {
    const label = `${r.field.name} ${JSON.stringify(r.value)}\n${userData(r.out)}`;
    const doc = read[2 * n]!;
    assert.ok('value' in doc, `PyYAML: ${'error' in doc ? doc.error : ''}\n${label}`);
    const schema = read[2 * n + 1]!;
    assert.ok('value' in schema, `cloud-init schema: ${'error' in schema ? schema.error : ''}\n${label}`);
    const cfg = doc.value as any;
    const rhel = r.field.osName === 'rhel';
    assert.deepEqual(
      Object.keys(cfg).sort(),
      ['runcmd', 'ssh_authorized_keys', 'ssh_pwauth', 'write_files', ...(rhel ? ['rh_subscription'] : [])].sort(),
      `keys added\n${label}`,
    );
    assert.deepEqual(cfg.runcmd, ['systemctl start use-value.service'], `commands added\n${label}`);
    const files = cfg.write_files as any[];
    assert.deepEqual(
      files.slice(0, 3).map((f) => f.path),
      ['/opt/bin/use-value', '/etc/systemd/system/use-value.service', '/etc/osm/value'],
      label,
    );
    const content = (f: any) =>
      f.encoding === 'b64' ? Buffer.from(f.content, 'base64').toString('utf8') : (f.content ?? '');
    // Each file says exactly what the template wrote with the value (KubeReserved as name=quantity): in
    // base64, or, like any OSM file, without its trailing line breaks and its first line's indentation.
    const v = r.field.name === 'KubeReserved' ? `cpu=${r.value}` : r.field.name === 'sshPublicKeys' ? 'fixed' : r.value;
    const sh = r.field.notInShell ? 'fixed' : v;
    const written = [
      `#!/bin/bash\nset -eu\nvalue=${sh}\necho ${sh}\n`,
      `[Service]\nEnvironment=VALUE=${v}\nExecStart=/bin/true\n`,
      v,
    ];
    written.forEach((text, i) => {
      assert.equal(
        content(files[i]),
        files[i].encoding === 'b64' ? text : literalBlockReadBack(text),
        `${files[i].path}\n${label}`,
      );
    });
    if (r.field.name === 'sshPublicKeys')
      assert.deepEqual(cfg.ssh_authorized_keys, [`ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 ${r.value}`.trim()], label);
    if (r.field.rh) assert.equal(cfg.rh_subscription[r.field.rh], r.value, `rh_subscription.${r.field.rh}\n${label}`);
    if (!/[\n\r]/.test(sh)) scripts.push({ kind: 'bash', text: written[0]! });
    if (!/[\n\r]/.test(v)) units.push(content(files[1]));
  });
  const bash = readBack(scripts);
  bash.forEach((b, i) => assert.ok('value' in b, `bash -n: ${'error' in b ? b.error : ''}\n${scripts[i]!.text}`));
  verifyUnits(units);
  // Both outcomes are reached: hostile values refused, ordinary ones written.
  assert.ok(accepted.length >= FIELDS.length, `only ${accepted.length} of ${runs.length} rendered`);
  assert.ok(runs.length - accepted.length > FIELDS.length, 'nothing refused');
});
