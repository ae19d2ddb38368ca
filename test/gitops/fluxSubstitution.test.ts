// Flux's post-build substitution (#24 §1): what we write for Flux survives a Kustomization with
// `spec.postBuild` (kustomize-controller >= 1.9: strict), and what of the user's Flux would rewrite is named.
// The oracle is drone/envsubst, the code Flux's envsubst is forked from (test/gitops/goOracles.ts).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { benchResourceList } from '../../bench/inputs.ts';
import {
  firstSubstitutedString,
  FLUX_SUBSTITUTE_KEY,
  fluxSkipsSubstitution,
  fluxWouldSubstitute,
} from '../../src/gitops/fluxSubstitution.ts';
import { fluxWouldChange } from './goOracles.ts';
import { runOn } from '../support/runInProcess.ts';
import { BUNDLE, EXAMPLE_SECRETS, EXAMPLES, copyTree, run, runOk, tempDir, toolEnv } from './support.ts';

test('detection agrees with the envsubst oracle on strings made of the characters that matter', () => {
  const alphabet = fc.constantFrom(
    '$',
    '$',
    '{',
    '}',
    '\\',
    '/',
    'a',
    'Z',
    '_',
    '1',
    ':',
    '-',
    '=',
    '#',
    '%',
    ' ',
    '\n',
  );
  const strings = fc.array(alphabet, { maxLength: 12 }).map((cs) => cs.join(''));
  const samples = fc.sample(strings, { numRuns: 4000, seed: 24 });
  samples.push('${', '$${X}', '$$', 'a$b', '${X:-d}', '$X', '\\${X}', '${X/a\\/b/c}', '$', '$}', '{$}', '$\n{', 'ok');
  const oracle = fluxWouldChange(samples);
  samples.forEach((s, i) => assert.equal(firstSubstitutedString(s) !== undefined, oracle[i], JSON.stringify(s)));
});

/** Every file of a hydrated directory as [path, object, text]. */
function hydratedObjects(out: string): Array<{ path: string; object: any; text: string }> {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.yaml') && e.name !== 'kustomization.yaml') files.push(p);
    }
  };
  walk(out);
  return files.sort().flatMap((f) =>
    parseAllDocuments(readFileSync(f, 'utf8')).map((d) => ({
      path: relative(out, f),
      object: d.toJS(),
      text: d.toString(),
    })),
  );
}

test(
  'hydrate of the 1,000-MachineDeployment bench input (every default profile x cloud): every file Flux would rewrite opts out',
  { timeout: 600_000 },
  () => {
    const list = parse(benchResourceList(1000));
    const src = join(tempDir(), 'src');
    mkdirSync(src);
    writeFileSync(
      join(src, 'inputs.yaml'),
      list.items.map((i: unknown) => stringify(i, { lineWidth: 0 })).join('---\n'),
    );
    writeFileSync(
      join(src, 'osm-config.yaml'),
      stringify({
        ...list.functionConfig,
        metadata: { name: 'osm', annotations: { 'config.kubernetes.io/local-config': 'true' } },
      }),
    );
    // An OSP of the user's, with shell variables, copied under inputs/.
    writeFileSync(
      join(src, 'operatingsystemprofile.yaml'),
      withShellVariable(readFileSync(join(EXAMPLES, 'flux', 'source', 'operatingsystemprofile.yaml'), 'utf8')),
    );
    const out = join(tempDir(), 'out');
    runOk(process.execPath, [BUNDLE, 'hydrate', src, out], { env: toolEnv() });
    const objects = hydratedObjects(out).filter(
      (o) => o.object?.metadata?.annotations?.['config.kubernetes.io/local-config'] !== 'true',
    );
    assert.ok(objects.length > 5000, `${objects.length} objects`);
    const changed = fluxWouldChange(objects.map((o) => o.text));
    let withDollar = 0;
    objects.forEach((o, i) => {
      // Our detection is the oracle's, on the text Flux would see.
      assert.equal(firstSubstitutedString(o.object) !== undefined, changed[i], o.path);
      if (changed[i]) withDollar++;
      if (o.object.kind === 'MachineDeployment') return; // the user's, as they are (none holds `$` here)
      assert.equal(
        o.object.metadata.annotations?.[FLUX_SUBSTITUTE_KEY],
        'disabled',
        `${o.path} opts out of Flux's substitution`,
      );
    });
    assert.ok(withDollar > 1000, `${withDollar} files hold \${ or $$`);
    assert.equal(
      objects.find((o) => o.object.kind === 'OperatingSystemProfile')?.path,
      'inputs/kube-system/operatingsystemprofile_example-ubuntu.yaml',
    );
  },
);

/** The example OSP with a shell variable in its setup script (the example's own scripts use none). */
function withShellVariable(osp: string): string {
  const out = osp.replace(
    "set -euo pipefail\n              echo 'kubelet",
    'set -euo pipefail\n              : "${HOME:?}"\n              echo \'kubelet',
  );
  assert.notEqual(out, osp);
  return out;
}

test(
  'the function with syncAnnotations [flux], on the bench input: every generated object opts out, so none holding ${ or $$ reaches Flux',
  { timeout: 300_000 },
  () => {
    const list = parse(benchResourceList(1000));
    list.functionConfig.spec.gitops = { syncAnnotations: ['flux'] };
    const out = runOn(list);
    assert.equal(out.exitCode, 0, out.stderr);
    const generated = out.items.filter(
      (o: any) =>
        String(o.metadata?.annotations?.['config.kubernetes.io/path'] ?? '').startsWith('osm-generated/') &&
        o.metadata.name !== 'osm-krm-state',
    );
    assert.ok(generated.length >= 5000);
    let holding = 0;
    for (const o of generated) {
      assert.ok(fluxSkipsSubstitution(o), `${o.kind} ${o.metadata.name}`);
      if (firstSubstitutedString(o) !== undefined) holding++;
    }
    assert.ok(holding >= 1000, `${holding} generated objects hold \${ or $$`);
  },
);

test('examples/flux: its Kustomization has postBuild substitution, and Flux would apply what hydrate writes unchanged', () => {
  const docs = parseAllDocuments(readFileSync(join(EXAMPLES, 'flux', 'flux-system', 'osm-workers.yaml'), 'utf8')).map(
    (d) => d.toJS(),
  );
  const ks = docs.find((d) => d.kind === 'Kustomization');
  assert.ok(
    ks.spec.postBuild.substitute && Object.keys(ks.spec.postBuild.substitute).length > 0,
    'postBuild.substitute',
  );
  assert.equal(ks.spec.path, './examples/flux/deploy');
  // What kustomize-controller builds: kustomize over the path, then substitution per object unless opted out.
  const rewritten = (dir: string) => {
    const built = runOk('kubectl', ['kustomize', dir])
      .stdout.split(/^---$/m)
      .map((t) => ({ text: t, object: parse(t) }));
    const changed = fluxWouldChange(built.map((b) => b.text));
    return {
      total: changed.filter(Boolean).length,
      rewritten: built
        .filter((b, i) => changed[i] && !fluxSkipsSubstitution(b.object))
        .map((b) => `${b.object.kind} ${b.object.metadata.name}`),
    };
  };
  assert.deepEqual(rewritten(join(EXAMPLES, 'flux', 'deploy')).rewritten, []);
  // The example's own scripts hold no shell variable; with one in its OSP, and a MachineDeployment on the
  // embedded osp-ubuntu (emitted too), the objects holding them are what Flux must leave alone.
  const src = copyTree(join(EXAMPLES, 'flux', 'source'), join(tempDir(), 'src'));
  writeFileSync(
    join(src, 'operatingsystemprofile.yaml'),
    withShellVariable(readFileSync(join(src, 'operatingsystemprofile.yaml'), 'utf8')),
  );
  const md = join(src, 'machinedeployment-workers-b.yaml');
  writeFileSync(
    md,
    readFileSync(md, 'utf8').replace(
      'k8c.io/operating-system-profile: example-ubuntu',
      'k8c.io/operating-system-profile: osp-ubuntu',
    ),
  );
  const config = join(src, 'osm-config.yaml');
  writeFileSync(config, `${readFileSync(config, 'utf8')}  defaultProfiles:\n    emit: true\n`);
  const out = join(tempDir(), 'deploy');
  runOk(process.execPath, [BUNDLE, 'hydrate', src, out], { env: toolEnv(EXAMPLE_SECRETS) });
  const r = rewritten(out);
  assert.deepEqual(r.rewritten, []);
  assert.ok(r.total >= 6, `${r.total} objects hold \${ or $$: the OSP, the OSCs, the emitted profiles`);
});

const secretsEnv = {
  env: (n: string) => (EXAMPLE_SECRETS as Record<string, string>)[n],
  readFile: () => {
    throw new Error('no files');
  },
};

/** The package's files as the ResourceList kpt gives the function (its config as functionConfig). */
function packageList(pkg: string): unknown {
  const docs = readdirSync(pkg)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) => parseAllDocuments(readFileSync(join(pkg, f), 'utf8')).map((d) => d.toJS()));
  const config = docs.find((d) => d.kind === 'OperatingSystemManager');
  return {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: docs.filter((d) => d !== config),
    functionConfig: config,
  };
}

/** The example kpt package (Flux applies such a package as it is) with the config's syncAnnotations: [flux]. */
function fluxPackage(): string {
  const pkg = copyTree(join(EXAMPLES, 'kpt'), join(tempDir(), 'pkg'));
  const config = join(pkg, 'osm-config.yaml');
  const doc = parse(readFileSync(config, 'utf8'));
  doc.spec.gitops = { syncAnnotations: ['flux'] };
  writeFileSync(config, stringify(doc));
  return pkg;
}

test("the function warns about the user's OSP and MachineDeployment Flux would rewrite, naming the fix; not once they opt out", () => {
  const pkg = fluxPackage();
  const osp = join(pkg, 'operatingsystemprofile.yaml');
  writeFileSync(osp, withShellVariable(readFileSync(osp, 'utf8')));
  const md = join(pkg, 'machinedeployment-workers-a.yaml');
  const mdText = readFileSync(md, 'utf8');
  writeFileSync(
    md,
    mdText.replace(
      'k8c.io/operating-system-profile: example-ubuntu',
      'k8c.io/operating-system-profile: example-ubuntu\n    team: ${TEAM}',
    ),
  );
  const r = runOn(packageList(pkg), secretsEnv);
  assert.equal(r.exitCode, 0, r.stderr);
  const flux = r.results.filter((x: any) => /post-build substitution/.test(x.message));
  assert.deepEqual(flux.map((x: any) => [x.severity, x.resourceRef.kind, x.resourceRef.name]).sort(), [
    ['warning', 'MachineDeployment', 'workers-a'],
    ['warning', 'OperatingSystemProfile', 'example-ubuntu'],
  ]);
  for (const x of flux) assert.match(x.message, /kustomize\.toolkit\.fluxcd\.io\/substitute: disabled/);
  assert.match(
    flux.find((x: any) => x.resourceRef.kind === 'MachineDeployment').field.path,
    /^metadata\.annotations\.team$/,
  );
  // Opted out (annotation), or `${` only where a render does not look (replicas): no warning.
  writeFileSync(
    osp,
    readFileSync(osp, 'utf8').replace(
      /^metadata:\n/m,
      `metadata:\n  annotations:\n    ${FLUX_SUBSTITUTE_KEY}: disabled\n`,
    ),
  );
  writeFileSync(md, mdText.replace(/^  replicas: .*$/m, '  replicas: ${REPLICAS}'));
  const quiet = runOn(packageList(pkg), secretsEnv);
  assert.equal(quiet.exitCode, 0, quiet.stderr);
  assert.doesNotMatch(quiet.stdout, /post-build substitution/);
});

test("hydrate warns about a MachineDeployment Flux would rewrite (its copy is the user's), not about the OSP (its copy opts out)", () => {
  const src = copyTree(join(EXAMPLES, 'flux', 'source'), join(tempDir(), 'src'));
  const md = join(src, 'machinedeployment-workers-b.yaml');
  writeFileSync(
    md,
    readFileSync(md, 'utf8').replace(
      'k8c.io/operating-system-profile: example-ubuntu',
      'k8c.io/operating-system-profile: example-ubuntu\n    owner: $${OWNER}',
    ),
  );
  // Without syncAnnotations [flux] too: hydrate's output is for Flux either way.
  const config = join(src, 'osm-config.yaml');
  writeFileSync(
    config,
    readFileSync(config, 'utf8').replace(/\n  gitops:\n    #.*\n    syncAnnotations:\n      - flux\n/, '\n'),
  );
  const r = run(process.execPath, [BUNDLE, 'hydrate', src, join(tempDir(), 'out')], { env: toolEnv(EXAMPLE_SECRETS) });
  assert.equal(r.status, 0, r.stderr);
  const warnings = r.stderr.split('\n').filter((l) => l.includes('post-build substitution'));
  assert.equal(warnings.length, 1, r.stderr);
  assert.match(warnings[0]!, /MachineDeployment kube-system\/workers-b: .*metadata\.annotations\.owner/);
});

test('fluxWouldSubstitute: label or annotation `disabled` (exactly) opts out, as kustomize_varsub.go checks', () => {
  const o = (meta: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'x', ...meta },
    data: { s: 'echo ${HOME}' },
  });
  assert.equal(fluxWouldSubstitute(o({})), true);
  assert.equal(fluxWouldSubstitute(o({ annotations: { [FLUX_SUBSTITUTE_KEY]: 'disabled' } })), false);
  assert.equal(fluxWouldSubstitute(o({ labels: { [FLUX_SUBSTITUTE_KEY]: 'disabled' } })), false);
  assert.equal(fluxWouldSubstitute(o({ annotations: { [FLUX_SUBSTITUTE_KEY]: 'Disabled' } })), true);
  assert.equal(fluxWouldSubstitute(o({ annotations: { [FLUX_SUBSTITUTE_KEY]: 'false' } })), true);
});
