// `osm-krm template FILE --data DATA.json [--name NAME] [--funcs builtin|sprig|osm]`: renders one OSP
// template the way OSM would, so OSP authors can try templates without a cluster.
//   exit 0: rendered text on stdout (exactly Go's bytes, no newline added)
//   exit 1: the template's parse/exec error (Go's message), unreadable files or invalid JSON, on stderr
//   exit 2: usage error
// `args` are the arguments after the `template` sub-command.

import type { FuncMap } from '../go/reflect/func.ts';
import { CommandError, runSubcommand } from './commandIO.ts';
import type { CommandLine } from './commandLine.ts';
import { TEMPLATE_COMMAND } from './commandSpecs.ts';
import { newTemplate, TemplateError } from '../template/index.ts';
import { JsonDataError, parseJsonData } from './jsonData.ts';
import { goBytes } from '../go/reflect/byteString.ts';
import { osmTemplateFuncs, sprigFuncs } from '../sprig/index.ts';

export interface TemplateCommandIo {
  stdout: (s: string) => void;
  /** The rendering: Go's bytes, which need not be UTF-8 (`b64dec` of binary data). */
  stdoutBytes: (b: Uint8Array) => void;
  stderr: (s: string) => void;
  readFile: (path: string) => string;
}

type FuncsName = 'builtin' | 'sprig' | 'osm';
const FUNC_MAPS: Record<FuncsName, FuncMap | undefined> = {
  builtin: undefined,
  sprig: sprigFuncs,
  osm: osmTemplateFuncs,
};

interface Options {
  file: string;
  data?: string;
  name?: string;
  funcs: FuncsName;
}

function options(cl: CommandLine): Options {
  const data = cl.value('--data');
  const name = cl.value('--name');
  return {
    file: cl.operands[0]!,
    funcs: (cl.value('--funcs') ?? 'osm') as FuncsName,
    ...(data !== undefined ? { data } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}

function read(io: TemplateCommandIo, path: string, what: string): string {
  try {
    return io.readFile(path);
  } catch (e) {
    const reason = (e as { reason?: unknown }).reason;
    throw new CommandError(
      `cannot read ${what} ${path}: ${typeof reason === 'string' ? reason : e instanceof Error ? e.message : String(e)}`,
    );
  }
}

export function runTemplateCommand(args: string[], io: TemplateCommandIo): number {
  return runSubcommand(TEMPLATE_COMMAND, args, io, options, (opts, io) => {
    try {
      const source = read(io, opts.file, 'template');
      const data = opts.data === undefined ? null : parseJsonData(read(io, opts.data, 'data file'));
      const funcs = FUNC_MAPS[opts.funcs];
      const t = newTemplate(opts.name ?? opts.file, funcs === undefined ? undefined : { funcs });
      t.parse(source);
      io.stdoutBytes(goBytes(t.execute(data)));
      return 0;
    } catch (e) {
      if (e instanceof CommandError) throw e;
      if (e instanceof TemplateError) {
        io.stderr(`${e.message}\n`);
        if (opts.data === undefined && / executing /.test(e.message))
          io.stderr('osm-krm template: note: no --data was given, so dot is nil\n');
      } else if (e instanceof JsonDataError) io.stderr(`osm-krm template: ${opts.data}: ${e.message}\n`);
      else io.stderr(`osm-krm template: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
  });
}
