// A bash script's structure, for the bill of materials: what the shell would run, with the words kept as their
// parts (literal text, parameter expansions, command substitutions) so an evaluator can expand them. It is a
// reader for following downloads, not a full shell: pipelines and `&&`/`||` lists are read as the commands
// they hold, in order; arithmetic, globs and brace expansion stay as written. Lines are 0-based.

export type WordPart =
  | { kind: 'text'; text: string; quoted: boolean }
  /** `$name`, `${name}`, `${name:-word}`, `${name[@]}`, `$1`, `$@`, ... (`op` and `arg`: the operator form). */
  | { kind: 'param'; name: string; index?: string; op?: string; arg?: Word; quoted: boolean; source: string }
  /** `$(...)`, backquotes, and `<(...)`/`>(...)` (process substitution: the word is a file name). */
  | { kind: 'command'; body: ShellNode[]; source: string; quoted: boolean; process?: boolean }
  /** `$((...))`: left as written. */
  | { kind: 'arithmetic'; source: string };

export interface Word {
  parts: WordPart[];
  /** The word as written. */
  source: string;
}

export interface Redirect {
  op: string;
  target?: Word;
  /** A here-document's body (expanded unless its delimiter was quoted). */
  heredoc?: { body: string; quoted: boolean };
}

export type ShellNode =
  | {
      type: 'simple';
      assignments: Array<{ name: string; value: Word | Word[]; append: boolean }>;
      words: Word[];
      redirects: Redirect[];
      line: number;
      endLine: number;
      piped?: boolean;
    }
  | { type: 'if'; clauses: Array<{ condition: ShellNode[]; body: ShellNode[] }>; otherwise?: ShellNode[]; line: number }
  | { type: 'for'; variable: string; items?: Word[]; body: ShellNode[]; line: number }
  | { type: 'loop'; condition: ShellNode[]; body: ShellNode[]; line: number }
  | { type: 'case'; subject: Word; arms: Array<{ patterns: Word[]; body: ShellNode[] }>; line: number }
  | { type: 'function'; name: string; body: ShellNode[]; line: number }
  | { type: 'group'; body: ShellNode[]; line: number };

/** How deep blocks, substitutions and expansions may nest: far beyond a real script, well within the stack. */
export const MAX_SHELL_NESTING = 256;

/** A script nested deeper than MAX_SHELL_NESTING (the parser would otherwise run out of stack). */
export class ShellNestingError extends Error {
  constructor(readonly line?: number) {
    super(
      `blocks, substitutions or expansions nested more than ${MAX_SHELL_NESTING} levels deep` +
        (line !== undefined ? ` (line ${line + 1})` : ''),
    );
  }
}

/**
 * The commands of `script`, as the shell would read them; throws ShellNestingError. `spend` is told the
 * characters read again (each nested level reads its text once more), for a budget that bounds the reading.
 */
export function parseShell(script: string, firstLine = 0, spend: (units: number) => void = () => {}): ShellNode[] {
  spend(script.length);
  return new ShellParser(script, firstLine, 0, spend).script();
}

const METACHARS = new Set([' ', '\t', '\n', '\r', ';', '&', '|', '(', ')', '<', '>']);
const CLOSERS = new Set(['then', 'elif', 'else', 'fi', 'do', 'done', 'esac', '}', ';;']);

class ShellParser {
  private i = 0;
  private pendingHeredocs: Redirect[] = [];
  /** The separator before the next command was a pipe. */
  private piped = false;

  constructor(
    private readonly s: string,
    private line: number,
    /** Levels open around this text (a substitution or expansion is read by a parser of its own). */
    private depth: number,
    private readonly spend: (units: number) => void,
  ) {
    if (depth > MAX_SHELL_NESTING) throw new ShellNestingError(line);
  }

  /** Every command to the end: a closing word or `)` with nothing open is skipped, never the rest of the script. */
  script(): ShellNode[] {
    const nodes = this.list();
    while (this.i < this.s.length) {
      this.i += this.s.startsWith(';;', this.i) ? 2 : (this.peekWord()?.length ?? 1);
      for (const n of this.list()) nodes.push(n);
    }
    return nodes;
  }

  /** Commands up to a closing reserved word, `)` or the end. */
  private list(): ShellNode[] {
    if (++this.depth > MAX_SHELL_NESTING) throw new ShellNestingError(this.line);
    try {
      return this.commands();
    } finally {
      this.depth--;
    }
  }

  private commands(): ShellNode[] {
    const out: ShellNode[] = [];
    for (;;) {
      this.piped = false;
      this.skipSeparators();
      if (this.i >= this.s.length) return out;
      if (this.s[this.i] === ')') return out;
      const reserved = this.peekWord();
      if (reserved !== undefined && CLOSERS.has(reserved)) return out;
      if (this.s.startsWith(';;', this.i)) return out;
      const piped = this.piped;
      const node = this.command();
      if (node !== undefined) out.push(piped && node.type === 'simple' ? { ...node, piped } : node);
    }
  }

  private skipSeparators(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) return;
      if (c === '\\' && this.s[this.i + 1] === '\n') {
        this.i += 2;
        this.line++;
      } else if (c === '\n') {
        this.i++;
        this.line++;
        this.readHeredocBodies();
      } else if (c === '|' && this.s[this.i + 1] !== '|' && this.s[this.i - 1] !== '|') {
        this.piped = true;
        this.i++;
      } else if (
        c === ' ' ||
        c === '\t' ||
        c === '\r' ||
        (c === ';' && this.s[this.i + 1] !== ';') ||
        c === '&' ||
        c === '|'
      ) {
        if (c !== ' ' && c !== '\t' && c !== '\r') this.piped = false;
        this.i++;
      } else if (c === '#') {
        while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
      } else if (c === '!' && /[\s]/.test(this.s[this.i + 1] ?? '')) {
        this.i++;
      } else return;
    }
  }

  private skipBlanks(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (c === '\\' && this.s[this.i + 1] === '\n') {
        this.i += 2;
        this.line++;
      } else return;
    }
  }

  /** The next unquoted plain word, without consuming it. */
  private peekWord(): string | undefined {
    const m = /^[^\s;&|()<>'"$`\\]+/.exec(this.s.slice(this.i, this.i + 64));
    if (m === null) return undefined;
    const next = this.s[this.i + m[0].length];
    return next === undefined || METACHARS.has(next) ? m[0] : undefined;
  }

  private expectWord(word: string): void {
    this.skipSeparators();
    if (this.peekWord() === word) this.i += word.length;
  }

  private command(): ShellNode | undefined {
    const line = this.line;
    const w = this.peekWord();
    if (w === 'if') {
      this.i += 2;
      const clauses: Array<{ condition: ShellNode[]; body: ShellNode[] }> = [];
      let otherwise: ShellNode[] | undefined;
      for (;;) {
        const condition = this.list();
        this.expectWord('then');
        const body = this.list();
        clauses.push({ condition, body });
        this.skipSeparators();
        const next = this.peekWord();
        if (next === 'elif') {
          this.i += 4;
          continue;
        }
        if (next === 'else') {
          this.i += 4;
          otherwise = this.list();
          this.skipSeparators();
        }
        this.expectWord('fi');
        break;
      }
      this.trailingRedirects();
      return { type: 'if', clauses, ...(otherwise ? { otherwise } : {}), line };
    }
    if (w === 'while' || w === 'until') {
      this.i += w.length;
      const condition = this.list();
      this.expectWord('do');
      const body = this.list();
      this.expectWord('done');
      this.trailingRedirects();
      return { type: 'loop', condition, body, line };
    }
    if (w === 'for') {
      this.i += 3;
      this.skipBlanks();
      if (this.s.startsWith('((', this.i)) {
        // for ((init; test; step)): arithmetic the node computes; the body is read as a loop's.
        const end = this.s.indexOf('))', this.i);
        this.i = end < 0 ? this.s.length : end + 2;
        this.expectWord('do');
        const body = this.list();
        this.expectWord('done');
        this.trailingRedirects();
        return { type: 'loop', condition: [], body, line };
      }
      const variable = this.peekWord() ?? '';
      this.i += variable.length;
      this.skipBlanks();
      let items: Word[] | undefined;
      if (this.peekWord() === 'in') {
        this.i += 2;
        items = [];
        for (;;) {
          this.skipBlanks();
          const c = this.s[this.i];
          if (c === undefined || c === ';' || c === '\n') break;
          const word = this.word();
          if (word === undefined) break;
          items.push(word);
        }
      }
      this.expectWord('do');
      const body = this.list();
      this.expectWord('done');
      this.trailingRedirects();
      return { type: 'for', variable, ...(items ? { items } : {}), body, line };
    }
    if (w === 'case') {
      this.i += 4;
      this.skipBlanks();
      const subject = this.word() ?? { parts: [], source: '' };
      this.expectWord('in');
      const arms: Array<{ patterns: Word[]; body: ShellNode[] }> = [];
      for (;;) {
        this.skipSeparators();
        if (this.peekWord() === 'esac' || this.i >= this.s.length) break;
        if (this.s[this.i] === '(') this.i++;
        const patterns: Word[] = [];
        for (;;) {
          this.skipBlanks();
          const p = this.word();
          if (p !== undefined) patterns.push(p);
          this.skipBlanks();
          if (this.s[this.i] === '|') {
            this.i++;
            continue;
          }
          if (this.s[this.i] === ')') this.i++;
          break;
        }
        const body = this.list();
        if (this.s.startsWith(';;', this.i)) this.i += 2;
        arms.push({ patterns, body });
      }
      this.expectWord('esac');
      this.trailingRedirects();
      return { type: 'case', subject, arms, line };
    }
    if (w === '[[') {
      // A conditional expression: its operators (`=~ (a|b)`, `<`) are not the shell's; read as one opaque word.
      const close = /\s\]\](?=[\s;&|)]|$)/.exec(this.s.slice(this.i));
      const stop = close === null ? this.s.length : this.i + close.index + close[0].length;
      const source = this.s.slice(this.i, stop);
      this.countLines(this.i, stop);
      this.i = stop;
      return {
        type: 'simple',
        assignments: [],
        words: [
          { parts: [{ kind: 'text', text: '[[', quoted: false }], source: '[[' },
          { parts: [{ kind: 'text', text: source, quoted: true }], source },
        ],
        redirects: [],
        line,
        endLine: this.line,
      };
    }
    if (w === '{') {
      this.i += 1;
      const body = this.list();
      this.expectWord('}');
      this.trailingRedirects();
      return { type: 'group', body, line };
    }
    if (this.s.startsWith('((', this.i)) {
      // An arithmetic command: the node computes it; read as one opaque word.
      const end = this.s.indexOf('))', this.i);
      const stop = end < 0 ? this.s.length : end + 2;
      const source = this.s.slice(this.i, stop);
      this.countLines(this.i, stop);
      this.i = stop;
      return {
        type: 'simple',
        assignments: [],
        words: [{ parts: [{ kind: 'arithmetic', source }], source }],
        redirects: [],
        line,
        endLine: this.line,
      };
    }
    if (this.s[this.i] === '(') {
      this.i++;
      const body = this.list();
      if (this.s[this.i] === ')') this.i++;
      this.trailingRedirects();
      return { type: 'group', body, line };
    }
    if (w === 'function') {
      this.i += 8;
      this.skipBlanks();
      const name = this.peekWord() ?? '';
      this.i += name.length;
      this.skipBlanks();
      if (this.s.startsWith('()', this.i)) this.i += 2;
      return this.functionBody(name, line);
    }
    const fn = /^([A-Za-z_][A-Za-z0-9_:.-]*)\s*\(\s*\)/.exec(this.s.slice(this.i, this.i + 128));
    if (fn !== null) {
      this.i += fn[0].length;
      return this.functionBody(fn[1]!, line);
    }
    return this.simple();
  }

  private functionBody(name: string, line: number): ShellNode {
    this.skipSeparators();
    const body = this.command();
    return { type: 'function', name, body: body === undefined ? [] : body.type === 'group' ? body.body : [body], line };
  }

  /** Redirections after a compound command (`done < file`, `} >&2`): read and dropped. */
  private trailingRedirects(): void {
    for (;;) {
      this.skipBlanks();
      if (this.redirect() === undefined) return;
    }
  }

  private simple(): ShellNode | undefined {
    const node: Extract<ShellNode, { type: 'simple' }> = {
      type: 'simple',
      assignments: [],
      words: [],
      redirects: [],
      line: this.line,
      endLine: this.line,
    };
    for (;;) {
      this.skipBlanks();
      const c = this.s[this.i];
      if (c === undefined || c === '\n' || c === ';' || c === '&' || c === '|' || c === ')') break;
      if (c === '#') {
        while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
        break;
      }
      const r = this.redirect();
      if (r !== undefined) {
        node.redirects.push(r);
        continue;
      }
      if (node.words.length === 0) {
        const a = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/.exec(this.s.slice(this.i, this.i + 128));
        if (a !== null) {
          this.i += a[0].length;
          if (this.s[this.i] === '(') {
            this.i++;
            const values: Word[] = [];
            for (;;) {
              this.skipSeparators();
              if (this.s[this.i] === ')' || this.i >= this.s.length) break;
              const v = this.word();
              if (v === undefined) {
                this.i++;
                continue;
              }
              values.push(v);
            }
            this.i++;
            node.assignments.push({ name: a[1]!, value: values, append: a[2] === '+' });
          } else {
            node.assignments.push({
              name: a[1]!,
              value: this.word() ?? { parts: [], source: '' },
              append: a[2] === '+',
            });
          }
          continue;
        }
      }
      const w = this.word();
      if (w === undefined) {
        this.i++;
        continue;
      }
      node.words.push(w);
    }
    node.endLine = this.line;
    return node.words.length > 0 || node.assignments.length > 0 || node.redirects.length > 0 ? node : undefined;
  }

  private redirect(): Redirect | undefined {
    const m = /^(?:\d*(?:>>|>&|<&|<<<|<<-?|<>|>\||>|<)|&>>?)/.exec(this.s.slice(this.i, this.i + 6));
    if (m === null || this.s[this.i + m[0].length] === '(') return undefined; // <(...) is a word
    this.i += m[0].length;
    const op = m[0].replace(/^\d+/, '');
    this.skipBlanks();
    const target = this.word();
    if (op === '<<' || op === '<<-') {
      const r: Redirect = { op, heredoc: { body: '', quoted: /['"\\]/.test(target?.source ?? '') } };
      this.pendingHeredocs.push(Object.assign(r, { delimiter: literalOf(target), stripTabs: op === '<<-' }));
      return r;
    }
    return { op, ...(target ? { target } : {}) };
  }

  private readHeredocBodies(): void {
    const docs = this.pendingHeredocs as Array<Redirect & { delimiter: string; stripTabs: boolean }>;
    this.pendingHeredocs = [];
    for (const doc of docs) {
      const lines: string[] = [];
      while (this.i < this.s.length) {
        const end = this.s.indexOf('\n', this.i);
        const stop = end < 0 ? this.s.length : end;
        const text = this.s.slice(this.i, stop);
        this.i = end < 0 ? this.s.length : end + 1;
        this.line++;
        const line = doc.stripTabs ? text.replace(/^\t+/, '') : text;
        if (line === doc.delimiter) break;
        lines.push(line);
      }
      doc.heredoc!.body = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
    }
  }

  /** One word: its parts, quotes removed. */
  private word(): Word | undefined {
    const start = this.i;
    const parts: WordPart[] = [];
    const text = (t: string, quoted: boolean) => {
      const last = parts[parts.length - 1];
      if (last?.kind === 'text' && last.quoted === quoted) last.text += t;
      else parts.push({ kind: 'text', text: t, quoted });
    };
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if ((c === '<' || c === '>') && this.s[this.i + 1] === '(') {
        const end = this.closing(this.s, this.i + 1);
        parts.push({
          kind: 'command',
          body: this.nested(this.i + 2, end),
          source: this.s.slice(this.i, end + 1),
          quoted: false,
          process: true,
        });
        this.i = end + 1;
        continue;
      }
      if (c === '(' && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(this.s.slice(start, this.i))) {
        // An array assignment given as an argument (`declare -A keys=()`, `local a=(x y)`): kept as written.
        const end = this.closing(this.s, this.i);
        text(this.s.slice(this.i, end + 1), false);
        this.countLines(this.i, end);
        this.i = end + 1;
        continue;
      }
      if (METACHARS.has(c)) break;
      if (c === '\\') {
        if (this.s[this.i + 1] === '\n') {
          this.i += 2;
          this.line++;
          continue;
        }
        text(this.s[this.i + 1] ?? '', true);
        this.i += 2;
        continue;
      }
      if (c === "'") {
        const end = this.s.indexOf("'", this.i + 1);
        const stop = end < 0 ? this.s.length : end;
        text(this.s.slice(this.i + 1, stop), true);
        this.countLines(this.i, stop);
        this.i = stop + 1;
        continue;
      }
      if (c === '$' && this.s[this.i + 1] === "'") {
        const end = this.s.indexOf("'", this.i + 2);
        const stop = end < 0 ? this.s.length : end;
        text(
          this.s
            .slice(this.i + 2, stop)
            .replace(/\\n/g, '\n')
            .replace(/\\t/g, '\t')
            .replace(/\\(.)/g, '$1'),
          true,
        );
        this.countLines(this.i, stop);
        this.i = stop + 1;
        continue;
      }
      if (c === '"') {
        this.i++;
        while (this.i < this.s.length && this.s[this.i] !== '"') {
          const d = this.s[this.i]!;
          if (d === '\\' && this.i + 1 < this.s.length) {
            const n = this.s[this.i + 1]!;
            if (n === '\n') this.line++;
            else text('"\\$`'.includes(n) ? n : `\\${n}`, true);
            this.i += 2;
            continue;
          }
          if (d === '$' || d === '`') {
            const p = this.dollar(true);
            if (p !== undefined) {
              parts.push(p);
              continue;
            }
          }
          if (d === '\n') this.line++;
          text(d, true);
          this.i++;
        }
        this.i++;
        continue;
      }
      if (c === '$' || c === '`') {
        const p = this.dollar(false);
        if (p !== undefined) {
          parts.push(p);
          continue;
        }
      }
      text(c, false);
      this.i++;
    }
    if (this.i === start) return undefined;
    return { parts, source: this.s.slice(start, this.i) };
  }

  /** An expansion at `$` or a backquote; undefined when `$` is a plain character. */
  private dollar(quoted: boolean): WordPart | undefined {
    const s = this.s;
    const at = this.i;
    if (s[at] === '`') {
      const end = s.indexOf('`', at + 1);
      const stop = end < 0 ? s.length : end;
      const part: WordPart = {
        kind: 'command',
        body: this.nested(at + 1, stop),
        source: s.slice(at, stop + 1),
        quoted,
      };
      this.i = stop + 1;
      return part;
    }
    if (s.startsWith('$((', at)) {
      const end = s.indexOf('))', at);
      const stop = end < 0 ? s.length : end + 2;
      this.i = stop;
      return { kind: 'arithmetic', source: s.slice(at, stop) };
    }
    if (s[at + 1] === '(') {
      const end = this.closing(s, at + 1);
      const part: WordPart = { kind: 'command', body: this.nested(at + 2, end), source: s.slice(at, end + 1), quoted };
      this.i = end + 1;
      return part;
    }
    if (s[at + 1] === '{') {
      const end = this.closing(s, at + 1, '{', '}');
      const inner = s.slice(at + 2, end);
      this.countLines(at, end);
      this.i = end + 1;
      const m = /^(#?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(?:\[([^\]]*)\])?(.*)$/s.exec(inner);
      if (m === null) return { kind: 'param', name: inner, quoted, source: s.slice(at, end + 1) };
      const [, length, name, index, rest] = m;
      const op = /^(:?[-=?+]|##?|%%?|\/\/?|:)/.exec(rest!)?.[0];
      const part: WordPart = {
        kind: 'param',
        name: name!,
        quoted,
        source: s.slice(at, end + 1),
        ...(index !== undefined ? { index } : {}),
      };
      if (length === '#') return { ...part, op: '#length' };
      if (op !== undefined)
        return {
          ...part,
          op,
          arg: new ShellParser(rest!.slice(op.length), this.line, this.depth + 1, this.spend).word() ?? {
            parts: [],
            source: '',
          },
        };
      return part;
    }
    const m = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(s.slice(at, at + 128));
    if (m === null) return undefined;
    this.i = at + m[0].length;
    return { kind: 'param', name: m[1]!, quoted, source: m[0] };
  }

  /** matchingClose, its reading spent (the text up to the close is read again by the nested parser). */
  private closing(s: string, open: number, opener = '(', close = ')'): number {
    const end = matchingClose(s, open, opener, close);
    this.spend(2 * (end - open));
    return end;
  }

  private nested(from: number, to: number): ShellNode[] {
    const line = this.line;
    this.countLines(from, to);
    return new ShellParser(this.s.slice(from, to), line, this.depth + 1, this.spend).script();
  }

  private countLines(from: number, to: number): void {
    for (let k = from; k < to && k < this.s.length; k++) if (this.s[k] === '\n') this.line++;
  }
}

function literalOf(w: Word | undefined): string {
  return (w?.parts ?? []).map((p) => (p.kind === 'text' ? p.text : p.source)).join('');
}

/** The index of the `)` (or `close`) closing the `(` at `open` (quotes and nested pairs skipped), or the end. */
function matchingClose(s: string, open: number, opener = '(', close = ')', nesting = 0): number {
  if (nesting > MAX_SHELL_NESTING) throw new ShellNestingError();
  let depth = 0;
  for (let k = open; k < s.length; k++) {
    const c = s[k];
    if (c === '\\') k++;
    else if (c === "'") {
      const e = s.indexOf("'", k + 1);
      k = e < 0 ? s.length : e;
    } else if (c === '"') {
      for (k++; k < s.length && s[k] !== '"'; k++) {
        if (s[k] === '\\') k++;
        else if (s[k] === '$' && s[k + 1] === '(') k = matchingClose(s, k + 1, '(', ')', nesting + 1);
      }
    } else if (c === opener) depth++;
    else if (c === close && --depth === 0) return k;
  }
  return s.length;
}
