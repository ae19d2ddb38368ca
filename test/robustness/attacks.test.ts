// Attacks on the issue #22 mechanisms by someone who did not write them, with the built bundle as a user runs it.
// Each test is one class of bypass found, written before its fix and kept generative where the class is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { BUNDLE, EXAMPLE_SECRETS, EXAMPLES, tempDir, toolEnv, treeText } from '../gitops/support.ts';

const SEED = Number(process.env.PROPERTY_SEED ?? 2026);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 12);
const OUTSIDE = 'OUTSIDE-MARKER-kustomize-9d2e';

function git(dir: string, ...args: string[]): void {
  const r = spawnSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', '-c', 'commit.gpgsign=false', ...args],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } },
  );
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

// --- kustomize: a kustomization value that kustomize resolves outside the tree the gate copied --------------
//
// kustomize runs in a copy under $TMPDIR (here ROOT/tmp/osm-krm-kustomize-*/tree/app), so `../../../../outside`
// from the copied app reaches ROOT/outside. Spelled plainly, the check refuses it; the disguises below are
// spellings kustomize reads as the same path (Go's filepath.Clean is lexical, `?` is no query for a local path,
// `!!binary` is decoded by go-yaml, a path longer than PATH_MAX is cleaned before the system call) and that a
// check on the text as written misses.

type Disguise = 'query' | 'pad' | 'newline' | 'none';
type Encoding = 'plain' | 'double-quoted' | 'binary';
interface KustomizeAttack {
  disguises: Disguise[];
  encoding: Encoding;
  absolute: 'relative' | 'absolute' | 'absolute-through-missing';
  field: 'resources' | 'components';
  /**
   * Where the value sits: in the app's kustomization, or in one at sub/evil that the app's names as
   * `sub/l/../evil` (l a link elsewhere: Go cleans `l/..` away, the file system would not) or
   * `no-such/../sub/evil` (a missing component Go cleans away).
   */
  route: 'direct' | 'through-link' | 'through-missing';
}

const arbKustomizeAttack: fc.Arbitrary<KustomizeAttack> = fc.record({
  disguises: fc.array(fc.constantFrom<Disguise>('query', 'pad', 'newline', 'none'), { minLength: 1, maxLength: 2 }),
  encoding: fc.constantFrom<Encoding>('plain', 'double-quoted', 'binary'),
  absolute: fc.constantFrom('relative' as const, 'absolute' as const, 'absolute-through-missing' as const),
  field: fc.constantFrom('resources' as const, 'components' as const),
  route: fc.constantFrom('direct' as const, 'through-link' as const, 'through-missing' as const),
});

function disguise(path: string, d: Disguise): string {
  switch (d) {
    case 'query':
      return path.startsWith('/') ? `/q?/..${path}` : `q?/../${path}`;
    case 'pad':
      return path.startsWith('/') ? `/${'./'.repeat(2100)}${path.slice(1)}` : `${'./'.repeat(2100)}${path}`;
    case 'newline':
      return path.startsWith('/') ? `/n\n/..${path}` : `n\n/../${path}`;
    case 'none':
      return path;
  }
}

function yamlScalar(value: string, encoding: Encoding): string {
  if (encoding === 'binary') return `!!binary ${Buffer.from(value).toString('base64')}`;
  if (encoding === 'plain' && /^[\w./?-]+$/.test(value)) return value;
  return JSON.stringify(value);
}

function kustomizeWorld(attack: KustomizeAttack) {
  const root = tempDir('osm-krm-attack-');
  const tmp = join(root, 'tmp');
  mkdirSync(tmp);
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(
    join(outside, 'kustomization.yaml'),
    attack.field === 'components'
      ? 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [leak.yaml]\n'
      : 'resources: [leak.yaml]\n',
  );
  writeFileSync(
    join(outside, 'leak.yaml'),
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leak\n  namespace: kube-system\ndata:\n  stolen: ${OUTSIDE}\n`,
  );
  const repo = join(root, 'repo');
  const app = join(repo, 'app');
  mkdirSync(repo);
  git(repo, 'init', '-q');
  cpSync(join(EXAMPLES, 'kustomize', 'base'), app, { recursive: true });
  writeFileSync(join(app, 'osm.yaml'), readFileSync(join(EXAMPLES, 'flux', 'source', 'osm-config.yaml')));
  // From the copied app (or its sub/evil), up to ROOT.
  const up = attack.route === 'direct' ? '../../../../' : '../../../../../../';
  let path =
    attack.absolute === 'relative'
      ? `${up}outside`
      : attack.absolute === 'absolute'
        ? outside
        : `/no-such-directory/..${outside}`;
  for (const d of attack.disguises) path = disguise(path, d);
  const files = ['operatingsystemprofile.yaml', 'machinedeployment-workers-a.yaml', 'cluster-info.yaml'];
  mkdirSync(join(app, 'sub', 'evil'), { recursive: true });
  mkdirSync(join(repo, 'elsewhere', 'a', 'b'), { recursive: true });
  writeFileSync(join(repo, 'elsewhere', 'a', 'b', 'kustomization.yaml'), 'resources: []\n');
  symlinkSync('../../elsewhere/a/b', join(app, 'sub', 'l'));
  if (attack.route !== 'direct') {
    const kind = attack.field === 'components' ? 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n' : '';
    writeFileSync(
      join(app, 'sub', 'evil', 'kustomization.yaml'),
      `${kind}${attack.field}:\n- ${yamlScalar(path, attack.encoding)}\n`,
    );
    path = attack.route === 'through-link' ? 'sub/l/../evil' : 'no-such/../sub/evil';
  }
  writeFileSync(
    join(app, 'kustomization.yaml'),
    attack.field === 'resources'
      ? `resources:\n${[...files.map((f) => `- ${f}`), `- ${yamlScalar(path, attack.encoding)}`].join('\n')}\ntransformers:\n- osm.yaml\n`
      : `resources:\n${files.map((f) => `- ${f}`).join('\n')}\ncomponents:\n- ${yamlScalar(path, attack.encoding)}\ntransformers:\n- osm.yaml\n`,
  );
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'attack');
  return { root, tmp, repo, app, path };
}

test(
  'kustomize: no spelling of a path out of the copied tree lets kustomize read outside the root',
  { timeout: 900_000 },
  () => {
    fc.assert(
      fc.property(arbKustomizeAttack, (attack) => {
        const w = kustomizeWorld(attack);
        const env = toolEnv({ ...EXAMPLE_SECRETS, TMPDIR: w.tmp });
        const out = join(w.root, 'out');
        const runs = [
          {
            entry: 'hydrate',
            r: spawnSync(process.execPath, [BUNDLE, 'hydrate', 'app', out], {
              cwd: w.repo,
              env,
              encoding: 'utf8',
              timeout: 120_000,
            }),
          },
          {
            entry: 'generate',
            r: spawnSync(process.execPath, [BUNDLE, 'generate'], {
              cwd: w.app,
              env: { ...env, ARGOCD_APP_SOURCE_PATH: 'app' },
              encoding: 'utf8',
              timeout: 120_000,
            }),
          },
        ];
        for (const { entry, r } of runs) {
          const seen = `${r.stdout}${r.stderr}${entry === 'hydrate' ? treeText(out) : ''}`;
          assert.ok(
            !seen.includes(OUTSIDE),
            `${entry} read ${JSON.stringify(w.path.slice(0, 200))} (${JSON.stringify(attack)}) from outside the root:\n${r.stderr.slice(0, 2000)}`,
          );
          assert.notEqual(r.status, 0, `${entry} accepted ${JSON.stringify(attack)}`);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  },
);

// --- {env: NAME}: any variable of the process, named by a pull request ------------------------------------------
//
// A config in a pull request named a variable of the sidecar's environment (not one set for osm-krm) as the
// cloud-init-getter token, and generate wrote its value into the OperatingSystemConfig (a custom resource, not a
// Secret: Argo CD's UI and `argocd app diff` show it to whoever may read the app). A config now reads only the
// names src/cluster/environmentNames.ts allows (test/robustness/environmentNames.test.ts attacks the rule).
test('generate: a config in the repository cannot read an arbitrary variable of the sidecar into the output', () => {
  const root = tempDir('osm-krm-attack-env-');
  const app = join(root, 'app');
  cpSync(join(EXAMPLES, 'argocd', 'app'), app, { recursive: true });
  const config = readFileSync(join(app, 'osm-config.yaml'), 'utf8');
  writeFileSync(
    join(app, 'osm-config.yaml'),
    `${config.trimEnd()}\n  cluster:\n    cloudInitGetterToken: {env: SIDECAR_CREDENTIAL}\n    bootstrapToken: {env: OSM_BOOTSTRAP_TOKEN}\n`,
  );
  const marker = 'SIDECAR-CREDENTIAL-MARKER-31f0';
  const r = spawnSync(process.execPath, [BUNDLE, 'generate'], {
    cwd: app,
    env: toolEnv({ ...EXAMPLE_SECRETS, SIDECAR_CREDENTIAL: marker, ARGOCD_APP_SOURCE_PATH: 'app' }),
    encoding: 'utf8',
    timeout: 120_000,
  });
  const outsideSecrets = r.stdout
    .split(/^---$/m)
    .filter((doc) => !/^kind: Secret$/m.test(doc))
    .join('---');
  assert.ok(
    !outsideSecrets.includes(marker),
    `generate wrote SIDECAR_CREDENTIAL into a non-Secret object (exit ${r.status}):\n${r.stderr.slice(0, 1000)}`,
  );
});
