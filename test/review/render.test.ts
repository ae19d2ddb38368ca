// `osm-krm render`: the decoded user-data per MachineDeployment, checked against the function's own output
// decoded independently here (base64 + YAML/JSON), secrets masked, --out trees, --explain, --md.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, stringify } from 'yaml';
import { runRenderCommand } from '../../src/cli/renderCommand.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { runOn, findItem } from '../support/runInProcess.ts';
import { runCommand, tempDir } from './reviewSupport.ts';

const EXAMPLE = join(REPO_ROOT, 'examples/basic/resourcelist.yaml');
const exampleText = readFileSync(EXAMPLE, 'utf8');
const GETTER_TOKEN: string = (parse(exampleText) as any).items.find(
  (i: any) => i.metadata?.name === 'cloud-init-getter-token',
).stringData.token;

function userData(name: string): string {
  const out = runOn(exampleText);
  return Buffer.from(findItem(out.items, 'Secret', name).data['cloud-config'], 'base64').toString('utf8');
}

test('every file of the provisioning cloud-config is shown with its path, mode and content', () => {
  const r = runCommand(runRenderCommand, [EXAMPLE, '--show-secrets'], REPO_ROOT);
  assert.equal(r.code, 0, r.stderr);
  const config = parse(userData('ubuntu-workers-kube-system-provisioning-config')) as any;
  assert.ok(config.write_files.length > 0);
  for (const f of config.write_files) {
    assert.match(
      r.stdout,
      new RegExp(`^file ${f.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}  mode ${f.permissions}  owner`, 'm'),
    );
    for (const line of String(f.content)
      .split('\n')
      .filter((l) => l.trim() !== ''))
      assert.ok(r.stdout.includes(`  | ${line}`), `${f.path}: ${line}`);
  }
});

test('Ignition units and files are decoded from their data URLs', () => {
  const r = runCommand(runRenderCommand, [EXAMPLE, '--md', 'flatcar-workers', '--show-secrets'], REPO_ROOT);
  assert.equal(r.code, 0, r.stderr);
  let units = 0;
  for (const stage of ['bootstrap', 'provisioning']) {
    const ign = JSON.parse(userData(`flatcar-workers-kube-system-${stage}-config`));
    for (const f of ign.storage?.files ?? []) {
      const content = decodeURIComponent(f.contents.source.replace(/^data:,/, ''));
      assert.match(r.stdout, new RegExp(`^file ${f.path}  mode 0${f.mode.toString(8)}`, 'm'));
      assert.ok(r.stdout.includes(`  | ${content.split('\n')[0]}`), f.path);
    }
    for (const u of ign.systemd?.units ?? []) {
      units++;
      assert.match(r.stdout, new RegExp(`^unit ${u.name.replace('.', '\\.')}${u.enabled ? '  enabled' : ''}$`, 'm'));
    }
  }
  assert.ok(units > 0);
  assert.doesNotMatch(r.stdout, /ubuntu-workers/, '--md narrows the output');
});

test('tokens are masked unless --show-secrets is given', () => {
  const masked = runCommand(runRenderCommand, [EXAMPLE], REPO_ROOT);
  assert.equal(masked.code, 0, masked.stderr);
  assert.ok(!masked.stdout.includes(GETTER_TOKEN));
  assert.match(masked.stdout, /Authorization: Bearer <masked>/);
  const shown = runCommand(runRenderCommand, [EXAMPLE, '--show-secrets'], REPO_ROOT);
  assert.ok(shown.stdout.includes(GETTER_TOKEN));
});

test('--explain names the profile, the config and the template data as Go prints it', () => {
  const r = runCommand(runRenderCommand, [EXAMPLE, '--explain', '--md', 'kube-system/ubuntu-workers'], REPO_ROOT);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^profile: kube-system\/example-ubuntu v0\.1\.0/m);
  assert.match(r.stdout, /^ {2}\.KubeVersion = "v1\.34\.2"$/m);
  assert.match(r.stdout, /^ {2}\.ClusterDNSIPs = \[\]net\.IP\{"10\.96\.0\.10"\}$/m);
  assert.match(r.stdout, /^ {2}\.Token = "<masked>"$/m);
  assert.match(r.stdout, /^## config: OperatingSystemManager osm/m);
});

test('an embedded profile is named as such; a directory is read like generate reads it', () => {
  const dir = tempDir();
  const list = parse(exampleText) as any;
  list.items = list.items.filter((i: any) => i.kind !== 'OperatingSystemProfile');
  for (const md of list.items.filter((i: any) => i.kind === 'MachineDeployment'))
    md.metadata.annotations['k8c.io/operating-system-profile'] =
      md.spec.template.spec.providerSpec.value.operatingSystem === 'flatcar' ? 'osp-flatcar' : 'osp-ubuntu';
  list.items.forEach((item: any, i: number) => writeFileSync(join(dir, `${i}.yaml`), JSON.stringify(item)));
  writeFileSync(join(dir, 'osm.yaml'), JSON.stringify(list.functionConfig));
  const r = runCommand(runRenderCommand, ['.', '--md', 'ubuntu-workers'], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^profile: kube-system\/osp-ubuntu \S+ \(embedded \(osm-krm default profile\)\)$/m);
});

test('--out writes each node file under its path, and refuses a directory that is not empty', () => {
  const out = join(tempDir(), 'tree');
  const r = runCommand(runRenderCommand, [EXAMPLE, '--out', out, '--show-secrets'], REPO_ROOT);
  assert.equal(r.code, 0, r.stderr);
  const config = parse(userData('ubuntu-workers-kube-system-provisioning-config')) as any;
  for (const f of config.write_files)
    assert.equal(readFileSync(join(out, 'kube-system/ubuntu-workers/provisioning', f.path), 'utf8'), f.content);
  assert.deepEqual(readdirSync(join(out, 'kube-system')).sort(), ['flatcar-workers', 'ubuntu-workers']);
  mkdirSync(join(out, 'x'), { recursive: true });
  const again = runCommand(runRenderCommand, [EXAMPLE, '--out', out], REPO_ROOT);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /is not empty/);
});

test('--out is all or nothing: a file that another file lies under is an error naming both, and nothing is written', () => {
  const list = parse(exampleText) as any;
  const osp = list.items.find((i: any) => i.kind === 'OperatingSystemProfile' && i.metadata.name === 'example-ubuntu');
  osp.spec.provisioningConfig.files.push(
    { path: '/etc/osm/x', permissions: 644, content: { inline: { data: 'a file\n' } } },
    { path: '/etc/osm/x/y', permissions: 644, content: { inline: { data: 'under it\n' } } },
  );
  const dir = tempDir();
  writeFileSync(join(dir, 'list.yaml'), stringify(list));
  const parent = join(dir, 'new-parent');
  const r = runCommand(runRenderCommand, ['list.yaml', '--out', join(parent, 'tree')], dir);
  assert.equal(r.code, 1, r.stderr);
  assert.match(
    r.stderr,
    /--out: kube-system\/ubuntu-workers\/provisioning\/etc\/osm\/x would be both a file and the directory holding kube-system\/ubuntu-workers\/provisioning\/etc\/osm\/x\/y .*; nothing written/,
  );
  assert.doesNotMatch(r.stderr, /internal error/);
  assert.equal(r.stdout, '');
  assert.deepEqual(readdirSync(dir), ['list.yaml'], 'nothing written, not even the parent');

  // An empty DIR that exists is filled in one move.
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  const ok = runCommand(runRenderCommand, [EXAMPLE, '--out', empty], dir);
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(readdirSync(join(empty, 'kube-system')).sort(), ['flatcar-workers', 'ubuntu-workers']);
  assert.deepEqual(readdirSync(dir).sort(), ['empty', 'list.yaml']);
});

test('errors: an unknown --md, a render error, a missing path', () => {
  const unknown = runCommand(runRenderCommand, [EXAMPLE, '--md', 'nope'], REPO_ROOT);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /no MachineDeployment named "nope"/);
  const broken = exampleText.replace('{{ .KubeVersion }}', '{{ .KubeVersion');
  const dir = tempDir();
  writeFileSync(join(dir, 'rl.yaml'), broken);
  const failed = runCommand(runRenderCommand, ['rl.yaml'], dir);
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /error: .*OperatingSystemProfile/);
  assert.equal(runCommand(runRenderCommand, ['missing'], dir).code, 1);
});

test('the bundle runs render, diff and lint', () => {
  const bundle = join(REPO_ROOT, 'dist', 'osm-krm.cjs');
  const run = (args: string[]) => spawnSync(process.execPath, [bundle, ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
  const render = run(['render', 'examples/basic/resourcelist.yaml', '--md', 'ubuntu-workers']);
  assert.equal(render.status, 0, render.stderr);
  assert.equal(
    render.stdout,
    runCommand(runRenderCommand, ['examples/basic/resourcelist.yaml', '--md', 'ubuntu-workers'], REPO_ROOT).stdout,
  );
  const diff = run(['diff', 'examples/basic/resourcelist.yaml', 'examples/basic/resourcelist.yaml']);
  assert.equal(diff.status, 0, diff.stderr);
  for (const command of ['render', 'diff', 'lint']) {
    const help = run([command, '--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, new RegExp(`^usage: osm-krm ${command} `));
  }
});
