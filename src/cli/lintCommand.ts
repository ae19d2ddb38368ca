// `osm-krm lint PATH...`: is this OSP good? Renders each OperatingSystemProfile in the files (or below the
// directories) given for every cloud it lists and a matrix of MachineDeployments, and runs every check.
import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseManifests, listYamlFiles } from './manifestDirectory.ts';
import { lintProfiles, type LintFinding, type LintProfileInput, type LintReport } from '../lint/lintProfile.ts';
import { CommandError, runSubcommand, UsageError, type CommandIO } from './commandIO.ts';
import { InputLimitError, readTextFileBounded } from '../krm/inputBounds.ts';
import { errnoReason } from './containedPath.ts';
import { untrustedLine, untrustedText } from './untrustedText.ts';
import { lintRepository } from '../lint/lintRepository.ts';
import { renderTime, type RenderTime } from '../cluster/renderTime.ts';
import { systemClock } from './clock.ts';
import { MARKER_FILE } from './outputDirectory.ts';
import type { KrmObject } from '../krm/resourceList.ts';

export const LINT_USAGE = `usage: osm-krm lint PATH... [--format text|json|github]

Renders every OperatingSystemProfile and OperatingSystemProfileOverlay (with its base) in PATH (a file, or
every *.yaml below a directory) for each cloud it lists, at both ends of the supported kubelet versions, IPv4 without and dual-stack with a proxy, and checks
what it renders: template and render errors, user-data size per cloud, cloud-init's schema, Ignition (3.x,
ignition-validate), shellcheck on every script, curl -k, downloads never verified. Findings in scripts point
at the OSP file's line that produced them. Validators that are not installed are reported as skipped.
  --format text    one finding a line: FILE:LINE:COL: SEVERITY: [CHECK] MESSAGE (default)
  --format json    {"findings": [...], "skipped": [...]}
  --format github  GitHub Actions annotations (::error file=...,line=...::...)
Exit 0 when there is no error finding, 1 when there is one (warnings do not fail), 2 on usage errors.
`;

interface Options {
  paths: string[];
  format: 'text' | 'json' | 'github';
}

export function runLintCommand(args: string[], io: CommandIO): number {
  return runSubcommand('lint', LINT_USAGE, args, io, parseArgs, (opts) => lint(opts, io));
}

function parseArgs(args: readonly string[]): Options | 'help' {
  const opts: Options = { paths: [], format: 'text' };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-h' || a === '--help') return 'help';
    if (a === '--format' || a.startsWith('--format=')) {
      const v = a === '--format' ? args[++i] : a.slice('--format='.length);
      if (v !== 'text' && v !== 'json' && v !== 'github') throw new UsageError(`--format must be text, json or github, got ${JSON.stringify(v ?? '')}`);
      opts.format = v;
    } else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else opts.paths.push(a);
  }
  if (opts.paths.length === 0) throw new UsageError('expected at least one PATH');
  return opts;
}

function lint(opts: Options, io: CommandIO): number {
  const read = opts.paths.map((p) => readObjects(p, io));
  const objects = read.flatMap((r) => r.objects);
  const profiles = objects.filter((o) => o.object.kind === 'OperatingSystemProfile' || o.object.kind === 'OperatingSystemProfileOverlay');
  if (objects.length === 0) throw new CommandError(`no OperatingSystemProfile in ${opts.paths.join(', ')}`);
  const report = lintProfiles(profiles);
  // The repository around the profiles: Flux substitution, token expirations (lintRepository.ts).
  const time = lintTime(io);
  report.findings.push(...lintRepository(objects, { hydrateOutput: read.some((r) => r.hydrateOutput), ...(time !== undefined ? { time } : {}) }));
  io.stdout(opts.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : opts.format === 'github' ? githubAnnotations(report) : textReport(report, profiles.length));
  return report.findings.some((f) => f.severity === 'error') ? 1 : 0;
}

/** What lint looks at: the profiles, and the objects of lintRepository.ts. */
const LINTED_KINDS = /\bkind["']?\s*:\s*["']?(OperatingSystemProfileOverlay|OperatingSystemProfile|MachineDeployment|OperatingSystemManager|Kustomization|Secret)\b/;

function readObjects(path: string, io: CommandIO): { objects: LintProfileInput[]; hydrateOutput: boolean } {
  const abs = resolve(io.cwd, path);
  let files: string[];
  let directory: boolean;
  try {
    directory = statSync(abs).isDirectory();
    files = directory ? listYamlFiles(abs).map((f) => resolve(abs, f)) : [abs];
  } catch {
    throw new CommandError(`${path} does not exist`);
  }
  const out: LintProfileInput[] = [];
  for (const file of files) {
    const shown = relative(io.cwd, file) || file;
    let text: string;
    try {
      // As the function's readers do: bounded in size, and refused when not UTF-8 (never read as U+FFFD).
      text = readTextFileBounded(file, shown);
    } catch (e) {
      throw new CommandError(e instanceof InputLimitError ? e.message : `cannot read ${shown}: ${errnoReason(e)}`);
    }
    // Other YAML of a repository (kustomizations, patches) is no concern of lint's, unless it claims to be an OSP.
    if (!LINTED_KINDS.test(text)) continue;
    let objects: KrmObject[];
    try {
      objects = parseManifests(text, shown);
    } catch (e) {
      if (/\bkind["']?\s*:\s*["']?OperatingSystemProfile\b/.test(text)) throw e;
      continue; // not manifests (a kustomize file without apiVersion...): nothing lint checks
    }
    objects.forEach((object, documentIndex) => out.push({ object, file: shown, text, documentIndex }));
  }
  return { objects: out, hydrateOutput: directory && existsSync(join(abs, MARKER_FILE)) };
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

function textReport(report: LintReport, profiles: number): string {
  const lines = report.findings.map((f) => `${where(f)}${f.severity}: [${f.check}] ${untrustedLine(f.message)}\n    in: ${untrustedLine(f.scenarios[0] ?? '')}${f.scenarios.length > 1 ? ` (+${f.scenarios.length - 1} more)` : ''}`);
  for (const s of report.skipped) lines.push(`skipped: ${s}`);
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  lines.push(`osm-krm lint: ${profiles} profile(s), ${report.rendered} user-data config(s) rendered: ${errors} error(s), ${report.findings.length - errors} warning(s)`);
  return lines.join('\n') + '\n';
}

// GitHub's workflow-command escaping: % CR LF in the message, and , : too in properties.
const escapeData = (s: string) => s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const escapeProperty = (s: string) => escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');

function githubAnnotations(report: LintReport): string {
  return report.findings
    .map((f) => {
      const props = [f.file ? `file=${escapeProperty(untrustedLine(f.file))}` : '', f.line ? `line=${f.line}` : '', f.column ? `col=${f.column}` : '', `title=${escapeProperty(`osm-krm lint (${f.check})`)}`].filter(Boolean).join(',');
      return `::${f.severity === 'error' ? 'error' : 'warning'} ${props}::${escapeData(untrustedText(`${f.message} (in: ${f.scenarios[0]})`))}\n`;
    })
    .join('');
}
