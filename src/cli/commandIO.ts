// What the directory-based sub-commands (`hydrate`, `generate`) get from the process, injected so tests can
// run them in-process with their own environment and working directory.
import { untrustedText } from './untrustedText.ts';
import { helpText, parseCommandLine, UsageError, type CommandLine, type CommandSpec } from './commandLine.ts';

export { UsageError };

export interface CommandIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** The process environment (PATH, Argo CD's ARGOCD_ENV_* and PARAM_*, secrets named by the config). */
  env: Readonly<Record<string, string | undefined>>;
  /** Working directory: relative paths on the command line and in the config resolve against it. */
  cwd: string;
}

/** A problem with the inputs or the output directory: one clear line on stderr, exit 1. */
export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

/**
 * The frame every sub-command shares: the command line parsed by its table (commandSpecs.ts; usage error:
 * message + help, exit 2), `-h`/`--help` (the help on stdout, exit 0), then `run` with the options `options`
 * makes of it; a CommandError becomes one line on stderr and exit 1.
 */
export function runSubcommand<O, R extends number | Promise<number>>(
  spec: CommandSpec,
  args: readonly string[],
  io: Pick<CommandIO, 'stdout' | 'stderr'>,
  options: (commandLine: CommandLine) => O,
  run: (opts: O) => R,
): R | number {
  let opts: O | 'help';
  try {
    const commandLine = parseCommandLine(spec, args);
    opts = commandLine === 'help' ? 'help' : options(commandLine);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`osm-krm ${spec.name}: ${untrustedText(e.message)}\n${helpText(spec)}`);
    return 2;
  }
  if (opts === 'help') {
    io.stdout(helpText(spec));
    return 0;
  }
  const failed = (e: unknown): number => {
    if (!(e instanceof CommandError)) throw e;
    // Messages name files, links and tools' output from the inputs: printed escaped.
    io.stderr(`osm-krm ${spec.name}: ${untrustedText(e.message)}\n`);
    return 1;
  };
  try {
    const r = run(opts);
    return typeof r === 'number' ? r : (r.catch(failed) as R);
  } catch (e) {
    return failed(e);
  }
}
