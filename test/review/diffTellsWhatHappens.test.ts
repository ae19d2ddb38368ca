// `diff` as a reviewer reads it (the built bundle): the new version's warnings in its output, what a changed
// immutable Secret does (re-created, or the apply fails), a summary that reads as prose inside the example
// workflow's ```diff comment, names that match nothing, and a pull request that adds or removes PATH.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { EXAMPLE_SECRETS, EXAMPLES, copyExample, osmKrm, tempDir } from '../cli/routeSupport.ts';
import { REPO_ROOT } from '../support/paths.ts';

const kubelet = (dir: string, md: string, version: string) => {
  const file = join(dir, `machinedeployment-${md}.yaml`);
  writeFileSync(file, readFileSync(file, 'utf8').replace(/kubelet: [0-9.]+/, `kubelet: ${version}`));
};

/** The flux example's source without its sync annotations (spec.gitops), as a plain app would be. */
function withoutSyncAnnotations(dir: string): string {
  const file = join(dir, 'osm-config.yaml');
  const text = readFileSync(file, 'utf8');
  const without = text.slice(0, text.indexOf('  gitops:'));
  assert.notEqual(without, text);
  writeFileSync(file, without);
  return dir;
}

test('the new version\'s warnings are in the output ("nodes may not join"), before the changes', () => {
  const base = copyExample('flux/source');
  const head = copyExample('flux/source');
  kubelet(head, 'workers-a', '1.37.0');
  const r = osmKrm(['diff', base, head], { env: EXAMPLE_SECRETS });
  assert.equal(r.code, 1, r.stderr);
  assert.match(
    r.stdout,
    /^# Warnings\n\* MachineDeployment kube-system\/workers-a \(machinedeployment-workers-a\.yaml\): kubelet v1\.37\.0 is outside the supported range: .*; the config is rendered, but nodes may not join\n\n# MachineDeployment kube-system\/workers-a\n/,
  );
  // A warning alone is no node change, but it is said.
  const same = osmKrm(['diff', head, head], { env: EXAMPLE_SECRETS });
  assert.equal(same.code, 0);
  assert.match(same.stdout, /^# Warnings\n\* .*nodes may not join\n\nosm-krm diff: no node changes\n$/);
});

test('a changed immutable Secret: re-created where the sync annotations say so, else the apply fails', () => {
  const base = copyExample('flux/source');
  const head = copyExample('flux/source');
  kubelet(head, 'workers-a', '1.35.0');
  const flux = osmKrm(['diff', base, head], { env: EXAMPLE_SECRETS });
  assert.equal(flux.code, 1, flux.stderr);
  assert.match(
    flux.stdout,
    /^\* the provisioning Secret changes: it is immutable, so Flux deletes and re-creates it \(its sync annotation\)$/m,
  );
  const plainBase = withoutSyncAnnotations(copyExample('flux/source'));
  const plainHead = withoutSyncAnnotations(copyExample('flux/source'));
  kubelet(plainHead, 'workers-a', '1.35.0');
  const plain = osmKrm(['diff', plainBase, plainHead], { env: EXAMPLE_SECRETS });
  assert.equal(plain.code, 1, plain.stderr);
  assert.match(
    plain.stdout,
    /^\* the provisioning Secret changes: it is immutable and has no sync annotation, so applying it fails \("field is immutable"\) until it is deleted by hand; set spec\.gitops\.syncAnnotations \(argocd, flux\) to have it re-created$/m,
  );
});

/** The lines of a posted ```diff block that a diff highlighter shows as removed or added outside a hunk. */
function summaryLinesReadAsChanges(block: readonly string[]): string[] {
  const bad: string[] = [];
  for (let i = 0; i < block.length; i++) {
    const line = block[i]!;
    if (line.startsWith('--- ') && block[i + 1]?.startsWith('+++ ')) {
      i++;
      continue;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (hunk !== null) {
      let [oldLeft, newLeft] = [Number(hunk[1] ?? 1), Number(hunk[2] ?? 1)];
      while ((oldLeft > 0 || newLeft > 0) && i + 1 < block.length) {
        const l = block[++i]!;
        if (l.startsWith('\\')) continue;
        if (l.startsWith('-')) oldLeft--;
        else if (l.startsWith('+')) newLeft--;
        else {
          oldLeft--;
          newLeft--;
        }
      }
      continue;
    }
    // Highlighters colour `-`, `+`, `!`, `<`, `>` and `@@` lines (GitHub's, highlight.js, Prism).
    if (/^[-+!<>]|^@@/.test(line)) bad.push(line);
  }
  return bad;
}

test("in the example workflow's ```diff comment, no summary or warning line reads as a removed or added line", () => {
  const workflow = parse(readFileSync(join(REPO_ROOT, 'examples/github-actions/osm-krm-review.yaml'), 'utf8')) as any;
  const post = workflow.jobs.review.steps.find((s: any) => /gh pr comment/.test(s.run ?? ''));
  const diffStep = workflow.jobs.review.steps.find((s: any) => s.id === 'diff');
  assert.match(post.if, /changed == '1'/);
  assert.match(post.if, /warnings == 'true'/, 'warnings alone are posted too');
  assert.match(diffStep.run, /grep -q '\^# Warnings\$'/);
  const base = copyExample('flux/source');
  const head = copyExample('flux/source');
  kubelet(head, 'workers-a', '1.37.0');
  writeFileSync(
    join(head, 'machinedeployment-workers-c.yaml'),
    readFileSync(join(head, 'machinedeployment-workers-b.yaml'), 'utf8').replaceAll('workers-b', 'workers-c'),
  );
  const r = osmKrm(['diff', base, head], { env: EXAMPLE_SECRETS });
  assert.equal(r.code, 1, r.stderr);
  const temp = tempDir();
  mkdirSync(join(temp, 'bin'));
  writeFileSync(join(temp, 'bin/gh'), '#!/bin/sh\ncp "$5" "$RUNNER_TEMP/posted.md"\n');
  chmodSync(join(temp, 'bin/gh'), 0o755);
  writeFileSync(join(temp, 'node-diff.txt'), r.stdout);
  execFileSync('bash', ['-e', '-c', post.run], {
    env: { PATH: `${join(temp, 'bin')}:${process.env.PATH}`, RUNNER_TEMP: temp, PR_NUMBER: '7', GH_TOKEN: 'x' },
  });
  const lines = readFileSync(join(temp, 'posted.md'), 'utf8').trimEnd().split('\n');
  assert.match(lines[1]!, /^`{3,}diff$/);
  const block = lines.slice(2, -1);
  assert.ok(
    block.some((l) => l.startsWith('* ')),
    'there are summary lines',
  );
  assert.ok(block.some((l) => /^-.*kubelet/.test(l)) && block.some((l) => /^\+.*kubelet/.test(l)), 'and diff lines');
  assert.deepEqual(summaryLinesReadAsChanges(block), []);
});

test('--md that matches no MachineDeployment is an error (diff exit 2, render exit 1), with the closest names', () => {
  const dir = copyExample('flux/source');
  const diff = osmKrm(['diff', dir, dir, '--md', 'workers-x'], { env: EXAMPLE_SECRETS });
  assert.equal(diff.code, 2, diff.stdout);
  assert.equal(diff.stdout, '');
  assert.match(
    diff.stderr,
    /^osm-krm diff: --md "workers-x" matches no MachineDeployment on either side; did you mean "workers-a" or "workers-b"\?$/m,
  );
  const render = osmKrm(['render', dir, '--md', 'kube-system/workers-x'], { env: EXAMPLE_SECRETS });
  assert.equal(render.code, 1);
  assert.match(
    render.stderr,
    /^osm-krm render: no MachineDeployment named "kube-system\/workers-x"; did you mean "kube-system\/workers-a" or "kube-system\/workers-b"\?$/m,
  );
  // A name on one side only is the MachineDeployment added or removed: shown, not an error.
  const head = copyExample('flux/source');
  rmSync(join(head, 'machinedeployment-workers-b.yaml'));
  const removed = osmKrm(['diff', dir, head, '--md', 'workers-b'], { env: EXAMPLE_SECRETS });
  assert.equal(removed.code, 1);
  assert.match(removed.stdout, /^# MachineDeployment kube-system\/workers-b\n\* no longer rendered/m);
});

test('diff --git REV PATH when the pull request adds PATH, removes it, or neither side has it', () => {
  const repo = tempDir();
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
  git('init', '-q', '-b', 'main');
  mkdirSync(join(repo, 'clusters'));
  cpSync(join(EXAMPLES, 'flux/source'), join(repo, 'clusters/prod'), { recursive: true });
  git('add', '.');
  git('commit', '-qm', 'prod');
  // The pull request adds clusters/staging.
  cpSync(join(EXAMPLES, 'flux/source'), join(repo, 'clusters/staging'), { recursive: true });
  const added = osmKrm(['diff', '--git', 'main', 'clusters/staging'], { cwd: repo, env: EXAMPLE_SECRETS });
  assert.equal(added.code, 1, added.stderr);
  assert.match(
    added.stdout,
    /^# clusters\/staging does not exist at main: everything in it is added\n\n# MachineDeployment kube-system\/workers-a\n\* new: rendered with example-ubuntu /,
  );
  // The pull request removes clusters/prod (and with it clusters/, the parent).
  rmSync(join(repo, 'clusters'), { recursive: true });
  const removed = osmKrm(['diff', '--git', 'main', 'clusters/prod'], { cwd: repo, env: EXAMPLE_SECRETS });
  assert.equal(removed.code, 1, removed.stderr);
  assert.match(
    removed.stdout,
    /^# clusters\/prod does not exist in the working tree: everything it held at main is removed\n\n# MachineDeployment kube-system\/workers-a\n\* no longer rendered/,
  );
  assert.match(removed.stdout, /^# MachineDeployment kube-system\/workers-b\n/m);
  const neither = osmKrm(['diff', '--git', 'main', 'clusters/nowhere'], { cwd: repo, env: EXAMPLE_SECRETS });
  assert.equal(neither.code, 2);
  assert.equal(neither.stdout, '');
  assert.match(
    neither.stderr,
    /^osm-krm diff: --git: clusters\/nowhere exists neither at main nor in the working tree$/m,
  );
});
