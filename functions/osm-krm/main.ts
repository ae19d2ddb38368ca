#!/usr/bin/env node
// osm-krm entry point: only wires process IO to the library.
//   osm-krm                      KRM function (ResourceList on stdin)
//   osm-krm template FILE --data DATA.json [--name NAME]
//   osm-krm hydrate SRC OUT [--config FILE]
//   osm-krm generate [DIR] [--config FILE]   (Argo CD plugin)
//   osm-krm render | diff | lint ...          (for OSP authors and reviewers)
import { readFileSync } from 'node:fs';
import { processEnvironment, runFunctionOnFd } from '../../src/cli/runFunction.ts';
import type { CommandIO } from '../../src/cli/commandIO.ts';
import { writeAllSync } from '../../src/cli/writeAllSync.ts';
import { untrustedLine } from '../../src/cli/untrustedText.ts';

const USAGE = `osm-krm: Operating System Manager as a KRM function.

Usage:
  osm-krm < resourcelist.yaml          render OperatingSystemConfigs and Secrets (KRM function)
  osm-krm template FILE --data DATA.json [--name NAME]
                                       render one Go template, for OSP authors
  osm-krm hydrate SRC OUT [--config FILE]
                                       render a manifest directory into OUT, one file per resource
                                       plus a kustomization.yaml (Flux, rendered manifests)
  osm-krm generate [DIR] [--config FILE]
                                       print DIR's manifests and the generated ones (Argo CD plugin)
  osm-krm render [PATH] [--md NAME] [--explain] [--show-secrets] [--out DIR]
                                       what each MachineDeployment's nodes get, decoded (files, units)
  osm-krm diff BASE HEAD | diff --git REV [PATH]
                                       what a change does to nodes (exit 1 when any node changes)
  osm-krm lint PATH... [--format text|json|github]
                                       render OSPs for every cloud and a matrix of machines, and check them
  osm-krm --help
`;

function main(argv: string[]): number | Promise<number> {
  const out = (s: string) => writeAllSync(1, s);
  const err = (s: string) => writeAllSync(2, s);
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    out(USAGE);
    return 0;
  }
  if (command === 'template') return import('../../src/cli/templateCommand.ts').then((m) => m.runTemplateCommand(rest, { stdout: out, stdoutBytes: (b) => writeAllSync(1, b), stderr: err, readFile: (p) => readFileSync(p, 'utf8') }));
  const io: CommandIO = { stdout: out, stderr: err, env: process.env, cwd: process.cwd() };
  if (command === 'hydrate') return import('../../src/cli/hydrateCommand.ts').then((m) => m.runHydrateCommand(rest, io));
  if (command === 'generate') return import('../../src/cli/argocdGenerateCommand.ts').then((m) => m.runArgoCDGenerateCommand(rest, io));
  if (command === 'render') return import('../../src/cli/renderCommand.ts').then((m) => m.runRenderCommand(rest, io));
  if (command === 'diff') return import('../../src/cli/diffCommand.ts').then((m) => m.runDiffCommand(rest, io));
  if (command === 'lint') return import('../../src/cli/lintCommand.ts').then((m) => m.runLintCommand(rest, io));
  if (command !== undefined) {
    err(`osm-krm: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
    return 2;
  }
  return runFunctionOnFd(0, { stdout: out, stderr: err, env: processEnvironment });
}

function internalError(e: unknown): number {
  // Never a stack trace on stdout; a short line on stderr.
  writeAllSync(2, `osm-krm: internal error: ${untrustedLine(String((e as Error)?.message ?? e))}\n`);
  return 2;
}

let exitCode: number | Promise<number>;
try {
  exitCode = main(process.argv.slice(2));
} catch (e) {
  exitCode = internalError(e);
}
// Every write above is synchronous and nothing is pending: leaving now skips the teardown a natural exit
// does (about 8 ms of a cold start, more with a large heap; README.md, Benchmark). Only hydrate's SOPS mode
// has asynchronous work (age encryption), and leaves when it is done.
if (typeof exitCode === 'number') process.exit(exitCode);
else exitCode.then((code) => process.exit(code), (e) => process.exit(internalError(e)));
