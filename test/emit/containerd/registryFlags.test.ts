// OSM's registry flags (containerruntime.BuildConfig and the repeatable flag's Set). Expectations checked
// against that code run with Go 1.19.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContainerRuntimeConfigError, parseRegistryFlags } from '../../../src/emit/containerd/registryOptions.ts';

const mirrors = (nodeRegistryMirrors: string, nodeContainerdRegistryMirrors?: string[]) =>
  parseRegistryFlags({ nodeRegistryMirrors, nodeContainerdRegistryMirrors }).registryMirrors;

test('no flags: nothing configured', () => {
  assert.deepEqual(parseRegistryFlags({}), {
    insecureRegistries: [],
    registryMirrors: {},
    registryCredentials: {},
    sandboxImage: '',
    deviceOwnershipFromSecurityContext: false,
  });
});

test('-node-registry-mirrors: docker.io by default, https:// added when the URL does not start with "http"', () => {
  assert.deepEqual(mirrors('registry-v1.docker.io,http://registry.docker-cn.com'), {
    'docker.io': ['https://registry-v1.docker.io', 'http://registry.docker-cn.com'],
  });
  // a plain prefix test: no scheme parsing, no case folding
  assert.deepEqual(mirrors('httpfoo.com,HTTP://x'), { 'docker.io': ['httpfoo.com', 'https://HTTP://x'] });
  assert.deepEqual(mirrors('https://a?x=1,b'), { 'docker.io': ['https://a?x=1', 'https://b'] });
});

test('-node-registry-mirrors: registry=url only when the registry is a plain host name', () => {
  assert.deepEqual(
    mirrors(' quay.io=my.mirror , ,quay.io=http://x ,\tghcr.io=https://g?kubermatic=override_path%3Dtrue'),
    {
      'quay.io': ['https://my.mirror', 'http://x'],
      'ghcr.io': ['https://g?kubermatic=override_path%3Dtrue'],
    },
  );
  assert.deepEqual(mirrors('a_b=c,a=b=c,=x,gcr.io/sub=m'), {
    'docker.io': ['https://a_b=c', 'https://=x', 'https://gcr.io/sub=m'],
    a: ['https://b=c'],
  });
});

test('-node-registry-mirrors: the URL of registry=url ends at a line break (RE2 `.`), a carriage return is kept', () => {
  assert.deepEqual(mirrors('a=b\nc'), { a: ['https://b'] });
  assert.deepEqual(mirrors('a=\nb'), { a: ['https://'] });
  assert.throws(() => mirrors('a=b\rc'), /control character/);
});

test('items are trimmed as strings.TrimSpace does (NEL and NBSP are spaces, a BOM is not)', () => {
  assert.deepEqual(mirrors('\u0085x\u00a0,\u3000y'), { 'docker.io': ['https://x', 'https://y'] });
  assert.deepEqual(mirrors('\ufeffx'), { 'docker.io': ['https://\ufeffx'] });
  const o = parseRegistryFlags({ nodeInsecureRegistries: ' a , b,,\tc\n, a' });
  assert.deepEqual(o.insecureRegistries, ['a', 'b', 'c', 'a']);
  assert.deepEqual(parseRegistryFlags({ nodeInsecureRegistries: '\u0085a\ufeff,\u2028b' }).insecureRegistries, [
    'a\ufeff',
    'b',
  ]);
});

test('-node-registry-mirrors: a URL url.Parse refuses is an error that does not echo the URL', () => {
  for (const [item, reason] of [
    ['x:abc', /invalid port/],
    ['https://x:abc', /invalid port/],
    ['https://x%zz', /invalid URL escape/],
    ['https://x/%zz', /invalid URL escape/],
    ['https://x#%zz', /invalid URL escape/],
    ['https://[::1', /missing '\]'/],
    ['https://x y', /invalid character in host name/],
    ['https://u s@x', /invalid userinfo/],
    ['a:5000=c', /invalid port/],
  ] as const) {
    assert.throws(
      () => mirrors(`ok.tld,${item}`),
      (e: unknown) =>
        e instanceof ContainerRuntimeConfigError &&
        reason.test(e.message) &&
        /item 2/.test(e.message) &&
        !e.message.includes(item) &&
        e.fieldPath === 'spec.nodeRegistryMirrors',
      item,
    );
  }
  assert.deepEqual(mirrors('https://[fd00::1]:80,é.tld'), { 'docker.io': ['https://[fd00::1]:80', 'https://é.tld'] });
});

test('-node-containerd-registry-mirrors: split at the first "=", nothing trimmed or checked, merged before -node-registry-mirrors', () => {
  assert.deepEqual(mirrors('docker.io=a,b', ['docker.io=c', 'quay.io=q']), {
    'docker.io': ['c', 'https://a', 'https://b'],
    'quay.io': ['q'],
  });
  assert.deepEqual(mirrors('', ['a=b=c', ' a = b ', '=x', 'x=']), { a: ['b=c'], ' a ': [' b '], '': ['x'], x: [''] });
});

test('-node-containerd-registry-mirrors: an entry without "=" is an error naming its index, not its value', () => {
  assert.throws(
    () => mirrors('', ['a=b', 'https://user:secret@host']),
    (e: unknown) =>
      e instanceof ContainerRuntimeConfigError &&
      /nodeContainerdRegistryMirrors\[1\]/.test(e.message) &&
      !e.message.includes('secret'),
  );
});

test('registry names are plain data, even __proto__ and constructor', () => {
  const m = mirrors('', ['__proto__=x', 'constructor=y']);
  assert.deepEqual(Object.entries(m), [
    ['__proto__', ['x']],
    ['constructor', ['y']],
  ]);
});

test('-pause-image and -device-ownership-from-security-context pass through', () => {
  const o = parseRegistryFlags({ pauseImage: 'registry.k8s.io/pause:3.10', deviceOwnershipFromSecurityContext: true });
  assert.equal(o.sandboxImage, 'registry.k8s.io/pause:3.10');
  assert.equal(o.deviceOwnershipFromSecurityContext, true);
});
