// The validators lint runs when the machine has them (each is skipped, and said so, when it does not):
// cloud-init's own schema check (many files per Python process), shellcheck, ignition-validate (spec 3.x).
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readNamedFile } from '../cli/fileGate.ts';
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
  /** Why the tool did not run, when it did not. */
  skipped?: string;
  findings: ToolFinding[];
}

type Spawn = typeof import('node:child_process').spawnSync;

function spawn(): Spawn {
  return process.getBuiltinModule('node:child_process').spawnSync;
}

function onPath(tool: string): string | undefined {
  const r = spawn()('sh', ['-c', 'command -v "$1"', 'sh', tool], { encoding: 'utf8' });
  const p = r.stdout?.trim();
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

export function runShellcheck(scripts: readonly string[]): ToolRun {
  if (scripts.length === 0) return { tool: 'shellcheck', findings: [] };
  if (onPath('shellcheck') === undefined)
    return { tool: 'shellcheck', skipped: 'shellcheck is not installed', findings: [] };
  return withFiles(scripts, '.sh', (paths) => {
    const r = spawn()('shellcheck', ['--severity=warning', '--format=json1', ...paths], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    let parsed: {
      comments?: Array<{ file: string; line: number; column: number; level: string; code: number; message: string }>;
    };
    try {
      parsed = JSON.parse(r.stdout || '{}');
    } catch {
      return { tool: 'shellcheck', skipped: `shellcheck gave no readable output (exit ${r.status})`, findings: [] };
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

export function runCloudInitSchema(configs: readonly string[]): ToolRun {
  if (configs.length === 0) return { tool: 'cloud-init schema', findings: [] };
  const cloudInit = onPath('cloud-init');
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
    const r = spawn()(python, ['-I', '-c', CLOUD_CONFIG_CHECK, ...paths], {
      cwd: dirname(paths[0]!),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    let verdicts: Array<string | null>;
    try {
      verdicts = JSON.parse(r.stdout);
    } catch {
      return {
        tool: 'cloud-init schema',
        skipped: `cloud-init's schema check did not run (exit ${r.status})`,
        findings: [],
      };
    }
    return {
      tool: 'cloud-init schema',
      findings: verdicts.flatMap((v, input) =>
        v === null ? [] : [{ input, severity: 'error' as const, message: v.replaceAll(paths[input]!, 'user-data') }],
      ),
    };
  });
}

export function runIgnitionValidate(configs: readonly string[]): ToolRun {
  if (configs.length === 0) return { tool: 'ignition-validate', findings: [] };
  if (onPath('ignition-validate') === undefined)
    return { tool: 'ignition-validate', skipped: 'ignition-validate is not installed', findings: [] };
  return withFiles(configs, '.ign', (paths) => ({
    tool: 'ignition-validate',
    findings: paths.flatMap((p, input) => {
      const r = spawn()('ignition-validate', [p], { encoding: 'utf8' });
      if (r.status === 0) return [];
      return [
        { input, severity: 'error' as const, message: `${r.stdout}${r.stderr}`.replaceAll(p, 'user-data').trim() },
      ];
    }),
  }));
}

/** The runner of each tool an output format names as its validator (src/emit/userdata/formats/), in run order. */
export const USER_DATA_VALIDATORS: Readonly<Record<ValidatorTool, (configs: readonly string[]) => ToolRun>> = {
  'cloud-init schema': (configs) => runCloudInitSchema(configs),
  'ignition-validate': (configs) => runIgnitionValidate(configs),
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
export function runSystemdAnalyzeVerify(units: readonly UnitFile[]): ToolRun {
  const tool = 'systemd-analyze verify';
  if (units.length === 0) return { tool, findings: [] };
  if (onPath('systemd-analyze') === undefined)
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
      const r = spawn()('systemd-analyze', ['verify', '--man=no', p], { encoding: 'utf8' });
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
