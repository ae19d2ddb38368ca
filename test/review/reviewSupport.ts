// Running the review commands (render, diff, lint) in-process with their own working directory.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandIO } from '../../src/cli/commandIO.ts';

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCommand(
  run: (args: string[], io: CommandIO) => number,
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = { PATH: process.env.PATH },
): CommandRun {
  let stdout = '';
  let stderr = '';
  const code = run(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env, cwd });
  return { code, stdout, stderr };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'osm-krm-review-'));
}
