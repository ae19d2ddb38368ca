// What cannot boot here still runs as far as it can, inside the boot tests' Debian container
// (localhost/osm-krm-test/node-boot, scripts/test-images.sh): for every default profile x every cloud it supports
// (kubelet 1.34, IPv4 and dual-stack; Flatcar as Ignition 2.3.0 and 3.3.0), every systemd unit and drop-in we
// emit goes through `systemd-analyze verify` with all of the machine's files in place, and every containerd
// config.toml (plus every upstream containerd golden case) is loaded by a real containerd 2.x (`config dump`).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';
import { runOn } from '../support/runInProcess.ts';
import { UPSTREAM_OSM } from '../support/paths.ts';
import { embeddedProfiles } from '../../src/profiles/embeddedProfiles.ts';
import { emitContainerdConfigToml } from '../../src/emit/containerd/configToml.ts';
import { functionConfig, IP_FAMILIES, machineDeployment, resourceList } from './support/profileRuns.ts';
import { BOOT_IMAGE } from '../boot/bootNode.ts';

const IMAGE = BOOT_IMAGE;
const CONTAINERD_DEB = '/usr/local/share/osm-krm-test/containerd.io_2.2.0_amd64.deb';
const work = mkdtempSync(join(tmpdir(), 'osm-krm-executed-'));
after(() => rmSync(work, { recursive: true, force: true }));

interface MachineFile {
  path: string;
  mode: number;
  content: Buffer;
}

/** Every file of a user-data (cloud-config write_files, or Ignition files and systemd units with their drop-ins). */
function filesOf(secret: any): MachineFile[] {
  const text = Buffer.from(secret.data['cloud-config'], 'base64').toString('utf8');
  if (text.startsWith('{')) {
    const ign = JSON.parse(text);
    const dataUrl = (s: string) =>
      Buffer.from(decodeURIComponent(s.slice(s.indexOf(',') + 1)), s.includes(';base64,') ? 'base64' : 'utf8');
    const files: MachineFile[] = (ign.storage?.files ?? []).map((f: any) => ({
      path: f.path,
      mode: f.mode ?? 0o644,
      content: dataUrl(f.contents.source),
    }));
    for (const u of ign.systemd?.units ?? []) {
      if (u.contents !== undefined)
        files.push({ path: `/etc/systemd/system/${u.name}`, mode: 0o644, content: Buffer.from(u.contents) });
      for (const d of u.dropins ?? [])
        files.push({
          path: `/etc/systemd/system/${u.name}.d/${d.name}`,
          mode: 0o644,
          content: Buffer.from(d.contents),
        });
    }
    return files;
  }
  const doc = parse(text, { version: '1.1' }) as {
    write_files?: Array<{ path: string; permissions: string; encoding?: string; content: string }>;
  };
  return (doc.write_files ?? []).map((f) => ({
    path: f.path,
    mode: parseInt(f.permissions, 8),
    content: Buffer.from(String(f.content ?? ''), f.encoding === 'b64' ? 'base64' : 'utf8'),
  }));
}

const isUnit = (p: string) =>
  /^\/etc\/systemd\/system\/[^/]+\.(service|socket|timer|mount|path|target)$/.test(p) ||
  /^\/etc\/systemd\/system\/[^/]+\.d\/[^/]+\.conf$/.test(p);

/** Machines (profile/cloud/family/spec) -> their files, rendered in-process. */
function machines(): Map<string, MachineFile[]> {
  const out = new Map<string, MachineFile[]>();
  for (const osp of embeddedProfiles() as any[]) {
    for (const ignitionSpec of osp.spec.provisioningUtility === 'ignition' ? ['2.3.0', '3.3.0'] : ['2.3.0']) {
      const mds: any[] = [];
      for (const { name: cloud } of osp.spec.supportedCloudProviders) {
        for (const ipFamily of IP_FAMILIES)
          mds.push(
            machineDeployment({
              profile: osp.metadata.name,
              osName: osp.spec.osName,
              cloud,
              kubelet: '1.34.3',
              ipFamily,
              provisioningUtility: osp.spec.provisioningUtility,
            }),
          );
      }
      const r = runOn(resourceList(mds, functionConfig({ ignitionSpec })));
      assert.equal(r.exitCode, 0, r.stderr);
      for (const md of mds) {
        const secret = (type: string) =>
          r.items.find(
            (i: any) => i.kind === 'Secret' && i.metadata.name === `${md.metadata.name}-kube-system-${type}-config`,
          );
        out.set(`${md.metadata.name}${ignitionSpec === '3.3.0' ? '-ign3' : ''}`, [
          ...filesOf(secret('bootstrap')),
          ...filesOf(secret('provisioning')),
        ]);
      }
    }
  }
  return out;
}

const all = machines();

/** Writes each distinct machine (same files give the same check) under work/machines/N, and returns their names. */
function layOut(): Map<string, string[]> {
  const byContent = new Map<string, string[]>();
  // A negative control, checked like the others: an unknown key and a command nothing provides.
  const bad = join(work, 'machines', 'zz-negative-control', 'etc/systemd/system');
  mkdirSync(bad, { recursive: true });
  writeFileSync(join(bad, 'broken.service'), '[Service]\nExecStart=/opt/bin/not-there\nRestartSecs=5\n');
  for (const [name, files] of all) {
    const h = createHash('sha256');
    for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1)))
      h.update(`${f.path}\0${f.mode}\0`).update(f.content);
    const key = h.digest('hex').slice(0, 12);
    if (!byContent.has(key)) {
      byContent.set(key, []);
      const root = join(work, 'machines', key);
      for (const f of files) {
        const p = join(root, f.path);
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, f.content);
        chmodSync(p, f.mode & 0o777);
      }
    }
    byContent.get(key)!.push(name);
  }
  return byContent;
}

function inContainer(script: string) {
  chmodSync(work, 0o755);
  const r = spawnSync(
    'podman',
    ['run', '--rm', '--network', 'none', '-v', `${work}:/work:ro`, '--entrypoint', 'bash', IMAGE, '-c', script],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 900_000 },
  );
  if (r.error) throw r.error;
  return r;
}

// Executables our units start that come from the OS image or are downloaded at provisioning time, not from the
// user-data: the check puts an empty stand-in there (only where the Debian container lacks them).
const PROVIDED_LATER = new Set([
  '/opt/bin/kubelet',
  '/usr/bin/containerd',
  '/usr/bin/coreos-cloudinit',
  '/usr/bin/flatcar-update',
  '/usr/bin/update_engine_client',
  '/usr/bin/locksmithctl',
  '/usr/sbin/wait-for-network',
  '/opt/bin/setup_net_env.sh',
]);

test('systemd-analyze verify accepts every unit and drop-in of every default profile x cloud, with the files in place', (t) => {
  const byContent = layOut();
  const script = `set -u
cd /work/machines
for m in *; do
  # Put this machine's files in place (a fresh copy each time: nothing of the previous machine remains).
  (cd "$m" && find . -type f -printf '%P\\n') > /tmp/files
  (cd "$m" && tar -c .) | tar -C / -x --no-same-owner
  for exe in $(grep -ohP '^Exec\\w*=[-@:+!]*\\K/[^ ]+' $(grep -E '^etc/systemd/system/[^/]+(\\.d/[^/]+\\.conf|\\.(service|socket|timer|mount|path|target))$' /tmp/files | sed 's|^|/|') 2>/dev/null | sort -u); do
    if [ ! -x "$exe" ]; then mkdir -p "$(dirname "$exe")"; printf '#!/bin/sh\\n' >"$exe"; chmod 755 "$exe"; echo "STUB $m $exe"; fi
  done
  units=$(grep -E '^etc/systemd/system/[^/]+\\.(service|socket|timer|mount|path|target)$' /tmp/files | sed 's|^|/|')
  echo "MACHINE $m $(echo $units | wc -w)"
  out=$(SYSTEMD_LOG_LEVEL=notice systemd-analyze verify --man=no $units 2>&1); rc=$?
  [ -z "$out" ] && [ $rc -eq 0 ] || { echo "FAIL $m rc=$rc"; printf '%s\\n' "$out"; }
  # Remove the machine's files again.
  sed 's|^|/|' /tmp/files | xargs rm -f
done`;
  const r = inContainer(script);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  const negative = r.stdout.slice(r.stdout.indexOf('MACHINE zz-negative-control'));
  assert.match(negative, /FAIL zz-negative-control rc=/);
  assert.match(negative, /Unknown key name 'RestartSecs'|Unknown key 'RestartSecs'/);
  const failures = r.stdout
    .slice(0, r.stdout.indexOf('MACHINE zz-negative-control'))
    .split('\n')
    .filter((l) => !/^(STUB|MACHINE) /.test(l) && l !== '');
  assert.deepEqual(failures, [], r.stdout);
  const verified = lines.filter((l) => l.startsWith('MACHINE ') && !l.includes('zz-negative-control'));
  assert.equal(verified.length, byContent.size);
  // Every distinct machine had units to verify, and every drop-in belongs to a unit that was verified with it.
  for (const l of verified) assert.ok(Number(l.split(' ')[2]) > 0, l);
  const stubs = new Set(
    lines.filter((l) => l.startsWith('STUB ') && !l.includes('zz-negative-control')).map((l) => l.split(' ')[2]!),
  );
  assert.deepEqual(
    [...stubs].filter((s) => !PROVIDED_LATER.has(s)),
    [],
    'a unit starts something neither the user-data nor the OS provides',
  );
  t.diagnostic(
    `${all.size} machines, ${byContent.size} distinct file sets verified; stand-ins for ${[...stubs].sort().join(', ')}`,
  );
  for (const [, files] of all)
    for (const f of files)
      if (/\.d\/[^/]+\.conf$/.test(f.path) && f.path.startsWith('/etc/systemd/system/')) assert.ok(isUnit(f.path));
});

test('a real containerd 2.x loads every containerd config we emit (config dump), upstream golden cases included', (t) => {
  const configs = new Map<string, string>();
  for (const [name, files] of all) {
    const c = files.find((f) => f.path === '/etc/containerd/config.toml');
    if (c) configs.set(c.content.toString('utf8'), name);
  }
  const cases = JSON.parse(
    readFileSync(join(UPSTREAM_OSM, '_extracted/pkg/containerruntime/cases.json'), 'utf8'),
  ) as Array<{ name: string; input: any }>;
  for (const c of cases) {
    const i = c.input;
    configs.set(
      emitContainerdConfigToml({
        insecureRegistries: i.insecureRegistries ?? [],
        registryMirrors: i.registryMirrors ?? {},
        registryCredentials: i.registryCredentials ?? {},
        sandboxImage: i.sandboxImage ?? '',
        deviceOwnershipFromSecurityContext: i.deviceOwnershipFromSecurityContext ?? false,
      }),
      `upstream ${c.name}`,
    );
  }
  // Templated configs (Flatcar's, Amazon Linux 2's) are rendered above; every one is a distinct file here.
  const dir = join(work, 'containerd');
  mkdirSync(dir, { recursive: true });
  // A negative control: containerd must refuse it.
  writeFileSync(join(dir, 'negative.toml'), 'version = 3\n[plugins\n');
  const names: string[] = [];
  [...configs].forEach(([content, name], i) => {
    writeFileSync(join(dir, `${i}.toml`), content);
    names.push(name);
  });
  const r = inContainer(`set -u
dpkg -x ${CONTAINERD_DEB} /tmp/ctd
/tmp/ctd/usr/bin/containerd --version
for f in /work/containerd/*.toml; do
  if out=$(/tmp/ctd/usr/bin/containerd --log-level warn --config "$f" config dump 2>&1 >/tmp/dump); then
    grep -q '^version = 3$' /tmp/dump && echo "OK $(basename "$f" .toml)" || echo "NOTV3 $(basename "$f" .toml)"
  else
    echo "FAIL $(basename "$f" .toml): $out"
  fi
done`);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^containerd .* v?2\.\d+/m);
  assert.match(r.stdout, /^FAIL negative: /m);
  const bad = r.stdout
    .split('\n')
    .filter((l) => /^(FAIL|NOTV3) \d/.test(l))
    .map((l) => l.replace(/^(\w+) (\d+)/, (_m, k, i) => `${k} ${names[Number(i)]}`));
  assert.deepEqual(bad, []);
  assert.equal(r.stdout.split('\n').filter((l) => l.startsWith('OK ')).length, configs.size);
  // The upstream cases differ in their hosts.toml files more than in config.toml; each profile family adds its own.
  assert.ok(configs.size >= 4, `only ${configs.size} distinct configs`);
  t.diagnostic(`${configs.size} distinct config.toml files loaded by ${/^containerd .*$/m.exec(r.stdout)![0]}`);
});
