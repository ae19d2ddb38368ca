// containerd config.toml and hosts.toml against every upstream golden whose case inputs are in cases.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { emitContainerdConfigToml } from '../../../src/emit/containerd/configToml.ts';
import { emitRegistryHostFiles } from '../../../src/emit/containerd/hostsToml.ts';
import { parseRegistryCredentials, parseRegistryFlags, type ContainerRuntimeOptions } from '../../../src/emit/containerd/registryOptions.ts';
import { UPSTREAM_OSM } from '../../support/paths.ts';
import { lineDiff } from '../../support/lineDiff.ts';

const cases = JSON.parse(readFileSync(join(UPSTREAM_OSM, '_extracted/pkg/containerruntime/cases.json'), 'utf8')) as Array<{ name: string; golden: string; input: any }>;
const goldenDir = join(UPSTREAM_OSM, 'pkg/containerruntime/testdata');

for (const c of cases) {
  const golden = join(goldenDir, c.golden);
  if (!existsSync(golden)) continue;
  test(`containerd golden ${c.name}`, () => {
    const opts: ContainerRuntimeOptions = {
      insecureRegistries: c.input.insecureRegistries ?? [],
      registryMirrors: c.input.registryMirrors ?? {},
      registryCredentials: c.input.registryCredentials ?? {},
      sandboxImage: c.input.sandboxImage ?? '',
      deviceOwnershipFromSecurityContext: c.input.deviceOwnershipFromSecurityContext ?? false,
    };
    const actual = [`# /etc/containerd/config.toml\n${emitContainerdConfigToml(opts)}`, ...emitRegistryHostFiles(opts).map((f) => `# ${f.path}\n${f.content}`)].join('---\n');
    const expected = readFileSync(golden, 'utf8');
    if (actual !== expected) assert.fail(lineDiff(expected, actual));
  });
}

test('flag parsing follows OSM: registry=url pairs, docker.io default, https:// added', () => {
  const o = parseRegistryFlags({ nodeRegistryMirrors: ' mirror.a , quay.io=http://q.b,https://c', nodeContainerdRegistryMirrors: ['docker.io=https://first'], nodeInsecureRegistries: ' 10.0.0.1:5000, ,x ' });
  assert.deepEqual(o.registryMirrors, { 'docker.io': ['https://first', 'https://mirror.a', 'https://c'], 'quay.io': ['http://q.b'] });
  assert.deepEqual(o.insecureRegistries, ['10.0.0.1:5000', 'x']);
  assert.throws(() => parseRegistryFlags({ nodeContainerdRegistryMirrors: ['no-equals'] }), /exactly 1 =/);
});

test('registry credentials from both Secret types, errors never show the secret', () => {
  const dockerCfg = { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from(JSON.stringify({ auths: { 'r.io': { username: 'u', password: 'p' } } })).toString('base64') } };
  assert.deepEqual(parseRegistryCredentials(dockerCfg), { 'r.io': { username: 'u', password: 'p' } });
  assert.deepEqual(parseRegistryCredentials({ stringData: { 'gcr.io': '{"username":"a","password":"b"}' } }), { 'gcr.io': { username: 'a', password: 'b' } });
  assert.throws(() => parseRegistryCredentials({ stringData: { 'gcr.io': '{"password":"s3cr3t-value"' } }), (e: Error) => !e.message.includes('s3cr3t'));
});
