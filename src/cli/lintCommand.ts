// `osm-krm lint PATH...`: is this OSP good? Renders each OperatingSystemProfile in the files (or below the
// directories) given for every cloud it lists and a matrix of MachineDeployments, and runs every check.
import { join, relative, resolve } from 'node:path';
import { listManifestFiles, readManifestText } from './manifestDirectory.ts';
import {
  DEFAULT_TOOL_SECONDS,
  lintProfiles,
  type LintFinding,
  type LintProfileInput,
  type LintReport,
} from '../lint/lintProfile.ts';
import { CommandError, runSubcommand, type CommandIO } from './commandIO.ts';
import { UsageError, type CommandLine } from './commandLine.ts';
import { LINT_COMMAND } from './commandSpecs.ts';
import { InputLimitError } from '../krm/inputBounds.ts';
import { namedRealPath, readTextInside, relativeInside, targetKind } from './fileGate.ts';
import { inputRoot } from './allowedRoots.ts';
import { untrustedLine, untrustedText } from './untrustedText.ts';
import { lintRepository } from '../lint/lintRepository.ts';
import { renderTime, type RenderTime } from '../cluster/renderTime.ts';
import { ENV_NAMES_ENV } from '../cluster/environmentNames.ts';
import { systemClock } from './clock.ts';
import { MARKER_FILE } from './outputDirectory.ts';

interface Options {
  paths: string[];
  format: 'text' | 'json' | 'github';
  toolSeconds: number;
}

export function runLintCommand(args: string[], io: CommandIO): number {
  return runSubcommand(
    LINT_COMMAND,
    args,
    io,
    options,
    (opts, io) => lint(opts, io),
    () => true,
  );
}

function options(cl: CommandLine): Options {
  const timeout = cl.value('--tool-timeout');
  return {
    paths: cl.operands,
    format: (cl.value('--format') ?? 'text') as Options['format'],
    toolSeconds: timeout === undefined ? DEFAULT_TOOL_SECONDS : toolSeconds(timeout),
  };
}

function toolSeconds(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || !(n > 0) || n > 86400)
    throw new UsageError(`--tool-timeout must be seconds, more than 0 and at most 86400, got ${JSON.stringify(value)}`);
  return n;
}

function lint(opts: Options, io: CommandIO): number {
  // A file lint cannot read is reported and the run goes on (a repository holds odd files); it still fails the run.
  const problems: string[] = [];
  const read = opts.paths.map((p) => readObjects(p, io, problems));
  for (const p of problems) io.stderr(`osm-krm lint: ${untrustedText(p)}\n`);
  const objects = read.flatMap((r) => r.objects);
  const profiles = objects.filter(
    (o) => o.object.kind === 'OperatingSystemProfile' || o.object.kind === 'OperatingSystemProfileOverlay',
  );
  if (objects.length === 0) throw new CommandError(`no OperatingSystemProfile in ${opts.paths.join(', ')}`);
  const report = lintProfiles(profiles, { toolSeconds: opts.toolSeconds });
  // The repository around the profiles: Flux substitution, token expirations (lintRepository.ts).
  const time = lintTime(io);
  const repositoryFindings = lintRepository(objects, {
    hydrateOutput: read.some((r) => r.hydrateOutput),
    ...(time !== undefined ? { time } : {}),
    ...(io.env[ENV_NAMES_ENV] !== undefined ? { listedEnvNames: io.env[ENV_NAMES_ENV] } : {}),
  });
  for (const f of repositoryFindings) report.findings.push(f);
  io.stdout(
    opts.format === 'json'
      ? JSON.stringify(report, null, 2) + '\n'
      : opts.format === 'github'
        ? githubAnnotations(report, profiles.length)
        : textReport(report, profiles.length),
  );
  return report.findings.some((f) => f.severity === 'error') || problems.length > 0 ? 1 : 0;
}

/** What lint looks at: the profiles, and the objects of lintRepository.ts. */
const LINTED_KINDS =
  /\bkind["']?\s*:\s*["']?(OperatingSystemProfileOverlay|OperatingSystemProfile|MachineDeployment|OperatingSystemManager|Kustomization|Secret)\b/;

/** The objects of PATH lint looks at: its files read through the file gate (a directory walked as every command walks one). */
function readObjects(
  path: string,
  io: CommandIO,
  problems: string[],
): { objects: LintProfileInput[]; hydrateOutput: boolean } {
  const abs = resolve(io.cwd, path);
  const real = namedRealPath(abs);
  if (real === undefined) throw new CommandError(`${path} does not exist`);
  const root = inputRoot(real, path, io.env);
  const isDirectory = targetKind(real) === 'directory';
  const files = isDirectory
    ? listManifestFiles(root, relativeInside(root, real), (m) => problems.push(m)).map((f) => resolve(real, f))
    : [real];
  const out: LintProfileInput[] = [];
  for (const file of files) {
    const shown = (isDirectory ? relative(io.cwd, resolve(abs, relative(real, file))) : relative(io.cwd, abs)) || file;
    try {
      // As every reader does: bounded in size, regular files only, refused when not UTF-8 (never read as U+FFFD).
      const text = readTextInside(root, relativeInside(root, file), shown);
      // Other YAML of a repository (kustomizations, patches) is no concern of lint's, unless it claims to be an object lint checks.
      if (!LINTED_KINDS.test(text)) continue;
      let read;
      try {
        read = readManifestText(text, shown);
      } catch (e) {
        if (/\bkind["']?\s*:\s*["']?OperatingSystemProfile\b/.test(text)) throw e;
        continue; // not manifests (a kustomize file without apiVersion...): nothing lint checks
      }
      for (const { object, documentIndex, itemIndex } of read.objects)
        out.push({ object, file: shown, text, documentIndex, ...(itemIndex !== undefined ? { itemIndex } : {}) });
    } catch (e) {
      if (!(e instanceof CommandError) && !(e instanceof InputLimitError)) throw e;
      problems.push(e.message);
    }
  }
  return { objects: out, hydrateOutput: isDirectory && targetKind(join(real, MARKER_FILE)) === 'file' };
}

/** The time expirations are judged at: SOURCE_DATE_EPOCH when set, else the clock. */
function lintTime(io: CommandIO): RenderTime | undefined {
  try {
    return renderTime({ env: (n) => io.env[n], readFile: () => '', now: systemClock }, 'lint');
  } catch (e) {
    throw new CommandError((e as Error).message);
  }
}

function where(f: LintFinding): string {
  return f.file === undefined ? '' : `${untrustedLine(f.file)}:${f.line ?? 1}:${f.column ?? 1}: `;
}

/** The renders that showed a finding; a finding about the repository or a tool run has none. */
function scenarioLine(f: LintFinding): string {
  if (f.scenarios.length === 0) return '';
  const more = f.scenarios.length > 1 ? ` (+${f.scenarios.length - 1} more)` : '';
  return `\n    in: ${untrustedLine(f.scenarios[0]!)}${more}`;
}

function textReport(report: LintReport, profiles: number): string {
  const lines = report.findings.map(
    (f) => `${where(f)}${f.severity}: [${f.check}] ${untrustedLine(f.message)}${scenarioLine(f)}`,
  );
  for (const s of report.skipped) lines.push(`skipped: ${s}`);
  lines.push(summary(report, profiles));
  return lines.join('\n') + '\n';
}

function summary(report: LintReport, profiles: number): string {
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  return `osm-krm lint: ${profiles} profile(s), ${report.rendered} user-data config(s) rendered: ${errors} error(s), ${report.findings.length - errors} warning(s)`;
}

// GitHub's workflow-command escaping: % CR LF in the message, and , : too in properties.
const escapeData = (s: string) => s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const escapeProperty = (s: string) => escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');

/** One annotation per finding, a notice per validator that did not run, then the summary line (plain log text). */
function githubAnnotations(report: LintReport, profiles: number): string {
  const findings = report.findings.map((f) => {
    const props = [
      f.file ? `file=${escapeProperty(untrustedLine(f.file))}` : '',
      f.line ? `line=${f.line}` : '',
      f.column ? `col=${f.column}` : '',
      `title=${escapeProperty(`osm-krm lint (${f.check})`)}`,
    ]
      .filter(Boolean)
      .join(',');
    return `::${f.severity === 'error' ? 'error' : 'warning'} ${props}::${escapeData(untrustedText(f.scenarios.length > 0 ? `${f.message} (in: ${f.scenarios[0]})` : f.message))}\n`;
  });
  const skipped = report.skipped.map(
    (s) => `::notice title=${escapeProperty('osm-krm lint (skipped)')}::${escapeData(untrustedText(s))}\n`,
  );
  return [...findings, ...skipped, `${summary(report, profiles)}\n`].join('');
}
