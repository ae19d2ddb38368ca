// Parse once, execute many times: an OSP's templates are rendered for every MachineDeployment that uses it,
// so parsed template sets are kept for the run, keyed by template name and texts. The second-pass texts
// (named-template outputs wrapped in {{define}}) usually repeat across MachineDeployments too.
import { newTemplate, type FuncMap, type Template, type TemplateLimits } from '../template/index.ts';

// Bounds memory when outputs differ per MachineDeployment (each entry is a parse tree of an OSP file).
const MAX_ENTRIES = 4096;

export class TemplateCache {
  private readonly entries = new Map<string, Template>();
  parses = 0;

  constructor(
    private readonly funcs: FuncMap,
    private readonly limits: Partial<TemplateLimits>,
  ) {}

  /** The template `name` with every text parsed into it in order; throws the engine's TemplateError. */
  get(name: string, texts: readonly string[]): Template {
    // Length-prefixed parts: no two (name, texts) pairs share a key, whatever characters they hold.
    let key = `${name.length}:${name}`;
    for (const text of texts) key += `${text.length}:${text}`;
    const cached = this.entries.get(key);
    if (cached !== undefined) return cached;
    const t = newTemplate(name, { funcs: this.funcs, limits: this.limits });
    for (const text of texts) t.parse(text);
    this.parses++;
    if (this.entries.size < MAX_ENTRIES) this.entries.set(key, t);
    return t;
  }
}
