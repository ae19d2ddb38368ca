// issue 22, generatively: whatever the cluster facts hold (cluster-info's cluster fields and keys, the server
// from spec.cluster or spec.overrideBootstrapKubeletAPIServer, a bootstrap token from an input Secret), the
// kubelet bootstrap kubeconfig we write is read by client-go (`kubectl config view`, the loader the kubelet
// uses) as exactly the fields client-go knows with exactly those values: no key added (a line break in a key or
// value used to add `insecure-skip-tls-verify: true`), none lost; or it is refused naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { bootstrapKubeconfig } from '../../src/render/bootstrapKubeconfig.ts';
import { ResourceError } from '../../src/krm/results.ts';
import { hostileString } from './support/hostileStrings.ts';

// Fixed for reproducibility; PROPERTY_SEED and PROPERTY_RUNS explore further. Each case is one kubectl run.
const SEED = Number(process.env.PROPERTY_SEED ?? 2222);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 40);

const CA_DATA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64');
const STRING_FIELDS = ['server', 'tls-server-name', 'proxy-url'] as const;
const BOOL_FIELDS = ['insecure-skip-tls-verify', 'disable-compression'] as const;

interface Case {
  fields: Record<string, unknown>;
  override: string;
  token: string;
}

/** Hostile strings; one in ten may hold a lone surrogate (which must be refused), the rest are valid Unicode. */
const value = (minLength = 0) =>
  fc.oneof(
    {
      weight: 9,
      arbitrary: hostileString({ minLength })
        .map((s) => s.replace(/\ud800/g, ''))
        .filter((s) => s.length >= minLength),
    },
    { weight: 1, arbitrary: hostileString({ minLength }) },
  );

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    strings: fc.record(
      Object.fromEntries(STRING_FIELDS.map((k) => [k, value(1)])) as Record<
        (typeof STRING_FIELDS)[number],
        fc.Arbitrary<string>
      >,
      { requiredKeys: ['server'] },
    ),
    bools: fc.record(
      Object.fromEntries(
        BOOL_FIELDS.map((k) => [
          k,
          fc.oneof({ weight: 9, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constant('true') }),
        ]),
      ) as Record<(typeof BOOL_FIELDS)[number], fc.Arbitrary<boolean | string>>,
      { requiredKeys: [] },
    ),
    // Keys client-go does not know, hostile ones included (`x\n    insecure-skip-tls-verify: true\n    y`).
    unknown: fc.dictionary(
      fc.oneof(hostileString({ minLength: 1 }), fc.constant('x\n    insecure-skip-tls-verify: true\n    y')),
      fc.oneof(hostileString(), fc.boolean()),
      { maxKeys: 2 },
    ),
    override: fc.oneof(fc.constant(''), value(1)),
    token: value(1),
  })
  .map(({ strings, bools, unknown, override, token }) => ({
    fields: { ...unknown, ...strings, ...bools, 'certificate-authority-data': CA_DATA },
    override,
    token,
  }));

/** What client-go reads: its fields only, empty strings and false left out (omitempty; server is not). */
function expectedCluster(c: Case): Record<string, unknown> {
  const out: Record<string, unknown> = { 'certificate-authority-data': CA_DATA };
  const server = c.override !== '' ? c.override : c.fields.server;
  out.server = server;
  for (const k of ['tls-server-name', 'proxy-url'] as const)
    if (typeof c.fields[k] === 'string' && c.fields[k] !== '') out[k] = c.fields[k];
  for (const k of BOOL_FIELDS) if (c.fields[k] === true) out[k] = true;
  return out;
}

/** `kubectl config view` on each file, a few at a time: client-go's loader, as the kubelet reads the file. */
async function kubectlView(
  files: readonly string[],
): Promise<Array<{ code: number | null; stdout: string; stderr: string }>> {
  const results: Array<{ code: number | null; stdout: string; stderr: string }> = [];
  const one = (file: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const p = spawn('kubectl', ['config', 'view', '--kubeconfig', file, '--raw', '-o', 'json'], {
        env: { PATH: process.env.PATH ?? '', HOME: tmpdir() },
      });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (d) => (stdout += d));
      p.stderr.on('data', (d) => (stderr += d));
      p.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  for (let i = 0; i < files.length; i += 4) results.push(...(await Promise.all(files.slice(i, i + 4).map(one))));
  return results;
}

test('kubeconfig: every value reads back exactly through client-go, no key is added; or it is refused naming the field', async () => {
  const written: Array<{ c: Case; text: string }> = [];
  let refused = 0;
  fc.assert(
    fc.property(caseArb, (c) => {
      try {
        written.push({
          c,
          text: bootstrapKubeconfig({ server: String(c.fields.server), fields: c.fields }, c.token, c.override),
        });
      } catch (e) {
        assert.ok(e instanceof ResourceError, String(e));
        // Only invalid Unicode and a field of the wrong type are refused, and the message says which field.
        assert.match(
          e.message,
          /^(spec\.overrideBootstrapKubeletAPIServer|the cluster's [a-z-]+ \(kube-public\/cluster-info's kubeconfig, or spec\.cluster\)|the kubelet bootstrap token) (is not valid Unicode|must be a boolean)/,
          e.message,
        );
        refused++;
      }
    }),
    { seed: SEED, numRuns: RUNS, includeErrorInReport: true },
  );

  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-kubeconfig-'));
  try {
    const files = written.map(({ text }, i) => {
      const f = join(dir, `${i}.yaml`);
      writeFileSync(f, text);
      return f;
    });
    const views = await kubectlView(files);
    written.forEach(({ c, text }, i) => {
      const label = `${JSON.stringify(c)}\n${text}`;
      const v = views[i]!;
      assert.equal(v.code, 0, `client-go refused our kubeconfig: ${v.stderr}\n${label}`);
      const doc = JSON.parse(v.stdout);
      assert.equal(doc.clusters.length, 1, label);
      assert.equal(doc.clusters[0].name, 'c', label);
      assert.deepEqual(doc.clusters[0].cluster, expectedCluster(c), `cluster fields added, lost or changed\n${label}`);
      assert.deepEqual(doc.users, [{ name: 'c', user: { token: c.token } }], `user\n${label}`);
      assert.deepEqual(doc.contexts, [{ name: 'c', context: { cluster: 'c', user: 'c' } }], label);
      assert.equal(doc['current-context'], 'c', label);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // The generator reaches both outcomes.
  assert.ok(written.length > RUNS / 3, `only ${written.length} of ${RUNS} written`);
  assert.ok(refused > 0, 'nothing refused: the generator misses lone surrogates and wrong types');
});
