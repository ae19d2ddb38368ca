// Attacks the one rule for `{env: NAME}` (src/cluster/environmentNames.ts, applied in valueSource.ts): whatever
// name a config chooses, in whichever form (typed config or OSM's ConfigMap flags) and for whichever field, a
// variable outside the rule is never read (the environment is asked for it not once), the run fails on that
// field, and its value is nowhere in the output; a name inside the rule is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { runOn } from '../support/runInProcess.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { listedEnvNames } from '../../src/cluster/environmentNames.ts';

const SEED = 20261128;
const base = () => parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'));

/** The example cluster's CA, as PEM: what the CA fields accept. */
function exampleCA(): string {
  const info = base().items.find((i: any) => i.kind === 'ConfigMap' && i.metadata.name === 'cluster-info');
  const kubeconfig = parse(info.data.kubeconfig);
  return Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString('utf8');
}

interface Field {
  /** Where the typed config holds it (under spec). */
  typed: string[];
  /** Its `*-env` key in the ConfigMap form, if it has one. */
  flag?: string;
  value: string;
}

// Every value source of the config, with a value each accepts, recognisable in the output.
const FIELDS: readonly Field[] = [
  {
    typed: ['cluster', 'cloudInitGetterToken'],
    flag: 'cloud-init-getter-token-env',
    value: 'getter-token-marker-7c31aa',
  },
  { typed: ['cluster', 'bootstrapToken'], flag: 'bootstrap-token-env', value: 'q7x2mz.k3j9d0w8r5t1y6u4' },
  {
    typed: ['cluster', 'bootstrapTokenKey'],
    flag: 'bootstrap-token-key-env',
    value: 'token-key-marker-0123456789abcdef0123',
  },
  { typed: ['cluster', 'caCert'], value: exampleCA() },
  { typed: ['kubernetesCABundle'], value: exampleCA() },
  { typed: ['hostCABundle'], value: exampleCA() },
];

// Names near the rule's edges, and names of every shape.
const PREFIXES = ['', 'OSM_', 'OSM', 'OSM_KRM_', 'osm_', 'ARGOCD_ENV_', 'ARGOCD_ENV', 'ARGOCD_', 'XOSM_', ' OSM_'];
const nameArb = fc
  .tuple(
    fc.constantFrom(...PREFIXES),
    fc.oneof(
      fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,12}$/),
      fc.constantFrom('', 'HOME', 'PATH', 'SECRETS_DIR', 'FILE_ROOTS', 'ENV_NAMES', 'AWS_SECRET_ACCESS_KEY'),
      fc.string({ maxLength: 8 }),
    ),
  )
  .map(([p, s]) => p + s)
  // The rule's own setting is read by the rule; naming it is refused like any OSM_KRM_ name (test below).
  .filter((n) => n !== '' && n.trim() !== 'OSM_KRM_ENV_NAMES');

/** The rule, written out here from the README's words (not imported), so a change to either shows. */
function allowedByReadme(name: string, listed: readonly string[]): boolean {
  if (listed.includes(name)) return true;
  if (name.startsWith('OSM_KRM_')) return false;
  return (name.startsWith('OSM_') && name.length > 4) || (name.startsWith('ARGOCD_ENV_') && name.length > 11);
}

test('{env: NAME}: a variable outside the rule is never read, fails the run on its field and reaches no output', () => {
  fc.assert(
    fc.property(
      nameArb,
      fc.constantFrom(...FIELDS),
      fc.boolean(),
      fc.constantFrom<'unlisted' | 'listed' | 'other'>('unlisted', 'listed', 'other'),
      (name, field, configMapForm, listing) => {
        const listedText =
          listing === 'listed' ? `OTHER_NAME, ${name}` : listing === 'other' ? 'OTHER_NAME:OSM_KRM_X' : undefined;
        const listed = [...listedEnvNames(listedText)];
        const l = base();
        const flag = configMapForm ? field.flag : undefined;
        if (flag !== undefined) {
          l.functionConfig = {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'osm' },
            data: { namespace: 'kube-system', 'cluster-dns': '10.96.0.10', [flag]: name },
          };
        } else {
          const [first, second] = field.typed;
          if (second === undefined) l.functionConfig.spec[first!] = { env: name };
          else l.functionConfig.spec[first!] = { [second]: { env: name } };
        }
        // The ConfigMap form trims its values, as OSM's flags do.
        const read = flag !== undefined ? name.trim() : name;
        const asked: string[] = [];
        const r = runOn(l, {
          env: (n) => {
            asked.push(n);
            if (n === 'OSM_KRM_ENV_NAMES') return listedText;
            return n === read ? field.value : undefined;
          },
          readFile: () => {
            throw Object.assign(new Error('no files here'), { code: 'ENOENT' });
          },
        });
        const allowed = allowedByReadme(read, listed);
        if (allowed) {
          assert.ok(asked.includes(read), `${JSON.stringify(read)} is allowed and was not read`);
          assert.equal(r.exitCode, 0, `${JSON.stringify(name)} is allowed:\n${r.stderr}`);
          return;
        }
        assert.ok(!asked.includes(read), `${JSON.stringify(read)} was read though the rule does not allow it`);
        assert.equal(r.exitCode, 1, `${JSON.stringify(name)} was accepted`);
        const errors = r.results.filter((x: any) => x.severity === 'error');
        assert.ok(
          errors.some(
            (e: any) =>
              e.field?.path === (flag !== undefined ? `data.${flag}` : `spec.${field.typed.join('.')}.env`) &&
              /OSM_KRM_ENV_NAMES/.test(e.message),
          ),
          `no error on the field for ${JSON.stringify(name)}: ${JSON.stringify(errors)}`,
        );
        const marker = field.value.includes('\n') ? field.value.split('\n')[1]! : field.value; // a PEM's first base64 line
        assert.ok(!r.stdout.includes(field.value) && !r.stderr.includes(marker));
      },
    ),
    { seed: SEED, numRuns: 400 },
  );
});

test('{env: OSM_KRM_ENV_NAMES}: the allow-list itself is a setting, not a value a config may read', () => {
  const l = base();
  l.functionConfig.spec.cluster = { cloudInitGetterToken: { env: 'OSM_KRM_ENV_NAMES' } };
  const r = runOn(l, {
    env: (n) => (n === 'OSM_KRM_ENV_NAMES' ? 'OSM_A,OSM_B' : undefined),
    readFile: () => '',
  });
  assert.equal(r.exitCode, 1);
  const e = r.results.find((x: any) => x.severity === 'error');
  assert.equal(e.field.path, 'spec.cluster.cloudInitGetterToken.env');
  assert.ok(!r.stdout.includes('OSM_A,OSM_B'));
});
