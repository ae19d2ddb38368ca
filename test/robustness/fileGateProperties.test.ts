// The file gate, attacked generatively (issue #22 "one file gate", #23 §3): trees built by fast-check (fixed
// seed) with symbolic links (relative and absolute, in dot-directories and in .git, chains, loops, to FIFOs, to
// devices, to /proc, to directories, leading out of the repository), FIFOs named like manifests, kustomizations
// that name them (resources, configMapGenerator files), and `{file: ...}` value sources pointing at them. Every
// entry point runs as a user runs it, with the built bundle: generate (as Argo CD's sidecar runs it), hydrate,
// render, diff, diff --git, lint and the KRM function on stdin. In every run no byte from outside the allowed
// roots (a marker in every file outside the repository, in .git/config, in the process environment) reaches
// stdout, stderr or OUT; no run hangs; every refusal names the path; what must be refused is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { BUNDLE, EXAMPLE_SECRETS, EXAMPLES, tempDir, toolEnv, treeText } from '../gitops/support.ts';

const SEED = Number(process.env.PROPERTY_SEED ?? 2026);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 6);

const OUTSIDE = 'OUTSIDE-MARKER-5f1c9e';
const GIT_SECRET = 'GIT-CREDENTIAL-MARKER-77ad';
const ENV_SECRET = 'ENV-MARKER-c0ffee';
const MARKERS = [OUTSIDE, GIT_SECRET, ENV_SECRET];

type Target =
  | 'rel-out-file'
  | 'abs-out-file'
  | 'rel-out-dir'
  | 'abs-out-dir'
  | 'proc-environ'
  | 'dev-null'
  | 'git-config'
  | 'chain-out'
  | 'loop'
  | 'in-repo-file'
  | 'dangling'
  | 'fifo';
const TARGETS: Target[] = [
  'rel-out-file',
  'abs-out-file',
  'rel-out-dir',
  'abs-out-dir',
  'proc-environ',
  'dev-null',
  'git-config',
  'chain-out',
  'loop',
  'in-repo-file',
  'dangling',
  'fifo',
];
const BENIGN = new Set<Target>(['in-repo-file', 'dangling']);
/** Where an attack sits, relative to the app directory ('..' is the repository's top). */
const PLACES = ['.', '.hidden', 'sub', '.git', '../.git'] as const;
type Place = (typeof PLACES)[number];

interface Attack {
  place: Place;
  name: string;
  target: Target;
}

type ValueSource =
  | { kind: 'none' }
  | { kind: 'attack'; index: number }
  | { kind: 'absolute'; what: 'outside' | 'proc' | 'secrets-link' | 'big' }
  | { kind: 'relative-climb' }
  | { kind: 'benign' };

interface World {
  attacks: Attack[];
  kustomize: boolean;
  value: ValueSource;
}

const arbAttack: fc.Arbitrary<Attack> = fc.record({
  place: fc.constantFrom(...PLACES),
  name: fc.constantFrom('x.yaml', 'y.yml', 'linked', 'deep'),
  target: fc.constantFrom(...TARGETS),
});

const arbWorld: fc.Arbitrary<World> = fc.record({
  attacks: fc.array(arbAttack, { minLength: 1, maxLength: 4 }),
  kustomize: fc.boolean(),
  value: fc.oneof(
    fc.constant<ValueSource>({ kind: 'none' }),
    fc.integer({ min: 0, max: 3 }).map((index): ValueSource => ({ kind: 'attack', index })),
    fc
      .constantFrom<'outside' | 'proc' | 'secrets-link' | 'big'>('outside', 'proc', 'secrets-link', 'big')
      .map((what): ValueSource => ({ kind: 'absolute', what })),
    fc.constant<ValueSource>({ kind: 'relative-climb' }),
    fc.constant<ValueSource>({ kind: 'benign' }),
  ),
});

interface Built {
  root: string;
  repo: string;
  app: string;
  secrets: string;
  /** Names that a refusal may name (attack entries, value paths). */
  names: string[];
  /** The attacks as placed (unique names), relative to the app directory. */
  placed: Array<Attack & { rel: string }>;
  /** The config's value source as written, when hostile. */
  hostileValue?: string;
  /** A kustomization names a hostile attack. */
  kustomizeHostile: boolean;
  /** A manifest file the plain walk reads is hostile. */
  walkHostile: boolean;
}

const CA = (() => {
  const info = parse(readFileSync(join(EXAMPLES, 'argocd', 'app', 'cluster-info.yaml'), 'utf8'));
  return Buffer.from(parse(info.data.kubeconfig).clusters[0].cluster['certificate-authority-data'], 'base64').toString(
    'utf8',
  );
})();

function mkfifo(path: string): void {
  const r = spawnSync('mkfifo', [path]);
  if (r.status !== 0) throw new Error(`mkfifo ${path}: ${r.stderr}`);
}

function git(dir: string, ...args: string[]): void {
  const r = spawnSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', '-c', 'commit.gpgsign=false', ...args],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } },
  );
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

function build(world: World): Built {
  const root = tempDir('osm-krm-gate-');
  const outside = join(root, 'outside');
  mkdirSync(join(outside, 'dir'), { recursive: true });
  const leak = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leak\n  namespace: kube-system\ndata:\n  stolen: ${OUTSIDE}\n`;
  writeFileSync(join(outside, 'leak.yaml'), leak);
  writeFileSync(join(outside, 'dir', 'more.yaml'), leak.replace('name: leak', 'name: more'));
  // A kustomization outside: kustomize builds a directory it is named (through a link) without asking where it is.
  writeFileSync(join(outside, 'dir', 'kustomization.yaml'), 'resources: [more.yaml]\n');
  writeFileSync(join(outside, 'token'), `${OUTSIDE}\n`);
  const secrets = join(root, 'secrets');
  mkdirSync(secrets);
  writeFileSync(join(secrets, 'cloud-init-getter-token'), EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN);
  writeFileSync(join(secrets, 'bootstrap-token'), EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN);
  symlinkSync(join(outside, 'token'), join(secrets, 'evil-token'));

  const repo = join(root, 'repo');
  const app = join(repo, 'app');
  mkdirSync(repo);
  git(repo, 'init', '-q');
  writeFileSync(
    join(repo, '.git', 'config'),
    readFileSync(join(repo, '.git', 'config'), 'utf8') + `[http]\n\textraheader = AUTHORIZATION: basic ${GIT_SECRET}\n`,
  );
  mkdirSync(join(repo, 'shared'));
  writeFileSync(
    join(repo, 'shared', 'ok.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared-ok\n  namespace: kube-system\n',
  );
  cpSync(join(EXAMPLES, 'argocd', 'app'), app, { recursive: true });
  writeFileSync(join(app, 'ca.crt'), CA);
  writeFileSync(join(app, 'good-token'), 'a-good-getter-token');
  for (const d of ['.hidden', 'sub']) mkdirSync(join(app, d));
  // A `.git` in the app makes the app a work tree of its own (a smaller root): only when an attack needs it.
  if (world.attacks.some((a) => a.place === '.git')) mkdirSync(join(app, '.git'));

  const placed: Built['placed'] = [];
  const names: string[] = [];
  let walkHostile = false;
  world.attacks.forEach((a, i) => {
    const dir = join(app, a.place);
    const name = `${i}-${a.name}`;
    const path = join(dir, name);
    const rel = relative(app, path);
    const at = (p: string) => relative(dir, p);
    switch (a.target) {
      case 'rel-out-file':
        symlinkSync(at(join(outside, 'leak.yaml')), path);
        break;
      case 'abs-out-file':
        symlinkSync(join(outside, 'leak.yaml'), path);
        break;
      case 'rel-out-dir':
        symlinkSync(at(join(outside, 'dir')), path);
        break;
      case 'abs-out-dir':
        symlinkSync(join(outside, 'dir'), path);
        break;
      case 'proc-environ':
        symlinkSync('/proc/self/environ', path);
        break;
      case 'dev-null':
        symlinkSync('/dev/null', path);
        break;
      case 'git-config':
        symlinkSync(at(join(repo, '.git', 'config')), path);
        break;
      case 'chain-out': {
        const hop = join(app, '.hidden', `${i}-hop`);
        symlinkSync(relative(dirname(hop), join(outside, 'leak.yaml')), hop);
        symlinkSync(at(hop), path);
        names.push(`${i}-hop`);
        break;
      }
      case 'loop': {
        const other = join(dir, `${i}-loop-partner`);
        symlinkSync(name, other);
        symlinkSync(`${i}-loop-partner`, path);
        names.push(`${i}-loop-partner`);
        break;
      }
      case 'in-repo-file':
        symlinkSync(at(join(repo, 'shared', 'ok.yaml')), path);
        break;
      case 'dangling':
        symlinkSync(at(join(repo, 'no-such-file')), path);
        break;
      case 'fifo':
        break; // made after the commit: git cannot hold one
    }
    placed.push({ ...a, name, rel });
    names.push(name);
    // The walk skips dot-directories; outside them every link is resolved (to know whether it is a directory),
    // and a FIFO is read only under a YAML name.
    const walked = !a.place.includes('.git') && a.place !== '.hidden';
    if (walked && !BENIGN.has(a.target) && (a.target !== 'fifo' || /\.ya?ml$/.test(name))) walkHostile = true;
  });

  let kustomizeHostile = false;
  const config = parse(readFileSync(join(app, 'osm-config.yaml'), 'utf8'));
  config.spec.cluster = { server: 'https://api.example.com:6443', caCert: { file: 'ca.crt' } };
  let hostileValue: string | undefined;
  const v = world.value;
  if (v.kind === 'attack' && v.index < placed.length) {
    const a = placed[v.index]!;
    config.spec.cluster.cloudInitGetterToken = { file: a.rel };
    if (!BENIGN.has(a.target)) hostileValue = a.rel;
  } else if (v.kind === 'absolute') {
    const file =
      v.what === 'outside'
        ? join(outside, 'token')
        : v.what === 'proc'
          ? '/proc/self/environ'
          : v.what === 'secrets-link'
            ? join(secrets, 'evil-token')
            : join(app, 'big-token');
    if (v.what === 'big') {
      writeFileSync(file, '');
      spawnSync('truncate', ['-s', '100M', file]);
    }
    config.spec.cluster.cloudInitGetterToken = { file };
    hostileValue = file;
  } else if (v.kind === 'relative-climb') {
    const file = relative(app, join(outside, 'token'));
    config.spec.cluster.cloudInitGetterToken = { file };
    hostileValue = file;
  } else if (v.kind === 'benign') {
    config.spec.cluster.cloudInitGetterToken = { file: 'good-token' };
    names.push('good-token'); // generate refuses a token file from Git, naming it
  }
  writeFileSync(join(app, 'osm-config.yaml'), stringify(config));
  if (hostileValue !== undefined) names.push(hostileValue);

  if (world.kustomize) {
    const resources = [
      'operatingsystemprofile.yaml',
      'machinedeployment-workers-a.yaml',
      'machinedeployment-workers-b.yaml',
    ];
    const files: string[] = [];
    for (const a of placed) {
      if (a.place === '../.git') continue; // kustomize could not name it without leaving the app
      if (/\.ya?ml$/.test(a.name) || ['rel-out-dir', 'abs-out-dir'].includes(a.target)) resources.push(a.rel);
      else files.push(a.rel);
      if (!BENIGN.has(a.target)) kustomizeHostile = true;
    }
    const k: Record<string, unknown> = { resources };
    if (files.length > 0) k.configMapGenerator = [{ name: 'attack', namespace: 'kube-system', files }];
    writeFileSync(join(app, 'kustomization.yaml'), stringify(k));
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'world');
  for (const a of placed) if (a.target === 'fifo') mkfifo(join(app, a.rel));
  return {
    root,
    repo,
    app,
    secrets,
    names,
    placed,
    ...(hostileValue !== undefined ? { hostileValue } : {}),
    kustomizeHostile,
    walkHostile,
  };
}

interface Run {
  entry: string;
  status: number | null;
  stdout: string;
  stderr: string;
  /** Every file OUT holds, for hydrate. */
  written: string;
  timedOut: boolean;
}

function env(w: Built, extra: Record<string, string> = {}): Record<string, string> {
  return toolEnv({ OSM_KRM_SECRETS_DIR: w.secrets, OSM_KRM_TEST_MARKER: ENV_SECRET, ...extra });
}

function runBundle(entry: string, args: string[], cwd: string, e: Record<string, string>, input = ''): Run {
  const r = spawnSync(process.execPath, [BUNDLE, ...args], {
    cwd,
    env: e,
    input,
    encoding: 'utf8',
    timeout: 180_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return {
    entry,
    status: r.status,
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
    written: '',
    timedOut: r.error !== undefined && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT',
  };
}

/** The function's input as kpt would send it: the app's objects (the config as functionConfig), read here. */
function resourceList(w: Built): string {
  const items: unknown[] = [];
  let functionConfig: unknown;
  for (const f of [
    'operatingsystemprofile.yaml',
    'machinedeployment-workers-a.yaml',
    'machinedeployment-workers-b.yaml',
    'cluster-info.yaml',
    'osm-config.yaml',
  ]) {
    const o = parse(readFileSync(join(w.app, f), 'utf8'));
    if (o.kind === 'OperatingSystemManager') {
      // No secrets directory under kustomize or kpt: the tokens come from the environment.
      o.spec.cluster.bootstrapToken = { env: 'OSM_BOOTSTRAP_TOKEN' };
      o.spec.cluster.cloudInitGetterToken ??= { env: 'OSM_CLOUD_INIT_GETTER_TOKEN' };
      functionConfig = o;
    } else items.push(o);
  }
  return stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items, functionConfig });
}

function runAll(w: Built): Run[] {
  const runs: Run[] = [];
  runs.push(runBundle('generate', ['generate'], w.app, env(w, { ARGOCD_APP_SOURCE_PATH: 'app' })));
  const out = join(w.root, 'out');
  const hydrate = runBundle('hydrate', ['hydrate', 'app', out], w.repo, env(w));
  hydrate.written = treeText(out);
  runs.push(hydrate);
  runs.push(runBundle('render', ['render', 'app'], w.repo, env(w)));
  runs.push(runBundle('diff', ['diff', 'app', 'app'], w.repo, env(w)));
  runs.push(runBundle('diff --git', ['diff', '--git', 'HEAD', 'app'], w.repo, env(w)));
  runs.push(runBundle('lint', ['lint', 'app'], w.repo, env(w)));
  runs.push(runBundle('function', [], w.app, env(w, { ...EXAMPLE_SECRETS }), resourceList(w)));
  return runs;
}

test(
  'no byte from outside the allowed roots reaches any output, every refusal names the path, nothing hangs',
  { timeout: 1_800_000 },
  () => {
    fc.assert(
      fc.property(arbWorld, (world) => {
        const w = build(world);
        try {
          check(world, w);
        } catch (e) {
          // fast-check reports the counterexample; the reason is printed here.
          process.stderr.write(`${(e as Error).message}\n`);
          throw e;
        } finally {
          rmSync(w.root, { recursive: true, force: true });
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  },
);

function check(world: World, w: Built): void {
  {
    {
      for (const r of runAll(w)) {
        const where = `${r.entry} in ${JSON.stringify(world)}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`;
        assert.equal(r.timedOut, false, `hung: ${where}`);
        for (const m of MARKERS) {
          assert.ok(!r.stdout.includes(m) && !r.stderr.includes(m) && !r.written.includes(m), `${m} leaked: ${where}`);
        }
        // diff exits 1 for "nodes change"; anything else but 0 is a refusal or an error, and must name a path.
        const failed = r.entry.startsWith('diff') ? r.status !== 0 && r.status !== 1 : r.status !== 0;
        if (failed)
          assert.ok(
            w.names.some((n) => r.stderr.includes(n)),
            `a refusal that names no attacked path: ${where}`,
          );
        // What must be refused is refused: every command walks the directory (a kustomization's too, for its
        // config), kustomize's tree holds what its kustomization names; lint reads no config, the function
        // reads no file but its value sources.
        const hostileRead =
          r.entry === 'function' ? false : w.walkHostile || (r.entry !== 'lint' && w.kustomizeHostile);
        const mustFail = hostileRead || (r.entry !== 'lint' && w.hostileValue !== undefined);
        if (mustFail) assert.ok(r.entry === 'function' ? r.status !== 0 : failed, `not refused: ${where}`);
      }
    }
  }
}

test(
  'the world without attacks renders on every entry point (so the refusals above come from the attacks)',
  { timeout: 300_000 },
  () => {
    const w = build({
      attacks: [{ place: 'sub', name: 'x.yaml', target: 'in-repo-file' }],
      kustomize: false,
      value: { kind: 'none' },
    });
    for (const r of runAll(w)) {
      const ok = r.entry.startsWith('diff') ? r.status === 0 : r.status === 0 || (r.entry === 'lint' && r.status === 1);
      assert.ok(ok, `${r.entry}: exit ${r.status}\n${r.stderr}`);
    }
    // (kustomize itself refuses a resource file whose link leads out of the kustomization's directory.)
    const k = build({ attacks: [], kustomize: true, value: { kind: 'none' } });
    for (const r of runAll(k)) {
      if (r.entry === 'lint' || r.entry === 'function') continue;
      assert.ok(
        r.entry.startsWith('diff') ? r.status === 0 : r.status === 0,
        `${r.entry} (kustomization): exit ${r.status}\n${r.stderr}`,
      );
    }
  },
);
