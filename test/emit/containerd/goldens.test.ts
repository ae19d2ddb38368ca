// containerd config.toml and hosts.toml against upstream OSM's TestContainerd_Configs: byte for byte against
// every golden in ../shared, and for the cases.json inputs whose golden is not there, against the output of
// OSM's containerd.go itself (run with Go and BurntSushi/toml v1.6.0 when these expectations were written).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { emitContainerdConfigToml } from '../../../src/emit/containerd/configToml.ts';
import { emitRegistryHostFiles } from '../../../src/emit/containerd/hostsToml.ts';
import type { ContainerRuntimeOptions } from '../../../src/emit/containerd/registryOptions.ts';
import { UPSTREAM_OSM } from '../../support/paths.ts';
import { lineDiff } from '../../support/lineDiff.ts';

interface Case {
  name: string;
  golden: string;
  input: Partial<ContainerRuntimeOptions>;
}

const cases = JSON.parse(
  readFileSync(join(UPSTREAM_OSM, '_extracted/pkg/containerruntime/cases.json'), 'utf8'),
) as Case[];
const goldenDir = join(UPSTREAM_OSM, 'pkg/containerruntime/testdata');
const readGolden = (name: string) => readFileSync(join(goldenDir, `TestContainerd_Configs-${name}.golden`), 'utf8');

function options(input: Partial<ContainerRuntimeOptions>): ContainerRuntimeOptions {
  return {
    insecureRegistries: input.insecureRegistries ?? [],
    registryMirrors: input.registryMirrors ?? {},
    registryCredentials: input.registryCredentials ?? {},
    sandboxImage: input.sandboxImage ?? '',
    deviceOwnershipFromSecurityContext: input.deviceOwnershipFromSecurityContext ?? false,
  };
}

/** The golden layout: config.toml, then each hosts.toml, each under a `# <path>` line, joined by `---`. */
function render(opts: ContainerRuntimeOptions): string {
  const files = [
    { path: '/etc/containerd/config.toml', content: emitContainerdConfigToml(opts) },
    ...emitRegistryHostFiles(opts),
  ];
  return files.map((f) => `# ${f.path}\n${f.content}`).join('---\n');
}

function assertSame(actual: string, expected: string): void {
  if (actual !== expected) assert.fail(lineDiff(expected, actual));
}

test('cases.json holds the 20 upstream cases', () => {
  assert.equal(cases.length, 20);
});

for (const c of cases.filter((c) => existsSync(join(goldenDir, c.golden)))) {
  test(`containerd golden ${c.name}`, () => {
    assertSame(render(options(c.input)), readFileSync(join(goldenDir, c.golden), 'utf8'));
  });
}

const simple = readGolden('simple');
const simpleConfig = simple.slice(0, simple.indexOf('---\n') + 4);
const dockerHubDefault = simple.slice(simple.indexOf('---\n') + 4);
const caseInput = (name: string) => options(cases.find((c) => c.name === name)!.input);

const withoutSharedGolden: Record<string, () => string> = {
  wildcard_mirror: () =>
    simpleConfig +
    '# /etc/containerd/certs.d/_default/hosts.toml\n[host."https://mirror.example.com"]\ncapabilities = ["pull", "resolve"]\n---\n' +
    dockerHubDefault,
  // the same as registry_credentials, with the scheme stripped from the key
  registry_credentials_with_url_scheme: () =>
    readGolden('registry_credentials').replaceAll('"gcr.io"', '"my-registry.example.com"'),
  harbor_subpath_mirrors_with_override_path: () =>
    simpleConfig +
    ['docker.io', 'gcr.io', 'ghcr.io', 'quay.io', 'registry.k8s.io']
      .map((registry) => {
        const server = registry === 'docker.io' ? 'https://registry-1.docker.io' : registry;
        const proxy = registry === 'registry.k8s.io' ? 'k8s-io' : registry.replace('.', '-');
        return `# /etc/containerd/certs.d/${registry}/hosts.toml\nserver = "${server}"\n\n[host."https://harbor.example.com/v2/proxy-${proxy}"]\ncapabilities = ["pull", "resolve"]\noverride_path = true\n`;
      })
      .join('---\n'),
  two_mirrors_same_registry_one_with_override_path_one_without: () =>
    simple +
    '---\n# /etc/containerd/certs.d/ghcr.io/hosts.toml\nserver = "ghcr.io"\n\n' +
    '[host."https://harbor.example.com"]\ncapabilities = ["pull", "resolve"]\n' +
    '[host."https://harbor.example.com/v2/proxy-ghcr-io"]\ncapabilities = ["pull", "resolve"]\noverride_path = true\n',
};

for (const [name, expected] of Object.entries(withoutSharedGolden)) {
  test(`containerd case without a shared golden: ${name}`, () => {
    assertSame(render(caseInput(name)), expected());
  });
}
