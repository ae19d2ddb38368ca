// Every CA input (spec.kubernetesCABundle, spec.hostCABundle, spec.cluster.caCert, cluster-info's
// certificate-authority-data) must be PEM with at least one certificate that parses; anything else is an
// error saying what was given (never the value itself, unless it is a path) and which form is expected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runOn } from '../support/runInProcess.ts';
import { REPO_ROOT, TESTDATA } from '../support/paths.ts';

const CA = readFileSync(join(TESTDATA, 'profiles', 'cases', 'test-ca.pem'), 'utf8');
const base = () => parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'));
const files: Record<string, string> = { '/etc/osm/ca.crt': CA, '/etc/osm/empty.crt': '' };
const env = {
  env: () => undefined,
  readFile: (p: string) => {
    if (p in files) return files[p]!;
    throw Object.assign(new Error('missing'), { code: 'ENOENT' });
  },
};

/** Runs examples/basic with `value` given to one CA input. */
function withCA(input: 'kubernetesCABundle' | 'hostCABundle' | 'caCert' | 'cluster-info', value: unknown) {
  const l = base();
  if (input === 'caCert') l.functionConfig.spec.cluster = { ...(l.functionConfig.spec.cluster ?? {}), caCert: value };
  else if (input === 'cluster-info') {
    const info = l.items.find((i: any) => i.metadata?.name === 'cluster-info');
    const kubeconfig = parse(info.data.kubeconfig);
    kubeconfig.clusters[0].cluster['certificate-authority-data'] = Buffer.from(String(value)).toString('base64');
    info.data.kubeconfig = JSON.stringify(kubeconfig);
  } else l.functionConfig.spec[input] = value;
  return runOn(l, env);
}

const SECRET_LIKE = 'eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LXRva2VuLXZhbHVl.sig';
const BROKEN_PEM = '-----BEGIN CERTIFICATE-----\nMIIBbroken\n-----END CERTIFICATE-----\n';
const KEY_PEM = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n';

for (const input of ['kubernetesCABundle', 'hostCABundle', 'caCert', 'cluster-info'] as const) {
  test(`${input}: a real PEM certificate renders; anything else is an error saying what was given`, () => {
    assert.equal(withCA(input, CA).exitCode, 0);
    const field =
      input === 'caCert' ? 'spec.cluster.caCert' : input === 'cluster-info' ? 'cluster-info' : `spec.${input}`;
    const cases: Array<[unknown, RegExp]> = [
      ['/tmp/ca.crt', /a file path \(\/tmp\/ca\.crt\).*\{file: \/tmp\/ca\.crt\}/],
      [SECRET_LIKE, /not PEM/],
      [BROKEN_PEM, /certificate 1 of 1 cannot be parsed/],
      [KEY_PEM, /PRIVATE KEY/],
    ];
    if (input !== 'cluster-info')
      cases.push([{ file: '/etc/osm/empty.crt' }, /\(file \/etc\/osm\/empty\.crt\) is empty/]);
    for (const [value, message] of cases) {
      const r = withCA(input, value);
      assert.equal(r.exitCode, 1, `${input} ${JSON.stringify(value)}`);
      const err = r.results.find((x: any) => x.severity === 'error');
      assert.ok(err, `${input} ${JSON.stringify(value)}`);
      assert.ok(err.message.includes(field), `${field} not named: ${err.message}`);
      assert.match(err.message, message);
      assert.match(err.message, /expected PEM certificates/);
      assert.ok(!r.stdout.includes(SECRET_LIKE) && !r.stderr.includes(SECRET_LIKE), 'the value is quoted');
      assert.ok(!err.message.includes('MIIBbroken') && !err.message.includes('MIIEvQ'), err.message);
      assert.ok(!r.items.some((i: any) => i.kind === 'OperatingSystemConfig'), 'rendered anyway');
    }
  });
}

test("hostCABundle from a file (as OSM's -host-ca-bundle flag) is the file's certificates", () => {
  const r = withCA('hostCABundle', { file: '/etc/osm/ca.crt' });
  assert.equal(r.exitCode, 0, r.stderr);
  const l = base();
  l.functionConfig = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'osm' },
    data: { 'host-ca-bundle': '/etc/osm/ca.crt', 'external-cloud-provider': 'true', 'cluster-dns': '10.96.0.10' },
  };
  const viaFlag = runOn(l, env);
  assert.equal(viaFlag.exitCode, 0, viaFlag.stderr);
  l.functionConfig.data['host-ca-bundle'] = '/etc/osm/empty.crt';
  assert.match(
    runOn(l, env).results.find((x: any) => x.severity === 'error').message,
    /spec\.hostCABundle \(file \/etc\/osm\/empty\.crt\) is empty/,
  );
});
