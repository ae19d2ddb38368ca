// issue 22, generatively: whatever annotations and labels a MachineDeployment carries (keys and values with
// every Unicode line break, quotes, YAML indicators, control characters, lone surrogates), the annotations and
// labels we write (the revision we copy onto the OSC and Secrets, the RHEL MachineDeployment copy with all of
// its metadata) are read back by kpt's and kustomize's reader (gopkg.in/yaml.v3) exactly as given, with no key
// added or lost and nothing replaced by U+FFFD; or the run fails with an error naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { runFunction } from '../../src/cli/runFunction.ts';
import { readWithGoYamlV3 } from '../support/goYamlV3Reader.ts';
import { BASE_CONFIG, SMALL_OSP, baseItems, machineDeployment } from './inputCorpus.ts';
import { hostileString } from './support/hostileStrings.ts';

const SEED = Number(process.env.PROPERTY_SEED ?? 4242);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);

const REVISION = 'machinedeployment.clusters.k8s.io/revision';
const RHEL_OSP = {
  ...SMALL_OSP,
  metadata: { ...SMALL_OSP.metadata, name: 'osp-small-rhel' },
  spec: { ...SMALL_OSP.spec, osName: 'rhel' },
};
const CONFIG = {
  ...BASE_CONFIG,
  spec: {
    ...BASE_CONFIG.spec,
    rhelSubscription: { all: { rhelSubscriptionManagerPassword: { env: 'OSM_RHSM_PASSWORD' } } },
  },
};
const ENV = {
  env: (n: string) => (n === 'OSM_RHSM_PASSWORD' ? 'rhsm-metadata-password' : undefined),
  readFile: () => {
    throw new Error('no files');
  },
};

interface Case {
  annotations: Record<string, string>;
  labels: Record<string, string>;
  revision?: string;
}

const caseArb: fc.Arbitrary<Case> = fc.record(
  {
    annotations: fc.dictionary(hostileString({ minLength: 1 }), hostileString(), { maxKeys: 3 }),
    labels: fc.dictionary(hostileString({ minLength: 1 }), hostileString(), { maxKeys: 2 }),
    revision: fc.option(hostileString({ minLength: 1 }), { nil: undefined }),
  },
  { requiredKeys: ['annotations', 'labels'] },
);

function input(c: Case): string {
  const md = machineDeployment('rhel-md', { operatingSystem: 'rhel' });
  md.metadata.annotations = {
    ...c.annotations,
    'k8c.io/operating-system-profile': 'osp-small-rhel',
    ...(c.revision !== undefined ? { [REVISION]: c.revision } : {}),
  };
  md.metadata.labels = c.labels;
  // Every key and string double-quoted: `<<` stays a key (not a merge), a lone surrogate becomes "\ud800".
  const list = {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: [RHEL_OSP, md, ...baseItems().filter((i) => i.kind !== 'MachineDeployment')],
    functionConfig: CONFIG,
  };
  return stringify(list, { lineWidth: 0, defaultKeyType: 'QUOTE_DOUBLE', defaultStringType: 'QUOTE_DOUBLE' });
}

const generated = (items: any[]) =>
  items.filter((i) =>
    String(i?.metadata?.annotations?.['config.kubernetes.io/path'] ?? '').startsWith('osm-generated/'),
  );

test('annotations and labels we write read back exactly through yaml.v3, or the run names the field', () => {
  const runs: Array<{ c: Case; stdout: string }> = [];
  let refused = 0;
  fc.assert(
    fc.property(caseArb, (c) => {
      let stdout = '';
      const code = runFunction(input(c), { stdout: (s) => (stdout += s), stderr: () => {}, env: ENV });
      const out = parse(stdout);
      if (code !== 0) {
        // Refused: each error names its field or its place, and none is an internal error.
        for (const r of (out.results ?? []).filter((x: any) => x.severity === 'error')) {
          assert.doesNotMatch(r.message, /internal error/, r.message);
          assert.ok(r.field?.path !== undefined || /not valid Unicode/.test(r.message), r.message);
        }
        refused++;
        return;
      }
      runs.push({ c, stdout });
    }),
    { seed: SEED, numRuns: RUNS, includeErrorInReport: true },
  );

  const read = readWithGoYamlV3(runs.map((r) => r.stdout));
  runs.forEach(({ c, stdout }, n) => {
    const label = JSON.stringify(c);
    const r = read[n]!;
    assert.ok('value' in r, `yaml.v3 refused our output: ${'error' in r ? r.error : ''}\n${label}`);
    assert.ok(!JSON.stringify(r.value).includes('\ufffd'), `U+FFFD in the output\n${label}`);
    const items = generated((r.value as any).items);
    // The two readers agree on every generated object.
    assert.deepEqual(items, generated(parse(stdout).items), label);
    const copy = items.find((i: any) => i.kind === 'MachineDeployment');
    assert.ok(copy !== undefined, label);
    const {
      'config.kubernetes.io/path': _p,
      'internal.config.kubernetes.io/path': _ip,
      ...copied
    } = copy.metadata.annotations;
    assert.deepEqual(
      copied,
      {
        ...c.annotations,
        'k8c.io/operating-system-profile': 'osp-small-rhel',
        ...(c.revision !== undefined ? { [REVISION]: c.revision } : {}),
      },
      `the copy's annotations\n${label}`,
    );
    assert.deepEqual(copy.metadata.labels ?? {}, { ...c.labels }, `the copy's labels\n${label}`);
    for (const o of items.filter(
      (i: any) =>
        i.kind === 'OperatingSystemConfig' ||
        (/-(bootstrap|provisioning)-config$/.test(i.metadata.name) && !i.metadata.name.includes('-kubelet-')),
    )) {
      assert.equal(
        o.metadata.annotations['k8c.io/machine-deployment-revision'],
        c.revision ?? '1',
        `${o.kind} ${o.metadata.name}\n${label}`,
      );
      assert.deepEqual(
        Object.keys(o.metadata.annotations)
          .filter((k) => !k.includes('config.kubernetes.io/'))
          .sort(),
        ['k8c.io/machine-deployment-revision', 'k8c.io/mdannotations-hash', 'k8c.io/osp-version'],
        `${o.kind} ${o.metadata.name}: keys added or lost\n${label}`,
      );
    }
  });
  assert.ok(runs.length > RUNS / 3, `only ${runs.length} of ${RUNS} rendered`);
  assert.ok(refused > 0, 'nothing refused: the generator misses lone surrogates');
});
