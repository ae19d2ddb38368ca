// The one command-line parser of every sub-command, and their help texts, both driven by one table per command
// (src/cli/commandSpecs.ts): what the parser accepts is what the help says, for every command alike.
//   --flag value and --flag=value       an option's value (an empty one is refused)
//   --switch                            a switch takes no value (--switch=x is refused)
//   -h, --help                          the help on stdout, exit 0 (anywhere before `--`)
//   --                                  everything after it is an operand, even when it starts with `-`
//   -                                   an operand
// Wrong arguments are a UsageError (the message, then the usage; exit 2).
import { didYouMean } from '../krm/didYouMean.ts';

/** Wrong arguments: reported with the help text, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface OptionSpec {
  /** `--name`. */
  flag: string;
  /** The value's placeholder in the help (`FILE`); absent for a switch. */
  value?: string;
  repeatable?: boolean;
  /** The only values allowed. */
  choices?: readonly string[];
  /** One line or more (`\n`), aligned in the help. */
  help: string;
}

/**
 * One way to call the command. `operands` in the usual notation: `SRC OUT`, `[PATH]`, `PATH...`; `with`: the
 * option that selects this form (its operands then follow it in the synopsis).
 */
export interface CommandForm {
  operands: string;
  with?: string;
}

export interface CommandSpec {
  name: string;
  /** One line for the list of commands (`osm-krm --help`). */
  summary: string;
  forms: readonly CommandForm[];
  /** What the command does, before the list of operands and options. */
  description: string;
  operands: ReadonlyArray<{ name: string; help: string }>;
  options: readonly OptionSpec[];
  /** After the options: exit codes, notes. */
  footer?: string;
}

export interface CommandLine {
  form: CommandForm;
  operands: string[];
  /** The option's value (the last one given), or undefined. */
  value(flag: string): string | undefined;
  /** Every value of a repeatable option, in order. */
  values(flag: string): string[];
  /** Whether a switch (or an option) was given. */
  has(flag: string): boolean;
}

const HELP_FLAGS = new Set(['-h', '--help']);

/** Parses `args` (the arguments after the command's name) as `spec` says; 'help' for -h/--help. */
export function parseCommandLine(spec: CommandSpec, args: readonly string[]): CommandLine | 'help' {
  const byFlag = new Map(spec.options.map((o) => [o.flag, o]));
  const given = new Map<string, string[]>();
  const operands: string[] = [];
  let onlyOperands = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (onlyOperands || arg === '-' || !arg.startsWith('-')) {
      operands.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyOperands = true;
      continue;
    }
    if (HELP_FLAGS.has(arg)) return 'help';
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const option = byFlag.get(flag);
    if (option === undefined)
      throw new UsageError(`unknown option ${flag}${didYouMean(flag, [...byFlag.keys(), '--help'], (s) => s)}`);
    let value: string;
    if (option.value === undefined) {
      if (eq >= 0) throw new UsageError(`${flag} takes no value`);
      value = '';
    } else {
      const v = eq >= 0 ? arg.slice(eq + 1) : args[++i];
      if (v === undefined || v === '')
        throw new UsageError(`${flag} needs a value (${flag} ${option.value} or ${flag}=${option.value})`);
      if (option.choices !== undefined && !option.choices.includes(v))
        throw new UsageError(`${flag} must be ${orList(option.choices)}, got ${JSON.stringify(v)}`);
      value = v;
    }
    given.set(flag, [...(given.get(flag) ?? []), value]);
  }
  const form =
    spec.forms.find((f) => f.with !== undefined && given.has(f.with)) ??
    spec.forms.find((f) => f.with === undefined) ??
    spec.forms[0]!;
  checkOperands(form, operands);
  return {
    form,
    operands,
    value: (flag) => given.get(flag)?.at(-1),
    values: (flag) => given.get(flag) ?? [],
    has: (flag) => given.has(flag),
  };
}

function checkOperands(form: CommandForm, operands: readonly string[]): void {
  const words = form.operands.split(' ').filter(Boolean);
  const required = words.filter((w) => !w.startsWith('[')).length;
  const unbounded = words.some((w) => w.endsWith('...'));
  if (operands.length >= required && (unbounded || operands.length <= words.length)) return;
  const names = words.map((w) => w.replace(/^\[|\]$|\.\.\.$/g, ''));
  const expected =
    words.length === 1 && unbounded
      ? `at least one ${names[0]}`
      : words.length === 1 && required === 0
        ? `at most one ${names[0]}`
        : required === words.length
          ? orList(names, 'and')
          : form.operands;
  throw new UsageError(
    `${form.with !== undefined ? `with ${form.with}, ` : ''}expected ${expected}, got ${operands.length} argument(s)`,
  );
}

function orList(items: readonly string[], word = 'or'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${word} ${items[items.length - 1]}`;
}

/** `[--config FILE]`, `[--md NAME]...`, `[--explain]`. */
function optionSynopsis(o: OptionSpec): string {
  const value = o.choices !== undefined ? o.choices.join('|') : o.value;
  return `[${o.flag}${value === undefined ? '' : ` ${value}`}]${o.repeatable ? '...' : ''}`;
}

/** `osm-krm NAME ...` for each form: its operands, then every option it does not name itself. */
export function synopses(spec: CommandSpec): string[] {
  return spec.forms.map((f) => {
    const lead =
      f.with === undefined
        ? f.operands
        : `${f.with} ${spec.options.find((o) => o.flag === f.with)?.value ?? ''} ${f.operands}`;
    const rest = spec.options
      .filter((o) => o.flag !== f.with && !spec.forms.some((g) => g !== f && g.with === o.flag))
      .map(optionSynopsis);
    return ['osm-krm', spec.name, lead, ...rest]
      .map((s) => s.trim())
      .filter(Boolean)
      .join(' ');
  });
}

/** The command's help: synopses, description, operands and options (aligned), footer. */
export function helpText(spec: CommandSpec): string {
  const [first, ...more] = synopses(spec);
  const lines = [`usage: ${first}`, ...more.map((s) => `       ${s}`), '', spec.description.trimEnd()];
  const rows: Array<[string, string]> = [
    ...spec.operands.map((o): [string, string] => [o.name, o.help]),
    ...spec.options.map((o): [string, string] => [`${o.flag}${o.value === undefined ? '' : ` ${o.value}`}`, o.help]),
    ['-h, --help', 'print this help'],
  ];
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  for (const [left, help] of rows) {
    const [head, ...tail] = help.split('\n');
    lines.push(`  ${left.padEnd(width)}${head}`, ...tail.map((t) => `  ${' '.repeat(width)}${t}`));
  }
  if (spec.footer !== undefined) lines.push(spec.footer.trimEnd());
  return lines.join('\n') + '\n';
}
