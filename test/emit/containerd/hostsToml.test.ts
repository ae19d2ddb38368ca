// hosts.toml beyond the goldens. Expected files checked against OSM's Containerd.RegistryHostConfigs()
// (Go 1.19, BurntSushi/toml v1.6.0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitRegistryHostFiles } from '../../../src/emit/containerd/hostsToml.ts';
import type { ContainerRuntimeOptions } from '../../../src/emit/containerd/registryOptions.ts';

const base: ContainerRuntimeOptions = {
  insecureRegistries: [],
  registryMirrors: {},
  registryCredentials: {},
  sandboxImage: '',
  deviceOwnershipFromSecurityContext: false,
};
const files = (o: Partial<ContainerRuntimeOptions>) => emitRegistryHostFiles({ ...base, ...o });
const dir = (d: string) => `/etc/containerd/certs.d/${d}/hosts.toml`;
const CAPS = 'capabilities = ["pull", "resolve"]\n';
const dockerHub = {
  path: dir('docker.io'),
  content: `server = "https://registry-1.docker.io"\n\n[host."https://registry-1.docker.io"]\n${CAPS}`,
};

test('without options only docker.io, pointing at registry-1.docker.io', () => {
  assert.deepEqual(files({}), [dockerHub]);
});

test('registries sharing a directory overwrite each other, the later name in byte order winning', () => {
  assert.deepEqual(files({ registryMirrors: { '*': ['https://a'], _default: ['https://b'] } }), [
    { path: dir('_default'), content: `[host."https://b"]\n${CAPS}` },
    dockerHub,
  ]);
  assert.deepEqual(
    files({ registryMirrors: { 'r.io': ['https://a'], 'r.io/sub': ['https://b'] }, insecureRegistries: ['r.io/sub'] }),
    [
      dockerHub,
      { path: dir('r.io'), content: `server = "r.io/sub"\n\n[host."https://b"]\n${CAPS}skip_verify = true\n` },
    ],
  );
});

test('mirrors for docker.io (or a docker.io subpath) replace its default endpoint; an empty list removes the file', () => {
  assert.deepEqual(files({ registryMirrors: { 'docker.io/library': ['https://m'] } }), [
    { path: dir('docker.io'), content: `server = "https://registry-1.docker.io"\n\n[host."https://m"]\n${CAPS}` },
  ]);
  assert.deepEqual(files({ registryMirrors: { 'docker.io': [] } }), []);
  assert.deepEqual(files({ registryMirrors: { 'docker.io': [] }, insecureRegistries: ['docker.io'] }), [
    {
      path: dir('docker.io'),
      content: `server = "https://registry-1.docker.io"\n\n[host."https://registry-1.docker.io"]\n${CAPS}skip_verify = true\n`,
    },
  ]);
});

test('host tables are sorted by the bytes of their URL, not by input order', () => {
  const [, reg] = files({
    registryMirrors: { 'r.io': ['https://b', 'https://a', 'https://B', 'https://é', 'https://\uff00', 'https://😀'] },
  });
  assert.equal(
    reg!.content,
    `server = "r.io"\n\n` +
      ['https://B', 'https://a', 'https://b', 'https://é', 'https://\uff00', 'https://😀']
        .map((u) => `[host."${u}"]\n${CAPS}`)
        .join(''),
  );
});

test('an insecure registry without mirrors points at itself; catch-alls and empty names get an empty host key', () => {
  assert.deepEqual(files({ insecureRegistries: ['*', 'localhost', 'a"b', '', '10.0.0.1:5000'] }), [
    { path: dir(''), content: `[host.""]\n${CAPS}skip_verify = true\n` },
    {
      path: dir('10.0.0.1:5000'),
      content: `server = "10.0.0.1:5000"\n\n[host."10.0.0.1:5000"]\n${CAPS}skip_verify = true\n`,
    },
    { path: dir('_default'), content: `[host.""]\n${CAPS}skip_verify = true\n` },
    { path: dir('a"b'), content: `server = "a\\"b"\n\n[host."a\\"b"]\n${CAPS}skip_verify = true\n` },
    dockerHub,
    { path: dir('localhost'), content: `server = "localhost"\n\n[host.localhost]\n${CAPS}skip_verify = true\n` },
  ]);
});

test('insecure mirrors get skip_verify before override_path', () => {
  assert.deepEqual(
    files({
      insecureRegistries: ['q.io'],
      registryMirrors: { 'q.io': ['https://x?kubermatic=override_path%3Dtrue', 'https://y'] },
    })[1],
    {
      path: dir('q.io'),
      content: `server = "q.io"\n\n[host."https://x"]\n${CAPS}skip_verify = true\noverride_path = true\n[host."https://y"]\n${CAPS}skip_verify = true\n`,
    },
  );
});

test('the same URL twice after stripping the sideband: the later mirror decides override_path', () => {
  const reg = (mirrors: string[]) => files({ registryMirrors: { 'r.io': mirrors } })[1]!.content;
  assert.equal(
    reg(['https://a?kubermatic=override_path%3Dtrue', 'https://a']),
    `server = "r.io"\n\n[host."https://a"]\n${CAPS}`,
  );
  assert.equal(
    reg(['https://a', 'https://a?kubermatic=override_path%3Dtrue']),
    `server = "r.io"\n\n[host."https://a"]\n${CAPS}override_path = true\n`,
  );
});
