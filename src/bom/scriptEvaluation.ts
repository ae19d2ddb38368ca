// Follows what a node's scripts run, without running them: variables, arrays, functions, positional
// parameters, `for` over known words, `case` and `[ ... ]` on known values, other scripts of the same
// user-data called by path (with their arguments), `bash -c`, and the node facts of nodeFacts.ts. Every command
// reached is handed to `onCommand` with its words expanded; a value the script computes at run time stays a
// placeholder (the text as written, e.g. `${sum}`) with the reason, so nothing that depends on it is dropped.
// Where a condition is not known, both ways are followed (a download in either is one the node may make).
import { globMatches, matchWork, trimPattern } from './globPattern.ts';
import { parseShell, ShellNestingError, type ShellNode, type Word, type WordPart } from './shellSyntax.ts';
import { factCommandOutput, type NodeFacts } from './nodeFacts.ts';

/** An expanded word: its text, where unknown parts are written as in the script, and why each is unknown. */
export interface Field {
  text: string;
  unknown: string[];
}

export const known = (text: string): Field => ({ text, unknown: [] });

/** A script of the user-data: where it is (for locations) and its text. */
export interface ScriptFile {
  stage: string;
  path: string;
  content: string;
}

export interface ExecutedCommand {
  argv: Field[];
  redirects: Array<{ op: string; target?: Field; heredoc?: Field }>;
  /** Where it is written: the script and the 0-based line in it. */
  script: ScriptFile;
  line: number;
  /** Whether it runs inside a command substitution or process substitution (its output is read). */
  captured: boolean;
  /** What a pipe feeds it, when an echo before it wrote a value. */
  stdin?: Field;
}

export interface EvaluationHost {
  facts: NodeFacts;
  /** A script of the user-data at this node path, if any (scripts call one another by path). */
  scriptAt(path: string): ScriptFile | undefined;
  /** A file of the user-data with static content (`cat FILE` gives its content). */
  fileAt(path: string): string | undefined;
  onCommand(c: ExecutedCommand): void;
}

interface Variable {
  values: Field[];
  array: boolean;
}

interface Frame {
  vars: Map<string, Variable>;
  exported: Set<string>;
  functions: Map<string, ShellNode[]>;
  positional: Field[];
  script: ScriptFile;
  /** Set by `exit` (the script ends), `return` (the function ends), `continue` or `break` (the loop's pass ends). */
  stopped?: 'exit' | 'return' | 'loop';
  /** What the last echo or printf wrote (a pipe feeds it to the next command). */
  lastOutput?: Field;
  captured: boolean;
}

const MAX_DEPTH = 24;
const MAX_ITERATIONS = 64;
/** Commands nested inside one another as followed (blocks in functions calling functions...): within the stack. */
const MAX_EVALUATION_NESTING = 1024;

// The evaluation's budget, in units of a few nanoseconds of CPU (a character read or made is one): each node
// followed costs NODE_UNITS (expanding, recording and later reading its command), each field or reason made
// REASON_UNITS and its characters, each fork or join ENTRY_UNITS per variable copied or compared, parsing the
// characters it reads (a nested level reads its text again). The depth and iteration bounds above do not bound
// the work by themselves (a function calling itself twice, loops inside loops, a variable doubled): the budget
// does, for every way a script can multiply it, at about a second per evaluation. The default profiles spend
// under 5% of it (test/robustness/bomScriptBudget.test.ts).
export const MAX_EVALUATION_WORK = 100_000_000;
export const NODE_UNITS = 4096;
/** A field or reason copied into a new field (array copies, not the text: texts are charged per character). */
export const REASON_UNITS = 32;
/** A variable, function or name copied into a fork, or compared when ways join. */
const ENTRY_UNITS = 128;

/** Following the scripts would take more than MAX_EVALUATION_WORK: they are not followed to their end. */
export class EvaluationBudgetError extends Error {
  constructor(
    readonly script: ScriptFile,
    /** The budget spent, or what else stopped the evaluation. */
    why: number | string,
  ) {
    super(
      `following the scripts ${typeof why === 'number' ? `took more than the evaluation's budget (${why} units: a loop, recursion or expansion that multiplies)` : why} at ${script.stage} ${script.path}; they are not followed to their end`,
    );
  }
}

/** parseShell, its nesting bound reported as a stop of the evaluation. */
function parseBounded(text: string, line: number, script: ScriptFile, spend: (units: number) => void): ShellNode[] {
  try {
    return parseShell(text, line, spend);
  } catch (e) {
    if (e instanceof ShellNestingError) throw new EvaluationBudgetError(script, `found ${e.message}`);
    throw e;
  }
}

export class ScriptEvaluator {
  private readonly parsed = new Map<string, ShellNode[]>();
  private depth = 0;
  /** Units spent (MAX_EVALUATION_WORK). */
  private work = 0;
  /** Nodes being followed inside one another (MAX_EVALUATION_NESTING). */
  private nesting = 0;
  /** Scripts already followed with the same arguments (a script is followed once per distinct call). */
  private readonly followed = new Set<string>();

  constructor(
    private readonly host: EvaluationHost,
    /** The budget (tests measure the units' cost with a smaller one). */
    private readonly maxWork = MAX_EVALUATION_WORK,
  ) {}

  /** Units spent so far. */
  get workSpent(): number {
    return this.work;
  }

  /** The scripts followed so far (stage:path). */
  reached(): Set<string> {
    return new Set([...this.followed].map((k) => k.slice(0, k.indexOf('\u0000'))));
  }

  /** Runs `script` as the node would start it, with `args` ($1...). */
  runScript(script: ScriptFile, args: readonly Field[], inherited: ReadonlyMap<string, Variable> = new Map()): void {
    const key = `${script.stage}:${script.path}\u0000${args.map((a) => a.text).join('\u0000')}`;
    if (this.followed.has(key) || this.depth >= MAX_DEPTH) return;
    this.followed.add(key);
    const frame: Frame = {
      vars: new Map(inherited),
      exported: new Set(inherited.keys()),
      functions: new Map(),
      positional: [...args],
      script,
      captured: false,
    };
    this.withDepth(() => this.list(this.parse(script.content, script), frame));
  }

  /** Runs a command line written outside any script (a unit's ExecStart, a runcmd entry). */
  runCommandLine(line: string, where: ScriptFile, lineNumber: number): void {
    const frame: Frame = {
      vars: new Map(),
      exported: new Set(),
      functions: new Map(),
      positional: [],
      script: where,
      captured: false,
    };
    this.withDepth(() => this.list(this.parseLine(line, lineNumber, where), frame));
  }

  /**
   * Charges what the bill makes of the commands followed (items read from them, texts read again) to the same
   * budget: following a command is cheap, the items it makes may not be. Throws EvaluationBudgetError past it.
   */
  spend(units: number, script: ScriptFile): void {
    this.charge(units, script);
  }

  /** Charges `units` of work done for `script`; throws EvaluationBudgetError past the budget. */
  private charge(units: number, script: ScriptFile): void {
    if ((this.work += units) > this.maxWork) throw new EvaluationBudgetError(script, this.maxWork);
  }

  /** Charges for `script` (what parsing it reads). */
  private spender(script: ScriptFile): (units: number) => void {
    return (units) => this.charge(units, script);
  }

  /** A copy of `f` (a way a condition may go), charged per entry copied. */
  private fork(f: Frame): Frame {
    this.charge(ENTRY_UNITS * (f.vars.size + f.functions.size + f.exported.size) + f.positional.length, f.script);
    return fork(f);
  }

  /** Charges making fields of these texts and reasons (before they are made). */
  private chargeFields(f: Frame, fields: readonly Field[]): void {
    let units = fields.length * REASON_UNITS;
    for (const v of fields) units += v.text.length + REASON_UNITS * v.unknown.length;
    this.charge(units, f.script);
  }

  /** joinFields, charged. */
  private joined(f: Frame, values: readonly Field[]): Field {
    this.chargeFields(f, values);
    return joinFields(values);
  }

  private withDepth(run: () => void): void {
    this.depth++;
    try {
      run();
    } finally {
      this.depth--;
    }
  }

  private parse(text: string, script: ScriptFile): ShellNode[] {
    let nodes = this.parsed.get(text);
    if (nodes === undefined) this.parsed.set(text, (nodes = parseBounded(text, 0, script, this.spender(script))));
    return nodes;
  }

  /** A command line or `bash -c` text, parsed (charged as read). */
  private parseLine(text: string, line: number, script: ScriptFile): ShellNode[] {
    return parseBounded(text, line, script, this.spender(script));
  }

  private list(nodes: readonly ShellNode[], f: Frame): void {
    for (const n of nodes) {
      if (f.stopped !== undefined) return;
      this.node(n, f);
    }
  }

  private node(n: ShellNode, f: Frame): void {
    this.charge(NODE_UNITS, f.script);
    if (++this.nesting > MAX_EVALUATION_NESTING)
      throw new EvaluationBudgetError(f.script, `nests commands more than ${MAX_EVALUATION_NESTING} levels deep`);
    try {
      this.nodeOf(n, f);
    } finally {
      this.nesting--;
    }
  }

  private nodeOf(n: ShellNode, f: Frame): void {
    switch (n.type) {
      case 'simple':
        return this.simple(n, f);
      case 'group':
        return this.list(n.body, f);
      case 'function':
        f.functions.set(n.name, n.body);
        return;
      case 'if': {
        const ways: Frame[] = [];
        let rest: Frame = f;
        for (const clause of n.clauses) {
          this.list(clause.condition, rest);
          const truth = this.conditionValue(clause.condition, rest);
          if (truth === true) {
            this.list(clause.body, rest);
            return this.join(f, [...ways, rest]);
          }
          if (truth === undefined) {
            const taken = this.fork(rest);
            this.list(clause.body, taken);
            ways.push(taken);
          }
          rest = this.fork(rest);
        }
        if (n.otherwise) this.list(n.otherwise, rest);
        return this.join(f, [...ways, rest]);
      }
      case 'case': {
        const subject = this.expandJoined(n.subject, f);
        const ways: Frame[] = [];
        for (const arm of n.arms) {
          const patterns = arm.patterns.map((p) => this.expandJoined(p, f));
          if (subject.unknown.length === 0 && patterns.every((p) => p.unknown.length === 0)) {
            for (const p of patterns) this.charge(matchWork(p.text, subject.text), f.script);
            if (!patterns.some((p) => globMatches(p.text, subject.text))) continue;
            this.list(arm.body, f);
            return;
          }
          const taken = this.fork(f);
          this.list(arm.body, taken);
          ways.push(taken);
        }
        ways.push(this.fork(f)); // no arm matched
        return this.join(f, ways);
      }
      case 'for': {
        const items = n.items === undefined ? f.positional : n.items.flatMap((w) => this.expand(w, f));
        if (items.length > MAX_ITERATIONS) return;
        for (const item of items) {
          f.vars.set(n.variable, { values: [item], array: false });
          this.list(n.body, f);
          if (f.stopped === 'loop') f.stopped = undefined;
          if (f.stopped !== undefined) return;
        }
        return;
      }
      case 'loop': {
        // The condition runs at least once; the body may run or not.
        this.list(n.condition, f);
        const once = this.fork(f);
        this.list(n.body, once);
        if (once.stopped === 'loop') once.stopped = undefined;
        return this.join(f, [once, this.fork(f)]);
      }
    }
  }

  /** The frames of the ways taken, merged into `f`: a variable with different values becomes unknown. */
  private join(f: Frame, ways: Frame[]): void {
    const live = ways.filter((w) => w.stopped === undefined);
    if (live.length === 0) {
      f.stopped = ways.some((w) => w.stopped === 'exit')
        ? 'exit'
        : ways.some((w) => w.stopped === 'return')
          ? 'return'
          : 'loop';
      return;
    }
    for (const w of live) this.charge(ENTRY_UNITS * (w.vars.size + w.functions.size + w.exported.size), f.script);
    const names = new Set(live.flatMap((w) => [...w.vars.keys()]));
    for (const name of names) {
      const values = live.map((w) => w.vars.get(name));
      // Comparing the ways' values reads each value's reasons.
      for (const v of values)
        for (const x of v?.values ?? []) this.charge(ENTRY_UNITS + REASON_UNITS * x.unknown.length, f.script);
      const first = values[0];
      const longest = values.reduce((a, b) => ((b?.values.length ?? 0) > (a?.values.length ?? 0) ? b : a), first);
      if (values.every((v) => sameVariable(v, first))) {
        if (first === undefined) f.vars.delete(name);
        else f.vars.set(name, first);
      } else if (
        longest?.array &&
        values.every((v) => v !== undefined && v.array && isPrefix(v.values, longest.values))
      ) {
        // An array one way extends (options a script adds when the node supports them): read with the extension.
        f.vars.set(name, longest);
      } else {
        f.vars.set(name, {
          values: [
            { text: `\${${name}}`, unknown: [`\${${name}} is set differently on different paths of ${f.script.path}`] },
          ],
          array: false,
        });
      }
    }
    for (const w of live) for (const [k, v] of w.functions) f.functions.set(k, v);
    for (const w of live) for (const e of w.exported) f.exported.add(e);
  }

  /** Whether a condition is true, when it is a `[`/`test` on known values; else undefined. */
  private conditionValue(condition: readonly ShellNode[], f: Frame): boolean | undefined {
    if (condition.length !== 1 || condition[0]!.type !== 'simple') return undefined;
    const c = condition[0]!;
    const words = c.words.flatMap((w) => this.expand(w, f));
    if (words.some((w) => w.unknown.length > 0)) return undefined;
    let argv = words.map((w) => w.text);
    let negate = false;
    if (argv[0] === '!') {
      negate = true;
      argv = argv.slice(1);
    }
    if (argv[0] === '[' && argv[argv.length - 1] === ']') argv = argv.slice(1, -1);
    else if (argv[0] === 'test') argv = argv.slice(1);
    else return undefined;
    let value: boolean | undefined;
    if (argv.length === 2 && argv[0] === '-z') value = argv[1] === '';
    else if (argv.length === 2 && argv[0] === '-n') value = argv[1] !== '';
    else if (argv.length === 3 && (argv[1] === '=' || argv[1] === '==')) value = argv[0] === argv[2];
    else if (argv.length === 3 && argv[1] === '!=') value = argv[0] !== argv[2];
    return value === undefined ? undefined : negate ? !value : value;
  }

  private simple(n: Extract<ShellNode, { type: 'simple' }>, f: Frame): void {
    const assigned = n.assignments.map((a) => ({
      name: a.name,
      append: a.append,
      array: Array.isArray(a.value),
      values: Array.isArray(a.value) ? a.value.flatMap((w) => this.expand(w, f)) : [this.expandJoined(a.value, f)],
    }));
    const argv = n.words.flatMap((w) => this.expand(w, f));
    if (argv.length === 0) {
      for (const a of assigned) setVariable(f, a.name, a.values, a.array, a.append);
      return;
    }
    const redirects = n.redirects.map((r) => ({
      op: r.op,
      ...(r.target ? { target: this.expandJoined(r.target, f) } : {}),
      ...(r.heredoc
        ? { heredoc: r.heredoc.quoted ? this.quotedText(r.heredoc.body, f) : this.expandText(r.heredoc.body, f) }
        : {}),
    }));
    const stdin = n.piped ? f.lastOutput : undefined;
    f.lastOutput = undefined;
    this.host.onCommand({
      argv,
      redirects,
      script: f.script,
      line: n.line,
      captured: f.captured,
      ...(stdin ? { stdin } : {}),
    });
    this.run(argv, f, n.line);
  }

  /** What a command does to the evaluation: builtins that set state, functions and scripts followed. */
  private run(argv: Field[], f: Frame, line: number): void {
    const name = argv[0]!;
    if (name.unknown.length > 0) return;
    const args = argv.slice(1);
    const cmd = name.text.slice(name.text.lastIndexOf('/') + 1);
    switch (cmd) {
      case 'exit':
        f.stopped = 'exit';
        return;
      case 'return':
        f.stopped = 'return';
        return;
      case 'continue':
      case 'break':
        f.stopped = 'loop';
        return;
      case 'echo':
        f.lastOutput = this.joined(
          f,
          args.filter((a, k) => !(k === 0 && /^-[neE]+$/.test(a.text))),
        );
        return;
      case 'local':
      case 'declare':
      case 'typeset':
      case 'readonly':
      case 'export':
        for (const a of args) {
          const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=([\s\S]*))?$/.exec(a.text);
          if (m === null) continue;
          if (m[2] !== undefined) setVariable(f, m[1]!, [{ text: m[2], unknown: a.unknown }], false, false);
          else if (!f.vars.has(m[1]!) && cmd === 'local') f.vars.set(m[1]!, { values: [known('')], array: false });
          if (cmd === 'export') f.exported.add(m[1]!);
        }
        return;
      case 'set':
        if (args[0]?.text === '--') f.positional = args.slice(1);
        return;
      case 'mapfile':
      case 'readarray':
      case 'read': {
        // Variables read on the node (a file, a command's output): their values are the node's.
        const valued = cmd === 'read' ? /^-[deinNptu]$/ : /^-[dnOsuCc]$/;
        const names = args.filter(
          (a, k) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(a.text) && !valued.test(args[k - 1]?.text ?? ''),
        );
        const targets = cmd === 'read' ? names : names.slice(-1);
        for (const a of targets) {
          const why = `\${${a.text}} is read on the node (${cmd}, ${f.script.path} line ${line + 1})`;
          f.vars.set(a.text, { values: [{ text: `\${${a.text}}`, unknown: [why] }], array: cmd !== 'read' });
        }
        return;
      }
      case 'shift':
        f.positional = f.positional.slice(Number(args[0]?.text ?? '1') || 1);
        return;
      case '.':
      case 'source': {
        const path = args[0];
        if (path === undefined || path.unknown.length > 0) return;
        if (path.text === '/etc/os-release' || path.text === '/usr/lib/os-release') {
          for (const [k, v] of Object.entries(this.host.facts.osRelease))
            f.vars.set(k, { values: [known(v)], array: false });
          return;
        }
        const script = this.host.scriptAt(path.text);
        // A script that sources itself (or a cycle of them) is followed as deep as a function's recursion.
        if (script !== undefined && this.depth < MAX_DEPTH)
          this.withDepth(() => this.list(this.parse(script.content, script), { ...f, script }));
        return;
      }
      case 'sudo':
      case 'exec':
      case 'nohup':
      case 'time':
      case 'env': {
        let k = 0;
        while (
          k < args.length &&
          (args[k]!.text.startsWith('-') || (cmd === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[k]!.text)))
        )
          k++;
        if (k < args.length) this.run(args.slice(k), f, line);
        return;
      }
      case 'timeout': {
        let k = 0;
        while (k < args.length && args[k]!.text.startsWith('-')) k++;
        if (k + 1 < args.length) this.run(args.slice(k + 1), f, line);
        return;
      }
      case 'command':
        if (args[0]?.text === '-v' || args[0]?.text === '-V') return;
        if (args.length > 0) this.run(args, f, line);
        return;
      case 'bash':
      case 'sh': {
        const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a.text));
        if (c >= 0 && args[c + 1] !== undefined && args[c + 1]!.unknown.length === 0) {
          if (this.depth >= MAX_DEPTH) return;
          const frame: Frame = {
            vars: exportedVars(f),
            exported: new Set(f.exported),
            functions: new Map(),
            positional: args.slice(c + 3),
            script: f.script,
            captured: f.captured,
          };
          this.withDepth(() => this.list(this.parseLine(args[c + 1]!.text, line, f.script), frame));
          return;
        }
        const file = args.find((a) => !a.text.startsWith('-'));
        const script = file && file.unknown.length === 0 ? this.host.scriptAt(file.text) : undefined;
        if (script !== undefined) this.runScript(script, args.slice(args.indexOf(file!) + 1), exportedVars(f));
        return;
      }
    }
    const fn = f.functions.get(name.text);
    if (fn !== undefined) {
      if (this.depth >= MAX_DEPTH) return;
      const saved = f.positional;
      f.positional = args;
      this.withDepth(() => this.list(fn, f));
      f.positional = saved;
      if (f.stopped === 'return') f.stopped = undefined;
      return;
    }
    const script =
      this.host.scriptAt(name.text) ??
      (name.text.includes('/')
        ? undefined
        : (this.host.scriptAt(`/opt/bin/${name.text}`) ?? this.host.scriptAt(`/usr/local/bin/${name.text}`)));
    if (script !== undefined) this.runScript(script, args, exportedVars(f));
  }

  /** A word's fields (word splitting on unquoted expansions; arrays and "$@" give one field each). */
  private expand(w: Word, f: Frame): Field[] {
    const fields: Field[] = [];
    let current: Field | undefined;
    const append = (t: Field) => {
      this.chargeFields(f, current === undefined ? [t] : [current, t]);
      current =
        current === undefined
          ? { text: t.text, unknown: [...t.unknown] }
          : { text: current.text + t.text, unknown: [...current.unknown, ...t.unknown] };
    };
    const flush = () => {
      if (current !== undefined) fields.push(current);
      current = undefined;
    };
    for (const p of w.parts) {
      const values = this.partValues(p, f);
      const many = p.kind === 'param' && (p.index === '@' || p.name === '@');
      if (many) {
        values.forEach((v, k) => {
          if (k > 0) flush();
          append(v);
        });
        if (values.length === 0 && current === undefined && w.parts.length === 1) return [];
        continue;
      }
      const joined = this.joined(f, values);
      const unquoted = (p.kind === 'param' || p.kind === 'command') && !p.quoted && joined.unknown.length === 0;
      if (unquoted && /\s/.test(joined.text)) {
        const pieces = joined.text.split(/\s+/);
        pieces.forEach((piece, k) => {
          if (k > 0) flush();
          if (piece !== '') append(known(piece));
        });
        continue;
      }
      if (unquoted && joined.text === '' && w.parts.length === 1) return [];
      append(joined);
    }
    flush();
    return fields;
  }

  private expandJoined(w: Word, f: Frame): Field {
    const parts = w.parts.map((p) => this.joined(f, this.partValues(p, f)));
    this.chargeFields(f, parts);
    return { text: parts.map((p) => p.text).join(''), unknown: parts.flatMap((p) => p.unknown) };
  }

  /** A quoted here-document's body, as written: charged as read (the bill reads it again). */
  private quotedText(text: string, f: Frame): Field {
    this.charge(text.length, f.script);
    return known(text);
  }

  /** A here-document's body, expanded. */
  private expandText(text: string, f: Frame): Field {
    // Quoted again (three passes over the text) before it is parsed.
    this.charge(3 * text.length, f.script);
    let word: Word;
    try {
      word = new ShellWordReader(text, this.spender(f.script)).word();
    } catch (e) {
      if (e instanceof ShellNestingError) throw new EvaluationBudgetError(f.script, `found ${e.message}`);
      throw e;
    }
    return this.expandJoined(word, f);
  }

  private partValues(p: WordPart, f: Frame): Field[] {
    // A reason quotes the part's text: made anew at each expansion.
    if ('source' in p) this.charge(p.source.length, f.script);
    switch (p.kind) {
      case 'text':
        return [known(p.text)];
      case 'arithmetic':
        return [{ text: p.source, unknown: [`${p.source} is computed on the node`] }];
      case 'command':
        return [this.commandOutput(p, f)];
      case 'param':
        return this.paramValues(p, f);
    }
  }

  private paramValues(p: Extract<WordPart, { kind: 'param' }>, f: Frame): Field[] {
    const unknownParam = (why: string): Field[] => [{ text: p.source, unknown: [why] }];
    let values: Field[] | undefined;
    if (/^[0-9]+$/.test(p.name)) {
      const n = Number(p.name);
      values =
        n === 0 ? [known(f.script.path)] : f.positional[n - 1] === undefined ? undefined : [f.positional[n - 1]!];
      if (values === undefined && f.positional.length === 0 && f.script.path !== '' && p.op === undefined)
        return unknownParam(`${p.source} is an argument ${f.script.path} is called with, and no call of it was found`);
    } else if (p.name === '@' || p.name === '*') {
      values = f.positional;
    } else if (p.name === '#') {
      values = [known(String(f.positional.length))];
    } else if (/^[?$!-]$/.test(p.name)) {
      return unknownParam(`${p.source} is known only on the node`);
    } else {
      const v = f.vars.get(p.name);
      if (v !== undefined)
        values =
          p.index === '@' || p.index === '*'
            ? v.values
            : p.index !== undefined && /^\d+$/.test(p.index)
              ? v.values[Number(p.index)]
                ? [v.values[Number(p.index)]!]
                : []
              : v.values.slice(0, 1);
      else if (p.index === '@' || p.index === '*') values = [];
    }
    const set = values !== undefined;
    const value = this.joined(f, values ?? []);
    switch (p.op) {
      case undefined:
        return values ?? [known('')];
      case '#length':
        return value.unknown.length > 0
          ? unknownParam(`${p.source} is computed on the node`)
          : [known(String(value.text.length))];
      case ':-':
      case ':=':
        if (!set || value.text === '') return [this.expandJoined(p.arg!, f)];
        return [value];
      case '-':
      case '=':
        return set ? [value] : [this.expandJoined(p.arg!, f)];
      case ':+':
        return set && value.text !== '' ? [this.expandJoined(p.arg!, f)] : [known('')];
      case '+':
        return set ? [this.expandJoined(p.arg!, f)] : [known('')];
      case '%':
      case '%%':
      case '#':
      case '##': {
        const pattern = this.expandJoined(p.arg!, f);
        if (value.unknown.length > 0 || pattern.unknown.length > 0)
          return unknownParam(`${p.source} is computed on the node`);
        this.charge(2 * matchWork(pattern.text, value.text), f.script);
        return [known(trimPattern(value.text, pattern.text, p.op))];
      }
      default:
        return unknownParam(`${p.source} is computed on the node`);
    }
  }

  /** The output of a command the node answers the same way everywhere: a node fact, a static file, an echo. */
  private staticOutput(words: readonly string[]): string | undefined {
    const fact = factCommandOutput(words, this.host.facts);
    if (fact !== undefined) return fact;
    if (words[0] === 'cat' && words.length === 2) return this.host.fileAt(words[1]!)?.replace(/\n+$/, '');
    if (words[0] === 'echo' && !words[1]?.startsWith('-')) return words.slice(1).join(' ');
    return undefined;
  }

  /** A command substitution's output: a node fact, a static file's content, an echo; else unknown. Its commands run. */
  private commandOutput(p: Extract<WordPart, { kind: 'command' }>, f: Frame): Field {
    const sub: Frame = { ...this.fork(f), captured: true };
    this.list(p.body, sub);
    if (p.process) return { text: p.source, unknown: [`${p.source} is a file the shell makes on the node`] };
    const simple = p.body.every((n) => n.type === 'simple')
      ? (p.body as Array<Extract<ShellNode, { type: 'simple' }>>)
      : [];
    let output: string | undefined;
    for (const [k, node] of simple.entries()) {
      const argv = node.words.flatMap((w) => this.expand(w, f));
      if (argv.some((a) => a.unknown.length > 0) || (k > 0 && !node.piped)) {
        output = undefined;
        break;
      }
      const words = argv.map((a) => a.text);
      output = k === 0 ? this.staticOutput(words) : filterOutput(words, output);
      if (output === undefined) break;
    }
    if (output !== undefined) return known(output);
    return {
      text: p.source,
      unknown: [
        `the output of \`${p.source
          .replace(/^\$\(|\)$/g, '')
          .replace(/\s+/g, ' ')
          .trim()}\` is known only on the node`,
      ],
    };
  }
}

/** What `tr` does to a known input, for the case conversions scripts use; undefined for any other filter. */
function filterOutput(words: readonly string[], input: string | undefined): string | undefined {
  if (input === undefined || words[0] !== 'tr' || words.length !== 3) return undefined;
  const upper = (w: string) => w === '[:upper:]' || w === 'A-Z';
  const lower = (w: string) => w === '[:lower:]' || w === 'a-z';
  if (upper(words[1]!) && lower(words[2]!)) return input.toLowerCase();
  if (lower(words[1]!) && upper(words[2]!)) return input.toUpperCase();
  return undefined;
}

/** Reads a here-document body as one double-quoted word (its expansions, nothing else). */
class ShellWordReader {
  constructor(
    private readonly text: string,
    private readonly spend: (units: number) => void,
  ) {}
  word(): Word {
    const quoted = `"${this.text
      .replace(/\\/g, '\\\\')
      .replace(/"/g, '\\"')
      .replace(/\\\\\$/g, '\\$')}"`;
    const nodes = parseShell(`: ${quoted}`, 0, this.spend);
    const first = nodes[0];
    return first?.type === 'simple' && first.words[1]
      ? first.words[1]
      : { parts: [{ kind: 'text', text: this.text, quoted: true }], source: this.text };
  }
}

function fork(f: Frame): Frame {
  return {
    ...f,
    vars: new Map(f.vars),
    exported: new Set(f.exported),
    functions: new Map(f.functions),
    positional: [...f.positional],
  };
}

function exportedVars(f: Frame): Map<string, Variable> {
  return new Map([...f.vars].filter(([k]) => f.exported.has(k)));
}

function isPrefix(a: readonly Field[], b: readonly Field[]): boolean {
  return a.length <= b.length && a.every((v, k) => v.text === b[k]!.text);
}

function setVariable(f: Frame, name: string, values: Field[], array: boolean, append: boolean): void {
  const old = f.vars.get(name);
  if (append && old !== undefined)
    f.vars.set(name, {
      values: array ? [...old.values, ...values] : [joinFields([...old.values.slice(0, 1), ...values])],
      array: old.array || array,
    });
  else f.vars.set(name, { values, array });
}

function sameVariable(a: Variable | undefined, b: Variable | undefined): boolean {
  if (a === undefined || b === undefined || a === b) return a === b;
  return (
    a.values.length === b.values.length &&
    a.values.every((v, k) => v.text === b.values[k]!.text && sameReasons(v.unknown, b.values[k]!.unknown))
  );
}

/** Reason by reason (no joined copy: a value may carry many, compared at every join). */
function sameReasons(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((r, k) => r === b[k]));
}

export function joinFields(values: readonly Field[]): Field {
  return { text: values.map((v) => v.text).join(' '), unknown: values.flatMap((v) => v.unknown) };
}
