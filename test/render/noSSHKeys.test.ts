// A MachineDeployment without SSH keys: OSM writes `ssh_authorized_keys:` with a null value, which
// cloud-init's schema rejects (and its ssh module fails on at boot). The function leaves the key out, for our
// profiles and upstream's alike; the emitter alone still writes OSM's bytes (upstream's generator vector 08).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runOn } from '../support/runInProcess.ts';
import { UPSTREAM_OSM } from '../support/paths.ts';
import { machineDeployment, resourceList } from '../profiles/support/profileRuns.ts';
import { checkConfigs } from '../profiles/support/validators.ts';
import { emitCloudInit } from '../../src/emit/userdata/cloudInit.ts';
import { cloudProvider } from '../../src/model/cloudProviders.ts';

function withoutKeys(md: any, keys: unknown): any {
  const value = md.spec.template.spec.providerSpec.value;
  if (keys === undefined) delete value.sshPublicKeys;
  else value.sshPublicKeys = keys;
  return md;
}

function cloudConfigs(items: any[]): Array<{ name: string; text: string }> {
  return items
    .filter((i) => i.kind === 'Secret' && i.data?.['cloud-config'] !== undefined)
    .map((s) => ({
      name: s.metadata.name,
      text: Buffer.from(s.data['cloud-config'], 'base64').toString('utf8').split('<MACHINE_NAME>').join('worker-0'),
    }));
}

test('no SSH keys (absent or an empty list): no ssh_authorized_keys, and cloud-init schema accepts the config', async () => {
  const upstream = parse(readFileSync(join(UPSTREAM_OSM, 'deploy/osps/default/osp-ubuntu.yaml'), 'utf8'));
  upstream.metadata.name = 'upstream-ubuntu';
  upstream.metadata.namespace = 'kube-system';
  const mds = [];
  for (const profile of ['osp-ubuntu', 'upstream-ubuntu']) {
    for (const [i, keys] of [undefined, []].entries()) {
      mds.push(
        withoutKeys(
          machineDeployment({
            profile,
            osName: 'ubuntu',
            cloud: 'hetzner',
            kubelet: '1.34.3',
            ipFamily: 'IPv4',
            name: `${profile}-nokeys-${i}`,
          }),
          keys,
        ),
      );
    }
  }
  const r = runOn(resourceList([upstream, ...mds]));
  assert.equal(r.exitCode, 0, r.stderr);
  const configs = cloudConfigs(r.items);
  assert.equal(configs.length, 8);
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-nokeys-'));
  const paths = configs.map((c) => {
    assert.doesNotMatch(c.text, /ssh_authorized_keys/, c.name);
    const path = join(dir, `${c.name}.yaml`);
    writeFileSync(path, c.text);
    return path;
  });
  assert.deepEqual(await checkConfigs(paths, []), []);
});

test('with keys the key list is unchanged', () => {
  const r = runOn(
    resourceList([
      machineDeployment({ profile: 'osp-ubuntu', osName: 'ubuntu', cloud: 'aws', kubelet: '1.34.3', ipFamily: 'IPv4' }),
    ]),
  );
  assert.equal(r.exitCode, 0, r.stderr);
  for (const c of cloudConfigs(r.items))
    assert.match(c.text, /\nssh_authorized_keys:\n- 'ssh-ed25519 [^']+ matrix'\nwrite_files:/);
});

test("OSM's null ssh_authorized_keys is what cloud-init's schema rejects (the validator sees the difference)", async () => {
  const input = {
    config: { files: [{ path: '/opt/x', permissions: 644, content: { inline: { data: 'x\n' } } }], userSSHKeys: [] },
    osName: 'ubuntu',
    cloud: cloudProvider('hetzner'),
    secretType: 'provisioning' as const,
    distUpgradeOnBoot: false,
    machineDeploymentName: 'md',
  };
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-nokeys-'));
  const osm = join(dir, 'osm.yaml');
  const ours = join(dir, 'ours.yaml');
  writeFileSync(osm, emitCloudInit(input));
  writeFileSync(ours, emitCloudInit({ ...input, omitEmptySSHKeys: true }));
  assert.match(readFileSync(osm, 'utf8'), /\nssh_authorized_keys:\nwrite_files:/);
  const problems = await checkConfigs([osm, ours], []);
  assert.deepEqual(
    problems.map((p) => p.file),
    [osm],
  );
  assert.match(problems[0]!.message, /ssh_authorized_keys/);
});
