// What the directory-based sub-commands (`hydrate`, `generate`) get from the process, injected so tests can
// run them in-process with their own environment and working directory.

export interface CommandIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** The process environment (PATH, Argo CD's ARGOCD_ENV_* and PARAM_*, secrets named by the config). */
  env: Readonly<Record<string, string | undefined>>;
  /** Working directory: relative paths on the command line and in the config resolve against it. */
  cwd: string;
}

/** Wrong arguments: reported with the usage text, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A problem with the inputs or the output directory: one clear line on stderr, exit 1. */
export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}
