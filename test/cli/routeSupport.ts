// Running the built bundle as a user runs it, on every route: the KRM function on stdin, the sub-commands, and
// the function under the real kubectl kustomize and kpt. For kustomize's container route a `docker` stand-in
// runs the bundle itself (whatever image is named), so these tests need no image and see this tree's code.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { REPO_ROOT } from '../support/paths.ts';

export const BUNDLE = join(REPO_ROOT, 'dist', 'osm-krm.cjs');
export const EXAMPLES = join(REPO_ROOT, 'examples');
export const EXAMPLE_SECRETS = {
  OSM_CLOUD_INIT_GETTER_TOKEN: 'example-cloud-init-getter-token',
  OSM_BOOTSTRAP_TOKEN: 'abcdef.0123456789abcdef',
} as const;

const temps: string[] = [];
after(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

export function tempDir(prefix = 'osm-krm-cli-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  temps.push(d);
  return d;
}

export function copyExample(name: string, into = tempDir()): string {
  const dst = join(into, name.replaceAll('/', '-'));
  cpSync(join(EXAMPLES, name), dst, { recursive: true });
  return dst;
}

let bin: string | undefined;

/** `osm-krm` (the bundle) and a `docker` that runs the bundle for any `docker run` kustomize makes. */
export function routeBin(): string {
  if (bin !== undefined) return bin;
  bin = tempDir('osm-krm-cli-bin-');
  symlinkSync(BUNDLE, join(bin, 'osm-krm'));
  writeFileSync(join(bin, 'docker'), `#!/bin/sh\n[ "$1" = run ] || exit 1\nexec "${process.execPath}" "${BUNDLE}"\n`);
  chmodSync(join(bin, 'docker'), 0o755);
  return bin;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A process with only PATH (route bin first) and `env`: nothing of the test runner's environment leaks in. */
export function run(
  cmd: string,
  args: readonly string[],
  opts: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): Run {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd ?? REPO_ROOT,
    env: { PATH: `${routeBin()}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '/root', ...opts.env },
    input: opts.input ?? '',
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 300_000,
  });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `osm-krm ARGS` with the bundle. */
export function osmKrm(args: readonly string[], opts: Parameters<typeof run>[2] = {}): Run {
  return run(process.execPath, [BUNDLE, ...args], opts);
}

export function mkdirp(p: string): string {
  mkdirSync(p, { recursive: true });
  return p;
}
