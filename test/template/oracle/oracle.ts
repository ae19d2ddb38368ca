// Runs the Go text/template oracle (./main.go) on a batch of cases. The binary is built once into
// .cache/template-oracle/ (gitignored) and rebuilt only when main.go is newer. Parallel test files may
// race to build it: each builds into its own temporary file and renames it into place, so a reader
// never sees a half-written binary.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goJsonStringify } from './goJsonStringify.ts';
import { goString } from '../../../src/go/reflect/byteString.ts';

export type OracleFuncs = 'builtin' | 'sprig' | 'osm';

export interface OracleCase {
  /** Template name (appears in Go's error messages). */
  name: string;
  template: string;
  /** Data in the JS representation of Go values (bigint = int, number = float64, plain objects = maps). */
  data?: unknown;
  funcs?: OracleFuncs;
  /** Further texts parsed into the same template set after `template` (OSM's define blocks). */
  defines?: string[];
  /** Run ExecuteTemplate(entry) instead of Execute. */
  entry?: string;
}

export interface OracleResult {
  /** What Execute wrote (a Go string in our representation, see src/go/reflect/byteString.ts); partial when error is set. */
  output: string;
  /** Go's error text, or null on success. */
  error: string | null;
}

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const cacheDir = join(repoRoot, '.cache', 'template-oracle');
const binary = join(cacheDir, 'oracle');
const source = join(here, 'main.go');

const GO_ENV = {
  GO111MODULE: 'off',
  GOPATH: '/usr/share/gocode',
  GOFLAGS: '',
  GOCACHE: join(repoRoot, '.cache', 'go-build'),
};

export class OracleUnavailableError extends Error {
  override name = 'OracleUnavailableError';
}

let built: string | undefined;

/** Builds the oracle if needed and returns the binary's path. */
export function oracleBinary(): string {
  if (built !== undefined) return built;
  if (!existsSync(binary) || statSync(binary).mtimeMs < statSync(source).mtimeMs) {
    const probe = spawnSync('go', ['version'], { encoding: 'utf8' });
    if (probe.error !== undefined || probe.status !== 0) {
      throw new OracleUnavailableError(
        'the Go oracle needs `go` (Go 1.19 + sprig from Debian) on PATH: run `bash scripts/install-test-tools.sh`',
      );
    }
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${binary}.${process.pid}.${Date.now()}.tmp`;
    const res = spawnSync('go', ['build', '-o', tmp, '.'], {
      cwd: here,
      env: { ...process.env, ...GO_ENV },
      encoding: 'utf8',
    });
    if (res.status !== 0) {
      rmSync(tmp, { force: true });
      throw new OracleUnavailableError(
        `building the Go oracle failed (run \`bash scripts/install-test-tools.sh\` if packages are missing):\n${res.stderr}`,
      );
    }
    renameSync(tmp, binary);
  }
  built = binary;
  return built;
}

function serialiseBatch(cases: readonly OracleCase[]): string {
  return `[${cases
    .map((c) => {
      const { data, ...rest } = c;
      const head = JSON.stringify(rest);
      return data === undefined ? head : `${head.slice(0, -1)},"data":${goJsonStringify(data)}}`;
    })
    .join(',')}]`;
}

function runBinary(args: string[], input: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    // time.Local is UTC, as in OSM's container (fromToml's local datetimes carry its offset).
    const child = spawn(oracleBinary(), args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, TZ: 'UTC' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`Go oracle exited with ${code}: ${Buffer.concat(err).toString('utf8')}`));
      } else {
        resolvePromise(Buffer.concat(out).toString('utf8'));
      }
    });
    child.stdin.end(input);
  });
}

/** Runs every case through Go's text/template in one process; results are in the cases' order. */
export async function runOracle(cases: readonly OracleCase[]): Promise<OracleResult[]> {
  if (cases.length === 0) return [];
  // The oracle sends bytes (base64): Go's output need not be UTF-8.
  const raw = JSON.parse(await runBinary([], serialiseBatch(cases))) as Array<{ output: string; error: string | null }>;
  if (raw.length !== cases.length) {
    throw new Error(`Go oracle returned ${raw.length} results for ${cases.length} cases`);
  }
  const text = (b64: string) => goString(Buffer.from(b64, 'base64'));
  return raw.map((r) => ({ output: text(r.output), error: r.error === null ? null : text(r.error) }));
}

export interface OracleBench {
  iterations: number;
  /** Nanoseconds to parse and execute the whole batch once. */
  nsPerBatch: number;
  cases: number;
}

/** Times Go parsing and executing the whole batch, in-process, `iterations` times after a warm-up. */
export async function benchOracle(cases: readonly OracleCase[], iterations: number): Promise<OracleBench> {
  return JSON.parse(await runBinary(['-bench', String(iterations)], serialiseBatch(cases))) as OracleBench;
}
