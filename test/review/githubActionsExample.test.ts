// The example pull-request job runs as written: its osm-krm command lines, taken from the workflow file, run
// against a repository laid out as the job expects (profiles/, clusters/prod/ and a base branch).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { runDiffCommand } from '../../src/cli/diffCommand.ts';
import { runLintCommand } from '../../src/cli/lintCommand.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { runCommand, tempDir } from './reviewSupport.ts';

const workflow = parse(readFileSync(join(REPO_ROOT, 'examples/github-actions/osm-krm-review.yaml'), 'utf8')) as any;

/** Every `node "$OSM_KRM" ...` line of the job, as argument lists (the job's expressions filled in). */
function osmKrmCommands(): string[][] {
  const runs: string[] = workflow.jobs.review.steps.map((s: any) => s.run ?? '');
  return runs
    .flatMap((r) => r.split('\n'))
    .map((l) => /node "\$OSM_KRM" (.*?)(?:\s*>.*)?$/.exec(l.trim())?.[1])
    .filter((c): c is string => c !== undefined)
    .map((c) =>
      c
        .replaceAll('${{ github.base_ref }}', 'main')
        .replaceAll('$BASE_REF', 'main')
        .replaceAll('origin/main', 'main')
        .split(/\s+/)
        .map((w) => w.replace(/^"(.*)"$/, '$1')),
    );
}

/** Makes `repo` a git repository whose branch main holds its files. */
function commitBase(repo: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-qm', 'base');
}

test('the example job lints the profiles and diffs the pull request', { timeout: 300_000 }, () => {
  const commands = osmKrmCommands();
  assert.deepEqual(
    commands.map((c) => c[0]),
    ['lint', 'diff'],
  );
  const repo = tempDir();
  const list = parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8')) as any;
  mkdirSync(join(repo, 'profiles'));
  mkdirSync(join(repo, 'clusters/prod'), { recursive: true });
  for (const item of list.items) {
    const dir = item.kind === 'OperatingSystemProfile' ? 'profiles' : 'clusters/prod';
    writeFileSync(join(repo, dir, `${item.kind}-${item.metadata.name}.yaml`), JSON.stringify(item));
    if (item.kind === 'OperatingSystemProfile')
      writeFileSync(join(repo, 'clusters/prod', `${item.kind}-${item.metadata.name}.yaml`), JSON.stringify(item));
  }
  writeFileSync(join(repo, 'clusters/prod/osm.yaml'), JSON.stringify(list.functionConfig));
  commitBase(repo);
  const md = join(repo, 'clusters/prod/MachineDeployment-ubuntu-workers.yaml');
  writeFileSync(md, readFileSync(md, 'utf8').replace('"kubelet":"1.34.2"', '"kubelet":"1.35.0"'));

  const lint = runCommand(runLintCommand, commands[0]!.slice(1), repo);
  assert.equal(lint.code, 0, lint.stdout + lint.stderr);
  const diff = runCommand(runDiffCommand, commands[1]!.slice(1), repo);
  assert.equal(diff.code, 1, diff.stderr);
  assert.match(diff.stdout, /^\+# kubelet v1\.35\.0/m);
});

test(
  "the diff step's stand-in tokens let diff render a config that takes its tokens from the environment",
  { timeout: 300_000 },
  () => {
    const step = workflow.jobs.review.steps.find((s: any) => s.id === 'diff');
    const repo = tempDir();
    mkdirSync(join(repo, 'clusters'));
    execFileSync('cp', ['-r', join(REPO_ROOT, 'examples/flux/source'), join(repo, 'clusters/prod')]);
    commitBase(repo);
    const md = join(repo, 'clusters/prod/machinedeployment-workers-a.yaml');
    writeFileSync(md, readFileSync(md, 'utf8').replace('kubelet: 1.34.2', 'kubelet: 1.35.0'));
    const args = osmKrmCommands()[1]!.slice(1);
    assert.equal(runCommand(runDiffCommand, args, repo).code, 2, 'without the env, a side does not render');
    const diff = runCommand(runDiffCommand, args, repo, { PATH: process.env.PATH, ...step.env });
    assert.equal(diff.code, 1, diff.stderr);
    assert.match(diff.stdout, /^\+echo 'kubelet v1\.35\.0/m);
    assert.ok(!diff.stdout.includes(step.env.OSM_CLOUD_INIT_GETTER_TOKEN));
  },
);

test('no expression is expanded inside a run: script (the shell would run what a branch name holds)', () => {
  for (const step of workflow.jobs.review.steps) assert.doesNotMatch(step.run ?? '', /\$\{\{/, step.name);
});

test('the posted comment fences the diff so that no line of it can close the block', () => {
  const step = workflow.jobs.review.steps.find((s: any) => /gh pr comment/.test(s.run ?? ''));
  const temp = tempDir();
  mkdirSync(join(temp, 'bin'));
  // gh stand-in: keeps the body it would post.
  writeFileSync(join(temp, 'bin/gh'), '#!/bin/sh\ncp "$5" "$RUNNER_TEMP/posted.md"\n');
  chmodSync(join(temp, 'bin/gh'), 0o755);
  const hostile = [
    '--- a/provisioning/etc/x',
    '+++ b/provisioning/etc/x',
    '@@ -1,1 +1,3 @@',
    ' ```',
    '+`````',
    '+<!-- the rest is hidden',
    '',
  ].join('\n');
  writeFileSync(join(temp, 'node-diff.txt'), hostile);
  execFileSync('bash', ['-e', '-c', step.run], {
    env: { PATH: `${join(temp, 'bin')}:${process.env.PATH}`, RUNNER_TEMP: temp, PR_NUMBER: '7', GH_TOKEN: 'x' },
  });
  const lines = readFileSync(join(temp, 'posted.md'), 'utf8').trimEnd().split('\n');
  const fence = /^(`{3,})diff$/.exec(lines[1]!)?.[1];
  assert.ok(fence !== undefined, lines[1]);
  assert.equal(lines.at(-1), fence, 'the block ends with its own fence');
  const body = lines.slice(2, -1);
  assert.equal(body.join('\n'), hostile.trimEnd());
  for (const l of body) assert.ok(!l.trim().startsWith(fence), `${JSON.stringify(l)} closes the block`);
});
