// The kubermatic sideband of mirror URLs. Every expectation was checked against OSM's containerd.go built with
// Go 1.19 (buildRegistryHostConfigs), except the ones marked go 1.26, which follow net/url as OSM's go.mod
// (go 1.26.0) builds it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMirrorEndpoint } from '../../../src/emit/containerd/mirrorEndpoint.ts';

const cases: Array<[string, string, boolean]> = [
  ['https://override.tld?kubermatic=override_path%3Dtrue', 'https://override.tld', true],
  // strconv.ParseBool spellings; anything else is false
  ['https://m.tld/p?kubermatic=override_path%3D1', 'https://m.tld/p', true],
  ['https://m.tld/p?kubermatic=override_path%3Dt', 'https://m.tld/p', true],
  ['https://m.tld/p?kubermatic=override_path%3DT', 'https://m.tld/p', true],
  ['https://m.tld/p?kubermatic=override_path%3DTRUE', 'https://m.tld/p', true],
  ['https://m.tld/p?kubermatic=override_path%3DTrue', 'https://m.tld/p', true],
  ['https://m.tld/p?kubermatic=override_path%3DtRUE', 'https://m.tld/p', false],
  ['https://m.tld/p?kubermatic=override_path%3Dyes', 'https://m.tld/p', false],
  ['https://m.tld/p?kubermatic=override_path%3D0', 'https://m.tld/p', false],
  ['https://m.tld/p?kubermatic=override_path', 'https://m.tld/p', false],
  ['https://m.tld/p?kubermatic=', 'https://m.tld/p', false],
  ['https://m.tld/p?kubermatic', 'https://m.tld/p', false],
  // other parameters stay, re-encoded as url.Values.Encode writes them: keys sorted, QueryEscape'd values
  ['https://m.tld/p?b=2&a=1&kubermatic=override_path%3Dtrue', 'https://m.tld/p?a=1&b=2', true],
  ['https://m.tld/p?x=a+b&y=%2F&z=%7e&kubermatic=override_path%3Dtrue', 'https://m.tld/p?x=a+b&y=%2F&z=~', true],
  ['https://m.tld/p?a=1&a=0&b&kubermatic=override_path%3Dtrue', 'https://m.tld/p?a=1&a=0&b=', true],
  // without the sideband the URL is not touched at all
  ['https://m.tld/p?token=x&y=1', 'https://m.tld/p?token=x&y=1', false],
  ['https://m.tld/p?kubermatic=override_path%3Dtrue#frag', 'https://m.tld/p#frag', true],
  // the first value counts
  ['https://m.tld/p?kubermatic=override_path%3Dtrue&kubermatic=override_path%3Dfalse', 'https://m.tld/p', true],
  // the value is unescaped twice (once by Query(), once by OSM), and need not be escaped at all
  ['https://m.tld/p?kubermatic=override_path%253Dtrue', 'https://m.tld/p', true],
  ['https://m.tld/p?kubermatic=override_path=true', 'https://m.tld/p', true],
  // a semicolon makes ParseQuery fail: the options are ignored...
  ['https://m.tld/p?kubermatic=x%3Bz%26override_path%3Dtrue', 'https://m.tld/p', false],
  // ...and in the URL's own query the pair is dropped, so there is no sideband to strip
  ['https://m.tld/p?kubermatic=override_path%3Dtrue;x=1', 'https://m.tld/p?kubermatic=override_path%3Dtrue;x=1', false],
  // URL.String re-escapes the path (RawPath is dropped when it is not a valid encoding), keeps userinfo and port
  ['https://m.tld/%7Ep%2Fq/%C3%A9 x?kubermatic=override_path%3Dtrue', 'https://m.tld/~p/q/%C3%A9%20x', true],
  ['https://user:p%40ss@m.tld:5000/p?kubermatic=override_path%3Dtrue', 'https://user:p%40ss@m.tld:5000/p', true],
  ['https://[fd00::1]:5000/p?kubermatic=override_path%3Dtrue', 'https://[fd00::1]:5000/p', true],
  ['HTTPS://M.TLD/p?kubermatic=override_path%3Dtrue', 'https://M.TLD/p', true],
  ['mirror.example.com/p?kubermatic=override_path%3Dtrue', 'mirror.example.com/p', true],
  // URLs Go cannot parse are kept verbatim, override_path off
  ['https://m.tld:abc/p?kubermatic=override_path%3Dtrue', 'https://m.tld:abc/p?kubermatic=override_path%3Dtrue', false],
  [
    'https://m.tld/p?kubermatic=override_path%3Dtrue\u0001',
    'https://m.tld/p?kubermatic=override_path%3Dtrue\u0001',
    false,
  ],
];

for (const [mirror, url, overridePath] of cases) {
  test(`mirror endpoint ${JSON.stringify(mirror)}`, () => {
    assert.deepEqual(parseMirrorEndpoint(mirror), { url, overridePath });
  });
}

test('go 1.26: an http(s) host with a second colon or a bracketed IPv4 does not parse, so nothing is stripped', () => {
  for (const mirror of [
    'http://m.tld:80:80/?kubermatic=override_path%3Dtrue',
    'https://[10.0.0.1]:5000/?kubermatic=override_path%3Dtrue',
    'https://[zz::1]/?kubermatic=override_path%3Dtrue',
  ]) {
    assert.deepEqual(parseMirrorEndpoint(mirror), { url: mirror, overridePath: false });
  }
});

test('go 1.26: more than 10000 query parameters make ParseQuery refuse the query', () => {
  const mirror = 'https://m.tld/p?kubermatic=override_path%3Dtrue' + '&x=1'.repeat(10000);
  assert.deepEqual(parseMirrorEndpoint(mirror), { url: mirror, overridePath: false });
  assert.deepEqual(parseMirrorEndpoint('https://m.tld/p?kubermatic=override_path%3Dtrue' + '&x'.repeat(9999)), {
    url: 'https://m.tld/p?' + Array(9999).fill('x=').join('&'),
    overridePath: true,
  });
});
