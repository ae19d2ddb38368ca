// The registry credentials Secret, decoded as OSM's GetContainerdAuthConfig does with encoding/json.
// Expectations checked against that code run with Go 1.19 unless marked otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ContainerRuntimeConfigError,
  parseRegistryCredentials,
  type RegistryCredentialsSecret,
} from '../../../src/emit/containerd/registryOptions.ts';

const DOCKER = 'kubernetes.io/dockerconfigjson';
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const dockerConfig = (json: string | Buffer): RegistryCredentialsSecret => ({
  type: DOCKER,
  data: { '.dockerconfigjson': b64(json) },
});

test('dockerconfigjson: the auths of .dockerconfigjson, other members ignored', () => {
  assert.deepEqual(
    parseRegistryCredentials(
      dockerConfig(
        '{"auths":{"https://index.docker.io/v1/":{"username":"u","password":"p","auth":"dTpw","email":"e"}}}',
      ),
    ),
    {
      'https://index.docker.io/v1/': { username: 'u', password: 'p', auth: 'dTpw' },
    },
  );
  assert.deepEqual(
    parseRegistryCredentials(dockerConfig('{"auths":{"a":{"username":"x","other":[1,{"z":-1.5e+3}],"n":0,"t":true}}}')),
    { a: { username: 'x' } },
  );
});

test('member names match case-insensitively, with Go folding ſ onto s', () => {
  assert.deepEqual(
    parseRegistryCredentials(
      dockerConfig('{"AUTHS":{"r.io":{"USERNAME":"u","PassWord":"p","Auth":"a","identityToken":"t"}}}'),
    ),
    {
      'r.io': { username: 'u', password: 'p', auth: 'a', identityToken: 't' },
    },
  );
  assert.deepEqual(parseRegistryCredentials(dockerConfig('{"auths":{"a":{"u\u017fername":"k","\u212auth":"no"}}}')), {
    a: { username: 'k' },
  });
});

test('go 1.21+ folding: İ and ı match i (encoding/json foldName)', () => {
  assert.deepEqual(
    parseRegistryCredentials(dockerConfig('{"auths":{"a":{"\u0130dentitytoken":"t","\u0131dentitytoken":"u"}}}')),
    { a: { identityToken: 'u' } },
  );
});

test('duplicate members apply in order: a second auths adds to the first, null clears, null fields change nothing', () => {
  assert.deepEqual(
    parseRegistryCredentials(dockerConfig('{"auths":{"a":{"username":"1"}},"Auths":{"b":{"username":"2"}}}')),
    { a: { username: '1' }, b: { username: '2' } },
  );
  assert.deepEqual(
    parseRegistryCredentials(dockerConfig('{"auths":{"a":{"username":"1"}},"auths":null,"auths":{"b":{}}}')),
    { b: {} },
  );
  assert.deepEqual(parseRegistryCredentials(dockerConfig('{"auths":{"a":{"username":"1"},"a":{"password":"2"}}}')), {
    a: { password: '2' },
  });
  assert.deepEqual(
    parseRegistryCredentials(
      dockerConfig('{"auths":{"a":{"username":"1","username":null,"password":"x","password":""}}}'),
    ),
    { a: { username: '1' } },
  );
  assert.deepEqual(parseRegistryCredentials(dockerConfig('{"auths":{"a":null}}')), { a: {} });
  assert.deepEqual(parseRegistryCredentials(dockerConfig('null')), {});
});

test('strings decode as Go does: escapes, U+FFFD for lone surrogates and for each invalid UTF-8 byte', () => {
  assert.deepEqual(
    parseRegistryCredentials(dockerConfig('{"auths":{"a":{"username":"\\ud800x\\udc00\\ud83d\\ude00\\u00e9\\/\\b"}}}')),
    {
      a: { username: '\ufffdx\ufffd\u{1f600}é/\b' },
    },
  );
  const raw = Buffer.concat([
    Buffer.from('{"auths":{"a":{"username":"'),
    Buffer.from([0xe2, 0x82, 0x7c, 0xed, 0xa0, 0x80, 0x7c, 0xc0, 0xaf, 0x7c, 0xf0, 0x9f, 0x98, 0x80]),
    Buffer.from('"}}}'),
  ]);
  assert.deepEqual(parseRegistryCredentials(dockerConfig(raw)), {
    a: { username: '\ufffd\ufffd|\ufffd\ufffd\ufffd|\ufffd\ufffd|\u{1f600}' },
  });
});

test('other Secret types: each data key is a registry and its value an AuthConfig document', () => {
  assert.deepEqual(
    parseRegistryCredentials({
      type: 'Opaque',
      data: { 'gcr.io': b64('{"username":"u","password":"p"}'), 'quay.io': b64('null') },
    }),
    {
      'gcr.io': { username: 'u', password: 'p' },
      'quay.io': {},
    },
  );
  assert.deepEqual(parseRegistryCredentials({ data: { 'gcr.io': b64('{"username":"u"}') } }), {
    'gcr.io': { username: 'u' },
  });
  // not a dockerconfigjson Secret, so .dockerconfigjson is just another registry name
  assert.deepEqual(parseRegistryCredentials({ type: 'Opaque', data: { '.dockerconfigjson': b64('{"auths":{}}') } }), {
    '.dockerconfigjson': {},
  });
  assert.deepEqual(parseRegistryCredentials({ data: {} }), {});
});

test('stringData is read as plain text and wins over data', () => {
  assert.deepEqual(
    parseRegistryCredentials({
      data: { 'gcr.io': b64('{"username":"old"}') },
      stringData: { 'gcr.io': '{"username":"new"}', 'q.io': '{"password":"p"}' },
    }),
    {
      'gcr.io': { username: 'new' },
      'q.io': { password: 'p' },
    },
  );
  assert.deepEqual(
    parseRegistryCredentials({ type: DOCKER, stringData: { '.dockerconfigjson': '{"auths":{"r":{"auth":"x"}}}' } }),
    { r: { auth: 'x' } },
  );
});

test('registry keys are plain data, even __proto__', () => {
  // fromEntries defines own properties, so __proto__ is a key here and not the prototype
  const stringData = Object.fromEntries([
    ['__proto__', '{"username":"u"}'],
    ['constructor', '{"username":"c"}'],
  ]);
  const c = parseRegistryCredentials({ stringData });
  assert.deepEqual(Object.entries(c), [
    ['__proto__', { username: 'u' }],
    ['constructor', { username: 'c' }],
  ]);
});

const SECRET = 's3cr3t-Pa55';

test('bad input is a ContainerRuntimeConfigError whose message never holds a credential', () => {
  const bad: Array<[RegistryCredentialsSecret, RegExp]> = [
    [dockerConfig(`{"auths":{"a":{"password":"${SECRET}"}}`), /not valid JSON \(unexpected end of JSON input at byte/],
    [dockerConfig(`{"auths":{"a":{"password":"${SECRET}"}}} x`), /after top-level value/],
    [dockerConfig(`{"auths":{"a":{"password":"${SECRET}",}}}`), /not valid JSON/],
    [dockerConfig(`{"auths":{"a":{"password":'${SECRET}'}}}`), /not valid JSON/],
    [dockerConfig(`{"auths":{"a":{"password":"${SECRET}\t"}}}`), /not valid JSON/],
    [dockerConfig(`{"auths":{"a":{"password":"${SECRET}\\x"}}}`), /not valid JSON/],
    [dockerConfig(`\ufeff{"auths":{"a":{"password":"${SECRET}"}}}`), /not valid JSON/],
    [dockerConfig(`{"auths":{"a":{"password":"${SECRET}","n":01}}}`), /not valid JSON/],
    [dockerConfig(`{"auths":{"a":{"password":"${SECRET}","n":1.}}}`), /not valid JSON/],
    [dockerConfig(`{"auths":{"a":{"password":"${SECRET}","n":tru}}}`), /not valid JSON/],
    [
      dockerConfig(`{"auths":{"a":{"password":"${SECRET}","x":${'['.repeat(9998)}${']'.repeat(9998)}}}}`),
      /exceeded max depth/,
    ],
    [dockerConfig(''), /unexpected end of JSON input/],
    [dockerConfig('[]'), /must be a JSON object/],
    [dockerConfig('{"auths":[]}'), /auths must be a JSON object/],
    [dockerConfig(`{"auths":{"a":"${SECRET}"}}`), /must be a JSON object/],
    [dockerConfig('{"auths":{"a":{"password":5}}}'), /password must be a string/],
    [{ type: DOCKER, data: { other: b64('{}') } }, /no \.dockerconfigjson key/],
    [{ data: { 'gcr.io': b64(`"${SECRET}"`) } }, /must be a JSON object/],
    [{ data: { 'gcr.io': b64(`{"username":"u","password":"${SECRET}"`) } }, /data\["gcr\.io"\] is not valid JSON/],
    [{ data: { 'gcr.io': `${SECRET}!` } }, /data\.gcr\.io is not valid base64/],
    [{ data: { 'gcr.io': 42 } } as unknown as RegistryCredentialsSecret, /data\.gcr\.io must be a string/],
    [{ data: [] } as unknown as RegistryCredentialsSecret, /data must be a map of strings/],
  ];
  for (const [secret, reason] of bad) {
    assert.throws(
      () => parseRegistryCredentials(secret),
      (e: unknown) =>
        e instanceof ContainerRuntimeConfigError &&
        reason.test(e.message) &&
        !e.message.includes(SECRET) &&
        !e.message.includes('s3cr'),
      JSON.stringify(secret).slice(0, 120),
    );
  }
});

test('a nesting depth of 10000 is still accepted, as in Go', () => {
  const doc = `{"auths":{"a":{"username":"u","x":${'['.repeat(9997)}${']'.repeat(9997)}}}}`;
  assert.deepEqual(parseRegistryCredentials({ type: DOCKER, stringData: { '.dockerconfigjson': doc } }), {
    a: { username: 'u' },
  });
});

test('base64 follows Go: padding required, line breaks ignored', () => {
  const encoded = b64('{"username":"u"}');
  assert.deepEqual(parseRegistryCredentials({ data: { r: encoded.slice(0, 8) + '\r\n' + encoded.slice(8) } }), {
    r: { username: 'u' },
  });
  assert.throws(
    () => parseRegistryCredentials({ data: { r: b64('{"username":"u"}x').replace(/=+$/, '') } }),
    /not valid base64/,
  );
});
