// The public face of the engine, shaped like Go's *template.Template: a named set of templates that can be
// parsed into several times (adding or redefining {{define}}s) and executed many times.
import { Executor, type TemplateLimits, type TreeEntry } from './exec.ts';
import { ParseError, parseTemplate } from './parser.ts';
import type { FuncMap } from '../go/reflect/func.ts';
import { errorLocation, ExecError, LimitError, TemplateError } from './errors.ts';
import { isEmptyTree } from './parser.ts';
import { goQuote } from '../go/fmt/format.ts';
import { templateMeter } from './cost.ts';
import type { Meter } from '../go/internal/meter.ts';
import { lookupKey } from '../go/internal/hashableKey.ts';

export const DEFAULT_LIMITS: Readonly<TemplateLimits> = Object.freeze({
  // Go stops at 100000 nested template calls, deeper than a JS stack reaches; legit OSPs nest a few levels.
  maxDepth: 1000,
  maxOutputBytes: 16 * 1024 * 1024,
  maxRangeIterations: 1_000_000,
  maxSteps: 10_000_000,
  maxWork: 500_000_000,
  maxMemoryBytes: 256 * 1024 * 1024,
});

export class Template {
  private readonly trees = new Map<string, TreeEntry>();
  private readonly limits: TemplateLimits;
  private readonly hasFunction: (name: string) => boolean;

  constructor(
    readonly name: string,
    private readonly funcs: FuncMap,
    limits: Partial<TemplateLimits>,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.hasFunction = (fn) => Object.prototype.hasOwnProperty.call(this.funcs, fn);
  }

  /**
   * Like Go's (*Template).Parse: adds the main template and every {{define}}/{{block}} of `text`. A later
   * non-empty definition replaces an earlier one; an empty one (only spaces) never does. On error nothing
   * is added. `meter` is charged for lexing and for each item, before it is made: a text made at run time
   * (OSM's named templates are parsed again into every file) must fit in what is left. There is no unmetered
   * parse: without `meter`, one with this template's limits (a parse tree is many times its text).
   */
  parse(text: string, meter: Meter = this.newMeter()): this {
    let trees;
    try {
      trees = parseTemplate(this.name, text, this.hasFunction, new Map(), meter);
    } catch (e) {
      if (e instanceof LimitError)
        throw new TemplateError(`template: ${this.name}: ${e.message}`, 'parse', this.name, undefined, undefined, true);
      if (e instanceof ParseError) {
        // Go's parse errors give a line only; the position of the offending item adds the column.
        const at = errorLocation(text, e.pos);
        throw new TemplateError(e.message, 'parse', this.name, at.line, at.column);
      }
      if (e instanceof RangeError) {
        throw new TemplateError(`template: ${this.name}: template is too deeply nested to parse`, 'parse', this.name);
      }
      throw e;
    }
    for (const [key, tree] of trees) {
      const old = this.trees.get(key);
      if (old !== undefined && isEmptyTree(tree.root)) continue;
      this.trees.set(key, { name: tree.name, root: tree.root, parseName: this.name, text });
    }
    return this;
  }

  lookup(name: string): boolean {
    return this.trees.has(lookupKey(name));
  }

  /** Go's DefinedTemplates (names sorted, where Go's order is random): "; defined templates are: ..." or "". */
  definedTemplates(): string {
    const names = [...this.trees.values()].map((t) => t.name).sort();
    return names.length === 0 ? '' : '; defined templates are: ' + names.map((n) => goQuote(n)).join(', ');
  }

  /** A meter with this template's work and memory limits, for one execution (or several that share a budget). */
  newMeter(): Meter {
    return templateMeter(this.limits.maxWork, this.limits.maxMemoryBytes);
  }

  /** Executes the template on `data`, charging `meter` (by default one of its own, with the template's limits). */
  execute(data: unknown, meter: Meter = this.newMeter()): string {
    const tree = this.trees.get(lookupKey(this.name));
    if (tree === undefined) {
      throw new TemplateError(
        `template: ${this.name}: ${goQuote(this.name)} is an incomplete or empty template`,
        'exec',
        this.name,
      );
    }
    return this.run(tree, data, meter);
  }

  executeTemplate(name: string, data: unknown, meter: Meter = this.newMeter()): string {
    const tree = this.trees.get(lookupKey(name));
    if (tree === undefined) {
      throw new TemplateError(
        `template: no template ${goQuote(name)} associated with template ${goQuote(this.name)}`,
        'exec',
        name,
      );
    }
    return this.run(tree, data, meter);
  }

  private run(tree: TreeEntry, data: unknown, meter: Meter): string {
    const ex = new Executor(this.trees, this.funcs, this.limits, tree, meter);
    let limit = false;
    try {
      try {
        return ex.run(data);
      } catch (e) {
        // Our limits and a JS stack overflow are reported like Go errors, at the node being executed.
        limit = e instanceof LimitError;
        if (e instanceof LimitError) ex.errorf(e.message);
        if (e instanceof RangeError) ex.errorf('template execution is nested too deeply');
        throw e;
      }
    } catch (e) {
      if (e instanceof ExecError) throw new TemplateError(e.message, 'exec', e.templateName, e.line, e.column, limit);
      if (e instanceof TemplateError) throw e;
      // Never let a raw exception out.
      const message = e instanceof Error ? e.message : String(e);
      throw new TemplateError(`template: ${tree.name}: internal error: ${message}`, 'exec', tree.name);
    }
  }
}

export function newTemplate(
  name: string,
  options: { funcs?: FuncMap; limits?: Partial<TemplateLimits> } = {},
): Template {
  return new Template(name, options.funcs ?? {}, options.limits ?? {});
}
