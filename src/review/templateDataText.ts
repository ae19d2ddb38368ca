// The template data of one MachineDeployment as `render --explain` shows it: one `.Field` per line, each value
// printed with Go's %#v (type and value, as `{{ printf "%#v" .Field }}` would show it in the OSP), except that a
// pointer shows what it points to (`&"..."`) instead of an address: the value is what a reviewer needs, and
// `{{ .NoProxy }}` prints it too (text/template follows pointers when printing).
import { sprintf } from '../go/fmt/format.ts';
import { UNMETERED } from '../go/internal/meter.ts';
import { GoPointer, GoStruct, exportedFields } from '../go/reflect/value.ts';

export function describeTemplateData(data: unknown): string[] {
  const struct = data instanceof GoPointer ? data.elem : data;
  if (!(struct instanceof GoStruct)) return [describeValue(data)];
  return exportedFields(struct).map(([name, value]) => `.${name} = ${describeValue(value)}`);
}

/** %#v, with every non-nil pointer (at any depth of structs) shown as `&` and its value. */
function describeValue(v: unknown): string {
  if (v instanceof GoPointer && v.elem !== null) return `&${describeValue(v.elem)}`;
  if (v instanceof GoStruct && Object.values(v.fields).some(holdsPointer)) {
    const fields = Object.entries(v.fields).map(
      ([name, f]) => `${name}:${f === null || f === undefined ? 'interface {}(nil)' : describeValue(f)}`,
    );
    return `${v.typeName}{${fields.join(', ')}}`;
  }
  return sprintf('%#v', [v], UNMETERED);
}

function holdsPointer(v: unknown): boolean {
  return (
    (v instanceof GoPointer && v.elem !== null) || (v instanceof GoStruct && Object.values(v.fields).some(holdsPointer))
  );
}
