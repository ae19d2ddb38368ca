#!/usr/bin/env node
// osm-krm entry point: only wires process IO to the library.
//   osm-krm                      KRM function (ResourceList on stdin)
//   osm-krm template FILE --data DATA.json [--name NAME]
//   osm-krm hydrate SRC OUT [--config FILE]
//   osm-krm generate [DIR] [--config FILE]   (Argo CD plugin)
//   osm-krm render | diff | lint ...          (for OSP authors and reviewers)
//   osm-krm bom [PATH]                        (what nodes fetch: air-gapped sites)
//   osm-krm --help | --version | help COMMAND
import { processEnvironment, runFunctionOnFd } from '../../src/cli/runFunction.ts';
import { decodeText, readNamedFile } from '../../src/cli/fileGate.ts';
import type { CommandIO } from '../../src/cli/commandIO.ts';
import { writeAllSync } from '../../src/cli/writeAllSync.ts';
import { untrustedLine } from '../../src/cli/untrustedText.ts';
import { SecretRegistry } from '../../src/krm/redactSecrets.ts';
import { VERSION } from '../../src/cli/version.ts';

// The process's mask: every run registers the secrets it reads here, and every stderr byte goes through it,
// internal-error lines included (src/krm/redactSecrets.ts).
const secrets = new SecretRegistry([untrustedLine]);
const err = (s: string) => writeAllSync(2, secrets.redact(s));

// What a library prints by itself reaches stderr through the same mask: Node's process warnings (the `yaml`
// package warns through process.emitWarning, which Node's own listener prints on a later tick, past any writer
// of ours) and the console (stderr too: stdout is the ResourceList or the command's output).
process.removeAllListeners('warning');
process.on('warning', (w) => err(`osm-krm: warning: ${untrustedLine(`${w.name}: ${w.message}`)}\n`));
for (const level of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const)
  console[level] = (...parts: unknown[]) => err(`${parts.map(String).join(' ')}\n`);

function main(argv: string[]): number | Promise<number> {
  const out = (s: string) => writeAllSync(1, s);
  const [command, ...rest] = argv;
  // The commands' tables (their help texts) are loaded only when asked for: the function needs none of them.
  if (command === '--help' || command === '-h' || (command === 'help' && rest.length === 0)) {
    return import('../../src/cli/usage.ts').then((m) => {
      out(m.usage());
      return 0;
    });
  }
  if (command === '--version') {
    out(`osm-krm ${VERSION}\n`);
    return 0;
  }
  // `osm-krm help COMMAND` is `osm-krm COMMAND --help`.
  if (command === 'help') return main([...rest.slice(0, 1), '--help']);
  if (command === 'template')
    return import('../../src/cli/templateCommand.ts').then((m) =>
      m.runTemplateCommand(rest, {
        stdout: out,
        stdoutBytes: (b) => writeAllSync(1, b),
        stderr: err,
        readFile: (p) => decodeText(readNamedFile(p, p), p),
      }),
    );
  const io: CommandIO = { stdout: out, stderr: err, env: process.env, cwd: process.cwd(), secrets };
  if (command === 'hydrate')
    return import('../../src/cli/hydrateCommand.ts').then((m) => m.runHydrateCommand(rest, io));
  if (command === 'generate')
    return import('../../src/cli/argocdGenerateCommand.ts').then((m) => m.runArgoCDGenerateCommand(rest, io));
  if (command === 'render') return import('../../src/cli/renderCommand.ts').then((m) => m.runRenderCommand(rest, io));
  if (command === 'diff') return import('../../src/cli/diffCommand.ts').then((m) => m.runDiffCommand(rest, io));
  if (command === 'lint') return import('../../src/cli/lintCommand.ts').then((m) => m.runLintCommand(rest, io));
  if (command === 'bom') return import('../../src/cli/bomCommand.ts').then((m) => m.runBomCommand(rest, io));
  if (command !== undefined) {
    return import('../../src/cli/usage.ts').then((m) => {
      err(`osm-krm: unknown command ${JSON.stringify(command)}${m.didYouMeanCommand(command)}\n\n${m.usage()}`);
      return 2;
    });
  }
  // The function's stdout is a ResourceList whatever happens (kustomize and kpt read it): a run that fails
  // before it wrote one, out of memory for instance, still prints one with the error.
  let wrote = false;
  const write = (s: string) => {
    out(s);
    wrote = true;
  };
  try {
    return runFunctionOnFd(0, { stdout: write, stderr: err, env: processEnvironment(), secrets });
  } catch (e) {
    const code = internalError(e);
    if (!wrote) out(failedResourceList(e));
    return code;
  }
}

/** The ResourceList of a run that failed outside its own error handling: no items, the error as its result. */
function failedResourceList(e: unknown): string {
  const message = secrets.redact(`osm-krm could not finish: ${untrustedLine(String((e as Error)?.message ?? e))}`);
  // A JSON string is a YAML double-quoted scalar.
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nresults:\n- severity: error\n  message: ${JSON.stringify(message)}\n`;
}

// Memory and file-system limits that a run can hit (ulimit -v, a full disk, too many open files): said as
// such, not as a bug of ours.
const RESOURCE_ERRNO = new Set(['ENOMEM', 'ENOSPC', 'EMFILE', 'ENFILE', 'EDQUOT']);
const RESOURCE_MESSAGE =
  /out of memory|allocation failed|cannot allocate|invalid (string|array|typed array) length|array buffer allocation/i;

function internalError(e: unknown): number {
  // Never a stack trace, on stdout or stderr; a short line on stderr, masked like every other.
  const message = untrustedLine(String((e as Error)?.message ?? e));
  const code = (e as NodeJS.ErrnoException)?.code;
  if (
    (typeof code === 'string' && RESOURCE_ERRNO.has(code)) ||
    ((e as Error)?.name === 'RangeError' && RESOURCE_MESSAGE.test(message))
  ) {
    err(
      `osm-krm: error: not enough resources to finish (${message}): raise the limit (memory, disk, open files) or split the input\n`,
    );
    return 1;
  }
  err(`osm-krm: internal error: ${message}\n`);
  return 2;
}

// Whatever fails outside the synchronous run (a library's floating promise) ends the same way, without a trace.
process.on('uncaughtException', (e) => process.exit(internalError(e)));
process.on('unhandledRejection', (e) => process.exit(internalError(e)));

let exitCode: number | Promise<number>;
try {
  exitCode = main(process.argv.slice(2));
} catch (e) {
  exitCode = internalError(e);
}
// Every write above is synchronous and nothing is pending: leaving now skips the teardown a natural exit
// does (about 8 ms of a cold start, more with a large heap; README.md, Benchmark). A command that returns a
// promise leaves when it is done.
if (typeof exitCode === 'number') process.exit(exitCode);
else
  exitCode.then(
    (code) => process.exit(code),
    (e) => process.exit(internalError(e)),
  );
