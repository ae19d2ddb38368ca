// `osm-krm lint PATH...`: is this OSP good? Renders each OperatingSystemProfile in the files (or below the
// directories) given for every cloud it lists and a matrix of MachineDeployments, and runs every check.
import { relative, resolve } from 'node:path';
import { listManifestFiles, readManifestText } from './manifestDirectory.ts';
import { lintProfiles, type LintFinding, type LintProfileInput, type LintReport } from '../lint/lintProfile.ts';
import { CommandError, runSubcommand, UsageError, type CommandIO } from './commandIO.ts';
import { InputLimitError } from '../krm/inputBounds.ts';
import { namedRealPath, readTextInside, relativeInside, targetKind } from './fileGate.ts';
import { inputRoot } from './allowedRoots.ts';
import { untrustedLine, untrustedText } from './untrustedText.ts';

export const LINT_USAGE = `usage: osm-krm lint PATH... [--format text|json|github]

Renders every OperatingSystemProfile in PATH (a file, or every *.yaml below a directory) for each cloud it
lists, at both ends of the supported kubelet versions, IPv4 without and dual-stack with a proxy, and checks
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
  // A file lint cannot read is reported and the run goes on (a repository holds odd files); it still fails the run.
  const problems: string[] = [];
  const profiles = opts.paths.flatMap((p) => readProfiles(p, io, problems));
  for (const p of problems) io.stderr(`osm-krm lint: ${untrustedText(p)}\n`);
  if (profiles.length === 0) throw new CommandError(`no OperatingSystemProfile in ${opts.paths.join(', ')}`);
  const report = lintProfiles(profiles);
  io.stdout(opts.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : opts.format === 'github' ? githubAnnotations(report) : textReport(report, profiles.length));
  return report.findings.some((f) => f.severity === 'error') || problems.length > 0 ? 1 : 0;
}

/** The OSPs of PATH: its files read through the file gate (a directory walked as every command walks one). */
function readProfiles(path: string, io: CommandIO, problems: string[]): LintProfileInput[] {
  const abs = resolve(io.cwd, path);
  const real = namedRealPath(abs);
  if (real === undefined) throw new CommandError(`${path} does not exist`);
  const root = inputRoot(real, path, io.env);
  const isDirectory = targetKind(real) === 'directory';
  const files = isDirectory ? listManifestFiles(root, relativeInside(root, real), (m) => problems.push(m)).map((f) => resolve(real, f)) : [real];
  const out: LintProfileInput[] = [];
  for (const file of files) {
    const shown = (isDirectory ? relative(io.cwd, resolve(abs, relative(real, file))) : relative(io.cwd, abs)) || file;
    try {
      // As every reader does: bounded in size, regular files only, refused when not UTF-8 (never read as U+FFFD).
      const text = readTextInside(root, relativeInside(root, file), shown);
      // Other YAML of a repository (kustomizations, patches) is no concern of lint's, unless it claims to be an OSP.
      if (!/\bkind["']?\s*:\s*["']?OperatingSystemProfile\b/.test(text)) continue;
      const read = readManifestText(text, shown);
      for (const { object, documentIndex, itemIndex } of read.objects) {
        if (object.kind === 'OperatingSystemProfile') out.push({ object, file: shown, text, documentIndex, ...(itemIndex !== undefined ? { itemIndex } : {}) });
      }
    } catch (e) {
      if (!(e instanceof CommandError) && !(e instanceof InputLimitError)) throw e;
      problems.push(e.message);
    }
  }
  return out;
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
