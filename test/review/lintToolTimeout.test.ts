// lint's external validators share one wall-time budget (--tool-timeout): a tool still running at its end is
// killed, and a tool that starts and does not finish (out of time, killed, no readable output) is an error
// finding, never an exit 0 that checked nothing. Before, shellcheck ran without limit (over 120 s on a 4 MB
// script) and a shellcheck that died printed nothing, which lint read as "no findings".
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { runLintCommand } from '../../src/cli/lintCommand.ts';
import { TOOL_MEMORY_KIB } from '../../src/lint/externalValidators.ts';
import { SMALL_OSP } from '../robustness/inputCorpus.ts';
import { runCommand, tempDir } from './reviewSupport.ts';

/** A directory with the profile, and a bin directory whose fake `shellcheck` runs `body`. */
function setup(body: string): { dir: string; path: string } {
  const dir = tempDir();
  const osp = structuredClone(SMALL_OSP) as any;
  osp.spec.supportedCloudProviders = [{ name: 'aws' }];
  writeFileSync(join(dir, 'osp.yaml'), stringify(osp, { lineWidth: 0, blockQuote: 'literal' }));
  const bin = join(dir, 'bin');
  const tool = join(bin, 'shellcheck');
  mkdirSync(bin);
  writeFileSync(tool, `#!/bin/sh\n${body}\n`);
  chmodSync(tool, 0o755);
  return { dir, path: `${bin}:${process.env.PATH}` };
}

function lint(body: string, args: string[] = []) {
  const { dir, path } = setup(body);
  const saved = process.env.PATH;
  // The validators are found on the process's PATH, as the entry point gives it.
  process.env.PATH = path;
  try {
    const started = Date.now();
    const json = runCommand(runLintCommand, ['osp.yaml', '--format', 'json', ...args], dir, { PATH: path });
    const text = runCommand(runLintCommand, ['osp.yaml', ...args], dir, { PATH: path });
    return {
      json,
      text,
      report: json.code === 2 ? undefined : JSON.parse(json.stdout),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    process.env.PATH = saved;
  }
}

const toolFindings = (report: any, tool: string) => report.findings.filter((f: any) => f.check === tool);

test('a validator that outlives --tool-timeout is killed, and that it checked nothing fails the run', () => {
  const r = lint('exec sleep 60', ['--tool-timeout', '1']);
  assert.equal(r.json.code, 1, r.json.stdout);
  const [finding, ...more] = toolFindings(r.report, 'shellcheck');
  assert.deepEqual(more, []);
  assert.equal(finding.severity, 'error');
  assert.match(
    finding.message,
    /^shellcheck did not finish within the 1 s lint gives external tools \(--tool-timeout\)/,
  );
  // Killed at the deadline, not waited for: both runs together well under the tool's 60 s.
  assert.ok(r.seconds < 30, `${r.seconds} s`);
  // The tools after it share the spent budget: not started, and said so.
  const later = r.report.findings.filter((f: any) => f.check !== 'shellcheck' && /was not started/.test(f.message));
  assert.ok(later.length >= 1, JSON.stringify(r.report.findings));
  assert.match(r.text.stdout, /error: \[shellcheck\] shellcheck did not finish/);
  // A finding about a tool run names no render: no empty "in:" line.
  assert.doesNotMatch(r.text.stdout, /in: *$/m);
});

test('a validator killed by a signal, or giving no readable output, is an error finding too', () => {
  const killed = lint('kill -KILL $$');
  assert.equal(killed.json.code, 1);
  assert.match(toolFindings(killed.report, 'shellcheck')[0]?.message ?? '', /^shellcheck was killed \(SIGKILL\)/);
  const garbage = lint('echo "not json"; exit 3');
  assert.equal(garbage.json.code, 1);
  assert.match(
    toolFindings(garbage.report, 'shellcheck')[0]?.message ?? '',
    /^shellcheck gave no readable output \(exit 3\)/,
  );
});

test('a validator that answers in time is read as before', () => {
  // shellcheck's JSON with one finding on the first script line.
  const r = lint(
    `for f; do last=$f; done; printf '{"comments":[{"file":"%s","line":2,"column":1,"level":"warning","code":2086,"message":"quote it"}]}' "$last"`,
  );
  const findings = toolFindings(r.report, 'shellcheck');
  assert.deepEqual(
    findings.map((f: any) => [f.severity, f.message]),
    [['warning', 'SC2086: quote it']],
  );
});

test('each validator runs in at most 2 GiB of address space', () => {
  const r = lint(
    `for f; do last=$f; done; printf '{"comments":[{"file":"%s","line":2,"column":1,"level":"warning","code":1,"message":"%s"}]}' "$last" "$(ulimit -v)"`,
  );
  assert.deepEqual(
    toolFindings(r.report, 'shellcheck').map((f: any) => f.message),
    [`SC1: ${TOOL_MEMORY_KIB}`],
  );
  assert.equal(TOOL_MEMORY_KIB, 2 * 1024 * 1024);
});

test('--tool-timeout takes seconds above 0', () => {
  for (const bad of ['0', '-1', 'abc', '1e3', '90000']) {
    const r = lint('exit 0', ['--tool-timeout', bad]);
    assert.equal(r.json.code, 2, bad);
    assert.match(r.json.stderr, /--tool-timeout must be seconds/);
  }
});
