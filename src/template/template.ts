// The public face of the engine, shaped like Go's: a named template set that can be parsed into several
// times (adding {{define}}s) and executed many times.
import { ExecError, Executor, LimitError, type TemplateLimits, type TreeEntry } from './exec.ts';
import { isEmptyTree, ParseError, parseTemplate } from './parser.ts';
import type { FuncMap } from './functions.ts';
import { TemplateError } from './errors.ts';

export const DEFAULT_LIMITS: TemplateLimits = Object.freeze({
  // Go allows 100000 nested template calls; a JS stack does not, so we stop much earlier, with a clear error.
  maxDepth: 1000,
  maxOutputBytes: 16 * 1024 * 1024,
  maxRangeIterations: 1_000_000,
  maxSteps: 10_000_000,
});

export class Template {
  private readonly trees = new Map<string, TreeEntry>();
  private readonly limits: TemplateLimits;

  constructor(
    readonly name: string,
    private readonly funcs: FuncMap,
    limits: Partial<TemplateLimits>,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Like Go's (*Template).Parse: adds the main text and every {{define}}; an empty body never replaces one. */
  parse(text: string): this {
    let parsed;
    try {
      parsed = parseTemplate(this.name, text, (fn) => Object.prototype.hasOwnProperty.call(this.funcs, fn));
    } catch (e) {
      if (e instanceof ParseError) throw new TemplateError(e.message, 'parse', this.name, lineOf(e.message));
      if (e instanceof RangeError) throw new TemplateError(`template: ${this.name}: template is too deeply nested to parse`, 'parse', this.name);
      throw e;
    }
    for (const [name, tree] of parsed) {
      const old = this.trees.get(name);
      if (old !== undefined && isEmptyTree(tree.root)) continue;
      this.trees.set(name, { name, root: tree.root, parseName: this.name, text });
    }
    return this;
  }

  lookup(name: string): boolean {
    return this.trees.has(name);
  }

  definedTemplates(): string {
    const names = [...this.trees.keys()].sort();
    return names.length === 0 ? '' : '; defined templates are: ' + names.map((n) => JSON.stringify(n)).join(', ');
  }

  execute(data: unknown): string {
    return this.executeTemplate(this.name, data);
  }

  executeTemplate(name: string, data: unknown): string {
    return this.run(name, data);
  }

  private run(name: string, data: unknown): string {
    const tree = this.trees.get(name);
    if (tree === undefined) {
      const msg = name === this.name
        ? `template: ${name}: ${JSON.stringify(name)} is an incomplete or empty template`
        : `template: no template ${JSON.stringify(name)} associated with template ${JSON.stringify(this.name)}`;
      throw new TemplateError(msg, 'exec', name);
    }
    const ex = new Executor(this.trees, this.funcs, this.limits, tree);
    try {
      return ex.run(data);
    } catch (e) {
      if (e instanceof ExecError) throw new TemplateError(e.message, 'exec', name, e.line, e.column);
      try {
        if (e instanceof LimitError) ex.limitError(e);
        if (e instanceof RangeError) ex.errorf('template execution is too deeply nested');
        ex.errorf(`internal error: ${(e as Error)?.message ?? String(e)}`);
      } catch (inner) {
        if (inner instanceof ExecError) throw new TemplateError(inner.message, 'exec', name, inner.line, inner.column);
        throw new TemplateError(`template: ${name}: ${(inner as Error)?.message ?? String(inner)}`, 'exec', name);
      }
      throw new TemplateError(`template: ${name}: execution failed`, 'exec', name);
    }
  }
}

function lineOf(message: string): number | undefined {
  const m = /^template: [^:]*:(\d+):/.exec(message);
  return m ? Number(m[1]) : undefined;
}

export function newTemplate(name: string, options: { funcs?: FuncMap; limits?: Partial<TemplateLimits> } = {}): Template {
  return new Template(name, options.funcs ?? {}, options.limits ?? {});
}
