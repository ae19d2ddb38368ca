// The validators lint runs when the machine has them (each is skipped, and said so, when it does not):
// cloud-init's own schema check (many files per Python process), shellcheck, ignition-validate (spec 3.x).
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readNamedFile } from '../cli/fileGate.ts';
import { monotonicClock } from '../cli/clock.ts';
import type { ValidatorTool } from '../emit/userdata/formats/userDataFormat.ts';

export interface ToolFinding {
  /** Index of the input the finding is about. */
  input: number;
  line?: number;
  column?: number;
  severity: 'error' | 'warning';
  message: string;
}

export interface ToolRun {
  tool: string;
  /** Why the tool did not run, when it did not (not installed): said, and the run does not fail for it. */
  skipped?: string;
  /** Why the tool started and did not finish (out of time, killed): what it checks is unchecked, an error. */
  unfinished?: string;
  findings: ToolFinding[];
}

/**
 * The wall time every external tool of one lint run shares: each call gets what is left and is killed when it
 * runs out, so no input (a 4 MB script kept shellcheck busy past 120 s) holds lint without end.
 */
export class ToolDeadline {
  private readonly end: number;
  constructor(readonly seconds: number) {
    this.end = monotonicClock() + seconds * 1000;
  }
  /** Milliseconds left; at least 1, so a call made after the end is killed at once rather than unbounded. */
  remainingMs(): number {
    return Math.max(1, Math.ceil(this.end - monotonicClock()));
  }
  spent(): boolean {
    return monotonicClock() >= this.end;
  }
}

type SpawnResult = ReturnType<typeof import('node:child_process').spawnSync> & { stdout: string; stderr: string };

/** Thrown by runTool when a tool did not finish; each runner turns it into its ToolRun's `unfinished`. */
class ToolUnfinished extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The address space each external tool may use, in KiB (`ulimit -v`): a Go tool needs ~600 MiB to start. */
export const TOOL_MEMORY_KIB = 2 * 1024 * 1024;

/**
 * Every external tool lint runs goes through here: in at most TOOL_MEMORY_KIB of address space, bounded by the
 * run's deadline and killed when it is out.
 */
function runTool(
  deadline: ToolDeadline,
  command: string,
  args: readonly string[],
  options: { cwd?: string; maxBuffer?: number } = {},
): SpawnResult {
  if (deadline.spent())
    throw new ToolUnfinished(
      `was not started: the ${deadline.seconds} s lint gives external tools (--tool-timeout) were spent`,
    );
  const timeout = deadline.remainingMs();
  const limited = ['-c', `ulimit -v ${TOOL_MEMORY_KIB} && exec "$@"`, 'sh', command, ...args];
  const r = process.getBuiltinModule('node:child_process').spawnSync('sh', limited, {
    encoding: 'utf8',
    timeout,
    killSignal: 'SIGKILL',
    maxBuffer: options.maxBuffer ?? 16 * 1024 * 1024,
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
  }) as SpawnResult;
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ETIMEDOUT')
    throw new ToolUnfinished(
      `did not finish within the ${deadline.seconds} s lint gives external tools (--tool-timeout)`,
    );
  if (code === 'ENOBUFS') throw new ToolUnfinished('wrote more output than lint reads');
  if (r.error) throw new ToolUnfinished(`could not run (${code ?? r.error.message})`, code);
  if (r.signal) throw new ToolUnfinished(`was killed (${r.signal})`);
  return r;
}

/** `run`'s ToolRun, or one that says the tool did not finish and why. */
function unlessUnfinished(tool: string, run: () => ToolRun): ToolRun {
  try {
    return run();
  } catch (e) {
    if (e instanceof ToolUnfinished) return { tool, unfinished: e.message, findings: [] };
    throw e;
  }
}

function onPath(tool: string, deadline: ToolDeadline): string | undefined {
  let r: SpawnResult;
  try {
    r = runTool(deadline, 'sh', ['-c', 'command -v "$1"', 'sh', tool]);
  } catch (e) {
    // No shell to ask means no tool to find (a PATH without sh): not installed, as far as lint can tell.
    if (e instanceof ToolUnfinished && e.code === 'ENOENT') return undefined;
    throw e;
  }
  const p = r.stdout.trim();
  return r.status === 0 && p ? p : undefined;
}

/** Writes `texts` to a temporary directory, runs `use` on their paths, removes the directory. */
function withFiles<T>(texts: readonly string[], suffix: string, use: (paths: string[]) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-lint-'));
  try {
    const paths = texts.map((t, i) => {
      const p = join(dir, `${i}${suffix}`);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, t);
      return p;
    });
    return use(paths);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function runShellcheck(scripts: readonly string[], deadline: ToolDeadline): ToolRun {
  if (scripts.length === 0) return { tool: 'shellcheck', findings: [] };
  return unlessUnfinished('shellcheck', () => shellcheck(scripts, deadline));
}

function shellcheck(scripts: readonly string[], deadline: ToolDeadline): ToolRun {
  if (onPath('shellcheck', deadline) === undefined)
    return { tool: 'shellcheck', skipped: 'shellcheck is not installed', findings: [] };
  return withFiles(scripts, '.sh', (paths) => {
    const r = runTool(deadline, 'shellcheck', ['--severity=warning', '--format=json1', ...paths], {
      maxBuffer: 256 * 1024 * 1024,
    });
    let parsed: {
      comments?: Array<{ file: string; line: number; column: number; level: string; code: number; message: string }>;
    };
    try {
      parsed = JSON.parse(r.stdout);
    } catch {
      // Exit 0 and 1 (findings) always print the JSON, even with none: anything else checked nothing.
      throw new ToolUnfinished(`gave no readable output (exit ${r.status})`);
    }
    const index = new Map(paths.map((p, i) => [p, i]));
    return {
      tool: 'shellcheck',
      findings: (parsed.comments ?? []).map((c) => ({
        input: index.get(c.file) ?? -1,
        line: c.line,
        column: c.column,
        severity: c.level === 'error' ? 'error' : 'warning',
        message: `SC${c.code}: ${c.message}`,
      })),
    };
  });
}

// cloud-init's `schema -c FILE` costs ~0.3 s of Python start-up per file; one process checks them all.
const CLOUD_CONFIG_CHECK = `
import contextlib, io, json, sys
from cloudinit.config.schema import SchemaValidationError, get_schema, validate_cloudconfig_file
schema = get_schema()
out = []
for path in sys.argv[1:]:
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            validate_cloudconfig_file(path, schema)
        out.append(None)
    except (SchemaValidationError, RuntimeError, ValueError) as e:
        out.append(str(e))
print(json.dumps(out))
`;

export function runCloudInitSchema(configs: readonly string[], deadline: ToolDeadline): ToolRun {
  if (configs.length === 0) return { tool: 'cloud-init schema', findings: [] };
  return unlessUnfinished('cloud-init schema', () => cloudInitSchema(configs, deadline));
}

function cloudInitSchema(configs: readonly string[], deadline: ToolDeadline): ToolRun {
  const cloudInit = onPath('cloud-init', deadline);
  if (cloudInit === undefined)
    return { tool: 'cloud-init schema', skipped: 'cloud-init is not installed', findings: [] };
  // cloud-init's own interpreter: its Python package is not on every python3's path.
  let firstLine = '';
  try {
    firstLine =
      readNamedFile(cloudInit, 'cloud-init', 1 << 20)
        .toString('utf8')
        .split('\n', 1)[0] ?? '';
  } catch {
    // not a script we can read: the default interpreter
  }
  const shebang = /^#!\s*(\S+)/.exec(firstLine);
  const python = shebang?.[1] ?? 'python3';
  return withFiles(configs, '.yaml', (paths) => {
    // -I: with -c, Python imports from the working directory first (a repository's json.py would run), and
    // PYTHON* variables could point it elsewhere; isolated mode does neither. Run from the files' directory too.
    const r = runTool(deadline, python, ['-I', '-c', CLOUD_CONFIG_CHECK, ...paths], {
      cwd: dirname(paths[0]!),
      maxBuffer: 64 * 1024 * 1024,
    });
    let verdicts: Array<string | null>;
    try {
      verdicts = JSON.parse(r.stdout);
    } catch {
      throw new ToolUnfinished(`gave no readable output (exit ${r.status})`);
    }
    return {
      tool: 'cloud-init schema',
      findings: verdicts.flatMap((v, input) =>
        v === null ? [] : [{ input, severity: 'error' as const, message: v.replaceAll(paths[input]!, 'user-data') }],
      ),
    };
  });
}

export function runIgnitionValidate(configs: readonly string[], deadline: ToolDeadline): ToolRun {
  if (configs.length === 0) return { tool: 'ignition-validate', findings: [] };
  return unlessUnfinished('ignition-validate', () => ignitionValidate(configs, deadline));
}

function ignitionValidate(configs: readonly string[], deadline: ToolDeadline): ToolRun {
  if (onPath('ignition-validate', deadline) === undefined)
    return { tool: 'ignition-validate', skipped: 'ignition-validate is not installed', findings: [] };
  return withFiles(configs, '.ign', (paths) => ({
    tool: 'ignition-validate',
    findings: paths.flatMap((p, input) => {
      const r = runTool(deadline, 'ignition-validate', [p]);
      if (r.status === 0) return [];
      return [
        { input, severity: 'error' as const, message: `${r.stdout}${r.stderr}`.replaceAll(p, 'user-data').trim() },
      ];
    }),
  }));
}

/** The runner of each tool an output format names as its validator (src/emit/userdata/formats/), in run order. */
export const USER_DATA_VALIDATORS: Readonly<
  Record<ValidatorTool, (configs: readonly string[], deadline: ToolDeadline) => ToolRun>
> = {
  'cloud-init schema': (configs, deadline) => runCloudInitSchema(configs, deadline),
  'ignition-validate': (configs, deadline) => runIgnitionValidate(configs, deadline),
};

export interface UnitFile {
  /** The unit's name (its suffix gives the unit type). */
  name: string;
  content: string;
}

// What a unit cannot know outside the node: binaries and units that setup installs later.
const ENVIRONMENT_NOISE =
  /is not executable|not found|Failed to create|Failed to load|No such file or directory|Unit .* is not loaded|Failed to prepare filename/;

/**
 * systemd-analyze verify on each unit file, keeping what is about the unit's text (unknown keys and sections,
 * values that do not parse); what only the booted node has (binaries, other units) is left to the boot tests.
 */
export function runSystemdAnalyzeVerify(units: readonly UnitFile[], deadline: ToolDeadline): ToolRun {
  const tool = 'systemd-analyze verify';
  if (units.length === 0) return { tool, findings: [] };
  return unlessUnfinished(tool, () => systemdAnalyzeVerify(tool, units, deadline));
}

function systemdAnalyzeVerify(tool: string, units: readonly UnitFile[], deadline: ToolDeadline): ToolRun {
  if (onPath('systemd-analyze', deadline) === undefined)
    return { tool, skipped: 'systemd-analyze is not installed', findings: [] };
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-lint-units-'));
  try {
    const paths = units.map((u, i) => {
      mkdirSync(join(dir, String(i)));
      const p = join(dir, String(i), u.name.replaceAll('/', '_'));
      writeFileSync(p, u.content);
      return p;
    });
    const findings: ToolFinding[] = [];
    // One unit per call: a unit that fails to load hides the ones after it.
    paths.forEach((p, input) => {
      const r = runTool(deadline, 'systemd-analyze', ['verify', '--man=no', p]);
      for (const line of `${r.stderr}${r.stdout}`.split('\n')) {
        if (line.trim() === '' || ENVIRONMENT_NOISE.test(line)) continue;
        const at = line.startsWith(p + ':') ? /^[^:]+:(\d+): (.*)$/.exec(line) : null;
        findings.push({
          input,
          severity: 'warning',
          message: (at ? at[2]! : line).replaceAll(p, units[input]!.name),
          ...(at ? { line: Number(at[1]) } : {}),
        });
      }
    });
    return { tool, findings };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
