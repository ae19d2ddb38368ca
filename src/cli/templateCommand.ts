// `osm-krm template FILE --data DATA.json [--name NAME] [--funcs builtin|sprig|osm]`: renders one OSP
// template the way OSM would, so OSP authors can try templates without a cluster.
//   exit 0: rendered text on stdout (exactly Go's bytes, no newline added)
//   exit 1: the template's parse/exec error (Go's message), unreadable files or invalid JSON, on stderr
//   exit 2: usage error
// `args` are the arguments after the `template` sub-command.

import type { FuncMap } from '../go/reflect/func.ts';
import { CommandError, runSubcommand, UsageError } from './commandIO.ts';
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

export const TEMPLATE_USAGE = `usage: osm-krm template FILE [--data DATA.json] [--name NAME] [--funcs builtin|sprig|osm]

Renders the Go template in FILE with the JSON in DATA.json as dot (without --data, dot is nil).
JSON integers are Go ints and other numbers float64, as OSM's template data would be.
  --name NAME    template name used in error messages (default: FILE)
  --funcs MAP    function map: builtin (Go only), sprig, or osm (sprig + OSM's extras; default)
`;

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

function parseArgs(args: readonly string[]): Options | 'help' {
  let file: string | undefined;
  const opts: Partial<Options> = {};
  const valueOf = (i: number, flag: string, inline: string | undefined): [string, number] => {
    if (inline !== undefined) return [inline, i];
    const v = args[i + 1];
    if (v === undefined) throw new UsageError(`${flag} needs a value`);
    return [v, i + 1];
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-h' || arg === '--help') return 'help';
    const m = /^(--[a-z]+)(?:=(.*))?$/s.exec(arg);
    if (m !== null) {
      const [, flag, inline] = m as unknown as [string, string, string | undefined];
      let v: string;
      switch (flag) {
        case '--data':
          [v, i] = valueOf(i, flag, inline);
          opts.data = v;
          break;
        case '--name':
          [v, i] = valueOf(i, flag, inline);
          opts.name = v;
          break;
        case '--funcs':
          [v, i] = valueOf(i, flag, inline);
          if (v !== 'builtin' && v !== 'sprig' && v !== 'osm') {
            throw new UsageError(`--funcs must be builtin, sprig or osm, not ${JSON.stringify(v)}`);
          }
          opts.funcs = v;
          break;
        default:
          throw new UsageError(`unknown option ${flag}`);
      }
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
    if (file !== undefined) throw new UsageError(`one template FILE expected, got ${JSON.stringify(file)} and ${JSON.stringify(arg)}`);
    file = arg;
  }
  if (file === undefined) throw new UsageError('missing template FILE');
  return { ...opts, file, funcs: opts.funcs ?? 'osm' };
}

function read(io: TemplateCommandIo, path: string, what: string): string {
  try {
    return io.readFile(path);
  } catch (e) {
    const reason = (e as { reason?: unknown }).reason;
    throw new CommandError(`cannot read ${what} ${path}: ${typeof reason === 'string' ? reason : e instanceof Error ? e.message : String(e)}`);
  }
}

export function runTemplateCommand(args: string[], io: TemplateCommandIo): number {
  return runSubcommand('template', TEMPLATE_USAGE, args, io, parseArgs, (opts) => {
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
        if (opts.data === undefined && / executing /.test(e.message)) io.stderr('osm-krm template: note: no --data was given, so dot is nil\n');
      }
      else if (e instanceof JsonDataError) io.stderr(`osm-krm template: ${opts.data}: ${e.message}\n`);
      else io.stderr(`osm-krm template: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
  });
}
