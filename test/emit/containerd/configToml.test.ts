// config.toml beyond the goldens: pause image, device ownership, credentials. Expected text checked against
// OSM's Containerd.Config() encoded with BurntSushi/toml v1.6.0 (Go 1.19) unless marked otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { credentialHost, emitContainerdConfigToml } from '../../../src/emit/containerd/configToml.ts';
import type { ContainerRuntimeOptions, RegistryAuth } from '../../../src/emit/containerd/registryOptions.ts';
import { UPSTREAM_OSM } from '../../support/paths.ts';

const base: ContainerRuntimeOptions = {
  insecureRegistries: [],
  registryMirrors: {},
  registryCredentials: {},
  sandboxImage: '',
  deviceOwnershipFromSecurityContext: false,
};
const simple = readFileSync(
  join(UPSTREAM_OSM, 'pkg/containerruntime/testdata/TestContainerd_Configs-simple.golden'),
  'utf8',
);
const simpleConfig = simple.slice('# /etc/containerd/config.toml\n'.length, simple.indexOf('---\n'));

const IMG = '[plugins."io.containerd.cri.v1.images"';
/** The text between the registry's config_path line and the runtime plugin. */
function configsSection(credentials: Record<string, RegistryAuth>): string {
  const toml = emitContainerdConfigToml({ ...base, registryCredentials: credentials });
  const start =
    toml.indexOf('config_path = "/etc/containerd/certs.d"\n') + 'config_path = "/etc/containerd/certs.d"\n'.length;
  return toml.slice(start, toml.indexOf('[plugins."io.containerd.cri.v1.runtime"]'));
}

test('without options config.toml is the simple golden', () => {
  assert.equal(emitContainerdConfigToml(base), simpleConfig);
});

test('-pause-image pins the sandbox image; device ownership is written as given', () => {
  const expected = simpleConfig
    .replace(`${IMG}.registry]`, `${IMG}.pinned_images]\nsandbox = "registry.k8s.io/pause:3.10"\n${IMG}.registry]`)
    .replace('device_ownership_from_security_context = false', 'device_ownership_from_security_context = true');
  assert.notEqual(expected, simpleConfig);
  assert.equal(
    emitContainerdConfigToml({
      ...base,
      sandboxImage: 'registry.k8s.io/pause:3.10',
      deviceOwnershipFromSecurityContext: true,
    }),
    expected,
  );
});

test('credentials: hosts in byte order, keys bare or quoted, values escaped, empty fields left out, empty auth table kept', () => {
  const credentials: Record<string, RegistryAuth> = {
    'gcr.io': { username: 'u', password: 'p"q\\r\n\u0001\u007fé😀', auth: 'YTpi', identityToken: 'tok' },
    x: {},
    'bare_key-1': { username: 'b' },
    '': { username: 'e' },
    'b.io': { username: '1', password: '' },
    'Z.io': { identityToken: '4' },
    'é.io': { auth: '3' },
  };
  const c = `${IMG}.registry.configs`;
  assert.equal(
    configsSection(credentials),
    `${c}]\n` +
      `${c}.""]\n${c}."".auth]\nusername = "e"\n` +
      `${c}."Z.io"]\n${c}."Z.io".auth]\nidentitytoken = "4"\n` +
      `${c}."b.io"]\n${c}."b.io".auth]\nusername = "1"\n` +
      `${c}.bare_key-1]\n${c}.bare_key-1.auth]\nusername = "b"\n` +
      `${c}."gcr.io"]\n${c}."gcr.io".auth]\nusername = "u"\npassword = "p\\"q\\\\r\\n\\u0001\\u007fé😀"\nauth = "YTpi"\nidentitytoken = "tok"\n` +
      `${c}.x]\n${c}.x.auth]\n` +
      `${c}."é.io"]\n${c}."é.io".auth]\nauth = "3"\n`,
  );
});

test('a credential key that parses as a URL with a host is reduced to host[:port]', () => {
  const cases: Array<[string, string]> = [
    ['https://gcr.io/v2/', 'gcr.io'],
    ['https://my.reg:5000/v1/', 'my.reg:5000'],
    ['localhost:5000', 'localhost:5000'], // scheme "localhost", no host
    ['1.2.3.4:5000', '1.2.3.4:5000'], // a parse error
    ['//host/path', 'host'],
    ['http://[::1]:5000', '[::1]:5000'],
    ['https://%C3%A9.io', 'é.io'],
    ['https://u:p@h.io', 'h.io'],
    ['https://%zz.io', 'https://%zz.io'],
    ['gcr.io', 'gcr.io'],
  ];
  for (const [key, host] of cases) assert.equal(credentialHost(key), host, key);
  assert.equal(
    configsSection({ 'https://my.reg:5000/v1/': { username: '2' } }),
    `${IMG}.registry.configs]\n${IMG}.registry.configs."my.reg:5000"]\n${IMG}.registry.configs."my.reg:5000".auth]\nusername = "2"\n`,
  );
});

test('go 1.26: bracketed IPv4 and a second colon in an http(s) host are parse errors, so the key stays', () => {
  assert.equal(credentialHost('http://[1.2.3.4]:5000'), 'http://[1.2.3.4]:5000');
  assert.equal(credentialHost('http://a:1:2'), 'http://a:1:2');
  assert.equal(credentialHost('ftp://a:1:2'), 'a:1:2');
});

test('keys reducing to the same host: the later key in byte order wins (random in OSM)', () => {
  assert.match(
    configsSection({ 'https://gcr.io': { username: 'a' }, 'gcr.io': { username: 'b' } }),
    /username = "a"\n$/,
  );
  assert.match(
    configsSection({ 'gcr.io': { username: 'b' }, 'https://gcr.io': { username: 'a' } }),
    /username = "a"\n$/,
  );
});
