// Checks that a refactoring changed no output byte: builds the bundle of a base ref (default main) in a scratch
// directory and this tree's bundle, runs both on every example directory (one ResourceList of its YAML files,
// the OperatingSystemManager document as functionConfig), on examples/basic's ResourceList, on Argo CD's
// `generate` in examples/argocd/app, on the upstream reconciler golden cases (as test/conformance/reconciler.test.ts
// runs them) and on the benchmark's 1,000-MachineDeployment input, and compares the sha256 of stdout, stderr and
// the exit code.
//   node --import tsx scripts/compare-bundle-outputs.ts [base-ref]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { benchResourceList } from '../bench/inputs.ts';
import { RECONCILER_CASES, hasGolden, resourceListFor } from '../test/conformance/upstreamReconcilerCases.ts';

const ROOT = join(import.meta.dirname, '..');
const base = process.argv[2] ?? 'main';
const ENV = {
  PATH: process.env.PATH ?? '',
  OSM_CLOUD_INIT_GETTER_TOKEN: 'example-cloud-init-getter-token',
  OSM_BOOTSTRAP_TOKEN: 'abcdef.0123456789abcdef',
};

function buildBase(): string {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-base-'));
  execFileSync('bash', ['-c', `git -C "${ROOT}" archive "${base}" | tar -x -C "${dir}"`]);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync('node', ['scripts/build.mjs'], { cwd: dir, stdio: 'inherit' });
  return dir;
}

/** Every directory under examples/ holding an OperatingSystemManager document, as one ResourceList. */
function exampleInputs(): Run[] {
  const out: Run[] = [
    {
      name: 'examples/basic/resourcelist.yaml',
      input: readFileSync(join(ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'),
    },
  ];
  const walk = (dir: string): void => {
    const files = readdirSync(dir)
      .sort()
      .map((f) => join(dir, f));
    // A kustomization's resource directories (kustomize/exec and container read ../base) count as the directory's own.
    const resourceDirs = files
      .filter((f) => f.endsWith('/kustomization.yaml'))
      .flatMap((f) => ((parse(readFileSync(f, 'utf8'))?.resources ?? []) as string[]).map((r) => join(dir, r)))
      .filter((d) => statSync(d).isDirectory())
      .flatMap((d) =>
        readdirSync(d)
          .sort()
          .map((f) => join(d, f)),
      );
    const docs = [...files, ...resourceDirs]
      .filter((f) => /\.ya?ml$/.test(f) && !f.endsWith('/kustomization.yaml') && statSync(f).isFile())
      .flatMap((f) => parseAllDocuments(readFileSync(f, 'utf8')).map((d) => d.toJS()))
      .filter((d) => d && typeof d === 'object' && typeof d.kind === 'string');
    const config = docs.find((d) => d.kind === 'OperatingSystemManager');
    if (config !== undefined)
      out.push({
        name: relative(ROOT, dir),
        input: stringify({
          apiVersion: 'config.kubernetes.io/v1',
          kind: 'ResourceList',
          functionConfig: config,
          items: docs.filter((d) => d !== config && d.kind !== 'ResourceList'),
        }),
      });
    for (const f of files) if (statSync(f).isDirectory()) walk(f);
  };
  walk(join(ROOT, 'examples'));
  return out;
}

interface Run {
  name: string;
  input?: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
}

function digest(bundle: string, run: Run): { sha: string; summary: string } {
  const r = spawnSync('node', [bundle, ...(run.args ?? [])], {
    input: run.input ?? '',
    cwd: run.cwd ?? ROOT,
    env: { ...ENV, ...run.env },
    maxBuffer: 1 << 30,
  });
  const sha = createHash('sha256').update(r.stdout).update('\0').update(r.stderr).update(`\0${r.status}`).digest('hex');
  return { sha, summary: `exit ${r.status}, ${r.stdout.length} bytes out, ${r.stderr.length} bytes err` };
}

const baseDir = buildBase();
try {
  execFileSync('node', ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  // Argo CD's route: `generate` in the app directory, the cluster secrets as mounted files.
  const secrets = mkdtempSync(join(tmpdir(), 'osm-krm-secrets-'));
  writeFileSync(join(secrets, 'cloud-init-getter-token'), ENV.OSM_CLOUD_INIT_GETTER_TOKEN);
  writeFileSync(join(secrets, 'bootstrap-token'), ENV.OSM_BOOTSTRAP_TOKEN);
  const argocd: Run = {
    name: 'examples/argocd/app (generate)',
    args: ['generate'],
    cwd: join(ROOT, 'examples/argocd/app'),
    env: { OSM_KRM_SECRETS_DIR: secrets },
  };
  const goldens: Run[] = RECONCILER_CASES.filter((c) =>
    [c.goldens.osc, c.goldens.bootstrap, c.goldens.provisioning].some(hasGolden),
  ).map((c) => ({
    name: `upstream golden: ${c.name}`,
    input: stringify(resourceListFor(c, { pinClusterCA: false }), { lineWidth: 0 }),
  }));
  const inputs: Run[] = [
    ...exampleInputs(),
    argocd,
    ...goldens,
    { name: 'bench 1000 MachineDeployments', input: benchResourceList(1000) },
  ];
  let differ = 0;
  for (const run of inputs) {
    const a = digest(join(baseDir, 'dist/osm-krm.cjs'), run);
    const b = digest(join(ROOT, 'dist/osm-krm.cjs'), run);
    if (a.sha !== b.sha) differ++;
    console.log(`${a.sha === b.sha ? 'same   ' : 'DIFFER '} ${b.sha.slice(0, 16)} ${run.name} (${b.summary})`);
  }
  console.log(
    differ === 0
      ? `all ${inputs.length} outputs byte-identical to ${base}`
      : `${differ} of ${inputs.length} outputs differ from ${base}`,
  );
  process.exitCode = differ === 0 ? 0 : 1;
  rmSync(secrets, { recursive: true, force: true });
} finally {
  rmSync(baseDir, { recursive: true, force: true });
}
