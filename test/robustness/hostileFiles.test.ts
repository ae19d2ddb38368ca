// `hydrate` and `generate` stay inside their directories (issue #17 §2): no symbolic link is followed out of
// SRC, the Argo CD app directory or OUT; no file is deleted or replaced that hydrate did not write, whatever
// the marker says; link loops end in an error; OUT changes all or nothing (render error, a name the file
// system refuses, a full disk, a failing write, a kill mid-swap). Every case checks that nothing outside OUT
// changed, reading the trees without following links.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { runHydrateCommand } from '../../src/cli/hydrateCommand.ts';
import { runArgoCDGenerateCommand } from '../../src/cli/argocdGenerateCommand.ts';
import {
  recoverInterruptedUpdate,
  updateOutputDirectory,
  NODE_FILE_SYSTEM,
  SWAP_DIR,
  type OutputFileSystem,
} from '../../src/cli/outputDirectory.ts';
import { BUNDLE, EXAMPLE_SECRETS, EXAMPLES, copyTree, tempDir, toolEnv } from '../gitops/support.ts';

/** Every entry below `dir` without following links: files by content, links by target, directories by name. */
function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.set(r, `-> ${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.set(r + '/', 'dir');
        walk(p, r);
      } else out.set(r, readFileSync(p, 'latin1'));
    }
  };
  walk(dir, '');
  return out;
}

function hydrate(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = { ...toolEnv(), ...EXAMPLE_SECRETS },
) {
  let stdout = '';
  let stderr = '';
  const code = runHydrateCommand(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env, cwd });
  return { code, stdout, stderr };
}

function generate(dir: string) {
  let stdout = '';
  let stderr = '';
  const code = runArgoCDGenerateCommand([dir], {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: toolEnv(),
    cwd: dir,
  });
  return { code, stdout, stderr };
}

/** A workspace: SRC (the Flux example's source), OUT hydrated once, and a directory `outside` with a victim. */
function workspace() {
  const root = tempDir('osm-krm-hostile-files-');
  const src = copyTree(join(EXAMPLES, 'flux', 'source'), join(root, 'src'));
  const out = join(root, 'out');
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(
    join(outside, 'victim.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: victim\n  namespace: kube-system\ndata:\n  secret: do-not-touch\n',
  );
  const first = hydrate(['src', 'out'], root);
  assert.equal(first.code, 0, first.stderr);
  return { root, src, out, outside };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

test('hydrate never writes or deletes through a link in OUT that leads outside, whatever the marker lists', () => {
  const { root, out, outside } = workspace();
  // OUT/inputs replaced by a link to a directory outside; the marker claims a file there, with its true hash.
  rmSync(join(out, 'inputs'), { recursive: true });
  symlinkSync(outside, join(out, 'inputs'));
  const marker = join(out, '.osm-krm-hydrate');
  writeFileSync(
    marker,
    readFileSync(marker, 'utf8') +
      `${sha256(readFileSync(join(outside, 'victim.yaml'), 'utf8'))}  inputs/victim.yaml\n`,
  );
  const before = tree(root);
  const r = hydrate(['src', 'out'], root);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /symbolic link out\/inputs -> .*outside leads outside out: refusing to follow it/);
  assert.deepEqual(tree(root), before, 'nothing changed, inside OUT or outside');

  // A marker naming paths out of OUT is refused before anything is read.
  rmSync(join(out, 'inputs'));
  for (const evil of [
    '../outside/victim.yaml',
    '/etc/hostname',
    'a/../../outside/victim.yaml',
    `${SWAP_DIR}/journal`,
  ]) {
    writeFileSync(marker, `# forged\n${'0'.repeat(64)}  ${evil}\n`);
    const again = hydrate(['src', 'out'], root);
    assert.equal(again.code, 1, evil);
    assert.match(again.stderr, /unsafe output path/, evil);
  }
  assert.equal(readFileSync(join(outside, 'victim.yaml'), 'utf8').includes('do-not-touch'), true);
});

test('a file listed in the marker but not written by hydrate (hash differs or missing) is neither replaced nor deleted', () => {
  const { root, out } = workspace();
  writeFileSync(join(out, 'NOTES.yaml'), 'mine\n');
  const marker = join(out, '.osm-krm-hydrate');
  // The forger lists NOTES.yaml (no hash, and a wrong one) and a planned file it replaced with its own text.
  writeFileSync(join(out, 'kustomization.yaml'), 'resources: [evil.yaml]\n');
  writeFileSync(marker, readFileSync(marker, 'utf8') + 'NOTES.yaml\n' + `${'1'.repeat(64)}  NOTES.yaml\n`);
  const r = hydrate(['src', 'out'], root);
  assert.equal(r.code, 1);
  // A planned file listed with hydrate's hash whose text changed is one edited after hydrate wrote it.
  assert.match(
    r.stderr,
    /refusing to overwrite 1 file\(s\) in out that were edited after osm-krm hydrate wrote them: kustomization\.yaml/,
  );
  assert.equal(readFileSync(join(out, 'NOTES.yaml'), 'utf8'), 'mine\n');

  // Restored, the run succeeds and leaves the forged entry's file alone (with a warning).
  rmSync(join(out, 'kustomization.yaml'));
  const ok = hydrate(['src', 'out'], root);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(readFileSync(join(out, 'NOTES.yaml'), 'utf8'), 'mine\n');
  assert.match(ok.stderr, /left out\/NOTES\.yaml in place: it changed since hydrate wrote it/);
  assert.doesNotMatch(readFileSync(marker, 'utf8'), /NOTES/);
});

test('SRC and the Argo CD app directory: links that stay inside are read, links out are refused naming the link', () => {
  const { root, src, out, outside } = workspace();
  mkdirSync(join(src, '.shared'));
  writeFileSync(
    join(src, '.shared', 'extra.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: kube-system\ndata:\n  k: v\n',
  );
  symlinkSync(join('.shared', 'extra.yaml'), join(src, 'extra.yaml'));
  const ok = hydrate(['src', 'out'], root);
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(parse(readFileSync(join(out, 'inputs', 'kube-system', 'configmap_extra.yaml'), 'utf8')).data, {
    k: 'v',
  });

  for (const [name, target] of [
    ['victim.yaml', join(outside, 'victim.yaml')],
    ['elsewhere', outside],
    ['up.yaml', '../outside/victim.yaml'],
  ] as const) {
    symlinkSync(target, join(src, name));
    const before = tree(root);
    const r = hydrate(['src', 'out'], root);
    assert.equal(r.code, 1, name);
    assert.match(
      r.stderr,
      new RegExp(`symbolic link .*src/${name.replace('.', '\\.')} -> .* leads outside .*src: refusing to follow it`),
      name,
    );
    assert.deepEqual(tree(root), before, name);
    const g = generate(src);
    assert.equal(g.code, 1, name);
    assert.equal(g.stdout, '');
    assert.match(g.stderr, new RegExp(`symbolic link .*src/${name.replace('.', '\\.')} -> .* leads outside`), name);
    rmSync(join(src, name));
  }
});

test('symbolic link loops in SRC or the app directory end in an error naming the link', () => {
  const { root, src } = workspace();
  const loops: Array<[string, () => void]> = [
    ['to an ancestor', () => symlinkSync('.', join(src, 'again'))],
    ['to itself', () => symlinkSync('self', join(src, 'self'))],
    ['between two links', () => (symlinkSync('b', join(src, 'a')), symlinkSync('a', join(src, 'b')))],
    [
      'deep, back to the top',
      () => (mkdirSync(join(src, 'x', 'y'), { recursive: true }), symlinkSync('../..', join(src, 'x', 'y', 'z'))),
    ],
  ];
  for (const [label, make] of loops) {
    make();
    const before = tree(root);
    for (const r of [hydrate(['src', 'out'], root), generate(src)]) {
      assert.equal(r.code, 1, label);
      assert.match(r.stderr, /symbolic link loop/, label);
    }
    assert.deepEqual(tree(root), before, label);
    for (const name of ['again', 'self', 'a', 'b', 'x']) rmSync(join(src, name), { recursive: true, force: true });
  }
  // Two links to one directory would read it twice: refused as well (and a link tree cannot multiply).
  mkdirSync(join(src, 'shared'));
  symlinkSync('shared', join(src, 'alias1'));
  const twice = hydrate(['src', 'out'], root);
  assert.equal(twice.code, 1);
  assert.match(twice.stderr, /symbolic link to a directory read already: .*src\/shared leads to .*src\/alias1/);
});

test('a file name the file system would refuse: refused before any file is planned, OUT unchanged, naming the object', () => {
  const { root, src } = workspace();
  const before = tree(root);
  const name = 'n'.repeat(250);
  writeFileSync(
    join(src, 'long.yaml'),
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: kube-system\n`,
  );
  const r = hydrate(['src', 'out'], root);
  assert.equal(r.code, 1);
  // Checked before the path is a Map key (V8 hashes a string past 16,383 characters by its length alone: 3,000
  // objects with such kinds took 38 s before the first write failed); the name is cut short in the message.
  assert.match(
    r.stderr,
    /ConfigMap kube-system\/n{60}\.\.\. \(250 characters\) cannot be written: its file's path has a name of 265 bytes, more than the 255 a file name may have/,
  );
  assert.ok(!r.stderr.includes('n'.repeat(61)));
  before.set('src/long.yaml', readFileSync(join(src, 'long.yaml'), 'latin1'));
  assert.deepEqual(tree(root), before);
});

/** Contents for a second run: the first run's files with one changed, one added, one gone. */
function nextFiles(out: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [rel, text] of tree(out)) if (!rel.endsWith('/') && rel !== '.osm-krm-hydrate') files.set(rel, text);
  const names = [...files.keys()].sort();
  files.set(names[0]!, files.get(names[0]!)! + '# changed\n');
  files.delete(names[names.length - 1]!);
  files.set('inputs/new-ns/configmap_new.yaml', 'apiVersion: v1\nkind: ConfigMap\n');
  return files;
}

test('a write or rename that fails half-way leaves OUT byte-identical, naming the file and the reason', () => {
  const { root, out } = workspace();
  const before = tree(root);
  const files = nextFiles(out);
  for (const failing of ['writeFileSync', 'renameSync', 'mkdirSync'] as const) {
    for (let n = 1; ; n++) {
      let calls = 0;
      const fs: OutputFileSystem = {
        ...NODE_FILE_SYSTEM,
        [failing]: (...args: [string, string]) => {
          if (++calls === n) throw Object.assign(new Error('EIO: i/o error, simulated'), { code: 'EIO' });
          (NODE_FILE_SYSTEM[failing] as (...a: [string, string]) => void)(...args);
        },
      };
      let error: Error | undefined;
      try {
        updateOutputDirectory(out, 'out', files, fs);
      } catch (e) {
        error = e as Error;
      }
      if (error === undefined) {
        assert.ok(n > 1, `${failing} was never called`);
        break; // every call of this kind has failed once: done (the last run succeeded; restore for the next kind)
      }
      assert.match(
        error.message,
        /^cannot write out(\/[^:]+)?: EIO: i\/o error; nothing in it was changed$/,
        `${failing} #${n}`,
      );
      assert.deepEqual(tree(root), before, `${failing} #${n}`);
    }
    // Undo the successful run, for the next kind of failure.
    rmSync(out, { recursive: true });
    for (const [rel, text] of before)
      if (rel.startsWith('out/'))
        rel.endsWith('/')
          ? mkdirSync(join(root, rel), { recursive: true })
          : writeFileSync(join(root, rel), text, 'latin1');
    assert.deepEqual(tree(root), before);
  }
});

test('a kill at any point of the swap: the next run first restores OUT exactly', () => {
  const { root, out } = workspace();
  const before = tree(root);
  const files = nextFiles(out);
  class Killed extends Error {}
  let completed: Map<string, string> | undefined;
  for (let n = 1; completed === undefined; n++) {
    let calls = 0;
    const count =
      <A extends unknown[]>(f: (...a: A) => void) =>
      (...a: A) => {
        if (++calls === n) throw new Killed(); // not a file-system error: nothing is cleaned up, as after SIGKILL
        f(...a);
      };
    const fs: OutputFileSystem = {
      writeFileSync: count(NODE_FILE_SYSTEM.writeFileSync),
      renameSync: count(NODE_FILE_SYSTEM.renameSync),
      mkdirSync: count(NODE_FILE_SYSTEM.mkdirSync),
    };
    try {
      updateOutputDirectory(out, 'out', files, fs);
      completed = tree(root);
    } catch (e) {
      if (!(e instanceof Killed)) throw e;
      recoverInterruptedUpdate(out, 'out');
      assert.deepEqual(tree(root), before, `killed at call ${n}`);
    }
  }
  // The uninterrupted run made exactly the planned change.
  assert.equal(completed.get('out/inputs/new-ns/configmap_new.yaml'), 'apiVersion: v1\nkind: ConfigMap\n');
  assert.ok(!existsSync(join(out, SWAP_DIR)));
});

test('a full disk (a small tmpfs): OUT unchanged, the error names the file and ENOSPC', (t) => {
  if (process.getuid?.() !== 0 || spawnSync('unshare', ['--mount', 'true']).status !== 0) {
    t.skip('needs root and unshare to mount a tmpfs (CI runs as root)');
    return;
  }
  const root = tempDir('osm-krm-full-disk-');
  const src = copyTree(join(EXAMPLES, 'flux', 'source'), join(root, 'src'));
  // Inside a private mount namespace: hydrate once into a 512 KiB tmpfs, then add 600 KiB of input and again.
  const script = `set -e
mount -t tmpfs -o size=512k tmpfs "$DISK"
node "$BUNDLE" hydrate "$SRC" "$DISK/out" >/dev/null
(cd "$DISK" && find . -print0 | sort -z | xargs -0 sha256sum 2>/dev/null || true) > "$ROOT/before"
node -e 'process.stdout.write("apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: big\\n  namespace: kube-system\\ndata:\\n  x: " + "y".repeat(600 * 1024) + "\\n")' > "$SRC/big.yaml"
set +e
node "$BUNDLE" hydrate "$SRC" "$DISK/out" 2> "$ROOT/stderr"
echo $? > "$ROOT/status"
(cd "$DISK" && find . -print0 | sort -z | xargs -0 sha256sum 2>/dev/null || true) > "$ROOT/after"
`;
  mkdirSync(join(root, 'disk'));
  const r = spawnSync('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script], {
    env: { ...toolEnv(), ...EXAMPLE_SECRETS, DISK: join(root, 'disk'), SRC: src, ROOT: root, BUNDLE },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(root, 'status'), 'utf8').trim(), '1');
  assert.match(
    readFileSync(join(root, 'stderr'), 'utf8'),
    /cannot write .*disk\/out\/inputs\/kube-system\/configmap_big\.yaml: ENOSPC: no space left on device; nothing in it was changed/,
  );
  assert.ok(readFileSync(join(root, 'before'), 'utf8').includes('kustomization.yaml'));
  assert.equal(readFileSync(join(root, 'after'), 'utf8'), readFileSync(join(root, 'before'), 'utf8'));
});

test('a second hydrate while one is swapping is refused; a swap directory of a dead run is undone', () => {
  const { root, out } = workspace();
  const before = tree(root);
  mkdirSync(join(out, SWAP_DIR));
  writeFileSync(join(out, SWAP_DIR, 'owner'), String(process.ppid)); // a live process that is not us
  const r = hydrate(['src', 'out'], root);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    new RegExp(
      `out is being updated by another osm-krm hydrate \\(pid ${process.ppid}\\); if none is running, remove out/\\.osm-krm-hydrate\\.swap`,
    ),
  );
  writeFileSync(join(out, SWAP_DIR, 'owner'), '999999999'); // no such process
  const ok = hydrate(['src', 'out'], root);
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(tree(root), before);
});

test('a swap journal past its JSON value bound is refused before it is parsed, naming the bound (OUT may be committed)', () => {
  const { root, out } = workspace();
  mkdirSync(join(out, SWAP_DIR));
  writeFileSync(join(out, SWAP_DIR, 'owner'), '999999999'); // no such process
  // 1,600,000 empty objects (3.2 MB): past the bound, and far more objects than their bytes show.
  writeFileSync(join(out, SWAP_DIR, 'journal'), `{"ops":[${'{},'.repeat(1_600_000)}{}],"dirs":[]}`);
  const r = hydrate(['src', 'out'], root);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /out\/\.osm-krm-hydrate\.swap\/journal holds more than 1500000 JSON values: an interrupted run cannot be undone/,
  );
});

test("the config file: inside SRC its links must stay inside; a --config path elsewhere is the user's and is followed", () => {
  const { root, src, outside } = workspace();
  const config = readFileSync(join(src, 'osm-config.yaml'), 'utf8');
  rmSync(join(src, 'osm-config.yaml'));
  writeFileSync(join(outside, 'osm.yaml'), config);
  symlinkSync(join(outside, 'osm.yaml'), join(src, 'osm.yaml'));
  const refused = hydrate(['src', 'out', '--config', 'src/osm.yaml'], root);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /symbolic link .*src\/osm\.yaml -> .*outside\/osm\.yaml leads outside/);
  rmSync(join(src, 'osm.yaml'));
  mkdirSync(join(root, 'configs'));
  symlinkSync(join(outside, 'osm.yaml'), join(root, 'configs', 'osm.yaml'));
  const ok = hydrate(['src', 'out', '--config', 'configs/osm.yaml'], root);
  assert.equal(ok.code, 0, ok.stderr);
});
