// Tokens and passwords never appear in results or stderr, even when a profile tries to print them in an
// error, and they appear in the output only inside the Secrets that must hold them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { runFunction } from '../../src/cli/runFunction.ts';
import { noEnvironment } from '../support/runInProcess.ts';
import { BASE_CONFIG, baseItems, machineDeployment, resourceList, SMALL_OSP, TEST_SECRETS } from './inputCorpus.ts';

function run(input: string) {
  let stdout = '';
  let stderr = '';
  const code = runFunction(input, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: noEnvironment });
  return { code, stdout, stderr, out: parse(stdout) };
}

const leakyProfile = (data: string) => ({
  ...SMALL_OSP,
  spec: { ...SMALL_OSP.spec, provisioningConfig: { files: [{ path: '/leak', content: { inline: { data } } }] } },
});

test('a profile that fails with the token in its message does not leak it', () => {
  for (const data of [
    '{{ fail .Token }}',
    '{{ index .BootstrapKubeconfig 99999999 }}',
    '{{ .Token | printf "%s" | len | printf "%d" | eq 1 | not | and .Nope }}{{ template "x" }}',
    '{{ .Token.Foo }}',
  ]) {
    const items = baseItems();
    items[0] = leakyProfile(data);
    const rhel = machineDeployment('rhel-md', {
      operatingSystem: 'ubuntu',
      operatingSystemSpec: { rhelSubscriptionManagerPassword: TEST_SECRETS[2] },
    });
    const r = run(
      resourceList([
        ...items,
        rhel,
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'regcred', namespace: 'kube-system' },
          stringData: { password: TEST_SECRETS[3] },
        },
      ]),
    );
    assert.equal(r.code, 1, data);
    const texts = [r.stderr, ...(r.out.results ?? []).map((x: any) => x.message)];
    for (const s of TEST_SECRETS)
      for (const t of texts) assert.ok(!t.includes(s), `secret ${s} leaked for ${data}: ${t}`);
  }
});

// OSM's OperatingSystemConfig carries the rendered files, token included (upstream goldens show it); we keep
// that for fidelity, so the OSC and the Secrets are the objects allowed to hold it.
test('on success, the getter token appears only in the Secrets and the OSC (as in OSM)', () => {
  const r = run(resourceList(baseItems(), BASE_CONFIG));
  assert.equal(r.code, 0, r.stderr);
  for (const item of r.out.items) {
    const own = String(item.metadata?.annotations?.['internal.config.kubernetes.io/path'] ?? '').startsWith(
      'osm-generated/',
    );
    if (!own) continue;
    const text =
      JSON.stringify(item) +
      (item.data
        ? Object.values(item.data)
            .map((v) => Buffer.from(String(v), 'base64').toString())
            .join('')
        : '');
    const mayHold = item.kind === 'Secret' || item.kind === 'OperatingSystemConfig';
    if (!mayHold) assert.ok(!text.includes(TEST_SECRETS[0]!), `${item.kind} ${item.metadata.name} holds the token`);
  }
  assert.ok(!r.stderr.includes(TEST_SECRETS[0]!));
});
