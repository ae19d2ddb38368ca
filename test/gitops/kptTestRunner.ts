// Our small version of kpt's e2e test runner (kptdev/kpt pkg/test/runner, used by the functions catalog),
// so examples and test packages follow the catalog convention: every directory with `.expected/` is a case.
//   1. copy the package to a temp dir; git init, add, commit
//   2. run `.expected/setup.sh` if present
//   3. run `.expected/exec.sh` (in the package dir) if present, else `kpt fn render PKG [--allow-exec]`, or
//      for `testType: eval`, `kpt fn eval PKG --exec EXEC [--fn-config F] [-- k=v ...]`
//   4. compare the exit code with `exitCode`, stderr/stdout with `stdErr`/`stdErrRegEx`/`stdOut` (contains)
//   5. git add, commit, `git diff FIRST HEAD` must equal `.expected/diff.patch` (both trimmed)
// Steps 2-5 run twice on the same copy, so a second run must not change anything (idempotence).
// KPT_E2E_UPDATE_EXPECTED=true rewrites diff.patch from the first run instead of comparing.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { copyTree, git, run, tempDir, toolEnv } from './support.ts';

export interface KptCaseConfig {
  testType: 'render' | 'eval';
  exitCode: number;
  allowExec: boolean;
  skip: boolean;
  env: Record<string, string>;
  stdErr: string;
  stdErrRegEx?: string;
  stdOut: string;
  execPath?: string;
  fnConfig?: string;
  args: Record<string, string>;
}

const KNOWN_KEYS = new Set([
  'testType',
  'exitCode',
  'allowExec',
  'skip',
  'env',
  'stdErr',
  'stdErrRegEx',
  'stdOut',
  'execPath',
  'fnConfig',
  'args',
]);

export function readCaseConfig(caseDir: string): KptCaseConfig {
  const p = join(caseDir, '.expected', 'config.yaml');
  const raw = (existsSync(p) ? parse(readFileSync(p, 'utf8')) : null) ?? {};
  for (const k of Object.keys(raw))
    if (!KNOWN_KEYS.has(k)) throw new Error(`${p}: field ${k} is not supported by our runner`);
  return {
    testType: raw.testType ?? 'render',
    exitCode: raw.exitCode ?? 0,
    allowExec: raw.allowExec ?? false,
    skip: raw.skip ?? false,
    env: raw.env ?? {},
    stdErr: raw.stdErr ?? '',
    ...(raw.stdErrRegEx !== undefined ? { stdErrRegEx: raw.stdErrRegEx } : {}),
    stdOut: raw.stdOut ?? '',
    ...(raw.execPath !== undefined ? { execPath: raw.execPath } : {}),
    ...(raw.fnConfig !== undefined ? { fnConfig: raw.fnConfig } : {}),
    args: raw.args ?? {},
  };
}

/** Every directory below the roots that has a `.expected/` directory. */
export function findKptCases(...roots: string[]): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (existsSync(join(d, '.expected')) && statSync(join(d, '.expected')).isDirectory()) out.push(d);
    for (const name of readdirSync(d).sort()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
    }
  };
  for (const r of roots) if (existsSync(r)) walk(r);
  return out;
}

/** Runs one case; returns the problems found (empty: the case passes). */
export function runKptCase(caseDir: string): string[] {
  const config = readCaseConfig(caseDir);
  const expectedDir = join(caseDir, '.expected');
  const pkg = copyTree(caseDir, join(tempDir('osm-krm-kpt-e2e-'), basename(caseDir)));
  git(pkg, 'init', '-q');
  git(pkg, 'add', '--all');
  git(pkg, 'commit', '-q', '-m', 'first');
  const first = git(pkg, 'rev-parse', 'HEAD').trim();
  const env = toolEnv(config.env);
  const problems: string[] = [];

  for (let i = 0; i < 2; i++) {
    if (existsSync(join(expectedDir, 'setup.sh'))) run('bash', [join(expectedDir, 'setup.sh')], { cwd: pkg, env });
    const r = existsSync(join(expectedDir, 'exec.sh'))
      ? run('bash', [join(expectedDir, 'exec.sh')], { cwd: pkg, env })
      : run('kpt', kptArgs(config, pkg, expectedDir), { env });
    const diff = actualDiff(pkg, first);
    if (process.env.KPT_E2E_UPDATE_EXPECTED === 'true') {
      writeFileSync(join(expectedDir, 'diff.patch'), diff === '' ? '' : diff + '\n');
      return problems;
    }
    const where = `run ${i + 1}`;
    if (r.status !== config.exitCode)
      problems.push(
        `${where}: exit code ${r.status}, expected ${config.exitCode}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`,
      );
    if (i === 0) {
      if (!r.stderr.includes(config.stdErr))
        problems.push(`${where}: stderr does not contain ${JSON.stringify(config.stdErr)}:\n${r.stderr}`);
      if (config.stdErrRegEx !== undefined && !new RegExp(config.stdErrRegEx).test(r.stderr))
        problems.push(`${where}: stderr does not match /${config.stdErrRegEx}/:\n${r.stderr}`);
      if (!r.stdout.includes(config.stdOut))
        problems.push(`${where}: stdout does not contain ${JSON.stringify(config.stdOut)}:\n${r.stdout}`);
    }
    const expected = existsSync(join(expectedDir, 'diff.patch'))
      ? readFileSync(join(expectedDir, 'diff.patch'), 'utf8').trim()
      : '';
    if (diff !== expected) problems.push(`${where}: git diff differs from .expected/diff.patch; actual:\n${diff}`);
    if (existsSync(join(expectedDir, 'teardown.sh')))
      run('bash', [join(expectedDir, 'teardown.sh')], { cwd: pkg, env });
    if (r.status !== 0) break;
  }
  return problems;
}

function kptArgs(config: KptCaseConfig, pkg: string, expectedDir: string): string[] {
  const fromExpected = (p: string) => (isAbsolute(p) ? p : resolve(expectedDir, p));
  if (config.testType === 'render') return ['fn', 'render', pkg, ...(config.allowExec ? ['--allow-exec'] : [])];
  if (config.execPath === undefined) throw new Error('eval cases need execPath (or an exec.sh)');
  const args = ['fn', 'eval', pkg, '--exec', fromExpected(config.execPath)];
  if (config.fnConfig !== undefined) args.push('--fn-config', fromExpected(config.fnConfig));
  const kv = Object.keys(config.args)
    .sort()
    .map((k) => `${k}=${config.args[k]}`);
  return kv.length > 0 ? [...args, '--', ...kv] : args;
}

function actualDiff(pkg: string, first: string): string {
  git(pkg, 'add', '--all');
  git(pkg, 'commit', '-q', '--allow-empty', '-m', 'second');
  return git(pkg, 'diff', '--no-color', first, 'HEAD').trim();
}
