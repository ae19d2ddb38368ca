// Parse once, execute many times: an OSP's templates are rendered for every MachineDeployment that uses it,
// so parsed template sets are kept for the run, keyed by template name and texts. The second-pass texts
// (named-template outputs wrapped in {{define}}) usually repeat across MachineDeployments too.
import {
  DEFAULT_LIMITS,
  executionMeter,
  LimitError,
  newTemplate,
  SharedRunMeter,
  TemplateError,
  type FuncMap,
  type Meter,
  type Template,
  type TemplateLimits,
} from '../template/index.ts';
import { lookupKey } from '../go/internal/hashableKey.ts';

// Bounds memory when outputs differ per MachineDeployment (each entry is a parse tree of an OSP file).
const MAX_ENTRIES = 4096;

interface Node {
  template?: Template;
  next?: Map<string, Node>;
}

export class TemplateCache {
  // A trie by name, then by each text: no key string is built, and texts that come from the OSP keep
  // their cached hashes across lookups.
  private readonly root = new Map<string, Node>();
  private size = 0;
  parses = 0;
  // A template stopped by a limit (cost, steps...) once fails the run: it is not run again for every other
  // MachineDeployment, which would multiply the time a hostile OSP takes.
  private readonly limitFailures = new WeakMap<Template, TemplateError>();

  /** What the run's templates spend together (cost.ts): every parse, every execution, every output kept. */
  private readonly run: Meter;
  private readonly full: TemplateLimits;

  constructor(
    private readonly funcs: FuncMap,
    private readonly limits: Partial<TemplateLimits>,
    /** Shared with other runs (lint renders a profile many times, diff two sides); the run's own when unset. */
    run?: SharedRunMeter,
  ) {
    this.full = { ...DEFAULT_LIMITS, ...limits };
    this.run = (run ?? new SharedRunMeter()).for(this.full.maxWork, this.full.maxMemoryBytes);
  }

  /** What one template may output, and one MachineDeployment's templates together. */
  get maxOutputBytes(): number {
    return this.full.maxOutputBytes;
  }

  /** The template `name` with every text parsed into it in order; throws the engine's TemplateError. */
  get(name: string, texts: readonly string[]): Template {
    const full = this.size >= MAX_ENTRIES;
    let node = this.child(this.root, name, full);
    for (let i = 0; node !== undefined && i < texts.length; i++)
      node = this.child((node.next ??= new Map()), texts[i]!, full);
    if (node?.template !== undefined) return node.template;
    const t = newTemplate(name, { funcs: this.funcs, limits: this.limits });
    // Parsed on the run's meter: a text made at run time (a named template's output, parsed again into every
    // file) costs in proportion to its items.
    for (const text of texts) t.parse(text, this.run);
    this.parses++;
    if (node !== undefined) {
      node.template = t;
      this.size++;
    }
    return t;
  }

  /** Executes `get(name, texts)` with `data`; throws the engine's TemplateError. */
  execute(name: string, texts: readonly string[], data: unknown): string {
    const t = this.get(name, texts);
    const failed = this.limitFailures.get(t);
    if (failed !== undefined) throw failed;
    // Spent: every template after this fails at once, naming the run's limit.
    if (this.run.work >= this.run.maxWork) this.charge(() => this.run.exceeded('work'), name);
    const meter = executionMeter(this.full.maxWork, this.full.maxMemoryBytes, this.run);
    try {
      const output = t.execute(data, meter);
      // The output is kept for the run's life (in the objects emitted): charged as the run's memory.
      this.charge(() => this.run.build(output.length), name);
      return output;
    } catch (e) {
      if (e instanceof TemplateError && e.limit) this.limitFailures.set(t, e);
      throw e;
    } finally {
      this.charge(() => this.run.spend(meter.work), name);
    }
  }

  /** A charge to the run's meter, its limit reported as the engine reports its own. */
  private charge(spend: () => void, name: string): void {
    try {
      spend();
    } catch (e) {
      if (e instanceof LimitError)
        throw new TemplateError(`template: ${name}: ${e.message}`, 'exec', name, undefined, undefined, true);
      throw e;
    }
  }

  /**
   * Once full, the trie only answers: no new entries (and no texts kept alive by them). A name or text longer
   * than V8 hashes by content is looked up by its digest (lookupKey): file paths and contents are input.
   */
  private child(map: Map<string, Node>, text: string, lookupOnly: boolean): Node | undefined {
    const key = lookupKey(text);
    let node = map.get(key);
    if (node === undefined && !lookupOnly) {
      node = {};
      map.set(key, node);
    }
    return node;
  }
}
