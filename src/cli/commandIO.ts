// What the directory-based sub-commands (`hydrate`, `generate`) get from the process, injected so tests can
// run them in-process with their own environment and working directory.
import { untrustedLine, untrustedText } from './untrustedText.ts';
import { MASKED, SecretRegistry } from '../krm/redactSecrets.ts';
import { helpText, parseCommandLine, UsageError, type CommandLine, type CommandSpec } from './commandLine.ts';

export { UsageError };

export interface CommandIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** The process environment (PATH, Argo CD's ARGOCD_ENV_* and PARAM_*, secrets named by the config). */
  env: Readonly<Record<string, string | undefined>>;
  /** Working directory: relative paths on the command line and in the config resolve against it. */
  cwd: string;
  /**
   * The mask (src/krm/redactSecrets.ts) the process prints through: every secret a run reads is registered
   * there, and runSubcommand masks stderr (and the stdout of commands that print for people) with it. The
   * entry point makes one per process, so its internal-error line is masked too.
   */
  secrets?: SecretRegistry;
}

/** A problem with the inputs or the output directory: one clear line on stderr, exit 1. */
export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

type PrintingIO = Pick<CommandIO, 'stdout' | 'stderr' | 'secrets'>;

/**
 * The frame every sub-command shares: the command line parsed by its table (commandSpecs.ts; usage error:
 * message + help, exit 2), `-h`/`--help` (the help on stdout, exit 0), then `run` with the options `options`
 * makes of it; a CommandError becomes one line on stderr and exit 1.
 * `run` gets the io it must print through: stderr masked with the run's secrets, and stdout too when
 * `masksStdout(opts)` (output for people, unless they asked to see secrets); commands name its parameter `io`,
 * so the unmasked one is out of reach (test/architecture/printing.test.ts).
 */
export function runSubcommand<O, R extends number | Promise<number>, IO extends PrintingIO>(
  spec: CommandSpec,
  args: readonly string[],
  rawIO: IO,
  options: (commandLine: CommandLine) => O,
  run: (opts: O, io: IO & { secrets: SecretRegistry }) => R,
  masksStdout: (opts: O) => boolean = () => false,
): R | number {
  const secrets = rawIO.secrets ?? new SecretRegistry([untrustedLine]);
  const stderr = (s: string) => rawIO.stderr(secrets.redact(s));
  let opts: O | 'help';
  try {
    const commandLine = parseCommandLine(spec, args);
    opts = commandLine === 'help' ? 'help' : options(commandLine);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr(`osm-krm ${spec.name}: ${untrustedText(e.message)}\n${helpText(spec)}`);
    return 2;
  }
  if (opts === 'help') {
    rawIO.stdout(helpText(spec));
    return 0;
  }
  const masked = masksStdout(opts);
  const io = {
    ...rawIO,
    secrets,
    stderr,
    stdout: masked ? (s: string) => rawIO.stdout(secrets.redact(s, MASKED)) : rawIO.stdout,
  };
  const failed = (e: unknown): number => {
    if (!(e instanceof CommandError)) throw e;
    // Messages name files, links and tools' output from the inputs: printed escaped.
    io.stderr(`osm-krm ${spec.name}: ${untrustedText(e.message)}\n`);
    return 1;
  };
  // A view masked whole past the mask's bound is not the view asked for: said, and not exit 0.
  const checked = (code: number): number => {
    if (!masked || !secrets.boundReached || code !== 0) return code;
    io.stderr(
      `osm-krm ${spec.name}: some output was printed masked whole: checking it for secrets went past the mask's bound (many secret values share a long prefix)\n`,
    );
    return 1;
  };
  try {
    const r = run(opts, io);
    return typeof r === 'number' ? checked(r) : (r.then(checked, failed) as R);
  } catch (e) {
    return failed(e);
  }
}
