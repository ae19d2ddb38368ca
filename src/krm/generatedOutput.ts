// The output of a run under construction: each generated object is written as an entry as soon as it is made
// (a run keeps texts and identities only, never the objects), and the finished list orders the kept inputs.
import { compareItems, identityOf } from './itemOrder.ts';
import { generatedEntry, type InputItem, type KrmObject, type OutputList, type ResourceList } from './resourceList.ts';
import type { Result } from './results.ts';

/** A generated object as written: its identity (apiVersion/kind/namespace/name) and its output entry. */
export interface GeneratedEntry {
  id: string;
  entry: string;
}

export class GeneratedOutput {
  readonly entries: string[] = [];
  readonly ids = new Set<string>();

  constructor(private readonly list: Pick<ResourceList, 'itemIndent'>) {}

  /** `obj` written as an entry of the output's items; throws InvalidUnicodeError for a string with no UTF-8 bytes. */
  entryOf(obj: object): GeneratedEntry {
    return { id: identityOf(obj as KrmObject), entry: generatedEntry(this.list, obj) };
  }

  add(obj: object): void {
    this.addEntry(this.entryOf(obj));
  }

  addEntry({ id, entry }: GeneratedEntry): void {
    this.ids.add(id);
    this.entries.push(entry);
  }

  /**
   * The finished list: the kept inputs in their total order, less those a generated object replaces
   * (kustomize's and kpt's upsert) unless `alwaysKept` holds them, then the generated entries.
   */
  outputList(
    kept: readonly InputItem[],
    results: readonly Result[],
    alwaysKept: ReadonlySet<InputItem> = new Set(),
  ): OutputList {
    const stays = kept.filter((i) => alwaysKept.has(i) || !this.ids.has(identityOf(i.object)));
    return { kept: stays.sort(compareItems), generated: this.entries, results };
  }
}

/** A run that failed: every input item kept as it was, in the total order, and nothing generated. */
export function failedOutputList(items: readonly InputItem[], results: readonly Result[]): OutputList {
  return { kept: [...items].sort(compareItems), generated: [], results };
}
