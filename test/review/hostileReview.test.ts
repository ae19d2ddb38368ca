// render, diff and lint run in CI on a pull request's bytes: hostile-input cases for the review tools (secrets
// in what they print, text that a terminal or the CI log would interpret, what `diff --git` unpacks).
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, stringify } from 'yaml';
import { runDiffCommand } from '../../src/cli/diffCommand.ts';
import { runLintCommand } from '../../src/cli/lintCommand.ts';
import { runRenderCommand } from '../../src/cli/renderCommand.ts';
import { runFunction } from '../../src/cli/runFunction.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { runCommand, tempDir } from './reviewSupport.ts';

const EXAMPLE_TEXT = readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8');

function exampleList(): any {
  return parse(EXAMPLE_TEXT);
}

function writeList(dir: string, name: string, list: unknown): string {
  writeFileSync(join(dir, name), stringify(list));
  return name;
}

const PASSWORD = 'Sup3rS3cret"pw\\x';

function withRegistryCredentials(list: any): any {
  list.functionConfig.spec.nodeRegistryCredentialsSecret = 'kube-system/registry-credentials';
  list.items.push({
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name: 'registry-credentials',
      namespace: 'kube-system',
      annotations: { 'config.kubernetes.io/local-config': 'true' },
    },
    stringData: { 'registry.example:5000': JSON.stringify({ username: 'puller', password: PASSWORD }) },
  });
  return list;
}

test("a registry password inside the credentials Secret's JSON is masked in render and diff (as containerd's TOML quotes it)", () => {
  const dir = tempDir();
  const file = writeList(dir, 'creds.yaml', withRegistryCredentials(exampleList()));
  const leaks = (s: string) => s.includes('Sup3rS3cret');
  const masked = runCommand(runRenderCommand, [file], dir);
  assert.equal(masked.code, 0, masked.stderr);
  assert.ok(!leaks(masked.stdout + masked.stderr), 'render prints the registry password');
  assert.match(masked.stdout, /^ {2}\| +password = "<masked>"$/m);
  const shown = runCommand(runRenderCommand, [file, '--show-secrets'], dir);
  assert.ok(shown.stdout.includes('password = "Sup3rS3cret\\"pw\\\\x"'), '--show-secrets shows it');
  writeList(dir, 'plain.yaml', exampleList());
  const diff = runCommand(runDiffCommand, [file, 'plain.yaml'], dir);
  assert.equal(diff.code, 1, diff.stderr);
  assert.ok(!leaks(diff.stdout + diff.stderr), 'diff prints the registry password');
  assert.match(diff.stdout, /^-password = "<masked>"$/m);
});

// Lines a pull request can put into an OSP's file: workflow commands, terminal escapes, bidi overrides, other
// line breaks, a fake diff header, and text that looks like our own escape.
const HOSTILE_LINES = [
  '::add-mask::visible-text',
  '  ::error file=x::all good',
  '##[error]fake annotation',
  'say \u001b[2J\u001b]8;;http://evil/\u0007link\u001b]8;;\u0007',
  'ab\u202ecd',
  'cr\rover',
  'nel\u0085ls\u2028ps\u2029',
  '++ b/provisioning/etc/harmless',
  '-- a/provisioning/etc/harmless',
  'literal \\u{1b} and \\n',
];

function withHostileFile(list: any, name = 'example-ubuntu'): any {
  const osp = list.items.find((i: any) => i.kind === 'OperatingSystemProfile' && i.metadata.name === name);
  osp.spec.version = 'v0.2.0';
  osp.spec.provisioningConfig.files.push({
    path: '/etc/hostile.txt',
    permissions: 644,
    content: { inline: { data: HOSTILE_LINES.join('\n') + '\n' } },
  });
  return list;
}

/** Reads `\u{HEX}` escapes back (untrustedText.ts). */
const unescape = (s: string) =>
  s.replace(/\\u\{([0-9a-f]+)\}/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)));

function assertInert(output: string) {
  for (const line of output.split('\n')) {
    assert.doesNotMatch(line, /^\s*::/, `a workflow command: ${JSON.stringify(line)}`);
    assert.ok(!line.includes('##['), `a legacy workflow command: ${JSON.stringify(line)}`);
    assert.doesNotMatch(
      line,
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u,
      `a control character: ${JSON.stringify(line)}`,
    );
  }
}

test('render prints input text escaped: no workflow command, control character or bidi override reaches the output, and it reads back', () => {
  const dir = tempDir();
  const file = writeList(dir, 'hostile.yaml', withHostileFile(exampleList()));
  const r = runCommand(runRenderCommand, [file, '--md', 'ubuntu-workers'], dir);
  assert.equal(r.code, 0, r.stderr);
  assertInert(r.stdout);
  const shown = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('  | '))
    .map((l) => l.slice(4));
  const at = shown.indexOf('\\u{3a}:add-mask::visible-text');
  assert.ok(at >= 0, r.stdout);
  assert.deepEqual(shown.slice(at, at + HOSTILE_LINES.length).map(unescape), HOSTILE_LINES);
});

test('diff prints input text escaped: no workflow command or control character, and no content line passes for a diff header', () => {
  const dir = tempDir();
  writeList(dir, 'base.yaml', exampleList());
  const head = writeList(dir, 'head.yaml', withHostileFile(exampleList()));
  const r = runCommand(runDiffCommand, ['base.yaml', head], dir);
  assert.equal(r.code, 1, r.stderr);
  assertInert(r.stdout);
  assert.deepEqual(
    r.stdout.split('\n').filter((l) => /^(\+\+\+|---) /.test(l)),
    ['--- /dev/null', '+++ b/provisioning/etc/hostile.txt'],
  );
  const added = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('+') && !l.startsWith('+++ '))
    .map((l) => unescape(l.slice(1)));
  assert.deepEqual(added.slice(1), HOSTILE_LINES, 'the added lines read back exactly');
});

test("function errors quoting input text (a template's fail) are printed on one escaped line", () => {
  const dir = tempDir();
  const list = exampleList();
  const osp = list.items.find((i: any) => i.metadata.name === 'example-ubuntu');
  osp.spec.provisioningConfig.files[0].content.inline.data = '{{ fail "no\\n::add-mask::x\\n\\u001b[31mred" }}';
  const file = writeList(dir, 'fail.yaml', list);
  const r = runCommand(runRenderCommand, [file], dir);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /error calling fail: no\\u\{a\}::add-mask::x\\u\{a\}\\u\{1b\}\[31mred/);
  assertInert(r.stderr);
});

test("the KRM function's error lines on stderr (what kustomize, kpt and Argo CD logs show) are escaped the same way", () => {
  const list = exampleList();
  const osp = list.items.find((i: any) => i.metadata.name === 'example-ubuntu');
  osp.spec.provisioningConfig.files[0].content.inline.data = '{{ fail "no\\n::add-mask::x\\n\\u001b[31mred" }}';
  let stderr = '';
  const code = runFunction(stringify(list), {
    stdout: () => {},
    stderr: (s) => (stderr += s),
    env: {
      env: () => undefined,
      readFile: () => {
        throw new Error('no files');
      },
    },
  });
  assert.equal(code, 1);
  assert.match(stderr, /error calling fail: no\\u\{a\}::add-mask::x\\u\{a\}\\u\{1b\}\[31mred/);
  assertInert(stderr);
});

test('lint prints file names and messages escaped, in text and in GitHub annotations', { timeout: 300_000 }, () => {
  const osp = exampleList().items.find((i: any) => i.metadata?.name === 'example-ubuntu');
  osp.spec.provisioningConfig.files.push({
    path: '/opt/bin/fetch',
    permissions: 755,
    content: { inline: { data: '#!/bin/bash\ncurl -k https://example.com/x -o /tmp/x\n' } },
  });
  const dir = tempDir();
  const name = 'osp\n::add-mask::x\u001b[2J.yaml';
  writeFileSync(join(dir, name), stringify(osp));
  for (const format of ['text', 'github']) {
    const r = runCommand(runLintCommand, ['.', '--format', format], dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /curl-insecure/);
    if (format === 'text') assertInert(r.stdout);
    else {
      // Only our own annotations, one a line, nothing a terminal would interpret; then our summary line.
      const lines = r.stdout.trimEnd().split('\n');
      assert.match(lines.pop()!, /^osm-krm lint: \d+ profile\(s\), /);
      for (const line of lines)
        assert.match(line, /^::(error|warning|notice) (file|title)=[^\u0000-\u001f\u007f-\u009f]*$/u);
    }
  }
});

test('lint refuses a file that is not UTF-8, naming it, instead of reading it as U+FFFD', () => {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'bad.yaml'),
    Buffer.concat([
      Buffer.from('kind: OperatingSystemProfile\nmetadata: {name: x}\nspec: {osName: "'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}\n'),
    ]),
  );
  const r = runCommand(runLintCommand, ['.'], dir);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^osm-krm lint: bad\.yaml is not valid UTF-8: byte 0xff at line 3/m);
});

test("diff --git: PATH that is a symbolic link out of REV's tree is refused, not read", () => {
  const outside = tempDir();
  writeFileSync(join(outside, 'outside.yaml'), 'a: [\n'); // reading it would be a parse error naming it
  const repo = tempDir();
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
  git('init', '-q');
  mkdirSync(join(repo, 'clusters'));
  symlinkSync(outside, join(repo, 'clusters/prod'));
  git('add', '.');
  git('commit', '-qm', 'the base: a link');
  rmSync(join(repo, 'clusters/prod'));
  mkdirSync(join(repo, 'clusters/prod'));
  writeFileSync(join(repo, 'clusters/prod/rl.yaml'), EXAMPLE_TEXT);
  const r = runCommand(runDiffCommand, ['--git', 'HEAD', 'clusters/prod'], repo);
  assert.equal(r.code, 2, r.stdout);
  assert.match(r.stderr, /symbolic link HEAD:\/clusters\/prod -> \S+ leads outside HEAD:/);
  assert.doesNotMatch(r.stderr, /outside\.yaml/);
});

test(
  "diff --git removes REV's tree when the run is stopped by SIGTERM (as a cancelled CI job is)",
  { timeout: 120_000 },
  async () => {
    const repo = tempDir();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
    git('init', '-q');
    writeFileSync(join(repo, 'rl.yaml'), EXAMPLE_TEXT);
    git('add', '.');
    git('commit', '-qm', 'base');
    // tar that says when it has unpacked, then lingers: the signal arrives while the tree exists.
    const bin = tempDir();
    const tmp = tempDir();
    const unpacked = join(bin, 'unpacked');
    writeFileSync(
      join(bin, 'tar'),
      `#!/bin/sh\n/usr/bin/env -u PATH PATH=/usr/bin:/bin tar "$@" && touch ${unpacked} && sleep 2\n`,
    );
    chmodSync(join(bin, 'tar'), 0o755);
    const child = spawn(process.execPath, [join(REPO_ROOT, 'dist/osm-krm.cjs'), 'diff', '--git', 'HEAD', 'rl.yaml'], {
      cwd: repo,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, TMPDIR: tmp, NODE_OPTIONS: '' },
      stdio: 'ignore',
    });
    let running = true;
    const exited = new Promise<void>((done) => child.on('exit', () => done((running = false) as unknown as void)));
    while (!existsSync(unpacked) && running) await new Promise((r) => setTimeout(r, 20));
    assert.ok(running, 'diff ended before tar unpacked');
    assert.equal(readdirSync(tmp).filter((n) => n.startsWith('osm-krm-diff-')).length, 1, 'the tree is there');
    child.kill('SIGTERM');
    await exited;
    assert.deepEqual(
      readdirSync(tmp).filter((n) => n.startsWith('osm-krm-diff-')),
      [],
    );
  },
);

test(
  'lint runs no code from the working directory (Python with -c imports from it first)',
  { timeout: 300_000 },
  () => {
    const dir = tempDir();
    const marker = join(dir, 'ran');
    for (const module of ['contextlib', 'json', 'io'])
      writeFileSync(join(dir, `${module}.py`), `open(${JSON.stringify(marker)}, "w").write("${module}")\n`);
    writeFileSync(
      join(dir, 'osp.yaml'),
      stringify(exampleList().items.find((i: any) => i.metadata?.name === 'example-ubuntu')),
    );
    const before = process.cwd();
    process.chdir(dir);
    try {
      const r = runCommand(runLintCommand, ['osp.yaml', '--format', 'json'], dir);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.deepEqual(JSON.parse(r.stdout).skipped, [], "cloud-init's schema check ran");
    } finally {
      process.chdir(before);
    }
    assert.equal(existsSync(marker) ? readFileSync(marker, 'utf8') : 'nothing ran', 'nothing ran');
  },
);

test('diff --git: a bare repository planted in the checkout cannot choose the base', () => {
  const repo = tempDir();
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: repo,
      encoding: 'utf8',
    }).trim();
  git('init', '-q');
  mkdirSync(join(repo, 'clusters/prod'), { recursive: true });
  writeFileSync(join(repo, 'clusters/prod/rl.yaml'), EXAMPLE_TEXT);
  git('add', '.');
  git('commit', '-qm', 'base');
  git('update-ref', 'refs/remotes/origin/main', 'HEAD');
  writeFileSync(join(repo, 'clusters/prod/rl.yaml'), EXAMPLE_TEXT.replace(/kubelet: 1\.34\.2/g, 'kubelet: 1.35.0'));
  git('commit', '-qam', 'the pull request');
  // The pull request's files beside its manifests: a bare repository whose origin/main is the pull request.
  const planted = join(repo, 'clusters/prod');
  mkdirSync(join(planted, 'objects/info'), { recursive: true });
  mkdirSync(join(planted, 'refs/remotes/origin'), { recursive: true });
  writeFileSync(join(planted, 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(
    join(planted, 'config'),
    `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ${repo}\n`,
  );
  writeFileSync(join(planted, 'objects/info/alternates'), `${join(repo, '.git/objects')}\n`);
  writeFileSync(join(planted, 'refs/remotes/origin/main'), `${git('rev-parse', 'HEAD')}\n`);
  const r = runCommand(runDiffCommand, ['--git', 'origin/main', 'clusters/prod/rl.yaml'], repo);
  assert.doesNotMatch(r.stdout, /no node changes/);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /--git: clusters\/prod\/rl\.yaml is not inside a git repository \(.*bare repository/);
});
