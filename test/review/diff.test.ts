// `osm-krm diff`: per MachineDeployment, unified diffs of what nodes get and what follows in the cluster, across
// a kubelet version change, an OSP edit (with and without a version bump) and a config change; --git.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { runDiffCommand } from '../../src/cli/diffCommand.ts';
import { unifiedDiff } from '../../src/review/unifiedDiff.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { rng } from '../support/rng.ts';
import { runCommand, tempDir } from './reviewSupport.ts';

// Without the revision pinned in Git, so revisions move as machine-controller moves them.
const BASE = readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8').replace(
  /^\s*machinedeployment\.clusters\.k8s\.io\/revision: "1"\n/gm,
  '',
);

function diffOf(head: string, base = BASE, extra: string[] = []) {
  const dir = tempDir();
  writeFileSync(join(dir, 'base.yaml'), base);
  writeFileSync(join(dir, 'head.yaml'), head);
  return runCommand(runDiffCommand, ['base.yaml', 'head.yaml', ...extra], dir);
}

const ubuntuKubelet = (text: string, v: string) =>
  text.replace(/(name: ubuntu-workers[\s\S]*?kubelet: )1\.34\.2/, `$1${v}`);

test('no change: exit 0', () => {
  const r = diffOf(BASE);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /no node changes/);
});

test('a kubelet version change rolls the machines, moves the revision and re-creates the provisioning Secret', () => {
  const r = diffOf(ubuntuKubelet(BASE, '1.35.0'));
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^# MachineDeployment kube-system\/ubuntu-workers$/m);
  assert.match(r.stdout, /^\* spec\.template changed: machine-controller rolls the machines$/m);
  assert.match(r.stdout, /^\* revision 1 -> 2$/m);
  assert.match(r.stdout, /^\* the provisioning Secret changes/m);
  assert.match(r.stdout, /^-# kubelet v1\.34\.2 \(1\.34 or newer\)$/m);
  assert.match(r.stdout, /^\+# kubelet v1\.35\.0 \(1\.34 or newer\)$/m);
  assert.doesNotMatch(r.stdout, /flatcar-workers/, 'the other MachineDeployment is unchanged');
});

test('a revision pinned in Git that would not move is called out', () => {
  const pinned = BASE.replace(
    /(name: ubuntu-workers\n\s+namespace: kube-system\n\s+annotations:\n)/,
    '$1      machinedeployment.clusters.k8s.io/revision: "1"\n',
  );
  assert.notEqual(pinned, BASE);
  const r = diffOf(ubuntuKubelet(pinned, '1.35.0'), pinned);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /warning: the revision stays 1 because Git sets it/);
});

test("an OSP edit under the same version is the version rule's error (exit 2); with a bump it is a diff", () => {
  const edited = BASE.replace('apt-get install -y containerd', 'apt-get install -y containerd jq');
  assert.notEqual(edited, BASE);
  const same = diffOf(edited);
  assert.equal(same.code, 2);
  assert.match(same.stderr, /head: error: .*bump spec\.version/);
  const bumped = diffOf(edited.replace(/(name: example-ubuntu[\s\S]*?version: )"?v0\.1\.0"?/, '$1v0.2.0'));
  assert.equal(bumped.code, 1, bumped.stderr);
  assert.match(bumped.stdout, /^-apt-get install -y containerd$/m);
  assert.match(bumped.stdout, /^\+apt-get install -y containerd jq$/m);
  assert.match(bumped.stdout, /^\* profile example-ubuntu v0\.1\.0 -> example-ubuntu v0\.2\.0$/m);
  assert.match(bumped.stdout, /only new machines/);
});

test('a config change (cluster DNS) reaches the kubelet flags', () => {
  const r = diffOf(BASE.replace('clusterDNS: [10.96.0.10]', 'clusterDNS: [10.96.0.53]'));
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^# MachineDeployment kube-system\/ubuntu-workers$/m);
  assert.match(r.stdout, /^\* the provisioning Secret changes/m);
  assert.doesNotMatch(r.stdout, /spec\.template changed/, 'the config is not part of the MachineDeployment');
  assert.match(r.stdout, /^\+--cluster-dns=10\.96\.0\.53/m);
});

test('secrets are masked in the diff; a changed token still shows as a change', () => {
  const token = 'example-cloud-init-getter-token';
  assert.ok(BASE.includes(`token: ${token}`));
  const r = diffOf(BASE.replace(token, token.slice(0, -4) + 'ZZZZ'));
  assert.equal(r.code, 1, r.stderr);
  assert.ok(!r.stdout.includes(token.slice(0, -4)));
  assert.match(r.stdout, /^-.*Bearer <masked>/m);
});

test('--git REV compares the committed tree with the working tree', () => {
  const repo = tempDir();
  mkdirSync(join(repo, 'clusters/prod'), { recursive: true });
  writeFileSync(join(repo, 'clusters/prod/rl.yaml'), BASE);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'base');
  writeFileSync(join(repo, 'clusters/prod/rl.yaml'), ubuntuKubelet(BASE, '1.35.0'));
  const r = runCommand(runDiffCommand, ['--git', 'HEAD', 'clusters/prod/rl.yaml'], repo);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^\* revision 1 -> 2$/m);
  const bad = runCommand(runDiffCommand, ['--git', 'no-such-rev', 'clusters/prod/rl.yaml'], repo);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /is not a revision/);
});

test('unified diffs apply with GNU patch (random texts)', () => {
  const rnd = rng(15);
  const dir = tempDir();
  for (let t = 0; t < 150; t++) {
    const text = () =>
      Array.from({ length: Math.floor(rnd() * 25) }, () => `l${Math.floor(rnd() * 5)}`).join('\n') +
      (rnd() < 0.8 ? '\n' : '');
    const a = text();
    const b = text();
    const d = unifiedDiff(a, b, 'a/f', 'b/f');
    if (a === b) {
      assert.equal(d, '');
      continue;
    }
    writeFileSync(join(dir, 'f'), a);
    writeFileSync(join(dir, 'p'), d);
    const r = spawnSync('patch', ['-s', '-f', join(dir, 'f'), join(dir, 'p')], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${JSON.stringify(a)} -> ${JSON.stringify(b)}\n${d}\n${r.stderr}`);
    assert.equal(readFileSync(join(dir, 'f'), 'utf8'), b);
  }
});
