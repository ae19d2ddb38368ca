// Helm/OSM's toToml: BurntSushi/toml's encoder (two-space indent per table level, plain values before
// tables, sorted keys, a blank line before each top-level table).
import { GoCallError } from '../functions.ts';
import { GoInt, GoPointer, GoStruct, isGoMap, isNilContainer } from '../values.ts';
import { formatFloat } from '../goFormat.ts';
import { tomlKey, tomlString } from '../../emit/containerd/toml.ts';

type Entries = Array<[string, unknown]>;

const entriesOf = (v: unknown): Entries =>
  v instanceof GoStruct ? Object.entries(v.fields) : Object.keys(v as object).sort().map((k) => [k, (v as Record<string, unknown>)[k]]);
const isTable = (v: unknown) => isGoMap(v) || v instanceof GoStruct;
const isArrayOfTables = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every(isTable);

function value(v: unknown): string {
  while (v instanceof GoPointer) v = v.elem;
  if (v instanceof GoInt) return v.value.toString();
  switch (typeof v) {
    case 'string': return tomlString(v);
    case 'bigint': return v.toString();
    case 'boolean': return String(v);
    case 'number': {
      if (Number.isNaN(v)) return 'nan';
      if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
      const s = formatFloat(v, 'f', -1);
      return Number.isInteger(v) && !s.includes('e') ? `${s}.0` : s;
    }
  }
  if (Array.isArray(v)) return '[' + v.map(value).join(', ') + ']';
  throw new GoCallError(`toml: cannot encode a value of type ${typeof v}`);
}

export function marshalToml(v: unknown): string {
  while (v instanceof GoPointer) v = v.elem;
  if (!isTable(v)) throw new GoCallError('toml: top-level values must be Go maps or structs');
  const out: string[] = [];
  let written = false;
  const write = (s: string) => {
    out.push(s);
    written = true;
  };
  const table = (key: string[], t: unknown) => {
    const indent = '  '.repeat(Math.max(0, key.length - 1));
    // Nil values (and nil slices and maps) are left out.
    const fields = entriesOf(t).filter(([, x]) => x !== null && x !== undefined && !isNilContainer(x));
    for (const [k, x] of fields) if (!isTable(x) && !isArrayOfTables(x)) write(`${key.length > 0 ? indent + '  ' : ''}${tomlKey(k)} = ${value(x)}\n`);
    for (const [k, x] of fields) {
      const sub = [...key, k];
      const subIndent = '  '.repeat(sub.length - 1);
      const name = sub.map(tomlKey).join('.');
      if (isTable(x)) {
        if (sub.length === 1 && written) write('\n');
        write(`${subIndent}[${name}]\n`);
        table(sub, x);
      } else if (isArrayOfTables(x)) {
        for (const item of x as unknown[]) {
          if (written) write('\n');
          write(`${subIndent}[[${name}]]\n`);
          table(sub, item);
        }
      }
    }
  };
  table([], v);
  return out.join('');
}
