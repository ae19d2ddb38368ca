// The external validators the profile tests run, batched: cloud-init's schema (through cloud-init's own
// Python, many files per process), TOML parsing, shellcheck and ignition-validate.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CHECK_CONFIGS = join(import.meta.dirname, 'check_configs.py');

/** The interpreter cloud-init itself runs on (its `cloudinit` package is not on every python3's path). */
function cloudInitPython(): string {
  const script = execFileSync('sh', ['-c', 'command -v cloud-init'], { encoding: 'utf8' }).trim();
  const shebang = /^#!\s*(\S+)/.exec(readFileSync(script, 'utf8'));
  return shebang ? shebang[1]! : 'python3';
}

export interface Problem {
  file: string;
  message: string;
}

/** cloud-init schema validation and TOML parsing; returns the files that failed. */
export async function checkConfigs(cloudConfigs: string[], tomlFiles: string[]): Promise<Problem[]> {
  const args = [...cloudConfigs.map((f) => `cloud-config:${f}`), ...tomlFiles.map((f) => `toml:${f}`)];
  if (args.length === 0) return [];
  const { stdout } = await run(cloudInitPython(), [CHECK_CONFIGS, ...args], { maxBuffer: 64 * 1024 * 1024 });
  const results = JSON.parse(stdout) as Record<string, string | null>;
  return Object.entries(results)
    .filter(([, e]) => e !== null)
    .map(([arg, e]) => ({ file: arg.slice(arg.indexOf(':') + 1), message: e! }));
}

/** shellcheck at severity warning, many files per call (split in two to use both cores). */
export async function shellcheck(files: string[]): Promise<Problem[]> {
  const half = Math.ceil(files.length / 2);
  const batches = [files.slice(0, half), files.slice(half)].filter((b) => b.length > 0);
  const outputs = await Promise.all(
    batches.map(async (batch) => {
      try {
        await run('shellcheck', ['--severity=warning', '--format=gcc', ...batch], { maxBuffer: 64 * 1024 * 1024 });
        return '';
      } catch (e) {
        const err = e as { stdout?: string; code?: number };
        if (err.code === 1 && err.stdout) return err.stdout;
        throw e;
      }
    }),
  );
  return outputs
    .join('')
    .split('\n')
    .filter((l) => l !== '')
    .map((line) => ({ file: line.slice(0, line.indexOf(':')), message: line }));
}

/** ignition-validate on each file (5 ms apiece). */
export async function ignitionValidate(files: string[]): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const file of files) {
    try {
      await run('ignition-validate', [file]);
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string };
      problems.push({ file, message: `${err.stdout ?? ''}${err.stderr ?? ''}`.trim() });
    }
  }
  return problems;
}
