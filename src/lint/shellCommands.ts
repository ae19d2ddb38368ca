// The commands a shell script runs, read as a POSIX shell reads them, so that lint's checks look at commands and
// never at prose: comments, quoted strings (an `echo "never curl -k"` runs echo), backslash-newline
// continuations, command separators (; & | && || newline, ( ) { }, $( ) and backquotes), redirections and here-
// documents (their bodies are read as scripts of their own: they are often scripts written to a file). It is a
// reader for checks, not an interpreter: expansions stay as written, and Go template actions in an OSP's
// templates are read as a word (a value) or as nothing (if, range, template... write no word of their own).

export interface ShellCommand {
  /** The words, quotes removed; redirections are not among them. */
  words: string[];
  /** The redirections: operator (`>`, `>>`, `<`, `2>`...) and target. */
  redirects: Array<{ op: string; target: string }>;
  /** 0-based lines of the script where the command starts and ends. */
  line: number;
  endLine: number;
}

/** The words a Go template action stands for: a value action is one word, a control action none. */
const CONTROL_ACTION = /^\{\{-?\s*(?:if|else|end|range|with|define|block|template|break|continue|\/\*)\b/;
const ACTION_WORD = 'TEMPLATE_VALUE';

/** Replaces Go template actions (`{{ ... }}`) by what the shell sees in their place, keeping line numbers. */
export function withoutTemplateActions(text: string): string {
  return text.replace(/\{\{[\s\S]*?\}\}/g, (action) => {
    const newlines = action.replace(/[^\n]/g, '');
    return (CONTROL_ACTION.test(action) ? '' : ACTION_WORD) + newlines;
  });
}

/** The simple commands of `script`, in order (pipelines and lists split into their commands). */
export function shellCommands(script: string): ShellCommand[] {
  return new ShellReader(script).read();
}

const OPERATOR_CHARS = new Set([';', '&', '|', '(', ')', '`']);

class ShellReader {
  private i = 0;
  private line = 0;
  private readonly commands: ShellCommand[] = [];
  private current: ShellCommand | undefined;
  /** Here-documents opened on the current line: their bodies follow the next newline. */
  private pendingHeredocs: Array<{ delimiter: string; stripTabs: boolean }> = [];

  constructor(private readonly s: string) {}

  read(): ShellCommand[] {
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === '\\' && this.s[this.i + 1] === '\n') {
        this.i += 2;
        this.line++;
        continue;
      }
      if (c === '\n') {
        this.endCommand();
        this.i++;
        this.line++;
        this.readHeredocBodies();
        continue;
      }
      if (c === ' ' || c === '\t' || c === '\r') {
        this.i++;
        continue;
      }
      if (c === '#') {
        // A comment: `#` starting a word, up to the end of the line.
        while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
        continue;
      }
      if (c === '$' && this.s[this.i + 1] === '(' && this.s[this.i + 2] !== '(') {
        // A command substitution starts a command of its own.
        this.endCommand();
        this.i += 2;
        continue;
      }
      const redirect = /^(?:\d*(?:>>|>&|<&|<<<|<<-?|<>|>\||>|<)|&>>?)/.exec(this.s.slice(this.i, this.i + 6))?.[0];
      if (redirect === undefined && OPERATOR_CHARS.has(c)) {
        this.endCommand();
        this.i++;
        continue;
      }
      if (redirect !== undefined) {
        this.i += redirect.length;
        this.skipBlanks();
        const target = this.word();
        const op = redirect.replace(/^\d+/, '');
        if (op === '<<' || op === '<<-') {
          this.pendingHeredocs.push({ delimiter: target?.value ?? '', stripTabs: op === '<<-' });
        } else if (target !== undefined) {
          this.command().redirects.push({ op: redirect, target: target.value });
        }
        continue;
      }
      const w = this.word();
      if (w === undefined) {
        this.i++;
        continue;
      }
      const cmd = this.command();
      // `{` and `}` group commands; as words of their own they are not part of the command.
      if ((w.raw === '{' || w.raw === '}' || w.raw === '!') && cmd.words.length === 0) continue;
      cmd.words.push(w.value);
    }
    this.endCommand();
    return this.commands;
  }

  private command(): ShellCommand {
    if (this.current === undefined) this.current = { words: [], redirects: [], line: this.line, endLine: this.line };
    return this.current;
  }

  private endCommand(): void {
    if (this.current !== undefined && (this.current.words.length > 0 || this.current.redirects.length > 0)) {
      this.current.endLine = this.line;
      this.commands.push(this.current);
    }
    this.current = undefined;
  }

  private skipBlanks(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }

  /** One word from the current position: quotes removed, `$'...'`, `"..."` and `'...'` read whole. */
  private word(): { value: string; raw: string } | undefined {
    const start = this.i;
    let value = '';
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '<' || c === '>' || OPERATOR_CHARS.has(c)) break;
      if (c === '$' && this.s[this.i + 1] === '(' && value !== '') break; // `x=$(...)`: the substitution is a command
      if (c === '\\') {
        if (this.s[this.i + 1] === '\n') {
          this.i += 2;
          this.line++;
          continue;
        }
        value += this.s[this.i + 1] ?? '';
        this.i += 2;
        continue;
      }
      if (c === "'" || (c === '$' && this.s[this.i + 1] === "'")) {
        if (c === '$') this.i++;
        const end = this.s.indexOf("'", this.i + 1);
        const stop = end < 0 ? this.s.length : end;
        value += this.s.slice(this.i + 1, stop);
        this.countLines(this.i, stop);
        this.i = stop + 1;
        continue;
      }
      if (c === '"') {
        let j = this.i + 1;
        while (j < this.s.length && this.s[j] !== '"') {
          if ((this.s[j] === '$' && this.s[j + 1] === '(') || this.s[j] === '`') {
            // A command substitution inside the string runs a command: read it as a script of its own.
            const open = this.s[j] === '`' ? 1 : 2;
            const close = this.s[j] === '`' ? this.s.indexOf('`', j + 1) : matchingParen(this.s, j + 1);
            const end = close < 0 ? this.s.length : close;
            this.readNested(this.s.slice(j + open, end), this.line + countNewlines(this.s, this.i, j));
            value += this.s.slice(j, end + 1);
            j = end + 1;
            continue;
          }
          if (this.s[j] === '\\' && j + 1 < this.s.length) {
            value +=
              this.s[j + 1] === '\n' ? '' : '"\\$`'.includes(this.s[j + 1]!) ? this.s[j + 1] : `\\${this.s[j + 1]}`;
            j += 2;
            continue;
          }
          value += this.s[j];
          j++;
        }
        this.countLines(this.i, j);
        this.i = j + 1;
        continue;
      }
      if (c === '$' && this.s[this.i + 1] === '{') {
        const end = this.s.indexOf('}', this.i);
        const stop = end < 0 ? this.s.length : end + 1;
        value += this.s.slice(this.i, stop);
        this.i = stop;
        continue;
      }
      value += c;
      this.i++;
    }
    if (this.i === start) return undefined;
    return { value, raw: this.s.slice(start, this.i) };
  }

  private countLines(from: number, to: number): void {
    for (let k = from; k < to && k < this.s.length; k++) if (this.s[k] === '\n') this.line++;
  }

  /** After a newline: the bodies of the here-documents opened on the line before, each read as a script. */
  private readHeredocBodies(): void {
    const docs = this.pendingHeredocs;
    this.pendingHeredocs = [];
    for (const doc of docs) {
      const bodyStart = this.i;
      const firstLine = this.line;
      while (this.i < this.s.length) {
        const end = this.s.indexOf('\n', this.i);
        const stop = end < 0 ? this.s.length : end;
        const text = this.s.slice(this.i, stop);
        const atEnd = (doc.stripTabs ? text.replace(/^\t+/, '') : text) === doc.delimiter;
        const lineStart = this.i;
        this.i = end < 0 ? this.s.length : end + 1;
        this.line++;
        if (atEnd) {
          this.readNested(this.s.slice(bodyStart, lineStart), firstLine);
          break;
        }
        if (end < 0) this.readNested(this.s.slice(bodyStart), firstLine);
      }
    }
  }

  private readNested(body: string, firstLine: number): void {
    for (const cmd of new ShellReader(body).read())
      this.commands.push({ ...cmd, line: cmd.line + firstLine, endLine: cmd.endLine + firstLine });
  }
}

/** The index of the `)` that closes the `(` at `open`, or -1 (quotes inside are skipped over). */
function matchingParen(s: string, open: number): number {
  let depth = 0;
  for (let k = open; k < s.length; k++) {
    const c = s[k];
    if (c === "'") {
      const e = s.indexOf("'", k + 1);
      if (e < 0) return -1;
      k = e;
    } else if (c === '\\') k++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return k;
  }
  return -1;
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) if (s[k] === '\n') n++;
  return n;
}

const RUNS_NEXT_WORD = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', '!', '{', '}']);

/** A command's name, after assignments and the wrappers that run the rest as a command (sudo, env, exec...). */
export function commandName(words: readonly string[]): { name: string; args: string[] } | undefined {
  let k = 0;
  for (;;) {
    // Reserved words that run the command after them (`if ! cmd; then cmd2`), and assignments before it.
    while (k < words.length && (RUNS_NEXT_WORD.has(words[k]!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k]!))) k++;
    const w = words[k];
    if (w === undefined) return undefined;
    const base = w.slice(w.lastIndexOf('/') + 1);
    if (
      base === 'sudo' ||
      base === 'exec' ||
      base === 'command' ||
      base === 'nohup' ||
      base === 'time' ||
      base === 'env'
    ) {
      k++;
      while (k < words.length && words[k]!.startsWith('-')) k++;
      continue;
    }
    if (base === 'timeout') {
      k++;
      while (k < words.length && words[k]!.startsWith('-')) k++;
      k++; // the duration
      continue;
    }
    return { name: base, args: words.slice(k + 1) };
  }
}

/** A systemd unit's commands (`ExecStart=` and the other Exec lines) as a script, line for line; the rest blank. */
export function unitCommandLines(unit: string): string {
  return unit
    .split('\n')
    .map((l) => /^\s*Exec[A-Za-z]*=\s*[-@:+!]*(.*)$/.exec(l)?.[1] ?? '')
    .join('\n');
}
