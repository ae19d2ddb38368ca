// The example pull-request job runs as written: its osm-krm command lines, taken from the workflow file, run
// against a repository laid out as the job expects (profiles/, clusters/prod/ and a base branch).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
    .map((c) => c.replaceAll('${{ github.base_ref }}', 'main').replaceAll('origin/main', 'main').split(/\s+/).map((w) => w.replace(/^"(.*)"$/, '$1')));
}

/** Makes `repo` a git repository whose branch main holds its files. */
function commitBase(repo: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-qm', 'base');
}

test('the example job lints the profiles and diffs the pull request', { timeout: 300_000 }, () => {
  const commands = osmKrmCommands();
  assert.deepEqual(commands.map((c) => c[0]), ['lint', 'diff']);
  const repo = tempDir();
  const list = parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8')) as any;
  mkdirSync(join(repo, 'profiles'));
  mkdirSync(join(repo, 'clusters/prod'), { recursive: true });
  for (const item of list.items) {
    const dir = item.kind === 'OperatingSystemProfile' ? 'profiles' : 'clusters/prod';
    writeFileSync(join(repo, dir, `${item.kind}-${item.metadata.name}.yaml`), JSON.stringify(item));
    if (item.kind === 'OperatingSystemProfile') writeFileSync(join(repo, 'clusters/prod', `${item.kind}-${item.metadata.name}.yaml`), JSON.stringify(item));
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

test('the diff step\'s stand-in tokens let diff render a config that takes its tokens from the environment', { timeout: 300_000 }, () => {
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
});
