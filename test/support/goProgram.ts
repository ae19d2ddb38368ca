// Test-only Go programs (readers and oracles), built in GOPATH mode against Debian's Go packages into .cache/
// when missing or older than their source; built under a temporary name first, so concurrent test runs never
// execute a half-written binary.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './paths.ts';

export function goProgram(sourceDir: string, name: string): string {
  const binary = join(REPO_ROOT, '.cache', name);
  const newest = Math.max(
    ...readdirSync(sourceDir)
      .filter((f) => f.endsWith('.go'))
      .map((f) => statSync(join(sourceDir, f)).mtimeMs),
  );
  if (existsSync(binary) && statSync(binary).mtimeMs >= newest) return binary;
  mkdirSync(dirname(binary), { recursive: true });
  const tmp = `${binary}.${process.pid}.tmp`;
  const res = spawnSync('go', ['build', '-o', tmp, '.'], {
    cwd: sourceDir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GO111MODULE: 'off',
      GOPATH: '/usr/share/gocode',
      GOFLAGS: '',
      GOCACHE: join(REPO_ROOT, '.cache', 'go-build'),
    },
  });
  if (res.error !== undefined || res.status !== 0) {
    rmSync(tmp, { force: true });
    throw new Error(
      `building ${name} failed; it needs go and Debian's Go packages (bash scripts/install-test-tools.sh):\n${res.error ?? res.stderr}`,
    );
  }
  renameSync(tmp, binary);
  return binary;
}
